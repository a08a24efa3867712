#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert on user_events that follow EventHeader (the fixture
# samples/eventheader-dat writes from each set of vectors of
# eventheader-sets.bash - the project's own events, LinuxTracepoints' 374
# test vectors when present - between ordinary kernel events and broken
# EventHeader records):
#  - the conversion is clean for trace-fxt check;
#  - every vector comes out, in order, as a decoded event named
#    Provider:Event whose arguments are the set's reference decoding's
#    (.linux.json) values, typed (eventheader-fxt.py vectors);
#  - the user_events instants stay as they were: report --raw still
#    equals trace-cmd report -R (compare-report.py);
#  - the same with a third of the vectors in an instance buffer;
#  - activity start/stop events (made from the set's events with activity
#    ids, eventheader-fxt.py derive) become async begin/end pairs whose id
#    is FNV-1a 64 of the activity id, and related activities flow steps.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
. "$(dirname "$0")/eventheader-sets.bash"
e2e_plan 21
GEN=$BUILD/samples/eventheader-dat
FORMATS=$TOP/samples/eventheader-formats
EHFXT=$TOP/tests/e2e/eventheader-fxt.py
COMPARE=$TOP/tests/e2e/compare-report.py

for f in "$GEN" "$TRACE_FXT" "$TC_PLUGIN"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# convert_checked NAME: NAME.dat -> NAME.fxt, checked, dumped, and its
# raw report compared with trace-cmd's.
convert_checked() {
	local n=$1
	check "$n: trace-fxt convert succeeds" \
		"$TRACE_FXT" convert -q --instants "$TMP/$n.dat" -o "$TMP/$n.fxt"
	check "$n: trace-fxt check is clean" "$TRACE_FXT" check "$TMP/$n.fxt"
	"$TRACE_FXT" dump --json "$TMP/$n.fxt" >"$TMP/$n.json"
	trace-cmd report -R "$TMP/$n.dat" >"$TMP/$n.ref" 2>/dev/null
	"$TRACE_FXT" report --raw "$TMP/$n.fxt" >"$TMP/$n.got"
	check "$n: report --raw equals trace-cmd report -R" \
		python3 "$COMPARE" "$TMP/$n.ref" "$TMP/$n.got"
}

ids=(6ba7b810-9dad-11d1-80b4-00c04fd430c8 00112233-4455-6677-8899-aabbccddeeff
     01020304-0506-0708-0102-030405060708)

# KernelShark loads each .fxt with the entries of its .dat, every column
# alike: the decoded records fold into their instants.  test-kshark-dat
# compares the .dat files it is given with their conversions.
KSDAT=$BUILD/tests/unit/test-kshark-dat
# ks_same A B: KernelShark's view of A.dat and B.dat, every column of
# every entry, is that of their conversions.
ks_same() {
	"$KSDAT" "$TMP/$1.dat" "$TMP/$2.dat" >"$TMP/ks.out" 2>&1 &&
		test "$(grep -cE "^# ($1|$2).dat: differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 \(of [1-9][0-9]* entries compared\); drawn pid 0 \(0 after drawing\), task plots. boxes 0$" \
			"$TMP/ks.out")" = 2 || { tail -20 "$TMP/ks.out"; false; }
}

# run_set LABEL VECTORS: every check on one set of vectors.
run_set() {
	local l=$1 vec=$2 ref=$2.linux.json n na n_dec n_eh
	n=$(eh_count "$vec")
	na=$(eh_count "$vec" apps)

	check "$l: eventheader-dat writes the fixture" \
		"$GEN" "$vec" "$FORMATS" "$TMP/$l.eh.dat"
	convert_checked $l.eh
	check "$l.eh: every vector is a decoded event with the reference's typed values" \
		python3 "$EHFXT" vectors "$ref" "$TMP/$l.eh.json"
	python3 "$EHFXT" vectors "$ref" "$TMP/$l.eh.json" | sed 's/^/# /'
	# decoded events (not the flow records activities add)
	n_dec=$(jq -s 'map(select(.record == "event" and
			  (.event | IN("duration_complete", "async_begin",
				       "async_end", "async_instant")) and
			  .name[0:(.category | length) + 1] == .category + ":" and
			  (.name | endswith(".cont") | not))) | length' \
		"$TMP/$l.eh.json" 2>/dev/null)
	n_eh=$(jq -s 'map(select(.record == "event" and .category == "user_events" and
			 (.args | map(.name) | index("eventheader_flags"))))
		      | length' "$TMP/$l.eh.json" 2>/dev/null)
	# the instants of EventHeader tracepoints also hold the fixture's
	# records with unknown header flags or a truncated extension: not
	# decoded
	check "$l.eh: one decoded event per vector ($n_dec, of $n_eh EventHeader instants)" \
		test "$n_dec" = "$n" -a "$n_eh" -gt "$n"
	# the instants are in the nested records, the decoded events at the
	# top level: paired by time and thread, not by place
	check "$l.eh: each decoded event has its instant (same time and thread)" \
		jq -se '[.[] | select(.record == "event")] as $e
			| ($e | map(select(.event == "instant")
				   | "\(.ts) \(.tid)") | INDEX(.)) as $i
			| [$e[] | select(.event != "instant"
				       and .category != "atrace")
			   | select($i["\(.ts) \(.tid)"] == null)]
			| length == 0' \
		"$TMP/$l.eh.json"

	check "$l: eventheader-dat -b: a third of the vectors in instance \"apps\"" \
		"$GEN" -b "$vec" "$FORMATS" "$TMP/$l.inst.dat"
	convert_checked $l.inst
	check "$l.inst: every vector decoded as the reference, across both buffers" \
		python3 "$EHFXT" vectors "$ref" "$TMP/$l.inst.json"
	check "$l.inst: $na decoded events in the \"apps\" provider" \
		test "$(jq -s '(map(select(.kind == "provider_info" and .name == "apps"))[0].provider_id) as $p
			| map(select(.record == "event" and .provider == $p and
				     (.event | IN("duration_complete",
						  "async_begin", "async_end",
						  "async_instant")) and
				     .name[0:(.category | length) + 1] == .category + ":" and
				     (.name | endswith(".cont") | not)))
			| length' "$TMP/$l.inst.json")" = "$na"

	check "$l: activity vectors derived from its activity events (1 parent, 2 children)" \
		python3 "$EHFXT" derive "$vec" "$TMP/$l.act.vec" "${ids[@]}"
	check "$l: eventheader-dat writes the activity fixture" \
		"$GEN" "$TMP/$l.act.vec" "$FORMATS" "$TMP/$l.act.dat"
	convert_checked $l.act
	check "$l.act: starts/stops are async begin/end, equal FNV-1a ids, flows to children" \
		python3 "$EHFXT" activities "$TMP/$l.act.json" "${ids[@]}"

	for k in eh act; do
		check "$l.$k, $l.inst: KernelShark shows the .fxt as the .dat, every column of every entry" \
			ks_same "$l.$k" "$l.inst"
	done
}

eh_sets
for set in "${EH_SETS[@]}"; do
	run_set "${set%%:*}" "${set#*:}"
done

e2e_exit
