# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bench-*.sh scripts: figures only, nothing passes or fails
# on time.  Sourcing it sets where things are and how often to run them.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TRACE_FXT=$TOP/trace-cmd-plugin/trace-fxt
BENCH_DIR=${BENCH_DIR:-/tmp/trace-fxt-bench}
RUNS=${BENCH_RUNS:-3}
export TRACECMD_PLUGIN_DIR=$TOP/trace-cmd-plugin

# bench_input: the trace the scripts after bench-convert.sh measure: the
# recording it keeps in $BENCH_DIR (or BENCH_DAT=file), else the shared
# sched-irq-timer sample; prints its path, or nothing if there is none.
bench_input() {
	local dat=${BENCH_DAT:-$BENCH_DIR/convert-big.dat}

	[ -s "$dat" ] || dat=$TOP/../shared/samples/sched-irq-timer.dat
	[ -s "$dat" ] && echo "$dat"
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
