// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-tgid.c - thread groups from the records the file check kept
 * (trace-cmd-plugin/dat-check/datcheck-keep.c) against the plugin's own pass over
 * the file (map-tgid.c), which is what runs under any host but trace-fxt.
 *
 * Every project sample is converted both ways through map_convert(); the
 * FXT must be the same bytes.  The samples whose threads only markers,
 * task_newtask or fork place in their process (threads.dat, procmaps.dat,
 * atrace-markers.dat) make a difference if the kept records were
 * misread, misplaced or dropped: their processes would split.  A fixture
 * whose two CPUs disagree about one pid (a thread that exited, its pid
 * reused by a new process) needs the kept records put back in time
 * order: the check walks CPU 0's pages before CPU 1's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "../e2e/dat-fixture.h"
#include "datcheck.h"
#include "fd-io.h"

#include "map-run.h"
#include "unit.h"

static void check_file(const char *path, const char *name, bool has_records)
{
	struct dat_recs kept;
	char err[256], *a, *b;
	size_t na, nb;

	CU_ASSERT_EQUAL_FATAL(datcheck_file_keep(path, fxt_input_tgid_events,
			FXT_INPUT_NR_TGID_EVENTS, 0,
			&kept, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(kept.complete);
	if (has_records)
		CU_ASSERT_TRUE(kept.nr > 0);
	na = map_run(path, &kept, &a, NULL);
	nb = map_run(path, NULL, &b, NULL);
	printf("\n    %s: %zu records kept, FXT %zu bytes kept, %zu read, %s",
	       name, kept.nr, na, nb,
	       na == nb && !memcmp(a, b, na) ? "same" : "DIFFERENT\n");
	CU_ASSERT_EQUAL(na, nb);
	CU_ASSERT_TRUE(na == nb && !memcmp(a, b, na));
	free(a);
	free(b);
	datcheck_recs_free(&kept);
}

static void check_sample(const char *name, bool has_records)
{
	check_file(unit_sample_path(name), name, has_records);
}

static const char newtask_format[] =
	"name: task_newtask\n"
	"ID: 7\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:unsigned long clone_flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:40;\tsize:2;\tsigned:1;\n"
	"\n"
	"print fmt: \"pid=%d comm=%s clone_flags=%lx oom_score_adj=%hd\", "
	"REC->pid, REC->comm, REC->clone_flags, REC->oom_score_adj\n";

/* task_newtask by @parent of @pid, payload after the common fields. */
static void newtask(unsigned int cpu, int id, int parent, int pid,
		    uint64_t flags)
{
	uint8_t p[36] = { 0 };

	memcpy(p, &pid, 4);
	memcpy(p + 4, "worker", 6);
	memcpy(p + 24, &flags, 8);
	fixture_emit(cpu, id, parent, p, sizeof(p));
}

/*
 * Process 100 makes thread 101 (on CPU 1); 101 exits, and process 200
 * forks a new process that gets pid 101 again (on CPU 0, later), which
 * then makes process 300.  In time order 101 ends up leading its own
 * group; taken CPU by CPU, CPU 0 first, it would be left in 100's.
 */
static void test_order(void)
{
	char path[] = "/tmp/test-map-tgid-XXXXXX";
	int fd = mkstemp(path), id;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fixture_open("test-map-tgid", path);
	id = fixture_format("task", newtask_format,
			    sizeof(newtask_format) - 1);
	newtask(1, id, 100, 101, 0x00010000);	/* CLONE_THREAD */
	newtask(0, id, 200, 101, 0);
	newtask(0, id, 101, 300, 0);
	fixture_close();
	check_file(path, "pid reused across CPUs", true);
	unlink(path);
}

static void test_threads(void)
{
	check_sample("threads.dat", true);
}

static void test_procmaps(void)
{
	check_sample("procmaps.dat", true);
}

static void test_markers(void)
{
	check_sample("atrace-markers.dat", true);
}

static void test_others(void)
{
	check_sample("sched.dat", false);
	check_sample("sched-v6.dat", false);
	check_sample("sched-zstd.dat", false);
	check_sample("two-buffers.dat", false);
	check_sample("lost-events.dat", false);
	check_sample("net-events.dat", false);
}

/* A watch of nothing, and records given up: nothing handed over. */
static void test_nothing_kept(void)
{
	static const struct dat_event_name none[] = { { "nosuch", "event" } };
	struct dat_recs kept;
	char err[256];

	CU_ASSERT_EQUAL(datcheck_file_keep(unit_path("samples/threads.dat"),
					   none, 1, 0, &kept, err, sizeof(err)),
			0);
	CU_ASSERT_TRUE(kept.complete);
	CU_ASSERT_EQUAL(kept.nr, 0);
	datcheck_recs_free(&kept);
	/* a file that fails the check hands nothing over */
	CU_ASSERT_NOT_EQUAL(datcheck_file_keep(unit_path("samples/record.sh"),
					       fxt_input_tgid_events, 1, 0, &kept,
					       err,
					       sizeof(err)), 0);
	CU_ASSERT_FALSE(kept.complete);
	CU_ASSERT_PTR_NULL(kept.recs);
}

static CU_TestInfo tests[] = {
	{ "threads.dat: kept records = the plugin's pass", test_threads },
	{ "procmaps.dat: kept records = the plugin's pass", test_procmaps },
	{ "atrace-markers.dat: kept = the plugin's pass", test_markers },
	{ "the other samples: kept = the plugin's pass", test_others },
	{ "a pid the CPUs disagree on: kept in time order", test_order },
	{ "nothing watched, a bad file: nothing kept", test_nothing_kept },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-tgid from the check's records", NULL, NULL, NULL, NULL,
	  tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
