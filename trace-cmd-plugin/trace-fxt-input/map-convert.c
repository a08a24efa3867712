// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-convert.c - drive one .dat -> FXT conversion.
 *
 * One FXT provider per buffer (the top buffer is "top", instances keep
 * their names), each started with its initialization record and its
 * file_info event.  Records of all buffers are then read in timestamp
 * order, as trace-cmd report merges them, and the writer is switched to
 * a record's provider when it differs from the last one: the FXT keeps
 * trace-cmd's global order, which the report relies on.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "fxt-zio.h"
#include "map-convert.h"
#include "map-damage.h"
#include "map-dispatch.h"
#include "map-feed.h"
#include "map-field.h"
#include "map-formats.h"
#include "map-name.h"
#include "map-options.h"
#include "map-pages.h"
#include "map-packet.h"
#include "map-residue.h"
#include "map-task.h"
#include "map-text.h"
#include "map-tgid.h"
#include "tcfxt.h"

/* The writer's flags for what the host asked of the output. */
static unsigned int map_writer_flags(const struct fxt_input_opts *o)
{
	switch (o->compress) {
	case FXT_ZIP_GZIP:
		return FXT_WRITER_GZIP;
	case FXT_ZIP_ZSTD:
		return FXT_WRITER_ZSTD;
	default:
		return 0;
	}
}

static bool map_buffer_selected(const struct fxt_input_opts *o,
				const char *name)
{
	unsigned int i;

	if (!o->nr_buffers)
		return true;
	for (i = 0; i < o->nr_buffers; i++)
		if (!strcmp(o->buffers[i], name))
			return true;
	return false;
}

static bool map_cpu_selected(const struct fxt_input_opts *o, int cpu)
{
	const uint64_t *m = o->cpu_mask;

	if (!(m[0] | m[1] | m[2] | m[3]))
		return true;
	if (cpu >= 256)
		return o->cpu_any_high;
	return m[cpu / 64] >> (cpu % 64) & 1;
}

/* @buf's provider current in both writers. */
static int map_provider(struct map_ctx *ctx, struct map_buffer *buf)
{
	int ret;

	if (buf == ctx->cur)
		return 0;
	ret = fxt_write_provider_section(ctx->iw, buf->provider_id);
	if (ret < 0)
		return ret;
	ctx->cur = buf;
	if (ctx->iw == ctx->w)
		ctx->wcur = buf;
	return 0;
}

/*
 * Unless every record is to be FXT's (--fxt-records), the instants go to a
 * nested writer (map_ctx.iw): Perfetto reads each event from the packets
 * alone, and every reader of this project still finds the instants where
 * they were, each blob's records read where the blob is.
 */
static int map_nest_start(struct map_ctx *ctx)
{
	if (ctx->opts->fxt_records) {
		ctx->iw = ctx->w;
		return 0;
	}
	ctx->iw = fxt_writer_create_nested(ctx->w, TCFXT_BLOB_RECORDS, true);
	return ctx->iw ? 0 : -errno;
}

/* The nested writer's last records out, the writer freed. */
static int map_nest_end(struct map_ctx *ctx)
{
	int ret = 0;

	if (ctx->iw && ctx->iw != ctx->w)
		ret = fxt_writer_close(ctx->iw);
	ctx->iw = NULL;
	return ret;
}

static struct map_buffer *map_buffer_of(struct map_ctx *ctx,
					struct tracecmd_input *h)
{
	int i;

	if (ctx->cur && ctx->cur->handle == h)
		return ctx->cur;
	for (i = 0; i < ctx->nr_bufs; i++)
		if (ctx->bufs[i].handle == h)
			return &ctx->bufs[i];
	return NULL;
}

/*
 * Events lost on @cpu of @buf before @ts: @count of them (-1 unknown), or
 * the @damaged bytes of the file's CPU data not read there; @last: not
 * before but after the CPU's record at @ts, its last.
 */
