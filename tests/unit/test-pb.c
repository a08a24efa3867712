// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-pb.c - the protocol buffers wire format of the core (common/perfetto/pb.c):
 * what the writer makes, byte for byte, against encodings the protobuf
 * documentation spells out (Encoding, "A Simple Message": field 1 = 150
 * is 08 96 01; a string "testing" in field 2 is 12 07 74 65 73 74 69 6e
 * 67; a negative int32 is ten bytes), nested messages whose length needs
 * one, two and three bytes, and the reader on each of them and on bytes
 * that are no field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "unit.h"

static void same_bytes(const struct pb_buf *b, const uint8_t *want,
		       size_t n)
{
	CU_ASSERT_EQUAL(b->err, 0);
	CU_ASSERT_EQUAL_FATAL(b->len, n);
	CU_ASSERT(!memcmp(b->p, want, n));
}

static void test_scalars(void)
{
	static const uint8_t want[] = {
		0x08, 0x96, 0x01,				/* 1: 150 */
		0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',	/* 2: str */
		0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0x01,					/* 3: -1 */
		0x21, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,		/* 4: 1.0 */
		0xd0, 0x02, 0x00,				/* 42: 0 */
		0x80, 0x80, 0x20, 0x01,				/* 65536: 1 */
	};
	struct pb_buf b = { 0 };

	pb_uint(&b, 1, 150);
	pb_bytes(&b, 2, "testing", 7);
	pb_int(&b, 3, -1);
	pb_double(&b, 4, 1.0);
	pb_uint(&b, 42, 0);
	pb_uint(&b, 65536, 1);
	same_bytes(&b, want, sizeof(want));
	printf("\n    150, \"testing\", -1, 1.0, 0, field 65536: %zu bytes as "
	       "protobuf encodes them\n", b.len);
	pb_free(&b);
}

/* A message in field 5 of @n bytes: one bytes field, its length @len_bytes. */
static void nested(size_t n, size_t len_bytes)
{
	struct pb_buf b = { 0 }, want = { 0 };
	size_t m, inner, i;
	uint8_t *body;

	/* a body of exactly n bytes: tag 0x0a, length, payload */
	inner = n - 1 - pb_varint_size(n - 1);
	while (1 + pb_varint_size(inner) + inner != n)
		inner--;
	body = malloc(inner);
	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	for (i = 0; i < inner; i++)
		body[i] = (uint8_t)i;
	pb_uint(&b, 1, 7);
	m = pb_open(&b, 5);
	pb_bytes(&b, 1, body, inner);
	pb_close(&b, m);
	pb_uint(&b, 2, 9);

	pb_uint(&want, 1, 7);
	pb_varint(&want, 5 << 3 | PB_LEN);
	pb_varint(&want, n);
	CU_ASSERT_EQUAL(pb_varint_size(n), len_bytes);
	pb_bytes(&want, 1, body, inner);
	pb_uint(&want, 2, 9);
	same_bytes(&b, want.p, want.len);
	printf("    a nested message of %zu bytes: its length in %zu "
	       "byte(s), the body moved up for it\n", n, len_bytes);
	pb_free(&b);
	pb_free(&want);
	free(body);
}

static void test_nested(void)
{
	printf("\n");
	nested(3, 1);
	nested(127, 1);
	nested(128, 2);
	nested(16383, 2);
	nested(16384, 3);
	nested(300000, 3);
}

/* Messages inside messages: each closes with its own length. */
static void test_deep(void)
{
	static const uint8_t want[] = {
		0x0a, 0x08,			/* 1: { */
		0x12, 0x04,			/*   2: { */
		0x18, 0x05,			/*     3: 5 */
		0x22, 0x00,			/*     4: {} } */
		0x28, 0x06,			/*   5: 6 } */
		0x30, 0x07,			/* 6: 7 */
	};
	struct pb_buf b = { 0 };
	size_t a, c, d;

	a = pb_open(&b, 1);
	c = pb_open(&b, 2);
	pb_uint(&b, 3, 5);
	d = pb_open(&b, 4);
	pb_close(&b, d);
	pb_close(&b, c);
	pb_uint(&b, 5, 6);
	pb_close(&b, a);
	pb_uint(&b, 6, 7);
	same_bytes(&b, want, sizeof(want));
	pb_free(&b);
}

static void test_read(void)
{
	struct pb_buf b = { 0 };
	struct pb_reader r;
	struct pb_field f;
	size_t m;

	pb_uint(&b, 1, 150);
	pb_int(&b, 2, -2);
	m = pb_open(&b, 3);
	pb_varint(&b, 1);
	pb_varint(&b, 300);
	pb_varint(&b, UINT64_MAX);
	pb_close(&b, m);
	pb_fixed64(&b, 4, 0x0102030405060708ULL);
	pb_reader_init(&r, b.p, b.len);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 1);
	CU_ASSERT(f.id == 1 && f.wt == PB_VARINT && f.v == 150);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 1);
	CU_ASSERT(f.id == 2 && f.wt == PB_VARINT && (int64_t)f.v == -2);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 1);
	CU_ASSERT(f.id == 3 && f.wt == PB_LEN && f.len == 1 + 2 + 10);
	CU_ASSERT_EQUAL(pb_packed_count(&f), 3);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 1);
	CU_ASSERT(f.id == 4 && f.wt == PB_FIXED64 &&
		  f.v == 0x0102030405060708ULL);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 0);
	pb_free(&b);
}

