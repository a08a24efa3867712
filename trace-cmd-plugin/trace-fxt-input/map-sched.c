// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-sched.c - what Perfetto needs to draw CPU tracks and thread states.
 *
 * By default sched_switch and the wakeups become Perfetto's own ftrace
 * events (map-packet.c): sched_switch in the compact form (its previous
 * task implicit), the first of each CPU as a full event, since Perfetto's
 * importer drops the first compact switch of a CPU
 * (FtraceSchedEventTracker::PushSchedSwitchCompact); sched_waking
 * compact when the waker is the task the CPU runs, else full.  Perfetto
 * then renders prev_state as its ftrace importer does (D, R+, I, ...),
 * with wakers and interrupt context.
 *
 * With --fxt-records they become FXT records instead, for FXT readers that
 * skip the packets: sched_switch a context switch record (the subtype-1
 * scheduling record: 16-bit CPU, weights as arguments, INT32_MIN weight
 * for pid 0 so that the idle task reads as idle) and sched_waking /
 * sched_wakeup_new (sched_wakeup when the trace has no sched_waking)
 * thread wakeup records.  Never both: Perfetto would draw every switch
 * twice.
 *
 * Events that reveal a task's name (sched_process_fork, task_rename,
 * ...) announce it (map-task.c).  These records come next to the instant
 * event of the same ftrace event, which keeps every field; which events
 * come here, and the fields each handler reads, are map-dispatch.c's
 * table.
 *
 * Perfetto closes a thread's CPU row only when that thread switches out
 * (fuchsia_trace_parser.cc, SwitchFrom/SwitchTo; for packets only when
 * the switch's prev_pid is the CPU's last next_pid,
 * FtraceSchedEventTracker::PushSchedSwitch), so the switches are kept
 * consistent whatever the recording lost: one thread per CPU, one CPU
 * per thread, a switch inferred where one is missing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-field.h"
#include "map-name.h"
#include "map-packet.h"
#include "map-residue.h"
#include "map-sched.h"
#include "map-special.h"
#include "map-task.h"
#include "pb.h"
#include "perfetto-proto.h"

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
	return fxt_write_sched_switch(map_w(ctx), &cs);
}

/* A sched_switch's fields. */
struct map_switch {
	uint64_t	ts;
	unsigned int	cpu;
	uint64_t	prev, next, pprio, nprio, state;
	const char	*pcomm, *ncomm;
	int		plen, nlen;
};

/*
 * FXT records: the switch, after the switches out the recording lost
 * (the CPU's thread if it is not the one leaving; the incoming thread
 * from the CPU it still held).
 */
static int map_switch_fxt(struct map_ctx *ctx, const struct map_switch *sw)
{
	struct map_task *pt, *nt;
	struct map_cpu *c;
	struct fxt_arg args[2];
	struct fxt_sched_switch cs;
	int ret;

	c = map_cpu_get(ctx, sw->cpu);
	pt = map_task_get(ctx, sw->prev);
	nt = map_task_get(ctx, sw->next);
	if (!c || !pt || !nt)
		return -ENOMEM;
	/*
	 * One thread per CPU and one CPU per thread, whatever was lost:
	 * close the thread this CPU ran if it is not the one leaving, the
	 * leaving one's row on another CPU is closed by this switch, and
	 * the incoming one leaves the CPU it still held.
	 */
	if (c->cur > 0 && c->cur != (int32_t)sw->prev) {
		ret = map_switch_out(ctx, sw->ts, sw->cpu, c->cur);
		if (ret < 0)
			return ret;
	}
	if (sw->prev && pt->cpu >= 0 && pt->cpu != (int32_t)sw->cpu) {
		struct map_cpu *o = map_cpu_get(ctx, pt->cpu);

		if (o && o->cur == (int32_t)sw->prev)
			o->cur = -1;
	}
	if (sw->next && nt->cpu >= 0 && nt->cpu != (int32_t)sw->cpu) {
		ret = map_switch_out(ctx, sw->ts, nt->cpu, sw->next);
		if (ret < 0)
			return ret;
	}
	pt->cpu = -1;
	c->cur = sw->next;
	if (sw->next)
		nt->cpu = sw->cpu;
	args[0].type = FXT_ARG_INT32;
	args[0].name = map_name(ctx, TCFXT_ARG_OUT_WEIGHT);
	args[0].i32 = map_weight(sw->prev, (int32_t)sw->pprio);
	args[1].type = FXT_ARG_INT32;
	args[1].name = map_name(ctx, TCFXT_ARG_IN_WEIGHT);
	args[1].i32 = map_weight(sw->next, (int32_t)sw->nprio);
	cs = (struct fxt_sched_switch){
		.ts = sw->ts,
		.cpu = sw->cpu,
		.out_state = map_task_state(sw->state),
		.out_tid = sw->prev,
		.in_tid = sw->next,
		.nargs = 2,
		.args = args,
	};
	return fxt_write_sched_switch(map_w(ctx), &cs);
}

