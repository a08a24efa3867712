// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt2dat.c - the FXT -> .dat pieces (common/fxt-tep/fxt2dat-*.c)
 * one by one: the lookup tables, the format registry and record builder,
 * and records fed through the driver to a sink, as trace-fxt report
 * feeds them.
 *
 * Records are built here as the reader would hand them out; what comes
 * out is checked at the offsets the kernel's own format files give
 * (tests/unit/dat-formats/, copied from a 6.x kernel's tracefs), with the
 * values MAPPING.md promises (prev_state bits, comm fallbacks, the
 * fxt/<type> layout and its argument bytes).  libtraceevent parses the
 * formats, as it does in trace-fxt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fxt-writer.h"
#include "fxt2dat.h"
#include "unit.h"

#define NAME(s)		FXT_ARG_STR_NAME(s)

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* --- a reader that knows providers and ticks, as trace-fxt has one --- */

static char *fxt_buf;
static size_t fxt_len;

/*
 * Providers 1 "top" (1e6 ticks a second), 2 unnamed, 3 and 4 both "dup";
 * read to the end, so provider 1 is current again.
 */
static struct fxt_reader *reader_new(void)
{
	FILE *fp = open_memstream(&fxt_buf, &fxt_len);
	struct fxt_writer *w = fxt_writer_create_fp(fp, 0);
	struct fxt_reader *r;
	struct fxt_record rec;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 2, "", 0), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 3, "dup", 3), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 4, "dup", 3), 0);
	CU_ASSERT_EQUAL(fxt_write_provider_info(w, 1, "top", 3), 0);
	CU_ASSERT_EQUAL(fxt_write_init(w, 1000000), 0);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	fclose(fp);
	r = fxt_reader_open_mem(fxt_buf, fxt_len, "mem", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &rec) > 0)
		;
	return r;
}

static void reader_free(struct fxt_reader *r)
{
	fxt_reader_close(r);
	free(fxt_buf);
	fxt_buf = NULL;
}

/* --- a sink that keeps what the driver hands out --- */

struct got {
	int		buffer;
	unsigned int	cpu;
	uint64_t	ts;
	uint8_t		data[512];
	size_t		len;
};

struct sink {
	struct got	rec[8];
	unsigned int	n;
};

static int sink_keep(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
		     uint64_t ts, const void *data, size_t len)
{
	struct sink *s = ctx->sink_priv;
	struct got *g;

	if (s->n == 8 || len > sizeof(g->data))
		return -E2BIG;
	g = &s->rec[s->n++];
	g->buffer = buffer;
	g->cpu = cpu;
	g->ts = ts;
	g->len = len;
	memcpy(g->data, data, len);
	return 0;
}

struct feed {
	struct f2d_ctx		ctx;
	struct fxt2dat_stats	st;
	struct sink		sink;
	char			err[256];
};

static struct feed *feed_new(void)
{
	struct feed *f = calloc(1, sizeof(*f));
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	fxt2dat_feed_init(&f->ctx, tep, sink_keep, &f->sink, &f->st, f->err,
			  sizeof(f->err));
	f->ctx.r = reader_new();
	return f;
}

static void feed_free(struct feed *f)
{
	struct fxt_reader *r = f->ctx.r;

	fxt2dat_feed_free(&f->ctx);
	reader_free(r);
	free(f);
}

static int feed(struct feed *f, struct fxt_record *rec)
{
	rec->provider_id = 1;
	return fxt2dat_feed(&f->ctx, rec);
}

static int feed_instant(struct feed *f, const char *cat, const char *name,
			uint64_t tid, uint64_t ts, const struct fxt_arg *args,
			unsigned int nargs)
{
	struct fxt_record rec = { .type = FXT_REC_EVENT };

	rec.event.type = FXT_EVENT_INSTANT;
	rec.event.ts = ts;
	rec.event.thread.pid = tid;
	rec.event.thread.tid = tid;
	rec.event.category = fxt_str_make(cat, strlen(cat));
	rec.event.name = fxt_str_make(name, strlen(name));
	rec.event.args = args;
	rec.event.nargs = nargs;
	return feed(f, &rec);
}

