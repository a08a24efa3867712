#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A model of what Perfetto's trace processor makes of an FXT file.

  perfetto-model.py tables FILE.fxt        print the tables, one row a line
  perfetto-model.py check FILE.fxt [EXPECT.json]
                                           assert the viewer invariants
  perfetto-model.py expect [TGIDS] [--options DUMP] < REPORT
                                           EXPECT.json from what
                                           `trace-cmd report -R` prints
                                           (and `trace-cmd dump --options`:
                                           uname, CPUSTAT)
  perfetto-model.py count REGEX < REPORT   events named REGEX in it, one
                                           event in two buffers once
  perfetto-model.py packet-counts FILE.fxt the ftrace events in the
                                           packets, by kind
  perfetto-model.py compare-packets FILE.fxt [FORMATS] < REPORT
                                           the ftrace events the Perfetto
                                           packets carry against
                                           `trace-cmd report -R -t`, field
                                           by field (FORMATS: `trace-cmd
                                           dump --events`, whose dev_t
                                           fields Perfetto translates)
  perfetto-model.py table-check ROWS MAPPING.md
                                           the model's reading of the
                                           converter's table against its
                                           rows as compiled (ROWS:
                                           map-table-rows' lines), the
                                           table against MAPPING.md

Written from Perfetto's source (google/perfetto v58,
src/trace_processor/importers/fuchsia/, importers/ftrace/,
importers/proto/ and the trackers they call); each rule below names the
file and function it models.  Only what decides the tables a person sees
is modelled: the sched and thread_state tables, the thread and process
tables (with ProcessTracker's reserved utid/upid 0, its constructor),
slices on thread and CPU tracks, counter tracks, async tracks, the
ftrace_event (raw) table's rows by name, the stats and metadata the
packets set.  Not modelled: the args tables, flows, how the track
compressor shares async tracks.

The tokenizer (fuchsia_trace_tokenizer.cc, ParseRecord) reads records in
file order and applies kernel objects at once; events and scheduling
records go through the sorter and are parsed in timestamp order
(fuchsia_trace_parser.cc, Parse).  The payloads of blob records of blob
type 3 are one protobuf stream of TracePackets (ParseRecord, case
kBlob), read by the proto importer (proto_trace_reader.cc): system info
and ftrace stats at once, ftrace events, the process trees through the
same sorter.  The model sorts the whole file, as the sorter does when it
holds it all (nothing flushes it before the end: no service events).
Of one timestamp, FXT records come before the packets' ftrace events:
the sorter takes the lowest of the queues of equal time first
(trace_sorter.cc, SortAndExtractEventsUntilAllocId), and the FXT
tokenizer's queue is made (FuchsiaTraceTokenizer's constructor) before
the proto reader's per-CPU ftrace queues (ProtoTraceReader's
ftrace_stream_factory, on a CPU's first bundle).

check asserts, printing each count it checked:
 - sched: per CPU at most one row left open, and it is the CPU's last;
   no two rows of a CPU overlap;
 - thread_state: rows of one thread do not overlap;
 - threads: one thread with tracks per tid, every thread named and in a
   process whose pid is its tgid when EXPECT says one ({"tgid": {tid: tgid}}),
   every process named;
 - zombies: as many "Z" thread states as EXPECT's "zombies", "X" as
   EXPECT's "dead";
 - counters: no series of a CPU number ("...:cpu:..."), per-task
   counters (EXPECT "task_counters": name prefixes) not under pid 0;
 - async: every begin ended (the tracks' slices all closed);
 - packets (when the file has them): the stream decodes to its last
   byte, and nothing in it fails Perfetto's import; scheduling comes
   from one source (no FXT context switch or wakeup beside sched_switch
   packets); thread states as many of each letter as the source's
   sched_switch prev_state renders to (EXPECT "states"), a waker on
   every wakeup row; the idle thread (tid 0) marked idle and named
   swapper, no CPU row of it among the real threads'; as many Irq/SoftIrq
   Cpu N slices as the source's irq_handler_entry/softirq_entry, CPU
   counter tracks cpufreq/cpuidle with a sample per event (EXPECT
   "irq", "softirq", "cpufreq", "cpuidle"); every process the source saw
   forked with its parent (EXPECT "parents"); system info (EXPECT
   "release"); data loss on every CPU the source lost events on (EXPECT
   "lost_cpus"); every plain trace_marker text an ftrace "print" row
   (EXPECT "prints"), and as many atrace slices as B markers, each from
   its B to the E that ends it (EXPECT "atrace_spans"); a slice per
   sys_enter of a syscall the machine's table names (EXPECT "counts"
   "syscalls"), each sys_write an atrace marker is written in ended at
   the marker (EXPECT "syscall_cuts"), no slice ended under an
   open one (misplaced_end_event);
   a start time on each thread task_newtask starts (EXPECT "newtasks");
   the runs before a CPU's first switch and before a switch whose
   switch in was lost drawn from their first record, or halfway after
   the CPU's record before when the switch out is the only one
   ("first_runs"), no 0 ns row of a real thread;
   and what the source's net, sock, tcp, skb, kmem, oom, vmscan, signal,
   power, cpuhp, thermal, block, irq_vectors and sched_blocked_reason events
   predict (EXPECT "kernel", check_kernel_events()): device counters
   with their running totals, TCP stream slices, kfree_skb's counter,
   mem.rss.* from the packets only, oom_score_adj samples, reclaim and
   signal slices, hotplug/suspend/block slices, thermal and clock
   samples, local timer slices, blocked functions on thread states.
 - no slice of the converter's metadata category (EXPECT
   "meta_category", but the names in "meta_shown") on the track of a
   thread a Linux tid can name (below PID_MAX_LIMIT, 2^22), and no
   argument named in EXPECT "bookkeeping_args" on any slice but those of
   the categories in "bookkeeping_kept".
"""
import json
import os
import re
import struct
import subprocess
import sys
import zlib

# fuchsia_trace_parser.cc: IdForOutgoingThreadState
OUT_STATES = {0: 'R', 1: 'R', 2: 'T', 3: 'S', 4: 'Z', 5: 'X'}
IDLE_WEIGHT = -2 ** 31   # fuchsia_trace_parser.cc: kIdleWeight


def field(word, lo, hi):
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


class Cursor:
    def __init__(self, data):
        self.d = data
        self.i = 0

    def u64(self):
        if self.i + 8 > len(self.d):
            raise ValueError('record too short')
        v = struct.unpack_from('<Q', self.d, self.i)[0]
        self.i += 8
        return v

    def i64(self):
        v = self.u64()
        return v - (1 << 64) if v >> 63 else v

    def inline(self, n):
        s = self.d[self.i:self.i + n]
        self.i += (n + 7) & ~7
        return s.decode('utf-8', 'replace')


class Provider:
    def __init__(self):
        self.strings = {}
        self.threads = {}
        self.tps = 1000000000


# The protobuf wire format as Perfetto's protozero reads it
# (include/perfetto/protozero/proto_decoder.h): a field that does not
# parse leaves bytes unread, which fails the packet (ParsePacket).
# The field numbers below are Perfetto's schema, read from protos/perfetto/
# (trace_packet.proto, ftrace/*.proto, ps/process_tree.proto,
# common/system_info.proto, generic_kernel/generic_task.proto): an
# independent reading, not the converter's header, so that a wrong number
# there shows here; but for the events of the converter's table, whose
# numbers test-map-table.c checks against that schema (TABLE below).
def pb_varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b) or shift >= 70:
            raise ValueError('bad varint')
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v & ((1 << 64) - 1), i


def pb_fields(b):
    """(field, wire type, value) of a message; LEN values are bytes."""
    i = 0
    while i < len(b):
        tag, i = pb_varint(b, i)
        fid, wt = tag >> 3, tag & 7
        if fid == 0:
            raise ValueError('field 0')
        if wt == 0:
            v, i = pb_varint(b, i)
        elif wt == 1 or wt == 5:
            n = 8 if wt == 1 else 4
            if i + n > len(b):
                raise ValueError('short fixed field')
            v = int.from_bytes(b[i:i + n], 'little')
            i += n
        elif wt == 2:
            n, i = pb_varint(b, i)
            if i + n > len(b):
                raise ValueError('LEN field past its message')
            v = bytes(b[i:i + n])
            i += n
        else:
            raise ValueError('wire type %d' % wt)
        yield fid, wt, v


def pb_msg(b):
    """field -> [values]: singular fields read the last, as protozero."""
    d = {}
    for fid, _, v in pb_fields(b):
        d.setdefault(fid, []).append(v)
    return d


def pb_packed(b):
    out, i = [], 0
    while i < len(b):
        v, i = pb_varint(b, i)
        out.append(v)
    return out


def s64(v):
    return v - (1 << 64) if v >> 63 else v


def s32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >> 31 else v


def last(d, f, default=None):
    return d[f][-1] if f in d else default


def text(v):
    return v.decode('utf-8', 'replace') if v is not None else None


# ftrace_tokenizer.cc: TokenizeFtraceCompactSched{Switch,Waking}: packed
# columns walked in step (the shortest decides), timestamps delta-encoded,
# a comm index past the intern table ends the walk
def compact_events(d):
    """(kind, ts, [ts delta, state or pid, ..., comm, (flags)]) of a
    CompactSched's switches and wakings, and how many parse errors."""
    table = [text(v) for v in d.get(5, [])]
    out, errors = [], 0
    for kind, cols, extra in (('switch', (1, 2, 3, 4, 6), None),
                              ('waking', (7, 8, 9, 10, 11), 12)):
        arrs = [pb_packed(last(d, c, b'')) for c in cols]
        flags = pb_packed(last(d, extra, b'')) if extra else []
        if len(set(len(a) for a in arrs)) != 1:
            errors += 1
        acc = 0
        for k in range(min(len(a) for a in arrs)):
            acc = s64((acc + arrs[0][k]) & ((1 << 64) - 1))
            if arrs[4][k] >= len(table):
                errors += 1
                break
            vals = [a[k] for a in arrs]
            vals[4] = table[vals[4]]
            if kind == 'waking':
                vals.append(flags[k] if k < len(flags) else None)
            out.append((kind, acc, vals))
    return out, errors


# The kernel events the converter writes as Perfetto's own ftrace events,
# one row an event, each with its message's field numbers and types: its
# table (trace-cmd-plugin/trace-fxt-input/map-ftrace.table), which its
# build compiles and the model reads here, so that a new row needs
# nothing new in the model but what Perfetto draws of it.  What checks
# the table's numbers is test-map-table.c, against Perfetto's schema
# (tests/unit/perfetto-ftrace.schema); the rules below that read an
# event's fields still read them by Perfetto's numbers, as its parser
# does.
TABLE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          os.pardir, os.pardir, 'trace-cmd-plugin',
                          'trace-fxt-input', 'map-ftrace.table')
# a field's type in the table -> how the model reads it: text, a symbol's
# interned id, unsigned, int32, int64
TABLE_HOW = {'string': 's', 'kstr': 's', 'sym': 'sym', 'uint32': 0,
             'uint64': 0, 'int32': 1, 'int64': 2, 'uint64s': 'list'}


def load_table(path=TABLE_PATH):
    """map-ftrace.table's rows as {event: (system, message, number,
    fields)}, fields [(name, number, type)] of those written, in the
    row's order (map-ftrace-table.awk reads it the same way)."""
    rows = {}
    with open(path) as f:
        for ln in f:
            w = ln.split()
            # "read" rows are the way back's only (pft2dat)
            if not w or w[0].startswith('#') or w[3] == 'read':
                continue
            system, event = w[0].split(':')
            fields = []
            for fd in w[4:]:
                m = re.fullmatch(r'(\w+)=(\d+):(\w+)', fd)
                if m:
                    fields.append((m.group(1), int(m.group(2)),
                                   m.group(3)))
            rows[event] = (system, w[1], int(w[2]), fields)
    return rows


TABLE = load_table()
# FtraceEvent's oneof, the events the importer does more with than a raw
# row (ftrace_parser.cc, ParseFtraceEvent), by field number: the table's
# by name (EV['cpu_idle']), then those the converter writes by code of
# its own
EV = {event: row[2] for event, row in TABLE.items()}
EV_PRINT, EV_SCHED_SWITCH, EV_SCHED_WAKING, EV_GENERIC = 3, 4, 20, 327
# ftrace_event_bundle.proto GenericEventDescriptor: v50+ generic events,
# FtraceEvent fields from EV_DESCRIBED on, numbered by a DescriptorProto
EV_DESCRIBED, DESCRIBED_MAX_FIELDS = 65536, 32
# descriptor.proto FieldDescriptorProto.Type, as ProtoSchemaType
FD_TYPES = {3: 'int64', 4: 'uint64', 9: 'string', 12: 'bytes'}


def generic_descriptor(v):
    """A GenericEventDescriptor's (field id, event name, {number: (field
    name, type)}), or None where the trace processor refuses it
    (generic_ftrace_tracker.cc, AddDescriptor: a field number of
    kMaxAllowedFields (32) or more, a type past TYPE_SINT64)."""
    d = pb_msg(v)
    dp = pb_msg(last(d, 2, b''))
    fields = {}
    for fv in dp.get(2, []):
        f = pb_msg(fv)
        num, typ = last(f, 3, 0), last(f, 5, 0)
        if num >= DESCRIBED_MAX_FIELDS or typ > 18:
            return None
        fields[num] = (text(last(f, 1, b'')), FD_TYPES.get(typ, typ))
    return last(d, 1, 0), text(last(dp, 1, b'')), fields


def described_args(desc, v):
    """A described event's fields by name, as ParseGenericFtrace inserts
    them (InsertFieldIntoArgs: int64 signed, uint64 as it is, strings)."""
    args = {}
    for num, _, x in pb_fields(v):
        if num not in desc[2]:
            continue
        name, typ = desc[2][num]
        args[name] = text(x) if typ == 'string' else \
            s64(x) if typ == 'int64' else x
    return args


# ftrace_descriptors.cc: the raw table's event names (the table's are
# their own: Perfetto names an event after the kernel's)
EV_NAMES = {3: 'print', 4: 'sched_switch', 17: 'sched_wakeup',
            20: 'sched_waking', 114: 'sched_wakeup_new'}
EV_NAMES.update({number: event for event, number in EV.items()})
# types/softirq_action.h: kActionNames
SOFTIRQ_NAMES = ['HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'BLOCK_IOPOLL',
                 'TASKLET', 'SCHED', 'HRTIMER', 'RCU']
# process_tracker.h: ThreadNamePriority
PRIO_OTHER, PRIO_FTRACE, PRIO_PROCESS_TREE = 0, 1, 2


# syscall_tracker.cc, SetArchitecture: the table of SystemInfo's utsname
# machine (SyscallTable::ArchFromString; an unknown one names nothing, so
# no syscall has a slice), each name "sys_" and the kernel's.  The model
# reads the kernel's own numbering of x86_64 from the uapi header; for
# other machines it knows no table and models no syscall slice.
UNISTD = {'x86_64': '/usr/include/x86_64-linux-gnu/asm/unistd_64.h'}


def syscall_table(machine):
    try:
        with open(UNISTD[machine]) as f:
            return {int(m.group(2)): 'sys_' + m.group(1) for m in
                    re.finditer(r'#define __NR_(\w+)\s+(\d+)', f.read())}
    except (KeyError, OSError):
        return {}


def task_state(raw, version):
    """types/task_state.cc: TaskState(raw, version).ToString(), None for
    an invalid state (FtraceSchedEventTracker::TaskStateToStringId)."""
    raw &= 0xffff
    parsed = raw & 0x3f
    version = version or (4, 4)
    flags = []
    if version >= (4, 14):
        parked, idle, preempt = raw & 0x40, raw & 0x80, raw & 0x100
        if raw & 0xfe00:
            return None
        dead = wakekill = waking = noload = 0
    else:
        dead, wakekill, waking = raw & 0x40, raw & 0x80, raw & 0x100
        parked, noload = raw & 0x200, raw & 0x400
        idle = parsed == 0x02 and noload and not (
            dead or wakekill or waking or parked)
        if idle:
            parsed, noload = 0, 0
        preempt = raw & (0x1000 if version >= (4, 8) else 0x800)
    others = parsed or parked or idle or dead or wakekill or waking or \
        noload
    if not others:
        return 'R+' if preempt else 'R'
    for bit, c in ((1, 'S'), (2, 'D'), (4, 'T'), (8, 't'), (0x10, 'X'),
                   (0x20, 'Z')):
        if parsed & bit:
            flags.append(c)
    for on, c in ((parked, 'P'), (dead, 'x'), (wakekill, 'K'),
                  (waking, 'W'), (noload, 'N'), (idle, 'I')):
        if on:
            flags.append(c)
    return ''.join(flags)[:3]


