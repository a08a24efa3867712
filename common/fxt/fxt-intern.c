// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-intern.c - the writer's string registry: open hashing over an array
 * of entries that never move, so ids are plain array indexes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-intern.h"

#define SEEN_BITS	16

struct entry {
	char		*text;
	uint32_t	len;
	uint32_t	next;	/* chain in the bucket, 0 ends it */
	uint64_t	hash;
};

struct fxt_intern {
	struct entry	*entries;	/* [0] unused: id 0 is "none" */
	uint32_t	nr;		/* next id */
	uint32_t	cap;
	uint32_t	*buckets;
	uint32_t	nbuckets;	/* power of two */
	uint32_t	seen[1u << SEEN_BITS];
};

/* A 64-bit multiply-xorshift hash, eight bytes at a time. */
static uint64_t hash_bytes(const char *s, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t h = len * k, v;

	while (len >= 8) {
		memcpy(&v, s, 8);
		h = (h ^ v) * k;
		h ^= h >> 29;
		s += 8;
		len -= 8;
	}
	if (len) {
		v = 0;
		memcpy(&v, s, len);
		h = (h ^ v) * k;
		h ^= h >> 29;
	}
	h *= k;
	return h ^ (h >> 32);
}

struct fxt_intern *fxt_intern_create(void)
{
	struct fxt_intern *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->cap = 256;
	in->nr = 1;
	in->nbuckets = 512;
	in->entries = calloc(in->cap, sizeof(*in->entries));
	in->buckets = calloc(in->nbuckets, sizeof(*in->buckets));
	if (!in->entries || !in->buckets) {
		fxt_intern_destroy(in);
		return NULL;
	}
	return in;
}

void fxt_intern_destroy(struct fxt_intern *in)
{
	uint32_t i;

	if (!in)
		return;
	for (i = 1; i < in->nr; i++)
		free(in->entries[i].text);
	free(in->entries);
	free(in->buckets);
	free(in);
}

static uint32_t lookup(struct fxt_intern *in, const char *s, size_t len,
		       uint64_t h)
{
	uint32_t id = in->buckets[h & (in->nbuckets - 1)];

	for (; id; id = in->entries[id].next) {
		const struct entry *e = &in->entries[id];

		if (e->hash == h && e->len == len && !memcmp(e->text, s, len))
			return id;
	}
	return 0;
}

uint32_t fxt_intern_find(struct fxt_intern *in, const char *s, size_t len)
{
	return lookup(in, s, len, hash_bytes(s, len));
}

static int rehash(struct fxt_intern *in)
{
	uint32_t n = in->nbuckets * 2, i, *b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (i = 1; i < in->nr; i++) {
		struct entry *e = &in->entries[i];

		e->next = b[e->hash & (n - 1)];
		b[e->hash & (n - 1)] = i;
	}
	free(in->buckets);
	in->buckets = b;
	in->nbuckets = n;
	return 0;
}

int64_t fxt_intern_add(struct fxt_intern *in, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	uint32_t id = lookup(in, s, len, h), slot;
	struct entry *e;

	if (id)
		return id;
	if (in->nr == UINT32_MAX - 1)
		return -ENOSPC;
	if (in->nr == in->cap) {
		struct entry *ne = realloc(in->entries,
					   2 * (size_t)in->cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		in->entries = ne;
		in->cap *= 2;
	}
	if (in->nr >= in->nbuckets && rehash(in))
		return -ENOMEM;
	e = &in->entries[in->nr];
	e->text = malloc(len + 1);
	if (!e->text)
		return -ENOMEM;
	memcpy(e->text, s, len);
	e->text[len] = '\0';
	e->len = (uint32_t)len;
	e->hash = h;
	slot = h & (in->nbuckets - 1);
	e->next = in->buckets[slot];
	in->buckets[slot] = in->nr;
	return in->nr++;
}

static uint32_t *seen_slot(struct fxt_intern *in, const char *s, size_t len,
			   uint32_t *tag)
{
	uint64_t h = hash_bytes(s, len);

	/* Never zero, so that an empty slot cannot match. */
	*tag = (uint32_t)(h >> 32) | 1;
	return &in->seen[h & ((1u << SEEN_BITS) - 1)];
}

bool fxt_intern_seen(struct fxt_intern *in, const char *s, size_t len)
{
	uint32_t tag, *slot = seen_slot(in, s, len, &tag);

	if (*slot == tag)
		return true;
	*slot = tag;
	return false;
}

bool fxt_intern_seen_peek(struct fxt_intern *in, const char *s, size_t len)
{
	uint32_t tag, *slot = seen_slot(in, s, len, &tag);

	return *slot == tag;
}

const char *fxt_intern_text(const struct fxt_intern *in, uint32_t id,
			    uint32_t *len)
{
	if (!id || id >= in->nr)
		return NULL;
	if (len)
		*len = in->entries[id].len;
	return in->entries[id].text;
}

uint32_t fxt_intern_limit(const struct fxt_intern *in)
{
	return in->nr;
}
