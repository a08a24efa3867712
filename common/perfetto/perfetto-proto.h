/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perfetto-proto.h - the Perfetto messages trace-fxt writes into FXT blob
 * records of blob type 3, as field numbers: the one place they are
 * spelled, but for the kernel events the mapping writes from its table
 * (FtraceEvent, below).
 *
 * Perfetto's FXT importer appends the payload of every blob record of
 * type 3 (FXT_BLOB_PERFETTO), in file order, to one byte stream that it
 * reads as a perfetto.protos.Trace (fuchsia_trace_tokenizer.cc,
 * ParseRecord case kBlob), with the same clock, thread tables and sorter
 * as the FXT records.  The numbers below are facts of Perfetto's schema
 * (protos/perfetto/, release v58): trace.proto, trace_packet.proto,
 * ftrace/ftrace_event_bundle.proto, ftrace/ftrace_event.proto and the
 * event messages beside it (sched.proto, generic.proto),
 * ftrace/ftrace_stats.proto, ps/process_tree.proto,
 * common/system_info.proto, generic_kernel/generic_task.proto,
 * interned_data/interned_data.proto, profiling/profile_common.proto.  Only the fields trace-fxt writes or
 * checks are here; the wire type of each is in its comment (pb.h writes
 * them: varint, LEN, fixed64).
 */
#ifndef _PERFETTO_PROTO_H
#define _PERFETTO_PROTO_H

/* Trace: the stream. */
enum {
	PFT_TRACE_PACKET		= 1,	/* TracePacket, LEN */
};

/* TracePacket. */
enum {
	PFT_PACKET_FTRACE_EVENTS	= 1,	/* FtraceEventBundle */
	PFT_PACKET_PROCESS_TREE		= 2,	/* ProcessTree */
	PFT_PACKET_TIMESTAMP		= 8,	/* uint64, ns */
	PFT_PACKET_SEQUENCE_ID		= 10,	/* trusted_packet_sequence_id */
	PFT_PACKET_INTERNED_DATA	= 12,	/* InternedData */
	PFT_PACKET_SEQUENCE_FLAGS	= 13,	/* uint32, below */
	PFT_PACKET_TRACE_CONFIG		= 33,	/* TraceConfig */
	PFT_PACKET_FTRACE_STATS		= 34,	/* FtraceStats */
	PFT_PACKET_TRACE_STATS		= 35,	/* TraceStats */
	PFT_PACKET_SYSTEM_INFO		= 45,	/* SystemInfo */
	PFT_PACKET_COMPRESSED_PACKETS	= 50,	/* bytes, below */
	PFT_PACKET_CLOCK_ID		= 58,	/* timestamp_clock_id: unset */
	PFT_PACKET_MACHINE_ID		= 98,	/* not set: another machine */
	PFT_PACKET_GENERIC_KERNEL_TREE	= 122,	/* GenericKernelProcessTree */
	PFT_PACKET_TRACE_PROVENANCE	= 124,	/* TraceProvenance */
};

/*
 * Which trace buffer a sequence writes and which ftrace instance a data
 * source reads: no FtraceEventBundle names its instance, a sequence is
 * one data source's writer.  TraceConfig's data sources (each its
 * target buffer, and for linux.ftrace its FtraceConfig.instance_name,
 * "" the top one, and its ftrace_events: "group/name", a group's every
 * event as "group/" and a star, or "name"); the sequences of each buffer, by TraceProvenance (buffers in
 * the config's order) and TraceStats.writer_stats.
 */
enum {
	PFT_CONFIG_DATA_SOURCE		= 2,	/* DataSource, repeated */
	PFT_DS_CONFIG			= 1,	/* DataSourceConfig */
	PFT_DSC_NAME			= 1,	/* string: "linux.ftrace" */
	PFT_DSC_TARGET_BUFFER		= 2,	/* uint32, unset: 0 */
	PFT_DSC_FTRACE_CONFIG		= 100,	/* FtraceConfig */
	PFT_FTRACE_CONFIG_EVENTS	= 1,	/* string, repeated */
	PFT_FTRACE_CONFIG_INSTANCE	= 25,	/* string, unset: top */
	PFT_PROV_BUFFER			= 2,	/* Buffer, repeated */
	PFT_PROV_SEQUENCE		= 1,	/* Sequence, repeated */
	PFT_PROV_SEQ_ID			= 1,	/* uint32 */
	PFT_TSTATS_WRITER		= 18,	/* WriterStats, repeated */
	PFT_WSTATS_SEQUENCE		= 1,	/* uint64 */
	PFT_WSTATS_BUFFER		= 4,	/* uint32 */
};

/*
 * TracePacket.compressed_packets: a deflate stream (zlib or gzip header:
 * Perfetto's GzipDecompressor reads either) that inflates to a run of
 * Trace.packet fields, each tag PFT_TRACE_PACKET, length, TracePacket,
 * which Perfetto's tokenizer reads as if they stood in the stream in its
 * place (proto_trace_tokenizer.h, Tokenize).  A packet that has it is
 * only that: its other fields are dropped.
 */

