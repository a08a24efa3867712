// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-sched.c - sched_switch and sched_waking as Perfetto's ftrace
 * events (trace-cmd-plugin/trace-fxt-input/map-sched.c), decoded back
 * field by field from the FXT's blob records of type 3.
 *
 * The kernel's sched_switch and sched_wakeup formats (tests/unit/
 * dat-formats/, from a 6.x kernel's tracefs; the latter renamed
 * sched_waking, which has the same fields) are parsed by libtraceevent,
 * records laid out by hand at their offsets.  What Perfetto's importer
 * needs (ftrace_sched_event_tracker.cc): a CPU's first switch in full
 * (PushSchedSwitchCompact drops a CPU's first compact one), the rest
 * compact with the kernel's prev_state; a switch the recording lost
 * inferred (a compact switch to the task that leaves, state R), a task
 * still running on another CPU switched out there just before; a task
 * leaving under another comm in full; a waking compact when its waker
 * is the CPU's task (with its common_flags), full otherwise.  With
 * --fxt-sched, FXT records and no packet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "map-dispatch.h"
#include "map-packet.h"
#include "map-sched.h"
#include "pb.h"
#include "perfetto-proto.h"
#include "pkt-read.h"
#include "unit.h"

struct run {
	struct tep_handle	*tep;
	struct map_ctx		ctx;
	struct fxt_input_opts	opts;
	struct map_buffer	buf;
	struct map_event	sw, wk;
	FILE			*fp;
	char			*out;
	size_t			len;
	struct pb_buf		stream;
	unsigned int		fxt_records;	/* FXT scheduling records */
};

static void put(uint8_t *p, uint64_t v, unsigned int n)
{
	while (n--) {
		*p++ = v;
		v >>= 8;
	}
}

static void event_of(struct run *t, struct map_event *me, int id)
{
	memset(me, 0, sizeof(*me));
	me->event = tep_find_event(t->tep, id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(me->event);
	CU_ASSERT_PTR_NOT_NULL_FATAL(map_dispatch_classify(me));
}

static void run_start(struct run *t, bool fxt_records)
{
	size_t len, wlen;
	char *sw = unit_slurp("tests/unit/dat-formats/sched_switch.format",
			      &len);
	char *wk = unit_slurp("tests/unit/dat-formats/sched_wakeup.format",
			      &wlen), *p;
	struct tep_event *any;

	memset(t, 0, sizeof(*t));
	t->tep = tep_alloc();
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(t->tep, sw, len, "sched"), 0);
	/* sched_waking's fields are sched_wakeup's */
	p = strstr(wk, "sched_wakeup");
	memcpy(p, "sched_waking", 12);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(t->tep, wk, wlen, "sched"), 0);
	free(sw);
	free(wk);
	event_of(t, &t->sw, 372);
	event_of(t, &t->wk, 374);
	t->buf.tep = t->tep;
	t->buf.native = true;
	t->opts.fxt_records = fxt_records;
	t->ctx.opts = &t->opts;
	any = tep_find_event(t->tep, 372);
	t->ctx.common_flags = tep_find_common_field(any, "common_flags");
	t->ctx.common_pid = tep_find_common_field(any, "common_pid");
	t->fp = open_memstream(&t->out, &t->len);
	t->ctx.w = fxt_writer_create_fp(t->fp, 0);
	t->ctx.iw = t->ctx.w;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->ctx.w);
	CU_ASSERT_EQUAL(fxt_write_provider_info(t->ctx.w, 1, "top", 3), 0);
}

static void comm(uint8_t *p, const char *s)
{
	strncpy((char *)p, s, 16);
}

static void do_switch(struct run *t, unsigned int cpu, uint64_t ts,
		      int prev, const char *pcomm, long state, int next,
		      const char *ncomm)
{
	uint8_t d[64] = { 0 };
	struct tep_record rec = { .ts = ts, .cpu = cpu, .data = d,
				  .size = sizeof(d) };
	struct fxt_thread th = { 0 };

	put(d, 372, 2);
	put(d + 4, prev, 4);		/* common_pid */
	comm(d + 8, pcomm);
	put(d + 24, prev, 4);
	put(d + 28, 120, 4);
	put(d + 32, state, 8);
	comm(d + 40, ncomm);
	put(d + 56, next, 4);
	put(d + 60, 120, 4);
	t->ctx.rec_pid = prev;		/* as map_record() reads it */
	CU_ASSERT_EQUAL(map_sched_switch_write(&t->ctx, &t->buf, &t->sw, &rec,
					       &th), 0);
}

static void do_waking(struct run *t, unsigned int cpu, uint64_t ts,
		      int waker, int pid, const char *pcomm, unsigned int flags)
{
	uint8_t d[36] = { 0 };
	struct tep_record rec = { .ts = ts, .cpu = cpu, .data = d,
				  .size = sizeof(d) };
	struct fxt_thread th = { 0 };

	put(d, 374, 2);
	d[2] = flags;
	put(d + 4, waker, 4);
	comm(d + 8, pcomm);
	put(d + 24, pid, 4);
	put(d + 28, 110, 4);
	put(d + 32, 1, 4);		/* target_cpu */
	t->ctx.rec_pid = waker;		/* as map_record() reads it */
	CU_ASSERT_EQUAL(map_sched_wakeup_write(&t->ctx, &t->buf, &t->wk, &rec,
					       &th), 0);
}

