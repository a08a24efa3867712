#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT conversion speed and size, on a recording of >= 500k events.
#
# On two recordings of >= 500k events each that samples/record.sh makes
# here (root and tracefs needed) and keeps in $BENCH_DIR: a sched-heavy
# one and a kmem-heavy one (or BENCH_DAT=file alone).  Reported:
#   trace-fxt convert time / `trace-cmd report > /dev/null`
#   trace-fxt convert time / bare tracecmd_iterate_events pass
# as the median of $BENCH_RUNS rounds, each round running the three one
# after the other (alternating, so that load from elsewhere on the
# machine weighs on all three alike), and the best time of each;
#   FXT size / the .dat's uncompressed CPU data
# and, for each recording, the same two time ratios on its uncompressed
# twin (`trace-cmd convert --compression none`): libtracecmd reads that
# about twice as fast, so there the mapping, not the reading, is what the
# conversion waits for.  The floor row is the bare pass against `trace-cmd
# report`: no converter reading through libtracecmd gets below it.
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
	local i tr ti tc r_rep=() r_iter=()
	t_report= t_iter= t_conv=
	for ((i = 0; i < RUNS; i++)); do
		tr=$(once trace-cmd report "$dat")
		ti=$(once "$ITERATE" "$dat")
		tc=$(once "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
		r_rep+=("$(ratio "$tc" "$tr")")
		r_iter+=("$(ratio "$tc" "$ti")")
		t_report=$(printf '%s\n' $t_report "$tr" | sort -g | head -1)
		t_iter=$(printf '%s\n' $t_iter "$ti" | sort -g | head -1)
		t_conv=$(printf '%s\n' $t_conv "$tc" | sort -g | head -1)
	done
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

	printf '  %-44s %8s s (best)\n' "trace-cmd report > /dev/null" "$t_report"
	printf '  %-44s %8s s (best)\n' "bare tracecmd_iterate_events_multi" "$t_iter"
	printf '  %-44s %8s s (best) (%s events/s)\n' "trace-fxt convert" "$t_conv" \
		"$(echo "$events / $t_conv" | bc 2>/dev/null)"
	printf '  %-44s %8s   (median of %s alternating rounds; aim <= 0.2)\n' \
		"convert / trace-cmd report" "$(median "${r_rep[@]}")" "$RUNS"
	printf '  %-44s %8s   (the floor of the row above)\n' \
		"bare iteration / trace-cmd report" "$(ratio "$t_iter" "$t_report")"
	printf '  %-44s %8s   (median of %s alternating rounds; aim <= 1.3)\n' \
		"convert / bare iteration" "$(median "${r_iter[@]}")" "$RUNS"
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
	measure_twin "$work/raw.dat"
}

# measure_twin DAT: convert against the bare pass on the uncompressed twin.
measure_twin() {
	local dat=$1 i ti tc r_iter=()

	for ((i = 0; i < RUNS; i++)); do
		ti=$(once "$ITERATE" "$dat")
		tc=$(once "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
		r_iter+=("$(ratio "$tc" "$ti")")
	done
	printf '  %-44s %8s   (uncompressed twin, %s bytes; median of %s rounds)\n' \
		"convert / bare iteration, uncompressed" "$(median "${r_iter[@]}")" \
		"$(stat -c %s "$dat")" "$RUNS"
}

for dat in "${inputs[@]}"; do
	measure "$dat"
done
