// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-load.c - decode an FXT file once into rows and stored arguments.
 *
 * What becomes a row: every record with a timestamp (events of all types,
 * context switches, thread wakeups, logs, large blobs with metadata).
 * Kernel object records name the tasks.  The CPU of a row is its `cpu`
 * argument, else the CPU where its thread last ran according to the
 * context switches decoded so far, else FXT_KS_FALLBACK_CPU.
 *
 * A provider that trace-fxt's converter wrote (it begins with the
 * converter's trace-cmd/file_info instant) loads as the .dat it came
 * from: its rows are the ftrace events alone, the instants whose first
 * argument is TCFXT_ARG_CPU.  Everything else the converter writes beside
 * them for other viewers (scheduling, log and atrace records, counters,
 * blobs, anything not an ftrace instant) is no row, the arguments of an
 * event's TCFXT_CONT_SUFFIX instants join the event's row, and the
 * field renderings (TCFXT_TEXT_SUFFIX) are left to libtraceevent.  The
 * converter's file metadata (trace-cmd/ instants) is no row either, except
 * trace-cmd/lost_events, which becomes KernelShark's missed_events; the
 * metadata and the task names go to a libtraceevent handle
 * (fxt-tep.h) that prints the info and latency columns on demand.
 * Other producers' records are never folded.  Their threads are (process,
 * thread) pairs (fxt-threads.h): a row names its thread while the file
 * loads and gets the thread's task id (its tid where that is a pid no
 * other thread has) once every thread is known, its name from the
 * thread's kernel object (or its process's, for the thread whose koid is
 * the process's).  A converted provider's rows are the .dat's pids.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>

#include "file-map.h"
#include "fxt-reader.h"
#include "fxt-zio.h"
#include "fxt-ks.h"
#include "fxt-tep.h"
#include "fxt-threads.h"
#include "pft2dat.h"
#include "tcfxt.h"

#define NO_ROW	SIZE_MAX

_Static_assert(sizeof(struct fxt_ks_row) == 32, "a row is 32 bytes");
_Static_assert(FXT_KS_MAX_CPU <= 4096, "a row's cpu is 13 bits, signed");

/*
 * What an event record's shape says, kept by where its strings are (the
 * same place and length, the same text): whether it is the converter's
 * metadata or an ftrace event (tcfxt_is_meta(), tcfxt_is_ftrace()) or a
 * continuation (TCFXT_CONT_SUFFIX), and its event id once one of its
 * records has made a row.  A file's events come in a few shapes seen
 * millions of times.  Strings in the map keep their text; those of a
 * frame of nested records (the reader's memory) only while the reader's
 * text epoch stays the same (fxt_reader_text_epoch()).
 */
struct shape {
	const char	*cat;
	const char	*name;
	const char	*arg0;		/* its first argument's name, or NULL */
	uint32_t	cat_len;
	uint32_t	name_len;
	uint32_t	arg0_len;
	uint64_t	epoch;		/* 0: every string in the map */
	uint8_t		kind;
	uint8_t		arg0_type;
	bool		meta;
	bool		ftrace;
	bool		cont;
	int		event;		/* -1 until a row asks for it */
};

#define SHAPES	64

struct loader {
	struct fxt_ks_data	*d;
	struct fxt_reader	*r;
	/* Row of the last ftrace event of a converted provider. */
	size_t			last_ftrace;
	/*
	 * Converted providers' rows are reread from the file when asked
	 * about (fxt-ks-reread.c) rather than stored: -EAGAIN ends the
	 * load when a string index is set a second time, as the file's
	 * last string tables would then no longer read every record.
	 */
	bool			reread;
	uint32_t		provider_id;
	uint16_t		provider;
	bool			provider_known;
	/*
	 * Why loading stopped where a NULL row cannot say it: -EOVERFLOW,
	 * too many providers.  0 otherwise.
	 */
	int			err;
	/*
	 * Other producers' threads: some were named (@threads_seen: they
	 * get task ids and names once loaded), and rows or their arguments
	 * hold some as FXT_KS_THREAD() (@thread_rows: those are rewritten
	 * then).  A converted file's own file_info instant is one such
	 * thread (its provider is not known converted before it) but no
	 * row: its rows need no pass.
	 */
	struct fxt_threads	*threads;
	bool			threads_seen;
	bool			thread_rows;
	/* by their name's and category's places (shape_of()) */
	struct shape		shapes[SHAPES];
	/*
	 * The last record offered to report_tep_gather() was a plain
	 * instant (no metadata, no continuation): the ones right after it
	 * need not be (fxt-tep.h).
	 */
	bool			last_plain;
};

static const struct fxt_str str_fxt = FXT_ARG_STR_NAME(TCFXT_SYSTEM_FXT);
static const struct fxt_str str_switch = FXT_ARG_STR_NAME("context_switch");
static const struct fxt_str str_wakeup = FXT_ARG_STR_NAME("thread_wakeup");
static const struct fxt_str str_log = FXT_ARG_STR_NAME("log");

static int32_t pid_of(uint64_t koid)
{
	/* Linux ids fit; wider koids keep their low bits, non-negative. */
	return (int32_t)(koid & INT32_MAX);
}

/* fxt_ticks_to_ns(), within KernelShark's int64_t times. */
static int64_t ticks_to_ns(uint64_t ticks, uint64_t tps)
{
	uint64_t ns = fxt_ticks_to_ns(ticks, tps);

	return ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
}

/* The CPU @a (a `cpu` argument, or NULL) says, or -1. */
static int arg_cpu(const struct fxt_arg *a)
{
	int64_t v;

	if (!fxt_arg_int(a, &v))
		return -1;
	return v >= 0 && v < FXT_KS_MAX_CPU ? (int)v : -1;
}

/* The `cpu` argument of a record, or -1. */
static int args_cpu(const struct fxt_arg *args, unsigned int nargs)
{
	return arg_cpu(fxt_args_find(args, nargs, TCFXT_ARG_CPU));
}

/*
 * The row pid of thread (@pid, @tid) of provider @prov (@by_tid: named by
 * @tid alone): a converted provider's tid is its pid; another producer's
 * thread is named until loaded (FXT_KS_THREAD()).
 */
