#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# FXT that other producers write, through every reader: `check` (faults
# fail it, warnings do not, --pedantic makes them faults), `dump`,
# `report` (a line per timestamped record), `convert` (and trace-cmd
# report of the .dat) and the KernelShark plugin; each lenient reader
# says on stderr what it skipped.  Files built here byte by byte from the
# specification cover each rule; the third-party files beside the clone
# (../shared/samples/third-party, never committed) are read with the
# counts their README gives, checked against trace-cmd where it reads
# them.  Last, a converted two-buffer recording must define no string or
# thread index differently in its two providers (readers that keep one
# table for the file, as Tracy's, then resolve every ref).
. "$(dirname "$0")/lib.sh"
e2e_plan 39
export TRACEEVENT_PLUGIN_DIR=$BUILD/plugins
KSLOAD=$BUILD/tests/bench/bench-kshark-load
KSPLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
TP=$SHARED_SAMPLES/third-party

# lines of trace-cmd report (or trace-fxt report) that are records
count_lines() { grep -cE -- '-[0-9]+ +\[([0-9]+|---)\] +[0-9]+\.[0-9]+:' "$1"; }

# ks_entries FILE: the entries libkshark loads through the plugin
ks_entries() {
	"$KSLOAD" -r 1 -p "$KSPLUGIN" "$1" 2> "$TMP/ks.err" |
		sed -n 's/.* entries=\([0-9]*\) .*/\1/p'
}

# ---- built by hand ---------------------------------------------------

# Words in, little-endian bytes out.  Provider id 0 (as Jane Street's
# writer), a 4-word initialization record, an event record that claims
# 3 words more than its fields and so covers the next instant, a record
# of reserved type 10, then a duration.
python3 - "$TMP/rules.fxt" "$TMP/early-ticks.fxt" <<'EOF'
import struct, sys

def hdr(t, words): return t | words << 4
def s8(s): return int.from_bytes(s.encode().ljust(8, b'\0'), 'little')
def instant(ts, name, etype=0):
    return [hdr(4, 3) | etype << 16 | 1 << 24 | 1 << 32 |
            (0x8000 | len(name)) << 48, ts, s8(name)]

MAGIC = 0x0016547846040010
w = [MAGIC,
     hdr(0, 2) | 1 << 16 | 0 << 20 | 4 << 52, s8("zero"),
     hdr(1, 4), 1000000000, 0, 0,
     hdr(2, 2) | 1 << 16 | 3 << 32, s8("cat"),
     hdr(3, 3) | 1 << 16, 10, 11]
for i in range(5):
    w += instant(1000 * (i + 1), "a%d" % i)
big = instant(6000, "big")
big[0] = big[0] & ~(0xfff << 4) | 6 << 4
w += big + instant(6500, "hidden")
for i in range(4):
    w += instant(7000 + 1000 * i, "b%d" % i)
w += [hdr(10, 2), 0x1234]
w += instant(12000, "work", 2) + instant(13000, "work", 3)
open(sys.argv[1], 'wb').write(struct.pack('<%dQ' % len(w), *w))

# 1e6 ticks/s before the provider record (as the Rust writer does)
w = [MAGIC, hdr(1, 2), 1000000,
     hdr(0, 2) | 1 << 16 | 5 << 20 | 4 << 52, s8("late"),
     hdr(4, 5) | 0x8001 << 48, 100000, 7, 8, s8("x")]
open(sys.argv[2], 'wb').write(struct.pack('<%dQ' % len(w), *w))
EOF

f=$TMP/rules.fxt
$TRACE_FXT check "$f" > "$TMP/out" 2> "$TMP/err"
check "check: warnings only, exit 0, 3 warnings in 3 records" \
	grep -q "ok, .*; 3 warnings in 3 records" "$TMP/out"
check "check lists the 4-word init, the long event, the reserved type" \
	sh -c "grep -q 'offset 0x18: initialization record has 4 words, its fields need 2.*(warning)' '$TMP/err' &&
	       grep -q 'event record has 6 words, its fields need 3' '$TMP/err' &&
	       grep -q 'record of reserved type 10, skipped' '$TMP/err'"
if $TRACE_FXT check --pedantic "$f" > /dev/null 2> "$TMP/err"; then
	not_ok "check --pedantic: warnings are faults"
