#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The plugin's own page reader (map-pages.c) against libtracecmd's
# reading: trace-fxt convert with TRACE_FXT_READER=pages (the page reader
# or fail) and =libtracecmd (tracecmd_iterate_events_multi()) must write
# the same FXT bytes, plain and with --fxt-sched, for every recording
# (v6 and v7, plain and zstd, two buffers, lost events, and ../shared's
# when present); without the variable, the same bytes again.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR

e2e_plan 24

# written_alike RP RL: both conversions exited 0 and the three FXT files
# are the same bytes
written_alike() {
	test "$1" = 0 -a "$2" = 0 -a -s "$TMP/l.fxt" &&
		cmp "$TMP/p.fxt" "$TMP/l.fxt" && cmp "$TMP/d.fxt" "$TMP/p.fxt"
}

# same_fxt NAME DAT [OPTION]: the three readings of DAT written alike
same_fxt() {
	local n=$1 dat=$2 opt=${3:-} rp rl
	TRACE_FXT_READER=pages "$TRACE_FXT" convert -q $opt "$dat" \
		-o "$TMP/p.fxt" 2> "$TMP/p.err"
	rp=$?
	TRACE_FXT_READER=libtracecmd "$TRACE_FXT" convert -q $opt "$dat" \
		-o "$TMP/l.fxt" 2> /dev/null
	rl=$?
	"$TRACE_FXT" convert -q $opt "$dat" -o "$TMP/d.fxt" 2> /dev/null
	check "$n${opt:+ $opt}: the page reader writes what libtracecmd's reading writes ($(stat -c %s "$TMP/l.fxt" 2>/dev/null) bytes; exits $rp and $rl$([ -s "$TMP/p.err" ] && echo "; $(head -c 160 "$TMP/p.err")"))" \
		written_alike "$rp" "$rl"
}

recordings
for f in "${RECS[@]}"; do
	same_fxt "$(basename "$f")" "$f"
	same_fxt "$(basename "$f")" "$f" --fxt-sched
done
n=0
for f in "$SHARED_SAMPLES"/*.dat; do
	[ -r "$f" ] || continue
	same_fxt "shared $(basename "$f")" "$f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no ../shared/samples/*.dat beside the clone" 0
e2e_exit
