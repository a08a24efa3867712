#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# FXT shaped as other producers write it (tests/e2e/producers-gen.c, one
# file per shape), read by every tool the way Perfetto's FXT importer
# reads it: `check` faults only what breaks a reader, and warns (exit 0)
# of what the format allows and Perfetto does not take; no provider record
# is needed; a record whose size is sound and whose contents are not is
# skipped, said once, and the read goes on in report, dump, convert and
# the KernelShark plugin; a thread is its (process, thread) pair in
# report, the converted .dat and KernelShark alike, under the same task
# id; strings print escaped; names defined late fill comm fields; sparse
# CPUs are numbered in order; plugin_fxt.so prints what report prints; a
# format libtraceevent takes minutes over is given up on in seconds.
# Each fixture's figures (records, lines, entries, events) are printed
# as "# figures:" lines; records and offsets count the writer's index-0
# string records for Tracy (common/fxt/fxt-writer.h).
. "$(dirname "$0")/lib.sh"
e2e_plan 41
export TRACEEVENT_PLUGIN_DIR=$BUILD/plugins
KSLOAD=$BUILD/tests/bench/bench-kshark-load
KSPLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
D=$TMP/p
mkdir -p "$D"
"$BUILD/tests/e2e/producers-gen" "$D" || not_ok "producers-gen wrote the fixtures"

# lines of trace-cmd report (or trace-fxt report) that are records
count_lines() { grep -cE -- '-[0-9]+ +\[([0-9]+|---)\] +[0-9]+\.[0-9]+:' "$1"; }
# "comm-pid" of each such line
tasks() { sed -nE 's/^(.*: )? *([^ ].*-[0-9]+) +\[([0-9]+|---)\] .*/\2/p' "$1"; }

# ks NAME: KernelShark's entries of $D/NAME.fxt (libkshark, the plugin)
# dumped to $TMP/NAME.ks ("stream; ts; task-pid; CPU c; latency; event;
# info; flags"), its stderr to $TMP/NAME.ks.err; KS set to the count.
# bench-kshark-load loads the file twice (a warm-up, then the one timed).
ks() {
	"$KSLOAD" -r 1 -D 100000 -p "$KSPLUGIN" "$D/$1.fxt" \
		> "$TMP/$1.ks.all" 2> "$TMP/$1.ks.err"
	grep -E '^[0-9]+; ' "$TMP/$1.ks.all" | sort -u > "$TMP/$1.ks"
	KS=$(sed -n 's/.* entries=\([0-9]*\) .*/\1/p' "$TMP/$1.ks.all")
}

# read_all NAME: every tool on $D/NAME.fxt, its figures printed
read_all() {
	local f=$D/$1.fxt

	CHECK_RC=0
	$TRACE_FXT check "$f" > "$TMP/$1.check" 2> "$TMP/$1.check.err" ||
		CHECK_RC=$?
	$TRACE_FXT report "$f" > "$TMP/$1.rep" 2> "$TMP/$1.rep.err"
	REPORT_RC=$?
	$TRACE_FXT dump "$f" > "$TMP/$1.dump" 2> "$TMP/$1.dump.err"
	$TRACE_FXT convert "$f" -o "$TMP/$1.dat" > /dev/null \
		2> "$TMP/$1.conv.err"
	CONVERT_RC=$?
	trace-cmd report "$TMP/$1.dat" > "$TMP/$1.tc" 2> /dev/null
	ks "$1"
	RECORDS=$(sed -n 's/.*ok, \([0-9]*\) records.*/\1/p; s/.*FAILED after \([0-9]*\) good records/\1 (then a fault)/p' \
		  "$TMP/$1.check" "$TMP/$1.check.err")
	LINES=$(count_lines "$TMP/$1.rep")
	EVENTS=$(sed -n 's/.*: \([0-9]*\) events from .*/\1/p' "$TMP/$1.conv.err")
	TCLINES=$(count_lines "$TMP/$1.tc")
	echo "# figures: $1.fxt: check: $RECORDS records; dump: $(wc -l < "$TMP/$1.dump") records; report: $LINES lines; convert: ${EVENTS:-no} events, trace-cmd report: $TCLINES lines; KernelShark: $KS entries"
}

# ---- 1. no provider record --------------------------------------------

read_all no-provider
check "no provider record: check accepts it, no warning ($RECORDS records)" \
	grep -qx "$D/no-provider.fxt: ok, 21 records (little byte order): metadata 1 string 9 thread 1 event 8 kernel_object 2" \
	"$TMP/no-provider.check"
check "no provider record: report, .dat and KernelShark all 8 ($LINES, $TCLINES, $KS)" \
	test "$LINES $TCLINES $KS" = "8 8 8"

