// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-packet.c - the Perfetto packets of a conversion (map-packet.h),
 * encoded by the core's pb.h with perfetto-proto.h's field numbers.
 *
 * Each CPU has a bundle in the making: its FtraceEvents, already encoded
 * as the bundle's "event" fields, and its CompactSched columns (one
 * buffer of bare varints per packed field, and the comm intern table).
 * A bundle becomes a TracePacket when it holds MAP_BUNDLE_BYTES or when
 * the conversion ends; packets gather in one buffer that goes out,
 * deflated into one packet's compressed_packets on a thread of its own
 * (map-zip.h; perfetto-zip.h: under a third of their size, as Perfetto's
 * own tracing service writes its packets), as FXT blob records of type 3 (fxt_write_blob() splits what
 * one record cannot hold: Perfetto joins them back into one stream).
 *
 * What Perfetto's importer asks of the stream, and how it is met here:
 *  - every bundle has its cpu, below PFT_MAX_CPU (ftrace_tokenizer.cc,
 *    TokenizeFtraceBundle: a larger one fails the import): the events of
 *    larger CPUs are not written as packets;
 *  - compact timestamps are deltas from the bundle's previous one, the
 *    first absolute, every packed column is one LEN field, the columns
 *    of a kind are equally long (TokenizeFtraceCompactSchedSwitch/
 *    Waking);
 *  - timestamps are the FXT's nanoseconds, with no ftrace_clock and no
 *    timestamp_clock_id: both land on the trace's BOOTTIME as they are;
 *  - the kernel symbols (InternedData.kernel_symbols) and the bundles
 *    that name them share trusted_packet_sequence_id MAP_PKT_SEQUENCE,
 *    whose first packet clears its incremental state
 *    (proto_trace_reader.cc, ParsePacket), and a symbol comes in the
 *    packet of the first bundle that may use it or before;
 *  - FtraceStats has phase END_OF_TRACE (ftrace_parser.cc,
 *    ParseFtraceStats: any other fails the import) and no parse errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-packet.h"
#include "map-set.h"
#include "map-task.h"
#include "perfetto-proto.h"
#include "map-zip.h"
#include "map-residue.h"

/* A bundle this large is written out; a packet may span blob records. */
#define MAP_BUNDLE_BYTES	(64 * 1024)
/* Packets are deflated and written once this many bytes gathered. */
#define MAP_BLOB_BYTES		(256 * 1024)
/* a timestamp's varint past its third byte (7), a tag and a pid (6) */
#define MAP_LAST_BYTES		16
/* The packet sequence of the bundles and of their kernel symbols. */
#define MAP_PKT_SEQUENCE	1

/* The CompactSched columns, in the order of their field numbers. */
enum map_col {
	COL_SW_TS, COL_SW_STATE, COL_SW_PID, COL_SW_PRIO, COL_SW_COMM,
	COL_WK_TS, COL_WK_PID, COL_WK_CPU, COL_WK_PRIO, COL_WK_COMM,
	COL_WK_FLAGS, NR_COLS
};

static const uint32_t map_col_field[NR_COLS] = {
	[COL_SW_TS]	= PFT_COMPACT_SWITCH_TIMESTAMP,
	[COL_SW_STATE]	= PFT_COMPACT_SWITCH_PREV_STATE,
	[COL_SW_PID]	= PFT_COMPACT_SWITCH_NEXT_PID,
	[COL_SW_PRIO]	= PFT_COMPACT_SWITCH_NEXT_PRIO,
	[COL_SW_COMM]	= PFT_COMPACT_SWITCH_NEXT_COMM,
	[COL_WK_TS]	= PFT_COMPACT_WAKING_TIMESTAMP,
	[COL_WK_PID]	= PFT_COMPACT_WAKING_PID,
	[COL_WK_CPU]	= PFT_COMPACT_WAKING_TARGET_CPU,
	[COL_WK_PRIO]	= PFT_COMPACT_WAKING_PRIO,
	[COL_WK_COMM]	= PFT_COMPACT_WAKING_COMM,
	[COL_WK_FLAGS]	= PFT_COMPACT_WAKING_FLAGS,
};

/* A comm of the bundle's intern table: its text is in comms. */
struct map_comm_slot {
	uint32_t	hash;
	uint32_t	off;	/* of its text in comms, past tag and length */
	uint32_t	len;
	uint32_t	idx;	/* its index in the table, +1 (0: free) */
};

/* The order readers take a bundle's events of one time in. */
enum map_order {
	MAP_ORDER_EVENT,	/* FtraceEvents, as they come */
	MAP_ORDER_SWITCH,	/* then compact switches */
	MAP_ORDER_WAKING,	/* then compact wakings */
};

