// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perfetto-read.c - the Perfetto packets of an FXT file read back
 * (perfetto-read.h): the stream cut into packets, each checked and
 * described.  What fails Perfetto's import, and where its source says
 * so (google/perfetto, src/trace_processor/importers/):
 *  - proto/proto_trace_tokenizer.h, Tokenize: a top-level field of a
 *    wire type that is not a varint, fixed or LEN field;
 *  - proto/proto_trace_reader.cc, ParsePacket: a packet whose fields do
 *    not parse to its end; SEQ_NEEDS_INCREMENTAL_STATE, or a sequence's
 *    timestamp clock (64 to 127), without a sequence id;
 *  - ftrace/ftrace_tokenizer.cc, TokenizeFtraceBundle: a bundle CPU of
 *    PFT_MAX_CPU or more, an unknown ftrace clock;
 *  - ftrace/ftrace_parser.cc, ParseFtraceStats: a phase other than
 *    START_OF_TRACE and END_OF_TRACE, a parse error but
 *    ZERO_DATA_LENGTH.
 * And what loses data without failing it: a bundle without a cpu, an
 * event without a timestamp, a pid or an event, a field besides those
 * and the event (common_flags: the parser takes it for a second event),
 * unequal CompactSched columns, a comm index past the intern table, a
 * nested message that does not parse; a described generic event (field
 * PFT_DESCRIBED_FIRST and up) whose descriptor no bundle of its CPU gave
 * before it or with it, a descriptor of a field number the trace
 * processor refuses (ftrace/generic_ftrace_tracker.cc, AddDescriptor;
 * ftrace_parser.cc, ParseGenericFtrace: the event is dropped).
 * A packet of compressed_packets is inflated (perfetto-zip.h, bounded)
 * and the packets inside checked as those of the stream; what Perfetto's
 * tokenizer refuses there (proto_trace_tokenizer.h, Tokenize: bytes that
 * do not inflate, a field that is no Trace.packet, a packet past the
 * end) is a fault, and so is what it drops: fields beside
 * compressed_packets, compressed packets inside compressed packets.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "perfetto-proto.h"
#include "perfetto-read.h"
#include "perfetto-zip.h"

/* FtraceParseStatus FTRACE_STATUS_ABI_ZERO_DATA_LENGTH: the one allowed */
#define PFT_PARSE_ZERO_DATA_LENGTH	12
/* The last FtraceClock value (FTRACE_CLOCK_MONO_RAW). */
#define PFT_FTRACE_CLOCK_MAX		4
/* timestamp_clock_id of a sequence's own clocks. */
#define PFT_SEQ_CLOCK_FIRST		64
#define PFT_SEQ_CLOCK_LAST		127

struct pft_stream {
	struct pb_buf		pend;	/* bytes of packets not complete yet */
	size_t			head;	/* where the next packet starts */
	char			*text;	/* what the last feed completed */
	size_t			text_len, text_cap;
	char			error[256];
	bool			failed;
	bool			zipped;	/* in a compressed packet's packets */
	bool			zhead;	/* the compressed packet itself */
	struct pb_buf		infl;	/* its packets, inflated */
	struct pft_totals	t;
	/*
	 * the described events' ids a descriptor came for, a bit each from
	 * PFT_DESCRIBED_FIRST (ids past PFT_DESCRIBED_BITS are not checked),
	 * per CPU: ids[cpu]
	 */
	uint8_t			**ids;
	unsigned int		nr_ids;
};

/* How many described ids past PFT_DESCRIBED_FIRST the check follows. */
#define PFT_DESCRIBED_BITS	65536

struct pft_stream *pft_stream_new(void)
{
	return calloc(1, sizeof(struct pft_stream));
}

void pft_stream_free(struct pft_stream *s)
{
	unsigned int i;

	if (!s)
		return;
	pb_free(&s->pend);
	pb_free(&s->infl);
	for (i = 0; i < s->nr_ids; i++)
		free(s->ids[i]);
	free(s->ids);
	free(s->text);
	free(s);
}

