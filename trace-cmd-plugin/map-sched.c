// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-sched.c - what Perfetto needs to draw CPU tracks and thread states.
 *
 * sched_switch becomes a context switch record (the subtype-1 scheduling
 * record: 16-bit CPU, weights as arguments, INT32_MIN weight for pid 0 so
 * that the idle task reads as idle) and sched_waking / sched_wakeup_new
 * (sched_wakeup when the trace has no sched_waking) become thread wakeup
 * records.  Task names become kernel object records: a process and a
 * thread object per pid, named from the file's saved cmdlines, before
 * the pid's first record.  Names that only events reveal (a comm field of
 * a pid the cmdlines do not know, task_rename) are announced too, with a
 * "source" = "event" argument, because trace-cmd's report columns keep
 * using the cmdlines' name.  These records come next to the instant event
 * of the same ftrace event, which keeps every field.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map.h"

/* Events that name a task: pid field, comm field. */
static const struct {
	const char	*system, *name, *pid, *comm;
} task_names[] = {
	{ "sched", "sched_process_fork", "child_pid", "child_comm" },
	{ "sched", "sched_process_fork", "parent_pid", "parent_comm" },
	{ "sched", "sched_process_exit", "pid", "comm" },
	{ "sched", "sched_process_free", "pid", "comm" },
	{ "sched", "sched_process_wait", "pid", "comm" },
	{ "sched", "sched_stat_runtime", "pid", "comm" },
	{ "sched", "sched_migrate_task", "pid", "comm" },
	{ "task", "task_newtask", "pid", "comm" },
	{ "task", "task_rename", "pid", "newcomm" },
};

void map_sched_classify(struct map_event *me)
{
	struct tep_event *e = me->event;
	size_t i;

	if (!strcmp(e->system, "sched")) {
		if (!strcmp(e->name, "sched_switch")) {
			me->special = MAP_SPECIAL_SCHED_SWITCH;
			me->sf[0] = tep_find_field(e, "prev_pid");
			me->sf[1] = tep_find_field(e, "next_pid");
			me->sf[2] = tep_find_field(e, "prev_prio");
			me->sf[3] = tep_find_field(e, "next_prio");
			me->sf[4] = tep_find_field(e, "prev_state");
			return;
		}
		if (!strcmp(e->name, "sched_waking") ||
		    !strcmp(e->name, "sched_wakeup") ||
		    !strcmp(e->name, "sched_wakeup_new")) {
			me->special = MAP_SPECIAL_SCHED_WAKEUP;
			me->sf[0] = tep_find_field(e, "pid");
			me->sf[1] = tep_find_field(e, "prio");
			me->sf[2] = tep_find_field(e, "target_cpu");
			return;
		}
	}
	if (!strcmp(e->system, "ftrace") && !strcmp(e->name, "print")) {
		me->special = MAP_SPECIAL_MARKER;
		return;
	}
	for (i = 0; i < sizeof(task_names) / sizeof(task_names[0]); i++)
		if (!strcmp(e->system, task_names[i].system) &&
		    !strcmp(e->name, task_names[i].name))
			me->special = MAP_SPECIAL_TASK_NAME;
}

/*
 * The kernel's PID_MAX_LIMIT: no real pid reaches it, and the per-pid
 * table must not grow to what a damaged record claims (2^31 bytes).
 */
#define MAP_PID_LIMIT	(1 << 22)

/* Bit per pid: named from cmdlines (1) or from an event (2). */
static int map_named_grow(struct map_ctx *ctx, int pid)
{
	int n;
	uint8_t *p;

	if (pid < ctx->nr_named)
		return 0;
	n = pid + 4096;
	p = realloc(ctx->named, n);
	if (!p)
		return -ENOMEM;
	memset(p + ctx->nr_named, 0, n - ctx->nr_named);
	ctx->named = p;
	ctx->nr_named = n;
	return 0;
}

