// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-pages.c - the plugin's page reader (map-pages.c) against
 * libtracecmd's tracecmd_iterate_events_multi() on the same file: every
 * record's time, CPU, size, payload and missed-events count, in the same
 * order.
 *
 * Real recordings cover what this machine's kernel writes (v6 and v7,
 * plain and zstd, two buffers, lost events).  A v6 file built here byte
 * by byte covers what it rarely writes, in both byte orders and both long
 * sizes: a time extend and a time stamp (its old top bits kept), padding,
 * a long event (type_len 0), an empty page, events of two CPUs at equal
 * times (the lower CPU first), missed events stored, not stored, and on a
 * page whose first header is a time extend (kbuffer then says none).  A
 * file whose times libtracecmd would move (a TIME_SHIFT option) is left
 * to libtracecmd: the check maps no pages for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "datcheck.h"
#include "map-pages.h"
#include "dat-bytes.h"
#include "unit.h"

#define PAGE		4096
#define MAX_BUFS	8

/* A record as both readers give it; the payload by a checksum. */
struct seen {
	uint64_t	ts;
	uint64_t	sum;
	uint32_t	size;
	int32_t		cpu, missed, handle;
};

struct seen_list {
	struct seen	*r;
	size_t		nr, max;
	struct tracecmd_input **handles;
	int		nr_handles;
};

