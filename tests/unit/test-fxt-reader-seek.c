// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-reader-seek.c - fxt_reader_seek(): a record read again reads
 * as it first did (plugin-fxt.so rereads converted rows so), and what it
 * cannot go back to is refused.
 *
 * The file is made by the core's writer: two providers with their own
 * string tables, names indexed from their second use, events whose
 * arguments refer to those tables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

#define NEVENTS	64

struct seen {
	uint64_t	offset;
	uint32_t	provider;
	uint64_t	ts;
	char		text[160];
};

/* What a record says, as text: name, time and every argument. */
static void describe(const struct fxt_record *rec, char *buf, size_t n)
{
	const struct fxt_event *ev = &rec->event;
	size_t len;
	unsigned int i;

	len = (size_t)snprintf(buf, n, "%.*s/%.*s", (int)ev->category.len,
			       ev->category.ptr, (int)ev->name.len,
			       ev->name.ptr);
	for (i = 0; i < ev->nargs && len < n; i++) {
		const struct fxt_arg *a = &ev->args[i];

		if (a->type == FXT_ARG_STRING)
			len += (size_t)snprintf(buf + len, n - len,
						" %.*s=%.*s",
						(int)a->name.len, a->name.ptr,
						(int)a->str.len, a->str.ptr);
		else
			len += (size_t)snprintf(buf + len, n - len,
						" %.*s=%llu",
						(int)a->name.len, a->name.ptr,
						(unsigned long long)a->u64);
	}
}

static char *write_file(size_t *size)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, size);
	struct fxt_writer *w;
	unsigned int i;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	w = fxt_writer_create_fp(f, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	ret = fxt_write_provider_info(w, 1, "one", 3);
	if (!ret)
		ret = fxt_write_provider_info(w, 2, "two", 3);
	for (i = 0; !ret && i < NEVENTS; i++) {
		char v[16];
		struct fxt_arg a[2] = {
			{ .type = FXT_ARG_UINT64,
			  .name = fxt_writer_str(w, "n"), .u64 = i },
			{ .type = FXT_ARG_STRING,
			  .name = fxt_writer_str(w, i % 2 ? "odd" : "even") },
		};
		struct fxt_event e = {
			.type = FXT_EVENT_INSTANT, .ts = 100 + i,
			.thread = { 10 + i % 3, 20 + i % 5 },
			.category = fxt_writer_str(w, "cat"),
			.name = fxt_writer_str(w, i % 4 ? "ev" : "other"),
			.args = a, .nargs = 2,
		};
		int len = snprintf(v, sizeof(v), "v%u", i % 7);

		a[1].str = fxt_str_make(v, (uint32_t)len);
		ret = fxt_write_provider_section(w, 1 + i % 2);
		if (!ret)
			ret = fxt_write_event(w, &e);
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	return buf;
}

static void test_reread_same(void)
{
	static struct seen seen[NEVENTS];
	struct fxt_record rec;
	struct fxt_reader *r;
	unsigned int n = 0, i, k, same = 0;
	size_t size;
	char *buf = write_file(&size), text[160];
	int ret;

	r = fxt_reader_open_mem(buf, size, "seek.fxt", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	/* not before the first record */
	CU_ASSERT_EQUAL(fxt_reader_seek(r, 0, 1), -EINVAL);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type != FXT_REC_EVENT || n == NEVENTS)
			continue;
		seen[n].offset = rec.offset;
		seen[n].provider = rec.provider_id;
		seen[n].ts = rec.event.ts;
		describe(&rec, seen[n].text, sizeof(seen[n].text));
		n++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(n, NEVENTS);
	/* every event again, in a scattered order */
	for (i = 0; i < n; i++) {
		k = i * 37 % n;
		ret = fxt_reader_seek(r, seen[k].offset, seen[k].provider);
		CU_ASSERT_EQUAL(ret, 0);
		if (ret || fxt_reader_next(r, &rec) <= 0 ||
		    rec.type != FXT_REC_EVENT)
			continue;
		describe(&rec, text, sizeof(text));
		if (rec.event.ts == seen[k].ts &&
		    rec.provider_id == seen[k].provider &&
		    !strcmp(text, seen[k].text))
			same++;
		else
			fprintf(stderr, "\nevent %u: \"%s\" read again as "
				"\"%s\"\n", k, seen[k].text, text);
	}
	printf("\n# %u events read again after the end: %u the same\n", n,
	       same);
	CU_ASSERT_EQUAL(same, n);

	CU_ASSERT_EQUAL(fxt_reader_seek(r, seen[0].offset + 4, 1), -EINVAL);
	CU_ASSERT_EQUAL(fxt_reader_seek(r, size, 1), -EINVAL);
	CU_ASSERT_EQUAL(fxt_reader_seek(r, seen[0].offset, 99), -EINVAL);
	fxt_reader_close(r);
	free(buf);
}

/* A reader of a pipe has nothing to go back to. */
static void test_stream_refused(void)
{
	struct fxt_record rec;
	struct fxt_reader *r;
	size_t size;
	char *buf = write_file(&size);
	int fds[2];

	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	/* the file is small: it fits the pipe */
	CU_ASSERT_EQUAL_FATAL(write(fds[1], buf, size), (ssize_t)size);
	close(fds[1]);
	r = fxt_reader_open_fd(fds[0], "pipe", FXT_READER_STREAM);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(fxt_reader_seek(r, 0, 1), -EINVAL);
	fxt_reader_close(r);
	close(fds[0]);
	free(buf);
}

static CU_TestInfo seek_tests[] = {
	{ "records read again read as they first did", test_reread_same },
	{ "stream input cannot seek", test_stream_refused },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt reader seek", NULL, NULL, NULL, NULL, seek_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
