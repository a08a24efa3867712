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
 * order, and learning other producers' threads and names) and then
 * converted; out-of-order input is sorted in memory.  Between the two,
 * the threads get their task ids (fxt-threads.h) and CPUs too sparse for
 * a .dat their numbers (cpus_decide()).  A read that a record of
 * untrustworthy size ends converts what came before it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "fxt2dat.h"
#include "tcfxt.h"

/* The record being gathered is whole: put it where it goes. */
static int pending_flush(struct f2d_ctx *ctx)
{
	if (ctx->pending == F2D_PEND_EVENT)
		return f2d_ftrace_flush(ctx);
	return f2d_meta_flush(ctx);
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
	if (ctx->pending == F2D_PEND_EVENT)
		return f2d_ftrace_args(ctx, rec->event.args,
				       rec->event.nargs);
	return f2d_meta_cont(ctx, &rec->event);
}

static int event_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	struct f2d_format *f;

	if (ev->type == FXT_EVENT_INSTANT &&
	    tcfxt_is_meta(ev->category))
		return f2d_meta_event(ctx, ev);
	if (!ctx->cur->ftrace)
		return f2d_fxt_event(ctx, rec);
	if (tcfxt_is_ftrace(ev)) {
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

/*
 * A converted thread's object: its "process", when another task's, is the
 * thread group the .dat's saved tgids say (what the conversion's groups
 * came from, read back); its name, when no event revealed it, a saved
 * cmdline (tcfxt.h).
 */
static int kobj_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	uint64_t group;

	/* other producers' threads are named in ctx->threads (dry run) */
	if (rec->kobj.obj_type != FXT_OBJ_THREAD ||
	    (!ctx->cur->ftrace && ctx->threads))
		return 0;
	group = tcfxt_thread_group(rec->kobj.koid, rec->kobj.args,
				   rec->kobj.nargs);
	if (group && u64_map_set(&ctx->groups, rec->kobj.koid, group))
		return -ENOMEM;
	if (!tcfxt_thread_saved(rec->kobj.args, rec->kobj.nargs))
		return 0;
	return f2d_name_set(ctx, rec->kobj.koid, rec->kobj.name);
}

/* A provider's buffer, in the .dat too once the writer exists. */
static struct f2d_prov *provider(struct f2d_ctx *ctx, uint32_t id)
{
	unsigned int n = ctx->nr_bufs;
	struct f2d_prov *p = f2d_prov_get(ctx, id);

	if (p && ctx->nr_bufs > n && f2d_out_add_buffer(ctx, p->buffer) < 0)
		return NULL;
	return p;
}

/*
 * Another producer's record: the dry run learns its threads; a pass that
 * writes needs them all numbered before its first event (a file whose
 * file_info made the first pass a writing one: measure first).
 */
static int other_threads(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	if (ctx->dry)
		return fxt_threads_note(ctx->threads, rec);
	if (fxt_threads_assigned(ctx->threads))
		return 0;
	switch (rec->type) {
	case FXT_REC_EVENT:
		/* the converter's file_info, which makes its provider one */
		if (tcfxt_is_meta(rec->event.category))
			return 0;
		/* fall through */
	case FXT_REC_SCHED:
	case FXT_REC_LOG:
		ctx->need_rerun = true;
		return -EAGAIN;
	}
	return 0;
}

