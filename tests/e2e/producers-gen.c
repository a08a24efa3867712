// SPDX-License-Identifier: GPL-2.0-only
/*
 * producers-gen - write FXT files shaped as other producers write them,
 * one file per shape that a reader must take as Perfetto's FXT importer
 * takes it (tests/e2e/producers.sh reads them with every tool):
 *
 *   no-provider.fxt     no provider record at all (strings, threads,
 *                       objects and events belong to provider 0)
 *   init-only.fxt       the same with 1e6 ticks per second first
 *   init-provider.fxt   1e6 ticks per second, then a provider record (whose
 *                       timestamps are then ns, as Perfetto reads them)
 *   switch-running.fxt  a context switch (subtype 1) leaving a thread in
 *                       state 1, "running" (a preempted thread)
 *   bad-records.fxt     counters whose argument layouts are broken inside
 *                       sound record sizes (and a string record whose
 *                       text runs past it) between good events, a record
 *                       running past the end last
 *   tid0-named.fxt      thread 0 of a process, named by a kernel object
 *   procs300.fxt        300 processes with a thread 0 each
 *   shared-tid.fxt      thread 1 of process 100 "thrA" and of 200 "thrB"
 *   wide-tid.fxt        a thread koid of 5000000000 (past 32 bits)
 *   late-names.fxt      context switches and wakeups before the kernel
 *                       objects that name their threads
 *   nul-string.fxt      strings with a NUL inside, arguments after them
 *   cpu65535.fxt        events on CPUs 0-3, a switch and a wakeup on CPU
 *                       65535 (the format allows it, Perfetto does not)
 *   kinds.fxt           every event kind, a log, a switch and a wakeup
 *   hog-format.fxt      a converted file (trace-cmd:file_info) carrying an
 *                       event format whose field type is HOG_ITEMS words,
 *                       which libtraceevent 1.7.1's parser takes time
 *                       quadratic in (about a minute here), and an event
 *                       of it
 *
 *   producers-gen DIR
 *
 * The core's writer writes whatever it can; the shapes it refuses (a
 * broken argument list, a string past its record, a truncated record)
 * are raw words (fxt_write_raw(), or appended as bytes).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-writer.h"
#include "tcfxt.h"

#define HOG_ITEMS	1000000

static char dir[4096];
static int out_fd = -1;

static struct fxt_writer *open_fxt(const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out_fd < 0) {
		perror(path);
		exit(1);
	}
	return fxt_writer_create_fd(out_fd, 0);
}

static void close_fxt(struct fxt_writer *w, int ret, const char *name)
{
	if (fxt_writer_close(w) || ret || close(out_fd)) {
		fprintf(stderr, "producers-gen: writing %s failed (%d)\n",
			name, ret);
		exit(1);
	}
}

static struct fxt_arg arg_i32(struct fxt_writer *w, const char *name,
			      int32_t v)
{
	struct fxt_arg a = { .type = FXT_ARG_INT32 };

	a.name = fxt_writer_str(w, name);
	a.i32 = v;
	return a;
}

static struct fxt_arg arg_str(struct fxt_writer *w, const char *name,
			      const char *s, size_t len)
{
	struct fxt_arg a = { .type = FXT_ARG_STRING };

	a.name = fxt_writer_str(w, name);
	a.str = fxt_str_make(s, len);
	return a;
}

static struct fxt_arg arg_koid(struct fxt_writer *w, const char *name,
			       uint64_t koid)
{
	struct fxt_arg a = { .type = FXT_ARG_KOID };

	a.name = fxt_writer_str(w, name);
	a.koid = koid;
	return a;
}

static int event(struct fxt_writer *w, unsigned int type, uint64_t ts,
		 uint64_t pid, uint64_t tid, const char *name,
		 const struct fxt_arg *args, unsigned int nargs)
{
	struct fxt_event ev = {
		.type = type,
		.ts = ts,
		.thread = { pid, tid },
		.category = fxt_writer_str(w, "app"),
		.name = fxt_writer_str(w, name),
		.nargs = nargs,
		.args = args,
	};

	if (type == FXT_EVENT_DURATION_COMPLETE)
		ev.end_ts = ts + 500;
	else if (type >= FXT_EVENT_COUNTER)
		ev.id = 42;
	return fxt_write_event(w, &ev);
}

static int instant(struct fxt_writer *w, uint64_t ts, uint64_t pid,
		   uint64_t tid, const char *name)
{
	return event(w, FXT_EVENT_INSTANT, ts, pid, tid, name, NULL, 0);
}

/* A thread object, in process @pid when it is not 0. */
static int thread_obj(struct fxt_writer *w, uint64_t pid, uint64_t tid,
		      const char *name)
{
	struct fxt_arg a = arg_koid(w, "process", pid);

	return fxt_write_kernel_object(w, tid, FXT_OBJ_THREAD,
				       fxt_writer_str(w, name), &a, pid ? 1 : 0);
}

