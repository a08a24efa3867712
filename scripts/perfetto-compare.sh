#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What a real Perfetto trace processor shows of each recording, on both
# ways into it: the recording converted by trace-fxt (.fxt) and
# `trace-cmd report -N -t` of it (Perfetto's systrace text importer).
# The same SQL on both, one table a recording.  By hand, not a test: no
# test needs a trace processor.
#
#   scripts/perfetto-compare.sh TRACE_PROCESSOR [FILE.dat...]
#   make perfetto-compare TRACE_PROCESSOR=/path/to/trace_processor_shell
#
# Without FILE.dat: every samples/*.dat.  Without TRACE_PROCESSOR it says
# so and does nothing.  TRACE_FXT_ARGS are given to trace-fxt convert
# (--tgids, --fxt-sched, ...).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:-}
if [ -z "$tp" ]; then
	echo "perfetto-compare: no trace processor given (TRACE_PROCESSOR=/path/to/trace_processor_shell): nothing compared"
	exit 0
fi
if [ ! -x "$tp" ]; then
	echo "perfetto-compare: $tp is not an executable trace processor" >&2
	exit 2
fi
shift
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$top"/samples/*.dat)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${BUILD_DIR:-$top/build}
export TRACECMD_PLUGIN_DIR=$build/trace-cmd-plugin/trace-fxt-input

# label | query (one value): the table the README shows (thread states,
# wakeups, sched rows, IRQs, workqueues, processes...), then the rest of
# what Perfetto shows that the packets or the text import add
queries=(
"thread states D|select count(*) from thread_state where state = 'D'"
"thread states I|select count(*) from thread_state where state = 'I'"
"thread states R+|select count(*) from thread_state where state = 'R+'"
"thread states S|select count(*) from thread_state where state = 'S'"
"wakeups with a waker|select count(*) from thread_state where waker_utid is not null"
"sched rows of real threads|select count(*) from sched join thread using (utid) where not is_idle"
"sched rows left open|select count(*) from sched s where dur < 0 and ts < (select max(ts) from sched s2 where s2.ucpu = s.ucpu)"
"threads of tid 0 (idle / all)|select sum(is_idle) || ' / ' || count(*) from thread where tid = 0"
"cpuidle CPU counter tracks (samples)|select count(distinct t.id) || ' (' || count(c.id) || ')' from cpu_counter_track t left join counter c on c.track_id = t.id where t.name = 'cpuidle'"
"cpufreq CPU counter tracks (samples)|select count(distinct t.id) || ' (' || count(c.id) || ')' from cpu_counter_track t left join counter c on c.track_id = t.id where t.name = 'cpufreq'"
"Irq Cpu N slices|select count(*) from slice s join track t on s.track_id = t.id where t.name like 'Irq Cpu %'"
"SoftIrq Cpu N slices|select count(*) from slice s join track t on s.track_id = t.id where t.name like 'SoftIrq Cpu %'"
"workqueue slices|select count(*) from slice where category = 'workqueue' and dur != 0"
"processes with a parent|select count(*) from process where parent_upid is not null"
"system info rows|select count(*) from metadata where name like 'system_%' and str_value is not null"
"ftrace stats (non-zero)|select count(*) from stats where name like 'ftrace_cpu_%' and value != 0"
"CPUs with data loss|select count(*) from stats where name = 'ftrace_cpu_has_data_loss' and value > 0"
"ftrace_event rows|select count(*) from ftrace_event"
"ftrace print rows|select count(*) from ftrace_event where name = 'print'"
"atrace slices (B/E, not workqueue, not syscalls)|select count(*) from slice s join thread_track tt on s.track_id = tt.id where s.dur != 0 and coalesce(s.category, '') != 'workqueue' and not (s.category is null and s.name glob 'sys_*')"
"syscall slices|select count(*) from slice where category is null and name glob 'sys_*'"
"syscall slices cut at an atrace marker (Perfetto's print / the converter's sys_exit 1 ns before)|select (select coalesce(sum(value), 0) from stats where name = 'truncated_sys_write_duration') || ' / ' || (select count(*) from slice s where s.category is null and s.name glob 'sys_*' and s.dur >= 0 and exists (select 1 from slice a where a.track_id = s.track_id and a.category = 'atrace' and (a.ts = s.ts + s.dur + 1 or a.ts + a.dur = s.ts + s.dur + 1)))"
"misplaced slice ends|select coalesce(sum(value), 0) from stats where name = 'misplaced_end_event'"
"threads with a start time|select count(*) from thread where start_ts is not null"
"zero-length sched rows of real threads|select count(*) from sched join thread using (utid) where not is_idle and dur = 0"
"function_graph slices|select count(*) from slice s join track t on s.track_id = t.id where t.name = 'Funcgraph' or t.name glob 'swapper* -funcgraph'"
"threads in a process of 2+ threads|select count(*) from thread where upid in (select upid from thread where upid is not null group by upid having count(*) > 1)"
"processes|select count(*) from process"
"threads|select count(*) from thread"
"slice arguments|select count(*) from slice s join args a using (arg_set_id)"
"import errors (stats, severity error/data_loss)|select coalesce(sum(value), 0) from stats where severity in ('error', 'data_loss') and value > 0"
)
# What Perfetto draws of net, sock, tcp, skb, kmem, oom, vmscan, signal,
# power, cpuhp, thermal, block, irq_vectors events and
# sched_blocked_reason (MAPPING.md, "More kernel events")
cnt="select count(*) || ' (last ' || coalesce(max(c.value), '-') || ')' from counter c join counter_track t on c.track_id = t.id where t.name"
queries+=(
"lo Received KB samples (last)|$cnt = 'lo Received KB'"
"lo Transmitted KB samples (last)|$cnt = 'lo Transmitted KB'"
"Kfree Skb IP Prot samples (last)|$cnt = 'Kfree Skb IP Prot'"
"TCP state slices (streams)|select count(*) || ' (' || count(distinct t.id) || ')' from slice s join track t on s.track_id = t.id where t.name like 'TCP stream#%'"
"TCP Retransmit Skb slices|select count(*) from slice s join track t on s.track_id = t.id where t.name = 'TCP Retransmit Skb'"
"Napi Gro Cpu N slices|select count(*) from slice s join track t on s.track_id = t.id where t.name like 'Napi Gro Cpu %'"
"mem.rss.*/mem.swap tracks (samples)|select count(distinct t.id) || ' (' || count(c.id) || ')' from counter_track t join counter c on c.track_id = t.id where t.name glob 'mem.rss*' or t.name glob 'mem.swap*'"
"mem.* series shown twice in a process|select count(*) from (select upid, replace(name, ':bytes:0', '') as n from process_counter_track where name glob 'mem.*' group by upid, n having count(*) > 1)"
"oom_score_adj samples|select count(*) from counter c join counter_track t on c.track_id = t.id where t.name = 'oom_score_adj'"
"signal_generate / signal_deliver slices|select (select count(*) from slice where name = 'signal_generate' and category is null) || ' / ' || (select count(*) from slice where name = 'signal_deliver' and category is null)"
"direct reclaim / shrink_slab slices|select (select count(*) from slice where name = 'mm_vmscan_direct_reclaim') || ' / ' || (select count(*) from slice where name = 'mm_vmscan_shrink_slab')"
"Suspend/Resume Latency slices|select count(*) from slice s join track t on s.track_id = t.id where t.name = 'Suspend/Resume Latency'"
"CPU Hotplug N slices|select count(*) from slice s join track t on s.track_id = t.id where t.name like 'CPU Hotplug %'"
"block_io slices|select count(*) from slice where name = 'block_io'"
"Temperature / Frequency / State samples|select (select count(*) from counter c join counter_track t on c.track_id = t.id where t.name like '% Temperature') || ' / ' || (select count(*) from counter c join counter_track t on c.track_id = t.id where t.name like '% Frequency') || ' / ' || (select count(*) from counter c join counter_track t on c.track_id = t.id where t.name like '% State')"
"IRQ (LocalTimer) slices|select count(*) from slice where name = 'IRQ (LocalTimer)'"
"thread states with a blocked function|select count(*) || ' (' || coalesce(group_concat(distinct blocked_function), '-') || ')' from thread_state where blocked_function is not null"
)

