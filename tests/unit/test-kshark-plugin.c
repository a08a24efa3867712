// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-kshark-plugin - plugin-fxt.so as KernelShark uses it: registered
 * and opened through the real libkshark, its plot part on every stream
 * as the kernelshark program puts a -p plugin there, on FXT files written
 * here with the core's writer so that every expected entry is spelled out
 * below.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "fxt-writer.h"
#include "unit.h"

#define ARG(t, n, field, v) { .type = (t), .name = FXT_ARG_STR_NAME(n), \
			      .field = (v) }

static struct kshark_context *ctx;
static char dir[] = "/tmp/test-kshark-XXXXXX";

static const char *tmp_path(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static struct fxt_thread thr(uint64_t pid, uint64_t tid)
{
	struct fxt_thread t = { pid, tid };

	return t;
}

static int ev(struct fxt_writer *w, unsigned int type, uint64_t ts,
	      struct fxt_thread t, const char *cat, const char *name,
	      uint64_t id, uint64_t end, const struct fxt_arg *args,
	      unsigned int nargs)
{
	struct fxt_event e = {
		.type = type, .ts = ts, .thread = t,
		.category = fxt_writer_str(w, cat),
		.name = fxt_writer_str(w, name),
		.id = id, .end_ts = end, .nargs = nargs, .args = args,
	};

	return fxt_write_event(w, &e);
}

/*
 * The fixture: one record of every kind, two providers with different
 * clocks, a record out of time order, and a provider shaped as the
 * converter writes them, with records beside its events.  EXPECTED lists
 * what KernelShark must show.
 */
static int write_fixture(const char *path, unsigned int flags)
{
	struct fxt_arg proc = ARG(FXT_ARG_KOID, "process", koid, 10);
	struct fxt_arg many[] = {
		ARG(FXT_ARG_INT32, "a", i32, -5),
		ARG(FXT_ARG_UINT64, "b", u64, 7),
		ARG(FXT_ARG_DOUBLE, "d", d, 1.5),
		{ .type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME("s"),
		  .str = FXT_ARG_STR_NAME("hello") },
		ARG(FXT_ARG_POINTER, "p", ptr, 0x1000),
		ARG(FXT_ARG_KOID, "k", koid, 99),
		ARG(FXT_ARG_BOOL, "yes", b, true),
	};
	struct fxt_arg cpu3 = ARG(FXT_ARG_UINT32, "cpu", u32, 3);
	struct fxt_arg cpu1 = ARG(FXT_ARG_UINT32, "cpu", u32, 1);
	struct fxt_arg cpu0 = ARG(FXT_ARG_UINT32, "cpu", u32, 0);
	struct fxt_arg value = ARG(FXT_ARG_INT64, "value", i64, 42);
	struct fxt_arg marker[] = {
		ARG(FXT_ARG_UINT32, "cpu", u32, 1),
		{ .type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME("buf"),
		  .str = FXT_ARG_STR_NAME("B|10|x\tend\n") },
	};
	struct fxt_arg weight = ARG(FXT_ARG_INT32, "incoming_weight", i32, 5);
	struct fxt_arg more = ARG(FXT_ARG_INT32, "more", i32, 7);
	struct fxt_arg sw[] = {
		ARG(FXT_ARG_UINT32, "cpu", u32, 1),
		{ .type = FXT_ARG_STRING,
		  .name = FXT_ARG_STR_NAME("prev_state.text"),
		  .str = FXT_ARG_STR_NAME("S") },
	};
	struct fxt_legacy_switch lcs = {
		.ts = 100, .cpu = 2, .out_state = FXT_THREAD_BLOCKED,
		.out = thr(10, 11), .in = thr(10, 12),
		.out_prio = 3, .in_prio = 4,
	};
	struct fxt_sched_switch cs = {
		.ts = 950, .cpu = 1, .out_state = FXT_THREAD_RUNNING,
		.out_tid = 12, .in_tid = 11, .nargs = 1, .args = &weight,
	};
	struct fxt_sched_switch cs2 = {
		.ts = 1100, .cpu = 1, .out_state = FXT_THREAD_BLOCKED,
		.out_tid = 11, .in_tid = 12,
	};
	struct fxt_sched_switch cs3 = {
		.ts = 3, .cpu = 1, .out_state = FXT_THREAD_BLOCKED,
		.out_tid = 21, .in_tid = 22,
	};
	/* the waker's entry, as the kernel's sched_waking */
	struct fxt_arg waker = ARG(FXT_ARG_KOID, "waker", koid, 11);
	struct fxt_sched_wakeup wk = { .ts = 960, .cpu = 0, .tid = 12,
				       .nargs = 1, .args = &waker };
	struct fxt_sched_wakeup wk2 = { .ts = 1200, .cpu = 3, .tid = 11 };
	struct fxt_thread t11 = thr(10, 11);
	struct fxt_large_blob lb = {
		.format = FXT_LARGE_BLOB_METADATA,
		.ts = 970, .thread = thr(30, 30), .data = "12345", .size = 5,
	};
	struct fxt_large_blob lb1 = {
		.format = FXT_LARGE_BLOB_NO_META, .data = "678", .size = 3,
	};
	struct fxt_writer *w;
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f)
		return -errno;
	w = fxt_writer_create_fp(f, flags);
	if (!w) {
		fclose(f);
		return -ENOMEM;
	}
	lb.category = lb1.category = fxt_writer_str(w, "cat");
	lb.name = lb1.name = fxt_writer_str(w, "big");
#define W(call) do { if (!ret) ret = (call); } while (0)
	W(fxt_write_provider_info(w, 1, "main", 4));
	W(fxt_write_init(w, 1000000000));
	W(fxt_write_kernel_object(w, 10, FXT_OBJ_PROCESS,
				  fxt_str_make("proc", 4), NULL, 0));
	W(fxt_write_kernel_object(w, 11, FXT_OBJ_THREAD,
				  fxt_str_make("eleven", 6), &proc, 1));
	W(fxt_write_kernel_object(w, 12, FXT_OBJ_THREAD,
				  fxt_str_make("twelve", 6), &proc, 1));
	W(fxt_write_kernel_object(w, 30, FXT_OBJ_PROCESS,
				  fxt_str_make("procthirty", 10), NULL, 0));
	W(fxt_write_legacy_switch(w, &lcs));
	W(ev(w, FXT_EVENT_INSTANT, 200, thr(10, 12), "cat", "inst", 0, 0,
	     many, 7));
	W(ev(w, FXT_EVENT_INSTANT, 300, t11, "cat", "oncpu", 0, 0, &cpu3, 1));
	W(ev(w, FXT_EVENT_COUNTER, 400, t11, "cat", "count", 7, 0, &value, 1));
	W(ev(w, FXT_EVENT_DURATION_BEGIN, 500, thr(10, 12), "cat", "dur", 0, 0,
	     NULL, 0));
	W(ev(w, FXT_EVENT_DURATION_END, 600, thr(10, 12), "cat", "dur", 0, 0,
	     NULL, 0));
	W(ev(w, FXT_EVENT_DURATION_COMPLETE, 700, thr(10, 12), "cat", "comp",
	     0, 750, NULL, 0));
	W(ev(w, FXT_EVENT_ASYNC_BEGIN, 800, t11, "cat", "as", 9, 0, NULL, 0));
	W(ev(w, FXT_EVENT_ASYNC_INSTANT, 810, t11, "cat", "as", 9, 0, NULL, 0));
	W(ev(w, FXT_EVENT_ASYNC_END, 820, t11, "cat", "as", 9, 0, NULL, 0));
	W(ev(w, FXT_EVENT_FLOW_BEGIN, 830, t11, "cat", "fl", 5, 0, NULL, 0));
	W(ev(w, FXT_EVENT_FLOW_STEP, 840, t11, "cat", "fl", 5, 0, NULL, 0));
	W(ev(w, FXT_EVENT_FLOW_END, 850, t11, "cat", "fl", 5, 0, NULL, 0));
	W(fxt_write_log(w, 900, &t11, "log text", 8));
	W(fxt_write_sched_switch(w, &cs));
	W(fxt_write_sched_wakeup(w, &wk));
	W(fxt_write_large_blob(w, &lb));
	W(fxt_write_large_blob(w, &lb1));
	W(fxt_write_blob(w, fxt_str_make("b", 1), FXT_BLOB_DATA, "xyz", 3));
	W(fxt_write_userspace_object(w, 0x1234, 10, fxt_str_make("obj", 3),
				     NULL, 0));
	W(ev(w, FXT_EVENT_INSTANT, 980, thr(0, 0), "cat", "idle", 0, 0,
	     NULL, 0));
	W(ev(w, FXT_EVENT_INSTANT, 990, thr(40, 41), "cat", "anon", 0, 0,
	     NULL, 0));
	W(ev(w, FXT_EVENT_INSTANT, 50, t11, "cat", "late", 0, 0, NULL, 0));
	/*
	 * A provider written by trace-fxt's converter (it begins with its
	 * mark, itself no entry): the ftrace events (an instant whose first
	 * argument is "cpu") are the entries, everything written beside them
	 * folds into them, a ".cont" instant's arguments join its event's,
	 * "<field>.text" renderings are no fields.  Same clock as "main".
	 */
	W(fxt_write_provider_info(w, 3, "conv", 4));
	W(fxt_write_init(w, 1000000000));
	W(ev(w, FXT_EVENT_INSTANT, 1050, thr(0, 0), "trace-cmd", "file_info",
	     0, 0, &cpu0, 1));
	/* sched_switch: instant, then the switch record. */
	W(ev(w, FXT_EVENT_INSTANT, 1100, t11, "sched", "sched_switch", 0, 0,
	     sw, 2));
	W(fxt_write_sched_switch(w, &cs2));
	/* A wakeup written the other way round, on another CPU. */
	W(fxt_write_sched_wakeup(w, &wk2));
	W(ev(w, FXT_EVENT_INSTANT, 1200, thr(10, 12), "sched", "sched_waking",
	     0, 0, &cpu0, 1));
	W(ev(w, FXT_EVENT_INSTANT, 1200, thr(10, 12), "sched",
	     "sched_waking.cont", 0, 0, &more, 1));
	/* A trace_marker write: instant, log, its atrace meaning, and a
	 * counter as for a counter-like event. */
	W(ev(w, FXT_EVENT_INSTANT, 1300, t11, "ftrace", "print", 0, 0,
	     marker, 2));
	W(fxt_write_log(w, 1300, &t11, "B|10|x", 6));
	W(ev(w, FXT_EVENT_DURATION_BEGIN, 1300, t11, "atrace", "x", 0, 0,
	     NULL, 0));
	W(ev(w, FXT_EVENT_COUNTER, 1300, t11, "counter", "x", 0, 0,
	     &value, 1));
	/* A second provider that counts microseconds. */
	W(fxt_write_provider_info(w, 2, "second", 6));
	W(fxt_write_init(w, 1000000));
	W(ev(w, FXT_EVENT_INSTANT, 1, thr(20, 21), "p2", "e2", 0, 0, NULL, 0));
	W(ev(w, FXT_EVENT_COUNTER, 2, thr(20, 21), "cat", "inst", 1, 0,
	     &value, 1));
	/* Shaped like a restatement, but no trace-fxt mark: two entries. */
	W(ev(w, FXT_EVENT_INSTANT, 3, thr(20, 21), "p2", "own", 0, 0,
	     &cpu1, 1));
	W(fxt_write_sched_switch(w, &cs3));
#undef W
	if (!ret)
		ret = fxt_writer_close(w);
	else
		fxt_writer_close(w);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

struct expect {
	int64_t		ts;
	int		cpu;
	int		pid;
	const char	*event;
	const char	*task;
	const char	*info;
	const char	*aux;
	/*
	 * The pid a context switch is drawn with while the plot part is on
	 * (the task switched in, as KernelShark's sched_events draws a
	 * .dat's), 0 for the row's own.
	 */
	int		drawn;
};

static const struct expect EXPECTED[] = {
	{ 50, 1, 11, "cat/late", "eleven", "", "main", 0 },
	{ 100, 2, 11, "fxt/context_switch", "eleven",
	  "prev_pid=11 prev_state=blocked next_pid=12 prev_prio=3 next_prio=4",
	  "main", 12 },
	{ 200, 2, 12, "cat/inst", "twelve",
	  "a=-5 b=7 d=1.5 s=hello p=0x1000 k=99 yes=true", "main", 0 },
	{ 300, 3, 11, "cat/oncpu", "eleven", "", "main", 0 },
	{ 400, 2, 11, "cat/count", "eleven", "value=42 id=7", "main", 0 },
	{ 500, 2, 12, "cat/dur (begin)", "twelve", "", "main", 0 },
	{ 600, 2, 12, "cat/dur (end)", "twelve", "", "main", 0 },
	{ 700, 2, 12, "cat/comp (complete)", "twelve", "duration=50", "main",
	  0 },
	{ 800, 2, 11, "cat/as (async begin)", "eleven", "id=9", "main", 0 },
	{ 810, 2, 11, "cat/as (async instant)", "eleven", "id=9", "main", 0 },
	{ 820, 2, 11, "cat/as (async end)", "eleven", "id=9", "main", 0 },
	{ 830, 2, 11, "cat/fl (flow begin)", "eleven", "id=5", "main", 0 },
	{ 840, 2, 11, "cat/fl (flow step)", "eleven", "id=5", "main", 0 },
	{ 850, 2, 11, "cat/fl (flow end)", "eleven", "id=5", "main", 0 },
	{ 900, 2, 11, "fxt/log", "eleven", "message=log text", "main", 0 },
	{ 950, 1, 12, "fxt/context_switch", "twelve",
	  "prev_pid=12 prev_state=running next_pid=11 incoming_weight=5",
	  "main", 11 },
	{ 960, 0, 11, "fxt/thread_wakeup", "eleven", "pid=12 waker=11",
	  "main", 0 },
	{ 970, 0, 30, "cat/big (blob)", "procthirty", "size=5", "main", 0 },
	{ 980, 0, 0, "cat/idle", "<idle>", "", "main", 0 },
	{ 990, 0, 41, "cat/anon", "<...>", "", "main", 0 },
	{ 1000, 0, 21, "p2/e2", "<...>", "", "second", 0 },
	{ 1100, 1, 11, "sched/sched_switch", "eleven", "", NULL, 0 },
	{ 1200, 0, 12, "sched/sched_waking", "twelve", "more=7", NULL, 0 },
	/* text one row cannot show is quoted, as plugin_fxt.so does */
	{ 1300, 1, 11, "ftrace/print", "eleven", "buf=\"B|10|x\\tend\\n\"",
	  NULL, 0 },
	{ 2000, 0, 21, "cat/inst (counter)", "<...>", "value=42 id=1",
	  "second", 0 },
	{ 3000, 1, 21, "p2/own", "<...>", "", "second", 0 },
	{ 3000, 1, 21, "fxt/context_switch", "<...>",
	  "prev_pid=21 prev_state=blocked next_pid=22", "second", 22 },
};
#define N_EXPECTED	(sizeof(EXPECTED) / sizeof(EXPECTED[0]))
#define N_EVENTS	25

struct loaded {
	int			sd;
	ssize_t			n;
	struct kshark_entry	**rows;
};

/*
 * plugin-fxt.so's plot part on stream @sd, as KernelShark puts a plugin
 * given with -p on every stream of the file it opens
 * (KsDataStore::_addPluginsToStream()).
 */
static void plot_attach(int sd)
{
	struct kshark_plugin_list *p;
	struct kshark_data_stream *st;
	struct kshark_dpi_list *dpi;

	p = kshark_find_plugin_by_name(ctx->plugins, "fxt");
	st = kshark_get_data_stream(ctx, sd);
	CU_ASSERT_FATAL(p && p->process_interface && st);
	dpi = kshark_register_plugin_to_stream(st, p->process_interface, true);
	CU_ASSERT_FATAL(dpi != NULL);
	kshark_handle_dpi(st, dpi, KSHARK_PLUGIN_INIT);
}

/* @path's top stream loaded, the plot part on (@plot) or not. */
static struct loaded load_with(const char *path, bool plot)
{
	struct loaded l = { .sd = -1, .n = -1, .rows = NULL };
	int sd;

	l.sd = kshark_open(ctx, path);
	for (sd = l.sd; plot && sd >= 0 &&
	     sd <= ctx->stream_info.max_stream_id; sd++)
		if (kshark_get_data_stream(ctx, sd))
			plot_attach(sd);
	if (l.sd >= 0)
		l.n = kshark_load_entries(ctx, l.sd, &l.rows);
	return l;
}

static struct loaded load(const char *path)
{
	return load_with(path, true);
}

static void unload(struct loaded *l)
{
	ssize_t i;

	for (i = 0; i < l->n; i++)
		free(l->rows[i]);
	free(l->rows);
	if (l->sd >= 0)
		kshark_close(ctx, l->sd);
	l->sd = -1;
	l->n = -1;
	l->rows = NULL;
}

static int suite_init(void)
{
	const char *plugin = unit_build_path("kernelshark-plugin/plugin-fxt.so");

	if (!mkdtemp(dir) || !kshark_instance(&ctx))
		return -1;
	if (!kshark_register_plugin(ctx, "fxt", plugin))
		return -1;
	if (write_fixture(tmp_path("all.fxt"), 0) ||
	    write_fixture(tmp_path("all-be.fxt"), FXT_WRITER_BIG_ENDIAN) ||
	    write_fixture(tmp_path("all.bin"), 0))
		return -1;
	return 0;
}

static int suite_clean(void)
{
	char cmd[300];

	kshark_free(ctx);
	ctx = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void check_string(char *got, const char *want, size_t row,
			 const char *what)
{
	if (!want) {
		CU_ASSERT_PTR_NULL(got);
	} else if (!got || strcmp(got, want)) {
		fprintf(stderr, "\nrow %zu %s: got \"%s\", want \"%s\"\n", row,
			what, got ? got : "(null)", want);
		CU_FAIL("string mismatch");
	}
	free(got);
}

/* @path's entries, as EXPECTED says, the plot part on or not (@plot). */
static void check_expected_with(const char *path, bool plot)
{
	struct kshark_data_stream *stream;
	struct loaded l = load_with(path, plot);
	size_t i;

	CU_ASSERT_FATAL(l.sd >= 0);
	CU_ASSERT_EQUAL_FATAL(l.n, (ssize_t)N_EXPECTED);
	stream = kshark_get_data_stream(ctx, l.sd);
	CU_ASSERT_FATAL(stream != NULL);
	CU_ASSERT_STRING_EQUAL(stream->data_format, "fxt");
	CU_ASSERT_EQUAL(stream->n_cpus, 4);
	CU_ASSERT_EQUAL(stream->n_events, N_EVENTS);
	CU_ASSERT_EQUAL(stream->idle_pid, 0);

	for (i = 0; i < N_EXPECTED; i++) {
		const struct expect *x = &EXPECTED[i];
		struct kshark_entry *e = l.rows[i];

		int drawn = plot ? x->drawn : 0;

		CU_ASSERT_EQUAL(e->ts, x->ts);
		CU_ASSERT_EQUAL(e->cpu, x->cpu);
		CU_ASSERT_EQUAL(e->pid, drawn ? drawn : x->pid);
		CU_ASSERT_EQUAL(e->stream_id, l.sd);
		/* every switch and wakeup went through a handler */
		if (!plot)
			CU_ASSERT_EQUAL(e->visible, 0xff);
		if (drawn)
			CU_ASSERT_EQUAL(e->visible,
					0xff & ~KS_PLUGIN_UNTOUCHED_MASK);
		CU_ASSERT_EQUAL(kshark_get_pid(e), x->pid);
		check_string(kshark_get_event_name(e), x->event, i, "event");
		check_string(kshark_get_task(e), x->task, i, "task");
		check_string(kshark_get_info(e), x->info, i, "info");
		check_string(kshark_get_aux_info(e), x->aux, i, "aux");
		CU_ASSERT_EQUAL(kshark_find_event_id(stream, x->event),
				e->event_id);
	}
	unload(&l);
}

static void check_expected(const char *path)
{
	check_expected_with(path, true);
}

static void test_every_record_kind(void)
{
	check_expected(tmp_path("all.fxt"));
}

/*
 * Without the plot part (a .dat stream without sched_events), every entry
 * keeps its record's pid, context switches too.
 */
static void test_without_plot_part(void)
{
	check_expected_with(tmp_path("all.fxt"), false);
}

static void test_big_endian(void)
{
	check_expected(tmp_path("all-be.fxt"));
}

/* Recognised by content: KernelShark gives .dat files to trace-cmd only. */
static void test_any_extension(void)
{
	check_expected(tmp_path("all.bin"));
}

static void test_fields(void)
{
	struct loaded l = load(tmp_path("all.fxt"));
	struct kshark_entry *e;
	char **names = NULL;
	int64_t v = 0;
	int n, i;

	CU_ASSERT_FATAL(l.n == (ssize_t)N_EXPECTED);
	e = l.rows[2];		/* cat/inst */
	n = kshark_get_all_event_field_names(e, &names);
	CU_ASSERT_EQUAL(n, 7);
	if (n == 7) {
		CU_ASSERT_STRING_EQUAL(names[0], "a");
		CU_ASSERT_STRING_EQUAL(names[3], "s");
		CU_ASSERT_STRING_EQUAL(names[6], "yes");
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);

	CU_ASSERT_EQUAL(kshark_get_event_field_type(e, "a"), KS_INTEGER_FIELD);
	CU_ASSERT_EQUAL(kshark_get_event_field_type(e, "d"), KS_FLOAT_FIELD);
	CU_ASSERT_EQUAL(kshark_get_event_field_type(e, "s"), KS_INVALID_FIELD);
	CU_ASSERT_EQUAL(kshark_get_event_field_type(e, "nope"),
			KS_INVALID_FIELD);
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "a", &v), 0);
	CU_ASSERT_EQUAL(v, -5);
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "p", &v), 0);
	CU_ASSERT_EQUAL(v, 0x1000);
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "yes", &v), 0);
	CU_ASSERT_EQUAL(v, 1);
	CU_ASSERT(kshark_read_event_field_int(e, "s", &v) < 0);
	CU_ASSERT(kshark_read_event_field_int(e, "nope", &v) < 0);

	e = l.rows[1];		/* context switch */
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "next_pid", &v), 0);
	CU_ASSERT_EQUAL(v, 12);
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "prev_state", &v), 0);
	CU_ASSERT_EQUAL(v, FXT_THREAD_BLOCKED);
	e = l.rows[7];		/* complete duration */
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "duration", &v), 0);
	CU_ASSERT_EQUAL(v, 50);
	e = l.rows[4];		/* counter */
	CU_ASSERT_EQUAL(kshark_read_event_field_int(e, "value", &v), 0);
	CU_ASSERT_EQUAL(v, 42);
	unload(&l);
}

