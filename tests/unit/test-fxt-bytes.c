// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-bytes.c - the writer's output checked byte for byte.
 *
 * Expected words are put together here with shifts at the bit positions
 * the FXT specification (shared/seeds/003) gives for each field, so this
 * file is an encoder of its own that shares nothing with the writer: a
 * field the writer misplaces cannot be misplaced the same way here.
 *
 * Where the format leaves the writer a choice (which table index a string
 * gets, whether a thread goes inline), the choice is read from the record
 * header and checked against the string and thread records emitted before
 * it; the rest of the record is then compared byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-writer.h"
#include "unit.h"

/* A field value placed at its least significant bit. */
#define F(v, lsb)	((uint64_t)(v) << (lsb))

/* The magic record as the spec spells it out, not as the header has it. */
#define MAGIC_WORD	0x0016547846040010ULL

struct cap {
	unsigned int		flags;
	FILE			*fp;
	char			*buf;
	size_t			len;
	struct fxt_writer	*w;
	size_t			pos;	/* read cursor into buf */
	/* expected bytes, exp[0] standing for buf[pos] */
	uint8_t			*exp;
	size_t			elen;
	size_t			ecap;
	/* the tables as the writer's string and thread records set them */
	struct {
		const uint8_t	*ptr;
		uint32_t	len;
		bool		set;
	} str[FXT_MAX_STRING_INDEX + 1];
	struct {
		uint64_t	pid;
		uint64_t	tid;
		bool		set;
	} thr[FXT_MAX_THREAD_INDEX + 1];
	unsigned int		nstr_records;
	unsigned int		nresets;	/* index-0 string records */
	unsigned int		nthr_records;
	/* a record whose size expect_end() checks against the output end */
	size_t			last_rec;
};

static struct cap *cap_new(unsigned int flags)
{
	struct cap *c = calloc(1, sizeof(*c));

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	c->flags = flags;
	c->fp = open_memstream(&c->buf, &c->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->fp);
	c->w = fxt_writer_create_fp(c->fp, flags);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->w);
	return c;
}

#define PROV_ID		1
#define PROV_NAME	"bytes"

/* A writer with one provider started, which events need. */
static struct cap *cap_start(unsigned int flags)
{
	struct cap *c = cap_new(flags);

	CU_ASSERT_EQUAL_FATAL(fxt_write_provider_info(c->w, PROV_ID, PROV_NAME,
						      strlen(PROV_NAME)), 0);
	return c;
}

static void cap_finish(struct cap *c)
{
	uint64_t off = fxt_writer_offset(c->w);

	CU_ASSERT_EQUAL(fxt_writer_close(c->w), 0);
	c->w = NULL;
	CU_ASSERT_EQUAL_FATAL(fclose(c->fp), 0);
	c->fp = NULL;
	/* fxt_writer_offset() counts every byte that ends up in the output */
	CU_ASSERT_EQUAL(c->len, off);
	CU_ASSERT_EQUAL(c->len % 8, 0);
}

static void cap_free(struct cap *c)
{
	if (c->w)
		fxt_writer_close(c->w);
	if (c->fp)
		fclose(c->fp);
	free(c->buf);
	free(c->exp);
	free(c);
}

static uint64_t load(const uint8_t *p, bool be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		if (be)
			v = v << 8 | p[i];
		else
			v |= (uint64_t)p[i] << (8 * i);
	}
	return v;
}

/* The output word at byte @off, 0 past the end so a short output fails. */
static uint64_t word_at(const struct cap *c, size_t off)
{
	if (off + 8 > c->len)
		return 0;
	return load((const uint8_t *)c->buf + off,
		    c->flags & FXT_WRITER_BIG_ENDIAN);
}

static void exp_bytes(struct cap *c, const void *p, size_t n)
{
	if (c->elen + n > c->ecap) {
		c->ecap = (c->elen + n) * 2 + 64;
		c->exp = realloc(c->exp, c->ecap);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c->exp);
	}
	memcpy(c->exp + c->elen, p, n);
	c->elen += n;
}

static void store(uint8_t *p, uint64_t v, bool be)
{
	int i;

	for (i = 0; i < 8; i++)
		p[be ? 7 - i : i] = v >> (8 * i);
}

static void exp_word(struct cap *c, uint64_t v)
{
	uint8_t b[8];

	store(b, v, c->flags & FXT_WRITER_BIG_ENDIAN);
	exp_bytes(c, b, 8);
}

/* Streams are bytes in order whatever the word order, zero padded. */
static void exp_stream(struct cap *c, const void *p, size_t n)
{
	static const uint8_t zero[8];

	exp_bytes(c, p, n);
	if (n % 8)
		exp_bytes(c, zero, 8 - n % 8);
}

/* Reserve a header word; exp_close() fills it once the size is known. */
static size_t exp_mark(struct cap *c)
{
	size_t at = c->elen;

	exp_word(c, 0);
	return at;
}

static void exp_close(struct cap *c, size_t at, uint64_t hdr)
{
	store(c->exp + at, hdr | F((c->elen - at) / 8, 4),
	      c->flags & FXT_WRITER_BIG_ENDIAN);
}

/* Compare what was built in exp with the output at the cursor. */
static bool cmp_exp(struct cap *c, const char *what)
{
	bool be = c->flags & FXT_WRITER_BIG_ENDIAN;
	bool ok = c->pos + c->elen <= c->len &&
		  !memcmp(c->buf + c->pos, c->exp, c->elen);
	size_t i;

	if (!ok) {
		fprintf(stderr, "\n    %s at byte %zu (output %zu bytes):\n",
			what, c->pos, c->len);
		for (i = 0; i < c->elen && i < 64 * 8; i += 8) {
			uint64_t e = load(c->exp + i, be);
			uint64_t a = word_at(c, c->pos + i);

			fprintf(stderr,
				"      word %2zu: want %016" PRIx64
				" got %016" PRIx64 "%s\n", i / 8, e, a,
				e != a ? "  <--" : "");
		}
	}
	c->pos += c->elen;
	c->elen = 0;
	return ok;
}

#define CHECK_EXP(c, what)	CU_ASSERT(cmp_exp(c, what))

static void take_magic(struct cap *c)
{
	CU_ASSERT_EQUAL_FATAL(word_at(c, 0), MAGIC_WORD);
	c->pos = 8;
}

static void exp_provider_info(struct cap *c, uint32_t id, const char *name)
{
	size_t len = strlen(name);
	size_t at = exp_mark(c);

	exp_stream(c, name, len);
	/* [16..19] metadata type 1, [20..51] id, [52..59] name length */
	exp_close(c, at, F(FXT_REC_METADATA, 0) | F(1, 16) | F(id, 20) |
			 F(len, 52));
}

/* The magic record and the provider cap_start() wrote. */
static void take_start(struct cap *c)
{
	take_magic(c);
	exp_provider_info(c, PROV_ID, PROV_NAME);
	CHECK_EXP(c, "provider info of cap_start()");
}

/*
 * Consume the string and thread records at the cursor, checking every
 * field of each, and note what they put in the tables.
 */
static void take_tables(struct cap *c)
{
	while (c->pos + 8 <= c->len) {
		uint64_t h = word_at(c, c->pos);
		unsigned int type = h & 0xf;
		unsigned int size = h >> 4 & 0xfff;

		if (type == FXT_REC_STRING) {
			unsigned int idx = h >> 16 & 0x7fff;
			unsigned int len = h >> 32 & 0x7fff;
			const uint8_t *p = (const uint8_t *)c->buf + c->pos + 8;
			size_t i;

			CU_ASSERT_EQUAL(h >> 31 & 1, 0);
			CU_ASSERT_EQUAL(h >> 47 & 1, 0);
			CU_ASSERT_EQUAL(h >> 48, 0);
			/* index 0: the writer's reset for Tracy, one word */
			if (!idx) {
				CU_ASSERT_EQUAL(h, F(FXT_REC_STRING, 0) |
						   F(1, 4));
				c->pos += 8;
				c->nresets++;
				continue;
			}
			CU_ASSERT_EQUAL_FATAL(size, 1 + (len + 7) / 8);
			CU_ASSERT_FATAL(c->pos + size * 8 <= c->len);
			for (i = len; i < (size - 1) * 8; i++)
				CU_ASSERT_EQUAL(p[i], 0);
			c->str[idx].ptr = p;
			c->str[idx].len = len;
			c->str[idx].set = true;
			c->nstr_records++;
		} else if (type == FXT_REC_THREAD) {
			unsigned int idx = h >> 16 & 0xff;

			CU_ASSERT_EQUAL_FATAL(size, 3);
			CU_ASSERT_EQUAL(h >> 24, 0);
			CU_ASSERT_NOT_EQUAL(idx, 0);
			c->thr[idx].pid = word_at(c, c->pos + 8);
			c->thr[idx].tid = word_at(c, c->pos + 16);
			c->thr[idx].set = true;
			c->nthr_records++;
		} else {
			return;
		}
		c->pos += size * 8;
	}
}

