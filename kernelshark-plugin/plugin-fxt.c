// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin-fxt.c - plugin-fxt.so, a KernelShark 2.x data readout plugin for
 * Fuchsia Trace Format files: `kernelshark -p plugin-fxt.so trace.fxt`,
 * and the plot plugin that draws their task plots' scheduling boxes.
 * Perfetto's own recordings (trace.pftrace), and the FXT files
 * `trace-fxt convert` writes by default, whose events are their packets
 * alone, it shows as the trace.dat `trace-fxt convert` makes of them,
 * read from their packets (fxt-ks-pft.c).
 *
 * The file is decoded once when the stream opens (fxt-ks-load.c); the
 * generic stream interface below answers from the decoded tables.  An
 * entry's offset is the index of its row, which is how the info column,
 * the fields and a plugin-touched pid or event id are found again.  The
 * plot part (fxt-ks-sched.c, fxt-ks-sched-draw.cpp) is KernelShark's
 * sched_events for FXT streams; its entry points are at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark-tepdata.h"

#include "plugin-fxt.h"
#include "fxt-ks.h"
#include "fxt-ks-sched.h"
#include "fxt-zio.h"
#include "pft2dat.h"
#include "tcfxt.h"

/*
 * The decoded file, shared by the streams it is shown as.  KernelShark
 * opens each ftrace buffer of a .dat as a stream of its own
 * (kshark_tep_init_all_buffers()); a converted file's buffers are
 * streams too, the top buffer's (and any other producer's records) the
 * one KernelShark opened.
 */
struct fxt_ks_shared {
	struct fxt_ks_data	d;
	unsigned int		refs;
	/* the record libtraceevent prints is rebuilt in d: one at a time */
	pthread_mutex_t		text_lock;
	/* per provider, the stream its rows are in (0: the opened one) */
	uint16_t		*slot;
	unsigned int		nslots;
};

/* What a stream's interface handle is: its part of the shared file. */
struct fxt_ks_view {
	struct fxt_ks_shared	*sh;
	unsigned int		slot;
	size_t			nrows;	/* rows in it */
	/* the plot part was offered to this (buffer) stream once */
	bool			plot_offered;
};

static struct fxt_ks_view *stream_view(struct kshark_data_stream *stream)
{
	struct kshark_generic_stream_interface *iface = stream->interface;

	return iface ? iface->handle : NULL;
}

static struct fxt_ks_data *stream_data(struct kshark_data_stream *stream)
{
	struct fxt_ks_view *v = stream_view(stream);

	return v ? &v->sh->d : NULL;
}

static bool in_view(const struct fxt_ks_view *v, const struct fxt_ks_row *row)
{
	return v->sh->slot[row->provider] == v->slot;
}

/* The event id KernelShark sees for a row. */
static int row_event_id(const struct fxt_ks_data *d,
			const struct fxt_ks_row *row)
{
	return d->events[row->event].missed ? KS_EVENT_OVERFLOW : row->event;
}

static const struct fxt_ks_row *entry_row(const struct fxt_ks_data *d,
					  const struct kshark_entry *entry)
{
	if (!d || entry->offset < 0 || (uint64_t)entry->offset >= d->nrows)
		return NULL;
	return &d->rows[entry->offset];
}

/*
 * KernelShark asks with probe entries that carry only a pid or an event
 * id, so those are trusted unless a plugin has rewritten the entry.
 */
static int fxt_get_pid(struct kshark_data_stream *stream,
			     const struct kshark_entry *entry)
{
	const struct fxt_ks_row *row;

	if (entry->visible & KS_PLUGIN_UNTOUCHED_MASK)
		return entry->pid;
	row = entry_row(stream_data(stream), entry);
	return row ? row->pid : KS_EMPTY_BIN;
}

static int fxt_get_event_id(struct kshark_data_stream *stream,
				  const struct kshark_entry *entry)
{
	const struct fxt_ks_row *row;
	struct fxt_ks_data *d;

	if (entry->visible & KS_PLUGIN_UNTOUCHED_MASK)
		return entry->event_id;
	d = stream_data(stream);
	row = entry_row(d, entry);
	return row ? row_event_id(d, row) : -EFAULT;
}

