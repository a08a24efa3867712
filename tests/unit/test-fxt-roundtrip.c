// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-roundtrip.c - whatever the writer writes, the reader gives back.
 *
 * Every file written here is also read once more in FXT_READER_STRICT
 * mode, which must find nothing to complain about: the writer's output is
 * what `trace-fxt check` will be run on.  The table tests push the writer
 * well past 32767 strings and 255 threads, where slots get reused and a
 * stale index would show up as a wrong name on some event.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

struct mem {
	FILE			*fp;
	char			*buf;
	size_t			len;
	struct fxt_writer	*w;
};

static struct fxt_writer *mem_open(struct mem *m, unsigned int flags)
{
	memset(m, 0, sizeof(*m));
	m->fp = open_memstream(&m->buf, &m->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->fp);
	m->w = fxt_writer_create_fp(m->fp, flags);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->w);
	return m->w;
}

/* A writer with provider 1 "rt" current, as most tests want. */
static struct fxt_writer *mem_start(struct mem *m, unsigned int flags)
{
	struct fxt_writer *w = mem_open(m, flags);

	CU_ASSERT_EQUAL_FATAL(fxt_write_provider_info(w, 1, "rt", 2), 0);
	return w;
}

/* Read @buf to its end in strict mode: the writer must pass `check`. */
static void check_strict(const void *buf, size_t len)
{
	struct fxt_reader *r = fxt_reader_open_mem(buf, len, "strict.fxt",
						   FXT_READER_STRICT);
	struct fxt_record rec;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) == 1)
		;
	if (ret)
		fprintf(stderr, "\n    strict: %s\n", fxt_reader_error(r));
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_PTR_NULL(fxt_reader_error(r));
	fxt_reader_close(r);
}

static void mem_finish(struct mem *m, bool strict)
{
	CU_ASSERT_EQUAL(fxt_writer_close(m->w), 0);
	m->w = NULL;
	CU_ASSERT_EQUAL_FATAL(fclose(m->fp), 0);
	m->fp = NULL;
	if (strict)
		check_strict(m->buf, m->len);
}

static void mem_close(struct mem *m)
{
	mem_finish(m, true);
}

static void mem_free(struct mem *m)
{
	free(m->buf);
	m->buf = NULL;
}

static struct fxt_reader *rd_open(const struct mem *m, unsigned int flags)
{
	struct fxt_reader *r = fxt_reader_open_mem(m->buf, m->len,
						   "roundtrip.fxt", flags);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

/* The next record other than table entries and the magic record. */
static int rd_next(struct fxt_reader *r, struct fxt_record *rec)
{
	int ret;

	while ((ret = fxt_reader_next(r, rec)) == 1) {
		if (rec->type == FXT_REC_STRING || rec->type == FXT_REC_THREAD)
			continue;
		if (rec->type == FXT_REC_METADATA &&
		    rec->meta.type == FXT_META_TRACE_INFO)
			continue;
		break;
	}
	if (ret < 0)
		fprintf(stderr, "\n    reader: %s\n", fxt_reader_error(r));
	return ret;
}

/* Open for reading and step over the provider mem_start() wrote. */
static struct fxt_reader *rd_start(const struct mem *m)
{
	struct fxt_reader *r = rd_open(m, 0);
	struct fxt_record rec;

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_METADATA);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_INFO);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 1);
	return r;
}

static void rd_end(struct fxt_reader *r)
{
	struct fxt_record rec;

	CU_ASSERT_EQUAL(rd_next(r, &rec), 0);
	fxt_reader_close(r);
}

static bool str_is(struct fxt_str s, const void *p, size_t len)
{
	return s.len == len && (!len || !memcmp(s.ptr, p, len));
}

static bool sstr_eq(struct fxt_str got, struct fxt_str want)
{
	return str_is(got, want.ptr, want.len);
}

static struct fxt_str istr(struct fxt_writer *w, const char *s, size_t len)
{
	int64_t id = fxt_writer_intern(w, s, len);
	struct fxt_str str = { .ptr = s, .len = len };

	CU_ASSERT_FATAL(id > 0);
	str.id = id;
	return str;
}

static struct fxt_str cstr(struct fxt_writer *w, const char *s)
{
	return istr(w, s, strlen(s));
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

static void show_str(const char *what, struct fxt_str s)
{
	fprintf(stderr, "%s \"%.*s\"%s (%u bytes)", what,
		(int)(s.len > 40 ? 40 : s.len), s.ptr ? s.ptr : "",
		s.len > 40 ? "..." : "", s.len);
}

static bool arg_eq(const struct fxt_arg *g, const struct fxt_arg *w)
{
	uint64_t gb, wb;

	if (g->type != w->type || !sstr_eq(g->name, w->name))
		goto bad;
	switch (w->type) {
	case FXT_ARG_NULL:
		return true;
	case FXT_ARG_INT32:
		if (g->i32 == w->i32)
			return true;
		break;
	case FXT_ARG_UINT32:
		if (g->u32 == w->u32)
			return true;
		break;
	case FXT_ARG_INT64:
		if (g->i64 == w->i64)
			return true;
		break;
	case FXT_ARG_UINT64:
		if (g->u64 == w->u64)
			return true;
		break;
	case FXT_ARG_DOUBLE:
		/* bit for bit: -0.0 and NaN payloads must survive */
		memcpy(&gb, &g->d, 8);
		memcpy(&wb, &w->d, 8);
		if (gb == wb)
			return true;
		break;
	case FXT_ARG_STRING:
		if (sstr_eq(g->str, w->str))
			return true;
		break;
	case FXT_ARG_POINTER:
		if (g->ptr == w->ptr)
			return true;
		break;
	case FXT_ARG_KOID:
		if (g->koid == w->koid)
			return true;
		break;
	case FXT_ARG_BOOL:
		if (g->b == w->b)
			return true;
		break;
	}
bad:
	fprintf(stderr, "\n    argument: type %u want %u, ", g->type, w->type);
	show_str("name", g->name);
	show_str(" want", w->name);
	fprintf(stderr, ", value %#" PRIx64 " want %#" PRIx64 "\n",
		g->u64, w->u64);
	return false;
}

static bool args_eq(const struct fxt_arg *g, unsigned int gn,
		    const struct fxt_arg *w, unsigned int wn)
{
	unsigned int i;

	if (gn != wn) {
		fprintf(stderr, "\n    %u arguments, want %u\n", gn, wn);
		return false;
	}
	for (i = 0; i < wn; i++)
		if (!arg_eq(&g[i], &w[i]))
			return false;
	return true;
}

static bool has_id_word(unsigned int type)
{
	return type == FXT_EVENT_COUNTER ||
	       (type >= FXT_EVENT_ASYNC_BEGIN && type <= FXT_EVENT_FLOW_END);
}

static bool event_eq(const struct fxt_record *rec, const struct fxt_event *w)
{
	const struct fxt_event *g = &rec->event;

	if (rec->type != FXT_REC_EVENT) {
		fprintf(stderr, "\n    record type %u, want an event\n",
			rec->type);
		return false;
	}
	if (g->type != w->type || g->ts != w->ts ||
	    g->thread.pid != w->thread.pid || g->thread.tid != w->thread.tid ||
	    !sstr_eq(g->category, w->category) || !sstr_eq(g->name, w->name) ||
	    (has_id_word(w->type) && g->id != w->id) ||
	    (w->type == FXT_EVENT_DURATION_COMPLETE &&
	     g->end_ts != w->end_ts)) {
		fprintf(stderr, "\n    event at %#" PRIx64 ": type %u/%u ts %"
			PRIu64 "/%" PRIu64 " thread %" PRIu64 ".%" PRIu64
			"/%" PRIu64 ".%" PRIu64 " id %#" PRIx64 "/%#" PRIx64
			" ", rec->offset, g->type, w->type, g->ts, w->ts,
			g->thread.pid, g->thread.tid, w->thread.pid,
			w->thread.tid, g->id, w->id);
		show_str("category", g->category);
		show_str("/", w->category);
		show_str(" name", g->name);
		show_str("/", w->name);
		fputc('\n', stderr);
		return false;
	}
	return args_eq(g->args, g->nargs, w->args, w->nargs);
}

static bool next_event_is(struct fxt_reader *r, const struct fxt_event *ev)
{
	struct fxt_record rec;

	if (rd_next(r, &rec) != 1)
		return false;
	return event_eq(&rec, ev);
}

#define CHECK_NEXT_EVENT(r, ev)	CU_ASSERT(next_event_is(r, ev))

static uint8_t *pattern(size_t n, unsigned int seed)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (i = 0; i < n; i++)
		p[i] = (i * 2654435761U + seed) >> 13;
	return p;
}

static char *text(size_t n, unsigned int seed)
{
	char *p = malloc(n + 1);
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (i = 0; i < n; i++)
		p[i] = 'a' + (i * 7 + seed + i / 26) % 26;
	p[n] = '\0';
	return p;
}

/* ---- metadata ------------------------------------------------------- */

