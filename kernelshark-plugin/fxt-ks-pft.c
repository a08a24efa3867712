// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-pft.c - a Perfetto trace (.pftrace) decoded into the rows the
 * stream interface answers from, as the trace.dat `trace-fxt convert`
 * makes of it: pft2dat reads the trace as for that conversion but lists
 * each event instead of writing it (pft2dat_view_open()), and builds an
 * event's record, the .dat's, only when KernelShark shows it
 * (fxt_ks_pft_text(), fxt_ks_pft_args()).
 *
 * A row is an ftrace event of one of the .dat's buffers (a provider each,
 * so a stream each, as KernelShark opens a .dat's), its event id one per
 * format, named "system/name" as a .dat's; a task's name is what
 * libtraceevent says of its pid when asked (fxt_ks_pft_comm()), as for a
 * .dat: the saved cmdlines, and the names sched_switch's plugin learns
 * from the records it prints.  Lost events, which a .dat's page tells
 * with the next event on its CPU, become KernelShark's missed_events
 * marker before that event, as KernelShark makes it for a .dat.
 */
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fxt-ks.h"
#include "pft2dat.h"
#include "tcfxt.h"

/*
 * A bundle's rows: one CPU's, of one .dat buffer (@stream), in its time
 * order once sorted (range_close()).
 */
struct pft_range {
	size_t		start, end;
	uint32_t	stream;
};

struct pft_loader {
	struct fxt_ks_data	*d;
	/* the rows' bundles, in the order read; the last one open */
	struct pft_range	*ranges;
	size_t			nr_ranges, cap_ranges;
	size_t			bundle;
	/* a bundle of more than two runs of time: rows_merge() gives up */
	bool			unsorted;
	/* a format's id -> its event index + 1 */
	int16_t			*event_of;
	int			missed;		/* lost events' index, or -1 */
	/* per .dat buffer: its rows and the CPUs they are on */
	struct pft_buf {
		size_t		nrows;
		uint64_t	*cpus_used;
	}			*bufs;
	unsigned int		nr_bufs;
};

static struct fxt_ks_row *row_new(struct fxt_ks_data *d)
{
	if (d->nrows == d->rows_cap) {
		size_t cap = d->rows_cap ? 2 * d->rows_cap : 65536;
		struct fxt_ks_row *r;

		r = fxt_ks_big_realloc(d->rows, d->rows_cap * sizeof(*r),
				       cap * sizeof(*r));
		if (!r)
			return NULL;
		d->rows = r;
		d->rows_cap = cap;
	}
	return &d->rows[d->nrows++];
}

static int event_index(struct pft_loader *l, const struct pft2dat_row *pr)
{
	int16_t *at;
	int i;

	if (pr->event < 0) {
		if (l->missed < 0)
			l->missed = fxt_ks_event_get(l->d, FXT_EVENT_INSTANT,
					fxt_str_make(TCFXT_CAT,
						     strlen(TCFXT_CAT)),
					fxt_str_make(TCFXT_LOST_EVENTS,
						     strlen(TCFXT_LOST_EVENTS)));
		return l->missed;
	}
	if (!pr->system || !pr->name)
		return -EINVAL;
	at = &l->event_of[pr->event];
	if (*at)
		return *at - 1;
	i = fxt_ks_event_get(l->d, FXT_EVENT_INSTANT,
			     fxt_str_make(pr->system, strlen(pr->system)),
			     fxt_str_make(pr->name, strlen(pr->name)));
	if (i >= 0 && i < INT16_MAX)
		*at = (int16_t)(i + 1);
	return i;
}

static struct pft_buf *buf_of(struct pft_loader *l, unsigned int buffer)
{
	if (buffer >= FXT_KS_MAX_PROVIDERS)
		return NULL;
	if (buffer >= l->nr_bufs) {
		struct pft_buf *b = realloc(l->bufs, (buffer + 1) * sizeof(*b));

		if (!b)
			return NULL;
		memset(b + l->nr_bufs, 0,
		       (buffer + 1 - l->nr_bufs) * sizeof(*b));
		l->bufs = b;
		l->nr_bufs = buffer + 1;
	}
	return &l->bufs[buffer];
}

