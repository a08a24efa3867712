#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert on user_events that follow EventHeader (the fixture
# samples/eventheader-dat writes from LinuxTracepoints' 374 test vectors,
# between ordinary kernel events and broken EventHeader records):
#  - the conversion is clean for trace-fxt check;
#  - every vector comes out, in order, as a decoded event named
#    Provider:Event whose arguments are the reference decoding's
#    (.linux.json) values, typed (eventheader-fxt.py vectors);
#  - the user_events instants stay as they were: report --raw still
#    equals trace-cmd report -R (compare-report.py);
#  - the same with a third of the vectors in an instance buffer;
#  - activity start/stop events (made from the vectors' Transfer events,
#    eventheader-fxt.py derive) become async begin/end pairs whose id is
#    FNV-1a 64 of the activity id, and related activities flow steps.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TOP/trace-cmd-plugin
GEN=$TOP/samples/eventheader-dat
VEC=$TOP/samples/eventheader/EventHeaderInterceptorLE64.dat
REF=$VEC.linux.json
FORMATS=$TOP/samples/eventheader-formats
EHFXT=$TOP/tests/e2e/eventheader-fxt.py
COMPARE=$TOP/tests/e2e/compare-report.py

for f in "$GEN" "$TRACE_FXT" "$TOP/trace-cmd-plugin/trace-fxt-input.so"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# convert_checked NAME: NAME.dat -> NAME.fxt, checked, dumped, and its
# raw report compared with trace-cmd's.
convert_checked() {
	local n=$1
	check "$n: trace-fxt convert succeeds" \
		"$TRACE_FXT" convert -q "$TMP/$n.dat" -o "$TMP/$n.fxt"
	check "$n: trace-fxt check is clean" "$TRACE_FXT" check "$TMP/$n.fxt"
	"$TRACE_FXT" dump --json "$TMP/$n.fxt" >"$TMP/$n.json"
	trace-cmd report -R "$TMP/$n.dat" >"$TMP/$n.ref" 2>/dev/null
	"$TRACE_FXT" report --raw "$TMP/$n.fxt" >"$TMP/$n.got"
	check "$n: report --raw equals trace-cmd report -R" \
		python3 "$COMPARE" "$TMP/$n.ref" "$TMP/$n.got"
}

check "eventheader-dat writes the fixture" \
	"$GEN" "$VEC" "$FORMATS" "$TMP/eh.dat"
convert_checked eh
check "eh: every vector is a decoded event with the reference's typed values" \
	python3 "$EHFXT" vectors "$REF" "$TMP/eh.json"
python3 "$EHFXT" vectors "$REF" "$TMP/eh.json" | sed 's/^/# /'
n_dec=$(jq -s 'map(select(.record == "event" and .event != "instant" and
		  .name[0:(.category | length) + 1] == .category + ":" and
		  (.name | endswith(".cont") | not))) | length' \
	"$TMP/eh.json" 2>/dev/null)
n_eh=$(jq -s 'map(select(.record == "event" and .category == "user_events" and
		 (.args | map(.name) | index("eventheader_flags"))))
	      | length' "$TMP/eh.json" 2>/dev/null)
# the instants of EventHeader tracepoints also hold the fixture's records
# with unknown header flags or a truncated extension: not decoded
check "eh: one decoded event per vector ($n_dec, of $n_eh EventHeader instants)" \
	test "$n_dec" = 374 -a "$n_eh" -gt 374
check "eh: decoded events sit next to their instants (same time and thread)" \
	jq -se '[.[] | select(.record == "event")] as $e
		| [range(1; $e | length) | select($e[.].event != "instant"
		   and $e[.].category != "atrace")
		   | select($e[. - 1].ts != $e[.].ts or
			    $e[. - 1].tid != $e[.].tid)] | length == 0' \
	"$TMP/eh.json"

check "eventheader-dat -b: a third of the vectors in instance \"apps\"" \
	"$GEN" -b "$VEC" "$FORMATS" "$TMP/inst.dat"
convert_checked inst
check "inst: every vector decoded as the reference, across both buffers" \
	python3 "$EHFXT" vectors "$REF" "$TMP/inst.json"
check "inst: 124 decoded events in the \"apps\" provider" \
	test "$(jq -s '(map(select(.kind == "provider_info" and .name == "apps"))[0].provider_id) as $p
		| map(select(.record == "event" and .provider == $p and
			     .event != "instant" and
			     .name[0:(.category | length) + 1] == .category + ":" and
			     (.name | endswith(".cont") | not)))
		| length' "$TMP/inst.json")" = 124

ids=(6ba7b810-9dad-11d1-80b4-00c04fd430c8 00112233-4455-6677-8899-aabbccddeeff
     01020304-0506-0708-0102-030405060708)
check "activity vectors derived from the Transfer events (1 parent, 2 children)" \
	python3 "$EHFXT" derive "$VEC" "$TMP/act.vec" "${ids[@]}"
check "eventheader-dat writes the activity fixture" \
	"$GEN" "$TMP/act.vec" "$FORMATS" "$TMP/act.dat"
convert_checked act
check "act: starts/stops are async begin/end, equal FNV-1a ids, flows to children" \
	python3 "$EHFXT" activities "$TMP/act.json" "${ids[@]}"

# KernelShark loads each .fxt with the entries of its .dat, every column
# alike: the decoded records fold into their instants.  test-kshark-dat
# compares every .dat in $SAMPLES with its .fxt through libkshark.
KSDAT=$TOP/tests/unit/test-kshark-dat
ks_same() { # NAME
	grep -qE "^# $1.dat: differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 " \
		"$TMP/ks.out"
}
if [ -x "$KSDAT" ]; then
	mkdir -p "$TMP/ks"
	for n in eh act inst; do
		cp "$TMP/$n.dat" "$TMP/ks/$n.dat"
	done
	(cd "$TOP" && SAMPLES=$TMP/ks "$KSDAT") >"$TMP/ks.out" 2>&1
	for n in eh act inst; do
		check "$n: KernelShark shows the .fxt as the .dat, every column of every entry" \
			ks_same "$n"
	done
else
	echo "# no $KSDAT, KernelShark check skipped"
fi

e2e_exit
