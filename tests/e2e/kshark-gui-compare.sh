#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The real kernelshark, under Xvfb, opens each project sample (.dat) and
# the .fxt trace-fxt converts from it, with plugin-fxt.so: the two windows
# (graph with its CPU plots, table with its first rows, missed-events
# marks) must be the same picture, pixel for pixel.  KernelShark loads its
# own default plugins for the .dat, as a user sees it.  Screenshots stay
# in KSHARK_SHOTS (default: a new /tmp/kshark-gui-compare.XXXXXX, said on
# the first line).  two-buffers has two ftrace buffers: both windows show
# a stream per buffer.
. "$(dirname "$0")/lib.sh"

PLUGIN=$TOP/kernelshark-plugin/plugin-fxt.so
# a directory of its own: runs at the same time do not share screenshots
SHOTS=${KSHARK_SHOTS:-$(mktemp -d /tmp/kshark-gui-compare.XXXXXX)}
NAMES="atrace-markers lost-events net-events two-buffers"
e2e_plan 4

for tool in xvfb-run kernelshark xdotool import compare identify; do
	if ! command -v "$tool" >/dev/null; then
		skip "$tool not installed, no GUI comparison" 4
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
# waited for (the dialog it shows to root dismissed), then the screen.
cat > "$TMP/session.sh" <<'SESSION'
shot() { # FILE PNG
	kernelshark -p "$PLUGIN" "$1" >"$2.log" 2>&1 &
	local ks=$! w= i
	for i in $(seq 60); do
		w=$(xdotool search --name 'Kernel Shark' 2>/dev/null | head -1)
		[ -n "$w" ] && break
		[ "$(id -u)" -eq 0 ] && xdotool key Return 2>/dev/null
		sleep 0.5
	done
	sleep 5
	import -window root "$2"
	kill "$ks" 2>/dev/null
	wait "$ks" 2>/dev/null
}
for n in $NAMES; do
	shot "$TMP/$n.dat" "$SHOTS/$n-dat.png"
	shot "$TMP/$n.fxt" "$SHOTS/$n-fxt.png"
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
export PLUGIN TMP SHOTS
rm -f "$SHOTS"/*.png
# The X server is shared with whatever else runs xvfb-run at the same
# time: a display lost under a window, or a window shot before it was
# painted, is a retry; three tries that differ are a difference.
todo=$NAMES
for attempt in 1 2 3; do
	[ -n "$todo" ] || break
	NAMES=$todo timeout 300 xvfb-run -a -s "-screen 0 1400x1000x24" \
		bash "$TMP/session.sh" 2>"$TMP/xvfb.err"
	left=
	for n in $todo; do
		settled "$n" || left="$left $n"
	done
	todo=$left
done

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
e2e_exit
