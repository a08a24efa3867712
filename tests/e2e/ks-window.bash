# SPDX-License-Identifier: GPL-2.0-only
# Sourced inside a virtual X server (xvfb-run) by the KernelShark GUI
# tests: ks_window prints the id of KernelShark's main window once it is
# up.  As root, KernelShark first shows a warning dialog, which Return
# dismisses; it comes up after a time that depends on the machine's
# load, so Return is pressed until the main window is there, not once
# after a fixed sleep.
ks_window() {
	local w i

	for i in $(seq 120); do
		w=$(xdotool search --name 'Kernel Shark' 2>/dev/null | head -1)
		[ -n "$w" ] && { echo "$w"; return 0; }
		[ "$(id -u)" -eq 0 ] && xdotool key Return 2>/dev/null
		sleep 0.5
	done
	return 1
}
