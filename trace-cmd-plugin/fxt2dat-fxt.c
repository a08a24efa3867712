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
 * thread koid (truncated to 32 bits; the full one is in tid); the CPU is
 * the event's "cpu" argument if it has an integer one, else the CPU its
 * thread was last switched in on, else 0.
 *
 * The args list, little endian, unaligned, one entry per argument:
 *   u8 type (the FXT argument type), u8 0, u16 name length, name bytes,
 *   then the value: nothing for null; 4 bytes for int32 / uint32;
 *   8 for int64 / uint64 / double / pointer / koid; 1 for bool;
 *   u32 length + bytes for a string.
 * plugin_fxt.so decodes it; without the plugin trace-cmd report shows
 * "category:name" from the print format.
 */
#include <errno.h>
#include <string.h>

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

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* Append the encoded arguments to @t. */
static int encode_args(struct f2d_text *t, const struct fxt_arg *args,
		       unsigned int nargs)
{
	unsigned int i, vlen;
	uint8_t hdr[4], val[8];
	uint64_t v;
	int ret;

	t->len = 0;
	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];
		uint32_t nlen = a->name.len > 0xffff ? 0xffff : a->name.len;

		if (a->type >= FXT_ARG_TYPE_COUNT)
			continue;	/* unknown: its bytes mean nothing here */
		hdr[0] = a->type;
		hdr[1] = 0;
		put_le(hdr + 2, nlen, 2);
		ret = f2d_text_add(t, (const char *)hdr, 4);
		if (!ret)
			ret = f2d_text_add(t, a->name.ptr, nlen);
		if (ret)
			return ret;
		vlen = 0;
		v = 0;
		switch (a->type) {
		case FXT_ARG_INT32:
		case FXT_ARG_UINT32:
			v = a->u32;
			vlen = 4;
			break;
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
		case FXT_ARG_DOUBLE:
		case FXT_ARG_POINTER:
		case FXT_ARG_KOID:
			v = a->u64;
			vlen = 8;
			break;
		case FXT_ARG_BOOL:
			v = a->b;
			vlen = 1;
			break;
		case FXT_ARG_STRING:
			put_le(val, a->str.len, 4);
			ret = f2d_text_add(t, (const char *)val, 4);
			if (!ret)
				ret = f2d_text_add(t, a->str.ptr, a->str.len);
			if (ret)
				return ret;
			break;
		}
		put_le(val, v, vlen);
		if (vlen && f2d_text_add(t, (const char *)val, vlen))
			return -ENOMEM;
	}
	return 0;
}

static unsigned int event_cpu(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nargs; i++) {
		const struct fxt_arg *a = &ev->args[i];

		if (!fxt_str_eq(a->name, TCFXT_ARG_CPU))
			continue;
		switch (a->type) {
		case FXT_ARG_INT32:
		case FXT_ARG_UINT32:
			return a->u32 < 65536 ? a->u32 : 0;
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
			return a->u64 < 65536 ? a->u64 : 0;
		}
	}
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
	ret = f2d_rec_begin(ctx, f, (int32_t)ev->thread.tid);
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

	f = f2d_format_make(ctx, F2D_SYSTEM, "log", fxt_log_body);
	if (!f)
		return -ENOMEM;
	ret = f2d_rec_begin(ctx, f, (int32_t)rec->log.thread.tid);
	if (ret < 0)
		return ret;
	f2d_put_int(r, f, "pid", rec->log.thread.pid);
	f2d_put_int(r, f, "tid", rec->log.thread.tid);
	f2d_put_str(r, f, "msg", rec->log.msg.ptr, rec->log.msg.len);
	return f2d_emit(ctx, ctx->cur->buffer,
			f2d_cpu_of(ctx, rec->log.thread.tid),
			f2d_ns(ctx, rec->log.ts), r->data, r->len);
}