struct map_bundle {
	struct pb_buf		ev;		/* FtraceEvents, as fields */
	struct pb_buf		col[NR_COLS];
	struct pb_buf		comms;		/* the intern table */
	struct map_comm_slot	*slot;
	uint32_t		nr_slots;	/* a power of two, or 0 */
	uint32_t		nr_comms;
	uint64_t		sw_ts, wk_ts;	/* the last of each */
	/*
	 * comms' and the columns' bytes, summed by the compact events, the
	 * only ones that add to them: the others only look
	 */
	size_t			compact_bytes;
	bool			any_sw, any_wk;
	bool			lost;
	/*
	 * GenericEventDescriptors for the bundle, each the first time an
	 * event of its id comes on this CPU (map_pkt_describe()): in the
	 * bundle of the CPU's first such event, so before any of them
	 */
	struct pb_buf		descs;
	struct map_set		described;
	/*
	 * map_pkt_varints()' last timestamp above its low 21 bits and pid,
	 * as the bytes that follow the timestamp's first three: the same
	 * for most of a CPU's events in a row (a task's syscalls)
	 */
	uint64_t		last_hi;	/* ts >> 21; 0: none */
	int32_t			last_pid;
	uint8_t			last_len;
	uint8_t			last_bytes[MAP_LAST_BYTES];
	uint64_t		rec_ts;		/* the CPU's last record's */
	bool			fresh;		/* map_pkt_fresh() */
	/*
	 * whether anything was added since the bundle was last written,
	 * and compact sched's implicit task (struct map_cpu's cur) + 1 as
	 * the first was: the residue's running
	 */
	bool			started;
	uint32_t		running;
	/* the kind of the last event added (enum map_order) and its time */
	uint8_t			last_kind;
	uint64_t		last_ts;
};

/* A process the recording saw created: an entry of the process tree. */
struct map_proc {
	int32_t		pid, ppid;
	uint64_t	ts;
	char		comm[32];
	bool		started;	/* by task_newtask's event: no entry */
};

struct map_pkt {
	struct pb_buf		out;		/* packets not yet in blobs */
	struct map_zip		*zip;		/* out goes there */
	struct map_bundle	*b;		/* by CPU */
	unsigned int		nr_b;
	struct pb_buf		syms;		/* for the next packet */
	struct map_set		syms_sent;
	struct map_set		syms_chunk;	/* sent in this chunk */
	bool			seq_started;
	uint64_t		first_ts;
	struct map_proc		*procs;
	size_t			nr_procs, cap_procs;
};

bool map_pkt_cpu_ok(unsigned int cpu)
{
	return cpu < PFT_MAX_CPU;
}

static struct map_pkt *map_pkt_get(struct map_ctx *ctx)
{
	if (!ctx->pkt)
		ctx->pkt = calloc(1, sizeof(*ctx->pkt));
	return ctx->pkt;
}

static struct map_bundle *map_bundle_get(struct map_pkt *p, unsigned int cpu)
{
	struct map_bundle *b;
	unsigned int n;

	if (!map_pkt_cpu_ok(cpu))
		return NULL;
	if (cpu < p->nr_b)
		return &p->b[cpu];
	n = cpu + 1 > 2 * p->nr_b ? cpu + 1 : 2 * p->nr_b;
	/* no more than Perfetto's CPUs: a CPU below nr_b is one of them */
	if (n > PFT_MAX_CPU)
		n = PFT_MAX_CPU;
	b = realloc(p->b, n * sizeof(*b));
	if (!b)
		return NULL;
	memset(b + p->nr_b, 0, (n - p->nr_b) * sizeof(*b));
	p->b = b;
	p->nr_b = n;
	return &b[cpu];
}

/* Hand the gathered packets over, to be compressed and written. */
static int map_pkt_write_out(struct map_ctx *ctx, struct map_pkt *p)
{
	if (p->out.err)
		return p->out.err;
	if (!p->out.len)
		return 0;
	if (!p->zip) {
		p->zip = map_zip_new(ctx->w, fxt_writer_str(ctx->w,
							TCFXT_BLOB_PERFETTO),
				     map_packets_deflated(ctx->opts));
		if (!p->zip)
			return -ENOMEM;
	}
	return map_zip_put(p->zip, &p->out);
}

/* The bytes of @b's compact events: the intern table and the columns. */
static size_t map_bundle_compact_bytes(const struct map_bundle *b)
{
	size_t n = b->comms.len;
	int i;

	for (i = 0; i < NR_COLS; i++)
		n += b->col[i].len;
	return n;
}

static size_t map_bundle_bytes(const struct map_bundle *b)
{
	return b->ev.len + b->compact_bytes;
}

/* The packed columns from @first to @last, as LEN fields. */
static void map_bundle_cols(struct pb_buf *out, struct map_bundle *b,
			    int first, int last)
{
	int i;

	for (i = first; i <= last; i++)
		pb_bytes(out, map_col_field[i], b->col[i].p, b->col[i].len);
}

