#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `convert --once`: each event once, in the Perfetto packets, with what
# they do not carry of its record in the bundle's residue, and no FXT
# instant.  For each of the project's recordings, and one of EventHeader
# user_events (samples/eventheader-dat):
# - the file is smaller than the default conversion;
# - Perfetto's importer (as perfetto-model.py models it) makes every
#   table of it as of the default conversion (the residue is a field it
#   skips; a record another buffer restates is a copy in the residue, not
#   a second event);
# - `convert` of it, which knows such a file by its file_info and reads
#   its packets, makes a .dat that Debian's `trace-cmd report -R -l -t`
#   and `trace-cmd report -l -t` print byte for byte as they print the
#   recording: the same events in the same order, at the same time, with
#   the same task names (the saved cmdlines, from the FXT's threads), pid,
#   CPU, latency flags, preempt count and every field, each CPU's lost
#   events where and as many as the recording says;
# - that .dat's options and saved cmdlines (uname, version, clock,
#   CPUSTAT, thread groups) are the default round trip's;
# - `trace-fxt report` prints it as it prints the default conversion.
# Without the residue the flags and fields differ and the switches the
# converter inferred come out as events; without the file_info's word,
# convert reads its FXT records and finds no event.
#
# Then: `check` reads its events as convert does; KernelShark (libkshark,
# plugin-fxt.so, tests/unit/test-kshark-dat) shows a --once .fxt as it
# shows the recording, every column and task plot, lost events with their
# count, a second buffer, EventHeader events (copies); compressed files
# read back the same.
. "$(dirname "$0")/lib.sh"
MODEL=$(dirname "$0")/perfetto-model.py
KSDAT=$BUILD/tests/unit/test-kshark-dat
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
unset TRACE_FXT_EVENT_FORMATS

# what `trace-cmd dump` says of a .dat's options and cmdlines, but where
# its sections are
meta() {
	trace-cmd dump --options --cmd-lines "$1" 2>&1 |
		grep -v -e 'Tracing meta data in file' -e '@'
}

# lines DIFF TEXT A B: how many lines of A and B differ
lines() {
	diff "$1" "$2" | grep -c '^[<>]'
}