const char *pft_stream_error(const struct pft_stream *s)
{
	return s->failed ? s->error : NULL;
}

const char *pft_stream_text(const struct pft_stream *s)
{
	return s->text ? s->text : "";
}

const struct pft_totals *pft_stream_totals(const struct pft_stream *s)
{
	return &s->t;
}

static int pft_fail(struct pft_stream *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int pft_fail(struct pft_stream *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->zhead)
		n = snprintf(s->error, sizeof(s->error), "perfetto compressed "
			     "packet %llu: ", (unsigned long long)s->t.zipped);
	else
		n = snprintf(s->error, sizeof(s->error), "perfetto packet "
			     "%llu%s: ", (unsigned long long)s->t.packets,
			     s->zipped ? " (compressed)" : "");
	va_start(ap, fmt);
	vsnprintf(s->error + n, sizeof(s->error) - n, fmt, ap);
	va_end(ap);
	s->failed = true;
	return -EBADMSG;
}

static void pft_say(struct pft_stream *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void pft_say(struct pft_stream *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(s->text ? s->text + s->text_len : NULL,
			      s->text ? s->text_cap - s->text_len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (s->text && s->text_len + n < s->text_cap) {
			s->text_len += n;
			return;
		}
		{
			size_t cap = 2 * (s->text_cap + n + 64);
			char *t = realloc(s->text, cap);

			if (!t)
				return;	/* the text is only a description */
			s->text = t;
			s->text_cap = cap;
		}
	}
}

/* Whether @b..@len is a message whose fields all parse. */
static bool pft_parses(const uint8_t *b, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	int ret;

	pb_reader_init(&r, b, len);
	while ((ret = pb_next(&r, &f)) > 0)
		;
	return ret == 0;
}

/* Whether @id is a described event's id the check follows. */
static bool pft_followed(uint64_t id)
{
	return id >= PFT_DESCRIBED_FIRST &&
	       id - PFT_DESCRIBED_FIRST < PFT_DESCRIBED_BITS;
}

/*
 * The bit of followed id @id on @cpu, made if @make; NULL when it was
 * not made (or @cpu is past PFT_MAX_CPU).
 */
static uint8_t *pft_id_bit(struct pft_stream *s, uint64_t cpu, uint64_t id,
			   bool make, uint8_t *mask)
{
	uint64_t k = id - PFT_DESCRIBED_FIRST;

	if (!pft_followed(id) || cpu >= PFT_MAX_CPU)
		return NULL;
	if (cpu >= s->nr_ids) {
		uint8_t **n;

		if (!make)
			return NULL;
		n = realloc(s->ids, (cpu + 1) * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + s->nr_ids, 0, (cpu + 1 - s->nr_ids) * sizeof(*n));
		s->ids = n;
		s->nr_ids = (unsigned int)cpu + 1;
	}
	if (!s->ids[cpu]) {
		if (!make)
			return NULL;
		s->ids[cpu] = calloc(PFT_DESCRIBED_BITS / 8, 1);
		if (!s->ids[cpu])
			return NULL;
	}
	*mask = (uint8_t)(1u << (k & 7));
	return &s->ids[cpu][k / 8];
}

/* A GenericEventDescriptor: its field numbers below the processor's limit. */
static int pft_descriptor(struct pft_stream *s, uint64_t cpu,
			  const struct pb_field *d)
{
	struct pb_reader r, dr, fr;
	struct pb_field f, g, h;
	uint64_t id = 0;
	uint8_t *bit, mask;

	pb_reader_init(&r, d->p, d->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id == PFT_DESC_FIELD_ID && f.wt == PB_VARINT)
			id = f.v;
		if (f.id != PFT_DESC_DESCRIPTOR || f.wt != PB_LEN)
			continue;
		pb_reader_init(&dr, f.p, f.len);
		while (pb_next(&dr, &g) > 0) {
			if (g.id != PFT_DPROTO_FIELD || g.wt != PB_LEN)
				continue;
			pb_reader_init(&fr, g.p, g.len);
			while (pb_next(&fr, &h) > 0)
				if (h.id == PFT_FDPROTO_NUMBER &&
				    h.wt == PB_VARINT &&
				    h.v >= PFT_DESCRIBED_MAX_FIELDS)
					return pft_fail(s, "a generic event "
						"descriptor with field %llu: "
						"Perfetto refuses it (%d or "
						"more)", (unsigned long long)
						h.v, PFT_DESCRIBED_MAX_FIELDS);
		}
	}
	bit = pft_id_bit(s, cpu, id, true, &mask);
	if (bit)
		*bit |= mask;
	return 0;
}