/* A full sched_switch event: the CPU's first, whose prev Perfetto lacks. */
static int map_switch_full(struct map_ctx *ctx, const struct map_switch *sw)
{
	struct map_pkt_ev e;
	int ret;

	ret = map_pkt_event(ctx, sw->cpu, sw->ts, sw->prev,
			    PFT_EV_SCHED_SWITCH, &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, PFT_SWITCH_PREV_COMM, sw->pcomm, sw->plen);
	pb_int(e.b, PFT_SWITCH_PREV_PID, (int32_t)sw->prev);
	pb_int(e.b, PFT_SWITCH_PREV_PRIO, (int32_t)sw->pprio);
	pb_int(e.b, PFT_SWITCH_PREV_STATE, (int64_t)sw->state);
	pb_bytes(e.b, PFT_SWITCH_NEXT_COMM, sw->ncomm, sw->nlen);
	pb_int(e.b, PFT_SWITCH_NEXT_PID, (int32_t)sw->next);
	pb_int(e.b, PFT_SWITCH_NEXT_PRIO, (int32_t)sw->nprio);
	return map_pkt_event_end(ctx, &e);
}

/*
 * Packets: @pid leaves the CPU it still holds in the packets (other than
 * @cpu) just before @ts, idle coming in, state "R": the recording lost
 * that CPU's switch out.  Perfetto would otherwise keep its row there
 * open under the next, and run the thread on two CPUs.
 */
static int map_switch_leave(struct map_ctx *ctx, uint64_t pid,
			    unsigned int cpu, uint64_t ts)
{
	struct map_task *t = map_task_get(ctx, pid);
	struct map_cpu *o;
	char idle[32];
	unsigned int ocpu;
	int ret;

	if (!pid || !t || t->cpu < 0 || t->cpu == (int32_t)cpu)
		return 0;
	ocpu = t->cpu;
	t->cpu = -1;
	o = map_cpu_get(ctx, ocpu);
	if (!o || o->cur != (int32_t)pid)
		return 0;
	/* before @ts, so that Perfetto ends it before the switch in here */
	if (ts > o->cur_ts)
		ts--;
	o->cur = 0;
	o->cur_ts = ts;
	snprintf(idle, sizeof(idle), "swapper/%u", ocpu);
	map_res_inferred(ctx, true);
	ret = map_pkt_switch(ctx, ocpu, ts, 0, 0, 120, idle, strlen(idle));
	map_res_inferred(ctx, false);
	return ret;
}

void map_sched_seen(struct map_ctx *ctx, const struct tep_record *rec,
		    int pid)
{
	struct map_cpu *c;

	if (!map_pkt_cpu_ok(rec->cpu))
		return;
	c = map_cpu_get(ctx, rec->cpu);
	if (!c)
		return;
	/* events lost: what ran before them says nothing of what runs now */
	if (c->seen != pid || rec->missed_events) {
		c->seen = pid;
		c->seen_ts = rec->ts;
		c->before_ts = c->last_ts;
	}
	c->last_ts = rec->ts;
}