static int process_obj(struct fxt_writer *w, uint64_t pid, const char *name)
{
	return fxt_write_kernel_object(w, pid, FXT_OBJ_PROCESS,
				       fxt_writer_str(w, name), NULL, 0);
}

static int sched_switch(struct fxt_writer *w, uint64_t ts, unsigned int cpu,
			unsigned int state, uint64_t out, uint64_t in)
{
	struct fxt_sched_switch cs = {
		.ts = ts, .cpu = cpu, .out_state = state,
		.out_tid = out, .in_tid = in,
	};

	return fxt_write_sched_switch(w, &cs);
}

/* 2 objects and 8 events, no provider record: every record provider 0's. */
static void no_provider(const char *name, uint64_t ticks)
{
	struct fxt_writer *w = open_fxt(name);
	struct fxt_arg a[2];
	int ret = 0, i;

	if (ticks)
		ret = fxt_write_init(w, ticks);
	if (!ret)
		ret = process_obj(w, 1, "app");
	if (!ret)
		ret = thread_obj(w, 1, 2, "main");
	for (i = 0; i < 5 && !ret; i++) {
		a[0] = arg_i32(w, "i", i);
		ret = event(w, FXT_EVENT_INSTANT, 1000 * (i + 1), 1, 2, "tick",
			    a, 1);
	}
	if (!ret)
		ret = event(w, FXT_EVENT_DURATION_BEGIN, 6000, 1, 2, "work",
			    NULL, 0);
	if (!ret)
		ret = event(w, FXT_EVENT_DURATION_END, 7000, 1, 2, "work",
			    NULL, 0);
	if (!ret) {
		a[0] = arg_i32(w, "value", 3);
		ret = event(w, FXT_EVENT_COUNTER, 8000, 1, 2, "level", a, 1);
	}
	close_fxt(w, ret, name);
}

/* The rate first, then a provider and its events, as ftfrs writes. */
static void init_provider(void)
{
	struct fxt_writer *w = open_fxt("init-provider.fxt");
	int ret, i;

	ret = fxt_write_init(w, 1000000);
	if (!ret)
		ret = fxt_write_provider_info(w, 1, "app", 3);
	for (i = 0; i < 3 && !ret; i++)
		ret = instant(w, 100000 * (i + 1), 1, 2, "tick");
	close_fxt(w, ret, "init-provider.fxt");
}

/*
 * A preempted thread: subtype 1's outgoing state 1; then a legacy
 * switch and a wakeup as any file has them.
 */
static void switch_running(void)
{
	struct fxt_writer *w = open_fxt("switch-running.fxt");
	struct fxt_legacy_switch ls = {
		.ts = 3000, .cpu = 0, .out_state = FXT_THREAD_BLOCKED,
		.out = { 1, 11 }, .in = { 1, 10 }, .out_prio = 20,
		.in_prio = 20,
	};
	struct fxt_sched_wakeup wk = { .ts = 2500, .cpu = 0, .tid = 10 };
	int ret;

	ret = fxt_write_provider_info(w, 1, "sched", 5);
	if (!ret)
		ret = thread_obj(w, 1, 10, "ten");
	if (!ret)
		ret = thread_obj(w, 1, 11, "eleven");
	if (!ret)
		ret = sched_switch(w, 1000, 0, FXT_THREAD_NEW, 0, 10);
	if (!ret)
		ret = instant(w, 1500, 1, 10, "running");
	if (!ret)
		ret = sched_switch(w, 2000, 0, FXT_THREAD_RUNNING, 10, 11);
	if (!ret)
		ret = fxt_write_sched_wakeup(w, &wk);
	if (!ret)
		ret = fxt_write_legacy_switch(w, &ls);
	if (!ret)
		ret = instant(w, 3500, 1, 10, "back");
	close_fxt(w, ret, "switch-running.fxt");
}

/* Header word of a record of @type and @words words. */
static uint64_t hdr(unsigned int type, uint64_t words)
{
	return type | words << 4;
}

/* An inline string ref of @len bytes and the words of its text. */
#define INLINE(len)	(0x8000ULL | (len))

/*
 * Counter events of provider 1 (inline thread 1.10, inline category
 * "app", inline name "c"), whose arguments do not parse, each record's
 * size sound: 4 words of header, ts, pid, tid, then the category and
 * name words, then what is given.
 */