static const struct fxt_ks_event *event_of(struct kshark_data_stream *stream,
					   int id)
{
	struct fxt_ks_data *d = stream_data(stream);

	if (!d || id < 0 || (unsigned int)id >= d->nevents)
		return NULL;
	return &d->events[id];
}

static char *fxt_get_event_name(struct kshark_data_stream *stream,
				const struct kshark_entry *entry)
{
	const struct fxt_ks_event *ev;
	int id = fxt_get_event_id(stream, entry);

	if (id == KS_EVENT_OVERFLOW)
		return strdup("missed_events");
	ev = event_of(stream, id);
	return ev && ev->label ? strdup(ev->label) : NULL;
}

static char *fxt_get_task(struct kshark_data_stream *stream,
			  const struct kshark_entry *entry)
{
	struct fxt_ks_data *d = stream_data(stream);
	int pid = fxt_get_pid(stream, entry);
	const char *name;

	if (!d)
		return NULL;
	if (d->pft) {
		struct fxt_ks_view *v = stream_view(stream);
		char *s;

		pthread_mutex_lock(&v->sh->text_lock);
		s = strdup(fxt_ks_pft_comm(d, pid));
		pthread_mutex_unlock(&v->sh->text_lock);
		return s;
	}
	/* trace.dat streams call these the same (libtraceevent's names). */
	if (pid == 0)
		return strdup("<idle>");
	name = fxt_ks_task_name(d, pid);
	return strdup(name ? name : "<...>");
}

/*
 * Info (@latency false) or latency column of an ftrace event of a
 * converted provider, printed by libtraceevent.  Negative for other rows
 * and for a record libtraceevent cannot be given safely: the caller's own
 * text then.  The rebuilt record lives in the handle: one row at a time.
 */
static int column_from_tep(struct kshark_data_stream *stream,
			   const struct fxt_ks_row *row, bool latency,
			   char **out)
{
	struct fxt_ks_view *v = stream_view(stream);
	char *info, *lat;
	int ret;

	pthread_mutex_lock(&v->sh->text_lock);
	ret = fxt_ks_tep_text(&v->sh->d, row, &info, &lat);
	pthread_mutex_unlock(&v->sh->text_lock);
	if (ret < 0)
		return ret;
	*out = latency ? lat : info;
	free(latency ? info : lat);
	return 0;
}

static char *fxt_get_info(struct kshark_data_stream *stream,
			  const struct kshark_entry *entry)
{
	struct fxt_ks_data *d = stream_data(stream);
	const struct fxt_ks_row *row = entry_row(d, entry);
	char *s;

	if (!row)
		return NULL;
	if (!column_from_tep(stream, row, false, &s))
		return s;
	return fxt_ks_info(d, row);
}

/*
 * Latency column: the latency flags of a converted file's ftrace event,
 * as trace.dat streams show them; for other producers the provider where
 * the file has several.
 */
static char *fxt_aux_info(struct kshark_data_stream *stream,
			  const struct kshark_entry *entry)
{
	struct fxt_ks_data *d = stream_data(stream);
	const struct fxt_ks_row *row = entry_row(d, entry);
	char *s;

	if (!row || row->provider >= d->nproviders ||
	    row_event_id(d, row) == KS_EVENT_OVERFLOW)
		return NULL;
	if (!column_from_tep(stream, row, true, &s))
		return s;
	if (d->nproviders < 2 || d->providers[row->provider].from_trace_fxt)
		return NULL;
	return strdup(d->providers[row->provider].name);
}

static int fxt_find_event_id(struct kshark_data_stream *stream,
			     const char *name)
{
	struct fxt_ks_data *d = stream_data(stream);
	unsigned int i;

	if (!d || !name)
		return -EINVAL;
	for (i = 0; i < d->nevents; i++)
		if (d->events[i].label && !strcmp(d->events[i].label, name))
			return (int)i;
	return -1;
}

static int *fxt_get_all_event_ids(struct kshark_data_stream *stream)
{
	struct fxt_ks_data *d = stream_data(stream);
	unsigned int i;
	int *ids;

	if (!d)
		return NULL;
	ids = malloc((d->nevents ? d->nevents : 1) * sizeof(*ids));
	if (!ids)
		return NULL;
	for (i = 0; i < d->nevents; i++)
		ids[i] = (int)i;
	return ids;
}

