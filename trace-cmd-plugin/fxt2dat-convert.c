// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-convert.c - drive one FXT -> .dat conversion.
 *
 * Each provider becomes a buffer: the first one the top buffer, the
 * others instances named after the provider.  A provider that starts with
 * trace-cmd:file_info was made by trace-fxt from a .dat: its ftrace
 * instants are rebuilt into the original records and the records the
 * mapping derived from them (context switches, wakeups, logs, atrace
 * slices, counters) are dropped, since the rebuilt events say it all.
 * Every other provider's events, logs, context switches and wakeups
 * become events of the fxt system and sched events.
 *
 * A .dat writer needs the CPU count and page size before the first
 * event, and per CPU events in time order.  FXT made from a .dat says
 * the first two in file_info and is ordered, so it converts in one pass.
 * Anything else, or a file that proves the guess wrong, is read once
 * without writing (a dry run measuring CPUs, the largest event, the
 * order) and then converted; out-of-order input is sorted in memory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "dat-writer.h"
#include "fxt2dat.h"
#include "tcfxt.h"

void f2d_error(struct f2d_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	if (ctx->err)
		return;
	ctx->err = err ? err : -EIO;
	va_start(ap, fmt);
	vsnprintf(ctx->errbuf, ctx->errlen, fmt, ap);
	va_end(ap);
}

int f2d_text_add(struct f2d_text *t, const char *s, size_t len)
{
	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *p;

		while (cap < t->len + len + 1)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p)
			return -ENOMEM;
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, len);
	t->len += len;
	t->s[t->len] = '\0';
	return 0;
}

static int text_set(struct f2d_text *t, struct fxt_str s)
{
	t->len = 0;
	return f2d_text_add(t, s.ptr, s.len);
}

