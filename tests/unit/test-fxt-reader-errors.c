// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-reader-errors.c - the reader facing input it must not trust.
 *
 * Inputs are written out word by word here, so each case says exactly
 * which field is wrong.  The reader's promise, checked every time: every
 * well-formed record before the fault is delivered, then a negative
 * return whose message names the input and the offset of the faulty
 * record, and that offset is also what fxt_reader_offset() says.
 * Faults that only the specification forbids (reserved bits, unset
 * refs) are tolerated without FXT_READER_STRICT.  What the specification
 * tells readers to skip (reserved types, words past a record's or an
 * argument's fields) is a warning in both modes: counted, first one kept
 * with its offset, an error only with FXT_READER_PEDANTIC.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "unit.h"

#define F(v, lsb)	((uint64_t)(v) << (lsb))
/* [0..3] record type, [4..15] size in words */
#define HDR(type, words)	(F(type, 0) | F(words, 4))
#define MAGIC		0x0016547846040010ULL
/* provider 1 named "errs": metadata type 1, id [20..51], length [52..59] */
#define PINFO		(HDR(0, 2) | F(1, 16) | F(1, 20) | F(4, 52))
#define NAME		"bad.fxt"

/* Up to 8 bytes of stream as the word whose bytes they are (LE). */
static uint64_t sw(const char *s)
{
	uint64_t v = 0;
	size_t i, n = strlen(s);

	for (i = 0; i < n && i < 8; i++)
		v |= (uint64_t)(uint8_t)s[i] << (8 * i);
	return v;
}

/* Words to bytes in the given order; streams were packed for LE. */
static uint8_t *to_bytes(const uint64_t *w, size_t n, bool be)
{
	uint8_t *b = malloc(n * 8 + 1);
	size_t i;
	int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	for (i = 0; i < n; i++)
		for (k = 0; k < 8; k++)
			b[i * 8 + (be ? 7 - k : k)] = w[i] >> (8 * k);
	return b;
}

struct run {
	int		ret;
	unsigned int	n;		/* records delivered */
	unsigned int	type[64];
	uint64_t	off[64];
	char		err[512];
	uint64_t	err_off;	/* as the message gives it */
	uint64_t	rd_off;		/* as fxt_reader_offset() gives it */
	bool		be;
	bool		looped;
};

static uint64_t msg_offset(const char *msg)
{
	const char *p = msg ? strstr(msg, "offset 0x") : NULL;

	return p ? strtoull(p + 9, NULL, 16) : UINT64_MAX;
}

/* Read to the end or the first error, noting what came out. */
static void drain(struct fxt_reader *r, size_t len, struct run *ru)
{
	struct fxt_record rec;
	uint64_t last_end = 0;
	size_t limit = len / 8 + 2;
	const char *e;

	memset(ru, 0, sizeof(*ru));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ru->ret = fxt_reader_next(r, &rec)) == 1) {
		/* records are at least a word: more than that is a loop */
		if (ru->n >= limit) {
			ru->looped = true;
			break;
		}
		/* each record lies within the input, after the previous */
		CU_ASSERT(rec.offset >= last_end);
		CU_ASSERT(rec.size >= 8 && rec.offset + rec.size <= len);
		last_end = rec.offset + rec.size;
		if (ru->n < 64) {
			ru->type[ru->n] = rec.type;
			ru->off[ru->n] = rec.offset;
		}
		ru->n++;
	}
	CU_ASSERT_FALSE(ru->looped);
	e = fxt_reader_error(r);
	if (e)
		snprintf(ru->err, sizeof(ru->err), "%s", e);
	ru->err_off = msg_offset(e);
	ru->rd_off = fxt_reader_offset(r);
	ru->be = fxt_reader_big_endian(r);
	/* the error stays: no record comes after it */
	if (ru->ret < 0)
		CU_ASSERT(fxt_reader_next(r, &rec) <= 0);
	fxt_reader_close(r);
}

static void drain_mem(const void *buf, size_t len, unsigned int flags,
		      struct run *ru)
{
	drain(fxt_reader_open_mem(buf, len, NAME, flags), len, ru);
}

static bool error_named_at(const struct run *ru, const char *name,
			   uint64_t off)
{
	bool ok = ru->ret == -EBADMSG && strstr(ru->err, name) &&
		  ru->err_off == off && ru->rd_off == off;

	if (!ok)
		fprintf(stderr, "\n    want -EBADMSG at offset %#" PRIx64
			", got %d, reader offset %#" PRIx64 ", \"%s\"\n",
			off, ru->ret, ru->rd_off, ru->err);
	return ok;
}

/* Whether @msg names offset @off. */
static bool error_at_msg(const char *msg, uint64_t off)
{
	return msg && msg_offset(msg) == off;
}

static bool error_at(const struct run *ru, uint64_t off)
{
	return error_named_at(ru, NAME, off);
}

#define CHECK_ERROR_AT(ru, off)	CU_ASSERT(error_at(ru, off))

static bool clean_end(const struct run *ru, unsigned int n)
{
	bool ok = ru->ret == 0 && ru->n == n && !ru->err[0];

	if (!ok)
		fprintf(stderr, "\n    want a clean end after %u records, got "
			"%d after %u, \"%s\"\n", n, ru->ret, ru->n, ru->err);
	return ok;
}

#define CHECK_CLEAN_END(ru, n)	CU_ASSERT(clean_end(ru, n))

/*
 * One malformed input: a fault at @bad_off after @nbefore good records.
 * With @lenient_n >= 0 the fault is one only strict mode rejects, and a
 * lenient reader delivers @lenient_n records and ends cleanly.
 */
static void expect_fault(const uint64_t *w, size_t n, uint64_t bad_off,
			 unsigned int nbefore, int lenient_n)
{
	uint8_t *b = to_bytes(w, n, false);
	struct run ru;

	drain_mem(b, n * 8, FXT_READER_STRICT, &ru);
	CHECK_ERROR_AT(&ru, bad_off);
	CU_ASSERT_EQUAL(ru.n, nbefore);
	drain_mem(b, n * 8, 0, &ru);
	if (lenient_n < 0) {
		CHECK_ERROR_AT(&ru, bad_off);
		CU_ASSERT_EQUAL(ru.n, nbefore);
	} else {
		CHECK_CLEAN_END(&ru, (unsigned int)lenient_n);
	}
	free(b);
}

#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* A good instant after a bad record: inline thread 2.3, no names. */
#define GOOD		HDR(4, 4), 7, 2, 3

/*
 * One record whose size is sound and whose contents are not, at @bad_off
 * after @nbefore good records: strict stops there; lenient skips it (one
 * malformed warning naming it), reads on and ends cleanly with @nrec.
 */
