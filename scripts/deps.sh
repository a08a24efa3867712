#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian packages trace-fxt needs, in two sets:
#  build  what `make` needs to build the products - the command, its man
#         pages, the plugins (debian/control's Build-Depends say the same);
#  test   what `make test`, `make test-unit`, `make demo`, `make bench`
#         and `make fuzz` need on top: the tools the tests drive or check
#         against, and what builds the Debian package in its test.
#
#   scripts/deps.sh SET...   make sure the SETs are installed: as root,
#                            install what is missing; otherwise print the
#                            exact command and fail
#   scripts/deps.sh --list   print each set and what is missing of it
set -euo pipefail

# Each set in two lists: packages installed with what they recommend, and
# "lean" ones installed without (asciidoc-base would bring dblatex and
# TeX Live, about 1 GB, for PDFs nobody makes here).
build_pkgs=(
	build-essential pkg-config
	libjson-c-dev libzstd-dev libisal-dev
	libtraceevent-dev libtracefs-dev libtracecmd-dev libkshark-dev
	# the GL headers libkshark-plot.h includes (plugin-fxt.so's plot part)
	libgl-dev libglu1-mesa-dev
)
# trace-fxt open's HTTP server (libmicrohttpd); the man pages: AsciiDoc ->
# DocBook -> xmlto, as trace-cmd's (the DTD from docbook-xml validates
# them, offline).
build_lean=(
	libmicrohttpd-dev
	asciidoc-base xmlto docbook-xsl docbook-xml
)
# The fuzzers (clang's libFuzzer), the unit tests (CUnit; trace-cmd and
# KernelShark's own plugins to compare against), the GUI tests (a virtual
# X server, keys, screenshots), the scripts' helpers, and the Debian
# package's test (debhelper builds it, lintian judges it).
test_pkgs=(
	clang libclang-rt-14-dev libcunit1-dev
	# zlib: the unit tests' own gzip and zlib streams, checked against
	# ISA-L's (the product links no zlib)
	zlib1g-dev
	trace-cmd kernelshark
	xvfb xauth xdotool imagemagick
	python3 bc jq
	debhelper lintian
	# libtracecmd's failures injected under it (open-failures.sh)
	valgrind
)
#  - man-db's man -l checks what the pages render to;
#  - open's test: iproute2 (ip, ss), in a network namespace of its own;
#  - the bash completion's test loads it the way bash-completion does;
#  - the package's test: a double click as xdg-open does it, which finds
#    a file's type with shared-mime-info's database through mimetype
#    (libfile-mimeinfo-perl) and its application through the desktop
#    entries' cache (desktop-file-utils, which also validates the entry).
test_lean=(
	man-db groff-base iproute2 bash-completion
	xdg-utils libfile-mimeinfo-perl shared-mime-info desktop-file-utils
)

# missing NAME...: those of the packages not installed
missing() {
	local p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || echo "$p"
	done
}

if [ "${1:-}" = --list ]; then
	for set in build test; do
		declare -n full=${set}_pkgs lean=${set}_lean
		case $set in
		build) echo "build (make: the command, its man pages, the plugins):" ;;
		test) echo "test (make test, test-unit, demo, bench, fuzz: on top of build):" ;;
		esac
		echo "  ${full[*]} ${lean[*]}" | fold -s -w 76 |
			sed -e "s/ *$//" -e "2,\$s/^/  /"
		m=$(missing "${full[@]}" "${lean[@]}" | tr '\n' ' ')
		echo "  missing: ${m:-none}" | sed "s/ *$//"
		unset -n full lean
	done
	exit 0
fi

need=() need_lean=()
for set in "$@"; do
	case $set in
	build|test) ;;
	*) echo "deps.sh: no set '$set' (build, test)" >&2; exit 2 ;;
	esac
	declare -n full=${set}_pkgs lean=${set}_lean
	mapfile -t -O ${#need[@]} need < <(missing "${full[@]}")
	mapfile -t -O ${#need_lean[@]} need_lean < <(missing "${lean[@]}")
	unset -n full lean
done
[ ${#need[@]} -eq 0 ] && [ ${#need_lean[@]} -eq 0 ] && exit 0

cmds=()
[ ${#need[@]} -eq 0 ] || cmds+=("apt-get install -y ${need[*]}")
[ ${#need_lean[@]} -eq 0 ] ||
	cmds+=("apt-get install -y --no-install-recommends ${need_lean[*]}")
if [ "$(id -u)" -ne 0 ]; then
	echo "trace-fxt: missing Debian packages ($*); as root run:" >&2
	echo "  apt-get update$(printf ' && %s' "${cmds[@]}")" >&2
	exit 1
fi
echo "trace-fxt: installing ($*) ${need[*]} ${need_lean[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
for cmd in "${cmds[@]}"; do
	$cmd -qq >/dev/null
done
