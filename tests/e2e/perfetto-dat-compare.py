#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare `trace-cmd report` of a .dat recorded by tracefs (TWIN) with
`trace-cmd report` of the .dat trace-fxt converted from the Perfetto
recording made at the same time (CONVERTED).

The two recorders are two ring buffers the kernel writes each event into
one after the other, so the timestamps differ by a little (the second
buffer's later, by a microsecond or a few: --late bounds it) and
Perfetto's window is wider: only events inside the twin's window on each
CPU (from its first event to its last, as found on the converted side)
are compared.  On each CPU the two sequences of event names are aligned
(difflib); the events per name must be equal (an event cut at a
window's edge aside), and each
aligned pair's printed task, pid and fields equal, but the fields named
with --unkept EVENT:FIELD (those Perfetto's recorder does not keep).
Prints what it checked: events per name on each side, fields that
differ per event and how often; exits 1 on a difference that is not
allowed.

--summary FILE reads the allowed fields from trace-fxt convert's own
summary (its stderr): the kernel fields the recording does not keep, and
the kernel pointers it keeps as an index; an event with one of those
may differ in its whole text too (a print format that does not name its
fields).  --tolerate EVENT:FIELD=N allows N differences of that field:
compact sched's implicit previous task (prev_comm, prev_prio, the
task's comm-pid of its switch) is wrong when a switch is missing from
the recording or a running task changed its priority.

usage: perfetto-dat-compare.py [--unkept EVENT:FIELD ...] [--summary FILE]
                               [--tolerate EVENT:FIELD=N ...]
                               [--edge-slack N]
                               TWIN-REPORT CONVERTED-REPORT
"""
import argparse
import collections
import difflib
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*'
                  r'(?P<ts>[0-9.]+): (?P<event>\S+):\s*(?P<rest>.*)$')
FIELD = re.compile(r'(?:^| )(?=[A-Za-z_][A-Za-z0-9_]*=)')


def parse(path):
    evs = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for ln in f:
            m = LINE.match(ln.rstrip('\n'))
            if not m:
                continue
            ts = m.group('ts')
            ts = int(ts.replace('.', '')) * (1000 if '.' in ts else 1) \
                if '.' in ts and len(ts.split('.')[1]) == 6 else \
                int(ts.replace('.', ''))
            evs[int(m.group('cpu'))].append(
                (ts, m.group('event'), m.group('comm').strip(),
                 int(m.group('pid')), m.group('rest').strip()))
    return evs


NAMED = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*=')


def fields(rest):
    """name=value fields; a sched_switch's two sides (prev, next) as
    trace-cmd's sched plugin prints them; else the text as one field."""
    if ' ==> ' in rest:
        prev, nxt = rest.split(' ==> ', 1)
        return {'prev': prev, 'next': nxt}
    parts = [p for p in FIELD.split(rest) if p]
    if parts and all(NAMED.match(p) for p in parts):
        return dict(p.split('=', 1) for p in parts)
    return {'*': rest}


def edge(conv, ev, late):
    """The time of @ev in @conv: its first event of the same name at most
    @late ns after it, else @ev's time plus @late."""
    for e in conv:
        if ev[0] <= e[0] <= ev[0] + late and e[1] == ev[1]:
            return e[0]
    return ev[0] + late


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unkept', action='append', default=[])
    ap.add_argument('--summary')
    ap.add_argument('--tolerate', action='append', default=[])
    ap.add_argument('--late', type=int, default=5000,
                    help='ns the converted side may record an event after '
                    'the twin (the window\'s end moves by that)')
    ap.add_argument('--edge-slack', type=int, default=2,
                    help='events per name and CPU that may be missing, '
                    'cut at the window edges')
    ap.add_argument('twin')
    ap.add_argument('converted')
    a = ap.parse_args()
    unkept = set(a.unkept)
    if a.summary:
        with open(a.summary) as f:
            for ln in f:
                if 'does not keep' not in ln and 'as an index' not in ln \
                        and 'as a symbol only' not in ln:
                    continue
                for part in ln.split('): ', 1)[1].strip().split('; '):
                    ev, flds = part.split(':', 1)
                    unkept.add(ev + ':*')
                    for fl in flds.split():
                        unkept.add(ev + ':' + fl)
    tolerate = {}
    for t in a.tolerate:
        k, n = t.rsplit('=', 1)
        tolerate[k] = int(n)
    A, B = parse(a.twin), parse(a.converted)
    if not A or not B:
        print('FAIL: a report without an event line')
        return 1
    names_a, names_b = collections.Counter(), collections.Counter()
    diff = collections.Counter()
    allowed = collections.Counter()
    pairs = 0
    only = collections.Counter()
    for cpu in sorted(A):
        ea = A[cpu]
        # the converted side records each event a little later (its
        # buffer is written second): by a microsecond or a few; each
        # end is the twin's first or last event found there
        conv = B.get(cpu, [])
        lo, hi = edge(conv, ea[0], a.late), edge(conv, ea[-1], a.late)
        eb = [e for e in conv if lo <= e[0] <= hi]
        sa = [e[1] for e in ea]
        sb = [e[1] for e in eb]
        for e in ea:
            names_a[e[1]] += 1
        for e in eb:
            names_b[e[1]] += 1
        sm = difflib.SequenceMatcher(None, sa, sb, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag != 'equal':
                for e in ea[i1:i2]:
                    only['twin', cpu, e[1], i1 < 3 or i2 > len(ea) - 3] += 1
                for e in eb[j1:j2]:
                    only['converted', cpu, e[1],
                         j1 < 3 or j2 > len(eb) - 3] += 1
                continue
            for x, y in zip(ea[i1:i2], eb[j1:j2]):
                pairs += 1
                ev = x[1]
                if (x[2], x[3]) != (y[2], y[3]):
                    key = (ev, 'task')
                    (allowed if ev + ':task' in unkept else diff)[key] += 1
                fa, fb = fields(x[4]), fields(y[4])
                for k in sorted(set(fa) | set(fb)):
                    if fa.get(k) != fb.get(k):
                        key = (ev, k)
                        if ev + ':' + k in unkept:
                            allowed[key] += 1
                        else:
                            diff[key] += 1
    bad = 0
    print('events per name in the twin\'s window (twin / converted):')
    for n in sorted(set(names_a) | set(names_b)):
        d = abs(names_a[n] - names_b[n])
        ok = d <= a.edge_slack * len(A)
        bad += not ok
        print('  %-28s %7d %7d %s' % (n, names_a[n], names_b[n],
                                       'ok' if not d else
                                       ('ok (edge)' if ok else 'DIFFER')))
    print('aligned pairs compared: %d' % pairs)
    unaligned = sum(v for k, v in only.items() if not k[3])
    print('events not aligned: %d at the window edges, %d inside' %
          (sum(v for k, v in only.items() if k[3]), unaligned))
    for k, v in sorted(only.items()):
        if not k[3]:
            print('  only in the %s: cpu %d %s x%d' % (k[0], k[1], k[2], v))
    if allowed:
        print('fields that differ, not kept by Perfetto\'s recorder '
              '(allowed):')
        for (ev, k), v in sorted(allowed.items()):
            print('  %s:%s x%d' % (ev, k, v))
    tolerated = {k: v for k, v in diff.items()
                 if v <= tolerate.get('%s:%s' % k, -1)}
    for k in tolerated:
        del diff[k]
    if tolerated:
        print('fields that differ, within the tolerance:')
        for (ev, k), v in sorted(tolerated.items()):
            print('  %s:%s x%d (at most %d)' % (ev, k, v,
                                               tolerate['%s:%s' % (ev, k)]))
    if diff:
        print('fields that differ (NOT allowed):')
        for (ev, k), v in sorted(diff.items()):
            print('  %s:%s x%d' % (ev, k, v))
    if pairs == 0 or diff or bad or unaligned > pairs // 1000 + 2:
        print('FAIL')
        return 1
    print('OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
