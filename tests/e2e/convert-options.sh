#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How trace-fxt convert finds its plugin (as libtracecmd does:
# $TRACECMD_PLUGIN_DIR, then ~/.local/lib/trace-cmd/plugins/) and says
# which one it used; and the selections a user would reach for - events,
# buffers, CPUs, a time range - each checked against trace-cmd report -R
# of the same file, plus --progress.
. "$(dirname "$0")/lib.sh"
COMPARE=$(dirname "$0")/compare-report.py
PLUGIN=$TC_PLUGIN
e2e_plan 18
recordings sched.dat two-buffers.dat
src=$BUILT_SAMPLES/sched.dat
two=$SAMPLES/two-buffers.dat

# A copy of the binary away from the build tree finds no plugin by itself.
mkdir -p "$TMP/bin" "$TMP/env" "$TMP/home/.local/lib/trace-cmd/plugins" \
	 "$TMP/nohome"
cp "$TRACE_FXT" "$TMP/bin/trace-fxt"
cp "$PLUGIN" "$TMP/env/"
cp "$PLUGIN" "$TMP/home/.local/lib/trace-cmd/plugins/"

# named RC PLUGIN: the conversion exited 0 and named PLUGIN as its own
named() { [ "$1" = 0 ] && grep -q "using plugin $2" "$TMP/err"; }
HOME=$TMP/nohome TRACECMD_PLUGIN_DIR=$TMP/env \
	"$TMP/bin/trace-fxt" convert "$src" -o "$TMP/a.fxt" 2> "$TMP/err"
check "plugin found through \$TRACECMD_PLUGIN_DIR and named (exit $?)" \
	named $? "$TMP/env/trace-fxt-input.so"
HOME=$TMP/home TRACECMD_PLUGIN_DIR= \
	"$TMP/bin/trace-fxt" convert "$src" -o "$TMP/b.fxt" 2> "$TMP/err"
check "plugin found in ~/.local/lib/trace-cmd/plugins/ and named (exit $?)" \
	named $? "$TMP/home/.local/lib/trace-cmd/plugins/trace-fxt-input.so"
HOME=$TMP/home TRACECMD_PLUGIN_DIR=$TMP/env \
	"$TMP/bin/trace-fxt" convert "$src" -o "$TMP/c.fxt" 2> "$TMP/err"
check "with both, \$TRACECMD_PLUGIN_DIR's copy converts, once (exit $?)" \
	named $? "$TMP/env/trace-fxt-input.so"
same3() { cmp -s "$1" "$2" && cmp -s "$1" "$3"; }
check "the three conversions are identical" \
	same3 "$TMP/a.fxt" "$TMP/b.fxt" "$TMP/c.fxt"

export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
trace-cmd report -R "$src" 2> /dev/null > "$TMP/all.ref"

# --events: only those events, each still equal to trace-cmd's line
check "-e sched:sched_switch,timer converts" \
	$TRACE_FXT convert -q -e sched:sched_switch,timer "$src" -o "$TMP/e.fxt"
$TRACE_FXT report --raw "$TMP/e.fxt" > "$TMP/e.got"
trace-cmd report -R -F sched/sched_switch -F 'timer/.*' "$src" 2> /dev/null \
	> "$TMP/e.ref"
check "-e sched:sched_switch,timer keeps what trace-cmd report -F keeps ($(($(wc -l < "$TMP/e.ref") - 1)))" \
	python3 "$COMPARE" "$TMP/e.ref" "$TMP/e.got"

# --cpu
check "--cpu 1 converts" $TRACE_FXT convert -q --cpu 1 "$src" -o "$TMP/c1.fxt"
$TRACE_FXT report --raw "$TMP/c1.fxt" > "$TMP/c1.got"
{ head -1 "$TMP/all.ref"; grep ' \[001\] ' "$TMP/all.ref"; } > "$TMP/c1.ref"
check "--cpu 1 keeps CPU 1's events ($(($(wc -l < "$TMP/c1.ref") - 1)))" \
	python3 "$COMPARE" "$TMP/c1.ref" "$TMP/c1.got"

# --start/--end, in report's seconds: a printed time p stands for
# [p - 0.5us, p + 0.5us), so the range given is widened by half a microsecond
read -r p0 p1 < <(awk -F'[][]' 'NR > 1 { split($3, a, ":"); t[NR] = a[1] + 0 }
	END { n = NR; printf "%.6f %.6f\n", t[int(n / 3)], t[int(2 * n / 3)] }' "$TMP/all.ref")
t0=$(awk -v p="$p0" 'BEGIN { printf "%.7f", p - 0.0000005 }')
t1=$(awk -v p="$p1" 'BEGIN { printf "%.10f", p + 0.0000004999 }')
check "--start $t0 --end $t1 converts" \
	$TRACE_FXT convert -q --start "$t0" --end "$t1" "$src" -o "$TMP/t.fxt"
$TRACE_FXT report --raw "$TMP/t.fxt" > "$TMP/t.got"
{ head -1 "$TMP/all.ref"; awk -v a="$p0" -v b="$p1" -F'[][]' 'NR > 1 {
	split($3, x, ":"); if (x[1] + 0 >= a + 0 && x[1] + 0 <= b + 0) print }' \
	"$TMP/all.ref"; } > "$TMP/t.ref"
n=$(($(wc -l < "$TMP/t.ref") - 1))
check "--start $t0 --end $t1 keeps that range ($n events)" \
	python3 "$COMPARE" "$TMP/t.ref" "$TMP/t.got"

# --buffer
check "-B second converts" \
	$TRACE_FXT convert -q -B second "$two" -o "$TMP/b2.fxt"
$TRACE_FXT report --raw "$TMP/b2.fxt" > "$TMP/b2.got"
trace-cmd report -R "$two" 2> /dev/null |
	awk 'NR == 1 || /^second: /' > "$TMP/b2.ref"
check "-B second keeps that buffer alone, as trace-cmd shows its lines" \
	python3 "$COMPARE" "$TMP/b2.ref" "$TMP/b2.got"
check "-B second: one provider, named second" \
	test "$($TRACE_FXT dump --json "$TMP/b2.fxt" | jq -r 'select(.kind == "provider_info") | .name')" = second

$TRACE_FXT convert --progress "$src" -o "$TMP/p.fxt" 2> "$TMP/err"
check "--progress converts (exit $?)" test $? = 0
check "--progress reports a percentage on stderr" grep -q '100%' "$TMP/err"
check "--progress does not change the output" cmp -s "$TMP/p.fxt" "$TMP/a.fxt"

# a pipe: read once, whole (libtracecmd seeks; FXT to .dat reads twice)
cat "$src" | $TRACE_FXT convert -q /dev/stdin -o "$TMP/pipe.fxt"
check "a .dat from a pipe converts as from the file" \
	cmp -s "$TMP/pipe.fxt" "$TMP/a.fxt"
$TRACE_FXT convert -q "$TMP/a.fxt" -o "$TMP/file.dat"
$TRACE_FXT convert -q <(cat "$TMP/a.fxt") -o "$TMP/pipe.dat"
check "FXT from a pipe converts to the .dat the file does" \
	cmp -s "$TMP/pipe.dat" "$TMP/file.dat"
e2e_exit
