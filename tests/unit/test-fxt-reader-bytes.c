// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-reader-bytes.c - the reader decoding records put together here
 * word by word from the FXT specification (shared/seeds/003), each field
 * shifted to its bit position and each value written out as a constant.
 *
 * test-fxt-bytes pins the writer's encoding the same way; together they
 * keep a change that writer and reader make alike (a round trip still
 * agrees with itself) from passing: the bytes here never came from the
 * writer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-reader.h"
#include "unit.h"

#define F(v, lsb)	((uint64_t)(v) << (lsb))
/* [0..3] record or argument type, [4..15] size in words */
#define HDR(type, words)	(F(type, 0) | F(words, 4))
#define MAGIC		0x0016547846040010ULL
/* provider 1 named "pins": metadata type 1, id [20..51], length [52..59] */
#define PINFO		(HDR(0, 2) | F(1, 16) | F(1, 20) | F(4, 52))
/* An inline string ref: bit 15 set, the length below it. */
#define INL(len)	(0x8000 | (len))
/* An argument header with a one-word inline name: [16..31] name ref. */
#define ARG(type, words)	(HDR(type, words) | F(INL(1), 16))
#define N(a)		(sizeof(a) / sizeof((a)[0]))

/* Up to 8 bytes of stream as the word whose bytes they are (LE). */
static uint64_t sw(const char *s)
{
	uint64_t v = 0;
	size_t i, n = strlen(s);

	for (i = 0; i < n && i < 8; i++)
		v |= (uint64_t)(uint8_t)s[i] << (8 * i);
	return v;
}

static uint8_t *le_bytes(const uint64_t *w, size_t n)
{
	uint8_t *b = malloc(n * 8);
	size_t i;
	int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	for (i = 0; i < n; i++)
		for (k = 0; k < 8; k++)
			b[i * 8 + k] = w[i] >> (8 * k);
	return b;
}

/* Read @w strictly and hand back its fourth record (after the provider). */
static uint8_t *read_fourth(const uint64_t *w, size_t n,
			    struct fxt_reader **r, struct fxt_record *rec)
{
	uint8_t *b = le_bytes(w, n);
	int i;

	*r = fxt_reader_open_mem(b, n * 8, "pins.fxt", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*r);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL_FATAL(fxt_reader_next(*r, rec), 1);
	return b;
}

/*
 * An instant event, thread inline (pid 7, tid 8), category "cat" and name
 * "ev" inline, with one argument of every type, each named inline by one
 * letter.  Values sit where the specification puts them: 32-bit values
 * and the bool in the header's bits [32..63], 64-bit ones in the word
 * after the name, a string value's ref in [32..47] and its bytes last.
 */
static void test_every_argument_type(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("pins"),
		HDR(1, 2), 1000000000ULL,			/* init */
		HDR(4, 32) | F(0, 16) | F(10, 20) | F(0, 24) |
			F(INL(3), 32) | F(INL(2), 48),
		123456789ULL, 7, 8, sw("cat"), sw("ev"),
		ARG(0, 2), sw("n"),
		ARG(1, 2) | F(0xffffffd6, 32), sw("i"),		/* -42 */
		ARG(2, 2) | F(4000000000U, 32), sw("u"),
		ARG(3, 3), sw("I"), 0xfffffffed5fa0e00ULL,	/* -5e9 */
		ARG(4, 3), sw("U"), 18000000000000000000ULL,
		ARG(5, 3), sw("d"), 0x400a000000000000ULL,	/* 3.25 */
		ARG(6, 3) | F(INL(5), 32), sw("s"), sw("hello"),
		ARG(7, 3), sw("p"), 0xffff888001234000ULL,
		ARG(8, 3), sw("k"), 101,
		ARG(9, 2) | F(1, 32), sw("b"),
	};
	static const char *names = "niuIUdspkb";
	struct fxt_reader *r;
	struct fxt_record rec;
	const struct fxt_arg *a;
	uint8_t *b;
	unsigned int i;

	b = read_fourth(w, N(w), &r, &rec);
	CU_ASSERT_EQUAL_FATAL(rec.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(rec.size, 32 * 8);
	CU_ASSERT_EQUAL(rec.event.type, FXT_EVENT_INSTANT);
	CU_ASSERT_EQUAL(rec.event.ts, 123456789ULL);
	CU_ASSERT_EQUAL(rec.event.thread.pid, 7);
	CU_ASSERT_EQUAL(rec.event.thread.tid, 8);
	CU_ASSERT(fxt_str_eq(rec.event.category, "cat"));
	CU_ASSERT(fxt_str_eq(rec.event.name, "ev"));
	CU_ASSERT_EQUAL_FATAL(rec.event.nargs, 10);
	a = rec.event.args;
	for (i = 0; i < 10; i++) {
		CU_ASSERT_EQUAL(a[i].type, i);
		CU_ASSERT(a[i].name.len == 1 && a[i].name.ptr[0] == names[i]);
	}
	CU_ASSERT_EQUAL(a[1].i32, -42);
	CU_ASSERT_EQUAL(a[2].u32, 4000000000U);
	CU_ASSERT_EQUAL(a[3].i64, -5000000000LL);
	CU_ASSERT_EQUAL(a[4].u64, 18000000000000000000ULL);
	CU_ASSERT_EQUAL(a[5].d, 3.25);
	CU_ASSERT(fxt_str_eq(a[6].str, "hello"));
	CU_ASSERT_EQUAL(a[7].ptr, 0xffff888001234000ULL);
	CU_ASSERT_EQUAL(a[8].koid, 101);
	CU_ASSERT_EQUAL(a[9].b, true);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 0);
	CU_ASSERT_PTR_NULL(fxt_reader_error(r));
	fxt_reader_close(r);
	free(b);
	printf("\n# 10 argument types read from hand-built bytes\n");
}