/* pb_read_varint() as the protobuf documentation decodes, a byte a time. */
static int varint_bytewise(const uint8_t **p, const uint8_t *end,
			   uint64_t *v)
{
	const uint8_t *q = *p;
	unsigned int i;

	*v = 0;
	for (i = 0; i < PB_VARINT_MAX && q < end; i++) {
		*v |= (uint64_t)(*q & 0x7f) << (7 * i);
		if (!(*q++ & 0x80)) {
			*p = q;
			return 0;
		}
	}
	return -EBADMSG;
}

/*
 * Every length of varint (the reader takes up to eight bytes as one
 * word when eight are there), canonical and padded with 0x80 bytes, cut
 * short, with 0 to 11 bytes after it: the same value, end and errors as
 * a byte at a time.
 */
static void test_varint_words(void)
{
	uint8_t buf[32];
	const uint8_t *p, *q;
	uint64_t v, w, x = 0x9e3779b97f4a7c15ULL;
	unsigned int bits, len, tail, pad, more, checked = 0;
	int r, rw;

	for (bits = 0; bits <= 64; bits++) {
		for (pad = 0; pad < 3; pad++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v = bits == 64 ? x : x & ((1ULL << bits) - 1);
			/* encoded, then @pad more bytes of value 0 */
			for (len = 0, w = v, more = pad; w >= 0x80 || more;
			     len++) {
				if (w < 0x80)
					more--;
				buf[len] = (uint8_t)(w | 0x80);
				w >>= 7;
			}
			buf[len++] = (uint8_t)w;
			for (tail = 0; tail < 12; tail++) {
				memset(buf + len, tail & 1 ? 0xff : 0x01, tail);
				/* whole, then cut a byte short */
				for (r = 0; r < 2 && len - r > 0; r++) {
					p = q = buf;
					rw = varint_bytewise(&q, buf + len - r +
							     (r ? 0 : tail), &w);
					CU_ASSERT_EQUAL(pb_read_varint(&p,
						buf + len - r + (r ? 0 : tail),
						&v), rw);
					if (!rw) {
						CU_ASSERT_EQUAL(v, w);
						CU_ASSERT_PTR_EQUAL(p, q);
					}
					checked++;
				}
			}
		}
	}
	printf("\n# %u varints of 0 to 64 bits, padded, cut, with 0-11 "
	       "bytes after: as decoded a byte at a time\n", checked);
}

/* Bytes that are no field: an error, never a read past them. */
static void test_bad(void)
{
	static const struct {
		const char	*what;
		uint8_t		b[12];
		size_t		n;
	} bad[] = {
		{ "a tag cut short", { 0x80 }, 1 },
		{ "a varint cut short", { 0x08, 0x96 }, 2 },
		{ "a varint of eleven bytes", { 0x08, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 }, 12 },
		{ "a length past the message", { 0x0a, 0x05, 1, 2 }, 4 },
		{ "a fixed64 cut short", { 0x09, 1, 2, 3 }, 4 },
		{ "a fixed32 cut short", { 0x0d, 1, 2, 3 }, 4 },
		{ "field 0", { 0x00, 0x01 }, 2 },
		{ "wire type 3 (group start)", { 0x0b }, 1 },
		{ "wire type 4 (group end)", { 0x0c }, 1 },
		{ "wire type 6", { 0x0e }, 1 },
		{ "wire type 7", { 0x0f }, 1 },
	};
	struct pb_field f;
	struct pb_reader r;
	unsigned int i;

	printf("\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pb_reader_init(&r, bad[i].b, bad[i].n);
		CU_ASSERT_EQUAL(pb_next(&r, &f), -EBADMSG);
		CU_ASSERT_PTR_EQUAL(r.p, bad[i].b);
		printf("    %s: -EBADMSG\n", bad[i].what);
	}
	f.wt = PB_LEN;
	f.p = (const uint8_t *)"\x96";
	f.len = 1;
	CU_ASSERT_EQUAL(pb_packed_count(&f), -EBADMSG);
}

static CU_TestInfo pb_tests[] = {
	{ "scalars as protobuf encodes them", test_scalars },
	{ "nested messages of 1-, 2- and 3-byte lengths", test_nested },
	{ "messages inside messages", test_deep },
	{ "the reader gives back what was written", test_read },
	{ "bytes that are no field are -EBADMSG", test_bad },
	{ "varints of every length, read a word at a time", test_varint_words },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "pb: the protobuf wire format", NULL, NULL, NULL, NULL, pb_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
