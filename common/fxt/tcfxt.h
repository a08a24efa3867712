/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tcfxt.h - the trace-cmd-in-FXT vocabulary.
 *
 * The converter (trace-cmd-plugin/trace-fxt-input/map-*.c) writes a
 * trace.dat as FXT with a few names of its own: metadata instants that
 * carry what the .dat's headers held, suffixes that tie extra records and
 * arguments to an event, bookkeeping arguments that only the exact round
 * trip needs.  Every reader that recognises a converted file (trace-fxt
 * report, the FXT -> .dat direction, the KernelShark plugin) asks this
 * header, and trace-cmd-plugin/MAPPING.md describes what it spells.
 * Nothing else in the tree spells these names.
 */
#ifndef _TCFXT_H
#define _TCFXT_H

#include <stdbool.h>
#include <string.h>

#include "fxt-format.h"

/*
 * Category of the converter's metadata instants.  A
 * provider whose first event is TCFXT_CAT/TCFXT_FILE_INFO was written by
 * the converter; everything below is only meaningful in such a provider.
 */
#define TCFXT_CAT		"trace-cmd"
#define TCFXT_FILE_INFO		"file_info"	/* first event: the .dat's header */
#define TCFXT_CPUSTATS		"cpustats"	/* the .dat's CPUSTAT option */
#define TCFXT_LOST_EVENTS	"lost_events"	/* events the ring buffer lost */
#define TCFXT_EVENT_FORMAT	"event_format"	/* one event's format file */
#define TCFXT_KALLSYMS		"kallsyms"	/* /proc/kallsyms lines used */
#define TCFXT_PRINTK		"printk"	/* printk_formats lines used */
#define TCFXT_HEADERS		"headers"	/* header_page, header_event */
#define TCFXT_PROCMAPS		"procmaps"	/* a PROCMAPS option's text */

/* Arguments of TCFXT_FILE_INFO: what the .dat's initial header says. */
#define TCFXT_INFO_BUFFER	"buffer"	/* the ftrace buffer's name */
#define TCFXT_INFO_UNAME	"uname"
#define TCFXT_INFO_VERSION	"version"
#define TCFXT_INFO_CLOCK	"clock"
#define TCFXT_INFO_CPUS		"cpus"
#define TCFXT_INFO_PAGE_SIZE	"page_size"
#define TCFXT_INFO_LONG_SIZE	"long_size"
#define TCFXT_INFO_IN_USECS	"in_usecs"	/* timestamps in us, not ns */
/*
 * 1 when the .dat was big endian, absent when little endian: its records
 * hold bytes in that order the fields do not describe (an EventHeader
 * payload, ARRAY[...] of wider elements), so a rebuilt record keeps it.
 */
#define TCFXT_INFO_BIG_ENDIAN	"big_endian"
/*
 * TCFXT_EVENTS_PACKETS when the file holds each event in its Perfetto
 * packets alone (`convert --once`: no instant of it, what the packets do
 * not carry in their residue, tcfxt-residue.h), absent when the events
 * are FXT records too: a reader then reads the events from the packets.
 */
#define TCFXT_INFO_EVENTS	"events"
#define TCFXT_EVENTS_PACKETS	"packets"
/* The top buffer's name (its provider's too); instances keep theirs. */
#define TCFXT_TOP_BUFFER	"top"

/* Arguments of the other metadata instants. */
#define TCFXT_ARG_TEXT		"text"		/* cpustats, kallsyms, printk */
#define TCFXT_ARG_SYSTEM	"system"	/* event_format: its system */
#define TCFXT_ARG_HEADER_PAGE	"header_page"	/* headers */
#define TCFXT_ARG_HEADER_EVENT	"header_event"	/* headers */
#define TCFXT_ARG_COUNT		"count"		/* lost_events; -1 unknown */
/*
 * lost_events: the bytes of the .dat's CPU data not read because they
 * were damaged (the count is then -1); absent when the ring buffer lost
 * the events
 */
