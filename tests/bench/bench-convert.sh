#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT conversion speed and size, on a recording of >= 500k events.
#
# The recording is made here (record-sample.sh with 32 MB per-CPU buffers;
# root and tracefs needed) and kept in $BENCH_DIR for the next run, or
# taken from BENCH_DAT=file.  Reported, best of $BENCH_RUNS runs each:
#   trace-fxt convert time / `trace-cmd report > /dev/null`   (aim <= 0.3)
#   trace-fxt convert time / bare tracecmd_iterate_events pass (aim <= 1.5)
#   FXT size / the .dat's uncompressed CPU data
set -uo pipefail
. "$(dirname "$0")/lib.sh"
ITERATE=$TOP/tests/bench/tc-iterate
RECORD=${RECORD_SAMPLE:-$TOP/../shared/tools/record-sample.sh}
MIN_EVENTS=500000

echo "== trace-cmd input plugin: .dat -> FXT conversion"
mkdir -p "$BENCH_DIR" || exit 1
dat=${BENCH_DAT:-$BENCH_DIR/convert-big.dat}

count_events() { "$ITERATE" "$1" 2>/dev/null || echo 0; }

if [ -z "${BENCH_DAT:-}" ] && { [ ! -s "$dat" ] ||
	[ "$(count_events "$dat")" -lt $MIN_EVENTS ]; }; then
	why=
	[ "$(id -u)" -eq 0 ] || why="recording needs root"
	[ -n "$why" ] || [ -x "$RECORD" ] || why="no $RECORD"
	[ -n "$why" ] || [ -e /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		why="tracefs cannot be mounted"
	if [ -n "$why" ]; then
		echo "skipped: cannot record a benchmark trace ($why);" \
		     "set BENCH_DAT=a .dat of >= $MIN_EVENTS events"
		exit 0
	fi
	for secs in 5 10 20; do
		echo "recording $secs s of sched, irq, timer, syscalls events..."
		BUFFER_KB=32768 "$RECORD" "$dat" $secs sched irq timer \
			syscalls > /dev/null 2>&1 || {
			echo "skipped: record-sample.sh failed"; exit 0; }
		[ "$(count_events "$dat")" -ge $MIN_EVENTS ] && break
	done
fi
events=$(count_events "$dat")
echo "input: $dat, $events events, $(stat -c %s "$dat") bytes"
[ "$events" -ge $MIN_EVENTS ] ||
	echo "note: fewer than $MIN_EVENTS events; figures are less telling"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t_report=$(best trace-cmd report "$dat")
t_iter=$(best "$ITERATE" "$dat")
t_conv=$(best "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
fxt_size=$(stat -c %s "$work/out.fxt")
trace-cmd convert --compression none -i "$dat" -o "$work/raw.dat" \
	> /dev/null 2>&1
raw=$(trace-cmd dump --summary "$work/raw.dat" 2>/dev/null |
      sed -n 's/.* \([0-9][0-9]*\) bytes flyrecord data.*/\1/p' |
      awk '{ s += $1 } END { print s + 0 }')

ratio() { [ "$2" != 0.000 ] && echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./' || echo "?"; }
printf '  %-44s %8s s\n' "trace-cmd report > /dev/null" "$t_report"
printf '  %-44s %8s s\n' "bare tracecmd_iterate_events_multi" "$t_iter"
printf '  %-44s %8s s  (%s events/s)\n' "trace-fxt convert" "$t_conv" \
	"$(echo "$events / $t_conv" | bc 2>/dev/null)"
printf '  %-44s %8s   (aim <= 0.3)\n' "convert / trace-cmd report" \
	"$(ratio "$t_conv" "$t_report")"
printf '  %-44s %8s   (aim <= 1.5)\n' "convert / bare iteration" \
	"$(ratio "$t_conv" "$t_iter")"
printf '  %-44s %8s   (%s FXT bytes, %s bytes of CPU data)\n' \
	"FXT size / uncompressed CPU data" "$(ratio "$fxt_size" "$raw")" \
	"$fxt_size" "$raw"
printf '  %-44s %8s\n' "FXT bytes per event" "$((fxt_size / events))"
