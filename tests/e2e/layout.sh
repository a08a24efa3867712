#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tree's architecture, checked on what the build made (layout.py):
# each product's link line holds objects of its own folder and libraries
# only; the core calls nothing above it, libfxt-tep.a only the core, no
# library a product, no product another; inside every folder no file
# calls into a file that calls it (nm); no map-*.c includes the header
# of a file that calls it.
. "$(dirname "$0")/lib.sh"
e2e_plan 14

while IFS= read -r line; do
	case $line in
	"PASS "*) ok "${line#PASS }" ;;
	"FAIL "*) not_ok "${line#FAIL }" ;;
	*) echo "# $line" ;;
	esac
done < <(python3 "$TOP/tests/e2e/layout.py" "$TOP" 2>&1)
e2e_exit
