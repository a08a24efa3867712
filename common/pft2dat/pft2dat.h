/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pft2dat.h - Perfetto's own recordings (a .pftrace: a Trace message, a
 * run of TracePacket fields, plain or gzip'd) to a trace-cmd .dat v7.
 *
 * Every ftrace event of the trace's FtraceEventBundles becomes the .dat
 * event of the same system and name, per CPU and in time order: typed
 * events by map-ftrace.table read inverted (pft-ftrace-table.h), generic
 * events by the field names they carry (GenericFtraceEvent) or their
 * bundle's descriptors (generic_event_descriptors, field ids 65536 and
 * up), compact sched_switch and sched_waking by their columns.  Each
 * event's format is the kernel's (events/SYSTEM/EVENT/format under
 * opts->formats) when every field the packets carry is one of its fields,
 * else one made of those fields.  Thread names (process trees, the
 * events' comms, compact sched's intern table) become the saved
 * cmdlines, thread groups (process trees, task_newtask, exec) the saved
 * tgids option; the CPU count, the clock, uname and the ftrace stats the
 * other options.  A secondary tracefs instance's events (a linux.ftrace
 * data source with an instance_name) go to the .dat buffer of its name,
 * its sequences known by their trace buffer (TraceProvenance,
 * TraceStats) when no other instance writes that buffer.
 */
