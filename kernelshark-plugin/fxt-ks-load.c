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
 * trace-fxt's converter writes some ftrace events more than once: the
 * instant event that keeps every field (and a `cpu` argument), plus what
 * Perfetto needs to draw them - a scheduling record for sched_switch and
 * sched_waking/wakeup, a log record and maybe an atrace duration, counter
 * or async event for a trace_marker write.  A record right next to such
 * an instant, with the same timestamp and the same CPU (scheduling
 * records; any CPU for a wakeup, whose CPU is the target's) or the same
 * thread (logs and non-instant events), is taken for a restatement and
 * folded into the instant, so that the entries are those of the original
 * trace.dat.  Only in providers that trace-fxt wrote (they begin with its
 * trace-cmd/file_info instant): other producers' records are never folded.
 * In those providers the "trace-cmd" instants that describe the file
 * (file_info, cpustats, event formats, kallsyms, printk) are no rows
 * either; trace-cmd/lost_events becomes KernelShark's missed_events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-ks.h"
#include "tcfxt.h"

#define NO_ROW	SIZE_MAX

struct loader {
	struct fxt_ks_data	*d;
	struct fxt_reader	*r;
	/* Row of the last instant that carried a `cpu` argument. */
	size_t			last_instant;
	/* Row of the last record that could restate an instant after it. */
	size_t			last_restater;
	uint32_t		provider_id;
	uint16_t		provider;
	bool			provider_known;
	/*
	 * Why loading stopped where a NULL row cannot say it: -EOVERFLOW,
	 * too many providers.  0 otherwise.
	 */
	int			err;
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

static int64_t ticks_to_ns(uint64_t ticks, uint64_t tps)
{
	unsigned __int128 ns;

	if (tps == 1000000000ULL || !tps)
		return ticks > INT64_MAX ? INT64_MAX : (int64_t)ticks;
	ns = (unsigned __int128)ticks * 1000000000ULL / tps;
	return ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
}

static bool arg_is_int(unsigned int type)
{
	return type == FXT_ARG_INT32 || type == FXT_ARG_UINT32 ||
	       type == FXT_ARG_INT64 || type == FXT_ARG_UINT64;
}

static int64_t arg_int(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:	return a->i32;
	case FXT_ARG_UINT32:	return a->u32;
	case FXT_ARG_INT64:	return a->i64;
	default:		return (int64_t)a->u64;
	}
}

/* The `cpu` argument of a record, or -1. */
static int args_cpu(const struct fxt_arg *args, unsigned int nargs)
{
	unsigned int i;
	int64_t v;

	for (i = 0; i < nargs; i++) {
		if (!arg_is_int(args[i].type) || !fxt_str_eq(args[i].name, TCFXT_ARG_CPU))
			continue;
		v = arg_int(&args[i]);
		return v >= 0 && v < FXT_KS_MAX_CPU ? (int)v : -1;
	}
	return -1;
}

static int thread_cpu(struct loader *l, int32_t pid)
{
	struct fxt_ks_task *t = fxt_ks_task_get(l->d, pid, false);

	return t && t->cpu >= 0 ? t->cpu : FXT_KS_FALLBACK_CPU;
}

static size_t provider_hash(uint32_t id, size_t mask)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Slot of @id in the index: where it is, or the free slot for it. */
static size_t provider_slot(const struct fxt_ks_data *d, uint32_t id)
{
	size_t h;

	for (h = provider_hash(id, d->provider_mask); d->provider_slots[h];
	     h = (h + 1) & d->provider_mask)
		if (d->providers[d->provider_slots[h] - 1].id == id)
			break;
	return h;
}

/* Room for one more provider, its index kept at most half full. */
static int providers_grow(struct fxt_ks_data *d)
{
	unsigned int n = d->nproviders;
	struct fxt_ks_provider *p;
	uint32_t *slots;
	size_t size, i;

	if (n == d->providers_cap) {
		unsigned int cap = n ? 2 * n : 8;

		p = realloc(d->providers, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		d->providers = p;
		d->providers_cap = cap;
	}
	if (d->provider_slots && 2 * (n + 1) <= d->provider_mask + 1)
		return 0;
	size = d->provider_slots ? 2 * (d->provider_mask + 1) : 32;
	slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(d->provider_slots);
	d->provider_slots = slots;
	d->provider_mask = size - 1;
	for (i = 0; i < n; i++)
		slots[provider_slot(d, d->providers[i].id)] = (uint32_t)i + 1;
	return 0;
}

/*
 * Index of provider @id in d->providers, made on first sight.  Rows name
 * their provider in 16 bits (a row is 24 bytes, and KernelShark files
 * have a provider per ftrace buffer: a handful), so a file with more
 * providers is refused rather than shown with some rows in the wrong one.
 */
static int provider_index(struct loader *l, uint32_t id)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_provider *p;
	const char *name;
	unsigned int i;
	size_t h;

	if (l->provider_known && l->provider_id == id)
		return l->provider;
	h = d->provider_slots ? provider_slot(d, id) : 0;
	if (d->provider_slots && d->provider_slots[h]) {
		i = d->provider_slots[h] - 1;
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
		d->provider_slots[provider_slot(d, id)] = i + 1;
		d->nproviders++;
	}
	l->provider_id = id;
	l->provider = (uint16_t)i;
	l->provider_known = true;
	return (int)i;
}

static struct fxt_ks_row *row_add(struct loader *l, uint32_t provider_id,
				  int64_t ts, int32_t pid, int cpu, int event)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_row *row;
	int prov;

	if (event < 0)
		return NULL;
	prov = provider_index(l, provider_id);
	if (prov < 0)
		return NULL;
	if (d->nrows == d->rows_cap) {
		size_t cap = d->rows_cap ? d->rows_cap * 2 : 4096;

		row = realloc(d->rows, cap * sizeof(*row));
		if (!row)
			return NULL;
		d->rows = row;
		d->rows_cap = cap;
	}
	if (cpu + 1 > d->n_cpus)
		d->n_cpus = cpu + 1;
	row = &d->rows[d->nrows++];
	row->ts = ts;
	row->pid = pid;
	row->cpu = (int16_t)cpu;
	row->event = (int16_t)event;
	row->arg = (uint32_t)d->nargs;
	row->nargs = 0;
	row->provider = (uint16_t)prov;
	return row;
}

