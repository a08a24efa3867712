#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt open --kernelshark: the real KernelShark, under Xvfb, started
# on an FXT file with trace-fxt's plugin (the build tree's, as trace-fxt
# runs from it) - its window comes up titled with the file, the plugin
# loaded without complaint - and on a .dat without it, which KernelShark
# reads itself; a damaged .dat (bits flipped in a zstd chunk) is handed
# over as its conversion, with the plugin; a Perfetto trace, converted to
# a .dat first.
. "$(dirname "$0")/lib.sh"
e2e_plan 12
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
for f in markers.fxt markers.dat damaged.dat; do
	rm -f "$TMP/title"
	FILE=$TMP/$f timeout 90 xvfb-run -a -s "-screen 0 1280x1024x24" \
		bash "$TMP/session.sh" 2>"$TMP/xvfb.err"
	title=$(cat "$TMP/title" 2>/dev/null)
	# the conversion has no name: KernelShark shows its fd's
	shown=$f
	[ $f = damaged.dat ] && shown=/proc/self/fd/
	check "open --kernelshark $f: KernelShark's window shows it (title: $title)" \
		grep -q "$shown" "$TMP/title"
	case $f in
	*.fxt) want="-p $PLUGIN $TMP/$f" what="with the build tree's plugin" ;;
	damaged.dat)
		want="-p $PLUGIN $(sed -n 's|^trace-fxt: kernelshark -p [^ ]* \(/proc/self/fd/[0-9]*\)$|\1|p' "$TMP/ks.log")"
		what="as its conversion, with the build tree's plugin" ;;
	*) want="$TMP/$f" what="as it is, KernelShark's own plugins reading it" ;;
	esac
	check "  started $what: $(head -1 "$TMP/ks.log")" \
		grep -qF -x "trace-fxt: kernelshark $want" "$TMP/ks.log"
	check "  which loaded without complaint" \
		bash -c "! grep -v 'damaged CPU data skipped' '$TMP/ks.log' | grep -qi 'failed\|not found\|incomplete\|cannot'"
done

# A Perfetto trace: KernelShark on the trace.dat convert makes of it,
# named after it in a folder of trace-fxt's, which waits for KernelShark
# (its child: the window is found by the child's pid) and removes the
# folder once KernelShark ends (here by the SIGTERM trace-fxt forwards).
cat > "$TMP/session-pft.sh" <<'EOF'
. "$TOP/tests/e2e/ks-window.bash"
ks_settings "$TMP/ks-settings"
"$TRACE_FXT" open --kernelshark "$FILE" >"$TMP/ks.out" 2>"$TMP/ks.log" &
ks=$!
for i in $(seq 60); do
	child=$(pgrep -P "$ks" kernelshark) && break
	sleep 0.5
done
win=$(ks_window "$child")
sleep 1
[ -n "$win" ] && xdotool getwindowname "$win" >"$TMP/title"
kill "$ks" 2>/dev/null
wait "$ks" 2>/dev/null
exit 0
EOF
cp "$SAMPLES/perfetto/sched-syscalls.pftrace.gz" "$TMP/pf.pftrace.gz"
rm -f "$TMP/title"
export TRACE_FXT_EVENT_FORMATS=$SAMPLES/perfetto/formats
mkdir -p "$TMP/tmpdir"
FILE=$TMP/pf.pftrace.gz TMPDIR=$TMP/tmpdir timeout 90 xvfb-run -a \
	-s "-screen 0 1280x1024x24" bash "$TMP/session-pft.sh" 2>"$TMP/xvfb.err"
title=$(cat "$TMP/title" 2>/dev/null)
check "open --kernelshark pf.pftrace.gz: KernelShark's window shows its trace.dat (title: $title)" \
	grep -q "pf.pftrace.gz.dat" "$TMP/title"
check "  started on the converted file: $(grep kernelshark "$TMP/ks.log" | head -1)" \
	grep -qE "^trace-fxt: kernelshark $TMP/tmpdir/trace-fxt-[^/]*/pf.pftrace.gz.dat\$" \
	"$TMP/ks.log"
# (Qt puts its runtime folder there too)
check "  and the converted file is gone once KernelShark ended" \
	test -z "$(ls -d "$TMP"/tmpdir/trace-fxt-* 2>/dev/null)"
e2e_exit
