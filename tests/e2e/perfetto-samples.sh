#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What Perfetto shows of converted recordings, by the model of its FXT
# import (perfetto-model.py, written from Perfetto's source): every
# samples/*.dat (and ../shared/samples' recordings when present), a
# multi-threaded fixture (threads-dat-gen.c), the EventHeader activity
# fixture, a recording converted with --tgids, and the recordings made
# with record-tgid (their .tgids beside them: the kernel's truth).
# For each, the model's tables must hold:
#  - sched: no row left open but a CPU's last, no two rows of a CPU
#    overlapping; thread_state rows of a thread in sequence;
#  - one thread with tracks per tid, every thread and process named,
#    every thread in the process its tgid says (task_newtask, exec, atrace markers,
#    the --tgids file: what trace-cmd report -R shows of the source; and
#    for a recording with the kernel's saved_tgids beside it, converted
#    without them, the process those name: sched_process_fork and
#    PROCMAPS included);
#  - as many Z and X states as the source's sched_switch prev_state;
#  - no counter series of a CPU number, per-task counters not in pid 0;
#  - every async begin ended;
#  - no converter metadata on any thread's track (lost events aside:
#    they happened on a CPU, and are shown on thread 0's), no padding
#    bytes as arguments (user_events keep their payload's bytes);
#  - through the Perfetto packets (perfetto-model.py check_packets()):
#    scheduling from one source, thread states as the kernel reports
#    them (D, R+, I, ... as many of each as the source's prev_state), a
#    waker on the wakeups, the idle thread marked, Irq/SoftIrq Cpu N
#    slices and cpufreq/cpuidle CPU counter tracks per the source's
#    events, every forked process with its parent, system info, ftrace
#    stats as the CPUSTAT options, data loss on the CPUs that lost
#    events, plain trace_marker text as
#    ftrace "print" rows, atrace slices untouched by them, each from
#    its B to its E, a slice per syscall Perfetto's table names, each
#    ended at the atrace marker written in it (a nanosecond before), and
#    slices that nest (no end misplaced); the runs before a CPU's first switch and before a
#    switch whose switch in the recording lost drawn from their first
#    record (halfway after the CPU's record before when the switch out
#    is the only one), no 0 ns row of a real thread; a start time on every thread the source's task_newtask
#    starts; function_graph calls as nested slices named by kallsyms.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
MODEL=$TOP/tests/e2e/perfetto-model.py
EHFXT=$TOP/tests/e2e/eventheader-fxt.py
N_CHECKS=52	# lines perfetto-model.py check prints with a full EXPECT

