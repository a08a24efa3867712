// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-report.c - trace-fxt report [--raw] FILE.fxt|FILE.dat
 *
 * One line per event in trace-cmd report's layout:
 *   comm-pid [cpu] seconds: event: field=value ...
 * When the FXT carries the event formats (converted from a .dat), those
 * events are printed by libtraceevent as trace-cmd report prints them
 * (report-tep.c), with --raw as `trace-cmd report -R` does: each field in
 * the conversion its event's print format gives it ("%03d", "0x%04x",
 * "%p"), else as its format's size, sign and type say, which the FXT's
 * typed arguments alone do not.  Events without a carried format print
 * their arguments: the task name from the thread's kernel object (the
 * file's saved cmdlines), the time column as trace-cmd formats it, and
 * each field its "<field>.text" rendering when the converter kept one.
 * In those files, what the converter added for viewers (scheduling, log,
 * atrace records) is not shown: the ftrace event it came from is.
 *
 * FXT of other producers prints one line per timestamped record: instants
 * as category:name with their arguments, the other event kinds with their
 * kind in the event column as trace-cmd report prints them once converted
 * to a .dat ("duration_begin: cat:name args"), durations with their
 * length and the others with their id ("(duration N ns)", "(id N)"
 * after the name), context switches, wakeups, logs and large blobs; the CPU
 * is the one the thread last ran on by the context switches, where known.
 * Records without a timestamp (blobs, objects) name things: not lines.
 * Their threads are (process, thread) pairs (fxt-threads.h): a first pass
 * over a regular file learns them all, their names included, and each
 * shows under the task id `convert` gives it in the .dat; from a pipe,
 * under its tid, named as far as the file has named it yet.  Strings
 * holding what one line cannot show are quoted with C escapes.
 *
 * A trace.dat is converted first, by convert itself, into a file that
 * has no name, and that is reported: the same lines, and a damaged
 * recording's damage said as convert says it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxt-format.h"
#include "fxt-print.h"
#include "fxt-reader.h"
#include "fxt-tep.h"
#include "fxt-threads.h"
#include "in-file.h"
#include "pft2dat.h"
#include "trace-fxt.h"
#include "tcfxt.h"
#include "u64-map.h"

/*
 * tcfxt.h's TCFXT_ARG_TRAILING: an ftrace record's bytes past its fields,
 * which -R does not print (it walks the format's fields only).
 */

/*
 * What the report knows of a thread by koid (= tid): the CPU it last ran
 * on, and in converted files (where a tid is a .dat pid) its name.
 */
struct thread_note {
	int		cpu;		/* last ran on, -1 unknown */
	char		*name;		/* NULL: no kernel object named it */
};

/* Open duration_begin times (ns) of a thread of another producer. */
struct begins {
	uint64_t	*ts;
	size_t		n, cap;
};

struct report_provider {
	uint32_t	id;
	char		*name;
	bool		top;
	bool		in_usecs;
	bool		tcfxt;		/* written by the converter */
};

struct report {
	bool			raw;
	struct report_tep	*tep;		/* libtraceevent prints */
	struct thread_note	*notes;		/* in the order first seen */
	size_t			notes_cap;
	struct u64_map		note_at;	/* koid -> index + 1 */
	/* other producers' threads, and their open durations by index */
	struct fxt_threads	*threads;
	bool			prepassed;	/* threads, names all known */
	struct begins		*begins;
	size_t			nr_begins;
	struct report_provider	*provs;
	size_t			nr_provs;
	int			prefix_width;	/* -1: no buffer prefix */
	bool			header_done;
	char			*line;		/* the event being built */
	size_t			len, cap;
	bool			pending;
	bool			pending_ftrace;	/* the pending line's event */
	bool			lost_pending;	/* event line: no prefix */
	uint64_t		lines;
};

static int line_grow(struct report *r, size_t more)
{
	char *p;
	size_t cap;

	if (r->len + more + 1 <= r->cap)
		return 0;
	cap = (r->len + more + 1) * 2;
	p = realloc(r->line, cap);
	if (!p)
		return -ENOMEM;
	r->line = p;
	r->cap = cap;
	return 0;
}

static void line_add(struct report *r, const char *s, size_t n)
{
	if (line_grow(r, n))
		return;
	memcpy(r->line + r->len, s, n);
	r->len += n;
	r->line[r->len] = '\0';
}

static void line_printf(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_printf(struct report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || line_grow(r, n))
		return;
	va_start(ap, fmt);
	vsnprintf(r->line + r->len, n + 1, fmt, ap);
	va_end(ap);
	r->len += n;
}

static void line_flush(struct report *r)
{
	if (!r->pending)
		return;
	/* as trace-cmd: a line's own trailing newline ends it */
	if (!r->len || r->line[r->len - 1] != '\n')
		line_add(r, "\n", 1);
	fwrite(r->line, 1, r->len, stdout);
	r->len = 0;
	r->pending = false;
	r->lines++;
}