static void test_ids_and_tasks(void)
{
	struct loaded l = load(tmp_path("all.fxt"));
	struct kshark_data_stream *stream;
	int *ids, *pids = NULL, i;
	ssize_t n;

	CU_ASSERT_FATAL(l.n == (ssize_t)N_EXPECTED);
	stream = kshark_get_data_stream(ctx, l.sd);
	ids = kshark_get_all_event_ids(stream);
	CU_ASSERT_FATAL(ids != NULL);
	for (i = 0; i < stream->n_events; i++) {
		char *name = kshark_event_from_id(l.sd, ids[i]);

		CU_ASSERT_PTR_NOT_NULL(name);
		CU_ASSERT_EQUAL(kshark_find_event_id(stream, name), ids[i]);
		free(name);
	}
	free(ids);
	CU_ASSERT(kshark_find_event_id(stream, "no/such") < 0);

	n = kshark_get_task_pids(ctx, l.sd, &pids);
	/*
	 * 0, 11, 12, 21, 30, 41, and 22, the task switched in at 3000: the
	 * tasks a .dat stream learns with KernelShark's sched_events.
	 */
	CU_ASSERT_EQUAL(n, 7);
	free(pids);
	check_string(kshark_comm_from_pid(l.sd, 12), "twelve", 0, "comm");
	check_string(kshark_comm_from_pid(l.sd, 30), "procthirty", 0, "comm");
	unload(&l);

	/* without sched_events a .dat stream's tasks are its records' */
	l = load_with(tmp_path("all.fxt"), false);
	CU_ASSERT_FATAL(l.n == (ssize_t)N_EXPECTED);
	n = kshark_get_task_pids(ctx, l.sd, &pids);
	CU_ASSERT_EQUAL(n, 6);
	free(pids);
	unload(&l);
}

