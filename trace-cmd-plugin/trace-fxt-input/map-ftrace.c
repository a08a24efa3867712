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
#include "tcfxt-residue.h"

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
 * @me's GenericEventDescriptor begun in @d, for the conversion's next id
 * from PFT_DESCRIBED_FIRST (returned): its system as group_name, its
 * name; its fields follow (map_desc_field()), then map_desc_end().
 */
static uint32_t map_desc_begin(struct map_ctx *ctx, struct pb_buf *d,
			       size_t *dp, const struct map_event *me)
{
	if (!ctx->next_desc_id)
		ctx->next_desc_id = PFT_DESCRIBED_FIRST;
	pb_uint(d, PFT_DESC_FIELD_ID, ctx->next_desc_id);
	pb_bytes(d, PFT_DESC_GROUP, me->event->system,
		 strlen(me->event->system));
	*dp = pb_open(d, PFT_DESC_DESCRIPTOR);
	pb_bytes(d, PFT_DPROTO_NAME, me->name.ptr, me->name.len);
	return ctx->next_desc_id++;
}

static void map_desc_field(struct pb_buf *d, const char *name, size_t len,
			   unsigned int num, uint32_t type)
{
	size_t fp = pb_open(d, PFT_DPROTO_FIELD);

	pb_bytes(d, PFT_FDPROTO_NAME, name, len);
	pb_uint(d, PFT_FDPROTO_NUMBER, num);
	pb_uint(d, PFT_FDPROTO_TYPE, type);
	pb_close(d, fp);
}

/* The descriptor in @d, id @id, made @me's. */
static int map_desc_end(struct map_event *me, struct pb_buf *d, size_t dp,
			uint32_t id)
{
	pb_close(d, dp);
	if (d->err) {
		pb_free(d);
		return -ENOMEM;
	}
	me->pkt_desc = d->p;
	me->pkt_desc_len = d->len;
	me->pkt_id = id;
	return 0;
}

/*
 * An FtraceEvent of @me's generic event opened in @e: its descriptor
 * first into the CPU's bundle (map_pkt_describe()), or, legacy, the
 * event's name.  As map_pkt_event() returns.
 */
static int map_generic_open(struct map_ctx *ctx, struct map_event *me,
			    struct tep_record *rec, struct map_pkt_ev *e)
{
	bool legacy = me->pkt_id == MAP_PKT_LEGACY;
	int ret;

	if (!legacy) {
		ret = map_pkt_describe(ctx, rec->cpu, rec->ts, me->pkt_id,
				       me->pkt_desc, me->pkt_desc_len);
		if (ret < 0)
			return ret;
	}
	ret = map_pkt_event(ctx, rec->cpu, rec->ts, ctx->rec_pid,
			    legacy ? PFT_EV_GENERIC : me->pkt_id, e);
	if (ret > 0 && legacy)
		pb_bytes(e->b, PFT_GENERIC_EVENT_NAME, me->name.ptr,
			 me->name.len);
	return ret;
}

/*
 * A trace_marker write that is not atrace's: a generic ftrace event
 * named "print" with its text as "buf" (@me's described event, of that
 * one field), which Perfetto keeps as an ftrace event with that argument
 * (ParseGenericFtrace) where its UI lists ftrace events.  Not a print
 * event: Perfetto would read its text as atrace's (ParsePrint), close
 * the writer's open slice for a text that begins with "E", and count
 * every other one as a parse failure.
 */
int map_ftrace_print(struct map_ctx *ctx, struct map_event *me,
		     struct tep_record *rec, const char *text, size_t len)
{
	enum { BUF = 1 };	/* its one field's number */
	struct map_pkt_ev e;
	struct pb_buf d = { 0 };
	uint32_t id;
	size_t dp;
	int ret;

	if (!me->pkt_id) {
		id = map_desc_begin(ctx, &d, &dp, me);
		map_desc_field(&d, "buf", 3, BUF, PFT_FD_STRING);
		ret = map_desc_end(me, &d, dp, id);
		if (ret < 0)
			return ret;
	}
	ret = map_generic_open(ctx, me, rec, &e);
	if (ret <= 0)
		return ret;
	pb_bytes(e.b, BUF, text, len);
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
 * The FieldDescriptorProto.Type of field @mf in a described event, as
 * Perfetto's recorder types it (proto_translation_table.cc,
 * ToGenericProtoField): a string, a signed integer as int64, any other
 * integer, a pointer, a dev_t as uint64; 0: not written (other arrays:
 * the nested instant keeps them).
 */
