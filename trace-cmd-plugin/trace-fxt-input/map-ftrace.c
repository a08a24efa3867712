// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-ftrace.c - kernel events as Perfetto's ftrace events, for what
 * Perfetto's ftrace importer draws of them and FXT cannot say: CPU
 * counter tracks, IRQ and softirq slices per CPU, workqueue and timer
 * slices named after their kernel function, the end of a thread, the
 * process tree; network device, thermal and clock counters, TCP stream
 * states, process memory and oom_score_adj, reclaim, signal, hotplug,
 * suspend and block I/O slices, the function a thread blocked in.
 *
 * Which events, and which of their fields become which field of the
 * event's message, is map-ftrace.table, as rows of map-dispatch.c's
 * table (struct map_pkt_def); map_ftrace_write() writes any such row's
 * event into its CPU's bundle (map-packet.c).  Forks and renames feed
 * the process tree instead.  Scheduling (sched_switch, wakeups) is
 * map-sched.c's.
 */
#include <errno.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-field.h"
#include "map-ftrace.h"
#include "map-ftrace-table.h"
#include "map-packet.h"
#include "map-special.h"
#include "map-task.h"
#include "pb.h"
#include "perfetto-dev.h"
#include "perfetto-proto.h"

/* The most elements of an array field written (sys_enter's args: 6). */
#define MAP_FTRACE_ELEMS	8

