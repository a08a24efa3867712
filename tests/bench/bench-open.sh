#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `trace-fxt open FILE.dat`: the time from the command to the first byte
# of the converted trace served on 127.0.0.1:9001 (fetched as Perfetto's
# UI fetches it, open-first-byte.py), against `trace-cmd report -N
# FILE.dat > /dev/null`, the first step of the text path into Perfetto.
# On the recordings bench-convert.sh keeps in $BENCH_DIR (or
# BENCH_DAT=file); $BENCH_RUNS rounds, the two in turn in one process;
# each figure the median with the lowest and highest round.  In a network
# namespace of its own where the system lets it make one, so that nothing
# else on the machine holds the port.  Figures only.
if [ -z "${OPEN_NETNS:-}" ]; then
	for how in "unshare -n" "unshare -rn"; do
		if $how true 2>/dev/null; then
			exec $how env OPEN_NETNS="$how" bash "$0" "$@"
		fi
	done
fi
set -uo pipefail
. "$(dirname "$0")/lib.sh"
[ -n "${OPEN_NETNS:-}" ] && ip link set lo up

echo "== trace-fxt open FILE.dat: first byte served vs trace-cmd report -N"
bench_machine
inputs=()
if [ -n "${BENCH_DAT:-}" ]; then
	inputs=("$BENCH_DAT")
else
	for name in bench-sched bench-kmem; do
		dat=$(bench_record $name) && inputs+=("$dat")
	done
fi
[ ${#inputs[@]} -gt 0 ] || { echo "skipped: no recording"; exit 0; }
ratio() { echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'; }

for dat in "${inputs[@]}"; do
	out=$(python3 "$TOP/tests/bench/open-first-byte.py" "$RUNS" \
		"$TRACE_FXT" "$dat") || { echo "FAILED: $dat"; continue; }
	rep=() fb=() r=()
	while read -r a b; do
		rep+=("$a") fb+=("$b") r+=("$(ratio "$b" "$a")")
	done <<< "$out"
	echo "input: $dat ($(stat -c %s "$dat") bytes)"
	printf '  %-44s %s s\n' "trace-cmd report -N > /dev/null" \
		"$(spread "${rep[@]}")"
	printf '  %-44s %s s\n' "trace-fxt open: first byte served" \
		"$(spread "${fb[@]}")"
	printf '  %-44s %s\n' "first byte / trace-cmd report -N" \
		"$(spread "${r[@]}")"
done