/* A __data_loc field of @g at @off: its bytes, or NULL if out of bounds. */
static const uint8_t *data_loc(const struct got *g, unsigned int off,
			       size_t *len)
{
	uint32_t v = le(g->data + off, 4);

	*len = v >> 16;
	if ((v & 0xffff) + *len > g->len)
		return NULL;
	return g->data + (v & 0xffff);
}

/* ---------------------------------------------------------------- */

static void test_tables(void)
{
	struct f2d_ctx ctx = { 0 };
	struct fxt_reader *r = reader_new();
	unsigned int i, bad = 0;
	char name[32];

	/* koid 0 is a task like any other; 1000 of them make it grow */
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "t%u", i);
		CU_ASSERT_EQUAL_FATAL(f2d_name_set(&ctx, i * 7919ULL,
				      fxt_str_make(name, strlen(name))), 0);
		f2d_cpu_set(&ctx, i * 7919ULL, i % 5);
	}
	CU_ASSERT_EQUAL(f2d_name_set(&ctx, 0, fxt_str_make("again", 5)), 0);
	for (i = 1; i < 1000; i++) {
		snprintf(name, sizeof(name), "t%u", i);
		if (!f2d_name_of(&ctx, i * 7919ULL) ||
		    strcmp(f2d_name_of(&ctx, i * 7919ULL), name) ||
		    f2d_cpu_of(&ctx, i * 7919ULL) != i % 5)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_STRING_EQUAL(f2d_name_of(&ctx, 0), "again");
	CU_ASSERT_PTR_NULL(f2d_name_of(&ctx, 1));
	CU_ASSERT_EQUAL(f2d_cpu_of(&ctx, 1), 0);

	/* providers: the first is the top buffer, the others by name */
	ctx.r = r;
	CU_ASSERT_EQUAL(f2d_prov_get(&ctx, 1)->buffer, 0);
	CU_ASSERT_EQUAL(f2d_prov_get(&ctx, 2)->buffer, 1);
	CU_ASSERT_EQUAL(f2d_prov_get(&ctx, 3)->buffer, 2);
	CU_ASSERT_EQUAL(f2d_prov_get(&ctx, 4)->buffer, 3);
	CU_ASSERT_EQUAL(f2d_prov_get(&ctx, 2)->buffer, 1);
	CU_ASSERT_EQUAL_FATAL(ctx.nr_bufs, 4);
	CU_ASSERT_STRING_EQUAL(ctx.buf_names[0], "");
	CU_ASSERT_STRING_EQUAL(ctx.buf_names[1], "provider-2");
	CU_ASSERT_STRING_EQUAL(ctx.buf_names[2], "dup");
	CU_ASSERT_STRING_EQUAL(ctx.buf_names[3], "dup-4");
	/* 1e6 ticks a second: a tick is 1000 ns */
	CU_ASSERT_EQUAL(f2d_ns(&ctx, 5), 5000);
	f2d_tables_free(&ctx);
	reader_free(r);
	printf("\n    1000 tasks and their CPUs, 4 providers' buffer names\n");
}

