// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-dat-check.c - datcheck.h on trace.dat v6 files built here byte by
 * byte from trace-cmd.dat.v6(5) and the kernel's ring-buffer page layout,
 * in both byte orders.
 *
 * The well-formed files are first read by the real libtracecmd (its
 * records counted), so that what the check accepts is what the reader
 * reads - in particular the big-endian event headers, whose type_len sits
 * in the top bits.  Then single faults are put in and each must be
 * refused with its offset: the commit word, an event's length, padding
 * that goes backwards, the CPU data beyond the file, every cut.  Salvaged
 * (DATCHECK_SALVAGE), the same faults in the page are listed as damage
 * instead, with the good events around them (an event shorter than its
 * format damaged alone, the file cut inside the page: the events before
 * the cut), and libtracecmd reads the check's view of the file: the good
 * events only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "dat-bytes.h"
#include "unit.h"
#include "datcheck.h"

#define PAGE		4096
#define NR_EVENTS	3

/* The file being built (d writes into buf), and where its parts lie. */
struct bytes {
	struct dat_bytes d;
	uint8_t		buf[3 * PAGE];
	size_t		cpu_list;	/* where CPU 0's offset and size are */
	size_t		page;		/* the page's offset */
};

/* An event header word: type_len in the low bits (LE) or top bits (BE). */
static uint32_t ev_word(const struct bytes *b, unsigned int type_len,
			unsigned int delta)
{
	return b->d.big ? type_len << 27 | delta : delta << 5 | type_len;
}

/*
 * A TIME_SHIFT option (id 12), as a host-guest recording has it: trace
 * id, flags, @cpus, then per CPU @count (time, offset, scaling) samples;
 * @size_at gets where the CPU count lies.
 */
static void put_time_shift(struct bytes *b, uint32_t cpus, uint32_t count,
			   size_t *cpus_at)
{
	uint32_t i, k, n = cpus < 4 ? cpus : 4;

	dat_put(&b->d, 12, 2);
	dat_put(&b->d, 16 + n * (4 + 24 * count), 4);
	dat_put(&b->d, 0x1234, 8);		/* peer's trace id */
	dat_put(&b->d, 0, 4);			/* flags */
	*cpus_at = b->d.len;
	dat_put(&b->d, cpus, 4);
	for (i = 0; i < n; i++) {
		dat_put(&b->d, count, 4);
		for (k = 0; k < 3 * count; k++)
			dat_put(&b->d, k < count ? 1000 * (k + 1) : 0, 8);
	}
}

/*
 * One CPU, one page, NR_EVENTS events of 16 bytes (type_len 4); with
 * @ts_cpus, a TIME_SHIFT option of that many CPUs (4 at most written) and
 * @ts_count samples each, *@ts_at where its CPU count lies; with
 * @clock_size, a TRACECLOCK option and, after the CPU list, the v6
 * trace_clock text that size claims (its 15 bytes written).
 */
