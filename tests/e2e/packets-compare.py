#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare `trace-cmd report -R -t` of a trace.dat (SOURCE) with that of
the .dat `trace-fxt convert --packets` rebuilds from the Perfetto packets
of the same trace.dat's conversion (PACKETS): what Perfetto reads of each
kernel event against what the recording holds.

Both come from one recording, so each CPU's events are the same events at
the same nanosecond: they are paired in order by CPU, time and name.  The
packets may hold switches the converter inferred (a CPU's first run, a
lost switch: MAPPING.md), sched_switch events the source lacks; any other
event on one side only is a difference.  Each pair's task (comm-pid) and
every field printed must be equal, but those named with --allow
EVENT:FIELD (what the packets do not keep; EVENT:task for the task
column).

--as EVENT=OTHER pairs EVENT of the source with OTHER in the packets too
(the converter writes sched_wakeup_new as Perfetto's sched_waking where
Perfetto would not start the task otherwise: MAPPING.md).  --top-only
leaves the source's instances out: the packets hold the top buffer.

Prints what it checked: events per name on each side, inferred switches,
the fields that differ per event and how often; exits 1 on a difference
that is not allowed, or when an allowed one never occurs (the list is
kept exact).

usage: packets-compare.py [--allow EVENT:FIELD ...] SOURCE PACKETS
"""
import argparse
import collections
import re
import sys

LINE = re.compile(r'^(?:(?P<buf>[^\s:]+): )?\s*(?P<comm>.*)-(?P<pid>\d+)\s+'
                  r'\[(?P<cpu>\d+)\]\s*(?P<ts>[0-9.]+): (?P<event>\S+):\s*'
                  r'(?P<rest>.*)$')
# how far ahead in the packets an event of the source is looked for
WINDOW = 256
FIELD = re.compile(r'(?:^| )(?=[A-Za-z_][A-Za-z0-9_]*=)')


def ns(ts):
    """report -t prints seconds.nanoseconds, or nanoseconds alone."""
    if '.' in ts:
        sec, frac = ts.split('.')
        return int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
    return int(ts)


def parse(path):
    cpus = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for ln in f:
            m = LINE.match(ln.rstrip('\n'))
            if m:
                cpus[(m.group('buf') or '', int(m.group('cpu')))].append(
                    (ns(m.group('ts')), m.group('event'),
                     '%s-%s' % (m.group('comm').strip(), m.group('pid')),
                     m.group('rest').strip()))
    return cpus


def fields(rest):
    out = {}
    for part in FIELD.split(rest):
        if '=' in part:
            k, v = part.split('=', 1)
            out[k] = v.strip()
    return out


def where(key):
    return ('%s cpu %d' % key) if key[0] else ('cpu %d' % key[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--allow', action='append', default=[])
    ap.add_argument('--as', action='append', default=[], dest='renamed',
                    metavar='EVENT=PACKET_EVENT')
    ap.add_argument('--top-only', action='store_true')
    ap.add_argument('source')
    ap.add_argument('packets')
    a = ap.parse_args()
    src, pkt = parse(a.source), parse(a.packets)
    renamed = dict(r.split('=', 1) for r in a.renamed)
    if a.top_only:
        other = [k for k in src if k[0]]
        print('instances left out (the packets hold the top buffer): %s' %
              (', '.join('%s cpu %d x%d' % (k[0], k[1], len(src[k]))
                         for k in sorted(other)) or 'none'))
        for k in other:
            del src[k]
    names = collections.Counter()
    inferred = collections.Counter()
    alone = collections.Counter()
    differ = collections.Counter()
    comms = collections.Counter()
    as_other = collections.Counter()
    pairs = 0

    def extra(cpu, q):
        if q[1] == 'sched_switch':
            inferred[cpu] += 1
        else:
            alone['%s %s only in the packets' % (where(cpu), q[1])] += 1
    for cpu in sorted(set(src) | set(pkt)):
        s, p = src.get(cpu, []), pkt.get(cpu, [])
        for ev in s:
            names[(ev[1], 0)] += 1
        for q in p:
            names[(q[1], 1)] += 1
        j = 0
        for ev in s:
            # the same event: the next one of its time and name
            k = j
            want = {(ev[0], ev[1]), (ev[0], renamed.get(ev[1], ev[1]))}
            while k < len(p) and k < j + WINDOW and p[k][0] <= ev[0] and \
                    (p[k][0], p[k][1]) not in want:
                k += 1
            if k >= len(p) or (p[k][0], p[k][1]) not in want:
                alone['%s %s only in the source' % (where(cpu), ev[1])] += 1
                continue
            # of several at that time, the one equal to it if any (an
            # inferred switch may share a switch's nanosecond)
            m = k
            while m < len(p) and p[m][0] == ev[0]:
                if (p[m][0], p[m][1]) in want and p[m][3] == ev[3]:
                    k = m
                    break
                m += 1
            for q in p[j:k]:
                extra(cpu, q)
            q = p[k]
            j = k + 1
            pairs += 1
            if q[1] != ev[1]:
                as_other[(ev[1], q[1])] += 1
            if ev[2].rsplit('-', 1)[1] != q[2].rsplit('-', 1)[1]:
                differ['%s:common_pid' % ev[1]] += 1
            elif ev[2] != q[2]:
                comms[ev[1]] += 1
            fs, fp = fields(ev[3]), fields(q[3])
            if not fs and not fp and ev[3] != q[3]:
                differ['%s:(text)' % ev[1]] += 1
            for f in sorted(set(fs) | set(fp)):
                if fs.get(f) != fp.get(f):
                    differ['%s:%s' % (ev[1], f)] += 1
        for q in p[j:]:
            extra(cpu, q)
    print('events per name (source / packets):')
    for n in sorted({k[0] for k in names}):
        print('  %-28s %8d %8d' % (n, names[(n, 0)], names[(n, 1)]))
    print('pairs compared: %d; switches only in the packets (inferred): %s'
          % (pairs, ', '.join('%s x%d' % (where(k), v)
                              for k, v in sorted(inferred.items())) or 'none'))
    bad = False
    if comms:
        # the .dat's saved cmdlines against the packets' names
        print('  the task column names another comm (cmdlines): %s'
              % ', '.join('%s x%d' % kv for kv in sorted(comms.items())))
    for (e, o), v in sorted(as_other.items()):
        print('  %s in the packets as %s x%d' % (e, o, v))
    for k, v in sorted(alone.items()):
        print('  NOT PAIRED: %s x%d' % (k, v))
        bad = True
    allowed = set(a.allow)
    for k, v in sorted(differ.items()):
        ok = k in allowed
        print('  differs: %s x%d%s' % (k, v, ' (allowed)' if ok else
                                        ' NOT ALLOWED'))
        bad |= not ok
    for k in sorted(allowed - set(differ)):
        print('  allowed but never differs: %s' % k)
        bad = True
    print('FAIL' if bad else 'ok')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
