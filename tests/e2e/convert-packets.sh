#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What Perfetto reads of a converted trace.dat, event by event: each of
# the project's recordings converted to FXT, then `trace-fxt convert
# --packets` makes a .dat of that FXT's Perfetto packets alone (pft2dat
# over the blob records of type 3, the recording's own event formats,
# kallsyms and printk strings taken from the FXT).  Debian's `trace-cmd
# report -R -t` of it against the same of the recording
# (packets-compare.py): on every CPU the same events at the same
# nanosecond, each with the same pid and every field equal, but the
# fields Perfetto's messages have no place for, listed here per
# recording, exactly (a field listed that never differs fails too).
# Besides them the packets may hold only the switches the converter
# inferred, and a sched_wakeup_new as Perfetto's sched_waking (MAPPING.md
# says when).  The list is what Perfetto's own recording would lose of
# the same events, and what an FXT that keeps each event once must carry
# beside the packets.  A Perfetto trace's compact sched takes its
# previous task from the CPU's last switch, full or compact, as
# Perfetto's importer does (ftrace_sched_event_tracker.cc): without it
# the checks fail on prev_comm, prev_pid and prev_prio.
. "$(dirname "$0")/lib.sh"
COMPARE=$(dirname "$0")/packets-compare.py
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
# the FXT's own formats are the ones to take: never this machine's
unset TRACE_FXT_EVENT_FORMATS

# recording: the fields its packets do not keep (EVENT:FIELD ...)
declare -A LOST=(
	[sched.dat]="print:ip"
	[sched-zstd.dat]="print:ip"
	[sched-v6.dat]="print:ip"
	[two-buffers.dat]="print:ip"
	[threads.dat]="print:ip"
	[atrace-markers.dat]="print:ip"
	[lost-events.dat]="print:ip"
	[net-events.dat]=""
	[procmaps.dat]="print:ip"
	[kernel-states.dat]="print:ip block_rq_issue:ioprio
			     block_rq_complete:ioprio"
	[syscalls.dat]="print:ip"
	[net-tcp.dat]="kfree_skb:reason signal_deliver:sa_handler
		       inet_sock_set_state:saddr inet_sock_set_state:daddr
		       tcp_probe:saddr tcp_probe:daddr
		       tcp_cong_state_set:saddr tcp_cong_state_set:daddr
		       tcp_destroy_sock:saddr tcp_destroy_sock:daddr
		       tcp_rcv_space_adjust:saddr tcp_rcv_space_adjust:daddr"
)

recordings
e2e_plan $((2 * ${#RECS[@]} + 2))
for dat in "${RECS[@]}"; do
	n=${dat##*/}
	if ! $TRACE_FXT convert -q "$dat" -o "$TMP/$n.fxt" ||
	   ! $TRACE_FXT convert --packets "$TMP/$n.fxt" -o "$TMP/$n.p.dat" \
		2> "$TMP/$n.sum"; then
		cat "$TMP/$n.sum"
		not_ok "$n: its FXT's packets as a .dat"
		not_ok "$n: the packets' events against the recording's"
		continue
	fi
	if grep -q "formats: [1-9][0-9]* the recording's (the FXT's), 0 the kernel's" \
	   "$TMP/$n.sum"; then
		ok "$n: its FXT's packets as a .dat, by the recording's formats"
	else
		cat "$TMP/$n.sum"
		not_ok "$n: its FXT's packets as a .dat, by the recording's formats"
	fi
	trace-cmd report -R -t "$dat" > "$TMP/src" 2>/dev/null
	trace-cmd report -R -t "$TMP/$n.p.dat" > "$TMP/pkt" 2>/dev/null
	args=(--top-only --as sched_wakeup_new=sched_waking)
	for f in ${LOST[$n]}; do
		args+=(--allow "$f")
	done
	if python3 "$COMPARE" "${args[@]}" "$TMP/src" "$TMP/pkt" \
	   > "$TMP/cmp"; then
		lost=$(echo ${LOST[$n]})
		ok "$n: the packets' events against the recording's: $(grep -o 'pairs compared: [0-9]*' "$TMP/cmp"), lost only: ${lost:-nothing}"
		grep -v '^  [a-z_0-9]* *[0-9]* *[0-9]*$' "$TMP/cmp" |
			grep -v '^events per' | sed 's/^/# /'
	else
		sed 's/^/#   /' "$TMP/cmp"
		not_ok "$n: the packets' events against the recording's"
	fi
done

# a .dat in, or no FXT: --packets says why
$TRACE_FXT convert --packets "${RECS[0]}" -o "$TMP/x.dat" 2> "$TMP/stderr"
check "--packets with a trace.dat in is a usage error (exit 2)" \
	test $? -eq 2
printf 'not a trace at all, just text\n' > "$TMP/text.fxt"
mkdir -p "$TMP/out"
if ! $TRACE_FXT convert --packets "$TMP/text.fxt" -o "$TMP/out/x.dat" \
	2> "$TMP/stderr" &&
   failed_cleanly "--packets of no FXT" "text.fxt"; then
	ok "--packets of no trace is refused with a reason, nothing written"
fi
e2e_exit
