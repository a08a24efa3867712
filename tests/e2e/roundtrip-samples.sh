#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT -> .dat on the project's recordings: the FXT that trace-fxt
# made carries the event formats, headers and the symbols report needs, so
# `trace-fxt convert OUT.fxt -o BACK.dat` restores the original events.
# For each sample: both conversions succeed, the FXT stays clean under
# trace-fxt check, and `trace-cmd report -R` of BACK.dat equals that of
# the original line for line (both sides are trace-cmd's own output),
# "CPU:N [M EVENTS DROPPED]" lines included: lost events come back as
# ring-buffer pages flagged the way the kernel flags them.  On
# lost-events.dat the plain report (print formats, symbols) must match
# too.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR

e2e_plan 40
recordings
total=0
for f in "${RECS[@]}"; do
	b=$(basename "$f" .dat)
	if ! $TRACE_FXT convert -q "$f" -o "$TMP/$b.fxt" ||
	   ! $TRACE_FXT convert -q "$TMP/$b.fxt" -o "$TMP/$b.back.dat"; then
		not_ok "round trip of $b converts both ways"
		continue
	fi
	ok "round trip of $b converts both ways"
	check "FXT of $b with formats passes trace-fxt check" \
		$TRACE_FXT check "$TMP/$b.fxt"
	trace-cmd report -R "$f" > "$TMP/$b.ref" 2>/dev/null
	trace-cmd report -R "$TMP/$b.back.dat" > "$TMP/$b.got" \
		2> "$TMP/$b.err"
	check "trace-cmd reads $b's round trip without complaint" \
		test ! -s "$TMP/$b.err"
	dropped=$(grep -c '^ *\(\S*: \)\?CPU:[0-9]* \[.*EVENTS DROPPED\]' \
		  "$TMP/$b.ref")
	lines=$(wc -l < "$TMP/$b.ref")
	events=$(grep -c ' \[[0-9]*\] ' "$TMP/$b.ref")
	total=$((total + lines))
	diffs=$(diff "$TMP/$b.ref" "$TMP/$b.got" | grep -c '^[<>]')
	if [ "$diffs" = 0 ] && [ "$events" -gt 0 ]; then
		note=; [ "$dropped" -gt 0 ] && note=", $dropped of them dropped-events lines"
		ok "report -R of $b equals its round trip ($lines lines, 0 differ$note)"
	else
		diff "$TMP/$b.ref" "$TMP/$b.got" | head -10 | sed 's/^/#   /'
		not_ok "report -R of $b equals its round trip ($lines lines, $events events, $diffs differ)"
	fi
	[ "$b" = lost-events ] || continue
	trace-cmd report "$f" > "$TMP/$b.pref" 2>/dev/null
	trace-cmd report "$TMP/$b.back.dat" > "$TMP/$b.pgot" 2>/dev/null
	lines=$(wc -l < "$TMP/$b.pref")
	events=$(grep -c ' \[[0-9]*\] ' "$TMP/$b.pref")
	dropped=$(grep -c 'EVENTS DROPPED\]$' "$TMP/$b.pgot")
	diffs=$(diff "$TMP/$b.pref" "$TMP/$b.pgot" | grep -c '^[<>]')
	if [ "$diffs" = 0 ] && [ "$dropped" -gt 0 ] && [ "$events" -gt 0 ]; then
		ok "plain report of $b equals its round trip ($lines lines, $dropped dropped-events lines)"
	else
		diff "$TMP/$b.pref" "$TMP/$b.pgot" | head -10 | sed 's/^/#   /'
		not_ok "plain report of $b equals its round trip ($lines lines, $diffs differ, $dropped dropped-events lines)"
	fi
done
echo "# $total report lines compared"

# FXT from elsewhere: a bare buffer-full provider event marks the
# provider's next event, count unknown
bf=$TOP/tests/fuzz/corpus-fxt2dat/generic-buffer-full.fxt
check "a buffer-full provider event becomes CPU:0 [EVENTS DROPPED]" \
	sh -c "$TRACE_FXT convert -q '$bf' -o '$TMP/bf.dat' &&
	       trace-cmd report '$TMP/bf.dat' 2>/dev/null |
	       grep -A1 -x 'CPU:0 \\[EVENTS DROPPED\\]' | grep -q 'cat:two'"

# the restored file is an ordinary trace-cmd file
b=sched
if [ -s "$TMP/$b.back.dat" ]; then
	check "trace-cmd dump --summary reads the restored $b" \
		trace-cmd dump --summary "$TMP/$b.back.dat"
	check "trace-cmd convert takes the restored $b" \
		trace-cmd convert --file-version 6 -i "$TMP/$b.back.dat" \
		-o "$TMP/$b.v6.dat"
	trace-cmd report -R "$TMP/$b.v6.dat" > "$TMP/$b.v6" 2>/dev/null
	check "trace-cmd convert's v6 of the restored $b reports the same" \
		cmp -s "$TMP/$b.v6" "$TMP/$b.got"
	check "zstd-compressed round trip of $b reports the same" \
		sh -c "$TRACE_FXT convert -q --compression zstd '$TMP/$b.fxt' \
			-o '$TMP/$b.z.dat' && trace-cmd report -R '$TMP/$b.z.dat' \
			2>/dev/null | cmp -s - '$TMP/$b.got'"
fi

# Thread groups only a --tgids file told: the FXT's threads in those
# processes, and after FXT -> .dat the .dat's saved tgids (option 32)
# tell .dat -> FXT the same without the file.
s=$SAMPLES/sched-zstd.dat
read -r p1 p2 < <(trace-cmd report -R "$s" 2>/dev/null |
	sed -nE 's/.*next_pid=([0-9]+).*/\1/p' | grep -vx 0 | sort -n |
	uniq -c | sort -rn | awk 'NR <= 2 { print $2 }' | xargs)
printf '%s %s\n%s %s\n' "$p1" "$p1" "$p2" "$p1" > "$TMP/g.tgids"
groups() {
	$TRACE_FXT dump "$1" | sed -nE \
		's/.*koid=([0-9]+) obj_type=2 .*process=koid\(([0-9]+)\).*/\1 \2/p' |
		sort -u
}
$TRACE_FXT convert -q "$s" --tgids "$TMP/g.tgids" -o "$TMP/g.fxt" &&
$TRACE_FXT convert -q "$TMP/g.fxt" -o "$TMP/g.dat" &&
$TRACE_FXT convert -q "$TMP/g.dat" -o "$TMP/g2.fxt"
python3 "$TOP/tests/e2e/dat-option.py" "$TMP/g.dat" 32 > "$TMP/g.opt" \
	2>/dev/null
check "saved tgids written back: FXT -> .dat's option 32 is the --tgids file ($(tr '\n' ',' < "$TMP/g.opt"))" \
	cmp -s "$TMP/g.opt" "$TMP/g.tgids"
groups "$TMP/g.fxt" > "$TMP/g.groups"
groups "$TMP/g2.fxt" > "$TMP/g2.groups"
check "thread $p2 in process $p1 again after .dat -> FXT -> .dat -> FXT, no --tgids ($(wc -l < "$TMP/g.groups") threads, each in the same process)" \
	bash -c "grep -qx '$p2 $p1' '$TMP/g2.groups' &&
		 cmp -s '$TMP/g.groups' '$TMP/g2.groups'"
e2e_exit