/* @cpu's bundle as one TracePacket, and the bundle emptied. */
static int map_bundle_write(struct map_ctx *ctx, struct map_pkt *p,
			    unsigned int cpu)
{
	struct map_bundle *b = &p->b[cpu];
	struct pb_buf *out = &p->out;
	size_t pkt, fe, cs;
	int i, ret;

	if (!b->ev.len && !b->any_sw && !b->any_wk && !b->lost &&
	    !map_res_held(ctx, cpu))
		return 0;
	if (b->ev.err || b->comms.err)
		return -ENOMEM;
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_uint(out, PFT_PACKET_SEQUENCE_ID, MAP_PKT_SEQUENCE);
	if (!p->seq_started) {
		pb_uint(out, PFT_PACKET_SEQUENCE_FLAGS,
			PFT_SEQ_INCREMENTAL_STATE_CLEARED);
		p->seq_started = true;
	}
	if (p->syms.len) {
		size_t id = pb_open(out, PFT_PACKET_INTERNED_DATA);

		if (pb_room(out, p->syms.len)) {
			memcpy(out->p + out->len, p->syms.p, p->syms.len);
			out->len += p->syms.len;
		}
		pb_close(out, id);
		p->syms.len = 0;
	}
	fe = pb_open(out, PFT_PACKET_FTRACE_EVENTS);
	pb_uint(out, PFT_BUNDLE_CPU, cpu);
	/* before the events: a reader has it when it meets them */
	ret = map_res_flush(ctx, cpu, out, b->started ? b->running : 0);
	if (ret < 0)
		return ret;
	if (b->ev.len && pb_room(out, b->ev.len)) {
		memcpy(out->p + out->len, b->ev.p, b->ev.len);
		out->len += b->ev.len;
	}
	if (b->lost)
		pb_uint(out, PFT_BUNDLE_LOST_EVENTS, 1);
	if (b->descs.len && pb_room(out, b->descs.len)) {
		memcpy(out->p + out->len, b->descs.p, b->descs.len);
		out->len += b->descs.len;
	}
	if (b->any_sw || b->any_wk) {
		cs = pb_open(out, PFT_BUNDLE_COMPACT_SCHED);
		if (b->any_sw)
			map_bundle_cols(out, b, COL_SW_TS, COL_SW_PRIO);
		if (b->comms.len && pb_room(out, b->comms.len)) {
			memcpy(out->p + out->len, b->comms.p, b->comms.len);
			out->len += b->comms.len;
		}
		if (b->any_sw)
			map_bundle_cols(out, b, COL_SW_COMM, COL_SW_COMM);
		if (b->any_wk)
			map_bundle_cols(out, b, COL_WK_TS, COL_WK_FLAGS);
		pb_close(out, cs);
	}
	pb_close(out, fe);
	pb_close(out, pkt);

	if (b->descs.err)
		return -ENOMEM;
	b->ev.len = b->comms.len = b->descs.len = 0;
	b->compact_bytes = 0;
	for (i = 0; i < NR_COLS; i++) {
		if (b->col[i].err)
			return -ENOMEM;
		b->col[i].len = 0;
	}
	b->nr_comms = 0;
	if (b->nr_slots)
		memset(b->slot, 0, b->nr_slots * sizeof(*b->slot));
	b->any_sw = b->any_wk = b->lost = false;
	b->last_kind = MAP_ORDER_EVENT;
	b->started = false;
	return out->err;
}

/*
 * The packets gathered so far handed over as one chunk (one
 * compressed_packets field, deflated): every CPU's bundle first, so that
 * each bundle lies whole in one chunk; then the next chunk restates what
 * its bundles use of the packets before it (generic events' descriptors,
 * kernel symbols).  A chunk that does not inflate (damage) then costs its
 * own events, not the generic events and symbols of every chunk after.
 * The FXT records its events called for (the recording's formats, the
 * kernel symbols and printk strings they use) go out before it: where
 * each event is once, they are few, and would otherwise wait in one
 * frame for the file's end, which a cut file loses.
 */
static int map_pkt_chunk_end(struct map_ctx *ctx, struct map_pkt *p)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < p->nr_b; cpu++) {
		ret = map_bundle_write(ctx, p, cpu);
		if (ret < 0)
			return ret;
	}
	/* (closed, so flushed, before the conversion's last packets) */
	if (ctx->once && ctx->iw && ctx->iw != ctx->w) {
		ret = fxt_writer_flush(ctx->iw);
		if (ret < 0)
			return ret;
	}
	ret = map_pkt_write_out(ctx, p);
	if (ret < 0)
		return ret;
	for (cpu = 0; cpu < p->nr_b; cpu++) {
		map_set_free(&p->b[cpu].described);
		p->b[cpu].fresh = true;
	}
	map_set_free(&p->syms_chunk);
	return 0;
}

bool map_pkt_fresh(struct map_ctx *ctx, unsigned int cpu)
{
	struct map_pkt *p = ctx->pkt;
	bool fresh;

	if (!p || cpu >= p->nr_b)
		return false;
	fresh = p->b[cpu].fresh;
	p->b[cpu].fresh = false;
	return fresh;
}

static int map_bundle_flush(struct map_ctx *ctx, struct map_pkt *p,
			    unsigned int cpu)
{
	int ret = map_bundle_write(ctx, p, cpu);

	if (ret < 0)
		return ret;
	return p->out.len >= MAP_BLOB_BYTES ? map_pkt_chunk_end(ctx, p) : 0;
}

/*
 * Whether @cpu's bundle @b is as large as a bundle gets: its residue
 * counts, records restated whole (copies) too, so that a cut or damaged
 * file loses no more than MAP_BUNDLE_BYTES of packets around the damage
 * (a reader takes whole packets only).
 */
static bool map_bundle_full(const struct map_ctx *ctx,
			    const struct map_bundle *b, unsigned int cpu)
{
	return map_bundle_bytes(b) + map_res_bytes(ctx, cpu) >=
	       MAP_BUNDLE_BYTES;
}

static int map_bundle_check(struct map_ctx *ctx, struct map_pkt *p,
			    unsigned int cpu)
{
	if (!map_bundle_full(ctx, &p->b[cpu], cpu))
		return 0;
	return map_bundle_flush(ctx, p, cpu);
}

/*
 * Something is added to @cpu's bundle @b, the first since it was last
 * written: before the record's handlers change the CPU's task, which
 * the bundle's residue says as it began (tcfxt-residue.h, running).
 */