static int map_lost(struct map_ctx *ctx, struct map_buffer *buf,
		    uint64_t ts, uint32_t cpu, int64_t count,
		    uint64_t damaged, bool last)
{
	struct fxt_arg args[4];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = ts,
		.category = fxt_writer_str(ctx->w, TCFXT_CAT),
		.name = fxt_writer_str(ctx->w, TCFXT_LOST_EVENTS),
		.nargs = damaged ? 3 + last : 2,
		.args = args,
	};
	int ret;

	ret = map_provider(ctx, buf);
	if (ret < 0)
		return ret;
	/* Perfetto's data-loss entry of that CPU, on its Info page */
	map_pkt_lost(ctx, cpu);
	if (map_res_on(ctx)) {
		ret = map_res_lost(ctx, buf, cpu, damaged ? -1 : count,
				   last);
		if (ret < 0)
			return ret;
	}
	ret = fxt_write_provider_event(ctx->iw, buf->provider_id,
				       FXT_PROVIDER_EVENT_BUFFER_FULL);
	if (ret < 0)
		return ret;
	/* on the idle thread of the CPU, named like every thread used */
	ret = map_task_thread(ctx, buf, 0, &ev.thread);
	if (ret < 0)
		return ret;
	args[0].type = FXT_ARG_UINT32;
	args[0].name = map_name(ctx, TCFXT_ARG_CPU);
	args[0].u32 = cpu;
	/* -1: the ring buffer said events were lost, not how many */
	args[1].type = FXT_ARG_INT64;
	args[1].name = fxt_writer_str(ctx->w, TCFXT_ARG_COUNT);
	args[1].i64 = damaged ? -1 : count;
	args[2].type = FXT_ARG_UINT64;
	args[2].name = fxt_writer_str(ctx->w, TCFXT_ARG_DAMAGED);
	args[2].u64 = damaged;
	args[3].type = FXT_ARG_BOOL;
	args[3].name = fxt_writer_str(ctx->w, TCFXT_ARG_LAST);
	args[3].b = true;
	return fxt_write_event(ctx->iw, &ev);
}

/* map_name() when @s is not at its first place in the memory. */
static int map_record_pid(struct map_ctx *ctx, struct map_buffer *buf,
			  struct tep_record *rec)
{
	uint64_t v;

	if (!map_field_u64(buf, rec, ctx->common_pid, &v))
		return tep_data_pid(buf->tep, rec);
	return (int32_t)v;
}

struct map_progress {
	uint64_t	first, last;
	int		shown;
};

static void map_progress_show(struct map_ctx *ctx, struct map_progress *p,
			      uint64_t ts)
{
	int pct;

	if (p->last <= p->first)
		return;
	pct = ts <= p->first ? 0 : (ts - p->first) * 100 / (p->last - p->first);
	if (pct > 100)
		pct = 100;
	if (pct == p->shown)
		return;
	p->shown = pct;
	fprintf(stderr, "\rtrace-fxt: converting... %3d%% (%llu events)",
		pct, (unsigned long long)ctx->records_in);
}

struct map_iter {
	struct map_ctx		*ctx;
	struct tracecmd_input	**handles;	/* of ctx->bufs, in order */
	struct map_progress	progress;
};

/* Whether the selection keeps record @rec of @cpu. */
static bool map_record_kept(const struct fxt_input_opts *o,
			    const struct tep_record *rec)
{
	return map_cpu_selected(o, rec->cpu) && rec->ts >= o->start_ts &&
	       rec->ts <= o->end_ts;
}

static int map_record_one(struct map_iter *it, struct tracecmd_input *h,
			  struct tep_record *rec,
			  const struct map_damage_due *due)
{
	struct map_ctx *ctx = it->ctx;
	const struct fxt_input_opts *o = ctx->opts;
	struct map_buffer *buf;
	struct map_event *me;
	struct fxt_thread th;
	int ret;

	if (o->progress && !(ctx->records_in & 0xfff))
		map_progress_show(ctx, &it->progress, rec->ts);
	if (!map_record_kept(o, rec))
		return 0;
	buf = map_buffer_of(ctx, h);
	if (!buf)
		return 0;
	ret = map_provider(ctx, buf);
	if (ret >= 0)
		ret = map_pkt_record(ctx, rec->cpu, rec->ts);
	if (ret < 0)
		goto fail;
	if (rec->missed_events || due->before) {
		ret = map_lost(ctx, buf, rec->ts, rec->cpu,
			       rec->missed_events, due->before, false);
		if (ret < 0)
			goto fail;
	}
	if (due->after) {
		ret = map_lost(ctx, buf, rec->ts, rec->cpu, -1, due->after,
			       true);
		if (ret < 0)
			goto fail;
	}
	me = map_dispatch_event(ctx, buf, rec);
	if (!me) {
		map_set_error(ctx, -ENOMEM, "out of memory or unknown event "
			      "id in buffer %s", buf->name);
		return -1;
	}
	if (!me->keep)
		return 0;
	ret = map_formats_event(ctx, buf, me, rec);
	ctx->rec_pid = map_record_pid(ctx, buf, rec);
	if (ret >= 0)
		ret = map_task_thread(ctx, buf, ctx->rec_pid, &th);
	if (ret >= 0)
		ret = map_dispatch_write(ctx, buf, me, rec, &th);
	if (ret >= 0)
		return 0;
fail:
	map_set_error(ctx, ret, "writing FXT failed at %s event %llu: %s",
		      buf ? buf->name : "?",
		      (unsigned long long)ctx->records_in, strerror(-ret));
	return -1;
}