/* TracePacket.sequence_flags */
enum {
	PFT_SEQ_INCREMENTAL_STATE_CLEARED	= 1,
	PFT_SEQ_NEEDS_INCREMENTAL_STATE		= 2,
};

/* FtraceEventBundle. */
enum {
	PFT_BUNDLE_CPU			= 1,	/* uint32, required, < 1024 */
	PFT_BUNDLE_EVENT		= 2,	/* FtraceEvent, repeated */
	PFT_BUNDLE_LOST_EVENTS		= 3,	/* bool */
	PFT_BUNDLE_COMPACT_SCHED	= 4,	/* CompactSched */
	PFT_BUNDLE_FTRACE_CLOCK		= 5,	/* enum: not set (boot time) */
};

/* Perfetto's importer refuses the whole trace for a bundle CPU past it. */
#define PFT_MAX_CPU		1024

/*
 * FtraceEventBundle.CompactSched: every numeric field packed, switch and
 * waking timestamps delta-encoded (each a delta from the one before it
 * in the bundle, the first absolute).
 */
enum {
	PFT_COMPACT_SWITCH_TIMESTAMP	= 1,	/* packed uint64 */
	PFT_COMPACT_SWITCH_PREV_STATE	= 2,	/* packed int64 */
	PFT_COMPACT_SWITCH_NEXT_PID	= 3,	/* packed int32 */
	PFT_COMPACT_SWITCH_NEXT_PRIO	= 4,	/* packed int32 */
	PFT_COMPACT_INTERN_TABLE	= 5,	/* string, repeated */
	PFT_COMPACT_SWITCH_NEXT_COMM	= 6,	/* packed uint32, an index */
	PFT_COMPACT_WAKING_TIMESTAMP	= 7,	/* packed uint64 */
	PFT_COMPACT_WAKING_PID		= 8,	/* packed int32 */
	PFT_COMPACT_WAKING_TARGET_CPU	= 9,	/* packed int32 */
	PFT_COMPACT_WAKING_PRIO		= 10,	/* packed int32 */
	PFT_COMPACT_WAKING_COMM		= 11,	/* packed uint32, an index */
	PFT_COMPACT_WAKING_FLAGS	= 12,	/* packed common_flags */
};

/*
 * FtraceEvent: timestamp and pid, then one event message.  Its field 5
 * (common_flags) is never written: Perfetto's parser takes every field
 * but these two for an event.  The events below are those written by
 * code of their own; the kernel events the mapping writes by its table
 * have their numbers, and their messages' fields, in its
 * map-ftrace.table (trace-cmd-plugin/trace-fxt-input/, the generated
 * map-ftrace-table.h: PFT_EV_<EVENT>, PFT_<EVENT>_<FIELD>).
 */
enum {
	PFT_EVENT_TIMESTAMP		= 1,	/* uint64, ns */
	PFT_EVENT_PID			= 2,	/* uint32, the common_pid */
	PFT_EV_PRINT			= 3,
	PFT_EV_SCHED_SWITCH		= 4,
	PFT_EV_SCHED_WAKING		= 20,
	PFT_EV_GENERIC			= 327,
};

/* SchedSwitchFtraceEvent. */
enum {
	PFT_SWITCH_PREV_COMM		= 1,	/* string */
	PFT_SWITCH_PREV_PID		= 2,	/* int32 */
	PFT_SWITCH_PREV_PRIO		= 3,	/* int32 */
	PFT_SWITCH_PREV_STATE		= 4,	/* int64 */
	PFT_SWITCH_NEXT_COMM		= 5,	/* string */
	PFT_SWITCH_NEXT_PID		= 6,	/* int32 */
	PFT_SWITCH_NEXT_PRIO		= 7,	/* int32 */
};

/* SchedWakingFtraceEvent. */
enum {
	PFT_WAKING_COMM			= 1,	/* string */
	PFT_WAKING_PID			= 2,	/* int32 */
	PFT_WAKING_PRIO			= 3,	/* int32 */
	PFT_WAKING_SUCCESS		= 4,	/* int32 */
	PFT_WAKING_TARGET_CPU		= 5,	/* int32 */
};

/* PrintFtraceEvent (ftrace/print, a trace_marker write). */
enum {
	PFT_PRINT_BUF			= 2,	/* string */
};

/* GenericFtraceEvent and its Field. */
enum {
	PFT_GENERIC_EVENT_NAME		= 1,	/* string */
	PFT_GENERIC_FIELD		= 2,	/* Field, repeated */
	PFT_GENERIC_FIELD_NAME		= 1,	/* string */
	PFT_GENERIC_FIELD_STR		= 3,	/* string */
	PFT_GENERIC_FIELD_INT		= 4,	/* int64 */
	PFT_GENERIC_FIELD_UINT		= 5,	/* uint64 */
};

