#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert of a Perfetto recording (.pftrace) to a trace.dat,
# judged by Debian's `trace-cmd report` against the twin .dat tracefs
# recorded at the same time (samples/perfetto/, record.sh made both; the
# kernel's formats of its events beside them).  Neither the recorder nor
# trace_processor is needed.  Checks: the input is recognised by its
# content, gzip'd or not, under any name, with the same .dat from both;
# the .dat passes trace-fxt check; in the twin's window the events per
# name are equal and every printed field too (perfetto-dat-compare.py,
# on `trace-cmd report` and on `-R`), but the fields the converter's own
# summary says the recording does not keep, and compact sched's
# implicit previous task where the recording cannot know it (a switch
# neither buffer holds, a running task's new priority: a few); without
# the kernel's formats the events still all come out, by formats made
# from the packets; damaged and cut inputs convert what is whole, say
# so, never crash (under valgrind when it is there), and what is no
# Perfetto trace is refused with a reason.  trace-fxt report of the
# .pftrace prints what trace-cmd report prints of the .dat, and check
# says a whole trace ok and a cut one damaged.  The saved tgids (option
# 32, dat-option.py reads it): a group for every task the sample's
# events show, and the hand-made cases' groups exactly, which the .dat's
# conversion to FXT then puts its threads in.
. "$(dirname "$0")/lib.sh"
COMPARE=$(dirname "$0")/perfetto-dat-compare.py
P=$SAMPLES/perfetto
TWIN=$P/sched-syscalls.dat
PFT=$P/sched-syscalls.pftrace.gz
export TRACE_FXT_EVENT_FORMATS=$P/formats
TOL=(--tolerate sched_switch:prev=3 --tolerate sched_switch:prev_comm=3
     --tolerate sched_switch:prev_pid=3 --tolerate sched_switch:prev_prio=3
     --tolerate sched_switch:task=3 --tolerate sched_waking:task=2)

e2e_plan 35
DATOPT=$(dirname "$0")/dat-option.py
if $TRACE_FXT convert "$PFT" -o "$TMP/s.dat" 2> "$TMP/sum"; then
	ok "convert the gzip'd sample ($(grep -o '[0-9]* events from' "$TMP/sum"))"
else
	cat "$TMP/sum"
	not_ok "convert the gzip'd sample"
fi
sed 's/^/# /' "$TMP/sum"
gzip -dc "$PFT" > "$TMP/plain.bin"
$TRACE_FXT convert -q "$TMP/plain.bin" -o "$TMP/plain.dat"
check "the same .dat from the plain trace under another name" \
	cmp "$TMP/s.dat" "$TMP/plain.dat"
check "trace-fxt check is clean on the .dat" $TRACE_FXT check "$TMP/s.dat"
check "the summary names what the recording does not keep" \
	grep -q 'does not keep.*print: ip.*sched_process_exit: group_dead' \
	"$TMP/sum"
check "15 formats, all the kernel's" \
	grep -q "formats: 15 the kernel's" "$TMP/sum"
check "its one ftrace instance (perfetto) in the top buffer, as the twin's" \
	grep -q "ftrace instances: perfetto, the only one, as the top buffer" \
	"$TMP/sum"

trace-cmd report "$TWIN" > "$TMP/twin" 2>/dev/null
trace-cmd report "$TMP/s.dat" > "$TMP/conv" 2>/dev/null
trace-cmd report -R "$TWIN" > "$TMP/twinR" 2>/dev/null
trace-cmd report -R "$TMP/s.dat" > "$TMP/convR" 2>/dev/null
for m in "" R; do
	what="trace-cmd report${m:+ -R}: events per name and printed fields equal the twin's"
	if python3 "$COMPARE" --summary "$TMP/sum" "${TOL[@]}" \
		"$TMP/twin$m" "$TMP/conv$m" > "$TMP/cmp$m"; then
		ok "$what ($(grep 'aligned pairs' "$TMP/cmp$m"))"
	else
		not_ok "$what"
	fi
	sed 's/^/# /' "$TMP/cmp$m"
