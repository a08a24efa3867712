/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-marker.h - trace_marker writes: a log record each, and atrace's
 * slices, counters and async events (map-marker.c).
 */
#ifndef _MAP_MARKER_H
#define _MAP_MARKER_H

#include "map-ctx.h"

int map_marker_write(struct map_ctx *ctx, struct map_buffer *buf,
		     struct map_event *me, struct tep_record *rec,
		     const struct fxt_thread *thread);

#endif /* _MAP_MARKER_H */
