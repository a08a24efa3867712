// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-packet.c - the Perfetto packets a conversion writes
 * (trace-cmd-plugin/trace-fxt-input/map-packet.c), decoded back field by
 * field: the FXT's blob records of type 3 are joined as Perfetto joins
 * them, and each packet is read with the core's protobuf reader against
 * Perfetto's schema (protos/perfetto/trace/ftrace/ftrace_event_bundle.proto
 * and the messages beside it): the idle thread's process tree, a bundle's
 * cpu, its full events (timestamp, pid, then the event), its CompactSched
 * columns (timestamps delta-encoded, the first absolute, comms interned
 * once per bundle), lost events, kernel symbols on the bundles' sequence,
 * large bundles cut in several packets, the process tree; and a CPU
 * Perfetto refuses written nowhere.  The whole stream is also read by
 * the check's reader (common/perfetto/perfetto-read.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "map-ftrace-table.h"
#include "map-packet.h"
#include "pb.h"
#include "perfetto-proto.h"
#include "perfetto-read.h"
#include "pkt-read.h"
#include "unit.h"

struct run {
	struct map_ctx		ctx;
	struct fxt_input_opts	opts;
	FILE			*fp;
	char			*out;
	size_t			len;
	struct pb_buf		stream;		/* the blobs' payloads joined */
	unsigned int		blobs;
};

static void run_start(struct run *t)
{
	memset(t, 0, sizeof(*t));
	t->ctx.opts = &t->opts;
	t->fp = open_memstream(&t->out, &t->len);
	t->ctx.w = fxt_writer_create_fp(t->fp, 0);
	t->ctx.iw = t->ctx.w;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->ctx.w);
	CU_ASSERT_EQUAL(fxt_write_provider_info(t->ctx.w, 1, "top", 3), 0);
}

/* Finish the packets, close the writer, join the Perfetto blobs. */
static void run_finish(struct run *t)
{
	unsigned int sched;

	pkt_finish(&t->ctx, t->fp, &t->out, &t->len, &t->stream, &t->blobs,
		   &sched);
	CU_ASSERT_EQUAL(sched, 0);
}

static void run_end(struct run *t)
{
	pb_free(&t->stream);
	free(t->out);
}

/* The stream's packets, each as a field, up to @max. */
static size_t packets(struct run *t, struct pb_field *pk, size_t max)
{
	size_t n = 0;

	while (n < max && pkt_packet(&t->stream, n, &pk[n])) {
		CU_ASSERT_EQUAL(pk[n].wt, PB_LEN);
		n++;
	}
	return n;
}

/* CompactSched column @id of cs, into v[] (up to 8 values). */
#define COL(id)		pkt_column(&cs, id, v, 8)

static void check_stream(struct run *t)
{
	struct pft_stream *s = pft_stream_new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(pft_stream_feed(s, t->stream.p, t->stream.len), 0);
	CU_ASSERT_EQUAL(pft_stream_end(s), 0);
	if (pft_stream_error(s))
		printf("\n    %s\n", pft_stream_error(s));
	pft_stream_free(s);
}

