#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Record the project's sample trace.dat files on this machine's kernel.
#
# trace-cmd 3.1.6 "record" cannot run here (the kernel refuses the
# function-tracer files it opens), so events are enabled through tracefs
# and the buffers saved with "trace-cmd extract" (a v7 file, zstd
# sections).  The v6 and uncompressed v7 forms the tests also read are
# made from sched-zstd.dat by "trace-cmd convert" (samples/samples.mk).
# Needs root and tracefs.
#
# usage: samples/record.sh SAMPLE OUT.dat
#   atrace-markers  sched/task/power events of its own workload, which
#                   writes trace_marker lines in the atrace convention
#                   (B|E|C|S|F) and plain text (the demo's sample)
#   net-events      every net event and sched_switch while HTTP requests
#                   go over loopback (up to 19 fields an event)
#   lost-events     sched/irq/timer events into a 4 KB buffer: the ring
#                   buffer drops events and says so
#   sched-zstd      sched, irq and timer events of the whole machine
#   two-buffers     the same in the top buffer and an instance "second"
#   threads         a 4-thread Python process whose threads write atrace
#                   slices with their process id; task, fork, exec and
#                   exit events; record-tgid on (OUT's .tgids: saved_tgids)
#   procmaps        a Python process whose thread makes a thread that writes
#                   atrace slices, and a child that execs; fork, exec, exit
#                   and sched_switch events only (no task_newtask);
#                   record-tgid on (OUT's .tgids: saved_tgids); and, as
#                   "record --proc-map -P PID" saves it, the process's
#                   maps in a PROCMAPS option (procmaps_option below;
#                   trace-cmd 3.1.6 "record" itself dies here, and -F
#                   needs ptrace, which this machine refuses)
#   kernel-states   the whole machine while 3 threads of a Python process
#                   write with fsync (D states) and one spins (preempted:
#                   R+): sched, irq and softirq, cpu_idle/cpu_frequency,
#                   workqueue, block and task events, atrace markers and
#                   a plain-text one beginning with "E"
#   syscalls        raw_syscalls, sched and task events of its own
#                   workload: shell rounds that write atrace slices
#                   (B|E) around short child processes (fork, exec,
#                   exit) and a Python process that starts threads which
#                   write slices of their own: every marker is written
#                   inside a write syscall
#   net-tcp         its own workload only: a Python process that talks TCP
#                   over loopback (connections opened, used and closed),
#                   grows and frees its memory, sends itself and a child
#                   signals and moves its oom_score_adj: net, sock, tcp,
#                   skb, kmem/rss_stat, oom, signal, sched and task events
#                   (what Perfetto draws as network counters, TCP stream
#                   slices, mem.rss.* and oom_score_adj counters, signals)
#   bench-sched     sched, irq, timer events and syscalls of the whole
#                   machine, 64 MB a CPU (make bench; ROUNDS=, default 300)
#   bench-kmem      kmem events and syscalls likewise (make bench)
#   bench-syscalls  syscalls, scheduling and net events of the whole
#                   machine while a process sends small UDP packets over
#                   loopback, likewise (make bench; ROUNDS default 320:
#                   300 made 490,090 events, short of the 500k+ the
#                   benchmarks' inputs are said to have)
set -euo pipefail
sample=${1:?usage: record.sh SAMPLE OUT.dat}
out=${2:?usage: record.sh SAMPLE OUT.dat}
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T

# buf_setup DIR KB EVENT...: an empty, stopped buffer with these events.
buf_setup() {
	local dir=$1 kb=$2 e
	shift 2
	echo 0 > "$dir/tracing_on"
	echo > "$dir/trace"
	echo 0 > "$dir/events/enable"
	for e in "$@"; do
		[ -e "$dir/events/$e/enable" ] && echo 1 > "$dir/events/$e/enable"
	done
	echo "$kb" > "$dir/buffer_size_kb"
}

# own_workload: only this shell and its children are traced.
own_workload() {
	echo 1 > $T/options/event-fork
	echo $$ > $T/set_event_pid
}

cleanup() {
	echo 0 > $T/tracing_on
	echo 0 > $T/events/enable
	echo > $T/set_event_pid
	echo 0 > $T/options/event-fork
	echo 0 > $T/options/record-tgid
	echo 1408 > $T/buffer_size_kb
	[ ! -d $T/instances/second ] || rmdir $T/instances/second
}
trap cleanup EXIT

busy() { # N: N rounds of ordinary work (about 15 ms each) with markers
	local i=0
	while [ $i -lt "$1" ]; do
		ls -la /usr/lib > /dev/null
		cat /proc/cpuinfo > /dev/null
		echo "sample marker $i" > $T/trace_marker
		i=$((i + 1))
		sleep 0.01
	done
}