static int bad_counter(struct fxt_writer *w, uint64_t ts, unsigned int nargs,
		       const uint64_t *tail, unsigned int ntail)
{
	uint64_t words[16];
	unsigned int n = 0, i;

	words[n++] = 0;
	words[n++] = ts;
	words[n++] = 1;
	words[n++] = 10;
	words[n++] = 0x707061;		/* "app" */
	words[n++] = 'c';
	for (i = 0; i < ntail; i++)
		words[n++] = tail[i];
	words[0] = hdr(FXT_REC_EVENT, n) | (uint64_t)FXT_EVENT_COUNTER << 16 |
		   (uint64_t)nargs << 20 | INLINE(3) << 32 | INLINE(1) << 48;
	return fxt_write_raw(w, words, n);
}

static void bad_records(void)
{
	struct fxt_writer *w = open_fxt("bad-records.fxt");
	static const uint8_t tail[8] = {
		/* a large record of 51200 words, 1 word in the file */
		0x0f, 0x80, 0x0c, 0, 0, 0, 0, 0,
	};
	uint64_t t[4], s[2];
	int ret, i;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	if (!ret)
		ret = thread_obj(w, 1, 10, "main");
	for (i = 0; i < 5 && !ret; i++)
		ret = instant(w, 1000 + i, 1, 10, "before");
	/* an argument of 3 words where the record has 2 left */
	t[0] = FXT_ARG_INT64 | 3 << 4 | INLINE(1) << 16;
	t[1] = 'v';
	if (!ret)
		ret = bad_counter(w, 2000, 1, t, 2);
	/* an argument of size 0 */
	t[0] = FXT_ARG_INT32 | 0 << 4 | INLINE(1) << 16 | 7ULL << 32;
	t[1] = 'v';
	t[2] = 42;
	if (!ret)
		ret = bad_counter(w, 2001, 1, t, 3);
	/* the argument fine, the counter's id word missing */
	t[0] = FXT_ARG_INT32 | 2 << 4 | INLINE(1) << 16 | 7ULL << 32;
	t[1] = 'v';
	if (!ret)
		ret = bad_counter(w, 2002, 1, t, 2);
	/* index 5 = a string of 40 bytes in a record of 2 words */
	s[0] = hdr(FXT_REC_STRING, 2) | 5 << 16 | 40ULL << 32;
	s[1] = 0x6f6f6f6f6f6f6f6fULL;
	if (!ret)
		ret = fxt_write_raw(w, s, 2);
	for (i = 0; i < 25 && !ret; i++)
		ret = instant(w, 3000 + i, 1, 10, "after");
	if (!ret)
		ret = fxt_writer_flush(w);
	/* a record whose size runs past the end of the file */
	if (!ret && write(out_fd, tail, 8) != 8)
		ret = -1;
	close_fxt(w, ret, "bad-records.fxt");
}

/* Events on thread 0 of process 5, which a kernel object names. */
static void tid0_named(void)
{
	struct fxt_writer *w = open_fxt("tid0-named.fxt");
	int ret, i;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	if (!ret)
		ret = process_obj(w, 5, "app5");
	if (!ret)
		ret = thread_obj(w, 5, 0, "worker0");
	for (i = 0; i < 4 && !ret; i++)
		ret = instant(w, 1000 + i, 5, 0, "step");
	close_fxt(w, ret, "tid0-named.fxt");
}

/* 300 processes (pid 1..300), each with a thread 0: two events each. */
static void procs300(void)
{
	struct fxt_writer *w = open_fxt("procs300.fxt");
	uint64_t p;
	int ret;

	ret = fxt_write_provider_info(w, 1, "domains", 7);
	for (p = 1; p <= 300 && !ret; p++)
		ret = instant(w, 1000 + p, p, 0, "start");
	for (p = 1; p <= 300 && !ret; p++)
		ret = instant(w, 2000 + p, p, 0, "stop");
	close_fxt(w, ret, "procs300.fxt");
}

/* Thread 1 of process 100, "thrA", and thread 1 of process 200, "thrB". */
static void shared_tid(void)
{
	struct fxt_writer *w = open_fxt("shared-tid.fxt");
	int ret, i;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	if (!ret)
		ret = thread_obj(w, 100, 1, "thrA");
	if (!ret)
		ret = thread_obj(w, 200, 1, "thrB");
	for (i = 0; i < 3 && !ret; i++) {
		ret = instant(w, 1000 + 10 * i, 100, 1, "a");
		if (!ret)
			ret = instant(w, 1005 + 10 * i, 200, 1, "b");
	}
	close_fxt(w, ret, "shared-tid.fxt");
}

