// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-sample - write an FXT file with every kind of record KernelShark
 * can show, through the core's writer, for the plugin's GUI smoke test,
 * its benchmark and the tests (docs/DEVELOPING.md).
 *
 *   fxt-ks-sample [-n ROUNDS] [-c CPUS] [-B] OUT.fxt
 *
 * Two providers ("kernel" in ns, "app" in us ticks), named processes and
 * threads, and ROUNDS rounds (default 100) of: an ftrace-style
 * sched_switch instant restated as a context switch (as trace-fxt's
 * converter writes it), an irq instant, a counter, a duration begin/end
 * pair and a complete duration, async begin/instant/end, a flow
 * begin/step/end, a log message, a thread wakeup and a large blob.  -B
 * writes big-endian words.  Nothing in it is random: the same arguments
 * give the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-writer.h"
#include "sample-write.h"
#include "tcfxt.h"

#define ARG_U32(n, v) { .type = FXT_ARG_UINT32, .name = FXT_ARG_STR_NAME(n), \
			.u32 = (v) }
#define ARG_I32(n, v) { .type = FXT_ARG_INT32, .name = FXT_ARG_STR_NAME(n), \
			.i32 = (v) }
#define ARG_I64(n, v) { .type = FXT_ARG_INT64, .name = FXT_ARG_STR_NAME(n), \
			.i64 = (v) }
#define ARG_STR(n, s) { .type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME(n), \
			.str = { .ptr = (s), .len = sizeof(s) - 1 } }

enum { PROV_KERNEL = 1, PROV_APP = 2 };

struct sample {
	struct fxt_writer	*w;
	unsigned int		cpus;
	uint64_t		ts;	/* ns */
	unsigned long		rounds;
};

static const char *const comms[] = { "swapper", "worker-1", "worker-2",
				     "worker-3" };

static struct fxt_thread thr(unsigned int i)
{
	struct fxt_thread t = { i ? 100 : 0, i ? 100 + i : 0 };

	return t;
}

static int write_tasks(struct sample *s)
{
	struct fxt_arg proc = { .type = FXT_ARG_KOID,
				.name = FXT_ARG_STR_NAME(FXT_ARG_NAME_PROCESS),
				.koid = 100 };
	unsigned int i;
	int ret;

	ret = fxt_write_kernel_object(s->w, 100, FXT_OBJ_PROCESS,
				      fxt_str_make("sample", 6), NULL, 0);
	for (i = 1; !ret && i < 4; i++)
		ret = fxt_write_kernel_object(s->w, 100 + i, FXT_OBJ_THREAD,
					      fxt_str_make(comms[i],
							   strlen(comms[i])),
					      &proc, 1);
	return ret;
}

static int event(struct sample *s, unsigned int type, uint64_t ts,
		 struct fxt_thread t, const char *cat, const char *name,
		 uint64_t id, uint64_t end_ts, const struct fxt_arg *args,
		 unsigned int nargs)
{
	struct fxt_event ev = {
		.type = type,
		.ts = ts,
		.thread = t,
		.category = fxt_writer_str(s->w, cat),
		.name = fxt_writer_str(s->w, name),
		.id = id,
		.end_ts = end_ts,
		.nargs = nargs,
		.args = args,
	};

	return fxt_write_event(s->w, &ev);
}

/* An ftrace sched_switch the way trace-fxt's converter writes it. */
static int write_switch(struct sample *s, unsigned int cpu, unsigned int prev,
			unsigned int next)
{
	struct fxt_arg args[] = {
		ARG_STR("prev_comm", "worker"),
		ARG_I32("prev_pid", (int32_t)thr(prev).tid),
		ARG_I32("prev_prio", 120),
		ARG_I64("prev_state", 1),
		ARG_STR("next_comm", "worker"),
		ARG_I32("next_pid", (int32_t)thr(next).tid),
		ARG_I32("next_prio", 120),
		ARG_U32("cpu", cpu),
	};
	struct fxt_sched_switch cs = {
		.ts = s->ts, .cpu = cpu, .out_state = FXT_THREAD_BLOCKED,
		.out_tid = thr(prev).tid, .in_tid = thr(next).tid,
	};
	int ret;

	/* Perfetto's CPU tracks need the switch record; ftrace the fields. */
	args[0].str = fxt_str_make(comms[prev], strlen(comms[prev]));
	args[4].str = fxt_str_make(comms[next], strlen(comms[next]));
	ret = event(s, FXT_EVENT_INSTANT, s->ts, thr(prev), "sched",
		    "sched_switch", 0, 0, args, 8);
	return ret ? ret : fxt_write_sched_switch(s->w, &cs);
}

