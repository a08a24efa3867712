#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make package-test: the Debian package built and installed on a minimal
# Debian 12 (bookworm) system that holds nothing of the development
# machine.  It needs root and the network (deb.debian.org or
# $PACKAGE_TEST_MIRROR) and takes minutes, so make test never runs it.
#
#  1. a minimal bookworm chroot (debootstrap --variant=minbase), made once
#     and kept as a tarball in $PACKAGE_TEST_CACHE (default
#     /var/cache/trace-fxt-chroot), with the .deb files apt fetched in it;
#     every run unpacks fresh copies of it;
#  2. make dist's tarball unpacked in a fresh copy; build-essential and exactly what
#     debian/control's Build-Depends name (apt-get build-dep ./, without
#     Recommends), nothing else;
#  3. dpkg-buildpackage -b -us -uc as a user who is not root, the unit
#     tests included (DEB_BUILD_OPTIONS=nocheck is not set);
#  4. lintian on the result, every tag shown (--pedantic --display-info),
#     failing on an error or a warning;
#  4b. the same in another fresh chroot with the nocheck build profile
#     (apt-get build-dep -P nocheck: no package marked <!nocheck>), and
#     the .deb compared with the first one's;
#  5. a second fresh chroot: apt-get install ./trace-fxt_*.deb (without
#     Recommends: what its Depends pull must be enough), then, in a login
#     shell that sets no plugin variable: trace-fxt convert finds the
#     installed input plugin; a recording's round trip through FXT
#     reports as the recording does; then trace-cmd installed: trace-cmd
#     report decodes a file converted from FXT (plugin_fxt.so) and
#     EventHeader user_events (plugin_eventheader.so) as the reference
#     does, which trace-cmd report -N does not; trace-fxt report of the FXT
#     prints what trace-cmd report prints of the recording;
#  6. the package's autopkgtest (debian/tests/smoke), run by autopkgtest
#     (its null runner) in that chroot;
#  7. apt-get purge trace-fxt: no file dpkg -L listed is left.
#
# How long each step takes, in seconds, measured on the 2-core development
# VM while others built on it (load 4 to 5: the figures vary by 2x), six
# runs on 2026-12-06 (the first with an empty cache; 3 with the chroots on
# disk, 3 in tmpfs, which made no clear difference):
#   base chroot: debootstrap, upgrade, tar (once;   45-99
#     again when 30 days old or PACKAGE_TEST_REFRESH=1)
#   build chroot: unpack, upgrade, apt-get build-dep  39-55  (273 packages)
#   dpkg-buildpackage, the 265 unit tests included    53-96
#   lintian: installed, run                           17-40
#   nocheck chroot: build-dep -P nocheck              33-54
#     dpkg-buildpackage with the nocheck profile      27-48
#   install chroot: apt-get install ./trace-fxt_*.deb 16-45
#   the checks (trace-cmd installed for them)          5-12
#   autopkgtest                                       14-41
#   apt-get purge, its checks                          2-9
# In all 4.5 to 7 minutes (267-429 s); a rerun downloads nothing (the .deb
# files apt fetched are kept in the cache directory) but spends the same
# time installing them.  It prints each step's time as it goes.  Two
# runs on one machine take turns (a lock in the cache directory).
#
#   tests/package/chroot-build.sh         as root; installs debootstrap
#                                         (apt-get) when it is missing
# Variables: PACKAGE_TEST_CACHE (the cache directory),
# PACKAGE_TEST_MIRROR (default http://deb.debian.org/debian),
# PACKAGE_TEST_SECURITY (default http://deb.debian.org/debian-security),
# PACKAGE_TEST_REFRESH=1 (make the base chroot again; it is remade anyway
# when older than 30 days), PACKAGE_TEST_KEEP=1 (keep the work directory
# and logs, and say where; a chroot in tmpfs goes with the run),
# PACKAGE_TEST_TMPFS=0 (the chroots on disk, in the work directory under
# /var/tmp, rather than in tmpfs: each takes up to 1.5 GB while it is
# used), PACKAGE_TEST_JOBS (dpkg-buildpackage's parallel=, default 2).
#
# Output: "ok - ..." / "not ok - ..." lines, then "package-test: N passed,
# N failed"; the exit status is 0 when every check passed.