/* @s as one line of a report shows it: quoted with escapes if need be. */
static void put_text(struct report *r, struct fxt_str s)
{
	int n;

	if (!fxt_str_needs_quote(s)) {
		line_add(r, s.ptr, s.len);
		return;
	}
	n = fxt_print_str(NULL, 0, s, FXT_PRINT_QUOTE);
	if (n < 0 || line_grow(r, (size_t)n))
		return;
	fxt_print_str(r->line + r->len, (size_t)n + 1, s, FXT_PRINT_QUOTE);
	r->len += (size_t)n;
}

static struct thread_note *name_find(struct report *r, uint64_t koid)
{
	uint64_t at = u64_map_get(&r->note_at, koid);

	return at ? &r->notes[at - 1] : NULL;
}

/* The thread @koid, made if new; NULL only when out of memory. */
static struct thread_note *task_get(struct report *r, uint64_t koid)
{
	struct thread_note *s = name_find(r, koid);
	size_t n = r->note_at.nr;

	if (s)
		return s;
	if (n == r->notes_cap) {
		size_t cap = n ? 2 * n : 512;

		s = realloc(r->notes, cap * sizeof(*s));
		if (!s)
			return NULL;
		r->notes = s;
		r->notes_cap = cap;
	}
	if (u64_map_set(&r->note_at, koid, n + 1))
		return NULL;
	s = &r->notes[n];
	*s = (struct thread_note){ .cpu = -1 };
	return s;
}

static int name_set(struct report *r, uint64_t koid, struct fxt_str name)
{
	struct thread_note *s = task_get(r, koid);
	char *copy = strndup(name.ptr ? name.ptr : "", name.len);

	if (!copy || !s) {
		free(copy);
		return -ENOMEM;
	}
	free(s->name);
	s->name = copy;
	return 0;
}

static struct report_provider *prov_find(struct report *r, uint32_t id)
{
	size_t i;

	for (i = 0; i < r->nr_provs; i++)
		if (r->provs[i].id == id)
			return &r->provs[i];
	return NULL;
}

