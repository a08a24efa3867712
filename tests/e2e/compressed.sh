#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# FXT inside gzip and zstd: `convert -o X.fxt.gz|.zst` (or --compression)
# writes a stream the real gzip(1) and zstd(1) decompress: the .gz to
# exactly the plain conversion, the .zst to the same records with the
# Perfetto packets not deflated, which the outer zstd compresses better;
# every reader (check, dump, report, convert back to .dat) takes a
# compressed file as the plain one, by content, not name, Perfetto
# packets included; damaged compressed input fails with a message, not
# a crash.
. "$(dirname "$0")/lib.sh"
e2e_plan 26

# The records of a dump, in order of their text, without those that
# only frame them (blobs, magic numbers, string and thread tables,
# provider sections), which a file's layout decides.
records() {
	"$TRACE_FXT" dump "$1" | cut -d' ' -f2- |
		grep -Ev '^(string|thread|blob|metadata (magic|provider_section))' |
		sort
}
export -f records
export TRACE_FXT

in=$SAMPLES/two-buffers.dat
"$TRACE_FXT" convert -q --instants "$in" -o "$TMP/plain.fxt" ||
	not_ok "convert $in to plain FXT"

for kind in gz zst; do
	out=$TMP/t.fxt.$kind
	check "convert -o *.fxt.$kind succeeds" \
		"$TRACE_FXT" convert -q --instants "$in" -o "$out"
	if [ $kind = gz ]; then
		check "gzip -t accepts the .gz" gzip -t "$out"
		check "gunzip of the .gz is the plain conversion, byte for byte" \
			bash -c "gzip -dc '$out' | cmp - '$TMP/plain.fxt'"
		# Perfetto's gzip reader stops at the end of the first member
		check "the .gz is one gzip member: nothing follows its end" \
			python3 -c "import sys, zlib
d = zlib.decompressobj(31)
d.decompress(open(sys.argv[1], 'rb').read())
sys.exit(0 if d.eof and not d.unused_data else 1)" "$out"
	else
		zstd -q -dc "$out" > "$TMP/unzstd.fxt"
		check "zstd -dc of the .zst is FXT whose packets are not deflated: check clean, 0 compressed packets (the plain file: 1 or more)" \
			bash -c "'$TRACE_FXT' check '$TMP/unzstd.fxt' | grep -q '; 0 compressed packets)' &&
				 '$TRACE_FXT' check '$TMP/plain.fxt' | grep -q '; [1-9][0-9]* compressed packets)'"
		sc=$SAMPLES/syscalls.dat
		"$TRACE_FXT" convert -q "$sc" -o "$TMP/sc.fxt"
		"$TRACE_FXT" convert -q "$sc" -o "$TMP/sc.fxt.zst"
		zp=$(zstd -3 -q -c "$TMP/sc.fxt" | wc -c)
		zs=$(stat -c %s "$TMP/sc.fxt.zst" 2>/dev/null || echo 0)
		check "$(basename "$sc")'s .zst ($zs bytes) is at most 0.95x its plain .fxt zstd'd by zstd -3 ($zp bytes)" \
			test $((zs * 100)) -le $((zp * 95))
		check "the .zst holds the plain file's records, every one" \
			bash -c "cmp <(records '$out') <(records '$TMP/plain.fxt')"
	fi
	# a name that says nothing: recognised by content
	cp "$out" "$TMP/noname.$kind.bin"
	check "check reads a .$kind without its suffix" \
		"$TRACE_FXT" check "$TMP/noname.$kind.bin"
	# the packets as Perfetto reads them, compressed or not
	pk=$("$TRACE_FXT" check "$TMP/plain.fxt" | sed -n 's/.*; \(perfetto packets [^;]*\);.*/\1/p')
	check "the .$kind carries the Perfetto packets: $pk, as the plain file" \
		bash -c '[ -n "$3" ] && "$1" check "$2" | grep -qF "$3;"' _ \
		"$TRACE_FXT" "$out" "$pk"
	if [ $kind = gz ]; then
		check "dump of the .gz equals dump of the plain file" \
			bash -c "cmp <('$TRACE_FXT' dump '$out') <('$TRACE_FXT' dump '$TMP/plain.fxt')"
	fi
	check "report of the .$kind equals report of the plain file" \
		bash -c "cmp <('$TRACE_FXT' report '$out') <('$TRACE_FXT' report '$TMP/plain.fxt')"
	check "convert of the .$kind back to .dat: trace-cmd report -R equals the source's" \
		bash -c "'$TRACE_FXT' convert -q '$out' -o '$TMP/back-$kind.dat' &&
			 cmp <(trace-cmd report -R '$TMP/back-$kind.dat' 2>/dev/null) \
			     <(trace-cmd report -R '$in' 2>/dev/null)"
