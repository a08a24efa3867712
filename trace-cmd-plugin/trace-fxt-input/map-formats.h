/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-formats.h - the formats, headers, symbols and printk strings that
 * rebuilding the .dat needs, written as the events first use them
 * (map-formats.c).
 */
#ifndef _MAP_FORMATS_H
#define _MAP_FORMATS_H

#include "map-ctx.h"

int map_formats_start(struct map_ctx *ctx, uint64_t ts);
int map_formats_event(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec);
void map_formats_free(struct map_ctx *ctx);

#endif /* _MAP_FORMATS_H */
