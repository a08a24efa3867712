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