# once_checks DAT: the six checks of one recording
once_checks() {
	local dat=$1 n=${1##*/} once twice nd nf

	if ! $TRACE_FXT convert -q --once "$dat" -o "$TMP/$n.fxt" \
		2> "$TMP/err" ||
	   ! $TRACE_FXT convert -q --instants "$dat" -o "$TMP/$n.twice.fxt" ||
	   ! $TRACE_FXT convert -q "$TMP/$n.twice.fxt" -o "$TMP/$n.twice.dat" ||
	   ! $TRACE_FXT convert -q "$TMP/$n.fxt" -o "$TMP/$n.dat" \
		2> "$TMP/err"; then
		cat "$TMP/err"
		for c in "and back" "and back, formatted" "tables" "smaller" \
			 "options" "report"; do
			not_ok "$n: --once: $c"
		done
		return
	fi
	trace-cmd report -R -l -t "$dat" > "$TMP/src" 2>&1
	trace-cmd report -R -l -t "$TMP/$n.dat" > "$TMP/back" 2>&1
	nd=$(lines "$TMP/src" "$TMP/back")
	if [ "$nd" -eq 0 ] && [ "$(wc -l < "$TMP/src")" -gt 1 ]; then
		ok "$n: --once and back by its packets and residue: $(($(wc -l < "$TMP/src") - 1)) events as trace-cmd report -R -l -t prints the recording's, byte for byte"
	else
		diff "$TMP/src" "$TMP/back" | head -10 | sed 's/^/#   /'
		not_ok "$n: --once and back: $nd lines differ"
	fi
	trace-cmd report -l -t "$dat" > "$TMP/src" 2>&1
	trace-cmd report -l -t "$TMP/$n.dat" > "$TMP/back" 2>&1
	nf=$(lines "$TMP/src" "$TMP/back")
	check "$n: and as trace-cmd report -l -t prints them (print formats, symbols): $nf lines differ" \
		test "$nf" -eq 0
	python3 "$MODEL" tables "$TMP/$n.twice.fxt" > "$TMP/twice.m"
	python3 "$MODEL" tables "$TMP/$n.fxt" > "$TMP/once.m"
	check "$n: Perfetto's tables of --once are the default's ($(wc -l < "$TMP/once.m") rows: perfetto-model.py)" \
		cmp -s "$TMP/twice.m" "$TMP/once.m"
	once=$(stat -c %s "$TMP/$n.fxt")
	twice=$(stat -c %s "$TMP/$n.twice.fxt")
	check "$n: --once is smaller: $once bytes, the default $twice" \
		test "$once" -lt "$twice"
	meta "$TMP/$n.twice.dat" > "$TMP/twice.o"
	meta "$TMP/$n.dat" > "$TMP/once.o"
	check "$n: its .dat's options and saved cmdlines are the default round trip's ($(grep -c '^\[Saved\|Option' "$TMP/once.o") options, $(wc -l < "$TMP/once.o") lines)" \
		cmp -s "$TMP/twice.o" "$TMP/once.o"
	$TRACE_FXT report "$TMP/$n.twice.fxt" > "$TMP/twice.r" 2>&1
	$TRACE_FXT report "$TMP/$n.fxt" > "$TMP/once.r" 2>&1
	check "$n: trace-fxt report prints it as the default conversion ($(wc -l < "$TMP/once.r") lines)" \
		cmp -s "$TMP/twice.r" "$TMP/once.r"
}

recordings
e2e_plan $((6 * ${#RECS[@]} + 56))
for dat in "${RECS[@]}"; do
	once_checks "$dat"
done
# EventHeader user_events, which have no packet event: copies
if "$BUILD/samples/eventheader-vectors" "$TMP/eh.vec" > /dev/null &&
   "$BUILD/samples/eventheader-dat" "$TMP/eh.vec" \
	"$TOP/samples/eventheader-formats" "$TMP/eventheader.dat" > /dev/null; then
	once_checks "$TMP/eventheader.dat"
else
	for c in 1 2 3 4 5 6; do
		not_ok "samples/eventheader-dat writes a recording of EventHeader events ($c)"
	done
fi
# a big-endian recording (byte-order.sh's twin of syscalls.dat): the
# residue keeps its records' bytes in its order, and so the .dat made
# again is big endian too
if $TRACE_FXT convert -q --instants "$TOP/samples/syscalls.dat" \
	-o "$TMP/sc-le.fxt" &&
   "$BUILD/tests/e2e/dat-be-gen" "$TMP/sc-le.fxt" "$TMP/syscalls-be.dat" \
	> /dev/null; then
	once_checks "$TMP/syscalls-be.dat"
	check "syscalls-be.dat: the .dat made again of --once is big endian, as the recording" \
		test "$(od -A n -t x1 -j 12 -N 1 "$TMP/syscalls-be.dat.dat")" = " 01"
else
	for c in 1 2 3 4 5 6 7; do
		not_ok "tests/e2e/dat-be-gen writes a big-endian twin of syscalls.dat ($c)"
	done
fi
# and of LinuxTracepoints' vectors, an event's name of 200 characters
# among them (a user_events provider's, which is no 63-character name)
if shared_sample eventheader/EventHeaderInterceptorLE64.dat 7; then
	if "$BUILD/samples/eventheader-dat" "$SHARED" \
		"$TOP/samples/eventheader-formats" "$TMP/eh-vectors.dat" \
		> /dev/null; then
		once_checks "$TMP/eh-vectors.dat"
		$TRACE_FXT check "$TMP/eh-vectors.dat.fxt" > "$TMP/check" 2>&1
		check "eh-vectors.dat: check finds its --once file clean: $(tail -1 "$TMP/check")" \
			grep -q 'ok (its events, in its packets)' "$TMP/check"
	else
		for c in 1 2 3 4 5 6 7; do
			not_ok "samples/eventheader-dat writes LinuxTracepoints' vectors as a recording ($c)"
		done
	fi
fi

# an event of 33 fields (wide-event-dat-gen.c): a legacy generic event,
# every field read back, the 33rd too
if "$BUILD/tests/e2e/wide-event-dat-gen" "$TMP/wide.dat"; then
	once_checks "$TMP/wide.dat"
else
	for c in 1 2 3 4 5 6; do
		not_ok "wide-event-dat-gen writes an event of 33 fields ($c)"
	done
fi

# what --once cannot hold: a recording of more CPUs than Perfetto's
# packets have (1101, the events on CPU 1100), and an event of more
# fields than the residue may have to hold (97): the default conversion
# writes instants then, says so, and reads back as the recording;
# --once asked for refuses the first, converts the second
fallback() {	# WHAT U32S CPU ONCE-RC
	local f=$TMP/fb
	"$BUILD/tests/e2e/wide-event-dat-gen" "$f.dat" "$2" "$3"
	$TRACE_FXT convert "$f.dat" -o "$f.fxt" 2> "$f.err"
	rc=$?
	$TRACE_FXT convert -q "$f.fxt" -o "$f.back.dat"
	trace-cmd report -R "$f.dat" > "$f.r" 2>&1
	trace-cmd report -R "$f.back.dat" > "$f.back.r" 2>&1
	check "$1: the default conversion says it writes instants (exit $rc: $(grep -o 'as with --instants: .*' "$f.err" | cut -c1-60)) and reads back as the recording ($(grep -c wide_event "$f.r") events)" \
		bash -c "[ $rc = 0 ] && grep -q 'as with --instants' '$f.err' &&
			 grep -q wide_event '$f.r' && cmp -s '$f.r' '$f.back.r' &&
			 ! '$TRACE_FXT' dump '$f.fxt' | grep -q 'events=.packets'"
	$TRACE_FXT convert -q --once "$f.dat" -o "$f.once.fxt" 2> "$f.once.err"
	rc=$?
	if [ "$4" = 0 ]; then
		$TRACE_FXT convert -q "$f.once.fxt" -o "$f.once.dat"
		trace-cmd report -R "$f.once.dat" > "$f.once.r" 2>&1
		check "$1: --once converts it, each event once (exit $rc), and reads back as the recording" \
			bash -c "[ $rc = 0 ] && cmp -s '$f.r' '$f.once.r'"
	else
		check "$1: --once refuses it, naming --instants (exit $rc: $(cut -c1-80 "$f.once.err"))" \
			bash -c "[ $rc = $4 ] && grep -q 'convert with --instants' '$f.once.err'"
	fi
}
fallback "1101 CPUs" 16 1100 1
fallback "an event of 97 fields" 80 0 0

# --packets of a --once file: what Perfetto reads of it, the residue
# left out, which is what it reads of the default file
for s in syscalls two-buffers; do
	$TRACE_FXT convert -q --once "$TOP/samples/$s.dat" -o "$TMP/p.once.fxt"
	$TRACE_FXT convert -q --instants "$TOP/samples/$s.dat" -o "$TMP/p.def.fxt"
	$TRACE_FXT convert -q --packets "$TMP/p.once.fxt" -o "$TMP/p.once.dat" \
		2> /dev/null
	$TRACE_FXT convert -q --packets "$TMP/p.def.fxt" -o "$TMP/p.def.dat" \
		2> /dev/null
	trace-cmd report -R "$TMP/p.def.dat" > "$TMP/p.def.r" 2>&1
	trace-cmd report -R "$TMP/p.once.dat" > "$TMP/p.once.r" 2>&1
	trace-cmd report -R "$TOP/samples/$s.dat" > "$TMP/p.src.r" 2>&1
	check "$s.dat: --packets of --once is what Perfetto reads, the default file's --packets ($(wc -l < "$TMP/p.once.r") lines; the recording differs in $(diff "$TMP/p.src.r" "$TMP/p.once.r" | grep -c '^>'))" \
		bash -c "cmp -s '$TMP/p.def.r' '$TMP/p.once.r' &&
			 ! cmp -s '$TMP/p.src.r' '$TMP/p.once.r'"
done

# damaged recordings (dat-damage.py, as convert-salvage.sh damages
# them): what is read around the damage, and the damage as lost events
# where the default conversion's way back puts them (one after a CPU's
# last record: on that record)
for d in "two-buffers.dat flip 1" "sched-zstd.dat chunk-flip 5" \
	 "two-buffers.dat zero 7"; do
	set -- $d
	python3 "$TOP/tests/e2e/dat-damage.py" make "$TOP/samples/$1" \
		"$TMP/dmg.dat" "$2" "$3"
	$TRACE_FXT convert -q --instants "$TMP/dmg.dat" -o "$TMP/dmg.fxt" \
		2> /dev/null
	$TRACE_FXT convert -q --once "$TMP/dmg.dat" -o "$TMP/dmg.once.fxt" \
		2> /dev/null
	$TRACE_FXT report "$TMP/dmg.fxt" > "$TMP/dmg.r" 2>&1
	$TRACE_FXT report "$TMP/dmg.once.fxt" > "$TMP/dmg.once.r" 2>&1
	check "$d: trace-fxt report of --once prints the default conversion's $(wc -l < "$TMP/dmg.r") lines, $(grep -c 'EVENTS DROPPED' "$TMP/dmg.r") of them dropped events" \
		bash -c "grep -q 'EVENTS DROPPED' '$TMP/dmg.r' &&
			 cmp -s '$TMP/dmg.r' '$TMP/dmg.once.r'"
done

# damage that leaves a CPU's time leaping back (an event's length made
# bogus: the records after it are read 1,673 s late, then the next page
# is on time again): the compact sched after the leap still names the
# task the recording does, in the .dat made again as in the default's
all=("${RECS[@]}")
recordings sched.dat
python3 "$TOP/tests/e2e/dat-damage.py" make "${RECS[0]}" "$TMP/leap.dat" \
	evlen 4
RECS=("${all[@]}")
$TRACE_FXT convert -q --instants "$TMP/leap.dat" -o "$TMP/leap.fxt" \
	2> /dev/null
$TRACE_FXT convert -q --once "$TMP/leap.dat" -o "$TMP/leap.once.fxt" \
	2> /dev/null
$TRACE_FXT convert -q "$TMP/leap.fxt" -o "$TMP/leap.def.dat"
$TRACE_FXT convert -q "$TMP/leap.once.fxt" -o "$TMP/leap.once.dat"
trace-cmd report "$TMP/leap.def.dat" > "$TMP/leap.def.r" 2>&1
trace-cmd report "$TMP/leap.once.dat" > "$TMP/leap.once.r" 2>&1
check "sched.dat evlen 4, its time leaping back on CPU 0: the .dat of --once reports as the default's ($(wc -l < "$TMP/leap.def.r") lines, $(grep -c ' 2073\.' "$TMP/leap.def.r") of them leapt)" \
	bash -c "grep -q ' 2073\.' '$TMP/leap.def.r' &&
		 cmp -s '$TMP/leap.def.r' '$TMP/leap.once.r'"

# events of one time around compact ones (ties-dat-gen.c): the order the
# recording has them in, in the .dat made again
if "$BUILD/tests/e2e/ties-dat-gen" "$TOP/tests/e2e/kernel-formats" \
	"$TMP/ties.dat"; then
	$TRACE_FXT convert -q "$TMP/ties.dat" -o "$TMP/ties.fxt"
	$TRACE_FXT convert -q "$TMP/ties.fxt" -o "$TMP/ties.back.dat"
	trace-cmd report -R "$TMP/ties.dat" > "$TMP/ties.r" 2>&1
	trace-cmd report -R "$TMP/ties.back.dat" > "$TMP/ties.back.r" 2>&1
	same "events of one time around compact wakings and switches, in the recording's order" \
		"$TMP/ties.r" "$TMP/ties.back.r"
else
	not_ok "ties-dat-gen writes events of one time around compact ones"
fi

# a damaged default file: cut 5000 bytes short (in its last compressed
# chunk of packets), or 400 bytes flipped at a third (in its first); what
# is read is said, and each event read back is one of the recording's,
# as it printed it: each chunk restates the generic events' descriptors
# and the symbols its events use, and each CPU's first switch in it is
# whole (map_pkt_chunk_end())
$TRACE_FXT convert -q "$TOP/samples/sched-zstd.dat" -o "$TMP/dmg.fxt"
trace-cmd report "$TOP/samples/sched-zstd.dat" 2> /dev/null |
	sort > "$TMP/dmg.all"
n=$(stat -c %s "$TMP/dmg.fxt")
head -c $((n - 5000)) "$TMP/dmg.fxt" > "$TMP/dmg.cut.fxt"
python3 - "$TMP/dmg.fxt" "$TMP/dmg.flip.fxt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(len(b) // 3, len(b) // 3 + 400):
    b[i] ^= 0x5a
open(sys.argv[2], 'wb').write(b)
PY
for d in cut flip; do
	$TRACE_FXT convert "$TMP/dmg.$d.fxt" -o "$TMP/dmg.$d.dat" \
		2> "$TMP/dmg.$d.err"
	rc=$?
	trace-cmd report "$TMP/dmg.$d.dat" 2> /dev/null | grep -v '^cpus=' |
		sort > "$TMP/dmg.$d.r"
	check "a default file $d: converts (exit $rc), says so, and reads back $(wc -l < "$TMP/dmg.$d.r") of the recording's $(wc -l < "$TMP/dmg.all") events, none of them other" \
		bash -c "[ $rc = 0 ] && grep -q 'damaged' '$TMP/dmg.$d.err' &&
			 [ \$(wc -l < '$TMP/dmg.$d.r') -gt 1000 ] &&
			 [ -z \"\$(comm -23 '$TMP/dmg.$d.r' '$TMP/dmg.all')\" ]"
done

# a default file cut at half: a small file's packets are one compressed
# chunk, its FXT records (the recording's formats) one frame at the end,
# unless the chunk's records go out before it and a cut stream is read
# as far as it goes (the blob the file ends within, a gzip or zstd
# stream too): more than a quarter of the events come back (a tenth of
# a .fxt.zst's, whose zstd blocks of 128 KiB hold raw packets), each as
# the recording printed it, by the recording's formats; KernelShark shows
# what convert reads
for d in "sched-zstd fxt 4" "two-buffers fxt 4" "sched-zstd fxt.gz 4" \
	 "sched-zstd fxt.zst 10"; do
	set -- $d
	$TRACE_FXT convert -q "$TOP/samples/$1.dat" -o "$TMP/half.$2"
	n=$(stat -c %s "$TMP/half.$2")
	head -c $((n / 2)) "$TMP/half.$2" > "$TMP/$1.half.$2"
	$TRACE_FXT convert "$TMP/$1.half.$2" -o "$TMP/half.dat" \
		2> "$TMP/half.err"
	rc=$?
	trace-cmd report "$TOP/samples/$1.dat" 2> /dev/null |
		grep -v '^cpus=' | sort > "$TMP/half.all"
	trace-cmd report "$TMP/half.dat" 2> /dev/null | grep -v '^cpus=' |
		sort > "$TMP/half.r"
	check "$1's default .$2 cut at half: converts (exit $rc), $(grep -o 'damaged in [0-9]* place[s]*' "$TMP/half.err"), $(wc -l < "$TMP/half.r") of the recording's $(wc -l < "$TMP/half.all") events read back, none other, $(grep -o 'formats: [0-9]* the recording.s' "$TMP/half.err")" \
		bash -c "[ $rc = 0 ] && grep -q 'damaged in 1 place' '$TMP/half.err' &&
			 grep -q 'formats: [0-9]* the recording.s' '$TMP/half.err' &&
			 [ \$(($3 * \$(wc -l < '$TMP/half.r'))) -gt \
			   \$(wc -l < '$TMP/half.all') ] &&
			 [ -z \"\$(comm -23 '$TMP/half.r' '$TMP/half.all')\" ]"
done
for f in fxt fxt.gz; do
	kshark_same "$TMP/sched-zstd.half.$f" "KernelShark shows sched-zstd's default .$f cut at half as convert reads it"
done

# inside gzip or zstd: the same file, known as --once's inside, read
# back to the same .dat and report
sc=$TOP/samples/syscalls.dat
$TRACE_FXT convert -q --once "$sc" -o "$TMP/sc.fxt" &&
	$TRACE_FXT convert -q "$TMP/sc.fxt" -o "$TMP/sc.dat"
for z in gz zst; do
	check "--once -o X.fxt.$z: convert of it is the plain file's .dat, byte for byte" \
		bash -c '"$1" convert -q --once "$2" -o "$3.fxt.$4" &&
			 "$1" convert -q "$3.fxt.$4" -o "$3.$4.dat" &&
			 cmp -s "$3.$4.dat" "$3.dat"' _ "$TRACE_FXT" "$sc" "$TMP/sc" $z
done
$TRACE_FXT report "$TMP/sc.fxt" > "$TMP/sc.r" 2>&1
$TRACE_FXT report "$TMP/sc.fxt.zst" > "$TMP/sc.zst.r" 2>&1
check "trace-fxt report of the .fxt.zst is the plain file's ($(wc -l < "$TMP/sc.r") lines)" \
	cmp -s "$TMP/sc.r" "$TMP/sc.zst.r"

# check: the FXT, then its events as convert reads them
$TRACE_FXT check "$TMP/sc.fxt" > "$TMP/check" 2>&1
rc=$?
check "check reads a --once file's events from its packets: $(tail -1 "$TMP/check")" \
	grep -q 'ok (its events, in its packets): .* 9528 of them with a .dat form' "$TMP/check"

# KernelShark: every column of every entry, every task plot, as of the
# recording itself (test-kshark-dat; a given .dat is compared with the
# .fxt convert makes of it, here with --once)
ks_view() {
	KSHARK_CONVERT_OPTS=--once kshark_same "$1" "KernelShark shows ${1##*/}'s --once .fxt as the recording ($2)"
}
if [ -x "$KSDAT" ]; then
	ks_view "$sc" "syscalls"
	ks_view "$TOP/samples/lost-events.dat" "lost events, with their counts"
	ks_view "$TOP/samples/two-buffers.dat" "a second buffer, its records restated: copies"
	ks_view "$TMP/eventheader.dat" "EventHeader events: copies"
	ks_view "$TMP/syscalls-be.dat" "big endian"
	KSHARK_FXT_SUFFIX=.fxt.zst ks_view "$TOP/samples/threads.dat" ".fxt.zst"
else
	for c in 1 2 3 4 5 6; do
		not_ok "tests/unit/test-kshark-dat is built (make test-progs) ($c)"
	done
fi

$TRACE_FXT convert -q --once --fxt-records "${RECS[0]}" -o "$TMP/x.fxt" \
	2> "$TMP/err"
rc=$?
check "--once with --fxt-records is a usage error (exit 2): $(head -1 "$TMP/err")" \
	test $rc -eq 2 -a ! -e "$TMP/x.fxt"
e2e_exit
