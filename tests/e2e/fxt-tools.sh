#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt dump and check on files the writer made (samples/fxt-sample)
# and on damaged copies of them: clean files pass, each fault is named
# with the file and its offset, and dump delivers every record before it.
. "$(dirname "$0")/lib.sh"
e2e_plan 53
SAMPLE=$BUILD/samples/fxt-sample
le=$TMP/le.fxt be=$TMP/be.fxt

$SAMPLE "$le" && $SAMPLE "$be" --big-endian || { not_ok "fxt-sample ran"; e2e_exit; }
check "check accepts the little-endian sample" $TRACE_FXT check "$le"
check "check accepts the big-endian sample" $TRACE_FXT check "$be"
check "check reports big byte order for the big-endian sample" \
	grep -q "big byte order" <($TRACE_FXT check "$be")
$TRACE_FXT dump "$le" > $TMP/le.txt; $TRACE_FXT dump "$be" > $TMP/be.txt
check "dump of both byte orders is identical ($(wc -l < $TMP/le.txt) records)" \
	cmp -s $TMP/le.txt $TMP/be.txt
$TRACE_FXT dump --json "$le" > $TMP/le.json
check "dump --json: every line is a JSON object" \
	jq -e -s 'length > 0 and all(type == "object")' $TMP/le.json
check "dump --json: same record count as the text dump" \
	test "$(wc -l < $TMP/le.json)" = "$(wc -l < $TMP/le.txt)"
kinds=$(jq -r 'if .record == "event" then "event:" + .event elif .kind then .record + ":" + .kind else .record end' $TMP/le.json | sort -u | tr '\n' ' ')
for k in metadata:magic metadata:provider_info metadata:provider_section \
	 metadata:provider_event initialization string thread event:instant \
	 event:counter event:duration_begin event:duration_end \
	 event:duration_complete event:async_begin event:async_instant \
	 event:async_end event:flow_begin event:flow_step event:flow_end \
	 blob userspace_object kernel_object scheduling:legacy_context_switch \
	 scheduling:context_switch scheduling:thread_wakeup log \
	 large:large_blob; do
	case " $kinds " in
	*" $k "*) ok "sample has and dump decodes a $k record" ;;
	*) not_ok "sample has and dump decodes a $k record (saw: $kinds)" ;;
	esac
done
for t in null int32 uint32 int64 uint64 double string pointer koid bool; do
	check "dump --json decodes a $t argument" \
		jq -e -s "[.[].args // [] | .[] | select(.type == \"$t\")] | length > 0" $TMP/le.json
done

# A damaged file: set a reserved bit in the header of the 5th record.
off=$(jq -s '.[4].offset' $TMP/le.json)
cp "$le" $TMP/bad.fxt
printf '\x10' | dd of=$TMP/bad.fxt bs=1 seek=$((off + 7)) conv=notrunc status=none
out=$($TRACE_FXT check $TMP/bad.fxt 2>&1); rc=$?; out=${out%%$'\n'*}
check "check rejects a reserved bit set (exit $rc)" test $rc -ne 0
check "the message names the file and offset ($out)" \
	grep -q "bad.fxt: offset $(printf '0x%x' $off): .*reserved" <<<"$out"
check "dump tolerates the reserved bit (lenient)" $TRACE_FXT dump $TMP/bad.fxt

# Truncated in the middle of the 10th record: records 1-9 still come out.
off=$(jq -s '.[9].offset' $TMP/le.json)
head -c $((off + 12)) "$le" > $TMP/cut.fxt
out=$($TRACE_FXT dump $TMP/cut.fxt 2>$TMP/err); rc=$?
check "dump of a truncated file exits non-zero (exit $rc)" test $rc -ne 0
check "dump delivered the 9 records before the cut" \
	test "$(wc -l <<<"$out")" = 9
check "the error names the file and the cut record's offset ($(cat $TMP/err))" \
	grep -q "cut.fxt: offset $(printf '0x%x' $off): truncated" $TMP/err
check "check of the truncated file fails" \
	bash -c "! $TRACE_FXT check $TMP/cut.fxt 2>/dev/null"

# A trace.dat (checked as one: convert-salvage.sh), not FXT at all, and
# no file.
recordings sched.dat
out=$($TRACE_FXT check "$BUILT_SAMPLES/sched.dat" 2>&1); rc=$?; out=${out%%$'\n'*}
check "check of a trace.dat checks it as one: $out" \
	bash -c "[ $rc -eq 0 ] && grep -q ': ok (trace.dat)' <<<'$out'"
printf 'neither FXT nor a trace.dat\n' > "$TMP/text.fxt"
out=$($TRACE_FXT check "$TMP/text.fxt" 2>&1); rc=$?; out=${out%%$'\n'*}
check "check refuses what is neither FXT nor a trace.dat: $out" \
	bash -c "[ $rc -ne 0 ] && grep -q 'not an FXT file' <<<'$out'"
out=$($TRACE_FXT check $TMP/missing.fxt 2>&1); rc=$?
check "check of a missing file says so: $out" \
	bash -c "[ $rc -ne 0 ] && grep -q 'No such file' <<<'$out'"
out=$($TRACE_FXT frobnicate 2>&1); rc=$?
check "an unknown command is a usage error (exit $rc)" test $rc -eq 2
e2e_exit