/* Header of the next record after any string and thread records. */
static uint64_t peek(struct cap *c)
{
	take_tables(c);
	return word_at(c, c->pos);
}

static void expect_end(struct cap *c)
{
	CU_ASSERT_EQUAL(c->pos, c->len);
	if (c->last_rec)
		CU_ASSERT_EQUAL(word_at(c, c->last_rec) >> 4 & 0xfff,
				(c->len - c->last_rec) / 8);
}

/* The table index the writer's string records gave @s, 0 if none. */
static unsigned int sidx(const struct cap *c, const char *s)
{
	size_t len = strlen(s);
	unsigned int i;

	for (i = 1; i <= FXT_MAX_STRING_INDEX; i++)
		if (c->str[i].set && c->str[i].len == len &&
		    !memcmp(c->str[i].ptr, s, len))
			return i;
	return 0;
}

static unsigned int tidx(const struct cap *c, uint64_t pid, uint64_t tid)
{
	unsigned int i;

	for (i = 1; i <= FXT_MAX_THREAD_INDEX; i++)
		if (c->thr[i].set && c->thr[i].pid == pid &&
		    c->thr[i].tid == tid)
			return i;
	return 0;
}

static struct fxt_str istr(struct cap *c, const char *s)
{
	int64_t id = fxt_writer_intern(c->w, s, strlen(s));
	struct fxt_str str = { .ptr = s, .len = strlen(s) };

	CU_ASSERT_FATAL(id > 0);
	str.id = id;
	return str;
}

static struct fxt_str inl(const char *s)
{
	struct fxt_str str = { .ptr = s, .len = strlen(s),
			       .id = FXT_STR_INLINE };

	return str;
}

static struct fxt_str dyn(const char *s)
{
	return fxt_str_make(s, strlen(s));
}

/*
 * The string ref the writer may legitimately have used for @s given the
 * one it did use (@ref): that one when it encodes @s, else a ref that
 * differs from it so the comparison fails and shows the word.
 */
static unsigned int pick_sref(const struct cap *c, unsigned int ref,
			      struct fxt_str s)
{
	bool may_inline = s.id == 0 || s.id == FXT_STR_INLINE;
	bool may_index = s.id != FXT_STR_INLINE &&
		(s.id || !(c->flags & FXT_WRITER_INLINE_STRINGS));

	if (!s.len)
		return 0;
	if (may_inline && ref == (0x8000 | s.len))
		return ref;
	if (may_index && ref && !(ref & 0x8000) && c->str[ref].set &&
	    c->str[ref].len == s.len && !memcmp(c->str[ref].ptr, s.ptr, s.len))
		return ref;
	return may_inline ? 0x8000 | s.len : (ref ^ 1) & 0xffff;
}

static unsigned int pick_tref(const struct cap *c, unsigned int ref,
			      uint64_t pid, uint64_t tid)
{
	if (c->flags & FXT_WRITER_INLINE_THREADS)
		return 0;
	if (ref && c->thr[ref].set && c->thr[ref].pid == pid &&
	    c->thr[ref].tid == tid)
		return ref;
	return 0;
}

static void exp_sstream(struct cap *c, unsigned int ref, struct fxt_str s)
{
	if (ref & 0x8000)
		exp_stream(c, s.ptr, s.len);
}

static void exp_args(struct cap *c, const struct fxt_arg *args,
		     unsigned int nargs)
{
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];
		size_t at = exp_mark(c);
		uint64_t ah = word_at(c, c->pos + at);
		unsigned int nref = pick_sref(c, ah >> 16 & 0xffff, a->name);
		uint64_t high = 0, value = 0;
		bool has_word = true;

		exp_sstream(c, nref, a->name);
		switch (a->type) {
		case FXT_ARG_INT64:
			value = (uint64_t)a->i64;
			break;
		case FXT_ARG_UINT64:
			value = a->u64;
			break;
		case FXT_ARG_DOUBLE:
			memcpy(&value, &a->d, 8);
			break;
		case FXT_ARG_POINTER:
			value = a->ptr;
			break;
		case FXT_ARG_KOID:
			value = a->koid;
			break;
		default:
			has_word = false;
			break;
		}
		switch (a->type) {
		case FXT_ARG_INT32:		/* [32..63] the value */
			high = (uint32_t)a->i32;
			break;
		case FXT_ARG_UINT32:
			high = a->u32;
			break;
		case FXT_ARG_BOOL:		/* [32] the value */
			high = a->b ? 1 : 0;
			break;
		case FXT_ARG_STRING:		/* [32..47] value ref */
			high = pick_sref(c, ah >> 32 & 0xffff, a->str);
			exp_sstream(c, high, a->str);
			break;
		}
		if (has_word)
			exp_word(c, value);
		exp_close(c, at, F(a->type, 0) | F(nref, 16) | F(high, 32));
	}
}

/* The event record the spec prescribes for @ev, against the output. */
static bool check_event(struct cap *c, const struct fxt_event *ev)
{
	uint64_t h = peek(c);
	unsigned int tref, cref, nref;
	size_t at = exp_mark(c);

	tref = pick_tref(c, h >> 24 & 0xff, ev->thread.pid, ev->thread.tid);
	cref = pick_sref(c, h >> 32 & 0xffff, ev->category);
	nref = pick_sref(c, h >> 48 & 0xffff, ev->name);
	exp_word(c, ev->ts);
	if (!tref) {
		exp_word(c, ev->thread.pid);
		exp_word(c, ev->thread.tid);
	}
	exp_sstream(c, cref, ev->category);
	exp_sstream(c, nref, ev->name);
	exp_args(c, ev->args, ev->nargs);
	switch (ev->type) {
	case FXT_EVENT_COUNTER:
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_INSTANT:
	case FXT_EVENT_ASYNC_END:
	case FXT_EVENT_FLOW_BEGIN:
	case FXT_EVENT_FLOW_STEP:
	case FXT_EVENT_FLOW_END:
		exp_word(c, ev->id);
		break;
	case FXT_EVENT_DURATION_COMPLETE:
		exp_word(c, ev->end_ts);
		break;
	}
	/* [16..19] type, [20..23] nargs, [24..31] thread, [32..47] category,
	 * [48..63] name */
	exp_close(c, at, F(FXT_REC_EVENT, 0) | F(ev->type, 16) |
			 F(ev->nargs, 20) | F(tref, 24) | F(cref, 32) |
			 F(nref, 48));
	return cmp_exp(c, "event");
}

#define CHECK_EVENT(c, ev)	CU_ASSERT(check_event(c, ev))

/* ---- magic and metadata ------------------------------------------ */

static void test_magic_record_little_endian(void)
{
	static const uint8_t want[8] = {
		0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00
	};
	struct cap *c = cap_new(0);
	uint64_t w;

	cap_finish(c);
	CU_ASSERT_EQUAL_FATAL(c->len, 8);
	CU_ASSERT(!memcmp(c->buf, want, 8));
	w = word_at(c, 0);
	CU_ASSERT_EQUAL(w, MAGIC_WORD);
	/* the same word from its fields: type 0, size 1, metadata type 4,
	 * trace info type 0 at [20..23], magic at [24..55] */
	CU_ASSERT_EQUAL(w, F(0, 0) | F(1, 4) | F(4, 16) | F(0, 20) |
			   F(0x16547846, 24));
	cap_free(c);
}

static void test_magic_record_big_endian_bytes_reversed(void)
{
	static const uint8_t want[8] = {
		0x00, 0x16, 0x54, 0x78, 0x46, 0x04, 0x00, 0x10
	};
	struct cap *c = cap_new(FXT_WRITER_BIG_ENDIAN);

	cap_finish(c);
	CU_ASSERT_EQUAL_FATAL(c->len, 8);
	CU_ASSERT(!memcmp(c->buf, want, 8));
	cap_free(c);
}

