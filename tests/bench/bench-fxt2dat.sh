#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# FXT -> .dat conversion speed against the .dat -> FXT direction on the
# same trace: the recording bench-convert.sh keeps in $BENCH_DIR (or
# BENCH_DAT=file), else the shared sched-irq-timer sample.  Best of
# $BENCH_RUNS runs each; the FXT is the one trace-fxt made from the .dat,
# so the reverse conversion restores every ftrace event.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

echo "== FXT -> .dat conversion (trace-fxt convert IN.fxt -o OUT.dat)"
dat=$(bench_input)
[ -n "$dat" ] || { echo "skipped: no trace to convert"; exit 0; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t_to=$(best "$TRACE_FXT" convert -q "$dat" -o "$work/t.fxt")
t_back=$(best "$TRACE_FXT" convert -q "$work/t.fxt" -o "$work/back.dat")
t_back_z=$(best "$TRACE_FXT" convert -q --compression zstd "$work/t.fxt" \
	     -o "$work/back.z.dat")
events=$("$TRACE_FXT" convert "$work/t.fxt" -o "$work/back.dat" 2>&1 |
	 sed -n 's/.*: \([0-9]*\) events from.*/\1/p')
ratio() { [ "$2" != 0.000 ] && echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./' || echo "?"; }
echo "input: $dat ($(stat -c %s "$dat") bytes), FXT $(stat -c %s "$work/t.fxt") bytes, ${events:-?} events"
printf '  %-44s %8s s\n' ".dat -> FXT" "$t_to"
printf '  %-44s %8s s  (%s events/s)\n' "FXT -> .dat (no compression)" \
	"$t_back" "$(echo "${events:-0} / $t_back" | bc 2>/dev/null)"
printf '  %-44s %8s s\n' "FXT -> .dat (zstd)" "$t_back_z"
printf '  %-44s %8s\n' "FXT -> .dat / .dat -> FXT" "$(ratio "$t_back" "$t_to")"
printf '  %-44s %8s\n' "FXT -> .dat zstd / .dat -> FXT" \
	"$(ratio "$t_back_z" "$t_to")"
