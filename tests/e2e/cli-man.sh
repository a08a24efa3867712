#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt's man pages, as `make doc` built them: one a command
# (trace-fxt-COMMAND.1), trace-fxt.1 and trace-fxt-plugins.7; each
# renders with man -l without a single warning (man-db's own check, all
# warnings on, as Debian's lintian runs it), has a NAME that whatis
# reads (lexgrog), the sections a command's page has, and names pages
# that exist; and each command's page has every option the code accepts
# (cli-options.py reads the tables from the sources) with its argument,
# default and direction, as man renders them.
. "$(dirname "$0")/lib.sh"
e2e_plan 40
SRC=$TOP/trace-cmd-plugin/trace-fxt
DOC=$BUILD/trace-cmd-plugin/trace-fxt/Documentation
OPTS=$TMP/options
python3 "$TOP/tests/e2e/cli-options.py" "$SRC" > "$OPTS"
mapfile -t cmds < <(sed -n 's/^\t\.name = "\([a-z-]*\)",$/\1/p' \
		    "$SRC"/cmd-*.c "$SRC"/trace-fxt.c | sort -u)

pages=("$DOC/trace-fxt.1" "$DOC/trace-fxt-plugins.7")
for c in "${cmds[@]}"; do
	pages+=("$DOC/trace-fxt-$c.1")
done
missing=
for p in "${pages[@]}"; do
	[ -s "$p" ] || missing+=" ${p##*/}"
done
check "make doc built ${#pages[@]} pages: trace-fxt(1), trace-fxt-plugins(7) and one per command (missing:${missing:- none})" \
	test -z "$missing"

# render PAGE: as a terminal shows it, in plain text
render() {
	LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$1" 2>/dev/null | col -b
}
for p in "${pages[@]}"; do
	[ -s "$p" ] || continue
	warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings=w \
	       -E UTF-8 -l -Tutf8 -Z "$p" 2>&1 >/dev/null)
	lines=$(render "$p" | wc -l)
	check "${p##*/} renders ($lines lines) with no warning from man --warnings=w${warn:+: $warn}" \
		test -z "$warn" -a "$lines" -gt 20
	name=$(lexgrog "$p" 2>&1)
	base=${p##*/}
	check "${p##*/}: whatis reads its NAME ($name)" \
		grep -q "\"${base%.*} - " <<<"$name"
done

# the sections, and the pages they name
for c in "${cmds[@]}"; do
	p=$DOC/trace-fxt-$c.1
	[ -s "$p" ] || continue
	render "$p" > "$TMP/$c.txt"
	gone=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES "EXIT STATUS" \
		 "SEE ALSO"; do
		grep -q "^$s\$" "$TMP/$c.txt" || gone+=" $s"
	done
	check "trace-fxt-$c(1) has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, SEE ALSO (missing:${gone:- none})" \
		test -z "$gone"
	syn=$($TRACE_FXT "$c" -h | head -1)
	check "trace-fxt-$c(1)'s synopsis is the help's (${syn#usage: })" \
		grep -qxF "       ${syn#usage: }" "$TMP/$c.txt"
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "${line#PASS }" ;;
		"FAIL "*) not_ok "${line#FAIL }" ;;
		esac
	done < <(python3 "$TOP/tests/e2e/cli-says.py" "$OPTS" "$c" \
		 "$TMP/$c.txt" "man trace-fxt-$c")
done
render "$DOC/trace-fxt.1" > "$TMP/main.txt"
while IFS= read -r line; do
	case $line in
	"PASS "*) ok "${line#PASS }" ;;
	"FAIL "*) not_ok "${line#FAIL }" ;;
	esac
done < <(python3 "$TOP/tests/e2e/cli-says.py" "$OPTS" trace-fxt \
	 "$TMP/main.txt" "man trace-fxt")
gone=
for c in "${cmds[@]}"; do
	grep -q "^       $c\$" "$TMP/main.txt" || gone+=" $c"
done
check "trace-fxt(1) lists every command under COMMANDS (missing:${gone:- none})" \
	test -z "$gone"

# every trace-fxt page a page names is there
unknown=
for p in "${pages[@]}"; do
	[ -s "$p" ] || continue
	for ref in $(render "$p" | grep -o 'trace-fxt[a-z-]*([0-9])' | sort -u); do
		name=${ref%(*}
		sec=${ref#*(}
		[ -s "$DOC/$name.${sec%)}" ] || unknown+=" ${p##*/}:$ref"
	done
done
check "every trace-fxt page the pages name exists (not:${unknown:- none})" \
	test -z "$unknown"
e2e_exit
