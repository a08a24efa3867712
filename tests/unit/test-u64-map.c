// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-u64-map - libutil.a's hash table from 64-bit keys (u64-map.h),
 * against a plain array of every key stored and its value: the table must
 * find each, find nothing else, stay at most half full, and lay its slots
 * out the same for the same calls (outputs are written in slot order).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u64-map.h"
#include "unit.h"

/* A reproducible stream of keys (xorshift64*). */
static uint64_t next_key(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

static void test_empty(void)
{
	struct u64_map m = { 0 };

	CU_ASSERT_EQUAL(u64_map_get(&m, 0), 0);
	CU_ASSERT_EQUAL(u64_map_get(&m, 1), 0);
	CU_ASSERT_EQUAL(u64_map_get(&m, UINT64_MAX), 0);
	CU_ASSERT_EQUAL(m.nr, 0);
	u64_map_free(&m);
	CU_ASSERT_PTR_NULL(m.slot);
	CU_ASSERT_EQUAL(m.cap, 0);
}

/* 0 and all-ones are keys like any other; a key's value is replaced. */
static void test_edge_keys(void)
{
	struct u64_map m = { 0 };

	CU_ASSERT_EQUAL(u64_map_set(&m, 0, 7), 0);
	CU_ASSERT_EQUAL(u64_map_set(&m, UINT64_MAX, 8), 0);
	CU_ASSERT_EQUAL(u64_map_set(&m, 1, UINT64_MAX), 0);
	CU_ASSERT_EQUAL(u64_map_get(&m, 0), 7);
	CU_ASSERT_EQUAL(u64_map_get(&m, UINT64_MAX), 8);
	CU_ASSERT_EQUAL(u64_map_get(&m, 1), UINT64_MAX);
	CU_ASSERT_EQUAL(u64_map_get(&m, 2), 0);
	CU_ASSERT_EQUAL(m.nr, 3);
	CU_ASSERT_EQUAL(u64_map_set(&m, 0, 9), 0);
	CU_ASSERT_EQUAL(u64_map_get(&m, 0), 9);
	CU_ASSERT_EQUAL(m.nr, 3);
	CU_ASSERT_EQUAL(m.cap, U64_MAP_FIRST);
	u64_map_free(&m);
}

/* put: 0 for a new key (then the caller's value), the value for a known one. */
static void test_put(void)
{
	struct u64_map m = { 0 };
	uint64_t *v;

	v = u64_map_put(&m, 42);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(*v, 0);
	CU_ASSERT_EQUAL(m.nr, 1);
	*v = 1;
	v = u64_map_put(&m, 42);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(*v, 1);
	CU_ASSERT_EQUAL(m.nr, 1);
	u64_map_free(&m);
}

/*
 * 200000 random keys and the same many in a row, each with a value, some
 * stored twice: every one found with its last value, absent keys not
 * found, the table a power of two at most half full, and a walk of the
 * slots meets every key once.
 */
static void test_many(void)
{
	enum { N = 200000 };
	struct u64_map m = { 0 };
	uint64_t *keys = malloc(2 * N * sizeof(*keys)), x = 88172645463325252ULL;
	size_t i, bad = 0, seen = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(keys);
	for (i = 0; i < N; i++) {
		keys[i] = next_key(&x);
		keys[N + i] = 1000000 + i;
	}
	for (i = 0; i < 2 * N; i++)
		if (u64_map_set(&m, keys[i], i + 1))
			bad++;
	/* the first half again: the values are replaced, nothing added */
	for (i = 0; i < N; i += 2)
		if (u64_map_set(&m, keys[i], i + 7))
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(m.nr, 2 * N);
	CU_ASSERT(m.cap && !(m.cap & (m.cap - 1)));
	CU_ASSERT(2 * m.nr <= m.cap);
	for (i = 0; i < 2 * N; i++)
		if (u64_map_get(&m, keys[i]) !=
		    (i < N && !(i % 2) ? i + 7 : i + 1))
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	/* keys in a row next to the stored ones, and more random ones */
	for (i = 0; i < N; i++)
		if (u64_map_get(&m, 1000000 + 2 * N + i) ||
		    u64_map_get(&m, 999999 - i))
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	for (i = 0; i < m.cap; i++)
		seen += m.slot[i].val != 0;
	CU_ASSERT_EQUAL(seen, 2 * N);
	printf("\n    %zu keys in %zu slots\n", m.nr, m.cap);
	u64_map_free(&m);
	free(keys);
}

/*
 * The slots' order: the same calls give the same slots (what a user
 * writes in slot order is the same each run), and the first capacity is
 * the one asked for.
 */
static void test_order(void)
{
	struct u64_map a = { .first = 256 }, b = { .first = 256 };
	uint64_t x = 7, k;
	int i;

	for (i = 0; i < 1000; i++) {
		k = next_key(&x) % 5000;
		CU_ASSERT_EQUAL(u64_map_set(&a, k, i + 1), 0);
		CU_ASSERT_EQUAL(u64_map_set(&b, k, i + 1), 0);
		if (i == 0)
			CU_ASSERT_EQUAL(a.cap, 256);
	}
	CU_ASSERT_EQUAL(a.cap, b.cap);
	CU_ASSERT_EQUAL(memcmp(a.slot, b.slot, a.cap * sizeof(*a.slot)), 0);
	u64_map_free(&a);
	CU_ASSERT_EQUAL(a.first, 256);
	u64_map_free(&b);
}

/*
 * The hash: below 2^24 slots, the Fibonacci product's bits from 40 up
 * (where the tables u64-map replaced started their probes); in range for
 * every mask; consecutive keys and page-aligned ones spread over all of a
 * small table's slots.
 */
/* The keys in ascending order, each once, however they were put. */
static void test_keys(void)
{
	struct u64_map m = { 0 };
	uint64_t x = 99, *keys, k;
	size_t n, i, bad = 0;

	keys = u64_map_keys(&m, &n);
	CU_ASSERT_PTR_NULL(keys);
	CU_ASSERT_EQUAL(n, 0);
	for (i = 0; i < 5000; i++) {
		k = next_key(&x);
		CU_ASSERT_EQUAL_FATAL(u64_map_set(&m, k, i + 1), 0);
		/* some twice: one key still */
		if (i % 7 == 0)
			CU_ASSERT_EQUAL_FATAL(u64_map_set(&m, k, 1), 0);
	}
	CU_ASSERT_EQUAL_FATAL(u64_map_set(&m, 0, 1), 0);
	CU_ASSERT_EQUAL_FATAL(u64_map_set(&m, UINT64_MAX, 1), 0);
	keys = u64_map_keys(&m, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(keys);
	for (i = 1; i < n; i++)
		bad += keys[i - 1] >= keys[i];
	printf("\n    %zu keys of %zu, %zu out of order, first %llu, last "
	       "%llu", n, m.nr, bad, (unsigned long long)keys[0],
	       (unsigned long long)keys[n - 1]);
	CU_ASSERT_EQUAL(n, m.nr);
	CU_ASSERT_EQUAL(n, 5002);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(keys[0], 0);
	CU_ASSERT_EQUAL(keys[n - 1], UINT64_MAX);
	free(keys);
	u64_map_free(&m);
}

static void test_hash(void)
{
	unsigned int used[16] = { 0 }, aligned[64] = { 0 }, n = 0, na = 0;
	uint64_t x = 3, k;
	size_t i, bad = 0;

	for (i = 0; i < 100000; i++) {
		k = next_key(&x);
		if (u64_map_hash(k, 0xffffff) !=
		    (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 40 & 0xffffff))
			bad++;
		if (u64_map_hash(k, ((size_t)1 << 30) - 1) >= (size_t)1 << 30)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	for (k = 0; k < 4096; k++) {
		used[u64_map_hash(k, 15)]++;
		aligned[u64_map_hash(k * 4096, 63)]++;
	}
	for (i = 0; i < 16; i++)
		n += used[i] != 0;
	for (i = 0; i < 64; i++)
		na += aligned[i] != 0;
	CU_ASSERT_EQUAL(n, 16);
	CU_ASSERT_EQUAL(na, 64);
}

static CU_TestInfo map_tests[] = {
	{ "an empty map finds nothing", test_empty },
	{ "keys 0 and 2^64-1 stored, values replaced", test_edge_keys },
	{ "put: 0 for a new key, the value for a known one", test_put },
	{ "400000 keys against an array of them", test_many },
	{ "the same calls lay the slots out the same", test_order },
	{ "the keys, in ascending order, each once", test_keys },
	{ "the hash: the replaced tables' slots, in range, spread",
	  test_hash },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "u64-map: 64-bit keys to non-zero values", NULL, NULL, NULL, NULL,
	  map_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