else
	check "check --pedantic: warnings are faults (stops at 0x18)" \
		grep -q "offset 0x18: initialization record has 4 words" \
		"$TMP/err"
fi
$TRACE_FXT report "$f" > "$TMP/rep" 2> "$TMP/err"
check "report: 12 lines, durations with their length" \
	sh -c "[ $(count_lines "$TMP/rep") = 12 ] &&
	       grep -q 'duration_end: .*cat:work (duration 1000 ns)' '$TMP/rep'"
check "report says once what it skipped, and where first" \
	sh -c "[ \$(grep -c 'skipped or not read in full' '$TMP/err') = 1 ] &&
	       grep -q '^trace-fxt: 3 records skipped .*offset 0x18' '$TMP/err'"
$TRACE_FXT dump "$f" > "$TMP/dump" 2> "$TMP/err"
check "dump: every record, and the skips said once" \
	sh -c "[ \$(wc -l < '$TMP/dump') = 18 ] &&
	       grep -q '^trace-fxt: 3 records skipped' '$TMP/err'"
$TRACE_FXT convert "$f" -o "$TMP/rules.dat" 2> "$TMP/err"
check "convert: provider 0's 12 events, the skips in the summary" \
	sh -c "grep -q ': 12 events from .*3 skipped or not read in full' '$TMP/err' &&
	       grep -q '^trace-fxt: 3 records skipped' '$TMP/err'"
trace-cmd report "$TMP/rules.dat" > "$TMP/tc" 2>/dev/null
check "trace-cmd report of the .dat: 12 lines" \
	test "$(count_lines "$TMP/tc")" = 12
if [ -x "$KSLOAD" ]; then
	n=$(ks_entries "$f")
	check "KernelShark plugin: 12 entries ($n), skips said on stderr" \
		sh -c "[ '$n' = 12 ] &&
		       grep -q 'plugin-fxt: 3 records skipped' '$TMP/ks.err'"
else
	skip "no $KSLOAD"
fi

f=$TMP/early-ticks.fxt
check "check: ticks before the provider is a warning, Perfetto's rule" \
	sh -c "$TRACE_FXT check '$f' 2>&1 | grep -q 'offset 0x18: provider record after an initialization record that came before any provider (offset 0x8, 1000000 ticks per second): as Perfetto reads it'"
$TRACE_FXT report "$f" > "$TMP/rep" 2>/dev/null
check "report: the provider counts ns (100000 ticks = 0.000100 s)" \
	grep -q ' 0\.000100: :x:' "$TMP/rep"

# ---- third-party files ---------------------------------------------------

# tp_file NAME CHECKS: sets F when the file is there, else skips
tp_file() { shared_sample "third-party/$1" "$2" && F=$SHARED; }

# tp_read NAME LINES: report, convert, trace-cmd report and KernelShark
# agree on LINES timestamped records
tp_read() {
	local name=$1 want=$2 n

	$TRACE_FXT dump "$F" > /dev/null 2>&1
	check "$name: dump reads it whole" test $? = 0
	$TRACE_FXT report "$F" > "$TMP/rep" 2> "$TMP/rep.err"
	n=$(count_lines "$TMP/rep")
	check "$name: report prints $want lines ($n)" test "$n" = "$want"
	$TRACE_FXT convert -q "$F" -o "$TMP/tp.dat" 2> "$TMP/conv.err"
	trace-cmd report "$TMP/tp.dat" > "$TMP/tc" 2> /dev/null
	n=$(count_lines "$TMP/tc")
	check "$name: converted, trace-cmd report prints $want lines ($n)" \
		test "$n" = "$want"
	if [ -x "$KSLOAD" ]; then
		n=$(ks_entries "$F")
		check "$name: KernelShark plugin loads $want entries ($n)" \
			test "$n" = "$want"
	else
		skip "no $KSLOAD"
	fi
}

# README: 17,296 duration begins and as many ends, provider id 0, a
# 4-word initialization record
if tp_file janestreet-tracing.fxt 6; then
	check "janestreet: check accepts it with 1 warning (the 4-word init)" \
		sh -c "$TRACE_FXT check '$F' 2>&1 | grep -q '35463 records.*; 1 warning in 1 record'"
	check "janestreet: check --pedantic refuses it at 0x38" \
		sh -c "! $TRACE_FXT check --pedantic '$F' > /dev/null 2>&1 &&
		       $TRACE_FXT check --pedantic '$F' 2>&1 | grep -q 'offset 0x38'"
	tp_read janestreet $((17296 * 2))