static int prov_add(struct report *r, uint32_t id, struct fxt_str name)
{
	struct report_provider *p = prov_find(r, id);
	int instances = 0, width = 0;
	size_t i;

	if (!p) {
		p = realloc(r->provs, (r->nr_provs + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		r->provs = p;
		p = &r->provs[r->nr_provs++];
		memset(p, 0, sizeof(*p));
		p->id = id;
		p->in_usecs = true;
	}
	free(p->name);
	p->name = strndup(name.ptr ? name.ptr : "", name.len);
	p->top = fxt_str_eq(name, TCFXT_TOP_BUFFER);
	/* trace-cmd prefixes lines with the buffer once there are several */
	for (i = 0; i < r->nr_provs; i++) {
		if (r->provs[i].top || !r->provs[i].name)
			continue;
		instances++;
		if ((int)strlen(r->provs[i].name) > width)
			width = strlen(r->provs[i].name);
	}
	r->prefix_width = instances ? width : -1;
	return 0;
}

static void file_info(struct report *r, const struct fxt_record *rec)
{
	struct report_provider *p = prov_find(r, rec->provider_id);
	const struct fxt_event *ev = &rec->event;
	const struct fxt_arg *a;
	int64_t v;

	if (p)
		p->tcfxt = true;
	a = fxt_args_find(ev->args, ev->nargs, TCFXT_INFO_IN_USECS);
	if (p && fxt_arg_int(a, &v))
		p->in_usecs = v;
	a = fxt_args_find(ev->args, ev->nargs, TCFXT_INFO_CPUS);
	if (!r->header_done && fxt_arg_int(a, &v)) {
		printf("cpus=%" PRIu64 "\n", (uint64_t)v);
		r->header_done = true;
	}
}

static void put_prefix(struct report *r, uint32_t provider_id)
{
	struct report_provider *p = prov_find(r, provider_id);

	if (r->prefix_width < 0)
		return;
	if (p && !p->top)
		line_printf(r, "%*s: ", r->prefix_width, p->name);
	else
		line_printf(r, "%*s  ", r->prefix_width, "");
}

static void put_value(struct report *r, const struct fxt_arg *a)
{
	char buf[64];

	switch (a->type) {
	case FXT_ARG_INT32:
		line_printf(r, "%d", a->i32);
		return;
	case FXT_ARG_UINT32:
		line_printf(r, "%u", a->u32);
		return;
	case FXT_ARG_INT64:
		line_printf(r, "%" PRId64, a->i64);
		return;
	case FXT_ARG_UINT64:
		line_printf(r, "%" PRIu64, a->u64);
		return;
	case FXT_ARG_POINTER:
		line_printf(r, "0x%" PRIx64, a->ptr);
		return;
	case FXT_ARG_STRING:
		/* raw in a converted file's fields, as trace-cmd -R prints */
		if (r->pending_ftrace)
			line_add(r, a->str.ptr, a->str.len);
		else
			put_text(r, a->str);
		return;
	default:
		fxt_print_arg_value(buf, sizeof(buf), a, 0);
		line_add(r, buf, strlen(buf));
	}
}

static bool is_text_of(const struct fxt_arg *t, const struct fxt_arg *a)
{
	size_t n = a->name.len;

	return t->type == FXT_ARG_STRING &&
	       t->name.len == n + strlen(TCFXT_TEXT_SUFFIX) &&
	       !memcmp(t->name.ptr, a->name.ptr, n) &&
	       tcfxt_has_suffix(t->name, TCFXT_TEXT_SUFFIX);
}

/*
 * Whether @a is element @k of the array @base names: map-array.c's
 * "<field>[k]" arguments, an integer of the element's width each.
 */
static bool is_element(const struct fxt_arg *a, const struct fxt_str *base,
		       unsigned int k)
{
	char idx[16];
	int n = snprintf(idx, sizeof(idx), "[%u]", k);

	if (a->type != FXT_ARG_INT32 && a->type != FXT_ARG_UINT32 &&
	    a->type != FXT_ARG_INT64 && a->type != FXT_ARG_UINT64)
		return false;
	return a->name.len == base->len + n &&
	       !memcmp(a->name.ptr, base->ptr, base->len) &&
	       !memcmp(a->name.ptr + base->len, idx, n);
}

/*
 * A converted small integer array ("<field>[0]", "[1]", ... from @i) as
 * -R prints it: " field=ARRAY[xx, ...]", each element's bytes in the
 * little-endian order they had, as wide as the first element's type (the
 * others may be narrower: map-array.c).  Returns the arguments it took,
 * 0 if @i starts none.
 */
static unsigned int put_elements(struct report *r, const struct fxt_arg *args,
				 unsigned int nargs, unsigned int i)
{
	static const char hex[] = "0123456789abcdef";
	const struct fxt_arg *a = &args[i];
	struct fxt_str base;
	unsigned int k, b, width;
	uint64_t v;
	char xx[4];

	if (a->name.len < 4 ||
	    memcmp(a->name.ptr + a->name.len - 3, "[0]", 3))
		return 0;
	base = fxt_str_make(a->name.ptr, a->name.len - 3);
	if (!is_element(a, &base, 0))
		return 0;
	line_add(r, " ", 1);
	line_add(r, base.ptr, base.len);
	line_add(r, "=ARRAY[", 7);
	width = a->type == FXT_ARG_INT32 || a->type == FXT_ARG_UINT32 ? 4 : 8;
	for (k = 0; i + k < nargs && is_element(&args[i + k], &base, k); k++) {
		const struct fxt_arg *e = &args[i + k];
		/* a wider element than the first: not ours, all its bytes */
		unsigned int ew = e->type == FXT_ARG_INT64 ||
				  e->type == FXT_ARG_UINT64 ? 8 : width;

		v = fxt_arg_bits(e);
		for (b = 0; b < ew; b++, v >>= 8) {
			xx[0] = ',';
			xx[1] = ' ';
			xx[2] = hex[(v >> 4) & 15];
			xx[3] = hex[v & 15];
			if (k || b)
				line_add(r, xx, 4);
			else
				line_add(r, xx + 2, 2);
		}
	}
	line_add(r, "]", 1);
	return k;
}

/* " name=value" for each field argument, from argument @i on. */
static void put_fields(struct report *r, const struct fxt_arg *args,
		       unsigned int nargs, unsigned int i)
{
	for (; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];

		if (a->name.len > 7 && !memcmp(a->name.ptr, "common_", 7))
			continue;
		if (r->pending_ftrace && fxt_str_eq(a->name, TCFXT_ARG_TRAILING))
			continue;
		if (r->pending_ftrace) {
			unsigned int took = put_elements(r, args, nargs, i);

			if (took) {
				i += took - 1;
				continue;
			}
		}
		line_add(r, " ", 1);
		if (r->pending_ftrace)
			line_add(r, a->name.ptr, a->name.len);
		else
			put_text(r, a->name);
		line_add(r, "=", 1);
		if (i + 1 < nargs && is_text_of(&args[i + 1], a)) {
			put_value(r, &args[i + 1]);
			i++;
			continue;
		}
		put_value(r, a);
	}
}

static void put_time(struct report *r, uint64_t ts, bool in_usecs)
{
	if (in_usecs) {
		ts = (ts + 500) / 1000;
		line_printf(r, " %5" PRIu64 ".%06" PRIu64 ":", ts / 1000000,
			    ts % 1000000);
	} else {
		line_printf(r, " %5" PRIu64 ".%012" PRIu64 ":",
			    ts / UINT64_C(1000000000000),
			    ts % UINT64_C(1000000000000));
	}
}

/* How a line names a thread: "comm" and its number. */
struct task_label {
	struct fxt_str	comm;
	uint64_t	num;
	int		idx;		/* other producers': the thread, else -1 */
	uint64_t	tid;
};

static const struct fxt_str str_idle = FXT_ARG_STR_NAME("<idle>");
static const struct fxt_str str_unnamed = FXT_ARG_STR_NAME("<...>");

/* A thread of a converted file: its tid is a .dat pid, 0 the idle task. */
static struct task_label label_converted(struct report *r, uint64_t tid)
{
	struct thread_note *ns = name_find(r, tid);
	struct task_label l = { .num = tid, .idx = -1, .tid = tid };

	l.comm = !tid ? str_idle : ns && ns->name ?
		 fxt_str_make(ns->name, strlen(ns->name)) : str_unnamed;
	return l;
}

/* Thread @idx of another producer (a negative one: out of memory). */
static struct task_label label_thread(struct report *r, int idx, uint64_t tid)
{
	const struct fxt_thread_info *ti = fxt_threads_info(r->threads, idx);
	struct task_label l = { .num = tid, .idx = idx, .tid = tid };

	l.comm = str_unnamed;
	if (!ti)
		return l;
	/* a file read once: its own tids, the idle task process 0's 0 */
	l.num = r->prepassed ? (uint64_t)ti->task : ti->tid;
	l.tid = ti->tid;
	if (ti->name)
		l.comm = fxt_str_make(ti->name, ti->name_len);
	else if (r->prepassed ? !ti->task : !ti->tid && !ti->pid)
		l.comm = str_idle;
	return l;
}

/* The thread (@pid, @tid) of a record of @rec's provider. */
static struct task_label label_pair(struct report *r, bool converted,
				    uint64_t pid, uint64_t tid)
{
	if (converted)
		return label_converted(r, tid);
	return label_thread(r, fxt_threads_pair(r->threads, pid, tid), tid);
}

/* The thread a scheduling record names by @tid alone. */
static struct task_label label_tid(struct report *r, bool converted,
				   uint64_t tid)
{
	if (converted)
		return label_converted(r, tid);
	return label_thread(r, fxt_threads_tid(r->threads, tid), tid);
}

/* "comm-N" as trace-cmd report lays it out. */
static void put_label(struct report *r, const struct task_label *l)
{
	size_t start = r->len;
	int width;

	put_text(r, l->comm);
	width = (int)(r->len - start);
	if (width < 16) {
		/* right-aligned in 16 columns */
		if (line_grow(r, 16 - width))
			return;
		memmove(r->line + start + 16 - width, r->line + start, width);
		memset(r->line + start, ' ', 16 - width);
		r->len = start + 16;
	}
	line_printf(r, "-%-5" PRIu64, l->num);
}

/*
 * Start a record's line: what is pending goes out first, then the buffer
 * prefix (unless a lost-events line just printed it) and "comm-tid".
 */
static void line_begin(struct report *r, uint32_t provider,
		       const struct task_label *l, bool ftrace)
{
	report_tep_flush(r->tep);
	line_flush(r);
	if (!r->lost_pending)
		put_prefix(r, provider);
	r->lost_pending = false;
	r->pending = true;
	r->pending_ftrace = ftrace;
	put_label(r, l);
}

/*
 * "comm-tid [cpu] seconds: kind: " of a record of another producer, the
 * kind padded as trace-cmd report pads event names.
 */
static void put_head(struct report *r, const struct fxt_record *rec,
		     const struct task_label *l, int cpu, uint64_t ts,
		     const char *kind)
{
	struct report_provider *p = prov_find(r, rec->provider_id);
	struct thread_note *ns = name_find(r, l->tid);
	static const char spaces[] = "                    ";
	size_t n = strlen(kind);

	line_begin(r, rec->provider_id, l, false);
	if (cpu < 0 && ns)
		cpu = ns->cpu;
	if (cpu >= 0)
		line_printf(r, " [%03d]", cpu);
	else
		line_add(r, " [---]", 6);
	put_time(r, ts, p ? p->in_usecs : true);
	line_printf(r, " %s: ", kind);
	if (n < 20)
		line_add(r, spaces, 20 - n);
}

static void put_name(struct report *r, struct fxt_str cat, struct fxt_str name)
{
	put_text(r, cat);
	line_add(r, ":", 1);
	put_text(r, name);
}

/* Durations: a stack of open begins per thread, ends pop it. */
static struct begins *begins_of(struct report *r, int idx)
{
	struct begins *b;
	size_t n;

	if (idx < 0)
		return NULL;
	if ((size_t)idx >= r->nr_begins) {
		n = r->nr_begins ? r->nr_begins : 64;
		while (n <= (size_t)idx)
			n *= 2;
		b = realloc(r->begins, n * sizeof(*b));
		if (!b)
			return NULL;
		memset(b + r->nr_begins, 0, (n - r->nr_begins) * sizeof(*b));
		r->begins = b;
		r->nr_begins = n;
	}
	return &r->begins[idx];
}

static void duration_push(struct report *r, int idx, uint64_t ts)
{
	struct begins *s = begins_of(r, idx);
	uint64_t *b;

	if (!s)
		return;
	if (s->n == s->cap) {
		b = realloc(s->ts, (s->cap * 2 + 8) * sizeof(*b));
		if (!b)
			return;
		s->ts = b;
		s->cap = s->cap * 2 + 8;
	}
	s->ts[s->n++] = ts;
}

static bool duration_pop(struct report *r, int idx, uint64_t *ts)
{
	struct begins *s = begins_of(r, idx);

	if (!s || !s->n)
		return false;
	*ts = s->ts[--s->n];
	return true;
}

/*
 * An event other than an instant, from another producer.  A duration's
 * length follows its name, "(duration N ns)", where no argument name can
 * be taken for it.
 */
static void report_kind(struct report *r, const struct fxt_record *rec,
			uint64_t tps)
{
	const struct fxt_event *ev = &rec->event;
	const char *kind = fxt_event_type_name(ev->type);
	uint64_t ts = fxt_ticks_to_ns(ev->ts, tps), begin;

	struct task_label l;

	if (!kind)
		return;		/* a reserved type: the reader warned */
	l = label_pair(r, false, ev->thread.pid, ev->thread.tid);
	put_head(r, rec, &l, -1, ts, kind);
	put_name(r, ev->category, ev->name);
	switch (ev->type) {
	case FXT_EVENT_DURATION_BEGIN:
		duration_push(r, l.idx, ts);
		break;
	case FXT_EVENT_DURATION_END:
		if (duration_pop(r, l.idx, &begin))
			line_printf(r, " (duration %" PRId64 " ns)",
				    (int64_t)(ts - begin));
		break;
	case FXT_EVENT_DURATION_COMPLETE:
		line_printf(r, " (duration %" PRId64 " ns)",
			    (int64_t)(fxt_ticks_to_ns(ev->end_ts, tps) - ts));
		break;
	default:
		line_printf(r, " (id %" PRIu64 ")", ev->id);
		break;
	}
	put_fields(r, ev->args, ev->nargs, 0);
}

static void report_sched(struct report *r, const struct fxt_record *rec,
			 uint64_t tps)
{
	bool wakeup = rec->sched.subtype == FXT_SCHED_WAKEUP;
	bool legacy = rec->sched.subtype == FXT_SCHED_LEGACY_SWITCH;
	const char *state = fxt_thread_state_name(rec->sched.out_state);
	struct task_label out, in;
	struct thread_note *s;

	if (rec->sched.subtype > FXT_SCHED_WAKEUP)
		return;		/* a reserved type: the reader warned */
	if (legacy) {
		out = label_pair(r, false, rec->sched.out.pid,
				 rec->sched.out.tid);
		in = label_pair(r, false, rec->sched.in.pid, rec->sched.in.tid);
	} else {
		out = label_tid(r, false, rec->sched.out.tid);
		in = label_tid(r, false, rec->sched.in.tid);
	}
	put_head(r, rec, wakeup ? &in : &out, (int)rec->sched.cpu,
		 fxt_ticks_to_ns(rec->sched.ts, tps),
		 wakeup ? "thread_wakeup" : "context_switch");
	if (wakeup) {
		line_printf(r, "pid=%" PRIu64, in.num);
	} else {
		line_printf(r, "prev_pid=%" PRIu64 " prev_state=%s",
			    out.num, state ? state : "?");
		if (legacy)
			line_printf(r, " prev_prio=%u", rec->sched.out_prio);
		line_add(r, " ==> next_comm=", 15);
		put_text(r, in.comm);
		line_printf(r, " next_pid=%" PRIu64, in.num);
		if (legacy)
			line_printf(r, " next_prio=%u", rec->sched.in_prio);
	}
	put_fields(r, rec->sched.args, rec->sched.nargs, 0);
	if (!wakeup) {
		s = task_get(r, in.tid);
		if (s)
			s->cpu = (int)rec->sched.cpu;
	}
}

static void report_log(struct report *r, const struct fxt_record *rec,
		       uint64_t tps)
{
	struct task_label l = label_pair(r, false, rec->log.thread.pid,
					 rec->log.thread.tid);

	put_head(r, rec, &l, -1, fxt_ticks_to_ns(rec->log.ts, tps), TCFXT_FXT_LOG);
	put_text(r, rec->log.msg);
}

static void report_large(struct report *r, const struct fxt_record *rec,
			 uint64_t tps)
{
	struct task_label l;

	if (rec->large.large_type != FXT_LARGE_BLOB ||
	    rec->large.format != FXT_LARGE_BLOB_METADATA)
		return;		/* no timestamp */
	l = label_pair(r, false, rec->large.thread.pid, rec->large.thread.tid);
	put_head(r, rec, &l, -1, fxt_ticks_to_ns(rec->large.ts, tps),
		 "large_blob");
	put_name(r, rec->large.category, rec->large.name);
	put_fields(r, rec->large.args, rec->large.nargs, 0);
	line_printf(r, " size=%" PRIu64, rec->large.size);
}

static bool from_converter(struct report *r, const struct fxt_record *rec)
{
	struct report_provider *p = prov_find(r, rec->provider_id);

	return p && p->tcfxt;
}

static void report_event(struct report *r, const struct fxt_record *rec,
			 uint64_t tps)
{
	const struct fxt_event *ev = &rec->event;
	struct report_provider *p = prov_find(r, rec->provider_id);
	bool ftrace = tcfxt_is_ftrace(ev);
	const struct fxt_arg *cpu = ftrace ? &ev->args[0] : NULL;
	struct thread_note *ns;
	struct task_label l;
	static const char spaces[] = "                    ";

	if (tcfxt_is_meta(ev->category)) {
		if (fxt_str_eq(ev->name, TCFXT_FILE_INFO)) {
			file_info(r, rec);
		} else if (fxt_str_eq(ev->name, TCFXT_LOST_EVENTS) && ftrace) {
			const struct fxt_arg *c;

			c = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_COUNT);

			report_tep_flush(r->tep);
			line_flush(r);
			put_prefix(r, rec->provider_id);
			if (c && c->type == FXT_ARG_INT64 && c->i64 > 0)
				line_printf(r, "CPU:%u [%" PRId64
					    " EVENTS DROPPED]\n", cpu->u32,
					    c->i64);
			else
				line_printf(r, "CPU:%u [EVENTS DROPPED]\n",
					    cpu->u32);
			/* the event line follows without a prefix */
			r->pending = false;
			fwrite(r->line, 1, r->len, stdout);
			r->len = 0;
			r->lost_pending = true;
		}
		return;
	}
	/*
	 * the arguments past the first record's 15 follow in ".cont"s
	 * (instants; other events' ".cont"s belong to those events)
	 */
	if (ev->type == FXT_EVENT_INSTANT &&
	    tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX) && r->pending) {
		put_fields(r, ev->args, ev->nargs, 0);
		return;
	}
	if (ev->type != FXT_EVENT_INSTANT) {
		/* the converter's are what its ftrace events show */
		if (!(p && p->tcfxt))
			report_kind(r, rec, tps);
		return;
	}
	l = label_pair(r, p && p->tcfxt, ev->thread.pid, ev->thread.tid);
	line_begin(r, rec->provider_id, &l, ftrace);
	ns = name_find(r, ev->thread.tid);
	if (ftrace)
		line_printf(r, " [%03u]", cpu->u32);
	else if (ns && ns->cpu >= 0 && !(p && p->tcfxt))
		line_printf(r, " [%03d]", ns->cpu);
	else
		line_add(r, " [---]", 6);
	put_time(r, fxt_ticks_to_ns(ev->ts, tps), p ? p->in_usecs : true);
	line_add(r, " ", 1);
	if (ftrace) {
		line_add(r, ev->name.ptr, ev->name.len);
	} else {
		put_name(r, ev->category, ev->name);
	}
	line_add(r, ": ", 2);
	if (ev->name.len < 20)
		line_add(r, spaces, 20 - ev->name.len);
	put_fields(r, ev->args, ev->nargs, ftrace ? 1 : 0);
}

