/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-ftrace.h - kernel events as Perfetto's ftrace events, and the
 * process tree's entries (map-ftrace.c).
 */
#ifndef _MAP_FTRACE_H
#define _MAP_FTRACE_H

#include "map-ctx.h"

int map_ftrace_write(struct map_ctx *ctx, struct map_buffer *buf,
		     struct map_event *me, struct tep_record *rec);
int map_ftrace_syscall_write(struct map_ctx *ctx, struct map_buffer *buf,
			     struct map_event *me, struct tep_record *rec);
int map_ftrace_newtask_write(struct map_ctx *ctx, struct map_buffer *buf,
			     struct map_event *me, struct tep_record *rec);
int map_ftrace_fork_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec);
int map_ftrace_rename_write(struct map_ctx *ctx, struct map_buffer *buf,
			    struct map_event *me, struct tep_record *rec);

int map_ftrace_print(struct map_ctx *ctx, struct map_event *me,
		     struct tep_record *rec, const char *text, size_t len);
int map_ftrace_atrace(struct map_ctx *ctx, struct tep_record *rec,
		      const char *text, size_t len);
int map_ftrace_generic(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec);

#endif /* _MAP_FTRACE_H */