#define TCFXT_ARG_DAMAGED	"damaged"
/*
 * lost_events: true when the loss is after the CPU's record that follows
 * the instant, its last (damage that no record of the CPU follows), not
 * before it
 */
#define TCFXT_ARG_LAST		"last"

/*
 * The thread (and process) koid of the metadata instants above but
 * TCFXT_LOST_EVENTS (which stays on thread 0, where the loss happened):
 * no Linux pid reaches it (PID_MAX_LIMIT is 2^22), so Perfetto shows
 * them in a process of their own, named TCFXT_CAT, apart from every
 * thread of the recording.  Its thread object has a "source" argument,
 * which keeps it from the saved cmdlines.
 */
#define TCFXT_META_KOID		0x7fffffffULL

/* Categories of the records the converter adds for viewers. */
#define TCFXT_CAT_ATRACE	"atrace"	/* B|E|C|S|F trace_marker writes */
#define TCFXT_CAT_COUNTER	"counter"	/* counter-like events */

/* Argument names that are not fields of the event's format. */
#define TCFXT_ARG_CPU		"cpu"		/* always the first argument */
#define TCFXT_ARG_FLAGS		"common_flags"
#define TCFXT_ARG_PREEMPT	"common_preempt_count"
/* A wakeup's waking task, a koid (the .dat's common_pid). */
#define TCFXT_ARG_WAKER		"waker"
/*
 * The priorities of a context switch's threads and of a woken thread,
 * under the names Perfetto's FXT importer reads them by.
 */
#define TCFXT_ARG_OUT_WEIGHT	"outgoing_weight"
#define TCFXT_ARG_IN_WEIGHT	"incoming_weight"
#define TCFXT_ARG_WEIGHT	"weight"
/*
 * A thread object with TCFXT_ARG_SOURCE names a task that is not a saved
 * cmdline of the .dat: one an event revealed (TCFXT_SOURCE_EVENT), or
 * the idle task, pid 0, which the conversion names "swapper" as the
 * kernel does and trace-cmd shows as <idle> (TCFXT_SOURCE_IDLE).
 */
#define TCFXT_ARG_SOURCE	"source"
#define TCFXT_SOURCE_EVENT	"event"
#define TCFXT_SOURCE_IDLE	"idle"
/*
 * The record's bytes past its fields, as "ARRAY[xx, ...]", always the
 * last argument.  The '.' keeps it from ever naming a field (fields are
 * C identifiers) or a field's TCFXT_TEXT_SUFFIX.
 */
#define TCFXT_ARG_TRAILING	"__trailing.bytes"

/*
 * A bool argument of a context switch the converter inferred (a switch
 * out the recording lost), not one of the recording's sched_switch
 * events: readers that rebuild the events skip it.
 */
#define TCFXT_ARG_INFERRED	"inferred"

/* FIELD + TCFXT_TEXT_SUFFIX: how trace-cmd report -R shows FIELD. */
#define TCFXT_TEXT_SUFFIX	".text"
/*
 * NAME + TCFXT_CONT_SUFFIX: an instant right after event NAME, on the same
 * thread at the same time, holding its arguments past FXT_MAX_ARGS.
 */
#define TCFXT_CONT_SUFFIX	".cont"

/*
 * The name of the blob records (blob type FXT_BLOB_PERFETTO) that carry
 * the Perfetto packets the converter writes (perfetto-proto.h): Perfetto
 * reads them whatever their name.
 */
#define TCFXT_BLOB_PERFETTO	"perfetto"

/*
 * The name of the blob records (blob type FXT_BLOB_RECORDS) that carry,
 * in the default flavor, the records Perfetto has no use for: every
 * event's instant, the converter's own instants, lost events.  Perfetto
 * and Tracy skip them (a type they do not know); this project's readers
 * read the records inside where the blob is.
 */