static void test_magic_providers_init_read_back(void)
{
	struct mem m;
	struct fxt_writer *w = mem_open(&m, 0);
	struct fxt_reader *r;
	struct fxt_record rec;
	const char *pn;

	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 0xfedcba98, "prov-a", 6), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_event(w, 0xfedcba98,
				FXT_PROVIDER_EVENT_BUFFER_FULL), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 12345), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 5, "prov-b", 6), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 1000), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_section(w, 0xfedcba98), 0);
	mem_close(&m);

	r = rd_open(&m, 0);
	CU_ASSERT_FALSE(fxt_reader_big_endian(r));
	/* the magic record is delivered first */
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_METADATA);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_TRACE_INFO);
	CU_ASSERT_EQUAL(rec.meta.info_type, FXT_TRACE_INFO_MAGIC);
	CU_ASSERT_EQUAL(rec.meta.magic, 0x16547846);
	CU_ASSERT_EQUAL(rec.offset, 0);
	CU_ASSERT_EQUAL(rec.size, 8);
	CU_ASSERT_EQUAL(rec.provider_id, 0);

	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_INFO);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 0xfedcba98);
	CU_ASSERT(str_is(rec.meta.name, "prov-a", 6));
	CU_ASSERT_EQUAL(rec.provider_id, 0xfedcba98);
	CU_ASSERT_EQUAL(rec.offset, 8);
	CU_ASSERT_EQUAL(rec.size, 16);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000000000);

	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_EVENT);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 0xfedcba98);
	CU_ASSERT_EQUAL(rec.meta.event, FXT_PROVIDER_EVENT_BUFFER_FULL);

	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 12345);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 12345);

	/* a new provider starts from the 1 tick = 1 ns default */
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_INFO);
	CU_ASSERT_EQUAL(rec.provider_id, 5);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000000000);
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 1000);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 1000);

	/* and switching back restores the first provider's */
	CU_ASSERT_EQUAL_FATAL(fxt_reader_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_SECTION);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 0xfedcba98);
	CU_ASSERT_EQUAL(rec.provider_id, 0xfedcba98);
	CU_ASSERT_EQUAL(fxt_reader_ticks_per_second(r), 12345);

	pn = fxt_reader_provider_name(r, 5);
	CU_ASSERT(pn && !strcmp(pn, "prov-b"));
	pn = fxt_reader_provider_name(r, 0xfedcba98);
	CU_ASSERT(pn && !strcmp(pn, "prov-a"));
	CU_ASSERT_PTR_NULL(fxt_reader_provider_name(r, 77));
	CU_ASSERT_EQUAL(fxt_reader_next(r, &rec), 0);
	CU_ASSERT_EQUAL(fxt_reader_offset(r), m.len);
	fxt_reader_close(r);
	mem_free(&m);
}

static void test_provider_name_limits(void)
{
	struct mem m;
	struct fxt_writer *w = mem_open(&m, 0);
	char *name = text(256, 3);
	struct fxt_reader *r;
	struct fxt_record rec;

	/* the name length field is 8 bits */
	CU_ASSERT(fxt_write_provider_info(w, 1, name, 256) < 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 2, name, 255), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 3, "", 0), 0);
	mem_close(&m);
	r = rd_open(&m, 0);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 2);
	CU_ASSERT(str_is(rec.meta.name, name, 255));
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.meta.provider_id, 3);
	CU_ASSERT_EQUAL(rec.meta.name.len, 0);
	rd_end(r);
	free(name);
	mem_free(&m);
}

/* ---- events and arguments ------------------------------------------ */

static void test_every_event_type(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_event ev[FXT_EVENT_TYPE_COUNT];
	struct fxt_arg a[2] = {
		{ .type = FXT_ARG_INT32, .name = FXT_ARG_STR_NAME("value"),
		  .i32 = -42 },
		{ .type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME("s"),
		  .str = FXT_ARG_STR_NAME("text") },
	};
	static const char *const names[] = {
		"instant", "counter", "dbegin", "dend", "complete", "abegin",
		"ainstant", "aend", "fbegin", "fstep", "fend",
	};
	struct fxt_reader *r;
	unsigned int t;

	for (t = 0; t < FXT_EVENT_TYPE_COUNT; t++) {
		ev[t] = (struct fxt_event){
			.type = t, .ts = 1000 + t * 10,
			.thread = { 10, 20 + t % 3 },
			.category = cstr(w, "cat"),
			.name = cstr(w, names[t]),
			.id = 0x1000000000ULL + t, .end_ts = 5000 + t,
			.nargs = t % 3, .args = a,
		};
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev[t]), 0);
	}
	mem_close(&m);
	r = rd_start(&m);
	for (t = 0; t < FXT_EVENT_TYPE_COUNT; t++)
		CHECK_NEXT_EVENT(r, &ev[t]);
	rd_end(r);
	mem_free(&m);
}

#define NSETS	2

/* Two sets of 15 arguments covering every type at its boundaries. */
static void boundary_args(struct fxt_writer *w, struct fxt_arg set[NSETS][15])
{
	uint64_t nan_bits = 0x7ff8deadbeef0001ULL;
	uint64_t snan_bits = 0xfff0000000000001ULL;
	struct fxt_arg s0[15] = {
		{ .type = FXT_ARG_NULL, .name = inl("null") },
		{ .type = FXT_ARG_INT32, .name = dyn("i32min"),
		  .i32 = INT32_MIN },
		{ .type = FXT_ARG_INT32, .name = dyn("i32max"),
		  .i32 = INT32_MAX },
		{ .type = FXT_ARG_INT32, .name = cstr(w, "i32zero") },
		{ .type = FXT_ARG_UINT32, .name = cstr(w, "u32max"),
		  .u32 = UINT32_MAX },
		{ .type = FXT_ARG_UINT32, .name = inl("u32zero") },
		{ .type = FXT_ARG_INT64, .name = dyn("i64min"),
		  .i64 = INT64_MIN },
		{ .type = FXT_ARG_INT64, .name = dyn("i64max"),
		  .i64 = INT64_MAX },
		/* a 64-bit type with a value that would fit 32 bits stays
		 * 64-bit: the caller chose the type */
		{ .type = FXT_ARG_INT64, .name = dyn("i64small"), .i64 = -1 },
		{ .type = FXT_ARG_UINT64, .name = dyn("u64max"),
		  .u64 = UINT64_MAX },
		{ .type = FXT_ARG_UINT64, .name = dyn("u64small"), .u64 = 7 },
		{ .type = FXT_ARG_DOUBLE, .name = dyn("negzero"), .d = -0.0 },
		{ .type = FXT_ARG_DOUBLE, .name = dyn("nan") },
		{ .type = FXT_ARG_DOUBLE, .name = dyn("snan") },
		{ .type = FXT_ARG_DOUBLE, .name = dyn("inf"), .d = -INFINITY },
	};
	struct fxt_arg s1[15] = {
		{ .type = FXT_ARG_DOUBLE, .name = dyn("denorm"),
		  .d = 4.9406564584124654e-324 },
		{ .type = FXT_ARG_DOUBLE, .name = dyn("dmax"), .d = DBL_MAX },
		{ .type = FXT_ARG_STRING, .name = dyn("sempty"),
		  .str = { "", 0, 0 } },
		{ .type = FXT_ARG_STRING, .name = dyn("sone"),
		  .str = { "x", 1, 0 } },
		{ .type = FXT_ARG_STRING, .name = dyn("sinl"),
		  .str = { "inline value", 12, FXT_STR_INLINE } },
		{ .type = FXT_ARG_STRING, .name = dyn("sidx"),
		  .str = cstr(w, "interned value") },
		{ .type = FXT_ARG_POINTER, .name = dyn("p0") },
		{ .type = FXT_ARG_POINTER, .name = dyn("pmax"),
		  .ptr = UINT64_MAX },
		{ .type = FXT_ARG_KOID, .name = dyn("k0") },
		{ .type = FXT_ARG_KOID, .name = dyn("kmax"),
		  .koid = UINT64_MAX },
		{ .type = FXT_ARG_BOOL, .name = dyn("true"), .b = true },
		{ .type = FXT_ARG_BOOL, .name = dyn("false"), .b = false },
		/* a nameless argument: name ref 0 */
		{ .type = FXT_ARG_INT32, .name = { "", 0, 0 }, .i32 = 7 },
		{ .type = FXT_ARG_UINT32, .name = dyn("u32mid"),
		  .u32 = 0x80000000U },
		{ .type = FXT_ARG_NULL, .name = cstr(w, "null2") },
	};

	memcpy(&s0[12].d, &nan_bits, 8);
	memcpy(&s0[13].d, &snan_bits, 8);
	memcpy(set[0], s0, sizeof(s0));
	memcpy(set[1], s1, sizeof(s1));
}

static void test_every_arg_type_boundary_values(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_arg set[NSETS][15];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT, .thread = { 1, 2 },
		.nargs = 15,
	};
	struct fxt_reader *r;
	unsigned int s, rep;

	boundary_args(w, set);
	ev.category = cstr(w, "args");
	ev.name = dyn("boundary");
	/* each set three times: plain strings go inline then indexed */
	for (rep = 0; rep < 3; rep++) {
		for (s = 0; s < NSETS; s++) {
			ev.ts = rep * 10 + s;
			ev.args = set[s];
			CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		}
	}
	mem_close(&m);
	r = rd_start(&m);
	for (rep = 0; rep < 3; rep++) {
		for (s = 0; s < NSETS; s++) {
			ev.ts = rep * 10 + s;
			ev.args = set[s];
			CHECK_NEXT_EVENT(r, &ev);
		}
	}
	rd_end(r);
	mem_free(&m);
}

/* Arguments on every record type that carries them, not just events. */
static void test_args_on_objects_sched_and_large_blobs(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_arg set[NSETS][15];
	struct fxt_sched_switch cs = {
		.ts = 1, .cpu = 3, .out_state = FXT_THREAD_BLOCKED,
		.out_tid = 10, .in_tid = 11, .nargs = 15,
	};
	struct fxt_sched_wakeup wk = { .ts = 2, .cpu = 4, .tid = 12,
				       .nargs = 15 };
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA, .ts = 3,
		.thread = { 7, 8 }, .nargs = 15,
		.data = "payload", .size = 7,
	};
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int s;

	boundary_args(w, set);
	lb.category = dyn("lcat");
	lb.name = dyn("lname");
	for (s = 0; s < NSETS; s++) {
		CU_ASSERT_EQUAL(fxt_write_userspace_object(w, 0x1000 + s, 99,
					dyn("uobj"), set[s], 15), 0);
		CU_ASSERT_EQUAL(fxt_write_kernel_object(w, 0x2000 + s,
					FXT_OBJ_THREAD, dyn("kobj"),
					set[s], 15), 0);
		cs.args = set[s];
		CU_ASSERT_EQUAL(fxt_write_sched_switch(w, &cs), 0);
		wk.args = set[s];
		CU_ASSERT_EQUAL(fxt_write_sched_wakeup(w, &wk), 0);
		lb.args = set[s];
		CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb), 0);
	}
	mem_close(&m);
	r = rd_start(&m);
	for (s = 0; s < NSETS; s++) {
		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_USERSPACE_OBJ);
		CU_ASSERT_EQUAL(rec.uobj.pointer, 0x1000 + s);
		CU_ASSERT_EQUAL(rec.uobj.pid, 99);
		CU_ASSERT(str_is(rec.uobj.name, "uobj", 4));
		CU_ASSERT(args_eq(rec.uobj.args, rec.uobj.nargs, set[s], 15));

		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_KERNEL_OBJ);
		CU_ASSERT_EQUAL(rec.kobj.koid, 0x2000 + s);
		CU_ASSERT_EQUAL(rec.kobj.obj_type, FXT_OBJ_THREAD);
		CU_ASSERT(str_is(rec.kobj.name, "kobj", 4));
		CU_ASSERT(args_eq(rec.kobj.args, rec.kobj.nargs, set[s], 15));

		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_SCHED);
		CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_SWITCH);
		CU_ASSERT(args_eq(rec.sched.args, rec.sched.nargs, set[s], 15));

		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_WAKEUP);
		CU_ASSERT(args_eq(rec.sched.args, rec.sched.nargs, set[s], 15));

		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
		CU_ASSERT_EQUAL(rec.large.format, FXT_LARGE_BLOB_METADATA);
		CU_ASSERT(args_eq(rec.large.args, rec.large.nargs, set[s], 15));
		CU_ASSERT_EQUAL(rec.large.size, 7);
	}
	rd_end(r);
	mem_free(&m);
}

