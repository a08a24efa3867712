#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Where trace-fxt convert writes, in both directions: never over its own
# input (same inode by any name), "-" is standard output, a device or a
# FIFO is written in place and stays what it was, a symlink is followed
# and its target replaced, a signal or a failure leaves no temporary file
# and an existing output as it was.
. "$(dirname "$0")/lib.sh"
export TRACECMD_PLUGIN_DIR=$TC_PLUGIN_DIR
e2e_plan 24
d=$TMP/w
mkdir -p "$d"
cp "$SAMPLES/lost-events.dat" "$d/in.dat"
cp "$d/in.dat" "$d/in.dat.orig"
$TRACE_FXT convert -q "$d/in.dat" -o "$d/ref.fxt" ||
	not_ok "reference conversion .dat -> FXT"
$TRACE_FXT convert -q "$d/ref.fxt" -o "$d/ref.dat" ||
	not_ok "reference conversion FXT -> .dat"
cp "$d/ref.fxt" "$d/in.fxt"

# refused IN OUT-as-named: non-zero, says why, input unchanged
refused() {
	local in=$1 out=$2 orig rc
	orig=$(mktemp -p "$TMP")
	cp "$in" "$orig"
	$TRACE_FXT convert -q "$in" -o "$out" 2> "$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "is the input" "$TMP/err" &&
	   cmp -s "$in" "$orig"; then
		ok "-o $(basename "$out") for input $(basename "$in"): exit $rc, \"$(cut -c1-60 "$TMP/err")...\", input unchanged"
	else
		cat "$TMP/err"
		not_ok "-o $(basename "$out") for input $(basename "$in") refused (exit $rc), input unchanged"
	fi
}
refused "$d/in.dat" "$d/in.dat"
refused "$d/in.fxt" "$d/in.fxt"
ln "$d/in.dat" "$d/hard.dat"
refused "$d/in.dat" "$d/hard.dat"
ln -s in.fxt "$d/sym.fxt"
refused "$d/in.fxt" "$d/sym.fxt"
refused "$d/in.dat" "$d/./in.dat"
rm -f "$d/hard.dat" "$d/sym.fxt"

# -o - is standard output, also into a pipe for the seeking .dat writer
check "-o - (.dat -> FXT) writes the FXT to standard output" \
	bash -c "'$TRACE_FXT' convert -q '$d/in.dat' -o - > '$d/stdout.fxt' &&
		 cmp '$d/stdout.fxt' '$d/ref.fxt'"
check "-o - (FXT -> .dat) into a pipe writes the .dat" \
	bash -c "'$TRACE_FXT' convert -q '$d/in.fxt' -o - | cat > '$d/pipe.dat' &&
		 cmp '$d/pipe.dat' '$d/ref.dat'"
check "the .dat from a pipe is read by trace-cmd report" \
	trace-cmd report -i "$d/pipe.dat" -q

# a character device is written in place, never replaced.  Private nodes
# of the null and full devices: a regression must not replace the
# system's /dev/null (as the temp-file-and-rename of old did).
if mknod -m 666 "$d/null" c 1 3 2> /dev/null &&
   mknod -m 666 "$d/full" c 1 7 2> /dev/null; then
	for dir in dat fxt; do
		[ $dir = dat ] && src=$d/in.dat || src=$d/in.fxt
		$TRACE_FXT convert -q "$src" -o "$d/null" 2> "$TMP/err"
		rc=$?
		if [ $rc -eq 0 ] && [ -c "$d/null" ] &&
		   [ "$(stat -c %t:%T "$d/null")" = 1:3 ]; then
			ok "-o NULL-DEVICE from .$dir: exit 0, still the 1:3 character device"
		else
			not_ok "-o NULL-DEVICE from .$dir: exit $rc, $(ls -l "$d/null")"
		fi
	done
	for dir in fxt dat; do
		# sched.dat's FXT is larger than the writer's buffer: the write
		# fails while records are still being read on the second thread
		# (map-feed.c), which must stop too
		[ $dir = dat ] && src=$BUILT_SAMPLES/sched.dat || src=$d/in.fxt
		timeout 60 $TRACE_FXT convert -q "$src" -o "$d/full" 2> "$TMP/err"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
		   grep -q "No space left" "$TMP/err" && [ -c "$d/full" ]; then
			ok "-o FULL-DEVICE from .$dir: exit $rc, \"$(sed "s|$d/||" "$TMP/err" | tail -1)\", still a device"
		else
			not_ok "-o FULL-DEVICE from .$dir fails and stays a device (exit $rc, $(ls -l "$d/full"))"
		fi
	done
	rm -f "$d/null" "$d/full"
else
	skip "mknod needs CAP_MKNOD: no private character device to write" 3
fi

# a FIFO is written in place: its reader gets the whole output
mkfifo "$d/fifo"
for dir in dat fxt; do
	[ $dir = dat ] && src=$d/in.dat ref=$d/ref.fxt ||
		src=$d/in.fxt ref=$d/ref.dat
	# bounded: a regression that replaces the FIFO would leave it waiting
	timeout 60 cat "$d/fifo" > "$d/fifo.out" &
	reader=$!
	$TRACE_FXT convert -q "$src" -o "$d/fifo" 2> "$TMP/err"
	rc=$?
	wait $reader
	if [ $rc -eq 0 ] && [ -p "$d/fifo" ] && cmp -s "$d/fifo.out" "$ref"; then
		ok "-o FIFO from .$dir: exit 0, the reader got all $(stat -c %s "$ref") bytes, still a FIFO"
	else
		cat "$TMP/err"
		not_ok "-o FIFO from .$dir: exit $rc, reader got $(stat -c %s "$d/fifo.out") of $(stat -c %s "$ref") bytes"
	fi
