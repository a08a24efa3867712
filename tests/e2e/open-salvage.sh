#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt open --kernelshark on a damaged .dat (bits flipped in a zstd
# chunk; a file cut short in its CPU data) hands KernelShark the .dat's
# conversion, as convert salvages it, with trace-fxt's plugin, and says
# so; an undamaged .dat is handed over as it is, as before.  No display:
# a stand-in kernelshark first on PATH (trace-fxt execs it in its own
# process) keeps its arguments and a copy of the file it was given, which
# must report the same as `trace-fxt report` of convert's output, under
# valgrind (the check and the conversion in open's process).
. "$(dirname "$0")/lib.sh"
e2e_plan 10
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
DAMAGE=$TOP/tests/e2e/dat-damage.py
command -v valgrind > /dev/null || {
	not_ok "no valgrind (scripts/deps.sh installs it)"; e2e_exit; }
recordings sched-zstd.dat sched-v6.dat

mkdir -p "$TMP/bin"
cat > "$TMP/bin/kernelshark" <<'EOF'
#!/bin/bash
printf '%s\n' "$*" > "$KS_OUT.args"
cp "${@: -1}" "$KS_OUT.file"
EOF
chmod +x "$TMP/bin/kernelshark"

python3 "$DAMAGE" make "${RECS[0]}" "$TMP/flip.dat" chunk-flip 3
python3 "$DAMAGE" make "${RECS[1]}" "$TMP/cut.dat" cut 5
for f in flip cut; do
	dat=$TMP/$f.dat
	rm -f "$TMP/ks.args" "$TMP/ks.file"
	KS_OUT=$TMP/ks PATH=$TMP/bin:$PATH valgrind -q --error-exitcode=99 \
		--trace-children=no "$TRACE_FXT" open --kernelshark "$dat" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	args=$(cat "$TMP/ks.args" 2>/dev/null)
	check "open --kernelshark $f.dat (damaged): exit $rc, KernelShark given its conversion with the plugin ($args)" \
		test $rc -eq 0 -a -n "$(echo "$args" |
			grep -x -- "-p $PLUGIN /proc/self/fd/[0-9]*")"
	check "  it says so: $(grep "is damaged" "$TMP/err" | cut -c1-120)" \
		grep -q "$f.dat is damaged ([0-9]* stretch.* KernelShark opens its conversion" "$TMP/err"
	check "  and the damage, as convert says it" \
		grep -q "$f.dat: damaged CPU data skipped: " "$TMP/err"
	$TRACE_FXT convert -q "$dat" -o "$TMP/$f.fxt" 2> /dev/null
	$TRACE_FXT report "$TMP/$f.fxt" > "$TMP/$f.want" 2> /dev/null
	$TRACE_FXT report "$TMP/ks.file" > "$TMP/$f.got" 2> /dev/null
	same "  the file KernelShark got reports as convert's output does" \
		"$TMP/$f.want" "$TMP/$f.got"
done

# undamaged: as before, the .dat itself, nothing said of damage
rm -f "$TMP/ks.args" "$TMP/ks.file"
KS_OUT=$TMP/ks PATH=$TMP/bin:$PATH "$TRACE_FXT" open --kernelshark \
	"${RECS[0]}" > "$TMP/out" 2> "$TMP/err"
rc=$?
check "open --kernelshark sched-zstd.dat (undamaged): exit $rc, the .dat as it is ($(cat "$TMP/ks.args" 2>/dev/null)), no damage said" \
	test $rc -eq 0 -a "$(cat "$TMP/ks.args" 2>/dev/null)" = "${RECS[0]}" \
	-a -z "$(grep -i damage "$TMP/err")"
check "  the same bytes" cmp "${RECS[0]}" "$TMP/ks.file"
e2e_exit