/* Drop the last row and its arguments. */
static void row_pop(struct fxt_ks_data *d)
{
	d->nrows--;
	d->nargs = d->rows[d->nrows].arg;
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

		a = realloc(d->args, cap * sizeof(*a));
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
		if (!a)
			continue;
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
			if (arg_set_str(d, a, src->str))
				return -ENOMEM;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Does the current provider come from trace-fxt's converter? */
static bool folding(const struct loader *l)
{
	return l->provider_known && l->d->providers[l->provider].from_trace_fxt;
}

/* Could a record of @kind at @ts, @cpu, @pid restate the instant @inst? */
static bool restate_match(const struct fxt_ks_row *inst, unsigned int kind,
			  int64_t ts, int cpu, int32_t pid)
{
	if (inst->ts != ts)
		return false;
	switch (kind) {
	case FXT_KS_SWITCH:
		return inst->cpu == cpu;
	case FXT_KS_WAKEUP:
		return true;
	default:
		return inst->pid == pid;
	}
}

/* Is the record about to become a row a restatement of the last one? */
static bool restated(struct loader *l, unsigned int kind, int64_t ts,
		     int cpu, int32_t pid)
{
	struct fxt_ks_data *d = l->d;

	return folding(l) && l->last_instant != NO_ROW &&
	       l->last_instant == d->nrows - 1 &&
	       restate_match(&d->rows[l->last_instant], kind, ts, cpu, pid);
}

/* After a restatable record that became a row: an instant may follow. */
static void restater_added(struct loader *l)
{
	l->last_instant = NO_ROW;
	l->last_restater = l->d->nrows - 1;
}

/* Before an instant with a `cpu` argument: drop the row it restates. */
static void restater_fold(struct loader *l, int64_t ts, int cpu, int32_t pid)
{
	struct fxt_ks_data *d = l->d;
	struct fxt_ks_row inst = { .ts = ts, .cpu = (int16_t)cpu, .pid = pid };
	const struct fxt_ks_row *prev;

	if (!folding(l) || l->last_restater == NO_ROW ||
	    l->last_restater != d->nrows - 1)
		return;
	prev = &d->rows[l->last_restater];
	if (restate_match(&inst, d->events[prev->event].kind, prev->ts,
			  prev->cpu, prev->pid))
		row_pop(d);
}

/*
 * Is the instant @ev trace-fxt's NAME.cont of the row just added, the
 * instant NAME at the same time on the same thread?  It holds that event's
 * arguments past FXT_MAX_ARGS, which are the row's.
 */
static bool continues_last(const struct loader *l, const struct fxt_event *ev,
			   int64_t ts, int32_t pid)
{
	const struct fxt_ks_data *d = l->d;
	const struct fxt_ks_row *row;
	const struct fxt_ks_event *e;

	if (!folding(l) || l->last_instant == NO_ROW ||
	    l->last_instant != d->nrows - 1 ||
	    !tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX))
		return false;
	row = &d->rows[l->last_instant];
	e = &d->events[row->event];
	return row->ts == ts && row->pid == pid &&
	       ev->name.len == e->name_len + strlen(TCFXT_CONT_SUFFIX) &&
	       !memcmp(ev->name.ptr, e->name, e->name_len) &&
	       fxt_str_eq(ev->category, e->category);
}