class Packets:
    """What the proto importer makes of the Perfetto packets that blob
    records of blob type 3 carry.  Mixed into Model, whose process
    tracker, slice stacks and sorted events it shares, as Perfetto's
    importers share the trace processor's."""

    def __init__(self):
        self.proto_stream = bytearray()
        self.packets = 0
        self.kernel_version = None   # SystemInfoTracker::SetKernelVersion
        self.metadata = {}
        self.machine = {}
        self.stats = {}              # name -> {index: value}
        self.interned = {}           # sequence -> {iid: str}
        self.pending = {}            # cpu -> FtraceSchedEventTracker state
        self.ts_last = {}            # utid -> ThreadStateTracker rows
        self.cpu_counters = {}       # (name, cpu) -> [(ts, value)]
        self.cpu_slices = {}         # (track name, cpu) -> [slice]
        self.raw = {}                # ftrace_event rows by name
        self.described = {}          # generic events' descriptors, by id
        self.prints = []             # generic "print" rows' buf
        self.sys_names = {}          # SyscallTracker's table
        self.in_write = set()        # SyscallTracker::in_sys_write_
        self.fxt_sched_records = 0
        self.pseq = 0

    def stat(self, name, idx=None, value=1, add=True):
        d = self.stats.setdefault(name, {})
        d[idx] = d.get(idx, 0) + value if add else value

    # proto_trace_tokenizer.h: Tokenize (packets are field 1 of the stream;
    # other top-level fields are skipped), ProtoTraceReader::ParsePacket
    def proto_tokenize(self):
        for p in self.stream_packets():
            self.packets += 1
            self.tokenize_packet(p)

    def stream_packets(self):
        """The packets the tokenizer hands on, compressed ones inflated."""
        for fid, wt, v in pb_fields(bytes(self.proto_stream)):
            if fid != 1:
                continue
            if wt != 2:
                raise ValueError('TracePacket field of wire type %d' % wt)
            d = pb_msg(v)
            if 50 in d:
                yield from self.inflate_packets(d)
            else:
                yield v

    # proto_trace_tokenizer.h: Tokenize, a packet with compressed_packets
    # (50): only that field is read, inflated by GzipDecompressor (zlib or
    # gzip header: inflateInit2 with 32 + MAX_WBITS) as one whole stream
    # (ProtoTraceTokenizer::Decompress, FrameMode::kSingleFrame), then cut
    # into packets, each the byte 0x0a (Trace.packet), a length, the
    # packet; any other byte is ERR:tp-corrupt, so is a packet past the
    # end.  Its packets are not searched for compressed_packets again.
    @staticmethod
    def inflate_packets(d):
        others = [f for f in d if f != 50]
        if others:
            # dropped by the tokenizer: the model refuses to lose them
            raise ValueError('fields %s beside compressed_packets' % others)
        z = zlib.decompressobj(32 + zlib.MAX_WBITS)
        b = z.decompress(last(d, 50))
        if not z.eof or z.unused_data:
            raise ValueError('compressed_packets: no whole zlib stream')
        i = 0
        while len(b) - i > 2:
            if b[i] != 0x0a:
                raise ValueError('Expected TracePacket tag (tp-corrupt)')
            n, j = pb_varint(b, i + 1)
            if j + n > len(b):
                raise ValueError('Invalid packet size (tp-corrupt)')
            yield b[j:j + n]
            i = j + n
        if i != len(b):
            raise ValueError('compressed_packets: %d bytes after the last '
                             'packet' % (len(b) - i))

    def tokenize_packet(self, b):
        d = pb_msg(b)
        if last(d, 98):
            raise ValueError('packet of another machine (machine_id)')
        seq = last(d, 10, 0)
        flags = last(d, 13, 0)
        if flags & 2 and not seq:
            raise ValueError('SEQ_NEEDS_INCREMENTAL_STATE on sequence 0')
        if 58 in d:
            raise ValueError('timestamp_clock_id: not the FXT clock')
        if flags & 1 or last(d, 41):
            self.interned[seq] = {}
        if 12 in d:
            # ParseInternedData: kernel_symbols = 26 (InternedString iid 1,
            # str 2), kept only on a sequence whose state was cleared
            syms = self.interned.get(seq) if seq else None
            for f, _, v in pb_fields(last(d, 12)):
                if f == 26 and syms is not None:
                    e = pb_msg(v)
                    syms[last(e, 1, 0)] = text(last(e, 2, b''))
        ts = last(d, 8)
        if 45 in d:
            self.system_info(pb_msg(last(d, 45)))
        if 34 in d:
            self.ftrace_stats(pb_msg(last(d, 34)))
        if 1 in d:
            self.bundle(pb_msg(last(d, 1)), seq)
        for f in (2, 122):
            if f in d:
                self.push('P', ts if ts is not None else 0,
                          ('tree' if f == 2 else 'gktree', last(d, f)))

    def push(self, typ, ts, what, rec=None):
        self.pseq += 1
        self.events.append((ts, (1 << 40) + self.pseq, typ, what, rec,
                            None, None, None))

    # system_probes_parser.cc: ParseSystemInfo
    def system_info(self, d):
        if 1 in d:
            u = pb_msg(last(d, 1))
            for f, key in ((1, 'system_name'), (2, 'system_version'),
                           (3, 'system_release'), (4, 'system_machine')):
                if f in u:
                    self.metadata[key] = text(last(u, f))
            self.sys_names = syscall_table(text(last(u, 4, b'')))
            name, rel = text(last(u, 1)), text(last(u, 3))
            m = re.match(r'(\d+)\.(\d+)', rel or '')
            # system_info_tracker.cc: SetKernelVersion, "Linux" only
            self.kernel_version = (int(m.group(1)), int(m.group(2))) \
                if name == 'Linux' and m else None
        if 4 in d:
            self.metadata['tracing_service_version'] = text(last(d, 4))
        if 8 in d:
            self.machine['num_cpus'] = last(d, 8)
        if 6 in d:
            self.machine['page_size'] = last(d, 6)

    # ftrace_parser.cc: ParseFtraceStats
    def ftrace_stats(self, d):
        phase = last(d, 1, 0)
        if phase not in (1, 2):
            raise ValueError('ftrace stats phase %d' % phase)
        if any(e != 12 for e in pb_packed_or_list(d.get(9, []))):
            raise ValueError('ftrace parse errors')
        end = '_end' if phase == 2 else '_begin'
        for v in d.get(2, []):
            c = pb_msg(v)
            cpu = last(c, 1, 0)
            for f, key in ((2, 'entries'), (3, 'overrun'),
                           (4, 'commit_overrun'), (5, 'bytes'),
                           (8, 'dropped_events'), (9, 'read_events')):
                self.stat('ftrace_cpu_%s%s' % (key, end), cpu,
                          last(c, f, 0), add=False)
            for f, key in ((6, 'oldest_event_ts'), (7, 'now_ts')):
                sec = struct.unpack('<d', struct.pack('<Q', last(c, f, 0)))[0]
                self.stat('ftrace_cpu_%s%s' % (key, end), cpu,
                          int(sec * 1e9), add=False)

    # ftrace_tokenizer.cc: TokenizeFtraceBundle
    def bundle(self, d, seq):
        if 1 not in d:
            self.stat('ftrace_bundle_tokenizer_errors')
            return
        cpu = last(d, 1)
        if cpu >= 1024:
            raise ValueError('bundle of CPU %d' % cpu)
        if 5 in d:
            raise ValueError('ftrace_clock set: not the FXT clock')
        if last(d, 3):
            self.stat('ftrace_cpu_has_data_loss', cpu, 1, add=False)
        syms = self.interned.get(seq, {}) if seq else {}
        if 4 in d:
            self.compact(cpu, pb_msg(last(d, 4)))
        for ev in d.get(2, []):
            e = pb_msg(ev)
            if 1 not in e:
                self.stat('ftrace_bundle_tokenizer_errors')
                continue
            ids = [f for f, wt, _ in pb_fields(ev) if wt == 2]
            if not ids:
                self.stat('ftrace_missing_event_id')
                continue
            if 5 in e:
                raise ValueError('common_flags in an FtraceEvent: every '
                                 'field but timestamp and pid is an event')
            self.push('P', last(e, 1), ('ftrace', cpu, ev, syms))
        # v50+: the bundle's descriptors, after its events are tokenized
        # (GenericFtraceTracker::AddDescriptor: the first of an id stays)
        for v in d.get(11, []):
            desc = generic_descriptor(v)
            if desc is None:
                self.stat('ftrace_generic_descriptor_errors')
            elif desc[0] not in self.described:
                self.described[desc[0]] = desc

    # ftrace_tokenizer.cc: TokenizeFtraceCompactSched{Switch,Waking}:
    # packed columns walked in step, timestamps delta-encoded
    def compact(self, cpu, d):
        events, errors = compact_events(d)
        for kind, ts, vals in events:
            self.push('P', ts, ('c' + kind, cpu, vals))
        if errors:
            self.stat('compact_sched_has_parse_errors', value=errors)

    # proto_trace_parser / ftrace module: parse time, in time order
    def proto_parse(self, ts, what, _):
        kind = what[0]
        if kind == 'tree':
            self.process_tree(ts, pb_msg(what[1]))
        elif kind == 'gktree':
            self.generic_tree(pb_msg(what[1]))
        elif kind == 'ftrace':
            self.ftrace_event(ts, *what[1:])
        elif kind == 'cswitch':
            self.compact_switch(ts, what[1], *what[2])
        elif kind == 'cwaking':
            self.compact_waking(ts, what[1], *what[2])

    # system_probes_parser.cc: ParseProcessTree
    def process_tree(self, ts, d):
        for v in d.get(1, []):
            p = pb_msg(v)
            if 3 not in p:
                continue
            pid, ppid = s32(last(p, 1, 0)), s32(last(p, 2, 0))
            argv0 = text(p[3][0])
            if len(p[3]) == 1:
                argv0 = argv0.split(' ')[0]
            pupid = self.get_process(ppid)
            upid = self.get_process(pid)
            # SetProcessParent: the first parent stays
            if self.procs[upid]['parent'] is None:
                self.procs[upid]['parent'] = pupid
            self.procs[upid]['name'] = argv0
            if 7 in p:
                self.procs[upid]['start_ts'] = last(p, 7)

    # generic_kernel_parser.cc: ParseGenericProcessTree (threads)
    def generic_tree(self, d):
        for v in d.get(2, []):
            t = pb_msg(v)
            tid, pid = s64(last(t, 1, 0)), s64(last(t, 2, 0))
            upid = self.pids.get(pid)
            if upid is None:
                upid = len(self.procs)
                self.procs.append({'pid': pid, 'name': None,
                                   'parent': None})
                self.pids[pid] = upid
            utid = self.thread_in(tid, upid)
            self.threads[utid]['idle'] = bool(last(t, 5, 0))
            if 3 in t:
                self.name_thread(utid, text(last(t, 3)), PRIO_PROCESS_TREE)

    # process_tracker.cc: GetOrCreateThreadWithParent (no main thread)
    def thread_in(self, tid, upid):
        pid = self.procs[upid]['pid']
        for utid in reversed(self.tids.get(tid, [])):
            t = self.threads[utid]
            if t['upid'] is None or self.procs[t['upid']]['pid'] == pid:
                break
        else:
            utid = self.new_thread(tid)
        if self.threads[utid]['upid'] is None:
            self.threads[utid]['upid'] = upid
        return utid

    # process_tracker.cc: UpdateThreadName (priority)
    def name_thread(self, utid, name, prio):
        t = self.threads[utid]
        if name is not None and prio >= t['prio']:
            t['name'], t['prio'] = name, prio

    # ftrace_parser.cc: ParseFtraceEvent - the raw row, then the event
    def ftrace_event(self, ts, cpu, ev, syms):
        e = pb_msg(ev)
        if 2 not in e:
            return      # "Pid field not found": logged, the event dropped
        pid = last(e, 2) & 0xffffffff
        for fid, wt, v in pb_fields(ev):
            if fid in (1, 2):
                continue
            f = pb_msg(v) if wt == 2 else {}
            if fid == EV_GENERIC:
                name = text(last(f, 1, b''))
                self.raw[name] = self.raw.get(name, 0) + 1
                self.get_thread(pid)
                args = {}
                for fv in f.get(2, []):
                    a = pb_msg(fv)
                    args[text(last(a, 1, b''))] = text(last(a, 3)) \
                        if 3 in a else last(a, 4, last(a, 5))
                if name == 'print':
                    self.prints.append(args.get('buf'))
            elif fid >= EV_DESCRIBED:
                # ParseGenericFtrace: by the descriptor of its id
                desc = self.described.get(fid)
                if desc is None:
                    self.stat('ftrace_generic_descriptor_errors')
                    continue
                name = desc[1]
                self.raw[name] = self.raw.get(name, 0) + 1
                self.get_thread(pid)
                if name == 'print':
                    self.prints.append(described_args(desc, v).get('buf'))
            elif fid != EV_SCHED_SWITCH:
                name = EV_NAMES.get(fid, 'event %d' % fid)
                self.raw[name] = self.raw.get(name, 0) + 1
                self.get_thread(pid)
            self.typed_event(ts, cpu, pid, fid, f, syms)

    def typed_event(self, ts, cpu, pid, fid, f, syms):
        if fid == EV_SCHED_SWITCH:
            # ParseSchedSwitch -> FtraceSchedEventTracker::PushSchedSwitch
            self.push_switch(ts, cpu, s32(last(f, 2, 0)) & 0xffffffff,
                             text(last(f, 1, b'')), s32(last(f, 3, 0)),
                             s64(last(f, 4, 0)),
                             s32(last(f, 6, 0)) & 0xffffffff,
                             text(last(f, 5, b'')), s32(last(f, 7, 0)))
        elif fid == EV_SCHED_WAKING:
            # ParseSchedWaking: the waker is the event's pid
            wakee = s32(last(f, 2, 0)) & 0xffffffff
            utid = self.get_thread(wakee)
            self.name_thread(utid, text(last(f, 1, b'')), PRIO_FTRACE)
            self.push_waking(ts, utid, self.get_thread(pid), None)
        elif fid == EV['sched_process_free']:
            self.end_thread(ts, s32(last(f, 2, 0)) & 0xffffffff)
        elif fid == EV['task_rename']:
            # ParseTaskRename: UpdateThreadNameAndMaybeProcessName
            tid = s32(last(f, 1, 0)) & 0xffffffff
            utid = self.get_thread(tid)
            name = text(last(f, 3, b''))
            self.name_thread(utid, name, PRIO_FTRACE)
            up = self.threads[utid]['upid']
            if up is not None and self.procs[up]['pid'] == tid:
                self.procs[up]['name'] = name
        elif fid in (EV['cpu_frequency'], EV['cpu_idle']):
            # ParseCpuFreq / ParseCpuIdle: a CPU counter track, by cpu_id
            key = ('cpufreq' if fid == EV['cpu_frequency'] else 'cpuidle',
                   last(f, 2, 0))
            self.cpu_counters.setdefault(key, []).append((ts, last(f, 1, 0)))
        elif fid == EV['cpu_frequency_limits']:
            for n, fld in (('Max', 2), ('Min', 1)):
                key = ('Cpu %d %s Freq Limit' % (last(f, 3, 0), n), None)
                self.cpu_counters.setdefault(key, []).append(
                    (ts, last(f, fld, 0)))
        elif fid == EV['irq_handler_entry']:
            self.cpu_begin(('Irq Cpu %d' % cpu, cpu), ts, 'irq',
                           'IRQ (%s)' % text(last(f, 2, b'')))
        elif fid == EV['irq_handler_exit']:
            self.cpu_end(('Irq Cpu %d' % cpu, cpu), ts, 'irq')
        elif fid == EV['softirq_entry']:
            vec = last(f, 1, 0)
            if vec >= len(SOFTIRQ_NAMES):
                raise ValueError('softirq vec %d: PERFETTO_DFATAL' % vec)
            self.cpu_begin(('SoftIrq Cpu %d' % cpu, cpu), ts, 'irq',
                           SOFTIRQ_NAMES[vec])
        elif fid == EV['softirq_exit']:
            self.cpu_end(('SoftIrq Cpu %d' % cpu, cpu), ts, 'irq')
        elif fid == EV['hrtimer_expire_entry']:
            self.cpu_begin(('hrtimer', cpu), ts, 'hrtimer',
                           self.symbol(syms, last(f, 3, 0)))
        elif fid == EV['hrtimer_expire_exit']:
            self.cpu_end(('hrtimer', cpu), ts, 'hrtimer')
        elif fid == EV['workqueue_execute_start']:
            # ParseWorkqueueExecuteStart: on the worker's thread track
            track = ('thread', self.get_thread(pid))
            self.begin(track, ts, 'workqueue',
                       self.symbol(syms, last(f, 2, 0)), [], self.slices)
        elif fid == EV['workqueue_execute_end']:
            self.end(('thread', self.get_thread(pid)), ts, cat='workqueue')
        elif fid in (EV['sys_enter'], EV['sys_exit']):
            self.syscall(ts, pid, fid, s64(last(f, 1, 0)))
        elif fid == EV['task_newtask']:
            self.new_task(ts, pid, s32(last(f, 1, 0)) & 0xffffffff,
                          text(last(f, 2, b'')), last(f, 3, 0))
        elif fid == EV_PRINT:
            self.print_event(ts, pid, text(last(f, 2, b'')))
        elif fid in (EV['funcgraph_entry'], EV['funcgraph_exit']):
            # ParseFuncgraphEntry/Exit: the thread's "Funcgraph" track,
            # the idle task's "swapperN -funcgraph" track of its CPU;
            # named by the interned kernel symbol, ended by name
            name = self.symbol(syms, last(f, 2 if fid == EV['funcgraph_entry']
                                          else 3, 0))
            if pid:
                track, store = ('funcgraph', self.get_thread(pid)), \
                    self.slices
            else:
                track, store = ('swapper%d -funcgraph' % cpu, cpu), \
                    self.cpu_slices
            if fid == EV['funcgraph_entry']:
                self.begin(track, ts, None, name, [], store)
                store[track][-1]['fgraph'] = True
            else:
                self.end(track, ts, name=name)

    # ParseTaskNewTask: a fork starts a process and its main thread
    # (ProcessTracker::StartNewProcess), its parent the forking thread's
    # process (AssociateCreatedProcessToParentThread: later, when that
    # thread has none yet: not modelled); a clone with CLONE_THREAD a
    # thread (StartNewThread, always a new utid) in the forking thread's
    # process (AssociateThreads); either way named after the event's
    # comm and Runnable from then, woken by the forking thread
    # (ThreadStateTracker::PushNewTaskEvent).  tid 0 (swapper): nothing.
    def new_task(self, ts, src, tid, comm, flags):
        if tid == 0:
            return
        if not flags & 0x10000:
            upid = self.start_process(ts, tid, comm)
            sutid = self.get_thread(src)
            utid = self.get_thread(tid)
            sup = self.threads[sutid]['upid']
            if sup is not None:
                self.procs[upid]['parent'] = sup
        else:
            sutid = self.get_thread(src)
            utid = self.new_thread(tid)
            self.threads[utid]['start_ts'] = ts
            self.name_thread(utid, comm, PRIO_FTRACE)
            if self.threads[sutid]['upid'] is not None:
                self.threads[utid]['upid'] = self.threads[sutid]['upid']
        self.open_state(ts, utid, 'R', waker=sutid, flags=0)

    # ProcessTracker::StartNewProcessInternal: the pid's process and the
    # tid's threads before it are forgotten (pid reuse), a main thread
    # started, the process named (kSystem) and started at @ts
    def start_process(self, ts, pid, name):
        self.pids.pop(pid, None)
        self.tids.pop(pid, None)
        self.live.pop(pid, None)
        utid = self.new_thread(pid)
        self.threads[utid]['start_ts'] = ts
        self.name_thread(utid, name, PRIO_FTRACE)
        upid = len(self.procs)
        self.procs.append({'pid': pid, 'name': name, 'parent': None,
                           'start_ts': ts})
        self.pids[pid] = upid
        self.threads[utid]['upid'] = upid
        return upid

    # ParseSysEnterEvent/ParseSysExitEvent -> SyscallTracker::Enter/Exit:
    # a slice on the thread's track named from the machine's table (a
    # number it lacks: nothing); sys_rt_sigreturn, which does not
    # return, zero-length (Scoped); a sys_write is remembered, and its
    # exit ends nothing when MaybeTruncateOngoingWriteSlice ended it
    def syscall(self, ts, pid, fid, nr):
        name = self.sys_names.get(nr)
        if name is None:
            return
        utid = self.get_thread(pid)
        track = ('thread', utid)
        if fid == EV['sys_enter']:
            self.begin(track, ts, None, name, [], self.slices)
            self.slices[track][-1]['sys'] = True
            if name == 'sys_rt_sigreturn':
                self.stacks[track].pop()['dur'] = 0
            elif name == 'sys_write':
                self.in_write.add(utid)
            return
        if name == 'sys_write':
            if utid not in self.in_write:
                return
            self.in_write.discard(utid)
        self.end(track, ts, name=name)

    # ParsePrint: the writer's ongoing sys_write ends at the marker
    # (SyscallTracker::MaybeTruncateOngoingWriteSlice, a thread already
    # known only), then SystraceParser::ParsePrintEvent reads the text
    # (trailing newline cut; ParseSystracePoint: B a slice on the thread,
    # UpdateThread with the text's tgid; E ends the innermost, a bare E
    # only on a known thread).  The converter writes only B and E so.
    def print_event(self, ts, pid, t):
        utid = self.live.get(pid)
        if utid is not None and utid in self.in_write:
            self.in_write.discard(utid)
            self.stat('truncated_sys_write_duration')
            self.end(('thread', utid), ts, name='sys_write')
        t = t.rstrip('\n\0')
        if t[:1] in ('C', 'S', 'F') and t[1:2] == '|':
            return self.print_point(ts, t)
        f = t.split('|', 2)
        if t[:1] not in ('B', 'E') or len(t) > 1 and t[1] != '|':
            self.stat('systrace_parse_failure')
            return
        tgid = int(f[1]) if len(f) > 1 and f[1].isdigit() else 0
        if tgid:
            utid = self.update_thread(pid, tgid)
        elif t[0] == 'B':
            utid = self.get_thread(pid)
        elif utid is None:
            return
        if t[0] == 'B':
            self.begin(('thread', utid), ts, None,
                       f[2] if len(f) > 2 else '', [], self.slices)
            self.slices[('thread', utid)][-1]['atrace'] = True
        else:
            self.end(('thread', utid), ts)

    # systrace_parser.cc: ParseSystracePoint, case 'C' (a counter of the
    # process, named as written: kAndroidAtraceCounterBlueprint), 'S' and
    # 'F' (an async slice of the process's track of that name, the
    # cookie telling apart those open at once: atrace_async_slice);
    # systrace_parser.h ParseSystraceTracePoint: "C|tgid|name|value",
    # "S|tgid|name|cookie"
    def print_point(self, ts, t):
        f = t.split('|')
        if len(f) < 4 or not f[1].isdigit():
            self.stat('systrace_parse_failure')
            return
        upid = self.get_process(int(f[1]))
        name, val = f[2], f[3]
        try:
            v = int(val)
        except ValueError:
            try:
                v = float(val)
            except ValueError:
                self.stat('systrace_parse_failure')
                return
        if t[0] == 'C':
            self.counters.setdefault((upid, name), []).append((ts, v))
            return
        # TrackCompressor::InternBegin/InternEnd: the (process, name)
        # set's track of the cookie, else one whose slices all ended
        root = '%d:%s' % (self.procs[upid]['pid'], name)
        tracks = self.async_sets.setdefault(('atrace', root), [])
        idx = self.async_track(tracks, v)
        track = ('async', root, idx)
        if t[0] == 'S':
            tracks[idx]['nest'] += 1
            self.begin(track, ts, 'atrace', name, [], self.async_slices)
            self.async_slices[track][-1]['id'] = v
        elif tracks[idx]['nest'] > 0:
            tracks[idx]['nest'] -= 1
            self.end(track, ts, name)

    # InternedKernelSymbolOrFallback
    @staticmethod
    def symbol(syms, iid):
        return syms.get(iid) or '%#x' % iid

    def cpu_begin(self, track, ts, cat, name):
        self.begin(track, ts, cat, name, [], self.cpu_slices)

    def cpu_end(self, track, ts, cat):
        self.end(track, ts, cat=cat)

    # FtraceSchedEventTracker::PushSchedSwitch
    def push_switch(self, ts, cpu, prev, pcomm, pprio, state, nxt, ncomm,
                    nprio):
        nutid = self.get_thread(nxt)
        self.name_thread(nutid, ncomm, PRIO_FTRACE)
        pend = self.pending.setdefault(cpu, {'utid': None})
        st = task_state(state, self.kernel_version)
        if st is None:
            self.stat('task_state_invalid')
        if pend.get('row') is not None:
            if prev == pend['pid']:
                pend['row']['dur'] = ts - pend['row']['ts']
                pend['row']['end_state'] = st
            else:
                self.stat('mismatched_sched_switch_tids')
        putid = self.get_thread(prev)
        self.name_thread(putid, pcomm, PRIO_FTRACE)
        self.switch_in(ts, cpu, pend, putid, st, nxt, nutid, nprio)

    # both: the raw row, the CPU's new slice, the thread states
    def switch_in(self, ts, cpu, pend, putid, st, nxt, nutid, nprio):
        self.raw['sched_switch'] = self.raw.get('sched_switch', 0) + 1
        row = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': nutid,
               'prio': nprio, 'end_state': None}
        self.sched.append(row)
        pend.update(row=row, pid=nxt, utid=nutid, prio=nprio)
        self.state_switch(ts, cpu, putid, st, nutid)

    # FtraceSchedEventTracker::PushSchedSwitchCompact: the first of a CPU
    # only sets what the next one takes as its prev
    def compact_switch(self, ts, cpu, _ts, state, nxt, nprio, comm):
        nxt, nprio = s32(nxt) & 0xffffffff, s32(nprio)
        nutid = self.get_thread(nxt)
        self.name_thread(nutid, comm, PRIO_FTRACE)
        pend = self.pending.setdefault(cpu, {'utid': None})
        if pend['utid'] is None:
            self.stat('compact_sched_switch_skipped')
            pend.update(pid=nxt, utid=nutid, prio=nprio, row=None)
            return
        st = task_state(s64(state), self.kernel_version)
        if st is None:
            self.stat('task_state_invalid')
        if pend.get('row') is not None:
            pend['row']['dur'] = ts - pend['row']['ts']
            pend['row']['end_state'] = st
        self.switch_in(ts, cpu, pend, pend['utid'], st, nxt, nutid, nprio)

    # FtraceSchedEventTracker::PushSchedWakingCompact: the waker is what
    # the CPU runs; dropped before the CPU's first switch
    def compact_waking(self, ts, cpu, _ts, pid, tcpu, prio, comm, flags):
        pend = self.pending.get(cpu)
        if not pend or pend['utid'] is None:
            self.stat('compact_sched_waking_skipped')
            return
        self.raw['sched_waking'] = self.raw.get('sched_waking', 0) + 1
        utid = self.get_thread(s32(pid) & 0xffffffff)
        self.push_waking(ts, utid, pend['utid'], flags)

    # ThreadStateTracker::PushSchedSwitchEvent
    def state_switch(self, ts, cpu, putid, st, nutid):
        last_row = self.ts_last.get(putid)
        loss = last_row is not None and \
            last_row['last']['state'] != 'Running'
        self.close_state(ts, putid, loss)
        self.open_state(ts, putid, st)
        self.close_state(ts, nutid, False)
        self.open_state(ts, nutid, 'Running', cpu=cpu)

    # ThreadStateTracker::PushWakingEvent
    def push_waking(self, ts, utid, waker, flags):
        rows = self.ts_last.get(utid)
        if rows is None:
            self.open_state(ts, utid, 'R', waker=waker, flags=flags)
            return
        if rows['last']['state'] in ('R', 'Running'):
            self.stat('spurious_sched_wakeup')
            return
        self.close_state(ts, utid, False)
        self.open_state(ts, utid, 'R', waker=waker, flags=flags)

    # ThreadStateTracker::AddOpenState: not for the reserved idle utid
    def open_state(self, ts, utid, state, cpu=None, waker=None, flags=None):
        if utid == 0:
            return
        row = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid,
               'state': state, 'waker': waker,
               'irq': None if flags is None else int(bool(flags & 0x18))}
        self.states.append(row)
        self.ts_last[utid] = {'last': row}

    # ThreadStateTracker::ClosePendingState
    def close_state(self, ts, utid, loss):
        rows = self.ts_last.get(utid)
        if rows and not loss:
            rows['last']['dur'] = ts - rows['last']['ts']

    # ProcessTracker::EndThread: the tid is forgotten
    def end_thread(self, ts, tid):
        utid = self.live.pop(tid, None)
        if utid is None:
            return
        self.tids[tid] = [u for u in self.tids[tid] if u != utid]
        self.threads[utid]['end_ts'] = ts
        up = self.threads[utid]['upid']
        if up is not None and self.procs[up]['pid'] == tid:
            self.procs[up]['end_ts'] = ts
            self.pids.pop(tid, None)


