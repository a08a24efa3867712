#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# map-ftrace.table, the kernel events the converter writes as Perfetto's
# own ftrace events, as its three readers take it: the C rows as the
# build compiled them (map-table-rows) and perfetto-model.py, which
# decodes the packets by the table, read every event by the same numbers,
# names and kinds; the model's own notes on those events name the
# table's; MAPPING.md names every event of the table.  The numbers
# themselves are test-map-table.c's to check, against Perfetto's schema.
. "$(dirname "$0")/lib.sh"
e2e_plan 4

ROWS=$BUILD/tests/e2e/map-table-rows
if "$ROWS" > "$TMP/rows" && [ -s "$TMP/rows" ]; then
	n=$(wc -l < "$TMP/rows")
	ok "map-table-rows lists the $n rows that write Perfetto events"
else
	not_ok "map-table-rows lists the rows that write Perfetto events"
fi
relay "" python3 "$TOP/tests/e2e/perfetto-model.py" table-check "$TMP/rows" \
	"$TOP/trace-cmd-plugin/MAPPING.md"
e2e_exit