/*
 * The 32-bit values fill their 32 bits: the sign bit of an int32 and the
 * top bit of a uint32 are bit 63 of the header word.
 */
static void test_int32_full_width(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("pins"),
		HDR(1, 2), 1000000000ULL,
		HDR(4, 10) | F(0, 16) | F(2, 20) | F(INL(3), 32) |
			F(INL(2), 48),
		5, 7, 8, sw("cat"), sw("ev"),
		ARG(1, 2) | F(0x80000000U, 32), sw("m"),	/* INT32_MIN */
		ARG(2, 2) | F(0xffffffffU, 32), sw("x"),
	};
	struct fxt_reader *r;
	struct fxt_record rec;
	uint8_t *b;

	b = read_fourth(w, N(w), &r, &rec);
	CU_ASSERT_EQUAL_FATAL(rec.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL_FATAL(rec.event.nargs, 2);
	CU_ASSERT_EQUAL(rec.event.args[0].type, FXT_ARG_INT32);
	CU_ASSERT_EQUAL(rec.event.args[0].i32, INT32_MIN);
	CU_ASSERT_EQUAL(rec.event.args[1].type, FXT_ARG_UINT32);
	CU_ASSERT_EQUAL(rec.event.args[1].u32, UINT32_MAX);
	fxt_reader_close(r);
	free(b);
}