/*
 * Packets: before the CPU's first switch, its prev ran there since the
 * first of the records that ran in it without a break (map_sched_seen()):
 * a switch in from idle at that time, state R, lets Perfetto draw that
 * run, which its importer does not know of (the recording began after
 * the task was switched in) and which would leave a wakeup's R row of
 * the task open under its later ones.
 */
static int map_switch_first(struct map_ctx *ctx, const struct map_switch *sw,
			    struct map_cpu *c)
{
	char idle[32];
	struct map_switch in = {
		.ts = c->seen_ts, .cpu = sw->cpu,
		.prev = 0, .pprio = 120, .state = 0, .pcomm = idle,
		.next = sw->prev, .nprio = sw->pprio,
		.ncomm = sw->pcomm, .nlen = sw->plen,
	};
	int ret;

	if (!sw->prev || c->seen != (int32_t)sw->prev || c->seen_ts >= sw->ts)
		return 0;
	in.plen = snprintf(idle, sizeof(idle), "swapper/%u", sw->cpu);
	map_res_inferred(ctx, true);
	ret = map_switch_full(ctx, &in);
	map_res_inferred(ctx, false);
	if (ret < 0)
		return ret;
	c->cur = sw->prev;
	c->cur_ts = c->seen_ts;
	map_task_comm_note(ctx, sw->prev, sw->pcomm, sw->plen);
	return 0;
}

/*
 * When the task @prev, leaving @cpu at @ts, came in: the recording lost
 * that switch.  Since the first record of its unbroken run on the CPU
 * (map_sched_seen(): no record of another task, no lost events, since
 * the CPU's last switch), as for a CPU's first switch.
 *
 * When its switch out is the only record of its run (a recording
 * filtered by pid keeps an unfiltered task's switch to a filtered one,
 * not the switch in to it), the recording only bounds the lost switch:
 * after the CPU's last switch and its record before @ts, before @ts.
 * The task's sched_waking is no bound (the kernel records one of a task
 * that has not left its CPU yet: try_to_wake_up()).  It is drawn halfway
 * between, the task at least 1 ns, which errs by at most half that time
 * either way; at @ts itself Perfetto would close a 0 ns row of the task
 * (SchedEventTracker::ClosePendingSlice()), the whole time going to the
 * task the CPU's last switch brought in.
 */
static uint64_t map_switch_lost_in(const struct map_cpu *c, uint64_t prev,
				   uint64_t ts)
{
	uint64_t lo = c->before_ts > c->cur_ts ? c->before_ts : c->cur_ts;

	if (c->seen != (int32_t)prev || c->seen_ts < c->cur_ts)
		return ts;
	if (c->seen_ts < ts)
		return c->seen_ts;
	if (c->seen_ts == ts && lo < ts)
		return lo + (ts - lo) / 2;
	return ts;
}

/*
 * Packets: the switch, compact but for the CPU's first; a switch whose
 * prev is not the CPU's last next (a switch the recording lost) comes
 * after one from that task to prev, state "R", which closes the row
 * Perfetto holds open, at the first record of prev's run.
 */