static char *fxt_dump_entry(struct kshark_data_stream *stream,
			    const struct kshark_entry *entry)
{
	char *task = fxt_get_task(stream, entry);
	char *aux = fxt_aux_info(stream, entry);
	char *event = fxt_get_event_name(stream, entry);
	char *info = fxt_get_info(stream, entry);
	char *s;

	if (asprintf(&s, "%i; %" PRId64 "; %s-%i; CPU %i; %s; %s; %s; 0x%x",
		     entry->stream_id, entry->ts, task ? task : "",
		     fxt_get_pid(stream, entry), entry->cpu, aux ? aux : "",
		     event ? event : "", info ? info : "", entry->visible) < 0)
		s = NULL;
	free(task);
	free(aux);
	free(event);
	free(info);
	return s;
}

static int fxt_get_field_names(struct kshark_data_stream *stream,
			       const struct kshark_entry *entry,
			       char ***names)
{
	const struct fxt_ks_event *ev;
	unsigned int i;
	char **v;

	*names = NULL;
	ev = event_of(stream, fxt_get_event_id(stream, entry));
	if (!ev || !ev->nfields)
		return 0;
	v = calloc(ev->nfields, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < ev->nfields; i++) {
		v[i] = strdup(ev->fields[i].name);
		if (!v[i]) {
			while (i--)
				free(v[i]);
			free(v);
			return -ENOMEM;
		}
	}
	*names = v;
	return (int)ev->nfields;
}

static kshark_event_field_format field_format(unsigned int type)
{
	switch (type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
	case FXT_ARG_BOOL:
	case FXT_KS_ARG_STATE:
		return KS_INTEGER_FIELD;
	case FXT_ARG_DOUBLE:
		return KS_FLOAT_FIELD;
	default:
		return KS_INVALID_FIELD;
	}
}

static kshark_event_field_format
fxt_get_field_type(struct kshark_data_stream *stream,
		   const struct kshark_entry *entry, const char *field)
{
	int id = fxt_get_event_id(stream, entry);
	const struct fxt_ks_event *ev = event_of(stream, id);
	int i;

	if (!ev)
		return KS_INVALID_FIELD;
	i = fxt_ks_field_find(stream_data(stream), id, field);
	return i < 0 ? KS_INVALID_FIELD : field_format(ev->fields[i].type);
}

static int row_field_int64(struct fxt_ks_data *d,
			   const struct fxt_ks_row *row, const char *field,
			   int64_t *val)
{
	const struct fxt_ks_arg *args, *a;
	unsigned int n;
	int i, ret;

	i = fxt_ks_field_find(d, row->event, field);
	if (i < 0)
		return -EINVAL;
	n = fxt_ks_row_args_get(d, row, &args);
	a = fxt_ks_args_field(args, n, i);
	if (!a)
		ret = -ENOENT;
	else if (field_format(a->type) == KS_INTEGER_FIELD)
		*val = a->v.i, ret = 0;
	else if (field_format(a->type) == KS_FLOAT_FIELD)
		*val = (int64_t)a->v.d, ret = 0;
	else
		ret = -EINVAL;
	fxt_ks_row_args_put(d);
	return ret;
}

static int fxt_read_event_field(struct kshark_data_stream *stream,
				      const struct kshark_entry *entry,
				      const char *field, int64_t *val)
{
	struct fxt_ks_data *d = stream_data(stream);
	const struct fxt_ks_row *row = entry_row(d, entry);

	return row ? row_field_int64(d, row, field, val) : -EFAULT;
}

/* Event handlers of processing plugins get the row as their record. */
static int fxt_read_record_field(struct kshark_data_stream *stream,
				       void *rec, const char *field,
				       int64_t *val)
{
	struct fxt_ks_data *d = stream_data(stream);
	const struct fxt_ks_row *row = rec;

	if (!d || row < d->rows || row >= d->rows + d->nrows)
		return -EFAULT;
	return row_field_int64(d, row, field, val);
}

