# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the end-to-end scripts: every check prints one
# "ok - ..." or "not ok - ..." line that tests/run-tests.sh counts.

TOP=${TOP_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
TRACE_FXT=$TOP/trace-cmd-plugin/trace-fxt
SAMPLES=${SAMPLES:-$TOP/../shared/samples}
E2E_FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; E2E_FAILED=1; }
# check "what was checked" command...: ok when the command succeeds; its
# output is shown only when it fails.
check() {
	local what=$1; shift
	if "$@" >"$TMP/check.out" 2>&1; then
		ok "$what"
	else
		sed 's/^/#   /' "$TMP/check.out" | head -20
		not_ok "$what"
	fi
}
e2e_exit() { exit $E2E_FAILED; }
