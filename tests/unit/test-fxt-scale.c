// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-scale - the core at the edges of its tables and records:
 * providers restated many times, tens of thousands of providers, and log
 * messages split across records in the middle of 4-byte UTF-8 characters.
 * Every file is written with the writer and read back in strict mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

struct mem {
	char	*buf;
	size_t	len;
	FILE	*fp;
};

static struct fxt_writer *mem_open(struct mem *m)
{
	m->fp = open_memstream(&m->buf, &m->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->fp);
	return fxt_writer_create_fp(m->fp, 0);
}

static void mem_close(struct mem *m, struct fxt_writer *w)
{
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	fclose(m->fp);
}

static struct fxt_event instant(struct fxt_writer *w, uint64_t ts,
				const char *name)
{
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = ts, .thread = { 1, 2 },
		.category = fxt_writer_str(w, "cat"),
		.name = fxt_str_make(name, strlen(name)),
	};

	return ev;
}

/*
 * A provider info record for a known provider starts its tables afresh;
 * the memory the old tables held must count no more.  10000 restatements
 * with a few strings each once ran into the reader's memory budget.
 */
static void test_provider_restated(void)
{
	struct fxt_record rec;
	struct fxt_reader *r;
	struct fxt_writer *w;
	struct mem m;
	char name[32];
	int i, ret, events = 0, bad = 0;

	w = mem_open(&m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 10000; i++) {
		struct fxt_event ev;

		CU_ASSERT_EQUAL_FATAL(fxt_write_provider_info(w, 7, "p", 1), 0);
		snprintf(name, sizeof(name), "event-%d", i);
		ev = instant(w, (uint64_t)i, name);
		ev.name.id = FXT_STR_INLINE;
		CU_ASSERT_EQUAL_FATAL(fxt_write_event(w, &ev), 0);
	}
	mem_close(&m, w);

	r = fxt_reader_open_mem(m.buf, m.len, "restated", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type != FXT_REC_EVENT)
			continue;
		snprintf(name, sizeof(name), "event-%d", events++);
		bad += !fxt_str_eq(rec.event.name, name) ||
		       !fxt_str_eq(rec.event.category, "cat");
	}
	if (ret < 0)
		printf("\n    %s\n", fxt_reader_error(r));
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(events, 10000);
	CU_ASSERT_EQUAL(bad, 0);
	fxt_reader_close(r);
	free(m.buf);
}

/*
 * 60000 providers, each with its own string and thread tables, visited
 * twice: every event must resolve its category and name in its own
 * provider's table.  Finding a provider must not take time growing with
 * their number (this took minutes before providers were hashed), and
 * tables grow with what a provider uses (each here holds two strings
 * and one thread; the names are shared, as real providers share theirs).
 */
static void test_many_providers(void)
{
	const int n = 60000;
	struct fxt_record rec;
	struct fxt_reader *r;
	struct fxt_writer *w;
	struct mem m;
	char name[32], want[32];
	int i, pass, ret, events = 0, bad = 0;

	w = mem_open(&m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			struct fxt_event ev;

			snprintf(name, sizeof(name), "p%d", i);
			ret = pass ? fxt_write_provider_section(w, 1000 + i) :
				     fxt_write_provider_info(w, 1000 + i, name,
							     strlen(name));
			CU_ASSERT_EQUAL_FATAL(ret, 0);
			snprintf(name, sizeof(name), "e%d", i % 64);
			ev = instant(w, (uint64_t)i, name);
			ev.name = fxt_writer_str(w, name);
			CU_ASSERT_EQUAL_FATAL(fxt_write_event(w, &ev), 0);
		}
	}
	mem_close(&m, w);

	r = fxt_reader_open_mem(m.buf, m.len, "providers", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type != FXT_REC_EVENT)
			continue;
		i = (int)rec.provider_id - 1000;
		snprintf(want, sizeof(want), "e%d", i % 64);
		bad += !fxt_str_eq(rec.event.name, want);
		events++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(events, 2 * n);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_STRING_EQUAL(fxt_reader_provider_name(r, 1000 + n - 1),
			       "p59999");
	fxt_reader_close(r);
	free(m.buf);
}

/*
 * A log message longer than one record is split; a cut must never fall
 * inside a UTF-8 character, whatever its length, or the strict reader
 * (and every consumer) sees invalid text.  Try every alignment of 2-, 3-
 * and 4-byte characters against the cut.
 */
static void test_log_split_utf8(void)
{
	static const char *const chars[] = { "\xc3\xa9", "\xe2\x82\xac",
					     "\xf0\x9f\x98\x80" };
	struct fxt_thread t = { 1, 2 };
	size_t c, lead, k, clen, len;
	char *msg, *back;

	for (c = 0; c < 3; c++) {
		clen = strlen(chars[c]);
		for (lead = 0; lead < 4; lead++) {
			struct fxt_record rec;
			struct fxt_reader *r;
			struct fxt_writer *w;
			struct mem m;
			size_t got = 0;
			int ret, parts = 0;

			len = lead + 40000 / clen * clen;
			msg = malloc(len);
			back = malloc(len);
			CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
			CU_ASSERT_PTR_NOT_NULL_FATAL(back);
			memset(msg, 'x', lead);
			for (k = lead; k < len; k += clen)
				memcpy(msg + k, chars[c], clen);

			w = mem_open(&m);
			CU_ASSERT_PTR_NOT_NULL_FATAL(w);
			CU_ASSERT_EQUAL(fxt_write_provider_info(w, 1, "p", 1), 0);
			CU_ASSERT_EQUAL(fxt_write_log(w, 5, &t, msg, len), 0);
			mem_close(&m, w);

			r = fxt_reader_open_mem(m.buf, m.len, "log",
						FXT_READER_STRICT);
			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			while ((ret = fxt_reader_next(r, &rec)) > 0) {
				if (rec.type != FXT_REC_LOG)
					continue;
				if (got + rec.log.msg.len <= len)
					memcpy(back + got, rec.log.msg.ptr,
					       rec.log.msg.len);
				got += rec.log.msg.len;
				parts++;
			}
			if (ret < 0)
				printf("\n    %zu-byte chars after %zu: %s\n",
				       clen, lead, fxt_reader_error(r));
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT_EQUAL(parts, 2);
			CU_ASSERT_EQUAL(got, len);
			CU_ASSERT(got == len && !memcmp(back, msg, len));
			fxt_reader_close(r);
			free(m.buf);
			free(msg);
			free(back);
		}
	}
}

static CU_TestInfo scale_tests[] = {
	{ "provider restated 10000 times: strict read, no memory budget hit",
	  test_provider_restated },
	{ "60000 providers, each its own tables, visited twice",
	  test_many_providers },
	{ "log split across records never cuts a 2/3/4-byte UTF-8 char",
	  test_log_split_utf8 },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt scale: tables and records at their limits", NULL, NULL,
	  NULL, NULL, scale_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
