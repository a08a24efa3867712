// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-dedup.c - one event the kernel wrote into two ring buffers
 * (trace-cmd-plugin/trace-fxt-input/map-dispatch.c): each buffer keeps its instant, but
 * what the mapping derives from the event (here a trace_marker write's
 * log record) is written once, when the two copies lie at most
 * MAP_DUP_WINDOW_NS (100 us) apart on the same CPU.
 *
 * A .dat with the top buffer and an instance "b", written by the core's
 * .dat writer, holds pairs of equal marker records: 99,999 ns, exactly
 * 100,000 ns and 100,001 ns apart, one pair on another CPU, and a pair
 * of different texts.  The FXT's log records are counted by text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "../e2e/dat-fixture.h"
#include "fxt-reader.h"

#include "map-run.h"
#include "unit.h"

#define T0	1000000000ull

static int id_print;

static void marker(int buffer, unsigned int cpu, uint64_t ts,
		   const char *text)
{
	uint8_t p[64] = { 0 };
	size_t n = strlen(text);

	memcpy(p + 8, text, n);
	p[8 + n] = '\n';
	fixture_emit_at(buffer, cpu, ts, id_print, 100, p, 8 + n + 2);
}

/* How many log records of the FXT at @buf hold @text. */
static unsigned int logs_of(const void *buf, size_t len, const char *text)
{
	struct fxt_reader *r = fxt_reader_open_mem(buf, len, "dedup.fxt", 0);
	struct fxt_record rec;
	size_t n = strlen(text);
	unsigned int count = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &rec) > 0)
		if (rec.type == FXT_REC_LOG && rec.log.msg.len >= n &&
		    !memcmp(rec.log.msg.ptr, text, n))
			count++;
	fxt_reader_close(r);
	return count;
}

static void test_window(void)
{
	static const struct { const char *text; unsigned int want; } c[] = {
		{ "inside", 1 }, { "edge", 1 }, { "outside", 2 },
		{ "other-cpu", 2 }, { "top-only", 1 }, { "b-only", 1 },
	};
	char path[] = "/tmp/test-map-dedup-XXXXXX";
	struct fxt_input_result res;
	int fd = mkstemp(path), b;
	unsigned int i, got;
	size_t size;
	char *fxt;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fixture_open("test-map-dedup", path);
	id_print = fixture_format("ftrace", fixture_print_format,
				  strlen(fixture_print_format));
	b = fixture_buffer("b");
	marker(0, 0, T0, "inside");
	marker(b, 0, T0 + 99999, "inside");
	marker(0, 0, T0 + 1000000, "edge");
	marker(b, 0, T0 + 1100000, "edge");
	marker(0, 0, T0 + 2000000, "outside");
	marker(b, 0, T0 + 2100001, "outside");
	marker(0, 0, T0 + 3000000, "other-cpu");
	marker(b, 1, T0 + 3000010, "other-cpu");
	marker(0, 0, T0 + 4000000, "top-only");
	marker(b, 0, T0 + 4000010, "b-only");
	fixture_close();

	size = map_run(path, NULL, &fxt, &res);
	CU_ASSERT_EQUAL(res.providers, 2);
	unlink(path);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		got = logs_of(fxt, size, c[i].text);
		printf("\n    %-10s %u log record(s), want %u", c[i].text, got,
		       c[i].want);
		CU_ASSERT_EQUAL(got, c[i].want);
	}
	free(fxt);
}

static CU_TestInfo tests[] = {
	{ "one event in two buffers: derived once, within 100 us, same CPU",
	  test_window },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-dispatch: events two buffers restate", NULL, NULL, NULL, NULL,
	  tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
