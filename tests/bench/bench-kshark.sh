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
# then the same, each file's first load in a program just started (a
# process of its own each, as kernelshark opens the file it is given:
# no heap an earlier load left); then libkshark's load alone, no plugin
# on either.  The CPU time is there too: on a busy machine it says what
# the wall clock cannot.
#
# On each recording of tests/bench/lib.sh that make bench has (the
# sched-heavy and the kmem-heavy one, recorded once, as root), each with
# its own ratios: the aim holds on each.
#
#   BENCH_DAT=trace.dat   this recording alone
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

inputs=()
if [ -n "${BENCH_DAT:-}" ]; then
	inputs=("$BENCH_DAT")
else
	for name in bench-sched bench-kmem; do
		dat=$(bench_record $name) && inputs+=("$dat")
	done
fi
[ ${#inputs[@]} -gt 0 ] || { echo "bench-kshark: skipped, no recording"; exit 0; }

# summary DAT SAME HOW AIM: the loader's two lines in $TMP/out (the
# .dat's, the .fxt's), and their ratios
summary() {
sed "s|$TMP/||" "$TMP/out"
awk -v same="$2" -v dat="$(basename "$1")" -v how="$3" -v aim="$4" '
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

# first_loads DAT FXT: each file's first load in a process of its own,
# $REPS of each in turn, summed up as the loader's lines are
first_loads() {
	local r f

	: >"$TMP/first"
	for ((r = 0; r < REPS; r++)); do
		for f in "$1" "$2"; do
			"$LOADER" -1 -p "$PLUGIN" -g "$KS_DIR" "$f" 2>/dev/null |
				grep 'entries=' >>"$TMP/first" || return 1
		done
	done
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	       f = (NR - 1) % 2; name[f] = $1; n[f] = v["entries"]
	       t[f, ++k[f]] = v["best_ms"]; c[f, k[f]] = v["cpu_median_ms"] }
	     function med(a, f, m,   i, j, x, s) {
		for (i = 1; i <= m; i++) s[i] = a[f, i]
		for (i = 2; i <= m; i++)	# insertion sort: a few values
			for (j = i; j > 1 && s[j] < s[j - 1]; j--) {
				x = s[j]; s[j] = s[j - 1]; s[j - 1] = x
			}
		return s[int((m + 1) / 2)]
	     }
	     function low(a, f, m,   i, b) {
		b = a[f, 1]
		for (i = 2; i <= m; i++) if (a[f, i] < b) b = a[f, i]
		return b
	     }
	     END { for (f = 0; f < 2; f++)
		printf("%s entries=%d best_ms=%.1f median_ms=%.1f cpu_median_ms=%.1f\n",
		       name[f], n[f], low(t, f, k[f]), med(t, f, k[f]),
		       med(c, f, k[f])) }' "$TMP/first"
}

bench_machine
for DAT in "${inputs[@]}"; do
	echo "-- $(basename "$DAT")"
	FXT=$TMP/$(basename "$DAT" .dat).fxt
	if [ -x "$TRACE_FXT" ] && "$TRACE_FXT" convert "$DAT" -o "$FXT" -q \
			>/dev/null 2>&1; then
		same=yes
	else
		# Without the converter there is no .fxt of the same trace:
		# time a synthetic one of similar size instead and say so.
		echo "NOTE: trace-fxt cannot convert $DAT; timing a synthetic" \
		     ".fxt (not the same trace)"
		"$BUILD/samples/fxt-ks-sample" -n 150000 "$FXT" || exit 1
		same=no
	fi
	if [ -n "$KS_DIR" ]; then
		"$LOADER" -p "$PLUGIN" -g "$KS_DIR" -r "$REPS" "$DAT" "$FXT" \
			2>/dev/null | grep 'entries=' >"$TMP/out" ||
			{ echo "bench-kshark: load failed"; exit 1; }
		summary "$DAT" $same "as the GUI opens them (sched_events on the .dat, the plot part on the .fxt):" 0.30x
		first_loads "$DAT" "$FXT" >"$TMP/out" ||
			{ echo "bench-kshark: load failed"; exit 1; }
		summary "$DAT" $same "the same, each the first load of a program just started:" 0.30x
	else
		echo "NOTE: KernelShark's plugins not found: no load as the GUI's"
	fi
	"$LOADER" -p "$PLUGIN" -r "$REPS" "$DAT" "$FXT" 2>/dev/null |
		grep 'entries=' >"$TMP/out" ||
		{ echo "bench-kshark: load failed"; exit 1; }
	summary "$DAT" $same "libkshark's load alone (no plugin on either):" 0.40x
	rm -f "$FXT"
done
