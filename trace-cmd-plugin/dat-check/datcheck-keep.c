// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-keep.c - the records of a few events, kept from the check's
 * walk (datcheck.h), for the input plugin (struct dat_recs, dat-layout.h).
 *
 * The check decompresses and visits every record of the file; the
 * plugin's thread-group pass would do it all again for the handful of
 * events it reads.  Their payloads are copied into one growing block,
 * their buffer names into a short list (records of one buffer come
 * together), and handed over only when the whole file checked good.
 * Past DCK_MAX_BYTES of payloads (a recording of nothing but
 * trace_marker writes, say) the copies are given up and the plugin reads
 * the file itself, as it does under any other host.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datcheck.h"
#include "file-map.h"

#define DCK_MAX_BYTES	(64u << 20)

struct dck {
	struct dat_rec		*recs;
	size_t			nr, max;
	uint8_t			*blob;
	size_t			used, size;
	char			**names;
	unsigned int		nr_names;
	bool			gave_up;
};

/* The kept copy of @name: the last one, or a new one. */
static const char *dck_name(struct dck *k, const char *name)
{
	char **n;

	if (k->nr_names && !strcmp(k->names[k->nr_names - 1], name))
		return k->names[k->nr_names - 1];
	n = realloc(k->names, (k->nr_names + 1) * sizeof(*n));
	if (!n)
		return NULL;
	k->names = n;
	n[k->nr_names] = strdup(name);
	return n[k->nr_names] ? n[k->nr_names++] : NULL;
}

static bool dck_grow(void **p, size_t *max, size_t need, size_t elem)
{
	size_t n = *max ? *max : 256;
	void *q;

	while (n < need)
		n *= 2;
	if (n == *max)
		return true;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*max = n;
	return true;
}

/* Copy one record; the data pointer holds its offset until the end. */
static int dck_record(const struct datcheck_record *r, void *priv)
{
	struct dck *k = priv;
	struct dat_rec *rec;
	const char *name;

	if (k->used + r->len > DCK_MAX_BYTES ||
	    !dck_grow((void **)&k->recs, &k->max, k->nr + 1, sizeof(*rec)) ||
	    !dck_grow((void **)&k->blob, &k->size, k->used + r->len, 1) ||
	    !(name = dck_name(k, r->buffer))) {
		k->gave_up = true;
		return 1;
	}
	memcpy(k->blob + k->used, r->data, r->len);
	rec = &k->recs[k->nr++];
	*rec = (struct dat_rec){
		.buffer = name, .cpu = r->cpu, .len = r->len, .ts = r->ts,
		.data = (const uint8_t *)(uintptr_t)k->used,
	};
	k->used += r->len;
	return 0;
}

static void dck_free(struct dck *k)
{
	unsigned int i;

	for (i = 0; i < k->nr_names; i++)
		free(k->names[i]);
	free(k->names);
	free(k->recs);
	free(k->blob);
}

/* A check under way: the file mapped, the copies, the pages' thread. */
struct datcheck_keep_run {
	const void		*p;		/* the file, file_map()'s */
	size_t			len;
	struct dck		*k;
	struct datcheck_watch	w;
	struct datcheck		*dc;
	pthread_t		thread;
	bool			threaded;
};

static void dck_run_free(struct datcheck_keep_run *run)
{
	if (run->k)
		dck_free(run->k);
	free(run->k);
	file_unmap(run->p, run->len);
	free(run);
}

static void *dck_pages(void *arg)
{
	struct datcheck_keep_run *run = arg;

	datcheck_pages(run->dc);
	return NULL;
}

/* The pages walked on a thread of their own (here, if none starts). */
static void dck_pages_start(struct datcheck_keep_run *run)
{
	run->threaded = !pthread_create(&run->thread, NULL, dck_pages, run);
	if (!run->threaded)
		datcheck_pages(run->dc);
}

/* The file mapped and checked up to its CPU data, copies ready. */
static int dck_begin(const char *path, const struct dat_event_name *events,
		     unsigned int nr_events, unsigned int flags,
		     struct datcheck_keep_run **out, char *err, size_t errlen)
{
	struct datcheck_keep_run *run = calloc(1, sizeof(*run));
	int ret;

	*out = NULL;
	if (!run)
		return -ENOMEM;
	ret = file_map(path, 0, &run->p, &run->len);
	if (ret) {
		free(run);
		return ret;
	}
	run->k = calloc(1, sizeof(*run->k));
	run->w = (struct datcheck_watch){
		.events = events, .nr_events = nr_events,
		.record = dck_record, .priv = run->k,
	};
	ret = datcheck_head(run->p, run->len, run->k ? &run->w : NULL, flags,
			    err, errlen, &run->dc);
	if (ret) {
		dck_run_free(run);
		return ret;
	}
	*out = run;
	return 0;
}

int datcheck_keep_start(const char *path, const struct dat_event_name *events,
			unsigned int nr_events, unsigned int flags,
			struct datcheck_keep_run **run, char *err,
			size_t errlen)
{
	int ret = dck_begin(path, events, nr_events, flags, run, err,
			    errlen);

	if (!ret)
		dck_pages_start(*run);
	return ret;
}

void datcheck_keep_help(struct datcheck_keep_run *run)
{
	datcheck_pages(run->dc);
}

struct datcheck *datcheck_keep_check(struct datcheck_keep_run *run)
{
	return run->dc;
}

/* The pages' thread, once: the walk is over when it returns. */
static void dck_pages_join(struct datcheck_keep_run *run)
{
	if (run->threaded)
		pthread_join(run->thread, NULL);
	run->threaded = false;
}

int datcheck_keep_walk(struct datcheck_keep_run *run, uint8_t *ids,
		       bool *complete)
{
	dck_pages_join(run);
	*complete = run->k && !run->k->gave_up;
	return datcheck_ids(run->dc, ids);
}

int datcheck_keep_finish(struct datcheck_keep_run *run,
			 struct dat_recs *out,
			 struct dat_pages *pages, uint8_t *ids)
{
	struct dck *k = run->k;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	dck_pages_join(run);
	ret = pages ? datcheck_layout(run->dc, pages) : 0;
	if (ids && datcheck_ids(run->dc, ids))
		memset(ids, 0xff, DATCHECK_IDS_BYTES);
	ret = datcheck_end(run->dc) ?: ret;
	if (ret && pages)
		datcheck_layout_free(pages);
	if (ret || !k || k->gave_up) {
		dck_run_free(run);
		return ret;
	}
	for (i = 0; i < k->nr; i++)
		k->recs[i].data = k->blob + (uintptr_t)k->recs[i].data;
	out->complete = true;
	out->recs = k->recs;
	out->nr = k->nr;
	out->owner = k;
	run->k = NULL;
	dck_run_free(run);
	return 0;
}

int datcheck_file_keep(const char *path, const struct dat_event_name *events,
		       unsigned int nr_events, unsigned int flags,
		       struct dat_recs *out, char *err, size_t errlen)
{
	struct datcheck_keep_run *run;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = dck_begin(path, events, nr_events, flags, &run, err, errlen);
	if (ret)
		return ret;
	datcheck_pages(run->dc);
	return datcheck_keep_finish(run, out, NULL, NULL);
}

void datcheck_recs_free(struct dat_recs *recs)
{
	struct dck *k = recs->owner;

	if (k) {
		dck_free(k);
		free(k);
	}
	memset(recs, 0, sizeof(*recs));
}