static void map_bundle_start(struct map_ctx *ctx, struct map_bundle *b,
			     unsigned int cpu)
{
	struct map_cpu *c = map_cpu_get(ctx, cpu);

	b->started = true;
	b->running = c && c->cur >= 0 ? (uint32_t)c->cur + 1 : 0;
}

/*
 * An event of @kind at @ts is next in @cpu's bundle @b.  Readers take a
 * bundle's events of one time as FtraceEvents, then compact switches,
 * then compact wakings (Perfetto's tokenizer reads them so and sorts by
 * time alone; pft2dat merges them so): when @kind comes before the last
 * one added in that order, at the same time, the bundle is written
 * first, and the two stay in the recording's order.
 */
static int map_bundle_order(struct map_ctx *ctx, struct map_bundle *b,
			    unsigned int cpu, uint64_t ts, enum map_order kind)
{
	bool before = kind < b->last_kind && ts == b->last_ts;
	int ret;

	b->last_kind = kind;
	b->last_ts = ts;
	if (!before)
		return 0;
	ret = map_bundle_flush(ctx, ctx->pkt, cpu);
	/* the event added next is the new bundle's first */
	map_bundle_start(ctx, b, cpu);
	return ret;
}

/*
 * @cpu's bundle in *@b: 1, 0 when @cpu's events are no packets
 * (Perfetto's CPU limit), or -ENOMEM.
 */
static inline int map_pkt_bundle(struct map_ctx *ctx, unsigned int cpu,
				 struct map_bundle **b)
{
	struct map_pkt *p = ctx->pkt;

	if (p && cpu < p->nr_b) {
		*b = &p->b[cpu];	/* the usual case, in line */
		if (!(*b)->started)
			map_bundle_start(ctx, *b, cpu);
		return 1;
	}
	p = map_pkt_get(ctx);
	if (!p)
		return -ENOMEM;
	if (!map_pkt_cpu_ok(cpu))
		return 0;
	*b = map_bundle_get(p, cpu);
	if (*b)
		map_bundle_start(ctx, *b, cpu);
	return *b ? 1 : -ENOMEM;
}

int map_pkt_event(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		  int32_t pid, uint32_t event, struct map_pkt_ev *e)
{
	struct map_bundle *b;
	int ret = map_pkt_bundle(ctx, cpu, &b);

	if (ret <= 0)
		return ret;
	ret = map_bundle_order(ctx, b, cpu, ts, MAP_ORDER_EVENT);
	if (ret >= 0)
		ret = map_res_note(ctx, cpu, TCFXT_RES_KIND_EVENT, event);
	if (ret < 0)
		return ret;
	e->b = &b->ev;
	e->cpu = cpu;
	e->outer = pb_open(&b->ev, PFT_BUNDLE_EVENT);
	/* timestamp, pid, then the event: the importer's fast path */
	pb_uint(&b->ev, PFT_EVENT_TIMESTAMP, ts);
	pb_uint(&b->ev, PFT_EVENT_PID, (uint32_t)pid);
	e->inner = pb_open(&b->ev, event);
	return b->ev.err ? b->ev.err : 1;
}

/* @v as a varint at @q: one byte or two for most of the packets' */
static inline uint8_t *map_pkt_put(uint8_t *q, uint64_t v)
{
	if (v < 0x80) {
		*q = (uint8_t)v;
		return q + 1;
	}
	if (v < 0x4000) {
		q[0] = (uint8_t)v | 0x80;
		q[1] = (uint8_t)(v >> 7);
		return q + 2;
	}
	return pb_put_varint(q, v);
}

/*
 * The FtraceEvent of map_pkt_varints() at @q, in @b, both lengths one
 * byte patched in once the fields are written: its bytes' end, or NULL
 * when it is 128 bytes or longer (map_pkt_event() writes those).
 */
static uint8_t *map_pkt_put_varints(struct map_bundle *b, uint8_t *q,
				    uint64_t ts, int32_t pid, uint32_t event,
				    const uint32_t *proto, const uint64_t *v,
				    unsigned int n)
{
	uint64_t hi = ts >> 21;
	uint8_t *outer, *inner, *start;
	unsigned int i;

	q = map_pkt_put(q, pb_tag(PFT_BUNDLE_EVENT, PB_LEN));
	outer = q++;
	/* timestamp, pid, then the event, as map_pkt_event() */
	q = map_pkt_put(q, pb_tag(PFT_EVENT_TIMESTAMP, PB_VARINT));
	if (hi && hi == b->last_hi && pid == b->last_pid) {
		/* 21 bits in three bytes, the rest as the last time */
		q[0] = (uint8_t)ts | 0x80;
		q[1] = (uint8_t)(ts >> 7) | 0x80;
		q[2] = (uint8_t)(ts >> 14) | 0x80;
		memcpy(q + 3, b->last_bytes, sizeof(b->last_bytes));
		q += 3 + b->last_len;
	} else {
		start = q;
		q = pb_put_varint(q, ts);
		q = map_pkt_put(q, pb_tag(PFT_EVENT_PID, PB_VARINT));
		q = map_pkt_put(q, (uint32_t)pid);
		if (hi) {
			b->last_hi = hi;
			b->last_pid = pid;
			b->last_len = (uint8_t)(q - start - 3);
			memcpy(b->last_bytes, start + 3, b->last_len);
		}
	}
	q = map_pkt_put(q, pb_tag(event, PB_LEN));
	inner = q++;
	for (i = 0; i < n; i++) {
		q = map_pkt_put(q, pb_tag(proto[i], PB_VARINT));
		q = map_pkt_put(q, v[i]);
	}
	/* the outer length holds the inner: both fit a byte */
	if (q - outer - 1 >= 0x80)
		return NULL;
	*inner = (uint8_t)(q - inner - 1);
	*outer = (uint8_t)(q - outer - 1);
	return q;
}

