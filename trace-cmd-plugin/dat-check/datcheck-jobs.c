// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-jobs.c - the CPU data as jobs, walked by any number of threads.
 *
 * The headers' walk lists each CPU's data as a job (a compressed CPU's as
 * parts of a few chunks each); datcheck_pages() callers take the next job
 * until none is left, each job walked with a copy of the file's state of
 * its own.  What a job found (its fault, the event IDs, the watched
 * records) is kept by job and merged in job order: the outcome is that
 * of one walk of the file in order, whatever thread ran what.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datcheck-intern.h"

/* @job one more of the jobs datcheck_pages() runs. */
static int dc_job_add(struct dc_file *f, const struct dc_job *job)
{
	struct dc_job *j = realloc(f->jobs, (f->nr_jobs + 1) * sizeof(*j));

	if (!j)
		return f->ret = -ENOMEM;
	f->jobs = j;
	f->jobs[f->nr_jobs++] = *job;
	return 0;
}

/*
 * Chunks a part of a compressed CPU's data holds: 320 KB of pages where
 * trace-cmd compresses 10 pages a chunk, a millisecond or two of walk,
 * ~300 parts for a CPU of 100 MB.
 */
#define DC_PART_CHUNKS	8

/*
 * A compressed CPU's data @j as parts of DC_PART_CHUNKS chunks, each a
 * job: the threads that walk the pages then share one CPU's data too (a
 * recording of syscalls may have nearly all of them on one CPU).  Each
 * chunk decompresses to whole pages of its own, and the parts are
 * merged in order: the same walk as the CPU's in one go.  When the
 * chunks' headers do not hold up, the CPU is one job again, whose walk
 * says why.
 */
static int dc_cpu_parts(struct dc_cur *file, const struct dc_job *j)
{
	struct dc_file *f = file->f;
	unsigned int first = f->nr_jobs;
	size_t len = file->len - j->off;
	const uint8_t *p = file->p + j->off;
	struct dc_job part = *j;
	uint64_t count, i, csize, pos = 4;
	bool salvage = f->flags & DATCHECK_SALVAGE;

	/*
	 * Salvaging, the chain must end where the data does (the size
	 * trace-cmd records leaves out the count's 4 bytes, the core's
	 * writer's does not): a part skips a chunk that does not inflate by
	 * its size only when the sizes are known to hold
	 */
	if (salvage && len > j->size + 4)
		len = j->size + 4;
	if (len < 4 || !(count = dc_num(f, p, 4)))
		return dc_job_add(f, j);
	part.chained = salvage;
	for (i = 0; i < count; i++, pos += 8 + csize) {
		if (len - pos < 8 ||
		    dc_num(f, p + pos, 4) > len - pos - 8) {
			f->nr_jobs = first;
			return dc_job_add(f, j);
		}
		csize = dc_num(f, p + pos, 4);
		if (i % DC_PART_CHUNKS == 0) {
			part.from = pos;
			part.chunks = count - i < DC_PART_CHUNKS ?
				      count - i : DC_PART_CHUNKS;
			part.cont = i > 0;
			if (dc_job_add(f, &part))
				return f->ret;
		}
	}
	if (salvage && pos != len && pos != j->size) {
		f->nr_jobs = first;
		return dc_job_add(f, j);
	}
	return 0;
}

/*
 * A CPU's data: within the file, and walked by datcheck_pages() once the
 * headers, options and formats are checked (libtracecmd reads those
 * without the pages, so both can go on at once).
 */
int dc_cpu_data(struct dc_cur *file, uint64_t off, uint64_t size,
		uint32_t page_size, bool compressed, size_t opt_at)
{
	struct dc_file *f = file->f;
	struct dc_job j = {
		.off = off, .size = size, .page_size = page_size,
		.compressed = compressed, .buffer = f->walk_buffer,
		.cpu = f->walk_cpu, .rebuilt = f->walk_rebuilt,
	};

	if (!size || f->flags & DATCHECK_NO_PAGES)
		return 0;
	if (off > file->len || size > file->len - off) {
		if (off < file->len && size <= DC_MAX_CUT &&
		    !(f->flags & DATCHECK_SALVAGE))
			return dc_fail(file, file->len, "the file ends inside "
				       "CPU %u's data (at 0x%llx, %llu bytes, "
				       "listed at 0x%zx): cut short",
				       f->walk_cpu, (unsigned long long)off,
				       (unsigned long long)size, opt_at);
		if (!(f->flags & DATCHECK_SALVAGE) || off > DC_MAX_CUT ||
		    size > DC_MAX_CUT)
			return dc_fail(file, opt_at, "CPU data at 0x%llx of "
				       "%llu bytes lies beyond the end of the "
				       "file (%zu bytes)",
				       (unsigned long long)off,
				       (unsigned long long)size, file->len);
		/*
		 * Salvaging a file cut short: what it has is walked, the
		 * rest is damage; the view has every CPU's bytes
		 */
		f->cut = j.cut = true;
		if (f->view_len < off + size + (compressed ? 4 : 0))
			f->view_len = off + size + (compressed ? 4 : 0);
		return dc_job_add(f, &j);
	}
	return compressed ? dc_cpu_parts(file, &j) : dc_job_add(f, &j);
}

