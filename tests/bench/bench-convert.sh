#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT conversion speed and size, on a recording of >= 500k events.
#
# On two recordings of >= 500k events each that samples/record.sh makes
# here (root and tracefs needed) and keeps in $BENCH_DIR: a sched-heavy
# one and a kmem-heavy one (or BENCH_DAT=file alone).  Reported, best of
# $BENCH_RUNS runs each:
#   trace-fxt convert time / `trace-cmd report > /dev/null`
#   trace-fxt convert time / bare tracecmd_iterate_events pass
#   FXT size / the .dat's uncompressed CPU data
set -uo pipefail
. "$(dirname "$0")/lib.sh"

echo "== trace-cmd input plugin: .dat -> FXT conversion"
inputs=()
if [ -n "${BENCH_DAT:-}" ]; then
	inputs=("$BENCH_DAT")
else
	for name in bench-sched bench-kmem; do
		dat=$(bench_record $name) && inputs+=("$dat")
	done
fi
[ ${#inputs[@]} -gt 0 ] || {
	echo "skipped: no recording; set BENCH_DAT=a .dat of >= $BENCH_MIN_EVENTS events"
	exit 0
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ratio() { [ "$2" != 0.000 ] && echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./' || echo "?"; }

measure() { # DAT
	local dat=$1 events t_report t_iter t_conv fxt_size raw t_gz gz_size
	local t_zst zst_size zdat_size

	events=$("$ITERATE" "$dat" 2>/dev/null || echo 0)
	echo "input: $dat, $events events, $(stat -c %s "$dat") bytes"
	[ "$events" -gt 0 ] || return 1
	t_report=$(best trace-cmd report "$dat")
	t_iter=$(best "$ITERATE" "$dat")
	t_conv=$(best "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
	fxt_size=$(stat -c %s "$work/out.fxt")
	t_gz=$(best "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt.gz")
	gz_size=$(stat -c %s "$work/out.fxt.gz")
	t_zst=$(best "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt.zst")
	zst_size=$(stat -c %s "$work/out.fxt.zst")
	trace-cmd convert --compression zstd -i "$dat" -o "$work/z.dat" \
		> /dev/null 2>&1
	zdat_size=$(stat -c %s "$work/z.dat")
	trace-cmd convert --compression none -i "$dat" -o "$work/raw.dat" \
		> /dev/null 2>&1
	raw=$(trace-cmd dump --summary "$work/raw.dat" 2>/dev/null |
	      sed -n 's/.* \([0-9][0-9]*\) bytes flyrecord data.*/\1/p' |
	      awk '{ s += $1 } END { print s + 0 }')

	printf '  %-44s %8s s\n' "trace-cmd report > /dev/null" "$t_report"
	printf '  %-44s %8s s\n' "bare tracecmd_iterate_events_multi" "$t_iter"
	printf '  %-44s %8s s  (%s events/s)\n' "trace-fxt convert" "$t_conv" \
		"$(echo "$events / $t_conv" | bc 2>/dev/null)"
	printf '  %-44s %8s   (aim <= 0.2)\n' "convert / trace-cmd report" \
		"$(ratio "$t_conv" "$t_report")"
	printf '  %-44s %8s   (aim <= 1.3)\n' "convert / bare iteration" \
		"$(ratio "$t_conv" "$t_iter")"
	printf '  %-44s %8s   (%s FXT bytes, %s bytes of CPU data)\n' \
		"FXT size / uncompressed CPU data" "$(ratio "$fxt_size" "$raw")" \
		"$fxt_size" "$raw"
	printf '  %-44s %8s\n' "FXT bytes per event" "$((fxt_size / events))"
	printf '  %-44s %8s   (%s s; aim <= 1.5)\n' "convert -o .fxt.gz / plain convert" \
		"$(ratio "$t_gz" "$t_conv")" "$t_gz"
	printf '  %-44s %8s   (%s bytes; aim <= 1.0)\n' ".fxt.gz size / zstd .dat size" \
		"$(ratio "$gz_size" "$zdat_size")" "$gz_size"
	printf '  %-44s %8s   (%s s, %s bytes)\n' "convert -o .fxt.zst / plain convert" \
		"$(ratio "$t_zst" "$t_conv")" "$t_zst" "$zst_size"
}

for dat in "${inputs[@]}"; do
	measure "$dat"
done