done
# saved tgids: one for each task the events show (the process tree
# lists them all), none of them unknown
python3 "$DATOPT" "$TMP/s.dat" 32 > "$TMP/tgids"
awk 'NR > 1 { sub(/.*-/, "", $1); if ($1 > 0) print $1 }' "$TMP/conv" |
	sort -u > "$TMP/pids"
n_pids=$(wc -l < "$TMP/pids")
check "saved tgids: a group for each of the $n_pids tasks the events show ($(wc -l < "$TMP/tgids") lines)" \
	bash -c "[ $n_pids -gt 200 ] &&
		 [ -z \"\$(cut -d' ' -f1 '$TMP/tgids' | sort -u | comm -23 '$TMP/pids' -)\" ]"
# every event name of the twin is there, with its count
check "the comparison saw all 15 event names" \
	test "$(grep -c ' ok' "$TMP/cmp")" -ge 15

# Two ftrace instances writing one trace buffer (record-instances.sh):
# which sequence is whose, no field says; the converter tells them by
# their events.  Perfetto's instances are named perfetto (the twin's top
# buffer's events) and perfetto2 (its buffer "second"'s): per buffer,
# each event as the twin printed it.
TWO=$P/two-instances
$TRACE_FXT convert "$TWO.pftrace.gz" -o "$TMP/two.dat" 2> "$TMP/two.sum"
sed 's/^/# /' "$TMP/two.sum"
check "two instances in one trace buffer: told apart by their events, each its own .dat buffer" \
	grep -q 'ftrace instances: perfetto as buffer perfetto, told by its events; perfetto2 as buffer perfetto2, told by its events' \
	"$TMP/two.sum"
# buffer prefixes as the twin's: perfetto's lines none, perfetto2's second:
two_norm() {
	sed -E -e 's/^ +//' -e 's/^(second|perfetto2): +/second: /' \
		-e 's/^perfetto: +//'
}
trace-cmd report "$TWO.dat" 2>/dev/null | two_norm > "$TMP/two.twin"
trace-cmd report "$TMP/two.dat" 2>/dev/null | two_norm > "$TMP/two.conv"
# SECOND-BUFFER-OR-NOT EVENT-NAME, once each, of a normalised report
two_names() {
	awk 'NR > 1 { b = $1 == "second:" ? "second" : "top"
		      sub(/^.*\] *[0-9.]+: +/, ""); sub(/:.*/, "")
		      print b, $0 }' "$1" | sort -u
}
check "  each buffer with the twin's buffer's events ($(two_names "$TMP/two.twin" | grep -c '^second') names in the second, $(two_names "$TMP/two.twin" | grep -c '^top') in the top)" \
	diff <(two_names "$TMP/two.twin") <(two_names "$TMP/two.conv")
what="  trace-cmd report: events per name and printed fields, buffer by buffer, equal the twin's"
if python3 "$COMPARE" --summary "$TMP/two.sum" "${TOL[@]}" \
	"$TMP/two.twin" "$TMP/two.conv" > "$TMP/two.cmp"; then
	ok "$what ($(grep 'aligned pairs' "$TMP/two.cmp"))"
else
	not_ok "$what"
fi
sed 's/^/# /' "$TMP/two.cmp"

# trace-fxt report of the .pftrace: what trace-cmd report prints of the .dat
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
$TRACE_FXT report "$PFT" > "$TMP/rep" 2> "$TMP/rep.err"
check "trace-fxt report X.pftrace prints trace-cmd report of the .dat" \
	cmp "$TMP/conv" "$TMP/rep"
$TRACE_FXT report --raw "$PFT" > "$TMP/repR" 2> "$TMP/rep.err"
check "trace-fxt report --raw X.pftrace prints trace-cmd report -R of the .dat" \
	cmp "$TMP/convR" "$TMP/repR"