/* @f's value in @rec, sign-extended from its width when signed. */
static inline bool map_ftrace_value(struct map_buffer *buf,
				    struct tep_record *rec,
				    struct tep_format_field *f, bool sign,
				    uint64_t *v)
{
	if (!map_field_u64(buf, rec, f, v))
		return false;
	if (sign && (f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 &&
	    f->size > 0 && (*v >> (8 * f->size - 1) & 1))
		*v |= ~0ULL << (8 * f->size);
	return true;
}

/*
 * A pointer field that names a kernel string (suspend_resume's action)
 * as its text, which libtraceevent finds among the .dat's printk
 * strings; nothing when it is not there (libtraceevent shows the
 * address, "0x...").
 */
static void map_ftrace_kstr(struct pb_buf *b, unsigned int proto,
			    struct tep_record *rec, struct tep_format_field *f)
{
	struct trace_seq s;

	if (!f)
		return;
	trace_seq_init(&s);
	tep_print_field_content(&s, rec->data, rec->size, f);
	if (s.state == TRACE_SEQ__GOOD && s.len &&
	    strncmp(s.buffer, "0x", 2))
		pb_bytes(b, proto, s.buffer, s.len);
	trace_seq_destroy(&s);
}

_Static_assert(MAP_SPECIAL_FIELDS <= 32, "map_event.pkt_devs: a bit a field");

/*
 * The fields of @me's packet row that @rec has, when the row's fields
 * are all integers: their numbers in @proto and values in @v, in the
 * row's order; how many, or -1 when the row has a field of another kind.
 */
static int map_ftrace_ints(struct map_buffer *buf, struct map_event *me,
			   struct tep_record *rec, uint32_t *proto,
			   uint64_t *v)
{
	const struct map_pkt_def *d = &me->special->pkt;
	int i, n = 0;

	if (!me->pkt_ints) {
		/* the row's shape, once: its last field, or not integers */
		me->pkt_ints = 1;
		for (i = 0; i < MAP_SPECIAL_FIELDS; i++)
			if (d->f[i].kind != MAP_PKT_NONE && me->sf[i] &&
			    pft_dev_field(me->sf[i]->type, me->sf[i]->size))
				me->pkt_devs |= 1U << i;
		for (i = 0; i < MAP_SPECIAL_FIELDS; i++) {
			const struct map_pkt_field *pf = &d->f[i];

			if (pf->kind == MAP_PKT_NONE)
				continue;
			if (pf->kind != MAP_PKT_UINT &&
			    pf->kind != MAP_PKT_INT) {
				me->pkt_ints = -1;
				break;
			}
			me->pkt_ints = (int8_t)(i + 2);
		}
	}
	if (me->pkt_ints < 0)
		return -1;
	for (i = 0; i < me->pkt_ints - 1; i++) {
		const struct map_pkt_field *pf = &d->f[i];

		if (pf->kind == MAP_PKT_NONE ||
		    !map_ftrace_value(buf, rec, me->sf[i],
				      pf->kind == MAP_PKT_INT, &v[n]))
			continue;
		if (me->pkt_devs >> i & 1)
			v[n] = pft_dev_user(v[n]);
		proto[n++] = pf->proto;
	}
	return n;
}

int map_ftrace_write(struct map_ctx *ctx, struct map_buffer *buf,
		     struct map_event *me, struct tep_record *rec)
{
	const struct map_pkt_def *d = &me->special->pkt;
	uint64_t vals[MAP_SPECIAL_FIELDS];
	uint32_t protos[MAP_SPECIAL_FIELDS];
	struct map_pkt_ev e;
	const char *s;
	uint64_t v;
	unsigned int i;
	int ret, len, n;

	if (d->below && (!map_field_u64(buf, rec, me->sf[0], &v) ||
			 v >= d->below))
		return 0;	/* Perfetto's importer has no name for it */
	/* integers only (most events): written in one go */
	n = map_ftrace_ints(buf, me, rec, protos, vals);
	if (n >= 0)
		return map_pkt_varints(ctx, rec->cpu, rec->ts, ctx->rec_pid,
				       d->event, protos, vals, n);
	ret = map_pkt_event(ctx, rec->cpu, rec->ts, ctx->rec_pid,
			    d->event, &e);
	if (ret <= 0)
		return ret;
	for (i = 0; i < MAP_SPECIAL_FIELDS; i++) {
		const struct map_pkt_field *pf = &d->f[i];

		switch (pf->kind) {
		case MAP_PKT_UINT:
		case MAP_PKT_INT:
			if (!map_ftrace_value(buf, rec, me->sf[i],
					      pf->kind == MAP_PKT_INT, &v))
				break;
			if (me->pkt_devs >> i & 1)
				v = pft_dev_user(v);
			pb_uint(e.b, pf->proto, v);
			break;
		case MAP_PKT_SYM:
			if (map_field_u64(buf, rec, me->sf[i], &v) &&
			    (v = map_pkt_symbol(ctx, buf->tep, v)))
				pb_uint(e.b, pf->proto, v);
			break;
		case MAP_PKT_STR:
			len = map_field_str(rec, me->sf[i], &s);
			if (len >= 0)
				pb_bytes(e.b, pf->proto, s, len);
			break;
		case MAP_PKT_KSTR:
			map_ftrace_kstr(e.b, pf->proto, rec, me->sf[i]);
			break;
		case MAP_PKT_UINTS: {
			uint64_t el[MAP_FTRACE_ELEMS];
			unsigned int k, nel;

			nel = map_field_elems(buf, rec, me->sf[i], el,
					      MAP_FTRACE_ELEMS);
			for (k = 0; k < nel; k++)
				pb_uint(e.b, pf->proto, el[k]);
			break;
		}
		}
	}
	return map_pkt_event_end(ctx, &e);
}

/*
 * raw_syscalls sys_enter and sys_exit: their id, sys_enter's arguments
 * (a field each, as Perfetto's recorder writes a repeated field) and
 * sys_exit's return value, as map_ftrace_write() writes a row of
 * integers.
 */
int map_ftrace_syscall_write(struct map_ctx *ctx, struct map_buffer *buf,
			     struct map_event *me, struct tep_record *rec)
{
	const struct map_pkt_def *d = &me->special->pkt;
	bool enter = d->event == PFT_EV_SYS_ENTER;
	uint32_t protos[1 + MAP_FTRACE_ELEMS];
	uint64_t id = 0, vals[1 + MAP_FTRACE_ELEMS];
	unsigned int k, nel;
	int n = 0;

	if (map_ftrace_value(buf, rec, me->sf[0], true, &id) &&
	    d->f[0].kind != MAP_PKT_NONE) {
		protos[n] = d->f[0].proto;
		vals[n++] = id;
	}
	if (enter && d->f[1].kind == MAP_PKT_UINTS) {
		nel = map_field_elems(buf, rec, me->sf[1], vals + n,
				      MAP_FTRACE_ELEMS);
		for (k = 0; k < nel; k++)
			protos[n++] = d->f[1].proto;
	}
	if (!enter && d->f[1].kind != MAP_PKT_NONE &&
	    map_ftrace_value(buf, rec, me->sf[1], d->f[1].kind == MAP_PKT_INT,
			     &vals[n]))
		protos[n++] = d->f[1].proto;
	return map_pkt_varints(ctx, rec->cpu, rec->ts, ctx->rec_pid, d->event,
			       protos, vals, (unsigned int)n);
}

static int map_ftrace_fork(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   bool started)
{
	uint64_t child, parent;
	const char *comm;
	int len;

	if (!map_field_u64(buf, rec, me->sf[0], &child) || !child ||
	    child >= MAP_PID_LIMIT)
		return 0;
	if (!me->sf[2] || !map_field_u64(buf, rec, me->sf[2], &parent))
		parent = ctx->rec_pid;
	if (parent >= MAP_PID_LIMIT)
		return 0;
	if (map_task_tgid(ctx, child) != (int)child ||
	    map_pkt_process_known(ctx, child))
		return 0;	/* a thread: no process starts */
	comm = map_task_comm(buf, child);
	len = comm ? (int)strlen(comm) : map_field_str(rec, me->sf[1], &comm);
	if (len < 0) {
		comm = "";
		len = 0;
	}
	return map_pkt_process(ctx, child, map_task_tgid(ctx, parent), rec->ts,
			       comm, len, started);
}

int map_ftrace_fork_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec)
{
	return map_ftrace_fork(ctx, buf, me, rec, false);
}

