#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare `trace-cmd report -R X.dat` with `trace-fxt report --raw X.fxt`.

Every line of trace-cmd's output must have its twin, in the same order,
byte for byte: a value written another way is a mismatch too (001 for 1,
0x241 for 577, (nil) for 0x0: libtraceevent prints a raw field in the
conversion of its event's print format).  What differs is named: the
buffer, task, pid, CPU, timestamp or event name, a field whose value
differs, or one with the same value written differently.  A side
without a single event line is a failure: nothing compared is nothing
proved.  Prints "lines N mismatches M" and the first mismatches; exits 1
when anything differs.

usage: compare-report.py TRACE-CMD-OUTPUT TRACE-FXT-OUTPUT
"""
import re
import sys

LINE = re.compile(r'^(?P<buf>\s*\S*: |\s+)?\s*(?P<comm>.*)-(?P<pid>\d+)\s+'
                  r'\[(?P<cpu>\d+)\]\s+(?P<ts>[0-9.]+): (?P<event>\S+):'
                  r'\s*(?P<rest>.*)$')
FIELD_SPLIT = re.compile(r' (?=[A-Za-z_][A-Za-z0-9_]*=)')


def number(s):
    s = s.strip()
    if s == '(nil)':  # glibc's %p of NULL, as libtraceevent prints it
        return 0
    try:
        return int(s, 0)
    except ValueError:
        pass
    try:
        return int(s, 10)  # leading zeros: "001"
    except ValueError:
        return None


def same_value(a, b):
    """Whether two renderings are of one value (to name a mismatch)."""
    if a == b or a.strip() == b.strip():
        return True
    na, nb = number(a), number(b)
    if na is None or nb is None:
        return False
    if na == nb:
        return True
    # A 64-bit field printed signed on one side (-2), unsigned on the other
    # (0xfffffffffffffffe): the same 64 bits, compared in full.
    lo, hi = min(na, nb), max(na, nb)
    return -(1 << 63) <= lo < 0 and hi == lo + (1 << 64)


def fields(rest):
    out = []
    for part in FIELD_SPLIT.split(' ' + rest.rstrip('\n')):
        if not part:
            continue
        name, _, value = part.partition('=')
        out.append((name.strip(), value))
    return out


def compare(a, b):
    """Return None if the lines are twins, else what differs."""
    if a == b:
        return None
    ma, mb = LINE.match(a), LINE.match(b)
    if not ma or not mb:
        return 'unparsed line'
    for key in ('buf', 'comm', 'pid', 'cpu', 'ts', 'event'):
        va, vb = (ma.group(key) or '').strip(), (mb.group(key) or '').strip()
        if key == 'cpu':
            va, vb = int(va), int(vb)
        if va != vb:
            return f'{key} differs'
    fa, fb = fields(ma.group('rest')), fields(mb.group('rest'))
    if [n for n, _ in fa] != [n for n, _ in fb]:
        return 'field names differ'
    for (name, va), (_, vb) in zip(fa, fb):
        if va == vb:
            continue
        if not same_value(va, vb):
            return f'field {name} differs'
        return f'field {name} written differently ({va!r} / {vb!r})'
    return 'spacing differs'


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1], errors='replace') as f:
        ref = f.read().splitlines()
    with open(sys.argv[2], errors='replace') as f:
        got = f.read().splitlines()
    mismatches = 0
    shown = 0
    for name, lines in ((sys.argv[1], ref), (sys.argv[2], got)):
        if not any(LINE.match(line) for line in lines):
            print(f'{name}: not a single event line ({len(lines)} lines)')
            mismatches += 1
    for i in range(max(len(ref), len(got))):
        a = ref[i] if i < len(ref) else '<missing>'
        b = got[i] if i < len(got) else '<missing>'
        why = compare(a, b)
        if why is None:
            continue
        mismatches += 1
        if shown < 5:
            shown += 1
            print(f'line {i + 1}: {why}\n  trace-cmd: {a}\n  trace-fxt: {b}')
    print(f'lines {len(ref)} mismatches {mismatches}')
    return 1 if mismatches else 0


if __name__ == '__main__':
    sys.exit(main())
