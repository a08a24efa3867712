#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make install, into a home of this test's own (the default PREFIX,
# ~/.local) and into a DESTDIR staging /usr/local: the command, its man
# pages under PREFIX/share/man - which man then finds by the command's
# place in PATH - and its bash completion where bash-completion looks
# (~/.local/share is its per-user directory, /usr/local/share one of the
# system's), loaded by bash-completion itself.
. "$(dirname "$0")/lib.sh"
e2e_plan 12
DOC=$BUILD/trace-cmd-plugin/trace-fxt/Documentation
mapfile -t pages < <(cd "$DOC" && ls trace-fxt*.[1-9])

# pages_missing MANDIR: the pages not installed there
pages_missing() {
	local p

	for p in "${pages[@]}"; do
		[ -s "$1/man${p##*.}/$p" ] || echo -n " $p"
	done
}
# loads DATA_ENV...: bash-completion, so set up, completes trace-fxt
loads() {
	env -u XDG_DATA_HOME -u XDG_DATA_DIRS "$@" bash --norc -c '
		source /usr/share/bash-completion/bash_completion
		__load_completion trace-fxt &&
		complete -p trace-fxt | grep -q _trace_fxt_complete'
}

home=$TMP/home
mkdir -p "$home"
HOME=$home make -s -C "$TOP" install > "$TMP/install.log" 2>&1; rc=$?
check "make install with the default PREFIX (~/.local): exit $rc" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$TMP/install.log" | tail -5
check "trace-fxt in ~/.local/bin" test -x "$home/.local/bin/trace-fxt"
check "  which looks for the KernelShark plugin where this install put it" \
	grep -qaF "$home/.local/lib/kernelshark/plugins/plugin-fxt.so" \
	"$home/.local/bin/trace-fxt"
missing=$(pages_missing "$home/.local/share/man")
check "the ${#pages[@]} man pages in ~/.local/share/man/man[17] (missing:${missing:- none})" \
	test -z "$missing"
where=$(env -u MANPATH HOME="$home" PATH="$home/.local/bin:/usr/bin:/bin" \
	man -w trace-fxt-convert 2>&1)
check "man finds trace-fxt-convert by trace-fxt's place in PATH: $where" \
	test "$where" = "$home/.local/share/man/man1/trace-fxt-convert.1"
text=$(env -u MANPATH HOME="$home" PATH="$home/.local/bin:/usr/bin:/bin" \
       MANWIDTH=80 man trace-fxt-plugins 2>/dev/null | col -b)
check "man trace-fxt-plugins shows where this install put the KernelShark plugin" \
	grep -qF "$home/.local/lib/kernelshark/plugins/" <<<"$text"
check "the completion in ~/.local/share/bash-completion/completions/trace-fxt" \
	test -s "$home/.local/share/bash-completion/completions/trace-fxt"
check "bash-completion loads it from there, for this user" loads HOME="$home"

root=$TMP/root
make -s -C "$TOP" install PREFIX=/usr/local DESTDIR="$root" \
	> "$TMP/install.log" 2>&1; rc=$?
check "make install PREFIX=/usr/local DESTDIR=...: exit $rc" test $rc -eq 0
# made again for this PREFIX, not the first install's command copied
check "  its trace-fxt looks for the plugins in /usr/local, not ~/.local" \
	bash -c "grep -qaF /usr/local/lib/kernelshark/plugins/plugin-fxt.so \
		 '$root/usr/local/bin/trace-fxt' &&
		 ! grep -qaF '$home/.local/lib' '$root/usr/local/bin/trace-fxt'"
missing=$(pages_missing "$root/usr/local/share/man")
check "the man pages in /usr/local/share/man (missing:${missing:- none})" \
	test -z "$missing"
check "bash-completion loads the completion from /usr/local/share" \
	loads HOME="$TMP/nohome" XDG_DATA_DIRS="$root/usr/local/share:/usr/share"
# the tree built for the default PREFIX again, as the tests after this
# one and the user's next make expect it
make -s -C "$TOP" all > "$TMP/install.log" 2>&1 ||
	sed 's/^/#   /' "$TMP/install.log" | tail -5
e2e_exit