/* An FtraceEvent: timestamp, pid and exactly one event message. */
static int pft_event(struct pft_stream *s, uint64_t cpu,
		     const struct pb_field *ev)
{
	uint8_t *bit, mask;
	bool ts = false, pid = false;
	unsigned int events = 0;
	struct pb_reader r;
	struct pb_field f;
	int ret;

	pb_reader_init(&r, ev->p, ev->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_EVENT_TIMESTAMP && f.wt == PB_VARINT)
			ts = true;
		else if (f.id == PFT_EVENT_PID && f.wt == PB_VARINT)
			pid = true;
		else if (f.wt == PB_LEN && pft_parses(f.p, f.len)) {
			events++;
			if (!pft_followed(f.id))
				continue;
			bit = pft_id_bit(s, cpu, f.id, false, &mask);
			if (!bit || !(*bit & mask))
				return pft_fail(s, "FtraceEvent field %u: a "
						"generic event no descriptor "
						"of its CPU's bundles came "
						"for: Perfetto drops it",
						f.id);
		} else
			return pft_fail(s, "FtraceEvent field %u: Perfetto "
					"takes it for an event", f.id);
	}
	if (ret < 0)
		return pft_fail(s, "an FtraceEvent does not parse");
	if (!ts || !pid || events != 1)
		return pft_fail(s, "an FtraceEvent has %s%s%u events",
				ts ? "" : "no timestamp, ",
				pid ? "" : "no pid, ", events);
	s->t.events++;
	return 0;
}

/* The CompactSched columns: packed, of equal lengths, indexes in range. */
static int pft_compact(struct pft_stream *s, const struct pb_field *cs,
		       long *nsw, long *nwk)
{
	long n[PFT_COMPACT_WAKING_FLAGS + 1] = { 0 }, comms = 0, c;
	struct pb_field cols[PFT_COMPACT_WAKING_FLAGS + 1] = { { 0 } };
	struct pb_reader r;
	struct pb_field f;
	uint64_t v;
	const uint8_t *p;
	int ret, i;

	pb_reader_init(&r, cs->p, cs->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_COMPACT_INTERN_TABLE) {
			comms++;
			continue;
		}
		if (f.id > PFT_COMPACT_WAKING_FLAGS)
			continue;
		c = pb_packed_count(&f);
		if (c < 0)
			return pft_fail(s, "CompactSched field %u is no packed "
					"run of varints", f.id);
		/* the reader keeps the last chunk of a packed field */
		n[f.id] = c;
		cols[f.id] = f;
	}
	if (ret < 0)
		return pft_fail(s, "a CompactSched does not parse");
	for (i = PFT_COMPACT_SWITCH_PREV_STATE; i <= PFT_COMPACT_WAKING_COMM;
	     i++) {
		long want = i < PFT_COMPACT_WAKING_TIMESTAMP ?
			    n[PFT_COMPACT_SWITCH_TIMESTAMP] :
			    n[PFT_COMPACT_WAKING_TIMESTAMP];

		if (i == PFT_COMPACT_INTERN_TABLE ||
		    i == PFT_COMPACT_WAKING_TIMESTAMP)
			continue;
		if (n[i] != want)
			return pft_fail(s, "CompactSched column %d has %ld "
					"values, its timestamps %ld", i, n[i],
					want);
	}
	for (i = PFT_COMPACT_SWITCH_NEXT_COMM; i <= PFT_COMPACT_WAKING_COMM;
	     i += PFT_COMPACT_WAKING_COMM - PFT_COMPACT_SWITCH_NEXT_COMM) {
		const uint8_t *end;

		if (!cols[i].p)
			continue;
		end = cols[i].p + cols[i].len;
		for (p = cols[i].p; p < end;) {
			if (pb_read_varint(&p, end, &v))
				break;
			if (v >= (uint64_t)comms)
				return pft_fail(s, "a compact comm index "
						"(%llu) past its intern table "
						"(%ld)",
						(unsigned long long)v, comms);
		}
	}
	*nsw = n[PFT_COMPACT_SWITCH_TIMESTAMP];
	*nwk = n[PFT_COMPACT_WAKING_TIMESTAMP];
	return 0;
}

