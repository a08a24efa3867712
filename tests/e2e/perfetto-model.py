#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A model of what Perfetto's trace processor makes of an FXT file.

  perfetto-model.py tables FILE.fxt        print the tables, one row a line
  perfetto-model.py check FILE.fxt [EXPECT.json]
                                           assert the viewer invariants
  perfetto-model.py expect [TGIDS] < REPORT  EXPECT.json from what
                                           `trace-cmd report -R` prints
  perfetto-model.py count REGEX < REPORT   events named REGEX in it, one
                                           event in two buffers once

Written from Perfetto's source (google/perfetto,
src/trace_processor/importers/fuchsia/ and the trackers it calls); each
rule below names the file and function it models.  Only what decides the
tables a person sees is modelled: the sched and thread_state tables, the
thread and process tables, slices on thread tracks, counter tracks with
their process, async tracks.  Not modelled: the args tables, flows, the
reserved utid/upid 0 rows (ProcessTracker's constructor), stats.

The tokenizer (fuchsia_trace_tokenizer.cc, ParseRecord) reads records in
file order and applies kernel objects at once; events and scheduling
records go through the sorter and are parsed in timestamp order
(fuchsia_trace_parser.cc, Parse).  The model sorts the whole file, as
the sorter does when it holds it all (a file read in one go).

check asserts, printing each count it checked:
 - sched: per CPU at most one row left open, and it is the CPU's last;
   no two rows of a CPU overlap;
 - thread_state: rows of one thread do not overlap;
 - threads: one thread per tid, every thread named and in a process
   whose pid is its tgid when EXPECT says one ({"tgid": {tid: tgid}}),
   every process named;
 - zombies: as many "Z" thread states as EXPECT's "zombies", "X" as
   EXPECT's "dead";
 - counters: no series of a CPU number ("...:cpu:..."), per-task
   counters (EXPECT "task_counters": name prefixes) not under pid 0;
 - async: every begin ended (the tracks' slices all closed);
 - no slice of the converter's metadata category (EXPECT
   "meta_category", but the names in "meta_shown") on the track of a
   thread a Linux tid can name (below PID_MAX_LIMIT, 2^22), and no
   argument named in EXPECT "bookkeeping_args" on any slice but those of
   the categories in "bookkeeping_kept".
"""
import json
import re
import struct
import sys

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


class Model:
    def __init__(self):
        # process_tracker.cc state
        self.threads = []        # utid -> dict(tid, upid, name)
        self.procs = []          # upid -> dict(pid, name)
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
        self.async_slices = {}   # (root name, id) -> [slice]
        self.unmatched_ends = 0
        self.events = []

    # process_tracker.cc: StartNewThread
    def new_thread(self, tid):
        utid = len(self.threads)
        self.threads.append({'tid': tid, 'upid': None, 'name': None})
        self.tids.setdefault(tid, []).append(utid)
        self.live[tid] = utid
        return utid

    # process_tracker.cc: GetOrCreateProcessInternal (main thread too)
    def get_process(self, pid):
        if pid in self.pids:
            return self.pids[pid]
        upid = len(self.procs)
        self.procs.append({'pid': pid, 'name': None})
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

    # fuchsia_trace_parser.cc: Wake
    def wake(self, th, tid, ts, cpu):
        utid = self.update_thread(tid, th['pid'])
        if th['state'] is not None:
            th['state']['dur'] = ts - th['last_ts']
        th['last_ts'] = ts
        st = {'ts': ts, 'cpu': cpu, 'dur': -1, 'utid': utid, 'state': 'W'}
        self.states.append(st)
        th['state'] = st

    # slice_tracker.cc: Begin / End / Scoped.  End without a name closes
    # the innermost open slice; with one, the innermost of that name
    # (MatchingIncompleteSliceIndex), else it is dropped.
    def begin(self, track, ts, cat, name, args, store):
        s = {'ts': ts, 'dur': -1, 'cat': cat, 'name': name, 'args': args}
        store.setdefault(track, []).append(s)
        self.stacks.setdefault(track, []).append(s)

    def end(self, track, ts, name=None):
        st = self.stacks.get(track, [])
        for k in range(len(st) - 1, -1, -1):
            if name is None or st[k]['name'] == name:
                st[k]['dur'] = ts - st[k]['ts']
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
            elif typ in (4, 8):
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
        self.events.sort(key=lambda e: (e[0], e[1]))
        for ts, _, typ, h, rec, prov, strings, threads in self.events:
            p = Provider()
            p.strings, p.threads, p.tps = strings, threads, prov.tps
            if typ == 4:
                self.parse_event(ts, h, Cursor(rec), p)
            else:
                self.parse_sched(ts, h, Cursor(rec), p)
        self.events = []

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
            # scope: the track set is keyed by the first name an id had
            cid = c.i64()
            self.get_process(pid)
            root = self.async_root.setdefault(cid, name)
            track = ('async', root, cid)
            if et == 5:
                self.begin(track, ts, cat, name, args, self.async_slices)
            elif et == 6:
                self.begin(track, ts, cat, name, args, self.async_slices)
                self.stacks[track].pop()['dur'] = 0
            else:
                self.end(track, ts, name)

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
            if 'waker' in w:
                self.get_thread(w['waker'] & 0xffffffff)
            if w.get('weight', 0) != IDLE_WEIGHT:
                self.wake(self.pthread(tid), tid, ts, cpu)
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
    for r in m.sched:
        print('sched ts=%d cpu=%d dur=%d tid=%d end_state=%s prio=%d' % (
            r['ts'], r['cpu'], r['dur'], m.threads[r['utid']]['tid'],
            r['end_state'], r['prio']))
    for r in m.states:
        print('thread_state ts=%d cpu=%d dur=%d tid=%d state=%s' % (
            r['ts'], r['cpu'], r['dur'], m.threads[r['utid']]['tid'],
            r['state']))
    for i, p in enumerate(m.procs):
        print('process upid=%d pid=%d name=%s' % (i, p['pid'], p['name']))
    for i, t in enumerate(m.threads):
        print('thread utid=%d tid=%d upid=%s name=%s' % (
            i, t['tid'], t['upid'], t['name']))
    for (_, utid), sl in sorted(m.slices.items()):
        for s in sl:
            print('slice tid=%d ts=%d dur=%d %s:%s %s' % (
                m.threads[utid]['tid'], s['ts'], s['dur'], s['cat'],
                s['name'], ' '.join('%s=%s' % (a[0], a[2])
                                    for a in s['args'])))
    for (upid, name), vals in sorted(m.counters.items()):
        print('counter pid=%d %s n=%d first=%s' % (
            m.procs[upid]['pid'], name, len(vals), vals[0][1]))
    for (_, root, cid), sl in sorted(m.async_slices.items(),
                                     key=lambda kv: str(kv[0])):
        for s in sl:
            print('async %s id=%d ts=%d dur=%d %s' % (
                root, cid, s['ts'], s['dur'], s['name']))


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
    byth = {}
    for r in m.states:
        byth.setdefault(r['utid'], []).append(r)
    sover = 0
    for rows in byth.values():
        for k in range(len(rows) - 1):
            if rows[k]['dur'] < 0 or \
                    rows[k]['ts'] + rows[k]['dur'] > rows[k + 1]['ts']:
                sover += 1
    ck.check(sover == 0, 'thread_state: %d rows, %d overlap the thread\'s '
             'next' % (len(m.states), sover))
    # threads and processes
    used = set(r['utid'] for r in m.sched) | set(r['utid'] for r in m.states)
    used |= set(u for (_, u) in m.slices)
    multi = [t for t, us in m.tids.items() if len(us) > 1]
    ck.check(not multi, 'threads: %d tids, %d with more than one thread %s'
             % (len(m.tids), len(multi), multi[:8]))
    unnamed = sorted(m.threads[u]['tid'] for u in used
                     if not m.threads[u]['name'])
    ck.check(not unnamed, 'threads: %d used, %d unnamed %s'
             % (len(used), len(unnamed), unnamed[:8]))
    upids = set(m.threads[u]['upid'] for u in used)
    noname = sorted(m.procs[p]['pid'] for p in upids
                    if p is not None and not m.procs[p]['name'])
    ck.check(not noname, 'processes: %d with used threads, %d unnamed %s'
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
    return ck.failed


REPORT_LINE = re.compile(r'^\s*(?:([\w.-]+):\s+)?(.*?)-(\d+)\s+\[(\d+)\]'
                         r'\s+([\d.]+):\s+(\w+):\s+(.*)$')
DUP_WINDOW = 100e-6     # map-dispatch.c: MAP_DUP_WINDOW_NS


def distinct_events(lines):
    """(pid, event, fields) of each event of trace-cmd report -R's lines,
    an event two buffers both recorded counted once: the copies are on
    the same CPU, equal but for the time, at most DUP_WINDOW apart, one
    copy matching one other."""
    recent = {}
    for ln in lines:
        m = REPORT_LINE.match(ln)
        if not m:
            continue
        buf, pid, cpu, ts = m.group(1) or '', int(m.group(3)), \
            int(m.group(4)), float(m.group(5))
        key = (pid, m.group(6), m.group(7))
        lst = recent.setdefault(cpu, [])
        lst[:] = [e for e in lst if ts - e[0] <= DUP_WINDOW]
        for e in lst:
            if e[1] == key and e[2] != buf:
                lst.remove(e)
                break
        else:
            lst.append((ts, key, buf))
            yield key


def expect(lines, tgids_file=None):
    """What the source recording says, read from trace-cmd report -R's text
    (the real tool's decoding): tgids from task_newtask's clone_flags,
    sched_process_exec, atrace markers' pid field and a saved_tgids file;
    how many switches left a task zombie (Z) or dead (X).  An event two
    buffers both hold is one event."""
    tg, rank = {}, {}
    zombies = dead = 0

    def setg(pid, tgid, r):
        if rank.get(pid, -1) <= r:
            tg[pid], rank[pid] = tgid, r
    if tgids_file:
        for ln in open(tgids_file):
            if ln.split():
                pid, tgid = map(int, ln.split())
                setg(pid, tgid, 1)
    for pid, ev, rest in distinct_events(lines):
        if ev == 'sched_switch':
            # report -R's number, read by the format's own flags
            # (0x20 "Z", 0x10 "X"; trace-cmd 3.1.6's sched plugin
            # prints 0x20 as X)
            st = re.search(r'prev_state=(\d+)', rest)
            st = int(st.group(1)) & 0xff if st else 0
            if st & 0x20:
                zombies += 1
            elif st & 0x10:
                dead += 1
        elif ev == 'task_newtask':
            f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
            child = int(f['pid'])
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
    return {'tgid': {str(k): v for k, v in tg.items() if k},
            'zombies': zombies, 'dead': dead}


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


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'truth':
        m = Model()
        m.run(open(sys.argv[2], 'rb').read())
        return truth(m, sys.argv[3])
    if len(sys.argv) == 3 and sys.argv[1] == 'count':
        print(sum(1 for e in distinct_events(sys.stdin)
                  if re.fullmatch(sys.argv[2], e[1])))
        return 0
    if len(sys.argv) >= 2 and sys.argv[1] == 'expect':
        json.dump(expect(sys.stdin, sys.argv[2] if len(sys.argv) > 2
                         else None), sys.stdout)
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
