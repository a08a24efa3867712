# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the end-to-end scripts: every check prints one
# "ok - ..." or "not ok - ..." line that tests/run-tests.sh counts, and a
# check left out for want of optional data prints "# skip: why".
#
# A script starts with `e2e_plan N` (the fewest checks it makes when
# everything it needs is there) and ends with e2e_exit, which fails the
# script when fewer checks than planned ran and were not skipped.

TOP=${TOP_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# What the build made: make's $(O) (make test passes it), by default the
# tree's build/.
BUILD=${BUILD_DIR:-$TOP/build}
TRACE_FXT=$BUILD/trace-cmd-plugin/trace-fxt/trace-fxt
# The trace-cmd input plugin as the build leaves it, and its folder (what
# $TRACECMD_PLUGIN_DIR names for trace-fxt convert).
TC_PLUGIN_DIR=$BUILD/trace-cmd-plugin/trace-fxt-input
TC_PLUGIN=$TC_PLUGIN_DIR/trace-fxt-input.so
# The project's own recordings (always there) and the optional data that
# may stand beside the clone (LinuxTracepoints' vectors, third-party FXT,
# larger recordings): a check that needs the latter skips without it.
SAMPLES=$TOP/samples
# The recordings the build makes from them (sched.dat, sched-v6.dat).
BUILT_SAMPLES=$BUILD/samples
SHARED_SAMPLES=${SHARED_SAMPLES:-$TOP/../shared/samples}
# The project's recordings, each made by a script in samples/: a v7
# uncompressed, a v7 zstd and a v6 file of the same workload, two ftrace
# buffers, a multi-threaded process with atrace markers, atrace markers,
# lost events, events of many fields, nested threads with a PROCMAPS option,
# syscalls around atrace markers.
RECORDINGS="sched.dat sched-zstd.dat sched-v6.dat two-buffers.dat threads.dat
	    atrace-markers.dat lost-events.dat net-events.dat procmaps.dat
	    kernel-states.dat syscalls.dat net-tcp.dat"
E2E_FAILED=0
E2E_CHECKS=0
E2E_SKIPS=0
E2E_PLAN=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok - $*"; E2E_CHECKS=$((E2E_CHECKS + 1)); }
not_ok() { echo "not ok - $*"; E2E_FAILED=1; E2E_CHECKS=$((E2E_CHECKS + 1)); }
# skip WHY [N]: N planned checks (default 1) are left out for want of
# optional data; never for a failure.
skip() {
	echo "# skip: $1"
	E2E_SKIPS=$((E2E_SKIPS + ${2:-1}))
}
# shared_sample NAME [N]: sets SHARED to ../shared/samples/NAME and
# succeeds when it is there; otherwise skips N checks (default 1) and
# fails.  Use: if shared_sample x.dat 3; then ... "$SHARED" ...; fi
shared_sample() {
	SHARED=$SHARED_SAMPLES/$1
	[ -r "$SHARED" ] && return 0
	skip "no $SHARED (optional data beside the clone)" "${2:-1}"
	return 1
}
# recordings [NAME...]: sets RECS to the paths of the named recordings
# (default: all of RECORDINGS).  They belong to the tree: a missing one is
# a failed check, never a skip.
recordings() {
	local n names=${*:-$RECORDINGS}

	RECS=()
	for n in $names; do
		if [ -r "$SAMPLES/$n" ]; then
			RECS+=("$SAMPLES/$n")
		elif [ -r "$BUILT_SAMPLES/$n" ]; then
			RECS+=("$BUILT_SAMPLES/$n")
		else
			not_ok "the project's recording samples/$n is there"
		fi
	done
}
# same WHAT A B: text files A and B are equal and A has more than one
# line (an empty or one-line output is a failure, never a match)
same() {
	local what=$1 a=$2 b=$3 lines diffs
	lines=$(wc -l < "$a")
	diffs=$(diff "$a" "$b" | grep -c '^[<>]')
	if [ "$diffs" = 0 ] && [ "$lines" -gt 1 ]; then
		ok "$what ($lines lines, 0 differ)"
	else
		diff "$a" "$b" | head -6 | cut -c1-200 | sed 's/^/#   /'
		not_ok "$what ($lines lines, $diffs differ)"
	fi
}
# check "what was checked" command...: ok when the command succeeds; its
# output is shown only when it fails.
check() {
	local what=$1; shift
	if "$@" >"$TMP/check.out" 2>&1; then
		ok "$what"
	else
		sed 's/^/#   /' "$TMP/check.out" | head -20
		not_ok "$what"
	fi
}
# relay PREFIX COMMAND...: a checker of its own (perfetto-model.py,
# ...) run, its "ok - " and "not ok - " lines this script's checks with
# PREFIX before each, its other lines shown as comments.  A checker that
# fails with no failed check of its own (a crash) or says nothing is a
# failed check too: it checked nothing.
relay() {
	local prefix=$1 line n=0 bad=0 rc
	shift
	"$@" >"$TMP/relay.out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "$prefix${line#ok - }"; n=$((n + 1)) ;;
		"not ok - "*) not_ok "$prefix${line#not ok - }"
			      n=$((n + 1)); bad=1 ;;
		*) echo "# $line" ;;
		esac
	done <"$TMP/relay.out"
	if [ "$n" -eq 0 ]; then
		not_ok "$prefix${*##*/}: checked nothing (exit $rc)"
	elif [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		not_ok "$prefix${*##*/}: exit $rc after its checks"
	fi
}
# kshark_same FILE WHAT: KernelShark's view of FILE and its twin the same,
# as tests/unit/test-kshark-dat compares them (a .dat against the .fxt
# convert makes of it, $KSHARK_CONVERT_OPTS its options; a Perfetto
# trace, or any other file, through plugin-fxt.so against the .dat
# convert makes of it): every count of a difference 0.  KS_N: how many
# entries were compared (0 when it failed).
kshark_same() {
	local base=${1##*/}
	local zero='differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 \(of ([1-9][0-9]*) entries compared\); drawn pid 0 \(0 after drawing\), task plots. boxes 0$'

	"$BUILD/tests/unit/test-kshark-dat" "$1" > "$TMP/$base.ks.log" 2>&1
	KS_N=$(sed -nE "s|^# $base: $zero|\1|p" "$TMP/$base.ks.log")
	if [ -n "$KS_N" ] && grep -q '^# unit: .* 0 failed, 0 suites failed' \
		"$TMP/$base.ks.log"; then
		ok "$2: $KS_N entries, every column and task plot as KernelShark shows its twin"
	else
		grep -E '^# |^  ' "$TMP/$base.ks.log" | head -20 | sed 's/^/#   /'
		not_ok "$2: every column and task plot as KernelShark shows its twin"
		KS_N=0
	fi
}
# failed_cleanly WHAT PATTERN: a command that was to fail said why on
# stderr ($TMP/stderr matches PATTERN) and left nothing in $TMP/out;
# else says which it did not (not_ok) and returns 1
failed_cleanly() {
	if ! grep -qE "$2" "$TMP/stderr"; then
		cat "$TMP/stderr"
		not_ok "$1: message matches '$2'"
	elif [ -n "$(ls -A "$TMP/out")" ]; then
		not_ok "$1: no output left ($(ls "$TMP/out"))"
	else
		return 0
	fi
	return 1
}
e2e_plan() { E2E_PLAN=$1; }
e2e_exit() {
	local need=$((E2E_PLAN - E2E_SKIPS))

	if [ "$E2E_PLAN" -le 0 ]; then
		not_ok "$(basename "$0"): declares no e2e_plan (how many checks it makes at least)"
	elif [ "$E2E_CHECKS" -lt "$need" ]; then
		not_ok "$(basename "$0"): $E2E_CHECKS checks ran, at least $need planned ($E2E_PLAN less $E2E_SKIPS skipped)"
	fi
	# tests/run-tests.sh reads this line: a script that does not get
	# here (killed, exited early) fails.
	echo "# e2e: $(basename "$0"): $E2E_CHECKS checks ran, $E2E_PLAN planned, $E2E_SKIPS skipped"
	exit $E2E_FAILED
}
