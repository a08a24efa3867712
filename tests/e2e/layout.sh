#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tree's architecture, checked on what the build made (layout.py):
# each product's link line holds objects of its own folder and libraries
# it uses only; each library calls exactly the libraries its .mk declares
# (nm), and the declarations have no circle; no library calls a product,
# no product another; inside every folder no file calls into a file that
# calls it; no map-*.c includes the header of a file that calls it; the
# source folders hold no build output; no object defines a name the
# tools' libraries export, and each product exports its host's entry
# points only.
. "$(dirname "$0")/lib.sh"
e2e_plan 46

while IFS= read -r line; do
	case $line in
	"PASS "*) ok "${line#PASS }" ;;
	"FAIL "*) not_ok "${line#FAIL }" ;;
	*) echo "# $line" ;;
	esac
done < <(python3 "$TOP/tests/e2e/layout.py" "$TOP" 2>&1)
e2e_exit