/*
 * A compressed CPU's data salvaged: a part's chunks, or the CPU's whole
 * (its chunk count first), up to the size the file records.
 */
static int dc_job_salvage(struct dc_cur *c, const struct dc_job *j)
{
	struct dc_file *f = c->f;
	uint64_t end = f->len > j->off ? f->len - j->off : 0;
	int ret;

	if (end > j->size + 4)
		end = j->size + 4;
	/* cut short: the chunks the file has, the rest lost */
	if (j->cut) {
		ret = end < 4 ? 0 :
		      dc_cpu_chunks_salvage(c, j->off, 4,
					    dc_num(f, f->p + j->off, 4), end,
					    j->page_size, false);
		if (ret)
			return ret;
		return dc_cut_tail(c, end < 4 ? j->off : f->len, j->off,
				   j->off + j->size + 4, j->rebuilt);
	}
	if (j->from)
		return dc_cpu_chunks_salvage(c, j->off, j->from, j->chunks,
					     end, j->page_size, j->chained);
	/* too short for a count: all of it damage */
	if (end < 4)
		return dc_cpu_chunks_salvage(c, j->off, 0, 0, end,
					     j->page_size, false);
	return dc_cpu_chunks_salvage(c, j->off, 4, dc_num(f, f->p + j->off, 4),
				     end, j->page_size, false);
}

static int dc_job_run(struct dc_file *f, const struct dc_job *j)
{
	struct dc_cur c = { .f = f, .p = f->p, .len = f->len,
			    .in = "the file" };

	f->walk_buffer = j->buffer;
	f->walk_cpu = j->cpu;
	if (j->compressed && f->salvage)
		return dc_job_salvage(&c, j);
	if (j->compressed)
		return dc_cpu_chunks(&c, j->off, j->from, j->chunks,
				     j->page_size);
	if (j->cut && f->salvage)
		return dc_pages_cut(&c, j->off, j->size, j->page_size,
				    j->rebuilt);
	return dc_pages(&c, j->off, j->size, j->page_size);
}

/* A watched record of a job kept for the merge; non-zero: out of memory. */
static int dc_job_keep(const struct datcheck_record *r, void *priv)
{
	struct dc_job_out *o = priv;

	if (o->nr == o->max) {
		size_t max = o->max ? 2 * o->max : 64;
		struct dc_job_rec *n = realloc(o->recs, max * sizeof(*n));

		if (!n)
			return o->ret = -ENOMEM;
		o->recs = n;
		o->max = max;
	}
	if (o->used + r->len > o->size) {
		size_t size = o->size ? 2 * o->size : 4096;
		uint8_t *n;

		while (size < o->used + r->len)
			size *= 2;
		n = realloc(o->blob, size);
		if (!n)
			return o->ret = -ENOMEM;
		o->blob = n;
		o->size = size;
	}
	memcpy(o->blob + o->used, r->data, r->len);
	o->recs[o->nr++] = (struct dc_job_rec){
		.event = r->event, .ts = r->ts, .at = o->used, .len = r->len,
	};
	o->used += r->len;
	return 0;
}

/*
 * Job @i walked with a copy of the file's state of its own: its fault,
 * IDs and watched records go to f->outs[i], whichever thread runs it.
 */
static void dc_job_walk(struct dc_file *f, unsigned int i)
{
	struct dc_job_out *o = &f->outs[i];
	struct dc_file jf = *f;

	o->ran = true;
	o->err = calloc(1, f->errlen ? f->errlen : 1);
	o->ids = f->ids ? calloc(1, DATCHECK_IDS_BYTES) : NULL;
	if (!o->err || (f->ids && !o->ids)) {
		o->ret = -ENOMEM;
	} else {
		jf.err = o->err;
		jf.ret = 0;
		jf.ids = o->ids;
		jf.salvage = f->flags & DATCHECK_SALVAGE ? o : NULL;
		if (f->watch) {
			/* the same events, kept here until the merge */
			o->watch = *f->watch;
			o->watch.record = dc_job_keep;
			o->watch.priv = o;
			jf.watch = &o->watch;
		}
		dc_job_run(&jf, &f->jobs[i]);
		if (!o->ret)
			o->ret = jf.ret;
	}
	if (o->ret)
		__atomic_store_n(&f->stop, true, __ATOMIC_RELAXED);
}