static void text_free(struct f2d_text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

uint64_t f2d_ns(struct f2d_ctx *ctx, uint64_t ticks)
{
	uint64_t tps = fxt_reader_ticks_per_second(ctx->r);

	if (tps == 1000000000ULL || !tps)
		return ticks;
	return (unsigned __int128)ticks * 1000000000ULL / tps;
}

/* koid -> name, open addressing (koid 0 is a valid key: slot flag) */
static struct f2d_name *name_slot(struct f2d_ctx *ctx, uint64_t koid)
{
	size_t i, mask = ctx->cap_names - 1;

	for (i = (koid * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	     ctx->names[i].name; i = (i + 1) & mask)
		if (ctx->names[i].koid == koid)
			return &ctx->names[i];
	return &ctx->names[i];
}

static int name_set(struct f2d_ctx *ctx, uint64_t koid, struct fxt_str s)
{
	struct f2d_name *n, *old;
	size_t i, cap;

	if (2 * (ctx->nr_names + 1) > ctx->cap_names) {
		old = ctx->names;
		cap = ctx->cap_names;
		ctx->cap_names = cap ? 2 * cap : 256;
		ctx->names = calloc(ctx->cap_names, sizeof(*ctx->names));
		if (!ctx->names)
			return -ENOMEM;
		for (i = 0; i < cap; i++)
			if (old[i].name)
				*name_slot(ctx, old[i].koid) = old[i];
		free(old);
	}
	n = name_slot(ctx, koid);
	if (!n->name)
		ctx->nr_names++;
	free(n->name);
	n->koid = koid;
	n->name = strndup(s.ptr, s.len);
	return n->name ? 0 : -ENOMEM;
}

const char *f2d_name_of(struct f2d_ctx *ctx, uint64_t koid)
{
	struct f2d_name *n;

	if (!ctx->cap_names)
		return NULL;
	n = name_slot(ctx, koid);
	return n->name;
}

/* tid -> last CPU; slot value 0 = free, else cpu + 1 */
static size_t cpu_slot(struct f2d_ctx *ctx, uint64_t tid)
{
	size_t i, mask = ctx->cap_cpu - 1;

	for (i = (tid * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	     ctx->cpu_of[i] && ctx->cpu_tid[i] != tid; i = (i + 1) & mask)
		;
	return i;
}

void f2d_cpu_set(struct f2d_ctx *ctx, uint64_t tid, unsigned int cpu)
{
	size_t i, cap = ctx->cap_cpu;
	uint64_t *ot = ctx->cpu_tid;
	unsigned int *oc = ctx->cpu_of;

	if (2 * (ctx->nr_cpu + 1) > cap) {
		ctx->cap_cpu = cap ? 2 * cap : 256;
		ctx->cpu_tid = calloc(ctx->cap_cpu, sizeof(*ctx->cpu_tid));
		ctx->cpu_of = calloc(ctx->cap_cpu, sizeof(*ctx->cpu_of));
		if (!ctx->cpu_tid || !ctx->cpu_of) {
			free(ctx->cpu_tid);
			free(ctx->cpu_of);
			ctx->cpu_tid = ot;
			ctx->cpu_of = oc;
			ctx->cap_cpu = cap;
			return;
		}
		for (i = 0; i < cap; i++) {
			size_t j;

			if (!oc[i])
				continue;
			j = cpu_slot(ctx, ot[i]);
			ctx->cpu_tid[j] = ot[i];
			ctx->cpu_of[j] = oc[i];
		}
		free(ot);
		free(oc);
	}
	i = cpu_slot(ctx, tid);
	if (!ctx->cpu_of[i])
		ctx->nr_cpu++;
	ctx->cpu_tid[i] = tid;
	ctx->cpu_of[i] = cpu + 1;
}

unsigned int f2d_cpu_of(struct f2d_ctx *ctx, uint64_t tid)
{
	size_t i;

	if (!ctx->cap_cpu)
		return 0;
	i = cpu_slot(ctx, tid);
	return ctx->cpu_of[i] ? ctx->cpu_of[i] - 1 : 0;
}

static int writer_add_buffer(struct f2d_ctx *ctx, unsigned int i)
{
	int ret = dat_writer_add_buffer(ctx->w, ctx->buf_names[i]);

	return ret < 0 ? ret : 0;
}

static int writer_create(struct f2d_ctx *ctx)
{
	struct dat_writer_opts o = {
		.compression = ctx->opts->compression,
		.page_size = ctx->page_size,
		.long_size = ctx->info_long_size,
		.cpus = ctx->cpus,
		.clock = ctx->clock.len ? ctx->clock.s : NULL,
	};
	unsigned int i;
	int ret;

	ctx->w = dat_writer_create(ctx->fd, &o);
	if (!ctx->w)
		return -errno;
	for (i = 1; i < ctx->nr_bufs; i++) {
		ret = writer_add_buffer(ctx, i);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < ctx->nr_fmts; i++) {
		struct f2d_format *f = ctx->fmt_list[i];

		ret = dat_writer_add_event_format(ctx->w, f->system, f->text,
						  f->len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Room a page needs around one event of @len payload bytes. */
static unsigned int page_for(size_t len)
{
	unsigned int p = 4096;

	while (p < len + 64 && p < (1u << 27))
		p *= 2;
	return p;
}

static int keep_event(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
		      uint64_t ts, const void *data, size_t len, int64_t lost)
{
	struct f2d_keep *k;
	int ret;

	if (ctx->nr_keep == ctx->cap_keep) {
		size_t cap = ctx->cap_keep ? 2 * ctx->cap_keep : 1024;

		k = realloc(ctx->keep, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		ctx->keep = k;
		ctx->cap_keep = cap;
	}
	k = &ctx->keep[ctx->nr_keep];
	k->ts = ts;
	k->seq = ctx->nr_keep;
	k->off = ctx->arena.len;
	k->len = len;
	k->buffer = buffer;
	k->cpu = cpu;
	k->lost = lost;
	ret = f2d_text_add(&ctx->arena, data, len);
	if (ret < 0)
		return ret;
	ctx->nr_keep++;
	return 0;
}

/* The writer exists and takes @cpu and an event of @len; else measure. */
static int writer_ready(struct f2d_ctx *ctx, unsigned int cpu, size_t len)
{
	int ret;

	if (!ctx->w) {
		if (!ctx->cpus) {
			ctx->need_rerun = true;
			return -EAGAIN;
		}
		ret = writer_create(ctx);
		if (ret < 0)
			return ret;
	}
	if (cpu >= ctx->cpus || page_for(len) > ctx->page_size) {
		ctx->need_rerun = true;
		return -EAGAIN;
	}
	return 0;
}

int f2d_lost(struct f2d_ctx *ctx, int buffer, unsigned int cpu, uint64_t ts,
	     int64_t count)
{
	int ret;

	/* a sink reads events, not pages */
	if (ctx->sink)
		return 0;
	if (ctx->dry) {
		if (cpu > ctx->max_cpu)
			ctx->max_cpu = cpu;
		return 0;
	}
	ret = writer_ready(ctx, cpu, 0);
	if (ret < 0)
		return ret;
	if (ctx->sorted)
		return keep_event(ctx, buffer, cpu, ts, "", 0, count ? count : -1);
	return dat_writer_lost_events(ctx->w, buffer, cpu, count ? count : -1);
}

/* A buffer-full that named no CPU goes with the buffer's next event. */
static int lost_pending(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
			uint64_t ts)
{
	struct f2d_prov *p;
	int64_t lost;

	if (buffer < 0 || (unsigned int)buffer >= ctx->nr_provs)
		return 0;
	p = &ctx->provs[buffer];
	if (p->buffer != buffer || !p->lost)
		return 0;
	lost = p->lost;
	p->lost = 0;
	return f2d_lost(ctx, buffer, cpu, ts, lost);
}

static size_t last_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
	size_t i, mask = cap - 1;

	for (i = (key * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	     keys[i] && keys[i] != key; i = (i + 1) & mask)
		;
	return i;
}

/* Dry run: note @ts on (@buffer, @cpu), and whether time went back. */
static int last_ts_check(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
			 uint64_t ts)
{
	uint64_t key = ((uint64_t)buffer << 16 | cpu) + 1;
	uint64_t *keys, *vals;
	size_t i, j, cap;

	if (2 * (ctx->nr_last + 1) > ctx->cap_last) {
		cap = ctx->cap_last ? 2 * ctx->cap_last : 64;
		keys = calloc(cap, sizeof(*keys));
		vals = calloc(cap, sizeof(*vals));
		if (!keys || !vals) {
			free(keys);
			free(vals);
			return -ENOMEM;
		}
		for (i = 0; i < ctx->cap_last; i++) {
			if (!ctx->last_key[i])
				continue;
			j = last_slot(keys, cap, ctx->last_key[i]);
			keys[j] = ctx->last_key[i];
			vals[j] = ctx->last_ts[i];
		}
		free(ctx->last_key);
		free(ctx->last_ts);
		ctx->last_key = keys;
		ctx->last_ts = vals;
		ctx->cap_last = cap;
	}
	i = last_slot(ctx->last_key, ctx->cap_last, key);
	if (!ctx->last_key[i]) {
		ctx->last_key[i] = key;
		ctx->nr_last++;
	} else if (ts < ctx->last_ts[i]) {
		ctx->unordered = true;
		return 0;
	}
	ctx->last_ts[i] = ts;
	return 0;
}

int f2d_emit(struct f2d_ctx *ctx, int buffer, unsigned int cpu, uint64_t ts,
	     const void *data, size_t len)
{
	int ret;

	if (ctx->sink)
		return ctx->sink(ctx, buffer, cpu, ts, data, len);
	ctx->st->events_out++;
	/* the input may name any CPU; a .dat holds at most 65536 */
	if (cpu > 0xffff) {
		f2d_error(ctx, -EINVAL, "record %llu: CPU %u is beyond what "
			  "a .dat can hold",
			  (unsigned long long)ctx->st->records_in, cpu);
		return -EINVAL;
	}
	if (ctx->dry) {
		lost_pending(ctx, buffer, cpu, ts);
		if (cpu > ctx->max_cpu)
			ctx->max_cpu = cpu;
		if (len > ctx->max_len)
			ctx->max_len = len;
		ret = last_ts_check(ctx, buffer, cpu, ts);
		if (ret < 0)
			return ret;
		return 0;
	}
	ret = writer_ready(ctx, cpu, len);
	if (ret < 0)
		return ret;
	ret = lost_pending(ctx, buffer, cpu, ts);
	if (ret < 0)
		return ret;
	if (ctx->sorted)
		return keep_event(ctx, buffer, cpu, ts, data, len, 0);
	ret = dat_writer_write_raw(ctx->w, buffer, cpu, ts, data, len);
	if (ret == -EINVAL || ret == -E2BIG) {
		/* out of order, or too big after all: measure first */
		ctx->need_rerun = true;
		return -EAGAIN;
	}
	return ret;
}

static int cmp_keep(const void *a, const void *b)
{
	const struct f2d_keep *x = a, *y = b;

	if (x->buffer != y->buffer)
		return x->buffer < y->buffer ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_kept(struct f2d_ctx *ctx)
{
	size_t i;
	int ret;

	qsort(ctx->keep, ctx->nr_keep, sizeof(*ctx->keep), cmp_keep);
	for (i = 0; i < ctx->nr_keep; i++) {
		struct f2d_keep *k = &ctx->keep[i];

		if (k->lost)
			ret = dat_writer_lost_events(ctx->w, k->buffer, k->cpu,
						     k->lost);
		else
			ret = dat_writer_write_raw(ctx->w, k->buffer, k->cpu,
						   k->ts, ctx->arena.s + k->off,
						   k->len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static struct f2d_prov *prov_get(struct f2d_ctx *ctx, uint32_t id)
{
	const char *name = fxt_reader_provider_name(ctx->r, id);
	struct f2d_prov *p;
	ptrdiff_t cur;
	char buf[64];
	unsigned int i;
	char **names;

	if (ctx->cur && ctx->cur->id == id)
		return ctx->cur;
	for (i = 0; i < ctx->nr_provs; i++)
		if (ctx->provs[i].id == id)
			return &ctx->provs[i];
	/* ctx->cur points into the array that may move */
	cur = ctx->cur ? ctx->cur - ctx->provs : -1;
	p = realloc(ctx->provs, (ctx->nr_provs + 1) * sizeof(*p));
	names = realloc(ctx->buf_names, (ctx->nr_bufs + 1) * sizeof(*names));
	if (p) {
		ctx->provs = p;
		if (cur >= 0)
			ctx->cur = &p[cur];
	}
	if (names)
		ctx->buf_names = names;
	if (!p || !names)
		return NULL;
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "provider-%u", id);
		name = buf;
	}
	/* a name already taken gets the provider id */
	for (i = 1; i < ctx->nr_bufs; i++)
		if (!strcmp(ctx->buf_names[i], name)) {
			snprintf(buf, sizeof(buf), "%.40s-%u", name, id);
			name = buf;
		}
	p = &ctx->provs[ctx->nr_provs++];
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->buffer = ctx->nr_bufs;
	names[ctx->nr_bufs] = strdup(ctx->nr_bufs ? name : "");
	if (!names[ctx->nr_bufs])
		return NULL;
	ctx->nr_bufs++;
	if (ctx->w && p->buffer && writer_add_buffer(ctx, p->buffer) < 0)
		return NULL;
	return p;
}

static const struct fxt_arg *arg_named(const struct fxt_event *ev,
				       const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nargs; i++)
		if (fxt_str_eq(ev->args[i].name, name))
			return &ev->args[i];
	return NULL;
}

static uint64_t arg_num(const struct fxt_event *ev, const char *name)
{
	const struct fxt_arg *a = arg_named(ev, name);

	if (!a)
		return 0;
	return a->type == FXT_ARG_UINT32 ? a->u32 :
	       a->type == FXT_ARG_INT32 ? (uint64_t)a->i32 : a->u64;
}

/* An integer argument as a signed count; false if it is none. */
static bool arg_count(const struct fxt_arg *a, int64_t *v)
{
	switch (a ? a->type : FXT_ARG_NULL) {
	case FXT_ARG_INT32:
		*v = a->i32;
		return true;
	case FXT_ARG_UINT32:
		*v = a->u32;
		return true;
	case FXT_ARG_INT64:
		*v = a->i64;
		return true;
	case FXT_ARG_UINT64:
		*v = a->u64 > INT64_MAX ? INT64_MAX : (int64_t)a->u64;
		return true;
	}
	return false;
}

/*
 * trace-cmd:lost_events (cpu, count, -1 unknown) tells the buffer-full
 * before it: the next event on that CPU starts a page flagged as the
 * kernel flags a page read after an overrun.  Without a usable CPU it
 * goes with the buffer's next event, as a bare buffer-full does.
 */
static int lost_events(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	int64_t cpu, count;

	if (!arg_count(arg_named(ev, "count"), &count) || count <= 0)
		count = -1;
	if (!arg_count(arg_named(ev, TCFXT_ARG_CPU), &cpu) || cpu < 0 ||
	    cpu >= 65536) {
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
	const struct fxt_arg *a = arg_named(ev, name);

	if (a && a->type == FXT_ARG_STRING && !t->len)
		text_set(t, a->str);
}

static void file_info(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	unsigned int cpus = arg_num(ev, "cpus");

	ctx->cur->ftrace = true;
	ctx->have_info = true;
	if (cpus > ctx->info_cpus)
		ctx->info_cpus = cpus;
	if (!ctx->info_page_size)
		ctx->info_page_size = arg_num(ev, "page_size");
	if (!ctx->info_long_size)
		ctx->info_long_size = arg_num(ev, "long_size");
	info_str(&ctx->clock, ev, "clock");
	info_str(&ctx->uname, ev, "uname");
	info_str(&ctx->version, ev, "version");
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
		a = arg_named(ev, "system");
		if (!a || a->type != FXT_ARG_STRING)
			return 0;
		ret = text_set(&ctx->psystem, a->str);
		if (ret < 0)
			return ret;
	}
	if (kind == F2D_PEND_HEADERS) {
		a = arg_named(ev, "header_page");
		if (a && a->type == FXT_ARG_STRING) {
			ret = text_set(&ctx->header_page, a->str);
			if (ret < 0)
				return ret;
		}
	}
	return t ? f2d_text_add(&ctx->ptext, t->str.ptr, t->str.len) : 0;
}

static int pending_flush(struct f2d_ctx *ctx)
{
	enum f2d_pending kind = ctx->pending;
	struct f2d_text *dst = NULL;
	int ret = 0;

	ctx->pending = F2D_PEND_NONE;
	switch (kind) {
	case F2D_PEND_NONE:
		return 0;
	case F2D_PEND_EVENT:
		ctx->pending = kind;
		return f2d_ftrace_flush(ctx);
	case F2D_PEND_FORMAT:
		if (!ctx->psystem.len || !ctx->ptext.len)
			return 0;
		ret = f2d_format_add(ctx, ctx->psystem.s, ctx->ptext.s,
				     ctx->ptext.len, true, NULL);
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

static bool is_cont(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const struct fxt_str *n = &rec->event.name;

	return rec->type == FXT_REC_EVENT &&
	       rec->event.type == FXT_EVENT_INSTANT &&
	       ctx->cur && rec->provider_id == ctx->cur->id &&
	       tcfxt_has_suffix(*n, TCFXT_CONT_SUFFIX);
}

static int cont_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const struct fxt_arg *t;

	if (ctx->pending == F2D_PEND_EVENT)
		return f2d_ftrace_args(ctx, rec->event.args,
				       rec->event.nargs);
	t = text_arg(&rec->event);
	return t ? f2d_text_add(&ctx->ptext, t->str.ptr, t->str.len) : 0;
}

static int trace_cmd_event(struct f2d_ctx *ctx, const struct fxt_event *ev)
{
	static const struct {
		const char		*name;
		enum f2d_pending	kind;
	} meta[] = {
		{ TCFXT_EVENT_FORMAT,	F2D_PEND_FORMAT },
		{ TCFXT_KALLSYMS,		F2D_PEND_KALLSYMS },
		{ TCFXT_PRINTK,		F2D_PEND_PRINTK },
		{ "headers",		F2D_PEND_HEADERS },
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
			return text_set(&ctx->cpustats, t->str);
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

static int event_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	struct f2d_format *f;

	if (ev->type == FXT_EVENT_INSTANT &&
	    tcfxt_is_meta(ev->category))
		return trace_cmd_event(ctx, ev);
	if (!ctx->cur->ftrace)
		return f2d_fxt_event(ctx, rec);
	if (ev->type == FXT_EVENT_INSTANT && ev->nargs &&
	    ev->args[0].type == FXT_ARG_UINT32 &&
	    fxt_str_eq(ev->args[0].name, TCFXT_ARG_CPU)) {
		f = f2d_format_find(ctx, ev->category.ptr, ev->category.len,
				    ev->name.ptr, ev->name.len);
		if (f && f->restored)
			return f2d_ftrace_start(ctx, f, ev);
		/* an ftrace event whose format the FXT does not carry */
		return f2d_fxt_event(ctx, rec);
	}
	/* what the mapping derived from ftrace events: they say it */
	ctx->st->skipped++;
	return 0;
}

static int kobj_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	unsigned int i;

	if (rec->kobj.obj_type != FXT_OBJ_THREAD)
		return 0;
	/* names only events revealed are not saved cmdlines */
	for (i = 0; i < rec->kobj.nargs; i++)
		if (fxt_str_eq(rec->kobj.args[i].name, "source"))
			return 0;
	return name_set(ctx, rec->kobj.koid, rec->kobj.name);
}

static int one_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	struct f2d_prov *p;
	int ret;

	/* string and thread records only name what comes next */
	if (rec->type == FXT_REC_STRING || rec->type == FXT_REC_THREAD ||
	    rec->type == FXT_REC_INIT)
		return 0;
	if (ctx->pending != F2D_PEND_NONE) {
		if (is_cont(ctx, rec))
			return cont_record(ctx, rec);
		ret = pending_flush(ctx);
		if (ret < 0)
			return ret;
	}
	/* a provider is a buffer even if it never holds an event */
	if (rec->type == FXT_REC_METADATA &&
	    rec->meta.type == FXT_META_PROVIDER_INFO)
		return prov_get(ctx, rec->meta.provider_id) ? 0 : -ENOMEM;
	if (rec->type == FXT_REC_METADATA &&
	    rec->meta.type == FXT_META_PROVIDER_EVENT &&
	    rec->meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
		p = prov_get(ctx, rec->meta.provider_id);
		if (!p)
			return -ENOMEM;
		/* how many and where: a trace-cmd:lost_events may follow */
		p->lost = -1;
		return 0;
	}
	/* provider id 0 is a provider like any (Jane Street's writer) */
	if (rec->type == FXT_REC_METADATA)
		return 0;
	ctx->cur = prov_get(ctx, rec->provider_id);
	if (!ctx->cur)
		return -ENOMEM;
	switch (rec->type) {
	case FXT_REC_EVENT:
		return event_record(ctx, rec);
	case FXT_REC_KERNEL_OBJ:
		return kobj_record(ctx, rec);
	case FXT_REC_SCHED:
		if (ctx->cur->ftrace)
			break;
		return f2d_sched(ctx, rec);
	case FXT_REC_LOG:
		if (ctx->cur->ftrace)
			break;
		return f2d_fxt_log(ctx, rec);
	case FXT_REC_INIT:
	case FXT_REC_STRING:
	case FXT_REC_THREAD:
		return 0;
	}
	ctx->st->skipped++;
	return 0;
}

/* trace-cmd's CPUSTAT option is one string per CPU, "CPU: N" first. */
static int add_cpustats(struct f2d_ctx *ctx)
{
	char *s = ctx->cpustats.s, *next;
	int ret;

	while (s && *s) {
		next = strstr(s + 1, "\nCPU: ");
		if (next)
			*next++ = '\0';
		ret = dat_writer_add_option_string(ctx->w, DAT_OPTION_CPUSTAT,
						   s);
		if (ret < 0)
			return ret;
		s = next;
	}
	return 0;
}

static int finish(struct f2d_ctx *ctx)
{
	size_t i;
	int ret = 0;

	if (!ctx->w) {
		/* no event at all: still a valid, empty trace */
		if (!ctx->cpus)
			ctx->cpus = ctx->info_cpus ? ctx->info_cpus : 1;
		ret = writer_create(ctx);
		if (ret < 0)
			return ret;
	}
	if (ctx->sorted)
		ret = write_kept(ctx);
	if (!ret && ctx->header_page.len)
		ret = dat_writer_set_header_page(ctx->w, ctx->header_page.s,
						 ctx->header_page.len);
	if (!ret && ctx->header_event.len)
		ret = dat_writer_set_header_event(ctx->w, ctx->header_event.s,
						  ctx->header_event.len);
	if (!ret && ctx->kallsyms.len)
		ret = dat_writer_set_kallsyms(ctx->w, ctx->kallsyms.s,
					      ctx->kallsyms.len);
	if (!ret && ctx->printk.len)
		ret = dat_writer_set_printk(ctx->w, ctx->printk.s,
					    ctx->printk.len);
	for (i = 0; !ret && i < ctx->cap_names; i++)
		if (ctx->names[i].name)
			ret = dat_writer_add_cmdline(ctx->w,
						     (int)ctx->names[i].koid,
						     ctx->names[i].name);
	if (!ret && ctx->uname.len)
		ret = dat_writer_add_option_string(ctx->w, DAT_OPTION_UNAME,
						   ctx->uname.s);
	if (!ret && ctx->version.len)
		ret = dat_writer_add_option_string(ctx->w, DAT_OPTION_VERSION,
						   ctx->version.s);
	if (!ret)
		ret = add_cpustats(ctx);
	if (ret < 0)
		return ret;
	ret = dat_writer_close(ctx->w);
	ctx->w = NULL;
	return ret;
}

static void ctx_free(struct f2d_ctx *ctx)
{
	size_t i;

	if (ctx->w)
		dat_writer_discard(ctx->w);
	ctx->w = NULL;
	if (ctx->r)
		fxt_reader_close(ctx->r);
	f2d_formats_free(ctx);
	if (ctx->tep)
		tep_free(ctx->tep);
	for (i = 0; i < ctx->nr_bufs; i++)
		free(ctx->buf_names[i]);
	free(ctx->buf_names);
	free(ctx->provs);
	for (i = 0; i < ctx->cap_names; i++)
		free(ctx->names[i].name);
	free(ctx->names);
	free(ctx->cpu_tid);
	free(ctx->cpu_of);
	free(ctx->keep);
	free(ctx->last_ts);
	free(ctx->last_key);
	free(ctx->rec.data);
	free(ctx->scratch);
	text_free(&ctx->arena);
	text_free(&ctx->arena_args);
	text_free(&ctx->clock);
	text_free(&ctx->uname);
	text_free(&ctx->version);
	text_free(&ctx->cpustats);
	text_free(&ctx->header_page);
	text_free(&ctx->header_event);
	text_free(&ctx->kallsyms);
	text_free(&ctx->printk);
	text_free(&ctx->ptext);
	text_free(&ctx->psystem);
	text_free(&ctx->pname);
}

/* What a pass found out that the next one needs. */
struct f2d_needs {
	bool		dry;
	bool		sorted;
	unsigned int	cpus;
	unsigned int	page_size;
};

static int run_pass(const char *in, int fd, const struct fxt2dat_opts *o,
		    struct fxt2dat_stats *st, char *err, size_t errlen,
		    struct f2d_needs *needs)
{
	struct f2d_ctx ctx = {
		.fd = fd,
		.opts = o,
		.dry = needs->dry,
		.sorted = needs->sorted,
		.cpus = needs->cpus,
		.page_size = needs->page_size,
		.st = st,
		.errbuf = err,
		.errlen = errlen,
		.next_id = F2D_FIRST_ID,
	};
	struct fxt_record rec;
	int ret;

	memset(st, 0, sizeof(*st));
	ctx.r = fxt_reader_open(in, 0);
	ctx.tep = tep_alloc();
	if (!ctx.r || !ctx.tep) {
		f2d_error(&ctx, -errno, "cannot read %s: %s", in,
			  strerror(errno));
		goto out;
	}
	while ((ret = fxt_reader_next(ctx.r, &rec)) > 0) {
		st->records_in++;
		ret = one_record(&ctx, &rec);
		if (ret < 0)
			break;
		/* the optimistic pass learns the CPUs from file_info */
		if (!ctx.cpus && !needs->dry && ctx.have_info) {
			ctx.cpus = ctx.info_cpus;
			if (!ctx.page_size)
				ctx.page_size = ctx.info_page_size ?
						ctx.info_page_size : 4096;
		}
	}
	if (ret == 0)
		ret = pending_flush(&ctx);
	if (ctx.need_rerun)
		goto out;
	if (ret < 0 && !ctx.err) {
		if (fxt_reader_error(ctx.r))
			f2d_error(&ctx, ret, "%s", fxt_reader_error(ctx.r));
		else
			f2d_error(&ctx, ret, "converting %s failed at record "
				  "%llu: %s", in,
				  (unsigned long long)st->records_in,
				  strerror(-ret));
		goto out;
	}
	if (needs->dry) {
		needs->cpus = ctx.max_cpu + 1;
		if (ctx.info_cpus > needs->cpus)
			needs->cpus = ctx.info_cpus;
		needs->page_size = page_for(ctx.max_len);
		if (o->page_size > needs->page_size)
			needs->page_size = o->page_size;
		else if (ctx.info_page_size > needs->page_size)
			needs->page_size = ctx.info_page_size;
		needs->sorted = ctx.unordered;
		goto out;
	}
	st->buffers = ctx.nr_bufs;
	st->cpus = ctx.cpus;
	st->page_size = ctx.page_size;
	ret = finish(&ctx);
	if (ret < 0)
		f2d_error(&ctx, ret, "writing the .dat failed: %s",
			  strerror(-ret));
out:
	if (ctx.need_rerun && !ctx.err)
		ctx.err = -EAGAIN;
	if (ctx.r && fxt_reader_warned_records(ctx.r)) {
		st->unread = fxt_reader_warned_records(ctx.r);
		snprintf(st->unread_first, sizeof(st->unread_first), "%s",
			 fxt_reader_first_warning(ctx.r));
	}
	ret = ctx.err;
	ctx_free(&ctx);
	return ret;
}

int fxt2dat_convert(const char *in, int fd, const struct fxt2dat_opts *o,
		    struct fxt2dat_stats *st, char *err, size_t errlen)
{
	struct f2d_needs needs = { .page_size = o->page_size };
	int ret;

	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	if (ret != -EAGAIN)
		goto done;
	/* the guess did not hold: measure, then write */
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET))
		return -errno;
	needs.dry = true;
	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	if (ret < 0)
		return ret;
	needs.dry = false;
	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	st->passes = 3;
	if (ret == -EAGAIN)
		snprintf(err, errlen, "an event does not fit the .dat");
	return ret;
done:
	st->passes = 1;
	return ret;
}

void fxt2dat_feed_init(struct f2d_ctx *ctx, struct tep_handle *tep,
		       f2d_sink_fn sink, void *priv, struct fxt2dat_stats *st,
		       char *err, size_t errlen)
{
	memset(ctx, 0, sizeof(*ctx));
	memset(st, 0, sizeof(*st));
	ctx->fd = -1;
	ctx->tep = tep;
	ctx->sink = sink;
	ctx->sink_priv = priv;
	ctx->st = st;
	ctx->errbuf = err;
	ctx->errlen = errlen;
	ctx->next_id = F2D_FIRST_ID;
}

int fxt2dat_feed(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	return one_record(ctx, rec);
}

int fxt2dat_feed_flush(struct f2d_ctx *ctx)
{
	return pending_flush(ctx);
}

void fxt2dat_feed_free(struct f2d_ctx *ctx)
{
	ctx->r = NULL;
	ctx_free(ctx);
}