static void check_provider_info(unsigned int flags)
{
	struct cap *c = cap_new(flags);

	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 0xfedcba98,
						"provider-x", 10), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 2, "eightchr", 8), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 3, "", 0), 0);
	cap_finish(c);
	take_magic(c);

	/* 10-byte name: size 3, length 10 at [52..59], id at [20..51] */
	exp_word(c, F(0, 0) | F(3, 4) | F(1, 16) | F(0xfedcba98, 20) |
		    F(10, 52));
	exp_stream(c, "provider-x", 10);
	CHECK_EXP(c, "provider info 0xfedcba98");
	if (!(flags & FXT_WRITER_BIG_ENDIAN)) {
		/* the name stream is bytes: "provider" then "-x" + 6 zeros */
		CU_ASSERT_EQUAL(word_at(c, 16), 0x72656469766f7270ULL);
		CU_ASSERT_EQUAL(word_at(c, 24), 0x000000000000782dULL);
	}

	/* exactly 8 bytes: one stream word, no padding word */
	exp_word(c, F(0, 0) | F(2, 4) | F(1, 16) | F(2, 20) | F(8, 52));
	exp_stream(c, "eightchr", 8);
	CHECK_EXP(c, "provider info with an 8-byte name");

	/* empty name: header only */
	exp_word(c, F(0, 0) | F(1, 4) | F(1, 16) | F(3, 20));
	CHECK_EXP(c, "provider info with an empty name");
	expect_end(c);
	cap_free(c);
}

static void test_provider_info_id_length_padded_name(void)
{
	check_provider_info(0);
}

static void test_provider_info_big_endian(void)
{
	check_provider_info(FXT_WRITER_BIG_ENDIAN);
}

static void test_provider_section_header(void)
{
	struct cap *c = cap_new(0);

	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 0xffffffff, "a", 1), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 7, "b", 1), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_section(c->w, 0xffffffff), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_section(c->w, 7), 0);
	cap_finish(c);
	take_magic(c);
	exp_provider_info(c, 0xffffffff, "a");
	exp_provider_info(c, 7, "b");
	CHECK_EXP(c, "provider infos");
	/* [16..19] metadata type 2, [20..51] provider id, rest zero */
	exp_word(c, F(0, 0) | F(1, 4) | F(2, 16) | F(0xffffffffULL, 20));
	exp_word(c, F(0, 0) | F(1, 4) | F(2, 16) | F(7, 20));
	CHECK_EXP(c, "provider sections");
	expect_end(c);
	cap_free(c);
}

static void test_provider_event_header(void)
{
	struct cap *c = cap_new(0);
	uint64_t off;

	CU_ASSERT_EQUAL(fxt_write_provider_info(c->w, 0xabcdef01, "p", 1), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_event(c->w, 0xabcdef01,
				FXT_PROVIDER_EVENT_BUFFER_FULL), 0);
	/* the event id field is 4 bits wide */
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_provider_event(c->w, 0xabcdef01, 16),
			-EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	cap_finish(c);
	take_magic(c);
	exp_provider_info(c, 0xabcdef01, "p");
	/* [16..19] metadata type 3, [20..51] id, [52..55] event 0 */
	exp_word(c, F(0, 0) | F(1, 4) | F(3, 16) | F(0xabcdef01ULL, 20) |
		    F(FXT_PROVIDER_EVENT_BUFFER_FULL, 52));
	CHECK_EXP(c, "provider event");
	expect_end(c);
	cap_free(c);
}

static void test_init_record_ticks_word(void)
{
	struct cap *c = cap_start(0);

	CU_ASSERT_EQUAL(fxt_write_init(c->w, 1000000000), 0);
	CU_ASSERT_EQUAL(fxt_write_init(c->w, 0xfedcba9876543210ULL), 0);
	cap_finish(c);
	take_start(c);
	/* header [16..63] reserved zero; then the ticks per second word */
	exp_word(c, F(FXT_REC_INIT, 0) | F(2, 4));
	exp_word(c, 1000000000);
	exp_word(c, F(FXT_REC_INIT, 0) | F(2, 4));
	exp_word(c, 0xfedcba9876543210ULL);
	CHECK_EXP(c, "init records");
	expect_end(c);
	cap_free(c);
}

/* ---- string and thread tables ------------------------------------ */

static void test_intern_writes_nothing_and_is_stable(void)
{
	struct cap *c = cap_start(0);
	uint64_t off = fxt_writer_offset(c->w);
	int64_t a = fxt_writer_intern(c->w, "alpha", 5);
	int64_t b = fxt_writer_intern(c->w, "beta", 4);
	/* not NUL terminated: only len bytes count */
	int64_t a2 = fxt_writer_intern(c->w, "alphabet", 5);
	struct fxt_str s = fxt_writer_str(c->w, "beta");

	CU_ASSERT(a > 0);
	CU_ASSERT(b > 0);
	CU_ASSERT_NOT_EQUAL(a, b);
	CU_ASSERT_EQUAL(a, a2);
	CU_ASSERT_EQUAL(s.id, b);
	/* interning is table work for later; no string record yet */
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	cap_finish(c);
	take_start(c);
	expect_end(c);
	cap_free(c);
}

static void test_string_record_on_first_interned_use(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 5,
		.thread = { 1, 2 },
	};
	struct fxt_str hello_s, world_s;
	unsigned int hello, world;
	uint64_t h;

	hello_s = istr(c, "hello");
	world_s = istr(c, "world!!!");
	ev.category = hello_s;
	ev.name = inl("x");
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	ev.name = world_s;
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);

	/*
	 * The first string a fresh provider indexes gets index 1:
	 * [16..30] index 1, [32..46] length 5, then "hello" + 3 zeros.
	 */
	exp_word(c, F(FXT_REC_STRING, 0) | F(2, 4) | F(1, 16) | F(5, 32));
	exp_stream(c, "hello", 5);
	CU_ASSERT_EQUAL(word_at(c, c->pos + 8), 0x0000006f6c6c6568ULL);
	CHECK_EXP(c, "string record for \"hello\"");
	c->str[1].ptr = (const uint8_t *)"hello";
	c->str[1].len = 5;
	c->str[1].set = true;

	/* the event refers to index 1 at [32..47], name inline 0x8001 */
	h = peek(c);
	CU_ASSERT_EQUAL(h >> 32 & 0xffff, 1);
	CU_ASSERT_EQUAL(h >> 48 & 0xffff, 0x8001);
	ev.name = inl("x");
	CHECK_EVENT(c, &ev);

	/* "hello" is not written again; "world!!!" (8 bytes) unpadded */
	h = peek(c);
	CU_ASSERT_EQUAL(c->nstr_records, 1);
	world = sidx(c, "world!!!");
	hello = sidx(c, "hello");
	CU_ASSERT_EQUAL(hello, 1);
	CU_ASSERT(world > 1);
	CU_ASSERT_EQUAL(h >> 32 & 0xffff, 1);
	CU_ASSERT_EQUAL(h >> 48 & 0xffff, world);
	if (world) {
		CU_ASSERT_EQUAL(word_at(c, c->pos - 16),
				F(FXT_REC_STRING, 0) | F(2, 4) |
				F(world, 16) | F(8, 32));
		CU_ASSERT(!memcmp(c->buf + c->pos - 8, "world!!!", 8));
	}
	ev.name = world_s;
	CHECK_EVENT(c, &ev);
	expect_end(c);
	cap_free(c);
}

static void test_thread_record_and_indexed_thread_ref(void)
{
	struct cap *c = cap_start(0);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.thread = { 0x1111, 0x2222 },
	};
	unsigned int i, t;
	uint64_t h = 0;

	ev.category = istr(c, "cat");
	ev.name = istr(c, "name");
	for (i = 0; i < 3; i++) {
		ev.ts = 100 + i;
		CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	}
	cap_finish(c);
	take_start(c);
	for (i = 0; i < 3; i++) {
		h = peek(c);
		ev.ts = 100 + i;
		CHECK_EVENT(c, &ev);
	}
	expect_end(c);

	/* by its third use the thread is in the table, at index 1 */
	CU_ASSERT_EQUAL(c->nthr_records, 1);
	t = tidx(c, 0x1111, 0x2222);
	CU_ASSERT_EQUAL(t, 1);
	CU_ASSERT_EQUAL(h >> 24 & 0xff, 1);

	/* the thread record itself: [16..23] index, then pid, then tid */
	for (c->pos = 8; c->pos < c->len; c->pos += 8) {
		if (word_at(c, c->pos) == (F(FXT_REC_THREAD, 0) | F(3, 4) |
					   F(1, 16)))
			break;
	}
	CU_ASSERT_FATAL(c->pos < c->len);
	CU_ASSERT_EQUAL(word_at(c, c->pos + 8), 0x1111);
	CU_ASSERT_EQUAL(word_at(c, c->pos + 16), 0x2222);
	cap_free(c);
}