/*
 * What a stream learns of its rows when it opens, from its providers'
 * (fxt-ks-load.c counts them as it makes them): how many (v->nrows), its
 * CPUs (what its buffers' file_info says, or its rows show) and the idle
 * ones.  Its tasks it learns as a .dat stream does, as its entries load
 * (stream_add_task()).
 */
static void stream_scan_rows(struct kshark_data_stream *stream,
			     struct fxt_ks_view *v)
{
	const struct fxt_ks_data *d = &v->sh->d;
	uint64_t busy[FXT_KS_CPU_WORDS] = { 0 };
	int n = 1, cpu;
	size_t i, k;

	v->nrows = 0;
	for (i = 0; i < d->nproviders; i++) {
		const struct fxt_ks_provider *p = &d->providers[i];

		if (v->sh->slot[i] != v->slot)
			continue;
		v->nrows += p->nrows;
		if (p->cpus > n)
			n = p->cpus;
		if (!p->cpus_used)
			continue;
		for (k = 0; k < FXT_KS_CPU_WORDS; k++)
			busy[k] |= p->cpus_used[k];
	}
	for (k = FXT_KS_CPU_WORDS; k-- > 0;)
		if (busy[k]) {
			cpu = (int)k * 64 + 63 - __builtin_clzll(busy[k]);
			if (cpu >= n)
				n = cpu + 1;
			break;
		}
	stream->n_cpus = n;
	for (cpu = 0; cpu < n; cpu++)
		if (!(busy[cpu / 64] & (1ULL << (cpu % 64))))
			kshark_hash_id_add(stream->idle_cpus, cpu);
}

/*
 * A stream's tasks are the pids its entries are drawn with, once the
 * plugins' handlers have run (a .dat stream learns them so: with the plot
 * part on, a context switch adds the task it switches in); KernelShark
 * gives each task its colour by its place among them.  @last: the pid
 * added last, to skip runs of one task.
 */
static void stream_add_task(struct kshark_data_stream *stream, int32_t pid,
			    int32_t *last)
{
	if (pid == *last)
		return;
	*last = pid;
	kshark_hash_id_add(stream->tasks, pid);
}

/*
 * Which of @d's event ids kshark_postprocess_entry() may change an entry
 * of on @stream, a byte each (NULL when out of memory).  It calibrates an
 * entry's time, when the stream is calibrated, and runs the handlers of
 * its event id (kshark_plugin_actions()); of an entry of any other id it
 * does nothing, and most entries are of such ids (the plot part handles
 * context switches and wakeups).  Told once here, not for each entry.
 */
static uint8_t *events_handled(const struct kshark_data_stream *stream,
			       const struct fxt_ks_data *d)
{
	const struct kshark_event_proc_handler *h;
	bool calib = stream->calib && stream->calib_array;
	uint8_t *handled;
	unsigned int i;

	handled = calloc(d->nevents ? d->nevents : 1, 1);
	if (!handled)
		return NULL;
	/* KS_EVENT_OVERFLOW (row_event_id()): asked if any handler is set */
	for (i = 0; i < d->nevents; i++)
		handled[i] = calib ||
			     (d->events[i].missed && stream->event_handlers);
	for (h = stream->event_handlers; h; h = h->next)
		if (h->id >= 0 && (unsigned int)h->id < d->nevents)
			handled[h->id] = 1;
	return handled;
}

/* Whether every row of @v's file is in @v's stream. */
static bool view_all(const struct fxt_ks_view *v)
{
	unsigned int i;

	for (i = 0; i < v->sh->d.nproviders; i++)
		if (v->sh->slot[i] != v->slot)
			return false;
	return true;
}

static ssize_t fxt_load_entries(struct kshark_data_stream *stream,
				struct kshark_context *kshark_ctx,
				struct kshark_entry ***data_rows)
{
	struct fxt_ks_view *v = stream_view(stream);
	struct kshark_entry **rows, **last_on_cpu, *e;
	struct fxt_ks_data *d;
	size_t i, n = 0, count;
	uint8_t *handled = NULL;
	int32_t last = -1;
	bool filter, all;

