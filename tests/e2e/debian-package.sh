#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian package, as a Debian user gets it: make dist's tarball built
# with dpkg-buildpackage -b (DEB_BUILD_OPTIONS=nocheck: the unit tests it
# would run are this suite's own), judged by lintian, installed with apt
# as on a fresh machine, used from a login shell that sets no plugin
# variable - trace-fxt convert, trace-cmd report of EventHeader
# user_events and of a converted file, man, completion - and a double
# click on an FXT file done as xdg-open does it, under Xvfb: KernelShark
# shows the file's entries (screenshot: DEB_SHOT, default
# /tmp/trace-fxt-deb-xdg-open.png).  Then apt remove, which must leave
# nothing behind.
#
# It installs the package system-wide (as root, as make test runs) and
# removes it however it ends: other tests, which expect no trace-fxt in
# the system's plugin folders, run after it.  A trace-fxt package that is
# installed already is never touched: the test says so and stops.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/e2e/ks-window.bash"
e2e_plan 29
SHOT=${DEB_SHOT:-/tmp/trace-fxt-deb-xdg-open.png}
VERSION=$(sed -n 's/^VERSION[[:space:]]*:= *//p' "$TOP/Makefile")
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
ARCH=$(dpkg --print-architecture)
DEB=trace-fxt_${VERSION}_$ARCH.deb

for tool in dpkg-buildpackage dh lintian apt-get xvfb-run kernelshark \
	    xdotool import convert xdg-open xdg-mime mimetype \
	    desktop-file-validate trace-cmd; do
	if ! command -v "$tool" >/dev/null; then
		not_ok "$tool is installed (scripts/deps.sh test)"
		e2e_exit
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	not_ok "run as root (make test as root): the test installs the package"
	e2e_exit
fi
if dpkg-query -W -f='${Status}' trace-fxt 2>/dev/null | grep -q installed; then
	not_ok "no trace-fxt package is installed before this test (it would replace it, then remove it): apt-get remove trace-fxt first"
	e2e_exit
fi

# What make test's make exports stays out of the package's makes.
unset MAKEFLAGS MFLAGS MAKELEVEL O BUILD_DIR

# make dist, unpacked where no git checkout is around it
make -s -C "$TOP" dist O="$TMP/dist" >"$TMP/dist.log" 2>&1
tarball=$TMP/dist/trace-fxt-$VERSION.tar.gz
check "make dist makes trace-fxt-$VERSION.tar.gz, with debian/ and LICENSE" \
	bash -c "tar tzf '$tarball' | grep -qx 'trace-fxt-$VERSION/debian/control' &&
		 tar tzf '$tarball' | grep -qx 'trace-fxt-$VERSION/LICENSE'"
mkdir -p "$TMP/src" && tar xzf "$tarball" -C "$TMP/src"
src=$TMP/src/trace-fxt-$VERSION

(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	dpkg-buildpackage -b -us -uc) >"$TMP/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -b -us -uc from the tarball: exit $rc" \
	test -f "$TMP/src/$DEB" -a $rc -eq 0
[ $rc -eq 0 ] || tail -15 "$TMP/build.log" | sed 's/^/#   /'
check "  make built the products only: no test program, sample or helper" \
	test ! -e "$src/debian/build/tests" -a ! -e "$src/debian/build/samples"
nofort=$(grep -E '^(cc|gcc|g\+\+|c\+\+) .* -c ' "$TMP/build.log" |
	 grep -vc -- '-D_FORTIFY_SOURCE=')
check "  every compile has dpkg-buildflags' CPPFLAGS (-D_FORTIFY_SOURCE; $nofort without)" \
	test "$nofort" = 0
pkgroot=$src/debian/trace-fxt
mapfile -t elves < <(cd "$pkgroot" && find usr -type f \( -name '*.so' -o -path 'usr/bin/*' \))
hardened() {
	local f

	for f in "${elves[@]}"; do
		readelf -lW "$pkgroot/$f" | grep -q GNU_RELRO &&
			readelf -dW "$pkgroot/$f" | grep -q 'BIND_NOW' &&
			nm -D "$pkgroot/$f" | grep -q '_chk@' ||
			{ echo "$f"; return 1; }
	done
}
check "  the command and its 4 plugins are hardened: RELRO, BIND_NOW, fortified calls (${#elves[@]} files)" \
	bash -c "$(declare -f hardened); pkgroot='$pkgroot'; elves=(${elves[*]}); [ \${#elves[@]} = 5 ] && hardened"
changed=$(date -u -d "@$(dpkg-parsechangelog -l "$src/debian/changelog" -S Timestamp)" +%F)
check "  the man pages carry debian/changelog's date ($changed, SOURCE_DATE_EPOCH), not the build's" \
	bash -c "zcat '$pkgroot/usr/share/man/man1/trace-fxt.1.gz' | grep -q '^\.TH .*\"${changed//-/\\\\-}\"'"

