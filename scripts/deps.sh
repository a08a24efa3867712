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
	# libtracecmd's failures injected under it (open-failures.sh)
	valgrind
)
# Taken without the packages they recommend: asciidoc-base would bring
# dblatex and TeX Live (about 1 GB) for PDFs nobody makes here.
#  - the man pages: AsciiDoc -> DocBook -> xmlto, as trace-cmd's (the
#    DTD from docbook-xml validates them, offline); man-db's man -l
#    checks what they render to;
#  - trace-fxt open: libmicrohttpd; its test: iproute2 (ip, ss), in a
#    network namespace of its own;
#  - the bash completion's test loads it the way bash-completion does.
lean=(
	asciidoc-base xmlto docbook-xsl docbook-xml man-db groff-base
	libmicrohttpd-dev iproute2 bash-completion
)

# missing NAME...: those of the packages not installed
missing() {
	local p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || echo "$p"
	done
}
mapfile -t need < <(missing "${pkgs[@]}")
mapfile -t need_lean < <(missing "${lean[@]}")
[ ${#need[@]} -eq 0 ] && [ ${#need_lean[@]} -eq 0 ] && exit 0

cmds=()
[ ${#need[@]} -eq 0 ] || cmds+=("apt-get install -y ${need[*]}")
[ ${#need_lean[@]} -eq 0 ] ||
	cmds+=("apt-get install -y --no-install-recommends ${need_lean[*]}")
if [ "$(id -u)" -ne 0 ]; then
	echo "trace-fxt: missing Debian packages; as root run:" >&2
	echo "  apt-get update$(printf ' && %s' "${cmds[@]}")" >&2
	exit 1
fi
echo "trace-fxt: installing ${need[*]} ${need_lean[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
for cmd in "${cmds[@]}"; do
	$cmd -qq >/dev/null
done