static void report_kobj(struct report *r, const struct fxt_record *rec)
{
	unsigned int i;

	/* another producer's: named by (process, thread), known already */
	if (!from_converter(r, rec) && !r->prepassed)
		fxt_threads_note(r->threads, rec);
	if (rec->kobj.obj_type != FXT_OBJ_THREAD)
		return;
	/* names only events revealed are not the ones trace-cmd shows */
	for (i = 0; i < rec->kobj.nargs; i++)
		if (fxt_str_eq(rec->kobj.args[i].name, TCFXT_ARG_SOURCE))
			return;
	name_set(r, rec->kobj.koid, rec->kobj.name);
}

/* An event libtraceevent printed: a line of its own, as any other. */
static void line_from_tep(void *priv, uint32_t provider_id,
			  const char *text, size_t len)
{
	struct report *r = priv;

	line_flush(r);
	if (!r->lost_pending)
		put_prefix(r, provider_id);
	r->lost_pending = false;
	line_add(r, text, len);
	r->pending = true;
	line_flush(r);
}

/*
 * Other producers' threads and names, from a first pass over @path, each
 * with the task id `convert` gives it.  A pipe is read once: there the
 * threads are learnt as the one pass goes.
 */
static int threads_prepass(struct report *r, const char *path)
{
	uint32_t *conv = NULL, *more;
	size_t nconv = 0, i;
	struct fxt_reader *rd;
	struct fxt_record rec;
	struct stat st;
	int ret = 0;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	rd = fxt_reader_open(path, 0);
	if (!rd)
		return 0;
	while (!ret && fxt_reader_next(rd, &rec) > 0) {
		const struct fxt_event *ev = &rec.event;

		for (i = 0; i < nconv && conv[i] != rec.provider_id; i++)
			;
		if (i < nconv)
			continue;
		if (rec.type == FXT_REC_EVENT && tcfxt_is_meta(ev->category) &&
		    fxt_str_eq(ev->name, TCFXT_FILE_INFO)) {
			more = realloc(conv, (nconv + 1) * sizeof(*conv));
			if (!more)
				ret = -ENOMEM;
			else
				(conv = more)[nconv++] = rec.provider_id;
			continue;
		}
		ret = fxt_threads_note(r->threads, &rec);
	}
	fxt_reader_close(rd);
	free(conv);
	if (!ret)
		ret = fxt_threads_assign(r->threads);
	r->prepassed = !ret;
	return ret;
}