done

# KernelShark: libkshark's view of the compressed .fxt, every column of
# every entry, is the .dat's (test-kshark-dat compares them)
for kind in gz zst; do
	check "KernelShark shows $in's .fxt.$kind as its .dat, every column" \
		bash -c "KSHARK_FXT_SUFFIX=.fxt.$kind '$BUILD/tests/unit/test-kshark-dat' '$in' |
			 grep -E '^# two-buffers.dat: differences in time/cpu/pid 0, event 0, task 0, latency 0, info 0 \(of [1-9][0-9]* entries compared\); drawn pid 0 \(0 after drawing\), task plots. boxes 0$'"
done

# larger than what the decompressor takes with the first bytes read
# (fxt-zio.h, FXT_ZIN_HEAD_MAX): read on, not refused
big=$SAMPLES/sched-zstd.dat
"$TRACE_FXT" convert -q --instants "$big" -o "$TMP/big.fxt"
"$TRACE_FXT" convert -q --instants "$big" -o "$TMP/big.fxt.gz"
check "a .fxt.gz of $(stat -c %s "$TMP/big.fxt.gz" 2>/dev/null) bytes (over 256 KiB) reports as its plain file" \
	bash -c "[ \$(stat -c %s '$TMP/big.fxt.gz') -gt 262144 ] &&
		 cmp <('$TRACE_FXT' report '$TMP/big.fxt.gz') \
		     <('$TRACE_FXT' report '$TMP/big.fxt')"

check "--compression gzip writes gzip whatever the name" \
	bash -c "'$TRACE_FXT' convert -q --compression gzip '$in' -o '$TMP/x.fxt' &&
		 gzip -t '$TMP/x.fxt'"
check "--compression none writes plain FXT to a .gz name" \
	bash -c "'$TRACE_FXT' convert -q --instants --compression none '$in' -o '$TMP/y.fxt.gz' &&
		 cmp '$TMP/y.fxt.gz' '$TMP/plain.fxt'"
check "a gzip'd FXT read from a pipe (dump /dev/stdin)" \
	bash -c "gzip -dc '$TMP/t.fxt.gz' | gzip -1 | '$TRACE_FXT' dump /dev/stdin |
		 cmp - <('$TRACE_FXT' dump '$TMP/plain.fxt')"

# damage: a cut stream and flipped bytes are errors with a reason
head -c 20000 "$TMP/t.fxt.gz" > "$TMP/cut.fxt.gz"
"$TRACE_FXT" check "$TMP/cut.fxt.gz" > "$TMP/cut.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "gzip stream truncated" "$TMP/cut.out"; then
	ok "a truncated .gz fails: $(head -1 "$TMP/cut.out")"
else
	not_ok "a truncated .gz fails with a reason (exit $rc: $(head -2 "$TMP/cut.out"))"
fi
cp "$TMP/t.fxt.zst" "$TMP/bad.fxt.zst"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' |
	dd of="$TMP/bad.fxt.zst" bs=1 seek=2000 conv=notrunc 2>/dev/null
"$TRACE_FXT" report "$TMP/bad.fxt.zst" > /dev/null 2> "$TMP/bad.out"
rc=$?
if [ $rc -ne 0 ] && grep -q "offset 0x" "$TMP/bad.out"; then
	ok "a corrupt .zst fails: $(head -1 "$TMP/bad.out")"
else
	not_ok "a corrupt .zst fails with a reason (exit $rc: $(head -2 "$TMP/bad.out"))"
fi
printf '\x1f\x8b' > "$TMP/tiny.gz"
check "a 2-byte gzip header alone is an error, not a crash" \
	bash -c "! '$TRACE_FXT' check '$TMP/tiny.gz'"
e2e_exit
