#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print the data of every option of id ID in a version 7 .dat (its
options sections uncompressed), a NUL that ends it left out: what
`trace-cmd dump --options` skips as an unknown option.

usage: dat-option.py FILE.dat ID
"""
import sys


def main(path, want):
    b = open(path, 'rb').read()
    e = 'big' if b[12] == 1 else 'little'

    def num(at, n):
        return int.from_bytes(b[at:at + n], e)

    if b[10:12] != b'7\0':
        sys.exit('%s: not a version 7 .dat' % path)
    at = 18
    for _ in range(2):              # compression name, version
        at = b.index(b'\0', at) + 1
    off = num(at, 8)
    while off:
        # section header: id(2) flags(2) string id(4) size(8)
        if num(off + 2, 2) & 1:
            sys.exit('%s: a compressed options section' % path)
        at, end, off = off + 16, off + 16 + num(off + 8, 8), 0
        while at + 6 <= end:
            oid, size = num(at, 2), num(at + 2, 4)
            data = b[at + 6:at + 6 + size]
            at += 6 + size
            if oid == 0:
                off = int.from_bytes(data[:8], e) if len(data) >= 8 else 0
                break
            if oid == want:
                sys.stdout.buffer.write(data.rstrip(b'\0'))


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]))
