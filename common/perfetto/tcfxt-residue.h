/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcfxt-residue.h - what a bundle of a `convert --once` FXT keeps of its
 * .dat events beyond what Perfetto's messages carry: the residue, a
 * field of trace-fxt's own in the FtraceEventBundle, which Perfetto's
 * importer skips as it skips every field it does not know
 * (protozero's decoders read the fields they name).
 *
 * The residue is a message of its own:
 *   decl (1, repeated): an event form of the bundle, numbered from 0 in
 *       order: its system (1), name (2), .dat buffer (3, "" the top one)
 *       and the names of the fields its entries hold (4, repeated);
 *   events (2), switches (3), wakings (4): one entry for each of the
 *       bundle's FtraceEvents, compact switches and compact wakings, in
 *       their order there;
 *   copies (5): the records of the bundle's CPU that have no packet event
 *       (another buffer's restated: the kernel wrote one event into two
 *       ring buffers; those the default FXT writes no packet of either):
 *       each an entry's header naming a decl of no fields (its event and
 *       buffer), then its time and its record's length and bytes, all
 *       varints but the bytes;
 *   running (6): the task compact sched's implicit one is as the bundle
 *       begins (the last switch's next_pid), + 1 (absent: none yet), so
 *       that a reader who lost the bundles before (damage) takes its
 *       compact wakings' wakers, and its compact switches' prev task
 *       after the first, from the bundle itself.
 * An entry is a varint, 0 for a packet event that is no .dat event (a
 * switch the converter inferred), else its decl's number + 1 shifted
 * left by two, or'd with TCFXT_RES_LOST_BEFORE and TCFXT_RES_LOST_AFTER
 * when the CPU lost events just before or after the record (a varint
 * each follows, the count + 1, 0 unknown: the bundle's lost_events flag
 * says only that some were); then, for each field the decl names, its bytes as the .dat record holds them: a
 * fixed field its size, a dynamic one (__data_loc, __rel_loc) or a
 * flexible array a varint length and its data.  A decl names the common
 * fields but common_type and common_pid, and those its packet does not
 * carry, at most TCFXT_RES_MAX_FIELDS in all; its event is the .dat's
 * even where the packet names another (sched_wakeup_new written as
 * sched_waking).  So the packet's values, written by the recording's
 * own formats (the FXT's trace-cmd:event_format), and the residue's
 * bytes make the .dat's record again.
 */
#ifndef _TCFXT_RESIDUE_H
#define _TCFXT_RESIDUE_H

/*
 * FtraceEventBundle's field of the residue: far above Perfetto's own
 * numbers, below protobuf's largest (2^29 - 1).
 */
#define TCFXT_BUNDLE_RESIDUE	536870001

/* An entry's header: lost events before and after its record. */
#define TCFXT_RES_LOST_BEFORE	1
#define TCFXT_RES_LOST_AFTER	2
#define TCFXT_RES_DECL_SHIFT	2

/* The most fields a decl names: what a reader sets room aside for. */
#define TCFXT_RES_MAX_FIELDS	64

enum {
	TCFXT_RES_DECL		= 1,
	TCFXT_RES_EVENTS	= 2,
	TCFXT_RES_SWITCHES	= 3,
	TCFXT_RES_WAKINGS	= 4,
	TCFXT_RES_COPIES	= 5,
	TCFXT_RES_RUNNING	= 6,
};

enum {
	TCFXT_DECL_SYSTEM	= 1,
	TCFXT_DECL_NAME		= 2,
	TCFXT_DECL_BUFFER	= 3,
	TCFXT_DECL_FIELD	= 4,
};

/*
 * The entries of a bundle: by the kind of packet event they go with, and
 * the copies, in the order of their fields (TCFXT_RES_EVENTS + kind).
 */
enum tcfxt_res_kind {
	TCFXT_RES_KIND_EVENT,
	TCFXT_RES_KIND_SWITCH,
	TCFXT_RES_KIND_WAKING,
	TCFXT_RES_KIND_COPY,
	TCFXT_RES_NR_KINDS
};

#endif /* _TCFXT_RESIDUE_H */
