#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What Perfetto's trace processor costs of a converted recording against
# Perfetto's own recording of the same run.
#
# Needs what no test may need, so it runs only when given: a real
# trace_processor_shell (TRACE_PROCESSOR=path) and a pair recorded at
# once by tracefs and by Perfetto's own recorder (PERFETTO_PAIR=X: X.dat
# and X.pftrace, made by ../shared/tools/judges/perfetto-record/
# record-both.sh); else it says why it skipped.  Reported for the
# .pftrace, the default .fxt and the --fxt-records .fxt: the file's size,
# the trace processor's load time ("Trace loaded") and peak resident
# memory, the median of $BENCH_RUNS rounds (3) alternating the files,
# the rows of `ftrace_event` and the 0-length slices; and each per
# ftrace_event row, since Perfetto's recording spans more time than
# tracefs' (its service starts first and stops last).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
echo "== Perfetto's trace processor: a converted recording against Perfetto's own"
bench_machine
tp=${TRACE_PROCESSOR:-}
pair=${PERFETTO_PAIR:-}
if [ -z "$tp" ] || [ ! -x "$tp" ] || [ -z "$pair" ] ||
   [ ! -r "$pair.dat" ] || [ ! -r "$pair.pftrace" ]; then
	echo "skipped: set TRACE_PROCESSOR=trace_processor_shell and PERFETTO_PAIR=X (X.dat, X.pftrace)"
	exit 0
fi
runs=${BENCH_RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$TRACE_FXT" convert -q "$pair.dat" -o "$work/default.fxt" || exit 1
"$TRACE_FXT" convert -q --fxt-records "$pair.dat" -o "$work/records.fxt" ||
	exit 1
cp "$pair.pftrace" "$work/perfetto.pftrace"
q=$work/rows.sql
echo "select (select count(*) from ftrace_event) as ev, (select count(*) from slice where dur = 0) as d0;" > "$q"
files="perfetto.pftrace default.fxt records.fxt"
declare -A load rss
for r in $(seq "$runs"); do
	for f in $files; do
		out=$(/usr/bin/time -f 'rss %M' "$tp" -q "$q" "$work/$f" 2>&1)
		load[$f]+=" $(echo "$out" | sed -n 's/.*Trace loaded: .* in \([0-9.]*\)s.*/\1/p')"
		rss[$f]+=" $(echo "$out" | sed -n 's/^rss //p')"
		echo "$out" | grep -E '^[0-9]+,[0-9]+$' | tail -1 > "$work/$f.rows"
	done
done
printf '%-18s %12s %10s %12s %12s %10s %10s %8s\n' file bytes events \
	"bytes/event" "load s" "us/event" "peak MB" "0-length"
for f in $files; do
	size=$(stat -c %s "$work/$f")
	ev=$(cut -d, -f1 "$work/$f.rows")
	d0=$(cut -d, -f2 "$work/$f.rows")
	l=$(printf '%s\n' ${load[$f]} | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	m=$(printf '%s\n' ${rss[$f]} | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	printf '%-18s %12d %10d %12.1f %12.2f %10.2f %10.0f %8d\n' "$f" \
		"$size" "$ev" "$(echo "$size / $ev" | bc -l)" "$l" \
		"$(echo "$l * 1000000 / $ev" | bc -l)" \
		"$(echo "$m / 1024" | bc -l)" "$d0"
done
echo "(medians of $runs rounds; the .pftrace's ftrace_event also holds what Perfetto recorded before and after tracefs did)"

# The other way (issue: Perfetto's recordings in trace-cmd and
# KernelShark): `convert X.pftrace -o X.dat` against the trace
# processor's whole run on X.pftrace (aim: at most 1.0x), and KernelShark
# opening X.pftrace through plugin-fxt.so against opening that .dat.
echo "== Perfetto's own recording read back: convert to .dat, KernelShark"
conv="" tpw=""
for r in $(seq "$runs"); do
	/usr/bin/time -o "$work/t" -f '%e' "$TRACE_FXT" convert -q \
		"$work/perfetto.pftrace" -o "$work/back.dat" >/dev/null 2>&1 || exit 1
	conv+=" $(tail -1 "$work/t")"
	/usr/bin/time -o "$work/t" -f '%e' "$tp" -q "$q" \
		"$work/perfetto.pftrace" >/dev/null 2>&1
	tpw+=" $(tail -1 "$work/t")"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
c=$(median $conv) t=$(median $tpw)
printf 'convert X.pftrace -o X.dat: %.2f s; trace_processor_shell: %.2f s; ratio %.2fx (aim <= 1.0x; medians of %d)\n' \
	"$c" "$t" "$(echo "$c / $t" | bc -l)" "$runs"
loader=$BUILD/tests/bench/bench-kshark-load
plugin=$BUILD/kernelshark-plugin/plugin-fxt.so
if [ -x "$loader" ] && [ -e "$plugin" ]; then
	# as the GUI opens them (every buffer, every instance) when it can
	"$loader" -p "$plugin" ${KS_DIR:+-g "$KS_DIR"} -r "$runs" "$work/back.dat" \
		"$work/perfetto.pftrace" 2>/dev/null | grep ' entries=' |
		sed "s|$work/||" > "$work/ks"
	cat "$work/ks"
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[NR, kv[1]] = kv[2] } }
	     END { printf("KernelShark: X.pftrace / its .dat %.2fx best, %.2fx median (aim <= 0.5x)\n",
			  v[2, "best_ms"] / v[1, "best_ms"], v[2, "median_ms"] / v[1, "median_ms"]) }' "$work/ks"
else
	echo "KernelShark: skipped, bench-kshark-load or plugin-fxt.so not built"
fi
