#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# plugin_eventheader.so in the real `trace-cmd report`:
#  - a .dat whose user_events carry LinuxTracepoints' 374 EventHeader test
#    vectors (samples/eventheader-dat, 10 tracepoints) decodes, vector for
#    vector, as the reference decoding (.linux.json) says;
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

GEN=$TOP/samples/eventheader-dat
COMPARE=$TOP/tests/e2e/eventheader-compare.py
VEC=$TOP/samples/eventheader/EventHeaderInterceptorLE64.dat
REF=$VEC.linux.json
FORMATS=$TOP/samples/eventheader-formats
PLUGDIR=$TOP/plugins
mkdir -p "$TMP/home"
e2e_plan 29

# report NAME FILE [VAR=VALUE...]: trace-cmd report FILE into NAME.out,
# NAME.err and NAME.rc.
report() {
	local name=$1 file=$2; shift 2
	env HOME="$TMP/home" "$@" trace-cmd report "$file" \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}

# Lines of the vectors' tracepoints dropped: what must not change.
others() {
	grep -v -E ' (Long_Provider_Name_X+0123456789_L5K0Gasdf|TestProvider[A-Za-z]*_L[0-9a-f]+K[0-9a-f]+(Gmsft)?): ' "$1"
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

check "eventheader-dat writes the fixture (374 vectors + ordinary events)" \
	"$GEN" "$VEC" "$FORMATS" "$TMP/eh.dat"
report base "$TMP/eh.dat"
report plug "$TMP/eh.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
check "trace-cmd reads the fixture without the plugin" exits_clean base base
check "trace-cmd report with the plugin exits 0, stderr unchanged" \
	exits_clean plug base
trace-cmd dump --events "$TMP/eh.dat" >"$TMP/formats" 2>&1
check "the file holds the vectors' 10 EventHeader tracepoints" \
	test "$(grep -c -E '^name: (Long_Provider|TestProvider)' "$TMP/formats")" = 10
check "every vector decodes as LinuxTracepoints' reference (names, values, meta)" \
	python3 "$COMPARE" vectors "$VEC" "$REF" "$TMP/plug.out"
check "every other line prints as without the plugin (malformed: + complaint)" \
	same_but_complaints "$TMP/base.out" "$TMP/plug.out"
check "without the plugin, the vectors print raw (the plugin did the decoding)" \
	test "$(grep -c ' eventheader_flags=7 ' "$TMP/base.out")" -ge 374

# More user_events formats than pending handlers: the sweep covers them.
check "fixture with 600 filler tracepoints first (613 user_events)" \
	"$GEN" -f 600 "$VEC" "$FORMATS" "$TMP/fill.dat"
trace-cmd dump --events "$TMP/fill.dat" >"$TMP/fformats" 2>&1
check "the vectors' formats come after 600 others (beyond the 512 pending)" \
	test "$(awk '/^name: Filler_/ { n++ }
		     /^name: (Long_Provider|TestProvider)/ { print n; exit }' \
		"$TMP/fformats")" = 600
report fbase "$TMP/fill.dat"
report fplug "$TMP/fill.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
check "613 user_events formats: trace-cmd exits 0, stderr unchanged" \
	exits_clean fplug fbase
check "613 user_events formats: every vector decodes as the reference" \
	python3 "$COMPARE" vectors "$VEC" "$REF" "$TMP/fplug.out"
check "613 user_events formats: every other line as without the plugin" \
	same_but_complaints "$TMP/fbase.out" "$TMP/fplug.out"

# A third of the vectors in a buffer instance (trace-cmd record -B apps).
check "fixture with vectors in an instance buffer \"apps\"" \
	"$GEN" -b "$VEC" "$FORMATS" "$TMP/inst.dat"
report ibase "$TMP/inst.dat"
report iplug "$TMP/inst.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
check "instance buffer: trace-cmd exits 0, stderr unchanged" \
	exits_clean iplug ibase
check "instance buffer: 124 vectors printed from \"apps\"" \
	test "$(grep -c '^apps: .* TestProvider[A-Za-z]*:' "$TMP/iplug.out")" = 124
check "instance buffer: every vector decodes as the reference" \
	python3 "$COMPARE" vectors "$VEC" "$REF" "$TMP/iplug.out"
check "instance buffer: every other line as without the plugin" \
	same_but_complaints "$TMP/ibase.out" "$TMP/iplug.out"

# Installed where libtraceevent looks in HOME; then also from the build
# tree: two copies loaded.
check "make install-plugins puts the plugin in ~/.local/lib/traceevent/plugins" \
	make -s -C "$TOP" install-plugins PREFIX="$TMP/home/.local"
check "installed copy: the plugin is there" \
	test -f "$TMP/home/.local/lib/traceevent/plugins/plugin_eventheader.so"
report home "$TMP/eh.dat"
check "installed copy: every vector decodes as the reference" \
	python3 "$COMPARE" vectors "$VEC" "$REF" "$TMP/home.out"
report twice "$TMP/eh.dat" TRACEEVENT_PLUGIN_DIR="$PLUGDIR"
check "two copies loaded: exits 0, prints as with one" same_run twice plug
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
