# SPDX-License-Identifier: GPL-2.0-only
# Sourced inside a virtual X server (xvfb-run) by the KernelShark GUI
# tests.
#
# ks_settings DIR gives the KernelShark started after it a settings
# directory of its own (KS_USER_CACHE_DIR): the user's last session is
# neither read nor overwritten, and the warning KernelShark shows to
# root is off ("Don't show this message again", its noRootWarn).  That
# dialog was dismissed with Return while it came up, a race: a key sent
# as the dialog closed could leave KernelShark without a window.
ks_settings() {
	mkdir -p "$1" &&
		printf '[General]\nnoRootWarn=true\n' >"$1/setting.ini" &&
		export KS_USER_CACHE_DIR=$1
}

# ks_window PID prints the id of the main window of KernelShark PID once
# it is shown (after a time that depends on the machine's load).  Only a
# shown window of that process counts: a window of a KernelShark just
# killed may still be listed, and Qt creates the main window before it
# shows it.  --all: xdotool otherwise takes a window that meets any one
# of the conditions.
ks_window() {
	local w i

	for i in $(seq 120); do
		w=$(xdotool search --all --onlyvisible --pid "$1" \
			--name 'Kernel Shark' 2>/dev/null | head -1)
		[ -n "$w" ] && { echo "$w"; return 0; }
		sleep 0.5
	done
	return 1
}

# ks_table_rows SHOT GEOMETRY prints how many lines of text the event
# table of the KernelShark window shows in screenshot SHOT (GEOMETRY:
# xdotool getwindowgeometry --shell's output for that window).  The table
# fills the lower part of the window: a row is dark text between light
# grid lines.  Outside the virtual X server too (ImageMagick's convert).
ks_table_rows() {
	local X Y WIDTH HEIGHT WINDOW SCREEN y h

	[ -f "$1" ] && [ -f "$2" ] || { echo 0; return; }
	. "$2"
	y=$((Y + HEIGHT * 70 / 100)); h=$((HEIGHT * 22 / 100))
	convert "$1" -crop "${WIDTH}x${h}+${X}+${y}" +repage \
		-colorspace gray -threshold 40% -negate -scale '1x!' \
		-depth 8 txt:- | awk -F'[(,)]' '
		NR > 1 { dark = ($3 + 0 > 0) }
		NR > 1 && dark && !prev { n++ }
		{ prev = dark }
		END { print n + 0 }'
}
