#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt report of the FXT against trace-cmd report of the .dat it was
# made from, on the recording bench-convert.sh keeps in $BENCH_DIR (or
# BENCH_DAT=file), else the shared sched-irq-timer sample.  Both print the
# same lines (tests/e2e/report-samples.sh); output goes to /dev/null.
# Best of $BENCH_RUNS runs each, plain and raw (-R / --raw).  Figures
# only: nothing here passes or fails on time.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

echo "== trace-fxt report FILE.fxt vs trace-cmd report FILE.dat"
dat=$(bench_input)
[ -n "$dat" ] || { echo "skipped: no trace to report"; exit 0; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$TRACE_FXT" convert -q "$dat" -o "$work/t.fxt" ||
	{ echo "FAILED: trace-fxt convert $dat"; exit 1; }
lines=$(trace-cmd report "$dat" 2>/dev/null | wc -l)
t_tc=$(best trace-cmd report "$dat")
t_fxt=$(best "$TRACE_FXT" report "$work/t.fxt")
t_tc_raw=$(best trace-cmd report -R "$dat")
t_fxt_raw=$(best "$TRACE_FXT" report --raw "$work/t.fxt")
ratio() { [ "$2" != 0.000 ] && echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./' || echo "?"; }
echo "input: $dat ($(stat -c %s "$dat") bytes), FXT $(stat -c %s "$work/t.fxt") bytes, $lines report lines"
printf '  %-44s %8s s\n' "trace-cmd report" "$t_tc"
printf '  %-44s %8s s  (%s lines/s)\n' "trace-fxt report" "$t_fxt" \
	"$(echo "$lines / $t_fxt" | bc 2>/dev/null)"
printf '  %-44s %8s\n' "trace-fxt report / trace-cmd report" \
	"$(ratio "$t_fxt" "$t_tc")"
printf '  %-44s %8s s\n' "trace-cmd report -R" "$t_tc_raw"
printf '  %-44s %8s s\n' "trace-fxt report --raw" "$t_fxt_raw"
printf '  %-44s %8s\n' "trace-fxt report --raw / trace-cmd report -R" \
	"$(ratio "$t_fxt_raw" "$t_tc_raw")"
