#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The check walks a zstd CPU's chunks in parts, so that both threads of
# the walk share one CPU's data (datcheck-jobs.c, dc_cpu_parts()): a
# fault in any chunk, in the first part or a later one, at a part's first
# chunk or its last, must be named at that chunk, as the walk of the
# whole CPU names it: with --strict the file is refused and no output
# left, else that chunk alone is skipped and said.  The chunk table is read here
# from the file's own bytes (trace-cmd dump --flyrecord for where the
# CPU's data lies), not from the check.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR

SRC=$SAMPLES/net-tcp.dat
e2e_plan 15

off=$(trace-cmd dump --flyrecord "$SRC" 2>/dev/null |
	awk '$1 == "0" && $2 ~ /^[0-9]+$/ && NF >= 3 { print $2; exit }')
check "net-tcp.dat: CPU 0's data found (at ${off:-?})" test -n "$off"

# corrupt HOW CHUNK: a copy of SRC with chunk CHUNK of CPU 0 broken (its
# compressed bytes, or its size that is no whole number of pages); the
# chunk header's offset and the chunk count printed
corrupt() {
	python3 - "$SRC" "$off" "$1" "$2" "$TMP/bad.dat" <<'EOF'
import struct, sys
src, off, how, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], \
	int(sys.argv[4]), sys.argv[5]
d = bytearray(open(src, 'rb').read())
n = struct.unpack_from('<I', d, off)[0]
pos, hdr = off + 4, []
for i in range(n):
	c, u = struct.unpack_from('<II', d, pos)
	hdr.append((pos, c, u))
	pos += 8 + c
at, c, u = hdr[k]
if how == 'data':
	d[at + 8 + c // 2] ^= 0xff
else:
	struct.pack_into('<I', d, at + 4, u - 1)
open(out, 'wb').write(d)
print('0x%x %d' % (at, n))
EOF
}

read -r at n < <(corrupt data 0)
check "CPU 0 of net-tcp.dat has more than one part's chunks ($n)" \
	test "${n:-0}" -gt 8

# broken HOW CHUNK WHAT: the strict conversion refuses it at that chunk;
# the default one skips that chunk (or its pages), says so and converts
broken() {
	local at n rc
	read -r at n < <(corrupt "$1" "$2")
	rm -f "$TMP/out.fxt"
	"$TRACE_FXT" convert --strict "$TMP/bad.dat" -o "$TMP/out.fxt" \
		2> "$TMP/err"
	rc=$?
	check "chunk $2 of $n, $3: refused at offset $at, no output ($(head -c 150 "$TMP/err"))" \
		refused "$rc" "offset $at: $4"
	"$TRACE_FXT" convert -q "$TMP/bad.dat" -o "$TMP/out.fxt" 2> "$TMP/err"
	rc=$?
	check "chunk $2 of $n, $3: salvaged, that chunk said ($(head -c 150 "$TMP/err"))" \
		salvaged "$rc" "CPU 0: [0-9]* bytes \(of the zstd chunk \)\?at offset $at"
}

# salvaged RC PATTERN: exit 0, the output there, damage said, each line
# of it matching (a chunk that inflates may have more than one bad page)
salvaged() {
	test "$1" = 0 -a -s "$TMP/out.fxt" &&
		grep -q "damaged CPU data skipped" "$TMP/err" &&
		! grep "damaged CPU data skipped" "$TMP/err" | grep -qv "$2"
}

# refused RC PATTERN: exit 1, no output, the message matches
refused() {
	test "$1" = 1 -a ! -e "$TMP/out.fxt" && grep -q "$2" "$TMP/err"
}

# a flipped byte: zstd's check, or the pages it let through, says so
bad="\(compressed data does not decompress\|a CPU data chunk, byte\)"
broken data 0 "the first part's first" "$bad"
broken data 7 "the first part's last" "$bad"
broken data 8 "a later part's first" "$bad"
broken data $((n - 1)) "the last" "$bad"
broken size 8 "a later part's first, its size" "chunk of [0-9]* bytes is not a whole number"
broken size $((n - 1)) "the last, its size" "chunk of [0-9]* bytes is not a whole number"

check "the whole file converts" \
	"$TRACE_FXT" convert -q "$SRC" -o "$TMP/ok.fxt"
e2e_exit
