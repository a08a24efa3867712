#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The core's .dat v7 writer judged by Debian's trace-cmd:
#  - synthetic files (tests/unit/dat-gen: real sched formats, event sizes
#    up to a page, huge timestamp gaps, 300 CPUs, instances, an empty
#    buffer; no compression and zstd) pass dump --summary, report,
#    report -R and convert --file-version 6 without warnings and show
#    every event;
#  - real recordings re-encoded record by record (tests/unit/dat-rewrite)
#    give the same `trace-cmd report -R` and `trace-cmd report`, line for
#    line, as the originals.
. "$(dirname "$0")/lib.sh"
e2e_plan 79
GEN=$BUILD/tests/unit/dat-gen
REWRITE=$BUILD/tests/unit/dat-rewrite
FORMATS=$TOP/tests/unit/dat-formats

for p in "$GEN" "$REWRITE"; do
	[ -x "$p" ] || { not_ok "$p is built (make test builds it)"; e2e_exit; }
done
command -v trace-cmd >/dev/null || { not_ok "trace-cmd is installed"; e2e_exit; }

# Event lines of a report: "comm-pid [cpu] secs.usecs: ..."
count_events() { grep -cE '\[[0-9]+\] +[0-9]+\.[0-9]+: ' "$1"; }

# Run a trace-cmd command; its stdout goes to $TMP/out, and it passes if it
# succeeds and writes nothing to stderr.
quiet() {
	"$@" >"$TMP/out" 2>"$TMP/err" && [ ! -s "$TMP/err" ] && return 0
	sed 's/^/#   stderr: /' "$TMP/err" | head -5
	return 1
}

# What `trace-cmd convert` prints on stderr converting any file, its own
# recordings included: progress lines, and 3.1.6's warning that it cannot
# find the top buffer's description when writing v6 (with whatever errno
# was left over).  Anything else is a complaint about the input.
convert_clean() {
	"$@" >"$TMP/out" 2>"$TMP/err" || { head -5 "$TMP/err"; return 1; }
	! grep -vE '^$|^libtracecmd: |^ *Cannot find description for buffer $|^CPU[0-9]+ data recorded at offset=0x[0-9a-f]+$|^ +[0-9]+ bytes in size( \([0-9]+ uncompressed\))?$|^Buffer: [a-z]+$' \
		"$TMP/err"
}

# dump names each section after the strings section, which libtracecmd
# finds by hopping over every section from the file's start: "Unknown"
# means a section's size does not cover it exactly.
sections_named() {
	quiet trace-cmd dump --options --flyrecord --head-page --cmd-lines \
		"$1" || return 1
	grep -q '"buffer flyrecord ' "$TMP/out" &&
		grep -q '"headers"' "$TMP/out" && ! grep -q '"Unknown"' "$TMP/out"
}

for kind in sched sizes gaps cpus buffers; do
	for comp in none zstd; do
		f=$TMP/$kind-$comp.dat
		t="$kind, $comp"
		n=$("$GEN" $kind $comp "$f" "$FORMATS") ||
			{ not_ok "dat-gen $t"; continue; }
		check "$t: trace-cmd dump --summary, no warnings" \
			quiet trace-cmd dump --summary "$f"
		check "$t: dump finds every section's name in the strings" \
			sections_named "$f"
		if quiet trace-cmd report "$f"; then
			cp "$TMP/out" "$TMP/report.txt"
			got=$(count_events "$TMP/report.txt")
			check "$t: trace-cmd report shows $n events (saw $got)" \
				test "$got" = "$n"
		else
			not_ok "$t: trace-cmd report, no warnings"
		fi
		if quiet trace-cmd report -R "$f"; then
			got=$(count_events "$TMP/out")
			check "$t: trace-cmd report -R shows $n events (saw $got)" \
				test "$got" = "$n"
		else
			not_ok "$t: trace-cmd report -R, no warnings"
		fi
		check "$t: trace-cmd convert --file-version 6, no warnings" \
			convert_clean trace-cmd convert --file-version 6 \
				-i "$f" -o "$TMP/v6.dat"
		check "$t: the converted v6 file reports the same" \
			eval 'quiet trace-cmd report "$TMP/v6.dat" &&
			      cmp -s "$TMP/out" "$TMP/report.txt"'
	done
done

f=$TMP/sched-none.dat
trace-cmd dump --options "$f" > "$TMP/opts.txt" 2>&1
check "sched: dump --options shows the uname, version and clock options" \
	eval 'grep -qx "Linux dat-gen 6.1.0 x86_64" "$TMP/opts.txt" &&
	      grep -qx "trace-fxt" "$TMP/opts.txt" &&
	      grep -qx "\[local\]" "$TMP/opts.txt"'
check "sched: trace-cmd convert --compression zstd (v7 to v7), no warnings" \
	convert_clean trace-cmd convert --compression zstd -i "$f" \
		-o "$TMP/z.dat"
check "sched: the zstd conversion reports the same" \
	eval 'trace-cmd report "$f" > "$TMP/a.txt" 2>&1 &&
	      trace-cmd report "$TMP/z.dat" > "$TMP/b.txt" 2>&1 &&
	      cmp -s "$TMP/a.txt" "$TMP/b.txt"'

# Re-encode real recordings.  libtracecmd hands out records and task names
# but not the format, kallsyms or printk texts: those come from dump.
for s in sched two-buffers; do
	recordings "$s.dat"
	[ ${#RECS[@]} -eq 1 ] || continue
	src=${RECS[0]}
	trace-cmd dump --ftrace-events --events "$src" > "$TMP/fmt.txt" 2>/dev/null
	trace-cmd dump --kallsyms "$src" > "$TMP/ksyms.txt" 2>/dev/null
	trace-cmd dump --printk "$src" > "$TMP/printk.txt" 2>/dev/null
	trace-cmd report -R "$src" > "$TMP/orig-raw.txt" 2>&1
	trace-cmd report "$src" > "$TMP/orig.txt" 2>&1
	for comp in none zstd; do
		f=$TMP/$s-rewrite-$comp.dat
		t="$s.dat re-encoded, $comp"
		if ! n=$("$REWRITE" "$src" "$TMP/fmt.txt" "$f" $comp \
				"$TMP/ksyms.txt" "$TMP/printk.txt" 2>"$TMP/err"); then
			cat "$TMP/err"
			not_ok "$t: dat-rewrite"
			continue
		fi
		check "$t: trace-cmd dump --summary, no warnings" \
			quiet trace-cmd dump --summary "$f"
		check "$t: dump finds every section's name in the strings" \
			sections_named "$f"
		trace-cmd report -R "$f" > "$TMP/new-raw.txt" 2>&1
		lines=$(wc -l < "$TMP/orig-raw.txt")
		if cmp -s "$TMP/orig-raw.txt" "$TMP/new-raw.txt"; then
			ok "$t: report -R equals the original's, line for line ($lines lines, $n records)"
		else
			diff "$TMP/orig-raw.txt" "$TMP/new-raw.txt" | head -10 |
				sed 's/^/#   /'
			not_ok "$t: report -R equals the original's"
		fi
		trace-cmd report "$f" > "$TMP/new.txt" 2>&1
		check "$t: report equals the original's, line for line" \
			cmp -s "$TMP/orig.txt" "$TMP/new.txt"
	done
done

e2e_exit