/* The threads shown under an id other than their tid, said once. */
static void say_renumbered(const struct report *r)
{
	size_t n = r->prepassed ? fxt_threads_renumbered(r->threads) : 0;
	char buf[512];
	struct fxt_list l = {
		.buf = buf, .size = sizeof(buf), .max = 4, .sep = ", ",
	};

	if (!n)
		return;
	fxt_threads_mapping(r->threads, &l);
	trace_fxt_err("%zu thread%s shown under a task id of %s own, as "
		      "convert numbers %s in the .dat (%s): %s", n,
		      n == 1 ? "" : "s", n == 1 ? "its" : "their",
		      n == 1 ? "it" : "them", FXT_THREADS_WHY, buf);
}

static void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->note_at.nr; i++)
		free(r->notes[i].name);
	free(r->notes);
	u64_map_free(&r->note_at);
	for (i = 0; i < r->nr_begins; i++)
		free(r->begins[i].ts);
	free(r->begins);
	fxt_threads_free(r->threads);
	for (i = 0; i < r->nr_provs; i++)
		free(r->provs[i].name);
	free(r->provs);
	free(r->line);
}

/* Whether @in of @kind holds its events as Perfetto packets alone. */
static bool in_packets(int kind, const char *in)
{
	return kind == IN_KIND_PERFETTO ||
	       (kind == IN_KIND_FXT && pft2dat_fxt_once(in));
}