	if (!v)
		return -EFAULT;
	d = &v->sh->d;
	count = v->nrows;
	rows = malloc((count ? count : 1) * sizeof(*rows));
	last_on_cpu = calloc((size_t)stream->n_cpus, sizeof(*last_on_cpu));
	if (!rows || !last_on_cpu)
		goto fail;
	handled = events_handled(stream, d);
	if (!handled)
		goto fail;
	filter = kshark_filter_is_set(kshark_ctx, stream->stream_id);
	all = view_all(v);

	for (i = 0; i < d->nrows; i++) {
		const struct fxt_ks_row *row = &d->rows[i];

		__builtin_prefetch(row + 32);
		if (!all && !in_view(v, row))
			continue;
		/* KernelShark frees every entry on its own. */
		e = malloc(sizeof(*e));
		if (!e)
			goto fail;
		rows[n++] = e;
		e->next = NULL;
		e->visible = 0xff;
		e->stream_id = stream->stream_id;
		e->event_id = (int16_t)row_event_id(d, row);
		e->cpu = row->cpu;
		e->pid = row->pid;
		e->offset = (int64_t)i;
		e->ts = row->ts;
		/* Collections walk entries CPU by CPU through next. */
		if (last_on_cpu[row->cpu])
			last_on_cpu[row->cpu]->next = e;
		last_on_cpu[row->cpu] = e;

		/* the plot part's handlers, fxt-ks-sched.c's among them */
		if (handled[row->event])
			kshark_postprocess_entry(stream, (void *)row, e);
		stream_add_task(stream, e->pid, &last);
		if (filter)
			kshark_apply_filters(kshark_ctx, stream, e);
	}
	free(last_on_cpu);
	free(handled);
	*data_rows = rows;
	return (ssize_t)n;

fail:
	if (rows)
		while (n--)
			free(rows[n]);
	free(rows);
	free(last_on_cpu);
	free(handled);
	return -ENOMEM;
}

/*
 * The matrix runs no handler (they keep the entries they are given): a
 * context switch gets the pid its entry gets while the plot part is on.
 */
static ssize_t fxt_load_matrix(struct kshark_data_stream *stream,
			       struct kshark_context *kshark_ctx,
			       int16_t **event_array, int16_t **cpu_array,
			       int32_t **pid_array, int64_t **offset_array,
			       int64_t **ts_array)
{
	struct fxt_ks_view *v = stream_view(stream);
	bool sched = fxt_ks_sched_get(stream->stream_id) != NULL;
	int32_t pid, last = -1;
	struct fxt_ks_data *d;
	size_t i, n = 0, count;

	if (!v)
		return -EFAULT;
	d = &v->sh->d;
	count = v->nrows;
	if (!kshark_data_matrix_alloc(count ? count : 1, event_array,
				      cpu_array, pid_array, offset_array,
				      ts_array))
		return -ENOMEM;
	for (i = 0; i < d->nrows; i++) {
		const struct fxt_ks_row *row = &d->rows[i];
		int64_t ts = row->ts;

		if (!in_view(v, row))
			continue;
		if (stream->calib && stream->calib_array)
			stream->calib(&ts, stream->calib_array);
		if (event_array)
			(*event_array)[n] = (int16_t)row_event_id(d, row);
		if (cpu_array)
			(*cpu_array)[n] = row->cpu;
		pid = sched && d->events[row->event].is_switch &&
		      row->sched_pid != FXT_KS_NO_PID ? row->sched_pid : row->pid;
		stream_add_task(stream, pid, &last);
		if (pid_array)
			(*pid_array)[n] = pid;
		if (offset_array)
			(*offset_array)[n] = (int64_t)i;
		if (ts_array)
			(*ts_array)[n] = ts;
		n++;
	}
	return (ssize_t)n;
}

const char *kshark_input_format(void)
{
	return PLUGIN_FXT_FORMAT;
}

/*
 * The first bytes of @file, inflated when it is gzip'd or zstd'd, in
 * @head: how many (fewer than asked at its end, or 0).
 */
