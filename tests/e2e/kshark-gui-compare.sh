#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The real kernelshark, under Xvfb, opens each project sample (.dat) and
# the .fxt trace-fxt converts from it, with plugin-fxt.so: the two windows
# (graph with its CPU plots, table with its first rows, missed-events
# marks) must be the same picture, pixel for pixel.  KernelShark loads its
# own default plugins for the .dat, as a user sees it.  two-buffers has
# two ftrace buffers: both windows show a stream per buffer.
#
# Then task plots, opened by a session file (-s): the busiest tasks of
# the sched recording (its whole length and a narrow window of it) and of
# the threads recording, where KernelShark's sched_events draws its green
# (wakeup to switch in) and red (preempted to switch back in) boxes on the
# .dat and plugin-fxt.so's plot part on the .fxt: the same pixels again.
# A double click on a red box marks its two entries in both windows alike.
# Last, another producer's scheduling (samples/fxt-sched-sample, FXT
# context switches and wakeups alone) against the .dat trace-fxt makes of
# it: the boxes, pixel for pixel (the rest of the picture differs where
# the two files' events do: their names).
#
# Screenshots stay in KSHARK_SHOTS (default: a new
# /tmp/kshark-gui-compare.XXXXXX, said on the first line).
. "$(dirname "$0")/lib.sh"

PLUGIN=$BUILD/kernelshark-plugin/plugin-fxt.so
# a directory of its own: runs at the same time do not share screenshots
SHOTS=${KSHARK_SHOTS:-$(mktemp -d /tmp/kshark-gui-compare.XXXXXX)}
NAMES="atrace-markers lost-events net-events two-buffers"
SESSION=$TOP/tests/e2e/kshark-session.py
SCHED_GEN=$BUILD/samples/fxt-sched-sample
e2e_plan 9

for tool in xvfb-run kernelshark xdotool import convert compare identify \
	    python3; do
	if ! command -v "$tool" >/dev/null; then
		skip "$tool not installed, no GUI comparison" 9
		e2e_exit
	fi
done
mkdir -p "$SHOTS"
echo "# screenshots in $SHOTS"
for n in $NAMES; do
	cp "$SAMPLES/$n.dat" "$TMP/$n.dat"
	"$TRACE_FXT" convert -q "$TMP/$n.dat" -o "$TMP/$n.fxt" ||
		not_ok "trace-fxt converts $n.dat"
done

# Runs inside the virtual X server: one kernelshark at a time, its window
# waited for (its settings of its own: no dialog to root), then the screen;
# with CLICK set, a double click on the first red box of the window (its
# top left corner, 3 pixels in: the place is kept in $TMP/click for the
# next window), then the screen again.
cat > "$TMP/run.sh" <<'SESSION'
. "$TOP/tests/e2e/ks-window.bash"
ks_settings "$TMP/ks-settings"
run() { # PNG ARGS...: kernelshark with ARGS, shot
	local png=$1 ks x y
	shift
	kernelshark "$@" >"$png.log" 2>&1 &
	ks=$!
	ks_window "$ks" >/dev/null
	sleep 5
	import -window root "$png"
	if [ -n "${CLICK:-}" ]; then
		if [ ! -s "$TMP/click" ]; then
			convert "$png" -fill black +opaque "rgb(255,0,0)" \
				-fill white -opaque "rgb(255,0,0)" txt:- |
				awk -F'[,:]' '/#FFFFFF/ { print $1 + 3, $2 + 3; exit }' \
				>"$TMP/click"
		fi
		if [ -s "$TMP/click" ]; then
			read -r x y <"$TMP/click"
			xdotool mousemove "$x" "$y" click --repeat 2 --delay 100 1
			sleep 3
			import -window root "${png%.png}-click.png"
		fi
	fi
	kill "$ks" 2>/dev/null
	wait "$ks" 2>/dev/null
}
SESSION
cat > "$TMP/session.sh" <<'SESSION'
. "$TMP/run.sh"
for n in $LIST; do
	run "$SHOTS/$n-dat.png" -p "$PLUGIN" "$TMP/$n.dat"
	run "$SHOTS/$n-fxt.png" -p "$PLUGIN" "$TMP/$n.fxt"