static int map_switch_pkt(struct map_ctx *ctx, const struct map_switch *sw)
{
	struct map_task *pt, *nt;
	struct map_cpu *c;
	bool renamed;
	int ret;

	if (!map_pkt_cpu_ok(sw->cpu))
		return 0;
	c = map_cpu_get(ctx, sw->cpu);
	pt = map_task_get(ctx, sw->prev);
	nt = map_task_get(ctx, sw->next);
	if (!c || !pt || !nt)
		return -ENOMEM;
	ret = map_switch_leave(ctx, sw->next, sw->cpu, sw->ts);
	if (ret < 0)
		return ret;
	ret = map_switch_leave(ctx, sw->prev, sw->cpu, sw->ts);
	if (ret < 0)
		return ret;
	if (c->cur < 0) {
		ret = map_switch_first(ctx, sw, c);
		if (ret < 0)
			return ret;
	}
	if (c->cur >= 0 && c->cur != (int32_t)sw->prev) {
		map_res_inferred(ctx, true);
		ret = map_pkt_switch(ctx, sw->cpu,
				     map_switch_lost_in(c, sw->prev, sw->ts),
				     0, sw->prev, sw->pprio, sw->pcomm,
				     sw->plen);
		map_res_inferred(ctx, false);
		if (ret < 0)
			return ret;
		c->cur = sw->prev;
		map_task_comm_note(ctx, sw->prev, sw->pcomm, sw->plen);
		/*
		 * the chunk's first switch of the CPU, which names prev for
		 * this one: written whole, this one would come before it,
		 * the importers putting a bundle's events before its compact
		 * ones of the same time
		 */
		map_pkt_fresh(ctx, sw->cpu);
	}
	/*
	 * Full for the CPU's first, its first in a chunk of the packets
	 * (map_pkt_fresh()), and when the task leaves under another
	 * name than the packets gave it last (exec renamed it while it
	 * ran): a compact switch carries no prev_comm, and Perfetto names
	 * a thread after the comm of its latest switch or wakeup.  The
	 * idle task's name is the process tree's (map_pkt_start()).
	 */
	renamed = sw->prev &&
		  !map_task_comm_is(ctx, sw->prev, sw->pcomm, sw->plen);
	if (map_pkt_fresh(ctx, sw->cpu) || c->cur < 0 || renamed)
		ret = map_switch_full(ctx, sw);
	else
		ret = map_pkt_switch(ctx, sw->cpu, sw->ts, sw->state,
				     sw->next, sw->nprio, sw->ncomm, sw->nlen);
	map_task_comm_note(ctx, sw->prev, sw->pcomm, sw->plen);
	map_task_comm_note(ctx, sw->next, sw->ncomm, sw->nlen);
	if (pt->cpu == (int32_t)sw->cpu)
		pt->cpu = -1;
	c->cur = sw->next;
	c->cur_ts = sw->ts;
	/* the run of the task coming in starts here */
	c->seen = sw->next;
	c->seen_ts = sw->ts;
	if (sw->next)
		nt->cpu = sw->cpu;
	return ret;
}

/*
 * sched_switch: fields prev_pid, next_pid, prev_prio, next_prio,
 * prev_state, prev_comm, next_comm.
 */
int map_sched_switch_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread)
{
	struct map_switch sw = { .ts = rec->ts, .cpu = rec->cpu };
	struct fxt_thread th;
	int ret;

	if (!map_field_u64(buf, rec, me->sf[0], &sw.prev) ||
	    !map_field_u64(buf, rec, me->sf[1], &sw.next) ||
	    sw.prev >= MAP_PID_LIMIT || sw.next >= MAP_PID_LIMIT)
		return 0;	/* damaged: the instant keeps what it says */
	map_field_u64(buf, rec, me->sf[2], &sw.pprio);
	map_field_u64(buf, rec, me->sf[3], &sw.nprio);
	map_field_u64(buf, rec, me->sf[4], &sw.state);
	ret = map_task_name(ctx, buf, rec, me->sf[0], me->sf[5], false);
	if (ret >= 0)
		ret = map_task_name(ctx, buf, rec, me->sf[1], me->sf[6],
				    false);
	if (ret >= 0)
		ret = map_task_thread(ctx, buf, (int)sw.next, &th);
	if (ret < 0)
		return ret;
	if (ctx->opts->fxt_records)
		return map_switch_fxt(ctx, &sw);
	sw.plen = map_field_str(rec, me->sf[5], &sw.pcomm);
	sw.nlen = map_field_str(rec, me->sf[6], &sw.ncomm);
	if (sw.plen < 0) {
		sw.pcomm = "";
		sw.plen = 0;
	}
	if (sw.nlen < 0) {
		sw.ncomm = "";
		sw.nlen = 0;
	}
	return map_switch_pkt(ctx, &sw);
}