files=("$SAMPLES"/*.dat "$BUILT_SAMPLES"/*.dat)
for f in sched-irq-timer.dat two-buffers.dat sched-irq-timer.v6.dat; do
	[ -e "$SAMPLES/$f" ] && continue
	if shared_sample "$f" $((N_CHECKS + 1)); then files+=("$SHARED"); fi
done
truths=("$SAMPLES"/*.tgids)
e2e_plan $(((${#files[@]} + 5) * (N_CHECKS + 1) + 7 + ${#truths[@]} + 2 + 5))

# model NAME DAT [--tgids FILE]: convert, read the source's truths with
# trace-cmd, and turn each of the model's findings into a check.
model() {
	local n=$1 dat=$2 tg=
	shift 2
	[ "$1" = --tgids ] && tg=$2
	if ! "$TRACE_FXT" convert -q "$dat" -o "$TMP/$n.fxt" "$@"; then
		not_ok "$n: trace-fxt convert"
		return
	fi
	ok "$n: trace-fxt convert $*"
	trace-cmd dump --options "$dat" >"$TMP/$n.opts" 2>/dev/null
	trace-cmd report -R -t "$dat" 2>/dev/null |
		python3 "$MODEL" expect $tg --options "$TMP/$n.opts" \
		>"$TMP/$n.exp"
	python3 - "$TMP/$n.exp" <<'EOF'
import json, sys
e = json.load(open(sys.argv[1]))
e.update(meta_category='trace-cmd', meta_shown=['lost_events'],
         bookkeeping_args=['__trailing.bytes'],
         bookkeeping_kept=['user_events'],
         task_counters=['mem.', 'rss_stat'])
json.dump(e, open(sys.argv[1], 'w'))
EOF
	relay "$n: " python3 "$MODEL" check "$TMP/$n.fxt" "$TMP/$n.exp"
	cp "$TMP/relay.out" "$TMP/$n.out"	# read again below
}

for f in "${files[@]}"; do
	model "$(basename "$f" .dat)" "$f"
done

# recordings made with record-tgid, converted without their saved_tgids:
# every thread in the process the kernel says
for t in "${truths[@]}"; do
	n=$(basename "$t" .tgids)
	python3 "$MODEL" truth "$TMP/$n.fxt" "$t" >"$TMP/$n.truth" 2>&1
	check "$n: $(sed -n 's/^\(not \)\{0,1\}ok - //p' "$TMP/$n.truth")" \
		grep -q '^ok - ' "$TMP/$n.truth"
done

# procmaps.dat: a thread made by a thread, only the inner one writing
# atrace markers, no task_newtask: sched_process_fork puts the outer one
# in the process too; the PROCMAPS option is carried as trace-fxt found it
python3 "$MODEL" tables "$TMP/procmaps.fxt" >"$TMP/procmaps.tables"
check "procmaps: thread outer, made by nested-main, in its process" \
	bash -c 'm=$(sed -n "s/^thread .*upid=\([0-9]*\) name=nested-main$/\1/p" "$1")
		 o=$(sed -n "s/^thread .*upid=\([0-9]*\) name=outer$/\1/p" "$1")
		 echo "# nested-main upid=$m outer upid=$o"
		 [ -n "$m" ] && [ "$m" = "$o" ]' _ "$TMP/procmaps.tables"
trace-cmd dump --options "$SAMPLES/procmaps.dat" 2>/dev/null |
	awk '/\[Option PROCMAPS/ { p = 1; next } /^\t*\[Option/ { p = 0 } p' \
	>"$TMP/procmaps.opt"
"$TRACE_FXT" dump --json "$TMP/procmaps.fxt" >"$TMP/procmaps.json"
check "procmaps: trace-cmd dump's PROCMAPS text is a trace-cmd:procmaps instant" \
	python3 - "$TMP/procmaps.opt" "$TMP/procmaps.json" <<'EOF'
import json, sys
want = open(sys.argv[1]).read()[:-1]    # dump adds a newline
got = [a['value'] for ln in open(sys.argv[2]) for r in [json.loads(ln)]
       if r.get('name') == 'procmaps' and r.get('category') == 'trace-cmd'
       for a in r['args'] if a['name'] == 'text']
print('# %d bytes in trace-cmd dump, %d procmaps instants' % (len(want),
                                                               len(got)))
sys.exit(not (want and got == [want]))
EOF

# a multi-threaded process whose workers write atrace markers, two
# processes using the same async cookie, a zombie (threads-dat-gen.c)
GEN=$BUILD/tests/e2e/threads-dat-gen
if [ -x "$GEN" ] && "$GEN" "$TOP/tests/unit/dat-formats" "$TMP/threads.dat"; then
	model threads "$TMP/threads.dat"
	check "threads: workers 5001-5003 are threads of process 5000" \
		grep -q '^ok - threads: 5 tids with a known tgid, 0 in' \
		"$TMP/threads.out"
	check "threads: 24 async slices of two processes' cookie 1, all ended" \
		grep -q '^ok - async: 24 slices, 0 never end; 0 ends' \
		"$TMP/threads.out"
	python3 "$MODEL" tables "$TMP/threads.fxt" | grep '^counter' \
		>"$TMP/threads.counters"
	check "threads: rss_stat of mm 77, read by 5000's workers and by 6000, is one series of process 5000, Perfetto's own mem.rss.anon" \
		grep -qx 'counter pid=5000 mem.rss.anon n=24 first=409600' \
		"$TMP/threads.counters"
	python3 "$MODEL" tables "$TMP/threads.fxt" | grep '^cpu_counter' \
		>"$TMP/threads.cpu"
	check "threads: cpu_frequency and cpu_idle are Perfetto's cpufreq and cpuidle CPU counter tracks, one per CPU, and no FXT counter" \
		test "$(grep -c '^cpu_counter cpufreq cpu=[01] n=6 ' \
			"$TMP/threads.cpu")" = 2 -a \
		"$(grep -c '^cpu_counter cpuidle cpu=[01] n=12 first=4294967295$' \
			"$TMP/threads.cpu")" = 2 -a \
		"$(wc -l < "$TMP/threads.counters")" = 1
else
	not_ok "threads-dat-gen writes the multi-threaded fixture"
fi

# the function_graph tracer's calls (funcgraph-dat-gen.c: this kernel has
# no such tracer): nested slices named from the .dat's kallsyms on the
# thread's Funcgraph track, the idle task's on its CPU's
GEN=$BUILD/tests/e2e/funcgraph-dat-gen
if [ -x "$GEN" ] && "$GEN" "$TMP/funcgraph.dat"; then
	model funcgraph "$TMP/funcgraph.dat"
	python3 "$MODEL" tables "$TMP/funcgraph.fxt" >"$TMP/funcgraph.tables"
	check "funcgraph: ksys_read > vfs_read > rw_verify_area nested on thread 7000, twice; do_idle on swapper1 -funcgraph" \
		bash -c 'grep -c "^slice tid=7000 .*None:\(ksys_read\|vfs_read\|rw_verify_area\) *$" "$1" |
			 grep -qx 6 &&
			 grep -q "^slice tid=7000 ts=1000001000 dur=5000 None:ksys_read" "$1" &&
			 grep -q "^slice tid=7000 ts=1000002000 dur=3000 None:vfs_read" "$1" &&
			 grep -q "^slice tid=7000 ts=1000003000 dur=1000 None:rw_verify_area" "$1" &&
			 test "$(grep -c "^cpu_slice swapper1 -funcgraph .*None:do_idle$" "$1")" = 2' \
		_ "$TMP/funcgraph.tables"
else
	not_ok "funcgraph-dat-gen writes the function_graph fixture"
fi
# The kernel events beyond scheduling that this machine's kernel cannot fire
# (kernel-events-dat-gen.c), and net-tcp.dat's TCP over loopback
GEN=$BUILD/tests/e2e/kernel-events-dat-gen
if [ -x "$GEN" ] && "$GEN" "$TOP/tests/e2e/kernel-formats" "$TMP/kev.dat"; then
	model kernel-events "$TMP/kev.dat"
	python3 "$MODEL" tables "$TMP/kernel-events.fxt" >"$TMP/kev.tables"
	check "kernel-events: the D row of netd blocked in io_schedule (sched_blocked_reason's caller, from kallsyms), io_wait 1" \
		grep -qx 'blocked tid=7000 ts=1000012000 state=D function=io_schedule io_wait=1' \
		"$TMP/kev.tables"
	check "kernel-events: suspend_enter(3) holds freeze_processes(0) on \"Suspend/Resume Latency\" (actions from the printk formats)" \
		bash -c 'grep -qx "track_slice Suspend/Resume Latency ts=1000028000 dur=3000 None:suspend_enter(3)" "$1" &&
			 grep -qx "track_slice Suspend/Resume Latency ts=1000029000 dur=1000 None:freeze_processes(0)" "$1"' \
		_ "$TMP/kev.tables"
	check "kernel-events: the shrinker's slice inside the direct reclaim's on netd's thread" \
		bash -c 'grep -qx "slice tid=7000 ts=1000007000 dur=3000 None:mm_vmscan_direct_reclaim " "$1" &&
			 grep -qx "slice tid=7000 ts=1000008000 dur=1000 None:mm_vmscan_shrink_slab " "$1"' \
		_ "$TMP/kev.tables"
else
	not_ok "kernel-events-dat-gen writes the kernel events fixture"
fi
python3 "$MODEL" tables "$TMP/net-tcp.fxt" >"$TMP/net-tcp.tables" 2>&1
check "net-tcp: a TCP stream's states end ESTABLISHED(sport,dport) where the next state begins" \
	grep -qE '^track_slice TCP stream#[0-9]+ ts=[0-9]+ dur=[0-9]+ tcp_state:TCP_ESTABLISHED\(sport=[0-9]+,dport=[0-9]+\)$' \
	"$TMP/net-tcp.tables"
check "net-tcp: mem.rss.* of python3 once, from the packets (no FXT mem.rss series)" \
	bash -c 'grep -q "^counter pid=[0-9]* mem.rss.anon n=" "$1" &&
		 ! grep -q "^counter .*mem\.[a-z.]*:bytes:" "$1"' _ "$TMP/net-tcp.tables"

# EventHeader activities whose stop is named otherwise than the start
ids=(6ba7b810-9dad-11d1-80b4-00c04fd430c8 00112233-4455-6677-8899-aabbccddeeff
     01020304-0506-0708-0102-030405060708)
# made from the project's own EventHeader events (eventheader-sets.bash)
if "$BUILD/samples/eventheader-vectors" "$TMP/eh.vec" >/dev/null &&
   python3 "$EHFXT" derive "$TMP/eh.vec" "$TMP/act.vec" "${ids[@]}" &&
   "$BUILD/samples/eventheader-dat" "$TMP/act.vec" \
	"$SAMPLES/eventheader-formats" "$TMP/act.dat" >/dev/null; then
	model activities "$TMP/act.dat"
	check "activities: 3 async slices, all ended" \
		grep -q '^ok - async: 3 slices, 0 never end' "$TMP/activities.out"
else
	not_ok "the activity fixture is written"
fi

# --tgids: the kernel's saved_tgids lines put threads in other groups
a=$SAMPLES/atrace-markers.dat
read -r t1 t2 < <(trace-cmd report -R "$a" 2>/dev/null |
	sed -nE 's/.*task_newtask: +pid=([0-9]+).*/\1/p' | head -2 | xargs)
printf '%s %s\n%s %s\n' "$t1" "$t1" "$t2" "$t1" >"$TMP/tgids"
model tgids "$a" --tgids "$TMP/tgids"
check "tgids: a bad --tgids file is an error that names its line" \
	bash -c '! "$1" convert -q "$2" -o "$3" --tgids <(echo "1 x") 2>"$3.err" &&
		 grep -q ":1: not a" "$3.err"' _ "$TRACE_FXT" "$a" "$TMP/bad.fxt"
e2e_exit