int map_pkt_varints(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		    int32_t pid, uint32_t event, const uint32_t *proto,
		    const uint64_t *v, unsigned int n)
{
	/*
	 * tags, lengths and values (room for the longest of each), and the
	 * MAP_LAST_BYTES map_pkt_put_varints() copies at once
	 */
	size_t room = (7 + 2 * (size_t)n) * PB_VARINT_MAX + MAP_LAST_BYTES;
	struct map_pkt_ev e;
	struct map_bundle *b;
	uint8_t *end;
	unsigned int i;
	int ret = map_pkt_bundle(ctx, cpu, &b);

	if (ret <= 0)
		return ret;
	ret = map_bundle_order(ctx, b, cpu, ts, MAP_ORDER_EVENT);
	if (ret < 0)
		return ret;
	if (b->ev.err)
		return b->ev.err;
	if (!pb_room(&b->ev, room))
		return b->ev.err ? b->ev.err : -ENOMEM;
	end = map_pkt_put_varints(b, b->ev.p + b->ev.len, ts, pid, event,
				  proto, v, n);
	if (end) {
		b->ev.len = end - b->ev.p;
		ret = map_res_note(ctx, cpu, TCFXT_RES_KIND_EVENT, event);
		if (ret < 0)
			return ret;
		return map_bundle_check(ctx, ctx->pkt, cpu);
	}
	/* a long one: written again over it, the general way */
	ret = map_pkt_event(ctx, cpu, ts, pid, event, &e);
	if (ret <= 0)
		return ret;
	for (i = 0; i < n; i++)
		pb_uint(e.b, proto[i], v[i]);
	return map_pkt_event_end(ctx, &e);
}

int map_pkt_describe(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		     uint32_t id, const void *desc, size_t len)
{
	struct map_bundle *b;
	int ret = map_pkt_bundle(ctx, cpu, &b);

	if (ret <= 0)
		return ret;
	/* in the bundle its event goes in */
	ret = map_bundle_order(ctx, b, cpu, ts, MAP_ORDER_EVENT);
	if (ret < 0 || !map_set_add(&b->described, id))
		return ret;
	pb_bytes(&b->descs, PFT_BUNDLE_DESCRIPTORS, desc, len);
	return b->descs.err;
}

int map_pkt_event_end(struct map_ctx *ctx, struct map_pkt_ev *e)
{
	pb_close(e->b, e->inner);
	pb_close(e->b, e->outer);
	if (e->b->err)
		return e->b->err;
	return map_bundle_check(ctx, ctx->pkt, e->cpu);
}

static uint32_t map_comm_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* The index of @comm in @b's intern table, added if new; -1: no memory. */
static long map_comm_index(struct map_bundle *b, const char *comm, size_t len)
{
	struct map_comm_slot *s;
	uint32_t h = map_comm_hash(comm, len), i, mask;
	size_t off;

	if (2 * (b->nr_comms + 1) > b->nr_slots) {
		uint32_t n = b->nr_slots ? 2 * b->nr_slots : 64, j;
		struct map_comm_slot *ns = calloc(n, sizeof(*ns));

		if (!ns)
			return -1;
		for (j = 0; j < b->nr_slots; j++) {
			if (!b->slot[j].idx)
				continue;
			for (i = b->slot[j].hash & (n - 1); ns[i].idx;
			     i = (i + 1) & (n - 1))
				;
			ns[i] = b->slot[j];
		}
		free(b->slot);
		b->slot = ns;
		b->nr_slots = n;
	}
	mask = b->nr_slots - 1;
	for (i = h & mask; b->slot[i].idx; i = (i + 1) & mask) {
		s = &b->slot[i];
		if (s->hash == h && s->len == len &&
		    !memcmp(b->comms.p + s->off, comm, len))
			return s->idx - 1;
	}
	pb_bytes(&b->comms, PFT_COMPACT_INTERN_TABLE, comm, len);
	if (b->comms.err)
		return -1;
	off = b->comms.len - len;
	b->slot[i] = (struct map_comm_slot){
		.hash = h, .off = off, .len = len, .idx = ++b->nr_comms,
	};
	return b->nr_comms - 1;
}

/*
 * @cpu's bundle and the index of @comm in its intern table, for a compact
 * event: 1, 0 for a CPU Perfetto refuses, or -ENOMEM.
 */
static int map_pkt_compact(struct map_ctx *ctx, unsigned int cpu,
			   uint64_t ts, enum map_order kind, const char *comm,
			   size_t len, struct map_bundle **b, long *idx)
{
	int ret = map_pkt_bundle(ctx, cpu, b);

	if (ret <= 0)
		return ret;
	ret = map_bundle_order(ctx, *b, cpu, ts, kind);
	if (ret < 0)
		return ret;
	*idx = map_comm_index(*b, comm, len);
	return *idx < 0 ? -ENOMEM : 1;
}

