/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-counter.h - counter-like events as FXT counters (map-counter.c).
 */
#ifndef _MAP_COUNTER_H
#define _MAP_COUNTER_H

#include "map-ctx.h"

int map_counter_write(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec,
		      const struct fxt_thread *thread);

#endif /* _MAP_COUNTER_H */