static int thread_pid(struct loader *l, int prov, uint64_t pid, uint64_t tid,
		      bool by_tid, int32_t *out)
{
	int idx;

	if (l->d->providers[prov].from_trace_fxt) {
		*out = pid_of(tid);
		return 0;
	}
	idx = by_tid ? fxt_threads_tid(l->threads, tid) :
		       fxt_threads_pair(l->threads, pid, tid);
	if (idx < 0)
		return idx;
	*out = FXT_KS_THREAD(idx);
	l->threads_seen = true;
	return 0;
}

static int thread_cpu(struct loader *l, int32_t pid)
{
	struct fxt_ks_task *t = fxt_ks_task_get(l->d, pid, false);

	return t && t->cpu >= 0 ? t->cpu : FXT_KS_FALLBACK_CPU;
}

/* Room for one more provider. */
static int providers_grow(struct fxt_ks_data *d)
{
	unsigned int n = d->nproviders;
	struct fxt_ks_provider *p;

	if (n == d->providers_cap) {
		unsigned int cap = n ? 2 * n : 8;

		p = realloc(d->providers, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		d->providers = p;
		d->providers_cap = cap;
	}
	return 0;
}

/*
 * Index of provider @id in d->providers, made on first sight.  Rows name
 * their provider in 16 bits (a row is 32 bytes, and KernelShark files
 * have a provider per ftrace buffer: a handful), so a file with more
 * providers is refused rather than shown with some rows in the wrong one.
 */
static int provider_find(struct loader *l, uint32_t id)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_provider *p;
	uint64_t at = u64_map_get(&d->provider_at, id);
	const char *name;
	unsigned int i;

	if (at) {
		i = (unsigned int)at - 1;
	} else {
		i = d->nproviders;
		if (i >= FXT_KS_MAX_PROVIDERS) {
			l->err = -EOVERFLOW;
			return l->err;
		}
		if (providers_grow(d))
			return -ENOMEM;
		p = &d->providers[i];
		name = fxt_reader_provider_name(l->r, id);
		if (name)
			p->name = strdup(name);
		else if (asprintf(&p->name, "provider %u", id) < 0)
			p->name = NULL;
		if (!p->name)
			return -ENOMEM;
		p->id = id;
		p->from_trace_fxt = false;
		p->str_set = NULL;
		p->str_set_nested = NULL;
		p->cpus_used = NULL;
		p->nrows = 0;
		p->buffer = NULL;
		p->cpus = 0;
		if (u64_map_set(&d->provider_at, id, i + 1)) {
			free(p->name);
			p->name = NULL;
			return -ENOMEM;
		}
		d->nproviders++;
	}
	l->provider_id = id;
	l->provider = (uint16_t)i;
	l->provider_known = true;
	return (int)i;
}

/* Records come in runs of one provider: the last one is asked first. */
static inline int provider_index(struct loader *l, uint32_t id)
{
	if (l->provider_known && l->provider_id == id)
		return l->provider;
	return provider_find(l, id);
}

/* A row of provider @prov (its index, from provider_index()). */
static struct fxt_ks_row *row_add(struct loader *l, int prov, int64_t ts,
				  int32_t pid, int cpu, int event)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_provider *p = &d->providers[prov];
	struct fxt_ks_row *row;

	if (event < 0)
		return NULL;
	if (!p->cpus_used) {
		p->cpus_used = calloc(FXT_KS_CPU_WORDS, sizeof(*p->cpus_used));
		if (!p->cpus_used)
			return NULL;
	}
	if (d->nrows == d->rows_cap) {
		size_t cap = d->rows_cap ? d->rows_cap * 2 : 4096;

		row = fxt_ks_big_realloc(d->rows, d->rows_cap * sizeof(*row),
				      cap * sizeof(*row));
		if (!row)
			return NULL;
		d->rows = row;
		d->rows_cap = cap;
	}
	if (cpu + 1 > d->n_cpus)
		d->n_cpus = cpu + 1;
	if (pid < -1)
		l->thread_rows = true;
	/* rows' CPUs are below FXT_KS_MAX_CPU (arg_cpu(), load_sched()) */
	p->cpus_used[cpu / 64] |= 1ULL << (cpu % 64);
	p->nrows++;
	/* told now, not by another pass over tens of megabytes of rows */
	if (d->nrows && ts < d->rows[d->nrows - 1].ts)
		d->unsorted = true;
	row = &d->rows[d->nrows++];
	__builtin_prefetch(row + 32, 1);
	row->ts = ts;
	row->pid = pid;
	row->cpu = (int16_t)cpu;
	row->event = (int16_t)event;
	row->arg = d->nargs;
	row->nargs = 0;
	row->sched_pid = FXT_KS_NO_PID;
	row->preempted = 0;
	row->provider = (uint16_t)prov;
	return row;
}

/*
 * Room for one more argument of @row in *@slot, or NULL there when the
 * argument is to be dropped: its event has all the field names it can
 * keep, or @row all the arguments.  Dropping costs that one value; only
 * running out of memory (or of 32-bit argument indexes) fails the load.
 */
static int arg_slot(struct fxt_ks_data *d, struct fxt_ks_row *row,
		    struct fxt_str name, unsigned int type,
		    struct fxt_ks_arg **slot)
{
	struct fxt_ks_arg *a;
	int field;

	*slot = NULL;
	if (row->nargs == UINT16_MAX)
		return 0;
	if (d->nargs >= UINT32_MAX)
		return -EOVERFLOW;
	field = fxt_ks_event_field(d, row->event, name, type, row->nargs);
	if (field == -E2BIG)
		return 0;
	if (field < 0)
		return field;
	if (d->nargs == d->args_cap) {
		size_t cap = d->args_cap ? d->args_cap * 2 : 16384;

		a = fxt_ks_big_realloc(d->args, d->args_cap * sizeof(*a),
				    cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		d->args = a;
		d->args_cap = cap;
	}
	a = &d->args[d->nargs++];
	row->nargs++;
	a->field = (uint16_t)field;
	a->type = (uint8_t)type;
	a->where = FXT_KS_VALUE;
	a->len = 0;
	a->v.u = 0;
	*slot = a;
	return 0;
}

static int arg_add_int(struct fxt_ks_data *d, struct fxt_ks_row *row,
		       struct fxt_str name, unsigned int type, uint64_t v)
{
	struct fxt_ks_arg *a;
	int ret = arg_slot(d, row, name, type, &a);