static int load_event(struct loader *l, const struct fxt_record *rec,
		      int64_t ts)
{
	const struct fxt_event *ev = &rec->event;
	struct fxt_ks_data *d = l->d;
	int32_t pid = pid_of(ev->thread.tid);
	unsigned int kind = ev->type;
	struct fxt_ks_row *row;
	int cpu, ret = 0;

	if (kind >= FXT_EVENT_TYPE_COUNT)
		kind = FXT_KS_OTHER;
	if (kind == FXT_EVENT_INSTANT && tcfxt_is_meta(ev->category)) {
		int prov = provider_index(l, rec->provider_id);

		if (prov < 0)
			return prov;
		/*
		 * trace-fxt's file metadata (file_info, which marks the
		 * provider, cpustats, event formats, kallsyms...) describes
		 * the trace; it is no event of the .dat's.  Lost events are.
		 */
		if (fxt_str_eq(ev->name, TCFXT_FILE_INFO))
			d->providers[prov].from_trace_fxt = true;
		if (d->providers[prov].from_trace_fxt &&
		    !fxt_str_eq(ev->name, TCFXT_LOST_EVENTS))
			return 0;
	}
	if (kind == FXT_EVENT_INSTANT && continues_last(l, ev, ts, pid))
		return args_store(d, &d->rows[d->nrows - 1], ev->args,
				  ev->nargs);
	cpu = args_cpu(ev->args, ev->nargs);
	if (kind != FXT_EVENT_INSTANT) {
		if (restated(l, kind, ts, cpu, pid))
			return 0;
	} else if (cpu >= 0) {
		restater_fold(l, ts, cpu, pid);
	}
	l->last_restater = NO_ROW;
	l->last_instant = NO_ROW;

	row = row_add(l, rec->provider_id, ts, pid,
		      cpu >= 0 ? cpu : thread_cpu(l, pid),
		      fxt_ks_event_get(d, kind, ev->category, ev->name));
	if (!row)
		return -ENOMEM;
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
	if (kind != FXT_EVENT_INSTANT)
		restater_added(l);
	else if (cpu >= 0)
		l->last_instant = d->nrows - 1;
	return ret;
}

static void task_set_cpu(struct loader *l, int32_t pid, int cpu)
{
	struct fxt_ks_task *t = fxt_ks_task_get(l->d, pid, true);

	if (t)
		t->cpu = (int16_t)cpu;
}

static bool inferred(const struct fxt_record *rec)
{
	unsigned int i;

	for (i = 0; i < rec->sched.nargs; i++)
		if (fxt_str_eq(rec->sched.args[i].name, TCFXT_ARG_INFERRED))
			return true;
	return false;
}

