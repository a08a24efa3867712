#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make install and make uninstall, into a home of this test's own (the
# default PREFIX, ~/.local) and into a DESTDIR staging /usr/local: the
# command, its man pages under PREFIX/share/man - which man then finds by
# the command's place in PATH - its bash completion where bash-completion
# looks (~/.local/share is its per-user directory, /usr/local/share one of
# the system's), loaded by bash-completion itself, FXT's MIME type and
# desktop entry, and the libtraceevent plugins where libtraceevent looks.
# make install copies what make built and compiles nothing: with nothing
# built, or a build made for other install directories, it says what to
# run, installs nothing and writes nothing into the build tree.  make
# uninstall removes what it put down.
. "$(dirname "$0")/lib.sh"
e2e_plan 27
MA=$(gcc -print-multiarch)
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
touch "$TMP/before"
# nothing built: an empty build folder
HOME=$home make -s -C "$TOP" install O="$TMP/empty" > "$TMP/install.log" 2>&1
rc=$?
check "make install with nothing built: fails, says what to run ($(grep -m1 -o 'is not built: run .*first' "$TMP/install.log"))" \
	bash -c "[ $rc -ne 0 ] && grep -q 'is not built: run .make' '$TMP/install.log'"
check "  and installs nothing, makes no build folder" \
	test ! -e "$home/.local" -a ! -e "$TMP/empty"
# the tree as the suite built it: for its own user's ~/.local
HOME=$home make -s -C "$TOP" install > "$TMP/install.log" 2>&1; rc=$?
check "make install for another PREFIX than the build's: fails, says what to run" \
	bash -c "[ $rc -ne 0 ] && grep -q 'built for other install directories' '$TMP/install.log' &&
		 grep -q \"run 'make[^']*' first\" '$TMP/install.log'"
check "  and installs nothing, writes nothing into the build tree (as root: no root-owned files)" \
	bash -c "[ ! -e '$home/.local' ] && [ -z \"\$(find '$BUILD' -newer '$TMP/before' | head -3)\" ]"

HOME=$home make -s -C "$TOP" > "$TMP/build.log" 2>&1 ||
	sed 's/^/#   /' "$TMP/build.log" | tail -5
HOME=$home make -s -C "$TOP" install > "$TMP/install.log" 2>&1; rc=$?
check "make, then make install with the default PREFIX (~/.local): exit $rc" test $rc -eq 0
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
check "the libtraceevent plugins in ~/.local/lib/traceevent/plugins" \
	test -f "$home/.local/lib/traceevent/plugins/plugin_eventheader.so" \
	-a -f "$home/.local/lib/traceevent/plugins/plugin_fxt.so"
entry=$home/.local/share/applications/trace-fxt.desktop
check "the desktop entry, valid, runs this install's trace-fxt open --kernelshark" \
	bash -c "desktop-file-validate '$entry' &&
		 grep -qx 'Exec=$home/.local/bin/trace-fxt open --kernelshark %f' '$entry'"
cp "$SAMPLES/atrace-markers.dat" "$TMP/m.dat"
"$TRACE_FXT" convert -q "$TMP/m.dat" -o "$TMP/m.fxt"
mime() { env -u XDG_DATA_HOME -u XDG_DATA_DIRS HOME="$home" xdg-mime "$@" 2>&1; }
got=$(mime query filetype "$TMP/m.fxt")
check "this user's MIME database knows FXT: m.fxt is $got" \
	test "$got" = application/x-fxt
got=$(mime query default application/x-fxt)
check "  and opens it with the desktop entry ($got)" test "$got" = trace-fxt.desktop
cp "$TOP/samples/perfetto/sched-syscalls.pftrace.gz" "$TMP/p.pftrace.gz"
gzip -dc "$TMP/p.pftrace.gz" > "$TMP/p.pftrace"
got="$(mime query filetype "$TMP/p.pftrace") $(mime query filetype "$TMP/p.pftrace.gz")"
got="$got, $(mime query default application/x-perfetto-trace)"
got="$got $(mime query default application/x-compressed-perfetto-trace)"
check "  and Perfetto's traces, opened with it too: $got" \
	test "$got" = "application/x-perfetto-trace application/x-compressed-perfetto-trace, trace-fxt.desktop trace-fxt.desktop"

(cd "$home" && find . -type f ! -path './.local/share/mime/*' \
	! -name mimeinfo.cache) > "$TMP/installed"
HOME=$home make -s -C "$TOP" uninstall > "$TMP/install.log" 2>&1; rc=$?
left=$(cd "$home" && while read -r f; do [ -e "$f" ] && echo -n " $f"; done \
	< "$TMP/installed")
check "make uninstall: exit $rc, none of the $(wc -l < "$TMP/installed") files left (left:${left:- none})" \
	test $rc -eq 0 -a -z "$left"
got=$(mime query filetype "$TMP/m.fxt")
check "  and this user's MIME database forgot FXT (m.fxt is $got)" \
	test "$got" != application/x-fxt

root=$TMP/root
make -s -C "$TOP" PREFIX=/usr/local > "$TMP/build.log" 2>&1 ||
	sed 's/^/#   /' "$TMP/build.log" | tail -5
make -s -C "$TOP" install PREFIX=/usr/local DESTDIR="$root" \
	> "$TMP/install.log" 2>&1; rc=$?
check "make PREFIX=/usr/local, make install PREFIX=/usr/local DESTDIR=...: exit $rc" test $rc -eq 0
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
check "the libtraceevent plugins go to libtraceevent's own folder, /usr/lib/$MA/traceevent/plugins, and it says why" \
	bash -c "[ -f '$root/usr/lib/$MA/traceevent/plugins/plugin_eventheader.so' ] &&
		 [ -f '$root/usr/lib/$MA/traceevent/plugins/plugin_fxt.so' ] &&
		 grep -q 'never looks in /usr/local/lib/traceevent/plugins' '$TMP/install.log'"
check "  the MIME type and the desktop entry in /usr/local/share" \
	test -f "$root/usr/local/share/mime/packages/trace-fxt.xml" \
	-a -f "$root/usr/local/share/applications/trace-fxt.desktop"
make -s -C "$TOP" uninstall PREFIX=/usr/local DESTDIR="$root" \
	> "$TMP/install.log" 2>&1; rc=$?
left=$(find "$root" -type f | sed "s|^$root||" | tr '\n' ' ')
check "make uninstall PREFIX=/usr/local DESTDIR=...: exit $rc, no file left (left: ${left:-none})" \
	test $rc -eq 0 -a -z "$left"

# PREFIX=/usr: Debian's multiarch library directory (make -n: what make
# install would run)
make -n -C "$TOP" install PREFIX=/usr DESTDIR="$TMP/usr" > "$TMP/usr.log" 2>&1
check "make install PREFIX=/usr puts the plugins in /usr/lib/$MA: each tool's own folder" \
	bash -c "grep -q '$TMP/usr/usr/lib/$MA/kernelshark/plugins' '$TMP/usr.log' &&
		 grep -q '$TMP/usr/usr/lib/$MA/trace-cmd/plugins/trace-fxt-input.so' '$TMP/usr.log' &&
		 grep -q '$TMP/usr/usr/lib/$MA/traceevent/plugins' '$TMP/usr.log' &&
		 ! grep -q '$TMP/usr/usr/lib/[a-z]*/plugins' '$TMP/usr.log'"
# the tree built for the default PREFIX again, as the tests after this
# one and the user's next make expect it
make -s -C "$TOP" all > "$TMP/install.log" 2>&1 ||
	sed 's/^/#   /' "$TMP/install.log" | tail -5
e2e_exit
