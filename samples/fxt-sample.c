// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-sample.c - write a small FXT file that uses every record type and
 * every argument type, the way a Fuchsia-style producer would: two
 * providers, threads with names, durations, async spans, flows, counters,
 * a log message, blobs and scheduling records.
 *
 * usage: fxt-sample OUT.fxt [--big-endian]
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fxt-writer.h"

#define MS	1000000ULL

static int write_sample(struct fxt_writer *w)
{
	struct fxt_thread ui = { 100, 101 }, worker = { 100, 102 };
	struct fxt_thread idle = { 0, 0 };
	struct fxt_str cat = fxt_writer_str(w, "app");
	struct fxt_str frame = fxt_writer_str(w, "frame");
	static const char blob[] = "opaque payload bytes";
	static char big[70000];
	struct fxt_arg args[10] = {
		{ .type = FXT_ARG_NULL, .name = fxt_writer_str(w, "marker") },
		{ .type = FXT_ARG_INT32, .name = fxt_writer_str(w, "i32"),
		  .i32 = -42 },
		{ .type = FXT_ARG_UINT32, .name = fxt_writer_str(w, "u32"),
		  .u32 = 4000000000U },
		{ .type = FXT_ARG_INT64, .name = fxt_writer_str(w, "i64"),
		  .i64 = -5000000000LL },
		{ .type = FXT_ARG_UINT64, .name = fxt_writer_str(w, "u64"),
		  .u64 = 18000000000000000000ULL },
		{ .type = FXT_ARG_DOUBLE, .name = fxt_writer_str(w, "ratio"),
		  .d = M_PI },
		{ .type = FXT_ARG_STRING, .name = fxt_writer_str(w, "label"),
		  .str = FXT_ARG_STR_NAME("hello, \"fxt\"") },
		{ .type = FXT_ARG_POINTER, .name = fxt_writer_str(w, "obj"),
		  .ptr = 0xffff888001234000ULL },
		{ .type = FXT_ARG_KOID, .name = fxt_writer_str(w, "koid"),
		  .koid = 101 },
		{ .type = FXT_ARG_BOOL, .name = fxt_writer_str(w, "ok"),
		  .b = true },
	};
	struct fxt_arg counter = { .type = FXT_ARG_INT64,
				   .name = fxt_writer_str(w, "bytes") };
	struct fxt_arg proc = { .type = FXT_ARG_KOID,
				.name = fxt_writer_str(w, FXT_ARG_NAME_PROCESS),
				.koid = 100 };
	struct fxt_arg weight = { .type = FXT_ARG_INT32,
				  .name = fxt_writer_str(w, "incoming_weight"),
				  .i32 = 10 };
	struct fxt_event ev = { .category = cat, .thread = ui };
	const char *msg = "sample log message from the ui thread";
	int i, ret = 0;

	ret |= fxt_write_provider_info(w, 1, "app", 3);
	ret |= fxt_write_init(w, 1000000000ULL);
	ret |= fxt_write_kernel_object(w, 100, FXT_OBJ_PROCESS,
				       fxt_str_make("sample-app", 10), NULL, 0);
	ret |= fxt_write_kernel_object(w, 101, FXT_OBJ_THREAD,
				       fxt_str_make("ui", 2), &proc, 1);
	ret |= fxt_write_kernel_object(w, 102, FXT_OBJ_THREAD,
				       fxt_str_make("worker", 6), &proc, 1);
	ret |= fxt_write_userspace_object(w, 0xffff888001234000ULL, 100,
					  fxt_str_make("Widget", 6), args + 1, 1);

	for (i = 0; i < 4; i++) {
		uint64_t t = (uint64_t)i * 16 * MS;

		ev.ts = t;
		ev.thread = ui;
		ev.name = frame;
		ev.type = FXT_EVENT_DURATION_BEGIN;
		ev.nargs = 0;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 1 * MS;
		ev.type = FXT_EVENT_FLOW_BEGIN;
		ev.id = 1000 + i;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 2 * MS;
		ev.type = FXT_EVENT_ASYNC_BEGIN;
		ev.name = fxt_writer_str(w, "load");
		ev.id = 7 + i;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 3 * MS;
		ev.thread = worker;
		ev.type = FXT_EVENT_DURATION_COMPLETE;
		ev.name = fxt_writer_str(w, "decode");
		ev.end_ts = t + 9 * MS;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 4 * MS;
		ev.type = FXT_EVENT_FLOW_STEP;
		ev.name = frame;
		ev.id = 1000 + i;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 5 * MS;
		ev.type = FXT_EVENT_ASYNC_INSTANT;
		ev.name = fxt_writer_str(w, "load");
		ev.id = 7 + i;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 10 * MS;
		ev.type = FXT_EVENT_ASYNC_END;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 11 * MS;
		ev.thread = ui;
		ev.type = FXT_EVENT_FLOW_END;
		ev.name = frame;
		ev.id = 1000 + i;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 12 * MS;
		ev.type = FXT_EVENT_COUNTER;
		ev.name = fxt_writer_str(w, "memory");
		ev.id = 1;
		counter.i64 = 1000000 + i * 4096;
		ev.args = &counter;
		ev.nargs = 1;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 13 * MS;
		ev.type = FXT_EVENT_INSTANT;
		ev.name = fxt_writer_str(w, "checkpoint");
		ev.args = args;
		ev.nargs = 10;
		ret |= fxt_write_event(w, &ev);

		ev.ts = t + 14 * MS;
		ev.type = FXT_EVENT_DURATION_END;
		ev.name = frame;
		ev.nargs = 0;
		ret |= fxt_write_event(w, &ev);
	}
	ret |= fxt_write_log(w, 15 * MS, &ui, msg, strlen(msg));
	ret |= fxt_write_blob(w, fxt_str_make("config", 6), FXT_BLOB_DATA,
			      blob, sizeof(blob) - 1);
	memset(big, 'x', sizeof(big));
	{
		struct fxt_large_blob lb = {
			.format = FXT_LARGE_BLOB_METADATA, .category = cat,
			.name = fxt_str_make("snapshot", 8), .ts = 20 * MS,
			.thread = ui, .args = args + 6, .nargs = 1,
			.data = big, .size = sizeof(big),
		};

		ret |= fxt_write_large_blob(w, &lb);
		lb.format = FXT_LARGE_BLOB_NO_META;
		lb.size = 100;
		ret |= fxt_write_large_blob(w, &lb);
	}

	/* A second provider: the kernel's view of the same threads. */
	ret |= fxt_write_provider_info(w, 2, "kernel", 6);
	ret |= fxt_write_init(w, 1000000000ULL);
	for (i = 0; i < 4; i++) {
		struct fxt_legacy_switch ls = {
			.ts = (uint64_t)i * 16 * MS, .cpu = (unsigned int)i % 2,
			.out_state = FXT_THREAD_BLOCKED, .out = idle, .in = ui,
			.out_prio = 0, .in_prio = 20,
		};
		struct fxt_sched_wakeup wk = {
			.ts = (uint64_t)i * 16 * MS + 2 * MS, .cpu = 1,
			.tid = worker.tid,
		};
		struct fxt_sched_switch ss = {
			.ts = (uint64_t)i * 16 * MS + 3 * MS, .cpu = 1,
			.out_state = FXT_THREAD_SUSPENDED, .out_tid = 0,
			.in_tid = worker.tid, .args = &weight, .nargs = 1,
		};

		ret |= fxt_write_legacy_switch(w, &ls);
		ret |= fxt_write_sched_wakeup(w, &wk);
		ret |= fxt_write_sched_switch(w, &ss);
	}
	ret |= fxt_write_provider_event(w, 2, FXT_PROVIDER_EVENT_BUFFER_FULL);
	ret |= fxt_write_provider_section(w, 1);
	ev.ts = 70 * MS;
	ev.type = FXT_EVENT_INSTANT;
	ev.name = fxt_writer_str(w, "done");
	ev.nargs = 0;
	ret |= fxt_write_event(w, &ev);
	return ret;
}

int main(int argc, char **argv)
{
	struct fxt_writer *w;
	unsigned int flags = 0;
	int fd, ret;

	if (argc < 2 || (argc > 2 && strcmp(argv[2], "--big-endian"))) {
		fprintf(stderr, "usage: fxt-sample OUT.fxt [--big-endian]\n");
		return 2;
	}
	if (argc > 2)
		flags |= FXT_WRITER_BIG_ENDIAN;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	w = fxt_writer_create_fd(fd, flags);
	if (!w) {
		perror("fxt-sample");
		return 1;
	}
	ret = write_sample(w);
	ret |= fxt_writer_close(w);
	if (close(fd) || ret) {
		fprintf(stderr, "fxt-sample: writing %s failed\n", argv[1]);
		return 1;
	}
	return 0;
}
