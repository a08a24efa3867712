#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Record samples/net-events.dat: every net event and sched_switch while a
# few HTTP requests go over loopback.  net events carry up to 19 fields,
# more than one FXT record's 15 arguments: the converter's continuation
# records are tested on them.  Needs root, tracefs and python3.
#   usage: record-net-events.sh OUT.dat
set -euo pipefail
out=${1:?usage: record-net-events.sh OUT.dat}
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on; echo > $T/trace; echo 0 > $T/events/enable
echo 1 > $T/events/net/enable
echo 1 > $T/events/sched/sched_switch/enable
echo 1024 > $T/buffer_size_kb
python3 -m http.server 18765 --bind 127.0.0.1 > /dev/null 2>&1 &
srv=$!
sleep 0.5
echo 1 > $T/tracing_on
for i in 1 2 3; do
	python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:18765/').read()"
done
echo 0 > $T/tracing_on
kill $srv
trace-cmd extract -o "$out" > /dev/null
echo 0 > $T/events/enable