static void test_text_and_pages(void)
{
	struct f2d_text t = { 0 };
	unsigned int i;

	for (i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(f2d_text_add(&t, "abcdefghij", 10), 0);
	CU_ASSERT_EQUAL(t.len, 1000);
	CU_ASSERT_EQUAL(t.s[t.len], '\0');
	CU_ASSERT(!memcmp(t.s + 990, "abcdefghij", 10));
	CU_ASSERT_EQUAL(f2d_text_set(&t, fxt_str_make("xy", 2)), 0);
	CU_ASSERT_STRING_EQUAL(t.s, "xy");
	f2d_text_free(&t);
	CU_ASSERT_PTR_NULL(t.s);
	/* a page keeps 64 bytes for its header and the event's own */
	CU_ASSERT_EQUAL(f2d_page_for(0), 4096);
	CU_ASSERT_EQUAL(f2d_page_for(4032), 4096);
	CU_ASSERT_EQUAL(f2d_page_for(4033), 8192);
	CU_ASSERT_EQUAL(f2d_page_for(1u << 30), 1u << 27);
}

/* The kernel's sched_switch format: fields where the kernel put them. */
static void test_format_and_builder(void)
{
	struct f2d_ctx ctx = { .tep = tep_alloc(), .next_id = F2D_FIRST_ID };
	struct f2d_format *f = NULL;
	struct f2d_rec *r = &ctx.rec;
	size_t len;
	char *text = unit_slurp("tests/unit/dat-formats/sched_switch.format",
				&len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx.tep);
	CU_ASSERT_EQUAL_FATAL(f2d_format_add(&ctx, "sched", text, len,
					     F2D_FORMAT_RESTORED, &f), 0);
	CU_ASSERT_EQUAL(f->id, 372);
	CU_ASSERT_EQUAL(f->nr_fields, 7);
	CU_ASSERT_EQUAL(f->fixed, 64);
	CU_ASSERT_PTR_EQUAL(f2d_format_find(&ctx, "sched", 5,
					    "sched_switch", 12), f);
	/* the same text again (another provider): no error, no copy */
	CU_ASSERT_EQUAL(f2d_format_add(&ctx, "sched", text, len,
				       F2D_FORMAT_RESTORED, NULL), 0);
	CU_ASSERT_EQUAL(ctx.nr_fmts, 1);

	CU_ASSERT_EQUAL_FATAL(f2d_rec_begin(&ctx, f, 4242), 0);
	CU_ASSERT_EQUAL(r->len, 64);
	f2d_put_str(r, f, "prev_comm", "a-name-longer-than-16", 21);
	f2d_put_int(r, f, "prev_pid", 4242);
	f2d_put_int(r, f, "prev_state", (uint64_t)-1);
	f2d_put_str(r, f, "next_comm", "sh", 2);
	f2d_put_int(r, f, "next_prio", 98);
	f2d_put_int(r, f, "no_such_field", 1);
	CU_ASSERT_EQUAL(le(r->data, 2), 372);
	CU_ASSERT_EQUAL(le(r->data + 4, 4), 4242);
	CU_ASSERT(!memcmp(r->data + 8, "a-name-longer-th", 16));
	CU_ASSERT_EQUAL(le(r->data + 24, 4), 4242);
	CU_ASSERT_EQUAL(le(r->data + 28, 4), 0);
	CU_ASSERT_EQUAL(le(r->data + 32, 8), UINT64_MAX);
	CU_ASSERT(!memcmp(r->data + 40, "sh\0", 3));
	CU_ASSERT_EQUAL(le(r->data + 60, 4), 98);
	CU_ASSERT_EQUAL(r->len, 64);
	free(text);
	f2d_formats_free(&ctx);
	tep_free(ctx.tep);
	free(r->data);
}

/* Formats from a file: anything libtraceevent would misread is refused. */
static void test_format_refused(void)
{
	static const char head[] =
		"name: e\nID: %s\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int x;\toffset:%s;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%%d\", REC->x\n";
	static const char *const bad[][2] = {
		{ "70000", "8" },	/* beyond a u16 common_type */
		{ "-1", "8" },
		{ "1000", "65534" },	/* past what a record addresses */
	};
	struct f2d_ctx ctx = { .tep = tep_alloc(), .next_id = F2D_FIRST_ID };
	char text[512];
	unsigned int i;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx.tep);
	for (i = 0; i < 3; i++) {
		n = snprintf(text, sizeof(text), head, bad[i][0], bad[i][1]);
		CU_ASSERT_EQUAL(f2d_format_add(&ctx, "s", text, n,
					       F2D_FORMAT_RESTORED, NULL),
				-EINVAL);
	}
	/* a NUL would hide the rest of the text from libtraceevent */
	n = snprintf(text, sizeof(text), head, "1000", "8");
	text[10] = '\0';
	CU_ASSERT_EQUAL(f2d_format_add(&ctx, "s", text, n,
				       F2D_FORMAT_RESTORED, NULL), -EINVAL);
	CU_ASSERT_EQUAL(ctx.nr_fmts, 0);
	f2d_formats_free(&ctx);
	tep_free(ctx.tep);
}