/*
 * A record read: mapped, with the damage the host's check skipped on
 * its CPU said before it: the damage it is the first record after, and
 * the damage no record of its CPU follows after it.
 */
static int map_record(struct tracecmd_input *h, struct tep_record *rec,
		      int cpu, void *data)
{
	struct map_iter *it = data;
	struct map_ctx *ctx = it->ctx;
	struct map_damage_due due = { 0 };

	ctx->records_in++;
	if (ctx->damaged) {
		map_damage_due(map_buffer_of(ctx, h), rec, &due);
		ctx->last_ts = rec->ts;
	}
	return map_record_one(it, h, rec, &due);
}

/*
 * The damage of the CPUs that have no good record at all, at the end of
 * the records (the latest one's time), for each selected CPU.
 */
static int map_damage_end(struct map_ctx *ctx)
{
	uint64_t bytes;
	uint32_t cpu;
	int i, ret;

	for (i = 0; ctx->damaged && i < ctx->nr_bufs; i++) {
		struct map_buffer *b = &ctx->bufs[i];

		while (map_damage_left(b, &cpu, &bytes)) {
			if (!map_cpu_selected(ctx->opts, (int)cpu))
				continue;
			ret = map_lost(ctx, b, ctx->last_ts ? ctx->last_ts :
				       b->first_ts, cpu, -1, bytes, true);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int map_add_buffer(struct map_ctx *ctx, struct tracecmd_input *h,
			  const char *name)
{
	struct map_buffer *b;

	if (!map_buffer_selected(ctx->opts, name))
		return 0;
	b = &ctx->bufs[ctx->nr_bufs];
	memset(b, 0, sizeof(*b));
	b->handle = h;
	b->tep = tracecmd_get_tep(h);
	b->native = tep_is_file_bigendian(b->tep) ==
		    (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	b->name = name;
	b->provider_id = ++ctx->nr_bufs;
	return 0;
}

static void map_progress_init(struct map_ctx *ctx, struct map_progress *p)
{
	struct tep_record *rec;
	uint64_t first;
	int i, cpu;

	p->first = UINT64_MAX;
	p->last = 0;
	p->shown = -1;
	for (i = 0; i < ctx->nr_bufs; i++) {
		struct tracecmd_input *h = ctx->bufs[i].handle;

		first = tracecmd_get_first_ts(h);
		if (first < p->first)
			p->first = first;
		for (cpu = 0; cpu < tracecmd_cpus(h); cpu++) {
			rec = tracecmd_read_cpu_last(h, cpu);
			if (!rec)
				continue;
			if (rec->ts > p->last)
				p->last = rec->ts;
			tracecmd_free_record(rec);
		}
		/* reading the last records moved the cursors: rewind */
		tracecmd_set_all_cpus_to_timestamp(h, 0);
	}
}

static int map_start_providers(struct map_ctx *ctx)
{
	uint64_t first = UINT64_MAX, ts;
	int i, ret;

	for (i = 0; i < ctx->nr_bufs; i++) {
		ts = ctx->bufs[i].first_ts;
		if (ts < first)
			first = ts;
	}
	if (first == UINT64_MAX)
		first = 0;
	for (i = 0; i < ctx->nr_bufs; i++) {
		struct map_buffer *b = &ctx->bufs[i];

		ret = fxt_write_provider_info(ctx->w, b->provider_id, b->name,
					      strlen(b->name));
		if (ret >= 0)
			ret = fxt_write_init(ctx->w, 1000000000ULL);
		if (ret >= 0 && ctx->iw != ctx->w)
			ret = fxt_write_provider_section(ctx->iw,
							 b->provider_id);
		if (ret >= 0)
			ret = map_options_write(ctx, b, first);
		if (ret < 0)
			return ret;
		ctx->cur = b;
		ctx->wcur = b;
	}
	ret = map_formats_start(ctx, first);
	if (ret >= 0)
		ret = map_pkt_start(ctx, first);
	/*
	 * The file's description first, where readers look for it before
	 * the records derived from events (which they leave out for a
	 * converted provider)
	 */
	if (ret >= 0 && ctx->iw != ctx->w)
		ret = fxt_writer_flush(ctx->iw);
	return ret;
}

/*
 * What comes before the records: every provider started, every thread's
 * group settled.  On the mapping thread when the host kept the records
 * the groups are read from (the handles are then left to the reader),
 * else before the reading starts.
 */
static int map_begin(void *data)
{
	struct map_iter *it = data;
	struct map_ctx *ctx = it->ctx;
	int ret;

	ret = map_start_providers(ctx);
	if (ret < 0) {
		map_set_error(ctx, ret, "writing FXT failed: %s",
			      strerror(-ret));
		return ret;
	}
	ret = map_tgid_read(ctx, it->handles, ctx->nr_bufs);
	if (ret < 0) {
		map_set_error(ctx, ret, "reading thread groups failed: %s",
			      strerror(-ret));
		return ret;
	}
	return 0;
}

static void map_ctx_free(struct map_ctx *ctx)
{
	int i;

	map_dispatch_free(ctx);
	for (i = 0; i < ctx->nr_bufs; i++) {
		struct map_buffer *b = &ctx->bufs[i];

		if (b->handle != ctx->top)
			tracecmd_close(b->handle);
	}
	map_damage_free(ctx);
	free(ctx->bufs);
	free(ctx->args);
	free(ctx->text_refs);
	free(ctx->tasks);
	free(ctx->cpus);
	map_formats_free(ctx);
	map_pkt_free(ctx);
	map_res_free(ctx);
	map_text_free(ctx);
	map_options_free(ctx);
	trace_seq_destroy(&ctx->seq);
}

/*
 * The page reader over @handles, when the host described the pages and
 * nothing asks for libtracecmd's reading; else NULL.
 */
static struct map_pages *map_open_pages(struct map_ctx *ctx,
					const struct dat_pages *pages,
					struct tracecmd_input **handles)
{
	struct map_pages *p = NULL;
	const char **names;
	int i;

	if (!pages || !pages->nr)
		return NULL;
	names = calloc(ctx->nr_bufs, sizeof(*names));
	if (!names)
		return NULL;
	/* the layout names the top buffer "", as the file does */
	for (i = 0; i < ctx->nr_bufs; i++)
		names[i] = ctx->bufs[i].handle == ctx->top ? "" :
			   ctx->bufs[i].name;
	if (map_pages_open(pages, ctx->opts->path, handles, names,
			   ctx->nr_bufs, &p))
		p = NULL;
	free(names);
	return p;
}

int map_convert(struct tracecmd_input *handle, int fd,
		const struct fxt_input_opts *opts,
		const struct dat_recs *kept,
		const struct dat_pages *pages,
		struct fxt_input_result *res)
{
	struct tracecmd_input **handles = NULL;
	struct map_pages *reader = NULL;
	struct map_iter it = { 0 };
	struct map_ctx ctx = {
		.opts = opts,
		.kept = kept,
		.top = handle,
		.errbuf = res->error,
		.errlen = sizeof(res->error),
	};
	struct tep_event *any;
	int nr_inst, i, ret;

	trace_seq_init(&ctx.seq);
	nr_inst = tracecmd_buffer_instances(handle);
	ctx.bufs = calloc(nr_inst + 1, sizeof(*ctx.bufs));
	handles = calloc(nr_inst + 1, sizeof(*handles));
	if (!ctx.bufs || !handles) {
		map_set_error(&ctx, -ENOMEM, "out of memory");
		goto out;
	}
	map_add_buffer(&ctx, handle, TCFXT_TOP_BUFFER);
	for (i = 0; i < nr_inst; i++) {
		const char *name = tracecmd_buffer_instance_name(handle, i);
		struct tracecmd_input *h;

		if (!name || !map_buffer_selected(opts, name))
			continue;
		h = tracecmd_buffer_instance_handle(handle, i);
		if (!h) {
			map_set_error(&ctx, -EIO, "cannot read buffer %s", name);
			goto out;
		}
		map_add_buffer(&ctx, h, name);
	}
	if (!ctx.nr_bufs) {
		map_set_error(&ctx, -ENOENT, "no buffer matches the selection");
		goto out;
	}
	/* by default, the instants of a recording --once cannot hold */
	ctx.once = opts->once;
	if (ctx.once && !opts->once_asked) {
		char why[256];

		if (!map_res_fits(&ctx, why, sizeof(why))) {
			ctx.once = false;
			snprintf(res->note, sizeof(res->note), "each event also "
				 "an FXT instant, as with --instants: %s", why);
		}
	}

	ctx.w = fxt_writer_create_fd(fd, map_writer_flags(opts));
	if (!ctx.w || map_nest_start(&ctx)) {
		map_set_error(&ctx, -errno, "cannot start the FXT writer: %s",
			      strerror(errno));
		goto out;
	}
	/* the common fields are the same in every event of a file */
	any = tep_get_first_event(ctx.bufs[0].tep);
	if (any) {
		ctx.common_type = tep_find_common_field(any, "common_type");
		ctx.common_pid = tep_find_common_field(any, "common_pid");
		ctx.common_flags = tep_find_common_field(any, "common_flags");
		ctx.common_preempt =
			tep_find_common_field(any, "common_preempt_count");
	}

	it.ctx = &ctx;
	it.handles = handles;
	if (opts->progress)
		map_progress_init(&ctx, &it.progress);
	for (i = 0; i < ctx.nr_bufs; i++) {
		handles[i] = ctx.bufs[i].handle;
		ctx.bufs[i].first_ts = tracecmd_get_first_ts(handles[i]);
	}
	if (map_damage_open(&ctx, pages)) {
		map_set_error(&ctx, -ENOMEM, "out of memory");
		goto out;
	}
	if (opts->reader != FXT_INPUT_READ_LIBTRACECMD)
		reader = map_open_pages(&ctx, pages, handles);
	if (!reader && opts->reader == FXT_INPUT_READ_PAGES) {
		map_set_error(&ctx, -ENOTSUP, "the CPU data cannot be read "
			      "page by page here (the file's times are moved "
			      "by an option, its CPUs renumbered, or the host "
			      "did not map its pages): let libtracecmd read");
		goto out;
	}
	if (kept && kept->complete) {
		ret = map_feed(handles, ctx.nr_bufs, reader, map_begin,
			       map_record, &it);
	} else {
		/* the groups are read by a pass over the handles first */
		ret = map_begin(&it);
		if (ret < 0)
			goto out;
		ret = map_feed(handles, ctx.nr_bufs, reader, NULL, map_record,
			       &it);
	}
	if (opts->progress) {
		map_progress_show(&ctx, &it.progress, it.progress.last);
		fputc('\n', stderr);
	}
	if (ret < 0 && !ctx.err)
		map_set_error(&ctx, -EIO, "reading the trace data failed");
	if (!ctx.err) {
		ret = map_damage_end(&ctx);
		if (ret < 0)
			map_set_error(&ctx, ret, "writing FXT failed: %s",
				      strerror(-ret));
	}
	if (!ctx.err) {
		ret = map_nest_end(&ctx);
		if (ret < 0)
			map_set_error(&ctx, ret, "writing FXT failed: %s",
				      strerror(-ret));
	}
	if (!ctx.err) {
		ret = map_pkt_finish(&ctx);
		if (ret < 0)
			map_set_error(&ctx, ret, "writing the Perfetto packets "
				      "failed: %s", strerror(-ret));
	}
out:
	map_nest_end(&ctx);
	if (ctx.w) {
		res->bytes_out = fxt_writer_offset(ctx.w);
		ret = fxt_writer_close(ctx.w);
		if (ret < 0)
			map_set_error(&ctx, ret, "writing FXT failed: %s",
				      strerror(-ret));
	}
	res->records_in = ctx.records_in;
	res->events_out = ctx.events_out;
	res->providers = ctx.nr_bufs;
	ret = ctx.err;
	map_pages_close(reader);
	map_ctx_free(&ctx);
	free(handles);
	return ret;
}
