#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Damaged trace.dat files are refused before libtracecmd reads them, as
# "FILE: offset 0x...: what is wrong", exit 1 and no output - never a
# crash: damaged headers, formats and options always, damaged CPU data
# with --strict; without it the damaged pages are skipped, said on
# standard error, and the rest converted (convert-salvage.sh measures
# what survives).  The files are real recordings, converted to v6 and
# to an uncompressed v7 by trace-cmd itself, then damaged at places that
# `trace-cmd dump` names.  Before the check, the header cuts made
# libtracecmd free twice (SIGABRT) and the page commit words made
# libtraceevent's kbuffer read past the page (SIGSEGV).
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
e2e_plan 23
src=$SAMPLES/lost-events.dat
d=$TMP/d
mkdir -p "$d/out"
out=$d/out/x.fxt
trace-cmd convert --file-version 6 --compression none -i "$src" \
	-o "$d/v6.dat" > /dev/null 2>&1 || not_ok "trace-cmd convert to v6"
trace-cmd convert --compression none -i "$src" -o "$d/v7.dat" \
	> /dev/null 2>&1 || not_ok "trace-cmd convert to uncompressed v7"

# patch FILE OFFSET HEXBYTES: a damaged copy in $d/bad.dat
patch() {
	python3 - "$@" "$d/bad.dat" <<'EOF'
import sys
src, off, hexb, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
b = bytearray(open(src, 'rb').read())
v = bytes.fromhex(hexb)
b[off:off + len(v)] = v
open(dst, 'wb').write(b)
EOF
}

