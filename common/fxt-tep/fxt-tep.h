/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt-tep.h - libfxt-tep.a: an FXT seen through libtraceevent, the layer
 * that the trace-fxt command, the KernelShark plugin, the trace-cmd input
 * plugin and plugin_eventheader.so share.  It depends on the codec core
 * (libfxt.a, libdat.a, libeventheader.a, libutil.a) and libtraceevent
 * only (README.md beside it says what it promises).
 *
 * FXT that trace-fxt converted from a .dat carries what libtraceevent
 * needs to print its events as trace-cmd does: the header page, every
 * event format before its first use, the kallsyms and printk lines the
 * events point into, and the saved cmdlines as thread kernel objects.
 * Three things are built on that:
 *
 *  - fxt2dat_convert(): any FXT back to a trace-cmd .dat v7 (ftrace
 *    events restored from their instants, other producers' records as
 *    events of an "fxt" system, context switches as sched events);
 *  - struct report_tep: one tep handle set up from those records as
 *    libtracecmd sets up its own (plugins loaded first), each ftrace
 *    instant rebuilt into its raw record and printed with libtraceevent:
 *    `trace-fxt report`'s lines and KernelShark's info and latency
 *    columns of a converted file;
 *  - eh_tep_header_offset(): which libtraceevent events are EventHeader
 *    user_events, the one test the input plugin and plugin_eventheader.so
 *    both apply.
 */
#ifndef _FXT_TEP_H
#define _FXT_TEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt-reader.h"

struct tep_event;

/* FXT -> .dat */

/**
 * struct fxt2dat_opts - how fxt2dat_convert() writes the .dat
 * @compression: "none" (or NULL) or "zstd"
 * @page_size: 0 for the source file's, else this size (4096)
 * @big_endian: big endian whatever the source was (the byte-order tests
 *	make big-endian recordings so); false: the source's order
 */
struct fxt2dat_opts {
	const char	*compression;
	unsigned int	page_size;
	bool		big_endian;
};

/**
 * struct fxt2dat_stats - what fxt2dat_convert() did
 * @records_in: FXT records read
 * @events_out: events written to the .dat
 * @restored: ftrace events rebuilt from their instants
 * @skipped: records with no .dat counterpart
 * @unread: records the reader skipped (malformed, or of a reserved type)
 *	or read in part
 * @unread_tally: what the reader says of them (fxt_reader_tally(), no
 *	prefix), and of records it read as Perfetto reads them though
 *	their writer may have meant otherwise
 * @stopped: the fault that ended the read ("" when the file was read to
 *	its end): a record whose size cannot be trusted; what came before
 *	it is in the .dat
 * @threads_renumbered: threads of other producers whose .dat pid is not
 *	their tid (fxt-threads.h)
 * @cpus_renumbered: CPUs whose .dat number is not theirs (too sparse)
 * @renumbered: the first few of either, "pid P tid T -> N, cpu C -> D";
 *	the .dat's version option lists them all
 * @buffers: ftrace buffers written
 * @cpus: CPUs of the .dat
 * @page_size: its page size
 * @passes: passes over the input (1, or 2 when a dry run came first)
 */
struct fxt2dat_stats {
	uint64_t	records_in;
	uint64_t	events_out;
	uint64_t	restored;
	uint64_t	skipped;
	uint64_t	unread;
	char		unread_tally[2048];
	char		stopped[512];
	uint64_t	threads_renumbered;
	unsigned int	cpus_renumbered;
	char		renumbered[512];
	unsigned int	buffers;
	unsigned int	cpus;
	unsigned int	page_size;
	unsigned int	passes;
};

/**
 * fxt2dat_convert() - convert an FXT file to a trace-cmd .dat v7
 * @in: the FXT file (plain, gzip or zstd)
 * @fd: where the .dat is written, from its current offset
 * @o: how to write it
 * @st: filled with what was done
 * @err: a message naming the fault on failure
 * @errlen: its size
 *
 * Return: 0, or a negative errno with @err set.
 */
int fxt2dat_convert(const char *in, int fd, const struct fxt2dat_opts *o,
		    struct fxt2dat_stats *st, char *err, size_t errlen);

/**
 * fxt2dat_prev_state() - the kernel's prev_state for an FXT thread state
 * @state: the outgoing thread's state in a context switch (FXT_THREAD_*)
 *
 * What fxt2dat_convert() writes in sched_switch's prev_state, and so what
 * KernelShark's sched plugin tests a converted file's switches by: new
 * and running are R (0, the thread was preempted), suspended T, blocked
 * S, dying Z, dead X; an unknown state R.
 *
 * Return: the prev_state bits.
 */
long fxt2dat_prev_state(unsigned int state);

/* A converted FXT's events printed by libtraceevent */

struct report_tep;

/*
 * One event's text, as trace-cmd report prints it after the buffer
 * prefix, without the final newline.
 */
typedef void (*report_line_fn)(void *priv, uint32_t provider_id,
			       const char *text, size_t len);