static void test_empty_and_32000_byte_strings(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	char *t1 = text(FXT_MAX_STRING_LEN, 1);
	char *t2 = text(FXT_MAX_STRING_LEN, 2);
	char *t3 = text(FXT_MAX_STRING_LEN, 3);
	char *t4 = text(FXT_MAX_STRING_LEN, 4);
	struct fxt_arg a;
	struct fxt_event ev[7];
	struct fxt_thread th = { 5, 6 };
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i;

	/* empty category and name, three ways */
	ev[0] = (struct fxt_event){ .type = FXT_EVENT_INSTANT, .ts = 1,
		.thread = th, .category = dyn(""), .name = inl("") };
	/* a 32000-byte plain name: inline once, then from the table */
	ev[1] = (struct fxt_event){ .type = FXT_EVENT_INSTANT, .ts = 2,
		.thread = th, .category = dyn("c"),
		.name = fxt_str_make(t1, FXT_MAX_STRING_LEN) };
	ev[2] = ev[1];
	ev[2].ts = 3;
	/* two interned 32000-byte strings in one record, by index */
	ev[3] = (struct fxt_event){ .type = FXT_EVENT_COUNTER, .ts = 4,
		.thread = th, .id = 9,
		.category = istr(w, t2, FXT_MAX_STRING_LEN),
		.name = istr(w, t3, FXT_MAX_STRING_LEN) };
	/* a 32000-byte inline argument value */
	a = (struct fxt_arg){ .type = FXT_ARG_STRING, .name = dyn("big"),
		.str = { t4, FXT_MAX_STRING_LEN, FXT_STR_INLINE } };
	ev[4] = (struct fxt_event){ .type = FXT_EVENT_INSTANT, .ts = 5,
		.thread = th, .category = dyn("c"), .name = dyn("n"),
		.nargs = 1, .args = &a };
	for (i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev[i]), 0);
	CU_ASSERT_EQUAL(fxt_write_log(w, 6, &th, t1, FXT_MAX_STRING_LEN), 0);
	CU_ASSERT_EQUAL(fxt_write_log(w, 7, &th, "", 0), 0);
	CU_ASSERT_EQUAL(fxt_write_kernel_object(w, 1, FXT_OBJ_PROCESS,
				fxt_str_make(t2, FXT_MAX_STRING_LEN),
				NULL, 0), 0);
	mem_close(&m);

	r = rd_start(&m);
	for (i = 0; i < 5; i++)
		CHECK_NEXT_EVENT(r, &ev[i]);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LOG);
	CU_ASSERT(str_is(rec.log.msg, t1, FXT_MAX_STRING_LEN));
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LOG);
	CU_ASSERT_EQUAL(rec.log.ts, 7);
	CU_ASSERT_EQUAL(rec.log.msg.len, 0);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_KERNEL_OBJ);
	CU_ASSERT(str_is(rec.kobj.name, t2, FXT_MAX_STRING_LEN));
	rd_end(r);
	free(t1);
	free(t2);
	free(t3);
	free(t4);
	mem_free(&m);
}

static void test_records_of_every_type(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_arg ka = { .type = FXT_ARG_KOID, .name = dyn("process"),
			      .koid = 0x99 };
	struct fxt_arg wa = { .type = FXT_ARG_INT32,
			      .name = dyn("incoming_weight"),
			      .i32 = INT32_MIN };
	struct fxt_legacy_switch ls = {
		.ts = 100, .cpu = 255, .out_state = FXT_THREAD_DEAD,
		.out = { 1, 2 }, .in = { 0, 0 },
		.out_prio = 255, .in_prio = 0,
	};
	/* the highest CPU Perfetto takes: check faults past it */
	struct fxt_sched_switch ss = {
		.ts = 101, .cpu = 4095, .out_state = FXT_THREAD_SUSPENDED,
		.out_tid = UINT64_MAX, .in_tid = 0, .nargs = 1, .args = &wa,
	};
	struct fxt_sched_wakeup wk = { .ts = 102, .cpu = 256, .tid = 77 };
	struct fxt_thread th = { 0x1234, 0x5678 };
	uint8_t *blob = pattern(1000, 1), *large = pattern(70000, 2);
	struct fxt_large_blob lb0 = {
		.format = FXT_LARGE_BLOB_METADATA,
		.category = dyn("lcat"), .name = inl("lname"),
		.ts = 104, .thread = th, .data = large, .size = 70000,
	};
	struct fxt_large_blob lb1 = {
		.format = FXT_LARGE_BLOB_NO_META,
		.category = dyn(""), .name = dyn("only-name"),
		.data = large, .size = 0,
	};
	struct fxt_reader *r;
	struct fxt_record rec;

	CU_ASSERT_EQUAL(fxt_write_init(w, 1000000), 0);
	CU_ASSERT_EQUAL(fxt_write_userspace_object(w, UINT64_MAX, 0x4321,
						   dyn("obj"), NULL, 0), 0);
	CU_ASSERT_EQUAL(fxt_write_kernel_object(w, 0x99, FXT_OBJ_PROCESS,
						dyn("proc"), NULL, 0), 0);
	CU_ASSERT_EQUAL(fxt_write_kernel_object(w, 0x100, FXT_OBJ_THREAD,
						dyn("thr"), &ka, 1), 0);
	CU_ASSERT_EQUAL(fxt_write_legacy_switch(w, &ls), 0);
	CU_ASSERT_EQUAL(fxt_write_sched_switch(w, &ss), 0);
	CU_ASSERT_EQUAL(fxt_write_sched_wakeup(w, &wk), 0);
	CU_ASSERT_EQUAL(fxt_write_log(w, 103, &th, "a log line", 10), 0);
	CU_ASSERT_EQUAL(fxt_write_blob(w, dyn("blob"), FXT_BLOB_LAST_BRANCH,
				       blob, 1000), 0);
	CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb0), 0);
	CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb1), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_event(w, 1, 0), 0);
	mem_close(&m);

	r = rd_start(&m);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 1000000);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_USERSPACE_OBJ);
	CU_ASSERT_EQUAL(rec.uobj.pointer, UINT64_MAX);
	CU_ASSERT_EQUAL(rec.uobj.pid, 0x4321);
	CU_ASSERT(str_is(rec.uobj.name, "obj", 3));
	CU_ASSERT_EQUAL(rec.uobj.nargs, 0);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_KERNEL_OBJ);
	CU_ASSERT_EQUAL(rec.kobj.koid, 0x99);
	CU_ASSERT_EQUAL(rec.kobj.obj_type, FXT_OBJ_PROCESS);
	CU_ASSERT(str_is(rec.kobj.name, "proc", 4));
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.kobj.koid, 0x100);
	CU_ASSERT_EQUAL(rec.kobj.obj_type, FXT_OBJ_THREAD);
	CU_ASSERT(args_eq(rec.kobj.args, rec.kobj.nargs, &ka, 1));

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_SCHED);
	CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_LEGACY_SWITCH);
	CU_ASSERT_EQUAL(rec.sched.ts, 100);
	CU_ASSERT_EQUAL(rec.sched.cpu, 255);
	CU_ASSERT_EQUAL(rec.sched.out_state, FXT_THREAD_DEAD);
	CU_ASSERT_EQUAL(rec.sched.out.pid, 1);
	CU_ASSERT_EQUAL(rec.sched.out.tid, 2);
	CU_ASSERT_EQUAL(rec.sched.in.pid, 0);
	CU_ASSERT_EQUAL(rec.sched.in.tid, 0);
	CU_ASSERT_EQUAL(rec.sched.out_prio, 255);
	CU_ASSERT_EQUAL(rec.sched.in_prio, 0);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_SWITCH);
	CU_ASSERT_EQUAL(rec.sched.ts, 101);
	CU_ASSERT_EQUAL(rec.sched.cpu, 4095);
	CU_ASSERT_EQUAL(rec.sched.out_state, FXT_THREAD_SUSPENDED);
	CU_ASSERT_EQUAL(rec.sched.out.tid, UINT64_MAX);
	CU_ASSERT_EQUAL(rec.sched.in.tid, 0);
	CU_ASSERT(args_eq(rec.sched.args, rec.sched.nargs, &wa, 1));

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_WAKEUP);
	CU_ASSERT_EQUAL(rec.sched.ts, 102);
	CU_ASSERT_EQUAL(rec.sched.cpu, 256);
	CU_ASSERT_EQUAL(rec.sched.in.tid, 77);
	CU_ASSERT_EQUAL(rec.sched.nargs, 0);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LOG);
	CU_ASSERT_EQUAL(rec.log.ts, 103);
	CU_ASSERT_EQUAL(rec.log.thread.pid, 0x1234);
	CU_ASSERT_EQUAL(rec.log.thread.tid, 0x5678);
	CU_ASSERT(str_is(rec.log.msg, "a log line", 10));

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_BLOB);
	CU_ASSERT(str_is(rec.blob.name, "blob", 4));
	CU_ASSERT_EQUAL(rec.blob.type, FXT_BLOB_LAST_BRANCH);
	CU_ASSERT_EQUAL(rec.blob.size, 1000);
	CU_ASSERT(!memcmp(rec.blob.data, blob, 1000));

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
	CU_ASSERT_EQUAL(rec.large.large_type, FXT_LARGE_BLOB);
	CU_ASSERT_EQUAL(rec.large.format, FXT_LARGE_BLOB_METADATA);
	CU_ASSERT(str_is(rec.large.category, "lcat", 4));
	CU_ASSERT(str_is(rec.large.name, "lname", 5));
	CU_ASSERT_EQUAL(rec.large.ts, 104);
	CU_ASSERT_EQUAL(rec.large.thread.pid, 0x1234);
	CU_ASSERT_EQUAL(rec.large.thread.tid, 0x5678);
	CU_ASSERT_EQUAL(rec.large.nargs, 0);
	CU_ASSERT_EQUAL_FATAL(rec.large.size, 70000);
	CU_ASSERT(!memcmp(rec.large.data, large, 70000));
	CU_ASSERT(rec.size > 70000 && rec.size % 8 == 0);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
	CU_ASSERT_EQUAL(rec.large.format, FXT_LARGE_BLOB_NO_META);
	CU_ASSERT_EQUAL(rec.large.category.len, 0);
	CU_ASSERT(str_is(rec.large.name, "only-name", 9));
	CU_ASSERT_EQUAL(rec.large.size, 0);

	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_METADATA);
	CU_ASSERT_EQUAL(rec.meta.type, FXT_META_PROVIDER_EVENT);
	rd_end(r);
	free(blob);
	free(large);
	mem_free(&m);
}

