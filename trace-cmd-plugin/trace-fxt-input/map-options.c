// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-options.c - the .dat file's options, kept visible in the FXT.
 *
 * Each provider starts with an instant event trace-cmd:file_info whose
 * arguments are what libtracecmd tells about the file and the buffer:
 * uname, trace-cmd version, clock, CPU count, file version, compression,
 * page and long size, byte order when big endian, trace id, whether
 * timestamps are nanoseconds (in_usecs, as trace-cmd's report decides
 * its time column), and per CPU the CPUSTAT text; then, once for the
 * file, each PROCMAPS option (trace-cmd record --proc-map: a traced
 * task's executable and the files mapped in it) as a trace-cmd:procmaps
 * instant.  Perfetto's FXT importer has nothing to show memory maps on,
 * so they stay metadata.  Timestamps in the FXT already have the file's
 * offset / tsc2nsec / guest time shift applied, as libtracecmd applies
 * them when it reads records.
 */
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "dat-meta.h"
#include "fxt-input.h"
#include "map-ctx.h"
#include "map-options.h"
#include "map-residue.h"
#include "tcfxt.h"

static void opt_str(struct map_ctx *ctx, struct fxt_arg *a, unsigned int *n,
		    const char *name, const char *val)
{
	size_t len;

	/* file_info's fifteen, all said, fill an event: never past it */
	if (!val || *n >= FXT_MAX_ARGS)
		return;
	len = strlen(val);
	while (len && val[len - 1] == '\n')
		len--;
	a[*n].type = FXT_ARG_STRING;
	a[*n].name = fxt_writer_str(ctx->w, name);
	a[*n].str = fxt_str_make(val, len);
	(*n)++;
}

static void opt_u64(struct map_ctx *ctx, struct fxt_arg *a, unsigned int *n,
		    const char *name, uint64_t val)
{
	if (*n >= FXT_MAX_ARGS)
		return;
	a[*n].type = FXT_ARG_UINT64;
	a[*n].name = fxt_writer_str(ctx->w, name);
	a[*n].u64 = val;
	(*n)++;
}

/*
 * The thread of the metadata instants, announced on first use: a process
 * and a thread object of their own (tcfxt.h says why).
 */
int map_meta_thread(struct map_ctx *ctx, struct fxt_thread *thread)
{
	struct fxt_arg args[2] = {
		{ .type = FXT_ARG_STRING, .name = fxt_writer_str(ctx->w,
								 "source"),
		  .str = fxt_writer_str(ctx->w, TCFXT_CAT) },
		{ .type = FXT_ARG_KOID,
		  .name = fxt_writer_str(ctx->w, FXT_ARG_NAME_PROCESS),
		  .koid = TCFXT_META_KOID },
	};
	struct fxt_str name = fxt_writer_str(ctx->w, TCFXT_CAT);
	int ret;

	thread->pid = thread->tid = TCFXT_META_KOID;
	if (ctx->meta_named)
		return 0;
	ret = fxt_write_kernel_object(ctx->w, TCFXT_META_KOID,
				      FXT_OBJ_PROCESS, name, args, 1);
	if (ret >= 0)
		ret = fxt_write_kernel_object(ctx->w, TCFXT_META_KOID,
					      FXT_OBJ_THREAD, name, args, 2);
	ctx->meta_named = ret >= 0;
	return ret;
}

/* as the other texts: 16000 bytes an instant, the rest in .cont ones */
#define OPT_TEXT_CHUNK	16000

/*
 * The PROCMAPS texts, read from the file once (libtracecmd keeps them
 * only to look addresses up by pid): for map-tgid.c and for the
 * procmaps instants.  A file the reader cannot read has none.
 */
int map_options_procmaps(struct map_ctx *ctx)
{
	struct dat_meta m;

	if (ctx->procmaps_read || !ctx->opts->path)
		return 0;
	ctx->procmaps_read = true;
	if (dat_meta_read_options(ctx->opts->path, &m))
		return 0;	/* the conversion reports a broken file */
	ctx->procmaps = m.procmaps;
	ctx->nr_procmaps = m.nr_procmaps;
	ctx->saved_tgids = m.tgids.text;
	m.procmaps = NULL;
	m.nr_procmaps = 0;
	m.tgids.text = NULL;
	dat_meta_free(&m);
	return 0;
}

static int map_options_write_procmaps(struct map_ctx *ctx,
				      struct fxt_event *ev)
{
	const struct dat_meta_text *t;
	struct fxt_arg a;
	size_t off, n;
	int i, ret;

	ret = map_options_procmaps(ctx);
	ev->args = &a;
	ev->nargs = 1;
	a.type = FXT_ARG_STRING;
	a.name = fxt_writer_str(ctx->w, TCFXT_ARG_TEXT);
	for (i = 0; i < ctx->nr_procmaps && ret >= 0; i++) {
		t = &ctx->procmaps[i];
		ev->name = fxt_writer_str(ctx->w, TCFXT_PROCMAPS);
		off = 0;
		do {
			n = t->len - off > OPT_TEXT_CHUNK ? OPT_TEXT_CHUNK :
							    t->len - off;
			a.str = fxt_str_make(t->text + off, n);
			a.str.id = FXT_STR_INLINE;
			ret = fxt_write_event(ctx->iw, ev);
			off += n;
			ev->name = fxt_writer_str(ctx->w, TCFXT_PROCMAPS
						  TCFXT_CONT_SUFFIX);
		} while (ret >= 0 && off < t->len);
	}
	return ret;
}

void map_options_free(struct map_ctx *ctx)
{
	int i;

	for (i = 0; i < ctx->nr_procmaps; i++)
		free(ctx->procmaps[i].text);
	free(ctx->procmaps);
	ctx->procmaps = NULL;
	ctx->nr_procmaps = 0;
	free(ctx->saved_tgids);
	ctx->saved_tgids = NULL;
}

int map_options_write(struct map_ctx *ctx, struct map_buffer *buf,
		      uint64_t first_ts)
{
	struct tracecmd_input *h = buf->handle;
	struct fxt_arg a[FXT_MAX_ARGS];
	const char *cname = NULL, *cver = NULL;
	unsigned int n = 0;
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = first_ts,
		.category = fxt_writer_str(ctx->w, TCFXT_CAT),
		.name = fxt_writer_str(ctx->w, TCFXT_FILE_INFO),
		.args = a,
	};
	int ret;

	ret = map_meta_thread(ctx, &ev.thread);
	if (ret < 0)
		return ret;
	opt_str(ctx, a, &n, TCFXT_INFO_BUFFER, buf->name);
	if (map_res_on(ctx))
		opt_str(ctx, a, &n, TCFXT_INFO_EVENTS, TCFXT_EVENTS_PACKETS);
	opt_str(ctx, a, &n, TCFXT_INFO_UNAME, tracecmd_get_uname(h));
	opt_str(ctx, a, &n, TCFXT_INFO_VERSION, tracecmd_get_version(h));
	opt_str(ctx, a, &n, TCFXT_INFO_CLOCK, tracecmd_get_trace_clock(h));
	opt_u64(ctx, a, &n, TCFXT_INFO_CPUS, tracecmd_cpus(h));
	opt_u64(ctx, a, &n, "file_version", tracecmd_get_in_file_version(h));
	if (!tracecmd_get_file_compress_proto(h, &cname, &cver) && cname) {
		opt_str(ctx, a, &n, "compression", cname);
		opt_str(ctx, a, &n, "compression_version", cver);
	}
	opt_u64(ctx, a, &n, TCFXT_INFO_PAGE_SIZE, tracecmd_page_size(h));
	opt_u64(ctx, a, &n, TCFXT_INFO_LONG_SIZE, tracecmd_long_size(h));
	/* only when big: FXT of a little-endian .dat stays as it was */
	if (tep_is_file_bigendian(tracecmd_get_tep(h)))
		opt_u64(ctx, a, &n, TCFXT_INFO_BIG_ENDIAN, 1);
	opt_u64(ctx, a, &n, "trace_id", tracecmd_get_traceid(h));
	opt_u64(ctx, a, &n, TCFXT_INFO_IN_USECS,
		!!(tracecmd_get_flags(h) & FXT_TRACECMD_IN_USECS));
	opt_u64(ctx, a, &n, "first_ts", buf->first_ts);
	ev.nargs = n;
	ret = fxt_write_event(ctx->iw, &ev);
	if (ret < 0)
		return ret;

	/* CPUSTAT can be long: an event of its own, one string. */
	n = 0;
	opt_str(ctx, a, &n, TCFXT_ARG_TEXT, tracecmd_get_cpustats(h));
	if (n) {
		ev.name = fxt_writer_str(ctx->w, TCFXT_CPUSTATS);
		ev.nargs = n;
		ret = fxt_write_event(ctx->iw, &ev);
		if (ret < 0)
			return ret;
	}
	/* the file's, not the buffer's: with the first provider */
	if (buf != &ctx->bufs[0])
		return 0;
	return map_options_write_procmaps(ctx, &ev);
}
