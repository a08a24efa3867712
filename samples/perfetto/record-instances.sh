#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record-instances.sh - make samples/perfetto/two-instances.*: one run
# recorded at once by tracefs in two buffers (the top one and instance
# "second": two-instances.dat, trace-cmd's extract -t -B second) and by
# Perfetto's own recorder from two ftrace instances of its own
# ("perfetto" with the top buffer's events, "perfetto2" with the
# second's), both data sources writing Perfetto's trace buffer 0
# (two-instances.pftrace.gz).  Which instance a bundle came from is
# then said by no field of the trace: the converter tells the two
# sequences apart by their events (common/pft2dat/pft2dat-instances.c).
#
# The recipe is record.sh's (record-both.sh's: boot clock, record-tgid,
# Perfetto's daemons on sockets of their own, the top trace_marker
# copied into Perfetto's instance), with a second instance on each
# side; the formats of the events it records are those record.sh keeps
# in formats/.  The workload is record.sh's.
#
# usage (as root): PERFETTO_BIN=DIR samples/perfetto/record-instances.sh
set -euo pipefail
# the whole run sees an empty /proc/kallsyms, as record.sh's: the .dat
# small (neither side needs symbols for these events)
if [ -z "${RECORD_NO_KALLSYMS:-}" ]; then
	empty=$(mktemp)
	trap 'rm -f "$empty"' EXIT
	RECORD_NO_KALLSYMS=1 unshare -m --propagation private bash -c \
		'mount --bind "$1" /proc/kallsyms && shift && exec "$@"' _ \
		"$empty" "$0" "$@"
	exit
fi
here=$(cd "$(dirname "$0")" && pwd)
B=${PERFETTO_BIN:?set PERFETTO_BIN to the folder of traced, traced_probes, perfetto}
first=(sched/sched_switch sched/sched_waking sched/sched_wakeup_new
       sched/sched_process_fork sched/sched_process_exec
       sched/sched_process_exit sched/sched_process_free
       task/task_newtask task/task_rename ftrace/print)
second=(syscalls/sys_enter_pread64 syscalls/sys_exit_pread64
	syscalls/sys_enter_pwrite64 syscalls/sys_exit_pwrite64)
work='M=/sys/kernel/tracing/trace_marker; f=$(mktemp); echo "trace-fxt sample: start" > $M;
for i in 1 2 3 4 5 6 7 8; do cat /etc/hostname > /dev/null; sleep 0.01 & done; wait;
python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDWR)
for i in range(50): os.pwrite(fd, b\"x\" * 64, 0); os.pread(fd, 64, 0)" $f;
echo "trace-fxt sample: end" > $M; rm -f $f'
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T
run=$(mktemp -d)
S=$T/instances/second P1=$T/instances/perfetto P2=$T/instances/perfetto2
export PERFETTO_PRODUCER_SOCK_NAME=$run/producer.sock
export PERFETTO_CONSUMER_SOCK_NAME=$run/consumer.sock
cleanup() {
	local p

	for p in perfetto traced_probes traced; do
		[ -f "$run/$p.pid" ] && kill -TERM "$(cat "$run/$p.pid")" 2>/dev/null
	done
	sleep 1
	rmdir $P1 $P2 $S 2>/dev/null
	echo local > $T/trace_clock
	echo 0 > $T/events/enable
	echo 0 > $T/options/record-tgid
	rm -rf "$run"
}
trap cleanup EXIT
daemon() {	# NAME ARGS...: started in the background, its pid kept
	local n=$1

	shift
	(LD_LIBRARY_PATH=$B nohup "$B/$n" "$@" > "$run/$n.log" 2>&1 < /dev/null &
	 echo $! > "$run/$n.pid")
}
source_of() {	# INSTANCE EVENT...: a linux.ftrace data source, buffer 0
	local e

	echo "data_sources { config { name: \"linux.ftrace\" target_buffer: 0"
	echo "  ftrace_config { instance_name: \"$1\" buffer_size_kb: 2048"
	[ "$1" = perfetto ] && echo "  tracefs_options { name: \"copy_trace_marker\" state: STATE_ENABLED }"
	shift
	for e in "$@"; do echo "  ftrace_events: \"$e\""; done
	echo "} } }"
}
{
	echo "buffers { size_kb: 65536 fill_policy: DISCARD }"
	echo "buffers { size_kb: 16384 fill_policy: DISCARD }"
	source_of perfetto "${first[@]}"
	source_of perfetto2 "${second[@]}"
	echo "data_sources { config { name: \"linux.process_stats\" target_buffer: 1 process_stats_config { scan_all_processes_on_start: true } } }"
	echo "data_sources { config { name: \"linux.system_info\" target_buffer: 1 } }"
	echo "duration_ms: 600000 write_into_file: false"
} > "$run/config.pbtx"
mkdir -p $P1 $P2 $S
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo > $T/trace
echo 0 > $T/events/enable
echo boot > $T/trace_clock
echo 1 > $T/options/record-tgid
echo 2048 > $T/buffer_size_kb
# ftrace/print is always on in the top buffer
for e in "${first[@]}"; do echo 1 > $T/events/$e/enable 2>/dev/null || true; done
echo 0 > $S/tracing_on
echo boot > $S/trace_clock
echo 2048 > $S/buffer_size_kb
for e in "${second[@]}"; do echo 1 > $S/events/$e/enable; done
daemon traced
sleep 1
daemon traced_probes
sleep 1
mkfifo "$run/notify"
(LD_LIBRARY_PATH=$B nohup $B/perfetto --txt -c "$run/config.pbtx" \
	-o "$run/s.pftrace" --notify-fd 3 3> "$run/notify" \
	> "$run/perfetto.log" 2>&1 < /dev/null & echo $! > "$run/perfetto.pid")
st=$(timeout 40 head -c1 "$run/notify" | od -An -tu1 | tr -d ' ')
[ "$st" = 0 ] || { echo "perfetto did not start:"; cat "$run"/*.log; exit 1; }
sleep 1
echo 1 > $T/tracing_on
echo 1 > $S/tracing_on
nice -n 19 bash -c "$work"
echo 0 > $T/tracing_on
echo 0 > $S/tracing_on
pid=$(cat "$run/perfetto.pid")
kill -TERM "$pid"
for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
rm "$run/perfetto.pid"
(cd "$run" && trace-cmd extract -t -B second -o s.dat > /dev/null)
trace-cmd convert -i "$run/s.dat" -o "$here/two-instances.dat" \
	--compression zstd
gzip -9 -n -c "$run/s.pftrace" > "$here/two-instances.pftrace.gz"
chmod 644 "$here/two-instances.dat" "$here/two-instances.pftrace.gz"
ls -l "$here"/two-instances.*