/*
 * The child that tries the input's formats first, asked ahead and out of
 * order: a text it dies on (libtraceevent 1.7.1 crashes on an array size
 * of two bytes that are no digits, regress-tep-fields.fxt) between two it
 * survives.
 */
static void test_probe_ahead(void)
{
	struct f2d_ctx ctx = { .tep = tep_alloc(), .next_id = F2D_FIRST_ID };
	struct f2d_format *f = NULL;
	size_t len, wlen;
	char *text = unit_slurp("tests/unit/dat-formats/sched_switch.format",
				&len);
	char *wake = unit_slurp("tests/unit/dat-formats/sched_wakeup.format",
				&wlen);
	char *bad = text ? strdup(text) : NULL, *at;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx.tep);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wake);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	at = strstr(bad, "prev_comm[16]");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "prev_comm[\xcf\xd1]", 13);
	/* all three in flight at once, answered in the order asked */
	CU_ASSERT_EQUAL(f2d_probe_ahead(&ctx, "sched", text, len), 0);
	CU_ASSERT_EQUAL(f2d_probe_ahead(&ctx, "sched", bad, len), 0);
	CU_ASSERT_EQUAL(f2d_probe_ahead(&ctx, "sched", wake, wlen), 0);
	/* the last first: the child died on the one before, a new one asked */
	CU_ASSERT_TRUE(f2d_probe_survives(&ctx, "sched", wake, wlen));
	CU_ASSERT_FALSE(f2d_probe_survives(&ctx, "sched", bad, len));
	CU_ASSERT_TRUE(f2d_probe_survives(&ctx, "sched", text, len));
	/* asked again: the same answers */
	CU_ASSERT_FALSE(f2d_probe_survives(&ctx, "sched", bad, len));
	CU_ASSERT_TRUE(f2d_probe_survives(&ctx, "sched", wake, wlen));
	f2d_probe_stop(&ctx);

	CU_ASSERT_EQUAL(f2d_probe_asked(&ctx), 0);

	/*
	 * foreseen as f2d_format_add() will ask (the fields alone, for a
	 * converter): refused without a crash, and nothing asked again
	 */
	CU_ASSERT_EQUAL(f2d_format_foresee(&ctx, "sched", bad, len), 0);
	CU_ASSERT_EQUAL(f2d_format_foresee(&ctx, "sched", wake, wlen), 0);
	CU_ASSERT_EQUAL(f2d_probe_asked(&ctx), 2);
	CU_ASSERT_EQUAL(f2d_format_add(&ctx, "sched", bad, len, 0, NULL),
			-EINVAL);
	CU_ASSERT_EQUAL(f2d_format_add(&ctx, "sched", wake, wlen, 0, &f), 0);
	CU_ASSERT_PTR_NOT_NULL(f);
	CU_ASSERT_EQUAL(ctx.nr_fmts, 1);
	printf("\n# a bad and a good format foreseen, then added: %zu texts "
	       "asked of the child\n", f2d_probe_asked(&ctx));
	CU_ASSERT_EQUAL(f2d_probe_asked(&ctx), 2);
	free(text);
	free(wake);
	free(bad);
	f2d_formats_free(&ctx);
	tep_free(ctx.tep);
}