static void test_raw_unknown_record_delivered(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	const uint64_t raw[3] = {
		10 | 3 << 4 | 0xabcULL << 16, 0x0102030405060708ULL, 42
	};
	/* the 16-bit CPU field whole (check warns: Perfetto stops on it) */
	struct fxt_sched_switch ss = { .ts = 7, .cpu = 65535, .in_tid = 3 };
	struct fxt_reader *r;
	struct fxt_record rec;

	CU_ASSERT_EQUAL(fxt_write_raw(w, raw, 3), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 5), 0);
	CU_ASSERT_EQUAL(fxt_write_sched_switch(w, &ss), 0);
	/* an unknown record type: not for strict mode */
	mem_finish(&m, false);
	r = rd_start(&m);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, 10);
	CU_ASSERT_EQUAL(rec.size, 24);
	CU_ASSERT_EQUAL(rec.offset, 24);
	CU_ASSERT(!memcmp(rec.raw, raw, 24));
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
	CU_ASSERT_EQUAL(rec.init.ticks_per_second, 5);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.sched.subtype, FXT_SCHED_SWITCH);
	CU_ASSERT_EQUAL(rec.sched.cpu, 65535);
	CU_ASSERT_EQUAL(rec.sched.in.tid, 3);
	rd_end(r);
	mem_free(&m);
}

/*
 * Tracy's importer as it reads names (import-fuchsia.cpp, main()'s loop
 * and readString()): one buffer takes each string record's text, resized
 * to the length plus one, whose last byte stays what it was; an event's
 * or a kernel object's name replaces it (a ref: the table's copy, one
 * byte past the text included; inline: the text and a NUL).  A thread
 * object names its thread when an argument's name reads "process" up to
 * its first NUL.
 */
struct tracy_model {
	char		buf[256];
	size_t		n;
	/* the string table, each with the byte past its text */
	char		*tab[FXT_MAX_STRING_INDEX + 1];
	size_t		tab_n[FXT_MAX_STRING_INDEX + 1];
	unsigned int	strings, resets, stray, threads, named;
};

/* The name a string ref stands for, in Tracy's buffer. */
static void tracy_name(struct tracy_model *t, const uint64_t *w,
		       unsigned int *i, uint32_t ref)
{
	if (!ref) {
		t->n = 0;
	} else if (ref & 0x8000) {
		t->n = (ref & 0x7fff) + 1;
		memcpy(t->buf, &w[*i], t->n - 1);
		t->buf[t->n - 1] = '\0';
		*i += ((ref & 0x7fff) + 7) / 8;
	} else if (t->tab[ref]) {
		t->n = t->tab_n[ref];
		memcpy(t->buf, t->tab[ref], t->n);
	}
}

static void tracy_read(struct tracy_model *t, const struct fxt_record *rec)
{
	const uint64_t *w = rec->raw;
	uint64_t h = w[0];
	unsigned int i, k;

	switch (rec->type) {
	case FXT_REC_STRING: {
		uint32_t idx = h >> 16 & 0x7fff, len = h >> 32 & 0x7fff;

		if (len + 1 > t->n)
			memset(t->buf + t->n, 0, len + 1 - t->n);
		t->n = len + 1;
		memcpy(t->buf, &w[1], len);
		if (!idx) {
			t->resets++;
			break;
		}
		t->strings++;
		t->stray += t->buf[len] != '\0';
		free(t->tab[idx]);
		/* a std::string: a NUL past its size */
		t->tab[idx] = calloc(1, t->n + 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->tab[idx]);
		memcpy(t->tab[idx], t->buf, t->n);
		t->tab_n[idx] = t->n;
		break;
	}
	case FXT_REC_EVENT:
		/* inline threads and categories are what this test avoids */
		CU_ASSERT(h >> 24 & 0xff);
		CU_ASSERT(!(h >> 32 & 0x8000));
		i = 2;
		tracy_name(t, w, &i, h >> 48 & 0xffff);
		break;
	case FXT_REC_KERNEL_OBJ:
		i = 2;
		tracy_name(t, w, &i, h >> 24 & 0xffff);
		if (rec->kobj.obj_type != FXT_OBJ_THREAD)
			break;
		t->threads++;
		for (k = 0; k < rec->kobj.nargs; k++) {
			uint32_t ref = w[i] >> 16 & 0xffff;
			bool is;

			if (ref & 0x8000)
				is = (ref & 0x7fff) == 7 &&
				     !memcmp(&w[i + 1], "process", 7);
			else
				is = ref && t->tab[ref] &&
				     !strcmp(t->tab[ref], "process");
			if (is) {
				t->named++;
				break;
			}
			i += w[i] >> 4 & 0xfff;
		}
		break;
	}
}

/*
 * Names of every length, by id and by text, in events and thread
 * objects, in an order that makes short strings follow long names: in
 * Tracy's importer each string record reads whole, and each thread
 * object names its thread.  Readers skip the index-0 records that buy
 * it (rd_next() steps over string records: the events read as written).
 */
static void test_tracy_reads_names_whole(void)
{
	static const char *const names[] = {
		"sched_wakeup_new", "cpu", "comm", "sched_switch", "a",
		"prev_state", "x1", "sched_waking", "pid", "target_cpu",
		"worker-0", "kworker/u8:1-events_unbound", "z",
	};
	const unsigned int nn = sizeof(names) / sizeof(names[0]);
	struct tracy_model *t = calloc(1, sizeof(*t));
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT };
	struct fxt_arg a[2];
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i, k, events = 0;
	uint64_t seed = 42;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	/*
	 * First a long name, a short one, the long one again (all its
	 * strings at an index: the one-pass path), then a string shorter
	 * than it and longer than the short one.
	 */
	ev.thread.pid = 7;
	ev.thread.tid = 100;
	ev.category = fxt_writer_str(w, "c");
	for (i = 0; i < 4; i++) {
		static const char *const seq[] = {
			"sched_wakeup_new", "x", "sched_wakeup_new", "cpu",
		};

		ev.name = fxt_writer_str(w, seq[i]);
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		events++;
	}
	/* providers restate the strings they use: more string records */
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 2, "two", 3), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 3, "three", 5), 0);
	for (i = 0; i < 2000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		k = (unsigned int)(seed >> 33);
		if (k % 19 == 0)
			CU_ASSERT_EQUAL(fxt_write_provider_section(w,
							1 + k % 3), 0);
		if (k % 7 == 0) {
			/* a thread object: name by text, process by id */
			a[0].type = FXT_ARG_KOID;
			a[0].name = fxt_writer_str(w, FXT_ARG_NAME_PROCESS);
			a[0].koid = 7;
			CU_ASSERT_EQUAL(fxt_write_kernel_object(w, 100 + k % 5,
					FXT_OBJ_THREAD,
					dyn(names[k / 7 % nn]), a, 1), 0);
			continue;
		}
		ev.ts = i;
		ev.thread.pid = 7;
		ev.thread.tid = 100 + k % 5;
		ev.category = fxt_writer_str(w, names[k / 3 % nn]);
		ev.name = k % 2 ? fxt_writer_str(w, names[k / 5 % nn]) :
				  dyn(names[k / 5 % nn]);
		a[0].type = FXT_ARG_UINT32;
		a[0].name = fxt_writer_str(w, names[k / 11 % nn]);
		a[0].u32 = k;
		a[1].type = FXT_ARG_STRING;
		a[1].name = fxt_writer_str(w, names[k / 13 % nn]);
		a[1].str = dyn(names[k / 17 % nn]);
		ev.args = a;
		ev.nargs = 2;
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		events++;
	}
	mem_close(&m);

	r = rd_open(&m, FXT_READER_STRICT);
	while (fxt_reader_next(r, &rec) == 1)
		tracy_read(t, &rec);
	fxt_reader_close(r);
	printf("\n    Tracy's model: %u string records, %u after an index-0 "
	       "reset, %u with a stray byte; %u of %u thread objects name "
	       "their thread ", t->strings, t->resets, t->stray, t->named,
	       t->threads);
	CU_ASSERT(t->strings >= nn);
	CU_ASSERT(t->resets > 0);
	CU_ASSERT_EQUAL(t->stray, 0);
	CU_ASSERT(t->threads > 0);
	CU_ASSERT_EQUAL(t->named, t->threads);

	/* every other reader sees the events as written */
	r = rd_open(&m, 0);
	for (i = k = 0; rd_next(r, &rec) == 1; ) {
		i += rec.type == FXT_REC_EVENT;
		k += rec.type == FXT_REC_KERNEL_OBJ;
	}
	CU_ASSERT_EQUAL(i, events);
	CU_ASSERT_EQUAL(k, t->threads);
	fxt_reader_close(r);
	for (i = 0; i <= FXT_MAX_STRING_INDEX; i++)
		free(t->tab[i]);
	free(t);
	mem_free(&m);
}

