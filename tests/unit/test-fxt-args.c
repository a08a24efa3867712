// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-args.c - the core's helpers for decoded records: the fxt/<type>
 * argument-list codec, argument lookup, the UTF-8 rule and the first-error
 * keeper.
 *
 * Expected bytes are written out here from the layout MAPPING.md gives
 * (u8 type, u8 0, u16 name length, name, value), and UTF-8 verdicts from
 * the Unicode standard's table of well-formed sequences (overlong forms,
 * surrogates and code points past U+10FFFF are ill-formed): nothing here
 * is produced by the code under test.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "fxt-args.h"
#include "fxt-format.h"
#include "unit.h"

#define NAME(s)		FXT_ARG_STR_NAME(s)

static const struct fxt_arg sample_args[] = {
	{ .type = FXT_ARG_INT32, .name = NAME("a"), .i32 = -2 },
	{ .type = FXT_ARG_STRING, .name = NAME("s"), .str = NAME("hi") },
	{ .type = FXT_ARG_BOOL, .name = NAME("ok"), .b = true },
	{ .type = FXT_ARG_UINT64, .name = NAME("u"),
	  .u64 = 0x0102030405060708ULL },
	{ .type = FXT_ARG_NULL, .name = NAME("n") },
	{ .type = 13, .name = NAME("future") },	/* no such type: no entry */
};

static const uint8_t sample_bytes[] = {
	1, 0, 1, 0, 'a', 0xfe, 0xff, 0xff, 0xff,
	6, 0, 1, 0, 's', 2, 0, 0, 0, 'h', 'i',
	9, 0, 2, 0, 'o', 'k', 1,
	4, 0, 1, 0, 'u', 8, 7, 6, 5, 4, 3, 2, 1,
	0, 0, 1, 0, 'n',
};

#define NR_SAMPLE	(sizeof(sample_args) / sizeof(sample_args[0]))

static void test_encode_bytes(void)
{
	uint8_t buf[128];
	size_t n;

	n = fxt_args_encode(sample_args, NR_SAMPLE, NULL, 0);
	CU_ASSERT_EQUAL(n, sizeof(sample_bytes));
	memset(buf, 0xaa, sizeof(buf));
	n = fxt_args_encode(sample_args, NR_SAMPLE, buf, sizeof(buf));
	CU_ASSERT_EQUAL_FATAL(n, sizeof(sample_bytes));
	CU_ASSERT(!memcmp(buf, sample_bytes, n));
	CU_ASSERT_EQUAL(buf[n], 0xaa);
	printf("\n    %zu bytes, as MAPPING.md lays them out\n", n);
}

/* Too little room: the size is still told, nothing is written. */
static void test_encode_no_room(void)
{
	uint8_t buf[sizeof(sample_bytes)];

	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL(fxt_args_encode(sample_args, NR_SAMPLE, buf,
					sizeof(buf) - 1), sizeof(sample_bytes));
	CU_ASSERT_EQUAL(buf[0], 0xaa);
	CU_ASSERT_EQUAL(buf[sizeof(buf) - 2], 0xaa);
}

static void test_decode_bytes(void)
{
	struct fxt_arg a[8];
	unsigned int done;
	int n;

	n = fxt_args_decode(sample_bytes, sizeof(sample_bytes), a, 8, &done);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_EQUAL(done, 5);
	CU_ASSERT(a[0].type == FXT_ARG_INT32 && a[0].i32 == -2 &&
		  fxt_str_eq(a[0].name, "a"));
	CU_ASSERT(a[1].type == FXT_ARG_STRING && fxt_str_eq(a[1].str, "hi"));
	CU_ASSERT(a[2].type == FXT_ARG_BOOL && a[2].b &&
		  fxt_str_eq(a[2].name, "ok"));
	CU_ASSERT(a[3].type == FXT_ARG_UINT64 &&
		  a[3].u64 == 0x0102030405060708ULL);
	CU_ASSERT(a[4].type == FXT_ARG_NULL && fxt_str_eq(a[4].name, "n"));
	/* room for two: two, and no error */
	CU_ASSERT_EQUAL(fxt_args_decode(sample_bytes, sizeof(sample_bytes),
					a, 2, &done), 2);
}

