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
