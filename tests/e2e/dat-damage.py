#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Damaged trace.dat recordings, and what must survive them.

  dat-damage.py make IN.dat OUT.dat KIND SEED
      OUT.dat is IN.dat damaged in its CPU data at places SEED chooses,
      as KIND says; OUT.dat.survivors lists, for each buffer and CPU, the
      events of the pages (uncompressed) or zstd chunks the damage left
      untouched, as runs of indices among that CPU's events in file order.
  dat-damage.py check ORIG.txt OUT.txt OUT.dat.survivors [TC.txt]
      ORIG.txt and OUT.txt are `trace-fxt report` of IN and of OUT's
      conversion.  Every line of ORIG.txt the survivors name must be in
      OUT.txt (the k-th event line of a buffer's CPU in the report is its
      k-th event in the pages: the report keeps each CPU's order).  Prints
      "survivors N/M events E" and, given TC.txt (`trace-cmd report` of
      OUT), "trace-cmd T real R": its event lines, and how many of them are
      lines of ORIG.txt (the events it read right).  Exit 1 when a
      survivor is missing.

KINDs: flip (1 to 5 flipped bits anywhere in the CPU data), zero (a run
of 16 to 600 zero bytes), evlen (an event's length or type word made
bogus: uncompressed data), commit (a page's commit word made bogus:
uncompressed data), chunk-short (a zstd chunk's compressed size made
smaller, so that the next header is read inside its data), chunk-flip
(1 to 3 flipped bits inside one zstd chunk), cut (the file cut short
inside a CPU's data: what follows is lost, the events of a page the cut
goes through that lie wholly before it survive).

The layout comes from `trace-cmd dump --flyrecord` (not from the code under
test), the zstd chunks are inflated with libzstd (ctypes), the pages walked
as the kernel's header_page and header_event describe them.
"""
import collections
import ctypes
import ctypes.util
import json
import random
import re
import struct
import subprocess
import sys

DAT_COMMIT_MASK = (1 << 27) - 1


class Dat:
    """The CPU data of a .dat: per buffer and CPU, its units (pages or
    zstd chunks), each with its byte range and its number of events."""

    def __init__(self, path):
        self.b = open(path, 'rb').read()
        self.big = self.b[12] == 1
        self.long_size = self.b[13]
        self.e = '>' if self.big else '<'
        self.cpus = []          # (buffer, cpu, page_size, off, size, zstd)
        self._layout(path)
        self._zstd = None
        self.units = {}         # (buffer, cpu) -> [(start, end, events)]
        for buf, cpu, ps, off, size, z in self.cpus:
            self.units[(buf, cpu)] = (self._chunks(off, size, ps) if z else
                                      self._pages(self.b, off, size, ps,
                                                  off))

    def _layout(self, path):
        out = subprocess.run(['trace-cmd', 'dump', '--flyrecord', '-i', path],
                             capture_output=True, text=True).stdout
        ps = struct.unpack_from(self.e + 'I', self.b, 14)[0]
        buf, z = '', False
        for line in out.splitlines():
            m = re.search(r'"buffer flyrecord ?(.*)", flags (0x[0-9a-f]+)',
                          line)
            if m:
                buf, z = m.group(1), int(m.group(2), 16) & 1
                continue
            m = re.match(r'\s*(\d+)\s+\[Page size', line)
            if m:
                ps = int(m.group(1))
                continue
            m = re.match(r'\s*(\d+)\s+(\d+)\s+(\d+)\s+\[id, data offset', line)
            if m:
                self.cpus.append((buf, int(m.group(1)), ps, int(m.group(2)),
                                  int(m.group(3)), z))
                continue
            m = re.match(r'\s*(\d+)\s+(\d+)\s+\[offset, size of cpu (\d+)\]',
                         line)
            if m:
                self.cpus.append(('', int(m.group(3)), ps, int(m.group(1)),
                                  int(m.group(2)), False))

    def num(self, b, at, n):
        return int.from_bytes(b[at:at + n], 'big' if self.big else 'little')

    def _events(self, pg, ps, upto=None):
        """The data events of one page, as kbuffer counts them; with
        @upto, those that end at or before byte @upto of the page."""
        start = 8 + self.long_size
        size = self.num(pg, 8, self.long_size) & DAT_COMMIT_MASK
        size = min(size, ps - start)
        d, curr, n = pg[start:], 0, 0
        while curr + 4 <= size:
            v = self.num(d, curr, 4)
            t = v >> 27 if self.big else v & 0x1f
            if t == 29:
                curr += 4 + self.num(d, curr + 4, 4)
                continue
            if t in (30, 31):
                curr += 8
                continue
            if t == 0:
                ln = (self.num(d, curr + 4, 4) - 4 + 3) & ~3
                curr += 8 + ln
            else:
                curr += 4 + 4 * t
            if upto is not None and start + curr > upto:
                break
            n += 1
        return n

    def _pages(self, b, off, size, ps, file_at):
        return [(file_at + p, file_at + p + ps,
                 self._events(b[off + p:off + p + ps], ps))
                for p in range(0, size - size % ps, ps)]

    def inflate(self, z, usize):
        if not self._zstd:
            self._zstd = ctypes.CDLL(ctypes.util.find_library('zstd') or
                                     'libzstd.so.1')
            self._zstd.ZSTD_decompress.restype = ctypes.c_size_t
            self._zstd.ZSTD_decompress.argtypes = [
                ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                ctypes.c_size_t]
        out = ctypes.create_string_buffer(usize)
        n = self._zstd.ZSTD_decompress(out, usize, z, len(z))
        if n != usize:
            raise ValueError('chunk does not inflate')
        return out.raw

    def _chunks(self, off, size, ps):
        """A zstd CPU's chunks: header to data end, events of its pages."""
        units, pos = [], off + 4
        for _ in range(self.num(self.b, off, 4)):
            cs, us = self.num(self.b, pos, 4), self.num(self.b, pos + 4, 4)
            pages = self.inflate(self.b[pos + 8:pos + 8 + cs], us)
            n = sum(e for _, _, e in self._pages(pages, 0, us, ps, 0))
            units.append((pos, pos + 8 + cs, n))
            pos += 8 + cs
        return units


def damage(dat, kind, seed):
    """The damaged bytes, and the (start, end) ranges they touch."""
    rnd = random.Random(seed)
    b = bytearray(dat.b)
    cpus = [c for c in dat.cpus if c[4]]
    plain = [c for c in cpus if not c[5]]
    zstd = [c for c in cpus if c[5]]
    touched = []

    def unit(kinds):
        buf, cpu, ps, off, size, z = rnd.choice(kinds)
        return rnd.choice(dat.units[(buf, cpu)])

    if kind == 'flip':
        for _ in range(rnd.randint(1, 5)):
            buf, cpu, ps, off, size, z = rnd.choice(cpus)
            at = rnd.randrange(off, off + size)
            b[at] ^= 1 << rnd.randrange(8)
            touched.append((at, at + 1))
    elif kind == 'zero':
        buf, cpu, ps, off, size, z = rnd.choice(cpus)
        n = min(rnd.randint(16, 600), size)
        at = rnd.randrange(off, off + size - n + 1)
        b[at:at + n] = bytes(n)
        touched.append((at, at + n))
    elif kind in ('evlen', 'commit'):
        if not plain:
            raise SystemExit('dat-damage: %s needs uncompressed data' % kind)
        start, end, n = unit(plain)
        hdr = 8 + dat.long_size
        if kind == 'commit':
            v = rnd.choice([end - start, end - start - hdr + 4, 1 << 26,
                            0x7ffffff, rnd.randrange(1 << 27)])
            b[start + 8:start + 8 + dat.long_size] = v.to_bytes(
                dat.long_size, 'big' if dat.big else 'little')
            touched.append((start, end))
        else:
            # the header word of an event of the page: a bogus type/length
            ev, curr, pick = [], 0, None
            size = dat.num(b, start + 8, dat.long_size) & DAT_COMMIT_MASK
            d = start + hdr
            while curr + 8 <= size:
                v = dat.num(b, d + curr, 4)
                t = v >> 27 if dat.big else v & 0x1f
                ev.append(curr)
                curr += (8 + ((dat.num(b, d + curr + 4, 4) - 4 + 3) & ~3)
                         if t == 0 else 8 if t >= 29 else 4 + 4 * t)
            pick = rnd.choice(ev) if ev else 0
            bogus = rnd.choice([4000, 0, 1, 0xffffffff, rnd.randrange(1 << 16)])
            b[d + pick:d + pick + 8] = (struct.pack(dat.e + 'II', 0, bogus)
                                        if rnd.randrange(2) else
                                        struct.pack(dat.e + 'II',
                                                    rnd.randrange(1, 29), bogus))
            touched.append((start, end))
    elif kind == 'cut':
        buf, cpu, ps, off, size, z = rnd.choice(cpus)
        at = rnd.randrange(off + 1, off + size)
        del b[at:]
        touched.append((at, len(dat.b)))
    elif kind in ('chunk-short', 'chunk-flip'):
        if not zstd:
            raise SystemExit('dat-damage: %s needs zstd data' % kind)
        start, end, n = unit(zstd)
        if kind == 'chunk-short':
            cs = dat.num(b, start, 4)
            cs -= rnd.randint(1, max(1, cs // 2))
            b[start:start + 4] = cs.to_bytes(4, 'big' if dat.big else 'little')
        else:
            for _ in range(rnd.randint(1, 3)):
                at = rnd.randrange(start + 8, end)
                b[at] ^= 1 << rnd.randrange(8)
        touched.append((start, end))
    else:
        raise SystemExit('dat-damage: unknown kind %s' % kind)
    return b, touched


def survivors(dat, touched, cut=None):
    """Per "buffer/cpu": runs [first, count] of untouched units' events;
    of a file @cut short, also the first events of the uncompressed page
    the cut goes through that lie wholly before it."""
    out = {}
    for (buf, cpu), units in dat.units.items():
        runs, k = [], 0
        zstd = [c[5] for c in dat.cpus if c[:2] == (buf, cpu)][0]
        for start, end, n in units:
            keep = n
            if any(s < end and e > start for s, e in touched):
                keep = 0
                if cut is not None and not zstd and start < cut < end:
                    keep = dat._events(dat.b[start:end], end - start,
                                       cut - start)
            if keep:
                if runs and runs[-1][0] + runs[-1][1] == k:
                    runs[-1][1] += keep
                else:
                    runs.append([k, keep])
            k += n
        out['%s/%d' % (buf, cpu)] = runs
    return out


LINE = re.compile(r'^(?:(\S+): )?\s*(.*?\[(\d{3,})\]\s+\d+\.\d+: .*)')
DROPPED = re.compile(r'^(?:(\S+): )?CPU:\d+ \[.*EVENTS DROPPED\]')


def report_lines(path):
    """Each buffer's CPU's event lines in order, by "buffer/cpu", without
    the buffer's name and the padding before the task: the line after a
    "CPU:N [EVENTS DROPPED]" line has neither (as trace-cmd prints it),
    its buffer is the dropped line's."""
    lines = collections.defaultdict(list)
    after = None
    for line in open(path, errors='replace'):
        m = DROPPED.match(line)
        if m:
            after = m.group(1) or ''
            continue
        m = LINE.match(line.rstrip('\n'))
        if m:
            buf = m.group(1) or (after if after is not None else '')
            lines['%s/%d' % (buf, int(m.group(3)))].append(m.group(2))
        after = None
    return lines


def real(orig, rep):
    """How many event lines of @rep are lines of @orig (read right)."""
    every = collections.Counter(l for v in orig.values() for l in v)
    n = 0
    for v in rep.values():
        for line in v:
            if every[line] > 0:
                every[line] -= 1
                n += 1
    return n


def check(orig, out, surv, tc=None):
    o, d = report_lines(orig), report_lines(out)
    runs = json.load(open(surv))
    need = have = 0
    missing = []
    for key, rs in runs.items():
        got = collections.Counter(d.get(key, []))
        for first, n in rs:
            for line in o.get(key, [])[first:first + n]:
                need += 1
                if got[line] > 0:
                    got[line] -= 1
                    have += 1
                elif len(missing) < 5:
                    missing.append(line)
    print('survivors %d/%d events %d real %d' % (have, need,
                                                 sum(len(v) for v in
                                                     d.values()),
                                                 real(o, d)))
    for line in missing:
        print('# missing: %s' % line)
    if tc:
        t = report_lines(tc)
        print('trace-cmd %d real %d' % (sum(len(v) for v in t.values()),
                                        real(o, t)))
    return 0 if have == need else 1


def main(argv):
    if len(argv) == 5 and argv[0] == 'make':
        dat = Dat(argv[1])
        b, touched = damage(dat, argv[3], int(argv[4]))
        open(argv[2], 'wb').write(b)
        json.dump(survivors(dat, touched,
                            len(b) if argv[3] == 'cut' else None),
                  open(argv[2] + '.survivors', 'w'))
        return 0
    if len(argv) in (4, 5) and argv[0] == 'check':
        return check(*argv[1:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
