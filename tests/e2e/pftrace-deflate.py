#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A plain Perfetto trace deflated as Perfetto's compression_type writes it.

  pftrace-deflate.py IN PREFIX
      IN's packets in three compressed packets (zlib streams in
      TracePacket.compressed_packets, field 50), written as
      PREFIX-whole.pftrace; PREFIX-bad.pftrace has 16 bytes of the
      second one's stream flipped, PREFIX-ends.pftrace is the first and
      third alone, PREFIX-first.pftrace the first alone, and
      PREFIX-cut.pftrace the whole one cut half way through the second.
"""
import sys
import zlib

if len(sys.argv) != 3:
    sys.exit(__doc__)
d = open(sys.argv[1], 'rb').read()
def varint(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80:
            return r, i
def put(v):
    o = bytearray()
    while v >= 0x80:
        o.append(v & 0x7f | 0x80); v >>= 7
    o.append(v)
    return bytes(o)
pk, i = [], 0
while i < len(d):
    s = i
    _, i = varint(d, i)
    n, i = varint(d, i)
    i += n
    pk.append(d[s:i])
k = len(pk) // 3
groups = [b''.join(pk[:k]), b''.join(pk[k:2 * k]), b''.join(pk[2 * k:])]
def packet(raw, bad=False):
    z = bytearray(zlib.compress(raw))
    if bad:
        for j in range(len(z) // 3, len(z) // 3 + 16):
            z[j] ^= 0x5a
    body = b'\x92\x03' + put(len(z)) + bytes(z)       # field 50, LEN
    return b'\x0a' + put(len(body)) + body
out = {'whole': [packet(g) for g in groups],
       'bad': [packet(groups[0]), packet(groups[1], True), packet(groups[2])],
       'ends': [packet(groups[0]), packet(groups[2])],
       'first': [packet(groups[0])]}
for name, ps in out.items():
    open(sys.argv[2] + '-' + name + '.pftrace', 'wb').write(b''.join(ps))
# cut half way through the second compressed packet
w = out['whole']
open(sys.argv[2] + '-cut.pftrace', 'wb').write(
    b''.join(w)[:len(w[0]) + len(w[1]) // 2])