lintian --fail-on error "$TMP/src/trace-fxt_${VERSION}_$ARCH.changes" \
	>"$TMP/lintian.log" 2>&1
rc=$?
grep -v 'running with root privileges' "$TMP/lintian.log" | sed 's/^/# lintian: /'
check "lintian: no error in the package ($(grep -c '^W:' "$TMP/lintian.log") warnings)" \
	test $rc -eq 0

# where each file lands: each stock tool's own place
dpkg-deb -c "$TMP/src/$DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$TMP/files"
for f in /usr/bin/trace-fxt \
	 "/usr/lib/$MA/traceevent/plugins/plugin_eventheader.so" \
	 "/usr/lib/$MA/traceevent/plugins/plugin_fxt.so" \
	 "/usr/lib/$MA/trace-cmd/plugins/trace-fxt-input.so" \
	 "/usr/lib/$MA/kernelshark/plugins/plugin-fxt.so" \
	 /usr/share/man/man1/trace-fxt-convert.1.gz \
	 /usr/share/man/man7/trace-fxt-plugins.7.gz \
	 /usr/share/bash-completion/completions/trace-fxt \
	 /usr/share/mime/packages/trace-fxt.xml \
	 /usr/share/applications/trace-fxt.desktop; do
	grep -qxF "$f" "$TMP/files" || echo "$f" >>"$TMP/absent"
done
check "the package holds the command, the plugins where libtraceevent, libtracecmd and KernelShark look, the pages, completion, MIME type, desktop entry (absent: $(cat "$TMP/absent" 2>/dev/null | tr '\n' ' '))" \
	test ! -s "$TMP/absent"
dpkg-deb -x "$TMP/src/$DEB" "$TMP/x"
check "desktop-file-validate passes its desktop entry" \
	desktop-file-validate "$TMP/x/usr/share/applications/trace-fxt.desktop"

