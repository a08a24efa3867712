#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# plugin_eventheader.so in the real `trace-cmd report`, on each set of
# EventHeader vectors (eventheader-sets.bash: the project's own events,
# and LinuxTracepoints' 374 test vectors when they stand beside the clone)
# written as user_events into a .dat by samples/eventheader-dat:
#  - every vector decodes, vector for vector, as the set's reference
#    decoding (.linux.json) says;
#  - every other line - kernel events, a user_event that is not
#    EventHeader, one with an EventHeader name only, EventHeader records
#    with unknown header flags - prints byte for byte as without the
#    plugin; malformed EventHeader records add only a bracketed complaint;
#  - the same with 600 more user_events formats than the plugin's pending
#    handlers cover (the sweep), with vectors in an instance buffer, with
#    the plugin installed by `make install-plugins`, and with two copies
#    of it loaded;
#  - real recordings print exactly as without the plugin, and trace-cmd
#    exits 0 (other plugins' unloaders walk the handlers this one left).
# HOME is an empty directory so that no installed plugin takes part.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/eventheader-sets.bash"
e2e_plan 24
GEN=$BUILD/samples/eventheader-dat
COMPARE=$TOP/tests/e2e/eventheader-compare.py
FORMATS=$TOP/samples/eventheader-formats
PLUGDIR=$BUILD/plugins
mkdir -p "$TMP/home"

# report NAME FILE [VAR=VALUE...]: trace-cmd report FILE into NAME.out,
# NAME.err and NAME.rc.
report() {
	local name=$1 file=$2; shift 2
	env HOME="$TMP/home" "$@" trace-cmd report "$file" \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}

# Lines of the set's tracepoints ($TPS: " name: " a line) dropped: what
# must not change.
others() {
	grep -a -v -F -f "$TPS" "$1"
}

# Each line of $2 (with plugin) is the line of $1 (without), or for a
# malformed EventHeader record that line plus " [EventHeader: ...]".
same_but_complaints() {
	paste -d '\n' <(others "$1") <(others "$2") | awk '
		NR % 2 { base = $0; next }
		$0 == base { same++; next }
		index($0, base " [EventHeader: ") == 1 && /\]$/ { complained++; next }
		{ print "differs: " base; print "     now: " $0; bad++ }
		END { printf "%d identical, %d with a complaint\n", same, complained
		      exit bad > 0 || complained == 0 }'
	[ "$(others "$1" | wc -l)" = "$(others "$2" | wc -l)" ]
}

# Run $1 exited 0 and wrote to stderr what run $2 did.
exits_clean() {
	[ "$(cat "$TMP/$1.rc")" = 0 ] && cmp -s "$TMP/$1.err" "$TMP/$2.err" ||
		{ cat "$TMP/$1.rc" "$TMP/$1.err"; return 1; }
}

# Runs $1 and $2 printed the same and exited alike.
same_run() {
	cmp "$TMP/$1.out" "$TMP/$2.out" && cmp "$TMP/$1.err" "$TMP/$2.err" &&
		[ "$(cat "$TMP/$1.rc")" = "$(cat "$TMP/$2.rc")" ]
}

