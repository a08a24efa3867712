#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A damaged recording converts: every event of every page (uncompressed)
# or zstd chunk the damage left untouched, and at least as many of the
# recording's events as `trace-cmd report` reads right, with what was
# lost said on standard error, in `check` of the .dat, and in the FXT
# (trace-cmd/lost_events on the CPU, its Perfetto bundle's lost_events).
#
# The damaged files are the project's own recordings (and the core's
# writer's big-endian zstd twin of one) damaged at places a seed chooses
# (dat-damage.py: flipped bits, zeroed runs, bogus event lengths and
# commit words, a zstd chunk cut short or flipped, the file cut short in
# its CPU data), and what must survive is computed from the original's
# pages and chunks.  Undamaged, every
# recording and what the core's writer writes checks good.  Each
# one converts in bounded time (all of them in at most twice what the
# undamaged originals take), the page reader and libtracecmd's reading of
# the host's view give the same report, `report` of the .dat is that of
# its FXT, and --strict still refuses it.  trace-cmd report is given 30 s:
# on some damaged pages it spins.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
DAMAGE=$TOP/tests/e2e/dat-damage.py

# SOURCE KIND SEED..., zstd and uncompressed, v7 and v6, two buffers
CASES="
sched-zstd.dat	flip		1 2 3
sched-zstd.dat	zero		1 2
sched-zstd.dat	chunk-short	1 3
sched-zstd.dat	chunk-flip	1 3 5
two-buffers.dat	flip		1 3
two-buffers.dat	chunk-short	2
sched.dat	flip		1 2
sched.dat	zero		2 3
sched.dat	evlen		1 4
sched.dat	commit		1 2
sched-v6.dat	zero		1
sched-v6.dat	evlen		3
sched-v6.dat	commit		4
be-zstd.dat	flip		3
be-zstd.dat	chunk-short	1
sched-zstd.dat	cut		1 5
two-buffers.dat	cut		5 10
sched-v6.dat	cut		1 5
sparse-zstd.dat	chunk-flip	7
sparse-zstd.dat	cut		5
"
n=$(echo "$CASES" | awk 'NF { n += NF - 2 } END { print n }')
recordings
e2e_plan $((4 * n + 4 + ${#RECS[@]} + 2 + 4 + 3))

now() { date +%s%N; }

# the core's own writer: big endian, zstd (its CPU data's size counts
# the chunk count, trace-cmd's does not), and little endian from FXT
$TRACE_FXT convert -q --instants "$SAMPLES/sched-zstd.dat" -o "$TMP/le.fxt"
"$BUILD/tests/e2e/dat-be-gen" -z "$TMP/le.fxt" "$TMP/be-zstd.dat" \
	> /dev/null
$TRACE_FXT convert -q --compression zstd "$TMP/le.fxt" -o "$TMP/le-zstd.dat"
for f in "${RECS[@]}" "$TMP/be-zstd.dat" "$TMP/le-zstd.dat"; do
	$TRACE_FXT check "$f" > "$TMP/ok.out" 2>&1
	rc=$?
	check "$(basename "$f") undamaged: check says ok (exit $rc)" \
		grep -q ": ok (trace.dat)" "$TMP/ok.out"
done

# sched-zstd.dat with its CPUs listed as 0 and 3 (sparse, as a
# recording of some CPUs only lists them): libtracecmd numbers CPU 1's
# records 3, and so must the damage on it be (a file cut short, whose
# list is lost, has it from the CPUSTAT options)
python3 - "$SAMPLES/sched-zstd.dat" "$TMP/sparse-zstd.dat" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
# the BUFFER option's CPU list: id 4, offset 8, size 8
e = struct.pack('<IQQ', 1, 1208320, 81319)
assert b.count(e) == 1
b[b.find(e):b.find(e) + 4] = struct.pack('<I', 3)
# and its CPUSTAT option, which a file cut short rebuilds the list from
assert b.count(b'CPU: 1\n') == 1
b[b.find(b'CPU: 1\n') + 5] = ord('3')
open(sys.argv[2], 'wb').write(b)
PY

# the undamaged original's report
declare -A ORIG
for src in $(echo "$CASES" | awk 'NF { print $1 }' | sort -u); do
	if [ "$src" = be-zstd.dat ] || [ "$src" = sparse-zstd.dat ]; then
		f=$TMP/$src
	else
		recordings "$src"
		f=${RECS[0]}
	fi
	$TRACE_FXT convert -q "$f" -o "$TMP/$src.fxt" || not_ok "$src converts"
	$TRACE_FXT report "$TMP/$src.fxt" > "$TMP/$src.txt"
	ORIG[$src]=$f
done

undamaged=0 damaged=0 i=0
while read -r src kind seeds; do
	[ -n "$src" ] || continue
	for seed in $seeds; do
		i=$((i + 1))
		w=$TMP/d$i
		name="$src $kind $seed"
		python3 "$DAMAGE" make "${ORIG[$src]}" "$w.dat" "$kind" "$seed"
		# the original converted again right before, under the same
		# load as the damaged file (the machine may be shared)
		t0=$(now)
		$TRACE_FXT convert -q "${ORIG[$src]}" -o "$w.orig.fxt"
		undamaged=$((undamaged + $(now) - t0))
		rm -f "$w.orig.fxt"
		t0=$(now)
		timeout 120 $TRACE_FXT convert -q "$w.dat" -o "$w.fxt" \
			2> "$w.err"
		rc=$?
		damaged=$((damaged + $(now) - t0))
		$TRACE_FXT report "$w.fxt" > "$w.txt" 2> /dev/null
		timeout 30 trace-cmd report "$w.dat" > "$w.tc" 2> /dev/null
		python3 "$DAMAGE" check "$TMP/$src.txt" "$w.txt" \
			"$w.dat.survivors" "$w.tc" > "$w.cmp"
		crc=$?
		# a flipped bit in an event's fields damages nothing the check
		# can see: nothing is said then, and everything converts
		said=$(grep -c "damaged CPU data skipped" "$w.err")
		if [ $rc -eq 0 ] && { [ "$said" = 0 ] ||
		   grep -q "damaged stretch.* skipped" "$w.err"; }; then
			ok "$name: converted, $said damaged stretch(es) said"
		else
			head -3 "$w.err" | sed 's/^/#   /'
			not_ok "$name: exit $rc (0 wanted), $said damaged stretches said"
		fi
		# survivors H/N events E real R / trace-cmd T real U
		read -r _ surv _ events _ real _ tcev _ tcreal < \
			<(tr '\n' ' ' < "$w.cmp")
		if [ $crc -eq 0 ] && [ "${real:-0}" -ge "${tcreal:-0}" ]; then
			ok "$name: every event of the untouched pages or chunks ($surv), as many read right as trace-cmd report (ours $real of $events, trace-cmd $tcreal of $tcev)"
		else
			grep '^#' "$w.cmp" | head -3
			not_ok "$name: survivors $surv, read right: ours $real, trace-cmd $tcreal"
		fi
		# the lost span in the FXT, and check's list of the same
		$TRACE_FXT check "$w.dat" > /dev/null 2> "$w.check"
		crc=$?
		$TRACE_FXT dump "$w.fxt" > "$w.dump" 2> /dev/null
		if [ "$said" = 0 ]; then
			check "$name: nothing the check sees: check exit 0 ($crc), no damage in the FXT" \
				test $crc -eq 0 -a "$(grep -c 'damaged=' "$w.dump")" = 0
		elif [ $crc -eq 1 ] &&
		   diff <(grep "damaged CPU data skipped" "$w.err") \
			<(grep "damaged CPU data skipped" "$w.check") > /dev/null &&
		   grep -q "EVENTS DROPPED" "$w.txt" &&
		   grep -q 'name="lost_events".*damaged=' "$w.dump" &&
		   grep -q "ftrace_events cpu=[0-9]* [^;]*lost_events" "$w.dump"
		then
			ok "$name: check lists the same damage (exit 1); the FXT has it as lost events, in the report and the Perfetto bundle"
		else
			not_ok "$name: check exit $crc, its damage lines as convert's; lost events in the FXT"
		fi
		# the damage said on the CPU the file lists, as its records are
		if [ "$src" = sparse-zstd.dat ]; then
			said=$(sed -n 's/.*damaged CPU data skipped: buffer [^,]*, CPU \([0-9]*\):.*/\1/p' \
			       "$w.err" | sort -u | tr '\n' ' ')
			lost=$(sed -n 's/.*name="lost_events".*cpu=uint32(\([0-9]*\)) count=int64(-1) damaged=.*/\1/p' \
			       "$w.dump" | sort -u | tr '\n' ' ')
			check "$name: the damage is said on CPU 3, as libtracecmd numbers its records (stderr: $said; FXT lost events: $lost)" \
				test "$said" = "3 " -a "$lost" = "3 "
		fi
		TRACE_FXT_READER=libtracecmd timeout 120 $TRACE_FXT convert -q \
			"$w.dat" -o "$w.l.fxt" 2> /dev/null
		$TRACE_FXT report "$w.l.fxt" > "$w.l.txt" 2> /dev/null
		same "$name: libtracecmd reading the view reports the same" \
			"$w.txt" "$w.l.txt"
		last=$w
	done
done <<< "$CASES"

# cut short where the CPU list cannot be had, or before the CPU data:
# refused, with the offset where the file ends or the first fault
recordings sched.dat sched-zstd.dat sched-v6.dat
size=$(stat -c %s "${RECS[0]}")
head -c $((size - 30000)) "${RECS[0]}" > "$TMP/cut-v7.dat"
$TRACE_FXT convert -q "$TMP/cut-v7.dat" -o "$TMP/cut-v7.fxt" 2> "$TMP/cut-v7.err"
rc=$?
check "sched.dat (v7, uncompressed) cut in its CPU data, whose CPU list is lost with the end: refused at the file's end (exit $rc, $(head -c 160 "$TMP/cut-v7.err"))" \
	grep -q "offset 0x$(printf %x $((size - 30000))): the file ends in the CPU data of an uncompressed buffer" "$TMP/cut-v7.err"
head -c 1141600 "${RECS[1]}" > "$TMP/cut-opts.dat"
$TRACE_FXT convert -q "$TMP/cut-opts.dat" -o "$TMP/cut-opts.fxt" 2> "$TMP/cut-opts.err"
rc=$?
check "sched-zstd.dat cut in its first options section: refused with the offset (exit $rc, $(head -c 160 "$TMP/cut-opts.err"))" \
	test $rc -eq 1 -a ! -e "$TMP/cut-opts.fxt" -a -n "$(grep "offset 0x116b44: " "$TMP/cut-opts.err")"
head -c 7000000 "${RECS[2]}" > "$TMP/cut-v6.dat"
$TRACE_FXT convert -q "$TMP/cut-v6.dat" -o "$TMP/cut-v6.fxt" 2> "$TMP/cut-v6.err"
rc=$?
check "sched-v6.dat cut in its kallsyms: refused with the offset (exit $rc, $(head -c 160 "$TMP/cut-v6.err"))" \
	test $rc -eq 1 -a ! -e "$TMP/cut-v6.fxt" -a -n "$(grep "offset 0x" "$TMP/cut-v6.err")"
# --strict refuses a file cut in its CPU data, at the offset where it ends
python3 "$DAMAGE" make "${RECS[2]}" "$TMP/cut-strict.dat" cut 1
size=$(stat -c %s "$TMP/cut-strict.dat")
$TRACE_FXT convert --strict -q "$TMP/cut-strict.dat" -o "$TMP/cut-strict.fxt" \
	2> "$TMP/cut-strict.err"
rc=$?
check "--strict refuses sched-v6.dat cut short at 0x$(printf %x "$size") (exit $rc, $(head -c 160 "$TMP/cut-strict.err"))" \
	test $rc -eq 1 -a ! -e "$TMP/cut-strict.fxt" -a -n "$(grep "offset 0x$(printf %x "$size"): the file ends inside CPU" "$TMP/cut-strict.err")"

$TRACE_FXT report "$last.dat" > "$TMP/direct.txt" 2> "$TMP/direct.err"
same "report of a damaged .dat: the report of its conversion" \
	"$last.txt" "$TMP/direct.txt"
check "report of a damaged .dat says its damage" \
	grep -q "damaged CPU data skipped" "$TMP/direct.err"
$TRACE_FXT convert --strict -q "$last.dat" -o "$TMP/strict.fxt" \
	2> "$TMP/strict.err"
rc=$?
check "--strict refuses a damaged .dat (exit $rc, $(head -c 100 "$TMP/strict.err"))" \
	test $rc -eq 1 -a ! -e "$TMP/strict.fxt"
check "the $i damaged conversions took at most twice what the originals do ($((damaged / 1000000)) ms, $((undamaged / 1000000)) ms)" \
	test $damaged -le $((2 * undamaged))

# A fuzzer's find: a v7 file whose options chain leads far past its
# end was salvaged as a file cut short, its view as large as that
# offset, which libtracecmd then walked 16 bytes at a time (hours).
far=$TOP/tests/fuzz/corpus-dat/regress-cut-options-far.dat
timeout 60 $TRACE_FXT convert "$far" -o "$TMP/far.fxt" 2> "$TMP/far.err"
rc=$?
check "an options chain leading past every section: refused at once as damage, not salvaged as a cut (exit $rc: $(head -c 120 "$TMP/far.err"))" \
	bash -c "test $rc = 1 && ! test -e '$TMP/far.fxt' &&
		 grep -q 'not a file cut short' '$TMP/far.err'"
e2e_exit