/*
 * A generic event described by its bundle (Perfetto v50+): the event is
 * FtraceEvent field PFT_DESCRIBED_FIRST or above, its fields numbered by
 * a DescriptorProto that a bundle's generic_event_descriptors carries
 * (FtraceEventBundle.GenericEventDescriptor).  The trace processor keeps
 * the first descriptor of each id for the whole trace, and refuses one
 * with a field number of PFT_DESCRIBED_MAX_FIELDS or more
 * (generic_ftrace_tracker.cc, AddDescriptor: kMaxAllowedFields).
 */
enum {
	PFT_BUNDLE_DESCRIPTORS		= 11,	/* GenericEventDescriptor */
	PFT_DESC_FIELD_ID		= 1,	/* int32 */
	PFT_DESC_DESCRIPTOR		= 2,	/* DescriptorProto, bytes */
	PFT_DESC_GROUP			= 3,	/* string */
	PFT_DPROTO_NAME			= 1,	/* DescriptorProto.name */
	PFT_DPROTO_FIELD		= 2,	/* FieldDescriptorProto */
	PFT_FDPROTO_NAME		= 1,
	PFT_FDPROTO_NUMBER		= 3,
	PFT_FDPROTO_TYPE		= 5,
	PFT_DESCRIBED_FIRST		= 65536,
	PFT_DESCRIBED_MAX_FIELDS	= 32,
};

/* FieldDescriptorProto.Type, the values the recorder writes. */
enum {
	PFT_FD_INT64 = 3, PFT_FD_UINT64 = 4, PFT_FD_INT32 = 5,
	PFT_FD_FIXED64 = 6, PFT_FD_FIXED32 = 7, PFT_FD_BOOL = 8,
	PFT_FD_STRING = 9, PFT_FD_BYTES = 12, PFT_FD_UINT32 = 13,
	PFT_FD_SINT32 = 17, PFT_FD_SINT64 = 18,
};

/* ProcessTree, its Process. */
enum {
	PFT_TREE_PROCESS		= 1,	/* Process, repeated */
	PFT_PROC_PID			= 1,	/* int32 */
	PFT_PROC_PPID			= 2,	/* int32 */
	PFT_PROC_CMDLINE		= 3,	/* string, repeated: needed */
	PFT_PROC_START_FROM_BOOT	= 7,	/* uint64, ns */
};

/* GenericKernelProcessTree, its Thread. */
enum {
	PFT_GKTREE_THREAD		= 2,	/* Thread, repeated */
	PFT_GKTHREAD_TID		= 1,	/* int64 */
	PFT_GKTHREAD_PID		= 2,	/* int64 */
	PFT_GKTHREAD_COMM		= 3,	/* string */
	PFT_GKTHREAD_IS_IDLE		= 5,	/* bool */
};

/* SystemInfo and Utsname. */
enum {
	PFT_SYSINFO_UTSNAME		= 1,	/* Utsname */
	PFT_SYSINFO_SERVICE_VERSION	= 4,	/* tracing_service_version */
	PFT_SYSINFO_PAGE_SIZE		= 6,	/* uint32 */
	PFT_SYSINFO_NUM_CPUS		= 8,	/* uint32 */
	PFT_UTS_SYSNAME			= 1,	/* string */
	PFT_UTS_VERSION			= 2,	/* string */
	PFT_UTS_RELEASE			= 3,	/* string */
	PFT_UTS_MACHINE			= 4,	/* string */
};

/* FtraceStats, FtraceCpuStats. */
enum {
	PFT_STATS_PHASE			= 1,	/* enum, below: else fatal */
	PFT_STATS_CPU_STATS		= 2,	/* FtraceCpuStats, repeated */
	PFT_STATS_PARSE_ERRORS		= 9,	/* never written: fatal */
	PFT_CPUSTATS_CPU		= 1,	/* uint64 */
	PFT_CPUSTATS_ENTRIES		= 2,	/* uint64 */
	PFT_CPUSTATS_OVERRUN		= 3,	/* uint64 */
	PFT_CPUSTATS_COMMIT_OVERRUN	= 4,	/* uint64 */
	PFT_CPUSTATS_BYTES_READ		= 5,	/* uint64 */
	PFT_CPUSTATS_OLDEST_EVENT_TS	= 6,	/* double, seconds */
	PFT_CPUSTATS_NOW_TS		= 7,	/* double, seconds */
	PFT_CPUSTATS_DROPPED_EVENTS	= 8,	/* uint64 */
	PFT_CPUSTATS_READ_EVENTS	= 9,	/* uint64 */
};

/* FtraceStats.phase */
enum {
	PFT_PHASE_START_OF_TRACE	= 1,
	PFT_PHASE_END_OF_TRACE		= 2,
};

/* InternedData.kernel_symbols, an InternedString each. */
enum {
	PFT_INTERNED_KERNEL_SYMBOLS	= 26,	/* InternedString, repeated */
	PFT_ISTRING_IID			= 1,	/* uint64 */
	PFT_ISTRING_STR			= 2,	/* bytes */
};

#endif /* _PERFETTO_PROTO_H */
