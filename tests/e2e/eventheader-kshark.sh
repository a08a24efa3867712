#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# plugin_eventheader.so in KernelShark, headless: libkshark opens the
# EventHeader fixture (samples/eventheader-dat) as the GUI does, and the
# info text of every entry must be trace-cmd report's for the same record
# - decoded for the user_events (the report's decoding is checked against
# LinuxTracepoints' reference here too), unchanged for everything else,
# and raw again without the plugin.
. "$(dirname "$0")/lib.sh"
e2e_plan 9

GEN=$TOP/samples/eventheader-dat
INFO=$TOP/tests/e2e/eventheader-kshark-info
COMPARE=$TOP/tests/e2e/eventheader-compare.py
VEC=$TOP/samples/eventheader/EventHeaderInterceptorLE64.dat
PLUGDIR=$TOP/plugins
mkdir -p "$TMP/home"

for f in "$GEN" "$INFO" "$PLUGDIR/plugin_eventheader.so"; do
	[ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# run NAME CMD...: CMD with an empty HOME (no installed plugins) into
# NAME.out / NAME.err; fails if CMD does.
run() {
	local name=$1; shift
	env HOME="$TMP/home" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
		{ cat "$TMP/$name.err"; return 1; }
}

check "eventheader-dat writes the fixture" \
	"$GEN" "$VEC" "$TOP/samples/eventheader-formats" "$TMP/eh.dat"
check "trace-cmd report with the plugin" \
	run report env TRACEEVENT_PLUGIN_DIR="$PLUGDIR" trace-cmd report "$TMP/eh.dat"
check "trace-cmd report without the plugin" \
	run report0 trace-cmd report "$TMP/eh.dat"
check "the report's vectors decode as LinuxTracepoints' reference" \
	python3 "$COMPARE" vectors "$VEC" "$VEC.linux.json" "$TMP/report.out"
check "libkshark loads the fixture with the plugin (kshark_open, load_entries)" \
	run ks env TRACEEVENT_PLUGIN_DIR="$PLUGDIR" "$INFO" "$TMP/eh.dat"
check "libkshark loads the fixture without the plugin" \
	run ks0 "$INFO" "$TMP/eh.dat"
check "KernelShark shows the decoded text for every user_events entry" \
	test "$(grep -c -E '^4242 user_events/[^	]*	(Long_Provider|TestProvider)[A-Za-z_X0-9]*:' \
		"$TMP/ks.out")" = 374
check "with the plugin, every KernelShark entry's info is trace-cmd report's" \
	python3 "$COMPARE" kshark "$TMP/report.out" "$TMP/ks.out"
check "without the plugin, every KernelShark entry's info is trace-cmd report's" \
	python3 "$COMPARE" kshark "$TMP/report0.out" "$TMP/ks0.out"

e2e_exit
