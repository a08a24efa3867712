// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-counter.c - counter-like ftrace events as FXT counters
 * (trace-cmd-plugin/trace-fxt-input/map-counter.c), without a .dat: the event format is
 * parsed by libtraceevent, the record is laid out by hand at the format's
 * offsets, and the FXT written is read back with the core's reader.
 *
 * cpu_frequency's format is the kernel's (tests/unit/dat-formats/, copied
 * from a 6.x kernel's tracefs); what it must become is what Perfetto's
 * FXT import draws as one series per CPU holding only the value, in
 * process 0 (fuchsia_trace_parser.cc makes a counter track per process,
 * name, argument and id), as MAPPING.md states it.  rss_stat belongs to
 * the process whose memory it counts.  The other formats are written
 * here in the kernel's layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fxt-reader.h"
#include "map-counter.h"
#include "map-dispatch.h"
#include "unit.h"

struct run {
	struct tep_handle	*tep;
	struct map_ctx		ctx;
	struct map_buffer	buf;
	struct map_event	me;
	FILE			*fp;
	char			*out;
	size_t			len;
};

static void run_start(struct run *t, const char *system, const char *text,
		      size_t len, int id)
{
	memset(t, 0, sizeof(*t));
	t->tep = tep_alloc();
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(t->tep, text, len, system), 0);
	t->me.event = tep_find_event(t->tep, id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->me.event);
	t->me.name = fxt_str_make(t->me.event->name,
				  strlen(t->me.event->name));
	t->buf.tep = t->tep;
	t->buf.native = true;
	t->fp = open_memstream(&t->out, &t->len);
	t->ctx.w = fxt_writer_create_fp(t->fp, 0);
	t->ctx.iw = t->ctx.w;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->ctx.w);
	CU_ASSERT_EQUAL(fxt_write_provider_info(t->ctx.w, 1, "top", 3), 0);
}

/* Whether map-dispatch.c's table makes @me a counter (map-counter.c's). */
static bool is_counter(struct map_event *me)
{
	const struct map_special *s = map_dispatch_classify(me);

	return s && s->write == map_counter_write;
}

/* The thread the record was written on: process 42, thread 43. */
static const struct fxt_thread cur_thread = { .pid = 42, .tid = 43 };

/* Write @data as a record at @ts; the first counter event read back. */
static int run_write(struct run *t, void *data, int size, uint64_t ts,
		     struct fxt_record *got, struct fxt_reader **r)
{
	struct tep_record rec = { .ts = ts, .data = data, .size = size };
	int ret;

	ret = map_counter_write(&t->ctx, &t->buf, &t->me, &rec, &cur_thread);
	CU_ASSERT_EQUAL(fxt_writer_close(t->ctx.w), 0);
	t->ctx.w = NULL;
	fclose(t->fp);
	*r = fxt_reader_open_mem(t->out, t->len, "mem", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*r);
	while (fxt_reader_next(*r, got) > 0)
		if (got->type == FXT_REC_EVENT)
			return ret;
	got->type = FXT_REC_METADATA;	/* none */
	return ret;
}

static void run_end(struct run *t, struct fxt_reader *r)
{
	if (r)
		fxt_reader_close(r);
	if (t->ctx.w) {
		fxt_writer_close(t->ctx.w);
		fclose(t->fp);
	}
	free(t->out);
	tep_free(t->tep);
}

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	while (n--) {
		*p++ = v;
		v >>= 8;
	}
}

