#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test the tree has and end with the list of what was skipped,
# the list of what failed (each "not ok" line, named by its program or
# script, so that the tail of a long log says it) and one summary line,
# "tests: N passed, N failed" (CI reads it).
#  - unit programs (tests/unit/test-*): CUnit's verbose runner.  Its
#    "tests" row is read whole: a test that did not run (Ran below Total,
#    as when its suite's set-up fails) is a failure, and so is a suite
#    that failed to set up or clean up;
#  - fuzz targets (tests/fuzz/fuzz-*): replay the in-tree corpus, then a
#    short run (FUZZ_TEST_SECONDS, default 15) - each counts as one test;
#  - end-to-end scripts (tests/e2e/*.sh): each prints "ok - ..." or
#    "not ok - ..." lines (tests/e2e/lib.sh), counted one by one; a script
#    that does not end through e2e_exit (which checks its planned minimum)
#    or checks nothing is a failure.
# Only absent optional data may skip: every "# skip: why" line is
# gathered and listed at the end.
#
# TESTS="PATTERN..." runs only the programs, fuzzers and scripts whose
# path matches one of the shell patterns:
# tests/mutate.sh uses it to run the part of the suite a breakage hits.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export TOP_SRCDIR=$top
# What the build made (make's $(O), which make test passes): by default
# the tree's build/.  Programs are named by their path under it, as the
# sources are ("tests/unit/test-x"), which TESTS patterns match.
export BUILD_DIR=${BUILD_DIR:-$top/build}
passed=0 failed=0
log=$(mktemp) skips=$(mktemp) fails=$(mktemp)
trap 'rm -f "$log" "$skips" "$fails"' EXIT

selected() {
	local p pats

	[ -z "${TESTS:-}" ] && return 0
	# the patterns as written, never expanded against the working folder
	read -r -a pats <<< "$TESTS"
	for p in "${pats[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	return 1
}
fail() {
	echo "not ok - $*"
	echo "$*" >> "$fails"
	failed=$((failed + 1))
}
# keep_fails NAME: the "not ok" lines of the last log, named
keep_fails() {
	sed -n "s|^not ok - *|$1: |p" "$log" >> "$fails"
}
# keep_skips NAME: the "# skip:" lines of the last log, named
keep_skips() {
	sed -n "s|^# skip: *|$1: |p" "$log" >> "$skips"
}

for t in "$BUILD_DIR"/tests/unit/test-*; do
	[ -x "$t" ] && [ "${t%.[cdo]}" = "$t" ] || continue
	exe=$t t=${t#"$BUILD_DIR"/}
	selected "$t" || continue
	echo "=== unit: $t"
	"$exe" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	keep_skips "$t"
	# CUnit's verbose runner: "Test: x ...FAILED", then "1. file:line - why"
	grep -E '\.\.\.FAILED$|^ +[0-9]+\. [^ ]+:[0-9]+ +- ' "$log" |
		sed "s|^ *|$t: |" >> "$fails"
	# Run Summary: Type Total Ran Passed Failed Inactive
	row=$(awk '$1 == "tests" && NF >= 6 { print $2, $3, $4, $5 }' "$log" | tail -1)
	if [ -z "$row" ]; then
		fail "$t did not finish (exit $rc)"
		continue
	fi
	read -r total ran ok_n bad_n <<<"$row"
	bad_suites=$(awk '$1 == "suites" && NF >= 6 { print $5 }' "$log" | tail -1)
	passed=$((passed + ok_n)); failed=$((failed + bad_n))
	before=$failed
	[ "$ran" -ge "$total" ] ||
		fail "$t: $ran of $total tests ran ($((total - ran)) did not: a suite's set-up failed?)"
	[ "${bad_suites:-0}" -eq 0 ] ||
		fail "$t: $bad_suites suite(s) failed to set up or clean up"
	[ "$rc" -eq 0 ] || [ "$bad_n" -ne 0 ] || [ "$failed" -ne "$before" ] ||
		fail "$t exit $rc"
done

for f in "$BUILD_DIR"/tests/fuzz/fuzz-*; do
	[ -x "$f" ] && [ "${f%.[cdo]}" = "$f" ] || continue
	selected "${f#"$BUILD_DIR"/}" || continue
	n=${f##*/fuzz-}
	corpus=tests/fuzz/corpus-$n
	echo "=== fuzz: $f (corpus $corpus, ${FUZZ_TEST_SECONDS:-15}s)"
	work=$(mktemp -d)
	if "$f" -runs=0 "$corpus" >"$log" 2>&1 &&
	   "$f" -max_total_time="${FUZZ_TEST_SECONDS:-15}" -timeout=5 \
		-print_final_stats=1 \
		"$work" "$corpus" >>"$log" 2>&1; then
		runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1)
		echo "ok - $f: corpus of $(ls "$corpus" | wc -l) inputs replayed, ${runs##* } fuzzed inputs, no fault"
		passed=$((passed + 1))
	else
		tail -30 "$log"
		fail "$f found a fault (crash input kept in $(pwd))"
	fi
	rm -rf "$work"
done

for s in tests/e2e/*.sh; do
	[ -f "$s" ] || continue
	[ "$(basename "$s")" = lib.sh ] && continue
	selected "$s" || continue
	echo "=== e2e: $s"
	bash "$s" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	keep_skips "$s"
	keep_fails "$s"
	p=$(grep -c '^ok - ' "$log"); f=$(grep -c '^not ok - ' "$log")
	passed=$((passed + p)); failed=$((failed + f))
	if ! grep -q '^# e2e: .* checks ran' "$log"; then
		fail "$s ended (exit $rc) without reaching e2e_exit"
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] &&
	     ! grep -q '^# skip: ' "$log"; then
		fail "$s checked nothing"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		fail "$s exited $rc"
	fi
done

echo
if [ -s "$skips" ]; then
	echo "skipped ($(wc -l < "$skips")), for want of optional data:"
	sed 's/^/  /' "$skips"
else
	echo "skipped: nothing"
fi
if [ -s "$fails" ]; then
	echo "failed ($failed):"
	sed 's/^/  /' "$fails"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