static void test_bundle(void)
{
	struct pb_field pk[8] = { { 0 } }, f = { 0 }, b = { 0 }, ev = { 0 };
	struct pb_field msg = { 0 }, cs = { 0 }, th = { 0 };
	int64_t v[8];
	struct map_pkt_ev e;
	struct run t;
	size_t n;

	run_start(&t);
	CU_ASSERT_EQUAL(map_pkt_start(&t.ctx, 1000), 0);
	/* a full event: irq_handler_entry(irq 36, name "virtio") */
	CU_ASSERT_EQUAL(map_pkt_event(&t.ctx, 2, 1500, 42,
				      PFT_EV_IRQ_HANDLER_ENTRY, &e), 1);
	pb_int(e.b, 1, 36);
	pb_bytes(e.b, 2, "virtio", 6);
	CU_ASSERT_EQUAL(map_pkt_event_end(&t.ctx, &e), 0);
	/* three compact switches, two comms; a waking in an interrupt */
	CU_ASSERT_EQUAL(map_pkt_switch(&t.ctx, 2, 2000, 2, 100, 120, "a", 1),
			0);
	CU_ASSERT_EQUAL(map_pkt_switch(&t.ctx, 2, 2500, 256, 101, -1, "bb",
				       2), 0);
	CU_ASSERT_EQUAL(map_pkt_switch(&t.ctx, 2, 2600, 0, 100, 120, "a", 1),
			0);
	CU_ASSERT_EQUAL(map_pkt_waking(&t.ctx, 2, 2700, 101, 1, 110, "bb", 2,
				       0x08), 0);
	map_pkt_lost(&t.ctx, 2);
	/* past Perfetto's CPUs: nothing */
	CU_ASSERT_EQUAL(map_pkt_switch(&t.ctx, PFT_MAX_CPU, 3000, 0, 1, 120,
				       "x", 1), 0);
	CU_ASSERT_EQUAL(map_pkt_event(&t.ctx, PFT_MAX_CPU, 3000, 1,
				      PFT_EV_CPU_IDLE, &e), 0);
	CU_ASSERT_EQUAL(map_pkt_process(&t.ctx, 100, 1, 900, "a", 1, false),
			0);
	map_pkt_process_name(&t.ctx, 100, "renamed", 7);
	/* started by task_newtask's event: known, but no entry */
	CU_ASSERT_EQUAL(map_pkt_process(&t.ctx, 200, 1, 950, "b", 1, true),
			0);
	CU_ASSERT(map_pkt_process_known(&t.ctx, 200));
	run_finish(&t);
	check_stream(&t);

	n = packets(&t, pk, 8);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	/* 1: the idle thread, at the start */
	CU_ASSERT_EQUAL(pkt_num(&pk[0], PFT_PACKET_TIMESTAMP), 1000);
	CU_ASSERT_FATAL(pkt_get(&pk[0], PFT_PACKET_GENERIC_KERNEL_TREE, 0, &f));
	CU_ASSERT_FATAL(pkt_get(&f, PFT_GKTREE_THREAD, 0, &th));
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_GKTHREAD_TID), 0);
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_GKTHREAD_PID), 0);
	CU_ASSERT(pkt_text_is(&th, PFT_GKTHREAD_COMM, "swapper"));
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_GKTHREAD_IS_IDLE), 1);
	/* 2: the bundle, on the sequence whose state it clears */
	CU_ASSERT_EQUAL(pkt_num(&pk[1], PFT_PACKET_SEQUENCE_ID), 1);
	CU_ASSERT_EQUAL(pkt_num(&pk[1], PFT_PACKET_SEQUENCE_FLAGS),
			PFT_SEQ_INCREMENTAL_STATE_CLEARED);
	CU_ASSERT_FATAL(pkt_get(&pk[1], PFT_PACKET_FTRACE_EVENTS, 0, &b));
	CU_ASSERT_EQUAL(pkt_num(&b, PFT_BUNDLE_CPU), 2);
	CU_ASSERT_EQUAL(pkt_num(&b, PFT_BUNDLE_LOST_EVENTS), 1);
	CU_ASSERT_FALSE(pkt_get(&b, PFT_BUNDLE_FTRACE_CLOCK, 0, &f));
	CU_ASSERT_FATAL(pkt_get(&b, PFT_BUNDLE_EVENT, 0, &ev));
	CU_ASSERT_FALSE(pkt_get(&b, PFT_BUNDLE_EVENT, 1, &f));
	/* timestamp, pid, the event: in that order (the fast path) */
	CU_ASSERT(ev.p[0] == (PFT_EVENT_TIMESTAMP << 3 | PB_VARINT));
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_TIMESTAMP), 1500);
	CU_ASSERT_EQUAL(pkt_num(&ev, PFT_EVENT_PID), 42);
	CU_ASSERT_FALSE(pkt_get(&ev, 5, 0, &f));	/* no common_flags */
	CU_ASSERT_FATAL(pkt_get(&ev, PFT_EV_IRQ_HANDLER_ENTRY, 0, &msg));
	CU_ASSERT_EQUAL(pkt_num(&msg, 1), 36);
	CU_ASSERT(pkt_text_is(&msg, 2, "virtio"));
	CU_ASSERT_FATAL(pkt_get(&b, PFT_BUNDLE_COMPACT_SCHED, 0, &cs));
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_TIMESTAMP), 3);
	CU_ASSERT(v[0] == 2000 && v[1] == 500 && v[2] == 100);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_PREV_STATE), 3);
	CU_ASSERT(v[0] == 2 && v[1] == 256 && v[2] == 0);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_PID), 3);
	CU_ASSERT(v[0] == 100 && v[1] == 101 && v[2] == 100);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_PRIO), 3);
	/* an int32 of -1: its 64-bit two's complement */
	CU_ASSERT(v[0] == 120 && v[1] == -1 && v[2] == 120);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_SWITCH_NEXT_COMM), 3);
	CU_ASSERT(v[0] == 0 && v[1] == 1 && v[2] == 0);
	CU_ASSERT(pkt_get(&cs, PFT_COMPACT_INTERN_TABLE, 0, &f) &&
		  f.len == 1 && f.p[0] == 'a');
	CU_ASSERT(pkt_get(&cs, PFT_COMPACT_INTERN_TABLE, 1, &f) &&
		  f.len == 2 && !memcmp(f.p, "bb", 2));
	CU_ASSERT_FALSE(pkt_get(&cs, PFT_COMPACT_INTERN_TABLE, 2, &f));
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_TIMESTAMP), 1);
	CU_ASSERT_EQUAL(v[0], 2700);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_PID), 1);
	CU_ASSERT_EQUAL(v[0], 101);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_TARGET_CPU), 1);
	CU_ASSERT_EQUAL(v[0], 1);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_PRIO), 1);
	CU_ASSERT_EQUAL(v[0], 110);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_COMM), 1);
	CU_ASSERT_EQUAL(v[0], 1);
	CU_ASSERT_EQUAL(COL(PFT_COMPACT_WAKING_FLAGS), 1);
	CU_ASSERT_EQUAL(v[0], 0x08);
	/* 3: the process tree, at the start, under the process's last name */
	CU_ASSERT_EQUAL(pkt_num(&pk[2], PFT_PACKET_TIMESTAMP), 1000);
	CU_ASSERT_FATAL(pkt_get(&pk[2], PFT_PACKET_PROCESS_TREE, 0, &f));
	CU_ASSERT_FATAL(pkt_get(&f, PFT_TREE_PROCESS, 0, &th));
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_PROC_PID), 100);
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_PROC_PPID), 1);
	CU_ASSERT(pkt_text_is(&th, PFT_PROC_CMDLINE, "renamed"));
	CU_ASSERT_EQUAL(pkt_num(&th, PFT_PROC_START_FROM_BOOT), 900);
	CU_ASSERT_FALSE(pkt_get(&f, PFT_TREE_PROCESS, 1, &th));
	printf("\n    %zu packets in %u blob(s): idle thread, CPU 2's bundle "
	       "(1 event, 3 compact switches, 1 waking, lost events), the "
	       "process tree; CPU %d's nowhere\n", n, t.blobs, PFT_MAX_CPU);
	run_end(&t);
}