static void build_all(struct bytes *b, int big, uint32_t ts_cpus,
		      uint32_t ts_count, size_t *ts_at,
		      const uint64_t *clock_size)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	b->d.data = b->buf;
	b->d.big = big;
	dat_put_raw(&b->d, "\x17\x08\x44tracing6", 11);
	dat_put(&b->d, 0, 1);			/* the version's NUL */
	dat_put(&b->d, big, 1);
	dat_put(&b->d, 8, 1);			/* long size */
	dat_put(&b->d, PAGE, 4);
	dat_put_raw(&b->d, "header_page", 12);
	dat_put_text(&b->d, dat_header_page_8, 8);
	dat_put_raw(&b->d, "header_event", 13);
	dat_put_text(&b->d, dat_header_event, 8);
	dat_put(&b->d, 0, 4);			/* ftrace formats */
	dat_put(&b->d, 1, 4);			/* event systems */
	dat_put_raw(&b->d, "test", 5);
	dat_put(&b->d, 1, 4);
	dat_put_text(&b->d, dat_test_event_format, 8);
	dat_put(&b->d, 0, 4);			/* kallsyms */
	dat_put(&b->d, 0, 4);			/* printk */
	dat_put_text(&b->d, "42 test\n", 8);	/* cmdlines */
	dat_put(&b->d, 1, 4);			/* CPUs */
	dat_put_raw(&b->d, "options  ", 10);
	if (ts_cpus)
		put_time_shift(b, ts_cpus, ts_count, ts_at);
	if (clock_size) {
		dat_put(&b->d, 4, 2);		/* TRACECLOCK */
		dat_put(&b->d, 15, 4);
		dat_put_raw(&b->d, "[local] global", 15);
	}
	dat_put(&b->d, 0, 2);			/* no more options */
	dat_put_raw(&b->d, "flyrecord", 10);
	b->cpu_list = b->d.len;
	dat_put(&b->d, PAGE, 8);
	dat_put(&b->d, PAGE, 8);
	if (clock_size) {
		dat_put(&b->d, *clock_size, 8);
		dat_put_raw(&b->d, "[local] global", 15);
	}
	b->d.len = PAGE;			/* the page, page-aligned */
	b->page = b->d.len;
	dat_put(&b->d, 1000000, 8);		/* timestamp */
	dat_put(&b->d, NR_EVENTS * 20, 8);	/* commit: 3 x (4 + 16) */
	for (i = 0; i < NR_EVENTS; i++) {
		dat_put(&b->d, ev_word(b, 4, 100), 4);
		dat_put(&b->d, DAT_TEST_EVENT_ID, 2);	/* common_type */
		dat_put(&b->d, 0, 1);
		dat_put(&b->d, 0, 1);
		dat_put(&b->d, 42, 4);		/* pid */
		dat_put(&b->d, i, 8);
	}
	b->d.len = 2 * PAGE;
}

static void build_ts(struct bytes *b, int big, uint32_t ts_cpus,
		     uint32_t ts_count, size_t *ts_at)
{
	build_all(b, big, ts_cpus, ts_count, ts_at, NULL);
}

static void build(struct bytes *b, int big)
{
	build_all(b, big, 0, 0, NULL, NULL);
}

static int write_tmp(const struct bytes *b, char *path)
{
	int fd;

	strcpy(path, "/tmp/test-dat-check-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, b->d.data, b->d.len) != (ssize_t)b->d.len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int count_one(struct tracecmd_input *h, struct tep_record *r,
		     int cpu, void *priv)
{
	(*(int *)priv)++;
	return 0;
}

/* Records libtracecmd reads from @b; -1 if it cannot open it. */
static int count_with_libtracecmd(const struct bytes *b)
{
	struct tracecmd_input *h;
	char path[64];
	int n = 0;

	if (write_tmp(b, path))
		return -1;
	h = tracecmd_open(path, 0);
	unlink(path);
	if (!h)
		return -1;
	if (tracecmd_iterate_events(h, NULL, 0, count_one, &n) < 0)
		n = -1;
	tracecmd_close(h);
	return n;
}

static void expect_ok(const struct bytes *b, const char *what)
{
	char err[256];
	int ret = datcheck_buf(b->d.data, b->d.len, err, sizeof(err));

	printf("\n    %s: %s", what, ret ? err : "accepted");
	CU_ASSERT_EQUAL(ret, 0);
}

static void expect_refused(const struct bytes *b, const char *what,
			   size_t off, const char *words)
{
	char err[256], want[32];
	int ret = datcheck_buf(b->d.data, b->d.len, err, sizeof(err));

	printf("\n    %s: %s", what, ret ? err : "ACCEPTED");
	snprintf(want, sizeof(want), "offset 0x%zx: ", off);
	CU_ASSERT_EQUAL(ret, -EBADMSG);
	CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, words));
}

static void test_well_formed(void)
{
	struct bytes b;
	int big, n;

	for (big = 0; big < 2; big++) {
		build(&b, big);
		/* the reader itself reads what was built */
		n = count_with_libtracecmd(&b);
		printf("\n    libtracecmd reads %d of %d events", n, NR_EVENTS);
		CU_ASSERT_EQUAL(n, NR_EVENTS);
		expect_ok(&b, big ? "big endian" : "little endian");
	}
}

static void patch(struct bytes *b, size_t off, uint64_t v, unsigned int n)
{
	size_t len = b->d.len;

	b->d.len = off;
	dat_put(&b->d, v, n);
	b->d.len = len;
}