static int map_announce(struct map_ctx *ctx, int pid, const char *name,
			size_t len, bool from_event)
{
	struct fxt_arg args[2];
	unsigned int n = 0;
	int ret;

	if (from_event) {
		args[n].type = FXT_ARG_STRING;
		args[n].name = fxt_writer_str(ctx->w, "source");
		args[n++].str = fxt_writer_str(ctx->w, "event");
	}
	ret = fxt_write_kernel_object(ctx->w, pid, FXT_OBJ_PROCESS,
				      fxt_str_make(name, len), args, n);
	if (ret < 0)
		return ret;
	args[n].type = FXT_ARG_KOID;
	args[n].name = fxt_writer_str(ctx->w, "process");
	args[n++].koid = pid;
	return fxt_write_kernel_object(ctx->w, pid, FXT_OBJ_THREAD,
				       fxt_str_make(name, len), args, n);
}

/*
 * The FXT thread of @pid, announcing its name first if this is the
 * first time the conversion meets it.  The process koid is the pid:
 * ftrace records carry no tgid.
 */
int map_sched_thread(struct map_ctx *ctx, struct map_buffer *buf,
		     int pid, struct fxt_thread *thread)
{
	const char *comm;
	int ret;

	thread->pid = pid;
	thread->tid = pid;
	/* beyond any real pid: the thread is used, never named */
	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return 0;
	if (pid < ctx->nr_named && ctx->named[pid])
		return 0;
	ret = map_named_grow(ctx, pid);
	if (ret < 0)
		return ret;
	ctx->named[pid] = 1;
	comm = pid ? tep_data_comm_from_pid(buf->tep, pid) : "swapper";
	if (!comm || !strcmp(comm, "<...>"))
		return 0;
	ctx->named[pid] = 3;
	return map_announce(ctx, pid, comm, strlen(comm), false);
}

/* A name an event reveals, for a pid nothing named yet. */
static int map_event_name(struct map_ctx *ctx, struct map_buffer *buf,
			  struct tep_record *rec, struct tep_event *e,
			  const char *pid_field, const char *comm_field,
			  bool rename)
{
	struct tep_format_field *pf = tep_find_field(e, pid_field);
	struct tep_format_field *cf = tep_find_field(e, comm_field);
	struct fxt_thread th;
	const char *comm;
	uint64_t pid;
	int len, ret;

	if (!pf || !cf || !map_field_u64(buf, rec, pf, &pid) ||
	    pid >= MAP_PID_LIMIT || !pid)
		return 0;
	ret = map_sched_thread(ctx, buf, pid, &th);
	if (ret < 0)
		return ret;
	if (!rename && (ctx->named[pid] & 2))
		return 0;
	len = map_field_str(rec, cf, &comm);
	if (len <= 0)
		return 0;
	ctx->named[pid] |= 2;
	return map_announce(ctx, pid, comm, len, true);
}

static unsigned int map_task_state(uint64_t state)
{
	/* The TASK_REPORT bits sched_switch carries. */
	/*
	 * Preempted (still runnable): the format forbids "running" for
	 * the outgoing thread; "new" is the other state Perfetto shows
	 * as Runnable.
	 */
	if (!(state & 0xff))
		return FXT_THREAD_NEW;
	if (state & (0x10 | 0x20))
		return FXT_THREAD_DEAD;
	if (state & (0x04 | 0x08))
		return FXT_THREAD_SUSPENDED;
	return FXT_THREAD_BLOCKED;
}

static int32_t map_weight(uint64_t pid, uint64_t prio)
{
	return pid ? (int32_t)prio : INT32_MIN;
}