static void test_instant_event_indexed_strings_and_thread(void)
{
	struct cap *c = cap_start(0);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 0x0123456789abcdefULL,
		.thread = { 42, 43 },
	};
	unsigned int i, cat, name, t;
	uint64_t h;

	ev.category = istr(c, "sched");
	ev.name = istr(c, "tick");
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	for (i = 0; i < 2; i++)
		CHECK_EVENT(c, &ev);

	h = peek(c);
	cat = sidx(c, "sched");
	name = sidx(c, "tick");
	t = tidx(c, 42, 43);
	CU_ASSERT(cat && name && t);
	CU_ASSERT_EQUAL(c->nstr_records, 2);
	/* "tick" after "sched": shorter than the name Tracy read last */
	CU_ASSERT_EQUAL(c->nresets, 1);
	/* size 2 (header, timestamp); [16..19] 0; [20..23] 0 args;
	 * [24..31] thread index; [32..47] category; [48..63] name */
	exp_word(c, F(FXT_REC_EVENT, 0) | F(2, 4) | F(FXT_EVENT_INSTANT, 16) |
		    F(0, 20) | F(t, 24) | F(cat, 32) | F(name, 48));
	exp_word(c, 0x0123456789abcdefULL);
	CHECK_EXP(c, "third instant event");
	CU_ASSERT_EQUAL(h & 0xffff, 0x24);
	expect_end(c);
	cap_free(c);
}

static void test_event_inline_strings_and_inline_thread(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 77,
		.thread = { 0xaaaa, 0xbbbb },
		.category = inl("cat"),
		.name = inl("inline-name"),
	};
	unsigned int i;

	/* inline is inline however often the text is used */
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	for (i = 0; i < 2; i++) {
		/* thread ref 0, category 0x8000|3, name 0x8000|11; then ts,
		 * pid, tid, category stream, name stream */
		exp_word(c, F(FXT_REC_EVENT, 0) | F(7, 4) | F(0, 16) |
			    F(0, 20) | F(0, 24) | F(0x8003, 32) |
			    F(0x800b, 48));
		exp_word(c, 77);
		exp_word(c, 0xaaaa);
		exp_word(c, 0xbbbb);
		exp_stream(c, "cat", 3);
		exp_stream(c, "inline-name", 11);
		CHECK_EXP(c, "inline event");
	}
	expect_end(c);
	CU_ASSERT_EQUAL(c->nstr_records, 0);
	CU_ASSERT_EQUAL(c->nthr_records, 0);
	cap_free(c);
}

static void test_plain_string_inline_once_indexed_after(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1,
		.thread = { 1, 1 },
		.category = inl("c"),
		.name = dyn("plain"),
	};
	unsigned int i, idx;
	uint64_t h;

	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	/* seen once: inline, 0x8000 | 5 */
	h = peek(c);
	CU_ASSERT_EQUAL(h >> 48, 0x8005);
	CHECK_EVENT(c, &ev);
	/* from the second use on: a string record, then its index */
	for (i = 0; i < 2; i++) {
		h = peek(c);
		idx = sidx(c, "plain");
		CU_ASSERT(idx > 0);
		CU_ASSERT_EQUAL(h >> 48, idx);
		CHECK_EVENT(c, &ev);
	}
	CU_ASSERT_EQUAL(c->nstr_records, 1);
	expect_end(c);
	cap_free(c);
}

static void test_inline_strings_flag_keeps_plain_strings_inline(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS |
				  FXT_WRITER_INLINE_STRINGS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1,
		.thread = { 1, 1 },
		.category = dyn("cat"),
		.name = dyn("plain"),
	};
	unsigned int i;

	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(peek(c) >> 32, 0x8005U << 16 | 0x8003U);
		CHECK_EVENT(c, &ev);
	}
	CU_ASSERT_EQUAL(c->nstr_records, 0);
	expect_end(c);
	cap_free(c);
}

static void test_empty_strings_are_ref_zero(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 9,
		.thread = { 3, 4 },
		.category = fxt_str_make("", 0),
		.name = inl(""),
	};

	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	/* both refs 0 and no stream: header, ts, pid, tid */
	exp_word(c, F(FXT_REC_EVENT, 0) | F(4, 4));
	exp_word(c, 9);
	exp_word(c, 3);
	exp_word(c, 4);
	CHECK_EXP(c, "event with empty strings");
	expect_end(c);
	cap_free(c);
}

/* ---- arguments ----------------------------------------------------- */

/* One instant event carrying @args, every name and string inline. */
static struct cap *write_args(const struct fxt_arg *args, unsigned int n)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1, .thread = { 1, 2 },
		.category = inl("c"), .name = inl("n"),
		.nargs = n, .args = args,
	};

	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	/*
	 * The event up to its arguments: header, ts, pid, tid, c, n.  The
	 * size field is taken as written here and checked by expect_end()
	 * once the arguments have been compared.
	 */
	c->last_rec = c->pos;
	exp_word(c, F(FXT_REC_EVENT, 0) | F(FXT_EVENT_INSTANT, 16) |
		    F(n, 20) | F(0x8001, 32) | F(0x8001, 48) |
		    F((word_at(c, c->pos) >> 4 & 0xfff), 4));
	exp_word(c, 1);
	exp_word(c, 1);
	exp_word(c, 2);
	exp_stream(c, "c", 1);
	exp_stream(c, "n", 1);
	CHECK_EXP(c, "event before its arguments");
	return c;
}

static void test_arg_null_header(void)
{
	struct fxt_arg a = { .type = FXT_ARG_NULL, .name = inl("nil") };
	struct cap *c = write_args(&a, 1);

	/* [0..3] 0, size 2 (header + name), [16..31] 0x8003, rest zero */
	exp_word(c, F(FXT_ARG_NULL, 0) | F(2, 4) | F(0x8003, 16));
	exp_stream(c, "nil", 3);
	CHECK_EXP(c, "null argument");
	expect_end(c);
	cap_free(c);
}

static void test_arg_int32_value_in_bits_32_to_63(void)
{
	struct fxt_arg a[3] = {
		{ .type = FXT_ARG_INT32, .name = inl("a"), .i32 = INT32_MIN },
		{ .type = FXT_ARG_INT32, .name = inl("b"), .i32 = -1 },
		{ .type = FXT_ARG_INT32, .name = inl("c"), .i32 = INT32_MAX },
	};
	struct cap *c = write_args(a, 3);

	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8001, 16) |
		    F(0x80000000U, 32));
	exp_stream(c, "a", 1);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8001, 16) |
		    F(0xffffffffU, 32));
	exp_stream(c, "b", 1);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8001, 16) |
		    F(0x7fffffffU, 32));
	exp_stream(c, "c", 1);
	CHECK_EXP(c, "int32 arguments");
	CU_ASSERT_EQUAL(word_at(c, c->pos - 48), 0x8000000080010021ULL);
	expect_end(c);
	cap_free(c);
}

static void test_arg_uint32_value_in_bits_32_to_63(void)
{
	struct fxt_arg a[2] = {
		{ .type = FXT_ARG_UINT32, .name = inl("u"), .u32 = UINT32_MAX },
		{ .type = FXT_ARG_UINT32, .name = inl("v"), .u32 = 0x12345678 },
	};
	struct cap *c = write_args(a, 2);

	exp_word(c, F(FXT_ARG_UINT32, 0) | F(2, 4) | F(0x8001, 16) |
		    F(0xffffffffU, 32));
	exp_stream(c, "u", 1);
	exp_word(c, F(FXT_ARG_UINT32, 0) | F(2, 4) | F(0x8001, 16) |
		    F(0x12345678U, 32));
	exp_stream(c, "v", 1);
	CHECK_EXP(c, "uint32 arguments");
	expect_end(c);
	cap_free(c);
}