static void expect_skipped(const uint64_t *w, size_t n, uint64_t bad_off,
			   unsigned int nbefore, unsigned int nrec)
{
	uint8_t *b = to_bytes(w, n, false);
	struct fxt_reader *r;
	struct run ru;

	drain_mem(b, n * 8, FXT_READER_STRICT, &ru);
	CHECK_ERROR_AT(&ru, bad_off);
	CU_ASSERT_EQUAL(ru.n, nbefore);
	r = fxt_reader_open_mem(b, n * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &(struct fxt_record){ 0 }) == 1)
		;
	CU_ASSERT_EQUAL(fxt_reader_warned(r, FXT_WARN_MALFORMED), 1);
	CU_ASSERT_EQUAL(msg_offset(fxt_reader_warning(r, FXT_WARN_MALFORMED)),
			bad_off);
	CU_ASSERT_EQUAL(fxt_reader_warned(r, FXT_WARN_PARTIAL), 0);
	fxt_reader_close(r);
	drain_mem(b, n * 8, 0, &ru);
	CHECK_CLEAN_END(&ru, nrec);
	free(b);
}

struct warned {
	unsigned int	n;		/* callback calls */
	uint64_t	records;	/* fxt_reader_warned_records() */
	char		first[512];
	uint64_t	first_off;
};

static void note_warning(void *priv, const char *msg)
{
	struct warned *w = priv;

	w->n++;
	printf("\n    warning: %s", msg);
}

/* Read @w with @flags to its end, noting the warnings. */
static int drain_warned(const uint64_t *w, size_t n, unsigned int flags,
			struct warned *out, unsigned int *records)
{
	uint8_t *b = to_bytes(w, n, false);
	struct fxt_reader *r = fxt_reader_open_mem(b, n * 8, NAME, flags);
	struct fxt_record rec;
	const char *first;
	int ret;

	memset(out, 0, sizeof(*out));
	*records = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_set_warn(r, note_warning, out);
	while ((ret = fxt_reader_next(r, &rec)) == 1 && *records < n)
		(*records)++;
	first = fxt_reader_first_warning(r);
	if (first)
		snprintf(out->first, sizeof(out->first), "%s", first);
	out->first_off = msg_offset(first);
	out->records = fxt_reader_warned_records(r);
	fxt_reader_close(r);
	free(b);
	return ret;
}

/*
 * One input that readers accept with @nwarn warnings in one record at
 * @off, @nrec records in all: strict and lenient read it whole and say
 * so; strict + pedantic stops there after @nbefore records.
 */
static void expect_warning(const uint64_t *w, size_t n, uint64_t off,
			   unsigned int nbefore, unsigned int nrec,
			   unsigned int nwarn)
{
	static const unsigned int modes[] = { FXT_READER_STRICT, 0 };
	uint8_t *b = to_bytes(w, n, false);
	struct warned wd;
	unsigned int i, got;
	struct run ru;
	int ret;

	for (i = 0; i < N(modes); i++) {
		ret = drain_warned(w, n, modes[i], &wd, &got);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(got, nrec);
		CU_ASSERT_EQUAL(wd.n, nwarn);
		CU_ASSERT_EQUAL(wd.records, 1);
		CU_ASSERT_EQUAL(wd.first_off, off);
		CU_ASSERT(strstr(wd.first, NAME) == wd.first);
	}
	drain_mem(b, n * 8, FXT_READER_STRICT | FXT_READER_PEDANTIC, &ru);
	CHECK_ERROR_AT(&ru, off);
	CU_ASSERT_EQUAL(ru.n, nbefore);
	/* pedantic alone is not strict: it changes nothing */
	ret = drain_warned(w, n, FXT_READER_PEDANTIC, &wd, &got);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(got, nrec);
	free(b);
}

/* ---- truncation ------------------------------------------------------- */

/* A small valid file and where each of its records starts. */
static const size_t valid_starts[] = { 0, 8, 24, 40, 56, 80, 120, 160 };

static size_t valid_file(uint64_t *w)
{
	const uint64_t v[] = {
		MAGIC,
		HDR(0, 2) | F(1, 16) | F(1, 20) | F(5, 52), sw("trunc"),
		HDR(1, 2), 1000000000,
		/* string 1 = "cat" */
		HDR(2, 2) | F(1, 16) | F(3, 32), sw("cat"),
		/* thread 1 = 10.11 */
		HDR(3, 3) | F(1, 16), 10, 11,
		/* instant, 1 arg, thread 1, category 1, name inline "ev";
		 * int32 n = -3 */
		HDR(4, 5) | F(1, 20) | F(1, 24) | F(1, 32) | F(0x8002, 48),
		500, sw("ev"),
		HDR(1, 2) | F(0x8001, 16) | F((uint32_t)-3, 32), sw("n"),
		/* log "hi", inline thread */
		HDR(9, 5) | F(2, 16), 600, 10, 12, sw("hi"),
	};

	memcpy(w, v, sizeof(v));
	return N(v);
}

static char *temp_file(const void *buf, size_t len)
{
	char *path = strdup("/tmp/test-fxt-errors-XXXXXX");
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, buf, len) == (ssize_t)len);
	close(fd);
	return path;
}

static void check_cut(const struct run *ru, const char *name, size_t len,
		      bool strict)
{
	unsigned int whole = 0, i;
	uint64_t broken = 0;

	for (i = 1; i < N(valid_starts); i++) {
		if (valid_starts[i] > len)
			break;
		whole++;
	}
	broken = valid_starts[whole];
	CU_ASSERT_EQUAL(ru->n, whole);
	/* `check` may call an empty input a fault; lenient reading not */
	if (!len && strict && ru->ret) {
		CU_ASSERT(error_named_at(ru, name, 0));
	} else if (len == broken) {
		CU_ASSERT(clean_end(ru, whole));
	} else {
		CU_ASSERT(error_named_at(ru, name, broken));
	}
}

static void test_truncated_at_every_byte(void)
{
	uint64_t w[32];
	size_t n = valid_file(w), len;
	uint8_t *b = to_bytes(w, n, false);
	struct run ru;

	CU_ASSERT_EQUAL_FATAL(n * 8, valid_starts[N(valid_starts) - 1]);
	/* the whole file is valid, strictly */
	drain_mem(b, n * 8, FXT_READER_STRICT, &ru);
	CHECK_CLEAN_END(&ru, N(valid_starts) - 1);
	for (len = 0; len <= n * 8; len++) {
		/* a copy of exactly len bytes, so ASan sees any overread */
		uint8_t *cut = malloc(len ? len : 1);

		memcpy(cut, b, len);
		drain_mem(cut, len, 0, &ru);
		check_cut(&ru, NAME, len, false);
		drain_mem(cut, len, FXT_READER_STRICT, &ru);
		check_cut(&ru, NAME, len, true);
		free(cut);
	}
	free(b);
}

static void test_truncated_file_streamed_and_mapped(void)
{
	uint64_t w[32];
	size_t n = valid_file(w), len;
	uint8_t *b = to_bytes(w, n, false);
	struct run ru;
	char *path;

	for (len = 0; len <= n * 8; len++) {
		path = temp_file(b, len);
		drain(fxt_reader_open(path, FXT_READER_STREAM), len, &ru);
		check_cut(&ru, path, len, false);
		drain(fxt_reader_open(path, 0), len, &ru);
		check_cut(&ru, path, len, false);
		unlink(path);
		free(path);
	}
	free(b);
}