static int pft_bundle(struct pft_stream *s, const struct pb_field *bf)
{
	long events = 0, nsw = 0, nwk = 0;
	bool have_cpu = false, lost = false;
	uint64_t cpu = 0;
	struct pb_reader r;
	struct pb_field f;
	int ret;

	/*
	 * the cpu, then its descriptors: Perfetto takes them in as it
	 * tokenizes the bundle, before it parses any of its events
	 */
	pb_reader_init(&r, bf->p, bf->len);
	while (pb_next(&r, &f) > 0)
		if (f.id == PFT_BUNDLE_CPU) {
			cpu = f.v;
			have_cpu = true;
		}
	pb_reader_init(&r, bf->p, bf->len);
	while (have_cpu && pb_next(&r, &f) > 0)
		if (f.id == PFT_BUNDLE_DESCRIPTORS && f.wt == PB_LEN &&
		    pft_descriptor(s, cpu, &f))
			return -EBADMSG;
	pb_reader_init(&r, bf->p, bf->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		switch (f.id) {
		case PFT_BUNDLE_EVENT:
			if (f.wt != PB_LEN || pft_event(s, cpu, &f))
				return s->failed ? -EBADMSG :
				       pft_fail(s, "a bundle's event is no "
						"message");
			events++;
			break;
		case PFT_BUNDLE_LOST_EVENTS:
			lost = f.v;
			break;
		case PFT_BUNDLE_COMPACT_SCHED:
			if (f.wt != PB_LEN || pft_compact(s, &f, &nsw, &nwk))
				return s->failed ? -EBADMSG :
				       pft_fail(s, "CompactSched is no "
						"message");
			break;
		case PFT_BUNDLE_FTRACE_CLOCK:
			if (f.v > PFT_FTRACE_CLOCK_MAX)
				return pft_fail(s, "ftrace clock %llu, which "
						"Perfetto refuses",
						(unsigned long long)f.v);
			break;
		}
	}
	if (ret < 0)
		return pft_fail(s, "an FtraceEventBundle does not parse");
	if (!have_cpu)
		return pft_fail(s, "an FtraceEventBundle without its cpu");
	if (cpu >= PFT_MAX_CPU)
		return pft_fail(s, "an FtraceEventBundle of CPU %llu (Perfetto "
				"refuses %d or more)", (unsigned long long)cpu,
				PFT_MAX_CPU);
	s->t.bundles++;
	s->t.switches += nsw;
	s->t.wakings += nwk;
	pft_say(s, " ftrace_events cpu=%llu events=%ld switches=%ld "
		"wakings=%ld%s", (unsigned long long)cpu, events, nsw, nwk,
		lost ? " lost_events" : "");
	return 0;
}

