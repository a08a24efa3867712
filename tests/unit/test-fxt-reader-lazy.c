// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-reader-lazy.c - fxt_reader_set_lazy() and fxt_reader_args():
 * an event read lazily has its first argument, the others come when
 * asked and read as a full read gives them, and a lazy read stops where
 * and as a full read stops, whatever the bytes (plugin-fxt.so loads
 * converted files so).
 *
 * The file is made by the core's writer: events of every type with 0 to
 * FXT_MAX_ARGS arguments of every type, names and string values both
 * indexed and inline.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

#define NEVENTS	48

/* What an event says, as text: every field and argument. */
static void describe(const struct fxt_record *rec, char *buf, size_t n)
{
	const struct fxt_event *ev = &rec->event;
	size_t len;
	unsigned int i;

	len = (size_t)snprintf(buf, n, "%u %llu %llu.%llu %.*s/%.*s id=%llu end=%llu",
			       ev->type, (unsigned long long)ev->ts,
			       (unsigned long long)ev->thread.pid,
			       (unsigned long long)ev->thread.tid,
			       (int)ev->category.len, ev->category.ptr,
			       (int)ev->name.len, ev->name.ptr,
			       (unsigned long long)ev->id,
			       (unsigned long long)ev->end_ts);
	for (i = 0; i < ev->nargs && len < n; i++) {
		const struct fxt_arg *a = &ev->args[i];

		len += (size_t)snprintf(buf + len, n - len, " %u:%.*s=",
					a->type, (int)a->name.len,
					a->name.ptr);
		if (len >= n)
			break;
		if (a->type == FXT_ARG_STRING)
			len += (size_t)snprintf(buf + len, n - len, "%.*s",
						(int)a->str.len, a->str.ptr);
		else if (a->type == FXT_ARG_INT32 ||
			 a->type == FXT_ARG_UINT32)
			len += (size_t)snprintf(buf + len, n - len, "%u",
						a->u32);
		else if (a->type == FXT_ARG_BOOL)
			len += (size_t)snprintf(buf + len, n - len, "%d",
						a->b);
		else if (a->type != FXT_ARG_NULL)
			len += (size_t)snprintf(buf + len, n - len, "%llu",
						(unsigned long long)a->u64);
	}
}

/* Argument @k of event @i: every type, names and values of both kinds. */
static struct fxt_arg make_arg(struct fxt_writer *w, unsigned int i,
			       unsigned int k, char *text, size_t size)
{
	static const unsigned int types[] = {
		FXT_ARG_UINT32, FXT_ARG_INT64, FXT_ARG_STRING, FXT_ARG_DOUBLE,
		FXT_ARG_POINTER, FXT_ARG_BOOL, FXT_ARG_NULL, FXT_ARG_KOID,
		FXT_ARG_INT32, FXT_ARG_UINT64,
	};
	struct fxt_arg a = { .type = types[(i + k) % 10] };
	int len;

	len = snprintf(text, size, "arg%u%s", k, (i + k) % 3 ? "" : "-inline");
	a.name = fxt_str_make(text, (size_t)len);
	if ((i + k) % 3 == 0)
		a.name.id = FXT_STR_INLINE;
	else
		a.name = fxt_writer_str(w, text);
	switch (a.type) {
	case FXT_ARG_STRING:
		len = snprintf(text + 32, size - 32, "value %u of %u", k, i);
		a.str = fxt_str_make(text + 32, (size_t)len);
		if (i % 2)
			a.str.id = FXT_STR_INLINE;
		break;
	case FXT_ARG_DOUBLE:
		a.d = i + k / 8.0;
		break;
	case FXT_ARG_BOOL:
		a.b = (i + k) % 2;
		break;
	default:
		a.u64 = 1000ULL * i + k;
		break;
	}
	return a;
}