# Installed as on a fresh machine, removed however the test ends.
cleanup() {
	dpkg-query -W -f='${Status}' trace-fxt 2>/dev/null | grep -q installed &&
		apt-get remove -y -o DPkg::Lock::Timeout=300 trace-fxt >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
(cd "$TMP/src" && DEBIAN_FRONTEND=noninteractive apt-get install -y \
	-o DPkg::Lock::Timeout=300 "./$DEB") >"$TMP/apt.log" 2>&1
rc=$?
check "apt-get install ./$DEB: exit $rc" test $rc -eq 0
[ $rc -eq 0 ] || { tail -5 "$TMP/apt.log" | sed 's/^/#   /'; e2e_exit; }

# A new login, no plugin variable: what a user's session has.
mkdir -p "$TMP/home" "$TMP/u"
login() {
	env -i HOME="$TMP/home" TERM=dumb bash -l -c "cd '$TMP/u' && $1"
}
check "a login shell here sets no plugin variable" \
	bash -c "! env -i HOME='$TMP/home' bash -l -c env | grep -q PLUGIN"
cp "$SAMPLES/atrace-markers.dat" "$TMP/u/"
login "trace-fxt convert atrace-markers.dat -o m.fxt" >"$TMP/convert.log" 2>&1
check "trace-fxt convert uses the installed input plugin: $(grep 'using plugin' "$TMP/convert.log")" \
	grep -qF "using plugin /usr/lib/$MA/trace-cmd/plugins/trace-fxt-input.so" \
	"$TMP/convert.log"

# EventHeader user_events: the project's vectors in a .dat
vec=$TMP/u/eh.vec
"$BUILD/samples/eventheader-vectors" "$vec" >/dev/null &&
	"$BUILD/samples/eventheader-dat" "$vec" "$SAMPLES/eventheader-formats" \
		"$TMP/u/eh.dat" >/dev/null
login "trace-cmd report eh.dat" >"$TMP/eh.out" 2>/dev/null
login "trace-cmd report -N eh.dat" >"$TMP/eh.raw" 2>/dev/null
check "trace-cmd report decodes EventHeader user_events as the reference does" \
	python3 "$TOP/tests/e2e/eventheader-compare.py" vectors "$vec" \
	"$vec.linux.json" "$TMP/eh.out"
check "  which trace-cmd report -N (no plugins) prints raw: the plugin did it" \
	grep -q ' eventheader_flags=' "$TMP/eh.raw"

# a converted file: every FXT argument type, printed typed by plugin_fxt.so
typed='marker=null i32=-42 u32=4000000000 i64=-5000000000'
"$BUILD/samples/fxt-sample" "$TMP/u/s.fxt" >/dev/null 2>&1
login "trace-fxt convert -q s.fxt -o s.dat && trace-cmd report s.dat" \
	>"$TMP/s.out" 2>&1
login "trace-cmd report -N s.dat" >"$TMP/s.raw" 2>&1
check "trace-cmd report prints a file converted from FXT, arguments typed" \
	grep -qF "$typed" "$TMP/s.out"
check "  which trace-cmd report -N does not: plugin_fxt.so did it" \
	bash -c "! grep -qF '$typed' '$TMP/s.raw'"

check "man finds trace-fxt-open: $(login 'man -w trace-fxt-open' 2>&1)" \
	test "$(login 'man -w trace-fxt-open' 2>&1)" = /usr/share/man/man1/trace-fxt-open.1.gz
check "bash-completion loads trace-fxt's completion" \
	login 'source /usr/share/bash-completion/bash_completion &&
	       __load_completion trace-fxt &&
	       complete -p trace-fxt | grep -q _trace_fxt_complete'

# File types as a desktop finds them (shared-mime-info's database)
login "trace-fxt convert -q atrace-markers.dat -o m.fxt.gz &&
       trace-fxt convert -q atrace-markers.dat -o m.fxt.zst && cp m.fxt trace"
for t in m.fxt:application/x-fxt trace:application/x-fxt \
	 m.fxt.gz:application/x-compressed-fxt \
	 m.fxt.zst:application/x-zstd-compressed-fxt; do
	got=$(login "xdg-mime query filetype ${t%%:*}" 2>&1)
	check "xdg-mime: ${t%%:*} is ${t#*:} ($got)" test "$got" = "${t#*:}"
done
got=$(login "xdg-mime query default application/x-fxt" 2>&1)
check "xdg-mime: application/x-fxt opens with trace-fxt.desktop ($got)" \
	test "$got" = trace-fxt.desktop

# The double click: xdg-open m.fxt in an X session, KernelShark's
# window, its command line, a screenshot.
cat >"$TMP/session.sh" <<'EOF'
. "$TOP/tests/e2e/ks-window.bash"
ks_settings "$TMP/ks-settings"
xdg-open "$TMP/u/m.fxt" >"$TMP/open.log" 2>&1 &
for i in $(seq 120); do
	win=$(xdotool search --all --onlyvisible --name 'Kernel Shark' | head -1)
	[ -n "$win" ] && break
	sleep 0.5
done
sleep 3
if [ -n "$win" ]; then
	xdotool getwindowname "$win" >"$TMP/title"
	xdotool getwindowgeometry --shell "$win" >"$TMP/geometry"
	pid=$(xdotool getwindowpid "$win")
	tr '\0' ' ' </proc/"$pid"/cmdline >"$TMP/cmdline"
	import -window root "$TMP/shot.png"
	kill "$pid"
fi
wait
exit 0
EOF
export TMP TOP
timeout 120 env -i HOME="$TMP/home" PATH=/usr/local/bin:/usr/bin:/bin \
	TMP="$TMP" TOP="$TOP" xvfb-run -a -s "-screen 0 1280x1024x24" \
	bash -l "$TMP/session.sh" 2>"$TMP/xvfb.err"
check "xdg-open m.fxt: KernelShark's window shows it (title: $(cat "$TMP/title" 2>/dev/null))" \
	grep -q "m.fxt" "$TMP/title"
check "  started by the desktop entry with the installed plugin: $(cat "$TMP/cmdline" 2>/dev/null)" \
	grep -qF "kernelshark -p /usr/lib/$MA/kernelshark/plugins/plugin-fxt.so $TMP/u/m.fxt" \
	"$TMP/cmdline"
[ -f "$TMP/shot.png" ] && cp "$TMP/shot.png" "$SHOT"
rows=$(ks_table_rows "$TMP/shot.png" "$TMP/geometry")
check "  its event table shows the file's entries ($rows text lines, screenshot $SHOT)" \
	test "$rows" -ge 3

# apt remove: nothing left behind
dpkg -L trace-fxt 2>/dev/null | while read -r f; do
	[ -f "$f" ] && echo "$f"
done >"$TMP/owned"
apt-get remove -y -o DPkg::Lock::Timeout=300 trace-fxt >"$TMP/apt.log" 2>&1
rc=$?
check "apt-get remove trace-fxt: exit $rc, no conffile or state left" \
	bash -c "[ $rc = 0 ] && ! dpkg-query -W -f='\${Status}' trace-fxt 2>/dev/null | grep -q 'installed\|config-files'"
left=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <"$TMP/owned")
check "  none of its $(wc -l <"$TMP/owned") files is left (left: ${left:-none}), nor its plugin folders" \
	bash -c "[ -z '$left' ] && [ ! -e /usr/lib/$MA/trace-cmd ] &&
		 [ ! -e /usr/lib/$MA/traceevent/plugins/plugin_fxt.so ]"
got=$(login "xdg-mime query filetype m.fxt" 2>&1)
check "  the MIME database and the desktop cache forgot FXT (m.fxt is now $got)" \
	bash -c "[ '$got' != application/x-fxt ] &&
		 ! grep -q fxt /usr/share/applications/mimeinfo.cache /usr/share/mime/globs2"
e2e_exit
