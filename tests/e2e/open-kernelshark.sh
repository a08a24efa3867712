#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt open --kernelshark: the real KernelShark, under Xvfb, started
# on an FXT file with trace-fxt's plugin (the build tree's, as trace-fxt
# runs from it) - its window comes up titled with the file, the plugin
# loaded without complaint - and on a .dat without it, which KernelShark
# reads itself; a damaged .dat (bits flipped in a zstd chunk) is handed
# over as its conversion, with the plugin; a Perfetto trace as it is,
# with the plugin (which converts it to a trace.dat in a file without a
# name: nothing left behind).
. "$(dirname "$0")/lib.sh"
e2e_plan 13
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so

for tool in xvfb-run kernelshark xdotool; do
	if ! command -v "$tool" >/dev/null; then
		not_ok "$tool is installed (scripts/deps.sh)"
		e2e_exit
	fi
done
recordings atrace-markers.dat
$TRACE_FXT convert -q "$SAMPLES/atrace-markers.dat" -o "$TMP/markers.fxt"
cp "$SAMPLES/atrace-markers.dat" "$TMP/markers.dat"
python3 "$TOP/tests/e2e/dat-damage.py" make "$SAMPLES/sched-zstd.dat" \
	"$TMP/damaged.dat" chunk-flip 3
cp "$SAMPLES/perfetto/sched-syscalls.pftrace.gz" "$TMP/pf.pftrace.gz"
export TRACE_FXT_EVENT_FORMATS=$SAMPLES/perfetto/formats
mkdir -p "$TMP/tmpdir"

# Inside the virtual X server: trace-fxt open --kernelshark FILE, its
# window's title, then KernelShark closed.
cat > "$TMP/session.sh" <<'EOF'
. "$TOP/tests/e2e/ks-window.bash"
ks_settings "$TMP/ks-settings"
"$TRACE_FXT" open --kernelshark "$FILE" >"$TMP/ks.out" 2>"$TMP/ks.log" &
ks=$!
win=$(ks_window "$ks")
sleep 1
[ -n "$win" ] && xdotool getwindowname "$win" >"$TMP/title"
kill "$ks" 2>/dev/null
wait "$ks" 2>/dev/null
exit 0
EOF
export TRACE_FXT TMP TOP
for f in markers.fxt markers.dat damaged.dat pf.pftrace.gz; do
	rm -f "$TMP/title"
	FILE=$TMP/$f TMPDIR=$TMP/tmpdir timeout 90 xvfb-run -a -s "-screen 0 1280x1024x24" \
		bash "$TMP/session.sh" 2>"$TMP/xvfb.err"
	title=$(cat "$TMP/title" 2>/dev/null)
	# the conversion has no name: KernelShark shows its fd's
	shown=$f
	[ $f = damaged.dat ] && shown=/proc/self/fd/
	check "open --kernelshark $f: KernelShark's window shows it (title: $title)" \
		grep -q "$shown" "$TMP/title"
	case $f in
	*.fxt) want="-p $PLUGIN $TMP/$f" what="with the build tree's plugin" ;;
	*.pftrace.gz)
		want="-p $PLUGIN $TMP/$f"
		what="on the trace itself, with the build tree's plugin, which shows it as its trace.dat" ;;
	damaged.dat)
		want="-p $PLUGIN $(sed -n 's|^trace-fxt: kernelshark -p [^ ]* \(/proc/self/fd/[0-9]*\)$|\1|p' "$TMP/ks.log")"
		what="as its conversion, with the build tree's plugin" ;;
	*) want="$TMP/$f" what="as it is, KernelShark's own plugins reading it" ;;
	esac
	check "  started $what: $(head -1 "$TMP/ks.log")" \
		grep -qF -x "trace-fxt: kernelshark $want" "$TMP/ks.log"
	# KernelShark's kvm_combo fails on a trace.dat without kvm events'
	# formats: the Perfetto trace's as on `kernelshark` of its .dat
	ignore='damaged CPU data skipped' note=
	if [ $f = pf.pftrace.gz ]; then
		ignore+='\|plugin "kvm_combo" failed'
		note=" (but kvm_combo's, as on its .dat)"
	fi
	check "  which loaded without complaint$note" \
		bash -c "! grep -v '$ignore' '$TMP/ks.log' | grep -qi 'failed\|not found\|incomplete\|cannot'"
done

# (Qt puts its runtime folder in TMPDIR too)
check "  nothing of the Perfetto trace's conversion is left in TMPDIR" \
	test -z "$(find "$TMP/tmpdir" -maxdepth 1 -type f)"
e2e_exit
