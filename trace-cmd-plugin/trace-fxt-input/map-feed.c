// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-feed.c - the records mapped on a second thread while this one reads
 * them.
 *
 * Reading a record (the pages' zstd decompression, the walk of the
 * pages, the merge of the CPUs by time) and mapping and writing it can
 * overlap on two cores.  The calling thread runs the plugin's own page
 * reader (map-pages.h) when the host described the file's pages, else
 * tracecmd_iterate_events_multi(), and copies each record into batches
 * (its bytes, time, CPUs, lost-events count and which handle gave it);
 * the mapping thread hands them to the mapping in the same order, as
 * records of its own.  So the FXT is the same bytes as a single
 * thread's.  What the mapping writes before the first record (the
 * providers' headers, formats and options, read again from the file)
 * is done on the mapping thread too, while the first records are read.
 * The reader touches only the reading of the pages, which the mapping
 * never calls; the mapping alone uses libtraceevent's tep handle (its
 * lookups cache as they go) and the writer.
 *
 * libtracecmd, when it reads, does so on the thread that opened the
 * file, as a bare pass does: it allocates and frees a record per event,
 * and glibc serves that more slowly from a second thread's arena (the
 * kmem bench recording's pass took 16% longer on a thread of its own,
 * medians of 10 alternating runs).
 */
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-feed.h"
#include "map-pages.h"

/*
 * In flight between the threads: 4 MB, so that reading goes on while the
 * mapping stops for what it does once (libtraceevent sorts the kernel's
 * symbols at the first look-up, ~30 ms on the bench recordings).
 */
#define FEED_BATCHES	16
#define FEED_NICE	4
#define FEED_BATCH	(256u << 10)	/* bytes of records a batch */

/* What a batch holds of each record, its bytes following (8-aligned). */
struct feed_rec {
	uint64_t	ts;
	int32_t		missed;		/* tep_record's missed_events */
	int32_t		pad;
	uint32_t	size;
	int32_t		cpu;		/* the record's */
	int32_t		handle;		/* index into the handles */
	int32_t		slot;		/* the iteration's CPU number */
};

struct feed_batch {
	uint8_t		*buf;
	size_t		used, cap;
	bool		full;		/* the reader is done with it */
};

struct feed {
	struct tracecmd_input	**handles;
	int			nr;
	struct map_pages	*pages;		/* else libtracecmd reads */
	map_start_fn		start;		/* before the first record */
	map_record_fn		fn;		/* the mapping, and its data */
	void			*data;
	int			map_ret;
	struct feed_batch	b[FEED_BATCHES];
	unsigned int		fill;		/* the reader's batch */
	bool			stop;		/* the mapping wants no more */
	bool			done;		/* the reader has read all */
	int			read_ret;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
};