# each query's value as "v", read back from the line after its header
sql=$tmp/q.sql
for q in "${queries[@]}"; do
	printf 'select (%s) as v;\n' "${q#*|}"
done >"$sql"

# The value of each query, one a line.
run() {
	local out=$tmp/out err=$tmp/err
	if ! "$tp" -q "$sql" "$1" >"$out" 2>"$err"; then
		sed -n '/rror/p' "$err" | head -3 >&2
		for q in "${queries[@]}"; do echo "(failed)"; done
		return
	fi
	awk 'hdr { print; hdr = 0; next } $0 == "\"v\"" { hdr = 1 }' "$out" |
		sed 's/^"//; s/"$//'
}

# The project's model of the importers against this trace processor:
# the rows of the tables a person sees, counted in both.
model_rows() {
	local t=$tmp/model.tables
	python3 "$top/tests/e2e/perfetto-model.py" tables "$1" >"$t" 2>/dev/null ||
		{ echo "(the model failed)"; return; }
	for k in thread process sched thread_state; do
		grep -c "^$k " "$t"
	done
	grep -cE '^(slice|cpu_slice|async|track_slice) ' "$t"
	grep -E '^(counter|cpu_counter|counter_track|thread_counter) ' "$t" |
		sed 's/.* n=\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }'
}
tp_rows() {
	local q=$tmp/rows.sql k
	for k in thread process sched thread_state slice counter; do
		printf 'select count(*) as v from %s;\n' "$k"
	done >"$q"
	"$tp" -q "$q" "$1" 2>/dev/null |
		awk 'hdr { print; hdr = 0; next } $0 == "\"v\"" { hdr = 1 }' |
		sed 's/^"//; s/"$//'
}

for dat in "${files[@]}"; do
	b=$(basename "$dat" .dat)
	"$build/trace-cmd-plugin/trace-fxt/trace-fxt" convert -q \
		${TRACE_FXT_ARGS:-} "$dat" -o "$tmp/$b.fxt" || continue
	trace-cmd report -N -t "$dat" >"$tmp/$b.txt" 2>/dev/null
	run "$tmp/$b.fxt" >"$tmp/fxt.vals"
	run "$tmp/$b.txt" >"$tmp/txt.vals"
	echo
	echo "### $b ($(grep -c . "$tmp/$b.txt") lines of report -N)"
	echo
	echo "| what Perfetto shows | trace-fxt convert -> .fxt | trace-cmd report -N -t |"
	echo "|---|---|---|"
	i=0
	for q in "${queries[@]}"; do
		i=$((i + 1))
		echo "| ${q%%|*} | $(sed -n "${i}p" "$tmp/fxt.vals") | $(sed -n "${i}p" "$tmp/txt.vals") |"
	done
	m=$(model_rows "$tmp/$b.fxt" | paste -sd ' ')
	r=$(tp_rows "$tmp/$b.fxt" | paste -sd ' ')
	echo
	echo "rows of thread, process, sched, thread_state, slice, counter in the .fxt: perfetto-model.py $m; this trace processor $r: $([ "$m" = "$r" ] && echo same || echo DIFFER)"
done