/* The matrix, with the plot part on (@plot) or not. */
static void check_matrix(bool plot)
{
	int16_t *event = NULL, *cpu = NULL;
	int64_t *offset = NULL, *ts = NULL;
	int32_t *pid = NULL;
	ssize_t n, i;
	int sd, drawn;

	sd = kshark_open(ctx, tmp_path("all.fxt"));
	CU_ASSERT_FATAL(sd >= 0);
	if (plot)
		plot_attach(sd);
	n = kshark_load_matrix(ctx, sd, &event, &cpu, &pid, &offset, &ts);
	CU_ASSERT_EQUAL(n, (ssize_t)N_EXPECTED);
	for (i = 0; i < n && i < (ssize_t)N_EXPECTED; i++) {
		drawn = plot ? EXPECTED[i].drawn : 0;
		CU_ASSERT_EQUAL(ts[i], EXPECTED[i].ts);
		CU_ASSERT_EQUAL(cpu[i], EXPECTED[i].cpu);
		CU_ASSERT_EQUAL(pid[i], drawn ? drawn : EXPECTED[i].pid);
	}
	free(event);
	free(cpu);
	free(pid);
	free(offset);
	free(ts);
	kshark_close(ctx, sd);
}

static void test_matrix(void)
{
	check_matrix(true);
	check_matrix(false);
}

