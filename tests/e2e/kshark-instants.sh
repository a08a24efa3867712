#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# KernelShark on `convert --instants` files: the default file's events
# are its packets (plugin-fxt.so reads them as a Perfetto trace's, which
# tests/unit/test-kshark-dat compares on every sample), an --instants
# file's are its FXT instants, which the plugin reads as FXT records.
# For each of the project's recordings, test-kshark-dat with
# KSHARK_CONVERT_OPTS=--instants: every column of every entry, the
# streams and the task plots' boxes of the .fxt are the .dat's.  An
# --instants .fxt.gz cut at half loads the records its gzip stream holds,
# as many as convert reads, the cut said.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
KSDAT=$BUILD/tests/unit/test-kshark-dat
LOADER=$BUILD/tests/bench/bench-kshark-load
recordings
e2e_plan $((${#RECS[@]} + 2))

# what test-kshark-dat converts to is an --instants file: no file_info
# saying its events are its packets, an instant of each event
$TRACE_FXT convert -q --instants "${RECS[0]}" -o "$TMP/i.fxt"
check "convert --instants writes the events as instants ($("$TRACE_FXT" report "$TMP/i.fxt" | wc -l) report lines), not in the packets" \
	bash -c "! '$TRACE_FXT' dump '$TMP/i.fxt' | grep -q 'events=.packets' &&
		 '$TRACE_FXT' dump '$TMP/i.fxt' | grep -q 'instant .*category=.sched. name=.sched_switch.'"

for dat in "${RECS[@]}"; do
	name=$(basename "$dat")
	KSHARK_CONVERT_OPTS=--instants "$KSDAT" "$dat" > "$TMP/ks.out" 2>&1
	rc=$?
	line=$(grep "^# $name: differences" "$TMP/ks.out" | tail -1)
	if [ $rc = 0 ] && echo "$line" | grep -qE \
	   'differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 \(of [1-9][0-9]* entries compared\); drawn pid 0 \(0 after drawing\), task plots. boxes 0$'; then
		ok "$name --instants: KernelShark shows the .fxt as the .dat (${line#*: })"
	else
		grep -E '^#|FAIL' "$TMP/ks.out" | head -4 | sed 's/^/#   /'
		not_ok "$name --instants: KernelShark shows the .fxt as the .dat (exit $rc)"
	fi
done

$TRACE_FXT convert -q --instants "${RECS[0]}" -o "$TMP/i.fxt.gz"
n=$(stat -c %s "$TMP/i.fxt.gz")
head -c $((n / 2)) "$TMP/i.fxt.gz" > "$TMP/cut.fxt.gz"
"$LOADER" -p "$BUILD/kernelshark-plugin/plugin-fxt.so" -r 1 \
	"$TMP/cut.fxt.gz" > "$TMP/cut.out" 2>&1
$TRACE_FXT convert "$TMP/cut.fxt.gz" -o "$TMP/cut.dat" 2> "$TMP/cut.err"
got=$(trace-cmd report "$TMP/cut.dat" 2> /dev/null | grep -vc '^cpus=')
check "an --instants .fxt.gz cut at half: KernelShark loads $(grep -o 'entries=[0-9]*' "$TMP/cut.out"), as many as convert reads ($got), the cut said" \
	bash -c "grep -q 'entries=$got ' '$TMP/cut.out' && [ $got -gt 1000 ] &&
		 grep -q 'gzip stream is cut short' '$TMP/cut.out'"
e2e_exit
