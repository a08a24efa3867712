#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt's help, against what its code accepts (cli-options.py reads
# the option tables from the sources): every command's help
# (trace-fxt help COMMAND, COMMAND -h, COMMAND --help, all the same) has
# each option with its argument, default and direction of convert,
# examples and exit statuses; the completion's list of options is the
# code's; every option reaches its command's code; --version names the
# libtracecmd and libtraceevent the binary runs with; an unknown,
# misplaced or misdirected option is named with the way to the help.
. "$(dirname "$0")/lib.sh"
e2e_plan 60
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
SRC=$TOP/trace-cmd-plugin/trace-fxt
OPTS=$TMP/options
python3 "$TOP/tests/e2e/cli-options.py" "$SRC" > "$OPTS"
# the commands the code lists, and every command whose options it has
mapfile -t cmds < <(sed -n 's/^\t\.name = "\([a-z-]*\)",$/\1/p' \
		    "$SRC"/cmd-*.c "$SRC"/trace-fxt.c | sort -u)
check "the sources hold ${#cmds[@]} commands and $(grep -vc '^stray' "$OPTS") options of them (${cmds[*]})" \
	test "${#cmds[@]}" -ge 6
strays=$(grep '^stray' "$OPTS" | cut -f2-)
check "every option is parsed through its command's table (none elsewhere: ${strays:-none})" \
	test -z "$strays"

# say WHAT-FILE COMMAND TEXT-FILE: cli-says.py's verdicts as checks
say() {
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "${line#PASS }" ;;
		"FAIL "*) not_ok "${line#FAIL }" ;;
		esac
	done < <(python3 "$TOP/tests/e2e/cli-says.py" "$OPTS" "$2" "$3" "$1")
}

# trace-fxt alone, help, -h, --help: the commands
$TRACE_FXT > "$TMP/none.out" 2> "$TMP/none.err"; rc=$?
check "trace-fxt alone: the help on stderr, exit 2 (got $rc)" \
	bash -c "[ $rc -eq 2 ] && [ ! -s '$TMP/none.out' ] && grep -q '^commands:' '$TMP/none.err'"
for how in help -h --help; do
	$TRACE_FXT $how > "$TMP/main.$how" 2>&1; rc=$?
	missing=
	for c in "${cmds[@]}"; do
		grep -q "^  $c " "$TMP/main.$how" || missing+=" $c"
	done
	check "trace-fxt $how: exit 0 (got $rc), lists every command (missing:${missing:- none})" \
		test $rc -eq 0 -a -z "$missing"
done
say "trace-fxt -h" trace-fxt "$TMP/main.-h"

# each command's help, three ways
for c in "${cmds[@]}"; do
	$TRACE_FXT help "$c" > "$TMP/$c.help" 2>&1; rc1=$?
	$TRACE_FXT "$c" -h > "$TMP/$c.h" 2>&1; rc2=$?
	$TRACE_FXT "$c" --help > "$TMP/$c.hh" 2>&1; rc3=$?
	check "trace-fxt help $c, $c -h, $c --help: the same help, exit 0 ($rc1 $rc2 $rc3)" \
		bash -c "[ $rc1$rc2$rc3 = 000 ] && cmp -s '$TMP/$c.help' '$TMP/$c.h' && cmp -s '$TMP/$c.h' '$TMP/$c.hh'"
	check "trace-fxt $c -h: synopsis, options, examples, exit status" \
		bash -c "grep -q '^usage: trace-fxt $c ' '$TMP/$c.h' && grep -q '^options:' '$TMP/$c.h' && grep -q '^examples:' '$TMP/$c.h' && grep -q '^  trace-fxt $c' '$TMP/$c.h' && grep -q '^exit status:' '$TMP/$c.h' && grep -q '^  0 ' '$TMP/$c.h'"
	say "trace-fxt $c -h" "$c" "$TMP/$c.h"
	# the completion offers what the code takes
	cut -f2 "$OPTS" | paste - <(cut -f1 "$OPTS") | awk -v c="$c" '$NF == c' |
		cut -f1 | tr ' ' '\n' | sort > "$TMP/$c.code"
	$TRACE_FXT __complete options "$c" | grep -v '^operands' | cut -f1 |
		tr ' ' '\n' | sort > "$TMP/$c.complete"
	check "trace-fxt __complete options $c lists the code's $(wc -l < "$TMP/$c.code") option forms" \
		cmp "$TMP/$c.code" "$TMP/$c.complete"
done

