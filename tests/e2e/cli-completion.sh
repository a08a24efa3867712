#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt's bash completion (trace-cmd-plugin/trace-fxt/trace-fxt.bash),
# sourced into a bash of its own and its function called as bash calls it
# (COMP_LINE, COMP_POINT): the commands; each command's options, which
# must be those the code accepts (cli-options.py reads them from the
# sources); --compression's choices; -B's buffers and -e's events read
# from the input .dat, against what trace-cmd says the file holds,
# wherever the cursor is and whatever ':' and ',' split; the files each
# command takes, by extension; nothing, and no harm, from a damaged .dat.
# Then the way bash-completion finds it: by its name, in
# $XDG_DATA_HOME/bash-completion/completions.
. "$(dirname "$0")/lib.sh"
e2e_plan 26
SRC=$TOP/trace-cmd-plugin/trace-fxt
BASH_FILE=$SRC/trace-fxt.bash
OPTS=$TMP/options
python3 "$TOP/tests/e2e/cli-options.py" "$SRC" > "$OPTS"
recordings atrace-markers.dat two-buffers.dat
dat=$SAMPLES/atrace-markers.dat
two=$SAMPLES/two-buffers.dat

# comp LINE [POINT]: what the completion offers for LINE with the cursor
# at POINT (default: its end), one a line, sorted; run from $TMP/files
comp() {
	(cd "$TMP/files" && COMP_LINE=$1 COMP_POINT=${2:-${#1}} bash --norc -c '
		source "$0"
		_trace_fxt_complete "$1"
		printf "%s\n" "${COMPREPLY[@]}"' "$BASH_FILE" "$TRACE_FXT") |
		grep . | sort
}
# offers WHAT LINE [POINT] -- EXPECTED...: comp's list equals EXPECTED
offers() {
	local what=$1 line=$2 point= got want
	shift 2
	if [ "$1" != -- ]; then
		point=$1
		shift
	fi
	shift
	got=$(comp "$line" $point | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | grep . | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		[ ${#got} -gt 160 ] && got="${got:0:120}... ($# in all)"
		ok "$what: ${got:-nothing}"
	else
		echo "#   want: $want"
		echo "#   got:  $got"
		not_ok "$what"
	fi
}
mkdir -p "$TMP/files/sub"
touch "$TMP/files/"{a.dat,b.fxt,c.fxt.gz,d.fxt.zst,e.txt,"f g.fxt",h.pftrace}
T=$TRACE_FXT

check "sourced, it completes trace-fxt with _trace_fxt_complete" \
	bash --norc -c "source '$BASH_FILE'; complete -p trace-fxt | grep -q -- '-F _trace_fxt_complete trace-fxt$'"
mapfile -t cmds < <(sed -n 's/^\t\.name = "\([a-z-]*\)",$/\1/p' \
		    "$SRC"/cmd-*.c "$SRC"/trace-fxt.c | sort -u)
offers "the commands" "$T " -- "${cmds[@]}"
offers "the commands beginning with c" "$T c" -- convert check
offers "trace-fxt's own options" "$T -" -- \
	$(awk -F'\t' '$1 == "trace-fxt" { print $2 }' "$OPTS")
for c in "${cmds[@]}"; do
	offers "$c's options are the code's" "$T $c -" -- \
		$(awk -F'\t' -v c="$c" '$1 == c { print $2 }' "$OPTS")
done
offers "help's operand: a command" "$T help o" -- open

# values
offers "--compression's choices" "$T convert $dat --compression " -- \
	none gzip zstd
offers "--compression=z (readline replaces what follows '=')" \
	"$T convert --compression=z" -- zstd
buffers=$(trace-cmd dump --options -i "$two" 2>/dev/null |
	  sed -n 's/^"\(.*\)" \[name\]$/\1/p' | sed 's/^$/top/')
# an empty list from trace-cmd would make the checks below compare nothing
check "trace-cmd dump --options lists two-buffers.dat's 2 buffers: $(echo $buffers)" \
	test "$(wc -w <<<"$buffers")" -eq 2
offers "-B: the buffers trace-cmd dump --options lists for two-buffers.dat" \
	"$T convert $two -B " -- $buffers
pre="$T convert -q -B "
offers "-B with the input after the cursor" "$pre -o x.fxt $two" ${#pre} \
	-- $buffers
offers "-B top,: the list's next item" "$T convert $two -B top," -- \
	top,top top,second
trace-cmd report -E "$dat" 2>/dev/null | grep ':' > "$TMP/events"
check "trace-cmd report -E lists atrace-markers.dat's events ($(wc -l < "$TMP/events"))" \
	test -s "$TMP/events"
offers "-e: the $(wc -l < "$TMP/events") events and $(cut -d: -f1 "$TMP/events" | sort -u | wc -l) systems trace-cmd report -E lists for atrace-markers.dat" \
	"$T convert $dat -e " -- $(cat "$TMP/events") \
	$(cut -d: -f1 "$TMP/events" | sort -u)
offers "-e sched:sched_sw (readline replaces what follows ':')" \
	"$T convert $dat -e sched:sched_sw" -- \
	$(sed -n 's/^sched:\(sched_sw.*\)/\1/p' "$TMP/events")
pre="$T convert --events=sched:sched_switch,tim"
offers "--events=sched:sched_switch,tim (after ',')" "$pre $dat" ${#pre} -- \
	$(grep '^tim' "$TMP/events" | sed 's/^/sched_switch,/') \
	$(cut -d: -f1 "$TMP/events" | sort -u | grep '^tim' | sed 's/^/sched_switch,/')
head -c 30000 "$dat" > "$TMP/files/cut.dat"
printf 'not a trace\n' > "$TMP/files/bad.dat"
offers "-e on a .dat cut short: nothing" "$T convert cut.dat -e " --
offers "-e on a file that is no .dat: nothing" "$T convert bad.dat -e " --
$T convert -q "$dat" -o "$TMP/files/a2.fxt"
offers "-e on FXT input (converted whole): nothing" "$T convert a2.fxt -e " --

# files, by what each command takes
rm -f "$TMP/files/cut.dat" "$TMP/files/bad.dat"
offers "convert's input: .dat, FXT and Perfetto files, directories" "$T convert " -- \
	a.dat a2.fxt b.fxt c.fxt.gz d.fxt.zst "f g.fxt" h.pftrace sub
offers "report's input: .dat, FXT and Perfetto files, directories" "$T report " -- \
	a.dat a2.fxt b.fxt c.fxt.gz d.fxt.zst "f g.fxt" h.pftrace sub
offers "open's input: .dat, FXT and Perfetto files, directories" "$T open -n " -- \
	a.dat a2.fxt b.fxt c.fxt.gz d.fxt.zst "f g.fxt" h.pftrace sub
offers "-o: any file" "$T convert a.dat -o " -- \
	a.dat a2.fxt b.fxt c.fxt.gz d.fxt.zst e.txt "f g.fxt" h.pftrace sub
offers "--tgids=: any file" "$T convert a.dat --tgids=e" -- e.txt
offers "--cpu: nothing to offer" "$T convert a.dat --cpu " --

# bash-completion finds it by the command's name, lazily
if [ -r /usr/share/bash-completion/bash_completion ]; then
	mkdir -p "$TMP/share/bash-completion/completions"
	cp "$BASH_FILE" "$TMP/share/bash-completion/completions/trace-fxt"
	check "bash-completion loads it from \$XDG_DATA_HOME/bash-completion/completions/trace-fxt" \
		env XDG_DATA_HOME="$TMP/share" bash --norc -c '
		source /usr/share/bash-completion/bash_completion
		__load_completion trace-fxt &&
		complete -p trace-fxt | grep -q _trace_fxt_complete'
else
	not_ok "bash-completion is installed (scripts/deps.sh)"
fi
e2e_exit