/* Every cut short of the whole list is an error after whole entries. */
static void test_decode_truncated(void)
{
	static const size_t ends[] = { 9, 20, 27, 40, 45 };
	struct fxt_arg a[8];
	unsigned int done, whole;
	size_t len;
	int bad = 0, want;

	for (len = 1; len < sizeof(sample_bytes); len++) {
		for (whole = 0; whole < 5 && ends[whole] <= len; whole++)
			;
		/* ending at an entry's end is a shorter list, else bad */
		want = whole && ends[whole - 1] == len ? (int)whole : -1;
		if (fxt_args_decode(sample_bytes, len, a, 8, &done) != want ||
		    done != whole)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	printf("\n    %zu cuts: whole entries kept, the rest refused\n",
	       sizeof(sample_bytes) - 1);
}

static void test_decode_unknown_type(void)
{
	static const uint8_t b[] = { 1, 0, 1, 0, 'a', 1, 0, 0, 0,
				     10, 0, 1, 0, 'x', 0 };
	struct fxt_arg a[4];
	unsigned int done;

	CU_ASSERT_EQUAL(fxt_args_decode(b, sizeof(b), a, 4, &done), -1);
	CU_ASSERT_EQUAL(done, 1);
	CU_ASSERT_EQUAL(a[0].i32, 1);
}

static void test_args_find_and_int(void)
{
	const struct fxt_arg args[] = {
		{ .type = FXT_ARG_STRING, .name = NAME("cpu"),
		  .str = NAME("x") },
		{ .type = FXT_ARG_UINT64, .name = NAME("big"),
		  .u64 = UINT64_MAX },
		{ .type = FXT_ARG_INT32, .name = NAME("neg"), .i32 = -7 },
		{ .type = FXT_ARG_BOOL, .name = NAME("b"), .b = true },
		{ .type = FXT_ARG_POINTER, .name = NAME("p"),
		  .u64 = 0xffff800012345678ULL },
		{ .type = FXT_ARG_DOUBLE, .name = NAME("d"), .d = 1.5 },
	};
	int64_t v = 42;

	CU_ASSERT_PTR_EQUAL(fxt_args_find(args, 6, "cpu"), &args[0]);
	CU_ASSERT_PTR_EQUAL(fxt_args_find(args, 6, "neg"), &args[2]);
	CU_ASSERT_PTR_NULL(fxt_args_find(args, 6, "ne"));
	CU_ASSERT_PTR_NULL(fxt_args_find(args, 0, "cpu"));
	/* a string is no integer, and @v stays */
	CU_ASSERT_FALSE(fxt_arg_int(&args[0], &v));
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_FALSE(fxt_arg_int(NULL, &v));
	CU_ASSERT(fxt_arg_int(&args[1], &v) && v == INT64_MAX);
	CU_ASSERT(fxt_arg_int(&args[2], &v) && v == -7);
	CU_ASSERT_FALSE(fxt_arg_int(&args[3], &v));
	CU_ASSERT_EQUAL(fxt_arg_bits(&args[2]), (uint64_t)-7);
	CU_ASSERT_EQUAL(fxt_arg_bits(&args[3]), 1);
	CU_ASSERT_EQUAL(fxt_arg_bits(&args[4]), 0xffff800012345678ULL);
	CU_ASSERT_EQUAL(fxt_arg_bits(&args[5]), 0);
}

static void test_utf8_len(void)
{
	static const struct {
		const char	*s;
		size_t		want;
	} t[] = {
		{ "A", 1 },
		{ "\xc3\xa9", 2 },		/* U+00E9 */
		{ "\xe2\x82\xac", 3 },		/* U+20AC */
		{ "\xf0\x9f\x98\x80", 4 },	/* U+1F600 */
		{ "\xf4\x8f\xbf\xbf", 4 },	/* U+10FFFF, the last */
		{ "\xc0\xaf", 0 },		/* overlong '/' */
		{ "\xe0\x80\xaf", 0 },		/* overlong, 3 bytes */
		{ "\xf0\x80\x80\xaf", 0 },	/* overlong, 4 bytes */
		{ "\xed\xa0\x80", 0 },		/* U+D800, a surrogate */
		{ "\xf4\x90\x80\x80", 0 },	/* U+110000 */
		{ "\x80", 0 },			/* a lone continuation */
		{ "\xf8\x88\x80\x80\x80", 0 },	/* 5-byte form */
		{ "\xe2\x82", 0 },		/* cut short */
		{ "\xe2\x28\xac", 0 },		/* not a continuation */
	};
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (fxt_utf8_len((const uint8_t *)t[i].s, strlen(t[i].s)) !=
		    t[i].want) {
			printf("\n    sequence %u: wrong verdict", i);
			bad++;
		}
	CU_ASSERT_EQUAL(bad, 0);
	printf("\n    %u sequences judged as Unicode's table has them\n", i);
}

static void test_errmsg_first_wins(void)
{
	char buf[32] = "";
	int err = 0;

	errmsg_set(&err, buf, sizeof(buf), -ENOENT, "first %d", 1);
	errmsg_set(&err, buf, sizeof(buf), -EINVAL, "second %d", 2);
	CU_ASSERT_EQUAL(err, -ENOENT);
	CU_ASSERT_STRING_EQUAL(buf, "first 1");
	err = 0;
	errmsg_set(&err, buf, sizeof(buf), 0, "%s",
		   "a message longer than the buffer it goes to");
	CU_ASSERT_EQUAL(err, -EIO);
	CU_ASSERT_EQUAL(strlen(buf), sizeof(buf) - 1);
	err = 0;
	errmsg_set(&err, NULL, 0, -ENOMEM, "no room");
	CU_ASSERT_EQUAL(err, -ENOMEM);
}

/*
 * Exact, rounded down, saturating.  4e17 ticks of a 24 MHz clock are
 * 16666666666666666666.67 ns: 16666666666666666666, where long double
 * (what report used before) says ...667 and fxt2dat said ...666.
 */
static void test_ticks_to_ns(void)
{
	const uint64_t t = 400000000000000000ULL, tps = 24000000;
	uint64_t old = (uint64_t)((long double)t * 1e9L / tps);

	CU_ASSERT_EQUAL(fxt_ticks_to_ns(12345, 0), 12345);
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(12345, 1000000000ULL), 12345);
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(3, 2), 1500000000ULL);
	/* 1 tick of a 3 Hz clock: 333333333.33 ns, down */
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(1, 3), 333333333ULL);
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(UINT64_MAX, 1), UINT64_MAX);
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(1ULL << 40, 1ULL << 40),
			1000000000ULL);
	CU_ASSERT_EQUAL(fxt_ticks_to_ns(t, tps), 16666666666666666666ULL);
	printf("\n    4e17 ticks at 24 MHz: %llu ns (long double: %llu)",
	       (unsigned long long)fxt_ticks_to_ns(t, tps),
	       (unsigned long long)old);
}

static CU_TestInfo codec_tests[] = {
	{ "encode: the documented bytes, unknown types left out",
	  test_encode_bytes },
	{ "encode: too little room writes nothing", test_encode_no_room },
	{ "decode: the documented bytes back to typed arguments",
	  test_decode_bytes },
	{ "decode: a list cut anywhere keeps its whole entries",
	  test_decode_truncated },
	{ "decode: an unknown type ends the list", test_decode_unknown_type },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo helper_tests[] = {
	{ "fxt_args_find, fxt_arg_int, fxt_arg_bits",
	  test_args_find_and_int },
	{ "fxt_utf8_len: well-formed and ill-formed sequences",
	  test_utf8_len },
	{ "fxt_ticks_to_ns: exact, rounded down, saturating",
	  test_ticks_to_ns },
	{ "errmsg_set: the first error and message win",
	  test_errmsg_first_wins },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt/<type> argument list (common/fxt/fxt-args.c)", NULL, NULL, NULL,
	  NULL, codec_tests },
	{ "core helpers for decoded records", NULL, NULL, NULL, NULL,
	  helper_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
