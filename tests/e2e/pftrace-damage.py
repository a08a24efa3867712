#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A damaged Perfetto trace, the same one every run.

  pftrace-damage.py IN OUT
      OUT is IN (a plain trace) with 200 bytes past its first packet's
      start changed here and there and a stretch of 300 bytes of garbage
      mid-way: what a conversion must get through, converting what is
      whole.
"""
import random
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = bytearray(open(sys.argv[1], 'rb').read())
    r = random.Random(43)
    for _ in range(200):
        d[r.randrange(16, len(d))] = r.randrange(256)
    # a stretch of garbage in the middle
    m = len(d) // 2
    d[m:m + 300] = bytes(r.randrange(256) for _ in range(300))
    open(sys.argv[2], 'wb').write(d)


if __name__ == '__main__':
    main()