done
exit 0
SESSION
colours() { # PNG: how many colours it has (a window, or a blank screen)
	identify -format %k "$1" 2>/dev/null || echo 0
}
drawn() { # NAME: both windows of NAME were shot
	[ "$(colours "$SHOTS/$1-dat.png")" -ge 16 ] &&
		[ "$(colours "$SHOTS/$1-fxt.png")" -ge 16 ]
}
# NAME: both shot and the same picture (a window shot half-painted on a
# loaded machine differs: it is shot again, and a real difference stays)
settled() {
	drawn "$1" && [ "$(compare -metric AE "$SHOTS/$1-dat.png" \
		"$SHOTS/$1-fxt.png" null: 2>&1)" = 0 ]
}
# The X server is shared with whatever else runs xvfb-run at the same
# time: a display lost under a window, or a window shot before it was
# painted, is a retry; three tries that differ are a difference.
# shoot SCRIPT SETTLED ITEMS...: SCRIPT in a virtual X server for the
# items ($LIST) not yet SETTLED, three times at the most
shoot() {
	local script=$1 settled=$2 todo left i attempt

	shift 2
	todo=$*
	for attempt in 1 2 3; do
		[ -n "$todo" ] || break
		LIST=$todo timeout 400 xvfb-run -a \
			-s "-screen 0 1400x1000x24" bash "$script" \
			2>"$TMP/xvfb.err"
		left=
		for i in $todo; do
			"$settled" "$i" || left="$left $i"
		done
		todo=$left
	done
}
export PLUGIN TMP SHOTS TOP
rm -f "$SHOTS"/*.png
shoot "$TMP/session.sh" settled $NAMES

for n in $NAMES; do
	if [ ! -s "$SHOTS/$n-dat.png" ] || [ ! -s "$SHOTS/$n-fxt.png" ]; then
		not_ok "$n: screenshots of both windows ($(head -1 "$TMP/xvfb.err"))"
		continue
	fi
	px=$(compare -metric AE "$SHOTS/$n-dat.png" "$SHOTS/$n-fxt.png" \
		"$SHOTS/$n-diff.png" 2>&1)
	# two failed starts would match too: a drawn window has colours
	c=$(colours "$SHOTS/$n-fxt.png")
	check "$n: KernelShark's window of the .fxt ($c colours) is the .dat's ($px pixels differ)" \
		test "$px" = 0 -a "$c" -ge 16
done

# ---- task plots, opened by a session ---------------------------------

GREEN="rgb(0,255,0)" RED="rgb(255,0,0)"
# busy_pids DAT N: the N tasks switched in most often, by trace-cmd
busy_pids() {
	trace-cmd report -i "$1" 2>/dev/null |
		sed -n 's/.* sched_switch: .* ==> .*:\([0-9]*\) \[[0-9]*\]$/\1/p' |
		grep -v '^0$' | sort | uniq -c | sort -k1,1nr -k2,2n |
		head -"$2" | awk '{ print $2 }' | paste -sd, -
}
# span DAT FROM TO: the part FROM..TO (per mille) of its time, in ns
span() {
	trace-cmd report -i "$1" 2>/dev/null | awk -v a="$2" -v b="$3" '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break }
		i <= NF { t = $i + 0; if (!n++) lo = t; hi = t }
		END { d = hi - lo; printf "%.0f,%.0f\n",
		      (lo + d * a / 1000) * 1e9, (lo + d * b / 1000) * 1e9 }'
}
# mask PNG COLOUR OUT: the pixels of exactly COLOUR white, the rest black
mask() {
	convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" "$3"
}
# pixels PNG COLOUR: how many pixels are exactly COLOUR
pixels() {
	convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" \
		-format '%[fx:round(mean*w*h)]' info: 2>/dev/null || echo 0
}

cp "$BUILT_SAMPLES/sched.dat" "$SAMPLES/threads.dat" "$TMP/"
for n in sched threads; do
	"$TRACE_FXT" convert -q "$TMP/$n.dat" -o "$TMP/$n.fxt" ||
		not_ok "trace-fxt converts $n.dat"
done
# another producer: FXT written as Fuchsia writes scheduling, and the .dat
"$SCHED_GEN" "$TMP/other.fxt" && "$TRACE_FXT" convert -q "$TMP/other.fxt" \
	-o "$TMP/other.dat" || not_ok "fxt-sched-sample's file and its .dat"
# JOB TRACE PIDS [RANGE]: a session for the .dat and one for the .fxt
PLOTS="sched sched-zoom threads other"
job() {
	local r=${4:+--range $4}

	python3 "$SESSION" "$TMP/$1-dat.json" "$TMP/$2.dat" --pids "$3" $r &&
	python3 "$SESSION" "$TMP/$1-fxt.json" "$TMP/$2.fxt" --pids "$3" $r \
		--plugin "$PLUGIN"
}
job sched sched "$(busy_pids "$TMP/sched.dat" 4)"
job sched-zoom sched "$(busy_pids "$TMP/sched.dat" 4)" \
	"$(span "$TMP/sched.dat" 450 500)"
job threads threads "$(busy_pids "$TMP/threads.dat" 4)"
job other other "$(busy_pids "$TMP/other.dat" 4)"
echo "# task plots: sched $(busy_pids "$TMP/sched.dat" 4), threads $(busy_pids "$TMP/threads.dat" 4), other $(busy_pids "$TMP/other.dat" 4); zoom $(span "$TMP/sched.dat" 450 500) ns"

# Inside the virtual X server: each session in turn; the sched plots
# double clicked.
cat > "$TMP/plots.sh" <<'SESSION'
. "$TMP/run.sh"
for j in $LIST; do
	click=
	[ "$j" = sched ] && { click=1; rm -f "$TMP/click"; }
	CLICK=$click run "$SHOTS/$j-dat.png" -s "$TMP/$j-dat.json"
	CLICK=$click run "$SHOTS/$j-fxt.png" -p "$PLUGIN" -s "$TMP/$j-fxt.json"
done
exit 0
SESSION
# JOB: both windows shot and, but for another producer's, the same
plots_settled() {
	local w

	drawn "$1" || return 1
	if [ "$1" = other ]; then
		# the boxes drawn in both (a window shot before its task plots
		# were painted on a loaded machine has none: shot again)
		for w in dat fxt; do
			[ "$(pixels "$SHOTS/other-$w.png" "$GREEN")" -gt 0 ] &&
				[ "$(pixels "$SHOTS/other-$w.png" "$RED")" -gt 0 ] ||
				return 1
		done
		return 0
	fi
	[ "$(compare -metric AE "$SHOTS/$1-dat.png" "$SHOTS/$1-fxt.png" \
		null: 2>&1)" = 0 ] || return 1
	[ "$1" != sched ] || [ "$(compare -metric AE "$SHOTS/$1-dat-click.png" \
		"$SHOTS/$1-fxt-click.png" null: 2>&1)" = 0 ]
}
shoot "$TMP/plots.sh" plots_settled $PLOTS

for j in sched sched-zoom threads; do
	d=$SHOTS/$j-dat.png f=$SHOTS/$j-fxt.png
	px=$(compare -metric AE "$d" "$f" "$SHOTS/$j-diff.png" 2>&1)
	g=$(pixels "$d" "$GREEN") r=$(pixels "$d" "$RED")
	c=$(colours "$f")
	check "$j: the task plots of the .fxt (plot part on) are the .dat's (sched_events on): $px pixels differ; $g green and $r red box pixels" \
		test "$px" = 0 -a "$c" -ge 16 -a "$g" -gt 0 -a "$r" -gt 0
done

# the double click: it marked entries (the window changed) and alike
d=$SHOTS/sched-dat px_click=$(compare -metric AE "$d.png" "$d-click.png" null: 2>&1)
px=$(compare -metric AE "$d-click.png" "$SHOTS/sched-fxt-click.png" \
	"$SHOTS/sched-click-diff.png" 2>&1)
check "sched: a double click on a red box ($(cat "$TMP/click" 2>/dev/null)) changes the .dat's window ($px_click pixels) and leaves the .fxt's the same as it ($px pixels differ)" \
	test -n "$px_click" -a "$px_click" != 0 -a "$px" = 0

# another producer's file against its .dat: the boxes only
for c in GREEN RED; do
	mask "$SHOTS/other-dat.png" "${!c}" "$TMP/other-dat-$c.png"
	mask "$SHOTS/other-fxt.png" "${!c}" "$TMP/other-fxt-$c.png"
done
g=$(pixels "$SHOTS/other-dat.png" "$GREEN") r=$(pixels "$SHOTS/other-dat.png" "$RED")
gd=$(compare -metric AE "$TMP/other-dat-GREEN.png" "$TMP/other-fxt-GREEN.png" null: 2>&1)
rd=$(compare -metric AE "$TMP/other-dat-RED.png" "$TMP/other-fxt-RED.png" null: 2>&1)
all=$(compare -metric AE "$SHOTS/other-dat.png" "$SHOTS/other-fxt.png" \
	"$SHOTS/other-diff.png" 2>&1)
check "another producer's scheduling: the .fxt's task plots have the boxes sched_events draws on its .dat ($g green and $r red pixels; $gd and $rd differ; $all pixels of the windows differ in all)" \
	test "$g" -gt 0 -a "$r" -gt 0 -a "$gd" = 0 -a "$rd" = 0
e2e_exit
