#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `trace-fxt report FILE.fxt` of FXT converted from a .dat prints what
# `trace-cmd report SOURCE.dat` prints, line for line: both sides are the
# real tools' output, compared with diff (lines compared and lines that
# differ are counted).  Per sample: the plain report with the system's
# libtraceevent plugins only (HOME is an empty directory, so nothing
# installed per user takes part), and on two samples with this tree's
# plugins/ also loaded through TRACEEVENT_PLUGIN_DIR on both sides.
# EventHeader user_events (samples/eventheader-dat): equal with and
# without plugin_eventheader.so (the payload past the format's fields is
# carried as the instant's trailing bytes, MAPPING.md).
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
mkdir -p "$TMP/home"
export HOME=$TMP/home
unset TRACEEVENT_PLUGIN_DIR

e2e_plan 30
recordings

total=0 mismatches=0
# same_report NAME SOURCE.dat FILE.fxt [VAR=VALUE...]: the two reports agree
same_report() {
	local name=$1 dat=$2 fxt=$3 lines diffs; shift 3
	env "$@" trace-cmd report "$dat" > "$TMP/$name.ref" 2> "$TMP/$name.referr"
	if ! env "$@" "$TRACE_FXT" report "$fxt" > "$TMP/$name.got" \
		2> "$TMP/$name.err"; then
		sed 's/^/#   /' "$TMP/$name.err" | head -5
		not_ok "trace-fxt report of $name exits 0"
		return
	fi
	lines=$(wc -l < "$TMP/$name.ref")
	diffs=$(diff "$TMP/$name.ref" "$TMP/$name.got" | grep -c '^[<>]')
	total=$((total + lines))
	mismatches=$((mismatches + diffs))
	if [ "$diffs" = 0 ] && [ "$lines" -gt 1 ]; then
		ok "report of $name equals trace-cmd report ($lines lines, 0 differ)"
	else
		diff "$TMP/$name.ref" "$TMP/$name.got" | head -6 |
			cut -c1-200 | sed 's/^/#   /'
		not_ok "report of $name equals trace-cmd report ($lines lines, $diffs differ)"
	fi
	check "report of $name writes to stderr what trace-cmd does" \
		cmp "$TMP/$name.referr" "$TMP/$name.err"
}

for f in "${RECS[@]}"; do
	b=$(basename "$f" .dat)
	if ! "$TRACE_FXT" convert -q "$f" -o "$TMP/$b.fxt"; then
		not_ok "$b converts"
		continue
	fi
	same_report "$b" "$f" "$TMP/$b.fxt"
done
for b in sched two-buffers; do
	[ -s "$TMP/$b.fxt" ] || { not_ok "$b+plugins: $b converted"; continue; }
	recordings "$b.dat"
	same_report "$b+plugins" "${RECS[0]}" "$TMP/$b.fxt" \
		TRACEEVENT_PLUGIN_DIR="$BUILD/plugins"
done

# user_events: each set of EventHeader vectors (eventheader-sets.bash),
# top buffer and an instance
GEN=$BUILD/samples/eventheader-dat
. "$(dirname "$0")/eventheader-sets.bash"
eh_sets
for set in "${EH_SETS[@]}"; do
	l=${set%%:*} VEC=${set#*:}
	for v in eh:"" eh-instance:-b; do
		b=$l.${v%%:*}
		"$GEN" ${v#*:} "$VEC" "$TOP/samples/eventheader-formats" \
			"$TMP/$b.dat" > /dev/null &&
		"$TRACE_FXT" convert -q "$TMP/$b.dat" -o "$TMP/$b.fxt" || {
			not_ok "$b sample is made and converted"; continue; }
		same_report "$b" "$TMP/$b.dat" "$TMP/$b.fxt"
		# the payload past the six header fields is carried as the
		# instant's trailing bytes: the plugin decodes it here too
		same_report "$b+plugins" "$TMP/$b.dat" "$TMP/$b.fxt" \
			TRACEEVENT_PLUGIN_DIR="$BUILD/plugins"
	done
	check "with plugin_eventheader.so, $l.eh's report decodes all $(eh_count "$VEC") vectors" \
		python3 "$TOP/tests/e2e/eventheader-compare.py" vectors "$VEC" \
		"$VEC.linux.json" "$TMP/$l.eh+plugins.got"
done

# FXT from another producer keeps trace-fxt's own one-line layout: a line
# per timestamped record samples/fxt-sample.c writes, counted in its
# source: 4 x 11 events, a log, a large blob with metadata, 4 x 3
# scheduling records, the closing instant; its four "checkpoint" instants
# carry one argument of each type.
args='marker=null i32=-42 u32=4000000000 i64=-5000000000 u64=18000000000000000000 ratio=3.1415926535897931 label=hello, "fxt" obj=0xffff888001234000 koid=101 ok=true'
if "$BUILD/samples/fxt-sample" "$TMP/other.fxt" > /dev/null 2>&1 &&
   "$TRACE_FXT" report "$TMP/other.fxt" > "$TMP/other.txt"; then
	check "report of a non-.dat FXT prints its 59 timestamped records, 4 checkpoints typed" \
		test "$(wc -l < "$TMP/other.txt")" = 59 -a \
		"$(grep -cF "app:checkpoint:            $args" "$TMP/other.txt")" = 4
else
	not_ok "fxt-sample writes a file that trace-fxt report reads"
fi
echo "# $total trace-cmd report lines compared, $mismatches differ"
e2e_exit
