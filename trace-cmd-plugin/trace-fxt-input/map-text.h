/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-text.h - "<field>.text" renderings by (field, value) (map-text.c).
 * A lookup that misses says where map_text_store() keeps the rendering
 * made next.
 */
#ifndef _MAP_TEXT_H
#define _MAP_TEXT_H

#include "map-ctx.h"

bool map_text_lookup(struct map_ctx *ctx, const struct map_field *mf,
		     uint64_t value, struct fxt_str *out);
void map_text_store(struct map_ctx *ctx, const struct map_field *mf,
		    uint64_t value, const char *text, size_t len);
void map_text_free(struct map_ctx *ctx);

#endif /* _MAP_TEXT_H */