int map_pkt_switch(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		   int64_t prev_state, int32_t next_pid, int32_t next_prio,
		   const char *comm, size_t len)
{
	struct map_bundle *b;
	long idx;
	int ret;

	ret = map_pkt_compact(ctx, cpu, ts, MAP_ORDER_SWITCH, comm, len, &b,
			      &idx);
	if (ret <= 0)
		return ret;
	ret = map_res_note(ctx, cpu, TCFXT_RES_KIND_SWITCH, 0);
	if (ret < 0)
		return ret;
	/* a time before the last one wraps: the reader adds it back */
	pb_varint(&b->col[COL_SW_TS], b->any_sw ? ts - b->sw_ts : ts);
	pb_varint(&b->col[COL_SW_STATE], (uint64_t)prev_state);
	pb_varint(&b->col[COL_SW_PID], (uint64_t)(int64_t)next_pid);
	pb_varint(&b->col[COL_SW_PRIO], (uint64_t)(int64_t)next_prio);
	pb_varint(&b->col[COL_SW_COMM], idx);
	b->sw_ts = ts;
	b->any_sw = true;
	b->compact_bytes = map_bundle_compact_bytes(b);
	return map_bundle_check(ctx, ctx->pkt, cpu);
}

int map_pkt_waking(struct map_ctx *ctx, unsigned int cpu, uint64_t ts,
		   int32_t pid, int32_t target_cpu, int32_t prio,
		   const char *comm, size_t len, uint32_t common_flags)
{
	struct map_bundle *b;
	long idx;
	int ret;

	ret = map_pkt_compact(ctx, cpu, ts, MAP_ORDER_WAKING, comm, len, &b,
			      &idx);
	if (ret <= 0)
		return ret;
	ret = map_res_note(ctx, cpu, TCFXT_RES_KIND_WAKING, 0);
	if (ret < 0)
		return ret;
	pb_varint(&b->col[COL_WK_TS], b->any_wk ? ts - b->wk_ts : ts);
	pb_varint(&b->col[COL_WK_PID], (uint64_t)(int64_t)pid);
	pb_varint(&b->col[COL_WK_CPU], (uint64_t)(int64_t)target_cpu);
	pb_varint(&b->col[COL_WK_PRIO], (uint64_t)(int64_t)prio);
	pb_varint(&b->col[COL_WK_COMM], idx);
	pb_varint(&b->col[COL_WK_FLAGS], common_flags);
	b->wk_ts = ts;
	b->any_wk = true;
	b->compact_bytes = map_bundle_compact_bytes(b);
	return map_bundle_check(ctx, ctx->pkt, cpu);
}

uint64_t map_pkt_symbol(struct map_ctx *ctx, struct tep_handle *tep,
			uint64_t addr)
{
	struct map_pkt *p = map_pkt_get(ctx);
	const char *name;
	bool added;
	uint32_t iid;
	size_t m;

	if (!p || !addr)
		return 0;
	name = tep_find_function(map_functions(ctx, tep), addr);
	if (!name)
		return 0;
	/*
	 * Its number among the symbols interned, 1 for the first: an id of
	 * 32 bits, which sched_blocked_reason's caller is read as
	 * (ParseSchedBlockedReason casts it to uint32_t), never 0.
	 */
	iid = map_set_id(&p->syms_sent, addr, &added);
	/* again in each chunk that uses it (map_pkt_chunk_end()) */
	if (iid && map_set_add(&p->syms_chunk, addr)) {
		m = pb_open(&p->syms, PFT_INTERNED_KERNEL_SYMBOLS);
		pb_uint(&p->syms, PFT_ISTRING_IID, iid);
		pb_bytes(&p->syms, PFT_ISTRING_STR, name, strlen(name));
		pb_close(&p->syms, m);
	}
	return iid;
}

int map_pkt_record(struct map_ctx *ctx, unsigned int cpu, uint64_t ts)
{
	struct map_bundle *b;
	uint64_t last;
	int ret = map_pkt_bundle(ctx, cpu, &b);

	if (ret <= 0)
		return ret;
	last = b->rec_ts;
	b->rec_ts = ts;
	/* full by copies alone, which add no packet event */
	return ts < last || map_bundle_full(ctx, b, cpu) ?
	       map_bundle_flush(ctx, ctx->pkt, cpu) : 0;
}

void map_pkt_lost(struct map_ctx *ctx, unsigned int cpu)
{
	struct map_pkt *p = map_pkt_get(ctx);
	struct map_bundle *b = p ? map_bundle_get(p, cpu) : NULL;

	if (b)
		b->lost = true;
}

static void map_proc_set_comm(struct map_proc *pr, const char *comm,
			      size_t len)
{
	if (len >= sizeof(pr->comm))
		len = sizeof(pr->comm) - 1;
	memcpy(pr->comm, comm, len);
	pr->comm[len] = '\0';
}

int map_pkt_process(struct map_ctx *ctx, int32_t pid, int32_t ppid,
		    uint64_t ts, const char *comm, size_t len, bool started)
{
	struct map_pkt *p = map_pkt_get(ctx);
	struct map_proc *pr;

	if (!p)
		return -ENOMEM;
	if (p->nr_procs == p->cap_procs) {
		size_t n = p->cap_procs ? 2 * p->cap_procs : 64;

		pr = realloc(p->procs, n * sizeof(*pr));
		if (!pr)
			return -ENOMEM;
		p->procs = pr;
		p->cap_procs = n;
	}
	pr = &p->procs[p->nr_procs++];
	pr->pid = pid;
	pr->ppid = ppid;
	pr->ts = ts;
	pr->started = started;
	map_proc_set_comm(pr, comm, len);
	return 0;
}