static void test_filters(void)
{
	struct loaded l = load(tmp_path("all.fxt"));
	struct kshark_data_stream *stream;
	int id, hidden = 0;
	ssize_t i;

	CU_ASSERT_FATAL(l.n == (ssize_t)N_EXPECTED);
	stream = kshark_get_data_stream(ctx, l.sd);
	id = kshark_find_event_id(stream, "cat/inst");
	CU_ASSERT_FATAL(id >= 0);
	ctx->filter_mask = KS_TEXT_VIEW_FILTER_MASK | KS_GRAPH_VIEW_FILTER_MASK;
	kshark_filter_add_id(ctx, l.sd, KS_HIDE_EVENT_FILTER, id);
	kshark_filter_add_id(ctx, l.sd, KS_HIDE_TASK_FILTER, 41);
	kshark_filter_stream_entries(ctx, l.sd, l.rows, (size_t)l.n);
	for (i = 0; i < l.n; i++) {
		bool shown = l.rows[i]->visible & KS_TEXT_VIEW_FILTER_MASK;

		if (!shown)
			hidden++;
		CU_ASSERT_EQUAL(shown, l.rows[i]->event_id != id &&
				       l.rows[i]->pid != 41);
	}
	CU_ASSERT_EQUAL(hidden, 2);
	/* Entries loaded while a filter is set come out filtered already. */
	unload(&l);
	ctx->filter_mask = 0;
}