# The whole script is one block, read before it runs: editing the file
# during a run does not change that run.
{
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${PACKAGE_TEST_CACHE:-/var/cache/trace-fxt-chroot}
MIRROR=${PACKAGE_TEST_MIRROR:-http://deb.debian.org/debian}
SECURITY=${PACKAGE_TEST_SECURITY:-http://deb.debian.org/debian-security}
JOBS=${PACKAGE_TEST_JOBS:-2}
TMPFS=${PACKAGE_TEST_TMPFS:-1}
SUITE=bookworm
BASE=$CACHE/$SUITE-minbase.tar

if [ "$(id -u)" -ne 0 ]; then
	echo "package-test: run as root (it makes chroots and installs in them): sudo make package-test" >&2
	exit 2
fi
# Everything below runs in a mount namespace of its own: the /proc and
# /dev/shm mounted in the chroots go away with it, however it ends.
if [ -z "${TRACE_FXT_PACKAGE_TEST_NS:-}" ]; then
	TRACE_FXT_PACKAGE_TEST_NS=1 exec unshare --mount --propagation private \
		"$0" "$@"
fi

# What make package-test's make exports stays out of make dist.
unset MAKEFLAGS MFLAGS MAKELEVEL O BUILD_DIR

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() {
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
finish() {
	echo "package-test: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
	exit
}
t0=$SECONDS
step() {
	echo "# [$((SECONDS - t0)) s] $*"
}
# stop WHY: a step others depend on failed
stop() {
	not_ok "$*"
	finish
}

WORK=$(mktemp -d /var/tmp/trace-fxt-package-test.XXXXXX)
MOUNTS=()
cleanup() {
	local m

	unmounts
	if [ "${PACKAGE_TEST_KEEP:-0}" = 1 ]; then
		echo "# kept: $WORK (logs in $WORK/log)"
		return
	fi
	# never remove through a mount point
	m=$(findmnt -rn -o TARGET | grep -F "$WORK/") &&
		{ echo "# still mounted, $WORK kept: $m"; return; }
	rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/log" "$CACHE/archives"
LOG=$WORK/log
# One run at a time on a machine: the cache (its base tarball, apt's
# cache of .deb files and its lock) is shared.
exec 9>"$CACHE/lock"
if ! flock -n 9; then
	echo "# another package-test is running (it holds $CACHE/lock): waiting for it"
	flock 9
fi

# root_sh ROOT CMD: CMD run by sh as root in the chroot ROOT, a clean
# environment
root_sh() {
	local root=$1; shift
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		/bin/sh -c "$*"
}
# user_sh ROOT CMD: CMD run in a login shell of the user "user" (not root)
user_sh() {
	local root=$1; shift
	chroot "$root" /usr/bin/env -i TERM=dumb \
		/usr/sbin/runuser -l user -c "$*"
}
# fresh NAME: $WORK/NAME, a new chroot (in a tmpfs of its own unless
# PACKAGE_TEST_TMPFS=0) unpacked from the base, brought up to date, with
# a user "user"
fresh() {
	local root=$WORK/$1

	mkdir -p "$root" || return 1
	if [ "$TMPFS" = 1 ]; then
		mount -t tmpfs -o size=8G,mode=0755 "trace-fxt-$1" "$root" &&
			MOUNTS+=("$root") || return 1
	fi
	tar -C "$root" -xf "$BASE" && mounts "$root" || return 1
	# a chroot thrown away after the run: dpkg need not sync each file
	# (as sbuild and pbuilder do)
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/trace-fxt-unsafe-io"
	root_sh "$root" "apt-get update -qq && apt-get dist-upgrade -y -q &&
			 useradd -m -s /bin/bash user" || return 1
}
# drop ROOT: the chroot made by fresh unmounted and removed
drop() {
	unmounts && rm -rf --one-file-system "$1"
}
# mounts ROOT: /proc, /dev/shm, /dev/pts (a new instance) in ROOT, and
# $CACHE/archives as apt's cache of .deb files (kept for the next run)
mounts() {
	local root=$1

	mkdir -p "$CACHE/archives/partial" &&
		mount --bind "$CACHE/archives" "$root/var/cache/apt/archives" &&
		MOUNTS+=("$root/var/cache/apt/archives") || return 1
	mount -t proc proc "$root/proc" && MOUNTS+=("$root/proc") || return 1
	mkdir -p "$root/dev/shm" "$root/dev/pts" &&
		mount -t tmpfs -o mode=1777 shm "$root/dev/shm" &&
		MOUNTS+=("$root/dev/shm") || return 1
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts \
		"$root/dev/pts" && MOUNTS+=("$root/dev/pts") || return 1
	rm -f "$root/dev/ptmx" && ln -s pts/ptmx "$root/dev/ptmx"
}
# unmounts: what mounts mounted, unmounted
unmounts() {
	local i

	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}"
	done
	MOUNTS=()
}
NORECS="-o APT::Install-Recommends=false -o APT::Install-Suggests=false"

# 1. the base chroot
if ! command -v debootstrap >/dev/null; then
	step "installing debootstrap on this machine (apt-get install debootstrap)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=300 --no-install-recommends debootstrap \
		>"$LOG/debootstrap-install.log" 2>&1 ||
		stop "apt-get install debootstrap (log: $LOG/debootstrap-install.log)"
fi
if [ "${PACKAGE_TEST_REFRESH:-0}" = 1 ] ||
   [ -n "$(find "$BASE" -mtime +30 2>/dev/null)" ]; then
	rm -f "$BASE"
fi
if [ ! -f "$BASE" ]; then
	step "making the base chroot: debootstrap --variant=minbase $SUITE $MIRROR"
	s=$SECONDS
	debootstrap --variant=minbase --cache-dir="$CACHE/archives" \
		"$SUITE" "$WORK/base" "$MIRROR" >"$LOG/debootstrap.log" 2>&1 ||
		{ tail -5 "$LOG/debootstrap.log" | sed 's/^/#   /'
		  stop "debootstrap $SUITE (log: $LOG/debootstrap.log)"; }
	cat >"$WORK/base/etc/apt/sources.list" <<-EOF
	deb $MIRROR $SUITE main
	deb $MIRROR $SUITE-updates main
	deb $SECURITY $SUITE-security main
	EOF
	# brought up to date (bookworm-updates, -security)
	{ mounts "$WORK/base" &&
	  root_sh "$WORK/base" "apt-get update -q && apt-get dist-upgrade -y -q"; } \
		>>"$LOG/debootstrap.log" 2>&1 ||
		stop "the base chroot upgraded (log: $LOG/debootstrap.log)"
	unmounts
	mountpoint -q "$WORK/base/var/cache/apt/archives" ||
		rm -f "$WORK"/base/var/cache/apt/archives/*.deb
	rm -f "$WORK"/base/var/lib/apt/lists/*_*
	tar -C "$WORK/base" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE" ||
		stop "the base chroot kept as $BASE"
	rm -rf --one-file-system "$WORK/base"
	ok "base chroot made and kept: $BASE ($(du -m "$BASE" | cut -f1) MB, $((SECONDS - s)) s)"
else
	ok "base chroot from the cache: $BASE ($(date -r "$BASE" +%F))"
fi

# 2. the source, the build dependencies
VERSION=$(sed -n 's/^VERSION[[:space:]]*:= *//p' "$TOP/Makefile")
ARCH=$(dpkg --print-architecture)
DEB=trace-fxt_${VERSION}_$ARCH.deb
make -s -C "$TOP" dist O="$WORK/dist" >"$LOG/dist.log" 2>&1 ||
	stop "make dist (log: $LOG/dist.log)"
grep -F 'note:' "$LOG/dist.log" | sed 's/^/# /'

step "build chroot: apt-get build-dep ./ (Build-Depends, no Recommends)"
s=$SECONDS
B=$WORK/build
fresh build >"$LOG/build-chroot.log" 2>&1 ||
	stop "build chroot unpacked (log: $LOG/build-chroot.log)"
mkdir -p "$B/home/user/src"
tar -C "$B/home/user/src" -xzf "$WORK/dist/trace-fxt-$VERSION.tar.gz"
root_sh "$B" "chown -R user: /home/user/src"
before=$(root_sh "$B" "dpkg-query -W | wc -l")
root_sh "$B" "apt-get install -y -q $NORECS build-essential &&
	 cd /home/user/src/trace-fxt-$VERSION && apt-get build-dep -y -q $NORECS ./" \
	>"$LOG/build-dep.log" 2>&1
rc=$?
after=$(root_sh "$B" "dpkg-query -W | wc -l")
check "build-essential and debian/control's Build-Depends installed: exit $rc, packages $before -> $after ($((SECONDS - s)) s)" \
	test $rc -eq 0
[ $rc -eq 0 ] || { tail -5 "$LOG/build-dep.log" | sed 's/^/#   /'; finish; }
root_sh "$B" "dpkg-query -W -f='\${Package}\n'" >"$LOG/build-packages.txt"

# 3. the build, as a user
step "dpkg-buildpackage -b -us -uc as a user, unit tests included"
s=$SECONDS
user_sh "$B" "cd src/trace-fxt-$VERSION &&
	 DEB_BUILD_OPTIONS=parallel=$JOBS dpkg-buildpackage -b -us -uc" \
	>"$LOG/dpkg-buildpackage.log" 2>&1
rc=$?
made=made; [ -f "$B/home/user/src/$DEB" ] || made="not made"
check "dpkg-buildpackage -b -us -uc as a user: exit $rc, $DEB $made ($((SECONDS - s)) s)" \
	test $rc -eq 0 -a "$made" = made
[ $rc -eq 0 ] || { tail -20 "$LOG/dpkg-buildpackage.log" | cut -c1-200 |
		   sed 's/^/#   /'; finish; }
units=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed' "$LOG/dpkg-buildpackage.log")
check "  the unit tests ran in the build (${units:-no summary})" \
	grep -qE '^tests: [1-9][0-9]* passed, 0 failed' "$LOG/dpkg-buildpackage.log"
mkdir -p "$WORK/out"
cp "$B/home/user/src/"trace-fxt_"$VERSION"_"$ARCH".* "$WORK/out/"

# the inputs of the checks below, made with the build's sample producers
user_sh "$B" "cd src/trace-fxt-$VERSION && mkdir -p ~/in &&
	 debian/build/samples/fxt-sample ~/in/s.fxt &&
	 debian/build/samples/eventheader-vectors ~/in/eh.vec &&
	 debian/build/samples/eventheader-dat ~/in/eh.vec samples/eventheader-formats ~/in/eh.dat &&
	 cp samples/atrace-markers.dat tests/e2e/eventheader-compare.py ~/in/" \
	>"$LOG/inputs.log" 2>&1 || stop "sample inputs made in the build chroot (log: $LOG/inputs.log)"
cp -r "$B/home/user/in" "$WORK/in"

# 4. lintian
step "lintian (installed in the build chroot)"
s=$SECONDS
root_sh "$B" "apt-get install -y -q $NORECS lintian" >"$LOG/lintian-install.log" 2>&1 ||
	stop "apt-get install lintian (log: $LOG/lintian-install.log)"
user_sh "$B" "lintian --pedantic --display-info --display-experimental \
	--fail-on error,warning src/trace-fxt_${VERSION}_$ARCH.changes" \
	>"$LOG/lintian.log" 2>&1
rc=$?
sed 's/^/# lintian: /' "$LOG/lintian.log"
check "lintian --pedantic: no error, no warning ($(grep -c '^[EWIPX]:' "$LOG/lintian.log") tags; $(root_sh "$B" "lintian --version"); $((SECONDS - s)) s)" \
	test $rc -eq 0
drop "$B"

# 4b. the nocheck build profile: the packages marked <!nocheck> are
# needed by the unit tests only
step "a second build chroot: apt-get build-dep -P nocheck ./, dpkg-buildpackage with DEB_BUILD_PROFILES=nocheck"
s=$SECONDS
N=$WORK/nocheck
fresh nocheck >"$LOG/nocheck-chroot.log" 2>&1 ||
	stop "nocheck build chroot unpacked (log: $LOG/nocheck-chroot.log)"
mkdir -p "$N/home/user/src"
tar -C "$N/home/user/src" -xzf "$WORK/dist/trace-fxt-$VERSION.tar.gz"
root_sh "$N" "chown -R user: /home/user/src"
nocheck_only=$(sed -n 's/^ *\([a-z0-9.+-]*\) <!nocheck>.*/\1/p' "$TOP/debian/control" |
	       tr '\n' ' ')
root_sh "$N" "apt-get install -y -q $NORECS build-essential &&
	 cd /home/user/src/trace-fxt-$VERSION &&
	 apt-get build-dep -y -q $NORECS -P nocheck ./" \
	>"$LOG/nocheck-build-dep.log" 2>&1
rc=$?
present=$(root_sh "$N" "dpkg-query -W -f='\${Package} \${Status}\n' $nocheck_only 2>/dev/null" |
	  sed -n 's/ install ok installed$//p' | tr '\n' ' ')
check "build-dep -P nocheck: exit $rc, $(root_sh "$N" "dpkg-query -W | wc -l") packages, none of the <!nocheck> ones (${nocheck_only% }) installed (installed: ${present:-none}; $((SECONDS - s)) s)" \
	test $rc -eq 0 -a -z "$present"
s=$SECONDS
user_sh "$N" "cd src/trace-fxt-$VERSION &&
	      DEB_BUILD_PROFILES=nocheck DEB_BUILD_OPTIONS='nocheck parallel=$JOBS' \
	      dpkg-buildpackage -b -us -uc" >"$LOG/nocheck-dpkg-buildpackage.log" 2>&1
rc=$?
made=made; [ -f "$N/home/user/src/$DEB" ] || made="not made"
check "  dpkg-buildpackage -b -us -uc with the nocheck profile: exit $rc, $DEB $made ($((SECONDS - s)) s)" \
	test $rc -eq 0 -a "$made" = made
[ $rc -eq 0 ] || tail -10 "$LOG/nocheck-dpkg-buildpackage.log" | cut -c1-200 |
	sed 's/^/#   /'
if cmp -s "$WORK/out/$DEB" "$N/home/user/src/$DEB"; then
	ok "  its $DEB is the checked build's, byte for byte (a reproducible build)"
else
	dpkg-deb -c "$WORK/out/$DEB" | awk '{ print $3, $6 }' >"$LOG/deb-checked.txt"
	dpkg-deb -c "$N/home/user/src/$DEB" 2>/dev/null |
		awk '{ print $3, $6 }' >"$LOG/deb-nocheck.txt"
	check "  its $DEB differs from the checked build's in bytes, not in files and sizes ($(diff "$LOG/deb-checked.txt" "$LOG/deb-nocheck.txt" | grep -c '^[<>]') lines differ)" \
		cmp -s "$LOG/deb-checked.txt" "$LOG/deb-nocheck.txt"
fi
drop "$N"

# 5. a fresh system: the package installed, used
step "install chroot: apt-get install ./$DEB (no Recommends)"
s=$SECONDS
I=$WORK/install
fresh install >"$LOG/install-chroot.log" 2>&1 ||
	stop "install chroot unpacked (log: $LOG/install-chroot.log)"
cp "$WORK/out/$DEB" "$I/tmp/"
cp -r "$WORK/in/." "$I/home/user/"
root_sh "$I" "chown -R user: /home/user"
root_sh "$I" "apt-get install -y -q $NORECS /tmp/$DEB" >"$LOG/apt-install.log" 2>&1
rc=$?
check "apt-get install ./$DEB pulls what it needs: exit $rc ($((SECONDS - s)) s)" \
	test $rc -eq 0
[ $rc -eq 0 ] || { tail -5 "$LOG/apt-install.log" | sed 's/^/#   /'; finish; }
root_sh "$I" "dpkg -L trace-fxt" >"$LOG/dpkg-L.txt"
input=$(grep -x '/usr/lib/[^/]*-linux-gnu[^/]*/trace-cmd/plugins/trace-fxt-input.so' \
	"$LOG/dpkg-L.txt")

user_sh "$I" env >"$LOG/login-env.txt"
check "a login shell sets no plugin variable" \
	bash -c "! grep PLUGIN '$LOG/login-env.txt'"
user_sh "$I" "trace-fxt convert atrace-markers.dat -o m.fxt" >"$LOG/convert.log" 2>&1
check "trace-fxt convert uses the installed input plugin: $(grep 'using plugin' "$LOG/convert.log")" \
	grep -qF "using plugin ${input:-/usr/lib/MULTIARCH/trace-cmd/plugins/trace-fxt-input.so}" \
	"$LOG/convert.log"
check "trace-fxt check m.fxt; trace-fxt convert m.fxt -o back.dat" \
	user_sh "$I" "trace-fxt check m.fxt >/dev/null && trace-fxt convert -q m.fxt -o back.dat"

# trace-cmd, as a user who wants trace-cmd report adds it
root_sh "$I" "apt-get install -y -q $NORECS trace-cmd python3" >"$LOG/trace-cmd-install.log" 2>&1 ||
	stop "apt-get install trace-cmd python3 (log: $LOG/trace-cmd-install.log)"
user_sh "$I" "trace-cmd report -R atrace-markers.dat" >"$LOG/ref.R" 2>/dev/null
user_sh "$I" "trace-cmd report -R back.dat" >"$LOG/back.R" 2>"$LOG/back.err"
lines=$(wc -l <"$LOG/ref.R")
check "trace-cmd report -R of the round trip equals the recording's ($lines lines, $(diff "$LOG/ref.R" "$LOG/back.R" | grep -c '^[<>]') differ)" \
	bash -c "[ $lines -gt 10 ] && cmp -s '$LOG/ref.R' '$LOG/back.R' && [ ! -s '$LOG/back.err' ]"
user_sh "$I" "trace-cmd report atrace-markers.dat" >"$LOG/ref.txt" 2>/dev/null
user_sh "$I" "trace-fxt report m.fxt" >"$LOG/m.txt" 2>/dev/null
lines=$(wc -l <"$LOG/ref.txt")
check "trace-fxt report m.fxt prints what trace-cmd report prints of the recording ($lines lines, $(diff "$LOG/ref.txt" "$LOG/m.txt" | grep -c '^[<>]') differ)" \
	bash -c "[ $lines -gt 10 ] && cmp -s '$LOG/ref.txt' '$LOG/m.txt'"

typed='marker=null i32=-42 u32=4000000000 i64=-5000000000'
user_sh "$I" "trace-fxt convert -q s.fxt -o s.dat && trace-cmd report s.dat" >"$LOG/s.txt" 2>&1
user_sh "$I" "trace-cmd report -N s.dat" >"$LOG/s.raw" 2>&1
check "trace-cmd report prints a file converted from FXT, arguments typed (plugin_fxt.so)" \
	grep -qF "$typed" "$LOG/s.txt"
check "  which trace-cmd report -N (no plugins) does not" \
	bash -c "! grep -qF '$typed' '$LOG/s.raw'"
user_sh "$I" "trace-cmd report -N eh.dat" >"$LOG/eh.raw" 2>/dev/null
user_sh "$I" "trace-cmd report eh.dat >eh.txt 2>/dev/null &&
	 python3 eventheader-compare.py vectors eh.vec eh.vec.linux.json eh.txt" \
	>"$LOG/eh-compare.log" 2>&1
rc=$?
check "trace-cmd report decodes EventHeader user_events as the reference does (plugin_eventheader.so): $(tail -1 "$LOG/eh-compare.log")" \
	test $rc -eq 0
check "  which trace-cmd report -N prints raw" \
	grep -q ' eventheader_flags=' "$LOG/eh.raw"

# 6. the package's autopkgtest (debian/tests), run by autopkgtest itself
# in the install chroot (its null runner: the chroot is the test bed)
step "autopkgtest ./$DEB SOURCE -- null, in the install chroot"
s=$SECONDS
mkdir -p "$I/home/user/pkg"
tar -C "$I/home/user/pkg" -xzf "$WORK/dist/trace-fxt-$VERSION.tar.gz"
root_sh "$I" "apt-get install -y -q $NORECS autopkgtest" \
	>"$LOG/autopkgtest-install.log" 2>&1 ||
	stop "apt-get install autopkgtest (log: $LOG/autopkgtest-install.log)"
root_sh "$I" "autopkgtest /tmp/$DEB /home/user/pkg/trace-fxt-$VERSION/ -- null" \
	>"$LOG/autopkgtest.log" 2>&1
rc=$?
sed -n '/^@@@@@@* summary/,$p' "$LOG/autopkgtest.log" | sed 's/^/# autopkgtest: /'
check "autopkgtest: debian/tests pass on the installed package: exit $rc ($((SECONDS - s)) s)" \
	test $rc -eq 0
rm -rf "$I/home/user/pkg"

# 7. apt-get purge: nothing left behind
step "apt-get purge trace-fxt"
root_sh "$I" "apt-get purge -y -q trace-fxt" >"$LOG/purge.log" 2>&1
rc=$?
status=$(chroot "$I" dpkg-query -W -f='${Status}' trace-fxt 2>/dev/null)
check "apt-get purge trace-fxt: exit $rc, no state left (${status:-dpkg forgot it})" \
	bash -c "[ $rc = 0 ] && ! echo '$status' | grep -qE ' (installed|config-files|half-)'"
left=
while read -r f; do
	[ "$f" = /. ] || [ ! -e "$I$f" ] && continue
	# a folder another package also holds stays, as it should
	[ -d "$I$f" ] && chroot "$I" dpkg -S "$f" >/dev/null 2>&1 && continue
	left+=" $f"
done <"$LOG/dpkg-L.txt"
check "none of the $(wc -l <"$LOG/dpkg-L.txt") paths dpkg -L listed is left (left:${left:- none})" \
	test -z "$left"
step "done"
finish
}