def pb_packed_or_list(vals):
    out = []
    for v in vals:
        out.extend(pb_packed(v) if isinstance(v, bytes) else [v])
    return out



# ---------------------------------------------------------------------
# The kernel events beyond scheduling, IRQs, timers and workqueues that
# Perfetto's ftrace importer draws (net, sock, tcp, skb, kmem, oom,
# vmscan, signal, power, cpuhp, thermal, clock, block, irq_vectors and
# sched_blocked_reason: ftrace_parser.cc, ParseFtraceEvent's switch, and
# the trackers it calls), numbered by the table (EV).
#
# types/tcp_state.h: kTcpStateNames, and the protocol numbers
TCP_STATES = ['TCP_UNKNOWN', 'TCP_ESTABLISHED', 'TCP_SYN_SENT',
              'TCP_SYN_RECV', 'TCP_FIN_WAIT1', 'TCP_FIN_WAIT2',
              'TCP_TIME_WAIT', 'TCP_CLOSE', 'TCP_CLOSE_WAIT', 'TCP_LAST_ACK',
              'TCP_LISTEN', 'TCP_CLOSING', 'TCP_NEW_SYN_RECV']
AF_INET, AF_INET6, IPPROTO_TCP, ETH_P_IP, ETH_P_IPV6 = 2, 10, 6, 0x800, \
    0x86dd
# rss_stat_tracker.cc: GetProcessMemoryKey, named "mem.%s"
# (tracks_common.h: kProcessMemoryBlueprint)
RSS_KEYS = ['rss.file', 'rss.anon', 'swap', 'rss.shmem', 'unreclaimable']


