#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt convert when it cannot succeed: not a trace file, a .dat cut
# short (v6 and v7, in the headers; in the CPU data, which --strict
# refuses and convert salvages: tests/e2e/convert-salvage.sh), no plugin
# to be found, an output that cannot be written.  Each must exit non-zero with
# a message that says what is wrong, and leave no output behind - not
# even a temporary file - nor touch an existing output file.
. "$(dirname "$0")/lib.sh"
e2e_plan 18
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
recordings sched-v6.dat atrace-markers.dat
v6=$BUILT_SAMPLES/sched-v6.dat
v7=$SAMPLES/atrace-markers.dat
out=$TMP/out/trace.fxt
mkdir -p "$TMP/out"

# expect_fail "what" "message pattern" convert-args...
expect_fail() {
	local what=$1 pattern=$2 rc
	shift 2
	rm -f "$TMP"/out/*
	$TRACE_FXT convert "$@" > "$TMP/stdout" 2> "$TMP/stderr"
	rc=$?
	if [ $rc -eq 0 ]; then
		not_ok "$what: exit status non-zero (got 0)"
	elif failed_cleanly "$what" "$pattern"; then
		ok "$what: exit $rc, \"$(head -1 "$TMP/stderr" | cut -c1-70)\", no output"
	fi
}

echo "this is not a trace" > "$TMP/text.dat"
expect_fail "not a trace file" "not a trace-cmd .dat .* nor FXT .*starts with 74 68 69 73" "$TMP/text.dat" -o "$out"
: > "$TMP/empty.dat"
expect_fail "empty file" "not a trace-cmd .dat .*starts with nothing" "$TMP/empty.dat" -o "$out"
# a name that says FXT: what it was taken for, and why it was refused
printf 'FxT\0\0\0\0\0 not Fuchsia' > "$TMP/other.fxt"
expect_fail "a .fxt that is not FXT" "taken for FXT .*refused.*46 78 54 00 00 00 00 00" "$TMP/other.fxt" -o "$TMP/out/x.dat"
expect_fail "missing input" "cannot read .*No such file" "$TMP/nope.dat" -o "$out"

size=$(stat -c %s "$v6")
for cut in 300 20000 $((size / 2)); do
	head -c $cut "$v6" > "$TMP/cut.dat"
	expect_fail "v6 cut to $cut of $size bytes" \
		"cut.dat: offset 0x[0-9a-f]+: " "$TMP/cut.dat" -o "$out"
done
# in its CPU data: --strict refuses it where the file ends
cut=$((size - 600))
head -c $cut "$v6" > "$TMP/cut.dat"
expect_fail "v6 cut to $cut of $size bytes, --strict" \
	"cut.dat: offset $(printf 0x%x $cut): the file ends inside CPU 1's data" \
	--strict "$TMP/cut.dat" -o "$out"
$TRACE_FXT convert -q "$TMP/cut.dat" -o "$out" 2> "$TMP/stderr"
rc=$?
check "v6 cut to $cut of $size bytes: salvaged without --strict (exit $rc), the cut said" \
	test $rc -eq 0 -a -s "$out" -a -n "$(grep "offset $(printf 0x%x $cut): the file ends 600 bytes short" "$TMP/stderr")"
size=$(stat -c %s "$v7")
for cut in 300 50000; do
	head -c $cut "$v7" > "$TMP/cut.dat"
	expect_fail "v7 cut to $cut of $size bytes" "cut.dat: offset 0x[0-9a-f]+: " \
		"$TMP/cut.dat" -o "$out"
done
cut=$((size - 4000))
head -c $cut "$v7" > "$TMP/cut.dat"
expect_fail "v7 cut to $cut of $size bytes, --strict" \
	"cut.dat: offset $(printf 0x%x $cut): the options section lies beyond the end of the file, at 0x[0-9a-f]+: the file ends here" \
	--strict "$TMP/cut.dat" -o "$out"

# No plugin: a copy of the binary away from the build tree, with the
# environment pointing at empty directories.
mkdir -p "$TMP/bin" "$TMP/home" "$TMP/empty"
cp "$TRACE_FXT" "$TMP/bin/trace-fxt"
installed=$(strings "$TMP/bin/trace-fxt" | grep -m1 '/trace-cmd/plugins$' || true)
if [ -n "$installed" ] && [ -e "$installed/trace-fxt-input.so" ]; then
	skip "missing plugin: one is installed in $installed, where trace-fxt always looks" 2
else
	TRACE_FXT="$TMP/bin/trace-fxt" HOME=$TMP/home \
	TRACECMD_PLUGIN_DIR=$TMP/empty \
		expect_fail "missing plugin" \
		"no trace-cmd input plugin \(trace-fxt-input.so\) found" \
		"$v7" -o "$out"
	check "missing plugin: the message lists \$TRACECMD_PLUGIN_DIR" \
		grep -q "TRACECMD_PLUGIN_DIR ($TMP/empty)" "$TMP/stderr"
fi

expect_fail "output directory missing" "cannot write .*No such file" \
	"$v7" -o "$TMP/out/no/such/dir/trace.fxt"
expect_fail "output on a read-only file system" "cannot write" \
	"$v7" -o /proc/trace-fxt-test.fxt

# A failed conversion leaves an existing output alone.
echo "precious" > "$out"
head -c 50000 "$v7" > "$TMP/cut.dat"
$TRACE_FXT convert -q "$TMP/cut.dat" -o "$out" 2> /dev/null
check "failed conversion leaves the existing output untouched" \
	test "$(cat "$out")" = precious
check "and no temporary file beside it" \
	test "$(ls "$TMP/out")" = trace.fxt
e2e_exit