static int pft_stats(struct pft_stream *s, const struct pb_field *sf)
{
	uint64_t phase = 0;
	struct pb_reader r;
	struct pb_field f;
	long cpus = 0;
	const uint8_t *p, *end;
	uint64_t v;
	int ret;

	pb_reader_init(&r, sf->p, sf->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_STATS_PHASE)
			phase = f.v;
		else if (f.id == PFT_STATS_CPU_STATS)
			cpus++;
		if (f.id != PFT_STATS_PARSE_ERRORS)
			continue;
		if (f.wt == PB_VARINT && f.v != PFT_PARSE_ZERO_DATA_LENGTH)
			return pft_fail(s, "FtraceStats with parse error %llu, "
					"which fails the import",
					(unsigned long long)f.v);
		if (f.wt != PB_LEN || !f.len)
			continue;
		end = f.p + f.len;
		for (p = f.p; p < end;)
			if (pb_read_varint(&p, end, &v) ||
			    v != PFT_PARSE_ZERO_DATA_LENGTH)
				return pft_fail(s, "FtraceStats with "
						"parse errors, which fail "
						"the import");
	}
	if (ret < 0)
		return pft_fail(s, "FtraceStats does not parse");
	if (phase != PFT_PHASE_START_OF_TRACE &&
	    phase != PFT_PHASE_END_OF_TRACE)
		return pft_fail(s, "FtraceStats of phase %llu, which fails the "
				"import", (unsigned long long)phase);
	pft_say(s, " ftrace_stats phase=%llu cpus=%ld",
		(unsigned long long)phase, cpus);
	return 0;
}

/* How many fields @id a message has, or -1 when it does not parse. */
static long pft_count(const struct pb_field *m, uint32_t id)
{
	struct pb_reader r;
	struct pb_field f;
	long n = 0;
	int ret;

	pb_reader_init(&r, m->p, m->len);
	while ((ret = pb_next(&r, &f)) > 0)
		if (f.id == id && f.wt == PB_LEN && pft_parses(f.p, f.len))
			n++;
		else if (f.id == id)
			return -1;
	return ret < 0 ? -1 : n;
}

/* The other messages of a packet that are described: what they list. */
static const struct pft_list {
	uint32_t	field;		/* of TracePacket */
	uint32_t	item;		/* the repeated message it lists */
	const char	*what;		/* "name items" */
} pft_lists[] = {
	{ PFT_PACKET_PROCESS_TREE, PFT_TREE_PROCESS, "process_tree processes" },
	{ PFT_PACKET_GENERIC_KERNEL_TREE, PFT_GKTREE_THREAD,
	  "generic_kernel_process_tree threads" },
	{ PFT_PACKET_SYSTEM_INFO, PFT_SYSINFO_UTSNAME, "system_info utsname" },
	{ PFT_PACKET_INTERNED_DATA, PFT_INTERNED_KERNEL_SYMBOLS,
	  "interned kernel_symbols" },
};

/* @f, when pft_lists[] has it: checked and described; else nothing. */
static int pft_listed(struct pft_stream *s, const struct pb_field *f)
{
	unsigned int i;
	long n;

	for (i = 0; i < sizeof(pft_lists) / sizeof(pft_lists[0]); i++) {
		if (pft_lists[i].field != f->id)
			continue;
		n = pft_count(f, pft_lists[i].item);
		if (n < 0)
			return pft_fail(s, "%s that do not parse",
					pft_lists[i].what);
		pft_say(s, " %s=%ld", pft_lists[i].what, n);
	}
	return 0;
}

static int pft_packet(struct pft_stream *s, const uint8_t *b, size_t len);

/*
 * The packets of a compressed packet, inflated at @p..@end: the tag of a Trace.packet
 * field, as one byte, is all Perfetto's tokenizer takes between them.
 */
static int pft_zipped_run(struct pft_stream *s, const uint8_t *p,
			  const uint8_t *end)
{
	const uint8_t tag = pb_tag(PFT_TRACE_PACKET, PB_LEN);
	uint64_t n;
	int ret = 0;

	s->zipped = true;
	while (p < end) {
		if (*p != tag) {
			s->t.packets++;
			ret = pft_fail(s, "inflated, a field that is no "
				       "Trace.packet (Perfetto refuses the "
				       "trace)");
			break;
		}
		p++;
		if (pb_read_varint(&p, end, &n) || n > (uint64_t)(end - p)) {
			s->t.packets++;
			ret = pft_fail(s, "inflated, a packet past the end of "
				       "its compressed packet (Perfetto "
				       "refuses the trace)");
			break;
		}
		ret = pft_packet(s, p, n);
		if (ret)
			break;
		p += n;
		ret = 0;
	}
	s->zipped = false;
	return p < end ? ret : 0;
}

