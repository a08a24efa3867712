# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bench-*.sh scripts: figures only, nothing passes or fails
# on time.  Sourcing it sets where things are and how often to run them.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# What the build made: make's $(O) (make bench passes it), by default the
# tree's build/.
BUILD=${BUILD_DIR:-$TOP/build}
TRACE_FXT=$BUILD/trace-cmd-plugin/trace-fxt/trace-fxt
BENCH_DIR=${BENCH_DIR:-/tmp/trace-fxt-bench}
RUNS=${BENCH_RUNS:-3}
export TRACECMD_PLUGIN_DIR=$BUILD/trace-cmd-plugin/trace-fxt-input

RECORD=$TOP/samples/record.sh
# KernelShark's own plugins (sched_events...), which its GUI turns on:
# bench-kshark-load -g takes them from here; empty when not installed
KS_DIR=$(ldconfig -p | sed -n 's/.*libkshark\.so[^>]*=> //p' | head -1)
KS_DIR=${KS_DIR:+$(dirname "$KS_DIR")/kernelshark/plugins}
[ -n "$KS_DIR" ] && [ -d "$KS_DIR" ] || KS_DIR=
ITERATE=$BUILD/tests/bench/tc-iterate
BENCH_MIN_EVENTS=500000

# bench_record NAME: print the path of $BENCH_DIR/NAME.dat, a recording of
# samples/record.sh's NAME workload with at least BENCH_MIN_EVENTS events,
# made now (root and tracefs needed) unless an earlier run left one; or
# print nothing and say on stderr why there is none.
bench_record() {
	local dat=$BENCH_DIR/$1.dat rounds

	mkdir -p "$BENCH_DIR" || return 1
	for rounds in 300 600 1200; do
		if [ -s "$dat" ] && [ "$("$ITERATE" "$dat" 2>/dev/null || echo 0)" \
			-ge $BENCH_MIN_EVENTS ]; then
			echo "$dat"
			return 0
		fi
		if [ "$(id -u)" -ne 0 ]; then
			echo "no $dat: recording it needs root" >&2
			return 1
		fi
		echo "recording $dat ($1, $rounds rounds)..." >&2
		ROUNDS=$rounds "$RECORD" "$1" "$dat" > /dev/null 2>&1 || {
			echo "no $dat: samples/record.sh $1 failed" >&2
			return 1
		}
	done
	echo "$dat"
}

# bench_input: the trace the scripts measure: BENCH_DAT=file, else the
# sched-heavy recording; prints its path, or nothing if there is none.
bench_input() {
	if [ -n "${BENCH_DAT:-}" ]; then
		echo "$BENCH_DAT"
	else
		bench_record bench-sched
	fi
}

# best CMD...: run CMD $RUNS times (output discarded) and print the best
# wall time in seconds, or 0 (and a note on stderr) if it failed.
best() {
	local best= t0 t1 t i
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		"$@" > /dev/null 2>&1 || { echo "FAILED: $*" >&2; echo 0; return; }
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	printf '%.3f\n' "$best"
}

# once CMD...: run CMD once (output discarded) and print its wall time in
# seconds, or 0 (and a note on stderr) if it failed.
once() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" > /dev/null 2>&1 || { echo "FAILED: $*" >&2; echo 0; return; }
	t1=$(date +%s.%N)
	printf '%.3f\n' "$(echo "$t1 - $t0" | bc -l)"
}

# median X...: the median of the numbers given (the lower middle one of
# an even count).
median() {
	printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"
}

# bench_machine: one line saying what the figures were measured on: a
# ratio from one machine is not a ratio for another, and a busy machine
# (other jobs, load average above the core count) moves them all.
bench_machine() {
	local model cores
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	cores=$(nproc 2>/dev/null || echo '?')
	echo "machine: ${model:-unknown CPU}, $cores cores online," \
	     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

# spread X...: "MEDIAN (MIN-MAX, N runs)" of the numbers given: every
# figure with how far its runs strayed.
spread() {
	printf '%s\n' "$@" | sort -g | awk '
		{ v[NR] = $1 }
		END {
			if (!NR) { print "?"; exit }
			m = v[int((NR + 1) / 2)]
			printf("%.2f (%.2f-%.2f, %d runs)\n", m, v[1], v[NR], NR)
		}'
}

# peak_kb CMD...: the peak resident set of CMD and the children it
# waited for, in KB (GNU time's %M), output discarded; 0 if it failed.
peak_kb() {
	local f kb

	f=$(mktemp) || { echo 0; return; }
	if /usr/bin/time -o "$f" -f '%M' "$@" > /dev/null 2>&1; then
		kb=$(tail -1 "$f")
	fi
	rm -f "$f"
	echo "${kb:-0}"
}