/* A koid past 32 bits: 5000000000 (705032704 when cut to 32 bits). */
static void wide_tid(void)
{
	struct fxt_writer *w = open_fxt("wide-tid.fxt");
	int ret;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	if (!ret)
		ret = thread_obj(w, 7, 5000000000ULL, "wide");
	if (!ret)
		ret = thread_obj(w, 7, 705032704ULL, "narrow");
	if (!ret)
		ret = instant(w, 1000, 7, 5000000000ULL, "w");
	if (!ret)
		ret = instant(w, 1100, 7, 705032704ULL, "n");
	if (!ret)
		ret = sched_switch(w, 1200, 1, FXT_THREAD_BLOCKED,
				   5000000000ULL, 705032704ULL);
	close_fxt(w, ret, "wide-tid.fxt");
}

/* Switches and wakeups first, the names at the end of the file. */
static void late_names(void)
{
	struct fxt_writer *w = open_fxt("late-names.fxt");
	struct fxt_sched_wakeup wk = { .ts = 1500, .cpu = 1, .tid = 21 };
	int ret;

	ret = fxt_write_provider_info(w, 1, "sched", 5);
	if (!ret)
		ret = sched_switch(w, 1000, 1, FXT_THREAD_NEW, 0, 20);
	if (!ret)
		ret = fxt_write_sched_wakeup(w, &wk);
	if (!ret)
		ret = sched_switch(w, 2000, 1, FXT_THREAD_BLOCKED, 20, 21);
	if (!ret)
		ret = thread_obj(w, 3, 20, "early-bird");
	if (!ret)
		ret = thread_obj(w, 3, 21, "night-owl");
	close_fxt(w, ret, "late-names.fxt");
}

/* A NUL in a string argument's value and in its name, a log with one. */
static void nul_string(void)
{
	struct fxt_writer *w = open_fxt("nul-string.fxt");
	struct fxt_thread th = { 1, 10 };
	struct fxt_arg a[3];
	int ret;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	a[0] = arg_str(w, "s", "ab\0cd", 5);
	a[1].type = FXT_ARG_INT32;
	a[1].name = fxt_str_make("k\0y", 3);
	a[1].i32 = 7;
	a[2] = arg_i32(w, "after", 9);
	if (!ret)
		ret = event(w, FXT_EVENT_INSTANT, 1000, 1, 10, "nul", a, 3);
	if (!ret)
		ret = fxt_write_log(w, 2000, &th, "log\0tail", 8);
	close_fxt(w, ret, "nul-string.fxt");
}

/*
 * 20 instants on CPUs 0-3 (a cpu argument), a switch and a wakeup on CPU
 * 65535.
 */
static void cpu65535(void)
{
	struct fxt_writer *w = open_fxt("cpu65535.fxt");
	struct fxt_sched_wakeup wk = { .ts = 5001, .cpu = 65535, .tid = 10 };
	struct fxt_arg a;
	int ret, i;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	for (i = 0; i < 20 && !ret; i++) {
		a.type = FXT_ARG_UINT32;
		a.name = fxt_writer_str(w, "cpu");
		a.u32 = i % 4;
		ret = event(w, FXT_EVENT_INSTANT, 1000 + i, 1, 10 + i % 4,
			    "e", &a, 1);
	}
	if (!ret)
		ret = sched_switch(w, 5000, 65535, FXT_THREAD_BLOCKED, 10, 11);
	if (!ret)
		ret = fxt_write_sched_wakeup(w, &wk);
	close_fxt(w, ret, "cpu65535.fxt");
}

/* Every event type with an argument, a log, a switch and a wakeup. */
static void kinds(void)
{
	struct fxt_writer *w = open_fxt("kinds.fxt");
	struct fxt_thread th = { 1, 10 };
	struct fxt_sched_wakeup wk = { .ts = 900, .cpu = 2, .tid = 10 };
	struct fxt_arg a[2];
	unsigned int t;
	int ret;

	ret = fxt_write_provider_info(w, 1, "app", 3);
	if (!ret)
		ret = thread_obj(w, 1, 10, "main");
	if (!ret)
		ret = fxt_write_sched_wakeup(w, &wk);
	if (!ret)
		ret = sched_switch(w, 950, 2, FXT_THREAD_NEW, 0, 10);
	for (t = 0; t < FXT_EVENT_TYPE_COUNT && !ret; t++) {
		a[0] = arg_i32(w, "n", (int32_t)t);
		a[1] = arg_str(w, "s", "x y", 3);
		ret = event(w, t, 1000 + 100 * t, 1, 10,
			    fxt_event_type_name(t), a, 2);
	}
	if (!ret)
		ret = fxt_write_log(w, 3000, &th, "logged", 6);
	close_fxt(w, ret, "kinds.fxt");
}