/* ---- providers and tables ------------------------------------------ */

static void test_providers_keep_separate_tables(void)
{
	struct mem m;
	struct fxt_writer *w = mem_open(&m, 0);
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT };
	static const uint32_t prov[] = { 10, 20, 10, 30, 20, 10 };
	static const char *const only[] = { "only-a", "only-b", "only-c" };
	struct fxt_str shared = cstr(w, "shared");
	const char *pn;
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i, k, started = 0;

	for (i = 0; i < 6; i++) {
		unsigned int p = prov[i] / 10 - 1;

		if (started & 1 << p) {
			CU_ASSERT_EQUAL(fxt_write_provider_section(w, prov[i]),
					0);
		} else {
			CU_ASSERT_EQUAL(fxt_write_provider_info(w, prov[i],
						only[p], 6), 0);
			started |= 1 << p;
		}
		for (k = 0; k < 4; k++) {
			ev.ts = i * 10 + k;
			ev.thread = (struct fxt_thread){ prov[i], k % 2 };
			ev.category = shared;
			ev.name = k % 2 ? cstr(w, only[p]) : dyn(only[p]);
			CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		}
	}
	mem_close(&m);

	r = rd_open(&m, 0);
	for (i = 0; i < 6; i++) {
		unsigned int p = prov[i] / 10 - 1;

		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.type, FXT_REC_METADATA);
		CU_ASSERT_EQUAL(rec.meta.provider_id, prov[i]);
		for (k = 0; k < 4; k++) {
			ev.ts = i * 10 + k;
			ev.thread = (struct fxt_thread){ prov[i], k % 2 };
			ev.category = shared;
			ev.name = dyn(only[p]);
			CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
			CU_ASSERT(event_eq(&rec, &ev));
			CU_ASSERT_EQUAL(rec.provider_id, prov[i]);
		}
	}
	pn = fxt_reader_provider_name(r, 30);
	CU_ASSERT(pn && !strcmp(pn, "only-c"));
	rd_end(r);
	mem_free(&m);
}

#define NSTR	40000

static char (*many_strings(void))[16]
{
	char (*s)[16] = malloc(NSTR * sizeof(*s));
	unsigned int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* varied lengths so that reused slots change size */
	for (i = 0; i < NSTR; i++)
		snprintf(s[i], sizeof(s[i]), "%.*s%u", (int)(i % 7), "xyzxyzx",
			 i);
	return s;
}

/* Which string event @i uses for each of its fields. */
static unsigned int cat_of(unsigned int i)
{
	return i % 5 ? i : (i * 7919U) % (i + 1);	/* old ones too */
}

static void test_string_table_replacement_interned(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	char (*s)[16] = many_strings();
	struct fxt_str *ids = malloc(NSTR * sizeof(*ids));
	struct fxt_arg a[15];
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT,
				.thread = { 1, 1 } };
	struct fxt_reader *r;
	unsigned int i, k, nrec = 0, maxidx = 0;
	struct fxt_record rec;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
	for (i = 0; i < NSTR; i++)
		ids[i] = cstr(w, s[i]);

	for (i = 0; i < NSTR; i++) {
		ev.ts = i;
		ev.name = ids[i];
		ev.category = ids[cat_of(i)];
		ev.nargs = 0;
		if (i % 3 == 0) {
			a[0] = (struct fxt_arg){ .type = FXT_ARG_STRING,
				.name = ids[i / 2], .str = ids[i / 3] };
			ev.nargs = 1;
		}
		ev.args = a;
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
	}
	/*
	 * With the table full, records needing 32 fresh slots at once:
	 * the slots of a record being written are never taken for it.
	 */
	for (i = 0; i < 200; i++) {
		unsigned int base = (i * 32 + 17) % (NSTR - 32);

		ev.ts = NSTR + i;
		ev.category = ids[base];
		ev.name = ids[base + 1];
		for (k = 0; k < 15; k++)
			a[k] = (struct fxt_arg){ .type = FXT_ARG_STRING,
				.name = ids[base + 2 + k],
				.str = ids[(base + 17 + k) % NSTR] };
		ev.nargs = 15;
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
	}
	mem_close(&m);

	r = rd_start(&m);
	for (i = 0; i < NSTR; i++) {
		ev.ts = i;
		ev.name = ids[i];
		ev.category = ids[cat_of(i)];
		ev.nargs = 0;
		if (i % 3 == 0) {
			a[0] = (struct fxt_arg){ .type = FXT_ARG_STRING,
				.name = ids[i / 2], .str = ids[i / 3] };
			ev.nargs = 1;
		}
		if (!next_event_is(r, &ev)) {
			CU_FAIL("event of the string table churn differs");
			break;
		}
	}
	for (i = 0; i < 200; i++) {
		unsigned int base = (i * 32 + 17) % (NSTR - 32);

		ev.ts = NSTR + i;
		ev.category = ids[base];
		ev.name = ids[base + 1];
		for (k = 0; k < 15; k++)
			a[k] = (struct fxt_arg){ .type = FXT_ARG_STRING,
				.name = ids[base + 2 + k],
				.str = ids[(base + 17 + k) % NSTR] };
		ev.nargs = 15;
		if (!next_event_is(r, &ev)) {
			CU_FAIL("event with 32 strings on a full table");
			break;
		}
	}
	rd_end(r);

	/* the writer never used an index outside 1..32767 */
	r = rd_open(&m, 0);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type != FXT_REC_STRING)
			continue;
		nrec++;
		if (rec.string.index > maxidx)
			maxidx = rec.string.index;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT(nrec >= NSTR);
	CU_ASSERT(maxidx <= FXT_MAX_STRING_INDEX);
	fxt_reader_close(r);
	free(ids);
	free(s);
	mem_free(&m);
}

/*
 * Strings in use keep their index while 100000 others pass through the
 * full table: an event that finds all its strings at their index (the
 * writer's one-pass path) still marks them used, so the replacement
 * sweep passes them by.  Counted as string records: "hot" and its
 * argument's name and value are written twice each, once at the start
 * and once more when the table first fills (every index is then marked
 * used, so the first sweep clears them all and replaces in order);
 * never again on the two sweeps after, which a writer that did not mark
 * them would replace them on too (16 records).
 */
static void test_string_table_keeps_strings_in_use(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_arg a = { .type = FXT_ARG_STRING };
	struct fxt_event hot = { .type = FXT_EVENT_INSTANT,
				 .thread = { 1, 1 }, .args = &a, .nargs = 1 };
	struct fxt_event cold = hot;
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i, nhot = 0, ncold = 0;
	char name[32];
	int ret;

	hot.category = fxt_writer_str(w, "hot");
	hot.name = fxt_writer_str(w, "hot-name");
	a.name = fxt_writer_str(w, "hot-arg");
	a.str = fxt_writer_str(w, "hot-value");
	cold.category = fxt_writer_str(w, "cold");
	cold.nargs = 0;
	for (i = 0; i < 100000; i++) {
		hot.ts = cold.ts = i;
		CU_ASSERT_EQUAL(fxt_write_event(w, &hot), 0);
		snprintf(name, sizeof(name), "cold-%u", i);
		cold.name = fxt_writer_str(w, name);
		CU_ASSERT_EQUAL(fxt_write_event(w, &cold), 0);
	}
	mem_close(&m);
	r = rd_open(&m, 0);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		/* index 0: the writer's resets for Tracy, no table entry */
		if (rec.type != FXT_REC_STRING || !rec.string.index)
			continue;
		if (!strncmp(rec.string.str.ptr, "hot",
			     rec.string.str.len < 3 ? rec.string.str.len : 3))
			nhot++;
		else
			ncold++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	printf("\n    string records: %u of the 4 in use (8 expected), "
	       "%u others\n", nhot, ncold);
	CU_ASSERT_EQUAL(nhot, 8);
	CU_ASSERT(ncold >= 100000);
	fxt_reader_close(r);
	mem_free(&m);
}

/*
 * Fill the string table, one new string an event; the first string past
 * it makes the clock sweep clear every mark and replace index 1, leaving
 * the hand at index 2.  Then (with @refusals) offer two events the writer
 * refuses, both on the string at index 2, the sweep's next victim: an
 * argument of no known type, an argument name over the string limit.
 * Then more new strings, which replace old ones.  A refused event writes
 * nothing and changes nothing, not even which string is replaced next
 * (marked used, index 2 would be passed over), so both files must be the
 * same bytes.
 */
static void write_with_refusals(struct mem *m, bool refusals,
				char (*s)[16], char *huge)
{
	struct fxt_writer *w = mem_start(m, 0);
	struct fxt_arg a[1];
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT,
				.thread = { 1, 1 }, .args = a };
	unsigned int i;

	for (i = 0; i < 33000; i++) {
		if (refusals && i == FXT_MAX_STRING_INDEX + 1) {
			ev.category = ev.name = cstr(w, s[1]);
			ev.nargs = 1;
			a[0] = (struct fxt_arg){ .type = FXT_ARG_TYPE_COUNT + 3,
						 .name = ev.name };
			CU_ASSERT_EQUAL(fxt_write_event(w, &ev), -EINVAL);
			a[0] = (struct fxt_arg){ .type = FXT_ARG_UINT32,
				.name = fxt_str_make(huge,
						     FXT_MAX_STRING_LEN + 1) };
			CU_ASSERT_EQUAL(fxt_write_event(w, &ev), -E2BIG);
		}
		ev.ts = i;
		ev.category = ev.name = cstr(w, s[i]);
		ev.nargs = 0;
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
	}
	mem_close(m);
}

