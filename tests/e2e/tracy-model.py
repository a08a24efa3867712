#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What Tracy's FXT importer reads of the names and zones in an FXT file.

  trace-fxt dump --json FILE.fxt | tracy-model.py names
  trace-fxt dump --json FILE.fxt | tracy-model.py zones N

Written from Tracy's source (wolfpld/tracy, import/src/import-fuchsia.cpp,
main()'s record loop and readString()): one std::string, `name`, takes
each string record's text, resized to the length plus one and never
cleared, so its last byte is what was there before: a string shorter than
the name read before it keeps a byte of that name (`cpu` read after
`comm` is stored as `cpum`).  An event's or a kernel object's name
replaces `name` (by ref, the stored copy; inline, the text and a NUL; no
name, empty).  A string record at index 0 is stored where no ref reads
it.  A thread kernel object names its thread only if an argument's name,
read up to its first NUL, is `process` and its value a koid.

Prints "strings N resets R stray S threads T named K" and exits 1 when a
string record would be stored with a stray byte or a thread object would
not name its thread.  Refs are not in the dump: every name is taken as
read whole, which is exact up to the first stray byte, the one this
reports.

zones: Tracy's zones (import-fuchsia.cpp, main()'s record loop, case 4:
a duration begin (event type 2) opens one on its thread, (pid, tid), a
duration end (3) closes one, a complete event (4) is both; the list
stable-sorted by timestamp; server/TracyWorker.cpp, the Worker
constructor for imports: a begin makes a zone on its thread, an end
closes the thread's innermost open zone and is dropped when none is
open).  Prints "zones Z ended E dropped ends D" and exits 1 unless Z is
N and every zone is ended.
"""
import json
import sys


def names(lines):
    buf = b''
    strings = resets = stray = threads = named = 0
    first = None
    for line in lines:
        r = json.loads(line)
        kind = r.get('record')
        if kind == 'string':
            text = r['value'].encode('utf-8', 'surrogateescape')
            n = len(text)
            # resize(n + 1): the byte at n stays when buf was longer
            last = buf[n] if len(buf) > n else 0
            buf = text + bytes([last])
            if r['index'] == 0:
                resets += 1
                continue
            strings += 1
            if last:
                stray += 1
                if first is None:
                    first = '%s at offset %d read as %r' % (
                        r['value'], r['offset'], buf.decode('latin-1'))
        elif kind in ('event', 'kernel_object'):
            text = r.get('name', '').encode('utf-8', 'surrogateescape')
            buf = text + b'\0' if text else b''
            if kind == 'kernel_object' and r.get('obj_type') == 2:
                threads += 1
                if any(a['name'] == 'process' and a['type'] == 'koid'
                       for a in r.get('args', [])):
                    named += 1
    print('strings %d resets %d stray %d threads %d named %d' %
          (strings, resets, stray, threads, named))
    if first:
        print('# first stray byte: ' + first)
    return 1 if stray or named != threads else 0


def zones(lines, want):
    timeline = []
    for line in lines:
        r = json.loads(line)
        if r.get('record') != 'event':
            continue
        th = (r.get('pid'), r.get('tid'))
        ev = r.get('event')
        if ev == 'duration_begin':
            timeline.append((r['ts'], th, False))
        elif ev == 'duration_end':
            timeline.append((r['ts'], th, True))
        elif ev == 'duration_complete':
            timeline.append((r['ts'], th, False))
            timeline.append((r['end_ts'], th, True))
    timeline.sort(key=lambda e: e[0])       # stable, as std::stable_sort
    open_, made, ended, dropped = {}, 0, 0, 0
    for _, th, end in timeline:
        if not end:
            made += 1
            open_[th] = open_.get(th, 0) + 1
        elif open_.get(th):
            open_[th] -= 1
            ended += 1
        else:
            dropped += 1
    print('zones %d ended %d dropped ends %d' % (made, ended, dropped))
    return 0 if made == want and ended == made else 1


def main():
    if sys.argv[1:] == ['names']:
        sys.exit(names(sys.stdin))
    if len(sys.argv) == 3 and sys.argv[1] == 'zones':
        sys.exit(zones(sys.stdin, int(sys.argv[2])))
    sys.exit(__doc__)


if __name__ == '__main__':
    main()
