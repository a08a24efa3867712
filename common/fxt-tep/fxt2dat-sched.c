// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-sched.c - context switches and wakeups as the kernel's own
 * sched_switch and sched_waking, so KernelShark's sched plugin draws the
 * tasks and their latencies.
 *
 * The formats are the kernel's (if the FXT carried sched formats of its
 * own, those are filled instead, by field name).  Threads are the tasks
 * and names f2d_task_of() gives (every name the file has, wherever it
 * is: the dry run read them all); priorities from the legacy record's
 * priorities or the new records' weight arguments (INT32_MIN, idle, and
 * no weight read as 120).  The outgoing state maps to the kernel's
 * prev_state bits: new/running R, suspended T, blocked S, dying Z, dead X.
 * A wakeup goes on the CPU it names, as sched_waking's target_cpu; its
 * common_pid is the "waker" argument if there is one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fxt2dat.h"
#include "tcfxt.h"

static const char switch_body[] =
	F2D_COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s "
	"==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, "
	"REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | "
	"0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | "
	"0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, "
	"{ 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, "
	"{ 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, "
	"{ 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char waking_body[] =
	F2D_COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, "
	"REC->pid, REC->prio, REC->target_cpu\n";

#define DEFAULT_PRIO	120

static int arg_prio(const struct fxt_arg *args, unsigned int nargs,
		    const char *name)
{
	const struct fxt_arg *a = fxt_args_find(args, nargs, name);

	if (!a || a->type != FXT_ARG_INT32 || a->i32 == INT32_MIN)
		return DEFAULT_PRIO;
	return a->i32;
}

long fxt2dat_prev_state(unsigned int state)
{
	switch (state) {
	case FXT_THREAD_SUSPENDED:
		return 0x04;
	case FXT_THREAD_BLOCKED:
		return 0x01;
	case FXT_THREAD_DYING:
		return 0x20;
	case FXT_THREAD_DEAD:
		return 0x10;
	}
	return 0;
}

/* libtraceevent's sched plugin takes task names from these fields */
static void put_comm(struct f2d_ctx *ctx, struct f2d_format *f,
		     const char *field, const struct f2d_task *t,
		     unsigned int cpu)
{
	const char *name = t->name;
	char buf[32];

	if (!name && t->pid) {
		name = "<...>";
	} else if (!name) {
		snprintf(buf, sizeof(buf), "swapper/%u", cpu);
		name = buf;
	}
	f2d_put_str(&ctx->rec, f, field, name, strlen(name));
}

static int sched_switch(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const typeof(rec->sched) *s = &rec->sched;
	bool legacy = s->subtype == FXT_SCHED_LEGACY_SWITCH;
	struct f2d_task out = f2d_task_of(ctx, s->out.pid, s->out.tid, !legacy);
	struct f2d_task in = f2d_task_of(ctx, s->in.pid, s->in.tid, !legacy);
	unsigned int cpu = f2d_dat_cpu(ctx, s->cpu);
	struct f2d_rec *r = &ctx->rec;
	struct f2d_format *f;
	int ret;

	f = f2d_format_make(ctx, "sched", "sched_switch", switch_body);
	if (!f)
		return -ENOMEM;
	ret = f2d_rec_begin(ctx, f, out.pid);
	if (ret < 0)
		return ret;
	put_comm(ctx, f, "prev_comm", &out, cpu);
	f2d_put_int(r, f, "prev_pid", out.pid);
	f2d_put_int(r, f, "prev_prio", legacy ? (int)s->out_prio :
		    arg_prio(s->args, s->nargs, TCFXT_ARG_OUT_WEIGHT));
	f2d_put_int(r, f, "prev_state", fxt2dat_prev_state(s->out_state));
	put_comm(ctx, f, "next_comm", &in, cpu);
	f2d_put_int(r, f, "next_pid", in.pid);
	f2d_put_int(r, f, "next_prio", legacy ? (int)s->in_prio :
		    arg_prio(s->args, s->nargs, TCFXT_ARG_IN_WEIGHT));
	f2d_cpu_set(ctx, s->in.tid, s->cpu);
	return f2d_emit(ctx, ctx->cur->buffer, s->cpu, f2d_ns(ctx, s->ts),
			r->data, r->len);
}

static int sched_waking(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const typeof(rec->sched) *s = &rec->sched;
	struct f2d_task woken = f2d_task_of(ctx, 0, s->in.tid, true);
	struct f2d_rec *r = &ctx->rec;
	struct f2d_format *f;
	uint64_t waker;
	int ret;

	f = f2d_format_make(ctx, "sched", "sched_waking", waking_body);
	if (!f)
		return -ENOMEM;
	if (!tcfxt_waker(s->args, s->nargs, &waker))
		waker = 0;
	ret = f2d_rec_begin(ctx, f, waker ?
			    f2d_task_of(ctx, 0, waker, true).pid : 0);
	if (ret < 0)
		return ret;
	put_comm(ctx, f, "comm", &woken, s->cpu);
	f2d_put_int(r, f, "pid", woken.pid);
	f2d_put_int(r, f, "prio", arg_prio(s->args, s->nargs, TCFXT_ARG_WEIGHT));
	f2d_put_int(r, f, "target_cpu", f2d_dat_cpu(ctx, s->cpu));
	return f2d_emit(ctx, ctx->cur->buffer, s->cpu, f2d_ns(ctx, s->ts),
			r->data, r->len);
}

int f2d_sched(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	switch (rec->sched.subtype) {
	case FXT_SCHED_LEGACY_SWITCH:
	case FXT_SCHED_SWITCH:
		return sched_switch(ctx, rec);
	case FXT_SCHED_WAKEUP:
		return sched_waking(ctx, rec);
	}
	ctx->st->skipped++;
	return 0;
}