static size_t file_head(const char *file, uint8_t *head, size_t size)
{
	enum fxt_zip kind;
	size_t got = 0;
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = pread(fd, head, size, 0);
	kind = n > 0 ? fxt_zip_detect(head, (size_t)n) : FXT_ZIP_NONE;
	if (kind != FXT_ZIP_NONE) {
		struct fxt_zin *z = fxt_zin_create(fd, kind, NULL, 0);

		n = 0;
		while (z && got < size &&
		       (n = fxt_zin_read(z, head + got, size - got)) > 0)
			got += (size_t)n;
		fxt_zin_destroy(z);
	} else if (n > 0) {
		got = (size_t)n;
	}
	close(fd);
	return got;
}

/* Whether @head starts with FXT's magic number record, in either order. */
static bool head_is_fxt(const uint8_t *head, size_t n)
{
	static const uint8_t le[8] = { 0x10, 0x00, 0x04, 0x46,
				       0x78, 0x54, 0x16, 0x00 };
	static const uint8_t be[8] = { 0x00, 0x16, 0x54, 0x78,
				       0x46, 0x04, 0x00, 0x10 };

	return n >= sizeof(le) &&
	       (!memcmp(head, le, sizeof(le)) || !memcmp(head, be, sizeof(be)));
}

/* What pft2dat_sniff() is best given (FXT's magic needs 8). */
#define HEAD_LEN	PFT2DAT_SNIFF_LEN

/*
 * An FXT file starts with the magic number record, in either byte order;
 * a Perfetto trace with a Trace.packet field (pft2dat_sniff()); so does
 * what a gzip'd or zstd'd one decompresses to.
 */
bool kshark_input_check(const char *file, char **format)
{
	uint8_t head[HEAD_LEN];
	size_t n;

	(void)format;
	if (!file)
		return false;
	n = file_head(file, head, sizeof(head));
	return head_is_fxt(head, n) || pft2dat_sniff(head, n);
}

static void iface_init(struct kshark_generic_stream_interface *iface)
{
	iface->type = KS_GENERIC_DATA_INTERFACE;
	iface->get_pid = fxt_get_pid;
	iface->get_event_id = fxt_get_event_id;
	iface->get_event_name = fxt_get_event_name;
	iface->get_task = fxt_get_task;
	iface->get_info = fxt_get_info;
	iface->aux_info = fxt_aux_info;
	iface->find_event_id = fxt_find_event_id;
	iface->get_all_event_ids = fxt_get_all_event_ids;
	iface->dump_entry = fxt_dump_entry;
	iface->get_all_event_field_names = fxt_get_field_names;
	iface->get_event_field_type = fxt_get_field_type;
	iface->read_event_field_int64 = fxt_read_event_field;
	iface->read_record_field_int64 = fxt_read_record_field;
	iface->load_entries = fxt_load_entries;
	iface->load_matrix = fxt_load_matrix;
}

/*
 * KernelShark gives a trace.dat stream its default plugins itself
 * (kshark_tep_handle_plugins()), but no other stream.  missed_events
 * draws KS_EVENT_OVERFLOW entries of any stream: a file with lost events
 * gets it as the .dat does, when KernelShark has it loaded.  (sched_events
 * takes trace.dat streams only: it reads their tep records.)
 */
static void stream_add_missed_events(struct kshark_data_stream *stream,
				     const struct fxt_ks_data *d)
{
	struct kshark_context *ctx = NULL;
	struct kshark_plugin_list *p;
	unsigned int i;

	for (i = 0; i < d->nevents; i++)
		if (d->events[i].missed)
			break;
	if (i == d->nevents || !kshark_instance(&ctx))
		return;
	p = kshark_find_plugin_by_name(ctx->plugins, "missed_events");
	if (!p || !p->process_interface)
		return;
	if (kshark_register_plugin_to_stream(stream, p->process_interface,
					     true))
		kshark_handle_all_dpis(stream, KSHARK_PLUGIN_INIT);
}

static void shared_put(struct fxt_ks_shared *sh)
{
	if (!sh || --sh->refs)
		return;
	fxt_ks_data_free(&sh->d);
	pthread_mutex_destroy(&sh->text_lock);
	free(sh->slot);
	free(sh);
}

/*
 * Which stream each provider's rows are in: a converted provider of an
 * ftrace buffer other than the top one gets a stream of its own, named
 * after the buffer as KernelShark names a .dat's; the rest is in the
 * stream KernelShark opened.
 */
