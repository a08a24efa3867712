// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-sched.c - what Perfetto needs to draw CPU tracks and thread states.
 *
 * sched_switch becomes a context switch record (the subtype-1 scheduling
 * record: 16-bit CPU, weights as arguments, INT32_MIN weight for pid 0 so
 * that the idle task reads as idle) and sched_waking / sched_wakeup_new
 * (sched_wakeup when the trace has no sched_waking) become thread wakeup
 * records.  Events that reveal a task's name (sched_process_fork, task_rename,
 * ...) announce it (map-task.c).  These records come next to the instant
 * event of the same ftrace event, which keeps every field; which events
 * come here, and the fields each handler reads, are map-dispatch.c's
 * table.
 *
 * Perfetto closes a thread's CPU row only when that thread switches out
 * (fuchsia_trace_parser.cc, SwitchFrom/SwitchTo), so the switches are
 * kept consistent whatever the recording lost: one thread per CPU, one
 * CPU per thread, a switch-out inferred where one is missing.
 */
#include <errno.h>
#include <limits.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-field.h"
#include "map-name.h"
#include "map-sched.h"
#include "map-special.h"
#include "map-task.h"

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
	if (state & 0x20)		/* EXIT_ZOMBIE: Perfetto's Z */
		return FXT_THREAD_DYING;
	if (state & 0x10)		/* EXIT_DEAD: X */
		return FXT_THREAD_DEAD;
	if (state & (0x04 | 0x08))
		return FXT_THREAD_SUSPENDED;
	return FXT_THREAD_BLOCKED;
}

static int32_t map_weight(uint64_t pid, uint64_t prio)
{
	return pid ? (int32_t)prio : INT32_MIN;
}

/*
 * A context switch the recording lost (dropped events, a switch before
 * the first page): @tid leaves @cpu at @ts, state unknown ("new", shown
 * as Runnable), idle comes in.  Perfetto closes a thread's CPU row only
 * when the thread switches out, so without it the row stays open for the
 * rest of the trace under every later one.  TCFXT_ARG_INFERRED tells it
 * from the recording's own switches.
 */
static int map_switch_out(struct map_ctx *ctx, uint64_t ts, unsigned int cpu,
			  int tid)
{
	struct fxt_arg args[3] = {
		{ .type = FXT_ARG_INT32, .i32 = 0,
		  .name = map_name(ctx, TCFXT_ARG_OUT_WEIGHT) },
		{ .type = FXT_ARG_INT32, .i32 = INT32_MIN,
		  .name = map_name(ctx, TCFXT_ARG_IN_WEIGHT) },
		{ .type = FXT_ARG_BOOL, .b = true,
		  .name = map_name(ctx, TCFXT_ARG_INFERRED) },
	};
	struct fxt_sched_switch cs = {
		.ts = ts,
		.cpu = cpu,
		.out_state = FXT_THREAD_NEW,
		.out_tid = tid,
		.in_tid = 0,
		.nargs = 3,
		.args = args,
	};
	struct map_task *t = map_task_get(ctx, tid);
	struct map_cpu *c = map_cpu_get(ctx, cpu);

	if (t && t->cpu == (int32_t)cpu)
		t->cpu = -1;
	if (c && c->cur == tid)
		c->cur = -1;
	return fxt_write_sched_switch(ctx->w, &cs);
}

/*
 * sched_switch: fields prev_pid, next_pid, prev_prio, next_prio,
 * prev_state, prev_comm, next_comm.
 */