#ifndef _PFT2DAT_H
#define _PFT2DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct pft2dat_opts - how pft2dat_convert() writes the .dat
 * @compression: "none" (or NULL) or "zstd"
 * @formats: the folder of the kernel's event formats
 *	(SYSTEM/EVENT/format, as tracefs's events/); NULL: none, every
 *	format is made from the packets
 * @packets_only: of an FXT, the packets as Perfetto reads them: the
 *	residue of a `convert --once` file (what its packets do not carry
 *	of each record, tcfxt-residue.h) left out
 */
struct pft2dat_opts {
	const char	*compression;
	const char	*formats;
	bool		packets_only;
};

/**
 * struct pft2dat_stats - what pft2dat_convert() did
 * @packets: TracePackets read (those inside compressed ones included)
 * @events_in: ftrace events read (compact ones included, and the
 *	records a `convert --once` file keeps whole, its copies)
 * @events_out: events written to the .dat
 * @dropped: ftrace events without a .dat form (their kernel event
 *	unknown, too big for a page)
 * @kernel_formats: formats taken from the kernel's
 * @fxt_formats: formats taken from the FXT (a converted trace.dat's own)
 * @made_formats: formats made from the packets' fields
 * @cpus: CPUs of the .dat
 * @damaged: stretches of bytes that were no packet, skipped
 * @damage: what the first of them was, "" when none
 * @left_out: what the .dat has no form for (other packets), named
 * @unkept: the kernel fields of each kernel format that no event of the
 *	trace gave ("event: field field; ..."): what the recorder does not
 *	keep, zero in the .dat
 * @indexed: likewise the void * fields that the recorder, symbolizing
 *	kernel addresses, kept as an index of its own where no symbol was
 *	found (a heap or stack address): the .dat has the index
 * @symbolized: the void * fields it kept as a symbol's name: the .dat
 *	has an address of its own kallsyms that prints as that name
 * @unknown: the FtraceEvent fields (typed events) no row of
 *	map-ftrace.table names, with how many events each ("491 x3, ..."):
 *	in st->dropped
 * @instances: the secondary ftrace instances (FtraceConfig.instance_name)
 *	written as .dat buffers of their names ("NAME as buffer NAME"), and
 *	the trace buffers whose instances cannot be told apart (their events
 *	in the top buffer); "" when the trace has none
 */
struct pft2dat_stats {
	uint64_t	packets;
	uint64_t	events_in;
	uint64_t	events_out;
	uint64_t	dropped;
	unsigned int	kernel_formats;
	unsigned int	fxt_formats;
	unsigned int	made_formats;
	unsigned int	cpus;
	uint64_t	damaged;
	char		damage[160];
	char		left_out[256];
	char		unkept[1024];
	char		indexed[512];
	char		symbolized[512];
	char		unknown[1024];
	char		instances[256];
};

/* How many first bytes pft2dat_sniff() tells a Perfetto trace by. */
#define PFT2DAT_SNIFF_LEN	256

/**
 * pft2dat_sniff() - whether bytes start a Perfetto trace
 * @p: the first bytes of a file (after gunzip, if gzip'd)
 * @n: how many: PFT2DAT_SNIFF_LEN, or fewer when that is the whole file
 *
 * A trace is Trace.packet fields (tag 0x0a, a length, a TracePacket):
 * the first packet's fields parse, each of a wire type protobuf has, as
 * far as @n goes, and when the packet ends within @n another starts
 * there; a file shorter than PFT2DAT_SNIFF_LEN holds that packet whole.
 * A protobuf stream has no magic number; text that starts with a
 * newline (0x0a as well) fails within a few bytes.
 *
 * Return: true when they look so.
 */
bool pft2dat_sniff(const void *p, size_t n);

/**
 * pft2dat_fxt_once() - whether a file is an FXT whose events are its
 *	Perfetto packets alone (`trace-fxt convert --once`)
 * @path: the file (plain, gzip or zstd)
 *
 * Its first event, the converter's file_info, says so (tcfxt.h,
 * TCFXT_INFO_EVENTS).  Such a file's events are read as those of a
 * Perfetto trace, by pft2dat_convert() and pft2dat_view_open(): its FXT
 * records hold none of them.
 *
 * Return: true when it is.
 */
bool pft2dat_fxt_once(const char *path);

/* Names the folder of the kernel's event formats pft2dat_formats() takes. */
#define PFT2DAT_FORMATS_ENV	"TRACE_FXT_EVENT_FORMATS"

/**
 * pft2dat_formats() - where the kernel's event formats are, for
 *	pft2dat_opts.formats
 *
 * $TRACE_FXT_EVENT_FORMATS (a folder as tracefs's events/), else this
 * machine's tracefs events/ folder when it can be read: what every
 * conversion of a Perfetto trace (trace-fxt's, plugin-fxt.so's) takes,
 * so that each makes the same .dat.
 *
 * Return: the folder, or NULL (every format made from the packets).
 */
const char *pft2dat_formats(void);

/**
 * pft2dat_convert() - a Perfetto trace to a .dat
 * @in: the trace's path (a regular file; plain, gzip or zstd)
 * @fd: the .dat, a seekable file at its start; stays the caller's
 * @o: options
 * @st: what was done
 * @err: room for the message of a failure
 * @errlen: its size
 *
 * Damaged bytes are skipped to the next well-formed packet
 * (st->damaged); what is read before and after them is converted.
 *
 * Return: 0, or a negative errno with @err said.
 */
int pft2dat_convert(const char *in, int fd, const struct pft2dat_opts *o,
		    struct pft2dat_stats *st, char *err, size_t errlen);

/* A Perfetto trace read for a viewer */

struct pft2dat_view;
struct tep_handle;

/**
 * struct pft2dat_row - one event of the .dat pft2dat_convert() would write,
 *	as pft2dat_view_open() lists it (no record built)
 * @ts: its time, ns
 * @at: what pft2dat_view_record() rebuilds it by (PFT2DAT_AT_NONE: no
 *	record, lost events)
 * @pid: its common_pid
 * @cpu: its CPU in the .dat
 * @buffer: its .dat buffer (0: the top one; pft2dat_view_buffer())
 * @bundle: the bundle it was read in, counted from 0 (lost events: the
 *	bundle they are lost before)
 * @event: its format's id in pft2dat_view_tep(); -1: events were lost on
 *	@cpu before the next event there (a .dat page's missed events, which
 *	libtracecmd tells with that event)
 * @system: its format's system (NULL for lost events), valid during the
 *	call
 * @name: its format's name, likewise
 * @next_pid: a sched_switch's next_pid, else -1
 * @prev_state: a sched_switch's prev_state, else 0
 * @woken_pid: the pid field of another sched event that has one, else -1
 * @lost: lost events' count (@event -1), -1 when unknown (a Perfetto
 *	bundle's lost_events says none), else 0
 *
 * Rows come bundle by bundle, each CPU's in time order.
 */
struct pft2dat_row {
	uint64_t	ts;
	uint64_t	at;
	size_t		bundle;
	int32_t		pid;
	unsigned int	cpu;
	unsigned int	buffer;
	int		event;
	const char	*system;
	const char	*name;
	int32_t		next_pid;
	int64_t		prev_state;
	int32_t		woken_pid;
	int64_t		lost;
};

/*
 * Format ids are below this in rows: KernelShark keeps event ids in an
 * int16_t (F2D_FIRST_ID numbers the formats pft2dat makes below it), and
 * a viewer may keep what it knows of each by its id.  An event of a
 * format with a higher id (a kernel's formats have none) is no row.
 */
#define PFT2DAT_EVENT_IDS	32768

/* The @at of a row that has no record. */
#define PFT2DAT_AT_NONE		UINT64_MAX

/* Called for each row; a negative errno stops the reading. */
typedef int (*pft2dat_row_fn)(void *priv, const struct pft2dat_row *row);

/**
 * pft2dat_view_open() - read a Perfetto trace as pft2dat_convert() does,
 *	rows instead of a .dat
 * @in: the trace's path (a regular file; plain, gzip or zstd)
 * @o: options (@o->compression is not read)
 * @fn: called with each row
 * @priv: passed to @fn
 * @st: what was read (@st->events_out: the rows of events)
 * @out: the view, to close with pft2dat_view_close()
 * @err: room for the message of a failure
 * @errlen: its size
 *
 * The trace stays in memory: a row's record is built when asked for
 * (pft2dat_view_record()), byte for byte the one the .dat would hold.
 * The tep handle (pft2dat_view_tep()) is prepared as libtracecmd prepares
 * that .dat's: plugins loaded first, then the formats, kallsyms, printk
 * formats and saved cmdlines.
 *
 * Return: 0, or a negative errno with @err said.
 */
int pft2dat_view_open(const char *in, const struct pft2dat_opts *o,
		      pft2dat_row_fn fn, void *priv, struct pft2dat_stats *st,
		      struct pft2dat_view **out, char *err, size_t errlen);

/**
 * pft2dat_view_tep() - the view's libtraceevent handle
 * @v: the view
 *
 * Return: the handle, the view's: its event ids are the rows' @event.
 */
struct tep_handle *pft2dat_view_tep(struct pft2dat_view *v);

/**
 * pft2dat_view_cpus() - the CPU count of each buffer of the .dat
 * @v: the view
 *
 * Return: the count.
 */
unsigned int pft2dat_view_cpus(const struct pft2dat_view *v);

/**
 * pft2dat_view_buffer() - a .dat buffer's name
 * @v: the view
 * @i: its index (pft2dat_row.buffer)
 *
 * Return: its instance name, "" for the top buffer (0), NULL past the
 * last one.
 */
const char *pft2dat_view_buffer(const struct pft2dat_view *v, unsigned int i);

/**
 * pft2dat_view_record() - a row's record, as the .dat holds it
 * @v: the view
 * @at: the row's pft2dat_row.at
 * @data: set to its bytes, valid until the next call on @v; followed by
 *	zeros, as a record read from a page is by the rest of the page
 * @len: set to their count
 *
 * Records of one bundle are built together and kept until another
 * bundle's is asked for.
 *
 * Return: 0, -ENOENT when @at names no record, or another negative errno.
 */
int pft2dat_view_record(struct pft2dat_view *v, uint64_t at,
			const void **data, size_t *len);

/**
 * pft2dat_view_text() - what KernelShark shows of a row's record
 * @v: the view
 * @at: the row's pft2dat_row.at
 * @info: set to libtraceevent's TEP_PRINT_INFO text of it (malloc'ed,
 *	NULL when empty)
 * @latency: set to its TEP_PRINT_LATENCY text, the same way
 *
 * One final newline is dropped from each.
 *
 * Return: 0, or a negative errno (both NULL then).
 */
int pft2dat_view_text(struct pft2dat_view *v, uint64_t at, char **info,
		      char **latency);

/**
 * pft2dat_view_close() - free a view
 * @v: the view, or NULL
 */
void pft2dat_view_close(struct pft2dat_view *v);

#endif /* _PFT2DAT_H */