/*
 * FXT_READER_CUT_BLOB: a blob the file ends within comes as far as it
 * goes (its whole payload words there), once, then the truncation; a
 * reader without the flag gets the truncation alone.
 */
static void test_cut_blob_given(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(5, 5) | F(32, 32) | F(3, 48),
		0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL,
		0x1716151413121110ULL, 0x1f1e1d1c1b1a1918ULL,
	};
	uint8_t *b = to_bytes(w, N(w), false);
	const size_t at = 24, full = 8 * N(w);
	unsigned int given = 0;
	struct fxt_record rec;
	struct fxt_reader *r;
	size_t len, have;
	int i, ret;

	for (len = at + 1; len <= full; len++) {
		uint8_t *cut = malloc(len);

		memcpy(cut, b, len);
		r = fxt_reader_open_mem(cut, len, NAME, FXT_READER_CUT_BLOB);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		for (i = 0; i < 2; i++)
			CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
		have = len - at;
		ret = fxt_reader_next(r, &rec);
		if (have >= 16) {
			CU_ASSERT_EQUAL_FATAL(ret, 1);
			CU_ASSERT_EQUAL(rec.type, FXT_REC_BLOB);
			CU_ASSERT_EQUAL(rec.blob.type, 3);
			CU_ASSERT_EQUAL(rec.blob.cut, len < full);
			CU_ASSERT_EQUAL(rec.blob.size, len < full ?
					(have / 8 - 1) * 8 : 32);
			CU_ASSERT(!memcmp(rec.blob.data, b + at + 8,
					  rec.blob.size));
			given += rec.blob.cut;
			ret = fxt_reader_next(r, &rec);
		}
		if (len < full) {
			CU_ASSERT(ret < 0);
			CU_ASSERT(error_at_msg(fxt_reader_error(r), at));
		} else {
			CU_ASSERT_EQUAL(ret, 0);
		}
		fxt_reader_close(r);
		/* without the flag: the truncation, no blob */
		r = fxt_reader_open_mem(cut, len, NAME, 0);
		for (i = 0; i < 2; i++)
			CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL(fxt_reader_next(r, &rec) < 0, len < full);
		fxt_reader_close(r);
		free(cut);
	}
	printf("\n    %u cuts of a blob record given as far as they go\n",
	       given);
	CU_ASSERT_EQUAL(given, full - at - 16);
	free(b);
}

/* ---- sizes ------------------------------------------------------------- */

static void test_zero_record_size(void)
{
	const uint64_t init0[] = { MAGIC, PINFO, sw("errs"), HDR(1, 0), 5 };
	const uint64_t large0[] = {
		MAGIC, PINFO, sw("errs"), F(15, 0) | F(1, 40), 0, 0,
	};
	const uint64_t unknown0[] = { MAGIC, PINFO, sw("errs"), HDR(12, 0) };

	expect_fault(init0, N(init0), 24, 2, -1);
	expect_fault(large0, N(large0), 24, 2, -1);
	/* even a type nobody knows cannot be skipped with size 0 */
	expect_fault(unknown0, N(unknown0), 24, 2, -1);
}

static void test_size_past_end_of_input(void)
{
	const uint64_t ev[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 9), 1, 2,
	};
	const uint64_t max[] = { MAGIC, PINFO, sw("errs"), HDR(2, 0xfff) };
	const uint64_t large[] = {
		MAGIC, PINFO, sw("errs"),
		F(15, 0) | F(0x100000, 4) | F(1, 40), 0, 0,
	};

	expect_fault(ev, N(ev), 24, 2, -1);
	expect_fault(max, N(max), 24, 2, -1);
	expect_fault(large, N(large), 24, 2, -1);
}

static void test_argument_size_zero(void)
{
	/* instant, 1 arg, inline thread, empty strings; int32 of size 0 */
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(1, 20), 1, 2, 3,
		F(1, 0) | F(0, 4) | F(7, 32),
		GOOD,
	};

	expect_skipped(w, N(w), 24, 2, 3);
}

static void test_arguments_overflow_record(void)
{
	/*
	 * a uint64 argument of 3 words with 1 word left in the record; the
	 * "record" after it is what the bad one's argument would have
	 * covered: an initialization record, read as any other
	 */
	const uint64_t one[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(1, 20), 1, 2, 3,
		HDR(4, 3),
		HDR(1, 2), 1,
		GOOD,
	};
	/* three arguments announced, room for one */
	const uint64_t count[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(3, 20), 1, 2, 3,
		HDR(1, 1),
		HDR(1, 2), 1,
		GOOD,
	};
	/* a uint64 whose size leaves out its value word */
	const uint64_t noval[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(1, 20), 1, 2, 3,
		HDR(4, 1),
		GOOD,
	};

	expect_skipped(one, N(one), 24, 2, 4);
	expect_skipped(count, N(count), 24, 2, 4);
	expect_skipped(noval, N(noval), 24, 2, 3);
}

static void test_inline_string_past_record_end(void)
{
	/* event name ref 0x8000|100 in a 4-word record */
	const uint64_t name[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 4) | F(0x8064, 48), 1, 2, 3,
		HDR(1, 2), 1,
		GOOD,
	};
	/* argument name of 9 bytes in a 2-word argument */
	const uint64_t arg[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 6) | F(1, 20), 1, 2, 3,
		HDR(1, 2) | F(0x8009, 16), sw("abcdefgh"),
		GOOD,
	};
	/* string argument value of 20 bytes in a 1-word argument */
	const uint64_t val[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(1, 20), 1, 2, 3,
		HDR(6, 1) | F(0x8014, 32),
		GOOD,
	};
	/* provider name of 20 bytes in a 2-word record */
	const uint64_t prov[] = {
		MAGIC, HDR(0, 2) | F(1, 16) | F(1, 20) | F(20, 52), sw("x"),
		GOOD,
	};
	/* string record of 9 bytes in 2 words */
	const uint64_t str[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(2, 2) | F(1, 16) | F(9, 32), sw("abcdefgh"),
		GOOD,
	};
	/* log message of 30 bytes in 3 words (inline thread) */
	const uint64_t log[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(9, 5) | F(30, 16), 1, 2, 3, sw("abc"),
		GOOD,
	};
	/* blob payload of 100 bytes in a 2-word record */
	const uint64_t blob[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(5, 2) | F(100, 32) | F(1, 48), 0,
		GOOD,
	};
	/* large blob format 1 whose payload size word claims 1000 bytes */
	const uint64_t large[] = {
		MAGIC, PINFO, sw("errs"),
		F(15, 0) | F(4, 4) | F(1, 40), 0, 1000, 0,
		GOOD,
	};

	/* the record after the event it would have been: read as one */
	expect_skipped(name, N(name), 24, 2, 4);
	expect_skipped(arg, N(arg), 24, 2, 3);
	expect_skipped(val, N(val), 24, 2, 3);
	expect_skipped(prov, N(prov), 8, 1, 2);
	expect_skipped(str, N(str), 24, 2, 3);
	expect_skipped(log, N(log), 24, 2, 3);
	expect_skipped(blob, N(blob), 24, 2, 3);
	expect_skipped(large, N(large), 24, 2, 3);
}