/* Rows @a < @b: in time, then in the order read (a stable sort's). */
static bool row_before(const struct fxt_ks_row *a, size_t ia,
		       const struct fxt_ks_row *b, size_t ib)
{
	return a->ts < b->ts || (a->ts == b->ts && ia < ib);
}

/*
 * The open bundle's rows in time order: a bundle's events, then its
 * compact sched, are two runs of time (pft2dat-event.c); merged in place
 * through a copy of the first, stable.  More runs (a damaged trace): the
 * rows are left to fxt_ks_rows_sort() (l->unsorted).
 */
static int range_close(struct pft_loader *l)
{
	struct fxt_ks_row *r = l->d->rows, *tmp;
	struct pft_range *g;
	size_t i, j, k, mid;

	if (!l->nr_ranges || l->unsorted)
		return 0;
	g = &l->ranges[l->nr_ranges - 1];
	g->end = l->d->nrows;
	for (mid = g->start + 1; mid < g->end && r[mid].ts >= r[mid - 1].ts;
	     mid++)
		;
	if (mid >= g->end)
		return 0;
	for (i = mid + 1; i < g->end && r[i].ts >= r[i - 1].ts; i++)
		;
	if (i < g->end) {
		l->unsorted = true;
		return 0;
	}
	tmp = malloc((mid - g->start) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, r + g->start, (mid - g->start) * sizeof(*tmp));
	for (i = 0, j = mid, k = g->start; i < mid - g->start; k++)
		r[k] = j < g->end && r[j].ts < tmp[i].ts ? r[j++] : tmp[i++];
	free(tmp);
	return 0;
}

