// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-marker.c - atrace B and E markers, some written inside a
 * syscall (trace-cmd-plugin/trace-fxt-input/map-marker.c): by default
 * each is Perfetto's own print event in the packets, its text as
 * written, and every syscall event stays as the kernel wrote it (Perfetto
 * ends the ongoing sys_write at the marker itself, as in its own
 * recording), no FXT duration record; with --fxt-records each is an FXT
 * duration record, and neither print nor syscall events are packets.
 *
 * A .dat written by the core's .dat writer: task 100 on CPU 0 writes
 * "B" 500 ns into a write syscall, "E" at the very time its next one
 * enters, then "B" and "E" outside any syscall.  The FXT's atrace
 * records are counted, the packets' sys_enter, sys_exit and print events
 * read back field by field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "../e2e/dat-fixture.h"
#include "fxt-reader.h"
#include "pb.h"
#include "perfetto-proto.h"

#include "map-ftrace-table.h"
#include "map-run.h"
#include "pkt-read.h"
#include "unit.h"

#define T0	1000000000ull

/* The kernel's (6.x) raw_syscalls formats, without their ids. */
static const char sys_enter_format[] =
	"name: sys_enter\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, "
	"REC->args[0], REC->args[1], REC->args[2], REC->args[3], "
	"REC->args[4], REC->args[5]\n";

static const char sys_exit_format[] =
	"name: sys_exit\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";

static int id_print, id_enter, id_exit;

static void marker(uint64_t ts, const char *text)
{
	uint8_t p[64] = { 0 };
	size_t n = strlen(text);

	memcpy(p + 8, text, n);
	p[8 + n] = '\n';
	fixture_emit_at(0, 0, ts, id_print, 100, p, 8 + n + 2);
}

static void syscall_event(uint64_t ts, int id, int64_t nr, int64_t ret)
{
	uint8_t p[56] = { 0 };

	memcpy(p, &nr, 8);
	memcpy(p + 8, &ret, 8);
	fixture_emit_at(0, 0, ts, id, 100, p, id == id_enter ? 56 : 16);
}

/* How many atrace duration records of @type the FXT at @buf holds. */
static unsigned int atrace_events(const void *buf, size_t len,
				  unsigned int type)
{
	struct fxt_reader *r = fxt_reader_open_mem(buf, len, "marker.fxt", 0);
	struct fxt_record rec;
	unsigned int count = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &rec) > 0)
		if (rec.type == FXT_REC_EVENT && rec.event.type == type &&
		    rec.event.category.len == 6 &&
		    !memcmp(rec.event.category.ptr, "atrace", 6))
			count++;
	fxt_reader_close(r);
	return count;
}

struct sys_ev {
	uint32_t	event;		/* PFT_EV_SYS_ENTER or _EXIT */
	int64_t		ts, id;
	/* sys_enter's arguments, or sys_exit's return value: how many */
	int		vals;
};

/* The packets' sys_enter and sys_exit events, in order, up to @max. */
static size_t sys_events(const struct pb_buf *stream, struct sys_ev *out,
			 size_t max)
{
	struct pb_field pk = { 0 }, b = { 0 }, ev = { 0 }, msg = { 0 };
	struct pb_field f = { 0 };
	uint32_t kinds[] = { PFT_EV_SYS_ENTER, PFT_EV_SYS_EXIT };
	size_t n = 0, i;
	int k, e;

	for (k = 0; pkt_packet(stream, k, &pk); k++) {
		if (!pkt_get(&pk, PFT_PACKET_FTRACE_EVENTS, 0, &b))
			continue;
		for (e = 0; pkt_get(&b, PFT_BUNDLE_EVENT, e, &ev); e++)
			for (i = 0; i < 2; i++) {
				if (!pkt_get(&ev, kinds[i], 0, &msg) ||
				    n == max)
					continue;
				out[n].event = kinds[i];
				out[n].ts = pkt_num(&ev, PFT_EVENT_TIMESTAMP);
				out[n].id = pkt_num(&msg, i ? PFT_SYS_EXIT_ID :
								PFT_SYS_ENTER_ID);
				out[n].vals = 0;
				while (pkt_get(&msg, i ? PFT_SYS_EXIT_RET :
							 PFT_SYS_ENTER_ARGS,
					       out[n].vals, &f))
					out[n].vals++;
				n++;
			}
	}
	return n;
}

/* The packets' print events' texts, in order, up to @max. */
static size_t print_events(const struct pb_buf *stream, char out[][32],
			   uint64_t *ts, size_t max)
{
	struct pb_field pk = { 0 }, b = { 0 }, ev = { 0 }, msg = { 0 };
	struct pb_field f = { 0 };
	size_t n = 0;
	int k, e;

	for (k = 0; pkt_packet(stream, k, &pk); k++) {
		if (!pkt_get(&pk, PFT_PACKET_FTRACE_EVENTS, 0, &b))
			continue;
		for (e = 0; pkt_get(&b, PFT_BUNDLE_EVENT, e, &ev); e++) {
			if (!pkt_get(&ev, PFT_EV_PRINT, 0, &msg) || n == max ||
			    !pkt_get(&msg, PFT_PRINT_BUF, 0, &f))
				continue;
			snprintf(out[n], 32, "%.*s", (int)f.len,
				 (const char *)f.p);
			ts[n++] = pkt_num(&ev, PFT_EVENT_TIMESTAMP);
		}
	}
	return n;
}

