#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert when libtracecmd fails to open a file the check
# accepted: each failure libtracecmd can give (its header read, inside
# tracecmd_open_head(), which frees its handle and tep_handle then; no
# handle at all; its CPU data's set-up), injected by tc-fail.so, under
# valgrind.  Each must exit 1 with a message that says what failed, leave
# no output, and make no invalid read, write or free (valgrind's
# --error-exitcode), on a zstd v7 recording and a v6 one.
. "$(dirname "$0")/lib.sh"
e2e_plan 6
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
recordings sched-v6.dat
shim=$BUILD_DIR/tests/e2e/tc-fail.so
[ -f "$shim" ] || { not_ok "no $shim: make test-progs builds it"; e2e_exit; }
command -v valgrind > /dev/null || {
	not_ok "no valgrind (scripts/deps.sh installs it)"; e2e_exit; }
mkdir -p "$TMP/out"

# fails WHAT DAT PATTERN
fails() {
	local what=$1 dat=$2 pattern=$3 rc name
	name="$(basename "$dat"): $what fails"
	rm -f "$TMP"/out/*
	TC_FAIL=$what LD_PRELOAD=$shim valgrind -q --error-exitcode=99 \
		--trace-children=yes --leak-check=no \
		"$TRACE_FXT" convert "$dat" -o "$TMP/out/t.fxt" \
		> "$TMP/stdout" 2> "$TMP/stderr"
	rc=$?
	if [ $rc -eq 99 ] || grep -q "Invalid \(read\|write\|free\)" \
			"$TMP/stderr"; then
		grep -m5 -A3 "Invalid" "$TMP/stderr"
		not_ok "$name: valgrind found an invalid access (exit $rc)"
	elif [ $rc -ne 1 ]; then
		cat "$TMP/stderr"
		not_ok "$name: exit 1 (got $rc)"
	elif failed_cleanly "$name" "$pattern"; then
		ok "$name: exit 1, \"$(grep -v '^==' "$TMP/stderr" | head -1 |
			cut -c1-60)\", valgrind clean, no output"
	fi
}

for dat in "$SAMPLES/sched-zstd.dat" "$BUILT_SAMPLES/sched-v6.dat"; do
	fails read_headers "$dat" "cannot open .* with libtracecmd"
	fails open_head "$dat" "cannot open .* with libtracecmd"
	fails init_data "$dat" "cannot read the trace data of"
done
e2e_exit