	if (!ret && a)
		a->v.u = v;
	return ret;
}

/* A thread of a context switch or wakeup, as its row names threads. */
static int arg_add_pid(struct fxt_ks_data *d, struct fxt_ks_row *row,
		       struct fxt_str name, int32_t pid)
{
	struct fxt_ks_arg *a;
	int ret = arg_slot(d, row, name, FXT_ARG_INT64, &a);

	if (!ret && a) {
		a->v.i = pid;
		if (pid < -1) {
			a->type = FXT_KS_ARG_TASK;
			a->v.i = FXT_KS_THREAD_IDX(pid);
		}
	}
	return ret;
}

static int arg_set_str(struct fxt_ks_data *d, struct fxt_ks_arg *a,
		       struct fxt_str s)
{
	int64_t off;

	a->len = s.len;
	if (!s.len) {
		a->where = FXT_KS_IN_POOL;
		a->v.u = 0;
		return 0;
	}
	/* Text in the map is kept by reference: no copy, no hashing. */
	if (fxt_ks_in_map(d, s.ptr) && fxt_ks_in_map(d, s.ptr + s.len - 1)) {
		a->where = FXT_KS_IN_MAP;
		a->v.u = (uint64_t)((const uint8_t *)s.ptr - d->map);
		return 0;
	}
	off = fxt_ks_pool_add(d, s.ptr, s.len);
	if (off < 0)
		return -ENOMEM;
	a->where = FXT_KS_IN_POOL;
	a->v.u = (uint64_t)off;
	return 0;
}

int fxt_ks_arg_set(struct fxt_ks_data *d, struct fxt_ks_arg *a,
		   const struct fxt_arg *src, bool keep)
{
	switch (src->type) {
	case FXT_ARG_INT32:	a->v.i = src->i32; break;
	case FXT_ARG_UINT32:	a->v.u = src->u32; break;
	case FXT_ARG_INT64:	a->v.i = src->i64; break;
	case FXT_ARG_UINT64:	a->v.u = src->u64; break;
	case FXT_ARG_DOUBLE:	a->v.d = src->d; break;
	case FXT_ARG_POINTER:	a->v.u = src->ptr; break;
	case FXT_ARG_KOID:	a->v.u = src->koid; break;
	case FXT_ARG_BOOL:	a->v.u = src->b; break;
	case FXT_ARG_STRING:
		if (keep)
			return arg_set_str(d, a, src->str);
		a->len = src->str.len;
		a->where = FXT_KS_AT_PTR;
		a->v.u = (uintptr_t)src->str.ptr;
		break;
	default:
		break;
	}
	return 0;
}

static int args_store(struct fxt_ks_data *d, struct fxt_ks_row *row,
		      const struct fxt_arg *args, unsigned int nargs)
{
	struct fxt_ks_arg *a;
	unsigned int i;
	int ret;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *src = &args[i];

		/* Unknown argument types have no value to show. */
		if (src->type >= FXT_ARG_TYPE_COUNT)
			continue;
		ret = arg_slot(d, row, src->name, src->type, &a);
		if (ret)
			return ret;
		if (a && fxt_ks_arg_set(d, a, src, true))
			return -ENOMEM;
	}
	return 0;
}

/* Integer argument @name of @args when it is a pid, else -1. */
static int32_t args_pid(const struct fxt_arg *args, unsigned int nargs,
			const char *name)
{
	int64_t v;

	if (!fxt_arg_int(fxt_args_find(args, nargs, name), &v) ||
	    v < 0 || v > INT32_MAX)
		return FXT_KS_NO_PID;
	return (int32_t)v;
}

/*
 * What the plot part (fxt-ks-sched.c) draws a context switch or a wakeup
 * with, read now, while its record is at hand: as KernelShark's
 * sched_events reads a trace.dat stream's entries, a switch's next_pid
 * (the task it is drawn as; plugin-fxt.c's matrix too) and prev_state,
 * a wakeup's pid.  Reading the record again for it once loaded cost as
 * much as loading (its frame inflated again).
 */
static void row_set_sched(struct fxt_ks_row *row,
			  const struct fxt_ks_event *ev,
			  const struct fxt_arg *args, unsigned int nargs)
{
	int64_t state = 0;

	if (!ev->is_switch) {
		row->sched_pid = args_pid(args, nargs, "pid");
		return;
	}
	row->sched_pid = args_pid(args, nargs, "next_pid");
	/* unread, it stays 0, as sched_events leaves it */
	fxt_arg_int(fxt_args_find(args, nargs, "prev_state"), &state);
	row->preempted = !(state & FXT_KS_LEFT_MASK);
}

/*
 * Is provider @prov (an index) one that trace-fxt's converter wrote?  Its
 * records fold into the ftrace events they accompany.
 */
static bool folding(const struct loader *l, int prov)
{
	return l->d->providers[prov].from_trace_fxt;
}

/*
 * Arguments of a converted ftrace event (or of its continuation) onto
 * @row, but for the renderings of fields that libtraceevent prints.
 */
static int ftrace_args_store(struct fxt_ks_data *d, struct fxt_ks_row *row,
			     const struct fxt_arg *args, unsigned int nargs)
{
	unsigned int i, run = 0;
	int ret;

	for (i = 0; i < nargs; i++) {
		if (!tcfxt_has_suffix(args[i].name, TCFXT_TEXT_SUFFIX))
			continue;
		ret = args_store(d, row, args + run, i - run);
		if (ret)
			return ret;
		run = i + 1;
	}
	return args_store(d, row, args + run, nargs - run);
}

/*
 * A record of a converted provider that is no ftrace event: what the
 * converter wrote beside one.  Its continuation's arguments join the
 * event's row; the rest is no row.
 */
