// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-ks-load - plugin-fxt.so's decoding (fxt-ks-load.c) without
 * libkshark, on what trace-fxt's converter writes: what the load keeps
 * of a converted file, which KernelShark cannot see but pays for.
 *
 * A converted provider's ftrace events load as rows that keep where
 * their record is and read it again when asked about (reread rows):
 * only a file whose string table gives an index a second text needs
 * every argument stored, by a second decoding of the whole file.  The
 * writer's records of index 0 (the empty string, which it writes before
 * a shorter string for Tracy's importer) change no table and must not
 * send a converted file down that path.
 *
 * A Perfetto trace's rows rebuild their records when asked about: the
 * fields read from them are the ones the load drew the rows with.
 *
 * The child process that tries each event format before libtraceevent
 * parses it ends with the load: alive, it would share the process's
 * pages, and each page KernelShark writes afterwards would be copied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fxt-ks.h"
#include "fxt-reader.h"
#include "unit.h"

static char dir[] = "/tmp/test-fxt-ks-load-XXXXXX";

static int suite_init(void)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int suite_clean(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/*
 * samples/@name converted into the test's folder, each event an FXT
 * instant (the records this load keeps rows of): its path, or NULL.
 */
static const char *convert(const char *name)
{
	static char fxt[512];
	char tool[4096], cmd[3 * 4096 + 64];

	snprintf(tool, sizeof(tool), "%s",
		 unit_build_path("trace-cmd-plugin/trace-fxt/trace-fxt"));
	if (access(tool, X_OK)) {
		CU_FAIL("trace-fxt is not built");
		return NULL;
	}
	snprintf(fxt, sizeof(fxt), "%s/%s.fxt", dir, name);
	snprintf(cmd, sizeof(cmd), "'%s' convert -q --instants '%s' -o '%s' "
		 ">/dev/null", tool, unit_sample_path(name), fxt);
	if (system(cmd)) {
		CU_FAIL("trace-fxt convert");
		return NULL;
	}
	return fxt;
}

/* String records of index 0 in @path (-1 when it cannot be read). */
static long index0_records(const char *path)
{
	struct fxt_reader *r = fxt_reader_open(path, 0);
	struct fxt_record rec;
	long n = 0;
	int ret;

	if (!r)
		return -1;
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		if (rec.type == FXT_REC_STRING && !rec.string.index)
			n++;
	fxt_reader_close(r);
	return ret < 0 ? -1 : n;
}

static void test_converted_rows_reread(void)
{
	const char *fxt = convert("syscalls.dat");
	struct fxt_ks_data d;
	size_t i, reread = 0;
	long zeros;

	CU_ASSERT_FATAL(fxt != NULL);
	zeros = index0_records(fxt);
	CU_ASSERT_FATAL(zeros >= 0);
	CU_ASSERT_EQUAL_FATAL(fxt_ks_data_load(&d, fxt), 0);
	for (i = 0; i < d.nrows; i++)
		reread += fxt_ks_row_reread(&d.rows[i]);
	printf("\n# syscalls.dat converted: %ld string records of index 0; "
	       "%zu of %zu rows reread, %zu arguments stored\n",
	       zeros, reread, d.nrows, d.nargs);
	/* the case this guards: the writer's index-0 records are there */
	CU_ASSERT(zeros > 0);
	CU_ASSERT(d.nrows > 0);
	CU_ASSERT_EQUAL(reread, d.nrows);
	CU_ASSERT_EQUAL(d.nargs, 0);
	CU_ASSERT(d.reread != NULL);
	fxt_ks_data_free(&d);
}

static void test_no_child_left(void)
{
	const char *fxt = convert("sched.dat");
	struct fxt_ks_data d;
	pid_t left;

	CU_ASSERT_FATAL(fxt != NULL);
	CU_ASSERT_EQUAL_FATAL(fxt_ks_data_load(&d, fxt), 0);
	/* system() reaped the converter: a child now is the format prober */
	left = waitpid(-1, NULL, WNOHANG);
	printf("\n# after loading sched.dat's .fxt (%zu rows, formats "
	       "carried: %s): waitpid(-1, WNOHANG) = %d\n", d.nrows,
	       d.tep ? "yes" : "no", (int)left);
	CU_ASSERT(d.tep != NULL);
	CU_ASSERT_EQUAL(left, -1);
	fxt_ks_data_free(&d);
}

/*
 * A Perfetto trace (fxt-ks-pft.c): each context switch's and wakeup's
 * fields, read from the record its row rebuilds (what KernelShark's
 * filters and plugins read), say the pid the loader drew it with, and the
 * rows come in time order; no format-trying child is left either.
 */
static void test_perfetto_fields(void)
{
	const struct fxt_ks_arg *args, *a;
	size_t i, sched = 0, agree = 0, late = 0;
	struct fxt_ks_data d;
	int field;
	pid_t left;

	setenv("TRACE_FXT_EVENT_FORMATS", unit_path("samples/perfetto/formats"),
	       1);
	CU_ASSERT_EQUAL_FATAL(fxt_ks_pft_load(&d, unit_path(
		"samples/perfetto/sched-syscalls.pftrace.gz")), 0);
	left = waitpid(-1, NULL, WNOHANG);
	for (i = 0; i < d.nrows; i++) {
		const struct fxt_ks_row *row = &d.rows[i];
		const struct fxt_ks_event *ev = &d.events[row->event];
		unsigned int n;

		late += i && row->ts < d.rows[i - 1].ts;
		if (!ev->is_switch && ev->wakeup_rank <= 0)
			continue;
		sched++;
		field = fxt_ks_field_find(&d, row->event,
					  ev->is_switch ? "next_pid" : "pid");
		n = fxt_ks_row_args_get(&d, row, &args);
		a = fxt_ks_args_field(args, n, field);
		agree += a && a->v.i == row->sched_pid;
		fxt_ks_row_args_put(&d);
	}
	printf("\n# the Perfetto sample: %zu rows, %zu out of time order; %zu "
	       "switches and wakeups, %zu whose record's pid field is the "
	       "drawn pid; waitpid(-1, WNOHANG) = %d\n", d.nrows, late,
	       sched, agree, (int)left);
	CU_ASSERT(sched > 1000);
	CU_ASSERT_EQUAL(agree, sched);
	CU_ASSERT_EQUAL(late, 0);
	CU_ASSERT_EQUAL(left, -1);
	fxt_ks_data_free(&d);
}

static CU_TestInfo load_tests[] = {
	{ "a converted file's rows are reread, index-0 records or not",
	  test_converted_rows_reread },
	{ "no format-trying child left once loaded", test_no_child_left },
	{ "a Perfetto trace's fields from its rebuilt records",
	  test_perfetto_fields },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt-ks-load", suite_init, suite_clean, NULL, NULL, load_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
