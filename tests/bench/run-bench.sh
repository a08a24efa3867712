#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make bench`: run every tests/bench/bench-*.sh in turn.  Each prints its
# own figures; a script that fails is named and makes the run fail, after
# the others have run.
cd "$(dirname "$0")/../.." || exit 1
failed=()
for b in tests/bench/bench-*.sh; do
	[ -f "$b" ] || continue
	echo "=== bench: $b"
	bash "$b" || failed+=("$b")
	echo
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench: failed: ${failed[*]}"
	exit 1
fi