/*
 * A converted file's shape: provider "top", trace-cmd:file_info, an
 * event_format instant (its text continued in ".cont" instants, as the
 * converter splits it) and one ftrace instant of that event.  The field's
 * type is HOG_ITEMS words long: libtraceevent appends each to the ones
 * before (strlen + strcat), in time quadratic in the text.
 */
static void hog_format(void)
{
	struct fxt_writer *w = open_fxt("hog-format.fxt");
	static const char head[] =
		"name: hog\nID: 900\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int";
	static const char tail[] =
		" x;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"x=%d\", REC->x\n";
	size_t len = sizeof(head) - 1 + 2 * HOG_ITEMS + sizeof(tail) - 1;
	char *text = malloc(len + 1), cont[64];
	size_t off, n;
	struct fxt_arg a[4];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.thread = { TCFXT_META_KOID, TCFXT_META_KOID },
	};
	int ret, i;

	if (!text)
		exit(1);
	memcpy(text, head, sizeof(head) - 1);
	for (i = 0; i < HOG_ITEMS; i++)
		memcpy(text + sizeof(head) - 1 + 2 * i, " a", 2);
	memcpy(text + len - (sizeof(tail) - 1), tail, sizeof(tail) - 1);
	ret = fxt_write_provider_info(w, 1, TCFXT_TOP_BUFFER,
				      strlen(TCFXT_TOP_BUFFER));
	ev.category = fxt_writer_str(w, TCFXT_CAT);
	ev.name = fxt_writer_str(w, TCFXT_FILE_INFO);
	a[0].type = FXT_ARG_UINT32;
	a[0].name = fxt_writer_str(w, TCFXT_INFO_CPUS);
	a[0].u32 = 1;
	a[1] = arg_str(w, TCFXT_INFO_BUFFER, TCFXT_TOP_BUFFER,
		       strlen(TCFXT_TOP_BUFFER));
	ev.args = a;
	ev.nargs = 2;
	if (!ret)
		ret = fxt_write_event(w, &ev);
	ev.ts = 10;
	ev.name = fxt_writer_str(w, TCFXT_EVENT_FORMAT);
	a[0] = arg_str(w, TCFXT_ARG_SYSTEM, "sys", 3);
	a[1] = arg_str(w, "name", "hog", 3);
	a[2].type = FXT_ARG_UINT32;
	a[2].name = fxt_writer_str(w, "id");
	a[2].u32 = 900;
	snprintf(cont, sizeof(cont), "%s%s", TCFXT_EVENT_FORMAT,
		 TCFXT_CONT_SUFFIX);
	for (off = 0; off < len && !ret; off += n) {
		n = len - off > 16000 ? 16000 : len - off;
		a[ev.nargs = off ? 0 : 3] = arg_str(w, "format", text + off, n);
		a[ev.nargs].str.id = FXT_STR_INLINE;
		ev.args = off ? &a[0] : a;
		ev.nargs++;
		ret = fxt_write_event(w, &ev);
		ev.name = fxt_writer_str(w, cont);
	}
	/* the event: cpu first, then its field */
	ev.ts = 1000;
	ev.thread = (struct fxt_thread){ 42, 42 };
	ev.category = fxt_writer_str(w, "sys");
	ev.name = fxt_writer_str(w, "hog");
	a[0].type = FXT_ARG_UINT32;
	a[0].name = fxt_writer_str(w, TCFXT_ARG_CPU);
	a[0].u32 = 0;
	a[1] = arg_i32(w, "x", 5);
	ev.args = a;
	ev.nargs = 2;
	if (!ret)
		ret = fxt_write_event(w, &ev);
	free(text);
	close_fxt(w, ret, "hog-format.fxt");
}

int main(int argc, char **argv)
{
	if (argc != 2 || strlen(argv[1]) >= sizeof(dir)) {
		fprintf(stderr, "usage: producers-gen DIR\n");
		return 2;
	}
	strcpy(dir, argv[1]);
	no_provider("no-provider.fxt", 0);
	no_provider("init-only.fxt", 1000000);
	init_provider();
	switch_running();
	bad_records();
	tid0_named();
	procs300();
	shared_tid();
	wide_tid();
	late_names();
	nul_string();
	cpu65535();
	kinds();
	hog_format();
	return 0;
}
