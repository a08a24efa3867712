// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-view.c - a Perfetto trace read for a viewer (pft2dat_view_*()):
 * the conversion's own reading, its decisions and its state, with each
 * event listed as a row instead of written, and its record built again,
 * with the rest of its bundle, when the viewer shows it.
 *
 * Building a record is most of a conversion's cost, and a viewer shows
 * a few hundred records of millions.  A record depends on the trace read
 * before it in two ways.  What the trace's metadata will hold (thread
 * names, printk strings, formats, symbols) is kept whole by the first
 * reading, which builds (and drops) only the records whose building adds
 * to it: those with a text for a field that holds its address, a printk
 * string (pft2dat-record.c).  What a bundle's events read from the
 * bundles before them (the sequence's interned symbols, the task compact
 * sched's previous task is, the .dat buffer) is kept per bundle as a
 * mark, and set again before its bundle is read a second time: the
 * records that reading builds are the .dat's, byte for byte.
 */
#include <errno.h>
#include <event-parse.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "perfetto-zip.h"
#include "pft2dat-intern.h"

/* A row's pft2dat_row.at: its bundle's mark, and its place in it. */
#define AT_BITS		24
#define AT_PLACES	(1u << AT_BITS)

/* What a bundle read from the trace before it, and where it is. */
struct pft_mark {
	uint64_t	off;		/* in the input, or in its packets */
	uint64_t	zip_off;	/* its compressed packets' + 1, or 0 */
	size_t		len;
	size_t		zip_len;
	uint64_t	seq;
	uint64_t	gen;
	int		buffer;
	unsigned int	cpu;
	struct pft_cpu	run;		/* who ran on @cpu as it began */
};

/* One rebuilt record of the bundle kept, and its place in the bundle. */
struct pft_kept {
	size_t		off, len;
	uint32_t	place;
	uint64_t	ts;
	unsigned int	cpu;
};

struct pft2dat_view {
	struct pft_ctx		c;
	struct pft2dat_opts	o;
	struct pft2dat_stats	st;
	struct fxt2dat_opts	fo;
	struct fxt2dat_stats	fst;
	struct tep_plugin_list	*plugins;
	char			err[512];
	const void		*data;
	size_t			len;
	bool			mapped;
	/* listing: the caller's function; the bundle read and its rows */
	pft2dat_row_fn		fn;
	void			*priv;
	struct pft_mark		*marks;
	size_t			nr_marks, cap_marks;
	uint32_t		place;
	/*
	 * per row of the table: whether its events' values change only
	 * their record (PLAIN_YES), 0 until asked
	 */
	uint8_t			*plain;
	/* by format id: what of an event's values its row says (SAYS_*) */
	uint8_t			*says;
	/* rebuilding: the bundle whose records are kept (its mark + 1) */
	size_t			kept_mark;
	struct pft_kept		*kept;
	size_t			nr_kept, cap_kept;
	struct f2d_text		bytes;
	uint64_t		unzipped;	/* zip_off of c.unzip, or 0 */
	struct f2d_pad		pad;		/* the record shown */
	struct trace_seq	s;
};

/* The view @c is the context of. */
static struct pft2dat_view *view_of(struct pft_ctx *c)
{
	return (struct pft2dat_view *)((char *)c -
				       offsetof(struct pft2dat_view, c));
}

static int view_bundle(struct pft_ctx *c, const uint8_t *p, size_t len,
		       unsigned int cpu)
{
	struct pft2dat_view *v = view_of(c);
	struct pft_cpu *run;
	struct pft_mark *m;

	v->place = 0;
	if (!c->listing)
		return 0;
	if (v->nr_marks == v->cap_marks) {
		size_t cap = v->cap_marks ? 2 * v->cap_marks : 1024;

		m = realloc(v->marks, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		v->marks = m;
		v->cap_marks = cap;
	}
	run = pft_sched_cpu(c, cpu);
	if (!run)
		return -ENOMEM;
	m = &v->marks[v->nr_marks++];
	memset(m, 0, sizeof(*m));
	if (c->in_zip) {
		m->off = (uint64_t)(p - c->unzip.p);
		m->zip_off = (uint64_t)(c->zip_p - (const uint8_t *)v->data) + 1;
		m->zip_len = c->zip_len;
	} else {
		m->off = (uint64_t)(p - (const uint8_t *)v->data);
	}
	m->len = len;
	m->seq = c->cur_seq;
	m->gen = u64_map_get(&c->seq_gen, c->cur_seq);
	m->buffer = c->buffer;
	m->cpu = cpu;
	m->run = *run;
	return 0;
}

/* The row's @at, and the next place; -E2BIG past AT_PLACES. */
static int place_next(struct pft2dat_view *v, uint64_t *at)
{
	if (v->place >= AT_PLACES)
		return -E2BIG;
	*at = (uint64_t)(v->nr_marks - 1) << AT_BITS | v->place++;
	return 0;
}

static int view_lost(struct pft_ctx *c, int buffer, unsigned int cpu,
		     uint64_t ts, int64_t count)
{
	struct pft2dat_view *v = view_of(c);
	struct pft2dat_row row = {
		.ts = ts, .at = PFT2DAT_AT_NONE, .bundle = v->nr_marks - 1,
		.cpu = cpu, .buffer = (unsigned int)buffer, .event = -1,
		.lost = count < 0 ? -1 : count,
		.next_pid = -1, .woken_pid = -1,
	};

	return v->fn(v->priv, &row);
}

/* The integer value named @name (a string literal), or @def. */
#define int_of(ev, name, def)	int_or(pft_val_named(ev, name), def)

static inline int64_t int_or(const struct pft_val *v, int64_t def)
{
	if (!v || (v->kind != PFT_V_INT && v->kind != PFT_V_UINT))
		return def;
	return (int64_t)v->v;
}

/* What a viewer draws scheduling by: sched_events' fields. */
enum { SAYS_UNKNOWN, SAYS_NONE, SAYS_SWITCH, SAYS_PID };

static int says_of(struct pft2dat_view *v, const struct f2d_format *f)
{
	int says;

	if (v->says && v->says[f->id] != SAYS_UNKNOWN)
		return v->says[f->id];
	says = strcmp(f->system, "sched") ? SAYS_NONE :
	       !strcmp(f->name, "sched_switch") ? SAYS_SWITCH : SAYS_PID;
	if (!v->says)
		v->says = calloc(PFT2DAT_EVENT_IDS, 1);
	if (v->says)
		v->says[f->id] = (uint8_t)says;
	return says;
}

static int view_row(struct pft_ctx *c, const struct pft_ev *ev,
		    const struct f2d_format *f, int buffer)
{
	struct pft2dat_view *v = view_of(c);
	struct pft2dat_row row = {
		.ts = ev->ts, .bundle = v->nr_marks - 1, .pid = ev->pid,
		.cpu = ev->cpu,
		.buffer = (unsigned int)buffer, .event = f->id,
		.system = f->system, .name = f->name,
		.next_pid = -1, .woken_pid = -1,
	};
	int ret, says;

	/* counted alike while listing and rebuilding: the records' keys */
	ret = place_next(v, &row.at);
	if (ret < 0 || !c->listing)
		return ret;
	/* a row of a format with a higher id (pft2dat.h) is none */
	if (f->id < 0 || f->id >= PFT2DAT_EVENT_IDS)
		return 0;
	v->st.events_out++;
	says = says_of(v, f);
	if (says == SAYS_SWITCH) {
		row.next_pid = (int32_t)int_of(ev, "next_pid", -1);
		row.prev_state = int_of(ev, "prev_state", 0);
	} else if (says == SAYS_PID) {
		row.woken_pid = (int32_t)int_of(ev, "pid", -1);
	}
	return v->fn(v->priv, &row);
}

enum { PLAIN_YES = 1, PLAIN_NO = 2 };

static bool ends_in(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && !memcmp(s + n - t, tail, t);
}

/*
 * Whether the values of @d's events change nothing but their records:
 * no text (a comm names a task, a kernel string becomes a printk
 * string), nothing the scheduling boxes are drawn by (sched events).
 */
static bool row_plain(const struct pft_event_def *d)
{
	unsigned int i;

	if (d->slen == 5 && !memcmp(d->system, "sched", 5))
		return false;
	for (i = 0; i < d->nr_fields; i++)
		if (d->fields[i].type == PFT_T_STRING ||
		    d->fields[i].type == PFT_T_KSTR ||
		    ends_in(d->fields[i].name, d->fields[i].nlen, "comm"))
			return false;
	return true;
}

static int view_listed(struct pft_ctx *c, struct pft_ev *ev,
		       unsigned int idx, const struct pb_field *msg)
{
	struct pft2dat_view *v = view_of(c);
	/* a converted trace.dat's: the .dat's own event, its residue's */
	const struct pft_res_decl *rd = c->res.cur;
	struct pft_fmt *pf = rd ? rd->pf : c->typed ? c->typed[idx] : NULL;
	int buffer = rd ? rd->buffer : c->buffer;
	struct pb_reader r;
	struct pb_field f;
	int ret;

	/* the first event of a row chooses its format: read it whole */
	if (!pf && !rd)
		return 0;
	if (!v->plain) {
		v->plain = calloc(pft_nr_events, 1);
		if (!v->plain)
			return -ENOMEM;
	}
	if (!v->plain[idx])
		v->plain[idx] = row_plain(&pft_events[idx]) ? PLAIN_YES :
							      PLAIN_NO;
	if (v->plain[idx] != PLAIN_YES)
		return 0;
	/* nor a .dat event scheduling is drawn by */
	if (pf && pf->f && pf->f->id >= 0 && pf->f->id < PFT2DAT_EVENT_IDS &&
	    says_of(v, pf->f) != SAYS_NONE)
		return 0;
	/* typed_event()'s verdict on the message, without its values */
	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0)
		;
	if (ret < 0)
		return -EBADMSG;
	/* as pft_record_write() for a residue's event */
	if (rd) {
		ret = pft_record_lost(c, buffer, ev->cpu, ev->ts);
		if (ret < 0)
			return ret;
	}
	if (!pf || !pf->f) {
		c->st->dropped++;
		return 1;
	}
	ret = view_row(c, ev, pf->f, buffer);
	if (ret < 0)
		return ret;
	pf->count++;
	return 1;
}

/*
 * f2d's sink: while listing, the records built for their metadata are
 * dropped; while rebuilding, each is kept, in its bundle's order.
 */
static int view_sink(struct f2d_ctx *x, int buffer, unsigned int cpu,
		     uint64_t ts, const void *data, size_t len)
{
	struct pft2dat_view *v = x->sink_priv;
	struct pft_kept *k;

	(void)buffer;
	if (v->c.listing)
		return 0;
	if (v->nr_kept == v->cap_kept) {
		size_t cap = v->cap_kept ? 2 * v->cap_kept : 256;

		k = realloc(v->kept, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		v->kept = k;
		v->cap_kept = cap;
	}
	k = &v->kept[v->nr_kept++];
	k->place = v->place - 1;
	k->off = v->bytes.len;
	k->len = len;
	k->ts = ts;
	k->cpu = cpu;
	return f2d_text_add(&v->bytes, data, len);
}

static const struct pft_viewer viewer = {
	.bundle	= view_bundle,
	.lost	= view_lost,
	.row	= view_row,
	.listed	= view_listed,
};

/* The libtraceevent handle, set up as libtracecmd's for a .dat. */
static int tep_prepare(struct pft2dat_view *v)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return -ENOMEM;
	v->c.f2d.tep = tep;
	/* plugins first: their handlers wait for their events' formats */
	v->plugins = tep_load_plugins(tep);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
							  TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	return 0;
}

/* What the .dat says before its first event: into the handle, once. */
static void tep_complete(struct pft2dat_view *v)
{
	struct f2d_ctx *x = &v->c.f2d;
	size_t i;

	tep_set_cpus(x->tep, (int)x->cpus);
	if (x->kallsyms.len)
		tep_parse_kallsyms(x->tep, x->kallsyms.s);
	if (x->printk.len)
		tep_parse_printk_formats(x->tep, x->printk.s);
	/* the .dat's cmdlines, in the order fxt2dat-out.c writes them */
	for (i = 0; i < x->names.cap; i++)
		if (x->names.slot[i].val)
			tep_register_comm(x->tep, (const char *)(uintptr_t)
					  x->names.slot[i].val,
					  (int)x->names.slot[i].key);
	/*
	 * libtraceevent sorts the names into a table at its first lookup;
	 * only from then on does it refuse another name for a pid it has
	 * (tep_register_comm() before that adds a second one, which the
	 * lookup may find).  A .dat's names are sorted before its first
	 * record is printed, so that sched_switch's plugin, which
	 * registers the names in the records it prints, never overrides
	 * them: so here (a lookup of any pid but 0, the idle task's, which
	 * needs no table).
	 */
	tep_is_pid_registered(x->tep, 1);
}

int pft2dat_view_open(const char *in, const struct pft2dat_opts *o,
		      pft2dat_row_fn fn, void *priv, struct pft2dat_stats *st,
		      struct pft2dat_view **out, char *err, size_t errlen)
{
	struct pft2dat_view *v;
	struct pft_ctx *c;
	int ret;

	*out = NULL;
	memset(st, 0, sizeof(*st));
	err[0] = '\0';
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	trace_seq_init(&v->s);
	v->o = *o;
	v->fn = fn;
	v->priv = priv;
	c = &v->c;
	c->o = &v->o;
	c->st = &v->st;
	c->viewer = &viewer;
	c->listing = true;
	c->f2d.fd = -1;
	c->f2d.opts = &v->fo;
	c->f2d.st = &v->fst;
	c->f2d.errbuf = v->err;
	c->f2d.errlen = sizeof(v->err);
	c->f2d.next_id = F2D_FIRST_ID;
	c->f2d.page_size = 4096;
	c->f2d.info_long_size = 8;
	c->f2d.sink = view_sink;
	c->f2d.sink_priv = v;
	ret = pft_input_load(c, in, &v->data, &v->len, &v->mapped, err,
			     errlen);
	if (ret < 0) {
		v->data = NULL;
		goto fail;
	}
	if (!pft2dat_sniff(v->data, v->len < PFT2DAT_SNIFF_LEN ? v->len :
			   PFT2DAT_SNIFF_LEN)) {
		snprintf(err, errlen, "%s is no Perfetto trace (no packet at "
			 "its start)", in);
		ret = -EINVAL;
		goto fail;
	}
	ret = tep_prepare(v);
	if (!ret)
		ret = pft_read(c, v->data, v->len);
	if (ret < 0)
		goto fail;
	c->listing = false;
	/* the formats are all parsed: the child that tried them ends */
	f2d_formats_settled(&c->f2d);
	tep_complete(v);
	v->st.cpus = c->f2d.cpus;
	*st = v->st;
	*out = v;
	return 0;

fail:
	if (!err[0])
		snprintf(err, errlen, "reading %s failed: %s", in,
			 v->err[0] ? v->err : strerror(-ret));
	*st = v->st;
	pft2dat_view_close(v);
	return ret;
}

struct tep_handle *pft2dat_view_tep(struct pft2dat_view *v)
{
	return v->c.f2d.tep;
}

unsigned int pft2dat_view_cpus(const struct pft2dat_view *v)
{
	return v->c.f2d.cpus;
}

const char *pft2dat_view_buffer(const struct pft2dat_view *v, unsigned int i)
{
	const struct f2d_ctx *x = &v->c.f2d;

	if (!i)
		return "";
	return i < x->nr_bufs ? x->buf_names[i] : NULL;
}

/* Read the bundle of mark @i again, each record kept. */
static int rebuild(struct pft2dat_view *v, size_t i)
{
	const struct pft_mark *m = &v->marks[i];
	struct pft_ctx *c = &v->c;
	const uint8_t *p = v->data;
	struct pft_cpu *run;
	uint64_t *gen;
	size_t have = v->len;
	int ret;

	v->kept_mark = 0;
	v->nr_kept = 0;
	v->bytes.len = 0;
	if (m->zip_off) {
		if (v->unzipped != m->zip_off) {
			v->unzipped = 0;
			ret = pft_unzip(p + m->zip_off - 1, m->zip_len,
					&c->unzip);
			/* a stream cut short: the first reading took as much */
			if (ret < 0 && ret != -ENODATA)
				return ret;
			v->unzipped = m->zip_off;
		}
		p = c->unzip.p;
		have = c->unzip.len;
	}
	if (m->off > have || m->len > have - m->off)
		return -EFAULT;
	c->cur_seq = m->seq;
	/* the buffer first: each has its own CPUs' running tasks */
	c->buffer = m->buffer;
	gen = u64_map_put(&c->seq_gen, m->seq);
	run = pft_sched_cpu(c, m->cpu);
	if (!gen || !run)
		return -ENOMEM;
	*gen = m->gen;
	*run = m->run;
	c->in_zip = m->zip_off != 0;
	ret = pft_event_bundle(c, p + m->off, m->len);
	c->in_zip = false;
	if (ret < 0)
		return ret;
	v->kept_mark = i + 1;
	return 0;
}

/* The kept record of @at; NULL when there is none. */
static const struct pft_kept *kept_of(struct pft2dat_view *v, uint64_t at,
				      int *err)
{
	size_t mark = (size_t)(at >> AT_BITS);
	size_t place = (size_t)(at & (AT_PLACES - 1));

	size_t lo = 0, hi;

	*err = -ENOENT;
	if (mark >= v->nr_marks)
		return NULL;
	if (v->kept_mark != mark + 1) {
		*err = rebuild(v, mark);
		if (*err < 0)
			return NULL;
		*err = -ENOENT;
	}
	/* in place order; a place whose record was not built has none */
	if (place < v->nr_kept && v->kept[place].place == place)
		return &v->kept[place];
	hi = v->nr_kept;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->kept[mid].place < place)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->nr_kept && v->kept[lo].place == place ?
	       &v->kept[lo] : NULL;
}