static const char *write_bytes(const char *name, const void *p, size_t n)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "wb");

	if (!f)
		return NULL;
	if (n && fwrite(p, 1, n, f) != n) {
		fclose(f);
		return NULL;
	}
	return fclose(f) ? NULL : path;
}

static void *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* The plugin names every fault on stderr: thousands of lines here. */
static int quiet_begin(void)
{
	int saved = dup(STDERR_FILENO);

	if (!freopen("/dev/null", "w", stderr))
		return saved;
	return saved;
}

static void quiet_end(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/* Opened or refused, never a crash; what loads is sane. */
static void load_damaged(const char *path, size_t size)
{
	struct loaded l = load(path);
	ssize_t i;

	if (l.sd < 0)
		return;
	CU_ASSERT(l.n >= 0 && (size_t)l.n <= size / 8);
	for (i = 0; i < l.n; i++) {
		char *s = kshark_dump_entry(l.rows[i]);

		CU_ASSERT_PTR_NOT_NULL(s);
		free(s);
		if (i)
			CU_ASSERT(l.rows[i - 1]->ts <= l.rows[i]->ts);
	}
	unload(&l);
}

static void test_not_fxt_refused(void)
{
	static const char text[] = "this is not a trace, only text.\n";
	static const uint8_t magic[8] = { 0x10, 0x00, 0x04, 0x46,
					  0x78, 0x54, 0x16, 0x00 };
	struct loaded l;
	const char *p;

	p = write_bytes("text.fxt", text, sizeof(text));
	CU_ASSERT(kshark_open(ctx, p) < 0);
	p = write_bytes("empty.fxt", "", 0);
	CU_ASSERT(kshark_open(ctx, p) < 0);
	CU_ASSERT(kshark_open(ctx, tmp_path("missing.fxt")) < 0);
	/* A lone magic record is a valid, empty trace: it opens, empty. */
	p = write_bytes("magic.fxt", magic, sizeof(magic));
	l = load(p);
	CU_ASSERT(l.sd >= 0);
	CU_ASSERT_EQUAL(l.n, 0);
	unload(&l);
}

static void test_truncated(void)
{
	size_t size, cut;
	const char *p;
	int quiet;
	uint8_t *buf;
	struct loaded l;

	buf = read_all(tmp_path("all.fxt"), &size);
	CU_ASSERT_FATAL(buf != NULL);
	quiet = quiet_begin();
	for (cut = 0; cut < size; cut += cut < 64 ? 1 : 5) {
		p = write_bytes("cut.fxt", buf, cut);
		CU_ASSERT_FATAL(p != NULL);
		load_damaged(p, cut);
	}
	quiet_end(quiet);
	/* Cut in the last record: everything before it is there. */
	p = write_bytes("cut.fxt", buf, size - 4);
	quiet = quiet_begin();
	l = load(p);
	quiet_end(quiet);
	CU_ASSERT_EQUAL(l.n, (ssize_t)N_EXPECTED - 1);
	unload(&l);
	free(buf);
}

static void test_corrupt(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	size_t size, i, k;
	uint8_t *buf, *bad;
	const char *p;
	int quiet;

	buf = read_all(tmp_path("all.fxt"), &size);
	CU_ASSERT_FATAL(buf != NULL);
	bad = malloc(size);
	CU_ASSERT_FATAL(bad != NULL);
	quiet = quiet_begin();
	for (i = 0; i < 400; i++) {
		memcpy(bad, buf, size);
		/* Keep the magic so that the plugin, not the check, decides. */
		for (k = 0; k < 1 + i % 4; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			bad[8 + (seed >> 33) % (size - 8)] ^=
				(uint8_t)(1u << ((seed >> 20) & 7));
		}
		p = write_bytes("bad.fxt", bad, size);
		CU_ASSERT_FATAL(p != NULL);
		load_damaged(p, size);
	}
	quiet_end(quiet);
	free(bad);
	free(buf);
}

/* ---- files that stress one table of the loader ---- */

typedef int (*write_fn)(struct fxt_writer *w, unsigned long n);

static const char *write_with(const char *name, write_fn fn, unsigned long n,
			      unsigned int flags)
{
	const char *path = tmp_path(name);
	struct fxt_writer *w;
	FILE *f = fopen(path, "wb");
	int ret;

	if (!f)
		return NULL;
	w = fxt_writer_create_fp(f, flags);
	if (!w) {
		fclose(f);
		return NULL;
	}
	ret = fn(w, n);
	if (fxt_writer_close(w))
		ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret ? NULL : path;
}

#define WIDE_NAMES	4097	/* one more than an event keeps */

/* One event name, @n distinct argument names over as many records. */
static int write_wide(struct fxt_writer *w, unsigned long n)
{
	struct fxt_arg a[FXT_MAX_ARGS];
	char names[FXT_MAX_ARGS][16];
	unsigned long i = 0;
	unsigned int k;
	int ret;

	ret = fxt_write_provider_info(w, 1, "wide", 4);
	while (!ret && i < n) {
		for (k = 0; k < FXT_MAX_ARGS && i < n; k++, i++) {
			int len = snprintf(names[k], sizeof(names[k]),
					   "f%lu", i);

			a[k].type = FXT_ARG_INT64;
			a[k].name = fxt_str_make(names[k], (uint32_t)len);
			a[k].i64 = (int64_t)i;
		}
		ret = ev(w, FXT_EVENT_INSTANT, 100 + i, thr(1, 1), "cat",
			 "wide", 0, 0, a, k);
	}
	return ret;
}

/* Past the field limit an argument is dropped, not the whole file. */
static void test_too_many_field_names(void)
{
	unsigned long nrec = (WIDE_NAMES + FXT_MAX_ARGS - 1) / FXT_MAX_ARGS;
	const char *p = write_with("wide.fxt", write_wide, WIDE_NAMES, 0);
	char **names = NULL;
	struct loaded l;
	int64_t v = 0;
	int n, i;

	CU_ASSERT_FATAL(p != NULL);
	l = load(p);
	CU_ASSERT_FATAL(l.sd >= 0);
	CU_ASSERT_EQUAL_FATAL(l.n, (ssize_t)nrec);
	n = kshark_get_all_event_field_names(l.rows[l.n - 1], &names);
	CU_ASSERT_EQUAL(n, WIDE_NAMES - 1);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	CU_ASSERT_EQUAL(kshark_read_event_field_int(l.rows[l.n - 1], "f4095",
						    &v), 0);
	CU_ASSERT_EQUAL(v, 4095);
	CU_ASSERT(kshark_read_event_field_int(l.rows[l.n - 1], "f4096",
					      &v) < 0);
	check_string(kshark_get_info(l.rows[0]),
		     "f0=0 f1=1 f2=2 f3=3 f4=4 f5=5 f6=6 f7=7 f8=8 f9=9 "
		     "f10=10 f11=11 f12=12 f13=13 f14=14", 0, "info");
	unload(&l);
}

static int lost(struct fxt_writer *w, uint64_t ts, uint64_t tid,
		uint32_t cpu)
{
	struct fxt_arg a = ARG(FXT_ARG_UINT32, "cpu", u32, cpu);

	return ev(w, FXT_EVENT_INSTANT, ts, thr(tid, tid), "trace-cmd",
		  "lost_events", 0, 0, &a, 1);
}

static int on_cpu(struct fxt_writer *w, uint64_t ts, uint64_t tid,
		  uint32_t cpu, const char *name)
{
	struct fxt_arg a = ARG(FXT_ARG_UINT32, "cpu", u32, cpu);

	return ev(w, FXT_EVENT_INSTANT, ts, thr(tid, tid), "cat", name, 0, 0,
		  &a, 1);
}

/*
 * Lost events on four CPUs, some back to back, one with nothing after it
 * on its CPU, one too early to move back a whole shift.
 */
static int write_missed(struct fxt_writer *w, unsigned long n)
{
	int ret = fxt_write_provider_info(w, 1, "other", 5);

#define W(call) do { if (!ret) ret = (call); } while (0)
	W(lost(w, 5, 100, 0));
	W(lost(w, 20, 100, 1));
	W(lost(w, 30, 100, 2));
	W(on_cpu(w, 40, 201, 1, "a"));
	W(lost(w, 55, 100, 2));
	W(on_cpu(w, 60, 202, 0, "b"));
	W(on_cpu(w, 70, 203, 2, "c"));
	W(lost(w, 85, 100, 1));
	W(lost(w, 90, 104, 3));
	W(on_cpu(w, 100, 204, 1, "d"));
#undef W
	return ret;
}

/* Each marker takes the pid of the next entry on its CPU, 10 ns before. */
static void test_missed_events_placed(void)
{
	static const struct {
		int64_t		ts;
		int		cpu;
		int		pid;
		const char	*event;
	} want[] = {
		{ 0, 0, 202, "missed_events" },		/* 5 - 10, clamped */
		{ 10, 1, 201, "missed_events" },
		{ 20, 2, 203, "missed_events" },
		{ 40, 1, 201, "cat/a" },
		{ 45, 2, 203, "missed_events" },
		{ 60, 0, 202, "cat/b" },
		{ 70, 2, 203, "cat/c" },
		{ 75, 1, 204, "missed_events" },
		{ 80, 3, 104, "missed_events" },	/* nothing after it */
		{ 100, 1, 204, "cat/d" },
	};
	const char *p = write_with("missed.fxt", write_missed, 0, 0);
	struct loaded l;
	size_t i;

	CU_ASSERT_FATAL(p != NULL);
	l = load(p);
	CU_ASSERT_EQUAL_FATAL(l.n, (ssize_t)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct kshark_entry *e = l.rows[i];

		if (e->ts != want[i].ts || e->cpu != want[i].cpu ||
		    e->pid != want[i].pid) {
			fprintf(stderr, "\nrow %zu: ts %lld cpu %d pid %d, "
				"want ts %lld cpu %d pid %d\n", i,
				(long long)e->ts, e->cpu, e->pid,
				(long long)want[i].ts, want[i].cpu,
				want[i].pid);
			CU_FAIL("missed event misplaced");
		}
		check_string(kshark_get_event_name(e), want[i].event, i,
			     "event");
	}
	unload(&l);
}

#define MANY_LOST	200000

/* @n lost-events markers on one CPU, then the entry they all precede. */
static int write_many_lost(struct fxt_writer *w, unsigned long n)
{
	unsigned long i;
	int ret = fxt_write_provider_info(w, 1, "other", 5);

	for (i = 0; !ret && i < n; i++)
		ret = lost(w, 20 + i, 100, 0);
	if (!ret)
		ret = on_cpu(w, 20 + n, 7, 0, "after");
	return ret;
}

/* Placing them is one pass, not one scan per marker. */
static void test_many_missed_events(void)
{
	const char *p = write_with("many-lost.fxt", write_many_lost,
				   MANY_LOST, 0);
	struct loaded l;

	CU_ASSERT_FATAL(p != NULL);
	l = load(p);
	CU_ASSERT_EQUAL_FATAL(l.n, MANY_LOST + 1);
	CU_ASSERT_EQUAL(l.rows[0]->ts, 10);
	CU_ASSERT_EQUAL(l.rows[0]->pid, 7);
	CU_ASSERT_EQUAL(l.rows[MANY_LOST - 1]->pid, 7);
	CU_ASSERT_EQUAL(l.rows[MANY_LOST]->ts, 20 + MANY_LOST);
	check_string(kshark_get_event_name(l.rows[MANY_LOST]), "cat/after",
		     0, "event");
	unload(&l);
}

#define MAX_PROVIDERS	65535	/* KernelShark-side index: 16 bits */
/*
 * Every string and thread inline: per-provider tables would cost the
 * reader more memory than so small a file justifies.
 */
#define INLINE_ALL	(FXT_WRITER_INLINE_THREADS | FXT_WRITER_INLINE_STRINGS)

static int inline_ev(struct fxt_writer *w, uint64_t ts, const char *name)
{
	struct fxt_event e = {
		.type = FXT_EVENT_INSTANT, .ts = ts, .thread = thr(1, 1),
		.category = fxt_str_make("c", 1),
		.name = fxt_str_make(name, strlen(name)),
	};

	return fxt_write_event(w, &e);
}

/*
 * @n providers, each started with one event, then every one of them
 * visited again through a provider section, in a scattered order.
 */
static int write_providers(struct fxt_writer *w, unsigned long n)
{
	char name[16];
	unsigned long i, k;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		int len = snprintf(name, sizeof(name), "p%lu", i);

		ret = fxt_write_provider_info(w, (uint32_t)(1000 + i), name,
					      (size_t)len);
		if (!ret)
			ret = inline_ev(w, 10 + i, "first");
	}
	/* 7919 is prime and does not divide either count: a permutation. */
	for (i = 0; !ret && i < n; i++) {
		k = i * 7919 % n;
		ret = fxt_write_provider_section(w, (uint32_t)(1000 + k));
		if (!ret)
			ret = inline_ev(w, 10 + n + k, "again");
	}
	return ret;
}