/*
 * Packets: a wakeup as sched_waking (which sched_wakeup_new, and
 * sched_wakeup in a recording without sched_waking, stand for too:
 * Perfetto's importer draws only sched_waking), compact when its waker
 * is the task the CPU runs (Perfetto takes the waker from there, and
 * the interrupt context from common_flags), full otherwise (the waker
 * is the record's common_pid).  Compact in a chunk's bundles before the
 * CPU's first switch there too: a reader who lost the chunk before
 * takes the waker from the bundle's residue (running), and Perfetto,
 * which reads only common_flags of compact wakings, keeps the interrupt
 * context.
 */
static int map_waking_pkt(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  uint64_t pid, uint64_t prio, uint64_t cpu)
{
	int waker = ctx->rec_pid;
	struct map_cpu *c = map_cpu_get(ctx, rec->cpu);
	uint64_t flags = 0;
	struct map_pkt_ev e;
	const char *comm;
	int len, ret;

	if (!map_pkt_cpu_ok(rec->cpu))
		return 0;
	if (!c)
		return -ENOMEM;
	len = map_field_str(rec, me->sf[3], &comm);
	if (len < 0) {
		comm = "";
		len = 0;
	}
	map_task_comm_note(ctx, pid, comm, len);
	if (c->cur >= 0 && c->cur == waker) {
		map_field_u64(buf, rec, ctx->common_flags, &flags);
		return map_pkt_waking(ctx, rec->cpu, rec->ts, pid, cpu, prio,
				      comm, len, flags);
	}
	ret = map_pkt_event(ctx, rec->cpu, rec->ts, waker,
			    PFT_EV_SCHED_WAKING, &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, PFT_WAKING_COMM, comm, len);
	pb_int(e.b, PFT_WAKING_PID, (int32_t)pid);
	pb_int(e.b, PFT_WAKING_PRIO, (int32_t)prio);
	pb_int(e.b, PFT_WAKING_TARGET_CPU, (int32_t)cpu);
	return map_pkt_event_end(ctx, &e);
}

/* sched_waking, sched_wakeup(_new): fields pid, prio, target_cpu, comm */
/*
 * A sched_wakeup_new whose task_newtask went into the packets: Perfetto
 * started the task Runnable there (ParseTaskNewTask, PushNewTaskEvent),
 * as in its own recording, so the wakeup is its own event in the packets
 * (a generic one: map-dispatch.c), not a sched_waking.
 */
bool map_sched_wakeup_new_own(struct map_ctx *ctx, struct map_buffer *buf,
			      struct map_event *me, struct tep_record *rec)
{
	struct map_task *t;
	uint64_t pid;

	/* .wake is a wakeup row's only (MAP_WAKE_NEW is 0) */
	if (me->special->write != map_sched_wakeup_write ||
	    me->special->wake != MAP_WAKE_NEW || ctx->opts->fxt_records ||
	    !map_field_u64(buf, rec, me->sf[0], &pid) || pid >= MAP_PID_LIMIT)
		return false;
	t = map_task_get(ctx, (int)pid);
	return t && t->newtask_pkt;
}

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
	if (map_sched_wakeup_new_own(ctx, buf, me, rec))
		return 0;
	if (!ctx->opts->fxt_records)
		return map_waking_pkt(ctx, buf, me, rec, pid, prio, cpu);
	args[0].type = FXT_ARG_INT32;
	args[0].name = map_name(ctx, TCFXT_ARG_WEIGHT);
	args[0].i32 = map_weight(pid, (int32_t)prio);
	/* the task running when the wakeup was recorded did the waking */
	args[1].type = FXT_ARG_KOID;
	args[1].name = map_name(ctx, TCFXT_ARG_WAKER);
	args[1].koid = ctx->rec_pid;
	wk = (struct fxt_sched_wakeup){
		.ts = rec->ts,
		.cpu = cpu,
		.tid = pid,
		.nargs = 2,
		.args = args,
	};
	return fxt_write_sched_wakeup(map_w(ctx), &wk);
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