# trace-fxt check of the .pftrace: as convert reads it
check "trace-fxt check X.pftrace: ok, every event with a .dat form" \
	bash -c "$TRACE_FXT check '$PFT' | grep -q 'ok (Perfetto trace): 68 packets, 15358 ftrace events, 15358 of them'"

# no kernel formats: formats made from the packets, every event kept
TRACE_FXT_EVENT_FORMATS=/nonexistent $TRACE_FXT convert "$PFT" \
	-o "$TMP/made.dat" 2> "$TMP/made.sum"
n_made=$(trace-cmd report "$TMP/made.dat" 2>/dev/null | grep -c ': [a-z_0-9]*: ')
n_kern=$(trace-cmd report "$TMP/s.dat" 2>/dev/null | grep -c ': [a-z_0-9]*: ')
check "without the kernel's formats: made ones, as many events ($n_made)" \
	test "$n_made" = "$n_kern" -a "$n_made" -gt 10000

# damage: cut short, bytes overwritten; never a crash, what is whole kept
size=$(stat -c %s "$TMP/plain.bin")
head -c $((size / 3)) "$TMP/plain.bin" > "$TMP/cut.pftrace"
$TRACE_FXT check "$TMP/cut.pftrace" > "$TMP/cut.chk" 2>&1
rc=$?
check "trace-fxt check of the cut trace: DAMAGED, exit $rc" \
	bash -c "[ $rc -eq 1 ] && grep -q 'DAMAGED (Perfetto trace)' '$TMP/cut.chk'"
if $TRACE_FXT convert "$TMP/cut.pftrace" -o "$TMP/cut.dat" 2> "$TMP/cut.err" &&
   grep -q 'cut there' "$TMP/cut.err" &&
   trace-cmd report "$TMP/cut.dat" > /dev/null 2>&1; then
	ok "a cut trace: $(grep -o 'ends within.*cut there' "$TMP/cut.err")"
else
	cat "$TMP/cut.err"
	not_ok "a cut trace converts what is whole, and says so"
fi
python3 "$(dirname "$0")/pftrace-damage.py" "$TMP/plain.bin" "$TMP/bad.pftrace"
$TRACE_FXT convert "$TMP/bad.pftrace" -o "$TMP/bad.dat" 2> "$TMP/bad.err"
rc=$?
check "a damaged trace: no crash (exit $rc), a .dat trace-cmd reads" \
	test $rc -lt 2 -a -s "$TMP/bad.dat"
if command -v valgrind > /dev/null; then
	for f in cut bad; do
		if valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite \
			$TRACE_FXT convert -q "$TMP/$f.pftrace" -o "$TMP/vg.dat" \
			> "$TMP/vg.out" 2>&1; then
			ok "valgrind: no invalid access or leak converting the $f trace"
		else
			sed 's/^/#   /' "$TMP/vg.out" | head -20
			not_ok "valgrind on the $f trace"
		fi
	done
else
	skip "no valgrind" 2
fi
# The sample deflated as Perfetto's compression_type writes it: its
# packets in three compressed packets.  Whole, it converts as the plain
# trace; with the second one's stream damaged, as the first and third
# alone (each compressed packet is inflated once, by the first pass,
# and found again by its place among them by the second).
python3 "$(dirname "$0")/pftrace-deflate.py" "$TMP/plain.bin" "$TMP/z3"
for z in whole bad ends first cut; do
	$TRACE_FXT convert -q "$TMP/z3-$z.pftrace" -o "$TMP/z3-$z.dat" \
		2> "$TMP/z3-$z.err"
	trace-cmd report "$TMP/z3-$z.dat" > "$TMP/z3-$z.rep" 2>/dev/null
done
trace-cmd report "$TMP/plain.dat" > "$TMP/plain.rep" 2>/dev/null
check "deflated into three compressed packets: trace-cmd report of its .dat is the plain trace's ($(wc -l < "$TMP/plain.rep") lines)" \
	bash -c "[ -s '$TMP/plain.rep' ] && cmp -s '$TMP/z3-whole.rep' '$TMP/plain.rep'"
