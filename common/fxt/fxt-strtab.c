// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-strtab.c - the writer's string table (fxt-strtab.h): which index a
 * record's string has, and which string record it takes first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-intern.h"
#include "fxt-strtab.h"

#define NR_STR_SLOTS		(FXT_MAX_STRING_INDEX + 1)	/* 0 unused */

int fxt_strtab_init(struct fxt_strtab *t, bool inline_all)
{
	memset(t, 0, sizeof(*t));
	t->inline_all = inline_all;
	t->hand = 1;
	t->in = fxt_intern_create();
	return t->in ? 0 : -ENOMEM;
}

void fxt_strtab_release(struct fxt_strtab *t)
{
	free(t->gslot);
	free(t->gsid);
	fxt_intern_destroy(t->in);
}

void fxt_strtab_prov_reset(struct fxt_strtab_prov *p)
{
	if (p->sid)
		memset(p->sid, 0, p->sid_cap * sizeof(*p->sid));
}

void fxt_strtab_prov_release(struct fxt_strtab_prov *p)
{
	free(p->sid);
}

int64_t fxt_strtab_intern(struct fxt_strtab *t, const char *s, size_t len)
{
	if (len > FXT_MAX_STRING_LEN)
		return -E2BIG;
	return fxt_intern_add(t->in, s, len);
}

/* An index for a new string: a free one, else a clock sweep's victim. */
static uint32_t strtab_victim(struct fxt_strtab *t, uint32_t seq)
{
	if (t->used < FXT_MAX_STRING_INDEX)
		return ++t->used;
	for (;;) {
		uint32_t s = t->hand;
		struct fxt_strtab_slot *g = &t->gslot[s];

		t->hand = s % FXT_MAX_STRING_INDEX + 1;
		if (g->pin == seq)
			continue;
		if (g->ref) {
			g->ref = 0;
			continue;
		}
		return s;
	}
}

/* Room for a new index and for string id @id in the file's tables. */
static int strtab_grow(struct fxt_strtab *t, uint32_t id)
{
	if (id >= t->gsid_cap) {
		uint32_t cap = t->gsid_cap < 64 ? 64 : 2 * t->gsid_cap;
		uint16_t *n;

		if (cap <= id)
			cap = id + 1;
		n = realloc(t->gsid, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + t->gsid_cap, 0, (cap - t->gsid_cap) * sizeof(*n));
		t->gsid = n;
		t->gsid_cap = cap;
	}
	if (t->used < FXT_MAX_STRING_INDEX && t->used + 1 >= t->slot_cap) {
		uint32_t cap = t->slot_cap ? 2 * t->slot_cap : 64;
		struct fxt_strtab_slot *n;

		if (cap > NR_STR_SLOTS)
			cap = NR_STR_SLOTS;
		n = realloc(t->gslot, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + t->slot_cap, 0, (cap - t->slot_cap) * sizeof(*n));
		t->gslot = n;
		t->slot_cap = cap;
	}
	return 0;
}

/* Room for string id @id in provider @p's part. */
static int strtab_prov_grow(struct fxt_strtab_prov *p, uint32_t id)
{
	/* Sized by the ids this provider uses, not by all of them. */
	uint32_t cap = p->sid_cap < 64 ? 64 : 2 * p->sid_cap;
	struct fxt_strtab_sid *n;

	if (cap <= id)
		cap = id + 1;
	n = realloc(p->sid, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + p->sid_cap, 0, (cap - p->sid_cap) * sizeof(*n));
	p->sid = n;
	p->sid_cap = cap;
	return 0;
}

/*
 * Provider @p has not written string id @id at its current index: give
 * the id an index (the one it has if another provider wrote it, else a
 * new or replaced one) and say which string record goes first.
 */
static __attribute__((noinline)) int
strtab_miss(struct fxt_strtab *t, struct fxt_strtab_prov *p, uint32_t id,
	    uint32_t seq, struct fxt_sref *out, struct fxt_strdef *def)
{
	struct fxt_strtab_slot *g;
	struct fxt_strtab_sid *e;
	const char *text;
	uint32_t len, slot;
	int ret;

	text = fxt_intern_text(t->in, id, &len);
	if (!text)
		return -EINVAL;
	if (!len) {
		out->ref = 0;
		return 0;
	}
	if (id >= p->sid_cap) {
		ret = strtab_prov_grow(p, id);
		if (ret)
			return ret;
	}
	ret = strtab_grow(t, id);
	if (ret)
		return ret;
	/* the same value at the same index when another provider has it */
	slot = t->gsid[id];
	if (!slot) {
		slot = strtab_victim(t, seq);
		g = &t->gslot[slot];
		if (g->sid)
			t->gsid[g->sid] = 0;
		g->sid = id;
		g->gen++;
		t->gsid[id] = (uint16_t)slot;
	}
	fxt_strtab_mark(t, slot, seq);
	g = &t->gslot[slot];
	g->len = (uint16_t)len;
	e = &p->sid[id];
	e->slot = (uint16_t)slot;
	e->gen = g->gen;
	def->slot = slot;
	def->text = text;
	def->len = len;
	out->ref = (uint16_t)slot;
	return 0;
}