/*
 * Kernel symbols: interned once, on the bundles' sequence, numbered 1, 2,
 * ... in the order they come (ids of 32 bits: sched_blocked_reason's
 * caller is read as one).
 */
static void test_symbols(void)
{
	struct tep_handle *tep = tep_alloc();
	struct pb_field pk[4] = { { 0 } }, f = { 0 }, s = { 0 };
	struct run t;
	int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL(tep_register_function(tep, "process_one_work",
					      0xffffffff81000000ULL, NULL), 0);
	CU_ASSERT_EQUAL(tep_register_function(tep, "next_one",
					      0xffffffff81000100ULL, NULL), 0);
	run_start(&t);
	for (k = 0; k < 3; k++)
		CU_ASSERT_EQUAL(map_pkt_symbol(&t.ctx, tep,
					       0xffffffff81000000ULL), 1);
	CU_ASSERT_EQUAL(map_pkt_symbol(&t.ctx, tep, 0xffffffff81000100ULL),
			2);
	CU_ASSERT_EQUAL(map_pkt_symbol(&t.ctx, tep, 0xffffffff81000000ULL),
			1);
	CU_ASSERT_EQUAL(map_pkt_symbol(&t.ctx, tep, 0), 0);
	CU_ASSERT_EQUAL(map_pkt_switch(&t.ctx, 0, 10, 0, 1, 120, "a", 1), 0);
	run_finish(&t);
	check_stream(&t);
	CU_ASSERT_EQUAL_FATAL(packets(&t, pk, 4), 1);
	CU_ASSERT_EQUAL(pkt_num(&pk[0], PFT_PACKET_SEQUENCE_ID), 1);
	CU_ASSERT_FATAL(pkt_get(&pk[0], PFT_PACKET_INTERNED_DATA, 0, &f));
	CU_ASSERT_FATAL(pkt_get(&f, PFT_INTERNED_KERNEL_SYMBOLS, 0, &s));
	CU_ASSERT_EQUAL((uint64_t)pkt_num(&s, PFT_ISTRING_IID), 1);
	CU_ASSERT(pkt_text_is(&s, PFT_ISTRING_STR, "process_one_work"));
	CU_ASSERT_FATAL(pkt_get(&f, PFT_INTERNED_KERNEL_SYMBOLS, 1, &s));
	CU_ASSERT_EQUAL((uint64_t)pkt_num(&s, PFT_ISTRING_IID), 2);
	CU_ASSERT(pkt_text_is(&s, PFT_ISTRING_STR, "next_one"));
	CU_ASSERT_FALSE(pkt_get(&f, PFT_INTERNED_KERNEL_SYMBOLS, 2, &s));
	run_end(&t);
	tep_free(tep);
}

