#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Make sure the Debian packages the build and the tests use are installed.
# As root, install what is missing; otherwise print the exact command.
set -euo pipefail

pkgs=(
	build-essential pkg-config clang libclang-rt-14-dev
	libcunit1-dev libjson-c-dev libzstd-dev zlib1g-dev libisal-dev
	libtraceevent-dev libtracefs-dev libtracecmd-dev trace-cmd
	libkshark-dev kernelshark
	# the GL headers libkshark-plot.h includes (plugin-fxt.so's plot part)
	libgl-dev libglu1-mesa-dev
	xvfb xauth xdotool imagemagick
	python3 bc jq
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "trace-fxt: missing Debian packages; as root run:" >&2
	echo "  apt-get update && $cmd" >&2
	exit 1
fi
echo "trace-fxt: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd -qq >/dev/null
