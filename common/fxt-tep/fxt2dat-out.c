// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-out.c - where rebuilt records go.
 *
 * f2d_emit() takes every record the builders made: to the host's sink
 * (trace-fxt report), to a dry run that only measures (CPUs, the largest
 * record, whether time goes back on a CPU), to memory when the input is
 * out of order (sorted when the pass ends), or straight to the .dat
 * writer.  The writer is created when the first record arrives, once the
 * CPU count and page size are known; f2d_out_finish() writes what the
 * file says about itself and closes it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-writer.h"
#include "fxt-print.h"
#include "fxt2dat.h"

/* Before the list of what the .dat numbers otherwise than its FXT. */
#define F2D_RENUMBERED_HEAD \
	"trace-fxt: numbered otherwise than in the FXT " \
	"(FXT -> this .dat):\n"

int f2d_out_add_buffer(struct f2d_ctx *ctx, unsigned int i)
{
	int ret;

	if (!ctx->w || !i)
		return 0;
	ret = dat_writer_add_buffer(ctx->w, ctx->buf_names[i]);
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
		.big_endian = ctx->info_big,
	};
	unsigned int i;
	int ret;

	ctx->w = dat_writer_create(ctx->fd, &o);
	if (!ctx->w)
		return -errno;
	for (i = 1; i < ctx->nr_bufs; i++) {
		ret = f2d_out_add_buffer(ctx, i);
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
unsigned int f2d_page_for(size_t len)
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
	if (cpu >= ctx->cpus || f2d_page_for(len) > ctx->page_size) {
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
	cpu = f2d_dat_cpu(ctx, cpu);
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

/* Dry run: note @ts on (@buffer, @cpu), and whether time went back. */
static int last_ts_check(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
			 uint64_t ts)
{
	uint64_t key = (uint64_t)buffer << 16 | cpu;
	uint64_t at = u64_map_get(&ctx->last_at, key), *v;

	if (!at) {
		/* a new (buffer, cpu): its time goes at the end */
		v = realloc(ctx->last_ts, (ctx->last_at.nr + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ctx->last_ts = v;
		at = ctx->last_at.nr + 1;
		if (u64_map_set(&ctx->last_at, key, at))
			return -ENOMEM;
	} else if (ts < ctx->last_ts[at - 1]) {
		ctx->unordered = true;
		return 0;
	}
	ctx->last_ts[at - 1] = ts;
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
	/* a buffer-full to say first: on this CPU, as the FXT names it */
	ret = lost_pending(ctx, buffer, cpu, ts);
	if (ret < 0)
		return ret;
	cpu = f2d_dat_cpu(ctx, cpu);
	if (ctx->dry) {
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

/*
 * ctx->keep[from, mid) and [mid, nr_keep), each in order, merged in place
 * through ctx->run; false when out of memory for it.
 */
static bool kept_merge(struct f2d_ctx *ctx, size_t from, size_t mid)
{
	struct f2d_keep *k = ctx->keep, *a;
	size_t na = mid - from, i = 0, j = mid, o = from;

	if (na > ctx->cap_run) {
		a = realloc(ctx->run, na * sizeof(*a));
		if (!a)
			return false;
		ctx->run = a;
		ctx->cap_run = na;
	}
	a = ctx->run;
	memcpy(a, k + from, na * sizeof(*a));
	/* the second run's entries only move down, past the ones taken */
	while (i < na && j < ctx->nr_keep)
		k[o++] = cmp_keep(&a[i], &k[j]) <= 0 ? a[i++] : k[j++];
	memcpy(k + o, a + i, (na - i) * sizeof(*a));
	return true;
}

void f2d_kept_sort(struct f2d_ctx *ctx, size_t from)
{
	size_t i, mid;

	if (!ctx->sorted || from >= ctx->nr_keep)
		return;
	for (i = from + 1; i < ctx->nr_keep; i++)
		if (cmp_keep(&ctx->keep[i - 1], &ctx->keep[i]) > 0)
			break;
	if (i == ctx->nr_keep)
		return;
	/* two runs (a bundle's events, then its compact sched): merged */
	for (mid = i++; i < ctx->nr_keep; i++)
		if (cmp_keep(&ctx->keep[i - 1], &ctx->keep[i]) > 0)
			break;
	if (i == ctx->nr_keep && kept_merge(ctx, from, mid))
		return;
	qsort(ctx->keep + from, ctx->nr_keep - from, sizeof(*ctx->keep),
	      cmp_keep);
}

/* One event of a (buffer, CPU) out of time order: sorted by these. */
struct f2d_when {
	uint64_t	ts;
	uint32_t	i;
};

static int cmp_when(const void *a, const void *b)
{
	const struct f2d_when *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * @order[0..@n) (indexes of ctx->keep, in keeping order) by time; of one
 * time, in keeping order still: f2d_kept_sort() moves no two entries of
 * one time past each other.
 */
static int sort_slice(const struct f2d_ctx *ctx, uint32_t *order, size_t n)
{
	struct f2d_when *w;
	size_t i;

	for (i = 1; i < n; i++)
		if (ctx->keep[order[i]].ts < ctx->keep[order[i - 1]].ts)
			break;
	if (i >= n)
		return 0;	/* as a CPU's bundles come: in order */
	w = malloc(n * sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w[i].ts = ctx->keep[order[i]].ts;
		w[i].i = order[i];
	}
	qsort(w, n, sizeof(*w), cmp_when);
	for (i = 0; i < n; i++)
		order[i] = w[i].i;
	free(w);
	return 0;
}

/*
 * The kept events' order in the .dat, as cmp_keep() says (buffer, CPU,
 * time, keeping order), in @order: counted into one bucket per (buffer,
 * CPU), in keeping order, and only a bucket whose times go back sorted.
 * A CPU's events mostly come in time order, and sorting them all,
 * 56-byte entries moved around, was a quarter of a Perfetto trace's
 * conversion.  NULL when there are too many buckets or events to number
 * so: qsort() the entries then.
 */
static uint32_t *kept_order(const struct f2d_ctx *ctx, int *err)
{
	unsigned int max_buf = 0, max_cpu = 0, b;
	size_t i, nr = ctx->nr_keep, nb, *at;
	uint32_t *order;

	*err = 0;
	if (nr > UINT32_MAX)
		return NULL;
	for (i = 0; i < nr; i++) {
		if (ctx->keep[i].buffer < 0)
			return NULL;
		if ((unsigned int)ctx->keep[i].buffer > max_buf)
			max_buf = (unsigned int)ctx->keep[i].buffer;
		if (ctx->keep[i].cpu > max_cpu)
			max_cpu = ctx->keep[i].cpu;
	}
	nb = ((size_t)max_buf + 1) * ((size_t)max_cpu + 1);
	if (nb > (1u << 20))
		return NULL;
	at = calloc(nb + 1, sizeof(*at));
	order = malloc(nr * sizeof(*order));
	if (!at || !order) {
		*err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++)
		at[ctx->keep[i].buffer * (max_cpu + 1) + ctx->keep[i].cpu + 1]++;
	for (b = 0; b < nb; b++)
		at[b + 1] += at[b];
	for (i = 0; i < nr; i++)
		order[at[ctx->keep[i].buffer * (max_cpu + 1) +
			 ctx->keep[i].cpu]++] = (uint32_t)i;
	/* each bucket's start is now the one before's end */
	for (b = 0; b < nb && !*err; b++)
		*err = sort_slice(ctx, order + (b ? at[b - 1] : 0),
				  at[b] - (b ? at[b - 1] : 0));
out:
	free(at);
	if (*err) {
		free(order);
		return NULL;
	}
	return order;
}

static int write_kept(struct f2d_ctx *ctx)
{
	uint32_t *order;
	size_t i;
	int ret;

	/* nothing kept: no array to sort (qsort() takes none) */
	if (!ctx->nr_keep)
		return 0;
	order = kept_order(ctx, &ret);
	if (ret < 0)
		return ret;
	if (!order)
		qsort(ctx->keep, ctx->nr_keep, sizeof(*ctx->keep), cmp_keep);
	for (i = 0; i < ctx->nr_keep; i++) {
		struct f2d_keep *k = &ctx->keep[order ? order[i] : i];

		if (k->lost)
			ret = dat_writer_lost_events(ctx->w, k->buffer, k->cpu,
						     k->lost);
		else
			ret = dat_writer_write_raw(ctx->w, k->buffer, k->cpu,
						   k->ts, ctx->arena.s + k->off,
						   k->len);
		if (ret < 0)
			break;
	}
	free(order);
	return ret < 0 ? ret : 0;
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

int f2d_renumbering(const struct fxt_threads *threads, const uint16_t *cpu_map,
		    char *buf, size_t size, size_t max, const char *sep)
{
	struct fxt_list l = { .buf = buf, .size = size, .max = max, .sep = sep };
	unsigned int c;

	if (size)
		buf[0] = '\0';
	if (threads && fxt_threads_assigned(threads))
		fxt_threads_mapping(threads, &l);
	l.n = 0;	/* as many CPUs again */
	for (c = 0; cpu_map && c <= 0xffff; c++)
		if (cpu_map[c] != c && cpu_map[c] != 0xffff &&
		    !fxt_list_add(&l, "%scpu %u -> %u",
				  l.len && !l.n ? sep : "", c, cpu_map[c]))
			break;
	return (int)l.len;
}

/* Other producers' thread names: the cmdlines of their task ids. */
static int add_thread_names(struct f2d_ctx *ctx)
{
	const struct fxt_thread_info *ti;
	size_t i, n = ctx->threads ? fxt_threads_count(ctx->threads) : 0;
	int ret;

	for (i = 0; i < n; i++) {
		ti = fxt_threads_info(ctx->threads, (int)i);
		if (!ti || ti->resolved != (int)i || !ti->name || !ti->task)
			continue;
		ret = dat_writer_add_cmdline(ctx->w, ti->task, ti->name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int f2d_tgids_text(struct f2d_ctx *ctx, const struct u64_map *tgid)
{
	uint64_t *pids;
	size_t i, n;
	char line[32];
	int len, ret = 0;

	pids = u64_map_keys(tgid, &n);
	if (!pids)
		return tgid->nr ? -ENOMEM : 0;
	for (i = 0; i < n && !ret; i++) {
		len = snprintf(line, sizeof(line), "%d %d\n", (int32_t)pids[i],
			       (int32_t)u64_map_get(tgid, pids[i]));
		ret = f2d_text_add(&ctx->tgids, line, (size_t)len);
	}
	free(pids);
	return ret;
}

/*
 * The converted threads' groups (ctx->groups) as the saved tgids: each
 * thread of another task's group, and that task.  A thread alone in a
 * group of its own id is left out: the converter says that of any task
 * nothing else speaks of, and so does a reader of the .dat.
 */
static int groups_tgids(struct f2d_ctx *ctx)
{
	struct u64_map all = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < ctx->groups.cap && !ret; i++) {
		const struct u64_map_slot *sl = &ctx->groups.slot[i];

		if (!sl->val)
			continue;
		if (u64_map_set(&all, sl->key, sl->val) ||
		    (!u64_map_get(&all, sl->val) &&
		     !u64_map_get(&ctx->groups, sl->val) &&
		     u64_map_set(&all, sl->val, sl->val)))
			ret = -ENOMEM;
	}
	if (!ret)
		ret = f2d_tgids_text(ctx, &all);
	u64_map_free(&all);
	return ret;
}

/*
 * The .dat's version option: the source's (a converted FXT carries it),
 * then what the conversion numbered otherwise than the FXT, in full.
 */
static int add_version(struct f2d_ctx *ctx)
{
	int n = f2d_renumbering(ctx->threads, ctx->cpu_map, NULL, 0, 0, "\n");
	struct f2d_text t = { 0 };
	int ret = 0;
	char *p;

	if (!n)
		return ctx->version.len ?
		       dat_writer_add_option_string(ctx->w, DAT_OPTION_VERSION,
						    ctx->version.s) : 0;
	if (ctx->version.len)
		ret = f2d_text_add(&t, ctx->version.s, ctx->version.len);
	if (!ret && ctx->version.len)
		ret = f2d_text_add(&t, "\n", 1);
	if (!ret)
		ret = f2d_text_add(&t, F2D_RENUMBERED_HEAD,
				   strlen(F2D_RENUMBERED_HEAD));
	p = ret ? NULL : f2d_text_room(&t, (size_t)n);
	if (p) {
		/* the text ends in its NUL: the room's is past it */
		f2d_renumbering(ctx->threads, ctx->cpu_map, p, (size_t)n + 1, 0,
				"\n");
		ret = dat_writer_add_option_string(ctx->w, DAT_OPTION_VERSION,
						   t.s);
	} else if (!ret) {
		ret = -ENOMEM;
	}
	f2d_text_free(&t);
	return ret;
}

int f2d_out_finish(struct f2d_ctx *ctx)
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
	/* in the names' slot order: of koids that are one int, the last wins */
	for (i = 0; !ret && i < ctx->names.cap; i++)
		if (ctx->names.slot[i].val)
			ret = dat_writer_add_cmdline(ctx->w,
					(int)ctx->names.slot[i].key,
					(const char *)(uintptr_t)
					ctx->names.slot[i].val);
	if (!ret)
		ret = add_thread_names(ctx);
	if (!ret && ctx->uname.len)
		ret = dat_writer_add_option_string(ctx->w, DAT_OPTION_UNAME,
						   ctx->uname.s);
	if (!ret)
		ret = add_version(ctx);
	if (!ret)
		ret = add_cpustats(ctx);
	if (!ret && !ctx->tgids.len && ctx->groups.nr)
		ret = groups_tgids(ctx);
	if (!ret && ctx->tgids.len)
		ret = dat_writer_add_option_string(ctx->w,
						   DAT_OPTION_SAVED_TGIDS,
						   ctx->tgids.s);
	if (ret < 0)
		return ret;
	ret = dat_writer_close(ctx->w);
	ctx->w = NULL;
	return ret;
}

void f2d_out_free(struct f2d_ctx *ctx)
{
	if (ctx->w)
		dat_writer_discard(ctx->w);
	ctx->w = NULL;
	free(ctx->keep);
	free(ctx->run);
	free(ctx->last_ts);
	u64_map_free(&ctx->last_at);
	u64_map_free(&ctx->groups);
	f2d_text_free(&ctx->arena);
}
