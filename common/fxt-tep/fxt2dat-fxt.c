// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-fxt.c - FXT events and logs as events of the "fxt" system.
 *
 * One event per FXT event type (fxt/instant, fxt/counter,
 * fxt/duration_begin, ..., fxt/flow_end) with one layout, and fxt/log:
 *
 *   u64 pid, tid                the thread's process and thread koids
 *   u64 id                      counter, async or flow id (else 0)
 *   u64 end_ts                  duration_complete: end, in ns (else 0)
 *   __data_loc char[] category, name
 *   __data_loc u8[] args        the arguments, encoded as below
 *
 * fxt/log has pid, tid and __data_loc char[] msg.  common_pid is the
 * thread's task id (fxt-threads.h: its tid where that is a pid no other
 * thread has; the full koids are in pid and tid); the CPU is the event's
 * "cpu" argument if it has an integer one, else the CPU its thread was
 * last switched in on, else 0.
 *
 * The args field holds the arguments as common/fxt/fxt-args.h lays them out;
 * plugin_fxt.so decodes it; without the plugin trace-cmd report shows
 * "category:name" from the print format.
 */
#include <errno.h>
#include <string.h>

#include "fxt-args.h"
#include "fxt2dat.h"
#include "tcfxt.h"

static const char fxt_event_body[] =
	F2D_COMMON_FIELDS
	"\tfield:u64 pid;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 tid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 id;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 end_ts;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] category;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] args;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s:%s\", __get_str(category), __get_str(name)\n";

static const char fxt_log_body[] =
	F2D_COMMON_FIELDS
	"\tfield:u64 pid;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 tid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] msg;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s\", __get_str(msg)\n";

/* The arguments as the args field holds them, in @t. */
static int encode_args(struct f2d_text *t, const struct fxt_arg *args,
		       unsigned int nargs)
{
	size_t len = fxt_args_encode(args, nargs, NULL, 0);
	char *p;

	t->len = 0;
	p = f2d_text_room(t, len);
	if (!p)
		return -ENOMEM;
	fxt_args_encode(args, nargs, (uint8_t *)p, len);
	return 0;
}

static unsigned int event_cpu(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	unsigned int i;
	int64_t v;

	/* the first integer one, as the .dat direction names it */
	for (i = 0; i < ev->nargs; i++)
		if (fxt_str_eq(ev->args[i].name, TCFXT_ARG_CPU) &&
		    fxt_arg_int(&ev->args[i], &v))
			return v >= 0 && v < 65536 ? v : 0;
	return f2d_cpu_of(ctx, ev->thread.tid);
}

int f2d_fxt_event(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	struct f2d_format *f;
	struct f2d_rec *r = &ctx->rec;
	int ret;

	if (ev->type >= FXT_EVENT_TYPE_COUNT) {
		ctx->st->skipped++;
		return 0;
	}
	f = f2d_format_make(ctx, F2D_SYSTEM, fxt_event_type_name(ev->type),
			    fxt_event_body);
	if (!f)
		return -ENOMEM;
	ret = f2d_rec_begin(ctx, f, f2d_task_of(ctx, ev->thread.pid,
						ev->thread.tid, false).pid);
	if (ret < 0)
		return ret;
	f2d_put_int(r, f, "pid", ev->thread.pid);
	f2d_put_int(r, f, "tid", ev->thread.tid);
	f2d_put_int(r, f, "id", ev->id);
	if (ev->type == FXT_EVENT_DURATION_COMPLETE)
		f2d_put_int(r, f, "end_ts", f2d_ns(ctx, ev->end_ts));
	f2d_put_str(r, f, "category", ev->category.ptr, ev->category.len);
	f2d_put_str(r, f, "name", ev->name.ptr, ev->name.len);
	ret = encode_args(&ctx->arena_args, ev->args, ev->nargs);
	if (ret < 0)
		return ret;
	f2d_put_bytes(r, f, "args", ctx->arena_args.s, ctx->arena_args.len);
	return f2d_emit(ctx, ctx->cur->buffer, event_cpu(ctx, ev),
			f2d_ns(ctx, ev->ts), r->data, r->len);
}

int f2d_fxt_log(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	struct f2d_format *f;
	struct f2d_rec *r = &ctx->rec;
	int ret;

	f = f2d_format_make(ctx, F2D_SYSTEM, TCFXT_FXT_LOG, fxt_log_body);
	if (!f)
		return -ENOMEM;
	ret = f2d_rec_begin(ctx, f, f2d_task_of(ctx, rec->log.thread.pid,
						rec->log.thread.tid, false).pid);
	if (ret < 0)
		return ret;
	f2d_put_int(r, f, "pid", rec->log.thread.pid);
	f2d_put_int(r, f, "tid", rec->log.thread.tid);
	f2d_put_str(r, f, "msg", rec->log.msg.ptr, rec->log.msg.len);
	return f2d_emit(ctx, ctx->cur->buffer,
			f2d_cpu_of(ctx, rec->log.thread.tid),
			f2d_ns(ctx, rec->log.ts), r->data, r->len);
}
