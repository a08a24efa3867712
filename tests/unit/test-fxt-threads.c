// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-threads.c - threads told apart by (process, thread), named by
 * kernel objects, and numbered as tasks (common/fxt/fxt-threads.c).
 *
 * The expected ids follow the rules fxt-threads.h states: a thread keeps
 * its tid where that is a pid and no thread seen before it has it; the
 * unnamed thread 0 of process 0 is task 0; every other is numbered from
 * the first power of ten (at least 1000) above every tid kept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fxt-print.h"
#include "fxt-threads.h"
#include "tcfxt.h"
#include "unit.h"

/* A thread kernel object naming @tid, in @pid unless it is 0. */
static int name_thread(struct fxt_threads *t, uint64_t pid, uint64_t tid,
		       const char *name)
{
	struct fxt_arg a = {
		.type = FXT_ARG_KOID, .name = FXT_ARG_STR_NAME("process"),
		.koid = pid,
	};
	struct fxt_record rec = { .type = FXT_REC_KERNEL_OBJ };

	rec.kobj.koid = tid;
	rec.kobj.obj_type = FXT_OBJ_THREAD;
	rec.kobj.name = fxt_str_make(name, strlen(name));
	rec.kobj.args = &a;
	rec.kobj.nargs = pid ? 1 : 0;
	return fxt_threads_note(t, &rec);
}

static int32_t task_of(struct fxt_threads *t, uint64_t pid, uint64_t tid)
{
	return fxt_threads_task(t, fxt_threads_pair(t, pid, tid));
}

static const char *name_of(struct fxt_threads *t, int idx)
{
	const struct fxt_thread_info *ti = fxt_threads_info(t, idx);

	return ti && ti->name ? ti->name : "(none)";
}

/* Producers that number threads per process, a thread 0 in each. */
static void test_pairs_apart(void)
{
	struct fxt_threads *t = fxt_threads_new();
	int a, b, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	a = fxt_threads_pair(t, 100, 1);
	b = fxt_threads_pair(t, 200, 1);
	CU_ASSERT(a >= 0 && b >= 0 && a != b);
	CU_ASSERT_EQUAL(fxt_threads_pair(t, 100, 1), a);
	for (i = 1; i <= 300; i++)
		CU_ASSERT(fxt_threads_pair(t, i, 0) >= 0);
	/* thread 0 of process 5 is known: named, not new */
	CU_ASSERT_EQUAL(name_thread(t, 5, 0, "worker0"), 0);
	CU_ASSERT_EQUAL(fxt_threads_pair(t, 7, 5000000000ULL), 302);
	CU_ASSERT_EQUAL(fxt_threads_count(t), 303);
	CU_ASSERT_EQUAL(fxt_threads_assign(t), 0);
	/* 1 kept by process 100; the rest past it, from 1000 */
	CU_ASSERT_EQUAL(task_of(t, 100, 1), 1);
	CU_ASSERT_EQUAL(task_of(t, 200, 1), 1000);
	for (i = 1; i <= 300; i++)
		CU_ASSERT_EQUAL(task_of(t, i, 0), 1000 + i);
	/* named thread 0 of process 5 is no idle task */
	CU_ASSERT_EQUAL(task_of(t, 5, 0), 1005);
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_pair(t, 5, 0)),
			       "worker0");
	/* a tid past 2^31 - 1 is not cut */
	CU_ASSERT_EQUAL(task_of(t, 7, 5000000000ULL), 1301);
	CU_ASSERT_EQUAL(fxt_threads_renumbered(t), 302);
	printf("\n    303 threads, 302 renumbered, 1 kept");
	fxt_threads_free(t);
}