static void test_arg_64bit_types_have_value_word(void)
{
	uint64_t nan_bits = 0x7ff8deadbeef0001ULL, dbits;
	struct fxt_arg a[5] = {
		{ .type = FXT_ARG_INT64, .name = inl("i64"),
		  .i64 = INT64_MIN + 5 },
		{ .type = FXT_ARG_UINT64, .name = inl("u64"),
		  .u64 = 0xfedcba9876543210ULL },
		{ .type = FXT_ARG_DOUBLE, .name = inl("dbl") },
		{ .type = FXT_ARG_POINTER, .name = inl("ptr"),
		  .ptr = 0xffff888012345678ULL },
		{ .type = FXT_ARG_KOID, .name = inl("koid"),
		  .koid = 0x123456789ULL },
	};
	struct cap *c;

	memcpy(&a[2].d, &nan_bits, 8);
	c = write_args(a, 5);
	/* header [32..63] zero, size 3: header, name, value word */
	exp_word(c, F(FXT_ARG_INT64, 0) | F(3, 4) | F(0x8003, 16));
	exp_stream(c, "i64", 3);
	exp_word(c, 0x8000000000000005ULL);
	exp_word(c, F(FXT_ARG_UINT64, 0) | F(3, 4) | F(0x8003, 16));
	exp_stream(c, "u64", 3);
	exp_word(c, 0xfedcba9876543210ULL);
	exp_word(c, F(FXT_ARG_DOUBLE, 0) | F(3, 4) | F(0x8003, 16));
	exp_stream(c, "dbl", 3);
	exp_word(c, nan_bits);
	exp_word(c, F(FXT_ARG_POINTER, 0) | F(3, 4) | F(0x8003, 16));
	exp_stream(c, "ptr", 3);
	exp_word(c, 0xffff888012345678ULL);
	exp_word(c, F(FXT_ARG_KOID, 0) | F(3, 4) | F(0x8004, 16));
	exp_stream(c, "koid", 4);
	exp_word(c, 0x123456789ULL);
	CHECK_EXP(c, "64-bit arguments");
	expect_end(c);
	cap_free(c);

	/* -0.0 keeps its sign bit */
	a[0].type = FXT_ARG_DOUBLE;
	a[0].d = -0.0;
	c = write_args(a, 1);
	memcpy(&dbits, &a[0].d, 8);
	CU_ASSERT_EQUAL(dbits, 0x8000000000000000ULL);
	exp_word(c, F(FXT_ARG_DOUBLE, 0) | F(3, 4) | F(0x8003, 16));
	exp_stream(c, "i64", 3);
	exp_word(c, 0x8000000000000000ULL);
	CHECK_EXP(c, "double -0.0");
	expect_end(c);
	cap_free(c);
}

static void test_arg_string_value_ref_in_bits_32_to_47(void)
{
	static char long_val[40];
	struct fxt_arg a[3] = {
		{ .type = FXT_ARG_STRING, .name = inl("s"),
		  .str = { .ptr = "value", .len = 5, .id = FXT_STR_INLINE } },
		{ .type = FXT_ARG_STRING, .name = inl("e"),
		  .str = { .ptr = "", .len = 0, .id = FXT_STR_INLINE } },
		{ .type = FXT_ARG_STRING, .name = inl("long-name"),
		  .str = { .ptr = long_val, .len = 33,
			   .id = FXT_STR_INLINE } },
	};
	struct cap *c;

	memset(long_val, 'L', sizeof(long_val));
	c = write_args(a, 3);
	/* value ref 0x8005 at [32..47], [48..63] zero; name then value */
	exp_word(c, F(FXT_ARG_STRING, 0) | F(3, 4) | F(0x8001, 16) |
		    F(0x8005, 32));
	exp_stream(c, "s", 1);
	exp_stream(c, "value", 5);
	/* empty value: ref 0, no stream */
	exp_word(c, F(FXT_ARG_STRING, 0) | F(2, 4) | F(0x8001, 16));
	exp_stream(c, "e", 1);
	/* 9-byte name (2 words), 33-byte value (5 words) */
	exp_word(c, F(FXT_ARG_STRING, 0) | F(8, 4) | F(0x8009, 16) |
		    F(0x8021, 32));
	exp_stream(c, "long-name", 9);
	exp_stream(c, long_val, 33);
	CHECK_EXP(c, "string arguments");
	expect_end(c);
	cap_free(c);
}

static void test_arg_string_indexed_value_and_name(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_arg a = { .type = FXT_ARG_STRING };
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1, .thread = { 1, 2 },
		.category = inl("c"), .name = inl("n"),
		.nargs = 1, .args = &a,
	};
	unsigned int ni, vi;

	a.name = istr(c, "argname");
	a.str = istr(c, "argvalue");
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	take_tables(c);
	ni = sidx(c, "argname");
	vi = sidx(c, "argvalue");
	CU_ASSERT(ni && vi && ni != vi);
	exp_word(c, F(FXT_REC_EVENT, 0) | F(7, 4) | F(1, 20) |
		    F(0x8001, 32) | F(0x8001, 48));
	exp_word(c, 1);
	exp_word(c, 1);
	exp_word(c, 2);
	exp_stream(c, "c", 1);
	exp_stream(c, "n", 1);
	/* header only: name index at [16..31], value index at [32..47] */
	exp_word(c, F(FXT_ARG_STRING, 0) | F(1, 4) | F(ni, 16) | F(vi, 32));
	CHECK_EXP(c, "event with an indexed string argument");
	expect_end(c);
	cap_free(c);
}

static void test_arg_bool_in_bit_32(void)
{
	struct fxt_arg a[2] = {
		{ .type = FXT_ARG_BOOL, .name = inl("t"), .b = true },
		{ .type = FXT_ARG_BOOL, .name = inl("f"), .b = false },
	};
	struct cap *c = write_args(a, 2);

	exp_word(c, F(FXT_ARG_BOOL, 0) | F(2, 4) | F(0x8001, 16) | F(1, 32));
	exp_stream(c, "t", 1);
	exp_word(c, F(FXT_ARG_BOOL, 0) | F(2, 4) | F(0x8001, 16));
	exp_stream(c, "f", 1);
	CHECK_EXP(c, "bool arguments");
	expect_end(c);
	cap_free(c);
}

static void test_sixteen_args_rejected_fifteen_accepted(void)
{
	struct cap *c = cap_start(0);
	struct fxt_arg a[16];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1, .thread = { 1, 2 },
		.category = inl("c"), .name = inl("n"),
		.nargs = 16, .args = a,
	};
	unsigned int i;
	uint64_t off;

	for (i = 0; i < 16; i++) {
		a[i] = (struct fxt_arg){ .type = FXT_ARG_UINT32,
					 .name = inl("k"), .u32 = i };
	}
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), -EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	ev.nargs = 15;
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	CU_ASSERT_EQUAL(peek(c) >> 20 & 0xf, 15);
	CHECK_EVENT(c, &ev);
	expect_end(c);
	cap_free(c);
}

static void test_oversized_record_is_e2big_and_writes_nothing(void)
{
	struct cap *c = cap_start(0);
	static char big[20000];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .ts = 1, .thread = { 1, 2 },
	};
	uint64_t off;

	memset(big, 'b', sizeof(big));
	/* two 20000-byte inline strings need 5000+ words; the size field
	 * holds 4095 */
	ev.category = (struct fxt_str){ big, sizeof(big), FXT_STR_INLINE };
	ev.name = ev.category;
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), -E2BIG);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	/* the writer is still usable after a rejected record */
	CU_ASSERT_EQUAL(fxt_write_init(c->w, 1), 0);
	cap_finish(c);
	take_start(c);
	exp_word(c, F(FXT_REC_INIT, 0) | F(2, 4));
	exp_word(c, 1);
	CHECK_EXP(c, "init after a rejected event");
	expect_end(c);
	cap_free(c);
}