/**
 * report_tep_open() - read a file once for what printing its events needs
 * @path: the FXT file
 * @fn: called with each line report_tep_take() prints
 * @priv: passed to @fn
 *
 * Return: the handle, or NULL when @path carries no event format (not
 * made from a .dat, or by an older trace-fxt) or is not a regular file (a
 * pipe cannot be read twice): the caller prints its own layout then.
 */
struct report_tep *report_tep_open(const char *path, report_line_fn fn,
				   void *priv);

/**
 * report_tep_raw() - print fields raw, as trace-cmd report -R does
 * @t: the handle
 *
 * Each event's text after its name is then libtraceevent's
 * TEP_PRINT_INFO_RAW, " field=value" for every field of its format, a
 * number in the conversion its event's print format gives that field
 * ("%03d", "0x%04x", "%p"), else as its size, sign and type say
 * (unsigned long in hex): what the FXT's typed arguments alone do not
 * say, the format it carries does.
 */
void report_tep_raw(struct report_tep *t);

/**
 * report_tep_new() - the same, for a host that reads the file itself, once
 * @fn: as for report_tep_open(); may be NULL when nothing is printed
 *	through report_tep_take()
 * @priv: passed to @fn
 *
 * Every record is then offered to report_tep_gather(), and
 * report_tep_ready() ends the gathering.
 *
 * Return: the handle, or NULL when out of memory.
 */
struct report_tep *report_tep_new(report_line_fn fn, void *priv);

/**
 * report_tep_gather() - keep what a record says about formats and names
 * @t: the handle
 * @rd: the reader @rec came from (used during the call only)
 * @rec: the record
 *
 * An instant that is neither the converter's metadata (tcfxt_is_meta())
 * nor a continuation (TCFXT_CONT_SUFFIX) only ends the metadata before
 * it: of such instants offered one after the other, nothing else
 * between them, the first is enough (a loader of millions skips the
 * rest).
 *
 * Return: 0 or a negative errno.
 */
int report_tep_gather(struct report_tep *t, struct fxt_reader *rd,
		      const struct fxt_record *rec);

/**
 * report_tep_ready() - parse what was gathered into the tep handle
 * @t: the handle
 * @rd: the reader
 *
 * Return: 0; -ENODATA when the file carried no event format (the caller
 * prints its own layout then); another negative errno on failure.
 */
int report_tep_ready(struct report_tep *t, struct fxt_reader *rd);

/**
 * report_tep_event_text() - what libtraceevent prints of one ftrace event
 * @t: the handle
 * @ev: an instant as the converter wrote it (the `cpu` argument first,
 *	the arguments of its ".cont" instants appended)
 * @ts: its time in ns
 * @info: set to its TEP_PRINT_INFO text (KernelShark's info column of a
 *	.dat), malloc'ed, NULL when empty
 * @latency: set to its TEP_PRINT_LATENCY text, the same way
 *
 * One final newline is dropped from each.
 *
 * Return: 0; -ENOENT when the file carries no format for @ev; another
 * negative errno on failure.
 */
int report_tep_event_text(struct report_tep *t, const struct fxt_event *ev,
			  uint64_t ts, char **info, char **latency);

/**
 * report_tep_take() - offer the next record of the printing pass
 * @t: the handle
 * @rd: the reader @rec came from
 * @rec: the record
 *
 * Return: 1 when the record is the tep's (an ftrace event rebuilt,
 * perhaps printed later, or the continuation of one or of carried
 * metadata), 0 when the caller handles it, a negative errno on failure
 * (report_tep_error() says what).
 */
int report_tep_take(struct report_tep *t, struct fxt_reader *rd,
		    const struct fxt_record *rec);

/**
 * report_tep_flush() - print the event still being rebuilt
 * @t: the handle
 *
 * Called before the caller prints a line of its own.
 *
 * Return: 0 or a negative errno.
 */
int report_tep_flush(struct report_tep *t);

/**
 * report_tep_error() - the message of the last failure
 * @t: the handle
 *
 * Return: the message (empty when there was none).
 */
const char *report_tep_error(struct report_tep *t);

/**
 * report_tep_close() - free the handle
 * @t: the handle, or NULL
 */
void report_tep_close(struct report_tep *t);

/* EventHeader user_events */

/**
 * eh_tep_header_offset() - where an EventHeader event's header starts
 * @event: a libtraceevent event
 * @name_len: set to the length of the tracepoint name to decode with
 *
 * An EventHeader tracepoint is a user_event registered with the command
 * "Provider_L<level>K<keyword>[options] u8 eventheader_flags; u8 version;
 * u16 id; u16 tag; u8 opcode; u8 level", so its format lists those six
 * fields right after the common ones; the extension blocks and field
 * data that follow them are undeclared bytes at the end of the record.
 *
 * Return: the offset of the eventheader in @event's records, or -ENOENT
 * when its fields or its name do not follow EventHeader.
 */
int eh_tep_header_offset(const struct tep_event *event, size_t *name_len);

#endif /* _FXT_TEP_H */