/* A row of another bundle than the last one's starts a range. */
static int range_note(struct pft_loader *l, const struct pft2dat_row *pr)
{
	uint32_t stream = pr->buffer << 16 | pr->cpu;
	struct pft_range *g;
	int ret;

	g = l->nr_ranges ? &l->ranges[l->nr_ranges - 1] : NULL;
	if (g && g->stream == stream && pr->bundle == l->bundle)
		return 0;
	ret = range_close(l);
	if (ret < 0)
		return ret;
	if (l->nr_ranges == l->cap_ranges) {
		size_t cap = l->cap_ranges ? 2 * l->cap_ranges : 4096;

		g = realloc(l->ranges, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		l->ranges = g;
		l->cap_ranges = cap;
	}
	g = &l->ranges[l->nr_ranges++];
	g->start = l->d->nrows;
	g->end = g->start;
	g->stream = stream;
	l->bundle = pr->bundle;
	return 0;
}

static int row_cb(void *priv, const struct pft2dat_row *pr)
{
	struct pft_loader *l = priv;
	struct fxt_ks_data *d = l->d;
	const struct fxt_ks_event *ev;
	struct fxt_ks_row *row;
	struct pft_buf *b;
	int event;

	if (pr->cpu >= FXT_KS_MAX_CPU)
		return 0;
	event = event_index(l, pr);
	if (event < 0)
		return event == -EINVAL ? 0 : event;
	b = buf_of(l, pr->buffer);
	if (b && range_note(l, pr) < 0)
		return -ENOMEM;
	row = b ? row_new(d) : NULL;
	if (!row)
		return -ENOMEM;
	if (!b->cpus_used) {
		b->cpus_used = calloc(FXT_KS_CPU_WORDS, sizeof(uint64_t));
		if (!b->cpus_used)
			return -ENOMEM;
	}
	b->cpus_used[pr->cpu / 64] |= 1ULL << (pr->cpu % 64);
	b->nrows++;
	memset(row, 0, sizeof(*row));
	row->ts = (int64_t)pr->ts;
	row->arg = pr->event < 0 ? FXT_KS_ROW_PFT_LOST |
				   (uint64_t)(pr->lost < 0 ? 0 : pr->lost + 1) :
		   pr->at == PFT2DAT_AT_NONE ? 0 : FXT_KS_ROW_PFT | pr->at;
	row->pid = pr->pid;
	row->cpu = (int16_t)pr->cpu;
	row->event = (int16_t)event;
	row->provider = (uint16_t)pr->buffer;
	row->sched_pid = FXT_KS_NO_PID;
	ev = &d->events[event];
	if (ev->is_switch) {
		row->sched_pid = pr->next_pid;
		row->preempted = !(pr->prev_state & FXT_KS_LEFT_MASK);
	} else if (ev->wakeup_rank > 0) {
		row->sched_pid = pr->woken_pid;
	}
	return 0;
}

/* rows_merge() takes runs of one CPU's rows of one buffer, this many */
#define MERGE_STREAMS	64

/* Range @i's rows end after range @k's begin (@k SIZE_MAX: none). */
static bool ranges_cross(const struct fxt_ks_data *d,
			 const struct pft_loader *l, size_t i, size_t k)
{
	const struct pft_range *g = &l->ranges[i], *n;

	if (k == SIZE_MAX)
		return false;
	n = &l->ranges[k];
	return g->end > g->start && n->end > n->start &&
	       d->rows[n->start].ts < d->rows[g->end - 1].ts;
}

/*
 * The rows in time order, stable: each CPU of each buffer read its
 * bundles in time order, so its ranges follow one another (but a few),
 * and the rows are those runs merged.  1 when the runs are too many for
 * this merge (a damaged trace), for fxt_ks_rows_sort().
 */
static int rows_merge(struct fxt_ks_data *d, struct pft_loader *l)
{
	struct head {
		uint32_t	stream;
		size_t		range;		/* its current one */
		size_t		at;		/* its next row, or SIZE_MAX */
	} heads[MERGE_STREAMS];
	size_t *next, i, k, n, best_at;
	unsigned int nh = 0, h, best;
	struct fxt_ks_row *out;
	int ret = range_close(l);

	if (ret < 0 || l->unsorted)
		return ret < 0 ? ret : 1;
	if (l->nr_ranges < 2)
		return 0;
	/* each range's next range of its stream */
	next = malloc(l->nr_ranges * sizeof(*next));
	if (!next)
		return -ENOMEM;
	for (i = l->nr_ranges; i-- > 0;) {
		const struct pft_range *g = &l->ranges[i];

		/*
		 * a stream's ranges follow one another in time; one that
		 * does not (a bundle of a CPU's last events, written late)
		 * begins a run of its own
		 */
		for (h = 0; h < nh; h++)
			if (heads[h].stream == g->stream &&
			    !ranges_cross(d, l, i, heads[h].range))
				break;
		if (h == nh) {
			if (nh == MERGE_STREAMS) {
				free(next);
				return 1;
			}
			heads[nh].stream = g->stream;
			heads[nh++].range = SIZE_MAX;
		}
		next[i] = heads[h].range;
		heads[h].range = i;
	}
	out = fxt_ks_big_alloc(d->rows_cap * sizeof(*out));
	if (!out) {
		free(next);
		return -ENOMEM;
	}
	for (h = 0; h < nh; h++)
		heads[h].at = l->ranges[heads[h].range].start;
	for (n = 0; n < d->nrows; n++) {
		best = nh;
		best_at = SIZE_MAX;
		for (h = 0; h < nh; h++) {
			/* past a range's end: the stream's next one */
			while (heads[h].at != SIZE_MAX &&
			       heads[h].at == l->ranges[heads[h].range].end) {
				k = next[heads[h].range];
				heads[h].range = k;
				heads[h].at = k == SIZE_MAX ? SIZE_MAX :
					      l->ranges[k].start;
			}
			if (heads[h].at == SIZE_MAX)
				continue;
			if (best == nh ||
			    row_before(&d->rows[heads[h].at], heads[h].at,
				       &d->rows[best_at], best_at)) {
				best = h;
				best_at = heads[h].at;
			}
		}
		out[n] = d->rows[best_at];
		heads[best].at++;
	}
	fxt_ks_big_free(d->rows, d->rows_cap * sizeof(*d->rows));
	d->rows = out;
	free(next);
	return 0;
}

/*
 * A .dat page's missed events are told with its first event: KernelShark
 * puts its marker FXT_KS_MISSED_SHIFT before that event, with its pid.
 * Lost events after a CPU's last event are told by none: no marker.
 * Rows are in time order; markers move, so they are sorted again.
 */
static void missed_place(struct fxt_ks_data *d, int missed)
{
	int32_t next_pid[FXT_KS_MAX_CPU];
	int64_t next_ts[FXT_KS_MAX_CPU];
	size_t i, n = 0;
	int cpu;

	if (missed < 0)
		return;
	for (cpu = 0; cpu < FXT_KS_MAX_CPU; cpu++)
		next_ts[cpu] = -1;
	for (i = d->nrows; i-- > 0;) {
		struct fxt_ks_row *row = &d->rows[i];

		if (row->event != missed) {
			next_ts[row->cpu] = row->ts;
			next_pid[row->cpu] = row->pid;
			continue;
		}
		if (next_ts[row->cpu] < 0) {
			row->event = -1;	/* dropped below */
			continue;
		}
		row->pid = next_pid[row->cpu];
		row->ts = next_ts[row->cpu] > FXT_KS_MISSED_SHIFT ?
			  next_ts[row->cpu] - FXT_KS_MISSED_SHIFT : 0;
	}
	for (i = 0; i < d->nrows; i++)
		if (d->rows[i].event >= 0)
			d->rows[n++] = d->rows[i];
	d->nrows = n;
	d->unsorted = true;
}

/* Each event's fields, as its format has them (for filters, plugins). */
static int fields_note(struct fxt_ks_data *d, struct tep_handle *tep,
		       const int16_t *event_of)
{
	struct tep_format_field *f;
	struct tep_event *e;
	unsigned int k;
	int id, ret;

	for (id = 0; id < PFT2DAT_EVENT_IDS; id++) {
		if (!event_of[id])
			continue;
		e = tep_find_event(tep, id);
		for (f = e ? e->format.fields : NULL, k = 0; f; f = f->next) {
			ret = fxt_ks_event_field(d, event_of[id] - 1,
					fxt_str_make(f->name, strlen(f->name)),
					f->flags & TEP_FIELD_IS_STRING ?
					FXT_ARG_STRING : FXT_ARG_INT64, k++);
			if (ret == -ENOMEM)
				return ret;
		}
	}
	return 0;
}

/* The .dat's buffers as providers, each a stream. */
static int providers_make(struct fxt_ks_data *d, struct pft_loader *l,
			  struct pft2dat_view *v)
{
	unsigned int i, n = 0;
	const char *name;

	while (n < FXT_KS_MAX_PROVIDERS && pft2dat_view_buffer(v, n))
		n++;
	if (!buf_of(l, n ? n - 1 : 0))
		return -ENOMEM;
	if (l->nr_bufs > n)
		n = l->nr_bufs;
	d->providers = calloc(n, sizeof(*d->providers));
	if (!d->providers)
		return -ENOMEM;
	d->providers_cap = n;
	for (i = 0; i < n; i++) {
		struct fxt_ks_provider *p = &d->providers[i];

		name = pft2dat_view_buffer(v, i);
		p->id = i;
		p->from_trace_fxt = true;
		p->name = strdup(i && name ? name : TCFXT_TOP_BUFFER);
		p->buffer = strdup(i && name ? name : TCFXT_TOP_BUFFER);
		p->cpus = (int)pft2dat_view_cpus(v);
		p->nrows = l->bufs[i].nrows;
		p->cpus_used = l->bufs[i].cpus_used;
		l->bufs[i].cpus_used = NULL;
		d->nproviders++;
		if (!p->name || !p->buffer)
			return -ENOMEM;
	}
	return 0;
}

int fxt_ks_pft_load(struct fxt_ks_data *d, const char *path)
{
	struct pft2dat_opts o = { .formats = pft2dat_formats() };
	struct pft_loader l = { .d = d, .missed = -1 };
	struct pft2dat_stats st;
	struct pft2dat_view *v = NULL;
	struct stat sb;
	char err[512];
	unsigned int i;
	int ret;

	memset(d, 0, sizeof(*d));
	memset(d->buckets, 0xff, sizeof(d->buckets));
	pthread_mutex_init(&d->lock, NULL);
	/* room for a typical trace at once: about 32 bytes an event */
	if (!stat(path, &sb) && sb.st_size > 0)
		d->rows_cap = (size_t)sb.st_size / 24 + 1024;
	d->rows = d->rows_cap ?
		  fxt_ks_big_alloc(d->rows_cap * sizeof(*d->rows)) : NULL;
	if (!d->rows)
		d->rows_cap = 0;
	l.event_of = calloc(PFT2DAT_EVENT_IDS, sizeof(*l.event_of));
	ret = l.event_of && fxt_ks_pool_add(d, "", 0) >= 0 ? 0 : -ENOMEM;
	if (!ret)
		ret = pft2dat_view_open(path, &o, row_cb, &l, &st, &v, err,
					sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "plugin-fxt: %s\n", err[0] ? err :
			strerror(-ret));
		goto out;
	}
	d->pft = v;
	if (st.damaged)
		fprintf(stderr, "plugin-fxt: %s: damaged in %llu place%s, the "
			"first: %s; every whole packet is shown\n", path,
			(unsigned long long)st.damaged,
			st.damaged == 1 ? "" : "s", st.damage);
	d->n_cpus = (int)pft2dat_view_cpus(v);
	if (d->n_cpus < 1)
		d->n_cpus = 1;
	ret = fields_note(d, pft2dat_view_tep(v), l.event_of);
	if (!ret)
		ret = providers_make(d, &l, v);
	if (!ret)
		ret = fxt_ks_events_label(d);
	if (!ret)
		ret = rows_merge(d, &l);
	if (ret > 0) {
		d->unsorted = true;
		ret = fxt_ks_rows_sort(d);
	}
	if (!ret && l.missed >= 0) {
		missed_place(d, l.missed);
		ret = fxt_ks_rows_sort(d);
	}
out:
	for (i = 0; i < l.nr_bufs; i++)
		free(l.bufs[i].cpus_used);
	free(l.bufs);
	free(l.ranges);
	free(l.event_of);
	if (ret < 0) {
		if (!d->pft)
			pft2dat_view_close(v);
		fxt_ks_data_free(d);
	}
	return ret;
}