static char *write_file(size_t *size)
{
	static char text[FXT_MAX_ARGS][64];
	char *buf = NULL;
	FILE *f = open_memstream(&buf, size);
	struct fxt_writer *w;
	unsigned int i, k;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	w = fxt_writer_create_fp(f, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	ret = fxt_write_provider_info(w, 1, "lazy", 4);
	for (i = 0; !ret && i < NEVENTS; i++) {
		struct fxt_arg a[FXT_MAX_ARGS];
		struct fxt_event e = {
			.type = i % FXT_EVENT_TYPE_COUNT, .ts = 100 + i,
			.thread = { 10 + i % 3, 20 + i % 5 },
			.category = fxt_writer_str(w, "cat"),
			.name = fxt_writer_str(w, i % 4 ? "ev" : "other"),
			.id = 7 * i, .end_ts = 200 + i,
			.args = a, .nargs = i % (FXT_MAX_ARGS + 1),
		};

		for (k = 0; k < e.nargs; k++)
			a[k] = make_arg(w, i, k, text[k], sizeof(text[k]));
		ret = fxt_write_event(w, &e);
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	return buf;
}

/*
 * Read @buf fully and lazily side by side: every event the same once
 * fxt_reader_args() is called (@ask: on every event, else on none, when
 * what comes before the arguments and after them must still be right).
 */
static void compare(const char *buf, size_t size, bool ask)
{
	struct fxt_reader *full, *lazy;
	struct fxt_record a, b;
	char ta[2048], tb[2048];
	unsigned int events = 0, same = 0, left = 0;
	int ra, rb;

	full = fxt_reader_open_mem(buf, size, "full.fxt", 0);
	lazy = fxt_reader_open_mem(buf, size, "lazy.fxt", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(full);
	CU_ASSERT_PTR_NOT_NULL_FATAL(lazy);
	CU_ASSERT_EQUAL(fxt_reader_set_lazy(lazy, true), 0);
	while ((ra = fxt_reader_next(full, &a)) > 0) {
		rb = fxt_reader_next(lazy, &b);
		CU_ASSERT_EQUAL_FATAL(rb, 1);
		CU_ASSERT_EQUAL(a.args_left, 0);
		CU_ASSERT_EQUAL(a.offset, b.offset);
		if (a.type != FXT_REC_EVENT)
			continue;
		events++;
		CU_ASSERT(b.event.nargs <= 1);
		CU_ASSERT_EQUAL(b.event.nargs + b.args_left, a.event.nargs);
		left += b.args_left;
		if (ask) {
			CU_ASSERT_EQUAL(fxt_reader_args(lazy, &b), 0);
			CU_ASSERT_EQUAL(b.args_left, 0);
			/* a second time: nothing to do */
			CU_ASSERT_EQUAL(fxt_reader_args(lazy, &b), 0);
		} else {
			/* what is not asked for is not compared */
			a.event.nargs = b.event.nargs;
		}
		describe(&a, ta, sizeof(ta));
		describe(&b, tb, sizeof(tb));
		if (!strcmp(ta, tb))
			same++;
		else
			fprintf(stderr, "\n full: %s\n lazy: %s\n", ta, tb);
	}
	CU_ASSERT_EQUAL(ra, 0);
	CU_ASSERT_EQUAL(fxt_reader_next(lazy, &b), 0);
	printf("\n# %u events, %u arguments left to ask for, %u the same%s\n",
	       events, left, same, ask ? " once asked for" : "");
	CU_ASSERT_EQUAL(events, NEVENTS);
	CU_ASSERT(left > 0);
	CU_ASSERT_EQUAL(same, events);
	CU_ASSERT_EQUAL(fxt_reader_warned_records(full), 0);
	CU_ASSERT_EQUAL(fxt_reader_warned_records(lazy), 0);
	fxt_reader_close(full);
	fxt_reader_close(lazy);
}

static void test_same_asked(void)
{
	size_t size;
	char *buf = write_file(&size);

	compare(buf, size, true);
	free(buf);
}

static void test_same_unasked(void)
{
	size_t size;
	char *buf = write_file(&size);

	compare(buf, size, false);
	free(buf);
}

/*
 * Where and how a read of @buf ends: the records it delivered, its last
 * return and error message, into @out.
 */
static void read_end(const char *buf, size_t size, bool lazy, char *out,
		     size_t n)
{
	struct fxt_reader *r = fxt_reader_open_mem(buf, size, "bad.fxt", 0);
	struct fxt_record rec;
	unsigned int records = 0;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	if (lazy)
		fxt_reader_set_lazy(r, true);
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		records++;
	snprintf(out, n, "%u records, %d: %s", records, ret,
		 fxt_reader_error(r) ? fxt_reader_error(r) : "");
	fxt_reader_close(r);
}

/*
 * Every byte of the file changed, three ways: a lazy read (arguments
 * never asked for) stops where and as a full read stops.
 */
static void test_faults_same(void)
{
	static const uint8_t mask[] = { 0x01, 0x80, 0xff };
	char ea[640], eb[640];
	unsigned int tried = 0, same = 0, faults = 0;
	size_t size, i, m;
	char *buf = write_file(&size);

	for (i = 0; i < size; i++) {
		for (m = 0; m < sizeof(mask); m++) {
			buf[i] ^= (char)mask[m];
			read_end(buf, size, false, ea, sizeof(ea));
			read_end(buf, size, true, eb, sizeof(eb));
			buf[i] ^= (char)mask[m];
			tried++;
			faults += !!strstr(ea, "offset");
			if (!strcmp(ea, eb))
				same++;
			else if (tried - same < 5)
				fprintf(stderr, "\nbyte %zu ^ 0x%02x:\n full: %s\n lazy: %s\n",
					i, mask[m], ea, eb);
		}
	}
	printf("\n# %u damaged files (%u faulty to a full read): %u end the same lazily\n",
	       tried, faults, same);
	CU_ASSERT(faults > 0);
	CU_ASSERT_EQUAL(same, tried);
	/* and cut short anywhere */
	for (i = 8; i < size; i += 8) {
		read_end(buf, i, false, ea, sizeof(ea));
		read_end(buf, i, true, eb, sizeof(eb));
		CU_ASSERT_STRING_EQUAL(ea, eb);
	}
	free(buf);
}

static void test_refused(void)
{
	struct fxt_reader *r;
	struct fxt_record rec, old;
	size_t size;
	char *buf = write_file(&size);
	int ret;

	/* a strict reader must see every argument */
	r = fxt_reader_open_mem(buf, size, "strict.fxt", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_set_lazy(r, true), -EINVAL);
	fxt_reader_close(r);

	r = fxt_reader_open_mem(buf, size, "lazy.fxt", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_set_lazy(r, true), 0);
	memset(&old, 0, sizeof(old));
	while ((ret = fxt_reader_next(r, &rec)) > 0 && !old.args_left)
		if (rec.args_left)
			old = rec;
	CU_ASSERT_EQUAL_FATAL(ret, 1);
	CU_ASSERT(old.args_left > 0);
	/* not the record last read: refused, and nothing changes */
	CU_ASSERT_EQUAL(fxt_reader_args(r, &old), -EINVAL);
	CU_ASSERT(old.args_left > 0);
	/* lazy no more: the next event has all its arguments */
	CU_ASSERT_EQUAL(fxt_reader_set_lazy(r, false), 0);
	while ((ret = fxt_reader_next(r, &rec)) > 0 &&
	       (rec.type != FXT_REC_EVENT || rec.event.nargs < 2))
		;
	CU_ASSERT_EQUAL_FATAL(ret, 1);
	CU_ASSERT_EQUAL(rec.args_left, 0);
	fxt_reader_close(r);
	free(buf);
}

static CU_TestInfo lazy_tests[] = {
	{ "arguments asked for read as a full read's", test_same_asked },
	{ "the rest of a record reads the same unasked", test_same_unasked },
	{ "a damaged file ends lazily where and as fully", test_faults_same },
	{ "strict readers and stale records are refused", test_refused },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt reader lazy arguments", NULL, NULL, NULL, NULL, lazy_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