static int fold_event(struct loader *l, const struct fxt_event *ev)
{
	struct fxt_ks_data *d = l->d;

	struct fxt_ks_row *row;

	if (ev->type != FXT_EVENT_INSTANT ||
	    !tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX) ||
	    l->last_ftrace == NO_ROW || l->last_ftrace != d->nrows - 1)
		return 0;
	row = &d->rows[l->last_ftrace];
	if (fxt_ks_row_reread(row)) {
		if (row->nargs == UINT16_MAX)
			return 0;
		row->nargs++;
		return fxt_ks_fields_note(d, row->event, ev->args, ev->nargs,
					  false);
	}
	return ftrace_args_store(d, row, ev->args, ev->nargs) ? -ENOMEM : 0;
}

/* Converted providers' metadata and task names, for libtraceevent. */
static int gather_for_tep(struct loader *l, const struct fxt_record *rec)
{
	struct fxt_ks_data *d = l->d;

	if (!d->tep) {
		/*
		 * The function plugin's options KernelShark sets before it
		 * opens a .dat (kshark_tep_init_input()): its info column
		 * shows the parent and no indentation.
		 */
		tep_plugin_add_option("ftrace:parent", "1");
		tep_plugin_add_option("ftrace:indent", "0");
		d->tep = report_tep_new(NULL, NULL);
		if (!d->tep)
			return -ENOMEM;
	}
	return report_tep_gather(d->tep, l->r, rec);
}

/*
 * A provider the converter wrote: which ftrace buffer of the .dat, on how
 * many CPUs (KernelShark opens each buffer of a .dat as a stream).  A
 * restatement says it again.
 */
static int note_file_info(struct fxt_ks_provider *p,
			  const struct fxt_event *ev)
{
	const struct fxt_arg *a;
	int64_t v;

	p->from_trace_fxt = true;
	a = fxt_args_find(ev->args, ev->nargs, TCFXT_INFO_BUFFER);
	if (a && a->type == FXT_ARG_STRING) {
		free(p->buffer);
		p->buffer = strndup(a->str.ptr, a->str.len);
		if (!p->buffer)
			return -ENOMEM;
	}
	a = fxt_args_find(ev->args, ev->nargs, TCFXT_INFO_CPUS);
	if (fxt_arg_int(a, &v) && v > 0 && v <= FXT_KS_MAX_CPU)
		p->cpus = (int)v;
	return 0;
}

/*
 * The fields of reread row @row, from its record @rec: nothing to do (and
 * no argument to decode) when the event's last record had the same
 * layout.
 */
static int reread_fields_note(struct loader *l, struct fxt_ks_row *row,
			      struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	int ret;

	if (fxt_ks_layout_same(l->d, row->event, ev->args,
			       ev->nargs + rec->args_left))
		return 0;
	ret = fxt_reader_args(l->r, rec);
	if (ret < 0)
		return ret;
	return fxt_ks_fields_note(l->d, row->event, ev->args, ev->nargs, true);
}

/* The shape of @ev (of record kind @kind), or NULL when it is not kept. */
static struct shape *shape_of(struct loader *l, const struct fxt_event *ev,
			      unsigned int kind)
{
	const struct fxt_arg *a0 = ev->nargs ? &ev->args[0] : NULL;
	const char *arg0 = a0 ? a0->name.ptr : NULL;
	uint32_t arg0_len = a0 ? a0->name.len : 0;
	uint8_t arg0_type = a0 ? (uint8_t)a0->type : 0;
	uint64_t epoch = 0;
	struct shape *s;

	/* an empty string's place is no text's */
	if (!ev->name.len || !ev->category.len || (a0 && !arg0_len))
		return NULL;
	if (!fxt_ks_in_map(l->d, ev->name.ptr) ||
	    !fxt_ks_in_map(l->d, ev->category.ptr) ||
	    (a0 && !fxt_ks_in_map(l->d, arg0)))
		epoch = fxt_reader_text_epoch(l->r);
	s = &l->shapes[(((uintptr_t)ev->name.ptr >> 3) ^
			((uintptr_t)ev->category.ptr >> 5)) % SHAPES];
	if (s->name == ev->name.ptr && s->cat == ev->category.ptr &&
	    s->arg0 == arg0 && s->name_len == ev->name.len &&
	    s->cat_len == ev->category.len && s->arg0_len == arg0_len &&
	    s->arg0_type == arg0_type && s->kind == kind &&
	    s->epoch == epoch)
		return s;
	s->epoch = epoch;
	s->cat = ev->category.ptr;
	s->name = ev->name.ptr;
	s->arg0 = arg0;
	s->cat_len = ev->category.len;
	s->name_len = ev->name.len;
	s->arg0_len = arg0_len;
	s->arg0_type = arg0_type;
	s->kind = (uint8_t)kind;
	s->meta = tcfxt_is_meta(ev->category);
	s->ftrace = tcfxt_is_ftrace(ev);
	s->cont = tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX);
	s->event = -1;
	return s;
}

/* The event id of a row of @ev, from its shape @s when it has one. */
static int shape_event(struct fxt_ks_data *d, struct shape *s,
		       unsigned int kind, const struct fxt_event *ev)
{
	int id;

	if (s && s->event >= 0)
		return s->event;
	id = fxt_ks_event_get(d, kind, ev->category, ev->name);
	if (s && id >= 0)
		s->event = id;
	return id;
}

