#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# KernelShark's load time (kshark_open + kshark_load_entries, as the GUI
# does it) for a .fxt against the .dat it was converted from: the same
# trace of at least 500k events, loaded in the same process, warm cache,
# the two in turn.  First as the kernelshark program opens a file, with
# what it turns on by default (bench-kshark-load -g: sched_events and the
# other default plugins on the .dat's stream, plugin-fxt.so's plot part
# on the .fxt's; aim: the .fxt in at most 0.3x the time of the .dat);
# then libkshark's load alone, no plugin on either.  The CPU time is
# there too: on a busy machine it says what the wall clock cannot.
#
#   BENCH_DAT=trace.dat   use this recording (default: the kmem-heavy one
#                         tests/bench/lib.sh records once, as root)
#   BENCH_REPS=N          loads per file (default 7)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
LOADER=$BUILD/tests/bench/bench-kshark-load
REPS=${BENCH_REPS:-7}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== KernelShark load: .dat vs .fxt (plugin-fxt.so)"
for f in "$PLUGIN" "$LOADER"; do
	[ -e "$f" ] || { echo "bench-kshark: $f not built (make)"; exit 1; }
done

DAT=${BENCH_DAT:-$(bench_record bench-kmem)}
[ -n "$DAT" ] || { echo "bench-kshark: skipped, no recording"; exit 0; }

FXT=$TMP/bench.fxt
if [ -x "$TRACE_FXT" ] && "$TRACE_FXT" convert "$DAT" -o "$FXT" -q \
		>/dev/null 2>&1; then
	same=yes
else
	# Without the converter there is no .fxt of the same trace: time a
	# synthetic one of similar size instead and say so.
	echo "NOTE: trace-fxt cannot convert $DAT; timing a synthetic .fxt" \
	     "(not the same trace)"
	"$BUILD/samples/fxt-ks-sample" -n 150000 "$FXT" || exit 1
	same=no
fi

# KernelShark's own plugins: beside libkshark, as it installs them
KS_DIR=$(ldconfig -p | sed -n 's/.*libkshark\.so[^>]*=> //p' | head -1)
KS_DIR=${KS_DIR:+$(dirname "$KS_DIR")/kernelshark/plugins}

# summary HOW AIM: the loader's two lines in $TMP/out, and their ratios
summary() {
sed "s|$TMP/||" "$TMP/out"
awk -v same="$same" -v dat="$(basename "$DAT")" -v how="$1" -v aim="$2" '
	{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[NR, kv[1]] = kv[2] } }
	END {
		print how
		printf("%s: %d entries, %.1f ms best / %.1f ms median (CPU %.1f ms)\n",
		       dat, v[1, "entries"], v[1, "best_ms"], v[1, "median_ms"],
		       v[1, "cpu_median_ms"])
		printf(".fxt: %d entries, %.1f ms best / %.1f ms median (CPU %.1f ms)\n",
		       v[2, "entries"], v[2, "best_ms"], v[2, "median_ms"],
		       v[2, "cpu_median_ms"])
		r = v[2, "best_ms"] / v[1, "best_ms"]
		m = v[2, "median_ms"] / v[1, "median_ms"]
		c = v[2, "cpu_median_ms"] / v[1, "cpu_median_ms"]
		printf("ratio .fxt/.dat: %.2fx best, %.2fx median, %.2fx CPU (aim <= %s)%s\n",
		       r, m, c, aim, same == "yes" ? "" : " [different traces]")
		if (v[1, "entries"] < 500000)
			print "NOTE: fewer than 500k events in the .dat"
	}' "$TMP/out"
}

bench_machine
if [ -n "$KS_DIR" ] && [ -d "$KS_DIR" ]; then
	"$LOADER" -p "$PLUGIN" -g "$KS_DIR" -r "$REPS" "$DAT" "$FXT" \
		2>/dev/null | grep 'entries=' >"$TMP/out" ||
		{ echo "bench-kshark: load failed"; exit 1; }
	summary "as the GUI opens them (sched_events on the .dat, the plot part on the .fxt):" 0.30x
else
	echo "NOTE: KernelShark's plugins not found: no load as the GUI's"
fi
"$LOADER" -p "$PLUGIN" -r "$REPS" "$DAT" "$FXT" 2>/dev/null |
	grep 'entries=' >"$TMP/out" || { echo "bench-kshark: load failed"; exit 1; }
summary "libkshark's load alone (no plugin on either):" 0.40x