class KernelEvents(Packets):
    """What the importer draws of those events: counter tracks of their
    own (network devices, kfree_skb, thermal zones, clocks), process
    counters resolved to the thread's process at the end (mem.rss.*,
    oom_score_adj: EventTracker::PushProcessCounterForThread and
    FlushPendingEvents), slices on tracks of their own (TCP streams,
    retransmits, napi_gro per CPU, CPU hotplug, block devices,
    suspend/resume) and on threads (reclaim, shrink_slab, signals), the
    local timer on "Irq Cpu N", and the blocked function on a thread's
    last blocked state."""

    def __init__(self):
        Packets.__init__(self)
        self.gcounters = {}          # track name -> [(ts, value)]
        self.pending_pcounters = []  # (utid, name, ts, value)
        self.thread_counters = {}    # (utid, name) -> [(ts, value)]
        self.gslices = {}            # (track name, idx) -> [slice]
        self.nic_bytes = {}          # (direction, device) -> bytes
        self.tcp_streams = {}        # skaddr -> stream number
        self.kfree_ip = 0
        self.mm_utid = {}            # mm_id -> utid
        self.suspend_tracks = []
        self.blocked = {}            # utid -> its last blocked row

    def gcounter(self, name, ts, v):
        self.gcounters.setdefault(name, []).append((ts, v))

    def gbegin(self, track, ts, cat, name):
        self.begin(track, ts, cat, name, [], self.gslices)

    # process_tracker.cc: IsThreadAlive
    def thread_alive(self, utid):
        t = self.threads[utid]
        if 'end_ts' in t:
            return False
        if t['upid'] is None:
            return True
        p = self.procs[t['upid']]
        return 'end_ts' not in p and self.pids.get(p['pid']) == t['upid']

    def typed_event(self, ts, cpu, pid, fid, f, syms):
        rule = KernelEvents.RULES.get(fid)
        if rule:
            rule(self, ts, cpu, pid, f, syms)
        else:
            Packets.typed_event(self, ts, cpu, pid, fid, f, syms)

    # ParseNetifReceiveSkb / ParseNetDevXmit (no sample when rc != 0):
    # the device's running total in KB
    def net_rx(self, ts, cpu, pid, f, syms):
        self.nic_count(ts, 'Received', text(last(f, 2, b'')), last(f, 1, 0))

    def net_tx(self, ts, cpu, pid, f, syms):
        if s32(last(f, 3, 0)) == 0:
            self.nic_count(ts, 'Transmitted', text(last(f, 2, b'')),
                           last(f, 1, 0))

    def nic_count(self, ts, what, dev, n):
        k = (what, dev)
        self.nic_bytes[k] = self.nic_bytes.get(k, 0) + (n & 0xffffffff)
        self.gcounter('%s %s KB' % (dev, what), ts, self.nic_bytes[k] // 1024)

    # ParseNapiGroReceiveEntry/Exit: "Napi Gro Cpu N", the device's name
    def napi_entry(self, ts, cpu, pid, f, syms):
        self.gbegin(('Napi Gro Cpu %d' % cpu, cpu), ts, 'napi_gro',
                    text(last(f, 10, b'')))

    def napi_exit(self, ts, cpu, pid, f, syms):
        self.end(('Napi Gro Cpu %d' % cpu, cpu), ts, cat='napi_gro')

    # ParseInetSockSetState: TCP over IP only, a track per socket
    # ("TCP stream#N", numbered as first seen), each state a slice that
    # the next one ends
    def inet_sock(self, ts, cpu, pid, f, syms):
        new, old = s32(last(f, 4, 0)), s32(last(f, 5, 0))
        if last(f, 6, 0) != IPPROTO_TCP or \
                last(f, 3, 0) not in (AF_INET, AF_INET6) or \
                not 0 <= new < 13 or not 0 <= old < 13:
            return
        sk = last(f, 8, 0)
        if sk not in self.tcp_streams:
            self.tcp_streams[sk] = len(self.tcp_streams) + 1
        if new == 2:
            name = '%s(pid=%d)' % (TCP_STATES[new], pid)
        elif new == 1:
            name = '%s(sport=%d,dport=%d)' % (TCP_STATES[new],
                                              last(f, 9, 0), last(f, 2, 0))
        else:
            name = TCP_STATES[new]
        track = ('TCP stream#%d' % self.tcp_streams[sk], None)
        if self.stacks.get(track):
            self.end(track, ts)
        self.gbegin(track, ts, 'tcp_state', name)

    # ParseTcpRetransmitSkb: a 0-length slice on "TCP Retransmit Skb"
    def tcp_retransmit(self, ts, cpu, pid, f, syms):
        track = ('TCP Retransmit Skb', None)
        self.gbegin(track, ts, 'tcp_event', 'sport=%d,dport=%d' % (
            last(f, 6, 0), last(f, 2, 0)))
        self.stacks[track].pop()['dur'] = 0

    # ParseKfreeSkb: IP and IPv6 frees counted, the count a sample
    def kfree_skb(self, ts, cpu, pid, f, syms):
        if last(f, 2, 0) in (ETH_P_IP, ETH_P_IPV6):
            self.kfree_ip += 1
            self.gcounter('Kfree Skb IP Prot', ts, self.kfree_ip)

    # RssStatTracker::ParseRssStat, FindUtidForMmId
    def rss_stat(self, ts, cpu, pid, f, syms):
        member, size = s32(last(f, 1, 0)), s64(last(f, 2, 0))
        key = RSS_KEYS[member] if 0 <= member < len(RSS_KEYS) else 'unknown'
        if size < 0:
            self.stat('rss_stat_negative_size')
            return
        if 4 in f and 3 in f:
            mm = last(f, 4)
            if last(f, 3):
                utid = self.mm_utid[mm] = self.get_thread(pid)
            else:
                utid = self.mm_utid.get(mm)
                if utid is not None and not self.thread_alive(utid):
                    del self.mm_utid[mm]
                    utid = None
        else:
            utid = self.get_thread(pid)
        if utid is None:
            self.stat('rss_stat_unknown_thread_for_mm_id')
            return
        self.pending_pcounters.append((utid, 'mem.' + key, ts, size))

    # ParseOOMScoreAdjUpdate: the pid's process counter, as int16
    def oom_adj(self, ts, cpu, pid, f, syms):
        v = s32(last(f, 2, 0)) & 0xffff
        v = v - 0x10000 if v >> 15 else v
        utid = self.get_thread(s32(last(f, 3, 0)) & 0xffffffff)
        self.pending_pcounters.append((utid, 'oom_score_adj', ts, v))

    # EventTracker::FlushPendingEvents: the process the thread ended up
    # in, else a counter of the thread
    def flush_pcounters(self):
        for utid, name, ts, v in self.pending_pcounters:
            up = self.threads[utid]['upid']
            if up is not None:
                self.counters.setdefault((up, name), []).append((ts, v))
            else:
                self.thread_counters.setdefault((utid, name), []).append(
                    (ts, v))
        self.pending_pcounters = []

    # ParseDirectReclaimBegin/End, ParseShrinkSlabStart/End: slices on
    # the event's thread (End closes the innermost)
    def reclaim_begin(self, ts, cpu, pid, f, syms):
        self.begin(('thread', self.get_thread(pid)), ts, None,
                   'mm_vmscan_direct_reclaim', [], self.slices)

    def shrink_start(self, ts, cpu, pid, f, syms):
        self.begin(('thread', self.get_thread(pid)), ts, None,
                   'mm_vmscan_shrink_slab', [], self.slices)

    def thread_end(self, ts, cpu, pid, f, syms):
        self.end(('thread', self.get_thread(pid)), ts)

    # ParseSignalGenerate (on the target's thread) / ParseSignalDeliver
    # (on the event's): 0-length slices
    def signal(self, name, ts, tid):
        track = ('thread', self.get_thread(tid))
        self.begin(track, ts, None, name, [], self.slices)
        self.stacks[track].pop()['dur'] = 0

    def signal_generate(self, ts, cpu, pid, f, syms):
        self.signal('signal_generate', ts, s32(last(f, 4, 0)) & 0xffffffff)

    def signal_deliver(self, ts, cpu, pid, f, syms):
        self.signal('signal_deliver', ts, pid)

    # ParseSuspendResume: "action(val)" slices on "Suspend/Resume
    # Latency", ended by name (the track compressor's cookie); the
    # suspend_enter workaround aside
    def suspend_resume(self, ts, cpu, pid, f, syms):
        action = text(last(f, 1, b''))
        val = 0 if action == 'timekeeping_freeze' else s32(last(f, 2, 0))
        name = '%s(%d)' % (action, val)
        idx = self.async_track(self.suspend_tracks, name)
        track = ('Suspend/Resume Latency', idx)
        if last(f, 3, 0):
            self.suspend_tracks[idx]['nest'] += 1
            self.gbegin(track, ts, None, name)
        else:
            if self.suspend_tracks[idx]['nest'] > 0:
                self.suspend_tracks[idx]['nest'] -= 1
            self.end(track, ts)

    # ParseCpuhpEnter/Exit: "cpuhp(idx)" on "CPU Hotplug <cpu>"
    def cpuhp_enter(self, ts, cpu, pid, f, syms):
        hp = last(f, 1, 0)
        self.gbegin(('CPU Hotplug %d' % hp, hp), ts, 'cpu',
                    'cpuhp(%d)' % s32(last(f, 3, 0)))

    def cpuhp_exit(self, ts, cpu, pid, f, syms):
        hp = last(f, 1, 0)
        self.end(('CPU Hotplug %d' % hp, hp), ts)

    # ThermalTracker::ParseThermalTemperature: "<zone> Temperature"
    def thermal(self, ts, cpu, pid, f, syms):
        self.gcounter('%s Temperature' % text(last(f, 4, b'')), ts,
                      s32(last(f, 2, 0)))

    # ParseClockSetRate / ParseClockEnable / ParseClockDisable:
    # "<name> Frequency" and "<name> State" (tracks_common.h)
    def clock_rate(self, ts, cpu, pid, f, syms):
        self.gcounter('%s Frequency' % text(last(f, 1, b'')), ts,
                      last(f, 2, 0))

    def clock_state(self, ts, cpu, pid, f, syms):
        self.gcounter('%s State' % text(last(f, 1, b'')), ts, last(f, 2, 0))

    # ParseBlockIoStart/Done: "block_io" slices on the device's track
    # (kBlockTrackBlueprint, unnamed: the model names it by device)
    def block_io_start(self, ts, cpu, pid, f, syms):
        self.gbegin(('block_io dev %d' % last(f, 1, 0), None), ts, None,
                    'block_io')

    def block_io_done(self, ts, cpu, pid, f, syms):
        self.end(('block_io dev %d' % last(f, 1, 0), None), ts,
                 name='block_io')

    # ParseSchedBlockedReason -> ThreadStateTracker::PushBlockedReason:
    # the pid's last blocked row gets the function (the interned symbol
    # whose id is the caller cast to uint32_t) and io_wait
    def blocked_reason(self, ts, cpu, pid, f, syms):
        utid = self.get_thread(s32(last(f, 1, 0)) & 0xffffffff)
        row = self.blocked.get(utid)
        if row is None:
            return
        if 3 in f:
            row['io_wait'] = last(f, 3)
        iid = last(f, 2, 0) & 0xffffffff
        if iid in syms:
            row['blocked_function'] = syms[iid]

    # ParseLocalTimerEntry/Exit: "IRQ (LocalTimer)" on "Irq Cpu N"
    def local_timer_entry(self, ts, cpu, pid, f, syms):
        self.cpu_begin(('Irq Cpu %d' % cpu, cpu), ts, 'irq',
                       'IRQ (LocalTimer)')

    def local_timer_exit(self, ts, cpu, pid, f, syms):
        self.cpu_end(('Irq Cpu %d' % cpu, cpu), ts, 'irq')

    # ThreadStateTracker::AddOpenState: a blocked state (neither R nor
    # Running) is the thread's last blocked row; Running forgets it
    def open_state(self, ts, utid, state, cpu=None, waker=None, flags=None):
        Packets.open_state(self, ts, utid, state, cpu, waker, flags)
        if utid == 0:
            return
        if state == 'Running':
            self.blocked.pop(utid, None)
        elif state != 'R':
            self.blocked[utid] = self.ts_last[utid]['last']


# each event's rule, by its name in the table
KernelEvents.RULES = {EV[ev]: rule for ev, rule in {
    'netif_receive_skb': KernelEvents.net_rx,
    'net_dev_xmit': KernelEvents.net_tx,
    'napi_gro_receive_entry': KernelEvents.napi_entry,
    'napi_gro_receive_exit': KernelEvents.napi_exit,
    'inet_sock_set_state': KernelEvents.inet_sock,
    'tcp_retransmit_skb': KernelEvents.tcp_retransmit,
    'kfree_skb': KernelEvents.kfree_skb,
    'rss_stat': KernelEvents.rss_stat,
    'oom_score_adj_update': KernelEvents.oom_adj,
    'mm_vmscan_direct_reclaim_begin': KernelEvents.reclaim_begin,
    'mm_vmscan_direct_reclaim_end': KernelEvents.thread_end,
    'mm_shrink_slab_start': KernelEvents.shrink_start,
    'mm_shrink_slab_end': KernelEvents.thread_end,
    'signal_generate': KernelEvents.signal_generate,
    'signal_deliver': KernelEvents.signal_deliver,
    'suspend_resume': KernelEvents.suspend_resume,
    'cpuhp_enter': KernelEvents.cpuhp_enter,
    'cpuhp_multi_enter': KernelEvents.cpuhp_enter,
    'cpuhp_exit': KernelEvents.cpuhp_exit,
    'thermal_temperature': KernelEvents.thermal,
    'clock_set_rate': KernelEvents.clock_rate,
    'clock_enable': KernelEvents.clock_state,
    'clock_disable': KernelEvents.clock_state,
    'block_io_start': KernelEvents.block_io_start,
    'block_io_done': KernelEvents.block_io_done,
    'sched_blocked_reason': KernelEvents.blocked_reason,
    'local_timer_entry': KernelEvents.local_timer_entry,
    'local_timer_exit': KernelEvents.local_timer_exit,
}.items()}
# ---------------------------------------------------------------------


class Model(KernelEvents):
    def __init__(self):
        # process_tracker.cc state.  The constructor reserves utid 0 and
        # upid 0 (tid 0, pid 0, is_idle); only the proto and text
        # importers map tid 0 onto them (SetPidZeroIsUpidZeroIdleProcess),
        # not the Fuchsia one: a converted file's tid 0 is another thread.
        self.threads = [{'tid': 0, 'upid': 0, 'name': None, 'prio': 0,
                         'idle': True, 'reserved': True}]
        self.procs = [{'pid': 0, 'name': None, 'parent': None,
                       'reserved': True}]
        self.pids = {}           # pid -> upid
        self.tids = {}           # tid -> [utid]
        self.live = {}           # tid -> utid
        # fuchsia_trace_parser.h: Thread, by tid
        self.pthreads = {}
        self.sched = []
        self.states = []
        self.slices = {}         # thread track utid -> [slice]
        self.stacks = {}         # track -> [open slice]
        self.counters = {}       # (upid, name) -> [(ts, value)]
        self.async_root = {}     # correlation id -> first name
        self.async_sets = {}     # root name -> [track: cookie, nest]
        self.async_slices = {}   # (root name, track) -> [slice]
        self.unmatched_ends = 0
        self.events = []
        KernelEvents.__init__(self)

    # process_tracker.cc: StartNewThread
    def new_thread(self, tid):
        utid = len(self.threads)
        self.threads.append({'tid': tid, 'upid': None, 'name': None,
                             'prio': 0, 'idle': False})
        self.tids.setdefault(tid, []).append(utid)
        self.live[tid] = utid
        return utid

    # process_tracker.cc: GetOrCreateProcessInternal (main thread too)
    def get_process(self, pid):
        if pid in self.pids:
            return self.pids[pid]
        upid = len(self.procs)
        self.procs.append({'pid': pid, 'name': None, 'parent': None})
        self.pids[pid] = upid
        self.update_thread(pid, pid)
        return upid

    # process_tracker.cc: UpdateThread ->
    # GetOrCreateThreadWithParentInternal, GetThreadOrNull(tid, pid):
    # the latest thread of that tid with no process or with this pid,
    # else a new thread.
    def update_thread(self, tid, pid):
        upid = self.get_process(pid)
        found = None
        for utid in reversed(self.tids.get(tid, [])):
            t = self.threads[utid]
            if t['upid'] is None or self.procs[t['upid']]['pid'] == pid:
                found = utid
                break
        if found is None:
            found = self.new_thread(tid)
        else:
            self.live[tid] = found
        if self.threads[found]['upid'] is None:
            self.threads[found]['upid'] = upid
        return found

    # process_tracker.cc: GetOrCreateThread (bare lookup, live tid)
    def get_thread(self, tid):
        if tid in self.live:
            return self.live[tid]
        return self.new_thread(tid)

    def pthread(self, tid):
        return self.pthreads.setdefault(
            tid, {'pid': 0, 'last_ts': 0, 'slice': None, 'state': None})

    # fuchsia_trace_parser.cc: SwitchFrom
    def switch_from(self, th, tid, ts, cpu, state):
        utid = self.update_thread(tid, th['pid'])
        if th['slice'] is not None:
            th['slice']['dur'] = ts - th['last_ts']
            th['slice']['end_state'] = OUT_STATES.get(state)
            th['slice'] = None
        if th['state'] is not None:
            th['state']['dur'] = ts - th['last_ts']
        th['last_ts'] = ts
        row = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid,
               'state': OUT_STATES.get(state)}
        self.states.append(row)
        th['state'] = row

    # fuchsia_trace_parser.cc: SwitchTo (last_slice_row is overwritten,
    # not closed)
    def switch_to(self, th, tid, ts, cpu, weight):
        utid = self.update_thread(tid, th['pid'])
        if th['state'] is not None:
            th['state']['dur'] = ts - th['last_ts']
        th['last_ts'] = ts
        row = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid,
               'prio': weight, 'end_state': None}
        self.sched.append(row)
        th['slice'] = row
        st = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid,
              'state': 'Running'}
        self.states.append(st)
        th['state'] = st

    # fuchsia_trace_parser.cc: Wake (the "waker" argument's thread)
    def wake(self, th, tid, ts, cpu, waker=None):
        utid = self.update_thread(tid, th['pid'])
        if th['state'] is not None:
            th['state']['dur'] = ts - th['last_ts']
        th['last_ts'] = ts
        st = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid, 'state': 'W',
              'waker': waker}
        self.states.append(st)
        th['state'] = st

    # slice_tracker.cc: Begin / End / Scoped.  End without a name closes
    # the innermost open slice; with one, the innermost of that name
    # (MatchingIncompleteSliceIndex), else it is dropped.
    def begin(self, track, ts, cat, name, args, store):
        s = {'ts': ts, 'dur': -1, 'cat': cat, 'name': name, 'args': args}
        store.setdefault(track, []).append(s)
        self.stacks.setdefault(track, []).append(s)

    # A slice ended under slices still open (not the innermost): they
    # are cut at its end when the next event comes past it, and counted
    # (MaybeCloseStack, misplaced_end_event).
    def end(self, track, ts, name=None, cat=None):
        st = self.stacks.get(track, [])
        for k in range(len(st) - 1, -1, -1):
            if (name is None or st[k]['name'] == name) and \
                    (cat is None or st[k]['cat'] == cat):
                st[k]['dur'] = ts - st[k]['ts']
                for c in st[k + 1:]:
                    c['dur'] = ts - c['ts']
                if len(st) > k + 1:
                    self.stat('misplaced_end_event')
                del st[k:]
                return
        self.unmatched_ends += 1

    def parse_args(self, c, n, prov):
        args = []
        for _ in range(n):
            base = c.i
            h = c.u64()
            typ, size, nref = field(h, 0, 3), field(h, 4, 15), field(h, 16, 31)
            name = self.sref(c, nref, prov)
            if typ in (1, 2, 9):
                v = field(h, 32, 63)
                if typ == 1 and v >> 31:
                    v -= 1 << 32
            elif typ in (3, 4, 5, 7, 8):
                raw = c.u64()
                if typ == 3:
                    v = raw - (1 << 64) if raw >> 63 else raw
                elif typ == 5:
                    v = struct.unpack('<d', struct.pack('<Q', raw))[0]
                else:
                    v = raw
            elif typ == 6:
                v = self.sref(c, field(h, 32, 47), prov)
            else:
                v = None
            args.append((name, typ, v))
            c.i = base + size * 8
        return args

    @staticmethod
    def sref(c, ref, prov):
        if ref == 0:
            return ''
        if ref & 0x8000:
            return c.inline(ref & 0x7fff)
        return prov.strings.get(ref, '')

    @staticmethod
    def tref(c, ref, prov):
        if ref == 0:
            return (c.u64(), c.u64())
        return prov.threads.get(ref, (0, 0))

    # fuchsia_trace_tokenizer.cc: Parse / ParseRecord
    def tokenize(self, data):
        self.data = data
        provs = {0: Provider()}
        prov = provs[0]
        off = seq = 0
        while off + 8 <= len(data):
            h = struct.unpack_from('<Q', data, off)[0]
            typ = field(h, 0, 3)
            words = field(h, 4, 35) if typ == 15 else field(h, 4, 15)
            if not words:
                raise ValueError('record of size 0 at %#x' % off)
            rec = data[off:off + words * 8]
            off += words * 8
            c = Cursor(rec)
            c.u64()
            if typ == 0:
                mt = field(h, 16, 19)
                if mt == 1:
                    prov = provs[field(h, 20, 51)] = Provider()
                elif mt == 2:
                    prov = provs.setdefault(field(h, 20, 51), Provider())
            elif typ == 1:
                prov.tps = c.u64()
            elif typ == 2:
                idx = field(h, 16, 30)
                if idx:
                    prov.strings[idx] = c.inline(field(h, 32, 46))
            elif typ == 3:
                idx = field(h, 16, 23)
                if idx:
                    prov.threads[idx] = (c.u64(), c.u64())
            elif typ == 7:
                self.kernel_object(h, c, prov)
            elif typ == 5 and field(h, 48, 55) == 3:
                # case kBlob: a Perfetto blob's payload joins the stream
                nref, size = field(h, 16, 31), field(h, 32, 46)
                if nref & 0x8000:
                    c.inline(nref & 0x7fff)
                if c.i + size > len(rec):
                    raise ValueError('blob past its record at %#x' % off)
                self.proto_stream += rec[c.i:c.i + size]
            elif typ in (4, 8):
                if typ == 8 and field(h, 60, 63) <= 2:
                    self.fxt_sched_records += 1
                ts = self.event_ts(h, typ, rec, prov)
                seq += 1
                self.events.append((ts, seq, typ, h, rec, prov,
                                    dict(prov.strings), dict(prov.threads)))

    def event_ts(self, h, typ, rec, prov):
        ticks = struct.unpack_from('<Q', rec, 8)[0]
        return ticks * 1000000000 // prov.tps

    # fuchsia_trace_tokenizer.cc: ParseRecord, case kKernelObject
    def kernel_object(self, h, c, prov):
        otype, nref, nargs = field(h, 16, 23), field(h, 24, 39), \
            field(h, 40, 43)
        koid = c.u64()
        name = self.sref(c, nref, prov)
        if otype == 1:
            upid = self.get_process(koid & 0xffffffff)
            self.procs[upid]['name'] = name
        elif otype == 2:
            pid = 0
            for an, at, av in self.parse_args(c, nargs, prov):
                if an == 'process' and at == 8:
                    pid = av
            self.pthread(koid)['pid'] = pid
            utid = self.update_thread(koid & 0xffffffff, pid & 0xffffffff)
            self.threads[utid]['name'] = name

    def run(self, data):
        self.tokenize(data)
        self.proto_tokenize()
        self.events.sort(key=lambda e: (e[0], e[1]))
        for ts, _, typ, h, rec, prov, strings, threads in self.events:
            if typ == 'P':
                self.proto_parse(ts, h, rec)
                continue
            p = Provider()
            p.strings, p.threads, p.tps = strings, threads, prov.tps
            if typ == 4:
                self.parse_event(ts, h, Cursor(rec), p)
            else:
                self.parse_sched(ts, h, Cursor(rec), p)
        self.events = []
        self.flush_pcounters()

    # fuchsia_trace_parser.cc: Parse, case kEvent
    def parse_event(self, ts, h, c, prov):
        c.u64()
        c.u64()
        et, nargs = field(h, 16, 19), field(h, 20, 23)
        pid, tid = self.tref(c, field(h, 24, 31), prov)
        cat = self.sref(c, field(h, 32, 47), prov)
        name = self.sref(c, field(h, 48, 63), prov)
        args = self.parse_args(c, nargs, prov)
        pid &= 0xffffffff
        tid &= 0xffffffff
        if et in (0, 2, 3, 4, 8, 9, 10):
            utid = self.update_thread(tid, pid)
            track = ('thread', utid)
            if et == 0:
                self.begin(track, ts, cat, name, args, self.slices)
                self.stacks[track].pop()['dur'] = 0
            elif et == 2:
                self.begin(track, ts, cat, name, args, self.slices)
            elif et == 3:
                self.end(track, ts)
            elif et == 4:
                end = c.u64()
                self.begin(track, ts, cat, name, args, self.slices)
                self.stacks[track].pop()['dur'] = end - ts
        elif et == 1:
            # kCounter: one track per (process, "name:arg:id")
            upid = self.get_process(pid)
            cid = c.u64()
            for an, at, av in args:
                if at in (1, 2, 3, 4, 5):
                    key = (upid, '%s:%s:%d' % (name, an, cid))
                    self.counters.setdefault(key, []).append((ts, av))
        elif et in (5, 6, 7):
            # kAsync*: TrackCompressor::InternLegacyAsyncTrack, global
            # scope: the track set is keyed by the first name an id had,
            # and its tracks are shared (GetOrCreateTrackForCookie)
            cid = c.i64()
            self.get_process(pid)
            root = self.async_root.setdefault(cid, name)
            tracks = self.async_sets.setdefault(root, [])
            idx = self.async_track(tracks, cid)
            track = ('async', root, idx)
            if et in (5, 6):
                tracks[idx]['nest'] += 1
                self.begin(track, ts, cat, name, args, self.async_slices)
                self.async_slices[track][-1]['id'] = cid
            if et == 6:
                self.stacks[track].pop()['dur'] = 0
            if et in (6, 7) and tracks[idx]['nest'] > 0:
                tracks[idx]['nest'] -= 1
            if et == 7:
                self.end(track, ts, name)

    # track_compressor.cc: GetOrCreateTrackForCookie - the cookie's track,
    # else the first whose slices all ended (adopted), else a new one
    @staticmethod
    def async_track(tracks, cookie):
        for k, t in enumerate(tracks):
            if t['cookie'] == cookie:
                return k
        for k, t in enumerate(tracks):
            if t['nest'] == 0:
                t['cookie'] = cookie
                return k
        tracks.append({'cookie': cookie, 'nest': 0})
        return len(tracks) - 1

    # fuchsia_trace_parser.cc: Parse, case kSchedulerEvent
    def parse_sched(self, ts, h, c, prov):
        et = field(h, 60, 63)
        c.u64()
        c.u64()
        if et == 1:
            nargs, cpu, st = field(h, 16, 19), field(h, 20, 35), \
                field(h, 36, 39)
            out_tid, in_tid = c.u64(), c.u64()
            args = self.parse_args(c, nargs, prov)
            w = {a[0]: a[2] for a in args}
            out_th, in_th = self.pthread(out_tid), self.pthread(in_tid)
            if w.get('outgoing_weight', 0) != IDLE_WEIGHT:
                self.switch_from(out_th, out_tid, ts, cpu, st)
            if w.get('incoming_weight', 0) != IDLE_WEIGHT:
                self.switch_to(in_th, in_tid, ts, cpu,
                               w.get('incoming_weight', 0))
        elif et == 2:
            nargs, cpu = field(h, 16, 19), field(h, 20, 35)
            tid = c.u64()
            args = self.parse_args(c, nargs, prov)
            w = {a[0]: a[2] for a in args}
            waker = None
            if 'waker' in w:
                waker = self.get_thread(w['waker'] & 0xffffffff)
            if w.get('weight', 0) != IDLE_WEIGHT:
                self.wake(self.pthread(tid), tid, ts, cpu, waker)
        elif et == 0:
            cpu, st = field(h, 16, 23), field(h, 24, 27)
            out = self.tref(c, field(h, 28, 35), prov)
            inn = self.tref(c, field(h, 36, 43), prov)
            op, ip = field(h, 44, 51), field(h, 52, 59)
            oth, ith = self.pthread(out[1]), self.pthread(inn[1])
            if not (oth['pid'] == 0 and op == 0):
                self.switch_from(oth, out[1], ts, cpu, st)
            if not (ith['pid'] == 0 and ip == 0):
                self.switch_to(ith, inn[1], ts, cpu, ip)