static void test_refused_event_changes_nothing(void)
{
	char (*s)[16] = many_strings();
	char *huge = malloc(FXT_MAX_STRING_LEN + 1);
	struct mem with, without;

	CU_ASSERT_PTR_NOT_NULL_FATAL(huge);
	memset(huge, 'h', FXT_MAX_STRING_LEN + 1);
	write_with_refusals(&with, true, s, huge);
	write_with_refusals(&without, false, s, huge);
	printf("\n    %zu bytes with 2 refused events, %zu without\n",
	       with.len, without.len);
	CU_ASSERT_EQUAL(with.len, without.len);
	CU_ASSERT(with.len == without.len &&
		  !memcmp(with.buf, without.buf, with.len));
	mem_free(&with);
	mem_free(&without);
	free(huge);
	free(s);
}

static void test_string_table_replacement_plain(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	char (*s)[16] = many_strings();
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT,
				.thread = { 1, 1 } };
	struct fxt_reader *r;
	unsigned int i, n = 2 * 35000;

	/* each plain string twice in a row so that it gets indexed */
	for (i = 0; i < n; i++) {
		ev.ts = i;
		ev.name = dyn(s[i / 2]);
		ev.category = dyn(s[i % 4 ? i / 8 : 0]);
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
	}
	mem_close(&m);
	r = rd_start(&m);
	for (i = 0; i < n; i++) {
		ev.ts = i;
		ev.name = dyn(s[i / 2]);
		ev.category = dyn(s[i % 4 ? i / 8 : 0]);
		if (!next_event_is(r, &ev)) {
			CU_FAIL("event of the plain string churn differs");
			break;
		}
	}
	rd_end(r);
	free(s);
	mem_free(&m);
}

static void test_plain_strings_need_not_outlive_the_call(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_event ev = { .type = FXT_EVENT_INSTANT,
				.thread = { 1, 1 } };
	struct fxt_reader *r;
	char buf[32], want[32];
	unsigned int i;

	/* one buffer, rewritten between calls: the writer must copy */
	for (i = 0; i < 300; i++) {
		snprintf(buf, sizeof(buf), "name-%u", i / 3);
		ev.ts = i;
		ev.name = dyn(buf);
		ev.category = dyn(buf);
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		memset(buf, 'Z', sizeof(buf) - 1);
	}
	mem_close(&m);
	r = rd_start(&m);
	for (i = 0; i < 300; i++) {
		snprintf(want, sizeof(want), "name-%u", i / 3);
		ev.ts = i;
		ev.name = dyn(want);
		ev.category = dyn(want);
		CHECK_NEXT_EVENT(r, &ev);
	}
	rd_end(r);
	mem_free(&m);
}

#define NTHR	800

static struct fxt_thread thr_of(unsigned int i)
{
	struct fxt_thread t = { 1000 + i, 50000 + 3 * i };

	return t;
}

/* Thread of event @i: every new one twice in a row, with old ones mixed in. */
static unsigned int thr_pick(unsigned int i)
{
	return i % 4 == 3 ? (i * 37) % (i / 2 + 1) : i / 2;
}

static void test_thread_table_replacement(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	struct fxt_event ev = { .type = FXT_EVENT_DURATION_BEGIN };
	struct fxt_legacy_switch ls = { .cpu = 1 };
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA, .data = "x", .size = 1,
	};
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i, n = 2 * NTHR;
	struct fxt_thread t;

	ev.category = cstr(w, "c");
	ev.name = cstr(w, "n");
	lb.category = ev.category;
	lb.name = ev.name;
	for (i = 0; i < n; i++) {
		t = thr_of(thr_pick(i));
		ev.ts = i;
		ev.thread = t;
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		if (i % 5 == 0) {
			/* two threads in one record, one of them new */
			ls.ts = i;
			ls.out = t;
			ls.in = thr_of(i / 2 + 1);
			CU_ASSERT_EQUAL(fxt_write_legacy_switch(w, &ls), 0);
		}
		if (i % 7 == 0)
			CU_ASSERT_EQUAL(fxt_write_log(w, i, &t, "m", 1), 0);
		if (i % 11 == 0) {
			lb.ts = i;
			lb.thread = t;
			CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb), 0);
		}
	}
	mem_close(&m);

	r = rd_start(&m);
	for (i = 0; i < n; i++) {
		t = thr_of(thr_pick(i));
		ev.ts = i;
		ev.thread = t;
		if (!next_event_is(r, &ev)) {
			CU_FAIL("event of the thread table churn differs");
			break;
		}
		if (i % 5 == 0) {
			CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
			CU_ASSERT_EQUAL(rec.type, FXT_REC_SCHED);
			CU_ASSERT_EQUAL(rec.sched.ts, i);
			CU_ASSERT_EQUAL(rec.sched.out.pid, t.pid);
			CU_ASSERT_EQUAL(rec.sched.out.tid, t.tid);
			t = thr_of(i / 2 + 1);
			CU_ASSERT_EQUAL(rec.sched.in.pid, t.pid);
			CU_ASSERT_EQUAL(rec.sched.in.tid, t.tid);
			t = thr_of(thr_pick(i));
		}
		if (i % 7 == 0) {
			CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
			CU_ASSERT_EQUAL(rec.type, FXT_REC_LOG);
			CU_ASSERT_EQUAL(rec.log.thread.pid, t.pid);
			CU_ASSERT_EQUAL(rec.log.thread.tid, t.tid);
		}
		if (i % 11 == 0) {
			CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
			CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
			CU_ASSERT_EQUAL(rec.large.thread.pid, t.pid);
			CU_ASSERT_EQUAL(rec.large.thread.tid, t.tid);
		}
	}
	rd_end(r);
	mem_free(&m);
}

static void test_inline_refs_only(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, FXT_WRITER_INLINE_THREADS |
					 FXT_WRITER_INLINE_STRINGS);
	struct fxt_arg a = { .type = FXT_ARG_STRING, .name = dyn("arg"),
			     .str = { "val", 3, FXT_STR_INLINE } };
	struct fxt_event ev = { .type = FXT_EVENT_ASYNC_BEGIN, .id = 5,
				.nargs = 1, .args = &a };
	struct fxt_legacy_switch ls = { .cpu = 1, .out = { 1, 2 },
					.in = { 3, 4 } };
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA, .category = dyn("c"),
		.name = inl("n"), .thread = { 8, 9 }, .data = "x", .size = 1,
	};
	char name[16];
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int i, tables = 0;
	int ret;

	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "ev%u", i % 4);
		ev.ts = i;
		ev.thread = thr_of(i % 2);
		ev.category = i % 2 ? inl("cat") : dyn("cat");
		ev.name = dyn(name);
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		CU_ASSERT_EQUAL(fxt_write_legacy_switch(w, &ls), 0);
		CU_ASSERT_EQUAL(fxt_write_log(w, i, &ls.in, "msg", 3), 0);
		CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb), 0);
		CU_ASSERT_EQUAL(fxt_write_userspace_object(w, 1, 2, dyn("o"),
							   NULL, 0), 0);
	}
	mem_close(&m);

	r = rd_start(&m);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "ev%u", i % 4);
		ev.ts = i;
		ev.thread = thr_of(i % 2);
		ev.category = dyn("cat");
		ev.name = dyn(name);
		CHECK_NEXT_EVENT(r, &ev);
		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.sched.out.tid, 2);
		CU_ASSERT_EQUAL(rec.sched.in.pid, 3);
		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.log.thread.tid, 4);
		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.large.thread.pid, 8);
		CU_ASSERT(str_is(rec.large.category, "c", 1));
		CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
		CU_ASSERT_EQUAL(rec.uobj.pid, 2);
		CU_ASSERT(str_is(rec.uobj.name, "o", 1));
	}
	rd_end(r);

	/* not a single string or thread record */
	r = rd_open(&m, 0);
	while ((ret = fxt_reader_next(r, &rec)) == 1)
		tables += rec.type == FXT_REC_STRING ||
			  rec.type == FXT_REC_THREAD;
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(tables, 0);
	fxt_reader_close(r);
	mem_free(&m);
}

/* ---- split payloads ------------------------------------------------- */

static void test_blob_split_across_records(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	size_t n = 100000, got = 0;
	uint8_t *data = pattern(n, 5), *cat = malloc(n);
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int chunks = 0;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
	CU_ASSERT_EQUAL(fxt_write_blob(w, dyn("bigblob"), FXT_BLOB_PERFETTO,
				       data, n), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 1), 0);
	mem_close(&m);
	r = rd_start(&m);
	while ((ret = rd_next(r, &rec)) == 1 && rec.type == FXT_REC_BLOB) {
		CU_ASSERT(str_is(rec.blob.name, "bigblob", 7));
		CU_ASSERT_EQUAL(rec.blob.type, FXT_BLOB_PERFETTO);
		CU_ASSERT(rec.blob.size <= 0x7fff);
		CU_ASSERT_FATAL(got + rec.blob.size <= n);
		memcpy(cat + got, rec.blob.data, rec.blob.size);
		got += rec.blob.size;
		chunks++;
	}
	CU_ASSERT_EQUAL(ret, 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
	CU_ASSERT(chunks >= 4);
	CU_ASSERT_EQUAL(got, n);
	CU_ASSERT(!memcmp(cat, data, n));
	rd_end(r);
	free(data);
	free(cat);
	mem_free(&m);
}

static void test_log_split_across_records(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	size_t n = 100000, got = 0;
	char *msg = text(n, 9), *cat = malloc(n);
	struct fxt_thread t = { 31, 32 };
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int chunks = 0;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
	CU_ASSERT_EQUAL(fxt_write_log(w, 777, &t, msg, n), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 1), 0);
	mem_close(&m);
	r = rd_start(&m);
	while ((ret = rd_next(r, &rec)) == 1 && rec.type == FXT_REC_LOG) {
		CU_ASSERT_EQUAL(rec.log.ts, 777);
		CU_ASSERT_EQUAL(rec.log.thread.pid, 31);
		CU_ASSERT_EQUAL(rec.log.thread.tid, 32);
		CU_ASSERT(rec.log.msg.len <= 0x7fff);
		CU_ASSERT_FATAL(got + rec.log.msg.len <= n);
		memcpy(cat + got, rec.log.msg.ptr, rec.log.msg.len);
		got += rec.log.msg.len;
		chunks++;
	}
	CU_ASSERT_EQUAL(ret, 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_INIT);
	CU_ASSERT(chunks >= 4);
	CU_ASSERT_EQUAL(got, n);
	CU_ASSERT(!memcmp(cat, msg, n));
	rd_end(r);
	free(msg);
	free(cat);
	mem_free(&m);
}

