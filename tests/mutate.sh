#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check: does the test suite go red when the code breaks?
#
# Each tests/mutations/NAME.patch is a deliberate breakage of one
# component, with a header naming what it breaks ("# what:") and the
# tests that must catch it ("# tests:", patterns for tests/run-tests.sh's
# TESTS).  For each, a scratch copy of the built tree is made (in
# $MUTATE_DIR, default a new directory under /tmp), the patch applied,
# the copy rebuilt and each of those tests run there.  A mutation
# survives when every one of its tests stays green; the script prints a
# table and fails if any mutation survives, if a patch no longer applies
# or if a mutated copy does not build.
#
# Before the mutations the same tests run on the unchanged tree: a test
# that is red already proves nothing (MUTATE_BASELINE=0 leaves this out).
#
#   tests/mutate.sh [--full] [NAME...]
#     --full  also run the whole `make test` on each mutated copy
#     NAME    only these mutations (default: all of tests/mutations/)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
full=false
names=()
for a in "$@"; do
	case $a in
	--full) full=true ;;
	-h|--help) sed -n '3,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) names+=("$a") ;;
	esac
done
if [ ${#names[@]} -eq 0 ]; then
	for p in "$top"/tests/mutations/*.patch; do
		names+=("$(basename "$p" .patch)")
	done
fi
work=${MUTATE_DIR:-$(mktemp -d /tmp/trace-fxt-mutate.XXXXXX)}
mkdir -p "$work"
# Optional data beside the clone stays where it is for the copies.
export SHARED_SAMPLES=${SHARED_SAMPLES:-$top/../shared/samples}
export FUZZ_TEST_SECONDS=${FUZZ_TEST_SECONDS:-15}

header() { sed -n "s/^# $2: *//p" "$1" | head -1; }

# The tree's build folder (make's O, default build/); each copy gets its
# own copy of it as build/.
case ${O:-build} in
/*) obuild=$O ;;
*) obuild=$top/${O:-build} ;;
esac

# run_one TREE BUILD PATTERN LOG: 0 when that test is green in TREE
run_one() {
	BUILD_DIR=$2 TESTS=$3 "$1/tests/run-tests.sh" > "$4" 2>&1 &&
		grep -q '^tests: [1-9][0-9]* passed, 0 failed$' "$4"
}

echo "== building the unchanged tree"
# O as the tree's own make spells it: the dependency files name their
# objects by it, and a later plain `make` would not match an object
# named by its absolute path (a header changed, its objects not remade)
make -s -C "$top" -j2 O="${O:-build}" test-progs > "$work/build.log" 2>&1 || {
	tail -20 "$work/build.log"; echo "mutate: the tree does not build"; exit 1; }

status=0
rows=()
for n in "${names[@]}"; do
	patch=$top/tests/mutations/$n.patch
	if [ ! -r "$patch" ]; then
		rows+=("| $n | no such mutation | | |"); status=1; continue
	fi
	what=$(header "$patch" what)
	read -r -a tests <<<"$(header "$patch" tests)"
	echo "== $n: $what"
	if [ "${MUTATE_BASELINE:-1}" = 1 ]; then
		for t in "${tests[@]}"; do
			if ! run_one "$top" "$obuild" "$t" "$work/$n.base.log"; then
				tail -5 "$work/$n.base.log"
				echo "mutate: $t is red without the mutation"
				rows+=("| $n | $t red on the unchanged tree | | |")
				status=1
				continue 2
			fi
		done
	fi
	copy=$work/$n
	rm -rf "$copy"
	# The built tree, build products and all, so that only what the
	# patch touches is rebuilt; without .git (the copy is no checkout).
	mkdir -p "$copy"
	(shopt -s dotglob nullglob
	 for f in "$top"/*; do
		[ "$f" = "$top/.git" ] || [ "$f" = "$obuild" ] ||
			cp -a "$f" "$copy/" || exit 1
	 done) && cp -a "$obuild" "$copy/build" || exit 1
	if ! patch -p1 -s -d "$copy" < "$patch" > "$work/$n.patch.log" 2>&1; then
		cat "$work/$n.patch.log"
		rows+=("| $n | patch does not apply: update $patch | | |")
		status=1; continue
	fi
	if ! make -s -C "$copy" -j2 O=build test-progs \
		> "$work/$n.build.log" 2>&1; then
		tail -20 "$work/$n.build.log"
		rows+=("| $n | the mutated copy does not build | | |")
		status=1; continue
	fi
	red=() green=()
	for t in "${tests[@]}"; do
		log=$work/$n.$(echo "$t" | tr -c 'a-z0-9.\n-' _).log
		if run_one "$copy" "$copy/build" "$t" "$log"; then
			green+=("$t"); res=green
		else
			red+=("$t"); res="red ($(grep '^tests: ' "$log" | tail -1))"
		fi
		echo "   $t: $res"
	done
	verdict=caught
	[ ${#red[@]} -gt 0 ] || { verdict=SURVIVED; status=1; }
	if $full; then
		make -C "$copy" O=build BUILD_DIR="$copy/build" test \
			> "$work/$n.full.log" 2>&1
		rc=$?
		line=$(grep '^tests: ' "$work/$n.full.log" | tail -1)
		echo "   make test: exit $rc, $line"
		if [ $rc -eq 0 ]; then
			verdict="SURVIVED make test"; status=1
		else
			verdict="$verdict; make test: ${line#tests: }"
		fi
	fi
	rows+=("| $n | ${red[*]:-none} | ${green[*]:-none} | $verdict |")
	rm -rf "$copy"
done

echo
echo "| mutation | went red | stayed green | verdict |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo "(logs in $work)"
exit $status
