# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bench-*.sh scripts: figures only, nothing passes or fails
# on time.

# best CMD...: run CMD $RUNS times (output discarded) and print the best
# wall time in seconds, or 0 (and a note on stderr) if it failed.
best() {
	local best= t0 t1 t i
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		"$@" > /dev/null 2>&1 || { echo "FAILED: $*" >&2; echo 0; return; }
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	printf '%.3f\n' "$best"
}