static void test_large_blob_multi_megabyte(void)
{
	struct mem m;
	struct fxt_writer *w = mem_start(&m, 0);
	size_t n1 = 6 << 20, n0 = (3 << 20) + 5;
	uint8_t *d1 = pattern(n1, 11), *d0 = pattern(n0, 12);
	struct fxt_arg a = { .type = FXT_ARG_UINT64, .name = dyn("frame"),
			     .u64 = UINT64_MAX };
	struct fxt_large_blob lb1 = {
		.format = FXT_LARGE_BLOB_NO_META, .category = dyn("video"),
		.name = dyn("frame"), .data = d1, .size = n1,
	};
	struct fxt_large_blob lb0 = {
		.format = FXT_LARGE_BLOB_METADATA, .category = dyn("video"),
		.name = dyn("frame"), .ts = 99, .thread = { 3, 4 },
		.nargs = 1, .args = &a, .data = d0, .size = n0,
	};
	struct fxt_reader *r;
	struct fxt_record rec;

	CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb1), 0);
	CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb0), 0);
	mem_close(&m);
	r = rd_start(&m);
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.type, FXT_REC_LARGE);
	CU_ASSERT_EQUAL(rec.large.format, FXT_LARGE_BLOB_NO_META);
	CU_ASSERT(str_is(rec.large.category, "video", 5));
	CU_ASSERT(str_is(rec.large.name, "frame", 5));
	CU_ASSERT_EQUAL_FATAL(rec.large.size, n1);
	CU_ASSERT(!memcmp(rec.large.data, d1, n1));
	CU_ASSERT_EQUAL_FATAL(rd_next(r, &rec), 1);
	CU_ASSERT_EQUAL(rec.large.format, FXT_LARGE_BLOB_METADATA);
	CU_ASSERT_EQUAL(rec.large.ts, 99);
	CU_ASSERT_EQUAL(rec.large.thread.tid, 4);
	CU_ASSERT(args_eq(rec.large.args, rec.large.nargs, &a, 1));
	CU_ASSERT_EQUAL_FATAL(rec.large.size, n0);
	CU_ASSERT(!memcmp(rec.large.data, d0, n0));
	rd_end(r);
	free(d0);
	free(d1);
	mem_free(&m);
}

/* ---- whole files: byte order, input paths ---------------------------- */

/* A bit of everything, @scale times; some 300 KiB per unit of scale. */
static void write_sample(struct fxt_writer *w, unsigned int scale)
{
	static const char *const cats[] = { "sched", "irq", "timer", "mm" };
	struct fxt_arg set[NSETS][15];
	size_t nblob = 50000, nlarge = 300000 * scale;
	uint8_t *blob = pattern(nblob, 7), *large = pattern(nlarge, 8);
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_NO_META, .category = dyn("lc"),
		.name = dyn("ln"), .data = large, .size = nlarge,
	};
	unsigned int i, n = 400 * scale;
	char name[32];

	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 1, "sample", 6), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 1000000000), 0);
	boundary_args(w, set);
	for (i = 0; i < n; i++) {
		struct fxt_event ev = {
			.type = i % FXT_EVENT_TYPE_COUNT, .ts = i * 1000ULL,
			.thread = thr_of(i % 300),
			.category = cstr(w, cats[i % 4]),
			.id = i, .end_ts = i * 1000ULL + 500,
			.nargs = i % 16, .args = set[i % 2],
		};
		struct fxt_thread t = thr_of(i % 290);

		snprintf(name, sizeof(name), "ev-%u", i % 500);
		ev.name = dyn(name);
		CU_ASSERT_EQUAL(fxt_write_event(w, &ev), 0);
		if (i % 7 == 0) {
			struct fxt_legacy_switch ls = {
				.ts = ev.ts, .cpu = i % 4, .out = t,
				.in = ev.thread,
				.out_state = FXT_THREAD_BLOCKED,
			};

			CU_ASSERT_EQUAL(fxt_write_legacy_switch(w, &ls), 0);
		}
		if (i % 11 == 0) {
			struct fxt_sched_switch ss = {
				.ts = ev.ts, .cpu = i, .out_tid = t.tid,
				.in_tid = ev.thread.tid, .nargs = i % 16,
				.args = set[1],
			};

			CU_ASSERT_EQUAL(fxt_write_sched_switch(w, &ss), 0);
		}
		if (i % 13 == 0) {
			struct fxt_sched_wakeup wk = {
				.ts = ev.ts, .cpu = i % 300, .tid = t.tid,
			};

			CU_ASSERT_EQUAL(fxt_write_sched_wakeup(w, &wk), 0);
		}
		if (i % 50 == 0)
			CU_ASSERT_EQUAL(fxt_write_log(w, ev.ts, &t, name,
						      strlen(name)), 0);
		if (i % 97 == 0)
			CU_ASSERT_EQUAL(fxt_write_kernel_object(w, t.tid,
					FXT_OBJ_THREAD, dyn(name), set[0],
					i % 16), 0);
		if (i == n / 2)
			CU_ASSERT_EQUAL(fxt_write_provider_info(w, 2, "second",
								6), 0);
		if (i == 3 * n / 4)
			CU_ASSERT_EQUAL(fxt_write_provider_section(w, 1), 0);
	}
	CU_ASSERT_EQUAL(fxt_write_blob(w, dyn("blob"), FXT_BLOB_DATA, blob,
				       nblob), 0);
	CU_ASSERT_EQUAL(fxt_write_large_blob(w, &lb), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_event(w, 1, 0), 0);
	free(blob);
	free(large);
}

static uint64_t fnv(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static void dump_str(FILE *f, struct fxt_str s)
{
	fprintf(f, " %u:", s.len);
	if (s.len)
		fwrite(s.ptr, 1, s.len, f);
}

static void dump_args(FILE *f, const struct fxt_arg *a, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		fprintf(f, " [%u", a[i].type);
		dump_str(f, a[i].name);
		switch (a[i].type) {
		case FXT_ARG_NULL:
			break;
		case FXT_ARG_INT32:
			fprintf(f, " %" PRId32, a[i].i32);
			break;
		case FXT_ARG_UINT32:
			fprintf(f, " %" PRIu32, a[i].u32);
			break;
		case FXT_ARG_BOOL:
			fprintf(f, " %d", a[i].b);
			break;
		case FXT_ARG_STRING:
			dump_str(f, a[i].str);
			break;
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
		case FXT_ARG_DOUBLE:
		case FXT_ARG_POINTER:
		case FXT_ARG_KOID:
			fprintf(f, " %" PRIx64, a[i].u64);
			break;
		default:
			fprintf(f, " %u %" PRIx64, a[i].raw_words,
				fnv(a[i].raw, a[i].raw_words * 8ULL));
			break;
		}
		fputc(']', f);
	}
}

/* Everything a record says, as text, to compare readings of a file. */
static void dump_record(FILE *f, const struct fxt_record *rec)
{
	fprintf(f, "%u @%" PRIu64 " +%" PRIu64 " p%" PRIu32 ":", rec->type,
		rec->offset, rec->size, rec->provider_id);
	switch (rec->type) {
	case FXT_REC_METADATA:
		fprintf(f, " meta %u", rec->meta.type);
		if (rec->meta.type == FXT_META_TRACE_INFO) {
			fprintf(f, " %u %x", rec->meta.info_type,
				rec->meta.magic);
			break;
		}
		fprintf(f, " %" PRIu32, rec->meta.provider_id);
		if (rec->meta.type == FXT_META_PROVIDER_INFO)
			dump_str(f, rec->meta.name);
		if (rec->meta.type == FXT_META_PROVIDER_EVENT)
			fprintf(f, " %u", rec->meta.event);
		break;
	case FXT_REC_INIT:
		fprintf(f, " %" PRIu64, rec->init.ticks_per_second);
		break;
	case FXT_REC_STRING:
		fprintf(f, " %u", rec->string.index);
		dump_str(f, rec->string.str);
		break;
	case FXT_REC_THREAD:
		fprintf(f, " %u %" PRIu64 " %" PRIu64, rec->thread.index,
			rec->thread.thread.pid, rec->thread.thread.tid);
		break;
	case FXT_REC_EVENT:
		fprintf(f, " %u %" PRIu64 " %" PRIu64 " %" PRIu64,
			rec->event.type, rec->event.ts, rec->event.thread.pid,
			rec->event.thread.tid);
		dump_str(f, rec->event.category);
		dump_str(f, rec->event.name);
		if (has_id_word(rec->event.type))
			fprintf(f, " id %" PRIx64, rec->event.id);
		if (rec->event.type == FXT_EVENT_DURATION_COMPLETE)
			fprintf(f, " end %" PRIu64, rec->event.end_ts);
		dump_args(f, rec->event.args, rec->event.nargs);
		break;
	case FXT_REC_BLOB:
		dump_str(f, rec->blob.name);
		fprintf(f, " %u %" PRIu32 " %" PRIx64, rec->blob.type,
			rec->blob.size, fnv(rec->blob.data, rec->blob.size));
		break;
	case FXT_REC_USERSPACE_OBJ:
		fprintf(f, " %" PRIx64 " %" PRIu64, rec->uobj.pointer,
			rec->uobj.pid);
		dump_str(f, rec->uobj.name);
		dump_args(f, rec->uobj.args, rec->uobj.nargs);
		break;
	case FXT_REC_KERNEL_OBJ:
		fprintf(f, " %" PRIx64 " %u", rec->kobj.koid,
			rec->kobj.obj_type);
		dump_str(f, rec->kobj.name);
		dump_args(f, rec->kobj.args, rec->kobj.nargs);
		break;
	case FXT_REC_SCHED:
		fprintf(f, " %u %" PRIu64 " %u", rec->sched.subtype,
			rec->sched.ts, rec->sched.cpu);
		if (rec->sched.subtype == FXT_SCHED_LEGACY_SWITCH)
			fprintf(f, " %u %" PRIu64 ".%" PRIu64 " %" PRIu64
				".%" PRIu64 " %u %u", rec->sched.out_state,
				rec->sched.out.pid, rec->sched.out.tid,
				rec->sched.in.pid, rec->sched.in.tid,
				rec->sched.out_prio, rec->sched.in_prio);
		if (rec->sched.subtype == FXT_SCHED_SWITCH)
			fprintf(f, " %u %" PRIu64 " %" PRIu64,
				rec->sched.out_state, rec->sched.out.tid,
				rec->sched.in.tid);
		if (rec->sched.subtype == FXT_SCHED_WAKEUP)
			fprintf(f, " %" PRIu64, rec->sched.in.tid);
		if (rec->sched.subtype != FXT_SCHED_LEGACY_SWITCH)
			dump_args(f, rec->sched.args, rec->sched.nargs);
		break;
	case FXT_REC_LOG:
		fprintf(f, " %" PRIu64 " %" PRIu64 ".%" PRIu64, rec->log.ts,
			rec->log.thread.pid, rec->log.thread.tid);
		dump_str(f, rec->log.msg);
		break;
	case FXT_REC_LARGE:
		fprintf(f, " %u %u", rec->large.large_type, rec->large.format);
		dump_str(f, rec->large.category);
		dump_str(f, rec->large.name);
		if (rec->large.format == FXT_LARGE_BLOB_METADATA) {
			fprintf(f, " %" PRIu64 " %" PRIu64 ".%" PRIu64,
				rec->large.ts, rec->large.thread.pid,
				rec->large.thread.tid);
			dump_args(f, rec->large.args, rec->large.nargs);
		}
		fprintf(f, " %" PRIu64 " %" PRIx64, rec->large.size,
			fnv(rec->large.data, rec->large.size));
		break;
	default:
		fprintf(f, " %" PRIx64, fnv(rec->raw, rec->size));
		break;
	}
	fputc('\n', f);
}

