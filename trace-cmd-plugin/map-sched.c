// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-sched.c - what Perfetto needs to draw CPU tracks and thread states.
 *
 * sched_switch becomes a context switch record (the subtype-1 scheduling
 * record: 16-bit CPU, weights as arguments, INT32_MIN weight for pid 0 so
 * that the idle task reads as idle) and sched_waking / sched_wakeup_new
 * (sched_wakeup when the trace has no sched_waking) become thread wakeup
 * records.  Task names become kernel object records: a thread object
 * per pid in its thread group's process (map-tgid.c), and the process
 * object named after the group's leader, named from the file's saved
 * cmdlines, before the pid's first record.  Names that only events reveal
 * (a comm field of a pid the cmdlines do not know, task_rename) are
 * announced too, with a "source" = "event" argument, because trace-cmd's
 * report columns keep using the cmdlines' name.  These records come next
 * to the instant event of the same ftrace event, which keeps every field.
 *
 * Perfetto closes a thread's CPU row only when that thread switches out
 * (fuchsia_trace_parser.cc, SwitchFrom/SwitchTo), so the switches are
 * kept consistent whatever the recording lost: one thread per CPU, one
 * CPU per thread, a switch-out inferred where one is missing.  And one
 * kernel event that two buffers recorded derives its records once
 * (map_sched_restated()).
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

/*
 * The conversion's record of @pid, growing the table as needed; NULL
 * for a pid outside [0, MAP_PID_LIMIT) or when out of memory.
 */
struct map_task *map_task_get(struct map_ctx *ctx, int pid)
{
	struct map_task *t;
	int n, i;

	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return NULL;
	if (pid < ctx->nr_tasks)
		return &ctx->tasks[pid];
	n = pid + 4096;
	t = realloc(ctx->tasks, n * sizeof(*t));
	if (!t)
		return NULL;
	for (i = ctx->nr_tasks; i < n; i++)
		t[i] = (struct map_task){ .cpu = -1 };
	ctx->tasks = t;
	ctx->nr_tasks = n;
	return &t[pid];
}

/* The thread group of @pid: what the recording said, else its own. */
static int map_tgid(struct map_ctx *ctx, int pid)
{
	struct map_task *t = pid < ctx->nr_tasks ? &ctx->tasks[pid] : NULL;

	return t && t->tgid > 0 ? t->tgid : pid;
}

static const char *map_comm(struct map_buffer *buf, int pid)
{
	const char *comm = pid ? tep_data_comm_from_pid(buf->tep, pid) :
				 "swapper";

	return comm && strcmp(comm, "<...>") ? comm : NULL;
}

/*
 * A thread object (koid = pid, "process" = its tgid) named @name, and
 * the first time a thread group meets its process object, named after
 * the group leader (the name the leader's pid has, else this one).
 */
static int map_announce(struct map_ctx *ctx, struct map_buffer *buf,
			int pid, const char *name, size_t len, bool from_event)
{
	struct fxt_arg args[2];
	unsigned int n = 0;
	int tgid = map_tgid(ctx, pid);
	struct map_task *leader;
	int ret;

	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return 0;	/* a damaged record's: never named */
	leader = map_task_get(ctx, tgid);
	if (!leader)
		return -ENOMEM;
	if (from_event) {
		args[n].type = FXT_ARG_STRING;
		args[n].name = fxt_writer_str(ctx->w, "source");
		args[n++].str = fxt_writer_str(ctx->w, "event");
	}
	if (tgid == pid || !leader->proc_named) {
		const char *lname = tgid == pid ? NULL : map_comm(buf, tgid);

		ret = fxt_write_kernel_object(ctx->w, tgid, FXT_OBJ_PROCESS,
					      lname ? fxt_str_make(lname,
							strlen(lname)) :
					      fxt_str_make(name, len), args, n);
		if (ret < 0)
			return ret;
		leader->proc_named = tgid == pid || lname;
	}
	args[n].type = FXT_ARG_KOID;
	args[n].name = fxt_writer_str(ctx->w, "process");
	args[n++].koid = tgid;
	return fxt_write_kernel_object(ctx->w, pid, FXT_OBJ_THREAD,
				       fxt_str_make(name, len), args, n);
}

/*
 * The FXT thread of @pid, (tgid, pid), announcing its name first if this
 * is the first time the conversion meets it.
 */
