#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# KernelShark opens a Perfetto recording (.pftrace) itself, with
# plugin-fxt.so: libkshark's view of it (kshark_open, as the kernelshark
# program opens a file: its streams, its default plugins, the entries
# loaded) is, entry by entry and column by column (time, CPU, pid, the
# pid it is drawn with, event, task, latency, info) and task plot by task
# plot, its view of the trace.dat `trace-fxt convert` makes of the same
# trace (tests/unit/test-kshark-dat compares them).  The trace is
# recognised by its content: gzip'd, plain under Perfetto's own
# .perfetto-trace name, zstd'd under a name that says nothing.  A cut
# (also within a compressed packet: what its bytes there inflate to) and
# a damaged trace show what is whole, as convert converts them; a
# file that only starts as a Perfetto trace loads (its damage said) or
# is refused, without a crash; valgrind finds no invalid access in the
# plugin's load of the cut one.  The hand-written trace of
# convert-perfetto.sh's cases (two ftrace instances, a task renamed while
# it runs, thread groups, a kernel string written as its text, generic
# and described events) shows as its .dat too, and so does a recording
# of two instances writing one trace buffer (record-instances.sh's).
# The plugin reads the packets itself and builds a record when it is
# shown: it writes no .dat, and opens a trace where no temporary file
# can be made.
. "$(dirname "$0")/lib.sh"
P=$SAMPLES/perfetto
PFT=$P/sched-syscalls.pftrace.gz
PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
KSDAT=$BUILD/tests/unit/test-kshark-dat
LOADER=$BUILD/tests/bench/bench-kshark-load
export TRACE_FXT_EVENT_FORMATS=$P/formats
e2e_plan 15

for f in "$TRACE_FXT" "$PLUGIN" "$KSDAT" "$LOADER"; do
	[ -e "$f" ] || { not_ok "$f is built (make test-progs)"; e2e_exit; }
done

# view FILE WHAT: KernelShark's view of FILE through the plugin against
# its view of the .dat convert makes of FILE; says how many entries.
view() {
	kshark_same "$1" "$2"
	echo "$KS_N" > "$TMP/${1##*/}.n"
}

view "$PFT" "sched-syscalls.pftrace.gz (gzip'd) in KernelShark"
gzip -dc "$PFT" > "$TMP/sched.perfetto-trace"
view "$TMP/sched.perfetto-trace" "the plain trace as sched.perfetto-trace"
zstd -q -c "$TMP/sched.perfetto-trace" > "$TMP/recording"
view "$TMP/recording" "the zstd'd trace under a name without a suffix"

# A cut: the first 60% of the packets' bytes.
size=$(stat -c %s "$TMP/sched.perfetto-trace")
head -c $((size * 6 / 10)) "$TMP/sched.perfetto-trace" > "$TMP/cut.pftrace"
view "$TMP/cut.pftrace" "a cut trace"
check "  which shows fewer entries than the whole ($(cat "$TMP/cut.pftrace.n") of $(cat "$TMP/sched.perfetto-trace.n"))" \
	test "$(cat "$TMP/cut.pftrace.n")" -lt "$(cat "$TMP/sched.perfetto-trace.n")"

# Deflated (Perfetto's compression_type) and cut half way through its
# second compressed packet: the packets it inflates to, as convert reads.
python3 "$(dirname "$0")/pftrace-deflate.py" "$TMP/sched.perfetto-trace" \
	"$TMP/z3"
view "$TMP/z3-cut.pftrace" "a deflated trace cut within a compressed packet"
"$LOADER" -p "$PLUGIN" -r 1 "$TMP/z3-first.pftrace" > "$TMP/first.out" 2>&1
first=$(sed -n 's/.* entries=\([0-9]*\) .*/\1/p' "$TMP/first.out")
check "  which shows more entries than its first compressed packet alone ($(cat "$TMP/z3-cut.pftrace.n") of ${first:-none})" \
	test "$(cat "$TMP/z3-cut.pftrace.n")" -gt "${first:-0}" -a "${first:-0}" -gt 0

# Damage: bytes changed here and there, a stretch of garbage mid-way.
python3 "$(dirname "$0")/pftrace-damage.py" "$TMP/sched.perfetto-trace" \
	"$TMP/bad.pftrace"
view "$TMP/bad.pftrace" "a damaged trace"

# Every case convert-perfetto.sh's hand-written trace has.
python3 "$(dirname "$0")/pftrace-gen.py" "$TMP/cases.pftrace" > /dev/null
view "$TMP/cases.pftrace" "the hand-written trace (two instances, renames, a kernel string, generic events)"

# Two ftrace instances writing one trace buffer, told apart by their
# events: a stream each, compact sched's running tasks each its own.
view "$P/two-instances.pftrace.gz" "two instances in one trace buffer"
check "  a stream each: perfetto's and perfetto2's, with entries" \
	bash -c "grep -q 'stream \"perfetto\" / \"perfetto\": 2 / 2 CPUs, [1-9][0-9]* entries' '$TMP/two-instances.pftrace.gz.ks.log' &&
		 grep -q 'stream \"perfetto2\" / \"perfetto2\": 2 / 2 CPUs, [1-9][0-9]* entries' '$TMP/two-instances.pftrace.gz.ks.log'"

# No temporary file: none is needed.
TMPDIR=/nonexistent "$LOADER" -p "$PLUGIN" -r 1 "$TMP/sched.perfetto-trace" \
	> "$TMP/notmp.out" 2>&1
check "TMPDIR that does not exist: $(grep -o 'entries=[0-9]*' "$TMP/notmp.out" || echo 'no entries'), as many as with one" \
	grep -q "entries=$(cat "$TMP/sched.perfetto-trace.n") " "$TMP/notmp.out"

# Only its first bytes are a Perfetto trace's: no crash.
{ printf '\x0a\x08\x08\x01'; head -c 4000 /dev/urandom; } > "$TMP/junk.pftrace"
"$LOADER" -p "$PLUGIN" -r 1 "$TMP/junk.pftrace" > "$TMP/junk.out" 2>&1
rc=$?
check "a file that only starts as a Perfetto trace: no crash (exit $rc), $(grep -m1 -o 'plugin-fxt: .*' "$TMP/junk.out" || echo 'nothing said')" \
	test $rc -lt 128

# Text that starts with a newline (0x0a, as a trace's first tag): not
# taken for a Perfetto trace (kshark_input_check() says no), so
# KernelShark refuses it instead of showing an empty trace.
{ printf '\nab\n'; cat "$TOP_SRCDIR/README.md"; } > "$TMP/text.pftrace"
"$LOADER" -p "$PLUGIN" -r 1 "$TMP/text.pftrace" > "$TMP/text.out" 2>&1
rc=$?
check "text starting with a newline, named .pftrace: refused (exit $rc), no entries" \
	bash -c "test $rc -gt 0 -a $rc -lt 128 && ! grep -q 'entries=' '$TMP/text.out'"

if command -v valgrind > /dev/null; then
	if valgrind -q --error-exitcode=99 --leak-check=no \
		"$LOADER" -p "$PLUGIN" -r 1 "$TMP/cut.pftrace" \
		> "$TMP/vg.out" 2>&1; then
		ok "valgrind: no invalid access in the plugin's load of the cut trace"
	else
		sed 's/^/#   /' "$TMP/vg.out" | head -20
		not_ok "valgrind on the plugin's load of the cut trace"
	fi
else
	skip "no valgrind"
fi
e2e_exit