check "the second's stream damaged: said, and the .dat is the first's and third's alone ($(wc -l < "$TMP/z3-ends.rep") lines, $(wc -l < "$TMP/z3-bad.rep") converted)" \
	bash -c "grep -q 'inflated bytes' '$TMP/z3-bad.err' &&
		 [ -s '$TMP/z3-ends.rep' ] &&
		 cmp -s '$TMP/z3-bad.rep' '$TMP/z3-ends.rep'"
# a cut stream is no damage: what its bytes inflate to is exact, and the
# whole packets of it are read (more than the first compressed packet's),
# each event as the whole trace has it but for its task's name, the
# latest the trace gives up to the cut (cc before the exec into cc1)
untasked() {
	grep -v '^cpus=' "$1" | sed -E 's/^ *[^ ]*-([0-9]+) /\1 /' | sort
}
untasked "$TMP/plain.rep" > "$TMP/plain.sorted"
untasked "$TMP/z3-cut.rep" > "$TMP/z3-cut.sorted"
check "cut half way through the second compressed packet: said, $(grep -vc '^cpus=' "$TMP/z3-cut.rep") events read, more than the first's $(grep -vc '^cpus=' "$TMP/z3-first.rep"), each one of the trace's" \
	bash -c "grep -q 'ends within the compressed packet' '$TMP/z3-cut.err' &&
		 [ \$(grep -vc '^cpus=' '$TMP/z3-cut.rep') -gt \
		   \$(grep -vc '^cpus=' '$TMP/z3-first.rep') ] &&
		 [ -z \"\$(comm -23 '$TMP/z3-cut.sorted' '$TMP/plain.sorted')\" ]"

# hand-made cases (pftrace-gen.py): compact sched's implicit previous
# task and its rename, a waking's waker, described and legacy generic
# events, compressed packets, a dev_t and symbols turned back (symbols
# per sequence state), lost events, the bundle's clock, SystemInfo,
# thread groups (process trees, task_newtask, sched_process_exec), a
# second ftrace instance as the .dat buffer of its name
mkdir -p "$TMP/fmt"
cp -r "$P/formats/." "$TMP/fmt/"
cp -r "$(dirname "$0")/pftrace-formats/." "$TMP/fmt/"
python3 "$(dirname "$0")/pftrace-gen.py" "$TMP/cases.pftrace" \
	"$TMP/cases.tgids" "$TMP/many.pftrace" > "$TMP/cases.exp"
TRACE_FXT_EVENT_FORMATS=$TMP/fmt $TRACE_FXT convert "$TMP/cases.pftrace" \
	-o "$TMP/cases.dat" 2> "$TMP/cases.sum"
trace-cmd report -R "$TMP/cases.dat" > "$TMP/cases.rep" 2>/dev/null
missing=0
while IFS= read -r re; do
	grep -qE -- "$re" "$TMP/cases.rep" && continue
	echo "#   missing: $re"
	missing=$((missing + 1))
done < "$TMP/cases.exp"
check "hand-made cases: $(wc -l < "$TMP/cases.exp") lines of trace-cmd report -R as expected ($missing missing)" \
	test "$missing" = 0
check "hand-made cases: the kernel's print format shows the dev_t as 254,1" \
	grep -q 'ext4_sync_file_enter: *dev 254,1 ino 77' \
	<(trace-cmd report "$TMP/cases.dat" 2>/dev/null)
check "hand-made cases: the second instance's events alone in its buffer, the summary says so" \
	bash -c "[ \"\$(grep -c '^second:' '$TMP/cases.rep')\" = 1 ] &&
		 grep -q 'ftrace instances: second as buffer second' '$TMP/cases.sum'"
python3 "$DATOPT" "$TMP/cases.dat" 32 > "$TMP/cases.got"
check "hand-made cases: the saved tgids as the trees and events say" \
	diff "$TMP/cases.tgids" "$TMP/cases.got"
# and back to FXT, its threads in the processes the option says (504,
# made by thread 501 of 500, is of 500; the kernel tree's 950 of 940)
$TRACE_FXT convert -q "$TMP/cases.dat" -o "$TMP/cases.fxt"
$TRACE_FXT dump "$TMP/cases.fxt" > "$TMP/cases.fxtdump" 2>&1
check "hand-made cases: .dat -> FXT takes the saved tgids: threads 504, 950 in processes 500, 940" \
	bash -c "grep -q 'koid=504 obj_type=2 .*process=koid(500)' '$TMP/cases.fxtdump' &&
		 grep -q 'koid=950 obj_type=2 .*process=koid(940)' '$TMP/cases.fxtdump'"
# trace-fxt report as trace-cmd report, where a task renamed itself:
# sched_switch's plugin registers the old name, and libtraceevent's
# lookup among two names of one pid depends on every name registered
# (trace-fxt's report once also registered the idle task's "swapper")
TRACE_FXT_EVENT_FORMATS=$TMP/fmt $TRACE_FXT report "$TMP/cases.pftrace" \
	> "$TMP/cases.trep" 2>/dev/null
$TRACE_FXT report "$TMP/cases.dat" > "$TMP/cases.drep" 2>/dev/null
trace-cmd report "$TMP/cases.dat" > "$TMP/cases.crep" 2>/dev/null
check "hand-made cases: trace-fxt report of the .pftrace and of its .dat print trace-cmd report of the .dat ($(grep -c 'first-200' "$TMP/cases.crep") lines of first-200, the renamed task)" \
	bash -c "cmp '$TMP/cases.crep' '$TMP/cases.trep' &&
		 cmp '$TMP/cases.crep' '$TMP/cases.drep'"
trace-cmd dump --options "$TMP/cases.dat" > "$TMP/cases.opt" 2>/dev/null
check "hand-made cases: options TRACECLOCK [global], UNAME, 4 CPUs" \
	bash -c "grep -qx '\[global\]' '$TMP/cases.opt' &&
		 grep -qx 'Linux - 6.99.0-test x86_64' '$TMP/cases.opt' &&
		 grep -A1 CPUCOUNT '$TMP/cases.opt' | grep -qx 4"

# typed events of 150 numbers no row names: listed whole up to the
# summary's room, then said to go on, never cut inside an entry
$TRACE_FXT convert "$TMP/many.pftrace" -o "$TMP/many.dat" 2> "$TMP/many.err"
many=$(sed -n 's/.*no row of map-ftrace.table names.*): //p' "$TMP/many.err")
check "typed events of 150 numbers no row names: the summary lists $(echo "$many" | grep -o ' x1' | wc -l) of them, whole, then ', ...'" \
	bash -c "echo '$many' | grep -qxE '800 x1(, [0-9]+ x1)+, \.\.\.'"

printf '\n\003\010\001\022' > "$TMP/tiny.pftrace"
$TRACE_FXT convert "$TMP/tiny.pftrace" -o "$TMP/tiny.dat" 2> "$TMP/tiny.err"
rc=$?
check "a trace of half a packet: refused or empty, with a reason (exit $rc)" \
	test $rc -lt 2 -a -s "$TMP/tiny.err"

# Text that starts with a newline, as a trace does with its tag 0x0a:
# refused as no trace at all, short or long, not converted to nothing.
printf '\nab' > "$TMP/nab.txt"
{ printf '\nab\n'; cat "$TOP_SRCDIR/README.md"; } > "$TMP/text.txt"
for t in nab text; do
	$TRACE_FXT convert "$TMP/$t.txt" -o "$TMP/$t.dat" 2> "$TMP/$t.err"
	rc=$?
	check "text starting with a newline ($(stat -c %s "$TMP/$t.txt") bytes): refused, no .dat (exit $rc: $(head -c 60 "$TMP/$t.err")...)" \
		bash -c "test $rc = 1 && ! test -e '$TMP/$t.dat' &&
			 grep -q 'nor a Perfetto trace' '$TMP/$t.err'"
done
e2e_exit
