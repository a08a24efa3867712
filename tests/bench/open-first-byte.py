#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench-open.sh's timer, in one process so that both commands take turns:

  open-first-byte.py ROUNDS TRACE_FXT FILE.dat

Each round runs, one after the other,
  - `trace-cmd report -N FILE.dat > /dev/null` to its end, and
  - `TRACE_FXT open --no-open-browser FILE.dat`, fetching the trace from
    127.0.0.1:9001 as soon as it listens, as Perfetto's UI would: the time
    from the command's start to the first byte of the trace received.
Prints one line a round: "report_s first_byte_s"; nothing passes or fails
on time.
"""
import os
import socket
import subprocess
import sys
import time

HOST, PORT = '127.0.0.1', 9001
UI = 'https://ui.perfetto.dev'


def served_name(dat):
    """The name trace-fxt open serves FILE.dat as (cmd-open.c)."""
    base = os.path.basename(dat)
    if base.endswith('.dat') and len(base) > 4:
        base = base[:-4]
    ok = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
             '0123456789._-')
    base = ''.join(c if c in ok else '_' for c in base)
    if not base or base[0] == '.':
        base = 'trace'
    return base + '.fxt.gz'


def first_byte(trace_fxt, dat, timeout=300):
    """Seconds from starting `open` to the trace's first byte, or None."""
    path = '/' + served_name(dat)
    t0 = time.monotonic()
    p = subprocess.Popen([trace_fxt, 'open', '--no-open-browser', dat],
                         stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    t = None
    try:
        while time.monotonic() - t0 < timeout and p.poll() is None:
            try:
                s = socket.create_connection((HOST, PORT), timeout=timeout)
            except OSError:
                time.sleep(0.002)
                continue
            s.sendall(('GET %s HTTP/1.1\r\nHost: %s:%d\r\nOrigin: %s\r\n'
                       'Connection: close\r\n\r\n' %
                       (path, HOST, PORT, UI)).encode())
            got = b''
            while b'\r\n\r\n' not in got:
                b = s.recv(65536)
                if not b:
                    break
                got += b
            head, _, body = got.partition(b'\r\n\r\n')
            if not head.startswith(b'HTTP/1.1 200'):
                s.close()
                break
            if not body:
                body = s.recv(65536)
            if body:
                t = time.monotonic() - t0
            while s.recv(1 << 20):
                pass
            s.close()
            break
    finally:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return t


def report(dat):
    t0 = time.monotonic()
    r = subprocess.run(['trace-cmd', 'report', '-N', dat],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t0 if r.returncode == 0 else None


def main():
    rounds, trace_fxt, dat = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    for _ in range(rounds):
        r = report(dat)
        f = first_byte(trace_fxt, dat)
        if r is None or f is None:
            print('FAILED: report %s, open %s' % (r, f), file=sys.stderr)
            return 1
        print('%.3f %.3f' % (r, f), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
