# SPDX-License-Identifier: GPL-2.0-only
# The EventHeader vectors the e2e scripts run on, sourced after lib.sh:
#  - "fixture", always: the project's own events (samples/eventheader-cases.c
#    written by samples/eventheader-vectors), with their hand-written
#    reference decoding;
#  - "vectors", when LinuxTracepoints' test vectors stand beside the clone
#    (../shared/samples/eventheader/), with that project's own decoding.
# Both are vectors files ("u32 size | tracepoint name NUL | event bytes")
# with the reference at FILE.linux.json, so every check runs on each alike.

# eh_sets: EH_SETS gets "label:vectors file" for each set there is.
eh_sets() {
	EH_SETS=()
	if "$BUILD/samples/eventheader-vectors" "$TMP/fixture.vec" >/dev/null; then
		EH_SETS+=("fixture:$TMP/fixture.vec")
	else
		not_ok "samples/eventheader-vectors writes the project's EventHeader events"
	fi
	if shared_sample eventheader/EventHeaderInterceptorLE64.dat 0; then
		EH_SETS+=("vectors:$SHARED")
	fi
}

# eh_count VEC [tracepoints|apps]: records of VEC, its distinct
# tracepoints, or the records eventheader-dat -b puts in "apps".
eh_count() {
	python3 "$TOP/tests/e2e/eventheader-compare.py" count "$@"
}

# eh_names VEC: its distinct tracepoint names, one a line.
eh_names() {
	python3 "$TOP/tests/e2e/eventheader-compare.py" count "$1" names
}