static int one_record(struct f2d_ctx *ctx, const struct fxt_record *rec)
{
	struct f2d_prov *p;
	int ret;

	/*
	 * string and thread records only name what comes next; a blob of
	 * records only holds the records read next
	 */
	if (rec->type == FXT_REC_STRING || rec->type == FXT_REC_THREAD ||
	    rec->type == FXT_REC_INIT ||
	    (rec->type == FXT_REC_BLOB && rec->blob.type == FXT_BLOB_RECORDS))
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
		return provider(ctx, rec->meta.provider_id) ? 0 : -ENOMEM;
	if (rec->type == FXT_REC_METADATA &&
	    rec->meta.type == FXT_META_PROVIDER_EVENT &&
	    rec->meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
		p = provider(ctx, rec->meta.provider_id);
		if (!p)
			return -ENOMEM;
		/* how many and where: a trace-cmd:lost_events may follow */
		p->lost = -1;
		return 0;
	}
	/* provider id 0 is a provider like any (Jane Street's writer) */
	if (rec->type == FXT_REC_METADATA)
		return 0;
	ctx->cur = provider(ctx, rec->provider_id);
	if (!ctx->cur)
		return -ENOMEM;
	if (!ctx->cur->ftrace && ctx->threads) {
		ret = other_threads(ctx, rec);
		if (ret)
			return ret;
	}
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

static void ctx_free(struct f2d_ctx *ctx)
{
	f2d_out_free(ctx);
	if (ctx->r)
		fxt_reader_close(ctx->r);
	f2d_formats_free(ctx);
	if (ctx->tep)
		tep_free(ctx->tep);
	f2d_tables_free(ctx);
	free(ctx->rec.data);
	free(ctx->scratch);
	free(ctx->cpu_used);
	f2d_text_free(&ctx->arena_args);
	f2d_text_free(&ctx->clock);
	f2d_text_free(&ctx->uname);
	f2d_text_free(&ctx->version);
	f2d_text_free(&ctx->cpustats);
	f2d_text_free(&ctx->tgids);
	f2d_text_free(&ctx->header_page);
	f2d_text_free(&ctx->header_event);
	f2d_text_free(&ctx->kallsyms);
	f2d_text_free(&ctx->printk);
	f2d_text_free(&ctx->ptext);
	f2d_text_free(&ctx->psystem);
	f2d_text_free(&ctx->pname);
}

/* What a pass found out that the next one needs. */
struct f2d_needs {
	bool		dry;
	bool		sorted;
	unsigned int	cpus;
	unsigned int	page_size;
	/* other producers' threads, numbered after the dry run */
	struct fxt_threads *threads;
	/* FXT CPU -> .dat CPU when the CPUs used are too sparse, or NULL */
	uint16_t	*cpu_map;
	unsigned int	cpus_renumbered;
};

/*
 * A .dat has every CPU up to its highest: a CPU number far past the
 * others (65535 as "no CPU") would make tens of thousands of empty ones,
 * which trace-cmd and KernelShark then walk.  The numbering is kept up to
 * F2D_DENSE_CPUS CPUs, or while at least a quarter of them are used;
 * past that the CPUs used are numbered from 0 in their order.
 */
#define F2D_DENSE_CPUS	1024

static int cpus_decide(struct f2d_needs *needs, const uint64_t *used,
		       unsigned int max_cpu)
{
	unsigned int c, n = 0;

	for (c = 0; c <= max_cpu && c <= 0xffff; c++)
		n += used[c / 64] >> (c % 64) & 1;
	if (max_cpu < F2D_DENSE_CPUS || max_cpu + 1 <= 4 * n)
		return 0;
	needs->cpu_map = malloc(0x10000 * sizeof(*needs->cpu_map));
	if (!needs->cpu_map)
		return -ENOMEM;
	/* 0xffff: not used (numbered from 0, the CPUs used never reach it) */
	memset(needs->cpu_map, 0xff, 0x10000 * sizeof(*needs->cpu_map));
	for (c = 0, n = 0; c <= max_cpu && c <= 0xffff; c++) {
		if (!(used[c / 64] >> (c % 64) & 1))
			continue;
		needs->cpu_map[c] = (uint16_t)n;
		if (c != n)
			needs->cpus_renumbered++;
		n++;
	}
	needs->cpus = n;
	return 0;
}

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
		.info_big = o->big_endian,
		.threads = needs->threads,
		.cpu_map = needs->cpu_map,
	};
	struct fxt_record rec;
	int ret;

	memset(st, 0, sizeof(*st));
	ctx.r = fxt_reader_open(in, 0);
	ctx.tep = tep_alloc();
	if (needs->dry)
		ctx.cpu_used = calloc(0x10000 / 64, sizeof(*ctx.cpu_used));
	if (!ctx.r || !ctx.tep || (needs->dry && !ctx.cpu_used)) {
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
	/*
	 * A record whose size cannot be trusted ends the read: what came
	 * before it is converted, and the fault said (st->stopped).
	 */
	if (ret < 0 && !ctx.err && !ctx.need_rerun && fxt_reader_error(ctx.r) &&
	    st->events_out) {
		snprintf(st->stopped, sizeof(st->stopped), "%s",
			 fxt_reader_error(ctx.r));
		ret = 0;
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
		ret = fxt_threads_assign(needs->threads);
		if (!ret)
			ret = cpus_decide(needs, ctx.cpu_used, ctx.max_cpu);
		if (ret < 0) {
			f2d_error(&ctx, ret, "%s", strerror(-ret));
			goto out;
		}
		if (!needs->cpu_map) {
			needs->cpus = ctx.max_cpu + 1;
			if (ctx.info_cpus > needs->cpus)
				needs->cpus = ctx.info_cpus;
		}
		needs->page_size = f2d_page_for(ctx.max_len);
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
	st->threads_renumbered = fxt_threads_assigned(needs->threads) ?
				 fxt_threads_renumbered(needs->threads) : 0;
	st->cpus_renumbered = needs->cpus_renumbered;
	f2d_renumbering(needs->threads, needs->cpu_map, st->renumbered,
			sizeof(st->renumbered), 3, ", ");
	ret = f2d_out_finish(&ctx);
	if (ret < 0)
		f2d_error(&ctx, ret, "writing the .dat failed: %s",
			  strerror(-ret));
out:
	if (ctx.need_rerun && !ctx.err)
		ctx.err = -EAGAIN;
	if (ctx.r) {
		st->unread = fxt_reader_warned(ctx.r, FXT_WARN_PARTIAL) +
			     fxt_reader_warned(ctx.r, FXT_WARN_MALFORMED);
		fxt_reader_tally(ctx.r, "", st->unread_tally,
				 sizeof(st->unread_tally));
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

	needs.threads = fxt_threads_new();
	if (!needs.threads)
		return -ENOMEM;
	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	if (ret != -EAGAIN)
		goto done;
	/* the guess did not hold: measure, then write */
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET)) {
		ret = -errno;
		goto out;
	}
	needs.dry = true;
	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	if (ret < 0)
		goto out;
	needs.dry = false;
	ret = run_pass(in, fd, o, st, err, errlen, &needs);
	st->passes = 3;
	if (ret == -EAGAIN)
		snprintf(err, errlen, "an event does not fit the .dat");
	goto out;
done:
	st->passes = 1;
out:
	fxt_threads_free(needs.threads);
	free(needs.cpu_map);
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