/*
 * What is read of @in: FXT as it is; a trace.dat (a regular file: a
 * pipe's first bytes are not sniffed) converted first, by convert itself
 * (its damage said), into an unnamed file whose name goes in @buf and
 * descriptor in *@fd.  NULL when that failed, said.
 */
static const char *report_input(const char *in, char *buf, size_t size,
				int *fd)
{
	struct stat st;
	int dat;

	*fd = -1;
	/*
	 * A Perfetto trace, or an FXT whose events are in its packets alone
	 * (a regular file): to a trace.dat first, as convert makes it, and
	 * that to FXT.
	 */
	if (!stat(in, &st) && S_ISREG(st.st_mode) &&
	    in_packets(in_file_kind(in, NULL, 0, NULL), in)) {
		dat = trace_fxt_convert_anon("report", in, "none", NULL);
		if (dat < 0)
			return NULL;
		snprintf(buf, size, "/proc/self/fd/%d", dat);
		*fd = trace_fxt_convert_anon("report", buf, "none",
					     TRACE_FXT_INSTANTS);
		close(dat);
		if (*fd < 0)
			return NULL;
		snprintf(buf, size, "/proc/self/fd/%d", *fd);
		return buf;
	}
	if (!in_file_is_dat(in))
		return in;
	*fd = trace_fxt_convert_anon("report", in, "none",
				     TRACE_FXT_INSTANTS);
	if (*fd < 0)
		return NULL;
	snprintf(buf, size, "/proc/self/fd/%d", *fd);
	return buf;
}

