#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Record samples/atrace-markers.dat: scheduler, task and power events plus
# trace_marker writes in the atrace convention (B|E|C|S|F) and plain text,
# the way ../shared/tools/record-sample.sh records (tracefs + extract,
# since trace-cmd record cannot run here).  Needs root and tracefs.
#   usage: record-atrace-markers.sh OUT.dat
set -euo pipefail
out=${1:?usage: record-atrace-markers.sh OUT.dat}
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on; echo > $T/trace; echo 0 > $T/events/enable
for e in sched/sched_switch sched/sched_waking sched/sched_wakeup \
	 sched/sched_process_fork sched/sched_process_exec task \
	 power/cpu_idle power/cpu_frequency; do
	[ -e $T/events/$e/enable ] && echo 1 > $T/events/$e/enable
done
echo 1024 > $T/buffer_size_kb
echo 1 > $T/tracing_on
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
echo 0 > $T/tracing_on
trace-cmd extract -o "$out" > /dev/null
echo 0 > $T/events/enable