/* task_newtask and sched_process_fork of one fork are a few events apart */
#define MAP_PROC_RECENT		8

bool map_pkt_process_known(struct map_ctx *ctx, int32_t pid)
{
	struct map_pkt *p = ctx->pkt;
	size_t i, n = 0;

	for (i = p ? p->nr_procs : 0; i-- > 0 && n++ < MAP_PROC_RECENT;)
		if (p->procs[i].pid == pid)
			return true;
	return false;
}

void map_pkt_process_name(struct map_ctx *ctx, int32_t pid,
			  const char *comm, size_t len)
{
	struct map_pkt *p = ctx->pkt;
	size_t i;

	/* the latest process of that pid: pids are reused */
	for (i = p ? p->nr_procs : 0; i-- > 0;)
		if (p->procs[i].pid == pid) {
			map_proc_set_comm(&p->procs[i], comm, len);
			return;
		}
}

/* "Linux vm 6.18.44 x86_64": sysname, nodename, release, machine. */
static void map_pkt_utsname(struct pb_buf *out, const char *uname)
{
	static const uint32_t field[4] = {
		PFT_UTS_SYSNAME, 0, PFT_UTS_RELEASE, PFT_UTS_MACHINE,
	};
	const char *s = uname, *e;
	size_t m;
	int i;

	m = pb_open(out, PFT_SYSINFO_UTSNAME);
	for (i = 0; i < 4 && s && *s; i++) {
		e = strchr(s, ' ');
		if (!e || i == 3)
			e = s + strlen(s);
		if (field[i])
			pb_bytes(out, field[i], s, e - s);
		s = *e ? e + 1 : e;
	}
	pb_close(out, m);
}

int map_pkt_start(struct map_ctx *ctx, uint64_t first_ts)
{
	struct map_pkt *p = map_pkt_get(ctx);
	struct tracecmd_input *h = ctx->top;
	const char *uname, *ver, *clock;
	struct pb_buf *out;
	size_t pkt, m, t;
	char svc[256];

	if (!p)
		return -ENOMEM;
	out = &p->out;
	p->first_ts = first_ts;
	/*
	 * The machine (SystemProbesParser::ParseSystemInfo): uname's
	 * sysname and release tell Perfetto how to read sched_switch's
	 * prev_state (TaskState, by kernel version), its machine the
	 * syscall table; the recorder's version and the trace clock go
	 * in tracing_service_version, Perfetto's only text about the
	 * recorder (no metadata row names a trace clock).
	 */
	if (!h)
		goto idle;
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_uint(out, PFT_PACKET_TIMESTAMP, first_ts);
	m = pb_open(out, PFT_PACKET_SYSTEM_INFO);
	uname = tracecmd_get_uname(h);
	if (uname)
		map_pkt_utsname(out, uname);
	ver = tracecmd_get_version(h);
	clock = tracecmd_get_trace_clock(h);
	snprintf(svc, sizeof(svc), "trace-cmd %s, trace clock %s",
		 ver ? ver : "(unknown version)", clock ? clock : "local");
	pb_bytes(out, PFT_SYSINFO_SERVICE_VERSION, svc, strlen(svc));
	if (tracecmd_page_size(h) > 0)
		pb_uint(out, PFT_SYSINFO_PAGE_SIZE, tracecmd_page_size(h));
	if (tracecmd_cpus(h) > 0)
		pb_uint(out, PFT_SYSINFO_NUM_CPUS, tracecmd_cpus(h));
	pb_close(out, m);
	pb_close(out, pkt);

	/*
	 * The idle task: Perfetto's FXT importer does not map pid 0 onto
	 * its reserved idle thread as its ftrace importer does, so the
	 * thread of tid 0 is marked idle and named as Perfetto names it
	 * (GenericKernelParser::ParseGenericProcessTree: SetIdleThread,
	 * the name at process-tree priority, above sched_switch's comms).
	 */
idle:
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_uint(out, PFT_PACKET_TIMESTAMP, first_ts);
	m = pb_open(out, PFT_PACKET_GENERIC_KERNEL_TREE);
	t = pb_open(out, PFT_GKTREE_THREAD);
	pb_uint(out, PFT_GKTHREAD_TID, 0);
	pb_uint(out, PFT_GKTHREAD_PID, 0);
	pb_bytes(out, PFT_GKTHREAD_COMM, "swapper", 7);
	pb_uint(out, PFT_GKTHREAD_IS_IDLE, 1);
	pb_close(out, t);
	pb_close(out, m);
	pb_close(out, pkt);
	return out->err;
}

/* One CPU's "key: value" lines of trace-cmd's CPUSTAT text. */
struct map_cpustat {
	const char	*key;
	uint32_t	field;
	bool		seconds;	/* a double, in seconds */
};