static inline int strtab_ref_id(struct fxt_strtab *t,
				struct fxt_strtab_prov *p, uint32_t id,
				uint32_t seq, struct fxt_sref *out,
				struct fxt_strdef *def)
{
	uint32_t slot = fxt_strtab_hit_id(t, p, id);

	if (!slot)
		return strtab_miss(t, p, id, seq, out, def);
	fxt_strtab_mark(t, slot, seq);
	out->ref = (uint16_t)slot;
	return 0;
}

/* The slot of the recent-text cache a (pointer, length) pair goes to. */
static inline size_t strtab_recent_slot(const struct fxt_str *s)
{
	uintptr_t k = (uintptr_t)s->ptr;

	return ((k >> 3) ^ (k >> 11) ^ s->len) % FXT_STRTAB_RECENT;
}

static inline void strtab_remember(struct fxt_strtab *t, size_t c,
				   const struct fxt_str *s, uint32_t id)
{
	t->recent[c].ptr = s->ptr;
	t->recent[c].len = s->len;
	t->recent[c].id = id;
}

/*
 * The string id of the text of @s (cache slot @c), if the registry has
 * it: from the cache when the pair is there with the same text, else
 * from the registry, remembered.  0 when the registry does not have it.
 */
static uint32_t strtab_find(struct fxt_strtab *t, const struct fxt_str *s,
			    size_t c)
{
	const char *text;
	uint32_t id, len;

	if (t->recent[c].ptr == s->ptr && t->recent[c].len == s->len) {
		text = fxt_intern_text(t->in, t->recent[c].id, &len);
		if (!memcmp(text, s->ptr, len))
			return t->recent[c].id;
	}
	id = fxt_intern_find(t->in, s->ptr, s->len);
	if (id)
		strtab_remember(t, c, s, id);
	return id;
}

/* A string given by text (or forced inline). */
static __attribute__((noinline)) int
strtab_resolve_text(struct fxt_strtab *t, struct fxt_strtab_prov *p,
		    const struct fxt_str *s, uint32_t seq,
		    struct fxt_sref *out, struct fxt_strdef *def)
{
	uint32_t id = s->id;

	if (!s->len) {
		out->ref = 0;
		return 0;
	}
	if (s->len > FXT_MAX_STRING_LEN)
		return -E2BIG;
	if (!id && !t->inline_all) {
		size_t c = strtab_recent_slot(s);

		id = strtab_find(t, s, c);
		if (!id && fxt_intern_seen(t->in, s->ptr, s->len)) {
			int64_t r = fxt_intern_add(t->in, s->ptr, s->len);

			if (r < 0)
				return (int)r;
			id = (uint32_t)r;
			strtab_remember(t, c, s, id);
		}
		if (id)
			return strtab_ref_id(t, p, id, seq, out, def);
	}
	out->ref = (uint16_t)(FXT_SREF_INLINE | s->len);
	out->ptr = s->ptr;
	out->len = s->len;
	return 0;
}

/* What fxt_strtab_resolve() does not settle inline. */
int fxt_strtab_resolve_slow(struct fxt_strtab *t, struct fxt_strtab_prov *p,
			    const struct fxt_str *s, uint32_t seq,
			    struct fxt_sref *out, struct fxt_strdef *def)
{
	if (s->id && s->id != FXT_STR_INLINE)
		return strtab_ref_id(t, p, s->id, seq, out, def);
	return strtab_resolve_text(t, p, s, seq, out, def);
}

int fxt_strtab_words(struct fxt_strtab *t, const struct fxt_str *s,
		     bool exact, uint64_t *words)
{
	if (s->id && s->id != FXT_STR_INLINE)
		return fxt_intern_text(t->in, s->id, NULL) ? 0 : -EINVAL;
	if (!s->len)
		return 0;
	if (s->len > FXT_MAX_STRING_LEN)
		return -E2BIG;
	if (exact && !s->id && !t->inline_all &&
	    (fxt_intern_find(t->in, s->ptr, s->len) ||
	     fxt_intern_seen_peek(t->in, s->ptr, s->len)))
		return 0;
	*words += fxt_words(s->len);
	return 0;
}

__attribute__((noinline))
uint32_t fxt_strtab_hit_text(struct fxt_strtab *t,
			     const struct fxt_strtab_prov *p,
			     const struct fxt_str *s)
{
	uint32_t id;

	if (!s->len || s->len > FXT_MAX_STRING_LEN || t->inline_all)
		return 0;
	id = strtab_find(t, s, strtab_recent_slot(s));
	return id ? fxt_strtab_hit_id(t, p, id) : 0;
}