/* The record of @at, padded as a page holds it, in @rec. */
static int record_of(struct pft2dat_view *v, uint64_t at,
		     struct tep_record *rec)
{
	const struct pft_kept *k;
	int err;

	k = kept_of(v, at, &err);
	if (!k)
		return err;
	return f2d_pad_record(&v->pad, v->c.f2d.tep, rec, k->cpu, k->ts,
			      v->bytes.s + k->off, k->len);
}

int pft2dat_view_record(struct pft2dat_view *v, uint64_t at,
			const void **data, size_t *len)
{
	struct tep_record rec;
	int ret = record_of(v, at, &rec);

	if (ret < 0)
		return ret;
	*data = rec.data;
	*len = v->pad.used;
	return 0;
}

int pft2dat_view_text(struct pft2dat_view *v, uint64_t at, char **info,
		      char **latency)
{
	struct tep_record rec;
	int ret;

	*info = *latency = NULL;
	ret = record_of(v, at, &rec);
	if (ret < 0)
		return ret;
	f2d_record_texts(v->c.f2d.tep, &v->s, &rec, info, latency);
	return 0;
}

void pft2dat_view_close(struct pft2dat_view *v)
{
	if (!v)
		return;
	if (v->plugins)
		tep_unload_plugins(v->plugins, v->c.f2d.tep);
	pft_ctx_free(&v->c);
	if (v->data)
		pft_input_free(v->data, v->len, v->mapped);
	free(v->marks);
	free(v->plain);
	free(v->says);
	free(v->kept);
	f2d_text_free(&v->bytes);
	f2d_pad_free(&v->pad);
	trace_seq_destroy(&v->s);
	free(v);
}
