// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-name.c - the program's own names interned once: the handlers write
 * the same few dozen names (series, categories, argument names) on every
 * record, so each is looked up by its address, not hashed again.
 */
#include "map-name.h"

struct fxt_str map_name_slow(struct map_ctx *ctx, const char *s)
{
	size_t h = (uintptr_t)s >> 3, i;
	struct map_name_memo *m;

	/* a few dozen names at most: probing finds each at its first try */
	for (i = 0; i < MAP_NAME_MEMO; i++) {
		m = &ctx->names[(h + i) % MAP_NAME_MEMO];
		if (m->key == s && m->str.id)
			return m->str;
		if (!m->key || m->key == s) {
			m->key = s;
			m->str = fxt_writer_str(ctx->w, s);
			return m->str;
		}
	}
	return fxt_writer_str(ctx->w, s);
}