/* Another producer's context switch, as the kernel's sched_switch. */
static void test_feed_sched_switch(void)
{
	struct feed *f = feed_new();
	const struct fxt_arg src = { .type = FXT_ARG_STRING,
				     .name = NAME("source"),
				     .str = NAME("event") };
	struct fxt_record rec = { .type = FXT_REC_KERNEL_OBJ };
	struct got *g;

	rec.kobj.obj_type = FXT_OBJ_THREAD;
	rec.kobj.koid = 100;
	rec.kobj.name = fxt_str_make("worker", 6);
	CU_ASSERT_EQUAL(feed(f, &rec), 0);
	/* a name an event revealed is no saved cmdline: not used */
	rec.kobj.koid = 200;
	rec.kobj.name = fxt_str_make("hidden", 6);
	rec.kobj.args = &src;
	rec.kobj.nargs = 1;
	CU_ASSERT_EQUAL(feed(f, &rec), 0);

	memset(&rec, 0, sizeof(rec));
	rec.type = FXT_REC_SCHED;
	rec.sched.subtype = FXT_SCHED_LEGACY_SWITCH;
	rec.sched.ts = 5000;
	rec.sched.cpu = 1;
	rec.sched.out_state = FXT_THREAD_BLOCKED;
	rec.sched.out.tid = 100;
	rec.sched.out_prio = 120;
	rec.sched.in.tid = 200;
	rec.sched.in_prio = 110;
	CU_ASSERT_EQUAL(feed(f, &rec), 0);
	CU_ASSERT_EQUAL_FATAL(f->sink.n, 1);
	g = &f->sink.rec[0];
	CU_ASSERT_EQUAL(g->buffer, 0);
	CU_ASSERT_EQUAL(g->cpu, 1);
	CU_ASSERT_EQUAL(g->ts, 5000000);	/* 1e6 ticks a second */
	CU_ASSERT_EQUAL_FATAL(g->len, 64);
	CU_ASSERT(le(g->data, 2) >= F2D_FIRST_ID);
	CU_ASSERT_EQUAL(le(g->data + 4, 4), 100);
	CU_ASSERT_STRING_EQUAL((char *)g->data + 8, "worker");
	CU_ASSERT_EQUAL(le(g->data + 24, 4), 100);
	CU_ASSERT_EQUAL(le(g->data + 28, 4), 120);
	CU_ASSERT_EQUAL(le(g->data + 32, 8), 1);	/* blocked: S */
	CU_ASSERT_STRING_EQUAL((char *)g->data + 40, "<...>");
	CU_ASSERT_EQUAL(le(g->data + 56, 4), 200);
	CU_ASSERT_EQUAL(le(g->data + 60, 4), 110);

	/* a switch to the idle task: swapper/CPU */
	rec.sched.ts = 6000;
	rec.sched.out_state = FXT_THREAD_DEAD;
	rec.sched.out.tid = 200;
	rec.sched.in.tid = 0;
	CU_ASSERT_EQUAL(feed(f, &rec), 0);
	CU_ASSERT_EQUAL_FATAL(f->sink.n, 2);
	g = &f->sink.rec[1];
	CU_ASSERT_EQUAL(le(g->data + 32, 8), 0x10);	/* dead: X */
	CU_ASSERT_STRING_EQUAL((char *)g->data + 40, "swapper/1");
	CU_ASSERT_EQUAL(f->st.skipped, 0);
	feed_free(f);
}

