#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the decoded EventHeader events of a converted FXT file.

  eventheader-fxt.py vectors REFERENCE.json DUMP.json
  eventheader-fxt.py activities DUMP.json UUID...
  eventheader-fxt.py derive VECTORS.dat OUT.dat UUID...

vectors: DUMP.json is `trace-fxt dump --json` of the conversion of the
fixture samples/eventheader-dat wrote from the test vectors.  The decoded
events (category = provider, name = "Provider:Event", ".cont" records
merged) must be, in order, the reference decoding's events
(REFERENCE.json: LinuxTracepoints' own for its vectors, the catalogue's
for samples/eventheader-vectors'): same name, the meta arguments
the reference's "meta" holds (level and keyword always), then every field,
structs flattened as outer.inner and arrays as their JSON text.  Values are
compared as values: the reference's text forms (hex "0x..", "EPERM(1)",
times) are read back into the integers the FXT carries.

derive: write a vectors file of activity events made from the first event
of VECTORS.dat with an activity id alone and the first with an activity
and a related activity id, their opcode (byte 6 of the eventheader) and
ids replaced: UUID[0] starts (the first), then each other UUID starts with
UUID[0] as its related activity (the second), then the others stop in
order and UUID[0] last (the first).

activities: DUMP.json is the conversion of that file.  Every start must be
an async begin and every stop an async end whose id is FNV-1a 64 of the
UUID's bytes, begin before end, the end named as its begin (the stop's
own name in an "event" argument when it differs); each start begins a
flow of its id and the children's starts step the parent's flow.

Prints what differs (at most 10 lines) and a summary; exits 1 on any
difference.
"""
import json
import re
import struct
import sys
import uuid

DECODED = ('duration_complete', 'async_begin', 'async_end', 'async_instant')
INT_TYPES = ('int32', 'uint32', 'int64', 'uint64')
TAG = re.compile(r';tag=0x[0-9A-Fa-f]+$')


def pairs(p):
    return ('obj', p)


def read_reference(path):
    text = open(path, 'rb').read().decode('utf-8', 'replace').lstrip('\ufeff')
    top = json.loads('{' + text + '}', object_pairs_hook=pairs)
    return top[1][0][1]


def read_dump(path):
    recs = []
    for line in open(path, encoding='utf-8'):
        recs.append(json.loads(line))
    return recs


def decoded_events(recs):
    """Decoded events in file order, ".cont" records merged."""
    out = []
    for r in recs:
        if r.get('record') != 'event' or r.get('event') not in DECODED:
            continue
        name, cat = r.get('name', ''), r.get('category', '')
        if not name.startswith(cat + ':'):
            continue
        if name.endswith('.cont') and out and \
                out[-1]['name'] + '.cont' == name:
            out[-1]['args'] += r.get('args', [])
            continue
        out.append(dict(r, args=list(r.get('args', []))))
    return out


def untag(v):
    """The reference's value with ";tag=" suffixes gone from its keys."""
    if isinstance(v, tuple):
        return ('obj', [(TAG.sub('', k), untag(x)) for k, x in v[1]])
    if isinstance(v, list):
        return [untag(x) for x in v]
    return v