static size_t feed_align(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Hand the batch being filled over; false when the mapping stopped. */
static bool feed_pass(struct feed *f)
{
	struct feed_batch *b;

	pthread_mutex_lock(&f->lock);
	f->b[f->fill].full = true;
	f->fill = (f->fill + 1) % FEED_BATCHES;
	b = &f->b[f->fill];
	pthread_cond_broadcast(&f->cond);
	while (b->full && !f->stop)
		pthread_cond_wait(&f->cond, &f->lock);
	pthread_mutex_unlock(&f->lock);
	b->used = 0;
	return !f->stop;
}

/* A record into the batch being filled; -1 when the mapping stopped. */
static int feed_put(struct feed *f, const struct map_pages_rec *in)
{
	struct feed_batch *b = &f->b[f->fill];
	size_t need = sizeof(struct feed_rec) + feed_align(in->size);
	struct feed_rec *r;

	if (b->used && b->used + need > b->cap && !feed_pass(f))
		return -1;
	b = &f->b[f->fill];
	if (need > b->cap) {
		/* a record larger than a batch (huge pages): a larger batch */
		uint8_t *n = realloc(b->buf, need);

		if (!n)
			return -1;
		b->buf = n;
		b->cap = need;
	}
	r = (struct feed_rec *)(b->buf + b->used);
	*r = (struct feed_rec){
		.ts = in->ts, .size = in->size, .cpu = in->cpu,
		.handle = in->handle, .slot = in->slot, .missed = in->missed,
	};
	memcpy(r + 1, in->data, r->size);
	b->used += need;
	return 0;
}

static int feed_copy(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	struct feed *f = data;
	struct map_pages_rec r = {
		.ts = rec->ts, .data = rec->data,
		.size = rec->size > 0 ? rec->size : 0, .cpu = rec->cpu,
		.missed = rec->missed_events, .slot = cpu,
	};

	while (r.handle < f->nr && f->handles[r.handle] != h)
		r.handle++;
	return feed_put(f, &r);
}

static int feed_page_rec(const struct map_pages_rec *r, void *data)
{
	return feed_put(data, r);
}

/* Every record read into the batches, and the mapping told it has all. */
static void feed_read(struct feed *f)
{
	if (f->pages)
		f->read_ret = map_pages_read(f->pages, feed_page_rec, f);
	else
		f->read_ret = tracecmd_iterate_events_multi(f->handles, f->nr,
							    feed_copy, f);
	pthread_mutex_lock(&f->lock);
	f->b[f->fill].full = true;
	f->done = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* The records of batch @b through @fn; its return, or 0. */
static int feed_map(struct feed *f, struct feed_batch *b,
		    map_record_fn fn, void *data)
{
	size_t at = 0;
	int ret;

	while (at < b->used) {
		struct feed_rec *r = (struct feed_rec *)(b->buf + at);
		struct tep_record rec = {
			.ts = r->ts, .cpu = r->cpu, .size = r->size,
			.missed_events = r->missed, .data = r + 1,
		};

		at += sizeof(*r) + feed_align(r->size);
		if (r->handle >= f->nr)
			continue;
		ret = fn(f->handles[r->handle], &rec, r->slot, data);
		if (ret)
			return ret;
	}
	return 0;
}

/* A record of the page reader straight to the mapping (no second thread). */
static int feed_alone_rec(const struct map_pages_rec *r, void *data)
{
	struct feed *f = data;
	struct tep_record rec = {
		.ts = r->ts, .cpu = r->cpu, .size = r->size,
		.missed_events = r->missed, .data = (void *)r->data,
	};

	return f->fn(f->handles[r->handle], &rec, r->slot, f->data);
}

/* The mapping thread: each batch through the mapping, in turn. */
static void *feed_mapper(void *arg)
{
	struct feed *f = arg;
	unsigned int take = 0;
	bool last;
	int ret = f->start ? f->start(f->data) : 0;

	if (ret) {
		pthread_mutex_lock(&f->lock);
		f->stop = true;
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
		f->map_ret = ret;
		return NULL;
	}
	for (;;) {
		struct feed_batch *b = &f->b[take];

		pthread_mutex_lock(&f->lock);
		while (!b->full)
			pthread_cond_wait(&f->cond, &f->lock);
		last = f->done && take == f->fill;
		pthread_mutex_unlock(&f->lock);
		ret = feed_map(f, b, f->fn, f->data);
		pthread_mutex_lock(&f->lock);
		b->full = false;
		if (ret)
			f->stop = true;
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
		if (ret || last)
			break;
		take = (take + 1) % FEED_BATCHES;
	}
	f->map_ret = ret;
	return NULL;
}

int map_feed(struct tracecmd_input **handles, int nr,
	     struct map_pages *pages, map_start_fn start, map_record_fn fn,
	     void *data)
{
	struct feed f = {
		.handles = handles, .nr = nr, .pages = pages, .start = start,
		.fn = fn, .data = data,
	};
	int ret;
	pthread_t mapper;
	unsigned int i;

	for (i = 0; i < FEED_BATCHES; i++) {
		f.b[i].buf = malloc(FEED_BATCH);
		f.b[i].cap = FEED_BATCH;
		if (!f.b[i].buf)
			goto alone;
	}
	pthread_mutex_init(&f.lock, NULL);
	pthread_cond_init(&f.cond, NULL);
	if (pthread_create(&mapper, NULL, feed_mapper, &f)) {
		pthread_cond_destroy(&f.cond);
		pthread_mutex_destroy(&f.lock);
		goto alone;
	}
	/*
	 * The reader behind the mapping when they share a core: the mapping
	 * is what the conversion waits for, the 4 MB of batches let the
	 * reader fall behind a while (FEED_NICE nice levels: a weight of
	 * about 40% of the mapping's).  The reading child exits after.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid),
		    getpriority(PRIO_PROCESS, 0) + FEED_NICE);
	feed_read(&f);
	pthread_join(mapper, NULL);
	pthread_cond_destroy(&f.cond);
	pthread_mutex_destroy(&f.lock);
	for (i = 0; i < FEED_BATCHES; i++)
		free(f.b[i].buf);
	return f.map_ret ? f.map_ret : f.read_ret;
alone:
	for (i = 0; i < FEED_BATCHES; i++)
		free(f.b[i].buf);
	ret = start ? start(data) : 0;
	if (ret)
		return ret;
	if (pages)
		return map_pages_read(pages, feed_alone_rec, &f);
	return tracecmd_iterate_events_multi(handles, nr, fn, data);
}