static int load_event(struct loader *l, struct fxt_record *rec, int64_t ts)
{
	const struct fxt_event *ev = &rec->event;
	struct fxt_ks_data *d = l->d;
	int32_t pid;
	unsigned int kind = ev->type < FXT_EVENT_TYPE_COUNT ? ev->type :
			    FXT_KS_OTHER;
	struct shape *shape = shape_of(l, ev, kind);
	bool meta = shape ? shape->meta : tcfxt_is_meta(ev->category);
	bool ftrace = shape ? shape->ftrace : tcfxt_is_ftrace(ev);
	bool plain = kind == FXT_EVENT_INSTANT && !meta &&
		     !(shape ? shape->cont :
		       tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX));
	struct fxt_ks_row *row;
	int prov, cpu, event, ret = 0;
	bool reread_row;

	prov = provider_index(l, rec->provider_id);
	if (prov < 0)
		return prov;
	ret = thread_pid(l, prov, ev->thread.pid, ev->thread.tid, false, &pid);
	if (ret < 0)
		return ret;
	/*
	 * A converted ftrace event that becomes a reread row needs no more
	 * than its first argument (TCFXT_ARG_CPU) now, and
	 * report_tep_gather() reads no argument of it: the reader left the
	 * others undecoded (data_load()).  Every other record has them all.
	 */
	reread_row = l->reread && folding(l, prov) && ftrace && !meta;
	if (!reread_row) {
		ret = fxt_reader_args(l->r, rec);
		if (ret < 0)
			return ret;
	}
	if (kind == FXT_EVENT_INSTANT && meta &&
	    fxt_str_eq(ev->name, TCFXT_FILE_INFO)) {
		ret = note_file_info(&d->providers[prov], ev);
		if (ret < 0)
			return ret;
	}
	if (folding(l, prov)) {
		ret = plain && l->last_plain ? 0 : gather_for_tep(l, rec);
		if (ret < 0)
			return ret;
		l->last_plain = plain;
		/*
		 * trace-fxt's file metadata (file_info, cpustats, event
		 * formats, kallsyms...) describes the trace; it is no event
		 * of the .dat's.  Lost events are.
		 */
		if (kind == FXT_EVENT_INSTANT && meta &&
		    !fxt_str_eq(ev->name, TCFXT_LOST_EVENTS))
			return 0;
		if (!meta && !ftrace)
			return fold_event(l, ev);
	}
	/* an ftrace event's is its first argument (tcfxt_is_ftrace()) */
	cpu = reread_row ? arg_cpu(&ev->args[0]) :
			   args_cpu(ev->args, ev->nargs);
	l->last_ftrace = NO_ROW;

	event = shape_event(d, shape, kind, ev);
	row = row_add(l, prov, ts, pid, cpu >= 0 ? cpu :
		      thread_cpu(l, pid_of(ev->thread.tid)), event);
	if (!row)
		return -ENOMEM;
	/* (@event, not the row's: nothing read back from the row written) */
	if (d->events[event].is_switch || d->events[event].wakeup_rank > 0) {
		ret = fxt_reader_args(l->r, rec);
		if (ret < 0)
			return ret;
		row_set_sched(row, &d->events[event], ev->args, ev->nargs);
	}
	if (folding(l, prov)) {
		if (l->reread) {
			row->arg = FXT_KS_ROW_REREAD | rec->offset;
			ret = reread_fields_note(l, row, rec);
		} else if (ftrace_args_store(d, row, ev->args, ev->nargs)) {
			ret = -ENOMEM;
		}
		if (!meta)
			l->last_ftrace = d->nrows - 1;
		return ret;
	}
	if (args_store(d, row, ev->args, ev->nargs))
		return -ENOMEM;

	switch (ev->type) {
	case FXT_EVENT_DURATION_COMPLETE:
		ret = arg_add_int(d, row, fxt_str_make("duration", 8),
				  FXT_ARG_INT64,
				  (uint64_t)(ticks_to_ns(ev->end_ts,
				     fxt_reader_ticks_per_second(l->r)) - ts));
		break;
	case FXT_EVENT_COUNTER:
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_INSTANT:
	case FXT_EVENT_ASYNC_END:
	case FXT_EVENT_FLOW_BEGIN:
	case FXT_EVENT_FLOW_STEP:
	case FXT_EVENT_FLOW_END:
		ret = arg_add_int(d, row, fxt_str_make("id", 2),
				  FXT_ARG_UINT64, ev->id);
		break;
	default:
		break;
	}
	return ret;
}

static void task_set_cpu(struct loader *l, int32_t pid, int cpu)
{
	struct fxt_ks_task *t = fxt_ks_task_get(l->d, pid, true);

	if (t)
		t->cpu = (int16_t)cpu;
}

/*
 * Whose entry a thread wakeup is: the waker's, as the kernel's sched_waking
 * is (and the .dat trace-fxt converts the file to has it): its "waker"
 * argument, else the idle task.
 */
static int waker_of(struct loader *l, int prov, const struct fxt_record *rec,
		    int32_t *waker)
{
	uint64_t koid;

	*waker = 0;
	if (tcfxt_waker(rec->sched.args, rec->sched.nargs, &koid))
		return thread_pid(l, prov, 0, koid, true, waker);
	return 0;
}