void dc_jobs_free(struct dc_file *f)
{
	unsigned int i, k;

	for (i = 0; f->outs && i < f->nr_jobs; i++) {
		free(f->outs[i].err);
		free(f->outs[i].ids);
		free(f->outs[i].recs);
		free(f->outs[i].blob);
		for (k = 0; k < f->outs[i].nr_regions; k++)
			free(f->outs[i].regions[k].why);
		free(f->outs[i].regions);
	}
	free(f->outs);
	f->outs = NULL;
}

/*
 * The damage of job @i as its CPU's (f->damage): the good events before
 * each stretch counted from the CPU's first job on, the times around it
 * taken from the jobs before and after when the job has none, a stretch
 * that goes on from the job before joined to it.  @events and @last_ts
 * are the CPU's before the job; @first is where its damage begins.
 */
static void dc_damage_merge(struct dc_file *f, unsigned int i,
			    uint64_t events, uint64_t last_ts, size_t first)
{
	struct dc_job_out *o = &f->outs[i];
	struct dat_damage *d = f->nr_damage > first ?
			       &f->damage[f->nr_damage - 1] : NULL;
	struct dc_region *r = o->regions;
	unsigned int k = 0;
	size_t n;

	if (d && o->nr_regions && !d->events_after && !r->events_before &&
	    !d->inflated && !r->inflated && !d->garbled && !r->garbled &&
	    d->off + d->len == r->off) {
		d->len += r->len;
		d->events_after = r->after;
		d->ts_after = r->ts_after;
		k = 1;
	}
	/* the damage of the jobs before waits for this one's first event */
	for (n = f->nr_damage; o->events && n > first &&
	     !f->damage[n - 1].events_after; n--) {
		f->damage[n - 1].events_after = true;
		f->damage[n - 1].ts_after = o->first_ts;
	}
	for (; k < o->nr_regions; k++) {
		r = &o->regions[k];
		f->damage[f->nr_damage++] = (struct dat_damage){
			.buffer = f->jobs[i].buffer, .cpu = f->jobs[i].cpu,
			.off = r->off, .len = r->len, .inflated = r->inflated,
			.garbled = r->garbled,
			.in_off = r->in_off, .in_len = r->in_len,
			.events_before = events + r->events_before,
			.events_after = r->after,
			.ts_before = r->events_before ? r->ts_before : last_ts,
			.ts_after = r->ts_after, .why = r->why,
		};
		r->why = NULL;
	}
}

/* Every job's damage made its CPU's, in job order; false: no memory. */
static bool dc_damage_all(struct dc_file *f)
{
	uint64_t events = 0, last_ts = 0;
	size_t total = 0, first = 0;
	unsigned int i;

	for (i = 0; i < f->nr_jobs; i++)
		total += f->outs[i].nr_regions;
	f->damage = total ? calloc(total, sizeof(*f->damage)) : NULL;
	if (total && !f->damage)
		return false;
	for (i = 0; i < f->nr_jobs && f->outs[i].ran; i++) {
		const struct dc_job_out *o = &f->outs[i];

		if (!f->jobs[i].cont) {
			events = 0;
			first = f->nr_damage;
		}
		dc_damage_merge(f, i, events, last_ts, first);
		f->jobs[i].good_chunks = o->chunks;
		if (o->events)
			last_ts = o->last_ts;
		events += o->events;
	}
	return true;
}

/*
 * The jobs' outcomes taken in job order, as a walk of one job after the
 * other would have met them: the first fault ends it, the watched
 * records go to the caller's watch, the IDs add up.  Once.
 */
void dc_jobs_merge(struct dc_file *f)
{
	unsigned int i, k;
	size_t n;

	if (!f->outs)
		return;
	for (i = 0; i < f->nr_jobs; i++) {
		struct dc_job_out *o = &f->outs[i];

		if (!o->ran || f->ret)
			break;
		for (n = 0; n < o->nr && f->watch; n++) {
			struct datcheck_record r = {
				.buffer = f->jobs[i].buffer,
				.cpu = f->jobs[i].cpu,
				.event = o->recs[n].event,
				.ts = o->recs[n].ts,
				.data = o->blob + o->recs[n].at,
				.len = o->recs[n].len,
			};

			if (f->watch->record(&r, f->watch->priv))
				f->watch = NULL;
		}
		if (f->ids && o->ids)
			for (k = 0; k < DATCHECK_IDS_BYTES; k++)
				f->ids[k] |= o->ids[k];
		if (o->ret) {
			f->ret = o->ret;
			if (f->errlen)
				snprintf(f->err, f->errlen, "%s", o->err);
		}
	}
	if (!f->ret && (f->flags & DATCHECK_SALVAGE) && !dc_damage_all(f))
		f->ret = -ENOMEM;
	dc_jobs_free(f);
}