/*
 * Counter records whose arguments do not parse, between good events, as
 * one producer writes them: a lenient reader delivers every good record
 * and says each bad one once (the first's offset kept); strict stops at
 * the first.
 */
static void test_malformed_records_between_good_ones(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		GOOD,						/* 24 */
		/* counter, 1 arg of 3 words where 1 is left */
		HDR(4, 6) | F(1, 16) | F(1, 20), 1, 2, 3,	/* 56 */
		HDR(3, 3), 9,
		GOOD,						/* 104 */
		/* counter, 1 good arg, no id word */
		HDR(4, 5) | F(1, 16) | F(1, 20), 1, 2, 3,	/* 136 */
		HDR(1, 1) | F(5, 32),
		GOOD, GOOD,					/* 176 */
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;
	struct warned wd;
	unsigned int got, i;
	char tally[1024];

	expect_fault(w, N(w), 56, 3, 6);
	CU_ASSERT_EQUAL(drain_warned(w, N(w), 0, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, 6);
	CU_ASSERT_EQUAL(wd.n, 2);
	CU_ASSERT_EQUAL(wd.records, 2);
	CU_ASSERT_EQUAL(wd.first_off, 56);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (i = 0; fxt_reader_next(r, &rec) == 1; i++)
		if (rec.type == FXT_REC_EVENT)
			CU_ASSERT_EQUAL(rec.event.ts, 7);
	CU_ASSERT_EQUAL(i, 6);
	CU_ASSERT_EQUAL(fxt_reader_warned(r, FXT_WARN_MALFORMED), 2);
	CU_ASSERT_EQUAL(fxt_reader_warned(r, FXT_WARN_PARTIAL), 0);
	CU_ASSERT(fxt_reader_tally(r, "t: ", tally, sizeof(tally)) > 0);
	printf("\n    %s", tally);
	CU_ASSERT(strstr(tally, "t: 2 records malformed, skipped; the first: "
			 NAME ": offset 0x38: ") == tally);
	/* one line: the skips are said once */
	CU_ASSERT(strchr(tally, '\n') && !strchr(tally, '\n')[1]);
	fxt_reader_close(r);
	free(b);
}

/*
 * A record that first earns a warning (its category an unset string
 * index) and then turns out malformed (its argument runs past it): it
 * counts as skipped, once, and the warning it earned on the way is
 * forgotten.
 */
static void test_malformed_after_a_warning(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		GOOD,
		HDR(4, 6) | F(1, 16) | F(1, 20) | F(9, 32), 1, 2, 3,	/* 56 */
		HDR(3, 3), 9,
		GOOD,
	};

	expect_skipped(w, N(w), 56, 3, 4);
}

/* ---- what only strict mode rejects ------------------------------------ */

static void test_unknown_record_type_skipped(void)
{
	unsigned int t;

	/* types 10..14 are unassigned */
	for (t = 10; t <= 14; t++) {
		const uint64_t w[] = {
			MAGIC, PINFO, sw("errs"),
			HDR(t, 3) | F(0xabc, 16), 0x1234, 0x5678,
			HDR(1, 2), 42,
		};
		uint8_t *b = to_bytes(w, N(w), false);
		struct fxt_reader *r;
		struct fxt_record rec;

		expect_warning(w, N(w), 24, 2, 4, 1);
		r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, t);
		CU_ASSERT_EQUAL(rec.offset, 24);
		CU_ASSERT_EQUAL(rec.size, 24);
		CU_ASSERT_PTR_EQUAL(rec.raw, b + 24);
		/* the record after it is still delivered */
		CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
		CU_ASSERT_EQUAL(rec.init.ticks_per_second, 42);
		CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 0);
		fxt_reader_close(r);
		free(b);
	}
}

static void test_unknown_argument_type_skipped(void)
{
	/* arg 0: type 12, 3 words; arg 1: int32 "ok" = -5 */
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 9) | F(2, 20), 1, 2, 3,
		HDR(12, 3), 0xaaaa, 0xbbbb,
		HDR(1, 2) | F(0x8002, 16) | F((uint32_t)-5, 32), sw("ok"),
		HDR(1, 2), 42,
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;

	expect_warning(w, N(w), 24, 2, 4, 1);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL_FATAL(rec.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL_FATAL(rec.event.nargs, 2);
	CU_ASSERT_EQUAL(rec.event.args[0].type, 12);
	CU_ASSERT_EQUAL(rec.event.args[1].type, FXT_ARG_INT32);
	CU_ASSERT_EQUAL(rec.event.args[1].i32, -5);
	CU_ASSERT(fxt_str_eq(rec.event.args[1].name, "ok"));
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 42);
	fxt_reader_close(r);
	free(b);
}

static void test_unknown_large_format_fields_defined(void)
{
	/* large type 0 with format 15, then large type 3 with format 0 */
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		F(15, 0) | F(3, 4) | F(15, 40), 0x1111, 0x2222,
		F(15, 0) | F(2, 4) | F(3, 36), 0x3333,
		HDR(1, 2), 42,
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;
	struct run ru;
	int i;

	/* two reserved large records: a warning each, the first at 24 */
	drain_mem(b, N(w) * 8, FXT_READER_STRICT | FXT_READER_PEDANTIC, &ru);
	CHECK_ERROR_AT(&ru, 24);
	drain_mem(b, N(w) * 8, FXT_READER_STRICT, &ru);
	CHECK_CLEAN_END(&ru, 5);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	for (i = 0; i < 2; i++) {
		/*
		 * What the caller's struct held before must not show through:
		 * a record delivered as a large record has defined strings
		 * and arguments even when its format is unknown.
		 */
		memset(&rec, 0xa5, sizeof(rec));
		CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
		CU_ASSERT_EQUAL(rec.offset, i ? 48 : 24);
		CU_ASSERT_EQUAL(rec.large.category.len, 0);
		CU_ASSERT_EQUAL(rec.large.name.len, 0);
		CU_ASSERT_EQUAL(rec.large.nargs, 0);
		CU_ASSERT_EQUAL(rec.large.size, 0);
	}
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 42);
	fxt_reader_close(r);
	free(b);
}