static int load_sched(struct loader *l, const struct fxt_record *rec,
		      int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	bool wakeup = rec->sched.subtype == FXT_SCHED_WAKEUP;
	bool legacy = rec->sched.subtype == FXT_SCHED_LEGACY_SWITCH;
	int cpu = rec->sched.cpu < FXT_KS_MAX_CPU ? (int)rec->sched.cpu : -1;
	int32_t out, in, waker = 0;
	struct fxt_ks_row *row;
	int prov, ret;

	if (rec->sched.subtype > FXT_SCHED_WAKEUP)
		return 0;
	/* the CPU a thread last ran on is known by its tid */
	if (!wakeup && cpu >= 0) {
		task_set_cpu(l, pid_of(rec->sched.out.tid), cpu);
		task_set_cpu(l, pid_of(rec->sched.in.tid), cpu);
	}
	prov = provider_index(l, rec->provider_id);
	if (prov < 0)
		return prov;
	/* the converter's restatement of a sched_switch or wakeup */
	if (folding(l, prov))
		return 0;
	ret = thread_pid(l, prov, rec->sched.out.pid, rec->sched.out.tid,
			 !legacy, &out);
	if (!ret)
		ret = thread_pid(l, prov, rec->sched.in.pid, rec->sched.in.tid,
				 !legacy, &in);
	if (ret < 0)
		return ret;

	if (cpu < 0)
		cpu = thread_cpu(l, pid_of(wakeup ? rec->sched.in.tid :
					   rec->sched.out.tid));
	if (wakeup) {
		ret = waker_of(l, prov, rec, &waker);
		if (ret < 0)
			return ret;
	}
	row = row_add(l, prov, ts, wakeup ? waker : out, cpu,
		      fxt_ks_event_get(d, wakeup ? FXT_KS_WAKEUP : FXT_KS_SWITCH,
				       str_fxt,
				       wakeup ? str_wakeup : str_switch));
	if (!row)
		return -ENOMEM;
	/* row_set_sched()'s, from the record's own fields */
	row->sched_pid = in;
	if (!wakeup)
		row->preempted = !(fxt2dat_prev_state(rec->sched.out_state) &
				   FXT_KS_LEFT_MASK);
	/* a wakeup's row may be the idle task's, its argument a thread */
	if (in < -1)
		l->thread_rows = true;
	if (wakeup) {
		if (arg_add_pid(d, row, fxt_str_make("pid", 3), in))
			return -ENOMEM;
	} else if (arg_add_pid(d, row, fxt_str_make("prev_pid", 8), out) ||
		   arg_add_int(d, row, fxt_str_make("prev_state", 10),
			       FXT_KS_ARG_STATE, rec->sched.out_state) ||
		   arg_add_pid(d, row, fxt_str_make("next_pid", 8), in)) {
		return -ENOMEM;
	}
	if (rec->sched.subtype == FXT_SCHED_LEGACY_SWITCH &&
	    (arg_add_int(d, row, fxt_str_make("prev_prio", 9),
			 FXT_ARG_UINT32, rec->sched.out_prio) ||
	     arg_add_int(d, row, fxt_str_make("next_prio", 9),
			 FXT_ARG_UINT32, rec->sched.in_prio)))
		return -ENOMEM;
	if (rec->sched.subtype != FXT_SCHED_LEGACY_SWITCH &&
	    args_store(d, row, rec->sched.args, rec->sched.nargs))
		return -ENOMEM;
	return 0;
}

static int load_log(struct loader *l, const struct fxt_record *rec,
		    int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_row *row;
	struct fxt_ks_arg *a;
	int32_t pid;
	int ret, prov;

	prov = provider_index(l, rec->provider_id);
	if (prov < 0)
		return prov;
	/* the converter's restatement of a trace_marker write */
	if (folding(l, prov))
		return 0;
	ret = thread_pid(l, prov, rec->log.thread.pid, rec->log.thread.tid,
			 false, &pid);
	if (ret < 0)
		return ret;
	row = row_add(l, prov, ts, pid, thread_cpu(l, pid_of(rec->log.thread.tid)),
		      fxt_ks_event_get(d, FXT_KS_LOG, str_fxt, str_log));
	if (!row)
		return -ENOMEM;
	ret = arg_slot(d, row, fxt_str_make("message", 7), FXT_ARG_STRING, &a);
	if (ret)
		return ret;
	if (a && arg_set_str(d, a, rec->log.msg))
		return -ENOMEM;
	return 0;
}

static int load_large(struct loader *l, const struct fxt_record *rec,
		      int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	int cpu = args_cpu(rec->large.args, rec->large.nargs);
	struct fxt_ks_row *row;
	int32_t pid;
	int prov, ret;

	prov = provider_index(l, rec->provider_id);
	if (prov < 0)
		return prov;
	if (folding(l, prov))
		return 0;
	ret = thread_pid(l, prov, rec->large.thread.pid, rec->large.thread.tid,
			 false, &pid);
	if (ret < 0)
		return ret;
	l->last_ftrace = NO_ROW;
	row = row_add(l, prov, ts, pid, cpu >= 0 ? cpu :
		      thread_cpu(l, pid_of(rec->large.thread.tid)),
		      fxt_ks_event_get(d, FXT_KS_LARGE_BLOB,
				       rec->large.category, rec->large.name));
	if (!row)
		return -ENOMEM;
	if (args_store(d, row, rec->large.args, rec->large.nargs) ||
	    arg_add_int(d, row, fxt_str_make("size", 4), FXT_ARG_UINT64,
			rec->large.size))
		return -ENOMEM;
	return 0;
}

static int load_kobj(struct loader *l, const struct fxt_record *rec)
{
	struct fxt_ks_data *d = l->d;
	unsigned int type = rec->kobj.obj_type;
	struct fxt_ks_task *t;
	unsigned int i;
	int64_t off;
	int prov = provider_index(l, rec->provider_id);

	if (prov < 0)
		return prov;
	if (d->tep) {
		int ret = report_tep_gather(d->tep, l->r, rec);

		if (ret < 0)
			return ret;
		l->last_plain = false;
	}
	/* another producer's: its thread (or process) is named */
	if (!folding(l, prov))
		return fxt_threads_note(l->threads, rec);
	if ((type != FXT_OBJ_THREAD && type != FXT_OBJ_PROCESS) ||
	    !rec->kobj.name.len)
		return 0;
	/*
	 * A name only events revealed is no saved cmdline: KernelShark shows
	 * such a task of the .dat as "<...>" (fxt2dat leaves it out too).
	 */
	for (i = 0; i < rec->kobj.nargs; i++)
		if (fxt_str_eq(rec->kobj.args[i].name, TCFXT_ARG_SOURCE) &&
		    rec->kobj.args[i].type == FXT_ARG_STRING &&
		    fxt_str_eq(rec->kobj.args[i].str, TCFXT_SOURCE_EVENT))
			return 0;
	t = fxt_ks_task_get(d, pid_of(rec->kobj.koid), true);
	if (!t)
		return -ENOMEM;
	/*
	 * KernelShark names threads.  A process name stands in for the main
	 * thread's until a thread record names it; later records rename.
	 */
	if (type == FXT_OBJ_PROCESS && t->name >= 0 && t->named_thread)
		return 0;
	off = fxt_ks_pool_add(d, rec->kobj.name.ptr, rec->kobj.name.len);
	if (off < 0 || off > INT32_MAX)
		return -ENOMEM;
	t->name = (int32_t)off;
	t->named_thread = type == FXT_OBJ_THREAD;
	return 0;
}

/*
 * Reread rows read string refs with the tables the reader has at the
 * end: fine while no string index is set twice (converted files set each
 * once), -EAGAIN as soon as one is, or a provider's tables start afresh.
 * Thread refs may change: a reread row keeps only the arguments.
 */