static void test_cpu_frequency(void)
{
	size_t len;
	char *text = unit_slurp("tests/unit/dat-formats/cpu_frequency.format",
				&len);
	uint8_t data[16] = { 0 };
	const struct fxt_arg *a;
	struct fxt_reader *r;
	struct fxt_record got;
	struct run t;

	run_start(&t, "power", text, len, 565);
	CU_ASSERT_TRUE(is_counter(&t.me));
	put_le(data, 565, 2);
	put_le(data + 8, 1800000, 4);		/* state, kHz */
	put_le(data + 12, 2, 4);		/* cpu_id */
	CU_ASSERT_EQUAL(run_write(&t, data, 16, 12345, &got, &r), 0);
	CU_ASSERT_EQUAL_FATAL(got.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(got.event.type, FXT_EVENT_COUNTER);
	CU_ASSERT_EQUAL(got.event.ts, 12345);
	CU_ASSERT(fxt_str_eq(got.event.category, TCFXT_CAT_COUNTER));
	CU_ASSERT(fxt_str_eq(got.event.name, "cpufreq.cpu2"));
	CU_ASSERT_EQUAL(got.event.thread.pid, 0);
	CU_ASSERT_EQUAL_FATAL(got.event.nargs, 1);
	a = fxt_args_find(got.event.args, 1, "kHz");
	CU_ASSERT(a && fxt_arg_bits(a) == 1800000);
	printf("\n    power/cpu_frequency on CPU 2 at 1800000 kHz: counter "
	       "cpufreq.cpu2 kHz=1800000 in process 0\n");
	run_end(&t, r);
	free(text);
}

/*
 * rss_stat's size @size: a signed value keeps its sign, the member names
 * the series, and it is a 32-bit argument when it fits (@type).
 */
static void signed_value(int64_t size, unsigned int type)
{
	static const char rss_stat[] =
		"name: rss_stat\nID: 700\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned int mm_id;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int curr;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:int member;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:long size;\toffset:24;\tsize:8;\tsigned:1;\n\n"
		"print fmt: \"mm_id=%u member=%d size=%ld\", REC->mm_id, "
		"REC->member, REC->size\n";
	uint8_t data[32] = { 0 };
	struct fxt_reader *r;
	struct fxt_record got;
	struct run t;

	run_start(&t, "kmem", rss_stat, sizeof(rss_stat) - 1, 700);
	CU_ASSERT_TRUE(is_counter(&t.me));
	put_le(data, 700, 2);
	put_le(data + 8, 77, 4);			/* mm_id */
	put_le(data + 12, 1, 4);			/* curr */
	put_le(data + 16, 3, 4);			/* member */
	put_le(data + 24, (uint64_t)size, 8);		/* size */
	CU_ASSERT_EQUAL(run_write(&t, data, 32, 7, &got, &r), 0);
	CU_ASSERT_EQUAL_FATAL(got.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(got.event.type, FXT_EVENT_COUNTER);
	CU_ASSERT(fxt_str_eq(got.event.category, TCFXT_CAT_COUNTER));
	/* MM_SHMEMPAGES, named as Perfetto names its own series */
	CU_ASSERT(fxt_str_eq(got.event.name, "mem.rss.shmem"));
	/* the current task's process, since curr says it is its memory */
	CU_ASSERT_EQUAL(got.event.thread.pid, 42);
	CU_ASSERT_EQUAL_FATAL(got.event.nargs, 1);
	CU_ASSERT(fxt_str_eq(got.event.args[0].name, "bytes"));
	CU_ASSERT_EQUAL(got.event.args[0].type, type);
	CU_ASSERT_EQUAL(type == FXT_ARG_INT32 ? got.event.args[0].i32 :
			got.event.args[0].i64, size);
	printf("\n    rss_stat size=%lld: mem.rss.shmem bytes=%s(%lld)",
	       (long long)size, type == FXT_ARG_INT32 ? "int32" : "int64",
	       (long long)(type == FXT_ARG_INT32 ? got.event.args[0].i32 :
			   got.event.args[0].i64));
	run_end(&t, r);
}

static void test_signed_value(void)
{
	signed_value(-4096, FXT_ARG_INT32);
	signed_value(INT32_MIN, FXT_ARG_INT32);
	/* 8 GiB of shared memory: past 32 bits, one more word */
	signed_value(8LL << 30, FXT_ARG_INT64);
	signed_value((int64_t)INT32_MIN - 1, FXT_ARG_INT64);
	printf("\n");
}

/* A record too short for its value field writes nothing. */
static void test_short_record(void)
{
	size_t len;
	char *text = unit_slurp("tests/unit/dat-formats/cpu_frequency.format",
				&len);
	uint8_t data[16] = { 0 };
	struct fxt_reader *r;
	struct fxt_record got;
	struct run t;

	run_start(&t, "power", text, len, 565);
	CU_ASSERT_TRUE(is_counter(&t.me));
	CU_ASSERT_EQUAL(run_write(&t, data, 10, 1, &got, &r), 0);
	CU_ASSERT_NOT_EQUAL(got.type, FXT_REC_EVENT);
	run_end(&t, r);
	free(text);
}

/* Only the listed events, and only with their value field. */
static void test_classify(void)
{
	static const char fake_idle[] =
		"name: cpu_idle\nID: 600\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:u32 other;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%u\", REC->other\n";
	size_t len;
	char *text = unit_slurp("tests/unit/dat-formats/sched_switch.format",
				&len);
	struct run t;

	run_start(&t, "sched", text, len, 372);
	CU_ASSERT_FALSE(is_counter(&t.me));
	run_end(&t, NULL);
	run_start(&t, "power", fake_idle, sizeof(fake_idle) - 1, 600);
	CU_ASSERT_FALSE(is_counter(&t.me));
	run_end(&t, NULL);
	free(text);
}

static CU_TestInfo counter_tests[] = {
	{ "the kernel's cpu_frequency: one series for its CPU in process 0",
	  test_cpu_frequency },
	{ "rss_stat: a signed value in its process, the member names the "
	  "series, 32 bits when it fits", test_signed_value },
	{ "a record short of its value field writes nothing",
	  test_short_record },
	{ "classify: listed events with their value field only",
	  test_classify },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-counter: counter-like events", NULL, NULL, NULL, NULL,
	  counter_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