/* Events and logs of another producer: the fxt system's layout. */
static void test_feed_fxt_event_and_log(void)
{
	static const uint8_t want_args[] = {
		1, 0, 1, 0, 'a', 0xfe, 0xff, 0xff, 0xff,
		6, 0, 1, 0, 's', 2, 0, 0, 0, 'h', 'i',
	};
	const struct fxt_arg args[] = {
		{ .type = FXT_ARG_INT32, .name = NAME("a"), .i32 = -2 },
		{ .type = FXT_ARG_STRING, .name = NAME("s"),
		  .str = NAME("hi") },
	};
	struct feed *f = feed_new();
	struct fxt_record rec = { .type = FXT_REC_LOG };
	const uint8_t *p;
	struct got *g;
	size_t len;

	CU_ASSERT_EQUAL(feed_instant(f, "app", "tick", 7, 3, args, 2), 0);
	CU_ASSERT_EQUAL_FATAL(f->sink.n, 1);
	g = &f->sink.rec[0];
	CU_ASSERT_EQUAL(g->ts, 3000);
	CU_ASSERT_EQUAL(g->cpu, 0);	/* no cpu argument, no switch seen */
	CU_ASSERT_EQUAL(le(g->data + 4, 4), 7);
	CU_ASSERT_EQUAL(le(g->data + 8, 8), 7);		/* pid */
	CU_ASSERT_EQUAL(le(g->data + 16, 8), 7);	/* tid */
	CU_ASSERT_EQUAL(le(g->data + 24, 8), 0);	/* id */
	p = data_loc(g, 40, &len);
	CU_ASSERT(p && len == 4 && !memcmp(p, "app", 4));
	p = data_loc(g, 44, &len);
	CU_ASSERT(p && len == 5 && !memcmp(p, "tick", 5));
	p = data_loc(g, 48, &len);
	CU_ASSERT(p && len == sizeof(want_args) &&
		  !memcmp(p, want_args, len));

	rec.log.ts = 4;
	rec.log.thread.pid = 7;
	rec.log.thread.tid = 8;
	rec.log.msg = fxt_str_make("hello", 5);
	CU_ASSERT_EQUAL(feed(f, &rec), 0);
	CU_ASSERT_EQUAL_FATAL(f->sink.n, 2);
	g = &f->sink.rec[1];
	CU_ASSERT_EQUAL(le(g->data + 8, 8), 7);
	CU_ASSERT_EQUAL(le(g->data + 16, 8), 8);
	p = data_loc(g, 24, &len);
	CU_ASSERT(p && len == 6 && !memcmp(p, "hello", 6));
	/* two formats made: fxt/instant and fxt/log, different ids */
	CU_ASSERT_NOT_EQUAL(le(f->sink.rec[0].data, 2), le(g->data, 2));
	feed_free(f);
}

/*
 * FXT that trace-fxt made from a .dat: the format travels in an
 * event_format instant, the event's fields in its instant and a .cont,
 * and the record comes back at the kernel's offsets with its own id.
 */