# ---- 7. a rate before any provider ---------------------------------------

read_all init-only
check "rate and no provider: applied to every record, said nowhere" \
	sh -c "grep -q ' 0\.001000: app:tick:' '$TMP/init-only.rep' &&
	       ! grep -q warning '$TMP/init-only.check.err' &&
	       ! cat '$TMP/init-only.rep.err' '$TMP/init-only.dump.err' '$TMP/init-only.conv.err' '$TMP/init-only.ks.err' | grep -q 'the first:\|Perfetto'"
read_all init-provider
check "rate, then a provider: its records in ns, the note not called a skip" \
	sh -c "grep -q ' 0\.000100: app:tick:' '$TMP/init-provider.rep' &&
	       grep -qx 'trace-fxt: 1 record read as Perfetto reads it, which its writer may not have meant; the first: .*offset 0x18: provider record after an initialization record that came before any provider (offset 0x8, 1000000 ticks per second).*' '$TMP/init-provider.rep.err' &&
	       ! grep -q 'skipped;' '$TMP/init-provider.rep.err' '$TMP/init-provider.conv.err'"
check "rate, then a provider: check lists the note as a warning, exit 0" \
	grep -q "offset 0x18: provider record after .*(warning)" \
	"$TMP/init-provider.check.err"

# ---- 2. a context switch leaving a thread "running" ---------------------

read_all switch-running
check "subtype 1 leaving a thread running: check warns, exit 0" \
	sh -c "[ $CHECK_RC = 0 ] &&
	       grep -q 'offset 0xf8: context switch record: outgoing thread state 1 (running), read as runnable (warning)' '$TMP/switch-running.check.err' &&
	       grep -q '; 1 warning in 1 record' '$TMP/switch-running.check'"
check "converted, the preempted thread leaves in state R" \
	grep -q 'sched_switch: *ten:10 \[120\] R ==> eleven:11' \
	"$TMP/switch-running.tc"

# ---- 3. malformed records inside sound sizes -----------------------------

read_all bad-records
check "bad records: check names the first as a fault, exit 1" \
	sh -c "[ $CHECK_RC = 1 ] &&
	       grep -q 'offset 0xe8: event record: argument 1 (3 words) runs past the record' '$TMP/bad-records.check.err'"
check "bad records: report goes on: 30 lines, 25 after the bad ones ($LINES)" \
	sh -c "[ $LINES = 30 ] && [ \$(grep -c 'app:after:' '$TMP/bad-records.rep') = 25 ]"
for t in rep dump conv ks; do
	prefix=trace-fxt loads=1
	[ $t = ks ] && prefix=plugin-fxt loads=2
	check "bad records: $t says the 4 skips once a read, the first named" \
		sh -c "[ \$(grep -c 'malformed' '$TMP/bad-records.$t.err') = $loads ] &&
		       grep -q '^$prefix: 4 records malformed, skipped; the first: .*offset 0xe8: ' '$TMP/bad-records.$t.err'"
done
check "bad records: the record running past the end ends the read, said" \
	grep -q "offset 0x368: truncated" "$TMP/bad-records.rep.err"
check "bad records: dump lists 41 records (all but the 4 skipped)" \
	test "$(wc -l < "$TMP/bad-records.dump")" = 41
check "bad records: convert writes the 30 events, exit 1 for the cut end" \
	sh -c "[ $CONVERT_RC = 1 ] && [ '$EVENTS' = 30 ] && [ $TCLINES = 30 ] &&
	       grep -q 'truncated: .*the records before it are converted' '$TMP/bad-records.conv.err'"
check "bad records: KernelShark loads 30 entries ($KS)" test "$KS" = 30

# ---- 4. threads by (process, thread) -------------------------------------

# ks_tasks NAME: the task-pid column of KernelShark's entries, once each
ks_tasks() { cut -d';' -f3 "$TMP/$1.ks" | sed 's/^ //' | sort -u | tr '\n' ' '; }
# rep_tasks FILE: the same of report lines
rep_tasks() { tasks "$1" | sort -u | tr '\n' ' '; }

read_all tid0-named
check "thread 0 named by a kernel object: worker0, not <idle>, in report, .dat, KernelShark" \
	test "$(rep_tasks "$TMP/tid0-named.rep")|$(rep_tasks "$TMP/tid0-named.tc")|$(ks_tasks tid0-named)" = \
	     "worker0-1000 |worker0-1000 |worker0-1000 "

read_all procs300
n_rep=$(tasks "$TMP/procs300.rep" | sort -u | wc -l)
n_tc=$(tasks "$TMP/procs300.tc" | sort -u | wc -l)
n_ks=$(ks_tasks procs300 | wc -w)
check "300 processes with a thread 0: 300 tasks in report, .dat, KernelShark ($n_rep, $n_tc, $n_ks)" \
	test "$n_rep $n_tc $n_ks" = "300 300 300"
