/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-residue.h - `convert --once`: each .dat event once in the file, as
 * its Perfetto packet event and, in the bundle's residue
 * (tcfxt-residue.h), the bytes of the record that packet does not carry;
 * no instant.
 *
 * map_dispatch_write() opens each record (map_res_begin()), the packet
 * writer notes each event it adds to a bundle (map_res_note()): the first
 * the record's handlers add that is not inferred (map_res_inferred()) is
 * the record's, any other is no .dat event.  A record whose handlers add
 * none (an EventHeader event, whose FXT event Perfetto shows; a softirq
 * Perfetto has no name for), or that restates another buffer's, is kept
 * whole as a copy (map_res_copy()): Perfetto reads of the file what it
 * reads of the default one.
 */
#ifndef _MAP_RESIDUE_H
#define _MAP_RESIDUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tcfxt-residue.h"

struct map_ctx;
struct map_buffer;
struct map_event;
struct pb_buf;
struct tep_record;

/* What a packet event of a record carries of it (map-residue.c). */
enum map_res_form {
	MAP_RES_ROW,		/* its row's fields (typed, full sched) */
	MAP_RES_GENERIC,	/* the fields a generic event describes */
	MAP_RES_COMPACT_SWITCH,	/* its row's but prev_prio */
	MAP_RES_COPY,		/* none: a copy's record is whole */
	MAP_RES_NR_FORMS
};

/* Whether the conversion writes each event once (--once). */
bool map_res_on(const struct map_ctx *ctx);

/*
 * Whether every record of the buffers added can be once: their CPUs
 * within Perfetto's (bundles), their events' fields within what a
 * residue entry holds.  False with the reason in @why (@len bytes).
 */
bool map_res_fits(const struct map_ctx *ctx, char *why, size_t len);

/*
 * @rec of @me in @buf is being mapped: its packet event still to come.
 * -ENOMEM: the residue cannot be kept.
 */
int map_res_begin(struct map_ctx *ctx, struct map_buffer *buf,
		  struct map_event *me, struct tep_record *rec);

/* Whether the record's handlers have added no packet event of it. */
bool map_res_pending(const struct map_ctx *ctx);

/*
 * @cpu lost @count events (-1 or 0: unknown how many) before its next
 * record mapped, or (@after) after it: that record's entry says so.
 */
int map_res_lost(struct map_ctx *ctx, struct map_buffer *buf,
		 unsigned int cpu, int64_t count, bool after);

/*
 * The record being mapped, kept whole as a copy in its CPU's residue, no
 * packet event.  -ERANGE (said) for a CPU past Perfetto's limit, whose
 * bundles cannot be.
 */
int map_res_copy(struct map_ctx *ctx);

/* Whether @cpu's bundle has copies to write, its packets or not. */
bool map_res_held(const struct map_ctx *ctx, unsigned int cpu);

/*
 * The packet events added from map_res_inferred(ctx, true) to
 * map_res_inferred(ctx, false) are the converter's inferences, no .dat
 * event (calls nest).
 */
void map_res_inferred(struct map_ctx *ctx, bool on);

/*
 * A packet event of @kind added to @cpu's bundle: FtraceEvent field
 * @event for TCFXT_RES_KIND_EVENT.  Its residue entry noted.
 */
int map_res_note(struct map_ctx *ctx, unsigned int cpu,
		 enum tcfxt_res_kind kind, uint32_t event);

/* The bytes @cpu's bundle holds of residue so far (0 when not --once). */
size_t map_res_bytes(const struct map_ctx *ctx, unsigned int cpu);

/*
 * @cpu's bundle written: its residue field into @out, then emptied;
 * @running: compact sched's implicit task as the bundle began, + 1 (0:
 * none).
 */
int map_res_flush(struct map_ctx *ctx, unsigned int cpu, struct pb_buf *out,
		  uint32_t running);

void map_res_free(struct map_ctx *ctx);

#endif /* _MAP_RESIDUE_H */