struct digest {
	char	*text;
	size_t	len;
	bool	be;
};

static void digest_of(struct fxt_reader *r, struct digest *d)
{
	FILE *f = open_memstream(&d->text, &d->len);
	struct fxt_record rec;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) == 1)
		dump_record(f, &rec);
	if (ret)
		fprintf(stderr, "\n    reader: %s\n", fxt_reader_error(r));
	CU_ASSERT_EQUAL(ret, 0);
	d->be = fxt_reader_big_endian(r);
	fxt_reader_close(r);
	fclose(f);
}

static bool digest_eq(const struct digest *a, const struct digest *b,
		      const char *what)
{
	size_t i;

	if (a->len == b->len && !memcmp(a->text, b->text, a->len))
		return true;
	for (i = 0; i < a->len && i < b->len && a->text[i] == b->text[i]; i++)
		;
	fprintf(stderr, "\n    %s: readings differ at text byte %zu "
		"(%zu vs %zu bytes)\n", what, i, a->len, b->len);
	return false;
}

static void test_big_endian_reads_like_little_endian(void)
{
	struct mem le, be;
	struct digest dle, dbe;

	write_sample(mem_open(&le, 0), 1);
	mem_close(&le);
	write_sample(mem_open(&be, FXT_WRITER_BIG_ENDIAN), 1);
	mem_close(&be);
	CU_ASSERT_EQUAL(le.len, be.len);
	CU_ASSERT(memcmp(le.buf, be.buf, le.len));
	digest_of(rd_open(&le, 0), &dle);
	digest_of(rd_open(&be, 0), &dbe);
	CU_ASSERT_FALSE(dle.be);
	CU_ASSERT_TRUE(dbe.be);
	CU_ASSERT(dle.len > 10000);
	CU_ASSERT(digest_eq(&dle, &dbe, "big-endian vs little-endian"));
	free(dle.text);
	free(dbe.text);
	mem_free(&le);
	mem_free(&be);
}

static char *temp_file(const void *buf, size_t len)
{
	char *path = strdup("/tmp/test-fxt-roundtrip-XXXXXX");
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, buf, len) == (ssize_t)len);
	close(fd);
	return path;
}

/* Read @buf through a pipe that a child process fills. */
static void digest_pipe(const struct mem *m, struct digest *d)
{
	int fds[2];
	pid_t pid;

	CU_ASSERT_FATAL(pipe(fds) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		size_t off = 0;
		ssize_t n;

		close(fds[0]);
		/* dribble the start out so reads come back short */
		while (off < m->len) {
			size_t chunk = off < 4096 ? 3 : m->len - off;

			n = write(fds[1], m->buf + off, chunk);
			if (n <= 0)
				_exit(1);
			off += n;
		}
		_exit(0);
	}
	close(fds[1]);
	digest_of(fxt_reader_open_fd(fds[0], "pipe", 0), d);
	close(fds[0]);
	waitpid(pid, NULL, 0);
}

static void test_stream_mmap_pipe_memory_read_alike(void)
{
	struct mem m;
	struct digest dmem, dstrict, dmap, dstream, dfd, dpipe;
	char *path;
	int fd;

	write_sample(mem_open(&m, 0), 10);
	mem_close(&m);
	CU_ASSERT(m.len > 3 << 20);
	path = temp_file(m.buf, m.len);

	digest_of(rd_open(&m, 0), &dmem);
	digest_of(rd_open(&m, FXT_READER_STRICT), &dstrict);
	digest_of(fxt_reader_open(path, 0), &dmap);
	digest_of(fxt_reader_open(path, FXT_READER_STREAM), &dstream);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	digest_of(fxt_reader_open_fd(fd, path, 0), &dfd);
	close(fd);
	digest_pipe(&m, &dpipe);

	CU_ASSERT(dmem.len > 100000);
	CU_ASSERT(digest_eq(&dmem, &dstrict, "strict vs lenient"));
	CU_ASSERT(digest_eq(&dmem, &dmap, "mapped file vs memory"));
	CU_ASSERT(digest_eq(&dmem, &dstream, "streamed file vs memory"));
	CU_ASSERT(digest_eq(&dmem, &dfd, "file descriptor vs memory"));
	CU_ASSERT(digest_eq(&dmem, &dpipe, "pipe vs memory"));
	unlink(path);
	free(path);
	free(dmem.text);
	free(dstrict.text);
	free(dmap.text);
	free(dstream.text);
	free(dfd.text);
	free(dpipe.text);
	mem_free(&m);
}

static void test_writer_fd_output_equals_file_output(void)
{
	struct mem m;
	char *path = temp_file("", 0);
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct fxt_writer *w;
	char *buf;
	size_t len;
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	w = fxt_writer_create_fd(fd, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	write_sample(w, 2);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	close(fd);

	write_sample(mem_open(&m, 0), 2);
	mem_close(&m);

	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	buf = malloc(m.len + 1);
	len = fread(buf, 1, m.len + 1, f);
	fclose(f);
	CU_ASSERT_EQUAL(len, m.len);
	CU_ASSERT(!memcmp(buf, m.buf, m.len));
	unlink(path);
	free(path);
	free(buf);
	mem_free(&m);
}

static CU_TestInfo record_tests[] = {
	{ "magic, provider info/section/event and init read back",
	  test_magic_providers_init_read_back },
	{ "provider names of 255 and 0 bytes; 256 refused",
	  test_provider_name_limits },
	{ "every record type reads back field for field",
	  test_records_of_every_type },
	{ "raw record of unknown type delivered as such (lenient)",
	  test_raw_unknown_record_delivered },
	{ "Tracy's importer reads every name whole (index-0 resets)",
	  test_tracy_reads_names_whole },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo event_tests[] = {
	{ "event types 0..10 with their ids and end times",
	  test_every_event_type },
	{ "every argument type at its boundary values, 15 per event",
	  test_every_arg_type_boundary_values },
	{ "arguments on objects, sched records and large blobs",
	  test_args_on_objects_sched_and_large_blobs },
	{ "empty strings and 32000-byte strings, inline and indexed",
	  test_empty_and_32000_byte_strings },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo table_tests[] = {
	{ "providers keep separate tables across section switches",
	  test_providers_keep_separate_tables },
	{ "40000 interned strings, reused and 32 per record on a full table",
	  test_string_table_replacement_interned },
	{ "35000 plain strings each used twice, old ones reused",
	  test_string_table_replacement_plain },
	{ "strings every other event uses keep their index through 100000 others",
	  test_string_table_keeps_strings_in_use },
	{ "a refused event changes nothing: the same bytes as without it, full table",
	  test_refused_event_changes_nothing },
	{ "plain strings are copied: caller's buffer may change",
	  test_plain_strings_need_not_outlive_the_call },
	{ "800 threads through a 255-entry table",
	  test_thread_table_replacement },
	{ "inline-only writer emits no string or thread record",
	  test_inline_refs_only },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo payload_tests[] = {
	{ "100000-byte blob split in records that concatenate back",
	  test_blob_split_across_records },
	{ "100000-byte log message split in records that concatenate back",
	  test_log_split_across_records },
	{ "large blobs of 6 MiB and 3 MiB, formats 1 and 0",
	  test_large_blob_multi_megabyte },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo file_tests[] = {
	{ "big-endian file reads as the little-endian one",
	  test_big_endian_reads_like_little_endian },
	{ "memory, mmap, stream, fd and pipe readings identical, strict too",
	  test_stream_mmap_pipe_memory_read_alike },
	{ "writer on an fd writes the same bytes as on a FILE",
	  test_writer_fd_output_equals_file_output },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "fxt roundtrip: records", .pTests = record_tests },
	{ .pName = "fxt roundtrip: events and arguments",
	  .pTests = event_tests },
	{ .pName = "fxt roundtrip: providers and tables",
	  .pTests = table_tests },
	{ .pName = "fxt roundtrip: split payloads", .pTests = payload_tests },
	{ .pName = "fxt roundtrip: files", .pTests = file_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
