/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perfetto-read.h - the Perfetto packets of an FXT file read back: the
 * payloads of its blob records of blob type 3 (FXT_BLOB_PERFETTO), fed
 * in file order, form one protobuf stream of TracePackets, as Perfetto's
 * FXT importer joins them (perfetto-proto.h says which fields are what).
 *
 * Each packet is checked when its last byte arrives, against what would
 * make Perfetto's import lose it or fail: bytes that are no protobuf
 * field (at any depth of the messages trace-fxt writes), an
 * FtraceEventBundle without its cpu or with one of PFT_MAX_CPU or more,
 * an ftrace clock Perfetto does not know, FtraceStats of another phase
 * than the two or with parse errors, a sequence that needs incremental
 * state without a sequence id, a timestamp clock of a sequence without
 * one, CompactSched columns of unequal lengths or comm indexes past its
 * intern table.  A packet may span blob records; one still open at the
 * end is a fault too.  A packet of compressed_packets (perfetto-zip.h)
 * is inflated, its packets checked as the others; one that does not
 * inflate whole, inflates past PFT_ZIP_MAX, holds more than its packets
 * or is inside another is a fault.
 *
 * Each packet is also described in a line of text (what `trace-fxt
 * dump` shows of a blob), and counted (what `trace-fxt check` sums up).
 */
#ifndef _PERFETTO_READ_H
#define _PERFETTO_READ_H

#include <stddef.h>
#include <stdint.h>

struct pft_stream;

/* What the packets held so far. */
struct pft_totals {
	uint64_t	packets;
	uint64_t	bundles;	/* FtraceEventBundles */
	uint64_t	events;		/* FtraceEvents */
	uint64_t	switches;	/* compact sched_switch */
	uint64_t	wakings;	/* compact sched_waking */
	uint64_t	other;		/* top-level fields besides packets */
	uint64_t	zipped;		/* compressed packets (not in packets:
					 * their packets are) */
};

/**
 * pft_stream_new() - an empty stream
 *
 * Return: the stream, or NULL when out of memory.
 */
struct pft_stream *pft_stream_new(void);

/**
 * pft_stream_free() - free a stream
 * @s: the stream, or NULL
 */
void pft_stream_free(struct pft_stream *s);

/**
 * pft_stream_feed() - the payload of the next blob record of type 3
 * @s: the stream
 * @data: the payload
 * @len: its size
 *
 * The packets it completes are checked and described
 * (pft_stream_text()).
 *
 * Return: 0, -EBADMSG for a packet Perfetto would lose or refuse (the
 * reason in pft_stream_error(); the stream stays failed), -ENOMEM.
 */
int pft_stream_feed(struct pft_stream *s, const void *data, size_t len);

/**
 * pft_stream_end() - the stream ends here
 * @s: the stream
 *
 * Return: 0, or -EBADMSG when a packet is left unfinished.
 */
int pft_stream_end(struct pft_stream *s);

/**
 * pft_stream_error() - why the stream failed
 * @s: the stream
 *
 * Return: the reason, with the packet's number, or NULL.
 */
const char *pft_stream_error(const struct pft_stream *s);

/**
 * pft_stream_text() - the packets the last feed completed, described
 * @s: the stream
 *
 * Return: one line ("packet 3: ftrace_events cpu=0 events=12 ...;
 * packet 4: ..."), "" for none; valid until the next feed.
 */
const char *pft_stream_text(const struct pft_stream *s);

/**
 * pft_stream_totals() - what the packets held so far
 * @s: the stream
 */
const struct pft_totals *pft_stream_totals(const struct pft_stream *s);

#endif /* _PERFETTO_READ_H */