static const struct map_cpustat map_cpustats[] = {
	{ "entries",		PFT_CPUSTATS_ENTRIES, false },
	{ "overrun",		PFT_CPUSTATS_OVERRUN, false },
	{ "commit overrun",	PFT_CPUSTATS_COMMIT_OVERRUN, false },
	{ "bytes",		PFT_CPUSTATS_BYTES_READ, false },
	{ "oldest event ts",	PFT_CPUSTATS_OLDEST_EVENT_TS, true },
	{ "now ts",		PFT_CPUSTATS_NOW_TS, true },
	{ "dropped events",	PFT_CPUSTATS_DROPPED_EVENTS, false },
	{ "read events",	PFT_CPUSTATS_READ_EVENTS, false },
};

/*
 * The top buffer's CPUSTAT options as FtraceStats at the end of the
 * trace: trace-cmd reads them when recording stops (ftrace's per_cpu
 * stats files), which is Perfetto's END_OF_TRACE.  libtracecmd gives
 * every buffer's, each instance's after a "Buffer: NAME" line; Perfetto
 * keeps one set per CPU.
 */
static void map_pkt_stats(struct map_ctx *ctx, struct pb_buf *out)
{
	const char *s = ctx->top ? tracecmd_get_cpustats(ctx->top) : NULL;
	const char *nl, *colon;
	size_t pkt, st, cs = 0;
	bool open = false;
	unsigned int i;

	if (!s || !*s)
		return;
	pkt = pb_open(out, PFT_TRACE_PACKET);
	st = pb_open(out, PFT_PACKET_FTRACE_STATS);
	pb_uint(out, PFT_STATS_PHASE, PFT_PHASE_END_OF_TRACE);
	for (; *s; s = *nl ? nl + 1 : nl) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		colon = memchr(s, ':', nl - s);
		if (!colon)
			continue;
		/* an instance's statistics follow the top buffer's */
		if (colon - s == 6 && !memcmp(s, "Buffer", 6))
			break;
		if (colon - s == 3 && !memcmp(s, "CPU", 3)) {
			if (open)
				pb_close(out, cs);
			cs = pb_open(out, PFT_STATS_CPU_STATS);
			pb_uint(out, PFT_CPUSTATS_CPU,
				strtoull(colon + 1, NULL, 10));
			open = true;
			continue;
		}
		for (i = 0; open && i < sizeof(map_cpustats) /
					    sizeof(map_cpustats[0]); i++) {
			const struct map_cpustat *c = &map_cpustats[i];

			if ((size_t)(colon - s) != strlen(c->key) ||
			    memcmp(s, c->key, colon - s))
				continue;
			if (c->seconds)
				pb_double(out, c->field,
					  strtod(colon + 1, NULL));
			else
				pb_uint(out, c->field,
					strtoull(colon + 1, NULL, 10));
		}
	}
	if (open)
		pb_close(out, cs);
	pb_close(out, st);
	pb_close(out, pkt);
}

/*
 * The processes the recording saw created, each with its parent, name
 * and start (SystemProbesParser::ParseProcessTree: a process needs a
 * cmdline, here its name, which also names it), at the recording's
 * start: Perfetto parses the tree in time order, before the events.
 */
static void map_pkt_tree(struct map_pkt *p, struct pb_buf *out)
{
	size_t pkt, tree, m, i, n = 0;

	for (i = 0; i < p->nr_procs; i++)
		n += !p->procs[i].started;
	if (!n)
		return;
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_uint(out, PFT_PACKET_TIMESTAMP, p->first_ts);
	tree = pb_open(out, PFT_PACKET_PROCESS_TREE);
	for (i = 0; i < p->nr_procs; i++) {
		const struct map_proc *pr = &p->procs[i];

		if (pr->started)
			continue;
		m = pb_open(out, PFT_TREE_PROCESS);
		pb_int(out, PFT_PROC_PID, pr->pid);
		pb_int(out, PFT_PROC_PPID, pr->ppid);
		pb_bytes(out, PFT_PROC_CMDLINE, pr->comm, strlen(pr->comm));
		pb_uint(out, PFT_PROC_START_FROM_BOOT, pr->ts);
		pb_close(out, m);
	}
	pb_close(out, tree);
	pb_close(out, pkt);
}

int map_pkt_finish(struct map_ctx *ctx)
{
	struct map_pkt *p = map_pkt_get(ctx);
	unsigned int cpu;
	int ret;

	if (!p)
		return -ENOMEM;
	for (cpu = 0; cpu < p->nr_b; cpu++) {
		ret = map_bundle_flush(ctx, p, cpu);
		if (ret < 0)
			return ret;
	}
	map_pkt_tree(p, &p->out);
	map_pkt_stats(ctx, &p->out);
	ret = map_pkt_write_out(ctx, p);
	if (ret)
		return ret;
	return p->zip ? map_zip_end(p->zip) : 0;
}

void map_pkt_free(struct map_ctx *ctx)
{
	struct map_pkt *p = ctx->pkt;
	unsigned int cpu;
	int i;

	if (!p)
		return;
	for (cpu = 0; cpu < p->nr_b; cpu++) {
		struct map_bundle *b = &p->b[cpu];

		pb_free(&b->ev);
		pb_free(&b->comms);
		pb_free(&b->descs);
		map_set_free(&b->described);
		for (i = 0; i < NR_COLS; i++)
			pb_free(&b->col[i]);
		free(b->slot);
	}
	free(p->b);
	pb_free(&p->out);
	map_zip_free(p->zip);
	pb_free(&p->syms);
	map_set_free(&p->syms_sent);
	map_set_free(&p->syms_chunk);
	free(p->procs);
	free(p);
	ctx->pkt = NULL;
}
