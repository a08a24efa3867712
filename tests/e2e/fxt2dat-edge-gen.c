// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-edge-gen - write, with the core's FXT writer, the FXT file that
 * trace-fxt convert FXT -> .dat must handle at the .dat writer's edges:
 *
 *   - 300 providers (more than 255), the last one empty;
 *   - a context switch on CPU 300 (more CPUs than the legacy record has);
 *   - an instant whose string argument (20000 bytes) is bigger than a
 *     4096-byte ring-buffer page;
 *   - a gap of about one day between two events of one provider;
 *   - a duration-complete event written after later events (out of
 *     order, as producers write completed slices);
 *   - a string argument with a NUL and a newline in it, followed by
 *     another argument (one report line, both arguments on it).
 *
 *   fxt2dat-edge-gen OUT.fxt
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-writer.h"

#define NR_PROVIDERS	300
#define BIG_LEN		20000
#define DAY_NS		86400000000000ULL

static int instant(struct fxt_writer *w, uint64_t ts, uint64_t tid,
		   const char *name, const struct fxt_arg *args,
		   unsigned int nargs)
{
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = ts,
		.thread = { tid, tid },
		.category = fxt_writer_str(w, "edge"),
		.name = fxt_writer_str(w, name),
		.nargs = nargs,
		.args = args,
	};

	return fxt_write_event(w, &ev);
}

int main(int argc, char **argv)
{
	struct fxt_writer *w;
	struct fxt_arg a[2];
	char name[32], *big;
	unsigned int i;
	int fd, ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fxt2dat-edge-gen OUT.fxt\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = fd < 0 ? NULL : fxt_writer_create_fd(fd, 0);
	big = malloc(BIG_LEN);
	if (!w || !big)
		return 1;
	memset(big, 'x', BIG_LEN);
	big[BIG_LEN - 1] = 'y';

	for (i = 1; i <= NR_PROVIDERS && !ret; i++) {
		snprintf(name, sizeof(name), "p%u", i);
		ret = fxt_write_provider_info(w, i, name, strlen(name));
		if (ret || i == NR_PROVIDERS)
			continue;	/* the last provider stays empty */
		a[0].type = FXT_ARG_UINT32;
		a[0].name = fxt_writer_str(w, "n");
		a[0].u32 = i;
		ret = instant(w, 1000 + i, 1000 + i, "each", a, 1);
	}

	/* provider 1 again: the big event, the gap, the late slice */
	if (!ret)
		ret = fxt_write_provider_section(w, 1);
	if (!ret) {
		a[0].type = FXT_ARG_STRING;
		a[0].name = fxt_writer_str(w, "big");
		a[0].str = fxt_str_make(big, BIG_LEN);
		ret = instant(w, 5000, 7, "big", a, 1);
	}
	if (!ret) {
		a[0].type = FXT_ARG_STRING;
		a[0].name = fxt_writer_str(w, "s");
		a[0].str = fxt_str_make("x\0y\nz", 5);
		a[1].type = FXT_ARG_INT32;
		a[1].name = fxt_writer_str(w, "after");
		a[1].i32 = 7;
		ret = instant(w, 5500, 7, "ctl", a, 2);
	}
	if (!ret) {
		struct fxt_sched_switch cs = {
			.ts = 6000, .cpu = 300, .out_state = FXT_THREAD_BLOCKED,
			.out_tid = 7, .in_tid = 8,
		};

		ret = fxt_write_sched_switch(w, &cs);
	}
	if (!ret)
		ret = instant(w, 10000, 8, "before_gap", NULL, 0);
	if (!ret)
		ret = instant(w, 10000 + DAY_NS, 8, "after_gap", NULL, 0);
	if (!ret) {
		struct fxt_event ev = {
			.type = FXT_EVENT_DURATION_COMPLETE,
			.ts = 7000,
			.end_ts = 9000,
			.thread = { 8, 8 },
			.category = fxt_writer_str(w, "edge"),
			.name = fxt_writer_str(w, "late_slice"),
		};

		ret = fxt_write_event(w, &ev);
	}
	if (fxt_writer_close(w) || ret || close(fd)) {
		fprintf(stderr, "fxt2dat-edge-gen: writing failed\n");
		return 1;
	}
	free(big);
	return 0;
}