static void run_finish(struct run *t)
{
	unsigned int blobs;

	pkt_finish(&t->ctx, t->fp, &t->out, &t->len, &t->stream, &blobs,
		   &t->fxt_records);
}

static void run_end(struct run *t)
{
	pb_free(&t->stream);
	free(t->out);
	tep_free(t->tep);
}

/* @cpu's bundle (the stream holds one per CPU here). */
static bool bundle_of(struct run *t, unsigned int cpu, struct pb_field *b)
{
	struct pb_field pk = { 0 };
	int k;

	for (k = 0; pkt_packet(&t->stream, k, &pk); k++)
		if (pkt_get(&pk, PFT_PACKET_FTRACE_EVENTS, 0, b) &&
		    pkt_num(b, PFT_BUNDLE_CPU) == cpu)
			return true;
	return false;
}

/* CompactSched column @id of cs, into v[] (up to 16 values). */
#define COL(id)		pkt_column(&cs, id, v, 16)

/* The @k-th full event's message @id of @b, its FtraceEvent in *@ev. */
static bool full(const struct pb_field *b, int k, uint32_t id,
		 struct pb_field *ev, struct pb_field *msg)
{
	return pkt_get(b, PFT_BUNDLE_EVENT, k, ev) && pkt_get(ev, id, 0, msg);
}

static void test_packets(void)
{
	struct pb_field b = { 0 }, ev = { 0 }, msg = { 0 }, cs = { 0 };
	int64_t v[16];
	struct run t;

	run_start(&t, false);
	do_switch(&t, 0, 100, 0, "swapper/0", 0, 10, "a");	/* first */
	do_switch(&t, 0, 200, 10, "a", 2, 11, "b");		/* D */
	do_waking(&t, 0, 300, 11, 10, "a", 0x08);		/* by b, irq */
	do_waking(&t, 0, 350, 99, 12, "c", 0);			/* by 99 */
	do_switch(&t, 0, 400, 13, "c", 1, 0, "swapper/0");	/* lost */
	do_switch(&t, 1, 500, 0, "swapper/1", 0, 10, "a");	/* first */
	do_switch(&t, 0, 600, 0, "swapper/0", 0, 10, "a");	/* moved */
	do_switch(&t, 0, 700, 10, "a2", 256, 0, "swapper/0");	/* renamed */
	run_finish(&t);
	CU_ASSERT_EQUAL(t.fxt_records, 0);

	CU_ASSERT_FATAL(bundle_of(&t, 0, &b));
	/* CPU 0's first switch, full */
	CU_ASSERT_FATAL(full(&b, 0, PFT_EV_SCHED_SWITCH, &ev, &msg));
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_TIMESTAMP), 100);
	CU_ASSERT(pkt_text_is(&msg, PFT_SWITCH_PREV_COMM, "swapper/0"));
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_PREV_PID), 0);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_PREV_PRIO), 120);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_PREV_STATE), 0);
	CU_ASSERT(pkt_text_is(&msg, PFT_SWITCH_NEXT_COMM, "a"));
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_NEXT_PID), 10);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_NEXT_PRIO), 120);
	/* the waking by a task the CPU does not run: full, its waker */
	CU_ASSERT_FATAL(full(&b, 1, PFT_EV_SCHED_WAKING, &ev, &msg));
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_TIMESTAMP), 350);
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_PID), 99);
	CU_ASSERT(pkt_text_is(&msg, PFT_WAKING_COMM, "c"));
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_WAKING_PID), 12);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_WAKING_PRIO), 110);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_WAKING_TARGET_CPU), 1);
	/* a task leaving under another comm: full, its new comm */
	CU_ASSERT_FATAL(full(&b, 2, PFT_EV_SCHED_SWITCH, &ev, &msg));
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_TIMESTAMP), 700);
	CU_ASSERT(pkt_text_is(&msg, PFT_SWITCH_PREV_COMM, "a2"));
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_PREV_STATE), 256);
	CU_ASSERT_FALSE(pkt_get(&b, PFT_BUNDLE_EVENT, 3, &ev));
	/* the compact ones: D; the lost switch inferred; the move */
	CU_ASSERT_FATAL(pkt_get(&b, PFT_BUNDLE_COMPACT_SCHED, 0, &cs));
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_TIMESTAMP), 4);
	CU_ASSERT(v[0] == 200 && v[1] == 200 && v[2] == 0 && v[3] == 200);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_PREV_STATE), 4);
	CU_ASSERT(v[0] == 2 && v[1] == 0 && v[2] == 1 && v[3] == 0);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_PID), 4);
	CU_ASSERT(v[0] == 11 && v[1] == 13 && v[2] == 0 && v[3] == 10);
	/* the waking by the CPU's task: compact, with its flags */
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_TIMESTAMP), 1);
	CU_ASSERT_EQUAL(v[0], 300);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_PID), 1);
	CU_ASSERT_EQUAL(v[0], 10);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_FLAGS), 1);
	CU_ASSERT_EQUAL(v[0], 0x08);

	CU_ASSERT_FATAL(bundle_of(&t, 1, &b));
	CU_ASSERT_FATAL(full(&b, 0, PFT_EV_SCHED_SWITCH, &ev, &msg));
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_TIMESTAMP), 500);
	CU_ASSERT_EQUAL(pkt_num(&msg, PFT_SWITCH_NEXT_PID), 10);
	/* 10, switched in on CPU 0 at 600, leaves CPU 1 just before */
	CU_ASSERT_FATAL(pkt_get(&b, PFT_BUNDLE_COMPACT_SCHED, 0, &cs));
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_TIMESTAMP), 1);
	CU_ASSERT_EQUAL(v[0], 599);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_PID), 1);
	CU_ASSERT_EQUAL(v[0], 0);
	printf("\n    CPU 0: 3 full events (first switch, waking by another "
	       "task, a renamed task's switch), 4 compact switches (1 "
	       "inferred), 1 compact waking; CPU 1: 1 full, 1 inferred at "
	       "599\n");
	run_end(&t);
}