markers() {
	local i
	for i in 1 2 3 4 5; do
		echo "B|$$|frame $i" > $T/trace_marker
		ls /usr/lib > /dev/null
		echo "C|$$|queue depth|$((i * 3))" > $T/trace_marker
		echo "S|$$|request|$i" > $T/trace_marker
		sleep 0.01
		echo "E|$$" > $T/trace_marker
		echo "F|$$|request|$i" > $T/trace_marker
		echo "plain text marker $i" > $T/trace_marker
	done
}

threads() { # a process of 4 threads, each writing B/E slices as atrace does
	python3 - <<'EOF'
import os, threading, time
T = "/sys/kernel/tracing/trace_marker"
pid = os.getpid()
def work(n):
    tid = threading.get_native_id()
    with open(f"/proc/self/task/{tid}/comm", "w") as c:
        c.write(f"worker-{n}" if n < 3 else "threads-main")
    with open(T, "w", buffering=1) as m:
        for i in range(3):
            m.write(f"B|{pid}|worker {n} step {i}\n")
            sum(range(20000))
            time.sleep(0.002)
            m.write(f"E|{pid}\n")
        m.write(f"C|{pid}|done|{n}\n")
ts = [threading.Thread(target=work, args=(n,), name=f"worker-{n}")
      for n in range(3)]
for t in ts:
    t.start()
work(3)
for t in ts:
    t.join()
EOF
}

nested() { # a thread that makes a thread; only the inner one writes markers
	# (the script as an argument: standard input is the recorder's pipe)
	/usr/bin/python3 -c "$(cat <<'EOF'
import os, subprocess, sys, threading, time
T = "/sys/kernel/tracing/trace_marker"
pid = os.getpid()
def name(n):
    tid = threading.get_native_id()
    with open(f"/proc/self/task/{tid}/comm", "w") as c:
        c.write(n)
def inner():
    name("inner")
    with open(T, "w", buffering=1) as m:
        for i in range(3):
            m.write(f"B|{pid}|inner step {i}\n")
            sum(range(20000))
            time.sleep(0.002)
            m.write(f"E|{pid}\n")
def outer():
    name("outer")
    sum(range(50000))
    t = threading.Thread(target=inner)
    t.start()
    t.join()
name("nested-main")
a = threading.Thread(target=outer)
a.start()
a.join()
subprocess.run(["/bin/true"])
print(pid, flush=True)
sys.stdin.readline()    # the recorder reads our maps meanwhile
EOF
)"
}

# procmaps_text PID: the text trace-cmd record --proc-map stores for PID
# (trace-record.c, get_pid_addr_maps() and add_pid_maps(): "pid nr exe"
# in hex, then "start end file" in hex for each maps line naming a file)
procmaps_text() {
	python3 - "$1" <<'EOF'
import os, sys
pid = int(sys.argv[1])
exe = os.readlink(f"/proc/{pid}/exe")
libs = []
for ln in open(f"/proc/{pid}/maps"):
    f = ln.split()
    if len(f) >= 6:
        a, b = f[0].split("-")
        libs.append("%x %x %s" % (int(a, 16), int(b, 16), f[5]))
sys.stdout.write("%x %x %s\n" % (pid, len(libs), exe))
sys.stdout.write("".join(l + "\n" for l in libs))
EOF
}

# procmaps_option DAT TEXTFILE: add TEXTFILE as a PROCMAPS option (id 10,
# NUL-terminated) to an uncompressed v7 DAT, in an options section of its
# own at the end, chained from the last one's DONE option as trace-cmd
# chains its own (Documentation/trace-cmd/trace-cmd.dat.v7.5.txt).
procmaps_option() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
dat, text = sys.argv[1], open(sys.argv[2], "rb").read() + b"\0"
b = bytearray(open(dat, "rb").read())
assert b[10:12] == b"7\0" and b[12] == 0, "a little-endian v7 file"
p = 18
for _ in range(2):              # compression name and version
    p = b.index(0, p) + 1
off = first = struct.unpack_from("<Q", b, p)[0]
while True:
    sid, flags, desc, size = struct.unpack_from("<HHIQ", b, off)
    assert sid == 0 and not flags, "uncompressed options sections"
    q, end = off + 16, off + 16 + size
    while q < end:
        oid, osz = struct.unpack_from("<HI", b, q)
        if oid == 0:
            break
        q += 6 + osz
    nxt = struct.unpack_from("<Q", b, q + 6)[0]
    if not nxt:
        break
    off = nxt