/* Read @w strictly to the end; @rec gets the records after the provider. */
static unsigned int read_all(const uint64_t *w, size_t n,
			     struct fxt_record *rec, unsigned int max,
			     uint8_t **bytes, struct fxt_reader **r)
{
	struct fxt_record tmp;
	unsigned int got = 0;
	int ret;

	*bytes = le_bytes(w, n);
	*r = fxt_reader_open_mem(*bytes, n * 8, "pins.fxt", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*r);
	while ((ret = fxt_reader_next(*r, &tmp)) == 1) {
		if (got >= 2 && got - 2 < max)
			rec[got - 2] = tmp;
		got++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	if (ret)
		printf("\n%s\n", fxt_reader_error(*r));
	return got - 2;
}

/*
 * A string record and a thread record set table entries that a counter
 * and a duration complete event then use by reference; each event's own
 * word (counter id, end time) comes after its arguments.
 */
static void test_refs_and_event_words(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("pins"),
		/* string 1 = "sched": [16..30] index, [32..46] length */
		HDR(2, 2) | F(1, 16) | F(5, 32), sw("sched"),
		/* string 2 = "load" */
		HDR(2, 2) | F(2, 16) | F(4, 32), sw("load"),
		/* thread 3 = (100, 101): [16..23] index */
		HDR(3, 3) | F(3, 16), 100, 101,
		/* counter, thread ref 3, "sched"/"load", int64 arg "v" */
		HDR(4, 6) | F(1, 16) | F(1, 20) | F(3, 24) | F(1, 32) |
			F(2, 48),
		2000, ARG(3, 3), sw("v"), 77, 0xc0ffee,
		/* duration complete, no args: end time last */
		HDR(4, 3) | F(4, 16) | F(3, 24) | F(1, 32) | F(2, 48),
		3000, 3500,
	};
	struct fxt_record rec[8];
	struct fxt_reader *r;
	uint8_t *b;
	unsigned int n;

	n = read_all(w, N(w), rec, 8, &b, &r);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_EQUAL(rec[0].type, FXT_REC_STRING);
	CU_ASSERT_EQUAL(rec[0].string.index, 1);
	CU_ASSERT(fxt_str_eq(rec[0].string.str, "sched"));
	CU_ASSERT_EQUAL(rec[2].type, FXT_REC_THREAD);
	CU_ASSERT_EQUAL(rec[2].thread.index, 3);
	CU_ASSERT_EQUAL(rec[2].thread.thread.pid, 100);
	CU_ASSERT_EQUAL(rec[2].thread.thread.tid, 101);
	CU_ASSERT_EQUAL_FATAL(rec[3].type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(rec[3].event.type, FXT_EVENT_COUNTER);
	CU_ASSERT_EQUAL(rec[3].event.ts, 2000);
	CU_ASSERT_EQUAL(rec[3].event.thread.pid, 100);
	CU_ASSERT_EQUAL(rec[3].event.thread.tid, 101);
	CU_ASSERT(fxt_str_eq(rec[3].event.category, "sched"));
	CU_ASSERT(fxt_str_eq(rec[3].event.name, "load"));
	CU_ASSERT_EQUAL_FATAL(rec[3].event.nargs, 1);
	CU_ASSERT_EQUAL(rec[3].event.args[0].i64, 77);
	CU_ASSERT_EQUAL(rec[3].event.id, 0xc0ffee);
	CU_ASSERT_EQUAL_FATAL(rec[4].type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(rec[4].event.type, FXT_EVENT_DURATION_COMPLETE);
	CU_ASSERT_EQUAL(rec[4].event.ts, 3000);
	CU_ASSERT_EQUAL(rec[4].event.end_ts, 3500);
	CU_ASSERT_EQUAL(rec[4].event.nargs, 0);
	fxt_reader_close(r);
	free(b);
}

/*
 * A (legacy) context switch with both threads inline, a log record and a
 * kernel object record with an argument.
 */
static void test_switch_log_kernel_object(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("pins"),
		/* cpu 5, outgoing state 3 (blocked), priorities 9 and 20 */
		HDR(8, 6) | F(5, 16) | F(3, 24) | F(0, 28) | F(0, 36) |
			F(9, 44) | F(20, 52),
		4000, 10, 11, 12, 13,
		/* log: [16..30] length 11, thread inline */
		HDR(9, 6) | F(11, 16), 5000, 10, 11,
		sw("hello, w"), sw("log"),
		/* kernel object: type 2 (thread), name inline "worker",
		 * one argument, koid 11 */
		HDR(7, 6) | F(2, 16) | F(INL(6), 24) | F(1, 40), 11,
		sw("worker"), ARG(8, 3), sw("p"), 10,
	};
	struct fxt_record rec[4];
	struct fxt_reader *r;
	uint8_t *b;
	unsigned int n;

	n = read_all(w, N(w), rec, 4, &b, &r);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL_FATAL(rec[0].type, FXT_REC_SCHED);
	CU_ASSERT_EQUAL(rec[0].sched.subtype, FXT_SCHED_LEGACY_SWITCH);
	CU_ASSERT_EQUAL(rec[0].sched.ts, 4000);
	CU_ASSERT_EQUAL(rec[0].sched.cpu, 5);
	CU_ASSERT_EQUAL(rec[0].sched.out_state, 3);
	CU_ASSERT_EQUAL(rec[0].sched.out.pid, 10);
	CU_ASSERT_EQUAL(rec[0].sched.out.tid, 11);
	CU_ASSERT_EQUAL(rec[0].sched.in.pid, 12);
	CU_ASSERT_EQUAL(rec[0].sched.in.tid, 13);
	CU_ASSERT_EQUAL(rec[0].sched.out_prio, 9);
	CU_ASSERT_EQUAL(rec[0].sched.in_prio, 20);
	CU_ASSERT_EQUAL_FATAL(rec[1].type, FXT_REC_LOG);
	CU_ASSERT_EQUAL(rec[1].log.ts, 5000);
	CU_ASSERT_EQUAL(rec[1].log.thread.pid, 10);
	CU_ASSERT_EQUAL(rec[1].log.thread.tid, 11);
	CU_ASSERT(fxt_str_eq(rec[1].log.msg, "hello, wlog"));
	CU_ASSERT_EQUAL_FATAL(rec[2].type, FXT_REC_KERNEL_OBJ);
	CU_ASSERT_EQUAL(rec[2].kobj.koid, 11);
	CU_ASSERT_EQUAL(rec[2].kobj.obj_type, 2);
	CU_ASSERT(fxt_str_eq(rec[2].kobj.name, "worker"));
	CU_ASSERT_EQUAL_FATAL(rec[2].kobj.nargs, 1);
	CU_ASSERT_EQUAL(rec[2].kobj.args[0].type, FXT_ARG_KOID);
	CU_ASSERT_EQUAL(rec[2].kobj.args[0].koid, 10);
	fxt_reader_close(r);
	free(b);
}

static CU_TestInfo arg_tests[] = {
	{ "an instant with every argument type, from the spec's bits",
	  test_every_argument_type },
	{ "int32 and uint32 values use all 32 bits", test_int32_full_width },
	{ "string and thread refs; counter id and end time words",
	  test_refs_and_event_words },
	{ "context switch, log and kernel object records",
	  test_switch_log_kernel_object },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "reader on hand-built bytes", NULL, NULL, NULL, NULL, arg_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
