#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert on the project's recordings (tests/e2e/lib.sh's
# RECORDINGS: v6, v7 zstd and v7 uncompressed files of one workload, two
# buffers, a multi-threaded process, atrace markers, lost events, net
# events of up to 19 fields - more than one FXT record holds, TCP over
# loopback with memory, oom and signal events).  For each:
# conversion succeeds, trace-fxt check is clean, and every line of
# `trace-cmd report -R` has its twin in `trace-fxt report --raw`, byte
# for byte (compare-report.py).  Then the mapping's records are counted against
# what trace-cmd reports: the Perfetto packets' ftrace events field by
# field (perfetto-model.py compare-packets), no FXT scheduling beside
# them, and with --fxt-records FXT context switches and wakeups instead;
# task names (and every name, thread and zone as Tracy's importer reads
# them, tracy-model.py), logs, atrace slices, counters, lost events, one
# provider per buffer.  Last, an event of 33 fields (wide-event-dat-gen.c),
# more than Perfetto takes a description of: the older generic event.
. "$(dirname "$0")/lib.sh"
COMPARE=$(dirname "$0")/compare-report.py
MODEL=$(dirname "$0")/perfetto-model.py
TRACY=$(dirname "$0")/tracy-model.py
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR

e2e_plan 232
recordings
for f in "${RECS[@]}"; do
	b=$(basename "$f" .dat)
	fxt=$TMP/$b.fxt
	ver=$(trace-cmd dump --summary "$f" 2>/dev/null |
	      awk '/\[Version\]/ { v = $1 } /\[Compression algorithm\]/ { c = $1 }
		   END { print "v" v (c ? " " c : "") }')
	if ! $TRACE_FXT convert -q --instants "$f" -o "$fxt"; then
		not_ok "convert $b ($ver)"
		continue
	fi
	ok "convert $b ($ver)"
	check "check is clean on $b" $TRACE_FXT check "$fxt"
	trace-cmd report -R "$f" > "$TMP/$b.ref" 2>/dev/null
	$TRACE_FXT report --raw "$fxt" > "$TMP/$b.got"
	if res=$(python3 "$COMPARE" "$TMP/$b.ref" "$TMP/$b.got"); then
		ok "report --raw equals trace-cmd report -R on $b ($(echo "$res" | tail -1))"
	else
		echo "$res"
		not_ok "report --raw equals trace-cmd report -R on $b"
	fi

	# what Perfetto draws, counted against trace-cmd's own lines
	$TRACE_FXT dump --json "$fxt" > "$TMP/$b.json"
	count() { jq -s "map(select($1)) | length" "$TMP/$b.json"; }
	# an event two buffers both recorded is one event
	uniq_lines() {
		python3 "$MODEL" count "$1" < "$TMP/$b.ref"
	}
	# scheduling in the Perfetto packets, and there only
	check "$b: no FXT context switch or wakeup beside the packets' sched_switch" \
		test "$(count '.record == "scheduling"')" = 0
	# each event once for Perfetto: its instant only in nested records,
	# which Perfetto's tokenizer skips (MAPPING.md, "Two flavors")
	n_inst=$(count '.record == "event" and .event == "instant"')
	check "$b: every instant ($n_inst) in nested records, none where Perfetto reads" \
		test "$n_inst" -gt 0 -a "$(count '.record == "event" and .event == "instant" and (.nested | not)')" = 0
	trace-cmd report -R -t "$f" > "$TMP/$b.reft" 2>/dev/null
	trace-cmd dump --events "$f" > "$TMP/$b.formats" 2>/dev/null
	relay "$b: " python3 "$MODEL" compare-packets "$fxt" "$TMP/$b.formats" \
		< "$TMP/$b.reft"
	# --fxt-records: FXT records instead, for readers that skip packets
	if ! $TRACE_FXT convert -q --fxt-records "$f" -o "$TMP/$b.sched.fxt"; then
		not_ok "convert $b --fxt-records"
		continue
	fi
	$TRACE_FXT dump --json "$TMP/$b.sched.fxt" > "$TMP/$b.sched.json"
	scount() { jq -s "map(select($1)) | length" "$TMP/$b.sched.json"; }
	check "$b --fxt-records: the same instants ($n_inst), every one at the top level" \
		test "$(scount '.record == "event" and .event == "instant" and (.nested | not)')" = "$n_inst"
	n_switch=$(uniq_lines sched_switch)
	check "$b --fxt-records: one context switch record per sched_switch ($n_switch), inferred ones aside" \
		test "$(scount '.record == "scheduling" and .kind == "context_switch" and (.args | map(.name) | index("inferred") | not)')" = "$n_switch"
	n_wake=$(uniq_lines 'sched_waking|sched_wakeup_new')
	[ "$(grep -c ' sched_waking: ' "$TMP/$b.ref")" -gt 0 ] ||
		n_wake=$(uniq_lines 'sched_wakeup(_new)?')
	check "$b --fxt-records: one wakeup record per sched_waking/wakeup_new ($n_wake)" \
		test "$(scount '.record == "scheduling" and .kind == "thread_wakeup"')" = "$n_wake"
	check "$b --fxt-records: no sched_switch or wakeup in the packets" \
		bash -c '! python3 "$1" packet-counts "$2" | grep -E "^(switch|waking) "' \
		_ "$MODEL" "$TMP/$b.sched.fxt"
	# an event Perfetto keeps as a raw row only: the instant alone
	check "$b --fxt-records: no event of a \"raw\" row of the table in the packets" \
		bash -c '! python3 "$1" packet-counts "$2" | grep -wF -f <(
			awk -F"\t" "\$4 == \"raw\" { sub(/.*:/, \"\", \$1); print \$1 }" "$3")' \
		_ "$MODEL" "$TMP/$b.sched.fxt" "$TOP/trace-cmd-plugin/trace-fxt-input/map-ftrace.table"

	n_print=$(grep -c ' print: ' "$TMP/$b.ref")
	check "$b: one log record per trace_marker write ($n_print)" \
		test "$(count '.record == "log"')" = "$n_print"
	# distinct comm-pid of the lines, <idle> and <...> aside
	n_tasks=$(sed -nE 's/^([a-z0-9_]*: )? *(.*-[0-9]+) +\[[0-9]+\].*/\2/p' \
		  "$TMP/$b.ref" | grep -v '^<' | sort -u | wc -l)
	n_kobj=$(count '.record == "kernel_object" and .obj_type == 2 and (.args // [] | map(.name) | index("source") | not)')
	check "$b: a named thread object for every named task trace-cmd shows (0 < $n_tasks <= $n_kobj)" \
		test 0 -lt "$n_tasks" -a "$n_tasks" -le "$n_kobj"
	# Tracy's importer keeps a stray byte on a string shorter than the
	# name it read before, unless an index-0 reset comes first
	# (fxt-writer.h): every name whole, every thread named
	# (of the FXT records flavor: Tracy skips the default's nested
	# records with every other blob)
	tracy=$(python3 "$TRACY" names < "$TMP/$b.sched.json" | head -1)
	check "$b: Tracy's importer (tracy-model.py) reads every string whole and names every thread object's thread ($tracy)" \
		python3 "$TRACY" names < "$TMP/$b.sched.json"
	# and a zone of every atrace B, each ended, those written inside a
	# syscall too (map-marker.c)
	n_b=$(grep -cE ' print: +ip=[^ ]* buf=B\|' "$TMP/$b.ref")
	zones=$(python3 "$TRACY" zones "$n_b" < "$TMP/$b.sched.json")
	check "$b: Tracy's importer (tracy-model.py) makes a zone of each of the $n_b atrace B markers, each ended ($zones)" \
		bash -c 'python3 "$1" zones "$2" < "$3" > /dev/null' \
		_ "$TRACY" "$n_b" "$TMP/$b.sched.json"
	n_prov=$(( $(trace-cmd report -R "$f" 2>/dev/null | grep -c '^second: ') > 0 ? 2 : 1 ))
	check "$b: one provider per buffer ($n_prov)" \
		test "$(count '.record == "metadata" and .kind == "provider_info"')" = "$n_prov"
	n_lost=$(grep -c 'EVENTS DROPPED' "$TMP/$b.ref")
	check "$b: a buffer-full provider event per drop ($n_lost)" \
		test "$(count '.kind == "provider_event"')" = "$n_lost"
