#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The clients of open.sh's checks of trace-fxt open's server, on
127.0.0.1:9001 only, in plain sockets so that every byte is seen.

  open-client.py wait                  until something listens (10 s)
  open-client.py refused               "refused" if nothing listens
  open-client.py req METHOD PATH ORIGIN OUT
                                       one request (ORIGIN "-": none);
                                       OUT.head, OUT.body; prints the status
  open-client.py race PATH ORIGIN FILE one client starts the fetch and
                                       stalls, a second asks meanwhile, the
                                       first then reads all; prints what
                                       each got, and if the bytes are FILE's
  open-client.py ui URL OUT            what Perfetto's UI does with its
                                       url= argument: GET it, its Origin
  open-client.py hold SECONDS          listen on the port meanwhile
  open-client.py junk                  what a hostile client sends: random
                                       bytes, a 64 KB path, a 1 MB header;
                                       prints what came back to each
"""
import random
import socket
import sys
import time
import urllib.parse

HOST, PORT = '127.0.0.1', 9001
UI = 'https://ui.perfetto.dev'


def connect():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect((HOST, PORT))
    return s


def request(method, path, origin):
    head = '%s %s HTTP/1.1\r\nHost: %s:%d\r\n' % (method, path, HOST, PORT)
    if origin != '-':
        head += 'Origin: %s\r\n' % origin
    return (head + 'Connection: close\r\n\r\n').encode()


def read_all(s):
    data = bytearray()
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            return bytes(data)
        data += chunk


def split(resp):
    head, _, body = resp.partition(b'\r\n\r\n')
    return head.decode('latin-1'), body


def main():
    what = sys.argv[1]
    if what == 'wait':
        for _ in range(200):
            try:
                connect().close()
                return 0
            except OSError:
                time.sleep(0.05)
        return 1
    if what == 'refused':
        try:
            connect().close()
            print('accepted')
        except ConnectionRefusedError:
            print('refused')
        return 0
    if what == 'req':
        method, path, origin, out = sys.argv[2:6]
        s = connect()
        s.sendall(request(method, path, origin))
        head, body = split(read_all(s))
        open(out + '.head', 'w').write(head.replace('\r\n', '\n') + '\n')
        open(out + '.body', 'wb').write(body)
        print(head.split('\r\n')[0])
        return 0
    if what == 'race':
        path, origin, ref = sys.argv[2:5]
        # the file is larger than the sockets' buffers: the first, not
        # reading, holds the transfer
        first = connect()
        first.sendall(request('GET', path, origin))
        time.sleep(0.5)
        second = connect()
        second.sendall(request('GET', path, origin))
        head2, _ = split(read_all(second))
        head1, body1 = split(read_all(first))
        print('second: %s' % head2.split('\r\n')[0])
        print('first: %s, %d bytes, %s' % (
            head1.split('\r\n')[0], len(body1),
            'the file' if body1 == open(ref, 'rb').read() else 'NOT the file'))
        return 0
    if what == 'ui':
        url, out = sys.argv[2:4]
        frag = urllib.parse.urlsplit(url).fragment      # !/?url=...&...
        args = urllib.parse.parse_qs(frag.split('?', 1)[1])
        target = urllib.parse.urlsplit(args['url'][0])
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect((target.hostname, target.port))
        s.sendall(request('GET', target.path, UI))
        head, body = split(read_all(s))
        open(out, 'wb').write(body)
        print(head.split('\r\n')[0])
        return 0
    if what == 'junk':
        tries = [
            ('random bytes', bytes(random.Random(25).getrandbits(8)
                                   for _ in range(100000))),
            ('a 64 KB path', request('GET', '/' + 'a' * 65536, UI)),
            ('a 1 MB header', b'GET / HTTP/1.1\r\nX: ' + b'x' * (1 << 20)
             + b'\r\n\r\n'),
        ]
        for name, data in tries:
            s = connect()
            try:
                s.sendall(data)
                s.shutdown(socket.SHUT_WR)
                head = read_all(s).split(b'\r\n', 1)[0].decode('latin-1')
            except OSError as e:
                head = 'closed (%s)' % e.strerror
            print('%s -> %s' % (name, head or 'closed'))
        return 0
    if what == 'hold':
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((HOST, PORT))
        s.listen(1)
        print('holding', flush=True)
        time.sleep(float(sys.argv[2]))
        return 0
    return 2


sys.exit(main())
