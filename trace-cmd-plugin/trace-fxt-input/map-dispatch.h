/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-dispatch.h - each event known by id, its special row found once, and
 * every record written as its instant then handed to its handler
 * (map-dispatch.c).
 */
#ifndef _MAP_DISPATCH_H
#define _MAP_DISPATCH_H

#include "map-special.h"

extern const struct map_special map_specials[];
extern const unsigned int map_nr_specials;

const struct map_special *map_dispatch_classify(struct map_event *me);
struct map_event *map_dispatch_event(struct map_ctx *ctx,
				     struct map_buffer *buf,
				     struct tep_record *rec);
int map_dispatch_write(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec,
		       const struct fxt_thread *thread);
void map_dispatch_free(struct map_ctx *ctx);

#endif /* _MAP_DISPATCH_H */
