/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-options.h - the file's options (uname, clock, CPU statistics,
 * PROCMAPS, ...) and the converter's own metadata thread (map-options.c).
 */
#ifndef _MAP_OPTIONS_H
#define _MAP_OPTIONS_H

#include "map-ctx.h"

int map_meta_thread(struct map_ctx *ctx, struct fxt_thread *thread);
int map_options_procmaps(struct map_ctx *ctx);
void map_options_free(struct map_ctx *ctx);
int map_options_write(struct map_ctx *ctx, struct map_buffer *buf,
		      uint64_t first_ts);

#endif /* _MAP_OPTIONS_H */
