#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-fxt open's server, as Perfetto's UI meets it, on 127.0.0.1:9001
# only - in a network namespace of this script's own where the system
# lets it make one (so that nothing outside can reach it, nor take the
# port): the URL it prints is Perfetto's open_trace_in_ui's; it listens
# on the loopback address alone; a client sending the UI's Origin gets
# the exact bytes of the trace (a .dat converted as `convert --once`
# converts it: what Perfetto reads, in half the bytes; FXT as it is) with Access-Control-Allow-Origin and Cache-Control:
# no-cache; another origin is refused, and so is a second client while
# one fetches; the preflight gets what Perfetto's trace processor
# answers; the server exits by itself, within seconds, once the trace is
# fetched, and on SIGINT; xdg-open is given the URL when there is a
# display (a stand-in that fetches it as the UI would), not otherwise;
# a taken port and a file that is no trace are said.
if [ -z "${OPEN_NETNS:-}" ]; then
	for how in "unshare -n" "unshare -rn"; do
		if $how true 2>/dev/null; then
			exec $how env OPEN_NETNS="$how" bash "$0" "$@"
		fi
	done
fi
. "$(dirname "$0")/lib.sh"
e2e_plan 41
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
CLIENT="python3 $TOP/tests/e2e/open-client.py"
UI=https://ui.perfetto.dev

if [ -n "${OPEN_NETNS:-}" ]; then
	ip link set lo up
	echo "# in a network namespace of its own ($OPEN_NETNS)"
elif $CLIENT refused | grep -q accepted; then
	not_ok "127.0.0.1:9001 is free (no network namespace could be made here, and something listens there)"
	e2e_exit
else
	echo "# no network namespace could be made: on this machine's 127.0.0.1:9001"
fi
recordings atrace-markers.dat
dat=$SAMPLES/atrace-markers.dat
mkdir -p "$TMP/bin" "$TMP/tmpdir"
export TMPDIR=$TMP/tmpdir
# xdg-open's stand-in: notes its argument, then fetches the trace as the
# UI would with the URL
cat > "$TMP/bin/xdg-open" <<EOF
#!/bin/sh
printf '%s\n' "\$*" > "$TMP/xdg-open.args"
exec $CLIENT ui "\$1" "$TMP/xdg.body" > "$TMP/xdg.status"
EOF
chmod +x "$TMP/bin/xdg-open"
export PATH=$TMP/bin:$PATH

# start ARGS...: trace-fxt open in the background ($pid), output in
# $TMP/open.out and .err; waits until it listens
start() {
	rm -f "$TMP/xdg-open.args"
	timeout 60 $TRACE_FXT open "$@" > "$TMP/open.out" 2> "$TMP/open.err" &
	pid=$!
	$CLIENT wait
}
# ended WHAT: trace-fxt open exited by itself within 5 s, status 0
ended() {
	local i rc

	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		wait "$pid"
		not_ok "$1: the server exits by itself within 5 s"
		return
	fi
	wait "$pid"; rc=$?
	check "$1: the server exited by itself within $((i / 10)).$((i % 10)) s, status $rc" \
		test "$rc" -eq 0
}
# header NAME FILE: the value of header NAME in FILE (a response's head)
header() {
	sed -n "s/^$1: //Ip" "$2" | tr -d '\r'
}

# ---- a .dat, no display: converted, served, fetched once -------------
$TRACE_FXT convert -q --once --compression gzip "$dat" -o "$TMP/ref.fxt.gz"
ref_size=$(stat -c %s "$TMP/ref.fxt.gz")
unset DISPLAY WAYLAND_DISPLAY
start "$dat"
check "it listens on 127.0.0.1:9001, and on no other address ($(ss -ltnH | awk '{ print $4 }' | tr '\n' ' '))" \
	bash -c "ss -ltnH | awk '{ print \$4 }' | grep -qx 127.0.0.1:9001 && ! ss -ltnH | awk '{ print \$4 }' | grep -v '^127\.' | grep -q ':9001$'"
url="$UI/#!/?url=http://127.0.0.1:9001/atrace-markers.fxt.gz&referrer=trace-fxt"
check "the URL printed is open_trace_in_ui's form: $(cat "$TMP/open.out")" \
	test "$(cat "$TMP/open.out")" = "$url"
check "no display: xdg-open is not started, and it says so" \
	bash -c "[ ! -e '$TMP/xdg-open.args' ] && grep -q 'no display' '$TMP/open.err'"