static int tables_note(struct loader *l, const struct fxt_record *rec)
{
	struct fxt_ks_provider *p;
	uint64_t *set, **sp, bit;
	unsigned int i;
	int prov;

	prov = provider_index(l, rec->provider_id);
	if (prov < 0)
		return prov;
	p = &l->d->providers[prov];
	sp = rec->nested ? &p->str_set_nested : &p->str_set;
	if (rec->type == FXT_REC_METADATA)
		return *sp ? -EAGAIN : 0;
	if (!*sp) {
		*sp = calloc(0x8000 / 64, sizeof(**sp));
		if (!*sp)
			return -ENOMEM;
	}
	set = *sp;
	i = rec->string.index & 0x7fff;
	/*
	 * Index 0 is always the empty string: a record of it changes no
	 * table (the reader ignores it), and the writer emits one before a
	 * shorter string for Tracy's importer, again and again.
	 */
	if (!i)
		return 0;
	bit = 1ULL << (i % 64);
	if (set[i / 64] & bit)
		return -EAGAIN;
	set[i / 64] |= bit;
	return 0;
}

static int load_record(struct loader *l, struct fxt_record *rec)
{
	uint64_t tps = fxt_reader_ticks_per_second(l->r);

	switch (rec->type) {
	case FXT_REC_STRING:
		return l->reread ? tables_note(l, rec) : 0;
	case FXT_REC_EVENT:
		return load_event(l, rec, ticks_to_ns(rec->event.ts, tps));
	case FXT_REC_SCHED:
		return load_sched(l, rec, ticks_to_ns(rec->sched.ts, tps));
	case FXT_REC_LOG:
		return load_log(l, rec, ticks_to_ns(rec->log.ts, tps));
	case FXT_REC_LARGE:
		if (rec->large.large_type != FXT_LARGE_BLOB ||
		    rec->large.format != FXT_LARGE_BLOB_METADATA)
			return 0;
		return load_large(l, rec, ticks_to_ns(rec->large.ts, tps));
	case FXT_REC_KERNEL_OBJ:
		return load_kobj(l, rec);
	case FXT_REC_METADATA:
		/*
		 * a nested frame that restates its tables: rereads of its
		 * rows read it from its start (fxt_reader_seek())
		 */
		if (rec->nested && l->reread &&
		    rec->meta.type == FXT_META_TRACE_INFO &&
		    rec->meta.info_type == FXT_TRACE_INFO_MAGIC) {
			size_t i;

			for (i = 0; i < l->d->nproviders; i++)
				if (l->d->providers[i].str_set_nested)
					memset(l->d->providers[i].str_set_nested,
					       0, 0x8000 / 8);
			return 0;
		}
		if (rec->meta.type == FXT_META_PROVIDER_INFO) {
			int prov = provider_index(l, rec->meta.provider_id);

			if (prov >= 0 && l->reread)
				prov = tables_note(l, rec);
			return prov < 0 ? prov : 0;
		}
		return 0;
	default:
		/* No timestamp, nothing KernelShark could place. */
		return 0;
	}
}

/*
 * Other producers' threads, all known now: each of their rows, drawn
 * pids and scheduling arguments gets its thread's task id, and each task
 * its name: the thread's, or its process's when the thread's koid is the
 * process's (the main thread, as a .dat's task is named after it).
 */
static int threads_settle(struct loader *l)
{
	const struct fxt_thread_info *ti;
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_task *t;
	const char *name;
	uint32_t len;
	size_t i, k, n;
	int64_t off;
	int ret;

	ret = fxt_threads_assign(l->threads);
	if (ret)
		return ret;
	for (i = 0; l->thread_rows && i < d->nrows; i++) {
		struct fxt_ks_row *row = &d->rows[i];

		if (row->pid < -1)
			row->pid = fxt_threads_task(l->threads,
						    FXT_KS_THREAD_IDX(row->pid));
		if (row->sched_pid < -1)
			row->sched_pid = fxt_threads_task(l->threads,
					FXT_KS_THREAD_IDX(row->sched_pid));
		if (fxt_ks_row_reread(row))
			continue;
		for (k = 0; k < row->nargs; k++) {
			struct fxt_ks_arg *a = &d->args[row->arg + k];

			if (a->type != FXT_KS_ARG_TASK)
				continue;
			a->type = FXT_ARG_INT64;
			a->v.i = fxt_threads_task(l->threads, (int)a->v.i);
		}
	}
	n = fxt_threads_count(l->threads);
	for (i = 0; i < n; i++) {
		ti = fxt_threads_info(l->threads, (int)i);
		if (!ti || ti->resolved != (int)i || !ti->task)
			continue;
		name = ti->name;
		len = ti->name_len;
		if (!name)
			continue;
		t = fxt_ks_task_get(d, ti->task, true);
		off = fxt_ks_pool_add(d, name, len);
		if (!t || off < 0 || off > INT32_MAX)
			return -ENOMEM;
		t->name = (int32_t)off;
		t->named_thread = true;
	}
	return 0;
}

/*
 * Rows are written once each, in order, tens of megabytes of them: in
 * huge pages where the kernel has them (the advice is a hint), that is
 * one page fault per 2 MB instead of per 4 kB.
 */