static int shared_slots(struct fxt_ks_shared *sh)
{
	const struct fxt_ks_data *d = &sh->d;
	unsigned int i;

	sh->slot = calloc(d->nproviders ? d->nproviders : 1,
			  sizeof(*sh->slot));
	if (!sh->slot)
		return -ENOMEM;
	sh->nslots = 1;
	for (i = 0; i < d->nproviders; i++) {
		const struct fxt_ks_provider *p = &d->providers[i];

		if (p->from_trace_fxt && p->buffer &&
		    strcmp(p->buffer, TCFXT_TOP_BUFFER) &&
		    sh->nslots < UINT16_MAX)
			sh->slot[i] = (uint16_t)sh->nslots++;
	}
	return 0;
}

/* Give @stream its part of @sh: slot @slot. */
static int stream_attach(struct kshark_data_stream *stream,
			 struct fxt_ks_shared *sh, unsigned int slot)
{
	struct kshark_generic_stream_interface *iface;
	const struct fxt_ks_data *d = &sh->d;
	struct fxt_ks_view *v;

	iface = calloc(1, sizeof(*iface));
	v = calloc(1, sizeof(*v));
	if (!iface || !v) {
		free(iface);
		free(v);
		return -ENOMEM;
	}
	v->sh = sh;
	v->slot = slot;
	sh->refs++;
	iface_init(iface);
	iface->handle = v;
	stream->interface = iface;

	stream->n_events = (int)d->nevents;
	/* pid 0 is the idle thread, as in the converter and Perfetto. */
	stream->idle_pid = 0;
	stream_scan_rows(stream, v);
	/* as KernelShark's default plugins: the opened stream's only */
	if (slot == 0)
		stream_add_missed_events(stream, d);
	return 0;
}

/*
 * The stream of buffer slot @slot, added to KernelShark's session: its
 * id, or a negative errno.
 */
static int stream_add_buffer(struct kshark_data_stream *top,
			     struct fxt_ks_shared *sh, unsigned int slot)
{
	const struct fxt_ks_data *d = &sh->d;
	struct kshark_context *ctx = NULL;
	struct kshark_data_stream *stream;
	const char *name = NULL;
	unsigned int i;
	int sd, ret;

	for (i = 0; i < d->nproviders && !name; i++)
		if (sh->slot[i] == slot)
			name = d->providers[i].buffer;
	if (!kshark_instance(&ctx))
		return -EFAULT;
	sd = kshark_add_stream(ctx);
	if (sd < 0)
		return sd;
	stream = ctx->stream[sd];
	free(stream->name);
	stream->name = strdup(name);
	stream->file = strdup(top->file);
	snprintf(stream->data_format, sizeof(stream->data_format), "%s",
		 top->data_format);
	ret = stream->name && stream->file ? stream_attach(stream, sh, slot) :
					     -ENOMEM;
	if (ret)
		kshark_remove_stream(ctx, sd);
	return ret ? ret : sd;
}

/* Undo stream_add_buffer() for streams @first..@last. */
static void streams_remove(int first, int last)
{
	struct kshark_context *ctx = NULL;
	int sd;

	if (!kshark_instance(&ctx))
		return;
	for (sd = first; sd <= last; sd++) {
		kshark_close(ctx, sd);
		kshark_remove_stream(ctx, sd);
	}
}

int kshark_input_initializer(struct kshark_data_stream *stream)
{
	int ret, sd, first = -1, last = -1;
	struct fxt_ks_shared *sh;
	uint8_t head[HEAD_LEN];
	unsigned int slot;
	size_t n;

	n = file_head(stream->file, head, sizeof(head));
	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return -ENOMEM;
	/* an FXT of convert --once: its events are its packets' */
	if ((!head_is_fxt(head, n) && pft2dat_sniff(head, n)) ||
	    pft2dat_fxt_once(stream->file))
		ret = fxt_ks_pft_load(&sh->d, stream->file);
	else
		ret = fxt_ks_data_load(&sh->d, stream->file);
	if (ret) {
		fprintf(stderr, "plugin-fxt: cannot load %s: %s\n",
			stream->file, strerror(-ret));
		free(sh);
		return ret;
	}
	pthread_mutex_init(&sh->text_lock, NULL);
	sh->refs = 1;
	ret = shared_slots(sh);
	if (!ret)
		ret = stream_attach(stream, sh, 0);
	/* the other buffers: each stream holds the file as long as it */
	for (slot = 1; !ret && slot < sh->nslots; slot++) {
		sd = stream_add_buffer(stream, sh, slot);
		if (sd < 0)
			ret = sd;
		else if (first < 0)
			first = last = sd;
		else
			last = sd;
	}
	if (ret && first >= 0)
		streams_remove(first, last);
	if (ret && stream->interface)
		kshark_input_deinitializer(stream);
	shared_put(sh);
	return ret;
}