done

# a symlink is followed: the link stays, its target gets the output
mkdir -p "$d/real"
echo old > "$d/real/t.fxt"
chmod 600 "$d/real/t.fxt"
ln -s real/t.fxt "$d/link.fxt"
ln -s real/none.dat "$d/dangling.dat"
check "-o SYMLINK: exit 0" $TRACE_FXT convert -q "$d/in.dat" -o "$d/link.fxt"
check "-o SYMLINK: still a symlink to real/t.fxt" \
	test -L "$d/link.fxt" -a "$(readlink "$d/link.fxt")" = real/t.fxt
check "-o SYMLINK: its target holds the FXT" cmp "$d/real/t.fxt" "$d/ref.fxt"
check "-o SYMLINK: the target kept its mode 600" \
	test "$(stat -c %a "$d/real/t.fxt")" = 600
check "-o DANGLING-SYMLINK: the link's target is created" \
	bash -c "'$TRACE_FXT' convert -q '$d/in.fxt' -o '$d/dangling.dat' &&
		 test -L '$d/dangling.dat' && cmp '$d/real/none.dat' '$d/ref.dat'"

# a failure leaves an existing output as it was, and no temporary file
echo "precious" > "$d/keep.fxt"
head -c 300000 "$d/in.dat" > "$d/cut.dat"
before=$(ls -A "$d" | sort)
for out in keep.fxt; do
	$TRACE_FXT convert -q "$d/cut.dat" -o "$d/$out" 2> "$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] && cmp -s "$d/$out" <(echo precious) &&
	   [ "$(ls -A "$d" | sort)" = "$before" ]; then
		ok "failed conversion (cut .dat): exit $rc, existing output untouched, no new file"
	else
		not_ok "failed conversion (cut .dat): exit $rc, output $(head -c 20 "$d/$out" | od -c | head -1), files: $(ls -A "$d")"
	fi
done

# a signal mid-way: no temporary file at any time, the output untouched
# (stopped as soon as it holds an output descriptor, then signalled).
# An attempt whose stop came too late (the conversion had already ended
# or put its output in place) says nothing of the signal path: it is
# tried again, on the largest sample so that the window is wide.
catch_writing() {
	local pid=$1 fds i
	for i in $(seq 1 4000); do
		fds=$(ls -l /proc/$pid/fd 2> /dev/null | grep -c "$d/")
		if [ "${fds:-0}" -gt 0 ]; then
			kill -STOP $pid 2> /dev/null || return 1
			# stopped (T), not ended (Z), and nothing in place yet
			for i in $(seq 1 100); do
				grep -q '^[^)]*) T' /proc/$pid/stat 2> /dev/null &&
					break
				sleep 0.01
			done
			grep -q '^[^)]*) T' /proc/$pid/stat 2> /dev/null &&
				cmp -s "$d/keep.fxt" <(echo precious)
			return
		fi
		kill -0 $pid 2> /dev/null || return 1
	done
	return 1
}
killed() {
	local sig=$1 src=$2 pid try seen=
	for try in 1 2 3 4 5 6 7 8 9 10; do
		echo "precious" > "$d/keep.fxt"
		# a background job starts with SIGINT ignored unless told
		env --default-signal=$sig $TRACE_FXT convert -q "$src" \
			-o "$d/keep.fxt" 2> /dev/null &
		pid=$!
		catch_writing $pid && seen=$try
		during=$(ls -A "$d" | sort)
		kill -$sig $pid 2> /dev/null
		kill -CONT $pid 2> /dev/null
		wait $pid
		rc=$?
		[ -n "$seen" ] && break
	done
	if [ -z "$seen" ]; then
		not_ok "SIG$sig: never caught the conversion while it was writing in $try tries (exit $rc)"
	elif [ "$during" = "$before" ] && [ "$(ls -A "$d" | sort)" = "$before" ] &&
	     cmp -s "$d/keep.fxt" <(echo precious) && [ $rc -gt 128 ]; then
		ok "SIG$sig mid-conversion (try $seen): exit $rc, no temporary file while writing nor after, existing output untouched"
	else
		not_ok "SIG$sig mid-conversion: exit $rc; files while writing: $during; after: $(ls -A "$d")"
	fi
}
mkdir -p "$TMP/src"
cp "$BUILT_SAMPLES/sched.dat" "$TMP/src/in.dat"
killed TERM "$TMP/src/in.dat"
killed INT "$TMP/src/in.dat"

# the whole output is there once the command returns (synced, renamed)
check "a regular output replaced: exit 0, the new FXT in place" \
	bash -c "'$TRACE_FXT' convert -q '$d/in.dat' -o '$d/keep.fxt' &&
		 cmp '$d/keep.fxt' '$d/ref.fxt'"
check "no file left beside the outputs" \
	test -z "$(ls -A "$d" | grep -E '\.[A-Za-z0-9]{6}$')"
e2e_exit