desc0 = struct.unpack_from("<I", b, first + 4)[0]
struct.pack_into("<Q", b, q + 6, len(b))
body = struct.pack("<HI", 10, len(text)) + text + struct.pack("<HIQ", 0, 8, 0)
b += struct.pack("<HHIQ", 0, 0, desc0, len(body)) + body
open(dat, "wb").write(b)
EOF
}

udp() { # N rounds of 200 small UDP round trips over loopback
	/usr/bin/python3 -c "$(cat <<'EOF2'
import socket, sys, time
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.1", 0))
b.bind(("127.0.0.1", 0))
for i in range(int(sys.argv[1])):
    for j in range(200):
        a.sendto(b"x" * 64, b.getsockname())
        b.recvfrom(64)
    time.sleep(0.005)
EOF2
)" "$1"
}

syncwrites() { # 3 threads writing with fsync (D states), one spinning (R+)
	# (the script as an argument, as nested() does; a file on the root
	# file system: fsync on tmpfs would not wait for the disk)
	local dir
	dir=$(mktemp -d /var/tmp/record-sample.XXXXXX)
	/usr/bin/python3 -c "$(cat <<'EOF'
import os, subprocess, sys, threading, time
T = "/sys/kernel/tracing/trace_marker"
pid = os.getpid()
stop = False
def name(n):
    with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as c:
        c.write(n)
def writer(n):
    name(f"syncwriter-{n}")
    path = os.path.join(sys.argv[1], f"f{n}")
    with open(T, "w", buffering=1) as m, open(path, "wb") as f:
        for i in range(6):
            m.write(f"B|{pid}|write {n}.{i}\n")
            f.write(os.urandom(8192))
            f.flush()
            os.fsync(f.fileno())
            m.write(f"E|{pid}\n")
            m.write(f"C|{pid}|written {n}|{(i + 1) * 8}\n")
        m.write(f"Each write of thread {n} reached the disk\n")
def spinner():
    name("spinner")
    while not stop:
        sum(range(10000))
name("syncwrites")
s = threading.Thread(target=spinner)
s.start()
ws = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
for w in ws:
    w.start()
for w in ws:
    w.join()
subprocess.run(["/bin/sync"])
stop = True
s.join()
EOF
)" "$dir"
	rm -rf "$dir"
}

syscalls() { # atrace slices around children; threads that start and end
	local i=0
	while [ $i -lt 12 ]; do
		echo "B|$$|round $i" > $T/trace_marker
		/bin/true
		echo "B|$$|child $i" > $T/trace_marker
		/bin/ls / > /dev/null
		echo "E|$$" > $T/trace_marker
		echo "E|$$" > $T/trace_marker
		i=$((i + 1))
	done
	/usr/bin/python3 -c "$(cat <<'EOF2'
import os, threading
T = "/sys/kernel/tracing/trace_marker"
pid = os.getpid()
def work(n):
    with open(T, "w", buffering=1) as m:
        for i in range(3):
            m.write(f"B|{pid}|thread {n} step {i}\n")
            os.getppid()
            m.write(f"E|{pid}\n")
ts = [threading.Thread(target=work, args=(n,)) for n in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
EOF2
)"
}

net() {
	python3 -m http.server 18765 --bind 127.0.0.1 > /dev/null 2>&1 &
	local srv=$! i
	sleep 0.5
	echo 1 > $T/tracing_on
	for i in 1 2 3; do
		python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:18765/').read()"
	done
	echo 0 > $T/tracing_on
	kill $srv
}

nettcp() { # TCP over loopback, memory, signals, oom_score_adj
	# (the script as an argument, as nested() does)
	/usr/bin/python3 -c "$(cat <<'EOF2'
import os, signal, socket, subprocess, threading, time
signal.signal(signal.SIGUSR1, lambda *a: None)
def serve(s):
    while True:
        c, _ = s.accept()
        with c:
            while True:
                d = c.recv(65536)
                if not d:
                    break
                c.sendall(d[:1024])
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(8)
threading.Thread(target=serve, args=(srv,), daemon=True).start()
keep = []
for i in range(6):
    c = socket.create_connection(srv.getsockname())
    for k in range(4):
        c.sendall(os.urandom(16384))
        c.recv(65536)
    c.close()
    keep.append(bytearray(4 << 20))     # rss grows
    if i % 2:
        keep.pop(0)                     # and shrinks
    os.kill(os.getpid(), signal.SIGUSR1)
    with open("/proc/self/oom_score_adj", "w") as f:
        f.write(str(100 * (i % 3)))
    time.sleep(0.005)
p = subprocess.Popen(["/bin/sleep", "5"])
time.sleep(0.02)
p.send_signal(signal.SIGTERM)
p.wait()
EOF2
)"
}

