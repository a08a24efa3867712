/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-task.h - the tables of pids and CPUs, and the names of tasks as
 * kernel objects (map-task.c).
 */
#ifndef _MAP_TASK_H
#define _MAP_TASK_H

#include "map-ctx.h"

/*
 * The kernel's PID_MAX_LIMIT: no real pid reaches it, and the per-pid
 * table must not grow to what a damaged record claims (2^31 bytes).
 */
#define MAP_PID_LIMIT	(1 << 22)

struct map_task *map_task_get(struct map_ctx *ctx, int pid);
/* The thread group of @pid: what the recording said, else its own. */
int map_task_tgid(struct map_ctx *ctx, int pid);
/* @pid's name in the file's saved cmdlines ("swapper" for 0), or NULL. */
const char *map_task_comm(struct map_buffer *buf, int pid);
struct map_cpu *map_cpu_get(struct map_ctx *ctx, unsigned int cpu);
/*
 * The name the Perfetto packets last gave @pid (the comm of its latest
 * sched_switch, wakeup or rename, which Perfetto names the thread
 * after), noted and compared, as a hash.
 */
void map_task_comm_note(struct map_ctx *ctx, int pid, const char *comm,
			int len);
bool map_task_comm_is(struct map_ctx *ctx, int pid, const char *comm,
		      int len);
int map_task_thread(struct map_ctx *ctx, struct map_buffer *buf,
		    int pid, struct fxt_thread *thread);
int map_task_name(struct map_ctx *ctx, struct map_buffer *buf,
		  struct tep_record *rec, struct tep_format_field *pid_field,
		  struct tep_format_field *comm_field, bool rename);

#endif /* _MAP_TASK_H */
