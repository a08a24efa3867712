/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-strtab.h - the writer's string table (internal to libfxt): the one
 * owner of everything the writer knows of strings.
 *
 *  - the registry of texts (fxt-intern.c): a text's id, stable for the
 *    writer's life, and which texts were offered once already;
 *  - the recent-text cache: which id a (pointer, length) pair had;
 *  - the file's string indexes: which id each index holds, each index's
 *    generation, and the clock sweep that picks one to replace when all
 *    are taken;
 *  - per provider (struct fxt_strtab_prov), which ids it wrote at which
 *    index and generation.
 *
 * The writer asks, for each string of a record, how the record refers to
 * it (struct fxt_sref) and whether a string record must come first
 * (struct fxt_strdef); it writes that record itself, then the record.
 * Nothing here writes output or calls back into the writer.
 *
 * String and thread indexes are allocated for the whole file, not per
 * provider: an index holds one value at a time whichever provider
 * defined it, so a reader that keeps a single table for the file
 * (Tracy's import-fuchsia ignores provider sections) resolves every ref
 * as a reader that keeps one per provider does.  A provider refers to an
 * index only after it wrote that index's string record itself (each
 * provider's table is complete for readers that keep them apart); a
 * value another provider already has at an index is restated at the
 * same index.  When all indexes are taken, one is replaced in
 * least-recently-used order across the file; its generation changes, so
 * every provider that had it must restate it before using it again.
 *
 * The table is defined here, not opaque, so that the hit path (an id or
 * a cached text the provider already has at an index) inlines into the
 * writer's one-pass event path; only fxt-strtab.[ch] touch its fields.
 */
#ifndef _FXT_STRTAB_H
#define _FXT_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt-format.h"

/* A string ref's bit that says its text follows inline (the length). */
#define FXT_SREF_INLINE		0x8000u
/* Entries of the recent-text cache. */
#define FXT_STRTAB_RECENT	256

struct fxt_intern;

/* An index of the file's table. */
struct fxt_strtab_slot {
	uint32_t	sid;	/* string id at this index, 0 none */
	uint32_t	gen;	/* bumped each time the index changes value */
	uint32_t	pin;	/* record that last used it */
	uint8_t		ref;	/* used since the clock hand last passed */
	uint16_t	len;	/* of its text (the writer's Tracy reset) */
};

/*
 * Per provider, per string id: the index and its generation when the
 * provider wrote it.  8 bytes, so that a hit touches one cache line.
 */
struct fxt_strtab_sid {
	uint16_t	slot;	/* 0 = never written by this provider */
	uint16_t	pad;
	uint32_t	gen;
};

/* What one provider wrote of the file's string indexes. */
struct fxt_strtab_prov {
	struct fxt_strtab_sid	*sid;	/* by string id, grown on use */
	uint32_t		sid_cap;
};

struct fxt_strtab {
	struct fxt_intern	*in;
	bool			inline_all;	/* every text inline */
	/* the file's string indexes; slot_cap grows to all of them */
	struct fxt_strtab_slot	*gslot;
	uint32_t		slot_cap;
	uint32_t		used;
	uint32_t		hand;
	uint16_t		*gsid;		/* string id -> index, 0 none */
	uint32_t		gsid_cap;
	/*
	 * Strings passed by text usually come from the same few buffers
	 * (a task's comm in the caller's struct): remember which id each
	 * (pointer, length) had, and check the text before trusting it.
	 */
	struct {
		const char	*ptr;
		uint32_t	len;
		uint32_t	id;
	} recent[FXT_STRTAB_RECENT];
};

/* How a record refers to a string: the index, or inline with its bytes. */
struct fxt_sref {
	uint16_t	ref;
	const char	*ptr;
	uint32_t	len;
};

/* A string record to write before the record that refers to it. */
struct fxt_strdef {
	uint32_t	slot;
	const char	*text;
	uint32_t	len;	/* 0: none */
};

/**
 * fxt_strtab_init() - an empty table
 * @t: the table
 * @inline_all: every string given by text goes inline (never indexed)
 *
 * Return: 0, or -ENOMEM.
 */
int fxt_strtab_init(struct fxt_strtab *t, bool inline_all);

/**
 * fxt_strtab_release() - free what fxt_strtab_init() and use allocated
 * @t: the table (all zero, or initialised)
 */
void fxt_strtab_release(struct fxt_strtab *t);

/**
 * fxt_strtab_prov_reset() - a provider that has written no string
 * @p: its part of the table (all zero, or in use); memory is kept
 */
void fxt_strtab_prov_reset(struct fxt_strtab_prov *p);

/**
 * fxt_strtab_prov_release() - free a provider's part of the table
 * @p: its part
 */
void fxt_strtab_prov_release(struct fxt_strtab_prov *p);

/**
 * fxt_strtab_intern() - register a text
 * @t: the table
 * @s: the text, not necessarily NUL-terminated
 * @len: its length
 *
 * Return: its id (> 0; the same for the same text), -E2BIG past
 * FXT_MAX_STRING_LEN, or another negative errno.
 */
int64_t fxt_strtab_intern(struct fxt_strtab *t, const char *s, size_t len);

/**
 * fxt_strtab_words() - words @s takes in its record
 * @t: the table
 * @s: the string
 * @exact: decided as fxt_strtab_resolve() would, but changing nothing;
 *	   else an upper bound that needs no look-up
 * @words: incremented by the count
 *
 * Return: 0, -EINVAL for an id never given out, -E2BIG for a text too
 * long.
 */
int fxt_strtab_words(struct fxt_strtab *t, const struct fxt_str *s,
		     bool exact, uint64_t *words);

/* The words of a string ref's inline bytes (0 for an index). */
static inline uint32_t fxt_sref_words(const struct fxt_sref *s)
{
	return (s->ref & FXT_SREF_INLINE) ? (uint32_t)fxt_words(s->len) : 0;
}

/* The index of string id @id if @p wrote it and the index still holds it. */
static inline uint32_t fxt_strtab_hit_id(const struct fxt_strtab *t,
					 const struct fxt_strtab_prov *p,
					 uint32_t id)
{
	const struct fxt_strtab_sid *e;

	if (id >= p->sid_cap || !p->sid[id].slot)
		return 0;
	e = &p->sid[id];
	return t->gslot[e->slot].gen == e->gen ? e->slot : 0;
}

uint32_t fxt_strtab_hit_text(struct fxt_strtab *t,
			     const struct fxt_strtab_prov *p,
			     const struct fxt_str *s);

/**
 * fxt_strtab_hit() - the index of @s if no string record need come first
 * @t: the table
 * @p: the provider writing the record
 * @s: the string
 *
 * Gives out no index and marks nothing used (only the recent-text cache
 * may learn the pair): a record given up on leaves no trace; the caller
 * marks the indexes of the record it wrote with fxt_strtab_mark().
 *
 * Return: the index, or 0 (a string record first, inline, or empty).
 */
static inline uint32_t fxt_strtab_hit(struct fxt_strtab *t,
				      const struct fxt_strtab_prov *p,
				      const struct fxt_str *s)
{
	if (s->id && s->id != FXT_STR_INLINE)
		return fxt_strtab_hit_id(t, p, s->id);
	return s->id ? 0 : fxt_strtab_hit_text(t, p, s);
}

/* The length of the text at index @slot (0: the empty string). */
static inline uint32_t fxt_strtab_slot_len(const struct fxt_strtab *t,
					   uint32_t slot)
{
	return slot ? t->gslot[slot].len : 0;
}

/**
 * fxt_strtab_mark() - index @slot is used by record @seq
 * @t: the table
 * @slot: an index fxt_strtab_hit() gave
 * @seq: the record's number
 */
static inline void fxt_strtab_mark(struct fxt_strtab *t, uint32_t slot,
				   uint32_t seq)
{
	t->gslot[slot].ref = 1;
	t->gslot[slot].pin = seq;
}

int fxt_strtab_resolve_slow(struct fxt_strtab *t, struct fxt_strtab_prov *p,
			    const struct fxt_str *s, uint32_t seq,
			    struct fxt_sref *out, struct fxt_strdef *def);

/**
 * fxt_strtab_resolve() - how a record refers to @s, from provider @p
 * @t: the table
 * @p: the provider writing the record
 * @s: the string
 * @seq: the record's number (an index it uses is not replaced for it)
 * @out: the ref, and the bytes when inline
 * @def: the string record that must be written first (.len 0: none)
 *
 * Indexes a text from its second use on; the index used is marked used.
 * An id the provider has at an index is settled here, inline.
 *
 * Return: 0, -EINVAL for an id never given out, -E2BIG for a text too
 * long, or -ENOMEM.
 */
static inline int fxt_strtab_resolve(struct fxt_strtab *t,
				     struct fxt_strtab_prov *p,
				     const struct fxt_str *s, uint32_t seq,
				     struct fxt_sref *out,
				     struct fxt_strdef *def)
{
	uint32_t slot;

	def->len = 0;
	if (s->id && s->id != FXT_STR_INLINE &&
	    (slot = fxt_strtab_hit_id(t, p, s->id))) {
		fxt_strtab_mark(t, slot, seq);
		out->ref = (uint16_t)slot;
		return 0;
	}
	return fxt_strtab_resolve_slow(t, p, s, seq, out, def);
}

#endif /* _FXT_STRTAB_H */