# refused WHAT PATTERN FILE [OPTION]: exit 1 (not a signal), "FILE:
# offset 0x..: ..." matching PATTERN, no output
refused() {
	local what=$1 pattern=$2 f=$3 rc
	rm -f "$d"/out/*
	timeout 60 $TRACE_FXT convert -q ${4:-} "$f" -o "$out" > /dev/null \
		2> "$d/err"
	rc=$?
	if [ $rc -eq 1 ] &&
	   grep -qE "^trace-fxt: $f: offset 0x[0-9a-f]+: .*$pattern" "$d/err" &&
	   [ -z "$(ls -A "$d/out")" ]; then
		ok "$what: exit 1, \"$(sed "s|$d/||" "$d/err" | cut -c1-110)\""
	else
		cat "$d/err"
		not_ok "$what: exit $rc (1 wanted), message /$pattern/, no output ($(ls "$d/out"))"
	fi
}

# salvaged WHAT PATTERN FILE: exit 0, the output written, the damage
# said on a line naming the fault (PATTERN) and a summary
salvaged() {
	local what=$1 pattern=$2 f=$3 rc
	rm -f "$d"/out/*
	timeout 60 $TRACE_FXT convert -q "$f" -o "$out" > /dev/null 2> "$d/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$out" ] &&
	   grep -qE "^trace-fxt: $f: damaged CPU data skipped: buffer top, CPU 0: .*$pattern" "$d/err" &&
	   grep -q "^trace-fxt: $f: 1 damaged stretch of the CPU data skipped" "$d/err"; then
		ok "$what: salvaged, exit 0, \"$(sed "s|$d/||" "$d/err" | head -1 | cut -c1-110)\""
	else
		cat "$d/err"
		not_ok "$what: exit $rc (0 wanted), damage /$pattern/ said, output written"
	fi
}

# cuts at 30 and 36 bytes, inside the 8-byte field after the header's
# strings (v7: the first section's offset; v6: header_page's size), and
# every other one of the header region, v7 and v6
for cut in 30 36; do
	head -c $cut "$src" > "$d/cut.dat"
	refused "v7 cut at $cut bytes" "runs past the end" "$d/cut.dat"
	head -c $cut "$d/v6.dat" > "$d/cut.dat"
	refused "v6 cut at $cut bytes" "runs past the end" "$d/cut.dat"
done
bad=0
for f in "$src" "$d/v6.dat"; do
	for cut in $(seq 11 2 400) $(seq 4000 997 40000); do
		head -c $cut "$f" > "$d/cut.dat"
		$TRACE_FXT convert -q "$d/cut.dat" -o "$out" > /dev/null 2> "$d/err"
		rc=$?
		if [ $rc -ne 1 ] || ! grep -q ": offset 0x" "$d/err"; then
			bad=$((bad + 1))
			echo "# $(basename "$f") cut at $cut: exit $rc: $(cat "$d/err")"
		fi
	done
done
check "every cut of the first 400 bytes and up to 40000 (v7, v6): exit 1 with an offset ($bad bad)" \
	test $bad -eq 0

# ring-buffer pages: the offsets come from trace-cmd dump
v6_cpu0=$(trace-cmd dump --flyrecord -i "$d/v6.dat" 2>/dev/null |
	  awk '/offset, size of cpu 0/ { print $1 }')
v7_cpu0=$(trace-cmd dump --flyrecord -i "$d/v7.dat" 2>/dev/null |
	  awk '$1 == 0 && NF >= 3 && /data offset/ { print $2 }')
if [ -n "$v6_cpu0" ] && [ -n "$v7_cpu0" ]; then
	patch "$d/v6.dat" $((v6_cpu0 + 8)) ffffffffffffffff
	refused "v6 page commit all 0xFF" "page commit size 134217727" \
		"$d/bad.dat" --strict
	salvaged "v6 page commit all 0xFF" "page commit word" "$d/bad.dat"
	patch "$d/v7.dat" $((v7_cpu0 + 8)) ffffffffffffffff
	refused "v7 page commit all 0xFF" "page commit size" "$d/bad.dat" \
		--strict
	# first event: type_len 0 with a length of 1 MB
	patch "$d/v7.dat" $((v7_cpu0 + 16)) 0000000000001000
	refused "v7 event longer than its page" "event of" "$d/bad.dat" \
		--strict
	salvaged "v7 event longer than its page" \
		"4080 bytes at offset $(printf 0x%x $((v7_cpu0 + 16))).*event of" \
		"$d/bad.dat"
	# a time extend, then padding back to it: kbuffer would loop
	patch "$d/v7.dat" $((v7_cpu0 + 16)) 1e000000000000001d000000f4ffffff
	refused "v7 padding going backwards" "goes backwards" "$d/bad.dat" \
		--strict
	salvaged "v7 padding going backwards" "goes backwards" "$d/bad.dat"
	# v6 CPU 0 data offset past the end of the file
	list=$(grep -boa 'flyrecord' "$d/v6.dat" | tail -1 | cut -d: -f1)
	patch "$d/v6.dat" $((list + 10)) ffffffffffff0000
	refused "v6 CPU data offset beyond the file" "CPU data at" "$d/bad.dat"
	# a latency trace: libtracecmd opens it, then tracecmd_get_first_ts
	# crashes on its missing CPU data
	patch "$d/v6.dat" "$list" 6c6174656e6379202000
	refused "v6 latency trace" "latency trace" "$d/bad.dat"
else
	not_ok "trace-cmd dump names the CPU data offsets ($v6_cpu0, $v7_cpu0)"
fi

# the initial header and the options
patch "$src" 14 00000000
refused "page size 0" "page size 0 is not a power of two" "$d/bad.dat"
patch "$src" 13 07
refused "long size 7" "long size 7" "$d/bad.dat"
patch "$src" 18 7a6c69
refused "unknown compression name" "compression" "$d/bad.dat"
uname=$(grep -boa 'Linux vm' "$d/v7.dat" | head -1 | cut -d: -f1)
if [ -n "$uname" ]; then
	end=$(python3 -c "import sys; b=open(sys.argv[1],'rb').read(); print(b.index(b'\0', $uname))" "$d/v7.dat")
	patch "$d/v7.dat" "$end" 58
	refused "UNAME option without its NUL" "option UNAME" "$d/bad.dat"
else
	not_ok "the v7 copy has a UNAME option"
fi
# a trace_clock option whose bracketed word is empty: sscanf(NULL) in
# libtracecmd's extract_trace_clock
clock=$(grep -boa '\[local\]' "$d/v7.dat" | head -1 | cut -d: -f1)
if [ -n "$clock" ]; then
	patch "$d/v7.dat" "$clock" 5b5d2020202020
	refused "TRACECLOCK option \"[]\"" "option TRACECLOCK" "$d/bad.dat"
else
	not_ok "the v7 copy has a TRACECLOCK option"
fi
# an event format whose print format libtraceevent's parser dies on
# (an operator inside __print_symbolic's first argument)
sym=$(grep -boa '__print_symbolic(REC->vec,' "$d/v7.dat" | head -1 | cut -d: -f1)
if [ -n "$sym" ]; then
	patch "$d/v7.dat" $((sym + 24)) 3f
	refused "print format that crashes libtraceevent" \
		"event format \(irq\) crashes libtraceevent's parser" "$d/bad.dat"
else
	not_ok "the v7 copy has the irq softirq format"
fi
opts=$(python3 -c "import sys; b=open(sys.argv[1],'rb').read(); print(b.index(b'\0', b.index(b'\0', 18) + 1) + 1)" "$d/v7.dat")
patch "$d/v7.dat" "$opts" ffffff7f00000000
refused "options offset beyond the file" "options section lies beyond" "$d/bad.dat"

# the options section's DONE leading back to itself: libtracecmd would
# follow it for ever
sec=$(trace-cmd dump --options -i "$d/v7.dat" 2>/dev/null |
      sed -n 's/.*Section 0 @ \([0-9]*\): "options", flags 0x0, \([0-9]*\) bytes.*/\1 \2/p' | head -1)
if [ -n "$sec" ]; then
	set -- $sec
	patch "$d/v7.dat" $(($1 + 16 + $2 - 8)) "$(printf '%016x' "$1" | sed 's/../& /g' | awk '{ for (i = NF; i; i--) printf "%s", $i }')"
	refused "options sections in a loop" "options sections" "$d/bad.dat"
else
	not_ok "trace-cmd dump names the options section"
fi

check "the undamaged v6 and v7 copies convert" \
	bash -c "'$TRACE_FXT' convert -q '$d/v6.dat' -o '$d/a.fxt' &&
		 '$TRACE_FXT' convert -q '$d/v7.dat' -o '$d/b.fxt'"
e2e_exit