/* A packet of compressed_packets @z (field @f of it): its packets. */
static int pft_zipped(struct pft_stream *s, const uint8_t *b, size_t len,
		      const struct pb_field *z)
{
	struct pb_reader r;
	struct pb_field f;
	int ret;

	s->t.zipped++;
	s->zhead = true;
	if (s->zipped)
		return pft_fail(s, "inside another compressed packet (Perfetto "
				"inflates only the outer one)");
	pb_reader_init(&r, b, len);
	while ((ret = pb_next(&r, &f)) > 0)
		if (f.id != PFT_PACKET_COMPRESSED_PACKETS || f.p != z->p)
			return pft_fail(s, "field %u beside compressed_packets "
					"(Perfetto drops it)", f.id);
	if (ret < 0)
		return pft_fail(s, "its fields do not parse to its end "
				"(Perfetto refuses the trace)");
	if (z->wt != PB_LEN)
		return pft_fail(s, "compressed_packets is no bytes field");
	ret = pft_unzip(z->p, z->len, &s->infl);
	if (ret == -EFBIG)
		return pft_fail(s, "inflates past %u bytes (refused: no writer "
				"packs more)", PFT_ZIP_MAX);
	if (ret == -ENOMEM) {
		s->zhead = false;
		return ret;
	}
	if (ret)
		return pft_fail(s, "compressed_packets do not inflate: no whole "
				"zlib or gzip stream (Perfetto refuses the "
				"trace)");
	s->zhead = false;
	pft_say(s, "%scompressed %zu bytes, inflated %zu", s->text_len ?
		"; " : "", z->len, s->infl.len);
	return pft_zipped_run(s, s->infl.p, s->infl.p + s->infl.len);
}

static int pft_packet(struct pft_stream *s, const uint8_t *b, size_t len)
{
	uint64_t seq = 0, flags = 0, clock = 0;
	struct pb_reader r;
	struct pb_field f;
	int ret;

	pb_reader_init(&r, b, len);
	while (pb_next(&r, &f) > 0)
		if (f.id == PFT_PACKET_COMPRESSED_PACKETS)
			return pft_zipped(s, b, len, &f);
	s->t.packets++;
	pft_say(s, "%spacket %llu:", s->text_len ? "; " : "",
		(unsigned long long)s->t.packets);
	pb_reader_init(&r, b, len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.wt != PB_LEN) {
			if (f.id == PFT_PACKET_SEQUENCE_ID)
				seq = f.v;
			else if (f.id == PFT_PACKET_SEQUENCE_FLAGS)
				flags = f.v;
			else if (f.id == PFT_PACKET_CLOCK_ID)
				clock = f.v;
			else if (f.id == PFT_PACKET_TIMESTAMP)
				pft_say(s, " ts=%llu", (unsigned long long)f.v);
			continue;
		}
		switch (f.id) {
		case PFT_PACKET_FTRACE_EVENTS:
			if (pft_bundle(s, &f))
				return -EBADMSG;
			break;
		case PFT_PACKET_FTRACE_STATS:
			if (pft_stats(s, &f))
				return -EBADMSG;
			break;
		default:
			if (pft_listed(s, &f))
				return -EBADMSG;
			break;
		}
	}
	if (ret < 0)
		return pft_fail(s, "its fields do not parse to its end "
				"(Perfetto refuses the trace)");
	if ((flags & PFT_SEQ_NEEDS_INCREMENTAL_STATE) && !seq)
		return pft_fail(s, "needs incremental state, on no sequence "
				"(Perfetto refuses the trace)");
	if (clock >= PFT_SEQ_CLOCK_FIRST && clock <= PFT_SEQ_CLOCK_LAST &&
	    !seq)
		return pft_fail(s, "a sequence's clock %llu on no sequence "
				"(Perfetto refuses the trace)",
				(unsigned long long)clock);
	return 0;
}