tasks "$TMP/procs300.rep" > "$TMP/a"
tasks "$TMP/procs300.tc" > "$TMP/b"
check "... the same task ids everywhere, none <idle>" \
	sh -c "cmp -s '$TMP/a' '$TMP/b' && ! grep -q idle '$TMP/a' &&
	       [ '$(ks_tasks procs300)' = '$(rep_tasks "$TMP/procs300.rep")' ]"
check "convert says so: 300 threads under a pid other than their tid" \
	grep -q "procs300.dat: 300 threads under a pid other than their tid (.*): pid 1 tid 0 -> 1000, pid 2 tid 0 -> 1001, pid 3 tid 0 -> 1002, \.\.\.; all of them in the .dat's version option" \
	"$TMP/procs300.conv.err"
trace-cmd dump --options "$TMP/procs300.dat" > "$TMP/procs300.opt" 2>&1
check "the .dat's version option has the whole mapping" \
	sh -c "grep -qx 'pid 300 tid 0 -> 1299' '$TMP/procs300.opt' &&
	       [ \$(grep -c '^pid [0-9]* tid 0 -> ' '$TMP/procs300.opt') = 300 ]"
check "report says the same once on stderr" \
	grep -q "^trace-fxt: 300 threads shown under a task id of their own" \
	"$TMP/procs300.rep.err"

read_all shared-tid
check "thread 1 of process 100 and of 200: thrA-1 and thrB-1000 in report, .dat, KernelShark" \
	test "$(rep_tasks "$TMP/shared-tid.rep")|$(rep_tasks "$TMP/shared-tid.tc")|$(ks_tasks shared-tid)" = \
	     "thrA-1 thrB-1000 |thrA-1 thrB-1000 |thrA-1 thrB-1000 "

read_all wide-tid
check "tid 5000000000: a task of its own, not cut to 705032704 (report, .dat)" \
	sh -c "grep -q ' wide-1000000000 ' '$TMP/wide-tid.rep' &&
	       grep -q ' wide-1000000000 ' '$TMP/wide-tid.tc' &&
	       grep -q ' narrow-705032704 ' '$TMP/wide-tid.tc' &&
	       ! grep -q 'wide-705032704' '$TMP/wide-tid.tc'"
check "... its context switch names both apart, in KernelShark too" \
	sh -c "grep -q 'wide:1000000000 \[120\] S ==> narrow:705032704' '$TMP/wide-tid.tc' &&
	       grep -q 'wide-1000000000; CPU 1; ; fxt/context_switch; prev_pid=1000000000 prev_state=blocked next_pid=705032704' '$TMP/wide-tid.ks'"
check "convert says which koid got which pid" \
	grep -q "pid 7 tid 5000000000 -> 1000000000" "$TMP/wide-tid.conv.err"
check "check passes the koid the format allows (exit 0), warning that Perfetto keeps its low 32 bits" \
	sh -c "[ $CHECK_RC = 0 ] &&
	       grep -q ': ok, .* 3 warnings in 3 records' '$TMP/wide-tid.check' &&
	       grep -q 'offset 0x.*: thread record: tid 5000000000 is past 32 bits: Perfetto.s importer keeps its low 32 bits (705032704) (warning)' '$TMP/wide-tid.check.err'"

# ---- 6. names defined later in the file ----------------------------------

read_all late-names
trace-cmd report -R "$TMP/late-names.dat" > "$TMP/late-names.raw" 2>/dev/null
check "late names fill sched_switch's comm fields" \
	grep -q "prev_comm=early-bird prev_pid=20 .* next_comm=night-owl next_pid=21" \
	"$TMP/late-names.raw"
check "... and sched_waking's" grep -q "comm=night-owl pid=21" \
	"$TMP/late-names.raw"

# ---- 5. strings with a NUL -----------------------------------------------

read_all nul-string
check "dump prints the whole record, the NULs escaped" \
	grep -qF 'args: s="ab\x00cd" "k\x00y"=int32(7) after=int32(9)' \
	"$TMP/nul-string.dump"
check "report escapes them too (no raw NUL), trace-cmd with plugin_fxt alike" \
	sh -c "! grep -qaP '\x00' '$TMP/nul-string.rep' &&
	       grep -qF 's=\"ab\x00cd\" \"k\x00y\"=7 after=9' '$TMP/nul-string.rep' &&
	       grep -qF 's=\"ab\x00cd\" \"k\x00y\"=7 after=9' '$TMP/nul-string.tc' &&
	       grep -qF 'log:                  \"log\x00tail\"' '$TMP/nul-string.rep' &&
	       grep -qF 'log:                  \"log\x00tail\"' '$TMP/nul-string.tc'"

