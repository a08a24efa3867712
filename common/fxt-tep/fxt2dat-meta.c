// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-meta.c - the converter's own instants (category trace-cmd, see
 * tcfxt.h), which say what the .dat's headers held.
 *
 * file_info gives the CPU count, page size, clock and the like;
 * cpustats, headers, kallsyms, printk and event_format carry texts that
 * may continue in ".cont" instants: they are gathered in ctx->ptext
 * (f2d_meta_cont) and put where they belong when the next record shows
 * the text is whole (f2d_meta_flush).  lost_events says where the buffer
 * full before it lost events.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fxt2dat.h"
#include "tcfxt.h"

/* An integer argument of @ev, 0 if it has none. */
static uint64_t arg_num(const struct fxt_event *ev, const char *name)
{
	int64_t v;

	return fxt_arg_int(fxt_args_find(ev->args, ev->nargs, name), &v) ?
	       (uint64_t)v : 0;
}

/*
 * trace-cmd:lost_events (cpu, count, -1 unknown) tells the buffer-full
 * before it: the next event on that CPU starts a page flagged as the
 * kernel flags a page read after an overrun.  Without a usable CPU it
 * goes with the buffer's next event, as a bare buffer-full does.
 */
static int lost_events(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	const struct fxt_arg *a;
	int64_t cpu, count;

	a = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_COUNT);
	if (!fxt_arg_int(a, &count) || count <= 0)
		count = -1;
	a = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_CPU);
	if (!fxt_arg_int(a, &cpu) || cpu < 0 || cpu >= 65536) {
		ctx->cur->lost = count;
		return 0;
	}
	ctx->cur->lost = 0;
	return f2d_lost(ctx, ctx->cur->buffer, cpu, f2d_ns(ctx, ev->ts),
			count);
}

static void info_str(struct f2d_text *t, const struct fxt_event *ev,
		     const char *name)
{
	const struct fxt_arg *a = fxt_args_find(ev->args, ev->nargs, name);

	if (a && a->type == FXT_ARG_STRING && !t->len)
		f2d_text_set(t, a->str);
}

static void file_info(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	unsigned int cpus = arg_num(ev, TCFXT_INFO_CPUS);

	ctx->cur->ftrace = true;
	ctx->have_info = true;
	if (cpus > ctx->info_cpus)
		ctx->info_cpus = cpus;
	if (!ctx->info_page_size)
		ctx->info_page_size = arg_num(ev, TCFXT_INFO_PAGE_SIZE);
	if (!ctx->info_long_size)
		ctx->info_long_size = arg_num(ev, TCFXT_INFO_LONG_SIZE);
	if (arg_num(ev, TCFXT_INFO_BIG_ENDIAN))
		ctx->info_big = true;
	info_str(&ctx->clock, ev, TCFXT_INFO_CLOCK);
	info_str(&ctx->uname, ev, TCFXT_INFO_UNAME);
	info_str(&ctx->version, ev, TCFXT_INFO_VERSION);
}

/* The text argument that a metadata instant or its .cont carries. */
static const struct fxt_arg *text_arg(const struct fxt_event *ev)
{
	int i;

	for (i = ev->nargs - 1; i >= 0; i--)
		if (ev->args[i].type == FXT_ARG_STRING)
			return &ev->args[i];
	return NULL;
}

static int meta_start(struct f2d_ctx *ctx, const struct fxt_event *ev,
		      enum f2d_pending kind)
{
	const struct fxt_arg *t = text_arg(ev), *a;
	int ret;

	ctx->pending = kind;
	ctx->ptext.len = 0;
	if (kind == F2D_PEND_FORMAT) {
		a = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_SYSTEM);
		if (!a || a->type != FXT_ARG_STRING)
			return 0;
		ret = f2d_text_set(&ctx->psystem, a->str);
		if (ret < 0)
			return ret;
	}
	if (kind == F2D_PEND_HEADERS) {
		a = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_HEADER_PAGE);
		if (a && a->type == FXT_ARG_STRING) {
			ret = f2d_text_set(&ctx->header_page, a->str);
			if (ret < 0)
				return ret;
		}
	}
	return t ? f2d_text_add(&ctx->ptext, t->str.ptr, t->str.len) : 0;
}

int f2d_meta_flush(struct f2d_ctx *ctx)
{
	enum f2d_pending kind = ctx->pending;
	struct f2d_text *dst = NULL;
	int ret = 0;

	ctx->pending = F2D_PEND_NONE;
	switch (kind) {
	case F2D_PEND_NONE:
	case F2D_PEND_EVENT:
		return 0;
	case F2D_PEND_FORMAT:
		if (!ctx->psystem.len || !ctx->ptext.len)
			return 0;
		ret = f2d_format_add(ctx, ctx->psystem.s, ctx->ptext.s,
				     ctx->ptext.len, F2D_FORMAT_RESTORED, NULL);
		/* a format libtraceevent cannot parse: its events stay fxt */
		return ret == -EINVAL || ret == -EEXIST ? 0 : ret;
	case F2D_PEND_KALLSYMS:
		dst = &ctx->kallsyms;
		break;
	case F2D_PEND_PRINTK:
		dst = &ctx->printk;
		break;
	case F2D_PEND_HEADERS:
		if (ctx->header_event.len)
			return 0;
		dst = &ctx->header_event;
		break;
	}
	return f2d_text_add(dst, ctx->ptext.s ? ctx->ptext.s : "",
			    ctx->ptext.len);
}

int f2d_meta_cont(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	const struct fxt_arg *t = text_arg(ev);

	return t ? f2d_text_add(&ctx->ptext, t->str.ptr, t->str.len) : 0;
}

int f2d_meta_event(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	static const struct {
		const char		*name;
		enum f2d_pending	kind;
	} meta[] = {
		{ TCFXT_EVENT_FORMAT,	F2D_PEND_FORMAT },
		{ TCFXT_KALLSYMS,	F2D_PEND_KALLSYMS },
		{ TCFXT_PRINTK,		F2D_PEND_PRINTK },
		{ TCFXT_HEADERS,		F2D_PEND_HEADERS },
	};
	const struct fxt_arg *t;
	unsigned int i;

	if (fxt_str_eq(ev->name, TCFXT_FILE_INFO)) {
		file_info(ctx, ev);
		return 0;
	}
	if (fxt_str_eq(ev->name, TCFXT_CPUSTATS)) {
		t = text_arg(ev);
		if (t && !ctx->cpustats.len)
			return f2d_text_set(&ctx->cpustats, t->str);
		return 0;
	}
	for (i = 0; i < sizeof(meta) / sizeof(meta[0]); i++)
		if (fxt_str_eq(ev->name, meta[i].name))
			return meta_start(ctx, ev, meta[i].kind);
	if (fxt_str_eq(ev->name, TCFXT_LOST_EVENTS))
		return lost_events(ctx, ev);
	ctx->st->skipped++;
	return 0;
}
