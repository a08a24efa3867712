/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-eventheader.h - EventHeader user_events as events named by their
 * metadata with typed arguments (map-eventheader.c).
 */
#ifndef _MAP_EVENTHEADER_H
#define _MAP_EVENTHEADER_H

#include "map-ctx.h"

bool map_eventheader_classify(struct map_event *me);
int map_eventheader_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread);
void map_eventheader_free(struct map_ctx *ctx);

#endif /* _MAP_EVENTHEADER_H */
