#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test the tree has and end with one summary line.
#  - unit programs (tests/unit/test-*): CUnit's verbose runner; their
#    "tests" summary rows are added up;
#  - fuzz targets (tests/fuzz/fuzz-*): replay the in-tree corpus, then a
#    short run (FUZZ_TEST_SECONDS, default 15) - each counts as one test;
#  - end-to-end scripts (tests/e2e/*.sh): each prints "ok - ..." or
#    "not ok - ..." lines (tests/e2e/lib.sh), counted one by one.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export TOP_SRCDIR=$top
passed=0 failed=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

for t in tests/unit/test-*; do
	[ -x "$t" ] && [ "${t%.[co]}" = "$t" ] || continue
	echo "=== unit: $t"
	"$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	row=$(awk '$1 == "tests" && NF >= 5 { print $4, $5 }' "$log" | tail -1)
	if [ -z "$row" ]; then
		echo "not ok - $t did not finish (exit $rc)"
		failed=$((failed + 1))
		continue
	fi
	set -- $row
	passed=$((passed + $1)); failed=$((failed + $2))
	[ "$rc" -eq 0 ] || [ "$2" -ne 0 ] || { echo "not ok - $t exit $rc"; failed=$((failed + 1)); }
done

for f in tests/fuzz/fuzz-*; do
	[ -x "$f" ] && [ "${f%.c}" = "$f" ] || continue
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
		echo "not ok - $f found a fault (crash input kept in $(pwd))"
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done

for s in tests/e2e/*.sh; do
	[ -f "$s" ] || continue
	[ "$(basename "$s")" = lib.sh ] && continue
	echo "=== e2e: $s"
	bash "$s" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	p=$(grep -c '^ok - ' "$log"); f=$(grep -c '^not ok - ' "$log")
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $s exited $rc"
		failed=$((failed + 1))
	fi
done

echo
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