def tables(m):
    def tid(utid):
        return m.threads[utid]['tid'] if utid is not None else -1
    for r in m.sched:
        print('sched ts=%d cpu=%d dur=%d tid=%d end_state=%s prio=%d' % (
            r['ts'], r['cpu'], r['dur'], tid(r['utid']), r['end_state'],
            r['prio']))
    for r in m.states:
        extra = ''
        if r.get('waker') is not None:
            extra = ' waker=%d irq=%s' % (tid(r['waker']), r.get('irq'))
        print('thread_state ts=%d cpu=%s dur=%d tid=%d state=%s%s' % (
            r['ts'], '-' if r['cpu'] is None else r['cpu'], r['dur'],
            tid(r['utid']), r['state'], extra))
    for i, p in enumerate(m.procs):
        par = p.get('parent')
        print('process upid=%d pid=%d name=%s parent=%s%s' % (
            i, p['pid'], p['name'],
            '-' if par is None else m.procs[par]['pid'],
            ' reserved' if p.get('reserved') else ''))
    for i, t in enumerate(m.threads):
        print('thread utid=%d tid=%d upid=%s name=%s%s%s%s' % (
            i, t['tid'], t['upid'], t['name'],
            ' idle' if t.get('idle') else '',
            ' reserved' if t.get('reserved') else '',
            ' start=%d' % t['start_ts'] if 'start_ts' in t else ''))
    for (_, utid), sl in sorted(m.slices.items()):
        for s in sl:
            print('slice tid=%d ts=%d dur=%d %s:%s %s' % (
                m.threads[utid]['tid'], s['ts'], s['dur'], s['cat'],
                s['name'], ' '.join('%s=%s' % (a[0], a[2])
                                    for a in s['args'])))
    for (name, _), sl in sorted(m.cpu_slices.items()):
        for s in sl:
            print('cpu_slice %s ts=%d dur=%d %s:%s' % (
                name, s['ts'], s['dur'], s['cat'], s['name']))
    for (upid, name), vals in sorted(m.counters.items()):
        print('counter pid=%d %s n=%d first=%s' % (
            m.procs[upid]['pid'], name, len(vals), vals[0][1]))
    for (name, cpu), vals in sorted(m.cpu_counters.items(),
                                    key=lambda kv: str(kv[0])):
        print('cpu_counter %s cpu=%s n=%d first=%s' % (
            name, cpu, len(vals), vals[0][1]))
    for (_, root, idx), sl in sorted(m.async_slices.items(),
                                     key=lambda kv: str(kv[0])):
        for s in sl:
            print('async %s track=%d id=%d ts=%d dur=%d %s' % (
                root, idx, s['id'], s['ts'], s['dur'], s['name']))
    for name, n in sorted(m.raw.items()):
        print('ftrace_event %s n=%d' % (name, n))
    for buf in m.prints:
        print('print buf=%s' % buf)
    for name, d in sorted(m.stats.items()):
        for idx, v in sorted(d.items(), key=lambda kv: str(kv[0])):
            print('stat %s[%s]=%d' % (name, idx, v))
    for k, v in sorted(m.metadata.items()):
        print('metadata %s=%s' % (k, v))
    for k, v in sorted(m.machine.items()):
        print('machine %s=%s' % (k, v))
    tables_kernel_events(m)


def tables_kernel_events(m):
    """The tracks of the kernel events beyond scheduling: counter tracks of
    their own, thread counters whose thread never had a process, slices
    on tracks of their own, thread states with a blocked function."""
    for name, vals in sorted(m.gcounters.items()):
        print('counter_track %s n=%d first=%s last=%s' % (
            name, len(vals), vals[0][1], vals[-1][1]))
    # ParseBlockIoStart/Done's track is a counter track with no counters
    # (ftrace_parser.cc: kBlockTrackBlueprint is a CounterBlueprint): the
    # trace processor's counter_track lists one a device
    for name, _ in sorted({k for k in m.gslices
                           if str(k[0]).startswith('block_io dev')}):
        print('counter_track %s n=0 (the block_io slices\' track)' % name)
    for (utid, name), vals in sorted(m.thread_counters.items()):
        print('thread_counter tid=%d %s n=%d first=%s' % (
            m.threads[utid]['tid'], name, len(vals), vals[0][1]))
    for (name, _), sl in sorted(m.gslices.items(), key=lambda kv: str(kv[0])):
        for x in sl:
            print('track_slice %s ts=%d dur=%d %s:%s' % (
                name, x['ts'], x['dur'], x['cat'], x['name']))
    for r in m.states:
        if 'blocked_function' in r or 'io_wait' in r:
            print('blocked tid=%d ts=%d state=%s function=%s io_wait=%s' % (
                m.threads[r['utid']]['tid'], r['ts'], r['state'],
                r.get('blocked_function'), r.get('io_wait')))


class Checker:
    def __init__(self):
        self.failed = 0

    def check(self, ok, what):
        print('%s - %s' % ('ok' if ok else 'not ok', what))
        if not ok:
            self.failed = 1


def check(m, exp):
    ck = Checker()
    # sched: open rows and overlaps per CPU
    bycpu = {}
    for r in m.sched:
        bycpu.setdefault(r['cpu'], []).append(r)
    open_bad = overlap = 0
    for rows in bycpu.values():
        rows.sort(key=lambda r: r['ts'])
        for k, r in enumerate(rows):
            if r['dur'] < 0 and k != len(rows) - 1:
                open_bad += 1
            if k + 1 < len(rows) and (r['dur'] < 0 or
                                      r['ts'] + r['dur'] > rows[k + 1]['ts']):
                overlap += 1
    ck.check(open_bad == 0, 'sched: %d rows on %d CPUs, %d left open '
             'before a CPU\'s last' % (len(m.sched), len(bycpu), open_bad))
    ck.check(overlap == 0, 'sched: %d rows overlap the next on their CPU'
             % overlap)
    # A thread's states in sequence, the idle thread's aside: it runs on
    # every CPU at once, and Perfetto's own import keeps no state of it
    # (thread_state_tracker.cc, AddOpenState skips the swapper utid);
    # the Fuchsia importer cannot map a converted tid 0 onto that utid,
    # so its rows are there, marked idle.
    byth = {}
    for r in m.states:
        if not m.threads[r['utid']].get('idle'):
            byth.setdefault(r['utid'], []).append(r)
    sover = 0
    for rows in byth.values():
        for k in range(len(rows) - 1):
            if rows[k]['dur'] < 0 or \
                    rows[k]['ts'] + rows[k]['dur'] > rows[k + 1]['ts']:
                sover += 1
    ck.check(sover == 0, 'thread_state: %d rows of %d threads (the idle '
             'thread\'s aside), %d overlap the thread\'s next' %
             (sum(len(v) for v in byth.values()), len(byth), sover))
    # threads and processes
    used = set(r['utid'] for r in m.sched) | set(r['utid'] for r in m.states)
    used |= set(u for (_, u) in m.slices)
    # a thread row of no track beside the one that has them (the FXT's
    # thread object before task_newtask started the thread anew) splits
    # nothing a person sees
    multi = [t for t, us in m.tids.items()
             if len([u for u in us if u in used]) > 1]
    ck.check(not multi, 'threads: %d tids, %d with more than one thread '
             'that has tracks %s' % (len(m.tids), len(multi), multi[:8]))
    unnamed = sorted(m.threads[u]['tid'] for u in used
                     if not m.threads[u]['name'])
    ck.check(not unnamed, 'threads: %d used, %d unnamed %s'
             % (len(used), len(unnamed), unnamed[:8]))
    # the idle thread's process is unnamed, as in Perfetto's own import
    # (its reserved upid 0 has no name)
    upids = set(m.threads[u]['upid'] for u in used
                if not m.threads[u].get('idle'))
    noname = sorted(m.procs[p]['pid'] for p in upids
                    if p is not None and not m.procs[p]['name'])
    ck.check(not noname, 'processes: %d with used threads (the idle '
             'thread\'s aside), %d unnamed %s'
             % (len(upids), len(noname), noname[:8]))
    tg = {int(k): v for k, v in exp.get('tgid', {}).items()}
    wrong = []
    for tid, tgid in tg.items():
        for u in m.tids.get(tid, []):
            up = m.threads[u]['upid']
            if up is None or m.procs[up]['pid'] != tgid:
                wrong.append((tid, tgid,
                              None if up is None else m.procs[up]['pid']))
    ck.check(not wrong, 'threads: %d tids with a known tgid, %d in another '
             'process %s' % (len(tg), len(wrong), wrong[:8]))
    # zombies and dead
    nz = sum(1 for r in m.states if r['state'] == 'Z')
    nx = sum(1 for r in m.states if r['state'] == 'X')
    if 'zombies' in exp:
        ck.check(nz == exp['zombies'] and nx == exp.get('dead', 0),
                 'thread_state: %d Z (source %d), %d X (source %d)'
                 % (nz, exp['zombies'], nx, exp.get('dead', 0)))
    # counters
    cpuser = [n for (_, n) in m.counters if ':cpu:' in n]
    ck.check(not cpuser, 'counters: %d series, %d of a CPU number %s'
             % (len(m.counters), len(cpuser), cpuser[:4]))
    pref = tuple(exp.get('task_counters', []))
    task = [(m.procs[u]['pid'], n) for (u, n) in m.counters
            if pref and n.startswith(pref)]
    at0 = [x for x in task if x[0] == 0]
    ck.check(not at0, 'counters: %d per-task series, %d under pid 0'
             % (len(task), len(at0)))
    # async
    nas = sum(len(v) for v in m.async_slices.values())
    aopen = sum(1 for v in m.async_slices.values() for s in v
                if s['dur'] < 0)
    ck.check(aopen == 0, 'async: %d slices, %d never end; %d ends matched '
             'nothing' % (nas, aopen, m.unmatched_ends))
    # metadata and bookkeeping off the tracks
    meta = exp.get('meta_category')
    book = set(exp.get('bookkeeping_args', []))
    nmeta = nbook = nsl = 0
    for (_, u), sl in m.slices.items():
        for s in sl:
            nsl += 1
            if meta and s['cat'] == meta and \
                    s['name'] not in exp.get('meta_shown', []) and \
                    m.threads[u]['tid'] < 1 << 22:
                nmeta += 1
            if s['cat'] not in exp.get('bookkeeping_kept', []) and \
                    any(a[0] in book for a in s['args']):
                nbook += 1
    ck.check(nmeta == 0 and nbook == 0,
             'thread tracks: %d slices, %d metadata, %d with bookkeeping '
             'arguments' % (nsl, nmeta, nbook))
    if 'states' in exp:
        check_packets(m, exp, ck)
    return ck.failed