fi
# README: ticks 1000/s, two providers, durations, async, flow, counter,
# instants, a context switch and a wakeup: 12 events and 2 scheduling
if tp_file go-fxt-writer.fxt 6; then
	check "go-fxt-writer: check accepts it without a warning" \
		sh -c "$TRACE_FXT check '$F' 2>&1 | grep -q ': ok, 47 records.*scheduling 2$'"
	tp_read go-fxt-writer 14
	check "go-fxt-writer: the complete event lasts 480 ms" \
		grep -q 'duration_complete: .*cat:Work (duration 480000000 ns)' \
		"$TMP/rep"
fi
# README: the blob's name refers to string index 1300, never set
if tp_file go-fxt-writer-bad-blob.fxt 6; then
	check "go-fxt-writer-bad-blob: check refuses it at the blob (0x360)" \
		sh -c "! $TRACE_FXT check '$F' > /dev/null 2>&1 &&
		       $TRACE_FXT check '$F' 2>&1 | grep -q 'offset 0x360: blob record: blob name refers to string index 1300'"
	tp_read go-fxt-writer-bad-blob 14
	check "go-fxt-writer-bad-blob: report says what it could not read" \
		grep -q 'offset 0x360' "$TMP/rep.err"
fi
# README: initialization (1e6 ticks/s) before the provider record
if tp_file ftfrs-writer.fxt 5; then
	check "ftfrs-writer: check accepts it with the early-ticks warning" \
		sh -c "$TRACE_FXT check '$F' 2>&1 | grep -q 'offset 0x18: provider record after an initialization record that came before any provider (offset 0x8'"
	tp_read ftfrs-writer 6
fi
# README: an EZTrace/StarPU FxT trace, not Fuchsia's format
if tp_file not-fuchsia-fxt.fxt 4; then
	check "not-fuchsia: check refuses it" \
		sh -c "$TRACE_FXT check '$F' 2>&1 | grep -q 'not an FXT file: no magic number record'"
	check "not-fuchsia: report and dump fail" \
		sh -c "! $TRACE_FXT report '$F' > /dev/null 2>&1 &&
		       ! $TRACE_FXT dump '$F' > /dev/null 2>&1"
	check "not-fuchsia: convert says it took it for FXT and why not" \
		sh -c "$TRACE_FXT convert '$F' -o '$TMP/nf.dat' 2>&1 | grep -q 'taken for FXT (the name ends in .fxt) and refused' &&
		       [ ! -e '$TMP/nf.dat' ]"
	if [ -x "$KSLOAD" ]; then
		check "not-fuchsia: the KernelShark plugin does not load it" \
			sh -c "! '$KSLOAD' -r 1 -p '$KSPLUGIN' '$F' > /dev/null 2>&1"
	else
		skip "no $KSLOAD"
	fi
fi

# ---- one table for the whole file ----------------------------------------

two=$SAMPLES/two-buffers.dat
[ -r "$two" ] || two=$SHARED_SAMPLES/two-buffers.dat
if [ -r "$two" ]; then
	TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR \
		$TRACE_FXT convert -q "$two" -o "$TMP/two.fxt"
	$TRACE_FXT dump --json "$TMP/two.fxt" > "$TMP/two.json"
	check "converted two-buffer file: no string or thread index defined differently by two providers" \
		python3 - "$TMP/two.json" <<'EOF'
import json, sys
seen, provs, clash = {}, set(), 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["record"] == "string":
        key, val = ("s", r["index"]), r["value"]
    elif r["record"] == "thread":
        key, val = ("t", r["index"]), (r["pid"], r["tid"])
    else:
        continue
    provs.add(r["provider"])
    if seen.setdefault(key, val) != val:
        clash += 1
print("%d providers, %d indexes, %d defined differently"
      % (len(provs), len(seen), clash))
sys.exit(0 if clash == 0 and len(provs) >= 2 else 1)
EOF
else
	skip "no two-buffers.dat in samples/ or beside the clone"
fi
e2e_exit