static uint32_t map_generic_type(const struct map_field *mf)
{
	switch (mf->kind) {
	case MAP_FIELD_INT:
		return mf->field->flags & TEP_FIELD_IS_SIGNED && !mf->dev ?
		       PFT_FD_INT64 : PFT_FD_UINT64;
	case MAP_FIELD_POINTER:
		return PFT_FD_UINT64;
	case MAP_FIELD_STRING:
		return PFT_FD_STRING;
	default:
		return 0;
	}
}

/*
 * @me's GenericEventDescriptor, made once: its written fields numbered
 * 1, 2, ... in format order.  An event of PFT_DESCRIBED_MAX_FIELDS or
 * more such fields, which Perfetto's trace processor would refuse to
 * describe, stays a legacy generic event.
 */
static int map_generic_describe(struct map_ctx *ctx, struct map_event *me)
{
	struct pb_buf d = { 0 };
	unsigned int i, n = 0;
	uint32_t type, id;
	size_t dp;

	/* what a reader takes of a packet event, the residue the rest */
	for (i = 0; i < me->nr_fields; i++) {
		me->fields[i].in_generic = n < TCFXT_RES_MAX_FIELDS &&
					   map_generic_type(&me->fields[i]);
		n += me->fields[i].in_generic;
	}
	if (n >= PFT_DESCRIBED_MAX_FIELDS) {
		me->pkt_id = MAP_PKT_LEGACY;
		return 0;
	}
	id = map_desc_begin(ctx, &d, &dp, me);
	for (i = 0, n = 0; i < me->nr_fields; i++) {
		type = map_generic_type(&me->fields[i]);
		if (type)
			map_desc_field(&d, me->fields[i].name.ptr,
				       me->fields[i].name.len, ++n, type);
	}
	return map_desc_end(me, &d, dp, id);
}

/*
 * An event no typed packet says (no row of map-ftrace.table, nor of
 * map-sched.c): Perfetto's generic ftrace event, as its own recorder
 * writes an event it has no message for (v50+): described by the
 * bundle (map_generic_describe()), every integer, pointer and string
 * field by its number there, which Perfetto lists as an ftrace event
 * with those arguments, typed as its own (ParseGenericFtrace).  Other
 * arrays are left out (the nested instant keeps them).  A dev_t is
 * written as that recorder writes it (perfetto-dev.h), in typed events
 * too.  An event too wide to describe is the older GenericFtraceEvent,
 * its fields by name in every event (ParseLegacyGenericFtrace).
 */
int map_ftrace_generic(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec)
{
	struct map_pkt_ev e;
	const char *s = NULL;
	unsigned int i, num = 0;
	uint32_t type;
	uint64_t v = 0;
	size_t f;
	int ret, len = 0;

	if (!me->pkt_id) {
		ret = map_generic_describe(ctx, me);
		if (ret < 0)
			return ret;
	}
	ret = map_generic_open(ctx, me, rec, &e);
	if (ret <= 0)
		return ret;
	for (i = 0; i < me->nr_fields; i++) {
		const struct map_field *mf = &me->fields[i];

		type = map_generic_type(mf);
		if (!type)
			continue;
		num++;
		if (type == PFT_FD_STRING) {
			len = map_field_str(rec, mf->field, &s);
			if (len < 0)
				continue;
		} else {
			if (!map_ftrace_value(buf, rec, mf->field, true, &v))
				continue;
			if (mf->dev)
				v = pft_dev_user(v);
		}
		if (me->pkt_id != MAP_PKT_LEGACY) {
			if (type == PFT_FD_STRING)
				pb_bytes(e.b, num, s, (size_t)len);
			else
				pb_uint(e.b, num, v);
			continue;
		}
		f = pb_open(e.b, PFT_GENERIC_FIELD);
		pb_bytes(e.b, PFT_GENERIC_FIELD_NAME, mf->name.ptr,
			 mf->name.len);
		if (type == PFT_FD_STRING)
			pb_bytes(e.b, PFT_GENERIC_FIELD_STR, s, (size_t)len);
		else
			pb_uint(e.b, type == PFT_FD_INT64 ?
				PFT_GENERIC_FIELD_INT : PFT_GENERIC_FIELD_UINT,
				v);
		pb_close(e.b, f);
	}
	return map_pkt_event_end(ctx, &e);
}
