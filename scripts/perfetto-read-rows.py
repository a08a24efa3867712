#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Rows for map-ftrace.table that only the way back reads ("read"), and
their messages for tests/unit/perfetto-ftrace.schema, of Perfetto's typed
ftrace events the table has no row for and this kernel has: how the
table's last section was made.

usage: perfetto-read-rows.py PERFETTO_SRC [EVENTS_DIR] > rows-and-schema

PERFETTO_SRC is a checkout of Perfetto's source (its
protos/perfetto/trace/ftrace/*.proto are read; nothing of it is kept),
EVENTS_DIR the kernel's tracefs events (default
/sys/kernel/tracing/events).  A row names each field of the message that
the kernel's format has by name: a string into a __data_loc or char
array (string), a kernel string's address (kstr), an integer into a
scalar; the rest are left out and said on stderr.  Read the output
before it goes into the table: test-map-table checks the rows against
the schema and the kernel's formats, not their sense.
"""
import glob
import os
import re
import sys

INTS = {'int32', 'int64', 'uint32', 'uint64'}


def messages(pd):
    out = {}
    for f in glob.glob(os.path.join(pd, '*.proto')):
        for m in re.finditer(r'message (\w+) \{(.*?)\n\}', open(f).read(),
                             re.S):
            out[m.group(1)] = [
                (fm.group(1) == 'repeated', fm.group(2), fm.group(3),
                 int(fm.group(4)))
                for fm in re.finditer(r'^\s*(optional|repeated)\s+(\w+)\s+'
                                      r'(\w+)\s*=\s*(\d+)', m.group(2),
                                      re.M)]
    return out


def kernel_fields(path):
    out = {}
    for line in open(path):
        m = re.match(r'\s*field:(.*?);\s*offset:\d+;\s*size:\d+;', line)
        if not m:
            continue
        decl = m.group(1).strip()
        name = re.sub(r'\[.*\]$', '', decl.split()[-1]).lstrip('*')
        if not name.startswith('common_'):
            out[name] = decl
    return out


def row_type(ty, decl):
    arr = '[' in decl
    if ty == 'string':
        if '__data_loc' in decl or (arr and 'char' in decl):
            return 'string'
        if re.search(r'char\s*\*', decl) and not arr:
            return 'kstr'
        return None
    if ty in INTS and not arr and '__data_loc' not in decl:
        return ty
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pd = os.path.join(sys.argv[1], 'protos/perfetto/trace/ftrace')
    evdir = sys.argv[2] if len(sys.argv) > 2 else \
        '/sys/kernel/tracing/events'
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                         'trace-cmd-plugin/trace-fxt-input/map-ftrace.table')
    msgs = messages(pd)
    events = {int(m.group(3)): (m.group(2), m.group(1)) for m in re.finditer(
        r'(\w+FtraceEvent) (\w+) = (\d+);',
        open(os.path.join(pd, 'ftrace_event.proto')).read())}
    have = set()
    for line in open(table):
        p = line.split()
        if p and not line.startswith('#') and len(p) > 2 and p[2].isdigit():
            have.add(int(p[2]))
    system_of = {}
    for f in glob.glob(os.path.join(evdir, '*/*/format')):
        system, event = f.split('/')[-3:-1]
        system_of.setdefault(event, system)
    schema = []
    for num in sorted(events):
        name, msg = events[num]
        if num in have or name not in system_of or msg not in msgs:
            continue
        system = system_of[name]
        kf = kernel_fields(os.path.join(evdir, system, name, 'format'))
        fields = []
        for rep, ty, fn, fnum in msgs[msg]:
            if rep or fn not in kf:
                continue
            t = row_type(ty, kf[fn])
            if t:
                fields.append('%s=%d:%s' % (fn, fnum, t))
            else:
                print('%s: %s (%s) not into %s' % (name, fn, ty, kf[fn]),
                      file=sys.stderr)
        if not fields:
            print('%s: no field of its message is the kernel\'s' % name,
                  file=sys.stderr)
            continue
        print('%s:%s\t%s\t%d\tread\t%s' % (system, name, msg, num,
                                           ' '.join(fields)))
        decl = ['%s=%d:%s%s' % (fn, fnum, ty, 's' if rep else '')
                for rep, ty, fn, fnum in sorted(msgs[msg],
                                                key=lambda x: x[3])]
        lines, cur = [], ''
        for d in decl:
            if cur and len(cur) + 1 + len(d) > 66:
                lines.append(cur)
                cur = d
            else:
                cur = (cur + ' ' + d).strip()
        lines.append(cur)
        schema.append('%d\t%s\t%s\n' % (num, name, msg) +
                      ''.join('\t%s\n' % x for x in lines))
    print('\n# for perfetto-ftrace.schema')
    sys.stdout.write(''.join(schema))


if __name__ == '__main__':
    main()