static void test_rejected_records_leave_no_table_records(void)
{
	struct cap *c = cap_start(0);
	struct fxt_arg a[16];
	struct fxt_sched_switch ss = { .cpu = 1, .nargs = 16, .args = a };
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA, .thread = { 3, 4 },
		.nargs = 16, .args = a, .data = "x", .size = 1,
	};
	struct fxt_str name = istr(c, "fresh");
	unsigned int i;
	uint64_t off;

	for (i = 0; i < 16; i++)
		a[i] = (struct fxt_arg){ .type = FXT_ARG_NULL,
					 .name = istr(c, "arg") };
	lb.category = name;
	lb.name = name;
	/* every one of these has 16 arguments: -EINVAL, nothing written,
	 * not even the string and thread records its refs would need */
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_userspace_object(c->w, 1, 2, name, a, 16),
			-EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	CU_ASSERT_EQUAL(fxt_write_kernel_object(c->w, 1, 2, name, a, 16),
			-EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	CU_ASSERT_EQUAL(fxt_write_sched_switch(c->w, &ss), -EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	CU_ASSERT_EQUAL(fxt_write_large_blob(c->w, &lb), -EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	cap_finish(c);
	take_start(c);
	expect_end(c);
	cap_free(c);
}

/* ---- event types with trailing words ------------------------------ */

static void check_event_type(unsigned int type, uint64_t trailing)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_arg a = { .type = FXT_ARG_INT32, .name = inl("v"),
			     .i32 = 3 };
	struct fxt_event ev = {
		.type = type, .ts = 1000, .thread = { 5, 6 },
		.category = inl("c"), .name = inl("n"),
		.nargs = 1, .args = &a,
		.id = trailing, .end_ts = trailing,
	};
	bool has_word = type != FXT_EVENT_INSTANT &&
			type != FXT_EVENT_DURATION_BEGIN &&
			type != FXT_EVENT_DURATION_END;

	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	/* header, ts, pid, tid, "c", "n", argument (2), [trailing word] */
	exp_word(c, F(FXT_REC_EVENT, 0) | F(8 + has_word, 4) | F(type, 16) |
		    F(1, 20) | F(0x8001, 32) | F(0x8001, 48));
	exp_word(c, 1000);
	exp_word(c, 5);
	exp_word(c, 6);
	exp_stream(c, "c", 1);
	exp_stream(c, "n", 1);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8001, 16) | F(3, 32));
	exp_stream(c, "v", 1);
	if (has_word)
		exp_word(c, trailing);
	CHECK_EXP(c, fxt_event_type_name(type));
	expect_end(c);
	cap_free(c);
}

static void test_counter_event_id_word(void)
{
	check_event_type(FXT_EVENT_COUNTER, 0xc0c0c0c0c0c0c0c0ULL);
}

static void test_duration_begin_end_no_trailing_word(void)
{
	check_event_type(FXT_EVENT_INSTANT, 0xdead);
	check_event_type(FXT_EVENT_DURATION_BEGIN, 0xdead);
	check_event_type(FXT_EVENT_DURATION_END, 0xdead);
}

static void test_duration_complete_end_time_word(void)
{
	check_event_type(FXT_EVENT_DURATION_COMPLETE, 0x1234567890ULL);
}

static void test_async_events_correlation_word(void)
{
	check_event_type(FXT_EVENT_ASYNC_BEGIN, 0xa5a5a5a5a5a5a5a5ULL);
	check_event_type(FXT_EVENT_ASYNC_INSTANT, 1);
	check_event_type(FXT_EVENT_ASYNC_END, UINT64_MAX);
}

static void test_flow_events_correlation_word(void)
{
	check_event_type(FXT_EVENT_FLOW_BEGIN, 0xf10f10f10ULL);
	check_event_type(FXT_EVENT_FLOW_STEP, 0);
	check_event_type(FXT_EVENT_FLOW_END, UINT64_MAX - 1);
}

/* ---- scheduling records ------------------------------------------- */

static void test_legacy_switch_header_fields(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_legacy_switch cs = {
		.ts = 0x55aa55aa55ULL, .cpu = 0xab,
		.out_state = FXT_THREAD_BLOCKED,
		.out = { 100, 101 }, .in = { 200, 201 },
		.out_prio = 0x12, .in_prio = 0xfe,
	};
	uint64_t off;

	CU_ASSERT_EQUAL(fxt_write_legacy_switch(c->w, &cs), 0);
	/* cpu is an 8-bit field in this record */
	cs.cpu = 256;
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_legacy_switch(c->w, &cs), -EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	cap_finish(c);
	take_start(c);
	/* [16..23] cpu, [24..27] state, [28..35] out ref, [36..43] in ref,
	 * [44..51] out prio, [52..59] in prio, [60..63] zero */
	exp_word(c, F(FXT_REC_SCHED, 0) | F(6, 4) | F(0xab, 16) |
		    F(FXT_THREAD_BLOCKED, 24) | F(0, 28) | F(0, 36) |
		    F(0x12, 44) | F(0xfe, 52));
	exp_word(c, 0x55aa55aa55ULL);
	exp_word(c, 100);
	exp_word(c, 101);
	exp_word(c, 200);
	exp_word(c, 201);
	CHECK_EXP(c, "legacy context switch");
	expect_end(c);
	cap_free(c);
}

static void test_legacy_switch_with_thread_table(void)
{
	struct cap *c = cap_start(0);
	struct fxt_legacy_switch cs = {
		.ts = 10, .cpu = 3, .out_state = FXT_THREAD_SUSPENDED,
		.out = { 100, 101 }, .in = { 200, 201 },
		.out_prio = 1, .in_prio = 2,
	};
	unsigned int i, oref, iref;
	uint64_t h;
	size_t at;

	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(fxt_write_legacy_switch(c->w, &cs), 0);
	cap_finish(c);
	take_start(c);
	for (i = 0; i < 3; i++) {
		h = peek(c);
		oref = pick_tref(c, h >> 28 & 0xff, 100, 101);
		iref = pick_tref(c, h >> 36 & 0xff, 200, 201);
		at = exp_mark(c);
		exp_word(c, 10);
		if (!oref) {
			exp_word(c, 100);
			exp_word(c, 101);
		}
		if (!iref) {
			exp_word(c, 200);
			exp_word(c, 201);
		}
		exp_close(c, at, F(FXT_REC_SCHED, 0) | F(3, 16) |
				 F(FXT_THREAD_SUSPENDED, 24) | F(oref, 28) |
				 F(iref, 36) | F(1, 44) | F(2, 52));
		CHECK_EXP(c, "legacy switch with thread refs");
	}
	/* both threads are indexed by their third use */
	CU_ASSERT(oref && iref && oref != iref);
	expect_end(c);
	cap_free(c);
}

static void test_sched_switch_subtype_1_fields(void)
{
	struct cap *c = cap_start(0);
	struct fxt_arg a[2] = {
		{ .type = FXT_ARG_INT32, .name = inl("incoming_weight"),
		  .i32 = INT32_MIN },
		{ .type = FXT_ARG_INT32, .name = inl("outgoing_weight"),
		  .i32 = 1024 },
	};
	struct fxt_sched_switch cs = {
		.ts = 0x1122334455ULL, .cpu = 0xfedc,
		.out_state = FXT_THREAD_DEAD,
		.out_tid = 0x1000000001ULL, .in_tid = 0x2000000002ULL,
		.nargs = 2, .args = a,
	};
	uint64_t off;

	CU_ASSERT_EQUAL(fxt_write_sched_switch(c->w, &cs), 0);
	cs.cpu = 0x10000;	/* 16-bit field */
	off = fxt_writer_offset(c->w);
	CU_ASSERT_EQUAL(fxt_write_sched_switch(c->w, &cs), -EINVAL);
	CU_ASSERT_EQUAL(fxt_writer_offset(c->w), off);
	cap_finish(c);
	take_start(c);
	/* [16..19] nargs, [20..35] cpu, [36..39] state, [60..63] 1;
	 * ts, outgoing tid, incoming tid, arguments (3 words each) */
	exp_word(c, F(FXT_REC_SCHED, 0) | F(10, 4) | F(2, 16) |
		    F(0xfedc, 20) | F(FXT_THREAD_DEAD, 36) |
		    F(FXT_SCHED_SWITCH, 60));
	exp_word(c, 0x1122334455ULL);
	exp_word(c, 0x1000000001ULL);
	exp_word(c, 0x2000000002ULL);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(3, 4) | F(0x800f, 16) |
		    F(0x80000000U, 32));
	exp_stream(c, "incoming_weight", 15);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(3, 4) | F(0x800f, 16) |
		    F(1024, 32));
	exp_stream(c, "outgoing_weight", 15);
	CHECK_EXP(c, "sched switch");
	expect_end(c);
	cap_free(c);
}

