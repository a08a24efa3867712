/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-name.h - the program's own names as the FXT writer's strings, each
 * interned once (map-name.c).
 */
#ifndef _MAP_NAME_H
#define _MAP_NAME_H

#include "map-ctx.h"

/*
 * @s interned, for a name of the program's own (tcfxt.h's, a literal or
 * a table's entry, which live as long as the program): remembered by its
 * address, so that what is written on every record is not hashed every
 * time.  Never a record's bytes: those move.
 */
struct fxt_str map_name_slow(struct map_ctx *ctx, const char *s);

static inline struct fxt_str map_name(struct map_ctx *ctx, const char *s)
{
	const struct map_name_memo *m;

	m = &ctx->names[((uintptr_t)s >> 3) % MAP_NAME_MEMO];
	if (m->key == s && m->str.id)
		return m->str;
	return map_name_slow(ctx, s);
}

#endif /* _MAP_NAME_H */
