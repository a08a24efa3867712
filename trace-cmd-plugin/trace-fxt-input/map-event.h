/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-event.h - any ftrace event as an instant with one typed argument a
 * field (map-event.c).
 */
#ifndef _MAP_EVENT_H
#define _MAP_EVENT_H

#include "map-ctx.h"

struct map_event *map_event_new(struct map_ctx *ctx, struct tep_event *event);
void map_event_free(struct map_event *me);
int map_event_write(struct map_ctx *ctx, struct map_buffer *buf,
		    struct map_event *me, struct tep_record *rec,
		    const struct fxt_thread *thread);

#endif /* _MAP_EVENT_H */
