#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# GUI smoke test: the real kernelshark, under Xvfb, with plugin-fxt.so on
# a sample .fxt.  Checks that the main window comes up titled with the
# file and that its table shows rows; keeps the screenshot
# (KSHARK_SHOT, default /tmp/kshark-gui-shot.png).  Then, as a user asks
# for task plots (kernelshark -p plugin-fxt.so --pid P,Q trace.fxt), a
# file of another producer's scheduling: the plugin's plot part, loaded
# with it, draws green and red boxes there (the screenshot beside the
# first, -tasks).  Skips with a "# skip:" line where no X server can run.
. "$(dirname "$0")/lib.sh"
e2e_plan 4

PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
SAMPLE_GEN=$BUILD/samples/fxt-ks-sample
SCHED_GEN=$BUILD/samples/fxt-sched-sample
SHOT=${KSHARK_SHOT:-/tmp/kshark-gui-shot.png}

for tool in xvfb-run kernelshark xdotool import convert; do
	if ! command -v "$tool" >/dev/null; then
		skip "$tool not installed, no GUI smoke test" 4
		e2e_exit
	fi
done
if [ ! -f "$PLUGIN" ] || [ ! -x "$SAMPLE_GEN" ] || [ ! -x "$SCHED_GEN" ]; then
	not_ok "plugin-fxt.so, fxt-ks-sample and fxt-sched-sample are built (run make)"
	e2e_exit
fi
"$SAMPLE_GEN" -n 200 "$TMP/sample.fxt"
"$SCHED_GEN" "$TMP/tasks.fxt"

# Runs inside the virtual X server: start kernelshark, wait for its
# window (settings of its own: no dialog to root), take the screenshot.
cat > "$TMP/session.sh" <<'EOF'
. "$TOP/tests/e2e/ks-window.bash"
ks_settings "$TMP/ks-settings"
kernelshark -p "$PLUGIN" "$TMP/sample.fxt" >"$TMP/ks.log" 2>&1 &
ks=$!
win=$(ks_window "$ks")
sleep 2
[ -n "$win" ] && xdotool getwindowname "$win" >"$TMP/title"
[ -n "$win" ] && xdotool getwindowgeometry --shell "$win" >"$TMP/geometry"
import -window root "$TMP/shot.png"
kill "$ks" 2>/dev/null
wait "$ks" 2>/dev/null
# task plots of two of its threads, from the command line; what each
# start did is kept in tasks.tries (a KernelShark that shows no window
# or is gone by the screenshot is started once more, and said)
for try in 1 2; do
	kernelshark -p "$PLUGIN" --pid 1002,1005 "$TMP/tasks.fxt" \
		>"$TMP/tasks.log" 2>&1 &
	ks=$!
	t0=$SECONDS
	shown=no
	if ks_window "$ks" >/dev/null; then
		shown="after $((SECONDS - t0)) s"
		sleep 3
		kill -0 "$ks" 2>/dev/null &&
			import -window root "$TMP/tasks.png"
	fi
	kill "$ks" 2>/dev/null
	wait "$ks" 2>/dev/null
	echo "start $try: window shown: $shown; exit $?;" \
		"log: $(tail -3 "$TMP/tasks.log" | tr '\n' ' ')" >>"$TMP/tasks.tries"
	[ -f "$TMP/tasks.png" ] && break
done
exit 0
EOF
export PLUGIN TMP TOP
if ! timeout 240 xvfb-run -a -s "-screen 0 1280x1024x24" \
		bash "$TMP/session.sh" 2>"$TMP/xvfb.err"; then
	if grep -qi "cannot\|error\|failed" "$TMP/xvfb.err"; then
		skip "no X server could run here: $(head -1 "$TMP/xvfb.err")" 3
		e2e_exit
	fi
fi

title=$(cat "$TMP/title" 2>/dev/null)
check "kernelshark window came up with the .fxt (title: $title)" \
	grep -q "sample.fxt" "$TMP/title"
check "kernelshark loaded the plugin without complaint" \
	bash -c "! grep -qi 'failed\|not found\|incomplete\|cannot' '$TMP/ks.log'"
[ -f "$TMP/shot.png" ] && cp "$TMP/shot.png" "$SHOT"

# The table's lines of text (ks-window.bash).
. "$TOP/tests/e2e/ks-window.bash"
rows=$(ks_table_rows "$TMP/shot.png" "$TMP/geometry")
check "the event table shows rows ($rows text lines, screenshot $SHOT)" \
	test "$rows" -ge 3

# boxes: pixels of exactly sched_events' green and red
pixels() {
	convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" \
		-format '%[fx:round(mean*w*h)]' info: 2>/dev/null || echo 0
}
g=0 r=0
if [ -f "$TMP/tasks.png" ]; then
	cp "$TMP/tasks.png" "${SHOT%.png}-tasks.png"
	g=$(pixels "$TMP/tasks.png" "rgb(0,255,0)")
	r=$(pixels "$TMP/tasks.png" "rgb(255,0,0)")
fi
sed 's/^/# kernelshark --pid: /' "$TMP/tasks.tries" 2>/dev/null
check "kernelshark -p plugin-fxt.so --pid 1002,1005 draws the boxes of another producer's scheduling ($g green, $r red pixels; ${SHOT%.png}-tasks.png)" \
	test "$g" -gt 0 -a "$r" -gt 0
e2e_exit