st=$($CLIENT req GET /atrace-markers.fxt.gz https://evil.example "$TMP/evil")
check "another origin is refused: $st" \
	grep -q '^HTTP/1.1 403' <<<"$st"
check "  and the refusal names the UI as the one allowed origin" \
	test "$(header Access-Control-Allow-Origin "$TMP/evil.head")" = "$UI"
st=$($CLIENT req OPTIONS /atrace-markers.fxt.gz $UI "$TMP/pre")
check "the UI's preflight: $st, GET allowed, Private Network Access allowed" \
	bash -c "grep -q '^HTTP/1.1 204' <<<'$st' && grep -qi '^Access-Control-Allow-Methods: GET' '$TMP/pre.head' && grep -qi '^Access-Control-Allow-Private-Network: true' '$TMP/pre.head'"
st=$($CLIENT req GET /other.fxt $UI "$TMP/other")
check "another path: $st" grep -q '^HTTP/1.1 404' <<<"$st"
st=$($CLIENT req POST /atrace-markers.fxt.gz $UI "$TMP/post")
check "another method: $st" grep -q '^HTTP/1.1 405' <<<"$st"
st=$($CLIENT req HEAD /atrace-markers.fxt.gz $UI "$TMP/head")
check "HEAD: $st, Content-Length $ref_size, no body, the server still up" \
	bash -c "grep -q '^HTTP/1.1 200' <<<'$st' && [ \"\$(sed -n 's/^Content-Length: //Ip' '$TMP/head.head' | tr -d '\r')\" = $ref_size ] && [ ! -s '$TMP/head.body' ] && kill -0 $pid"
$CLIENT junk > "$TMP/junk"
check "garbage, a 64 KB path, a 1 MB header: $(tr '\n' ' ' < "$TMP/junk")- the server still up" \
	bash -c "kill -0 $pid && [ \$(grep -c ' -> ' '$TMP/junk') -eq 3 ]"
st=$($CLIENT req GET /atrace-markers.fxt.gz $UI "$TMP/got")
check "the UI's GET: $st" grep -q '^HTTP/1.1 200' <<<"$st"
check "  with Access-Control-Allow-Origin: $UI" \
	test "$(header Access-Control-Allow-Origin "$TMP/got.head")" = "$UI"
check "  with Cache-Control: no-cache" \
	test "$(header Cache-Control "$TMP/got.head")" = no-cache
check "  with Content-Type: application/octet-stream" \
	test "$(header Content-Type "$TMP/got.head")" = application/octet-stream
check "  the exact bytes of convert --once --compression gzip of the .dat ($ref_size)" \
	cmp "$TMP/got.body" "$TMP/ref.fxt.gz"
check "  which trace-fxt check reads as FXT" \
	$TRACE_FXT check "$TMP/got.body"
ended "fetched"
check "then a client is refused: $($CLIENT refused)" \
	test "$($CLIENT refused)" = refused
check "it said the trace was fetched" grep -q 'was fetched' "$TMP/open.err"
check "no temporary file left in \$TMPDIR ($(ls -A "$TMPDIR" | wc -l) entries)" \
	test -z "$(ls -A "$TMPDIR")"

# ---- FXT as it is; a second client while one fetches -----------------
# a file larger than the sockets' buffers, so that a stalled client holds
# the transfer: FXT's magic record, then 32 MB
printf '\x10\x00\x04\x46\x78\x54\x16\x00' > "$TMP/big trace.fxt"
head -c 32M /dev/urandom >> "$TMP/big trace.fxt"
export DISPLAY=:77
start -n "$TMP/big trace.fxt"
check "FXT is served under its name, made safe for the URL: $(cat "$TMP/open.out")" \
	test "$(cat "$TMP/open.out")" = "$UI/#!/?url=http://127.0.0.1:9001/big_trace.fxt&referrer=trace-fxt"
$CLIENT race /big_trace.fxt $UI "$TMP/big trace.fxt" > "$TMP/race"
check "a second client, while the first fetches, is refused: $(sed -n 's/^second: //p' "$TMP/race")" \
	grep -q '^second: HTTP/1.1 503' "$TMP/race"
check "the first gets the file as it is: $(sed -n 's/^first: //p' "$TMP/race")" \
	grep -q "^first: HTTP/1.1 200 OK, $(stat -c %s "$TMP/big trace.fxt") bytes, the file$" \
	"$TMP/race"
ended "fetched by the first"
check "-n with a display: xdg-open is not started" \
	test ! -e "$TMP/xdg-open.args"

# ---- a display: xdg-open gets the URL --------------------------------
start "$dat"
for i in $(seq 50); do
	[ -s "$TMP/xdg.status" ] && break
	sleep 0.1
done
check "with a display, xdg-open is given the URL: $(cat "$TMP/xdg-open.args" 2>/dev/null)" \
	test "$(cat "$TMP/xdg-open.args" 2>/dev/null)" = "$url"
check "  and what the UI fetches from it is the trace ($(cat "$TMP/xdg.status" 2>/dev/null))" \
	cmp "$TMP/xdg.body" "$TMP/ref.fxt.gz"
ended "fetched by xdg-open's page"
unset DISPLAY

# ---- --origin: a UI of one's own -------------------------------------
start -n --origin http://localhost:10000/ "$TMP/ref.fxt.gz"
check "--origin http://localhost:10000/: the URL is that UI's: $(cat "$TMP/open.out")" \
	test "$(cat "$TMP/open.out")" = "http://localhost:10000/#!/?url=http://127.0.0.1:9001/ref.fxt.gz&referrer=trace-fxt"
st=$($CLIENT req GET /ref.fxt.gz $UI "$TMP/o1")
check "--origin: ui.perfetto.dev is then another origin: $st" \
	grep -q '^HTTP/1.1 403' <<<"$st"
st=$($CLIENT req GET /ref.fxt.gz http://localhost:10000 "$TMP/o2")
check "--origin: the given one gets the trace: $st" \
	bash -c "grep -q '^HTTP/1.1 200' <<<'$st' && cmp -s '$TMP/o2.body' '$TMP/ref.fxt.gz' && [ \"\$(sed -n 's/^Access-Control-Allow-Origin: //Ip' '$TMP/o2.head' | tr -d '\r')\" = http://localhost:10000 ]"
ended "fetched from the given origin"

# ---- no Origin at all (curl): served, as the trace processor does -----
start -n "$TMP/ref.fxt.gz"
st=$($CLIENT req GET /ref.fxt.gz - "$TMP/n")
check "a client without an Origin (not a browser) is served: $st" \
	bash -c "grep -q '^HTTP/1.1 200' <<<'$st' && cmp -s '$TMP/n.body' '$TMP/ref.fxt.gz'"
ended "fetched without an Origin"

# ---- a pipe: its bytes, not an empty file -----------------------------
start -n <(cat "$dat")
path=$(sed -n 's|.*:9001\(/[^&]*\)&.*|\1|p' "$TMP/open.out")
st=$($CLIENT req GET "$path" $UI "$TMP/pipe")
check "a .dat from a pipe is converted and served at $path: $st" \
	bash -c "grep -q '^HTTP/1.1 200' <<<'$st' && cmp -s '$TMP/pipe.body' '$TMP/ref.fxt.gz'"
ended "fetched from a pipe"

# ---- Ctrl-C -----------------------------------------------------------
start -n "$dat"
kill -INT "$pid"
for i in $(seq 30); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
wait "$pid"; rc=$?
# timeout(1) passes on its child's death by a signal as 128 + the signal
check "SIGINT stops it (status $rc: SIGINT's) within 3 s, nothing listening" \
	bash -c "[ $rc -eq 130 ] && [ \"\$($CLIENT refused)\" = refused ]"
check "  and leaves no temporary file in \$TMPDIR" test -z "$(ls -A "$TMPDIR")"

# ---- errors -----------------------------------------------------------
$CLIENT hold 5 > "$TMP/hold" &
hold=$!
$CLIENT wait
timeout 20 $TRACE_FXT open -n "$dat" > /dev/null 2> "$TMP/err"; rc=$?
kill "$hold" 2>/dev/null; wait "$hold" 2>/dev/null
check "the port taken: exit $rc, \"$(head -1 "$TMP/err")\"" \
	bash -c "[ $rc -eq 1 ] && grep -q '127.0.0.1:9001 is in use' '$TMP/err'"
echo "no trace" > "$TMP/text.fxt"
timeout 20 $TRACE_FXT open -n "$TMP/text.fxt" > /dev/null 2> "$TMP/err"; rc=$?
check "a file that is no trace: exit $rc, \"$(head -1 "$TMP/err")\"" \
	bash -c "[ $rc -eq 1 ] && grep -q 'neither a trace-cmd recording (.dat) nor FXT' '$TMP/err'"
timeout 20 $TRACE_FXT open -n "$TMP/none.dat" > /dev/null 2> "$TMP/err"; rc=$?
check "a missing file: exit $rc, \"$(head -1 "$TMP/err")\"" \
	bash -c "[ $rc -eq 1 ] && grep -q 'No such file' '$TMP/err'"
head -c 40000 "$dat" > "$TMP/cut.dat"
timeout 20 $TRACE_FXT open -n "$TMP/cut.dat" > /dev/null 2> "$TMP/err"; rc=$?
check "a .dat cut short: exit $rc, convert's reason ($(grep -m1 offset "$TMP/err")), nothing served" \
	bash -c "[ $rc -eq 1 ] && grep -q 'cut.dat: offset 0x' '$TMP/err' && [ \"\$($CLIENT refused)\" = refused ]"
e2e_exit