int kshark_input_deinitializer(struct kshark_data_stream *stream)
{
	struct kshark_generic_stream_interface *iface = stream->interface;
	struct fxt_ks_view *v;

	if (!iface)
		return 0;
	v = iface->handle;
	if (v) {
		shared_put(v->sh);
		free(v);
	}
	/* libkshark frees the interface itself with the stream. */
	iface->handle = NULL;
	return 0;
}

/*
 * The plot part: KernelShark's sched_events for FXT streams (it takes
 * trace.dat streams only: it reads their tep records).  KernelShark gives
 * its default plugins to the stream it opened only
 * (kshark_tep_handle_plugins(), KsDataStore::_openDataFile()), not to the
 * other buffers' streams of a .dat, but gives a plugin loaded with -p to
 * every stream (KsDataStore::_addPluginsToStream()): offered to another
 * buffer's stream the first time, the plot part turns itself off there,
 * which Manage plugins then shows unticked; ticked, it does there what
 * sched_events would.
 */

/* @stream's view when it is an FXT stream of this plugin's, else NULL. */
static struct fxt_ks_view *own_view(struct kshark_data_stream *stream)
{
	struct kshark_generic_stream_interface *iface = stream->interface;

	if (!iface || iface->type != KS_GENERIC_DATA_INTERFACE ||
	    iface->load_entries != fxt_load_entries)
		return NULL;
	return iface->handle;
}

/* Untick the plot part on @stream, as Manage plugins would. */
static void plot_switch_off(struct kshark_data_stream *stream)
{
	struct kshark_dpi_list *p;

	for (p = stream->plugins; p; p = p->next)
		if (p->interface->init == kshark_data_plugin_initializer)
			p->status &= ~KSHARK_PLUGIN_ENABLED;
}

int kshark_data_plugin_initializer(struct kshark_data_stream *stream)
{
	struct fxt_ks_view *v = own_view(stream);
	int ret;

	/*
	 * A trace.dat stream (a Perfetto trace's, which KernelShark gives
	 * sched_events itself, among them): not for this one, off there
	 * as on another buffer's stream; any other stream it cannot read,
	 * as sched_events: failed.
	 */
	if (!v && kshark_is_tep(stream)) {
		plot_switch_off(stream);
		return 1;
	}
	if (!v)
		return 0;
	if (v->slot && !v->plot_offered) {
		v->plot_offered = true;
		plot_switch_off(stream);
		return 1;
	}
	ret = fxt_ks_sched_init(stream, &v->sh->d);
	if (ret < 0) {
		fprintf(stderr, "plugin-fxt: no scheduling boxes for %s: %s\n",
			stream->file, strerror(-ret));
		return 0;
	}
	/* a file without context switches: nothing to draw */
	if (ret == 0)
		return 1;
	if (kshark_register_draw_handler(stream, fxt_ks_sched_draw) < 0) {
		fxt_ks_sched_close(stream);
		return 0;
	}
	return ret + 1;
}

int kshark_data_plugin_deinitializer(struct kshark_data_stream *stream)
{
	/* at exit KernelShark passes a stream of id KS_PLUGIN_CONTEXT_FREE */
	if (!fxt_ks_sched_close(stream))
		return 0;
	kshark_unregister_draw_handler(stream, fxt_ks_sched_draw);
	return 1;
}

void *kshark_plugin_menu_initializer(void *gui)
{
	fxt_ks_sched_set_gui(gui);
	return NULL;
}
