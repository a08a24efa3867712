// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-table.c - the decoded file's side tables: the string pool, the
 * per-thread table (name, last CPU) and the time sort of the rows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fxt-ks.h"

/*
 * The event formats a file carries are tried in a child process forked
 * while the file loads (fxt2dat-format.c), kept until the load is done:
 * every page the load writes that the child shares is copied first, a
 * fault and 4 kB copied for each page of rows the heap had from an
 * earlier load.  The child never reads the rows: the whole pages inside
 * the arrays are not shared with it (MADV_DONTFORK), and shared again
 * before the heap has them back, as what it then holds may be the
 * child's business.  The chunk's own header and its neighbour's lie
 * outside those pages.
 */
static void big_share(void *p, size_t size, bool share)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + size) & ~(page - 1);

	if (p && end > start)
		madvise((void *)start, end - start,
			share ? MADV_DOFORK : MADV_DONTFORK);
}

void *fxt_ks_big_alloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	big_share(p, size, false);
	return p;
}

void *fxt_ks_big_realloc(void *p, size_t size, size_t new_size)
{
	void *n;

	big_share(p, size, true);
	n = realloc(p, new_size ? new_size : 1);
	if (!n) {
		big_share(p, size, false);
		return NULL;
	}
	big_share(n, new_size, false);
	return n;
}

void fxt_ks_big_free(void *p, size_t size)
{
	big_share(p, size, true);
	free(p);
}

int64_t fxt_ks_pool_add(struct fxt_ks_data *d, const char *s, size_t len)
{
	size_t off = d->pool_len;

	if (len > UINT32_MAX)
		return -1;
	if (d->pool_len + len + 1 > d->pool_cap) {
		size_t cap = d->pool_cap ? d->pool_cap : 4096;
		char *p;

		while (cap < d->pool_len + len + 1)
			cap *= 2;
		p = realloc(d->pool, cap);
		if (!p)
			return -1;
		d->pool = p;
		d->pool_cap = cap;
	}
	memcpy(d->pool + off, s, len);
	d->pool[off + len] = '\0';
	d->pool_len += len + 1;
	return (int64_t)off;
}

const char *fxt_ks_arg_str(const struct fxt_ks_data *d,
			   const struct fxt_ks_arg *a)
{
	switch (a->where) {
	case FXT_KS_IN_MAP:
		return (const char *)d->map + a->v.u;
	case FXT_KS_IN_POOL:
		return d->pool + a->v.u;
	case FXT_KS_AT_PTR:
		return (const char *)(uintptr_t)a->v.u;
	default:
		return NULL;
	}
}

struct fxt_ks_task *fxt_ks_task_get(struct fxt_ks_data *d, int32_t pid,
				    bool create)
{
	uint64_t key = (uint32_t)pid, at = u64_map_get(&d->task_at, key);
	struct fxt_ks_task *t;

	if (at)
		return &d->tasks[at - 1];
	if (!create)
		return NULL;
	if (d->ntasks == d->tasks_cap) {
		size_t cap = d->tasks_cap ? 2 * d->tasks_cap : 512;

		t = realloc(d->tasks, cap * sizeof(*t));
		if (!t)
			return NULL;
		d->tasks = t;
		d->tasks_cap = cap;
	}
	if (u64_map_set(&d->task_at, key, d->ntasks + 1))
		return NULL;
	t = &d->tasks[d->ntasks++];
	*t = (struct fxt_ks_task){ .pid = pid, .name = -1, .cpu = -1 };
	return t;
}

const char *fxt_ks_task_name(const struct fxt_ks_data *d, int32_t pid)
{
	const struct fxt_ks_task *t;

	t = fxt_ks_task_get((struct fxt_ks_data *)d, pid, false);
	if (!t || t->name < 0)
		return NULL;
	return d->pool + t->name;
}

/*
 * One pass from the end: next[cpu] is the pid of the nearest row after
 * the current one (in file order) on that CPU that is no marker itself,
 * so back-to-back markers all take the pid of the entry they precede.
 */
int fxt_ks_rows_place_missed(struct fxt_ks_data *d)
{
	int32_t *next;
	size_t i;
	unsigned int e;
	int cpu;

	for (e = 0; e < d->nevents; e++)
		if (d->events[e].missed)
			break;
	if (e == d->nevents || !d->nrows)
		return 0;
	next = malloc((size_t)d->n_cpus * sizeof(*next));
	if (!next)
		return -ENOMEM;
	/* pids are never negative (pid_of()): -1 is "no row after it". */
	for (cpu = 0; cpu < d->n_cpus; cpu++)
		next[cpu] = -1;
	for (i = d->nrows; i-- > 0;) {
		struct fxt_ks_row *row = &d->rows[i];

		if (!d->events[row->event].missed) {
			next[row->cpu] = row->pid;
			continue;
		}
		if (next[row->cpu] >= 0)
			row->pid = next[row->cpu];
		/* Timestamps are ns from 0 (ticks_to_ns()): none below it. */
		row->ts = row->ts > FXT_KS_MISSED_SHIFT ?
			  row->ts - FXT_KS_MISSED_SHIFT : 0;
		if (i && row->ts < d->rows[i - 1].ts)
			d->unsorted = true;
	}
	free(next);
	return 0;
}

/*
 * A stable merge sort.  Producers usually write in time order, or in a
 * few time-ordered runs (one per CPU buffer); a run already in order costs
 * one comparison to skip.  The arguments stay where they are: rows point
 * at them.
 */
static void rows_merge_sort(struct fxt_ks_row *a, struct fxt_ks_row *tmp,
			    size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	rows_merge_sort(a, tmp, mid);
	rows_merge_sort(a + mid, tmp, n - mid);
	if (a[mid - 1].ts <= a[mid].ts)
		return;
	while (i < mid && j < n)
		tmp[k++] = a[j].ts < a[i].ts ? a[j++] : a[i++];
	while (i < mid)
		tmp[k++] = a[i++];
	/* Whatever is left of the right half is already in place. */
	memcpy(a, tmp, k * sizeof(*a));
}

int fxt_ks_rows_sort(struct fxt_ks_data *d)
{
	struct fxt_ks_row *tmp;

	if (!d->unsorted)
		return 0;
	tmp = malloc(d->nrows * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	rows_merge_sort(d->rows, tmp, d->nrows);
	free(tmp);
	return 0;
}