for f in "$GEN" "$PLUGDIR/plugin_eventheader.so"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# run_set LABEL VECTORS: the checks on one set of vectors.
run_set() {
	local l=$1 vec=$2 ref=$2.linux.json n nt na
	n=$(eh_count "$vec")
	nt=$(eh_count "$vec" tracepoints)
	na=$(eh_count "$vec" apps)
	TPS=$TMP/$l.tps
	eh_names "$vec" | sed 's/.*/ &: /' > "$TPS"

	check "$l: eventheader-dat writes the fixture ($n vectors + ordinary events)" \
		"$GEN" "$vec" "$FORMATS" "$TMP/$l.dat"
	report $l.base "$TMP/$l.dat"
	report $l.plug "$TMP/$l.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
	check "$l: trace-cmd reads the fixture without the plugin" \
		exits_clean $l.base $l.base
	check "$l: trace-cmd report with the plugin exits 0, stderr unchanged" \
		exits_clean $l.plug $l.base
	trace-cmd dump --events "$TMP/$l.dat" >"$TMP/$l.formats" 2>&1
	check "$l: the file holds the vectors' $nt EventHeader tracepoints" \
		test "$(grep -c -F -x -f <(eh_names "$vec" | sed 's/^/name: /') \
			"$TMP/$l.formats")" = "$nt"
	check "$l: every vector decodes as the reference (names, values, meta)" \
		python3 "$COMPARE" vectors "$vec" "$ref" "$TMP/$l.plug.out"
	check "$l: every other line prints as without the plugin (malformed: + complaint)" \
		same_but_complaints "$TMP/$l.base.out" "$TMP/$l.plug.out"
	check "$l: without the plugin, the vectors print raw (the plugin did the decoding)" \
		test "$(grep -a -F -f "$TPS" "$TMP/$l.base.out" |
			grep -a -c ' eventheader_flags=')" -ge "$n"

	# More user_events formats than pending handlers: the sweep covers
	# them.
	check "$l: fixture with 600 filler tracepoints first ($((nt + 603)) user_events)" \
		"$GEN" -f 600 "$vec" "$FORMATS" "$TMP/$l.fill.dat"
	trace-cmd dump --events "$TMP/$l.fill.dat" >"$TMP/$l.fformats" 2>&1
	check "$l: the vectors' formats come after 600 others (beyond the 512 pending)" \
		test "$(awk -v tps="$TPS" '
			BEGIN { while ((getline t < tps) > 0) {
					sub(/^ /, "", t); sub(/: $/, "", t)
					vec["name: " t] = 1 } }
			/^name: Filler_/ { n++ }
			$0 in vec { print n; exit }' "$TMP/$l.fformats")" = 600
	report $l.fbase "$TMP/$l.fill.dat"
	report $l.fplug "$TMP/$l.fill.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
	check "$l: $((nt + 603)) user_events formats: trace-cmd exits 0, stderr unchanged" \
		exits_clean $l.fplug $l.fbase
	check "$l: $((nt + 603)) user_events formats: every vector decodes as the reference" \
		python3 "$COMPARE" vectors "$vec" "$ref" "$TMP/$l.fplug.out"
	check "$l: $((nt + 603)) user_events formats: every other line as without the plugin" \
		same_but_complaints "$TMP/$l.fbase.out" "$TMP/$l.fplug.out"

	# A third of the vectors in a buffer instance (trace-cmd record -B
	# apps).
	check "$l: fixture with vectors in an instance buffer \"apps\"" \
		"$GEN" -b "$vec" "$FORMATS" "$TMP/$l.inst.dat"
	report $l.ibase "$TMP/$l.inst.dat"
	report $l.iplug "$TMP/$l.inst.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
	check "$l: instance buffer: trace-cmd exits 0, stderr unchanged" \
		exits_clean $l.iplug $l.ibase
	check "$l: instance buffer: $na vectors printed from \"apps\"" \
		test "$(grep -a '^apps: ' "$TMP/$l.iplug.out" |
			grep -a -c -F -f "$TPS")" = "$na"
	check "$l: instance buffer: every vector decodes as the reference" \
		python3 "$COMPARE" vectors "$vec" "$ref" "$TMP/$l.iplug.out"
	check "$l: instance buffer: every other line as without the plugin" \
		same_but_complaints "$TMP/$l.ibase.out" "$TMP/$l.iplug.out"
}

# run_installed LABEL VECTORS: the plugin from HOME, then two copies.
run_installed() {
	local l=$1 vec=$2
	report $l.home "$TMP/$l.dat"
	check "$l: installed copy: every vector decodes as the reference" \
		python3 "$COMPARE" vectors "$vec" "$vec.linux.json" \
		"$TMP/$l.home.out"
	report $l.twice "$TMP/$l.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
	check "$l: two copies loaded: exits 0, prints as with one" \
		same_run $l.twice $l.plug
}

eh_sets
for set in "${EH_SETS[@]}"; do
	run_set "${set%%:*}" "${set#*:}"
done

# Installed where libtraceevent looks in HOME; then also from the build
# tree: two copies loaded.
check "make install-plugins puts the plugin in ~/.local/lib/traceevent/plugins" \
	make -s -C "$TOP" install-plugins PREFIX="$TMP/home/.local"
check "installed copy: the plugin is there" \
	test -f "$TMP/home/.local/lib/traceevent/plugins/plugin_eventheader.so"
for set in "${EH_SETS[@]}"; do
	run_installed "${set%%:*}" "${set#*:}"
done
rm -rf "$TMP/home/.local"

# The project's recordings: nothing changes.
recordings
for f in "${RECS[@]}"; do
	n=$(basename "$f" .dat)
	report "r0-$n" "$f"
	report "r1-$n" "$f" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
	check "$n.dat: output and exit status identical with the plugin" \
		same_run "r1-$n" "r0-$n"
done

e2e_exit