static char *write_fixture(void)
{
	static char path[] = "/tmp/test-map-marker-XXXXXX";
	int fd;

	strcpy(path + strlen(path) - 6, "XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fixture_open("test-map-marker", path);
	id_print = fixture_format("ftrace", fixture_print_format,
				  strlen(fixture_print_format));
	id_enter = fixture_format("raw_syscalls", sys_enter_format,
				  strlen(sys_enter_format));
	id_exit = fixture_format("raw_syscalls", sys_exit_format,
				 strlen(sys_exit_format));
	syscall_event(T0, id_enter, 1, 0);
	marker(T0 + 500, "B|100|in a write");
	syscall_event(T0 + 600, id_exit, 1, 17);
	syscall_event(T0 + 2000, id_enter, 1, 0);
	marker(T0 + 2000, "E|100");
	syscall_event(T0 + 2100, id_exit, 1, 6);
	syscall_event(T0 + 3000, id_enter, 39, 0);
	syscall_event(T0 + 3100, id_exit, 39, 100);
	marker(T0 + 4000, "B|100|outside");
	marker(T0 + 4100, "E|100");
	fixture_close();
	return path;
}

static void test_print_events(void)
{
	static const struct sys_ev want[] = {
		{ PFT_EV_SYS_ENTER, T0, 1, 6 },
		{ PFT_EV_SYS_EXIT, T0 + 600, 1, 1 },
		{ PFT_EV_SYS_ENTER, T0 + 2000, 1, 6 },
		{ PFT_EV_SYS_EXIT, T0 + 2100, 1, 1 },
		{ PFT_EV_SYS_ENTER, T0 + 3000, 39, 6 },
		{ PFT_EV_SYS_EXIT, T0 + 3100, 39, 1 },
	};
	static const char *const texts[] = {
		"B|100|in a write\n", "E|100\n", "B|100|outside\n", "E|100\n",
	};
	static const uint64_t at[] = { T0 + 500, T0 + 2000, T0 + 4000,
				       T0 + 4100 };
	char *path = write_fixture(), got_text[8][32];
	struct sys_ev got[8];
	struct pb_buf stream = { 0 };
	unsigned int blobs, sched, i;
	uint64_t got_ts[8];
	size_t size, n, np;
	char *fxt;

	size = map_run(path, NULL, &fxt, NULL);
	unlink(path);
	CU_ASSERT_EQUAL(atrace_events(fxt, size, FXT_EVENT_DURATION_BEGIN), 0);
	CU_ASSERT_EQUAL(atrace_events(fxt, size, FXT_EVENT_DURATION_END), 0);
	pkt_join(fxt, size, &stream, &blobs, &sched);
	n = sys_events(&stream, got, 8);
	CU_ASSERT_EQUAL(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++) {
		printf("\n    %s at T0+%lld, id %lld%s",
		       got[i].event == PFT_EV_SYS_ENTER ? "sys_enter" :
							  "sys_exit ",
		       (long long)(got[i].ts - (int64_t)T0),
		       (long long)got[i].id, got[i].event == PFT_EV_SYS_ENTER ?
		       (got[i].vals == 6 ? ", its 6 args" : ", not 6 args") :
		       (got[i].vals == 1 ? ", its ret" : ", no ret"));
		CU_ASSERT(got[i].event == want[i].event &&
			  got[i].ts == want[i].ts && got[i].id == want[i].id &&
			  got[i].vals == want[i].vals);
	}
	np = print_events(&stream, got_text, got_ts, 8);
	CU_ASSERT_EQUAL(np, 4);
	for (i = 0; i < np && i < 4; i++) {
		printf("\n    print at T0+%lld: %.*s",
		       (long long)(got_ts[i] - T0),
		       (int)strcspn(got_text[i], "\n"), got_text[i]);
		CU_ASSERT(!strcmp(got_text[i], texts[i]) &&
			  got_ts[i] == at[i]);
	}
	printf("\n    no FXT duration record\n");
	pb_free(&stream);
	free(fxt);
}

static void test_fxt_records(void)
{
	char *path = write_fixture(), got_text[8][32];
	struct sys_ev got[8];
	struct pb_buf stream = { 0 };
	unsigned int blobs, sched;
	uint64_t got_ts[8];
	size_t size;
	char *fxt;

	size = map_run_flavor(path, NULL, &fxt, NULL, true);
	unlink(path);
	CU_ASSERT_EQUAL(atrace_events(fxt, size, FXT_EVENT_DURATION_BEGIN), 2);
	CU_ASSERT_EQUAL(atrace_events(fxt, size, FXT_EVENT_DURATION_END), 2);
	pkt_join(fxt, size, &stream, &blobs, &sched);
	CU_ASSERT_EQUAL(sys_events(&stream, got, 8), 0);
	CU_ASSERT_EQUAL(print_events(&stream, got_text, got_ts, 8), 0);
	printf("\n    2 atrace B and 2 E as FXT duration records, no syscall "
	       "or print packet\n");
	pb_free(&stream);
	free(fxt);
}

static CU_TestInfo tests[] = {
	{ "atrace markers, in syscalls too: Perfetto's print events",
	  test_print_events },
	{ "--fxt-records: FXT durations, no syscall or print packet",
	  test_fxt_records },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-marker: atrace markers, inside syscalls too", NULL, NULL, NULL,
	  NULL, tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