case $sample in
atrace-markers)
	buf_setup $T 1024 sched/sched_switch sched/sched_waking \
		sched/sched_wakeup sched/sched_process_fork \
		sched/sched_process_exec task power/cpu_idle power/cpu_frequency
	own_workload
	echo 1 > $T/tracing_on
	markers
	;;
net-events)
	buf_setup $T 1024 net sched/sched_switch
	net
	;;
lost-events)
	buf_setup $T 4 sched irq timer
	echo 1 > $T/tracing_on
	busy 40
	;;
sched-zstd)
	buf_setup $T 1024 sched irq timer
	echo 1 > $T/tracing_on
	busy 40
	;;
two-buffers)
	mkdir -p $T/instances/second
	buf_setup $T 1024 sched irq timer
	buf_setup $T/instances/second 1024 sched irq timer
	echo 1 > $T/instances/second/tracing_on
	echo 1 > $T/tracing_on
	busy 20
	echo 0 > $T/instances/second/tracing_on
	;;
threads)
	buf_setup $T 1024 sched task sched/sched_process_fork \
		sched/sched_process_exec sched/sched_process_exit
	echo 1 > $T/options/record-tgid
	own_workload
	echo 1 > $T/tracing_on
	threads
	;;
procmaps)
	buf_setup $T 1024 sched/sched_switch sched/sched_process_fork \
		sched/sched_process_exec sched/sched_process_exit
	echo 1 > $T/options/record-tgid
	own_workload
	echo 1 > $T/tracing_on
	coproc NESTED { nested; }
	read -r npid <&"${NESTED[0]}"
	echo 0 > $T/tracing_on
	procmaps_text "$npid" > "${out%.dat}.procmaps"
	echo >&"${NESTED[1]}"
	wait "$NESTED_PID"
	;;
kernel-states)
	buf_setup $T 2048 sched irq power/cpu_idle power/cpu_frequency \
		workqueue/workqueue_execute_start workqueue/workqueue_execute_end \
		block/block_rq_issue block/block_rq_complete task
	echo 1 > $T/tracing_on
	syncwrites
	;;
syscalls)
	buf_setup $T 4096 raw_syscalls sched/sched_switch sched/sched_waking \
		sched/sched_wakeup_new sched/sched_process_fork \
		sched/sched_process_exec sched/sched_process_exit \
		sched/sched_process_free task
	own_workload
	echo 1 > $T/tracing_on
	syscalls
	;;
net-tcp)
	buf_setup $T 1024 net sock tcp skb kmem/rss_stat oom signal \
		sched/sched_switch sched/sched_waking sched/sched_wakeup_new \
		sched/sched_process_fork sched/sched_process_exec \
		sched/sched_process_exit sched/sched_process_free task
	own_workload
	echo 1 > $T/tracing_on
	nettcp
	;;
bench-sched)
	buf_setup $T 65536 sched irq timer raw_syscalls
	echo 1 > $T/tracing_on
	busy "${ROUNDS:-300}"
	;;
bench-kmem)
	buf_setup $T 65536 kmem raw_syscalls
	echo 1 > $T/tracing_on
	busy "${ROUNDS:-300}"
	;;
bench-syscalls)
	buf_setup $T 65536 raw_syscalls sched/sched_switch sched/sched_waking \
		net/net_dev_xmit net/netif_receive_skb skb/consume_skb
	echo 1 > $T/tracing_on
	udp "${ROUNDS:-320}"
	;;
*)
	echo "record.sh: no sample named $sample" >&2
	exit 2
	;;
esac
echo 0 > $T/tracing_on
case $sample in
two-buffers)	trace-cmd extract -t -B second -o "$out" > /dev/null ;;
procmaps)	# trace-cmd itself compresses the result, option included
		trace-cmd extract --compression none -o "$out.raw" > /dev/null
		procmaps_option "$out.raw" "${out%.dat}.procmaps"
		trace-cmd convert -i "$out.raw" -o "$out" --compression zstd \
			> /dev/null
		rm "$out.raw" "${out%.dat}.procmaps" ;;
*)		trace-cmd extract -o "$out" > /dev/null ;;
esac
case $sample in
threads|procmaps) cp $T/saved_tgids "${out%.dat}.tgids" ;;
esac
echo "$out: $(trace-cmd report "$out" 2>/dev/null | wc -l) lines in trace-cmd report"