def check_packets(m, exp, ck):
    """What Perfetto shows through the packets: the stream read whole,
    scheduling from one source, thread states, wakers, the idle thread,
    CPU tracks, processes, system info, stats and data loss."""
    ck.check(m.packets > 0, 'packets: %d, the stream read to its last '
             'byte, nothing in it failing the import' % m.packets)
    nsw = sum(1 for r in m.sched)
    ck.check(not (m.fxt_sched_records and m.raw.get('sched_switch')),
             'scheduling from one source: %d sched rows from the packets, '
             '%d FXT scheduling records' % (m.raw.get('sched_switch', 0),
                                           m.fxt_sched_records))
    # thread states: every switch-out's state as the kernel reports it
    got = {}
    for r in m.states:
        got[r['state']] = got.get(r['state'], 0) + 1
    want = exp['states']
    bad = ['%s %d/%d' % (k, got.get(k, 0), v) for k, v in want.items()
           if (got.get(k, 0) < v if k == 'R' else got.get(k, 0) != v)]
    ck.check(not bad, 'thread_state: %s as the source\'s prev_state says '
             '(R: at least, wakeups and inferred switches add some)%s' % (
                 ', '.join('%s %d' % kv for kv in sorted(want.items(),
                                                         key=str)),
                 '; wrong: ' + ', '.join(bad) if bad else ''))
    woken = sum(1 for r in m.states if r['state'] == 'R' and
                r.get('waker') is not None)
    nw = exp['counts'].get('wakeups', 0)
    spur = m.stats.get('spurious_sched_wakeup', {}).get(None, 0)
    ck.check(woken + spur >= nw - m.stats.get(
        'compact_sched_waking_skipped', {}).get(None, 0) and
             (woken > 0) == (nw > 0),
             'thread_state: %d wakeups of %d with their waker (%d '
             'spurious)' % (woken, nw, spur))
    # the idle task as Perfetto's own import treats swapper
    idle = [t for t in m.threads[1:] if t['tid'] == 0]
    busy = [r for r in m.sched if m.threads[r['utid']]['tid'] == 0 and
            not m.threads[r['utid']].get('idle')]
    ck.check(all(t.get('idle') and t['name'] == 'swapper' for t in idle)
             and not busy, 'idle: %d thread(s) of tid 0 besides the '
             'reserved one, all idle and named swapper; %d CPU rows of a '
             'tid 0 not idle' % (len(idle), len(busy)))
    # CPU tracks
    for key, ev in (('Irq', 'irq_handler_entry'), ('SoftIrq',
                                                   'softirq_entry')):
        n = sum(1 for (name, _), v in m.cpu_slices.items()
                if name.startswith(key + ' Cpu') for x in v
                if x['name'] != 'IRQ (LocalTimer)')
        ck.check(n == exp['counts'].get(ev, 0), 'cpu tracks: %d "%s Cpu N" '
                 'slices, %d %s in the source' % (n, key,
                                                  exp['counts'].get(ev, 0),
                                                  ev))
    for key, ev in (('cpufreq', 'cpu_frequency'), ('cpuidle', 'cpu_idle')):
        n = sum(len(v) for (name, _), v in m.cpu_counters.items()
                if name == key)
        dup = [name for (_, name) in m.counters if name.startswith(key)]
        ck.check(n == exp['counts'].get(ev, 0) and not dup,
                 'cpu tracks: %d samples on "%s" CPU counter tracks, %d '
                 '%s in the source; %d FXT counters beside' % (
                     n, key, exp['counts'].get(ev, 0), ev, len(dup)))
    # the process tree
    wrong = []
    for child, ppid in exp['parents'].items():
        ups = [k for k, p in enumerate(m.procs) if p['pid'] == int(child)]
        par = [m.procs[m.procs[u]['parent']]['pid'] for u in ups
               if m.procs[u]['parent'] is not None]
        if ppid not in par:
            wrong.append((int(child), ppid, par))
    ck.check(not wrong, 'processes: %d the source saw forked, %d without '
             'their parent %s' % (len(exp['parents']), len(wrong),
                                  wrong[:4]))
    uts = exp.get('uname', '').split()
    ck.check(m.metadata.get('system_name') == (uts[0] if uts else None) and
             m.metadata.get('system_release') ==
             (uts[2] if len(uts) > 2 else None) and m.machine.get('num_cpus'),
             'system info: %s %s, %s CPUs (the file\'s uname: "%s")' % (
                 m.metadata.get('system_name'),
                 m.metadata.get('system_release'),
                 m.machine.get('num_cpus'), ' '.join(uts)))
    # FtraceStats from the CPUSTAT options (ParseFtraceStats: _end)
    wrong = []
    for cpu, vals in exp.get('cpustats', {}).items():
        for key, v in vals.items():
            got = m.stats.get('ftrace_cpu_%s_end' % key, {}).get(int(cpu))
            if got != v:
                wrong.append((cpu, key, v, got))
    ck.check(not wrong, 'stats: ftrace_cpu_*_end as the file\'s CPUSTAT '
             'says on %d CPUs%s' % (len(exp.get('cpustats', {})),
                                    '; wrong: %s' % wrong[:4] if wrong
                                    else ''))
    loss = sorted(k for k, v in m.stats.get('ftrace_cpu_has_data_loss',
                                            {}).items() if v)
    ck.check(loss == exp['lost_cpus'], 'stats: data loss on CPUs %s, the '
             'source lost events on %s' % (loss, exp['lost_cpus']))
    rows = set((r['cpu'], m.threads[r['utid']]['tid'], r['ts'],
                r['ts'] + r['dur']) for r in m.sched if r['dur'] >= 0)
    runs = exp.get('first_runs', [])
    missing = [r for r in runs if tuple(r) not in rows]
    # a lost switch in drawn at the switch out would close a 0 ns row
    # (SchedEventTracker::ClosePendingSlice(): dur = ts - start)
    zero = [(r['cpu'], m.threads[r['utid']]['tid'], r['ts']) for r in m.sched
            if r['dur'] == 0 and m.threads[r['utid']]['tid'] != 0]
    ck.check(not missing and not zero, 'sched: %d runs a CPU\'s records '
             'show before its first switch or a lost switch in, drawn from '
             'their first record or, when the switch out is the only one, '
             'halfway after the CPU\'s record before (%d not: %s); %d rows '
             'of a real thread 0 ns long%s'
             % (len(runs), len(missing), missing[:3], len(zero),
                ' (%s)' % zero[:3] if zero else ''))
    ck.check(sorted(m.prints) == sorted(exp['prints']),
             'ftrace events: %d "print" rows, the %d trace_marker texts '
             'that are not atrace' % (len(m.prints), len(exp['prints'])))
    spans = set((m.threads[u]['tid'], x['ts'], x['ts'] + x['dur'])
                for (_, u), sl in m.slices.items() for x in sl
                if x['cat'] == 'atrace' or x.get('atrace'))
    want = set(tuple(x) for x in exp.get('atrace_spans', []))
    cut = sorted(want - spans)
    ck.check(len(spans) == exp['counts'].get('atrace_b', 0) and not cut,
             'thread tracks: %d atrace slices, %d B markers in the source, '
             'the %d the source ends each from its B to its E (%d not: %s)'
             % (len(spans), exp['counts'].get('atrace_b', 0), len(want),
                len(cut), cut[:3]))
    starts = sorted((t['tid'], t['start_ts']) for t in m.threads
                    if 'start_ts' in t)
    want = sorted(tuple(x) for x in exp.get('newtasks', []))
    ck.check(starts == want, 'threads: %d with a start time, the %d the '
             'source\'s task_newtask start (ParseTaskNewTask)' % (
                 len(starts), len(want)))
    fg = [x for d in (m.slices, m.cpu_slices) for sl in d.values()
          for x in sl if x.get('fgraph')]
    unnamed = [x['name'] for x in fg if x['name'].startswith('0x')]
    ck.check(len(fg) == exp['counts'].get('funcgraph_entry', 0) and
             not unnamed and all(x['dur'] >= 0 for x in fg),
             'funcgraph: %d function slices, all ended, %d funcgraph_entry '
             'in the source; %d not named by the kallsyms %s' % (
                 len(fg), exp['counts'].get('funcgraph_entry', 0),
                 len(unnamed), unnamed[:3]))
    nsys = sum(1 for sl in m.slices.values() for x in sl if x.get('sys'))
    ck.check(nsys == exp['counts'].get('syscalls', 0), 'thread tracks: %d '
             'syscall slices, %d sys_enter in the source of a syscall '
             'Perfetto\'s table for %s names' % (
                 nsys, exp['counts'].get('syscalls', 0),
                 (exp.get('uname', '').split() or ['?'])[-1]))
    # slice_tracker.cc: no slice ended under an open one (MaybeCloseStack)
    bad = {k: v for k, v in m.stats.items() if k in (
        'misplaced_end_event', 'systrace_parse_failure')}
    ck.check(not bad, 'thread tracks: slices nest; errors: %s' % (
        {k: sum(v.values()) for k, v in bad.items()} or 'none'))
    # a sys_write slice ends at each atrace marker written in it: the
    # marker is Perfetto's own print event (ParsePrint)
    ends = set((m.threads[u]['tid'], x['ts'] + x['dur'])
               for (_, u), sl in m.slices.items() for x in sl
               if x.get('sys') and x['dur'] >= 0)
    cuts = [tuple(c) for c in exp.get('syscall_cuts', [])]
    uncut = [c for c in cuts if c not in ends]
    ck.check(not uncut, 'thread tracks: %d sys_write slices end at the '
             'atrace marker written in them (%d not: %s)'
             % (len(cuts), len(uncut), uncut[:3]))
    check_kernel_events(m, exp.get('kernel', {}), ck)


