#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# FXT from other producers -> .dat -> trace-cmd, with plugin_fxt.so.
# samples/fxt-sample (every record and argument type, written by the
# core) and tests/e2e/fxt2dat-edge-gen (the .dat writer's edges) are
# converted; the .dat files must pass `trace-cmd dump --summary`,
# `trace-cmd convert` and a libkshark load, and `trace-cmd report` with
# TRACEEVENT_PLUGIN_DIR set must show every FXT event with the same
# "category:name args" text that `trace-fxt report` prints for the FXT.
. "$(dirname "$0")/lib.sh"
e2e_plan 31
SAMPLE=$BUILD/samples/fxt-sample
EDGE=$BUILD/tests/e2e/fxt2dat-edge-gen
KSLOAD=$BUILD/tests/bench/bench-kshark-load
export TRACEEVENT_PLUGIN_DIR=$BUILD/plugins

"$SAMPLE" "$TMP/s.fxt" > /dev/null 2>&1 || not_ok "fxt-sample writes"
check "fxt-sample converts to .dat" \
	$TRACE_FXT convert -q "$TMP/s.fxt" -o "$TMP/s.dat"
check "trace-cmd dump --summary reads it" \
	trace-cmd dump --summary "$TMP/s.dat"
check "trace-cmd convert takes it" \
	trace-cmd convert --file-version 6 -i "$TMP/s.dat" -o "$TMP/s6.dat"
trace-cmd report "$TMP/s.dat" > "$TMP/s.rep" 2> "$TMP/s.err"
check "trace-cmd report with plugin_fxt.so is silent on stderr" \
	test ! -s "$TMP/s.err"

# every FXT event record, log and scheduling record has its line
jq_count() { $TRACE_FXT dump --json "$TMP/s.fxt" |
	     jq -s "map(select($1)) | length"; }
n_ev=$(jq_count '.record == "event"')
n_log=$(jq_count '.record == "log"')
n_sched=$(jq_count '.record == "scheduling"')
want=$((n_ev + n_log + n_sched))
got=$(grep -cE '^ *(\S+: +)?\S*-[0-9]+ +\[[0-9]+\]' "$TMP/s.rep")
check "one report line per FXT event, log and context switch ($want)" \
	test "$got" = "$want"
# trace-fxt report itself: a line per timestamped record of every kind
n_large=$(jq_count '.record == "large" and .format == 0')
got=$($TRACE_FXT report "$TMP/s.fxt" | grep -cE '^ *(\S+: +)?\S*-[0-9]+ +\[')
check "trace-fxt report: one line per event, log, scheduling record, large blob ($((want + n_large)))" \
	test "$got" = "$((want + n_large))"
n=$($TRACE_FXT report "$TMP/s.fxt" | grep -cE 'duration_(end|complete): +\S+ \(duration [0-9]+ ns\)')
check "trace-fxt report: duration ends and completes say their length ($n)" \
	test "$n" -gt 0
for t in instant counter duration_begin duration_end duration_complete \
	 async_begin async_instant async_end flow_begin flow_step flow_end \
	 log sched_switch sched_waking; do
	n=$(grep -c " $t: " "$TMP/s.rep")
	check "fxt event type $t appears ($n)" test "$n" -gt 0
done

# instants: the plugin's text equals trace-fxt report's, args and all
$TRACE_FXT report "$TMP/s.fxt" |
	sed -n 's/.*[0-9]: \([^ :]*:[^ ]*\): *\(.*\)$/\1 \2/p' |
	sed 's/ *$//' | sort > "$TMP/want.txt"
grep ' instant: ' "$TMP/s.rep" | sed 's/.* instant: *//; s/ *$//' |
	sort > "$TMP/got.txt"
n=$(wc -l < "$TMP/want.txt")
check "instants print as trace-fxt report prints them ($n lines)" \
	sh -c "[ $n -gt 0 ] && cmp -s '$TMP/want.txt' '$TMP/got.txt'"
check "every argument type is printed typed" \
	grep -q 'marker=null i32=-42 u32=4000000000 i64=-5000000000 u64=18000000000000000000 ratio=3.1415926535897931 label=hello, "fxt" obj=0xffff888001234000 koid=101 ok=true' "$TMP/s.rep"
if [ -x "$KSLOAD" ]; then
	top=$(grep -cE '^ +\S*-[0-9]+ +\[' "$TMP/s.rep")
	check "libkshark loads the top buffer's $top entries" \
		sh -c "'$KSLOAD' -r 1 '$TMP/s.dat' | grep -q 'entries=$top '"
else
	not_ok "$KSLOAD is built (make builds it)"
fi

# the writer's edges
"$EDGE" "$TMP/e.fxt" || not_ok "fxt2dat-edge-gen writes"
check "edge cases convert to .dat" \
	$TRACE_FXT convert -q "$TMP/e.fxt" -o "$TMP/e.dat"
trace-cmd dump --summary "$TMP/e.dat" > "$TMP/e.sum" 2>&1
check "300 providers (> 255) are 300 buffers, the empty one too" \
	test "$(grep -c '\[buffer "' "$TMP/e.sum")" = 300
check "a CPU above 255 makes 301 CPUs" \
	grep -q 'buffer "", "local" clock, [0-9]* page size, 301 cpus' "$TMP/e.sum"
trace-cmd report "$TMP/e.dat" > "$TMP/e.rep" 2>/dev/null
check "an event bigger than a page keeps its 20000-byte string" \
	grep -qE 'edge:big big=x{19999}y$' "$TMP/e.rep"
check "a string with a NUL and a newline is escaped, on one line with the next argument" \
	grep -qF 'edge:ctl s="x\x00y\nz" after=7' "$TMP/e.rep"
check "a context switch on CPU 300 is a sched_switch there" \
	grep -q '\[300\] .*sched_switch: ' "$TMP/e.rep"
check "a one-day gap keeps both timestamps" \
	sh -c "grep -q ' 0.000010: instant: *edge:before_gap' '$TMP/e.rep' &&
	       grep -q ' 86400.000010: instant: *edge:after_gap' '$TMP/e.rep'"
check "an event written late is sorted into place" \
	sh -c "grep -n 'late_slice\|before_gap' '$TMP/e.rep' | head -1 |
	       grep -q late_slice"
check "trace-cmd convert takes the edge cases" \
	trace-cmd convert --file-version 6 -i "$TMP/e.dat" -o "$TMP/e6.dat"
e2e_exit