/* A record of @pid on @cpu at @ts, as map-dispatch.c notes each one. */
static void seen(struct run *t, unsigned int cpu, uint64_t ts, int pid)
{
	struct tep_record rec = { .ts = ts, .cpu = cpu };

	map_sched_seen(&t->ctx, &rec, pid);
}

/*
 * A switch in the recording lost: drawn from the first record of the
 * task's run on the CPU since its last switch, not from its switch out
 * (map_switch_lost_in()); when the switch out is the task's only record
 * (a recording filtered by pid), halfway between the CPU's record before
 * it and it, never a 0 ns row.
 */
static void test_lost_in(void)
{
	struct pb_field b = { 0 }, cs = { 0 };
	int64_t v[16];
	struct run t;

	run_start(&t, false);
	seen(&t, 0, 100, 0);
	do_switch(&t, 0, 100, 0, "swapper/0", 0, 10, "a");	/* first */
	seen(&t, 0, 150, 10);
	seen(&t, 0, 200, 11);		/* a -> b lost: b's run from here */
	seen(&t, 0, 250, 11);
	seen(&t, 0, 300, 11);
	do_switch(&t, 0, 300, 11, "b", 1, 0, "swapper/0");
	seen(&t, 0, 500, 12);		/* c's only record: its switch */
	do_switch(&t, 0, 500, 12, "c", 1, 0, "swapper/0");
	seen(&t, 0, 600, 0);
	seen(&t, 0, 607, 13);		/* likewise d, 7 ns after */
	do_switch(&t, 0, 607, 13, "d", 1, 0, "swapper/0");
	run_finish(&t);

	CU_ASSERT_FATAL(bundle_of(&t, 0, &b));
	CU_ASSERT_FATAL(pkt_get(&b, PFT_BUNDLE_COMPACT_SCHED, 0, &cs));
	/* timestamps are deltas: 200 300 400 500 603 607 */
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_TIMESTAMP), 6);
	CU_ASSERT(v[0] == 200 && v[1] == 100 && v[2] == 100 &&
		  v[3] == 100 && v[4] == 103 && v[5] == 4);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_PID), 6);
	CU_ASSERT(v[0] == 11 && v[1] == 0 && v[2] == 12 && v[3] == 0 &&
		  v[4] == 13 && v[5] == 0);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_PREV_STATE), 6);
	CU_ASSERT(v[0] == 0 && v[1] == 1 && v[2] == 0 && v[3] == 1 &&
		  v[4] == 0 && v[5] == 1);
	printf("\n    b, whose switch in was lost, runs from its first record "
	       "(200) to its switch out (300); c, whose only record is its "
	       "switch out (500), from halfway after the CPU's record before "
	       "(400); d from 603 (600, 607)\n");
	run_end(&t);
}

static void test_fxt_sched(void)
{
	struct pb_field b = { 0 };
	struct run t;

	run_start(&t, true);
	do_switch(&t, 0, 100, 0, "swapper/0", 0, 10, "a");
	do_switch(&t, 0, 200, 10, "a", 2, 11, "b");
	do_waking(&t, 0, 300, 11, 10, "a", 0x08);
	run_finish(&t);
	CU_ASSERT_EQUAL(t.fxt_records, 3);
	CU_ASSERT_FALSE(bundle_of(&t, 0, &b));
	printf("\n    --fxt-sched: %u FXT scheduling records, no bundle\n",
	       t.fxt_records);
	run_end(&t);
}

static CU_TestInfo sched_tests[] = {
	{ "switches and wakings as Perfetto's ftrace events", test_packets },
	{ "a lost switch in, from the run's first record", test_lost_in },
	{ "--fxt-sched: FXT records instead", test_fxt_sched },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-sched: scheduling in Perfetto packets", NULL, NULL, NULL, NULL,
	  sched_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