static void test_reserved_bits_strict_only(void)
{
	/* init header [16..63] reserved */
	const uint64_t init[] = {
		MAGIC, PINFO, sw("errs"), HDR(1, 2) | F(1, 40), 42,
	};
	/* thread record [24..63] reserved */
	const uint64_t thr[] = {
		MAGIC, PINFO, sw("errs"), HDR(3, 3) | F(1, 16) | F(1, 30), 1, 2,
	};
	/* provider info [60..63] reserved */
	const uint64_t prov[] = {
		MAGIC, HDR(0, 2) | F(1, 16) | F(1, 20) | F(4, 52) | F(1, 60),
		sw("errs"),
	};
	/* provider section [52..63] reserved */
	const uint64_t sect[] = {
		MAGIC, PINFO, sw("errs"), HDR(0, 1) | F(2, 16) | F(1, 20) |
		F(0x5, 56),
	};
	/* bool argument: bit 32 the value, [33..63] zero */
	const uint64_t bool_arg[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(1, 20), 1, 2, 3,
		HDR(9, 1) | F(1, 32) | F(1, 40),
	};
	/* int64 argument header [32..63] reserved */
	const uint64_t i64_arg[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 6) | F(1, 20), 1, 2, 3,
		HDR(3, 2) | F(0x77, 32), 9,
	};
	/* a stream's padding must be zero: "ev" then 'X's */
	const uint64_t pad[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 5) | F(0x8002, 48), 1, 2, 3, sw("evXXXXXX"),
	};
	/* event header: thread ref is inline, but [60..63]... every bit of
	 * an event header has a meaning; use a log record's [40..63] */
	const uint64_t log[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(9, 5) | F(2, 16) | F(1, 50), 1, 2, 3, sw("hi"),
	};
	uint8_t *b;
	struct fxt_reader *r;
	struct fxt_record rec;

	expect_fault(init, N(init), 24, 2, 3);
	expect_fault(thr, N(thr), 24, 2, 3);
	expect_fault(prov, N(prov), 8, 1, 2);
	expect_fault(sect, N(sect), 24, 2, 3);
	expect_fault(bool_arg, N(bool_arg), 24, 2, 3);
	expect_fault(i64_arg, N(i64_arg), 24, 2, 3);
	expect_fault(pad, N(pad), 24, 2, 3);
	expect_fault(log, N(log), 24, 2, 3);

	/* tolerated means decoded as if the bits were clear */
	b = to_bytes(init, N(init), false);
	r = fxt_reader_open_mem(b, N(init) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 42);
	fxt_reader_close(r);
	free(b);
	b = to_bytes(bool_arg, N(bool_arg), false);
	r = fxt_reader_open_mem(b, N(bool_arg) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL_FATAL(rec.event.nargs, 1);
	CU_ASSERT_EQUAL(rec.event.args[0].type, FXT_ARG_BOOL);
	CU_ASSERT_TRUE(rec.event.args[0].b);
	fxt_reader_close(r);
	free(b);
}

static void test_unset_refs(void)
{
	/* name ref 7, never set */
	const uint64_t str[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 4) | F(7, 48), 1, 2, 3,
	};
	/* thread ref 9, never set */
	const uint64_t thr[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 2) | F(9, 24), 1,
	};
	uint8_t *b;
	struct fxt_reader *r;
	struct fxt_record rec;

	expect_fault(str, N(str), 24, 2, 3);
	expect_fault(thr, N(thr), 24, 2, 3);

	/* lenient: an unset string is empty, an unset thread is 0.0 */
	b = to_bytes(str, N(str), false);
	r = fxt_reader_open_mem(b, N(str) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(rec.event.name.len, 0);
	CU_ASSERT_EQUAL(rec.event.thread.pid, 2);
	fxt_reader_close(r);
	free(b);
	b = to_bytes(thr, N(thr), false);
	r = fxt_reader_open_mem(b, N(thr) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.event.thread.pid, 0);
	CU_ASSERT_EQUAL(rec.event.thread.tid, 0);
	CU_ASSERT_EQUAL(rec.event.ts, 1);
	fxt_reader_close(r);
	free(b);
}

static void test_string_table_is_per_provider(void)
{
	/* string 1 set in provider 1, used in provider 2 */
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(2, 2) | F(1, 16) | F(3, 32), sw("cat"),
		HDR(0, 2) | F(1, 16) | F(2, 20) | F(4, 52), sw("two!"),
		HDR(4, 4) | F(1, 32), 1, 2, 3,
	};

	expect_fault(w, N(w), 56, 4, 5);
}

/*
 * Records before any provider record are provider 0's, as Perfetto's
 * tokenizer registers provider 0 when it starts: strict reads them too,
 * without a word (most small producers write no provider record).
 */