static void test_many_providers(void)
{
	const char *p = write_with("providers.fxt", write_providers,
				   MAX_PROVIDERS, INLINE_ALL);
	static const size_t probe[] = { 0, 1, 4095, 65534 };
	struct loaded l;
	char want[16];
	size_t i, k;

	CU_ASSERT_FATAL(p != NULL);
	l = load(p);
	CU_ASSERT_EQUAL_FATAL(l.n, 2 * MAX_PROVIDERS);
	for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		k = probe[i];
		snprintf(want, sizeof(want), "p%zu", k);
		check_string(kshark_get_aux_info(l.rows[k]), want, k, "aux");
		check_string(kshark_get_aux_info(l.rows[MAX_PROVIDERS + k]),
			     want, MAX_PROVIDERS + k, "aux");
	}
	unload(&l);
}

/* One provider more than entries can name: refused, not mislabeled. */
static void test_too_many_providers(void)
{
	const char *p = write_with("providers-over.fxt", write_providers,
				   MAX_PROVIDERS + 1, INLINE_ALL);
	struct loaded l;
	int quiet;

	CU_ASSERT_FATAL(p != NULL);
	quiet = quiet_begin();
	l = load(p);
	quiet_end(quiet);
	CU_ASSERT(l.sd < 0 || l.n < 0);
	if (l.n > MAX_PROVIDERS)
		check_string(kshark_get_aux_info(l.rows[MAX_PROVIDERS]),
			     "p65535", MAX_PROVIDERS, "aux");
	unload(&l);
}

