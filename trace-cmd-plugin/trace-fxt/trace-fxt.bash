# SPDX-License-Identifier: GPL-2.0-only
# trace-fxt.bash - bash completion for trace-fxt: its commands, each
# command's options, their values (--compression's choices, a .dat's
# buffers for -B and events for -e) and the files each command takes, by
# their extensions.
#
# Everything offered is asked of the command being completed (trace-fxt
# __complete, complete.c), so that it is what that binary takes.  Only
# bash's builtins are used: it works with or without the bash-completion
# package, which loads it from .../bash-completion/completions/trace-fxt
# (make install puts it there).  The line is split at blanks only, not at
# bash's word breaks (':' in sched:sched_switch, '=' in --opt=value);
# what is offered is cut back to the part of the word readline replaces.

# _trace_fxt_reply CUR CANDIDATE...: COMPREPLY, the candidates that
# begin with CUR, each without what precedes readline's word in CUR
# (up to its last character in COMP_WORDBREAKS).
_trace_fxt_reply()
{
	local cur=$1 c i keep=0
	shift

	for ((i = ${#cur} - 1; i >= 0; i--)); do
		if [[ ${COMP_WORDBREAKS-} == *"${cur:i:1}"* ]]; then
			keep=$((i + 1))
			break
		fi
	done
	for c in "$@"; do
		[[ $c == "$cur"* ]] && COMPREPLY+=("${c:keep}")
	done
}

# _trace_fxt_path WORD: the word as a path (a leading ~ and quotes gone)
_trace_fxt_path()
{
	local p=$1

	p=${p//\'/}
	p=${p//\"/}
	p=${p//\\/}
	[[ $p == "~/"* ]] && p=$HOME/${p#"~/"}
	printf '%s' "$p"
}

# _trace_fxt_files PREFIX PART EXT...: the directories and files whose
# names begin with PART (only files with one of the extensions, when
# given), each after PREFIX; readline quotes them and marks directories
_trace_fxt_files()
{
	local prefix=$1 part=$2 f e
	local -a all out=()
	shift 2

	mapfile -t all < <(compgen -f -- "$part")
	for f in "${all[@]}"; do
		if [ -d "$(_trace_fxt_path "$f")" ] || [ $# -eq 0 ]; then
			out+=("$prefix$f")
			continue
		fi
		for e in "$@"; do
			if [[ $f == *."$e" ]]; then
				out+=("$prefix$f")
				break
			fi
		done
	done
	compopt -o filenames 2>/dev/null
	_trace_fxt_reply "$prefix$part" "${out[@]}"
}

# _trace_fxt_value PROG KIND CHOICES INPUT PREFIX VALUE: an option's value
_trace_fxt_value()
{
	local prog=$1 kind=$2 choices=$3 input=$4 prefix=$5 value=$6
	local list=${value%,*} l
	local -a items=() out=()

	case $kind in
	file)
		_trace_fxt_files "$prefix" "$value"
		;;
	choice)
		for l in $choices; do
			out+=("$prefix$l")
		done
		_trace_fxt_reply "$prefix$value" "${out[@]}"
		;;
	events|buffers)
		[ -n "$input" ] || return
		# a comma-separated list: complete its last item
		[[ $value == *,* ]] && list=$list, || list=
		mapfile -t items < <("$prog" __complete "$kind" \
				     "$(_trace_fxt_path "$input")" 2>/dev/null)
		for l in "${items[@]}"; do
			out+=("$prefix$list$l")
		done
		compopt -o nospace 2>/dev/null
		_trace_fxt_reply "$prefix$value" "${out[@]}"
		;;
	esac
}

# complete -F: $1 the command as typed; the rest from COMP_LINE/COMP_POINT
_trace_fxt_complete()
{
	local prog line cur cmd= input= forms kind i k w spec
	local -a words all opts=() kinds=() choice=()
	local op_kind=file op_exts=

	COMPREPLY=()
	prog=$(_trace_fxt_path "${1:-trace-fxt}")
	line=${COMP_LINE:0:COMP_POINT}
	read -ra words <<<"$line"
	[[ -z $line || $line == *[[:space:]] ]] && words+=("")
	cur=${words[${#words[@]} - 1]}

	# the command: the first word after trace-fxt's own options
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		if [[ ${words[i]} != -* ]]; then
			cmd=${words[i]}
			break
		fi
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			mapfile -t words < <("$prog" __complete options 2>/dev/null |
					     cut -f1 | tr ' ' '\n' | grep .)
			_trace_fxt_reply "$cur" "${words[@]}"
		else
			mapfile -t words < <("$prog" __complete commands 2>/dev/null)
			_trace_fxt_reply "$cur" "${words[@]}"
		fi
		return 0
	fi

	# its options: "FORMS<TAB>KIND<TAB>CHOICES", then the operands'
	while IFS=$'\t' read -r forms kind spec; do
		if [ "$forms" = operands ]; then
			op_kind=$kind
			op_exts=$spec
			continue
		fi
		for w in $forms; do
			opts+=("$w")
			kinds+=("$kind")
			choice+=("$spec")
		done
	done < <("$prog" __complete options "$cmd" 2>/dev/null)

	# the input file: the first operand after the command, wherever the
	# cursor is (the words after it too; the one at it is being written)
	local at=$((${#words[@]} - 1))
	read -ra all <<<"${COMP_LINE:COMP_POINT}"
	[[ -n $cur && ${COMP_LINE:COMP_POINT:1} == [^[:space:]] ]] &&
		all=("${all[@]:1}")
	all=("${words[@]}" "${all[@]}")
	for ((i = i + 1; i < ${#all[@]}; i++)); do
		w=${all[i]}
		[ $i -eq $at ] && continue
		if [[ $w == -* ]]; then
			for ((k = 0; k < ${#opts[@]}; k++)); do
				if [[ ${opts[k]} == "$w" &&
				      ${kinds[k]} != flag ]]; then
					i=$((i + 1))
					break
				fi
			done
		elif [ -z "$input" ]; then
			input=$w
		fi
	done

	# --option=value, or the value after an option that takes one
	local name=$cur prefix= value=$cur prev=
	[ ${#words[@]} -ge 2 ] && prev=${words[${#words[@]} - 2]}
	if [[ $cur == --*=* ]]; then
		name=${cur%%=*}
		prefix=$name=
		value=${cur#*=}
	else
		name=$prev
	fi
	for ((k = 0; k < ${#opts[@]}; k++)); do
		if [[ ${opts[k]} == "$name" && ${kinds[k]} != flag ]] &&
		   [[ -n $prefix || $name == "$prev" ]]; then
			_trace_fxt_value "$prog" "${kinds[k]}" "${choice[k]}" \
					 "$input" "$prefix" "$value"
			return 0
		fi
	done

	if [[ $cur == -* ]]; then
		_trace_fxt_reply "$cur" "${opts[@]}"
	elif [ "$op_kind" = command ]; then
		mapfile -t words < <("$prog" __complete commands 2>/dev/null)
		_trace_fxt_reply "$cur" "${words[@]}"
	else
		# shellcheck disable=SC2086
		_trace_fxt_files "" "$cur" $op_exts
	fi
	return 0
}

complete -F _trace_fxt_complete trace-fxt
