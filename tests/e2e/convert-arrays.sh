#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Integer arrays in the conversion (map-array.c): raw_syscalls:sys_enter's
# "unsigned long args[6]" and a 3-element int array become one typed
# argument an element ("args[0]" of the element's width, the others
# narrower when their value fits); byte arrays
# and arrays of more than 8 elements stay "ARRAY[xx, ...]" text.  Judged
# by trace-cmd itself: `report --raw` equals `trace-cmd report -R`, the
# plain report equals `trace-cmd report`, and the .dat rebuilt from the
# FXT reports as the original (arrays-dat-gen.c writes the input).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
e2e_plan 9
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR

GEN=$BUILD/tests/e2e/arrays-dat-gen
if ! "$GEN" "$TMP/a.dat"; then
	not_ok "arrays-dat-gen writes the fixture"
	e2e_exit
fi
check "convert of the array fixture succeeds" \
	"$TRACE_FXT" convert -q --instants "$TMP/a.dat" -o "$TMP/a.fxt"
"$TRACE_FXT" dump "$TMP/a.fxt" > "$TMP/dump" 2>&1

# sys_enter #1: args = { 1, 0x7ffd12345679, -100, 0, 1 << 32 | 1, 0x1000 }
check "sys_enter's args[6]: six arguments, values as recorded; [0] uint64 (the width), the others uint32 when they fit" \
	grep -q 'name="sys_enter" args: cpu=uint32(1) id=int32(3) args\[0\]=uint64(1) args\[1\]=uint64(140724908873337) args\[2\]=uint64(18446744073709551516) args\[3\]=uint32(0) args\[4\]=uint64(4294967297) args\[5\]=uint32(4096)$' \
	"$TMP/dump"
# arrays #1: deltas = { -2, INT32_MIN - 1, INT32_MAX + 1 }; #0 at the limits
check "s64 deltas[3]: [0] int64 even when it fits, the others int32 only within the 32-bit limits" \
	test "$(grep -c 'deltas\[0\]=int64(-1) deltas\[1\]=int32(-2147483648) deltas\[2\]=int32(2147483647)$' "$TMP/dump")" = 1 -a \
	"$(grep -c 'deltas\[0\]=int64(-2) deltas\[1\]=int64(-2147483649) deltas\[2\]=int64(2147483648)$' "$TMP/dump")" = 1
check "int vals[3] is three int32 arguments (negatives kept)" \
	grep -q 'name="arrays" args: cpu=uint32(1) n=int32(1) vals\[0\]=int32(-2) vals\[1\]=int32(2147483647) vals\[2\]=int32(1) bytes=' \
	"$TMP/dump"
check "a byte array and a 9-element array stay ARRAY[..] text; no other ARRAY text" \
	test "$(grep -c 'bytes="ARRAY\[de, ad, ' "$TMP/dump")" = 8 -a \
	"$(grep -c 'many="ARRAY\[' "$TMP/dump")" = 8 -a \
	"$(grep -o 'ARRAY\[' "$TMP/dump" | wc -l)" = 16

trace-cmd report -R "$TMP/a.dat" 2>/dev/null | tail -n +2 > "$TMP/want-raw"
"$TRACE_FXT" report --raw "$TMP/a.fxt" 2>&1 | tail -n +2 > "$TMP/got-raw"
check "report --raw equals trace-cmd report -R, arrays byte for byte (16 lines)" \
	test "$(wc -l < "$TMP/want-raw")" = 16 -a -z \
	"$(diff "$TMP/want-raw" "$TMP/got-raw")"
trace-cmd report "$TMP/a.dat" 2>/dev/null > "$TMP/want"
"$TRACE_FXT" report "$TMP/a.fxt" > "$TMP/got" 2>&1
check "report equals trace-cmd report (sys_enter's print format reads the elements)" \
	diff "$TMP/want" "$TMP/got"
check "FXT back to .dat succeeds" \
	"$TRACE_FXT" convert -q "$TMP/a.fxt" -o "$TMP/back.dat"
trace-cmd report -R "$TMP/back.dat" 2>/dev/null | tail -n +2 > "$TMP/back-raw"
check "the rebuilt .dat's trace-cmd report -R equals the original's" \
	diff "$TMP/want-raw" "$TMP/back-raw"
e2e_exit