# ---- 8. a CPU far past the others ----------------------------------------

read_all cpu65535
size=$(stat -c %s "$TMP/cpu65535.dat")
check "CPU 65535: a .dat of 5 CPUs ($size bytes), the switch on CPU 4" \
	sh -c "grep -qx 'cpus=5' '$TMP/cpu65535.tc' && [ $size -lt 100000 ] &&
	       grep -q '\[004\] .*sched_switch:' '$TMP/cpu65535.tc' &&
	       grep -q '\[003\] .*app:e cpu=3' '$TMP/cpu65535.tc'"
check "convert says so, and the .dat's version option keeps it" \
	sh -c "grep -q '1 CPU renumbered (.*): cpu 65535 -> 4' '$TMP/cpu65535.conv.err' &&
	       trace-cmd dump --options '$TMP/cpu65535.dat' 2>&1 | grep -qx 'cpu 65535 -> 4'"
check "check passes the CPU the format allows (exit 0), warning that Perfetto v58.2's importer stops on CPUs of 4096 or more" \
	sh -c "[ $CHECK_RC = 0 ] && grep -q ': ok, 32 records' '$TMP/cpu65535.check' &&
	       grep -q 'offset 0x.*: context switch record: CPU 65535: Perfetto.s importer stops on CPUs of 4096 or more (warning)' '$TMP/cpu65535.check.err' &&
	       grep -q 'offset 0x.*: thread wakeup record: CPU 65535: Perfetto.s importer stops on CPUs of 4096 or more (warning)' '$TMP/cpu65535.check.err'"
check "... a fault with --pedantic" \
	sh -c "! $TRACE_FXT check --pedantic '$D/cpu65535.fxt' > /dev/null 2>&1"

# ---- 9. plugin_fxt.so prints what report prints --------------------------

read_all kinds
# the text after the event column: report's instant lines name the
# event "category:name:" where trace-cmd names it "instant:"
tail_of() {
	sed -nE '/ (context_switch|thread_wakeup|sched_switch|sched_waking):/d
		 s/.*[0-9]: (app:instant): +(.*)/\1 \2/p
		 t
		 s/.*[0-9]: [a-z_]+: +(.*)/\1/p' "$1" | sed 's/ *$//'
}
tail_of "$TMP/kinds.rep" > "$TMP/kinds.rep.tail"
tail_of "$TMP/kinds.tc" > "$TMP/kinds.tc.tail"
sed 's/ (duration 100 ns)//' "$TMP/kinds.rep.tail" > "$TMP/kinds.rep.cmp"
same "every event kind and the log: trace-cmd report (plugin_fxt.so) prints what report prints, but a duration end's length" \
	"$TMP/kinds.rep.cmp" "$TMP/kinds.tc.tail"
check "... which report alone knows (it pairs the end with its begin)" \
	sh -c "grep -qx 'app:duration_end (duration 100 ns) n=3 s=x y' '$TMP/kinds.rep.tail' &&
	       grep -qx 'app:duration_complete (duration 500 ns) n=4 s=x y' '$TMP/kinds.tc.tail' &&
	       grep -qx 'app:counter (id 42) n=1 s=x y' '$TMP/kinds.tc.tail'"

# ---- 10. a format libtraceevent's parser takes minutes over ---------------

f=$D/hog-format.fxt
start=$SECONDS
timeout 120 $TRACE_FXT report "$f" > "$TMP/hog.rep" 2> "$TMP/hog.rep.err"
rc=$?
check "hog format: report finishes ($rc, $((SECONDS - start)) s), the event as fields" \
	sh -c "[ $rc = 0 ] && grep -q ' hog: *x=5' '$TMP/hog.rep'"
start=$SECONDS
timeout 120 $TRACE_FXT convert -q "$f" -o "$TMP/hog.dat" 2> "$TMP/hog.conv.err"
rc=$?
check "hog format: convert finishes ($rc, $((SECONDS - start)) s), the format left out of the .dat" \
	sh -c "[ $rc = 0 ] && timeout 60 trace-cmd report '$TMP/hog.dat' 2>/dev/null | grep -q 'instant: *sys:hog'"
start=$SECONDS
timeout 120 "$KSLOAD" -r 1 -D 5 -p "$KSPLUGIN" "$f" > "$TMP/hog.ks" 2>&1
rc=$?
check "hog format: KernelShark loads it ($rc, $((SECONDS - start)) s for two loads)" \
	sh -c "[ $rc = 0 ] && grep -q 'sys/hog; x=5' '$TMP/hog.ks'"

e2e_exit