/*
 * A provider shaped as the converter writes them, whose string values
 * outnumber the string table: the writer gives slots out again, so a row
 * read again from the file with the last tables would show another
 * row's string.  Each value is used twice (the writer indexes it from
 * the second use on).
 */
#define WRAP_VALUES	40000UL

static int write_wrapping(struct fxt_writer *w, unsigned long n)
{
	struct fxt_arg info = ARG(FXT_ARG_STRING, "buffer", str,
				  fxt_str_make("top", 3));
	struct fxt_arg a[2] = {
		ARG(FXT_ARG_UINT32, "cpu", u32, 0),
		{ .type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME("v") },
	};
	char v[16];
	unsigned long i;
	int ret;

	ret = fxt_write_provider_info(w, 1, "top", 3);
	if (!ret)
		ret = ev(w, FXT_EVENT_INSTANT, 1, thr(1, 1), "trace-cmd",
			 "file_info", 0, 0, &info, 1);
	for (i = 0; !ret && i < 2 * n; i++) {
		int len = snprintf(v, sizeof(v), "s%lu", i / 2);

		a[1].str = fxt_str_make(v, (uint32_t)len);
		ret = ev(w, FXT_EVENT_INSTANT, 10 + i, thr(1, 1), "cat", "ev",
			 0, 0, a, 2);
	}
	return ret;
}