static void test_event_before_any_provider(void)
{
	const uint64_t w[] = {
		MAGIC, HDR(2, 2) | F(1, 16) | F(3, 32), sw("cat"),
		HDR(3, 3) | F(1, 16), 1, 2,
		HDR(4, 3) | F(1, 24) | F(1, 32) | F(0x8002, 48), 1, sw("ev"),
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;
	struct warned wd;
	unsigned int got;

	CU_ASSERT_EQUAL(drain_warned(w, N(w), FXT_READER_STRICT |
				     FXT_READER_PEDANTIC, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(wd.n, 0);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_EVENT);
	CU_ASSERT_EQUAL(rec.provider_id, 0);
	CU_ASSERT(fxt_str_eq(rec.event.name, "ev"));
	CU_ASSERT(fxt_str_eq(rec.event.category, "cat"));
	CU_ASSERT_EQUAL(rec.event.thread.tid, 2);
	fxt_reader_close(r);
	free(b);
}

/*
 * A context switch (subtype 1) leaving a thread "running", as producers
 * write a preempted thread: a warning of check's, nothing lenient; the
 * seed's legacy record forbids the state: a fault there.
 */
static void test_switch_outgoing_running(void)
{
	/* subtype 1, cpu 2, outgoing state 1; ts, out tid, in tid */
	const uint64_t sw1[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(8, 4) | F(2, 20) | F(1, 36) | F(1, 60), 100, 5, 6,
		GOOD,
	};
	/* legacy, inline threads, outgoing state 1 */
	const uint64_t legacy[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(8, 6) | F(1, 24), 100, 1, 5, 1, 6,
		GOOD,
	};
	uint8_t *b = to_bytes(sw1, N(sw1), false);
	struct warned wd;
	unsigned int got;
	struct run ru;

	CU_ASSERT_EQUAL(drain_warned(sw1, N(sw1), FXT_READER_STRICT, &wd,
				     &got), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(wd.n, 1);
	CU_ASSERT_EQUAL(wd.first_off, 24);
	CU_ASSERT(strstr(wd.first, "outgoing thread state 1 (running)") !=
		  NULL);
	drain_mem(b, N(sw1) * 8, FXT_READER_STRICT | FXT_READER_PEDANTIC, &ru);
	CHECK_ERROR_AT(&ru, 24);
	CU_ASSERT_EQUAL(drain_warned(sw1, N(sw1), 0, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(wd.n, 0);
	expect_fault(legacy, N(legacy), 24, 2, 4);
	free(b);
}

/*
 * What the format allows and a viewer does not take whole, read with
 * @flags to the end: the records read, the FXT_WARN_VIEWER records and
 * the first one's message (in @msg); the return of the last read.
 */
static int drain_viewer(const uint64_t *w, size_t n, unsigned int flags,
			unsigned int *records, uint64_t *viewer,
			char *msg, size_t size)
{
	uint8_t *b = to_bytes(w, n, false);
	struct fxt_reader *r = fxt_reader_open_mem(b, n * 8, NAME, flags);
	struct fxt_record rec;
	const char *first;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	*records = 0;
	while ((ret = fxt_reader_next(r, &rec)) == 1 && *records < n)
		(*records)++;
	*viewer = fxt_reader_warned(r, FXT_WARN_VIEWER);
	first = fxt_reader_warning(r, FXT_WARN_VIEWER);
	snprintf(msg, size, "%s", first ? first : "");
	if (first)
		printf("\n    warning: %s", first);
	fxt_reader_close(r);
	free(b);
	return ret;
}

/*
 * A scheduling record on CPU 4096 or more stops Perfetto v58.2's
 * importer, but the format's 16-bit field allows it: check passes it with
 * a warning naming the viewer and its limit (a fault only with
 * --pedantic); lenient readers say nothing.  4095 is fine.
 */
static void test_switch_cpu_past_perfetto(void)
{
	const uint64_t far[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(8, 4) | F(4096, 20) | F(3, 36) | F(1, 60), 100, 5, 6,
		GOOD,
	};
	const uint64_t wake[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(8, 3) | F(65535, 20) | F(2, 60), 100, 5,
		GOOD,
	};
	const uint64_t edge[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(8, 3) | F(4095, 20) | F(2, 60), 100, 5,
		GOOD,
	};
	uint8_t *b = to_bytes(wake, N(wake), false);
	unsigned int got;
	uint64_t viewer;
	char msg[512];
	struct run ru;

	CU_ASSERT_EQUAL(drain_viewer(far, N(far), FXT_READER_STRICT, &got,
				     &viewer, msg, sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(viewer, 1);
	CU_ASSERT(strstr(msg, "offset 0x18: context switch record: CPU 4096: Perfetto's importer stops on CPUs of 4096 or more") != NULL);
	CU_ASSERT_EQUAL(drain_viewer(wake, N(wake), FXT_READER_STRICT, &got,
				     &viewer, msg, sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(viewer, 1);
	CU_ASSERT(strstr(msg, "offset 0x18: thread wakeup record: CPU 65535: Perfetto's importer stops on CPUs of 4096 or more") != NULL);
	/* lenient readers are not told */
	CU_ASSERT_EQUAL(drain_viewer(wake, N(wake), 0, &got, &viewer, msg,
				     sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(viewer, 0);
	/* a warning: a fault with --pedantic */
	drain_mem(b, N(wake) * 8, FXT_READER_STRICT | FXT_READER_PEDANTIC,
		  &ru);
	CHECK_ERROR_AT(&ru, 24);
	CU_ASSERT(strstr(ru.err, "CPU 65535") != NULL);
	CU_ASSERT_EQUAL(drain_viewer(edge, N(edge), FXT_READER_STRICT |
				     FXT_READER_PEDANTIC, &got, &viewer, msg,
				     sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(viewer, 0);
	free(b);
}

/*
 * Koids past 32 bits, which Perfetto cuts to their low 32 bits: in a
 * thread record, an inline thread, a thread object and its process
 * argument, a context switch.  A warning of check's each, not a fault;
 * 0xffffffff is fine.
 */
static void test_koid_past_32_bits(void)
{
	const uint64_t wide = 5000000000ULL;	/* low 32 bits: 705032704 */
	const uint64_t words[] = {
		MAGIC, PINFO, sw("errs"),
		/* 0x18: thread 1 = 7.wide */
		HDR(3, 3) | F(1, 16), 7, wide,
		/* 0x30: an instant on inline thread wide.3 */
		HDR(4, 4), 7, wide, 3,
		/* 0x50: thread object wide, inline name "t", process wide */
		HDR(7, 6) | F(2, 16) | F(0x8001, 24) | F(1, 40), wide,
		sw("t"), HDR(8, 3) | F(0x8007, 16), sw("process"), wide,
		/* 0x80: a switch from wide to 0xffffffff */
		HDR(8, 4) | F(3, 36) | F(1, 60), 100, wide, 0xffffffffULL,
		/* 0xa0: all within 32 bits */
		HDR(3, 3) | F(2, 16), 0xffffffffULL, 0xffffffffULL,
		GOOD,
	};
	unsigned int got;
	uint64_t viewer;
	char msg[512];

	CU_ASSERT_EQUAL(drain_viewer(words, N(words), FXT_READER_STRICT,
				     &got, &viewer, msg, sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 8);
	CU_ASSERT_EQUAL(viewer, 4);
	CU_ASSERT(strstr(msg, "offset 0x18: thread record: tid 5000000000 is past 32 bits: Perfetto's importer keeps its low 32 bits (705032704)") != NULL);
	CU_ASSERT_EQUAL(drain_viewer(words, N(words), 0, &got, &viewer, msg,
				     sizeof(msg)), 0);
	CU_ASSERT_EQUAL(got, 8);
	CU_ASSERT_EQUAL(viewer, 0);
}

/* ---- garbage ----------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void garbage_round(uint64_t *seed, bool be_magic)
{
	size_t len = rnd(seed) % 3000, i;
	uint8_t *b = malloc(len + 8);
	struct run ru;
	unsigned int mode;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	for (i = 0; i < len; i++)
		b[i] = rnd(seed);
	/* words that look like headers of small records, now and then */
	for (i = 8; i + 8 <= len; i += 8)
		if (rnd(seed) % 3 == 0)
			b[i + 1] = 0, b[i] = (b[i] & 0x0f) | 0x10;
	if (len >= 8 && rnd(seed) % 2) {
		uint64_t m = MAGIC;
		int k;

		for (k = 0; k < 8; k++)
			b[be_magic ? 7 - k : k] = m >> (8 * k);
	}
	for (mode = 0; mode < 2; mode++) {
		drain_mem(b, len, mode ? FXT_READER_STRICT : 0, &ru);
		CU_ASSERT(ru.ret <= 0);
		if (ru.ret < 0) {
			CU_ASSERT(strstr(ru.err, NAME) != NULL);
			CU_ASSERT(ru.err_off <= len);
			CU_ASSERT_EQUAL(ru.err_off, ru.rd_off);
		}
		if (be_magic && len >= 8 && ru.n)
			CU_ASSERT_EQUAL(ru.be, b[0] == 0 && b[7] == 0x10);
	}
	free(b);
}

static void test_random_garbage(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	for (i = 0; i < 2000; i++)
		garbage_round(&seed, false);
}

static void test_big_endian_garbage(void)
{
	uint64_t seed = 0x0123456789abcdefULL;
	unsigned int i;

	for (i = 0; i < 2000; i++)
		garbage_round(&seed, true);
}

static void test_big_endian_file_and_truncation(void)
{
	/* no streams, so that the words read the same either way */
	const uint64_t w[] = {
		MAGIC, HDR(0, 1) | F(1, 16) | F(1, 20),
		HDR(1, 2), 0x0102030405060708ULL,
		HDR(3, 3) | F(5, 16), 0x1111, 0x2222,
		HDR(4, 2) | F(5, 24), 99,
	};
	uint8_t *b = to_bytes(w, N(w), true);
	struct fxt_reader *r;
	struct fxt_record rec;
	struct run ru;

	CU_ASSERT_EQUAL(b[0], 0x00);
	CU_ASSERT_EQUAL(b[1], 0x16);
	CU_ASSERT_EQUAL(b[7], 0x10);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_TRUE(fxt_reader_big_endian(r));
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_INFO);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 1);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 0x0102030405060708ULL);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.thread.index, 5);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.event.ts, 99);
	CU_ASSERT_EQUAL(rec.event.thread.pid, 0x1111);
	CU_ASSERT_EQUAL(rec.event.thread.tid, 0x2222);
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 0);
	fxt_reader_close(r);

	/* cut in the middle of the init record's ticks word */
	drain_mem(b, 28, 0, &ru);
	CHECK_ERROR_AT(&ru, 16);
	CU_ASSERT_EQUAL(ru.n, 2);
	CU_ASSERT_TRUE(ru.be);
	free(b);
}

/* ---- allocation bounds ------------------------------------------------- */

static bool under_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return true;
#endif
#endif
	return false;
}

/*
 * Run @fn in a child whose address space is capped: a reader that
 * believes a size field and allocates for it fails there (and reports
 * -ENOMEM instead of the -EBADMSG expected).
 */
static void in_capped_child(void (*fn)(const uint8_t *, size_t),
			    const uint8_t *b, size_t len)
{
	struct rlimit rl = { 512 << 20, 512 << 20 };
	int status = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		/* ASan reserves terabytes of shadow: it cannot run capped */
		if (!under_asan())
			setrlimit(RLIMIT_AS, &rl);
		fn(b, len);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	CU_ASSERT(WIFEXITED(status));
	if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "\n    capped child: %u check(s) failed\n",
			WEXITSTATUS(status));
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * What read_every_way() expects of a lenient reader: a fault at 24 (a
 * size past the end), or a clean end with the record at 24 skipped (a
 * sound size, a field inside claiming more).
 */
static bool lenient_skips;

static void child_check(struct fxt_reader *r, bool strict, unsigned int *bad)
{
	struct fxt_record rec;
	const char *e;
	int ret;

	if (!r) {
		(*bad)++;
		return;
	}
	while ((ret = fxt_reader_next(r, &rec)) == 1)
		;
	e = fxt_reader_error(r);
	if (lenient_skips && !strict) {
		e = fxt_reader_warning(r, FXT_WARN_MALFORMED);
		if (ret || msg_offset(e) != 24) {
			fprintf(stderr, "\n    capped child: %d \"%s\"\n",
				ret, e ? e : "");
			(*bad)++;
		}
	} else if (ret != -EBADMSG || msg_offset(e) != 24) {
		fprintf(stderr, "\n    capped child: %d \"%s\"\n", ret,
			e ? e : "");
		(*bad)++;
	}
	fxt_reader_close(r);
}

static void read_every_way(const uint8_t *b, size_t len)
{
	unsigned int bad = 0;
	char *path = temp_file(b, len);
	int fds[2];

	child_check(fxt_reader_open_mem(b, len, NAME, 0), false, &bad);
	child_check(fxt_reader_open(path, 0), false, &bad);
	child_check(fxt_reader_open(path, FXT_READER_STREAM), false, &bad);
	child_check(fxt_reader_open(path, FXT_READER_STREAM |
				    FXT_READER_STRICT), true, &bad);
	if (pipe(fds) == 0) {
		/* small enough for the pipe buffer: no writer process */
		if (write(fds[1], b, len) != (ssize_t)len)
			bad++;
		close(fds[1]);
		child_check(fxt_reader_open_fd(fds[0], "pipe", 0), false,
			    &bad);
		close(fds[0]);
	}
	unlink(path);
	free(path);
	_exit(bad);
}

static void test_huge_size_claims_allocate_nothing_big(void)
{
	/* a large record claiming 2^32 - 1 words (32 GiB) */
	const uint64_t large[] = {
		MAGIC, PINFO, sw("errs"),
		F(15, 0) | F(0xffffffffULL, 4) | F(1, 40), 0, 8, 0, 0,
	};
	/* format 0 with a plausible size but a payload size word of 2^63 */
	const uint64_t size_word[] = {
		MAGIC, PINFO, sw("errs"),
		F(15, 0) | F(6, 4), 0, 0, 0, 0, 1ULL << 63,
	};
	uint8_t *b = to_bytes(large, N(large), false);

	in_capped_child(read_every_way, b, N(large) * 8);
	free(b);
	b = to_bytes(size_word, N(size_word), false);
	lenient_skips = true;
	in_capped_child(read_every_way, b, N(size_word) * 8);
	lenient_skips = false;
	free(b);
}

/* ---- warnings ---------------------------------------------------------- */

static void test_extra_words_in_record(void)
{
	/* an initialization record of 4 words, as Jane Street's writer */
	const uint64_t init[] = {
		MAGIC, PINFO, sw("errs"), HDR(1, 4), 1000, 0, 0, HDR(1, 2), 42,
	};
	/* an instant with an inline thread and one word too many */
	const uint64_t ev[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 5), 1, 2, 3, 0xdead,
	};
	uint8_t *b = to_bytes(init, N(init), false);
	struct fxt_reader *r;
	struct fxt_record rec;

	expect_warning(init, N(init), 24, 2, 4, 1);
	expect_warning(ev, N(ev), 24, 2, 3, 1);
	/* the fields it has are read, the rest skipped */
	r = fxt_reader_open_mem(b, N(init) * 8, NAME, FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 1000);
	CU_ASSERT_EQUAL(rec.size, 32);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.offset, 56);
	fxt_reader_close(r);
	free(b);
}

static void test_extra_words_in_argument(void)
{
	/* int32 "n" = 7 in an argument of 3 words; it needs 2 */
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 7) | F(1, 20), 1, 2, 3,
		HDR(1, 3) | F(0x8001, 16) | F(7, 32), sw("n"), 0xbeef,
	};
	/* a reserved argument type and a word past the record's fields:
	 * two warnings, one record */
	const uint64_t two[] = {
		MAGIC, PINFO, sw("errs"),
		HDR(4, 8) | F(1, 20), 1, 2, 3, HDR(12, 2), 0xaa, 0xbb, 0xcc,
	};

	expect_warning(w, N(w), 24, 2, 3, 1);
	expect_warning(two, N(two), 24, 2, 3, 2);
}

static void test_reserved_types_warn(void)
{
	/* metadata type 5 */
	const uint64_t meta[] = {
		MAGIC, PINFO, sw("errs"), HDR(0, 1) | F(5, 16),
	};
	/* trace info (metadata 4) of info type 1 */
	const uint64_t info[] = {
		MAGIC, PINFO, sw("errs"), HDR(0, 1) | F(4, 16) | F(1, 20),
	};
	/* event type 12, inline thread */
	const uint64_t ev[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 4) | F(12, 16), 1, 2, 3,
	};
	/* scheduling record of subtype 5 */
	const uint64_t sched[] = {
		MAGIC, PINFO, sw("errs"), HDR(8, 2) | F(5, 60), 7,
	};

	expect_warning(meta, N(meta), 24, 2, 3, 1);
	expect_warning(info, N(info), 24, 2, 3, 1);
	expect_warning(ev, N(ev), 24, 2, 3, 1);
	expect_warning(sched, N(sched), 24, 2, 3, 1);
}

static void test_init_before_provider(void)
{
	/*
	 * 1e6 ticks/s before the provider: as Perfetto, the rate belongs
	 * to the anonymous provider and provider 1 counts nanoseconds.
	 */
	const uint64_t w[] = {
		MAGIC, HDR(1, 2), 1000000, PINFO, sw("errs"),
		HDR(4, 4), 100, 2, 3,
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;

	/* said at the provider record, once it shows the rate misapplied */
	expect_warning(w, N(w), 24, 2, 4, 1);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000000);
	fxt_reader_next(r, &rec);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.provider_id, 1);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000000000);
	fxt_reader_close(r);
	free(b);
}