def as_int(ref):
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return ref
    if not isinstance(ref, str):
        return None
    if re.fullmatch(r'0x[0-9A-Fa-f]+', ref):
        return int(ref, 16)
    m = re.fullmatch(r'[A-Z0-9_]+\((-?\d+)\)', ref)   # EPERM(1), TIME(-5)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r'(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)', ref)
    if m:
        y, mo, d, hh, mm, ss = (int(x) for x in m.groups())
        return days_from_civil(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss
    return None


def days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date, any year."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def same_scalar(arg, ref):
    t, v = arg['type'], arg.get('value')
    if t == 'string':
        return isinstance(ref, str) and v == ref
    if t == 'null':
        return ref is None
    if t == 'bool':
        return isinstance(ref, bool) and v == ref
    if t == 'double':
        if isinstance(ref, str):
            try:
                ref = float(ref)
            except ValueError:
                return False
        if isinstance(ref, bool) or not isinstance(ref, (int, float)):
            return False
        # a float field: the reference prints the shortest float text
        single = struct.unpack('<f', struct.pack('<f', ref))[0] \
            if abs(ref) < 3.5e38 else ref
        return v == ref or v == single or (v != v and ref != ref)
    if t in INT_TYPES:
        return as_int(ref) == v
    return False


def expected_args(ref):
    """(name, value or ('array', value)) in the FXT's order."""
    meta = {}
    fields = []

    def walk(members, prefix):
        for k, v in members:
            k = TAG.sub('', k)
            if isinstance(v, tuple):
                walk(v[1], prefix + k + '.')
            elif isinstance(v, list):
                fields.append((prefix + k, ('array', untag(v))))
            else:
                fields.append((prefix + k, v))

    members = []
    for k, v in ref[1]:
        if k == 'meta':
            meta = dict(v[1])
        elif k != 'n':
            members.append((k, v))
    walk(members, '')
    out = [('level', meta.get('level', 0)),
           ('keyword', int(meta.get('keyword', '0x0'), 16))]
    for k in ('opcode', 'id', 'version'):
        if k in meta:
            out.append((k, meta[k]))
    if 'tag' in meta:
        out.append(('tag', int(meta['tag'], 16)))
    if 'activity' in meta:
        out.append(('activity', meta['activity']))
    if 'relatedActivity' in meta:
        out.append(('related_activity', meta['relatedActivity']))
    return out + fields


def own_name(ev):
    """An activity stop ends its start's async slice under the start's
    name (Perfetto matches ends by name) and keeps its own name in a last
    "event" argument: (own name, the event's other arguments)."""
    args = ev['args']
    if ev.get('event') == 'async_end' and args and \
            args[-1]['name'] == 'event' and args[-1]['type'] == 'string':
        return args[-1]['value'], args[:-1]
    return ev['name'], args


def compare_event(ev, ref):
    name = dict(ref[1])['n']
    own, got = own_name(ev)
    if own != name:
        return f'name {own!r}, reference {name!r}'
    exp = expected_args(ref)
    if [a['name'] for a in got] != [n for n, _ in exp]:
        return (f'{name}: arguments {[a["name"] for a in got]}, '
                f'reference {[n for n, _ in exp]}')
    for a, (n, v) in zip(got, exp):
        if isinstance(v, tuple) and v[0] == 'array':
            if a['type'] != 'string':
                return f'{name}: {n} is {a["type"]}, not an array text'
            try:
                mine = json.loads(a['value'], object_pairs_hook=pairs)
            except ValueError:
                return f'{name}: {n} = {a["value"]!r} is not JSON'
            if mine != v[1]:
                return f'{name}: {n} = {a["value"]}, reference {v[1]}'
        elif not same_scalar(a, v):
            return f'{name}: {n} = {a.get("value")!r} ({a["type"]}), ' \
                   f'reference {v!r}'
    return None


def cmd_vectors(ref_path, dump_path):
    refs = read_reference(ref_path)
    evs = decoded_events(read_dump(dump_path))
    bad = 0
    for i, (ev, ref) in enumerate(zip(evs, refs)):
        why = compare_event(ev, ref)
        if why:
            bad += 1
            if bad <= 10:
                print(f'vector {i}: {why}')
    if len(evs) != len(refs):
        print(f'{len(evs)} decoded events, {len(refs)} vectors')
        bad += 1
    nargs = sum(len(e['args']) for e in evs)
    types = sorted({a['type'] for e in evs for a in e['args']})
    print(f'{min(len(evs), len(refs))} compared ({nargs} arguments: '
          f'{" ".join(types)}), {bad} differ')
    return 1 if bad else 0


def fnv1a64(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def read_vectors(path):
    data = open(path, 'rb').read()
    recs, pos = [], 0
    while pos < len(data):
        size = struct.unpack_from('<I', data, pos)[0]
        rec = data[pos + 4:pos + size]
        nul = rec.index(0)
        recs.append((rec[:nul], rec[nul + 1:]))
        pos += size
    return recs


def activity_block(ev):
    """(offset, size) of the activity id extension of an event, or None."""
    if len(ev) < 8 or not ev[0] & 0x04:     # no extension
        return None
    order = '<' if ev[0] & 0x02 else '>'
    pos, chain = 8, True
    while chain and pos + 4 <= len(ev):
        size, kind = struct.unpack_from(order + 'HH', ev, pos)
        if kind & 0x7fff == 2:
            return pos + 4, size
        pos += 4 + size
        chain = kind & 0x8000
    return None


def cmd_derive(vec_path, out_path, ids):
    src = {}
    for name, ev in read_vectors(vec_path):
        block = activity_block(ev)
        if block and block[1] in (16, 32) and block[1] not in src:
            src[block[1]] = (name, ev, block[0])
    ids = [uuid.UUID(u).bytes for u in ids]

    def make(opcode, act, rel=None):
        name, ev, at = src[16 if rel is None else 32]
        ev = bytearray(ev)
        ev[6] = opcode
        ev[at:at + 16] = act
        if rel is not None:
            ev[at + 16:at + 32] = rel
        rec = name + b'\0' + bytes(ev)
        return struct.pack('<I', len(rec) + 4) + rec

    out = [make(1, ids[0])]
    out += [make(1, c, ids[0]) for c in ids[1:]]
    out += [make(2, c) for c in ids[1:]]
    out.append(make(2, ids[0]))
    open(out_path, 'wb').write(b''.join(out))
    return 0


def cmd_activities(dump_path, ids):
    recs = [r for r in read_dump(dump_path) if r.get('record') == 'event']
    want = [fnv1a64(uuid.UUID(u).bytes) for u in ids]
    problems = []

    def of(kind):
        return [r for r in recs if r.get('event') == kind]

    begins, ends = of('async_begin'), of('async_end')
    if [r['id'] for r in begins] != want:
        problems.append(f'async begin ids {[r["id"] for r in begins]}, '
                        f'want {want}')
    if [r['id'] for r in ends] != want[1:] + want[:1]:
        problems.append(f'async end ids {[r["id"] for r in ends]}')
    for b in begins:
        e = [r for r in ends if r['id'] == b['id']]
        # the end carries the begin's name (Perfetto matches by name);
        # every stop is made from the parent's event, whose own name the
        # end keeps in "event" when it differs
        own = dict((a['name'], a['value']) for a in e[0]['args']) \
            .get('event', e[0]['name']) if len(e) == 1 else None
        if len(e) != 1 or e[0]['ts'] <= b['ts'] or \
                e[0]['name'] != b['name'] or own != begins[0]['name']:
            problems.append(f'no single later end for begin {b["id"]}')
    act = {r['id']: dict((a['name'], a['value']) for a in r['args'])
           .get('activity') for r in begins}
    if [act.get(w) for w in want] != ids:
        problems.append(f'activity arguments {act}')
    if [r['id'] for r in of('flow_begin')] != want:
        problems.append(f'flow begins {[r["id"] for r in of("flow_begin")]}')
    steps = of('flow_step')
    if [r['id'] for r in steps] != [want[0]] * (len(want) - 1) or \
            [r['ts'] for r in steps] != [r['ts'] for r in begins[1:]]:
        problems.append(f'flow steps {[(r["id"], r["ts"]) for r in steps]}')
    for p in problems[:10]:
        print(p)
    print(f'{len(begins)} async begins, {len(ends)} ends, '
          f'{len(of("flow_begin"))} flow begins, {len(steps)} steps, '
          f'{len(problems)} problems')
    return 1 if problems else 0


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == 'vectors':
        return cmd_vectors(a[1], a[2])
    if len(a) >= 4 and a[0] == 'derive':
        return cmd_derive(a[1], a[2], a[3:])
    if len(a) >= 3 and a[0] == 'activities':
        return cmd_activities(a[1], a[2:])
    print(__doc__.strip().splitlines()[2:5], file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