def check_kernel_events(m, k, ck):
    """What Perfetto draws of net, sock, tcp, skb, kmem, oom, vmscan,
    signal, power, cpuhp, thermal, block, irq_vectors events and
    sched_blocked_reason, against what the source's events predict
    (expect_kernel_events())."""
    def slices(pred):
        return [x for (name, _), v in m.gslices.items() for x in v
                if pred(name, x)]

    def tslices(name):
        return [x for v in m.slices.values() for x in v
                if x['name'] == name and x['cat'] is None]
    # network devices: a sample per event, the running total in KB
    want, got = {}, {}
    for key, (n, total) in k.get('nic', {}).items():
        want[key] = (n, total // 1024)
    for name, vals in m.gcounters.items():
        if name.endswith((' Received KB', ' Transmitted KB')):
            got[name] = (len(vals), vals[-1][1])
    ck.check(want == got, 'net: device counters %s, as the source\'s '
             'netif_receive_skb/net_dev_xmit (rc 0) add up: %s' % (
                 sorted(got.items()), sorted(want.items())))
    tcp = slices(lambda n, x: n.startswith('TCP stream#'))
    nstreams = len(set(n for (n, _) in m.gslices if
                       n.startswith('TCP stream#')))
    ck.check(len(tcp) == k.get('tcp_states', 0) and
             nstreams == k.get('tcp_streams', 0),
             'sock: %d TCP state slices on %d "TCP stream#N" tracks, the '
             'source\'s %d TCP inet_sock_set_state of %d sockets' % (
                 len(tcp), nstreams, k.get('tcp_states', 0),
                 k.get('tcp_streams', 0)))
    rt = slices(lambda n, x: n == 'TCP Retransmit Skb')
    ck.check(len(rt) == k.get('tcp_retransmit_skb', 0),
             'tcp: %d "TCP Retransmit Skb" slices, %d tcp_retransmit_skb' %
             (len(rt), k.get('tcp_retransmit_skb', 0)))
    kf = m.gcounters.get('Kfree Skb IP Prot', [])
    ck.check(len(kf) == k.get('kfree_skb_ip', 0) and
             (not kf or kf[-1][1] == len(kf)),
             'skb: %d "Kfree Skb IP Prot" samples, %d kfree_skb of IP or '
             'IPv6' % (len(kf), k.get('kfree_skb_ip', 0)))
    napi = slices(lambda n, x: n.startswith('Napi Gro Cpu'))
    ck.check(len(napi) == k.get('napi_gro_receive_entry', 0),
             'net: %d "Napi Gro Cpu N" slices, %d napi_gro_receive_entry' %
             (len(napi), k.get('napi_gro_receive_entry', 0)))
    # kmem rss_stat: Perfetto's own mem.* tracks, and no FXT counter
    rss = sum(len(v) for (_, n), v in m.counters.items()
              if n.startswith('mem.') and ':' not in n)
    rss += sum(len(v) for (_, n), v in m.thread_counters.items()
               if n.startswith('mem.'))
    lost = sum(m.stats.get(n, {}).get(None, 0) for n in (
        'rss_stat_unknown_thread_for_mm_id', 'rss_stat_negative_size'))
    fxt = [n for (_, n) in m.counters if n.startswith('mem.') and ':' in n]
    ck.check(rss + lost == k.get('rss_stat', 0) and not fxt,
             'kmem: %d mem.* process counter samples and %d rss_stat '
             'Perfetto cannot place, of %d rss_stat; %d FXT mem.* series '
             'beside' % (rss, lost, k.get('rss_stat', 0), len(fxt)))
    oom = sum(len(v) for (_, n), v in list(m.counters.items()) +
              list(m.thread_counters.items()) if n == 'oom_score_adj')
    ck.check(oom == k.get('oom_score_adj_update', 0),
             'oom: %d oom_score_adj counter samples, %d '
             'oom_score_adj_update' % (oom, k.get('oom_score_adj_update', 0)))
    for name, ev in (('mm_vmscan_direct_reclaim',
                      'mm_vmscan_direct_reclaim_begin'),
                     ('mm_vmscan_shrink_slab', 'mm_shrink_slab_start'),
                     ('signal_generate', 'signal_generate'),
                     ('signal_deliver', 'signal_deliver')):
        n = len(tslices(name))
        ck.check(n == k.get(ev, 0), 'thread tracks: %d "%s" slices, %d %s'
                 % (n, name, k.get(ev, 0), ev))
    for what, pred, ev in (
            ('"Suspend/Resume Latency"',
             lambda n, x: n == 'Suspend/Resume Latency', 'suspend_begin'),
            ('"CPU Hotplug N"', lambda n, x: n.startswith('CPU Hotplug'),
             'cpuhp_enter'),
            ('"block_io"', lambda n, x: n.startswith('block_io dev'),
             'block_io_start')):
        sl = slices(pred)
        ck.check(len(sl) == k.get(ev, 0) and all(x['dur'] >= 0 for x in sl),
                 'tracks: %d %s slices, all ended, %d %s' % (
                     len(sl), what, k.get(ev, 0), ev))
    for suffix, ev in ((' Temperature', 'thermal_temperature'),
                       (' Frequency', 'clock_set_rate'),
                       (' State', 'clock_enable_disable')):
        n = sum(len(v) for name, v in m.gcounters.items()
                if name.endswith(suffix))
        ck.check(n == k.get(ev, 0), 'counter tracks: %d "<name>%s" samples,'
                 ' %d %s' % (n, suffix, k.get(ev, 0), ev))
    lt = sum(1 for (name, _), v in m.cpu_slices.items() for x in v
             if name.startswith('Irq Cpu') and x['name'] == 'IRQ (LocalTimer)')
    ck.check(lt == k.get('local_timer_entry', 0), 'cpu tracks: %d "IRQ '
             '(LocalTimer)" slices, %d local_timer_entry' % (
                 lt, k.get('local_timer_entry', 0)))
    bf = [r for r in m.states if r.get('blocked_function')]
    ck.check(len(bf) == k.get('blocked_rows', 0) and
             all(not r['blocked_function'].startswith('0x') for r in bf),
             'thread_state: %d blocked rows with their blocked function, '
             'the %d the source\'s sched_blocked_reason names (a symbol '
             'each)' % (len(bf), k.get('blocked_rows', 0)))


REPORT_T = re.compile(r'^\s*(?:([\w.-]+):\s+)?(.*?)-(\d+)\s+\[(\d+)\]'
                      r'\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)$')
DUP_WINDOW = 100e-6     # map-dispatch.c: MAP_DUP_WINDOW_NS


def distinct_records(lines):
    """(buffer, pid, cpu, ts in ns, event, fields) of each event of
    trace-cmd report -R's lines (-t or not), an event two buffers both
    recorded once: the copies are on the same CPU, equal but for the
    time, at most DUP_WINDOW apart, one copy matching one other."""
    recent = {}
    for ln in lines:
        mt = REPORT_T.match(ln.rstrip('\n'))
        if not mt:
            continue
        buf, pid, cpu = mt.group(1) or '', int(mt.group(3)), \
            int(mt.group(4))
        ts = int(mt.group(5)) * 10 ** 9 + int(mt.group(6).ljust(9, '0'))
        key = (pid, mt.group(7), mt.group(8))
        lst = recent.setdefault(cpu, [])
        lst[:] = [e for e in lst if ts - e[0] <= DUP_WINDOW * 1e9]
        for e in lst:
            if e[1] == key and e[2] != buf:
                lst.remove(e)
                break
        else:
            lst.append((ts, key, buf))
            yield (buf, pid, cpu, ts, mt.group(7), mt.group(8))


def distinct_events(lines):
    """(pid, event, fields) of each distinct_records()."""
    for _, pid, _, _, ev, rest in distinct_records(lines):
        yield (pid, ev, rest)


def cpustats(text):
    """The top buffer's CPUSTAT options in `trace-cmd dump --options`'s
    text (the first of each CPU): {cpu: {key: value}}."""
    out, cur = {}, None
    for ln in text.splitlines():
        m = re.match(r'^CPU: (\d+)$', ln)
        if m:
            cpu = int(m.group(1))
            cur = None if cpu in out else out.setdefault(cpu, {})
            continue
        m = re.match(r'^(entries|overrun|commit overrun|dropped events|'
                     r'read events): (\d+)$', ln)
        if m and cur is not None:
            cur[m.group(1).replace(' ', '_')] = int(m.group(2))
    return out


def first_runs(lines):
    """Per CPU, what its records say ran before its first sched_switch,
    and before a switch whose prev is not the task the CPU's last switch
    brought in (the recording lost the switch in): the switch's prev
    (not idle) since the first of the records that ran in it without a
    break (events lost on the CPU break it; a switch starts its next's
    run), as [cpu, pid, since, switch time]; what Perfetto draws from
    the packets (map-sched.c, map_switch_first(), map_switch_lost_in()).
    A lost switch in whose switch out is the only record of its run (a
    recording filtered by pid) is drawn halfway between the CPU's last
    switch or record before it, whichever is later, and it, the task at
    least 1 ns: at the switch out itself, Perfetto's importer would close
    a row of 0 ns (ftrace_sched_event_tracker.cc,
    FtraceSchedEventTracker::PushSchedSwitchCompact ->
    SchedEventTracker::ClosePendingSlice: dur = ts - start)."""
    runs, out, on, recent = {}, [], {}, {}

    def leave(pid, cpu, ts):
        # map_switch_leave(): a task the packets still run on another
        # CPU leaves it just before, idle coming in
        o = on.pop(pid, None)
        if not pid or o is None or o == cpu:
            if o is not None:
                on[pid] = o
            return
        ro = runs.get(o, {})
        if ro.get('cur') == pid:
            ro['cur'] = 0
            ro['cur_ts'] = ts - 1 if ts > ro['cur_ts'] else ts
    for ln in lines:
        mlost = re.match(r'^(?:[\w.-]+: +)?CPU:(\d+) \[.*EVENTS DROPPED\]',
                         ln)
        if mlost:
            r = runs.setdefault(int(mlost.group(1)), {'pid': None,
                                                      'last': 0})
            r['pid'] = None
            continue
        mt = REPORT_T.match(ln.rstrip('\n'))
        if not mt:
            continue
        pid, cpu = int(mt.group(3)), int(mt.group(4))
        ts = int(mt.group(5)) * 10 ** 9 + int(mt.group(6).ljust(9, '0'))
        r = runs.setdefault(cpu, {'pid': None, 'last': 0})
        # map_sched_seen(): every record, the switch's own first
        if r['pid'] != pid:
            r.update(pid=pid, ts=ts, before=r['last'])
        r['last'] = ts
        if mt.group(7) != 'sched_switch':
            continue
        # a switch another buffer gave too is not drawn twice
        # (map-dispatch.c, map_dispatch_restated(); distinct_records())
        buf, key = mt.group(1) or '', (pid, mt.group(8))
        lst = recent.setdefault(cpu, [])
        lst[:] = [e for e in lst if ts - e[0] <= DUP_WINDOW * 1e9]
        dup = [e for e in lst if e[1] == key and e[2] != buf]
        if dup:
            lst.remove(dup[0])
            continue
        lst.append((ts, key, buf))
        prev = int(re.search(r' prev_pid=(\d+)', mt.group(8)).group(1))
        nxt = int(re.search(r' next_pid=(\d+)', mt.group(8)).group(1))
        leave(nxt, cpu, ts)
        leave(prev, cpu, ts)
        cur = r.get('cur', -1)
        if prev and r['pid'] == prev and cur != prev:
            if r['ts'] < ts:
                out.append([cpu, prev, r['ts'], ts])
            elif cur != -1:
                lo = max(r['before'], r['cur_ts'])
                if lo < ts:
                    out.append([cpu, prev, lo + (ts - lo) // 2, ts])
        r.update(pid=nxt, ts=ts, cur=nxt, cur_ts=ts)
        if on.get(prev) == cpu:
            del on[prev]
        if nxt:
            on[nxt] = cpu
    return out


def expect(lines, tgids_file=None, uname=None, stats=None):
    """What the source recording says, read from trace-cmd report -R's text
    (the real tool's decoding): tgids from task_newtask's clone_flags,
    sched_process_exec, atrace markers' pid field and a saved_tgids file;
    how many switches left a task zombie (Z) or dead (X); and for the
    Perfetto packets: the states sched_switch's prev_state renders to
    (types/task_state.cc, for the kernel release in @uname, the file's
    UNAME option), IRQs, softirqs, CPU frequency and idle events, the
    processes forked with their parent, the CPUs that lost events, the
    trace_marker texts that are not atrace's and the B markers.  An event
    two buffers both hold is one event."""
    tg, rank = {}, {}
    zombies = dead = 0
    version = None
    if uname and len(uname.split()) >= 3 and uname.split()[0] == 'Linux':
        mv = re.match(r'(\d+)\.(\d+)', uname.split()[2])
        version = (int(mv.group(1)), int(mv.group(2))) if mv else None
    states, counts, forks, prints, lost = {}, {}, [], [], set()
    seen_waking = False
    sysnames = syscall_table(uname.split()[-1] if uname else '')
    open_b, spans, newtasks = {}, [], []
    insys, cuts = {}, []

    def setg(pid, tgid, r):
        if rank.get(pid, -1) <= r:
            tg[pid], rank[pid] = tgid, r
    if tgids_file:
        for ln in open(tgids_file):
            if ln.split():
                pid, tgid = map(int, ln.split())
                setg(pid, tgid, 1)
    lines = list(lines)
    for ln in lines:
        mlost = re.match(r'^(?:[\w.-]+: +)?CPU:(\d+) \[.*EVENTS DROPPED\]', ln)
        if mlost:
            lost.add(int(mlost.group(1)))
    for _, pid, _, ts, ev, rest in distinct_records(lines):
        if ev in ('irq_handler_entry', 'cpu_idle', 'cpu_frequency') or \
                (ev == 'softirq_entry' and
                 int(re.search(r'vec=(\d+)', rest).group(1)) < 10):
            counts[ev] = counts.get(ev, 0) + 1
        if ev == 'sched_waking':
            seen_waking = True
        if ev in ('sched_waking', 'sched_wakeup_new') or \
                (ev == 'sched_wakeup' and not seen_waking):
            counts['wakeups'] = counts.get('wakeups', 0) + 1
        if ev == 'sched_process_fork':
            f = report_fields(rest, ('parent_comm', 'parent_pid',
                                     'child_comm', 'child_pid'))
            forks.append((int(f['child_pid']), int(f['parent_pid'])))
        elif ev == 'print':
            t = report_fields(rest, ('ip', 'buf')).get('buf', '')
            if t.startswith('B|'):
                counts['atrace_b'] = counts.get('atrace_b', 0) + 1
            # an atrace marker is Perfetto's own print event, which ends
            # the sys_write it is written in there (ParsePrint,
            # MaybeTruncateOngoingWriteSlice; map-marker.c)
            if is_atrace(t):
                nr, ets = insys.pop(pid, (None, 0))
                if sysnames.get(nr) == 'sys_write':
                    cuts.append([pid, ts])
            # each B to the E that ends it on the thread: the slice
            if is_atrace(t) and t[0] in 'BE':
                st = open_b.setdefault(pid, [])
                if t[0] == 'B':
                    st.append(ts)
                elif st:
                    spans.append([pid, st.pop(), ts])
            if not is_atrace(t):
                prints.append(t.rstrip('\n'))
        if ev == 'funcgraph_entry':
            counts[ev] = counts.get(ev, 0) + 1
        if ev == 'sys_enter' and sysnames:
            nr = re.search(r'\bid=(-?\d+)', rest)
            if nr and int(nr.group(1)) in sysnames:
                counts['syscalls'] = counts.get('syscalls', 0) + 1
            insys[pid] = (int(nr.group(1)) if nr else None, ts)
        elif ev == 'sys_exit':
            insys.pop(pid, None)
        if ev == 'sched_switch':
            # report -R's number, read by the format's own flags
            # (0x20 "Z", 0x10 "X"; trace-cmd 3.1.6's sched plugin
            # prints 0x20 as X)
            st = re.search(r'prev_state=(\d+)', rest)
            raw = int(st.group(1)) if st else 0
            name = task_state(raw, version)
            states[name] = states.get(name, 0) + 1
            st = raw & 0xff
            if st & 0x20:
                zombies += 1
            elif st & 0x10:
                dead += 1
        elif ev == 'task_newtask':
            f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
            child = int(f['pid'])
            if child:
                newtasks.append([child, ts])
            if int(f['clone_flags'], 16) & 0x10000:
                setg(child, -pid, 2)
            else:
                setg(child, child, 2)
        elif ev == 'sched_process_exec':
            f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
            setg(int(f['pid']), int(f['pid']), 2)
        elif ev == 'print':
            mk = re.search(r'(?:tracing_mark_write: )?([BCSF])\|(\d+)\|', rest)
            if mk and int(mk.group(2)) > 0:
                setg(pid, int(mk.group(2)), 0)
    for pid in list(tg):
        v, hops = tg[pid], 0
        while v < 0 and hops < 64:
            up = -v
            v = tg.get(up, up) if tg.get(up, up) != v else up
            hops += 1
        tg[pid] = abs(v)
    # a child that leads its group starts a process, its parent the
    # forking task's process (a task the recording places in no group is
    # its own, as the converter reads it)
    # map-tgid.c's fork rule: a child in another task's group is a
    # thread, and threads are made by members of their group
    changed = True
    while changed:
        changed = False
        for child, parent in forks:
            g = tg.get(child, child)
            if g != child and parent not in tg and parent != g:
                tg[parent] = g
                changed = True
    parents = {}
    for child, parent in forks:
        if tg.get(child, child) == child:
            parents[str(child)] = tg.get(parent, parent)
    kernel = expect_kernel_events(lines)
    return {'kernel': kernel, 'first_runs': first_runs(lines),
            'tgid': {str(k): v for k, v in tg.items() if k},
            'zombies': zombies, 'dead': dead, 'states': states,
            'counts': counts, 'parents': parents, 'prints': prints,
            'atrace_spans': spans, 'syscall_cuts': cuts,
            'newtasks': newtasks,
            'lost_cpus': sorted(lost), 'uname': uname or '',
            'cpustats': {str(k): v for k, v in (stats or {}).items()}}


def expect_kernel_events(lines):
    """The kernel events beyond scheduling: what the source's events
    predict Perfetto draws, by its importer's rules (ftrace_parser.cc),
    read from -R's text."""
    k = {'nic': {}, 'tcp_states': 0, 'tcp_streams': 0}
    socks, blocked, rows = set(), {}, set()

    def fields(rest):
        return dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)

    def num(v):
        return int(v, 16) if v.startswith('0x') else int(v)

    def add(key, n=1):
        k[key] = k.get(key, 0) + n
    nsw = 0
    for pid, ev, rest in distinct_events(lines):
        if ev in ('netif_receive_skb', 'net_dev_xmit'):
            f = fields(rest)
            if ev == 'net_dev_xmit' and int(f['rc']) != 0:
                continue
            key = '%s %s KB' % (f['name'], 'Received' if
                                ev == 'netif_receive_skb' else 'Transmitted')
            n, total = k['nic'].get(key, (0, 0))
            k['nic'][key] = (n + 1, total + int(f['len']))
        elif ev == 'inet_sock_set_state':
            f = fields(rest)
            if int(f['protocol']) == 6 and int(f['family']) in (2, 10):
                k['tcp_states'] += 1
                socks.add(f['skaddr'])
        elif ev == 'kfree_skb':
            if int(fields(rest)['protocol']) in (ETH_P_IP, ETH_P_IPV6):
                add('kfree_skb_ip')
        elif ev == 'suspend_resume':
            if int(fields(rest).get('start', '0')):
                add('suspend_begin')
        elif ev in ('cpuhp_enter', 'cpuhp_multi_enter'):
            add('cpuhp_enter')
        elif ev in ('clock_enable', 'clock_disable'):
            add('clock_enable_disable')
        elif ev == 'sched_switch':
            f = fields(rest)
            nsw += 1
            if num(f['prev_state']):
                blocked[int(f['prev_pid'])] = nsw
            blocked.pop(int(f['next_pid']), None)
        elif ev == 'sched_blocked_reason':
            row = blocked.get(int(fields(rest)['pid']))
            if row:
                rows.add(row)
        else:
            add(ev)
    k['tcp_streams'] = len(socks)
    k['blocked_rows'] = len(rows)
    return k


def truth(m, tgids_file):
    """Every thread of the model whose tid the kernel's saved_tgids names
    (a recording made with record-tgid) in the process it names."""
    tg = {}
    for ln in open(tgids_file):
        if ln.split():
            pid, tgid = map(int, ln.split())
            tg[pid] = tgid
    seen, wrong = 0, []
    for tid, us in m.tids.items():
        if not tid or tid not in tg:
            continue
        for u in us:
            seen += 1
            up = m.threads[u]['upid']
            pid = None if up is None else m.procs[up]['pid']
            if pid != tg[tid]:
                wrong.append((tid, tg[tid], pid))
    ck = Checker()
    ck.check(seen and not wrong, 'threads: %d the kernel\'s saved_tgids '
             'names, %d in another process %s' % (seen, len(wrong),
                                                   wrong[:8]))
    return ck.failed


# What the packets say, event by event, against trace-cmd report -R -t
# (compare-packets): the packets decoded as Perfetto's tokenizer reads
# them, compact switches given their implicit prev (the CPU's last
# next_pid, FtraceSchedEventTracker::PushSchedSwitchCompact) and compact
# wakings their implicit waker (the task the CPU runs,
# PushSchedWakingCompact).
PKT_FIELDS = {
    # the events written by code of their own: their fields as -R prints
    # them, in format order (a value may hold spaces); the table's are
    # read by report_fields()'s names of any field
    'sched_switch': ('prev_comm', 'prev_pid', 'prev_prio', 'prev_state',
                     'next_comm', 'next_pid', 'next_prio'),
    'sched_waking': ('comm', 'pid', 'prio', 'target_cpu'),
    'sched_wakeup': ('comm', 'pid', 'prio', 'target_cpu'),
    'sched_wakeup_new': ('comm', 'pid', 'prio', 'target_cpu'),
    'print': ('ip', 'buf'),
}
# the fields of the table's events the packets carry that -R prints so
# that they cannot be compared: a kernel function as its symbol (and
# offset), flags as their names, a kernel string maybe as its address
PKT_UNCOMPARED = {
    'kfree_skb': ('location',),
    'mm_vmscan_direct_reclaim_begin': ('gfp_flags',),
    'mm_shrink_slab_end': ('shrink',),
    'suspend_resume': ('action',),
    'cpuhp_enter': ('fun',),
    'cpuhp_multi_enter': ('fun',),
}
# what each of the table's events is compared on: the fields the
# packets carry, by their types there
PKT_TYPES = {ev: {name: typ for name, _, typ in row[3]}
             for ev, row in TABLE.items()}
PKT_KEYS = {ev: tuple(name for name in types
                      if name not in PKT_UNCOMPARED.get(ev, ()))
            for ev, types in PKT_TYPES.items()}
# the event messages' fields (protos/perfetto/trace/ftrace/*.proto):
# number -> (name, how: 's' text, 'sym' a kernel symbol's id, 0
# unsigned, 1 int32, 2 int64); the table's as it says
PKT_MSGS = {
    EV_SCHED_SWITCH: ('switch', {1: ('prev_comm', 's'), 2: ('prev_pid', 1),
                                 3: ('prev_prio', 1), 4: ('prev_state', 2),
                                 5: ('next_comm', 's'), 6: ('next_pid', 1),
                                 7: ('next_prio', 1)}),
    EV_SCHED_WAKING: ('waking', {1: ('comm', 's'), 2: ('pid', 1),
                                 3: ('prio', 1), 5: ('target_cpu', 1)}),
    EV_PRINT: ('print', {2: ('buf', 's')}),
}
PKT_MSGS.update({number: (ev, {n: (name, TABLE_HOW[typ])
                               for name, n, typ in fields})
                 for ev, (_, _, number, fields) in TABLE.items()})
# -R's %lx / %llx, without 0x
PKT_HEX_KEYS = {'sa_flags', 'clone_flags', 'calltime', 'rettime'}

def packet_events(m):
    """Every ftrace event the packets carry, as (kind, cpu, ts, fields),
    in each CPU's time order."""
    bycpu = {}
    syms = {}
    descs = {}
    n = 0
    for pkt in m.stream_packets():
        d = pb_msg(pkt)
        if 12 in d:
            for f, _, v in pb_fields(last(d, 12)):
                if f == 26:
                    e = pb_msg(v)
                    syms[last(e, 1, 0)] = text(last(e, 2, b''))
        if 1 not in d:
            continue
        b = pb_msg(last(d, 1))
        cpu = last(b, 1)
        out = bycpu.setdefault(cpu, [])
        for v in b.get(11, []):
            desc = generic_descriptor(v)
            if desc and desc[0] not in descs:
                descs[desc[0]] = desc
        for ev in b.get(2, []):
            e = pb_msg(ev)
            for f, wt, v in pb_fields(ev):
                if f in (1, 2) or wt != 2:
                    continue
                n += 1
                out.append((last(e, 1), n, 'full', last(e, 2), f, v))
        if 4 in b:
            for kind, ts, vals in compact_events(pb_msg(last(b, 4)))[0]:
                n += 1
                if kind == 'switch':
                    out.append((ts, n, 'cswitch', None, s64(vals[1]),
                                (s32(vals[2]), s32(vals[3]), vals[4])))
                else:
                    out.append((ts, n, 'cwaking', None, None,
                                (s32(vals[1]), s32(vals[2]), s32(vals[3]),
                                 vals[4])))
    events = []
    m.legacy_generic, m.described_types = set(), {}
    for cpu, evs in bycpu.items():
        evs.sort(key=lambda e: (e[0], e[1]))
        cur = None
        for ts, _, kind, pid, f, v in evs:
            if kind == 'cswitch':
                nxt, prio, comm = v
                events.append(('switch', cpu, ts, {
                    'prev_pid': cur, 'prev_state': f, 'next_comm': comm,
                    'next_pid': nxt, 'next_prio': prio}))
                cur = nxt
                continue
            if kind == 'cwaking':
                pid, tcpu, prio, comm = v
                events.append(('waking', cpu, ts, {
                    'waker': cur, 'comm': comm, 'pid': pid, 'prio': prio,
                    'target_cpu': tcpu}))
                continue
            d = pb_msg(v)
            if f == EV_GENERIC:
                # GenericFtraceEvent.Field: str_value 3, int_value 4,
                # uint_value 5
                args = {}
                for fv in d.get(2, []):
                    a = pb_msg(fv)
                    name = text(last(a, 1, b''))
                    if 4 in a:
                        args[name] = s64(last(a, 4))
                    elif 5 in a:
                        args[name] = last(a, 5)
                    else:
                        args[name] = text(last(a, 3))
                events.append((text(last(d, 1, b'')), cpu, ts, args))
                m.legacy_generic.add(text(last(d, 1, b'')))
                continue
            if f >= EV_DESCRIBED and f in descs:
                # map_ftrace_generic(): described (v50+), as Perfetto's
                # own recorder writes an event it has no message for
                events.append((descs[f][1], cpu, ts,
                               described_args(descs[f], v)))
                m.described_types.setdefault(descs[f][1], {}).update(
                    descs[f][2].values())
                continue
            if f not in PKT_MSGS:
                events.append(('event %d' % f, cpu, ts, {}))
                continue
            kind, fields = PKT_MSGS[f]
            vals = {}
            for num, (name, how) in fields.items():
                if num not in d:
                    continue
                x = last(d, num)
                if how == 'list':
                    x = list(d[num])    # a repeated field, each element
                elif how == 's':
                    x = text(x)
                elif how == 1:
                    x = s32(x)
                elif how == 2:
                    x = s64(x)
                elif how == 'sym':
                    vals[name + '_iid'] = x
                    x = syms.get(x, '%#x' % x)
                vals[name] = x
            if kind == 'switch':
                cur = vals.get('next_pid')
            if kind == 'waking':
                vals['waker'] = pid
            if kind == 'print':
                vals['buf'] = vals.get('buf', '').rstrip('\n')
            events.append((kind, cpu, ts, vals))
    return events


def report_fields(rest, names=None):
    """trace-cmd report -R's "a=1 b=x y" as {a: '1', b: 'x y'}: @names
    the fields in format order (a value may hold spaces), else every
    field, a value ending where " name=" begins the next."""
    out, pos = {}, 0
    if names is None:
        starts = list(REPORT_FIELD.finditer(rest))
        for k, m in enumerate(starts):
            end = starts[k + 1].start() - 1 if k + 1 < len(starts) \
                else len(rest)
            out.setdefault(m.group(1), rest[m.end():end])
        return out
    for k, name in enumerate(names):
        i = rest.find(name + '=', pos)
        if i < 0:
            continue
        start = i + len(name) + 1
        end = len(rest)
        for nxt in names[k + 1:]:
            j = rest.find(' ' + nxt + '=', start)
            if j >= 0:
                end = j
                break
        out[name] = rest[start:end]
        pos = end
    return out


REPORT_FIELD = re.compile(r'(?:^|(?<= ))([A-Za-z_]\w*)=')


def is_atrace(t):
    """Whether the converter reads a marker as atrace's (map-atrace.c,
    map_atrace_parse): its records are FXT's, not the packets'."""
    t = t.rstrip('\n\0')
    if not t or t[0] not in 'BECSF' or (len(t) > 1 and t[1] != '|'):
        return False
    f = t.split('|', 3)
    if len(f) >= 2 and not (f[1].isdigit() and len(f[1]) < 32):
        return False
    return t[0] == 'E' or len(f) >= (3 if t[0] == 'B' else 4)


def generic_fields(f):
    """The fields of -R's line that a generic event carries, as it
    carries them: integers (-R's decimal or 0x hex) as numbers, other
    text as it is; arrays (ARRAY[..]) left out."""
    out = {}
    for k, v in f.items():
        if v.startswith('ARRAY['):
            continue
        try:
            n = int(v, 16) if v.startswith('0x') else int(v)
        except ValueError:
            out[k] = v
            continue
        out[k] = n
    return out


def report_events(lines):
    """The source's events the packets carry, from -R -t's lines, an event
    two buffers hold counted once, as packet_events() names them."""
    seen_waking = False
    started = set()
    for _, pid, cpu, ts, ev, rest in distinct_records(lines):
        if ev == 'sched_waking':
            seen_waking = True
        if ev == 'task_newtask':
            started.add(int(report_fields(rest)['pid']))
        # map-sched.c map_sched_wakeup_new_own(): Perfetto started the
        # task at its task_newtask, the wakeup stays its own event
        own_new = ev == 'sched_wakeup_new' and \
            int(report_fields(rest, PKT_FIELDS[ev])['pid']) in started
        if (ev not in PKT_FIELDS and ev not in TABLE) or own_new or \
                (ev == 'sched_wakeup' and seen_waking):
            # map-dispatch.c: Perfetto's generic event, every integer,
            # pointer and string field by name (map_ftrace_generic()),
            # not an EventHeader event's (its FXT event says it)
            f = report_fields(rest)
            if 'eventheader_flags' in f:
                continue
            yield (ev, cpu, ts, generic_fields(f))
            continue
        f = report_fields(rest, PKT_FIELDS.get(ev))
        if ev == 'print':
            # map-marker.c: an atrace marker is Perfetto's own print
            # event, any other text a generic "print"
            t = f.get('buf', '').rstrip('\n')
            yield ('print', cpu, ts, {'buf': t})
            continue
        if ev.startswith('softirq') and int(f['vec']) >= 10:
            continue
        if ev == 'sched_switch':
            yield ('switch', cpu, ts, {
                'prev_pid': int(f['prev_pid']),
                'prev_state': int(f['prev_state']),
                'next_comm': f['next_comm'],
                'next_pid': int(f['next_pid']),
                'next_prio': int(f['next_prio'])})
            continue
        if ev.startswith('sched_wak'):
            yield ('waking', cpu, ts, {
                'waker': pid, 'comm': f['comm'], 'pid': int(f['pid']),
                'prio': int(f['prio']),
                'target_cpu': int(f['target_cpu'])})
            continue
        vals = {}
        for k in PKT_KEYS[ev]:
            v, typ = f.get(k), PKT_TYPES[ev][k]
            if typ == 'sym' and v and v.startswith('0x'):
                # -R shows the address when it shows no symbol
                k, v = k + '_iid', int(v, 16)
            elif typ == 'sym' and v:
                v = v.split('+0x')[0]     # %pS: the function, its offset
            elif typ == 'uint64s' and v and v.startswith('ARRAY['):
                # -R's bytes of the array, little-endian u64s
                b = bytes(int(x, 16) for x in v[6:-1].split(', ') if x)
                v = [int.from_bytes(b[i:i + 8], 'little')
                     for i in range(0, len(b) - 7, 8)]
            elif v is not None and k in PKT_HEX_KEYS:
                v = int(v, 16)
            elif v is not None and typ not in ('string', 'kstr', 'sym'):
                v = int(v, 16) if v.startswith('0x') else int(v)
            vals[k] = v
        yield (ev, cpu, ts, vals)


def record_runs(lines):
    """(cpu, ts, pid) of every record of -R -t's lines."""
    for _, pid, cpu, ts, _, _ in distinct_records(lines):
        yield (cpu, ts, pid)


def nested_model(m, cache={}):
    """The records this project's readers read inside the blob records
    of blob type 0x80 (as they are) and 0x81 (zstd frames), which
    Perfetto's tokenizer skips (fxt-format.h, FXT_BLOB_RECORDS): not
    Perfetto's view, for the checks of what the file carries.  A model
    of their own stream, tokenized only."""
    if id(m) in cache:
        return cache[id(m)]
    data, off, raw, packed = m.data, 0, b'', b''
    while off + 8 <= len(data):
        h = struct.unpack_from('<Q', data, off)[0]
        typ = field(h, 0, 3)
        words = field(h, 4, 35) if typ == 15 else field(h, 4, 15)
        if not words:
            break
        if typ == 5 and field(h, 48, 55) in (0x80, 0x81):
            nref, size = field(h, 16, 31), field(h, 32, 46)
            at = off + 8 + (((nref & 0x7fff) + 7) // 8 * 8
                            if nref & 0x8000 else 0)
            if field(h, 48, 55) == 0x80:
                raw += data[at:at + size]
            else:
                packed += data[at:at + size]
        off += words * 8
    if packed:
        raw += subprocess.run(['zstd', '-dcq'], input=packed,
                              stdout=subprocess.PIPE, check=True).stdout
    sub = Model()
    sub.tokenize(raw)
    cache[id(m)] = sub
    return sub


def carried_kallsyms(m, cache={}):
    """{address: function} of the kallsyms lines the FXT carries
    (map-formats.c: the converter's trace-cmd/kallsyms instants, the
    symbols its events use)."""
    if id(m) in cache:
        return cache[id(m)]
    syms = {}
    for _, _, typ, h, rec, prov, strings, threads in m.events + \
            nested_model(m).events:
        if typ != 4:
            continue
        p = Provider()
        p.strings, p.threads = strings, threads
        c = Cursor(rec)
        c.u64()
        c.u64()
        m.tref(c, field(h, 24, 31), p)
        if m.sref(c, field(h, 32, 47), p) != 'trace-cmd' or \
                m.sref(c, field(h, 48, 63), p) != 'kallsyms':
            continue
        for name, _, v in m.parse_args(c, field(h, 20, 23), p):
            for ln in (v or '').splitlines() if name == 'text' else ():
                f = ln.split()
                if len(f) >= 3:
                    syms.setdefault(int(f[0], 16), f[2])
    cache[id(m)] = syms
    return syms


def named_symbols(e, syms):
    """A source event whose kernel function -R shows as its address
    (KEY_iid) compared by the function the .dat's kallsyms name there:
    the packets intern symbols under ids of their own."""
    vals = dict(e[3])
    for k in [k for k in vals if k.endswith('_iid')]:
        if vals[k] in syms:
            vals[k[:-4]] = syms[vals.pop(k)]
    return e[:3] + (vals,)


def dev_fields(formats):
    """(event, field) of every dev_t field of 4 or 8 bytes in `trace-cmd
    dump --events`' text: the fields Perfetto's recorder writes in
    userspace's makedev() layout (proto_translation_table.cc
    InferFtraceType: kFtraceDevId32/64)."""
    out, ev = set(), None
    for line in formats.splitlines():
        if line.startswith('name: '):
            ev = line[6:].strip()
        m = re.match(r'\s*field:dev_t (\w+);.*size:(\d+);', line)
        if m and ev and m.group(2) in ('4', '8'):
            out.add((ev, m.group(1)))
    return out


def format_signs(formats):
    """Of `trace-cmd dump --events`' text: {event: {field: signed}}, its
    own fields (not common_*), as libtraceevent reads "signed:"."""
    out, ev = {}, None
    for line in formats.splitlines():
        if line.startswith('name: '):
            ev = out.setdefault(line[6:].strip(), {})
        m = re.match(r'\s*field:(.*?)(\w+)(\[.*\])?;.*signed:(\d)', line)
        if m and ev is not None and not m.group(2).startswith('common_'):
            ev[m.group(2)] = m.group(4) == '1'
    return out


def user_dev(kdev):
    """A kernel dev_t (major above bit 20) as Perfetto's recorder writes
    it, makedev()'s layout (cpu_reader.h
    TranslateBlockDeviceIDToUserspace)."""
    maj, mnr = kdev >> 20, kdev & 0xfffff
    return ((maj & 0xfffff000) << 32 | (maj & 0xfff) << 8 |
            (mnr & 0xffffff00) << 12 | (mnr & 0xff))


def compare_packets(m, lines, devs=frozenset(), signs=None):
    """Every event of the source the packets carry, field by field; what
    the packets hold besides must be inferred switches (state R, at a
    source switch's time or just before, or where a CPU's first switch's
    prev, or a task whose switch in the recording lost, began to run)."""
    lines = list(lines)
    got = {}
    for e in packet_events(m):
        got.setdefault(e[:3], []).append(e)
    syms = carried_kallsyms(m)
    want = [named_symbols(e, syms) for e in report_events(lines)]
    for e in want:
        for k, v in e[3].items():
            if (e[0], k) in devs and isinstance(v, int):
                e[3][k] = user_dev(v)

    def same(g, v):
        """A generic event's address that -R shows as its function (%ps,
        %pS): the same when the carried kallsyms name it so, or, an
        address they do not hold (they hold what the mapping's own
        fields need), any kernel address; NULL as -R's "(nil)"."""
        if g == v or str(g) == str(v):
            return True
        if not isinstance(g, int):
            return False
        # -R shows a u64 as %llx without 0x ("a", or "10" for 16)
        if re.match(r'^[0-9a-f]+$', str(v)) and int(str(v), 16) == g:
            return True
        if not isinstance(v, str):
            return False
        if v == '(nil)':
            return g == 0
        if g in syms:
            return syms[g] == v.split('+0x')[0]
        return g >= 0xffff800000000000 and re.match(r'^\w+(\+0x[0-9a-f]+)?$', v)
    missing = []
    kinds = {}
    for e in want:
        kinds[e[0]] = kinds.get(e[0], 0) + 1
        cands = got.get(e[:3], [])
        for k, g in enumerate(cands):
            if all(f in g[3] and same(g[3][f], v)
                   for f, v in e[3].items()):
                del cands[k]
                break
        else:
            missing.append(e)
    extra = [e for v in got.values() for e in v]
    switch_ts = set(e[2] for e in want if e[0] == 'switch')
    # map-sched.c's map_switch_first(): before a CPU's first switch, its
    # prev switched in from idle at the first record of its run there;
    # map_switch_lost_in(): a switch in the recording lost, likewise
    runs = set(record_runs(lines))
    runs |= set((cpu, since, pid) for cpu, pid, since, _ in first_runs(lines))
    odd = [e for e in extra if e[0] != 'switch' or e[3]['prev_state'] or
           not (e[2] in switch_ts or e[2] + 1 in switch_ts or
                (e[1], e[2], e[3]['next_pid']) in runs)]
    ck = Checker()
    print('# events: %s' % ', '.join('%s %d' % kv
                                     for kv in sorted(kinds.items())))
    for e in missing[:5]:
        print('# missing: %s' % (e,))
    for e in odd[:5]:
        print('# unexplained: %s' % (e,))
    ck.check(want and not missing, 'packets: every one of the source\'s '
             '%d events they carry is there, field for field (%d missing)'
             % (len(want), len(missing)))
    ck.check(not odd, 'packets: %d events besides, inferred switches '
             '(state R, at a switch the recording lost, or where a CPU\'s '
             'first switch\'s prev or a task whose switch in it lost began '
             'to run) but %d'
             % (len(extra), len(odd)))
    if signs is not None:
        # Perfetto's recorder (proto_translation_table.cc,
        # ToGenericProtoField): a signed integer int64, any other integer,
        # pointer or dev_t uint64, text string; the older, legacy event
        # only for what a descriptor cannot hold (32 fields or more)
        bad = []
        for ev, types in sorted(m.described_types.items()):
            for f, typ in sorted(types.items()):
                want_t = 'string' if typ == 'string' else \
                    'int64' if signs.get(ev, {}).get(f) and \
                    (ev, f) not in devs else 'uint64'
                if typ != want_t:
                    bad.append('%s.%s %s, not %s' % (ev, f, typ, want_t))
        bad += ['%s: legacy' % ev for ev in sorted(m.legacy_generic)
                if len(signs.get(ev, {})) < DESCRIBED_MAX_FIELDS]
        for b in bad[:5]:
            print('# generic: %s' % b)
        if m.legacy_generic:
            print('# legacy generic events: %s' %
                  ', '.join(sorted(m.legacy_generic)))
        ck.check(not bad, 'packets: the generic events described as '
                 'Perfetto\'s recorder describes them (%d names: %s), '
                 'each field typed as its format signs it (%d disagree, '
                 'legacy ones included)'
                 % (len(m.described_types),
                    ', '.join(sorted(m.described_types)[:4]) +
                    (', ...' if len(m.described_types) > 4 else ''),
                    len(bad)))
    return ck.failed


# map-table-rows' kinds (map-ftrace.c's): how the model reads each
ROW_KIND_HOW = {'int': (1, 2), 'uint': (0,), 'string': ('s',),
                'kstr': ('s',), 'sym': ('sym',), 'uints': ('list',)}


def table_check(rows, mapping):
    """The model against the converter's rows as compiled (@rows,
    map-table-rows' lines) and the table against MAPPING.md's text
    (@mapping): every event the C rows write is one the model reads by
    the same numbers, names and kinds, and no other; the model's own
    notes name the table's events and fields; MAPPING.md names every
    event of the table."""
    ck = Checker()
    seen, bad = set(), []
    for ln in rows:
        w = ln.split()
        if not w:
            continue
        event, number = w[0].split(':')[1], int(w[1])
        seen.add(event)
        kind, fields = PKT_MSGS.get(number, (None, {}))
        if EV_NAMES.get(number) != event or kind != event or \
                EV.get(event) != number:
            bad.append('%s is %s in the model' % (w[0], kind))
            continue
        written = {}
        for fd in w[2:]:
            name, rest = fd.split('=')
            n, k = rest.split(':')
            written[int(n)] = (name, k)
        if set(written) != set(fields):
            bad.append('%s writes fields %s, the model reads %s' % (
                w[0], sorted(written), sorted(fields)))
        for n, (name, k) in written.items():
            if n in fields and (fields[n][0] != name or
                                fields[n][1] not in ROW_KIND_HOW[k]):
                bad.append('%s field %d: %s %s, the model reads %s' % (
                    w[0], n, name, k, fields[n]))
    for e in bad[:5]:
        print('# %s' % e)
    ck.check(seen and not bad and seen == set(TABLE),
             'model: the %d events the C rows write into the packets, '
             'each read by the same numbers, names and kinds (%d '
             'disagree, %d of the table not written, %d written not in '
             'the table)' % (len(seen), len(bad), len(set(TABLE) - seen),
                             len(seen - set(TABLE))))
    odd = ['%s:%s' % (ev, f) for ev, fs in PKT_UNCOMPARED.items()
           for f in fs if f not in PKT_TYPES.get(ev, {})]
    odd += [ev for ev in PKT_FIELDS if ev in TABLE]
    odd += ['%d' % n for n in KernelEvents.RULES if n not in EV_NAMES]
    ck.check(not odd, 'model: its notes on the table\'s events (fields '
             '-R cannot compare, report fields, rules) name the table\'s '
             'events and fields (but %s)' % (odd or 'none'))
    # "irq_handler_entry/exit" names irq_handler_exit too
    named = set(re.findall(r'\w+', mapping))
    for m in re.finditer(r'\b(\w+)_\w+((?:/\w+)+)', mapping):
        named.update(m.group(1) + '_' + alt
                     for alt in m.group(2).split('/')[1:])
    missing = sorted(set(TABLE) - named)
    ck.check(not missing, 'MAPPING.md names each of the table\'s %d '
             'events (but %s)' % (len(TABLE), missing or 'none'))
    return ck.failed


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'truth':
        m = Model()
        m.run(open(sys.argv[2], 'rb').read())
        return truth(m, sys.argv[3])
    if len(sys.argv) in (3, 4) and sys.argv[1] == 'compare-packets':
        m = Model()
        m.tokenize(open(sys.argv[2], 'rb').read())
        fmts = open(sys.argv[3]).read() if len(sys.argv) == 4 else None
        devs = dev_fields(fmts) if fmts else set()
        return compare_packets(m, sys.stdin, devs,
                               format_signs(fmts) if fmts else None)
    if len(sys.argv) == 3 and sys.argv[1] == 'packet-counts':
        m = Model()
        m.tokenize(open(sys.argv[2], 'rb').read())
        n = {}
        for e in packet_events(m):
            n[e[0]] = n.get(e[0], 0) + 1
        for k, v in sorted(n.items()):
            print('%s %d' % (k, v))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == 'table-check':
        return table_check(open(sys.argv[2]), open(sys.argv[3]).read())
    if len(sys.argv) == 3 and sys.argv[1] == 'count':
        print(sum(1 for e in distinct_events(sys.stdin)
                  if re.fullmatch(sys.argv[2], e[1])))
        return 0
    if len(sys.argv) >= 2 and sys.argv[1] == 'expect':
        args, uname, opts = sys.argv[2:], None, ''
        if '--options' in args:
            k = args.index('--options')
            opts = open(args[k + 1]).read()
            del args[k:k + 2]
            m = re.search(r'\[Option UNAME[^\n]*\n([^\n]*)', opts)
            uname = m.group(1) if m else None
        json.dump(expect(sys.stdin, args[0] if args else None, uname,
                         cpustats(opts)), sys.stdout)
        return 0
    if len(sys.argv) < 3 or sys.argv[1] not in ('tables', 'check'):
        sys.exit(__doc__)
    m = Model()
    m.run(open(sys.argv[2], 'rb').read())
    if sys.argv[1] == 'tables':
        tables(m)
        return 0
    exp = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else {}
    return check(m, exp)


if __name__ == '__main__':
    sys.exit(main())