static void test_sched_wakeup_subtype_2_fields(void)
{
	struct cap *c = cap_start(0);
	struct fxt_arg a = { .type = FXT_ARG_INT32, .name = inl("weight"),
			     .i32 = -7 };
	struct fxt_sched_wakeup wk = {
		.ts = 987654321, .cpu = 0x1234, .tid = 0xabcdef,
		.nargs = 1, .args = &a,
	};

	CU_ASSERT_EQUAL(fxt_write_sched_wakeup(c->w, &wk), 0);
	wk.nargs = 0;
	wk.cpu = 0;
	CU_ASSERT_EQUAL(fxt_write_sched_wakeup(c->w, &wk), 0);
	cap_finish(c);
	take_start(c);
	/* [16..19] nargs, [20..35] cpu, [60..63] 2; ts, waking tid, args */
	exp_word(c, F(FXT_REC_SCHED, 0) | F(5, 4) | F(1, 16) |
		    F(0x1234, 20) | F(FXT_SCHED_WAKEUP, 60));
	exp_word(c, 987654321);
	exp_word(c, 0xabcdef);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8006, 16) |
		    F((uint32_t)-7, 32));
	exp_stream(c, "weight", 6);
	exp_word(c, F(FXT_REC_SCHED, 0) | F(3, 4) | F(FXT_SCHED_WAKEUP, 60));
	exp_word(c, 987654321);
	exp_word(c, 0xabcdef);
	CHECK_EXP(c, "thread wakeups");
	expect_end(c);
	cap_free(c);
}

/* ---- log, blob, objects ------------------------------------------- */

static void test_log_record(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_thread t = { 0x77, 0x78 };

	CU_ASSERT_EQUAL(fxt_write_log(c->w, 0xbeef, &t, "hello log", 9), 0);
	CU_ASSERT_EQUAL(fxt_write_log(c->w, 1, &t, "12345678", 8), 0);
	cap_finish(c);
	take_start(c);
	/* [16..30] length, [31] zero, [32..39] thread ref 0 (inline);
	 * ts, pid, tid, message stream */
	exp_word(c, F(FXT_REC_LOG, 0) | F(6, 4) | F(9, 16) | F(0, 32));
	exp_word(c, 0xbeef);
	exp_word(c, 0x77);
	exp_word(c, 0x78);
	exp_stream(c, "hello log", 9);
	exp_word(c, F(FXT_REC_LOG, 0) | F(5, 4) | F(8, 16));
	exp_word(c, 1);
	exp_word(c, 0x77);
	exp_word(c, 0x78);
	exp_stream(c, "12345678", 8);
	CHECK_EXP(c, "log records");
	expect_end(c);
	cap_free(c);
}

static void test_blob_record(void)
{
	struct cap *c = cap_start(0);
	static const uint8_t data[13] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
	};

	CU_ASSERT_EQUAL(fxt_write_blob(c->w, inl("blobname"), FXT_BLOB_DATA,
				       data, sizeof(data)), 0);
	CU_ASSERT_EQUAL(fxt_write_blob(c->w, inl("pf"), FXT_BLOB_PERFETTO,
				       data, 8), 0);
	cap_finish(c);
	take_start(c);
	/* [16..31] name ref, [32..46] payload bytes, [48..55] blob type */
	exp_word(c, F(FXT_REC_BLOB, 0) | F(4, 4) | F(0x8008, 16) |
		    F(13, 32) | F(FXT_BLOB_DATA, 48));
	exp_stream(c, "blobname", 8);
	exp_stream(c, data, 13);
	exp_word(c, F(FXT_REC_BLOB, 0) | F(3, 4) | F(0x8002, 16) |
		    F(8, 32) | F(FXT_BLOB_PERFETTO, 48));
	exp_stream(c, "pf", 2);
	exp_stream(c, data, 8);
	CHECK_EXP(c, "blob records");
	expect_end(c);
	cap_free(c);
}

static void test_userspace_object_record(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_arg a = { .type = FXT_ARG_UINT64, .name = inl("sz"),
			     .u64 = 0x100000000ULL };

	CU_ASSERT_EQUAL(fxt_write_userspace_object(c->w, 0xdeadbeefcafef00dULL,
						   0x4321, inl("obj"), &a, 1),
			0);
	cap_finish(c);
	take_start(c);
	/* [16..23] process ref 0 (inline), [24..39] name, [40..43] nargs;
	 * pointer, pid, name stream, arguments */
	exp_word(c, F(FXT_REC_USERSPACE_OBJ, 0) | F(7, 4) | F(0, 16) |
		    F(0x8003, 24) | F(1, 40));
	exp_word(c, 0xdeadbeefcafef00dULL);
	exp_word(c, 0x4321);
	exp_stream(c, "obj", 3);
	exp_word(c, F(FXT_ARG_UINT64, 0) | F(3, 4) | F(0x8002, 16));
	exp_stream(c, "sz", 2);
	exp_word(c, 0x100000000ULL);
	CHECK_EXP(c, "userspace object");
	expect_end(c);
	cap_free(c);
}

static void test_kernel_object_record(void)
{
	struct cap *c = cap_start(0);
	struct fxt_arg a = { .type = FXT_ARG_KOID, .name = inl("process"),
			     .koid = 0x99 };

	CU_ASSERT_EQUAL(fxt_write_kernel_object(c->w, 0x1234, FXT_OBJ_THREAD,
						inl("worker-1"), &a, 1), 0);
	CU_ASSERT_EQUAL(fxt_write_kernel_object(c->w, 0x99, FXT_OBJ_PROCESS,
						inl("proc"), NULL, 0), 0);
	cap_finish(c);
	take_start(c);
	/* [16..23] object type, [24..39] name, [40..43] nargs;
	 * koid, name stream, arguments */
	exp_word(c, F(FXT_REC_KERNEL_OBJ, 0) | F(6, 4) | F(FXT_OBJ_THREAD, 16) |
		    F(0x8008, 24) | F(1, 40));
	exp_word(c, 0x1234);
	exp_stream(c, "worker-1", 8);
	exp_word(c, F(FXT_ARG_KOID, 0) | F(3, 4) | F(0x8007, 16));
	exp_stream(c, "process", 7);
	exp_word(c, 0x99);
	exp_word(c, F(FXT_REC_KERNEL_OBJ, 0) | F(3, 4) |
		    F(FXT_OBJ_PROCESS, 16) | F(0x8004, 24));
	exp_word(c, 0x99);
	exp_stream(c, "proc", 4);
	CHECK_EXP(c, "kernel objects");
	expect_end(c);
	cap_free(c);
}

/* ---- large records ------------------------------------------------ */

static uint8_t *pattern(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (i = 0; i < n; i++)
		p[i] = i * 131 + (i >> 8);
	return p;
}

static void test_large_blob_format_0(void)
{
	struct cap *c = cap_start(FXT_WRITER_INLINE_THREADS);
	struct fxt_arg a = { .type = FXT_ARG_INT32, .name = inl("k"),
			     .i32 = 77 };
	uint8_t *data = pattern(20);
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA,
		.category = inl("lc"), .name = inl("lname"),
		.ts = 0x7777, .thread = { 5, 6 },
		.nargs = 1, .args = &a,
		.data = data, .size = 20,
	};

	CU_ASSERT_EQUAL(fxt_write_large_blob(c->w, &lb), 0);
	cap_finish(c);
	take_start(c);
	/* [4..35] size 13, [36..39] large type 0, [40..43] format 0 */
	exp_word(c, F(FXT_REC_LARGE, 0) | F(13, 4) | F(FXT_LARGE_BLOB, 36) |
		    F(FXT_LARGE_BLOB_METADATA, 40));
	/* format header: [0..15] category, [16..31] name, [32..35] nargs,
	 * [36..43] thread ref */
	exp_word(c, F(0x8002, 0) | F(0x8005, 16) | F(1, 32) | F(0, 36));
	exp_stream(c, "lc", 2);
	exp_stream(c, "lname", 5);
	exp_word(c, 0x7777);
	exp_word(c, 5);
	exp_word(c, 6);
	exp_word(c, F(FXT_ARG_INT32, 0) | F(2, 4) | F(0x8001, 16) | F(77, 32));
	exp_stream(c, "k", 1);
	exp_word(c, 20);
	exp_stream(c, data, 20);
	CHECK_EXP(c, "large blob, format 0");
	expect_end(c);
	free(data);
	cap_free(c);
}

