/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-intern.h - the writer's string registry (internal to the core).
 *
 * Maps string text to a small id (1, 2, ...) that stays the same for the
 * writer's life, so that hot paths refer to strings by id instead of
 * hashing them on every use.  Also remembers which texts were seen once
 * (approximately, by hash), which is how the writer tells a string worth
 * a table slot from one better written inline.
 */
#ifndef _FXT_INTERN_H
#define _FXT_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fxt_intern;

struct fxt_intern *fxt_intern_create(void);
void fxt_intern_destroy(struct fxt_intern *in);

/* The id of @s, adding it if new: > 0, or -ENOMEM. */
int64_t fxt_intern_add(struct fxt_intern *in, const char *s, size_t len);

/* The id of @s if registered, else 0. */
uint32_t fxt_intern_find(struct fxt_intern *in, const char *s, size_t len);

/*
 * For a string that is not registered: true if it was probably offered
 * before (then the caller registers it), false the first time (and it is
 * remembered).
 */
bool fxt_intern_seen(struct fxt_intern *in, const char *s, size_t len);

/* What fxt_intern_seen() would answer, without remembering anything. */
bool fxt_intern_seen_peek(struct fxt_intern *in, const char *s, size_t len);

/* Text of a registered id; NULL if the id was never given out. */
const char *fxt_intern_text(const struct fxt_intern *in, uint32_t id,
			    uint32_t *len);

/* One past the highest id given out so far. */
uint32_t fxt_intern_limit(const struct fxt_intern *in);

#endif /* _FXT_INTERN_H */
