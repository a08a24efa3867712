#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# plugin_eventheader.so in KernelShark, headless: libkshark opens the
# EventHeader fixture (samples/eventheader-dat, for each set of vectors of
# eventheader-sets.bash) as the GUI does, and the info text of every entry
# must be trace-cmd report's for the same record - decoded for the
# user_events (the report's decoding is checked against the set's
# reference here too), unchanged for everything else, and raw again
# without the plugin.
. "$(dirname "$0")/lib.sh"
e2e_plan 9

. "$(dirname "$0")/eventheader-sets.bash"
GEN=$BUILD/samples/eventheader-dat
INFO=$BUILD/tests/e2e/eventheader-kshark-info
COMPARE=$TOP/tests/e2e/eventheader-compare.py
PLUGDIR=$BUILD/plugins
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

# decoded VEC KSHARK: entries of VEC's tracepoints whose info is the
# decoded "Provider:Event ..." text.
decoded() {
	awk -F '\t' -v tps=<(eh_names "$1") '
		BEGIN { while ((getline t < tps) > 0) {
				p = t; sub(/_L[0-9a-f]+K[0-9a-f]+[A-Za-z0-9]*$/, "", p)
				prov[t] = p } }
		{ split($1, h, " "); name = h[2]; sub(/^[^\/]*\//, "", name)
		  info = $2; sub(/^ +/, "", info) }
		h[1] == 4242 && (name in prov) && index(info, prov[name] ":") == 1 { n++ }
		END { print n + 0 }' "$2"
}

eh_sets
for set in "${EH_SETS[@]}"; do
	l=${set%%:*} vec=${set#*:}
	n=$(eh_count "$vec")
	check "$l: eventheader-dat writes the fixture" \
		"$GEN" "$vec" "$TOP/samples/eventheader-formats" "$TMP/$l.dat"
	check "$l: trace-cmd report with the plugin" \
		run $l.report env TRACEEVENT_PLUGIN_DIR="$PLUGDIR" \
		trace-cmd report "$TMP/$l.dat"
	check "$l: trace-cmd report without the plugin" \
		run $l.report0 trace-cmd report "$TMP/$l.dat"
	check "$l: the report's vectors decode as the set's reference" \
		python3 "$COMPARE" vectors "$vec" "$vec.linux.json" \
		"$TMP/$l.report.out"
	check "$l: libkshark loads the fixture with the plugin (kshark_open, load_entries)" \
		run $l.ks env TRACEEVENT_PLUGIN_DIR="$PLUGDIR" "$INFO" \
		"$TMP/$l.dat"
	check "$l: libkshark loads the fixture without the plugin" \
		run $l.ks0 "$INFO" "$TMP/$l.dat"
	check "$l: KernelShark shows the decoded text for all $n user_events entries" \
		test "$(decoded "$vec" "$TMP/$l.ks.out")" = "$n"
	check "$l: with the plugin, every KernelShark entry's info is trace-cmd report's" \
		python3 "$COMPARE" kshark "$TMP/$l.report.out" "$TMP/$l.ks.out"
	check "$l: without the plugin, every KernelShark entry's info is trace-cmd report's" \
		python3 "$COMPARE" kshark "$TMP/$l.report0.out" "$TMP/$l.ks0.out"
done

e2e_exit