/* Renumbered ids start past every kept one, at a power of ten. */
static void test_renumbered_above_kept(void)
{
	struct fxt_threads *t = fxt_threads_new();
	char buf[256];
	struct fxt_list l = { .buf = buf, .size = sizeof(buf), .sep = ", " };

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	fxt_threads_pair(t, 1, 4123);
	fxt_threads_pair(t, 2, 4123);
	fxt_threads_pair(t, 0, 0);
	fxt_threads_pair(t, 3, 705032704);
	fxt_threads_pair(t, 3, 5000000000ULL);
	CU_ASSERT_EQUAL(fxt_threads_assign(t), 0);
	CU_ASSERT_EQUAL(task_of(t, 1, 4123), 4123);
	/* the unnamed thread 0 of process 0: the idle task */
	CU_ASSERT_EQUAL(task_of(t, 0, 0), 0);
	CU_ASSERT_EQUAL(task_of(t, 3, 705032704), 705032704);
	CU_ASSERT_EQUAL(task_of(t, 2, 4123), 1000000000);
	CU_ASSERT_EQUAL(task_of(t, 3, 5000000000ULL), 1000000001);
	fxt_threads_mapping(t, &l);
	printf("\n    %s", buf);
	CU_ASSERT_STRING_EQUAL(buf, "pid 2 tid 4123 -> 1000000000, "
			       "pid 3 tid 5000000000 -> 1000000001");
	CU_ASSERT_EQUAL(l.len, strlen(buf));
	memset(&l, 0, sizeof(l));
	l.buf = buf;
	l.size = sizeof(buf);
	l.max = 1;
	l.sep = "; ";
	fxt_threads_mapping(t, &l);
	CU_ASSERT_STRING_EQUAL(buf, "pid 2 tid 4123 -> 1000000000; ...");
	/* counted whole, as snprintf() does, when the room is short */
	memset(&l, 0, sizeof(l));
	l.buf = buf;
	l.size = 8;
	l.sep = ", ";
	fxt_threads_mapping(t, &l);
	CU_ASSERT_STRING_EQUAL(buf, "pid 2 t");
	CU_ASSERT_EQUAL(l.len, 64);
	fxt_threads_free(t);
}

/*
 * A tid alone (context switches, wakeups) is the thread of that tid an
 * object named in its process, else the first seen; tid 0 alone idle.
 */
static void test_tid_alone(void)
{
	struct fxt_threads *t = fxt_threads_new();
	int s1, s7, s0, s9;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	s1 = fxt_threads_tid(t, 1);
	fxt_threads_pair(t, 100, 1);
	fxt_threads_pair(t, 200, 1);
	CU_ASSERT_EQUAL(name_thread(t, 200, 1, "thrB"), 0);
	s7 = fxt_threads_tid(t, 7);
	fxt_threads_pair(t, 50, 7);
	fxt_threads_pair(t, 60, 7);
	s0 = fxt_threads_tid(t, 0);
	s9 = fxt_threads_tid(t, 9);
	CU_ASSERT_EQUAL(fxt_threads_assign(t), 0);
	CU_ASSERT_EQUAL(fxt_threads_task(t, s1), task_of(t, 200, 1));
	CU_ASSERT_STRING_EQUAL(name_of(t, s1), "thrB");
	CU_ASSERT_EQUAL(fxt_threads_info(t, s1)->resolved,
			fxt_threads_pair(t, 200, 1));
	CU_ASSERT_EQUAL(fxt_threads_task(t, s7), task_of(t, 50, 7));
	CU_ASSERT_EQUAL(fxt_threads_task(t, s7), 7);
	CU_ASSERT_EQUAL(fxt_threads_task(t, s0), 0);
	/* a tid no pair has: a thread of its own, keeping it */
	CU_ASSERT_EQUAL(fxt_threads_task(t, s9), 9);
	fxt_threads_free(t);
}

/*
 * Names: an object with a process names that thread; without one, every
 * thread of that tid not named in its process; the last name wins;
 * process objects are kept for whoever shows a process's name, and name
 * a process's unnamed main thread (tid = pid) in every tool.
 */