/*
 * task_newtask: its event, where Perfetto starts the new thread (its
 * start time) or process (ParseTaskNewTask), and the process tree's
 * entry only if the event could not go into the packets.  Not with
 * --fxt-records: its thread states are the FXT's, which the Runnable
 * state Perfetto opens there would overlap.
 */
int map_ftrace_newtask_write(struct map_ctx *ctx, struct map_buffer *buf,
			     struct map_event *me, struct tep_record *rec)
{
	int ret;

	struct map_task *t;
	uint64_t pid;

	if (ctx->opts->fxt_records)
		return map_ftrace_fork(ctx, buf, me, rec, false);
	ret = map_ftrace_write(ctx, buf, me, rec);
	if (ret < 0)
		return ret;
	if (map_pkt_cpu_ok(rec->cpu) && map_field_u64(buf, rec, me->sf[0], &pid) &&
	    pid < MAP_PID_LIMIT && (t = map_task_get(ctx, (int)pid)))
		t->newtask_pkt = true;
	return map_ftrace_fork(ctx, buf, me, rec, map_pkt_cpu_ok(rec->cpu));
}

/*
 * task_rename (fields pid, newcomm): its event, and the process tree's
 * name of a process the recording saw start, as the FXT's process
 * object is renamed (map-task.c).
 */
int map_ftrace_rename_write(struct map_ctx *ctx, struct map_buffer *buf,
			    struct map_event *me, struct tep_record *rec)
{
	const char *comm;
	uint64_t pid;
	int len;

	if (map_field_u64(buf, rec, me->sf[0], &pid) && pid < MAP_PID_LIMIT &&
	    (len = map_field_str(rec, me->sf[1], &comm)) > 0) {
		map_pkt_process_name(ctx, pid, comm, len);
		map_task_comm_note(ctx, pid, comm, len);
	}
	return map_ftrace_write(ctx, buf, me, rec);
}

/*
 * A trace_marker write that is not atrace's: a generic ftrace event
 * named "print" with its text as "buf", which Perfetto keeps as an
 * ftrace event with that argument (ParseLegacyGenericFtrace) where its
 * UI lists ftrace events.  Not a print event: Perfetto would read its
 * text as atrace's (ParsePrint), close the writer's open slice for a
 * text that begins with "E", and count every other one as a parse
 * failure.
 */