static void advise_huge(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

static int map_file(struct fxt_ks_data *d, const char *path)
{
	bool cut = false;
	enum fxt_zip kind;
	const void *file;
	void *map;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = file_map_fd(fd, FILE_MAP_POPULATE, &file, &d->map_len);
	/* no regular file, or too short for the magic record: no FXT */
	if (ret == -ENODEV || (!ret && d->map_len < 8)) {
		if (!ret)
			file_unmap(file, d->map_len);
		ret = -ENODATA;
	}
	if (ret) {
		d->map_len = 0;
		close(fd);
		return ret;
	}
	map = (void *)file;
	kind = fxt_zip_detect(map, d->map_len);
	if (kind != FXT_ZIP_NONE) {
		/* gzip'd or zstd'd: the decoded file, whole, in memory */
		file_unmap(file, d->map_len);
		ret = fxt_zip_map(fd, kind, &map, &d->map_len, &cut);
		if (ret < 0) {
			close(fd);
			return ret;
		}
		/* cut short: the records it holds, as of a plain file cut */
		if (cut)
			fprintf(stderr, "plugin-fxt: %s: its %s stream is cut "
				"short: the %zu bytes it holds are read\n", path,
				kind == FXT_ZIP_GZIP ? "gzip" : "zstd",
				d->map_len);
	}
	close(fd);
	/* Decoding reads straight through; info strings come later. */
	madvise(map, d->map_len, MADV_SEQUENTIAL);
	d->map = map;
	/* Room for a typical file at once: growing by copies costs more. */
	d->rows_cap = d->map_len / 48 + 1024;
	d->args_cap = d->map_len / 12 + 4096;
	d->rows = fxt_ks_big_alloc(d->rows_cap * sizeof(*d->rows));
	d->args = fxt_ks_big_alloc(d->args_cap * sizeof(*d->args));
	if (!d->rows || !d->args)
		return -ENOMEM;
	advise_huge(d->rows, d->rows_cap * sizeof(*d->rows));
	return 0;
}

static int data_load(struct fxt_ks_data *d, const char *path, bool reread)
{
	struct loader l = {
		.d = d,
		.last_ftrace = NO_ROW,
		.reread = reread,
	};
	struct fxt_record rec;
	size_t i;
	int ret;

	memset(d, 0, sizeof(*d));
	memset(d->buckets, 0xff, sizeof(d->buckets));
	pthread_mutex_init(&d->lock, NULL);
	l.threads = fxt_threads_new();
	ret = l.threads ? map_file(d, path) : -ENOMEM;
	if (ret)
		goto fail;

	l.r = fxt_reader_open_mem(d->map, d->map_len, path, 0);
	if (!l.r) {
		ret = -errno;
		goto fail;
	}
	/* Reread rows' arguments are decoded when asked for: see load_event(). */
	if (reread)
		fxt_reader_set_lazy(l.r, true);
	/* An empty string for zero-length string arguments. */
	if (fxt_ks_pool_add(d, "", 0) < 0) {
		ret = -ENOMEM;
		goto fail;
	}
	while ((ret = fxt_reader_next(l.r, &rec)) > 0) {
		ret = load_record(&l, &rec);
		if (ret < 0) {
			if (ret == -EAGAIN)
				goto fail;
			if (l.err)
				ret = l.err;
			if (l.err == -EOVERFLOW)
				fprintf(stderr, "plugin-fxt: %s: more than %u "
					"providers, more than entries can "
					"tell apart\n", path,
					(unsigned int)FXT_KS_MAX_PROVIDERS);
			goto fail;
		}
	}
	if (ret < 0) {
		const char *err = fxt_reader_error(l.r);

		/* Keep what came before the fault, as the spec promises. */
		d->error = strdup(err ? err : "malformed record");
		fprintf(stderr, "plugin-fxt: %s (%zu entries before it)\n",
			d->error ? d->error : "malformed record", d->nrows);
		if (!d->nrows) {
			ret = -ENODATA;
			goto fail;
		}
	}
	if (l.threads_seen) {
		ret = threads_settle(&l);
		if (ret)
			goto fail;
	}
	if (d->tep) {
		ret = report_tep_ready(d->tep, l.r);
		if (ret == -ENOMEM)
			goto fail;
		/* no formats carried: the arguments are the info then */
		if (ret < 0) {
			report_tep_close(d->tep);
			d->tep = NULL;
		}
	}
	/* what the reader skipped or read in part: said once */
	{
		char tally[2048];

		if (fxt_reader_tally(l.r, "plugin-fxt: ", tally,
				     sizeof(tally)))
			fputs(tally, stderr);
	}
	for (i = 0; i < d->nrows && !fxt_ks_row_reread(&d->rows[i]); i++)
		;
	fxt_reader_set_lazy(l.r, false);
	if (i < d->nrows)
		d->reread = l.r;
	else
		fxt_reader_close(l.r);
	l.r = NULL;
	madvise((void *)d->map, d->map_len, MADV_RANDOM);

	ret = fxt_ks_events_label(d);
	if (!ret)
		ret = fxt_ks_rows_place_missed(d);
	if (!ret)
		ret = fxt_ks_rows_sort(d);
	if (ret)
		goto fail;
	if (!d->n_cpus)
		d->n_cpus = 1;
	fxt_threads_free(l.threads);
	return 0;

fail:
	if (l.r)
		fxt_reader_close(l.r);
	fxt_threads_free(l.threads);
	fxt_ks_data_free(d);
	return ret < 0 ? ret : -EINVAL;
}

int fxt_ks_data_load(struct fxt_ks_data *d, const char *path)
{
	int ret = data_load(d, path, true);

	/* a file whose tables change: every row stores its arguments */
	if (ret == -EAGAIN)
		ret = data_load(d, path, false);
	return ret;
}

void fxt_ks_data_free(struct fxt_ks_data *d)
{
	unsigned int i;

	/* the file's mapping or fxt_zip_map()'s memory: munmap() takes both */
	if (d->map)
		munmap((void *)d->map, d->map_len);
	fxt_ks_events_free(d);
	report_tep_close(d->tep);
	for (i = 0; i < d->nproviders; i++) {
		free(d->providers[i].name);
		free(d->providers[i].str_set);
		free(d->providers[i].str_set_nested);
		free(d->providers[i].cpus_used);
		free(d->providers[i].buffer);
	}
	free(d->providers);
	u64_map_free(&d->provider_at);
	fxt_ks_big_free(d->rows, d->rows_cap * sizeof(*d->rows));
	fxt_ks_big_free(d->args, d->args_cap * sizeof(*d->args));
	free(d->pool);
	free(d->tasks);
	u64_map_free(&d->task_at);
	free(d->error);
	free(d->scratch);
	if (d->reread)
		fxt_reader_close(d->reread);
	pft2dat_view_close(d->pft);
	pthread_mutex_destroy(&d->lock);
	memset(d, 0, sizeof(*d));
}