static int load_sched(struct loader *l, const struct fxt_record *rec,
		      int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	bool wakeup = rec->sched.subtype == FXT_SCHED_WAKEUP;
	int cpu = rec->sched.cpu < FXT_KS_MAX_CPU ? (int)rec->sched.cpu : -1;
	int32_t out = pid_of(rec->sched.out.tid);
	int32_t in = pid_of(rec->sched.in.tid);
	struct fxt_ks_row *row;

	if (rec->sched.subtype > FXT_SCHED_WAKEUP)
		return 0;
	/* a switch the converter inferred is no event of the recording */
	if (folding(l) && inferred(rec))
		return 0;
	if (!wakeup && cpu >= 0) {
		task_set_cpu(l, out, cpu);
		task_set_cpu(l, in, cpu);
	}
	if (restated(l, wakeup ? FXT_KS_WAKEUP : FXT_KS_SWITCH, ts, cpu,
		     wakeup ? in : out))
		return 0;

	if (cpu < 0)
		cpu = thread_cpu(l, wakeup ? in : out);
	row = row_add(l, rec->provider_id, ts, wakeup ? in : out, cpu,
		      fxt_ks_event_get(d, wakeup ? FXT_KS_WAKEUP : FXT_KS_SWITCH,
				       str_fxt,
				       wakeup ? str_wakeup : str_switch));
	if (!row)
		return -ENOMEM;
	if (wakeup) {
		if (arg_add_int(d, row, fxt_str_make("pid", 3), FXT_ARG_INT64,
				(uint64_t)(int64_t)in))
			return -ENOMEM;
	} else if (arg_add_int(d, row, fxt_str_make("prev_pid", 8),
			       FXT_ARG_INT64, (uint64_t)(int64_t)out) ||
		   arg_add_int(d, row, fxt_str_make("prev_state", 10),
			       FXT_KS_ARG_STATE, rec->sched.out_state) ||
		   arg_add_int(d, row, fxt_str_make("next_pid", 8),
			       FXT_ARG_INT64, (uint64_t)(int64_t)in)) {
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
	restater_added(l);
	return 0;
}

static int load_log(struct loader *l, const struct fxt_record *rec,
		    int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	int32_t pid = pid_of(rec->log.thread.tid);
	struct fxt_ks_row *row;
	struct fxt_ks_arg *a;
	int ret;

	if (restated(l, FXT_KS_LOG, ts, -1, pid))
		return 0;
	row = row_add(l, rec->provider_id, ts, pid, thread_cpu(l, pid),
		      fxt_ks_event_get(d, FXT_KS_LOG, str_fxt, str_log));
	if (!row)
		return -ENOMEM;
	ret = arg_slot(d, row, fxt_str_make("message", 7), FXT_ARG_STRING, &a);
	if (ret)
		return ret;
	if (a && arg_set_str(d, a, rec->log.msg))
		return -ENOMEM;
	restater_added(l);
	return 0;
}

static int load_large(struct loader *l, const struct fxt_record *rec,
		      int64_t ts)
{
	struct fxt_ks_data *d = l->d;
	int32_t pid = pid_of(rec->large.thread.tid);
	int cpu = args_cpu(rec->large.args, rec->large.nargs);
	struct fxt_ks_row *row;

	l->last_instant = l->last_restater = NO_ROW;
	row = row_add(l, rec->provider_id, ts, pid,
		      cpu >= 0 ? cpu : thread_cpu(l, pid),
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
	int64_t off;

	if ((type != FXT_OBJ_THREAD && type != FXT_OBJ_PROCESS) ||
	    !rec->kobj.name.len)
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

static int load_record(struct loader *l, const struct fxt_record *rec)
{
	uint64_t tps = fxt_reader_ticks_per_second(l->r);

	switch (rec->type) {
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
		if (rec->meta.type == FXT_META_PROVIDER_INFO) {
			int prov = provider_index(l, rec->meta.provider_id);

			return prov < 0 ? prov : 0;
		}
		return 0;
	default:
		/* No timestamp, nothing KernelShark could place. */
		return 0;
	}
}

static int map_file(struct fxt_ks_data *d, const char *path)
{
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < 8) {
		close(fd);
		return -ENODATA;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	/* Decoding reads straight through; info strings come later. */
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	d->map = map;
	d->map_len = (size_t)st.st_size;
	/* Room for a typical file at once: growing by copies costs more. */
	d->rows_cap = d->map_len / 48 + 1024;
	d->args_cap = d->map_len / 12 + 4096;
	d->rows = malloc(d->rows_cap * sizeof(*d->rows));
	d->args = malloc(d->args_cap * sizeof(*d->args));
	if (!d->rows || !d->args)
		return -ENOMEM;
	return 0;
}

int fxt_ks_data_load(struct fxt_ks_data *d, const char *path)
{
	struct loader l = {
		.d = d,
		.last_instant = NO_ROW,
		.last_restater = NO_ROW,
	};
	struct fxt_record rec;
	int ret;

	memset(d, 0, sizeof(*d));
	memset(d->buckets, 0xff, sizeof(d->buckets));
	ret = map_file(d, path);
	if (ret)
		goto fail;

	l.r = fxt_reader_open_mem(d->map, d->map_len, path, 0);
	if (!l.r) {
		ret = -errno;
		goto fail;
	}
	/* An empty string for zero-length string arguments. */
	if (fxt_ks_pool_add(d, "", 0) < 0) {
		ret = -ENOMEM;
		goto fail;
	}
	while ((ret = fxt_reader_next(l.r, &rec)) > 0) {
		ret = load_record(&l, &rec);
		if (ret < 0) {
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
	/* what the reader skipped or read in part: said once */
	if (fxt_reader_warned_records(l.r))
		fprintf(stderr, "plugin-fxt: %llu record%s skipped or not "
			"read in full; the first: %s\n",
			(unsigned long long)fxt_reader_warned_records(l.r),
			fxt_reader_warned_records(l.r) == 1 ? "" : "s",
			fxt_reader_first_warning(l.r));
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
	return 0;

fail:
	if (l.r)
		fxt_reader_close(l.r);
	fxt_ks_data_free(d);
	return ret < 0 ? ret : -EINVAL;
}

void fxt_ks_data_free(struct fxt_ks_data *d)
{
	unsigned int i;

	if (d->map)
		munmap((void *)d->map, d->map_len);
	fxt_ks_events_free(d);
	for (i = 0; i < d->nproviders; i++)
		free(d->providers[i].name);
	free(d->providers);
	free(d->provider_slots);
	free(d->rows);
	free(d->args);
	free(d->pool);
	free(d->tasks);
	free(d->error);
	memset(d, 0, sizeof(*d));
}