# every option reaches its command's code (not "not handled")
bad=
n=0
while IFS=$'\t' read -r c forms value _; do
	[ "$c" = stray ] || [ "$c" = trace-fxt ] && continue
	for f in $forms; do
		args=("$f")
		[ -n "$value" ] && args+=(none)
		$TRACE_FXT "$c" "${args[@]}" "$TMP/no-such-file" > /dev/null \
			2> "$TMP/handled.err"
		n=$((n + 1))
		grep -q 'not handled\|unknown option' "$TMP/handled.err" &&
			bad+=" $c $f"
	done
done < "$OPTS"
check "each of the $n option forms reaches its command's code (not: ${bad:-none})" \
	test -z "$bad"

# the choices the help and the completion offer are the parser's
recordings atrace-markers.dat
dat=$SAMPLES/atrace-markers.dat
choices=$($TRACE_FXT __complete options convert |
	  awk -F'\t' '$1 == "--compression" { print $3 }')
bad=
for w in $choices; do
	$TRACE_FXT convert -q --compression "$w" "$dat" -o "$TMP/z.fxt" ||
		bad+=" $w"
done
check "convert takes each --compression choice offered (${choices:-none}; refused:${bad:- none})" \
	test -n "$choices" -a -z "$bad"

# --version: the libraries the binary runs with, by the files it loads
$TRACE_FXT --version > "$TMP/version" 2>&1; rc=$?
check "trace-fxt --version: exit 0 (got $rc), its own version first ($(head -1 "$TMP/version"))" \
	bash -c "[ $rc -eq 0 ] && grep -q '^trace-fxt [0-9]' '$TMP/version'"
for lib in libtracecmd libtraceevent; do
	file=$(ldd "$TRACE_FXT" | awk -v l="$lib.so" 'index($1, l) == 1 { print $3 }')
	real=$(readlink -f "$file")
	ver=${real##*.so.}
	check "--version names $lib $ver, the one the binary loads ($real)" \
		grep -q "^$lib $ver ($real; built with " "$TMP/version"
done

# errors: the option named, and the way to the help; exit 2
# expect WHAT PATTERN ARGS...: exit 2, stderr matches PATTERN
expect() {
	local what=$1 pattern=$2 rc
	shift 2
	$TRACE_FXT "$@" > /dev/null 2> "$TMP/err"; rc=$?
	if [ $rc -eq 2 ] && grep -qE -- "$pattern" "$TMP/err"; then
		ok "$what: exit 2, \"$(head -1 "$TMP/err" | cut -c1-110)\""
	else
		sed 's/^/#   /' "$TMP/err"
		not_ok "$what: exit 2 (got $rc), message matches '$pattern'"
	fi
}
$TRACE_FXT convert -q "$dat" -o "$TMP/a.fxt"
expect "an unknown option" \
	"^trace-fxt convert: unknown option '--no-such-option'.*'trace-fxt convert -h'" \
	convert --no-such-option "$dat" -o "$TMP/x.fxt"
expect "an unknown short option" "unknown option '-Y'.*'trace-fxt report -h'" \
	report -Y "$TMP/a.fxt"
expect "another command's option" \
	"report: unknown option '--json' \('trace-fxt dump' takes it\).*'trace-fxt report -h'" \
	report --json "$TMP/a.fxt"
expect "an option before the command" \
	"unknown option '-o' \('trace-fxt convert' takes it, after the command\).*'trace-fxt -h'" \
	-o "$TMP/x.fxt" convert "$dat"
expect "an option without its argument" \
	"option -o/--output needs an argument \(OUT\).*'trace-fxt convert -h'" \
	convert "$dat" -o
expect "an ambiguous abbreviation" \
	"option '--comp' is ambiguous \(--compression, --compress\)" \
	convert --comp "$dat" -o "$TMP/x.fxt"
expect "a flag given a value" "option '--quiet' takes no argument" \
	convert --quiet=yes "$dat" -o "$TMP/x.fxt"
expect "a .dat -> FXT option on FXT input" \
	"convert: -c/--cpu concerns .dat -> FXT conversions only, and the input is FXT.*'trace-fxt convert -h'" \
	convert --cpu 0 "$TMP/a.fxt" -o "$TMP/x.dat"
expect "a missing operand" "^trace-fxt check: no input file" check
expect "an unknown command" "unknown command 'frobnicate'; 'trace-fxt help' lists them" \
	frobnicate
expect "help of an unknown command" "unknown command 'frobnicate'" \
	help frobnicate
check "no output was left by the refused conversions" \
	bash -c "! ls '$TMP'/x.* 2>/dev/null | grep -q ."
e2e_exit