static void test_names(void)
{
	struct fxt_threads *t = fxt_threads_new();
	struct fxt_record rec = { .type = FXT_REC_KERNEL_OBJ };
	uint32_t len = 0;
	const char *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(name_thread(t, 0, 3, "any"), 0);
	CU_ASSERT_EQUAL(name_thread(t, 10, 3, "first"), 0);
	CU_ASSERT_EQUAL(name_thread(t, 10, 3, "second"), 0);
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_pair(t, 10, 3)),
			       "second");
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_pair(t, 11, 3)), "any");
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_tid(t, 4)), "(none)");
	rec.kobj.koid = 10;
	rec.kobj.obj_type = FXT_OBJ_PROCESS;
	rec.kobj.name = fxt_str_make("proc\0x", 6);
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	p = fxt_threads_process_name(t, 10, &len);
	CU_ASSERT(p && len == 6 && !memcmp(p, "proc\0x", 6));
	CU_ASSERT_PTR_NULL(fxt_threads_process_name(t, 11, &len));
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_pair(t, 10, 10)), "proc");
	CU_ASSERT_STRING_EQUAL(name_of(t, fxt_threads_pair(t, 10, 5)),
			       "(none)");
	/* named thread 0 of process 0: no idle task */
	CU_ASSERT_EQUAL(name_thread(t, 0, 0, "zero"), 0);
	fxt_threads_pair(t, 0, 0);
	CU_ASSERT_EQUAL(fxt_threads_assign(t), 0);
	CU_ASSERT_NOT_EQUAL(task_of(t, 0, 0), 0);
	fxt_threads_free(t);
}

/* The records a file's threads come from, as fxt_threads_note() reads. */
static void test_note_records(void)
{
	struct fxt_threads *t = fxt_threads_new();
	const struct fxt_arg waker = {
		.type = FXT_ARG_KOID, .name = FXT_ARG_STR_NAME(TCFXT_ARG_WAKER),
		.koid = 77,
	};
	const struct fxt_arg source = {
		.type = FXT_ARG_STRING, .name = FXT_ARG_STR_NAME(TCFXT_ARG_SOURCE),
	};
	struct fxt_record rec = { .type = FXT_REC_EVENT };

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	rec.event.thread = (struct fxt_thread){ 1, 2 };
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = FXT_REC_SCHED;
	rec.sched.subtype = FXT_SCHED_LEGACY_SWITCH;
	rec.sched.out = (struct fxt_thread){ 3, 4 };
	rec.sched.in = (struct fxt_thread){ 5, 6 };
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	rec.sched.subtype = FXT_SCHED_SWITCH;
	rec.sched.out.tid = 8;
	rec.sched.in.tid = 9;
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	rec.sched.subtype = FXT_SCHED_WAKEUP;
	rec.sched.in.tid = 10;
	rec.sched.args = &waker;
	rec.sched.nargs = 1;
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	/* the converter's own: its metadata instants, its source objects */
	memset(&rec, 0, sizeof(rec));
	rec.type = FXT_REC_EVENT;
	rec.event.category = fxt_str_make(TCFXT_CAT, strlen(TCFXT_CAT));
	rec.event.thread = (struct fxt_thread){ 90, 91 };
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	memset(&rec, 0, sizeof(rec));
	rec.type = FXT_REC_KERNEL_OBJ;
	rec.kobj.obj_type = FXT_OBJ_THREAD;
	rec.kobj.koid = 92;
	rec.kobj.name = fxt_str_make("src", 3);
	rec.kobj.args = &source;
	rec.kobj.nargs = 1;
	CU_ASSERT_EQUAL(fxt_threads_note(t, &rec), 0);
	/* (1,2) (3,4) (5,6), tids 8 9 10 and the waker 77 alone */
	CU_ASSERT_EQUAL(fxt_threads_count(t), 7);
	CU_ASSERT_EQUAL(fxt_threads_pair(t, 3, 4), 1);
	CU_ASSERT_EQUAL(fxt_threads_tid(t, 77), 6);
	CU_ASSERT_FALSE(fxt_threads_assigned(t));
	/* before numbering, tasks are the tids */
	CU_ASSERT_EQUAL(fxt_threads_task(t, 1), 4);
	CU_ASSERT_EQUAL(fxt_threads_task(t, -1), -1);
	CU_ASSERT_PTR_NULL(fxt_threads_info(t, 99));
	fxt_threads_free(t);
}

static CU_TestInfo thread_tests[] = {
	{ "(pid, tid) pairs apart: thread 0s, a shared tid, a wide koid",
	  test_pairs_apart },
	{ "renumbered ids above every kept tid, and said",
	  test_renumbered_above_kept },
	{ "a tid alone stands for the thread an object named",
	  test_tid_alone },
	{ "names by process, by tid alone, last one wins", test_names },
	{ "the records threads come from", test_note_records },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "thread identity (common/fxt/fxt-threads.c)", NULL, NULL, NULL, NULL,
	  thread_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