int datcheck_pages(struct datcheck *dc)
{
	struct dc_file *f = &dc->f;
	unsigned int i;

	/* every format is known: the probe parses them meanwhile */
	if (!__atomic_exchange_n(&f->probe_started, true, __ATOMIC_ACQ_REL))
		dc_probe_start(f);
	if (!f->outs)
		return 0;
	for (;;) {
		if (__atomic_load_n(&f->stop, __ATOMIC_RELAXED))
			break;
		i = __atomic_fetch_add(&f->next_job, 1, __ATOMIC_RELAXED);
		if (i >= f->nr_jobs)
			break;
		dc_job_walk(f, i);
	}
	return 0;
}

uint64_t dc_chunks_read(const struct dc_file *f, unsigned int i)
{
	const struct dc_job *j = &f->jobs[i];
	uint64_t n = 0;

	if (!j->compressed)
		return 0;
	if (!(f->flags & DATCHECK_SALVAGE))
		return f->len - j->off >= 4 ? dc_num(f, f->p + j->off, 4) : 0;
	do
		n += f->jobs[i].good_chunks;
	while (++i < f->nr_jobs && f->jobs[i].cont);
	return n;
}

int datcheck_layout(struct datcheck *dc, struct dat_pages *out)
{
	struct dc_file *f = &dc->f;
	struct dat_cpu_data *cpus;
	struct dat_damage *damage;
	size_t names = 0, i, n;
	bool mapped;
	char *s;

	memset(out, 0, sizeof(*out));
	dc_jobs_merge(f);
	if (f->ret || (f->flags & DATCHECK_NO_PAGES) || !f->nr_jobs)
		return 0;
	/*
	 * libtracecmd reads what it would move the times of, and a file
	 * cut short (in the view, which has all its CPU data): no CPUs
	 */
	mapped = !f->times_moved && !f->cpus_renumbered && !f->cut;
	for (i = n = 0; i < f->nr_jobs && mapped; i++) {
		if (f->jobs[i].cont)
			continue;
		names += strlen(f->jobs[i].buffer) + 1;
		n++;
	}
	for (i = 0; i < f->nr_damage; i++)
		names += strlen(f->damage[i].buffer) + 1 +
			 strlen(f->damage[i].why) + 1;
	if (!n && !f->nr_damage)
		return 0;
	cpus = malloc(n * sizeof(*cpus) + f->nr_damage * sizeof(*damage) +
		      names);
	if (!cpus)
		return -ENOMEM;
	damage = (struct dat_damage *)(cpus + n);
	s = (char *)(damage + f->nr_damage);
	/* a CPU's data once, whatever parts its walk took */
	for (i = n = 0; i < f->nr_jobs && mapped; i++) {
		const struct dc_job *j = &f->jobs[i];

		if (j->cont)
			continue;
		cpus[n++] = (struct dat_cpu_data){
			.buffer = s, .cpu = j->cpu, .page_size = j->page_size,
			.off = j->off, .size = j->size, .zstd = j->compressed,
			.chunks = dc_chunks_read(f, i),
		};
		s = stpcpy(s, j->buffer) + 1;
	}
	for (i = 0; i < f->nr_damage; i++) {
		damage[i] = f->damage[i];
		damage[i].buffer = s;
		s = stpcpy(s, f->damage[i].buffer) + 1;
		damage[i].why = s;
		s = stpcpy(s, f->damage[i].why) + 1;
	}
	out->cpus = cpus;
	out->nr = n;
	out->big = f->big;
	out->long_size = f->long_size;
	out->damage = damage;
	out->nr_damage = f->nr_damage;
	out->owner = cpus;
	return 0;
}

int datcheck_ids(struct datcheck *dc, uint8_t *ids)
{
	struct dc_file *f = &dc->f;

	dc_jobs_merge(f);
	if (f->ret || !f->ids)
		return -ENODATA;
	memcpy(ids, f->ids, DATCHECK_IDS_BYTES);
	return 0;
}

void datcheck_layout_free(struct dat_pages *pages)
{
	free(pages->owner);
	memset(pages, 0, sizeof(*pages));
}