#define TCFXT_BLOB_RECORDS	"trace-fxt.records"

/* The .dat system of events that came from FXT of other producers. */
#define TCFXT_SYSTEM_FXT	"fxt"
/*
 * Its event of log records (the others are named after their FXT event
 * type); `trace-fxt report` names a log line so too.
 */
#define TCFXT_FXT_LOG		"log"

/**
 * tcfxt_has_suffix() - whether @s ends in @suffix (and has more before it)
 * @s: the name to test
 * @suffix: NUL-terminated suffix, one of TCFXT_*_SUFFIX
 */
static inline bool tcfxt_has_suffix(struct fxt_str s, const char *suffix)
{
	size_t n = strlen(suffix);

	return s.len > n && !memcmp(s.ptr + s.len - n, suffix, n);
}

/**
 * tcfxt_thread_saved() - whether a converted file's thread object names
 *	a saved cmdline of its .dat (no TCFXT_ARG_SOURCE argument)
 * @args: the kernel object's arguments
 * @nargs: how many
 */
static inline bool tcfxt_thread_saved(const struct fxt_arg *args,
				      unsigned int nargs)
{
	unsigned int i;

	for (i = 0; i < nargs; i++)
		if (fxt_str_eq(args[i].name, TCFXT_ARG_SOURCE))
			return false;
	return true;
}

/**
 * tcfxt_thread_group() - the thread group a converted file's thread
 *	object @koid says it is in: its first "process" koid argument, when
 *	that is another task's (a pid); 0 when none is
 * @koid: the thread's koid, its pid
 * @args: its arguments
 * @nargs: how many
 *
 * Every reader that rebuilds the .dat's saved tgids takes them so.
 */
static inline uint64_t tcfxt_thread_group(uint64_t koid,
					  const struct fxt_arg *args,
					  unsigned int nargs)
{
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		if (args[i].type != FXT_ARG_KOID ||
		    !fxt_str_eq(args[i].name, FXT_ARG_NAME_PROCESS))
			continue;
		if (args[i].koid == koid || !args[i].koid ||
		    args[i].koid > INT32_MAX || !koid || koid > INT32_MAX)
			return 0;
		return args[i].koid;
	}
	return 0;
}

/**
 * tcfxt_is_meta() - whether an event's category is the converter's own
 * @category: the event's category
 */
static inline bool tcfxt_is_meta(struct fxt_str category)
{
	return fxt_str_eq(category, TCFXT_CAT);
}

/**
 * tcfxt_is_ftrace() - whether an event is one of the converter's ftrace
 *	events (an instant whose first argument is the uint32 TCFXT_ARG_CPU)
 * @ev: the event
 *
 * Every reader of converted files decides with this which records were
 * the .dat's events: they must all decide alike.
 */
static inline bool tcfxt_is_ftrace(const struct fxt_event *ev)
{
	return ev->type == FXT_EVENT_INSTANT && ev->nargs &&
	       ev->args[0].type == FXT_ARG_UINT32 &&
	       fxt_str_eq(ev->args[0].name, TCFXT_ARG_CPU);
}

/**
 * tcfxt_waker() - the thread a thread wakeup names as its waker
 * @args: the wakeup's arguments
 * @nargs: how many
 * @koid: set to the waker's koid
 *
 * Every reader (report, fxt2dat, the thread table, KernelShark) takes the
 * TCFXT_ARG_WAKER argument alike: a koid, or a uint64 holding one.
 *
 * Return: whether the record names a waker.
 */
static inline bool tcfxt_waker(const struct fxt_arg *args, unsigned int nargs,
			       uint64_t *koid)
{
	const struct fxt_arg *a = fxt_args_find(args, nargs, TCFXT_ARG_WAKER);

	if (!a || (a->type != FXT_ARG_KOID && a->type != FXT_ARG_UINT64))
		return false;
	*koid = a->u64;
	return true;
}

#endif /* _TCFXT_H */