static int write_kernel_round(struct sample *s, unsigned int i)
{
	unsigned int cpu = i % s->cpus, cur = 1 + i % 3, next = 1 + (i + 1) % 3;
	struct fxt_arg irq[] = {
		ARG_I32("irq", 19), ARG_STR("name", "eth0"), ARG_U32("cpu", cpu),
	};
	struct fxt_arg freq[] = {
		ARG_U32("state", 800000 + 1000 * (i % 7)),
		ARG_U32("cpu_id", cpu),
		ARG_U32("cpu", cpu),
	};
	struct fxt_sched_wakeup wk = {
		.cpu = (cpu + 1) % s->cpus, .tid = thr(next).tid,
	};
	int ret;

	ret = write_switch(s, cpu, i % 4 ? cur : 0, next);
	s->ts += 1000;
	if (!ret)
		ret = event(s, FXT_EVENT_INSTANT, s->ts, thr(next), "irq",
			    "irq_handler_entry", 0, 0, irq, 3);
	s->ts += 1000;
	if (!ret)
		ret = event(s, FXT_EVENT_COUNTER, s->ts, thr(next), "power",
			    "cpu_frequency", cpu, 0, freq, 3);
	s->ts += 1000;
	wk.ts = s->ts;
	if (!ret)
		ret = fxt_write_sched_wakeup(s->w, &wk);
	s->ts += 1000;
	return ret;
}

/* The "app" provider counts in microseconds. */
static int write_app_round(struct sample *s, unsigned int i)
{
	uint64_t us = s->ts / 1000;
	struct fxt_thread t = thr(1 + i % 3);
	struct fxt_arg step[] = { ARG_U32("step", i) };
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA,
		.category = fxt_writer_str(s->w, "app"),
		.name = fxt_writer_str(s->w, "snapshot"),
		.ts = us + 9, .thread = t, .data = "blob-data", .size = 9,
	};
	char msg[64];
	int ret, n;

	ret = fxt_write_provider_section(s->w, PROV_APP);
	if (!ret)
		ret = event(s, FXT_EVENT_DURATION_BEGIN, us, t, "app", "work",
			    0, 0, step, 1);
	if (!ret)
		ret = event(s, FXT_EVENT_DURATION_END, us + 3, t, "app", "work",
			    0, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_DURATION_COMPLETE, us + 4, t, "app",
			    "compute", 0, us + 6, step, 1);
	if (!ret)
		ret = event(s, FXT_EVENT_ASYNC_BEGIN, us + 5, t, "app",
			    "request", i, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_ASYNC_INSTANT, us + 6, t, "app",
			    "request", i, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_ASYNC_END, us + 7, t, "app",
			    "request", i, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_FLOW_BEGIN, us + 5, t, "app", "hop",
			    i, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_FLOW_STEP, us + 6, t, "app", "hop",
			    i, 0, NULL, 0);
	if (!ret)
		ret = event(s, FXT_EVENT_FLOW_END, us + 7, t, "app", "hop",
			    i, 0, NULL, 0);
	n = snprintf(msg, sizeof(msg), "sample message %u", i);
	if (!ret)
		ret = fxt_write_log(s->w, us + 8, &t, msg, (size_t)n);
	if (!ret)
		ret = fxt_write_large_blob(s->w, &lb);
	if (!ret)
		ret = fxt_write_provider_section(s->w, PROV_KERNEL);
	s->ts += 10000;
	return ret;
}

static int write_sample(struct sample *s, unsigned long rounds)
{
	unsigned long i;
	int ret;

	ret = fxt_write_provider_info(s->w, PROV_APP, "app", 3);
	if (!ret)
		ret = fxt_write_init(s->w, 1000000);
	if (!ret)
		ret = fxt_write_provider_info(s->w, PROV_KERNEL, "kernel", 6);
	if (!ret)
		ret = fxt_write_init(s->w, 1000000000);
	if (!ret) {
		/* As trace-fxt starts a provider: its restatements then fold. */
		struct fxt_event info = {
			.type = FXT_EVENT_INSTANT, .ts = s->ts,
			.category = fxt_str_make(TCFXT_CAT, strlen(TCFXT_CAT)),
			.name = fxt_str_make(TCFXT_FILE_INFO, strlen(TCFXT_FILE_INFO)),
		};

		ret = fxt_write_event(s->w, &info);
	}
	if (!ret)
		ret = write_tasks(s);
	if (!ret)
		ret = fxt_write_blob(s->w, fxt_str_make("notes", 5),
				     FXT_BLOB_DATA, "no timestamp", 12);
	for (i = 0; !ret && i < rounds; i++) {
		ret = write_kernel_round(s, (unsigned int)i);
		if (!ret && i % 10 == 0)
			ret = write_app_round(s, (unsigned int)i);
	}
	return ret;
}

static int write_to(struct fxt_writer *w, void *priv)
{
	struct sample *s = priv;

	s->w = w;
	return write_sample(s, s->rounds);
}

static void usage(void)
{
	fputs("usage: fxt-ks-sample [-n ROUNDS] [-c CPUS] [-B] OUT.fxt\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sample s = { .cpus = 4, .ts = 1000000000ULL };
	unsigned long rounds = 100;
	unsigned int flags = 0;
	int c;

	while ((c = getopt(argc, argv, "n:c:B")) != -1) {
		switch (c) {
		case 'n':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			s.cpus = (unsigned int)strtoul(optarg, NULL, 0);
			if (!s.cpus || s.cpus > 256)
				usage();
			break;
		case 'B':
			flags |= FXT_WRITER_BIG_ENDIAN;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	s.rounds = rounds;
	return sample_write("fxt-ks-sample", argv[optind], flags, write_to, &s);
}