static void test_page_faults(void)
{
	struct bytes b;
	int big;

	for (big = 0; big < 2; big++) {
		build(&b, big);
		patch(&b, b.page + 8, ~0ULL, 8);
		expect_refused(&b, "commit all 0xFF", b.page + 8,
			       "page commit size 134217727");
		build(&b, big);
		patch(&b, b.page + 8, PAGE - 16 + 1, 8);
		expect_refused(&b, "commit one past the page", b.page + 8,
			       "larger than the page");
		build(&b, big);
		/* the second event claims 28 * 4 bytes */
		patch(&b, b.page + 16 + 20, ev_word(&b, 28, 0), 4);
		expect_refused(&b, "event past the commit", b.page + 16 + 20,
			       "event of 112 bytes");
		build(&b, big);
		/* the second event: padding back to the first */
		patch(&b, b.page + 16 + 20, ev_word(&b, 29, 0), 4);
		patch(&b, b.page + 16 + 24, (uint32_t)-24, 4);
		expect_refused(&b, "padding backwards", b.page + 16 + 20,
			       "goes backwards");
		/*
		 * A commit of 1 byte: kbuffer still reads the first header,
		 * whose length word (or type) reaches past the commit.
		 */
		build(&b, big);
		patch(&b, b.page + 8, 1, 8);
		patch(&b, b.page + 16, ev_word(&b, 0, 0), 4);
		patch(&b, b.page + 20, 0x016b0901, 4);
		expect_refused(&b, "long event header past a 1-byte commit",
			       b.page + 16, "outside the page's 1 committed");
		build(&b, big);
		patch(&b, b.page + 8, 1, 8);
		expect_refused(&b, "short event header past a 1-byte commit",
			       b.page + 16, "outside the page's 1 committed");
		build(&b, big);
		patch(&b, b.page + 16, ev_word(&b, 1, 0), 4);
		expect_refused(&b, "event shorter than the common fields",
			       b.page + 16, "shorter than the common fields");
	}
}

static void test_layout_faults(void)
{
	struct bytes b;
	char err[256];
	size_t n, bad = 0;
	int big;

	for (big = 0; big < 2; big++) {
		build(&b, big);
		patch(&b, b.cpu_list, PAGE * 2, 8);
		expect_refused(&b, "CPU data past the end", b.cpu_list,
			       "beyond the end of the file");
		build(&b, big);
		patch(&b, b.cpu_list + 8, 100, 8);
		expect_refused(&b, "CPU data not whole pages", PAGE,
			       "not a whole number");
		build(&b, big);
		patch(&b, 14, 1000, 4);
		expect_refused(&b, "page size 1000", 14, "not a power of two");
		build(&b, big);
		for (n = 0; n < b.page + 16; n++) {
			/* the first @n bytes alone */
			if (!datcheck_buf(b.d.data, n, err, sizeof(err)) ||
			    strncmp(err, "offset 0x", 9))
				bad++;
		}
		printf("\n    every cut of the first %zu bytes refused with "
		       "an offset: %zu exceptions", b.page + 16, bad);
		CU_ASSERT_EQUAL(bad, 0);
	}
}

/*
 * TIME_SHIFT: libtracecmd allocates for its CPU count and each CPU's
 * sample count before reading what they promise (tsync_cpu_offsets_load):
 * counts the option cannot hold are refused, a whole one is read.
 */
static void test_time_shift(void)
{
	struct bytes b;
	size_t at;
	int big, n;

	for (big = 0; big < 2; big++) {
		build_ts(&b, big, 2, 3, &at);
		n = count_with_libtracecmd(&b);
		printf("\n    with 2 CPUs of 3 offsets: libtracecmd reads %d "
		       "of %d events", n, NR_EVENTS);
		CU_ASSERT_EQUAL(n, NR_EVENTS);
		expect_ok(&b, "TIME_SHIFT of 2 CPUs, 3 samples each");
		build_ts(&b, big, 2, 3, &at);
		patch(&b, at, 0x616c0000, 4);
		expect_refused(&b, "TIME_SHIFT of 1634467840 CPUs", at,
			       "1634467840 CPUs of offsets");
		build_ts(&b, big, 2, 3, &at);
		patch(&b, at + 4, 0xffffffff, 4);
		expect_refused(&b, "TIME_SHIFT CPU of 2^32-1 samples", at + 8,
			       "runs past the end of the option");
	}
}

