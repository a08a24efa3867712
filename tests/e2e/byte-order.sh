#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Big-endian recordings through the round trip.  This machine records
# little endian only, so each sample kind gets a big-endian twin:
#  - the recordings of lib.sh (v7, v7 zstd, v6, two buffers, threads,
#    atrace markers, lost events, net events, ...): converted to FXT, then
#    written back big endian by tests/e2e/dat-be-gen (fxt2dat, the core's
#    .dat writer in its big-endian mode); the v6 one is trace-cmd
#    convert's v6 of the big-endian v7;
#  - EventHeader user_events (the project's events, LinuxTracepoints'
#    vectors when beside the clone; top buffer and with an instance):
#    samples/eventheader-dat -E, the events' own bytes unchanged, printed
#    with plugin_eventheader.so.
# Debian's trace-cmd reads either byte order on any host; it is the
# oracle.  For each kind:
#  - the twin is big endian and trace-cmd report prints of it exactly what
#    it prints of the little-endian original (the twin is a faithful
#    recording);
#  - trace-fxt convert takes it (the .dat check accepts big-endian files)
#    and the FXT's file_info says big_endian;
#  - trace-fxt report of that FXT equals trace-cmd report of the twin,
#    and report --raw equals report -R (compare-report.py); KernelShark
#    shows the FXT as it shows the twin (tests/unit/test-kshark-dat);
#  - FXT -> .dat writes a big-endian file again, whose trace-cmd report
#    and report -R equal the twin's (every event keeps its meaning:
#    EventHeader header fields and payload agree on the order), and for
#    EventHeader every vector decodes as the set's reference.
. "$(dirname "$0")/lib.sh"
# 8 checks per recording, 9 per EventHeader set and buffer layout
e2e_plan $(($(echo $RECORDINGS | wc -w) * 8 + 4 * 9))
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
mkdir -p "$TMP/home"
export HOME=$TMP/home
unset TRACEEVENT_PLUGIN_DIR
. "$(dirname "$0")/eventheader-sets.bash"
BEGEN=$BUILD/tests/e2e/dat-be-gen
EHGEN=$BUILD/samples/eventheader-dat
FORMATS=$TOP/samples/eventheader-formats
EHCOMPARE=$TOP/tests/e2e/eventheader-compare.py
# KernelShark's view of a .dat and of its conversion, entry by entry
KSDAT=$BUILD/tests/unit/test-kshark-dat

for f in "$BEGEN" "$EHGEN" "$TRACE_FXT" "$KSDAT" \
	 "$TC_PLUGIN" \
	 "$BUILD/plugins/plugin_eventheader.so"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# order FILE: the byte order its initial header names (the byte after
# the magic and the one-digit version string), "big" or "little".
order() {
	case $(od -A n -t x1 -j 12 -N 1 "$1" | tr -d ' ') in
	01) echo big ;;
	00) echo little ;;
	*) echo "neither" ;;
	esac
}