/* A large bundle: several packets, each whole, in one stream. */
static void test_large(void)
{
	struct pb_field pk[64] = { { 0 } }, b = { 0 }, f = { 0 };
	struct map_pkt_ev e;
	uint64_t ts = 1, nev = 0;
	size_t n, i;
	struct run t;
	int k;

	run_start(&t);
	for (k = 0; k < 20000; k++) {
		CU_ASSERT_EQUAL_FATAL(map_pkt_event(&t.ctx, 0, ts++, k,
						    PFT_EV_SOFTIRQ_ENTRY, &e),
				      1);
		pb_uint(e.b, 1, k % 10);
		CU_ASSERT_EQUAL_FATAL(map_pkt_event_end(&t.ctx, &e), 0);
	}
	run_finish(&t);
	check_stream(&t);
	n = packets(&t, pk, 64);
	CU_ASSERT(n > 2);
	for (i = 0; i < n; i++) {
		CU_ASSERT_FATAL(pkt_get(&pk[i], PFT_PACKET_FTRACE_EVENTS, 0,
					&b));
		CU_ASSERT_EQUAL(pkt_num(&b, PFT_BUNDLE_CPU), 0);
		for (k = 0; pkt_get(&b, PFT_BUNDLE_EVENT, k, &f); k++)
			;
		nev += k;
	}
	CU_ASSERT_EQUAL(nev, 20000);
	printf("\n    20000 events of CPU 0: %zu bundles, %u blob records, "
	       "%zu bytes of stream\n", n, t.blobs, t.stream.len);
	run_end(&t);
}

/*
 * Perfetto's CPU limit whatever CPUs came before: the bundles of CPUs
 * 600 and 1000 make room for more than PFT_MAX_CPU, and an event of CPU
 * 1100 is still no packet (the reader refuses a bundle of such a CPU).
 */
static void test_cpu_limit(void)
{
	uint32_t proto = 1;
	uint64_t v = 7;
	struct run t;

	run_start(&t);
	CU_ASSERT_EQUAL(map_pkt_start(&t.ctx, 1000), 0);
	CU_ASSERT_EQUAL(map_pkt_varints(&t.ctx, 600, 1500, 42, PFT_EV_SYS_ENTER,
					&proto, &v, 1), 0);
	CU_ASSERT_EQUAL(map_pkt_varints(&t.ctx, 1000, 1600, 42,
					PFT_EV_SYS_ENTER, &proto, &v, 1), 0);
	CU_ASSERT_EQUAL(map_pkt_varints(&t.ctx, 1100, 1700, 42,
					PFT_EV_SYS_ENTER, &proto, &v, 1), 0);
	run_finish(&t);
	printf("\n    events of CPUs 600, 1000 and 1100: the packets read "
	       "back");
	check_stream(&t);
}

static CU_TestInfo packet_tests[] = {
	{ "a bundle, its events, its CompactSched, the trees",
	  test_bundle },
	{ "kernel symbols interned once on the bundles' sequence",
	  test_symbols },
	{ "a large bundle is several whole packets", test_large },
	{ "no bundle of a CPU past Perfetto's limit, whatever came before",
	  test_cpu_limit },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-packet: Perfetto packets in FXT blobs", NULL, NULL, NULL, NULL,
	  packet_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
