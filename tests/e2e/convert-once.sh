#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `convert --once`: each event once, in the Perfetto packets, with what
# they do not carry of its record in the bundle's residue, and no FXT
# instant.  For each of the project's recordings, and one of EventHeader
# user_events (samples/eventheader-dat): the file is smaller
# than the default conversion, Perfetto's importer (as perfetto-model.py
# models it) makes every table of it as of the default conversion (the
# residue is a field it skips; a record another buffer restates is a
# copy in the residue, not a second event), and `convert --packets` of it
# makes a
# .dat whose every event Debian's `trace-cmd report -R -l -t` prints as
# it prints the recording's: the same events in the same order, at the
# same nanosecond, with the same pid, CPU, latency flags and preempt
# count and every field, and each CPU's lost events where and as many
# as the recording says; none of the fields convert-packets.sh lists as
# lost.  Without the residue the flags and those fields differ, and the
# switches the converter inferred come out as events.
#
# Not compared yet, said as what is left: the task name printed before
# the pid (the .dat's saved cmdlines, which the FXT's threads hold and
# --packets does not read).
. "$(dirname "$0")/lib.sh"
MODEL=$(dirname "$0")/perfetto-model.py
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
unset TRACE_FXT_EVENT_FORMATS

# report -R -l -t without the task name before the pid and the width
# the timestamp's digits take
# (a comm may hold ':' and '-': the first "-PID CPU" ends it)
events() {
	trace-cmd report -R -l -t "$1" 2>/dev/null | perl -pe '
		s/^\s*(\S+:\s+)?.*?-(\d+)\s+(\d+)/$1$2 $3/;
		s/ (\d+)\.(\d{9}):/ $1$2:/; s/ +//g'
}

# once_checks DAT: the three checks of one recording
once_checks() {
	local dat=$1 n=${1##*/} once twice nd

	if ! $TRACE_FXT convert -q --once "$dat" -o "$TMP/$n.fxt" \
		2> "$TMP/err" ||
	   ! $TRACE_FXT convert -q "$dat" -o "$TMP/$n.twice.fxt" ||
	   ! $TRACE_FXT convert --packets "$TMP/$n.fxt" -o "$TMP/$n.dat" \
		2> "$TMP/err"; then
		cat "$TMP/err"
		not_ok "$n: --once and back"
		not_ok "$n: --once is smaller"
		not_ok "$n: Perfetto's tables of --once"
		return
	fi
	events "$dat" > "$TMP/src"
	events "$TMP/$n.dat" > "$TMP/back"
	nd=$(diff "$TMP/src" "$TMP/back" | grep -c '^[<>]')
	if [ "$nd" -eq 0 ] && [ "$(wc -l < "$TMP/src")" -gt 1 ]; then
		ok "$n: --once and back by its packets and residue: $(($(wc -l < "$TMP/src") - 1)) events as trace-cmd report -R -l -t prints the recording's"
	else
		diff "$TMP/src" "$TMP/back" | head -10 | sed 's/^/#   /'
		not_ok "$n: --once and back: $nd lines differ"
	fi
	python3 "$MODEL" tables "$TMP/$n.twice.fxt" > "$TMP/twice.m"
	python3 "$MODEL" tables "$TMP/$n.fxt" > "$TMP/once.m"
	check "$n: Perfetto's tables of --once are the default's ($(wc -l < "$TMP/once.m") rows: perfetto-model.py)" \
		cmp -s "$TMP/twice.m" "$TMP/once.m"
	once=$(stat -c %s "$TMP/$n.fxt")
	twice=$(stat -c %s "$TMP/$n.twice.fxt")
	check "$n: --once is smaller: $once bytes, the default $twice" \
		test "$once" -lt "$twice"
}

recordings
e2e_plan $((3 * ${#RECS[@]} + 6))
for dat in "${RECS[@]}"; do
	once_checks "$dat"
done
# EventHeader user_events, which have no packet event: copies
if "$BUILD/samples/eventheader-vectors" "$TMP/eh.vec" > /dev/null &&
   "$BUILD/samples/eventheader-dat" "$TMP/eh.vec" \
	"$TOP/samples/eventheader-formats" "$TMP/eventheader.dat" > /dev/null; then
	once_checks "$TMP/eventheader.dat"
else
	not_ok "samples/eventheader-dat writes a recording of EventHeader events"
	not_ok "(and so the other two checks)"
	not_ok "(of it)"
fi

# inside gzip or zstd: the same file, read back to the same .dat
sc=$TOP/samples/syscalls.dat
$TRACE_FXT convert -q --once "$sc" -o "$TMP/sc.fxt" &&
	$TRACE_FXT convert -q --packets "$TMP/sc.fxt" -o "$TMP/sc.dat"
for z in gz zst; do
	check "--once -o X.fxt.$z: convert --packets of it is the plain file's .dat, byte for byte" \
		bash -c '"$1" convert -q --once "$2" -o "$3.fxt.$4" &&
			 "$1" convert -q --packets "$3.fxt.$4" -o "$3.$4.dat" &&
			 cmp -s "$3.$4.dat" "$3.dat"' _ "$TRACE_FXT" "$sc" "$TMP/sc" $z
done

$TRACE_FXT convert -q --once --fxt-records "${RECS[0]}" -o "$TMP/x.fxt" \
	2> "$TMP/err"
rc=$?
check "--once with --fxt-records is a usage error (exit 2): $(head -1 "$TMP/err")" \
	test $rc -eq 2 -a ! -e "$TMP/x.fxt"
e2e_exit
