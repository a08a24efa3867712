#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT conversion speed, size and memory, on recordings of >= 500k
# events.
#
# On three recordings of >= 500k events each that samples/record.sh makes
# here (root and tracefs needed) and keeps in $BENCH_DIR: a sched-heavy
# one, a kmem-heavy one and a syscall-heavy one (or BENCH_DAT=file
# alone).  The machine (CPU model, cores, load) is printed first: a ratio
# measured on one machine says nothing of another.  Reported:
#   trace-fxt convert time / `trace-cmd report > /dev/null`, the median
#     of $BENCH_RUNS rounds, each running the three one after the other
#     (alternating, so that load from elsewhere on the machine weighs on
#     all alike), and the best time of each;
#   trace-fxt convert / bare tracecmd_iterate_events pass, wall and CPU
#     time, from $BENCH_RATIO_RUNS rounds alternating the two (default
#     11): the median with the lowest and highest round.  The CPU time
#     is all the conversion's threads' work: on a busy machine, where
#     the second core is someone else's, the wall ratio tends to it;
#   the peak resident memory of the conversion (trace-fxt and its
#     reading child) / `trace-cmd report`'s;
#   FXT size / the .dat's uncompressed CPU data;
# and, for each recording, the convert / bare pass ratio on its
# uncompressed twin (`trace-cmd convert --compression none`): libtracecmd
# reads that about twice as fast, so there the mapping, not the reading,
# is what the conversion waits for.  The floor row is the bare pass
# against `trace-cmd report`: no converter reading through libtracecmd
# gets below it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

echo "== trace-cmd input plugin: .dat -> FXT conversion"
bench_machine
RATIO_RUNS=${BENCH_RATIO_RUNS:-11}
inputs=()
if [ -n "${BENCH_DAT:-}" ]; then
	inputs=("$BENCH_DAT")
else
	for name in bench-sched bench-kmem bench-syscalls; do
		dat=$(bench_record $name) && inputs+=("$dat")
	done
fi
[ ${#inputs[@]} -gt 0 ] || {
	echo "skipped: no recording; set BENCH_DAT=a .dat of >= $BENCH_MIN_EVENTS events"
	exit 0
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ratio() {
	if [ "$(echo "${2:-0} > 0" | bc -l)" = 1 ]; then
		echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'
	else
		echo "?"
	fi
}

measure() { # DAT
	local dat=$1 events t_report t_iter t_conv fxt_size raw t_gz gz_size
	local t_zst zst_size zdat_size

	events=$("$ITERATE" "$dat" 2>/dev/null || echo 0)
	echo "input: $dat, $events events, $(stat -c %s "$dat") bytes"
	[ "$events" -gt 0 ] || return 1
	local i tr ti tc r_rep=()
	t_report= t_iter= t_conv=
	for ((i = 0; i < RUNS; i++)); do
		tr=$(once trace-cmd report "$dat")
		ti=$(once "$ITERATE" "$dat")
		tc=$(once "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
		r_rep+=("$(ratio "$tc" "$tr")")
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
	printf '  %-44s %s   (aim <= 0.2)\n' \
		"convert / trace-cmd report" "$(spread "${r_rep[@]}")"
	printf '  %-44s %8s   (the floor of the row above)\n' \
		"bare iteration / trace-cmd report" "$(ratio "$t_iter" "$t_report")"
	pair_ratios "$dat" "$work/out.fxt"
	printf '  %-44s %s   (aim <= 1.1)\n' "convert / bare iteration, wall" \
		"$(spread "${r_wall[@]}")"
	printf '  %-44s %s\n' "convert / bare iteration, CPU time" \
		"$(spread "${r_cpu[@]}")"
	local kb_conv kb_rep
	kb_rep=$(peak_kb trace-cmd report "$dat")
	kb_conv=$(peak_kb "$TRACE_FXT" convert -q "$dat" -o "$work/out.fxt")
	printf '  %-44s %8s   (%s MB against %s MB; aim <= 1.5)\n' \
		"peak memory, convert / trace-cmd report" \
		"$(ratio "$kb_conv" "$kb_rep")" "$((kb_conv / 1024))" \
		"$((kb_rep / 1024))"
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

# wall_cpu CMD...: "WALL CPU" of one run of CMD in seconds (CPU: user +
# system, its children's included), output discarded; "0 0" if it failed.
wall_cpu() {
	local f t0 t1 cpu

	f=$(mktemp) || { echo "0 0"; return; }
	t0=$(date +%s%N)
	if ! /usr/bin/time -o "$f" -f '%U %S' "$@" > /dev/null 2>&1; then
		echo "FAILED: $*" >&2
		rm -f "$f"
		echo "0 0"
		return
	fi
	t1=$(date +%s%N)
	cpu=$(tail -1 "$f" | awk '{ printf("%.2f", $1 + $2) }')
	rm -f "$f"
	echo "$(echo "scale=3; ($t1 - $t0) / 1000000000" | bc -l) $cpu"
}

# pair_ratios DAT OUT: r_wall and r_cpu, convert / bare pass, from
# $RATIO_RUNS rounds of the two one after the other.  Each conversion
# writes a new file, as a first conversion does: the previous round's
# output is removed before the clock starts.  Replacing it would add its
# removal to the round (the kernel frees its pages and blocks within the
# rename: 17 ms of bench-syscalls' 76 MB), a cost of the file system
# that any tool overwriting it pays.
pair_ratios() {
	local dat=$1 out=$2 i it cv

	r_wall=() r_cpu=()
	for ((i = 0; i < RATIO_RUNS; i++)); do
		it=($(wall_cpu "$ITERATE" "$dat"))
		rm -f "$out"
		cv=($(wall_cpu "$TRACE_FXT" convert -q "$dat" -o "$out"))
		r_wall+=("$(ratio "${cv[0]}" "${it[0]}")")
		r_cpu+=("$(ratio "${cv[1]}" "${it[1]}")")
	done
}

# measure_twin DAT: convert against the bare pass on the uncompressed twin.
measure_twin() {
	local dat=$1

	pair_ratios "$dat" "$work/out.fxt"
	printf '  %-44s %s   (uncompressed twin, %s bytes)\n' \
		"convert / bare iteration, uncompressed" "$(spread "${r_wall[@]}")" \
		"$(stat -c %s "$dat")"
}

for dat in "${inputs[@]}"; do
	measure "$dat"
done