int fxt_ks_pft_text(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		    char **info, char **latency)
{
	int ret;

	*info = *latency = NULL;
	if (!(row->arg & FXT_KS_ROW_PFT))
		return -ENOENT;
	/* the view's records, as fxt_ks_row_args_get() reads them */
	pthread_mutex_lock(&d->lock);
	ret = pft2dat_view_text(d->pft, row->arg & ~FXT_KS_ROW_PFT, info,
				latency);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

int fxt_ks_pft_args(struct fxt_ks_data *d, const struct fxt_ks_row *row)
{
	const struct fxt_ks_event *ev = &d->events[row->event];
	struct tep_handle *tep = pft2dat_view_tep(d->pft);
	struct tep_format_field *f;
	struct tep_record rec = { 0 };
	struct tep_event *e;
	unsigned long long val;
	const void *data;
	unsigned int i;
	size_t len;
	int ret;

	if (!(row->arg & FXT_KS_ROW_PFT))
		return 0;
	ret = pft2dat_view_record(d->pft, row->arg & ~FXT_KS_ROW_PFT, &data,
				  &len);
	if (ret < 0)
		return ret;
	rec.data = (void *)data;
	rec.size = (int)len;
	e = tep_find_event_by_record(tep, &rec);
	if (!e)
		return -ENOENT;
	if (d->scratch_cap < ev->nfields) {
		struct fxt_ks_arg *a = realloc(d->scratch,
					       ev->nfields * sizeof(*a));

		if (!a)
			return -ENOMEM;
		d->scratch = a;
		d->scratch_cap = ev->nfields;
	}
	for (i = 0; i < ev->nfields; i++) {
		struct fxt_ks_arg *a = &d->scratch[i];

		memset(a, 0, sizeof(*a));
		a->field = (uint16_t)i;
		a->type = ev->fields[i].type;
		f = tep_find_field(e, ev->fields[i].name);
		if (!f)
			continue;
		if (a->type == FXT_ARG_STRING) {
			int n;
			const char *s = tep_get_field_raw(NULL, e,
							   f->name, &rec, &n,
							   0);

			a->where = FXT_KS_AT_PTR;
			a->v.u = (uintptr_t)(s ? s : "");
			a->len = s && n > 0 ? (uint32_t)strnlen(s, n) : 0;
		} else if (!tep_read_number_field(f, data, &val)) {
			a->v.u = val;
		}
	}
	return (int)ev->nfields;
}

const char *fxt_ks_pft_comm(struct fxt_ks_data *d, int32_t pid)
{
	return tep_data_comm_from_pid(pft2dat_view_tep(d->pft), pid);
}
