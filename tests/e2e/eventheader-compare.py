#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare plugin_eventheader.so's lines with a reference decoding of the
vectors (LinuxTracepoints' own for its test vectors, the catalogue's
hand-written one for samples/eventheader-vectors'), and KernelShark's info
column with trace-cmd report's.

  eventheader-compare.py vectors VECTORS.dat VECTORS.dat.linux.json REPORT
  eventheader-compare.py kshark REPORT KSHARK
  eventheader-compare.py count VECTORS.dat [tracepoints|apps|names]

vectors: REPORT is what `trace-cmd report` printed, with the plugin, for the
fixture samples/eventheader-dat wrote from VECTORS.dat.  Its records of the
vectors' tracepoints are taken in order and each one's info text is
compared with the reference JSON object of the same vector, rendered in
the plugin's layout (plugins/eh-print.h): the name, then name=value for
every field, then level, keyword and the non-zero meta values.  Scalars
are taken as the bytes the reference wrote, so numbers, floats, hex, times
and UUIDs are compared exactly; a JSON string stands for its text when
that is unambiguous on a line and for itself otherwise, as eh-print.c
decides.  Field tags (";tag=0x..") are not shown by the plugin.

kshark: KSHARK is what tests/e2e/eventheader-kshark-info printed for the
same file as REPORT; every entry's pid, event name and info text must be
those of the report's line at the same place.

count: the number of records of VECTORS.dat, of distinct tracepoints, or
of records samples/eventheader-dat -b puts in the "apps" buffer (every
third); names: the distinct tracepoint names, one a line.

Prints one line per mismatch (at most 10) and "N compared, M differ";
exits 1 if any differ or a count is off.
"""
import re
import struct
import sys

UNSAFE = set(b'"\\=,[]{}')


def read_vectors(path):
    data = open(path, 'rb').read()
    names, pos = [], 0
    while pos < len(data):
        size = struct.unpack_from('<I', data, pos)[0]
        rec = data[pos + 4:pos + size]
        names.append(rec[:rec.index(0)].decode('ascii'))
        pos += size
    return names


def read_reference(path):
    """One JSON object per line, in the order of the vectors."""
    lines = []
    for line in open(path, 'rb').read().split(b'\n'):
        line = line.strip()
        if line.startswith(b'{'):
            lines.append(line[:-1] if line.endswith(b',') else line)
    return lines


class Raw:
    """A JSON text walked without decoding its scalars."""

    def __init__(self, text):
        self.t, self.i = text, 0

    def ws(self):
        while self.i < len(self.t) and self.t[self.i] in b' \t\r\n':
            self.i += 1

    def value(self):
        self.ws()
        c = self.t[self.i:self.i + 1]
        if c == b'{':
            self.i += 1
            members = []
            self.ws()
            if self.t[self.i:self.i + 1] == b'}':
                self.i += 1
                return ('object', members)
            while True:
                self.ws()
                key = self.string()
                self.ws()
                assert self.t[self.i:self.i + 1] == b':'
                self.i += 1
                members.append((key, self.value()))
                self.ws()
                c = self.t[self.i:self.i + 1]
                self.i += 1
                if c == b'}':
                    return ('object', members)
                assert c == b','
        if c == b'[':
            self.i += 1
            items = []
            self.ws()
            if self.t[self.i:self.i + 1] == b']':
                self.i += 1
                return ('array', items)
            while True:
                items.append(self.value())
                self.ws()
                c = self.t[self.i:self.i + 1]
                self.i += 1
                if c == b']':
                    return ('array', items)
                assert c == b','
        if c == b'"':
            return ('string', self.string())
        m = re.compile(rb'[^,\]}\s]+').match(self.t, self.i)
        self.i = m.end()
        return ('scalar', m.group())

    def string(self):
        start = self.i
        assert self.t[self.i:self.i + 1] == b'"'
        self.i += 1
        while self.t[self.i:self.i + 1] != b'"':
            self.i += 2 if self.t[self.i:self.i + 1] == b'\\' else 1
        self.i += 1
        return self.t[start:self.i]


def unescape(token):
    """The bytes a JSON string token stands for (its raw bytes kept)."""
    out, s, i = bytearray(), token[1:-1], 0
    simple = {ord('"'): b'"', ord('\\'): b'\\', ord('/'): b'/',
              ord('b'): b'\b', ord('f'): b'\f', ord('n'): b'\n',
              ord('r'): b'\r', ord('t'): b'\t'}
    while i < len(s):
        if s[i] != ord('\\'):
            out.append(s[i])
            i += 1
        elif s[i + 1] in simple:
            out += simple[s[i + 1]]
            i += 2
        else:
            cp = int(s[i + 2:i + 6], 16)
            i += 6
            if 0xd800 <= cp < 0xdc00 and s[i:i + 2] == b'\\u':
                lo = int(s[i + 2:i + 6], 16)
                if 0xdc00 <= lo < 0xe000:
                    cp = 0x10000 + ((cp - 0xd800) << 10) + lo - 0xdc00
                    i += 6
            out += chr(cp).encode('utf-8', 'surrogatepass')
    return bytes(out)


def text(token):
    """A string token as the plugin writes it."""
    raw = unescape(token)
    if not raw or any(b <= 0x20 or b == 0x7f or b in UNSAFE for b in raw):
        return token
    return raw


def render(value):
    kind, v = value
    if kind == 'scalar':
        return v
    if kind == 'string':
        return text(v)
    if kind == 'array':
        return b'[' + b','.join(render(x) for x in v) + b']'
    return b'{' + b' '.join(member(k, x) for k, x in v) + b'}'


def member(key, value):
    key = re.sub(rb';tag=0x[0-9A-F]+"$', b'"', key)
    return text(key) + b'=' + render(value)


def expected(line):
    kind, members = Raw(line).value()
    assert kind == 'object'
    out, meta = [], {}
    for key, value in members:
        if key == b'"n"':
            out.insert(0, text(value[1]))
        elif key == b'"meta"':
            meta = {k[1:-1]: v[1].strip(b'"') for k, v in value[1]}
        else:
            out.append(member(key, value))
    out.append(b'level=' + meta.get(b'level', b'0'))
    out.append(b'keyword=' + meta.get(b'keyword', b'0x0'))
    for key, shown in ((b'opcode', b'opcode'), (b'id', b'id'),
                       (b'version', b'version'), (b'tag', b'tag'),
                       (b'activity', b'activity'),
                       (b'relatedActivity', b'related')):
        if key in meta:
            out.append(shown + b'=' + meta[key])
    return b' '.join(out)


LINE = re.compile(rb'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+([\d.]+): (\S+):\s+(.*)$')


def report_lines(path):
    """(pid, event name, info) of every event line of a trace-cmd report."""
    out = []
    for line in open(path, 'rb').read().split(b'\n'):
        m = LINE.match(line)
        if m:
            out.append((int(m.group(2)), m.group(5).decode('latin-1'),
                        m.group(6)))
    return out


def compare_kshark(report, kshark):
    want = report_lines(report)
    got = []
    for line in open(kshark, 'rb').read().split(b'\n'):
        if line:
            head, _, info = line.partition(b'\t')
            pid, _, name = head.partition(b' ')
            got.append((int(pid), name.decode('latin-1').split('/')[-1],
                        info.lstrip(b' ')))
    bad = 0
    if len(want) != len(got):
        print('counts differ: %d report lines, %d KernelShark entries' %
              (len(want), len(got)))
        bad += 1
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            bad += 1
            if bad <= 10:
                print('entry %d:\n  kshark %r\n  report %r' % (i, g, w))
    print('entries: %d compared, %d differ' % (min(len(want), len(got)), bad))
    return 1 if bad else 0


def compare_vectors(vectors, reference, report):
    names = read_vectors(vectors)
    refs = read_reference(reference)
    tracepoints = set(names)
    got = [(name, info) for _, name, info in report_lines(report)
           if name in tracepoints]
    bad = 0
    if not (len(names) == len(refs) == len(got)):
        print('counts differ: %d vectors, %d reference lines, %d report '
              'lines' % (len(names), len(refs), len(got)))
        bad += 1
    for i, (name, ref, (tp, info)) in enumerate(zip(names, refs, got)):
        want = expected(ref)
        if tp != name or info != want:
            bad += 1
            if bad <= 10:
                print('vector %d (%s):\n  got  %r\n  want %r' %
                      (i, name, info, want))
    print('vectors: %d compared, %d differ' % (min(len(refs), len(got)), bad))
    return 1 if bad else 0


def count(vectors, what='records'):
    names = read_vectors(vectors)
    if what == 'names':
        print('\n'.join(sorted(set(names))))
    elif what == 'tracepoints':
        print(len(set(names)))
    elif what == 'apps':
        print(sum(1 for i in range(len(names)) if i % 3 == 2))
    else:
        print(len(names))
    return 0


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == 'count':
        return count(*sys.argv[2:])
    if len(sys.argv) == 5 and sys.argv[1] == 'vectors':
        return compare_vectors(*sys.argv[2:])
    if len(sys.argv) == 4 and sys.argv[1] == 'kshark':
        return compare_kshark(*sys.argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