done

# events of more than 14 fields continue in "<name>.cont" records
n=$TMP/net-events.json
if [ -r "$n" ]; then
	check "net events: arguments past 15 continue in .cont events" \
		test "$(jq -s 'map(select(.record == "event" and (.name | endswith(".cont")))) | length' "$n")" -gt 0
fi

# an event of more fields than Perfetto takes a description of
# (wide-event-dat-gen.c: 33): the older GenericFtraceEvent, every field
# named in each event, read as the source printed them; the report and
# the way back to a .dat as for any event
w=$TMP/wide
if "$BUILD/tests/e2e/wide-event-dat-gen" "$w.dat" &&
   $TRACE_FXT convert -q "$w.dat" -o "$w.fxt"; then
	ok "wide: an event of 33 fields converts"
	check "wide: check is clean" $TRACE_FXT check "$w.fxt"
	trace-cmd report -R "$w.dat" > "$w.ref" 2>/dev/null
	$TRACE_FXT report --raw "$w.fxt" > "$w.got"
	check "wide: report --raw equals trace-cmd report -R" \
		python3 "$COMPARE" "$w.ref" "$w.got"
	trace-cmd report -R -t "$w.dat" > "$w.reft" 2>/dev/null
	trace-cmd dump --events "$w.dat" > "$w.formats" 2>/dev/null
	relay "wide: " python3 "$MODEL" compare-packets "$w.fxt" \
		"$w.formats" < "$w.reft"
	check "wide: wide_event is a legacy GenericFtraceEvent in the packets" \
		grep -qx '# legacy generic events: wide_event' "$TMP/relay.out"
	$TRACE_FXT convert -q "$w.fxt" -o "$w.back.dat" &&
		trace-cmd report -R "$w.back.dat" > "$w.back" 2>/dev/null
	check "wide: its round trip's report -R equals the source's" \
		diff -q "$w.ref" "$w.back"
else
	not_ok "wide: an event of 33 fields converts"
fi

# atrace markers: B/E slices, C counters, S/F async pairs, as FXT records
# in the FXT records flavor (by default Perfetto's own print events)
a=$TMP/atrace-markers.sched.json
if [ -r "$a" ]; then
	ev() { jq -s "map(select(.record == \"event\" and .category == \"atrace\" and .event == \"$1\")) | length" "$a"; }
	for k in "duration_begin 5" "duration_end 5" "counter 5" \
		 "async_begin 5" "async_end 5"; do
		set -- $k
		check "atrace markers: $2 $1 events" test "$(ev "$1")" = "$2"
	done
	check "atrace markers: counter 'queue depth' value 15 at the end" \
		test "$(jq -s 'map(select(.category == "atrace" and .event == "counter"))[-1].args[0].value' "$a")" = 15
	check "file options kept: uname and clock in trace-cmd:file_info" \
		jq -se 'map(select(.name == "file_info"))[0].args | map(.name) | (index("uname") != null and index("clock") != null)' "$a"
fi
e2e_exit
