/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-sched.h - context switches, wakeups and task names: the records
 * Perfetto draws as CPU tracks and thread states (map-sched.c).
 */
#ifndef _MAP_SCHED_H
#define _MAP_SCHED_H

#include "map-ctx.h"

/*
 * Packets: a record of @rec->cpu ran in task @pid.  Until the CPU's first
 * switch, the run of one task its records show is remembered, so that
 * the first switch can say since when its prev ran there.
 */
void map_sched_seen(struct map_ctx *ctx, const struct tep_record *rec,
		    int pid);
int map_sched_switch_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread);
bool map_sched_wakeup_new_own(struct map_ctx *ctx, struct map_buffer *buf,
			      struct map_event *me, struct tep_record *rec);
int map_sched_wakeup_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread);
int map_sched_names_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread);

#endif /* _MAP_SCHED_H */