int map_sched_switch_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread)
{
	uint64_t prev = 0, next = 0, pprio = 0, nprio = 0, state = 0;
	struct map_task *pt, *nt;
	struct map_cpu *c;
	struct fxt_thread th;
	struct fxt_arg args[2];
	struct fxt_sched_switch cs;
	int ret;

	if (!map_field_u64(buf, rec, me->sf[0], &prev) ||
	    !map_field_u64(buf, rec, me->sf[1], &next) ||
	    prev >= MAP_PID_LIMIT || next >= MAP_PID_LIMIT)
		return 0;	/* damaged: the instant keeps what it says */
	map_field_u64(buf, rec, me->sf[2], &pprio);
	map_field_u64(buf, rec, me->sf[3], &nprio);
	map_field_u64(buf, rec, me->sf[4], &state);
	ret = map_task_name(ctx, buf, rec, me->sf[0], me->sf[5], false);
	if (ret >= 0)
		ret = map_task_name(ctx, buf, rec, me->sf[1], me->sf[6],
				    false);
	if (ret >= 0)
		ret = map_task_thread(ctx, buf, (int)next, &th);
	if (ret < 0)
		return ret;
	c = map_cpu_get(ctx, rec->cpu);
	pt = map_task_get(ctx, prev);
	nt = map_task_get(ctx, next);
	if (!c || !pt || !nt)
		return -ENOMEM;
	/*
	 * One thread per CPU and one CPU per thread, whatever was lost:
	 * close the thread this CPU ran if it is not the one leaving, the
	 * leaving one's row on another CPU is closed by this switch, and
	 * the incoming one leaves the CPU it still held.
	 */
	if (c->cur > 0 && c->cur != (int32_t)prev) {
		ret = map_switch_out(ctx, rec->ts, rec->cpu, c->cur);
		if (ret < 0)
			return ret;
	}
	if (prev && pt->cpu >= 0 && pt->cpu != (int32_t)rec->cpu) {
		struct map_cpu *o = map_cpu_get(ctx, pt->cpu);

		if (o && o->cur == (int32_t)prev)
			o->cur = -1;
	}
	if (next && nt->cpu >= 0 && nt->cpu != (int32_t)rec->cpu) {
		ret = map_switch_out(ctx, rec->ts, nt->cpu, next);
		if (ret < 0)
			return ret;
	}
	pt->cpu = -1;
	c->cur = next;
	if (next)
		nt->cpu = rec->cpu;
	args[0].type = FXT_ARG_INT32;
	args[0].name = map_name(ctx, TCFXT_ARG_OUT_WEIGHT);
	args[0].i32 = map_weight(prev, (int32_t)pprio);
	args[1].type = FXT_ARG_INT32;
	args[1].name = map_name(ctx, TCFXT_ARG_IN_WEIGHT);
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

/* sched_waking, sched_wakeup(_new): fields pid, prio, target_cpu, comm */
int map_sched_wakeup_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread)
{
	uint64_t pid = 0, prio = 0, cpu = rec->cpu;
	struct fxt_sched_wakeup wk;
	struct fxt_thread th;
	struct fxt_arg args[2];
	int ret;

	if (me->special->wake == MAP_WAKE_WAKING)
		ctx->seen_waking = true;
	else if (me->special->wake == MAP_WAKE_UP && ctx->seen_waking)
		return 0;	/* the waking record already said it */
	if (!map_field_u64(buf, rec, me->sf[0], &pid))
		return 0;
	map_field_u64(buf, rec, me->sf[1], &prio);
	map_field_u64(buf, rec, me->sf[2], &cpu);
	ret = map_task_name(ctx, buf, rec, me->sf[0], me->sf[3], false);
	if (ret >= 0)
		ret = map_task_thread(ctx, buf, (int)pid, &th);
	if (ret < 0)
		return ret;
	args[0].type = FXT_ARG_INT32;
	args[0].name = map_name(ctx, TCFXT_ARG_WEIGHT);
	args[0].i32 = map_weight(pid, (int32_t)prio);
	/* the task running when the wakeup was recorded did the waking */
	args[1].type = FXT_ARG_KOID;
	args[1].name = map_name(ctx, TCFXT_ARG_WAKER);
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

/* Events that name a task: fields pid, comm and a second pid, comm. */
int map_sched_names_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread)
{
	bool rename = me->special->rename;
	int ret;

	ret = map_task_name(ctx, buf, rec, me->sf[0], me->sf[1], rename);
	if (ret >= 0)
		ret = map_task_name(ctx, buf, rec, me->sf[2], me->sf[3],
				    rename);
	return ret;
}