static int map_switch(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec)
{
	uint64_t prev = 0, next = 0, pprio = 0, nprio = 0, state = 0;
	struct fxt_thread th;
	struct fxt_arg args[2];
	struct fxt_sched_switch cs;
	int ret;

	struct tep_event *e = me->event;

	if (!map_field_u64(buf, rec, me->sf[0], &prev) ||
	    !map_field_u64(buf, rec, me->sf[1], &next))
		return 0;
	map_field_u64(buf, rec, me->sf[2], &pprio);
	map_field_u64(buf, rec, me->sf[3], &nprio);
	map_field_u64(buf, rec, me->sf[4], &state);
	ret = map_event_name(ctx, buf, rec, e, "prev_pid", "prev_comm", false);
	if (ret >= 0)
		ret = map_event_name(ctx, buf, rec, e, "next_pid", "next_comm",
				     false);
	if (ret >= 0)
		ret = map_sched_thread(ctx, buf, (int)next, &th);
	if (ret < 0)
		return ret;
	args[0].type = FXT_ARG_INT32;
	args[0].name = ctx->s_out_weight;
	args[0].i32 = map_weight(prev, (int32_t)pprio);
	args[1].type = FXT_ARG_INT32;
	args[1].name = ctx->s_in_weight;
	args[1].i32 = map_weight(next, (int32_t)nprio);
	cs = (struct fxt_sched_switch){
		.ts = rec->ts,
		.cpu = rec->cpu,
		.out_state = map_task_state(state),
		.out_tid = prev,
		.in_tid = next,
		.nargs = 2,
		.args = args,
	};
	return fxt_write_sched_switch(ctx->w, &cs);
}

static int map_wakeup(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec)
{
	uint64_t pid = 0, prio = 0, cpu = rec->cpu;
	struct fxt_sched_wakeup wk;
	struct fxt_thread th;
	struct fxt_arg args[2];
	int ret;

	struct tep_event *e = me->event;

	if (!strcmp(e->name, "sched_waking"))
		ctx->seen_waking = true;
	else if (!strcmp(e->name, "sched_wakeup") && ctx->seen_waking)
		return 0;	/* the waking record already said it */
	if (!map_field_u64(buf, rec, me->sf[0], &pid))
		return 0;
	map_field_u64(buf, rec, me->sf[1], &prio);
	map_field_u64(buf, rec, me->sf[2], &cpu);
	ret = map_event_name(ctx, buf, rec, e, "pid", "comm", false);
	if (ret >= 0)
		ret = map_sched_thread(ctx, buf, (int)pid, &th);
	if (ret < 0)
		return ret;
	args[0].type = FXT_ARG_INT32;
	args[0].name = ctx->s_weight;
	args[0].i32 = map_weight(pid, (int32_t)prio);
	/* the task running when the wakeup was recorded did the waking */
	args[1].type = FXT_ARG_KOID;
	args[1].name = ctx->s_waker;
	args[1].koid = tep_data_pid(buf->tep, rec);
	wk = (struct fxt_sched_wakeup){
		.ts = rec->ts,
		.cpu = cpu,
		.tid = pid,
		.nargs = 2,
		.args = args,
	};
	return fxt_write_sched_wakeup(ctx->w, &wk);
}

int map_sched_write(struct map_ctx *ctx, struct map_buffer *buf,
		    struct map_event *me, struct tep_record *rec)
{
	struct tep_event *e = me->event;
	size_t i;
	int ret = 0;

	switch (me->special) {
	case MAP_SPECIAL_SCHED_SWITCH:
		return map_switch(ctx, buf, me, rec);
	case MAP_SPECIAL_SCHED_WAKEUP:
		return map_wakeup(ctx, buf, me, rec);
	case MAP_SPECIAL_TASK_NAME:
		for (i = 0; i < sizeof(task_names) / sizeof(task_names[0]) &&
		     ret >= 0; i++)
			if (!strcmp(e->system, task_names[i].system) &&
			    !strcmp(e->name, task_names[i].name))
				ret = map_event_name(ctx, buf, rec, e,
						     task_names[i].pid,
						     task_names[i].comm,
						     !strcmp(e->name,
							     "task_rename"));
		return ret;
	default:
		return 0;
	}
}
