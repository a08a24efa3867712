#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a small Perfetto trace by hand, each packet a case the conversion
to trace.dat must get right, and print what `trace-cmd report -R` must
show of the converted .dat: one extended regular expression a line, each
to match a line of it (grep -E); with TGIDS, write there the saved
tgids the .dat must carry ("pid tgid" lines, the kernel's saved_tgids).

Its protobuf is written here field by field (no schema compiler); the
field numbers are Perfetto's schema's (protos/perfetto/trace/), the same
that perfetto-proto.h and map-ftrace.table spell.

usage: pftrace-gen.py OUT.pftrace [TGIDS [MANY.pftrace]] > EXPECTED

TGIDS: the "pid tgid" lines the .dat's saved tgids must hold.
MANY.pftrace: typed events of 150 field numbers no row names (800 to
949, which no message of Perfetto's takes), for the summary that lists
them.
"""
import sys
import zlib


def varint(v):
    v &= (1 << 64) - 1
    out = b''
    while v >= 0x80:
        out += bytes([v & 0x7f | 0x80])
        v >>= 7
    return out + bytes([v])


def vi(f, v):
    return varint(f << 3) + varint(v)


def ld(f, b):
    if isinstance(b, str):
        b = b.encode()
    return varint(f << 3 | 2) + varint(len(b)) + b


def packed(f, vals):
    return ld(f, b''.join(varint(v) for v in vals))


def packet(*fields, seq=1, flags=0):
    body = b''.join(fields) + vi(10, seq)
    if flags:
        body += vi(13, flags)
    return ld(1, body)


def event(ts, pid, num, body):
    return ld(2, vi(1, ts) + vi(2, pid) + ld(num, body))


def bundle(cpu, *events, compact=b'', lost=False, clock=0, descs=b''):
    b = vi(1, cpu) + b''.join(events)
    if lost:
        b += vi(3, 1)
    if compact:
        b += ld(4, compact)
    if clock:
        b += vi(5, clock)
    return ld(1, b + descs)


def descriptor(fid, group, name, fields):
    """GenericEventDescriptor: fields (name, number, FieldDescriptorProto
    type)."""
    d = ld(1, name) + b''.join(
        ld(2, ld(1, n) + vi(3, num) + vi(5, t)) for n, num, t in fields)
    return ld(11, vi(1, fid) + ld(3, group) + ld(2, d))


def zigzag(v):
    return (v << 1) ^ (v >> 63)


pk = []
expect = []
# system info: 4 CPUs, uname; the ftrace clock "global" (FtraceClock 2)
pk.append(packet(ld(45, ld(1, ld(1, 'Linux') + ld(3, '6.99.0-test') +
                           ld(4, 'x86_64')) + vi(8, 4))))
# process tree: a thread named by it alone
pk.append(packet(ld(2, ld(2, vi(1, 4242) + ld(2, 'from-tree') +
                           vi(3, 4242)))))
# compact sched on CPU 1: 100 switches to 200 "first"; 200 renames itself
# "renamed"; 200 wakes 300; 200 switches to 300.  The second switch's
# previous task is 200 under its new name; the waking's waker is 200.
ren = event(1500, 200, 236, vi(1, 200) + ld(2, 'first') + ld(3, 'renamed'))
compact = (ld(5, 'first') + ld(5, 'woken') +
           packed(1, [1000, 1000]) +          # switch ts 1000, 2000
           packed(2, [1, 0]) +                # prev_state S, then R
           packed(3, [200, 300]) + packed(4, [120, 110]) +
           packed(6, [0, 1]) +
           packed(7, [1800]) + packed(8, [300]) + packed(9, [1]) +
           packed(10, [110]) + packed(11, [1]) + packed(12, [0]))
pk.append(packet(bundle(1, ren, compact=compact, clock=2)))
expect += [
    r'\[001\] .* sched_switch: +prev_comm= prev_pid=0 prev_prio=0 '
    r'prev_state=1 next_comm=first next_pid=200 next_prio=120',
    r'renamed-200 +\[001\] .* sched_switch: +prev_comm=renamed '
    r'prev_pid=200 prev_prio=120 prev_state=0 next_comm=woken next_pid=300 '
    r'next_prio=110',
    r'renamed-200 +\[001\] .* sched_waking: +comm=woken pid=300 prio=110 '
    r'target_cpu=001',
]
# a bundle of five compact sched messages (Perfetto writes one): CPU 2
# switches to 400, 401, ... 404 in turn, each message with its own comm
# table; the last switch's previous task is the fourth's next
five = b''.join(ld(4, ld(5, 'task%d' % k) + packed(1, [7100 + 10 * k]) +
                   packed(2, [1]) + packed(3, [400 + k]) +
                   packed(4, [120]) + packed(6, [0]))
                for k in range(5))
pk.append(packet(ld(1, vi(1, 2) + five)))
expect.append(r'task3-403 +\[002\] .* sched_switch: +prev_comm=task3 '
              r'prev_pid=403 prev_prio=120 prev_state=1 next_comm=task4 '
              r'next_pid=404 next_prio=120')
# a described generic event (v50+): sys_enter_pread64, an int32 and a
# zigzag sint64 among its fields
desc = descriptor(65536, 'syscalls', 'sys_enter_pread64',
                  [('__syscall_nr', 1, 5), ('fd', 2, 4), ('count', 4, 4),
                   ('pos', 5, 18)])
ev = event(3000, 4242, 65536, vi(1, 17) + vi(2, 3) + vi(4, 64) +
           vi(5, zigzag(4096)))
pk.append(packet(bundle(0, ev, descs=desc)))
expect.append(r'from-tree-4242 +\[000\] .* sys_enter_pread64: +'
              r'__syscall_nr=17 fd=0x00000003 buf=0x00000000 '
              r'count=0x00000040 pos=0x00001000')
# a legacy GenericFtraceEvent, inside compressed packets
gen = ld(1, 'sys_exit_pread64') + ld(2, ld(1, '__syscall_nr') + vi(4, 17)) \
    + ld(2, ld(1, 'ret') + vi(4, 64))
inner = packet(bundle(0, event(4000, 4242, 327, gen)))
pk.append(ld(1, ld(50, zlib.compress(inner)) + vi(10, 1)))
expect.append(r'sys_exit_pread64: +__syscall_nr=17 ret=0x40')
# a dev_t as the recorder writes it (makedev(254, 1)): the kernel's back
dev = (254 << 8) | 1
pk.append(packet(bundle(0, event(5000, 4242, 43, vi(1, dev) + vi(2, 77) +
                                  vi(3, 2) + vi(4, 1)))))
expect.append(r'ext4_sync_file_enter: +dev=266338305 ino=77 parent=2 '
              r'datasync=1')
# a typed event of one of the rows only the way back reads much
# (ext4_ext_rm_idx, field 171: dev, ino, pblk)
pk.append(packet(bundle(0, event(5500, 4242, 171, vi(1, dev) + vi(2, 78) +
                                  vi(3, 43812523)))))
expect.append(r'ext4_ext_rm_idx: +dev=266338305 ino=78 pblk=43812523')
# a typed event only the way back reads (mm_vmscan_kswapd_wake, field
# 48: nid, order, zid)
pk.append(packet(bundle(0, event(5600, 4242, 48, vi(1, 0) + vi(2, 3) +
                                  vi(3, 2)))))
expect.append(r'mm_vmscan_kswapd_wake: +nid=0 zid=2 order=3')
# symbolized addresses: iid 1 is one name, then the sequence's state is
# cleared and iid 1 another; a void * with no symbol keeps its index
def timer(ts, t, fn):
    return event(ts, 4242, 555, vi(1, t) + vi(2, fn) + vi(3, 10) + vi(4, 5))


def syms(*pairs):
    return ld(12, b''.join(ld(26, vi(1, i) + ld(2, n)) for i, n in pairs))


pk.append(packet(bundle(0, timer(6000, 9, 1)), syms((1, 'first_fn')),
                 flags=1))
pk.append(packet(bundle(0, timer(7000, 9, 1)), syms((1, 'second_fn')),
                 flags=1))
expect += [r'timer_start: +timer=0x9 function=first_fn ',
           r'timer_start: +timer=0x9 function=second_fn ']
# events lost before CPU 2's next event
pk.append(packet(bundle(2, event(8000, 4242, 3, vi(1, 0) + ld(2, 'hi\n')),
                        lost=True)))
# (the .dat has two buffers, below: report indents every line)
expect += [r'^ *CPU:2 \[EVENTS DROPPED\]$',
           r'\[002\] .* print: +ip=0x0 buf=hi$']
# thread groups: a process tree's process 500 and its threads 501, 502,
# 505 (its own 4242 above); a generic kernel tree's thread 950 of 940;
# task_newtask: 500 and 501 make threads 503, 504 (CLONE_THREAD: their
# maker's group, 504's through 501's), 500 a process 700, 600 (of no
# known group) a thread 601 (left out), and 505 is made anew as a
# process (the kernel's word over the tree's); sched_process_exec: 900
# leads its group; the generic kernel tree's name of 950 is its comm
CLONE_THREAD = 0x10000
FORK_FLAGS = 0x1200011          # SIGCHLD, CLONE_CHILD_{SETTID,CLEARTID}
THREAD_FLAGS = 0x3d0f00         # pthread_create()'s, CLONE_THREAD in
assert THREAD_FLAGS & CLONE_THREAD and not FORK_FLAGS & CLONE_THREAD
pk.append(packet(ld(2, ld(1, vi(1, 500) + vi(2, 1) + ld(3, '/bin/app')) +
                    b''.join(ld(2, vi(1, t) + vi(3, 500))
                             for t in (501, 502, 505)))))
pk.append(packet(ld(122, ld(2, vi(1, 950) + vi(2, 940) + ld(3, 'kt')))))


def newtask(ts, maker, pid, flags):
    return event(ts, maker, 235, vi(1, pid) + ld(2, 'app') + vi(3, flags))


# a kernel string the recorder wrote as its text (suspend_resume's
# const char *action, with the kernel's format): an address of the .dat's
# printk formats that holds it, which libtraceevent prints as the text
pk.append(packet(bundle(0, event(9650, 4242, 113, ld(1, 'dpm_suspend') +
                                 vi(2, 2) + vi(3, 1)))))
expect.append(r'suspend_resume: +action=dpm_suspend val=2 start=1$')
pk.append(packet(bundle(3, newtask(9000, 500, 503, THREAD_FLAGS),
                        newtask(9100, 501, 504, THREAD_FLAGS),
                        newtask(9200, 500, 700, FORK_FLAGS),
                        newtask(9300, 600, 601, THREAD_FLAGS),
                        newtask(9400, 500, 505, FORK_FLAGS),
                        event(9500, 900, 237, ld(1, '/bin/true') +
                              vi(2, 900) + vi(3, 900)),
                        event(9600, 950, 3, vi(1, 0) +
                              ld(2, 'named by the tree\n')))))
expect += [r'\[003\] .* task_newtask: .*pid=504 ',
           r'kt-950 +\[003\] .* print: +ip=0x0 buf=named by the tree$']
# two ftrace instances (TraceConfig: linux.ftrace into buffer 0, and one
# with FtraceConfig.instance_name "second" into buffer 1; TraceStats:
# sequence 1 writes buffer 0, sequence 7 buffer 1): sequence 7's events
# go to the .dat buffer "second", on CPU 1 of its own
def ftrace_ds(target, instance=None):
    fc = ld(1, 'ftrace/print') + (ld(25, instance) if instance else b'')
    return ld(2, ld(1, ld(1, 'linux.ftrace') + vi(2, target) +
                    ld(100, fc)))


pk.append(packet(ld(33, ld(1, vi(1, 1024)) + ld(1, vi(1, 1024)) +
                    ftrace_ds(0) + ftrace_ds(1, 'second'))))
pk.append(packet(bundle(1, event(9700, 4242, 3, vi(1, 0) +
                                 ld(2, 'in the second instance\n'))),
                 seq=7))
pk.append(packet(ld(35, ld(18, vi(1, 1) + vi(4, 0)) +
                    ld(18, vi(1, 7) + vi(4, 1)))))
expect.append(r'^second: +from-tree-4242 +\[001\] .* print: +ip=0x0 '
              r'buf=in the second instance$')
tgids = {4242: 4242, 500: 500, 501: 500, 502: 500, 503: 500, 504: 500,
         505: 505, 700: 700, 900: 900, 950: 940}
open(sys.argv[1], 'wb').write(b''.join(pk))
if len(sys.argv) > 2:
    open(sys.argv[2], 'w').write(''.join('%d %d\n' % (p, tgids[p])
                                         for p in sorted(tgids)))
print('\n'.join(expect))
if len(sys.argv) > 3:
    open(sys.argv[3], 'wb').write(packet(bundle(
        0, *[event(10000 + n, 1, 800 + n, vi(1, 1)) for n in range(150)])))