int map_sched_thread(struct map_ctx *ctx, struct map_buffer *buf,
		     int pid, struct fxt_thread *thread)
{
	struct map_task *t;
	const char *comm;

	thread->pid = pid < 0 ? pid : map_tgid(ctx, pid);
	thread->tid = pid;
	/* beyond any real pid: the thread is used, never named */
	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return 0;
	if (pid < ctx->nr_tasks && ctx->tasks[pid].named)
		return 0;
	t = map_task_get(ctx, pid);
	if (!t)
		return -ENOMEM;
	t->named = 1;
	comm = map_comm(buf, pid);
	if (!comm)
		return 0;
	t->named = 3;
	return map_announce(ctx, buf, pid, comm, strlen(comm), false);
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
	if (!rename && (ctx->tasks[pid].named & 2))
		return 0;
	len = map_field_str(rec, cf, &comm);
	if (len <= 0)
		return 0;
	ctx->tasks[pid].named |= 2;
	return map_announce(ctx, buf, pid, comm, len, true);
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

static struct map_cpu *map_cpu_get(struct map_ctx *ctx, unsigned int cpu)
{
	struct map_cpu *c;
	int n, i;

	if (cpu >= 65536)
		return NULL;
	if ((int)cpu < ctx->nr_cpus)
		return &ctx->cpus[cpu];
	n = cpu + 8;
	c = realloc(ctx->cpus, n * sizeof(*c));
	if (!c)
		return NULL;
	for (i = ctx->nr_cpus; i < n; i++)
		c[i] = (struct map_cpu){ .cur = -1 };
	ctx->cpus = c;
	ctx->nr_cpus = n;
	return &c[cpu];
}

/* FNV-1a 64 of a record's bytes: equal records of two buffers. */
static uint64_t map_rec_hash(const struct tep_record *rec)
{
	const unsigned char *p = rec->data;
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < rec->size; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * How far apart two buffers' copies of one event may be: the kernel
 * writes them one after the other from the same tracepoint call, each
 * with its own clock read.
 */
#define MAP_DUP_WINDOW_NS	100000

/*
 * Whether @rec restates a record another buffer gave shortly before on
 * the same CPU, byte for byte: the kernel wrote one event into two ring
 * buffers (both recording sched_switch, say).  Its instant stays in each
 * buffer's provider, but what the mapping derives from the event
 * (scheduling, names, logs, slices, counters) is written once.  A copy
 * matches one record only, so events that really repeat stay.
 */
bool map_sched_restated(struct map_ctx *ctx, struct map_buffer *buf,
			struct tep_record *rec)
{
	struct map_cpu *c;
	struct map_dup *d;
	uint64_t h;
	unsigned int i;

	if (ctx->nr_bufs < 2)
		return false;
	c = map_cpu_get(ctx, rec->cpu);
	if (!c)
		return false;
	h = map_rec_hash(rec);
	for (i = 0; i < MAP_DUP_SLOTS; i++) {
		d = &c->dup[i];
		if (!d->buf || d->hash != h || d->buf == buf ||
		    rec->ts - d->ts > MAP_DUP_WINDOW_NS)
			continue;
		d->buf = NULL;
		return true;
	}
	d = &c->dup[c->next];
	c->next = (c->next + 1) % MAP_DUP_SLOTS;
	*d = (struct map_dup){ .ts = rec->ts, .hash = h, .buf = buf };
	return false;
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
		{ .type = FXT_ARG_INT32, .name = ctx->s_out_weight, .i32 = 0 },
		{ .type = FXT_ARG_INT32, .name = ctx->s_in_weight,
		  .i32 = INT32_MIN },
		{ .type = FXT_ARG_BOOL, .name = ctx->s_inferred, .b = true },
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

static int map_switch(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec)
{
	uint64_t prev = 0, next = 0, pprio = 0, nprio = 0, state = 0;
	struct map_task *pt, *nt;
	struct map_cpu *c;
	struct fxt_thread th;
	struct fxt_arg args[2];
	struct fxt_sched_switch cs;
	int ret;

	struct tep_event *e = me->event;

	if (!map_field_u64(buf, rec, me->sf[0], &prev) ||
	    !map_field_u64(buf, rec, me->sf[1], &next) ||
	    prev >= MAP_PID_LIMIT || next >= MAP_PID_LIMIT)
		return 0;	/* damaged: the instant keeps what it says */
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