static int cmd_report(int argc, char **argv)
{
	struct report r = { .prefix_width = -1 };
	struct fxt_reader *rd;
	struct fxt_record rec;
	const char *path;
	char conv[64];
	int c, ret, took = 0, fd;

	while ((c = trace_fxt_getopt(&trace_fxt_report, argc, argv)) != -1) {
		switch (c) {
		case 'R':
			r.raw = true;
			break;
		default:
			return trace_fxt_opt_exit(&trace_fxt_report, c);
		}
	}
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_report, optind == argc ?
				       "no input file" : "one input file only");
	path = report_input(argv[optind], conv, sizeof(conv), &fd);
	if (!path)
		return 1;
	rd = fxt_reader_open(path, 0);
	if (!rd) {
		trace_fxt_err("cannot read %s: %s", argv[optind],
			      strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	r.tep = report_tep_open(path, line_from_tep, &r);
	if (r.tep && r.raw)
		report_tep_raw(r.tep);
	r.threads = fxt_threads_new();
	/* a converted file's threads are its .dat's pids */
	if (!r.threads || (!r.tep && threads_prepass(&r, path))) {
		trace_fxt_err("%s: out of memory", argv[optind]);
		fxt_reader_close(rd);
		report_tep_close(r.tep);
		report_free(&r);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	while ((ret = fxt_reader_next(rd, &rec)) > 0) {
		/* the current provider's: it may change at any record */
		uint64_t tps;

		took = r.tep ? report_tep_take(r.tep, rd, &rec) : 0;
		if (took < 0)
			break;
		if (took)
			continue;
		tps = fxt_reader_ticks_per_second(rd);
		switch (rec.type) {
		case FXT_REC_METADATA:
			if (rec.meta.type == FXT_META_PROVIDER_INFO)
				prov_add(&r, rec.meta.provider_id,
					 rec.meta.name);
			break;
		case FXT_REC_KERNEL_OBJ:
			report_kobj(&r, &rec);
			break;
		case FXT_REC_EVENT:
			report_event(&r, &rec, tps);
			break;
		case FXT_REC_SCHED:
			if (!from_converter(&r, &rec))
				report_sched(&r, &rec, tps);
			break;
		case FXT_REC_LOG:
			if (!from_converter(&r, &rec))
				report_log(&r, &rec, tps);
			break;
		case FXT_REC_LARGE:
			if (!from_converter(&r, &rec))
				report_large(&r, &rec, tps);
			break;
		}
	}
	if (took >= 0 && report_tep_flush(r.tep) < 0)
		took = -1;
	line_flush(&r);
	if (took < 0)
		trace_fxt_err("%s: %s", argv[optind], report_tep_error(r.tep));
	else if (ret < 0)
		trace_fxt_err("%s", fxt_reader_error(rd));
	trace_fxt_say_skipped(rd);
	say_renumbered(&r);
	fxt_reader_close(rd);
	report_tep_close(r.tep);
	report_free(&r);
	if (fd >= 0)
		close(fd);
	return ret < 0 || took < 0 ? 1 : 0;
}

static const struct trace_fxt_opt report_opts[] = {
	{ .key = 'R', .name = "raw",
	  .help = "every field as name=value, as trace-cmd report -R prints "
		  "it, instead of the events' own print formats" },
	{ 0 }
};

static const struct trace_fxt_example report_examples[] = {
	{ "report trace.fxt.gz",
	  "what trace-cmd report prints of the recording it came from" },
	{ "report --raw trace.fxt | grep sched_switch",
	  "the raw fields of the context switches" },
	{ NULL }
};

static const struct trace_fxt_exit report_exits[] = {
	{ 0, "reported" },
	{ 1, "the file could not be read (what was read is printed first), or "
	     "a trace.dat converted" },
	{ 2, "a usage error" },
	{ 0, NULL }
};

const struct trace_fxt_cmd trace_fxt_report = {
	.name = "report",
	.run = cmd_report,
	.summary = "one line per event, as trace-cmd report prints the "
		   "recording",
	.synopsis = { "[--raw] FILE.fxt", "[--raw] FILE.dat",
		      "[--raw] FILE.pftrace" },
	.about = "Prints one line per event in trace-cmd report's layout.  "
		 "For FXT converted from a trace.dat, the lines are those "
		 "trace-cmd report prints of the source (the events' formats, "
		 "symbols and task names travel in the FXT); other producers' "
		 "FXT prints one line per timestamped record.  FILE.fxt may be "
		 "gzip'd or zstd'd, and may be a pipe (/dev/stdin).  A "
		 "trace.dat is converted first (as convert does, its damaged "
		 "CPU data skipped and said) and its FXT reported; a Perfetto "
		 "trace is converted to a trace.dat first, as convert makes "
		 "it.",
	.opts = report_opts,
	.operand = TRACE_FXT_ARG_FILE,
	.files = "fxt fxt.gz fxt.zst dat pftrace pftrace.gz perfetto-trace",
	.examples = report_examples,
	.exits = report_exits,
};