/*
 * An initialization record in a file with no provider record applies to
 * every record, as the writer meant: nothing to say.
 */
static void test_init_without_provider(void)
{
	const uint64_t w[] = {
		MAGIC, HDR(1, 2), 1000000, GOOD, GOOD,
	};
	uint8_t *b = to_bytes(w, N(w), false);
	struct fxt_reader *r;
	struct fxt_record rec;
	struct warned wd;
	unsigned int got;

	CU_ASSERT_EQUAL(drain_warned(w, N(w), FXT_READER_STRICT |
				     FXT_READER_PEDANTIC, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(wd.n, 0);
	r = fxt_reader_open_mem(b, N(w) * 8, NAME, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &rec) == 1)
		if (rec.type == FXT_REC_EVENT)
			CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r),
					1000000);
	CU_ASSERT_EQUAL(fxt_reader_warned_records(r), 0);
	fxt_reader_close(r);
	free(b);
}

static void test_lenient_unset_ref_warns(void)
{
	const uint64_t w[] = {
		MAGIC, PINFO, sw("errs"), HDR(4, 4) | F(7, 48), 1, 2, 3,
		HDR(4, 2) | F(9, 24), 1,
	};
	struct warned wd;
	unsigned int got;

	CU_ASSERT_EQUAL(drain_warned(w, N(w), 0, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, 4);
	CU_ASSERT_EQUAL(wd.records, 2);
	CU_ASSERT_EQUAL(wd.first_off, 24);
	CU_ASSERT(strstr(wd.first, "string index 7") != NULL);
}

static void test_valid_file_no_warning(void)
{
	uint64_t w[64];
	size_t n = valid_file(w);
	struct warned wd;
	unsigned int got;

	CU_ASSERT_EQUAL(drain_warned(w, n, FXT_READER_STRICT |
				     FXT_READER_PEDANTIC, &wd, &got), 0);
	CU_ASSERT_EQUAL(got, N(valid_starts) - 1);
	CU_ASSERT_EQUAL(wd.records, 0);
	CU_ASSERT_EQUAL(wd.n, 0);
	CU_ASSERT_PTR_NULL(wd.first[0] ? wd.first : NULL);
}

static CU_TestInfo warning_tests[] = {
	{ "words past a record's fields: read, skipped, a warning",
	  test_extra_words_in_record },
	{ "words past an argument's value: a warning; two in one record",
	  test_extra_words_in_argument },
	{ "reserved metadata, trace info, event, scheduling types warn",
	  test_reserved_types_warn },
	{ "ticks per second before the provider: Perfetto's rule, a warning",
	  test_init_before_provider },
	{ "ticks per second and no provider at all: no warning",
	  test_init_without_provider },
	{ "lenient: unset refs are counted warnings",
	  test_lenient_unset_ref_warns },
	{ "a valid file has no warning, pedantic or not",
	  test_valid_file_no_warning },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo cut_tests[] = {
	{ "cut at every byte: whole records, then error at the cut record",
	  test_truncated_at_every_byte },
	{ "cut at every byte, read from a file streamed and mapped",
	  test_truncated_file_streamed_and_mapped },
	{ "FXT_READER_CUT_BLOB: a cut blob record as far as it goes, then the cut",
	  test_cut_blob_given },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo size_tests[] = {
	{ "record size 0 is an error at its offset", test_zero_record_size },
	{ "record size running past the end of input",
	  test_size_past_end_of_input },
	{ "argument of size 0", test_argument_size_zero },
	{ "arguments running past their record",
	  test_arguments_overflow_record },
	{ "inline strings and payloads longer than their record",
	  test_inline_string_past_record_end },
	{ "malformed records between good ones: skipped, each said once",
	  test_malformed_records_between_good_ones },
	{ "a record warned of, then malformed: skipped once, no warning left",
	  test_malformed_after_a_warning },
	{ "huge size claims allocate nothing big (capped address space)",
	  test_huge_size_claims_allocate_nothing_big },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo strict_tests[] = {
	{ "reserved record types 10..14: skipped with a warning",
	  test_unknown_record_type_skipped },
	{ "reserved argument type: skipped by size with a warning",
	  test_unknown_argument_type_skipped },
	{ "large record of unknown type/format: delivered with no stale fields",
	  test_unknown_large_format_fields_defined },
	{ "reserved bits and padding: tolerated lenient, error strict",
	  test_reserved_bits_strict_only },
	{ "unset string and thread refs: empty and 0.0 lenient, error strict",
	  test_unset_refs },
	{ "string set in one provider is unset in another",
	  test_string_table_is_per_provider },
	{ "records before any provider: provider 0's, strict too",
	  test_event_before_any_provider },
	{ "context switch leaving a thread running: subtype 1 warns, legacy faults",
	  test_switch_outgoing_running },
	{ "scheduling record past CPU 4095: a warning of check's, Perfetto named",
	  test_switch_cpu_past_perfetto },
	{ "koids past 32 bits: a warning of check's, Perfetto named",
	  test_koid_past_32_bits },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo garbage_tests[] = {
	{ "random garbage ends cleanly or with an offset, both modes",
	  test_random_garbage },
	{ "garbage after a big-endian magic record",
	  test_big_endian_garbage },
	{ "big-endian file decoded, and cut with the right offset",
	  test_big_endian_file_and_truncation },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "fxt reader: truncation", .pTests = cut_tests },
	{ .pName = "fxt reader: sizes", .pTests = size_tests },
	{ .pName = "fxt reader: strict-only faults", .pTests = strict_tests },
	{ .pName = "fxt reader: garbage", .pTests = garbage_tests },
	{ .pName = "fxt reader: warnings", .pTests = warning_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