/*
 * The next top-level field of the pending bytes, if all of it is there:
 * 1 (its bytes in *@f), 0 when more bytes are needed, or a fault.
 */
static int pft_next_top(struct pft_stream *s, struct pb_field *f)
{
	const uint8_t *b, *end, *p;
	uint64_t tag, v;
	size_t avail;

	*f = (struct pb_field){ 0 };
	if (s->head >= s->pend.len)
		return 0;
	b = s->pend.p + s->head;
	end = s->pend.p + s->pend.len;
	p = b;
	avail = end - b;
	if (pb_read_varint(&p, end, &tag))
		return avail >= PB_VARINT_MAX ?
		       pft_fail(s, "the stream's next tag is no varint") : 0;
	f->id = tag >> 3;
	f->wt = tag & 7;
	if (!f->id)
		return pft_fail(s, "field 0 at the stream's top level");
	switch (f->wt) {
	case PB_VARINT:
		if (pb_read_varint(&p, end, &v))
			return (size_t)(end - p) >= PB_VARINT_MAX ?
			       pft_fail(s, "a varint at the top level does "
					"not end") : 0;
		f->len = 0;
		break;
	case PB_FIXED64:
	case PB_FIXED32:
		if ((size_t)(end - p) < (f->wt == PB_FIXED64 ? 8u : 4u))
			return 0;
		p += f->wt == PB_FIXED64 ? 8 : 4;
		f->len = 0;
		break;
	case PB_LEN:
		if (pb_read_varint(&p, end, &v))
			return (size_t)(end - p) >= PB_VARINT_MAX ?
			       pft_fail(s, "a length that does not end") : 0;
		if (v > (uint64_t)(end - p))
			return 0;
		f->p = p;
		f->len = v;
		p += v;
		break;
	default:
		s->t.packets++;
		return pft_fail(s, "wire type %u at the stream's top level "
				"(Perfetto refuses the trace)", f->wt);
	}
	s->head = p - s->pend.p;
	return 1;
}

int pft_stream_feed(struct pft_stream *s, const void *data, size_t len)
{
	struct pb_field f;
	int ret;

	if (s->failed)
		return -EBADMSG;
	s->text_len = 0;
	if (s->text)
		s->text[0] = '\0';
	/* what is consumed goes, once it is most of the buffer */
	if (s->head && s->head >= s->pend.len / 2) {
		memmove(s->pend.p, s->pend.p + s->head, s->pend.len - s->head);
		s->pend.len -= s->head;
		s->head = 0;
	}
	if (len && !pb_room(&s->pend, len))
		return -ENOMEM;
	if (len) {
		memcpy(s->pend.p + s->pend.len, data, len);
		s->pend.len += len;
	}
	while ((ret = pft_next_top(s, &f)) > 0) {
		/* Trace.packet; other fields of Trace are skipped */
		if (f.id == PFT_TRACE_PACKET && f.wt == PB_LEN) {
			ret = pft_packet(s, f.p, f.len);
			if (ret)
				return ret == -ENOMEM ? ret : -EBADMSG;
		}
		if (f.id == PFT_TRACE_PACKET && f.wt != PB_LEN) {
			s->t.packets++;
			return pft_fail(s, "a packet that is no message");
		}
		if (f.id != PFT_TRACE_PACKET)
			s->t.other++;
	}
	return ret;
}

int pft_stream_end(struct pft_stream *s)
{
	if (s->failed)
		return -EBADMSG;
	if (s->head < s->pend.len) {
		s->t.packets++;
		return pft_fail(s, "unfinished: %zu bytes at the end of the "
				"stream are no whole packet",
				s->pend.len - s->head);
	}
	return 0;
}