static void test_feed_restored(void)
{
	size_t len;
	char *text = unit_slurp("tests/unit/dat-formats/sched_switch.format",
				&len);
	const struct fxt_arg info[] = {
		{ .type = FXT_ARG_UINT32, .name = NAME(TCFXT_INFO_CPUS),
		  .u32 = 4 },
	};
	const struct fxt_arg fmt[] = {
		{ .type = FXT_ARG_STRING, .name = NAME(TCFXT_ARG_SYSTEM),
		  .str = NAME("sched") },
		{ .type = FXT_ARG_STRING, .name = NAME("format"),
		  .str = { .ptr = text, .len = len } },
	};
	const struct fxt_arg ev[] = {
		{ .type = FXT_ARG_UINT32, .name = NAME(TCFXT_ARG_CPU), .u32 = 3 },
		{ .type = FXT_ARG_UINT32, .name = NAME(TCFXT_ARG_FLAGS),
		  .u32 = 1 },
		{ .type = FXT_ARG_UINT32, .name = NAME(TCFXT_ARG_PREEMPT),
		  .u32 = 2 },
		{ .type = FXT_ARG_STRING, .name = NAME("prev_comm"),
		  .str = NAME("foo") },
		{ .type = FXT_ARG_INT32, .name = NAME("prev_pid"), .i32 = 42 },
		{ .type = FXT_ARG_STRING, .name = NAME("prev_pid.text"),
		  .str = NAME("ignored") },
		{ .type = FXT_ARG_INT64, .name = NAME("prev_state"), .i64 = 1 },
	};
	const struct fxt_arg cont[] = {
		{ .type = FXT_ARG_STRING, .name = NAME("next_comm"),
		  .str = NAME("bar") },
		{ .type = FXT_ARG_INT32, .name = NAME("next_pid"), .i32 = 43 },
		{ .type = FXT_ARG_INT32, .name = NAME("next_prio"),
		  .i32 = -1 },
	};
	struct feed *f = feed_new();
	struct got *g;

	CU_ASSERT_EQUAL(feed_instant(f, TCFXT_CAT, TCFXT_FILE_INFO, 0, 0,
				     info, 1), 0);
	CU_ASSERT_EQUAL(feed_instant(f, TCFXT_CAT, TCFXT_EVENT_FORMAT, 0, 0,
				     fmt, 2), 0);
	CU_ASSERT_EQUAL(feed_instant(f, "sched", "sched_switch", 42, 10,
				     ev, 7), 0);
	CU_ASSERT_EQUAL(feed_instant(f, "sched",
				     "sched_switch" TCFXT_CONT_SUFFIX, 42, 10,
				     cont, 3), 0);
	CU_ASSERT_EQUAL(f->sink.n, 0);	/* more might follow */
	CU_ASSERT_EQUAL(fxt2dat_feed_flush(&f->ctx), 0);
	CU_ASSERT_EQUAL_FATAL(f->sink.n, 1);
	g = &f->sink.rec[0];
	CU_ASSERT_EQUAL(g->cpu, 3);
	CU_ASSERT_EQUAL(g->ts, 10000);
	CU_ASSERT_EQUAL_FATAL(g->len, 64);
	CU_ASSERT_EQUAL(le(g->data, 2), 372);	/* the kernel's id */
	CU_ASSERT_EQUAL(g->data[2], 1);
	CU_ASSERT_EQUAL(g->data[3], 2);
	CU_ASSERT_EQUAL(le(g->data + 4, 4), 42);
	CU_ASSERT_STRING_EQUAL((char *)g->data + 8, "foo");
	CU_ASSERT_EQUAL(le(g->data + 24, 4), 42);
	CU_ASSERT_EQUAL(le(g->data + 32, 8), 1);
	CU_ASSERT_STRING_EQUAL((char *)g->data + 40, "bar");
	CU_ASSERT_EQUAL(le(g->data + 56, 4), 43);
	CU_ASSERT_EQUAL(le(g->data + 60, 4), 0xffffffff);
	CU_ASSERT_EQUAL(f->st.restored, 1);
	CU_ASSERT_TRUE(f->ctx.have_info);
	CU_ASSERT_EQUAL(f->ctx.info_cpus, 4);
	free(text);
	feed_free(f);
}

static CU_TestInfo piece_tests[] = {
	{ "table: task names, CPUs, providers as buffers, ticks",
	  test_tables },
	{ "table: texts grow; page sizes fit an event", test_text_and_pages },
	{ "format: the kernel's sched_switch, a record built by it",
	  test_format_and_builder },
	{ "format: ids and offsets a .dat cannot hold are refused",
	  test_format_refused },
	{ "probe: formats tried ahead, out of order, one the child dies on",
	  test_probe_ahead },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo feed_tests[] = {
	{ "context switches: sched_switch with comm, prio, prev_state",
	  test_feed_sched_switch },
	{ "other producers' events and logs: fxt/instant, fxt/log",
	  test_feed_fxt_event_and_log },
	{ "trace-fxt's own FXT: the ftrace record restored, .cont included",
	  test_feed_restored },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt2dat pieces", NULL, NULL, NULL, NULL, piece_tests },
	{ "fxt2dat records through the driver to a sink", NULL, NULL, NULL,
	  NULL, feed_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