static void test_string_table_wraps(void)
{
	const char *p = write_with("wrap.fxt", write_wrapping, WRAP_VALUES, 0);
	unsigned long wrong = 0;
	struct loaded l;
	char want[24];
	ssize_t i;

	CU_ASSERT_FATAL(p != NULL);
	l = load(p);
	CU_ASSERT_EQUAL_FATAL(l.n, (ssize_t)(2 * WRAP_VALUES));
	for (i = 0; i < l.n; i++) {
		char *got = kshark_get_info(l.rows[i]);

		snprintf(want, sizeof(want), "v=s%zd", i / 2);
		if (!got || strcmp(got, want)) {
			if (!wrong++)
				fprintf(stderr, "\nrow %zd info: got \"%s\", "
					"want \"%s\"\n", i,
					got ? got : "(null)", want);
		}
		free(got);
	}
	printf("\n# %zd rows of a file whose string table wraps: %lu with "
	       "another row's string\n", l.n, wrong);
	CU_ASSERT_EQUAL(wrong, 0);
	unload(&l);
}

static CU_TestInfo plugin_tests[] = {
	{ "every record kind, as KernelShark shows it", test_every_record_kind },
	{ "without the plot part: the records' pids", test_without_plot_part },
	{ "big-endian file, same entries", test_big_endian },
	{ "recognised by content, any extension", test_any_extension },
	{ "field names, types and int64 values", test_fields },
	{ "event ids, names and tasks", test_ids_and_tasks },
	{ "matrix load matches", test_matrix },
	{ "event and task filters", test_filters },
	{ "non-FXT input refused", test_not_fxt_refused },
	{ "truncated files: prefix or refusal", test_truncated },
	{ "corrupted files: no crash", test_corrupt },
	{ "field names past the limit dropped", test_too_many_field_names },
	{ "missed events placed per CPU", test_missed_events_placed },
	{ "200k missed events load", test_many_missed_events },
	{ "65535 providers, each named right", test_many_providers },
	{ "65536 providers refused", test_too_many_providers },
	{ "converted rows when the string table wraps",
	  test_string_table_wraps },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "kshark plugin-fxt", suite_init, suite_clean, NULL, NULL,
	  plugin_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
