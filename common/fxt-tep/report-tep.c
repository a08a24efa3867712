// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-tep.c - FXT made from a .dat, printed as trace-cmd report prints
 * the .dat: each ftrace instant rebuilt into its raw record (fxt2dat's
 * rebuilding, fed record by record) and handed to libtraceevent.
 *
 * The tep handle is prepared as libtracecmd prepares the one of a .dat it
 * opens, so that the same code prints the same record the same way:
 * plugins loaded before any format is parsed (their handlers wait for
 * their events), long size from the file, then the header page, the
 * formats, kallsyms, printk formats and saved cmdlines.  All of these
 * must be in place before the first event is printed: libtraceevent sorts
 * symbols and cmdlines on first lookup and does not re-sort for symbols
 * added later, and sched_switch's plugin registers task names from the
 * records it prints, which must not pre-empt the file's own names.  The
 * FXT spreads them through the file, next to the events that need them,
 * hence a first pass that feeds only them (and the task names) to the
 * fxt2dat context; the second pass feeds the events to the same context,
 * whose formats are then already parsed in the tep.
 *
 * KernelShark's plugin (kernelshark-plugin/) decodes the file in its own
 * single pass: it gathers record by record (report_tep_gather) and asks
 * for one event's info and latency text at a time, when a row is shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "fxt-format.h"
#include "fxt2dat.h"
#include "fxt-tep.h"
#include "tcfxt.h"


struct provider_usecs {
	uint32_t	provider_id;
	bool		in_usecs;
};

struct report_tep {
	struct f2d_ctx		ctx;
	struct fxt2dat_stats	st;
	struct tep_handle	*tep;
	struct tep_plugin_list	*plugins;
	struct trace_seq	s;
	report_line_fn		fn;
	void			*priv;
	struct f2d_pad		pad;		/* the record printed */
	struct provider_usecs	*usecs;		/* time column, by provider */
	size_t			nr_usecs;
	bool			long_set;
	bool			feeding;	/* ".cont"s go to the context */
	bool			skipping;	/* ".cont"s of carried metadata */
	bool			gather_cont;	/* ".cont"s: gathered */
	bool			raw;		/* fields as -R prints them */
	char			err[256];
};

static bool is_cont(const struct fxt_event *ev)
{
	return ev->type == FXT_EVENT_INSTANT &&
	       tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX);
}

static bool is_trace_cmd(const struct fxt_event *ev)
{
	return ev->type == FXT_EVENT_INSTANT &&
	       tcfxt_is_meta(ev->category);
}

static bool in_usecs(struct report_tep *t, uint32_t provider_id)
{
	size_t i;

	for (i = 0; i < t->nr_usecs; i++)
		if (t->usecs[i].provider_id == provider_id)
			return t->usecs[i].in_usecs;
	return true;	/* libtracecmd's default */
}