int map_ftrace_print(struct map_ctx *ctx, struct map_buffer *buf,
		     struct tep_record *rec, const char *text, size_t len)
{
	struct map_pkt_ev e;
	size_t f;
	int ret;

	ret = map_pkt_event(ctx, rec->cpu, rec->ts,
			    ctx->rec_pid, PFT_EV_GENERIC, &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, PFT_GENERIC_EVENT_NAME, "print", 5);
	f = pb_open(e.b, PFT_GENERIC_FIELD);
	pb_bytes(e.b, PFT_GENERIC_FIELD_NAME, "buf", 3);
	pb_bytes(e.b, PFT_GENERIC_FIELD_STR, text, len);
	pb_close(e.b, f);
	return map_pkt_event_end(ctx, &e);
}

/*
 * An atrace write (B, E, C, S, F, ...) as Perfetto's own print event,
 * its text as written: Perfetto's importer makes of it what it makes of
 * its own recording's (ParsePrint, SystraceParser): slices, counters
 * named as written, async slices, and the ongoing sys_write ended at the
 * marker.  Not with --fxt-records, whose FXT records say it (map-marker.c).
 */
int map_ftrace_atrace(struct map_ctx *ctx, struct tep_record *rec,
		      const char *text, size_t len)
{
	struct map_pkt_ev e;
	int ret;

	ret = map_pkt_event(ctx, rec->cpu, rec->ts, ctx->rec_pid, PFT_EV_PRINT,
			    &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, PFT_PRINT_BUF, text, len);
	return map_pkt_event_end(ctx, &e);
}

/*
 * An event no typed packet says (no row of map-ftrace.table, nor of
 * map-sched.c): Perfetto's generic ftrace event, its name and every
 * integer, pointer and string field by name, which Perfetto lists as an
 * ftrace event with those arguments (ParseLegacyGenericFtrace), as its
 * own recorder writes an event it has no message for.  Other arrays are
 * left out (the nested instant keeps them).  A dev_t is written as that
 * recorder writes it (perfetto-dev.h), in typed events too.
 */
int map_ftrace_generic(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec)
{
	struct map_pkt_ev e;
	const char *s;
	unsigned int i;
	uint64_t v;
	size_t f;
	int ret, len;

	ret = map_pkt_event(ctx, rec->cpu, rec->ts, ctx->rec_pid,
			    PFT_EV_GENERIC, &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, PFT_GENERIC_EVENT_NAME, me->name.ptr, me->name.len);
	for (i = 0; i < me->nr_fields; i++) {
		const struct map_field *mf = &me->fields[i];
		struct tep_format_field *tf = mf->field;

		switch (mf->kind) {
		case MAP_FIELD_INT:
		case MAP_FIELD_POINTER:
			if (!map_ftrace_value(buf, rec, tf, true, &v))
				continue;
			if (mf->dev)
				v = pft_dev_user(v);
			f = pb_open(e.b, PFT_GENERIC_FIELD);
			pb_bytes(e.b, PFT_GENERIC_FIELD_NAME, mf->name.ptr,
				 mf->name.len);
			pb_uint(e.b, mf->kind == MAP_FIELD_INT &&
				     (tf->flags & TEP_FIELD_IS_SIGNED) ?
				     PFT_GENERIC_FIELD_INT :
				     PFT_GENERIC_FIELD_UINT, v);
			pb_close(e.b, f);
			break;
		case MAP_FIELD_STRING:
			len = map_field_str(rec, tf, &s);
			if (len < 0)
				continue;
			f = pb_open(e.b, PFT_GENERIC_FIELD);
			pb_bytes(e.b, PFT_GENERIC_FIELD_NAME, mf->name.ptr,
				 mf->name.len);
			pb_bytes(e.b, PFT_GENERIC_FIELD_STR, s, len);
			pb_close(e.b, f);
			break;
		default:
			break;
		}
	}
	return map_pkt_event_end(ctx, &e);
}