# trip KIND LE BE [ENV]: every check on big-endian BE, twin of LE; ENV
# (VAR=value) is set for the reports.
trip() {
	local k=$1 le=$2 be=$3 e=${4:-X_UNUSED=} t=$TMP/$1
	env "$e" trace-cmd report "$le" > "$t.le" 2>/dev/null
	env "$e" trace-cmd report "$be" > "$t.be" 2>/dev/null
	if [ "$(order "$be")" = big ]; then
		same "$k: trace-cmd report of the big-endian twin equals the little-endian original's" \
			"$t.le" "$t.be"
	else
		not_ok "$k: the twin is big endian (it is $(order "$be"))"
	fi
	if "$TRACE_FXT" convert -q "$be" -o "$t.fxt" 2> "$t.err" &&
	   "$TRACE_FXT" dump "$t.fxt" |
	   grep -q 'name="file_info".* big_endian=uint64(1)'; then
		ok "$k: trace-fxt convert takes the big-endian .dat, file_info says big_endian"
	else
		sed 's/^/#   /' "$t.err" | head -5
		not_ok "$k: trace-fxt convert takes the big-endian .dat, file_info says big_endian"
	fi
	env "$e" "$TRACE_FXT" report "$t.fxt" > "$t.fxt.txt" 2>/dev/null
	same "$k: trace-fxt report of its FXT equals trace-cmd report of it" \
		"$t.be" "$t.fxt.txt"
	trace-cmd report -R "$be" > "$t.be.R" 2>/dev/null
	"$TRACE_FXT" report --raw "$t.fxt" > "$t.fxt.raw" 2>/dev/null
	check "$k: trace-fxt report --raw of its FXT equals trace-cmd report -R of it" \
		python3 "$TOP/tests/e2e/compare-report.py" "$t.be.R" "$t.fxt.raw"
	cp "$be" "$t.ks.dat"
	env "$e" "$KSDAT" "$t.ks.dat" > "$t.ks.out" 2>&1
	check "$k: KernelShark shows its FXT as it shows the big-endian .dat, every column" \
		grep -qE "^# $k.ks.dat: differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 \(of [1-9][0-9]* entries compared\); drawn pid 0 \(0 after drawing\), task plots. boxes 0$" \
		"$t.ks.out"
	"$TRACE_FXT" convert -q "$t.fxt" -o "$t.back.dat" 2>/dev/null
	check "$k: FXT -> .dat writes it big endian, as the source" \
		test "$(order "$t.back.dat")" = big
	env "$e" trace-cmd report "$t.back.dat" > "$t.back" 2>/dev/null
	same "$k: trace-cmd report of FXT -> .dat equals that of the big-endian source" \
		"$t.be" "$t.back"
	trace-cmd report -R "$t.back.dat" > "$t.back.R" 2>/dev/null
	same "$k: trace-cmd report -R of FXT -> .dat equals the source's" \
		"$t.be.R" "$t.back.R"
}

# The recordings (lib.sh), 8 checks each.
recordings
for le in "${RECS[@]}"; do
	k=$(basename "$le" .dat)
	be=$TMP/$k-be.dat
	case $k in
	sched-v6)
		# trace-cmd's own v6 of the big-endian v7: it keeps the order
		"$TRACE_FXT" convert -q --instants "$BUILT_SAMPLES/sched.dat" -o "$TMP/$k.v7.fxt" &&
		"$BEGEN" "$TMP/$k.v7.fxt" "$TMP/$k.v7-be.dat" > /dev/null &&
		trace-cmd convert -i "$TMP/$k.v7-be.dat" -o "$be" \
			--file-version 6 > "$TMP/$k.log" 2>&1 ;;
	sched-zstd)
		"$TRACE_FXT" convert -q --instants "$le" -o "$TMP/$k.le.fxt" &&
		"$BEGEN" -z "$TMP/$k.le.fxt" "$be" > /dev/null ;;
	*)
		"$TRACE_FXT" convert -q --instants "$le" -o "$TMP/$k.le.fxt" &&
		"$BEGEN" "$TMP/$k.le.fxt" "$be" > /dev/null ;;
	esac || { not_ok "$k: its big-endian twin is made"; continue; }
	trip "$k" "$le" "$be"
done

# EventHeader: each set in the top buffer and with an instance, 9 checks.
PLUG=TRACEEVENT_PLUGIN_DIR=$BUILD/plugins
eh_sets
[ ${#EH_SETS[@]} = 1 ] && skip "LinuxTracepoints' vectors: 18 checks" 18
for set in "${EH_SETS[@]}"; do
	l=${set%%:*} VEC=${set#*:}
	for v in eh:"" eh-instance:-b; do
		k=$l.${v%%:*}
		if ! "$EHGEN" ${v#*:} "$VEC" "$FORMATS" "$TMP/$k.dat" \
				> /dev/null ||
		   ! "$EHGEN" -E ${v#*:} "$VEC" "$FORMATS" "$TMP/$k-be.dat" \
				> /dev/null; then
			not_ok "$k: eventheader-dat writes both byte orders"
			continue
		fi
		trip "$k" "$TMP/$k.dat" "$TMP/$k-be.dat" "$PLUG"
		check "$k: the round trip decodes all $(eh_count "$VEC") vectors as the reference" \
			python3 "$EHCOMPARE" vectors "$VEC" "$VEC.linux.json" \
			"$TMP/$k.back"
	done
done
e2e_exit