static int note_file_info(struct report_tep *t, const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	struct provider_usecs *u;
	unsigned int i;

	for (i = 0; i < ev->nargs; i++)
		if (fxt_str_eq(ev->args[i].name, TCFXT_INFO_IN_USECS))
			break;
	if (i == ev->nargs)
		return 0;
	u = realloc(t->usecs, (t->nr_usecs + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	t->usecs = u;
	u[t->nr_usecs].provider_id = rec->provider_id;
	switch (ev->args[i].type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
		u[t->nr_usecs].in_usecs = ev->args[i].u32 != 0;
		break;
	case FXT_ARG_BOOL:
		u[t->nr_usecs].in_usecs = ev->args[i].b;
		break;
	default:
		u[t->nr_usecs].in_usecs = ev->args[i].u64 != 0;
	}
	t->nr_usecs++;
	return 0;
}

/* The buffer that fxt2dat made of provider @id, or NULL. */
static struct f2d_prov *prov_of(struct report_tep *t, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < t->ctx.nr_provs; i++)
		if (t->ctx.provs[i].id == id)
			return &t->ctx.provs[i];
	return NULL;
}

static uint32_t provider_of_buffer(struct report_tep *t, int buffer)
{
	unsigned int i;

	for (i = 0; i < t->ctx.nr_provs; i++)
		if (t->ctx.provs[i].buffer == buffer)
			return t->ctx.provs[i].id;
	return 0;
}

/*
 * Zeros kept after every record handed to libtraceevent.  It trusts a
 * record's text to end in a NUL and its __data_loc and __rel_loc fields
 * (16-bit offset and length, a relative one from the end of a field that
 * lies in the first 64 KiB) to point into it; a damaged file's records
 * need neither: what they point at is then zeros, never another
 * allocation.
 */
#define RECORD_SLACK	(3 * 65536 + 16)

/* Do @event's common fields lie in a record of @size bytes? */
static bool common_fits(struct tep_event *event, size_t size)
{
	struct tep_format_field **fl = tep_event_common_fields(event);
	bool fits = fl != NULL;
	unsigned int i;

	for (i = 0; fl && fl[i]; i++)
		if (fl[i]->offset < 0 || fl[i]->size < 0 ||
		    (size_t)fl[i]->offset + (size_t)fl[i]->size > size)
			fits = false;
	free(fl);
	return fits;
}

/*
 * Can libtraceevent read the record of @data's event without reading past
 * it?  It finds every record's event through the common_type field of
 * the first event it holds, and reads the common fields for the latency
 * flags: a file whose formats disagree there (only a damaged or hostile
 * one) would make it read elsewhere.  The event's own fields lie in the
 * record (fxt2dat built it from its format).
 */
static bool record_fits(struct tep_handle *tep, const void *data,
			size_t size)
{
	struct tep_format_field *a, *b;
	struct tep_event *first, *event;
	unsigned long long id;

	first = tep_get_event(tep, 0);
	if (!data || !size || !first || !common_fits(first, size))
		return false;
	a = tep_find_common_field(first, "common_type");
	if (!a || (a->size != 1 && a->size != 2 && a->size != 4 &&
		   a->size != 8) || tep_read_number_field(a, data, &id))
		return false;
	event = tep_find_event(tep, (int)id);
	if (!event || !common_fits(event, size))
		return false;
	b = tep_find_common_field(event, "common_type");
	return b && a->offset == b->offset && a->size == b->size;
}

int f2d_pad_record(struct f2d_pad *p, struct tep_handle *tep,
		   struct tep_record *rec, unsigned int cpu, uint64_t ts,
		   const void *data, size_t len)
{
	size_t size = (len + 3) & ~(size_t)3;

	/* not even a common_type: nothing libtraceevent could read */
	if (!len)
		return -EINVAL;
	if (size + RECORD_SLACK > p->cap) {
		uint8_t *n = realloc(p->data, size + RECORD_SLACK);

		if (!n)
			return -ENOMEM;
		memset(n + p->cap, 0, size + RECORD_SLACK - p->cap);
		p->data = n;
		p->cap = size + RECORD_SLACK;
	}
	memcpy(p->data, data, len);
	/* zero again what the last record wrote past this one */
	if (p->used > len)
		memset(p->data + len, 0, p->used - len);
	p->used = len;
	if (!record_fits(tep, p->data, size))
		return -EINVAL;
	memset(rec, 0, sizeof(*rec));
	rec->ts = ts;
	rec->cpu = (int)cpu;
	rec->size = (int)size;
	rec->data = p->data;
	rec->record_size = (int)size;
	return 0;
}

void f2d_pad_free(struct f2d_pad *p)
{
	free(p->data);
	memset(p, 0, sizeof(*p));
}

/*
 * One rebuilt record, printed in trace_show_data()'s default layout:
 * comm-pid [cpu] time: name: (padded to 20) info, or its fields raw.
 */
static int print_record(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
			uint64_t ts, const void *data, size_t len)
{
	static const char spaces[] = "                    ";
	struct report_tep *t = ctx->sink_priv;
	uint32_t provider_id = provider_of_buffer(t, buffer);
	struct tep_record rec;
	struct tep_event *event;
	size_t n;
	int ret;

	ret = f2d_pad_record(&t->pad, t->tep, &rec, cpu, ts, data, len);
	if (ret < 0)
		return ret;
	trace_seq_reset(&t->s);
	tep_print_event(t->tep, &t->s, &rec, "%16s-%-5d [%03d]",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU);
	tep_print_event(t->tep, &t->s, &rec,
			in_usecs(t, provider_id) ? " %6.1000d:" : "%12d:",
			TEP_PRINT_TIME);
	event = tep_find_event_by_record(t->tep, &rec);
	n = event ? strlen(event->name) : 6;
	trace_seq_printf(&t->s, " %s: ", event ? event->name : "(NULL)");
	if (n < 20)
		trace_seq_printf(&t->s, "%.*s", (int)(20 - n), spaces);
	tep_print_event(t->tep, &t->s, &rec, "%s",
			t->raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	trace_seq_terminate(&t->s);
	if (t->s.state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	n = t->s.len;
	/* trace-cmd ends the line itself: one newline of the text goes */
	if (n && t->s.buffer[n - 1] == '\n')
		n--;
	t->fn(t->priv, provider_id, t->s.buffer, n);
	return 0;
}

static int feed(struct report_tep *t, struct fxt_reader *rd,
		const struct fxt_record *rec)
{
	int ret;

	t->ctx.r = rd;
	ret = fxt2dat_feed(&t->ctx, rec);
	if (ret < 0 && !t->err[0])
		snprintf(t->err, sizeof(t->err), "rebuilding records: %s",
			 strerror(-ret));
	return ret;
}

static int gather_step(struct report_tep *t, struct fxt_reader *rd,
		       const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	int ret;

	if (rec->type == FXT_REC_KERNEL_OBJ)
		return feed(t, rd, rec);
	if (rec->type != FXT_REC_EVENT || ev->type != FXT_EVENT_INSTANT)
		return 0;
	if (is_cont(ev))
		return t->gather_cont ? feed(t, rd, rec) : 0;
	/* lost events are the second pass's */
	t->gather_cont = is_trace_cmd(ev) &&
			 !fxt_str_eq(ev->name, TCFXT_LOST_EVENTS);
	if (!t->gather_cont)
		return 0;
	ret = feed(t, rd, rec);
	if (ret >= 0 && fxt_str_eq(ev->name, TCFXT_FILE_INFO))
		ret = note_file_info(t, rec);
	if (ret < 0)
		return ret;
	/* records are rebuilt in the source's byte order */
	tep_set_file_bigendian(t->tep, t->ctx.info_big ? TEP_BIG_ENDIAN :
							  TEP_LITTLE_ENDIAN);
	/* formats parsed from here on see the file's long size */
	if (!t->long_set && t->ctx.info_long_size) {
		tep_set_long_size(t->tep, t->ctx.info_long_size);
		t->long_set = true;
	}
	return 0;
}

/*
 * First pass: what the tep needs before any event is printed - the
 * carried trace-cmd metadata with its continuations, and task names.
 */
static int gather(struct report_tep *t, const char *path)
{
	struct fxt_reader *rd = fxt_reader_open(path, 0);
	struct fxt_record rec;
	int ret;

	if (!rd)
		return -errno;
	while ((ret = fxt_reader_next(rd, &rec)) > 0) {
		ret = gather_step(t, rd, &rec);
		if (ret < 0)
			break;
	}
	if (ret == 0) {
		t->ctx.r = rd;
		ret = fxt2dat_feed_flush(&t->ctx);
	}
	t->ctx.r = NULL;
	fxt_reader_close(rd);
	return ret;
}

/* The rest of what libtracecmd reads before the first record. */
static void head_complete(struct report_tep *t)
{
	struct f2d_ctx *c = &t->ctx;
	size_t i;

	if (c->info_cpus)
		tep_set_cpus(t->tep, c->info_cpus);
	if (c->header_page.len)
		tep_parse_header_page(t->tep, c->header_page.s,
				      c->header_page.len,
				      c->info_long_size ? c->info_long_size :
				      (int)sizeof(long));
	if (c->kallsyms.len)
		tep_parse_kallsyms(t->tep, c->kallsyms.s);
	if (c->printk.len)
		tep_parse_printk_formats(t->tep, c->printk.s);
	for (i = 0; i < c->names.cap; i++)
		if (c->names.slot[i].val)
			tep_register_comm(t->tep, (const char *)(uintptr_t)
					  c->names.slot[i].val,
					  (int)c->names.slot[i].key);
}

static bool has_carried_formats(struct report_tep *t)
{
	unsigned int i;

	for (i = 0; i < t->ctx.nr_fmts; i++)
		if (t->ctx.fmt_list[i]->restored)
			return true;
	return false;
}

struct report_tep *report_tep_new(report_line_fn fn, void *priv)
{
	struct report_tep *t;
	struct tep_handle *tep;

	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fn = fn;
	t->priv = priv;
	trace_seq_init(&t->s);
	tep = tep_alloc();
	if (!tep) {
		trace_seq_destroy(&t->s);
		free(t);
		return NULL;
	}
	t->tep = tep;
	/*
	 * As libtracecmd: plugins first (libtraceevent's search path, with
	 * $TRACEEVENT_PLUGIN_DIR), then the byte orders; fxt2dat lays
	 * records out in the source's (little endian until a file_info
	 * says big, gather_step()).
	 */
	t->plugins = tep_load_plugins(tep);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
							  TEP_LITTLE_ENDIAN);
	fxt2dat_feed_init(&t->ctx, tep, print_record, t, &t->st, t->err,
			  sizeof(t->err));
	return t;
}

int report_tep_gather(struct report_tep *t, struct fxt_reader *rd,
		      const struct fxt_record *rec)
{
	int ret = gather_step(t, rd, rec);

	t->ctx.r = NULL;
	return ret;
}

int report_tep_ready(struct report_tep *t, struct fxt_reader *rd)
{
	int ret;

	t->ctx.r = rd;
	ret = fxt2dat_feed_flush(&t->ctx);
	t->ctx.r = NULL;
	if (ret < 0)
		return ret;
	f2d_formats_settled(&t->ctx);
	t->gather_cont = false;
	if (!has_carried_formats(t))
		return -ENODATA;
	head_complete(t);
	return 0;
}

struct report_tep *report_tep_open(const char *path, report_line_fn fn,
				   void *priv)
{
	struct report_tep *t;
	struct stat st;
	int ret;

	/* two passes: a pipe can be read only once */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	t = report_tep_new(fn, priv);
	if (!t)
		return NULL;
	ret = gather(t, path);
	if (ret < 0 || !has_carried_formats(t)) {
		report_tep_close(t);
		errno = ret < 0 ? -ret : 0;
		return NULL;
	}
	head_complete(t);
	return t;
}

void report_tep_raw(struct report_tep *t)
{
	t->raw = true;
}

/* @seq's text, one final newline dropped; NULL when empty. */
static char *seq_take(struct trace_seq *seq)
{
	size_t n;
	char *s;

	trace_seq_terminate(seq);
	if (seq->state != TRACE_SEQ__GOOD)
		return NULL;
	n = seq->len;
	if (n && seq->buffer[n - 1] == '\n')
		n--;
	if (!n)
		return NULL;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, seq->buffer, n);
	s[n] = '\0';
	return s;
}

void f2d_record_texts(struct tep_handle *tep, struct trace_seq *s,
		      struct tep_record *rec, char **info, char **latency)
{
	trace_seq_reset(s);
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_LATENCY);
	*latency = seq_take(s);
	trace_seq_reset(s);
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	*info = seq_take(s);
}