/*
 * The v6 trace_clock text after the CPU list: libtracecmd allocates its
 * size + 1 bytes, then reads the size (read_data_and_size()); when it
 * cannot, it warns and uses "local", as for the files an old trace-cmd
 * wrote over.  A size of 2^64-1 makes that allocation 0 bytes and the
 * read overflow it.
 */
static void test_trace_clock(void)
{
	/* in the file, past its end: both read, the second with "local" */
	const struct {
		uint64_t	size;
		const char	*what;
	} ok[] = { { 15, "15 bytes" }, { 1ULL << 40, "2^40 bytes" } };
	uint64_t wraps = ~0ULL;
	struct bytes b;
	unsigned int i;
	int big, n;

	for (big = 0; big < 2; big++) {
		for (i = 0; i < 2; i++) {
			build_all(&b, big, 0, 0, NULL, &ok[i].size);
			n = count_with_libtracecmd(&b);
			printf("\n    trace_clock of %s: libtracecmd reads %d "
			       "of %d events", ok[i].what, n, NR_EVENTS);
			CU_ASSERT_EQUAL(n, NR_EVENTS);
			expect_ok(&b, ok[i].what);
		}
		build_all(&b, big, 0, 0, NULL, &wraps);
		expect_refused(&b, "trace_clock of 2^64-1 bytes",
			       b.cpu_list + 16, "wraps");
	}
}

/*
 * Records libtracecmd reads of the one CPU of the file @fd (by its /proc
 * name), one after the other: its iteration stops at a record of lost
 * events whose format it has not (the view has none; the conversion
 * parses the formats the records use).
 */
static int count_fd(int fd)
{
	struct tracecmd_input *h;
	struct tep_record *rec;
	char path[64];
	int n = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	h = tracecmd_open(path, 0);
	if (!h)
		return -1;
	while ((rec = tracecmd_read_data(h, 0))) {
		tracecmd_free_record(rec);
		n++;
	}
	tracecmd_close(h);
	return n;
}

/*
 * @b checked salvaging: 0 and its damage in @pages (free it), and in
 * *@read the records libtracecmd reads of the check's view of it.
 */