static void test_large_blob_format_1_beyond_12bit_size(void)
{
	struct cap *c = cap_start(0);
	size_t n = (1 << 20) + 3;	/* 131073 payload words */
	uint8_t *data = pattern(n);
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_NO_META,
		.category = inl("cat"), .name = inl("big"),
		.data = data, .size = n,
	};
	uint64_t words = 1 + 1 + 1 + 1 + 1 + (n + 7) / 8;

	CU_ASSERT_EQUAL(fxt_write_large_blob(c->w, &lb), 0);
	cap_finish(c);
	take_start(c);
	/* 131078 words needs bits [4..21] of the 32-bit size field */
	exp_word(c, F(FXT_REC_LARGE, 0) | F(words, 4) | F(FXT_LARGE_BLOB, 36) |
		    F(FXT_LARGE_BLOB_NO_META, 40));
	/* format header: category and name only */
	exp_word(c, F(0x8003, 0) | F(0x8003, 16));
	exp_stream(c, "cat", 3);
	exp_stream(c, "big", 3);
	exp_word(c, n);
	exp_stream(c, data, n);
	CHECK_EXP(c, "large blob, format 1");
	expect_end(c);
	free(data);
	cap_free(c);
}

static void test_raw_words_written_verbatim(void)
{
	struct cap *c = cap_start(0);
	const uint64_t raw[3] = {
		F(10, 0) | F(3, 4) | F(0xabc, 16), 0x0102030405060708ULL, 0
	};

	CU_ASSERT_EQUAL(fxt_write_raw(c->w, raw, 3), 0);
	/* the size in the header must match */
	CU_ASSERT(fxt_write_raw(c->w, raw, 2) < 0);
	cap_finish(c);
	take_start(c);
	exp_word(c, raw[0]);
	exp_word(c, raw[1]);
	exp_word(c, raw[2]);
	CHECK_EXP(c, "raw record");
	expect_end(c);
	cap_free(c);
}

static void test_event_big_endian_words(void)
{
	struct cap *c = cap_start(FXT_WRITER_BIG_ENDIAN);
	struct fxt_arg a[2] = {
		{ .type = FXT_ARG_INT64, .name = inl("i"), .i64 = -2 },
		{ .type = FXT_ARG_STRING, .name = inl("s"),
		  .str = { "str", 3, FXT_STR_INLINE } },
	};
	struct fxt_event ev = {
		.type = FXT_EVENT_COUNTER, .ts = 0x0102030405060708ULL,
		.thread = { 9, 10 },
		.category = istr(c, "cat"), .name = inl("be-event"),
		.nargs = 2, .args = a, .id = 0x1122,
	};
	static const uint8_t ts_bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t str_hdr[8] = {
		0, 0, 0, 3, 0, 1, 0, 0x22
	};
	size_t at;

	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	CU_ASSERT_EQUAL(fxt_write_event(c->w, &ev), 0);
	cap_finish(c);
	take_start(c);
	/*
	 * The string record for "cat", wherever among the table records:
	 * its header (index 1, length 3, size 2) most significant byte
	 * first, its stream in byte order.
	 */
	CU_ASSERT_EQUAL(load(str_hdr, true), F(FXT_REC_STRING, 0) | F(2, 4) |
			F(1, 16) | F(3, 32));
	at = (const char *)memmem(c->buf + c->pos, c->len - c->pos,
				  str_hdr, 8) - c->buf;
	CU_ASSERT_FATAL(at < c->len && at % 8 == 0);
	CU_ASSERT(!memcmp(c->buf + at + 8, "cat\0\0\0\0\0", 8));
	peek(c);
	at = c->pos;
	CHECK_EVENT(c, &ev);
	CHECK_EVENT(c, &ev);
	expect_end(c);
	/* the timestamp after the event header, most significant byte first */
	CU_ASSERT(!memcmp(c->buf + at + 8, ts_bytes, 8));
	cap_free(c);
}

static CU_TestInfo magic_tests[] = {
	{ "magic record is 0x0016547846040010, bytes 10 00 04 46 78 54 16 00",
	  test_magic_record_little_endian },
	{ "magic record big-endian is 00 16 54 78 46 04 00 10",
	  test_magic_record_big_endian_bytes_reversed },
	{ "provider info: id [20..51], name length [52..59], padded name",
	  test_provider_info_id_length_padded_name },
	{ "provider info big-endian: words reversed, name bytes in order",
	  test_provider_info_big_endian },
	{ "provider section: type 2, id [20..51]",
	  test_provider_section_header },
	{ "provider event: type 3, event [52..55]; event 16 is -EINVAL",
	  test_provider_event_header },
	{ "initialization record: header then ticks per second word",
	  test_init_record_ticks_word },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo table_tests[] = {
	{ "intern writes nothing; same text same id, len bytes only",
	  test_intern_writes_nothing_and_is_stable },
	{ "string record on first interned use: index 1, length, zero pad",
	  test_string_record_on_first_interned_use },
	{ "thread record: index [16..23], pid, tid; third use is indexed",
	  test_thread_record_and_indexed_thread_ref },
	{ "instant event: indexed category, name and thread ref",
	  test_instant_event_indexed_strings_and_thread },
	{ "event with inline strings and inline thread words",
	  test_event_inline_strings_and_inline_thread },
	{ "plain string: inline on first use, string record and index after",
	  test_plain_string_inline_once_indexed_after },
	{ "FXT_WRITER_INLINE_STRINGS keeps plain strings inline",
	  test_inline_strings_flag_keeps_plain_strings_inline },
	{ "empty strings are string ref 0 with no stream",
	  test_empty_strings_are_ref_zero },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo arg_tests[] = {
	{ "null argument: header and name only", test_arg_null_header },
	{ "int32 argument: value in [32..63] (INT32_MIN, -1, INT32_MAX)",
	  test_arg_int32_value_in_bits_32_to_63 },
	{ "uint32 argument: value in [32..63]",
	  test_arg_uint32_value_in_bits_32_to_63 },
	{ "int64/uint64/double/pointer/koid: value word, -0.0 and NaN bits",
	  test_arg_64bit_types_have_value_word },
	{ "string argument: value ref in [32..47], name then value stream",
	  test_arg_string_value_ref_in_bits_32_to_47 },
	{ "string argument with indexed name and value",
	  test_arg_string_indexed_value_and_name },
	{ "bool argument: value in bit 32", test_arg_bool_in_bit_32 },
	{ "16 arguments are -EINVAL and write nothing; 15 are written",
	  test_sixteen_args_rejected_fifteen_accepted },
	{ "record over 4095 words is -E2BIG and writes nothing",
	  test_oversized_record_is_e2big_and_writes_nothing },
	{ "objects, sched switch, large blob with 16 args write nothing",
	  test_rejected_records_leave_no_table_records },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo event_tests[] = {
	{ "counter event: counter id word after the arguments",
	  test_counter_event_id_word },
	{ "instant, duration begin/end: no trailing word",
	  test_duration_begin_end_no_trailing_word },
	{ "duration complete: end time word",
	  test_duration_complete_end_time_word },
	{ "async begin/instant/end: correlation id word",
	  test_async_events_correlation_word },
	{ "flow begin/step/end: correlation id word",
	  test_flow_events_correlation_word },
	{ "event big-endian: words reversed, streams in byte order",
	  test_event_big_endian_words },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo record_tests[] = {
	{ "legacy switch: cpu, state, refs, priorities; cpu 256 -EINVAL",
	  test_legacy_switch_header_fields },
	{ "legacy context switch through the thread table",
	  test_legacy_switch_with_thread_table },
	{ "sched switch: subtype 1 [60..63], cpu [20..35], state [36..39]",
	  test_sched_switch_subtype_1_fields },
	{ "thread wakeup: subtype 2, cpu, nargs [16..19], tid word",
	  test_sched_wakeup_subtype_2_fields },
	{ "log record: length [16..30], thread ref [32..39], message",
	  test_log_record },
	{ "blob record: name, size [32..46], type [48..55], payload",
	  test_blob_record },
	{ "userspace object: process ref, name, nargs, pointer, pid",
	  test_userspace_object_record },
	{ "kernel object: object type, name, nargs, koid, arguments",
	  test_kernel_object_record },
	{ "large blob format 0: size [4..35], type [36..39], format [40..43]",
	  test_large_blob_format_0 },
	{ "large blob format 1 with a size beyond 12 bits",
	  test_large_blob_format_1_beyond_12bit_size },
	{ "raw words written verbatim; size mismatch refused",
	  test_raw_words_written_verbatim },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "fxt bytes: magic and metadata", .pTests = magic_tests },
	{ .pName = "fxt bytes: string and thread tables",
	  .pTests = table_tests },
	{ .pName = "fxt bytes: arguments", .pTests = arg_tests },
	{ .pName = "fxt bytes: event types", .pTests = event_tests },
	{ .pName = "fxt bytes: other records", .pTests = record_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