static uint64_t sum_bytes(const void *p, uint32_t n)
{
	const uint8_t *b = p;
	uint64_t h = 1469598103934665603ULL;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static void seen_add(struct seen_list *l, const struct seen *s)
{
	if (l->nr == l->max) {
		l->max = l->max ? 2 * l->max : 4096;
		l->r = realloc(l->r, l->max * sizeof(*l->r));
		CU_ASSERT_PTR_NOT_NULL_FATAL(l->r);
	}
	l->r[l->nr++] = *s;
}

static int seen_tracecmd(struct tracecmd_input *h, struct tep_record *rec,
			 int cpu, void *data)
{
	struct seen_list *l = data;
	struct seen s = {
		.ts = rec->ts, .size = rec->size, .cpu = rec->cpu,
		.missed = rec->missed_events,
		.sum = sum_bytes(rec->data, rec->size),
	};

	while (s.handle < l->nr_handles && l->handles[s.handle] != h)
		s.handle++;
	seen_add(l, &s);
	return 0;
}

static int seen_pages(const struct map_pages_rec *r, void *data)
{
	struct seen s = {
		.ts = r->ts, .size = r->size, .cpu = r->cpu,
		.missed = r->missed, .handle = r->handle,
		.sum = sum_bytes(r->data, r->size),
	};

	seen_add(data, &s);
	return 0;
}

/* The check's layout of @path (nr 0: libtracecmd must read it). */
static void layout_of(const char *path, struct dat_pages *pages)
{
	struct datcheck_keep_run *run;
	struct dat_recs recs;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(datcheck_keep_start(path, fxt_input_tgid_events,
			FXT_INPUT_NR_TGID_EVENTS, DATCHECK_NO_PROBE, &run,
			err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(datcheck_keep_finish(run, &recs, pages, NULL), 0);
	datcheck_recs_free(&recs);
}

/* Every buffer of @top: its handles and their names ("" the top's). */
static int open_buffers(struct tracecmd_input *top,
			struct tracecmd_input **h, const char **names)
{
	int i, n = 1, nr = tracecmd_buffer_instances(top);

	h[0] = top;
	names[0] = "";
	for (i = 0; i < nr && n < MAX_BUFS; i++) {
		h[n] = tracecmd_buffer_instance_handle(top, i);
		names[n] = tracecmd_buffer_instance_name(top, i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(h[n]);
		n++;
	}
	return n;
}

/* Both readers over @path; returns the records compared (or -1). */
static long compare_readers(const char *path, const char *name)
{
	struct tracecmd_input *h[MAX_BUFS];
	struct seen_list a = { 0 }, b = { 0 };
	struct dat_pages pages;
	struct map_pages *p;
	const char *names[MAX_BUFS];
	size_t i, same = 0, missed = 0;
	int n, ret;

	layout_of(path, &pages);
	CU_ASSERT_TRUE(pages.nr > 0);
	h[0] = tracecmd_open(path, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h[0]);
	n = open_buffers(h[0], h, names);
	a.handles = h;
	a.nr_handles = n;
	CU_ASSERT(tracecmd_iterate_events_multi(h, n, seen_tracecmd, &a) >= 0);
	ret = map_pages_open(&pages, path, h, names, n, &p);
	CU_ASSERT_EQUAL(ret, 0);
	if (!ret) {
		CU_ASSERT_EQUAL(map_pages_read(p, seen_pages, &b), 0);
		map_pages_close(p);
	}
	for (i = 0; i < a.nr && i < b.nr; i++) {
		if (memcmp(&a.r[i], &b.r[i], sizeof(a.r[i])))
			break;
		same++;
		missed += a.r[i].missed != 0;
	}
	printf("\n    %s: %d buffer(s), %zu pages mapped, libtracecmd %zu "
	       "records, page reader %zu, %zu equal in order (%zu with "
	       "missed events)", name, n, pages.nr, a.nr, b.nr, same, missed);
	if (same < a.nr && same < b.nr)
		printf("\n      first difference at %zu: ts %llu/%llu cpu "
		       "%d/%d size %u/%u missed %d/%d", same,
		       (unsigned long long)a.r[same].ts,
		       (unsigned long long)b.r[same].ts, a.r[same].cpu,
		       b.r[same].cpu, a.r[same].size, b.r[same].size,
		       a.r[same].missed, b.r[same].missed);
	CU_ASSERT_EQUAL(a.nr, b.nr);
	CU_ASSERT_EQUAL(same, a.nr);
	for (i = 1; i < (size_t)n; i++)
		tracecmd_close(h[i]);
	tracecmd_close(h[0]);
	datcheck_layout_free(&pages);
	free(a.r);
	free(b.r);
	return (long)same;
}

static void test_samples(void)
{
	static const char *const names[] = {
		"atrace-markers.dat", "kernel-states.dat", "lost-events.dat",
		"net-events.dat", "net-tcp.dat", "procmaps.dat",
		"sched-zstd.dat", "syscalls.dat", "threads.dat",
		"two-buffers.dat",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CU_ASSERT(compare_readers(unit_sample_path(names[i]),
					  names[i]) > 0);
	CU_ASSERT(compare_readers(unit_build_path("samples/sched-v6.dat"),
				  "sched-v6.dat (generated, v6)") > 0);
}

/* ---- a v6 file built byte by byte ---- */

static void put_hdr(struct dat_bytes *b, unsigned int type_len,
		    unsigned int delta)
{
	dat_put(b, b->big ? type_len << 27 | delta : delta << 5 | type_len, 4);
}

/* An event of type_len 4 (16 bytes): common fields and a number. */
static void put_event(struct dat_bytes *b, unsigned int delta, uint64_t v)
{
	put_hdr(b, 4, delta);
	dat_put(b, DAT_TEST_EVENT_ID, 2);
	dat_put(b, 0, 2);
	dat_put(b, 42, 4);
	dat_put(b, v, 8);
}

/* A page at @at: timestamp, commit word, then what @fill puts. */
static size_t page_start(struct dat_bytes *b, size_t at, uint64_t ts)
{
	b->len = at;
	dat_put(b, ts, 8);
	b->len += b->long_size;	/* the commit word, patched at the end */
	return b->len;
}

static void page_end(struct dat_bytes *b, size_t at, size_t data,
		     uint64_t flags, int64_t lost)
{
	size_t end = b->len;

	if (lost >= 0)
		dat_put(b, lost, b->long_size);
	b->len = at + 8;
	dat_put(b, (end - data) | flags, b->long_size);
	b->len = end;
}

#define MISSED		(1ULL << 31)
#define STORED		(1ULL << 30)

/* Two CPUs of 3 and 2 pages; @shift: a TIME_SHIFT option too. */
static size_t build(struct dat_bytes *b, int big, unsigned int long_size,
		    bool shift)
{
	size_t list, cpu0, cpu1, d;

	memset(b->data, 0, 8 * PAGE);
	b->len = 0;
	b->big = big;
	b->long_size = long_size;
	dat_put_raw(b, "\x17\x08\x44tracing6", 11);
	dat_put(b, 0, 1);
	dat_put(b, big, 1);
	dat_put(b, long_size, 1);
	dat_put(b, PAGE, 4);
	dat_put_raw(b, "header_page", 12);
	dat_put_text(b, long_size == 8 ? dat_header_page_8 : dat_header_page_4,
		     8);
	dat_put_raw(b, "header_event", 13);
	dat_put_text(b, dat_header_event, 8);
	dat_put(b, 0, 4);			/* ftrace formats */
	dat_put(b, 1, 4);		/* event systems: "test", 1 event */
	dat_put_raw(b, "test", 5);
	dat_put(b, 1, 4);
	dat_put_text(b, dat_test_event_format, 8);
	dat_put(b, 0, 4);			/* kallsyms */
	dat_put(b, 0, 4);			/* printk */
	dat_put_text(b, "42 test\n", 8);	/* cmdlines */
	dat_put(b, 2, 4);			/* CPUs */
	dat_put_raw(b, "options  ", 10);
	if (shift) {
		/* TIME_SHIFT: trace id, flags, 1 CPU of 1 sample */
		dat_put(b, 12, 2);
		dat_put(b, 8 + 4 + 4 + 4 + 24, 4);
		dat_put(b, 0x1234, 8);
		dat_put(b, 0, 4);
		dat_put(b, 1, 4);
		dat_put(b, 1, 4);
		dat_put(b, 1000, 8);
		dat_put(b, 5, 8);
		dat_put(b, 1, 8);
	}
	dat_put(b, 0, 2);
	dat_put_raw(b, "flyrecord", 10);
	list = b->len;
	cpu0 = PAGE;
	cpu1 = 4 * PAGE;

	/* CPU 0, page 1: missed events stored (7), extend, padding, long */
	d = page_start(b, cpu0, 1000);
	put_event(b, 10, 1);
	put_hdr(b, 30, 5);		/* time extend: + (3 << 27) + 5 */
	dat_put(b, 3, 4);
	put_event(b, 0, 2);
	put_hdr(b, 29, 0);		/* padding of 8 bytes after its word */
	dat_put(b, 8, 4);
	b->len += 4;
	put_hdr(b, 0, 7);		/* type_len 0: 4 + 16 bytes of payload */
	dat_put(b, 20, 4);
	dat_put(b, DAT_TEST_EVENT_ID, 2);
	dat_put(b, 0, 2);
	dat_put(b, 42, 4);
	dat_put(b, 0xabcdef, 8);
	page_end(b, cpu0, d, MISSED | STORED, 7);
	/* page 2: missed but not stored, first header a time extend */
	d = page_start(b, cpu0 + PAGE, 1000 + (4ULL << 27));
	put_hdr(b, 30, 1);
	dat_put(b, 0, 4);
	put_event(b, 2, 3);
	put_event(b, 0, 4);
	page_end(b, cpu0 + PAGE, d, MISSED, -1);
	/* page 3: empty */
	d = page_start(b, cpu0 + 2 * PAGE, 1000 + (5ULL << 27));
	page_end(b, cpu0 + 2 * PAGE, d, 0, -1);

	/* CPU 1, page 1: equal times with CPU 0, then a time stamp */
	d = page_start(b, cpu1, 1000);
	put_event(b, 10, 10);		/* same time as CPU 0's first */
	put_hdr(b, 31, 9);		/* stamp: (2 << 27) + 9, top bits kept */
	dat_put(b, 2, 4);
	put_event(b, 0, 11);
	page_end(b, cpu1, d, MISSED, -1);
	/* page 2: missed events stored (0); the page's top bits stay */
	d = page_start(b, cpu1 + PAGE, 0xf8ULL << 56 | 5);
	put_hdr(b, 31, 1);
	dat_put(b, 1, 4);
	put_event(b, 3, 12);
	page_end(b, cpu1 + PAGE, d, MISSED | STORED, 0);

	b->len = list;
	dat_put(b, cpu0, 8);
	dat_put(b, 3 * PAGE, 8);
	dat_put(b, cpu1, 8);
	dat_put(b, 2 * PAGE, 8);
	return 6 * PAGE;
}

static void write_file(const struct dat_bytes *b, size_t len, char *path)
{
	int fd;

	strcpy(path, "/tmp/test-map-pages-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, b->data, len) == (ssize_t)len);
	close(fd);
}

static void test_built(void)
{
	uint8_t data[8 * PAGE];
	struct dat_bytes b = { .data = data };
	char path[64], what[64];
	int big;
	unsigned int ls;

	for (big = 0; big < 2; big++) {
		for (ls = 4; ls <= 8; ls += 4) {
			write_file(&b, build(&b, big, ls, false), path);
			snprintf(what, sizeof(what), "built v6, %s endian, "
				 "long size %u", big ? "big" : "little", ls);
			CU_ASSERT_EQUAL(compare_readers(path, what), 8);
			unlink(path);
		}
	}
}

static void test_times_moved(void)
{
	uint8_t data[8 * PAGE];
	struct dat_bytes b = { .data = data };
	struct dat_pages pages;
	char path[64];

	write_file(&b, build(&b, 0, 8, true), path);
	layout_of(path, &pages);
	printf("\n    with a TIME_SHIFT option: %zu CPUs' pages mapped "
	       "(libtracecmd reads)", pages.nr);
	CU_ASSERT_EQUAL(pages.nr, 0);
	datcheck_layout_free(&pages);
	unlink(path);
	write_file(&b, build(&b, 0, 8, false), path);
	layout_of(path, &pages);
	printf("\n    without it: %zu CPUs' pages mapped", pages.nr);
	CU_ASSERT_EQUAL(pages.nr, 2);
	datcheck_layout_free(&pages);
	unlink(path);
}

static CU_TestInfo map_pages_tests[] = {
	{ "the samples: the same records as libtracecmd, in order",
	  test_samples },
	{ "built pages, both byte orders and long sizes: the same records",
	  test_built },
	{ "times libtracecmd moves: left to libtracecmd", test_times_moved },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-pages", NULL, NULL, NULL, NULL, map_pages_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