static int salvage(const struct bytes *b, struct dat_pages *pages, int *read)
{
	struct datcheck *dc;
	char err[256];
	int ret, fd = -1;

	memset(pages, 0, sizeof(*pages));
	*read = -1;
	ret = datcheck_head(b->d.data, b->d.len, NULL, DATCHECK_SALVAGE, err,
			    sizeof(err), &dc);
	if (ret) {
		printf("\n    refused: %s", err);
		return ret;
	}
	datcheck_pages(dc);
	ret = datcheck_layout(dc, pages);
	if (!ret)
		ret = datcheck_view(dc, &fd);
	/* the view's formats are empty: libtracecmd counts the records */
	if (!ret)
		ret = datcheck_view_data(dc, fd, NULL);
	ret = datcheck_end(dc) ?: ret;
	if (!ret)
		*read = count_fd(fd);
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * @b salvaged as one stretch of damage: the @len bytes at @off (of the
 * file), with @before good events before it and @after ones after it,
 * its message naming @why; libtracecmd reads the @before + @after good
 * events of the view.
 */
static void expect_damage(const struct bytes *b, const char *what,
			  uint64_t off, uint64_t len, unsigned int before,
			  unsigned int after, const char *why)
{
	struct dat_pages pages;
	const struct dat_damage *d;
	int read, ret = salvage(b, &pages, &read);

	printf("\n    %s: ", what);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(pages.nr_damage, 1);
	if (ret || pages.nr_damage != 1) {
		datcheck_layout_free(&pages);
		return;
	}
	d = pages.damage;
	printf("%llu bytes at 0x%llx, %llu events before%s (%s), libtracecmd "
	       "reads %d", (unsigned long long)d->len,
	       (unsigned long long)d->off,
	       (unsigned long long)d->events_before,
	       d->events_after ? ", some after" : "", d->why, read);
	CU_ASSERT_EQUAL(d->off, off);
	CU_ASSERT_EQUAL(d->len, len);
	CU_ASSERT_FALSE(d->inflated);
	CU_ASSERT_EQUAL(d->events_before, before);
	CU_ASSERT_EQUAL(d->events_after, after > 0);
	if (before)
		CU_ASSERT_EQUAL(d->ts_before, 1000000 + 100 * before);
	if (after)
		CU_ASSERT_EQUAL(d->ts_after, 1000000 + 100 * NR_EVENTS);
	CU_ASSERT_PTR_NOT_NULL(strstr(d->why, why));
	CU_ASSERT_EQUAL(read, (int)(before + after));
	datcheck_layout_free(&pages);
}

/*
 * Salvaging, a fault in the page is damage, not a refusal: the events
 * before it are read, an event of an ID no format has is damaged alone,
 * a commit word that lies still lets the events be read.
 */
static void test_salvage(void)
{
	struct dat_pages pages;
	struct bytes b;
	int big, read;

	for (big = 0; big < 2; big++) {
		build(&b, big);
		CU_ASSERT_EQUAL(salvage(&b, &pages, &read), 0);
		printf("\n    well-formed: %zu damaged, libtracecmd reads %d",
		       pages.nr_damage, read);
		CU_ASSERT_EQUAL(pages.nr_damage, 0);
		CU_ASSERT_EQUAL(read, NR_EVENTS);
		datcheck_layout_free(&pages);
		build(&b, big);
		patch(&b, b.page + 8, ~0ULL, 8);
		expect_damage(&b, "commit all 0xFF", b.page + 16 + 60,
			      PAGE - 16 - 60, NR_EVENTS, 0,
			      "page commit word");
		build(&b, big);
		patch(&b, b.page + 16 + 20, ev_word(&b, 28, 0), 4);
		expect_damage(&b, "event past the commit", b.page + 16 + 20,
			      PAGE - 16 - 20, 1, 0, "event of 112 bytes");
		build(&b, big);
		patch(&b, b.page + 16 + 20 + 4, 0x4321, 2);
		expect_damage(&b, "event of an ID no format has",
			      b.page + 16 + 20, 20, 1, 1, "event ID 17185");
		build(&b, big);
		patch(&b, b.page, 0, 8);
		patch(&b, b.page + 8, 0, 8);
		expect_damage(&b, "page header of zeros", b.page, PAGE, 0, 0,
			      "page header of zeros");
		build(&b, big);
		patch(&b, b.cpu_list + 8, PAGE - 100, 8);
		expect_damage(&b, "CPU data not whole pages", b.page,
			      PAGE - 100, 0, 0, "not a whole");
		/* a length shorter than the format: the page read on after */
		build(&b, big);
		patch(&b, b.page + 16 + 20, ev_word(&b, 3, 100), 4);
		expect_damage(&b, "event shorter than its format",
			      b.page + 16 + 20, 20, 1, 1,
			      "shorter than its format's 16");
		CU_ASSERT_EQUAL(salvage(&b, &pages, &read), 0);
		CU_ASSERT_TRUE(pages.nr_damage == 1 && pages.damage->garbled);
		datcheck_layout_free(&pages);
		/* cut inside the third event: the first two are read */
		build(&b, big);
		b.d.len = b.page + 16 + 50;
		expect_damage(&b, "file cut inside the page", b.page + 16 + 40,
			      PAGE - 16 - 40, 2, 0, "cut short");
	}
}

static CU_TestInfo dat_check_tests[] = {
	{ "well-formed v6, both byte orders, read by libtracecmd",
	  test_well_formed },
	{ "ring-buffer page faults refused", test_page_faults },
	{ "layout faults and cuts refused", test_layout_faults },
	{ "TIME_SHIFT counts the option cannot hold refused",
	  test_time_shift },
	{ "a trace_clock size libtracecmd cannot allocate refused",
	  test_trace_clock },
	{ "salvaged: page faults and a cut listed as damage, libtracecmd reads "
	  "the rest",
	  test_salvage },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "datcheck", NULL, NULL, NULL, NULL, dat_check_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