int report_tep_event_text(struct report_tep *t, const struct fxt_event *ev,
			  uint64_t ts, char **info, char **latency)
{
	struct f2d_ctx *c = &t->ctx;
	struct tep_record rec;
	struct f2d_format *f;
	int ret;

	*info = NULL;
	*latency = NULL;
	if (!tcfxt_is_ftrace(ev))
		return -ENOENT;
	f = f2d_format_find(c, ev->category.ptr, ev->category.len,
			    ev->name.ptr, ev->name.len);
	if (!f || !f->restored || f->no_print)
		return -ENOENT;
	/* fxt2dat's rebuilding, without its sink: the record stays here */
	ret = f2d_rec_begin(c, f, (int32_t)ev->thread.tid);
	if (ret < 0)
		return ret;
	c->rec_fmt = f;
	c->rec_field = 0;
	ret = f2d_ftrace_args(c, ev->args + 1, ev->nargs - 1);
	if (ret < 0)
		return ret;
	ret = f2d_pad_record(&t->pad, t->tep, &rec, ev->args[0].u32, ts,
			     c->rec.data, c->rec.len);
	if (ret < 0)
		return ret;
	f2d_record_texts(t->tep, &t->s, &rec, info, latency);
	return 0;
}

int report_tep_take(struct report_tep *t, struct fxt_reader *rd,
		    const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	struct f2d_format *f;
	struct f2d_prov *p;

	if (rec->type != FXT_REC_EVENT)
		return 0;
	if (is_cont(ev)) {
		if (t->feeding)
			return feed(t, rd, rec) < 0 ? -EIO : 1;
		return t->skipping;
	}
	t->feeding = false;
	t->skipping = false;
	if (ev->type != FXT_EVENT_INSTANT)
		return 0;
	if (is_trace_cmd(ev)) {
		/* the caller's: the header line and dropped-events lines */
		if (fxt_str_eq(ev->name, TCFXT_FILE_INFO) ||
		    fxt_str_eq(ev->name, TCFXT_LOST_EVENTS))
			return 0;
		/* the rest is in the tep since the first pass */
		t->skipping = true;
		return 1;
	}
	/* an ftrace event of a buffer made from a .dat, format carried */
	p = prov_of(t, rec->provider_id);
	if (!p || !p->ftrace || !tcfxt_is_ftrace(ev))
		return 0;
	f = f2d_format_find(&t->ctx, ev->category.ptr, ev->category.len,
			    ev->name.ptr, ev->name.len);
	if (!f || !f->restored)
		return 0;
	t->feeding = true;
	return feed(t, rd, rec) < 0 ? -EIO : 1;
}

int report_tep_flush(struct report_tep *t)
{
	int ret;

	if (!t || t->ctx.pending == F2D_PEND_NONE)
		return 0;
	ret = fxt2dat_feed_flush(&t->ctx);
	if (ret < 0 && !t->err[0])
		snprintf(t->err, sizeof(t->err), "printing: %s",
			 strerror(-ret));
	return ret;
}

const char *report_tep_error(struct report_tep *t)
{
	return t && t->err[0] ? t->err : "failed";
}

void report_tep_close(struct report_tep *t)
{
	if (!t)
		return;
	/* plugins unregister their handlers: the tep must still be there */
	tep_unload_plugins(t->plugins, t->tep);
	fxt2dat_feed_free(&t->ctx);	/* and the tep with it */
	trace_seq_destroy(&t->s);
	f2d_pad_free(&t->pad);
	free(t->usecs);
	free(t);
}
