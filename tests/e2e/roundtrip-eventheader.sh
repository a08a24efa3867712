#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# .dat -> FXT -> .dat of user_events that follow EventHeader (the fixture
# samples/eventheader-dat writes from each set of vectors of
# eventheader-sets.bash - the project's own events, LinuxTracepoints' 374
# test vectors when present - top buffer and with a third of them in an
# instance).  Their records run
# past their formats' six fields (the EventHeader payload); the converter
# carries those bytes as the instant's "__trailing.bytes" argument and
# fxt2dat appends them, so that:
#  - every record of BACK.dat has the original's CPU, time, length and
#    bytes (a digest through libtracecmd);
#  - trace-cmd report -R of BACK.dat equals that of the fixture;
#  - with plugin_eventheader.so, trace-cmd report of BACK.dat equals that
#    of the fixture, and decodes every vector as the set's reference does;
#  - with the plugin, trace-fxt report of the FXT equals trace-cmd
#    report of the fixture, and report --raw still equals -R (the
#    trailing bytes are no field: -R does not print them).
. "$(dirname "$0")/lib.sh"
e2e_plan 20
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
mkdir -p "$TMP/home"
export HOME=$TMP/home
unset TRACEEVENT_PLUGIN_DIR
. "$(dirname "$0")/eventheader-sets.bash"
GEN=$BUILD/samples/eventheader-dat
FORMATS=$TOP/samples/eventheader-formats
COMPARE=$TOP/tests/e2e/compare-report.py
EHCOMPARE=$TOP/tests/e2e/eventheader-compare.py
PLUG=TRACEEVENT_PLUGIN_DIR=$BUILD/plugins

for f in "$GEN" "$TRACE_FXT" "$TC_PLUGIN" \
	 "$BUILD/plugins/plugin_eventheader.so"; do
	[ -x "$f" ] || [ -f "$f" ] || { not_ok "$f is not built"; e2e_exit; }
done

# Each record's CPU, time, size and FNV-1a of its bytes, in file order.
digest=
cat > "$TMP/record-digest.c" <<'EOF'
#include <stdio.h>
#include <trace-cmd.h>

static int one(struct tracecmd_input *h, struct tep_record *r, int cpu,
	       void *data)
{
	unsigned long long f = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < r->size; i++)
		f = (f ^ ((unsigned char *)r->data)[i]) * 0x100000001b3ULL;
	printf("%d %llu %d %016llx\n", cpu, r->ts, r->size, f);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h = argc == 2 ? tracecmd_open(argv[1], 0) : NULL;

	if (!h)
		return 1;
	tracecmd_iterate_events(h, NULL, 0, one, NULL);
	tracecmd_close(h);
	return 0;
}
EOF
# the project builds against libtracecmd: a digest that does not build
# is a failure, not a check left out
if ${CC:-cc} -o "$TMP/record-digest" "$TMP/record-digest.c" \
	$(pkg-config --cflags --libs libtracecmd) 2> "$TMP/digest.err"; then
	digest=$TMP/record-digest
else
	sed 's/^/#   /' "$TMP/digest.err" | head -5
	not_ok "the record digest builds against libtracecmd"
fi

# run_set LABEL VECTORS: every check on one set of vectors.
run_set() {
	local l=$1 VEC=$2 REF=$2.linux.json n v b
	n=$(eh_count "$VEC")
	for v in eh:"" eh-instance:-b; do
		b=$l.${v%%:*}
		if ! "$GEN" ${v#*:} "$VEC" "$FORMATS" "$TMP/$b.dat" > /dev/null ||
		   ! "$TRACE_FXT" convert -q --instants "$TMP/$b.dat" -o "$TMP/$b.fxt" ||
		   ! "$TRACE_FXT" convert -q "$TMP/$b.fxt" -o "$TMP/$b.back.dat"; then
			not_ok "$b: fixture made, converted to FXT and back"
			continue
		fi
		ok "$b: fixture made, converted to FXT and back"
		check "$b: trace-fxt check is clean" "$TRACE_FXT" check "$TMP/$b.fxt"
		check "$b: user_events instants carry their trailing bytes" \
			sh -c "'$TRACE_FXT' dump --json '$TMP/$b.fxt' |
			       grep -q '\"__trailing.bytes\"'"
		if [ -n "$digest" ]; then
			"$digest" "$TMP/$b.dat" > "$TMP/$b.dig"
			"$digest" "$TMP/$b.back.dat" > "$TMP/$b.back.dig"
			same "$b: every record comes back with its length and bytes" \
				"$TMP/$b.dig" "$TMP/$b.back.dig"
		fi

		trace-cmd report -R "$TMP/$b.dat" > "$TMP/$b.R" 2>/dev/null
		trace-cmd report -R "$TMP/$b.back.dat" > "$TMP/$b.back.R" \
			2> "$TMP/$b.back.err"
		check "$b: trace-cmd reads the round trip without complaint" \
			test ! -s "$TMP/$b.back.err"
		same "$b: report -R of the round trip equals the fixture's" \
			"$TMP/$b.R" "$TMP/$b.back.R"
		"$TRACE_FXT" report --raw "$TMP/$b.fxt" > "$TMP/$b.raw"
		check "$b: trace-fxt report --raw equals trace-cmd report -R" \
			python3 "$COMPARE" "$TMP/$b.R" "$TMP/$b.raw"

		env "$PLUG" trace-cmd report "$TMP/$b.dat" > "$TMP/$b.p" 2>/dev/null
		env "$PLUG" trace-cmd report "$TMP/$b.back.dat" > "$TMP/$b.back.p" \
			2>/dev/null
		same "$b: with plugin_eventheader.so, report of the round trip equals the fixture's" \
			"$TMP/$b.p" "$TMP/$b.back.p"
		check "$b: with the plugin, the round trip decodes all $n vectors as the reference" \
			python3 "$EHCOMPARE" vectors "$VEC" "$REF" "$TMP/$b.back.p"
		env "$PLUG" "$TRACE_FXT" report "$TMP/$b.fxt" > "$TMP/$b.fxt.p" \
			2>/dev/null
		same "$b: with the plugin, trace-fxt report equals trace-cmd report" \
			"$TMP/$b.p" "$TMP/$b.fxt.p"
	done
}

eh_sets
for set in "${EH_SETS[@]}"; do
	run_set "${set%%:*}" "${set#*:}"
done
e2e_exit
