#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What Tracy's FXT importer reads of the names in an FXT file.

  trace-fxt dump --json FILE.fxt | tracy-model.py names

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


def main():
    if sys.argv[1:] != ['names']:
        sys.exit(__doc__)
    sys.exit(names(sys.stdin))


if __name__ == '__main__':
    main()
