// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-kshark-dat - what KernelShark loads from a recording's .fxt (made
 * by `trace-fxt convert`) against what it loads from the .dat itself:
 * per ftrace buffer the same entries (time, CPU, pid, event name) and the
 * same task names.  The converter's file-level metadata instants
 * (category "trace-cmd": file info, cpustats, formats...) must not show:
 * the .fxt has exactly the .dat's entries.
 *
 * Without arguments it compares the project's recordings (in samples/);
 * with arguments, the .dat files named (tests/e2e/convert-eventheader.sh
 * gives it its fixtures).  A recording that is missing or that trace-fxt
 * fails to convert is a failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"
#include "unit.h"

struct row {
	int64_t	ts;
	int	cpu;
	int	pid;
	char	*name;
	char	*buffer;
};

struct side {
	struct row	*rows;
	size_t		n;
};

static struct kshark_context *ctx;
static char dir[] = "/tmp/test-kshark-dat-XXXXXX";

static int suite_init(void)
{
	const char *plugin = unit_path("kernelshark-plugin/plugin-fxt.so");

	if (!mkdtemp(dir) || !kshark_instance(&ctx))
		return -1;
	return kshark_register_plugin(ctx, "fxt", plugin) ? 0 : -1;
}

static int suite_clean(void)
{
	char cmd[300];

	kshark_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* Convert @dat; false (after saying why, as a failure) when that fails. */
static bool convert(const char *dat, const char *fxt)
{
	const char *tool = unit_path("trace-cmd-plugin/trace-fxt");
	char cmd[3 * 4096 + 64];
	int ret;

	if (access(dat, R_OK)) {
		printf("\n%s: cannot read it\n", dat);
		CU_FAIL("the sample is there");
		return false;
	}
	if (access(tool, X_OK)) {
		printf("\n%s is not built (make test builds it)\n", tool);
		CU_FAIL("trace-fxt is built");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "'%s' convert -q '%s' -o '%s'",
		 tool, dat, fxt);
	ret = system(cmd);
	if (ret) {
		printf("\n%s: trace-fxt convert failed (status %d)\n", dat, ret);
		CU_FAIL("trace-fxt converts the sample");
		return false;
	}
	return true;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->pid != y->pid)
		return x->pid - y->pid;
	c = strcmp(x->buffer, y->buffer);
	return c ? c : strcmp(x->name, y->name);
}

static void side_add(struct side *s, const struct kshark_entry *e,
		     const char *buffer, char *name)
{
	struct row *r;

	r = realloc(s->rows, (s->n + 1) * sizeof(*r));
	CU_ASSERT_FATAL(r != NULL);
	s->rows = r;
	r = &s->rows[s->n++];
	r->ts = e->ts;
	r->cpu = e->cpu;
	r->pid = e->pid;
	r->name = name ? name : strdup("?");
	r->buffer = strdup(buffer);
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->rows[i].name);
		free(s->rows[i].buffer);
	}
	free(s->rows);
}

static void free_entries(struct kshark_entry **rows, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
}

/* Every buffer of the .dat, as KernelShark opens them all. */
static void load_dat(const char *dat, struct side *s, int **pids,
		     ssize_t *npids, int *top_sd)
{
	struct kshark_entry **rows;
	int sd, nbuf, i;
	ssize_t n, j;

	sd = kshark_open(ctx, dat);
	CU_ASSERT_FATAL(sd >= 0);
	*top_sd = sd;
	nbuf = kshark_tep_init_all_buffers(ctx, sd);
	CU_ASSERT_FATAL(nbuf >= 0);
	for (i = sd; i <= sd + nbuf; i++) {
		struct kshark_data_stream *st = kshark_get_data_stream(ctx, i);
		const char *buffer;

		CU_ASSERT_FATAL(st != NULL);
		buffer = kshark_tep_is_top_stream(st) ? "top" : st->name;
		n = kshark_load_entries(ctx, i, &rows);
		CU_ASSERT_FATAL(n >= 0);
		for (j = 0; j < n; j++)
			side_add(s, rows[j], buffer,
				 kshark_get_event_name(rows[j]));
		free_entries(rows, n);
	}
	/* trace.dat streams learn their tasks while loading. */
	*npids = kshark_get_task_pids(ctx, sd, pids);
}

static void compare(const char *sample)
{
	struct side dat = { 0 }, fxt = { 0 };
	size_t i, bad_pos = 0, bad_name = 0, extra = 0;
	struct kshark_entry **rows;
	ssize_t n, j, npids = 0;
	char fxt_path[4096];
	int dat_sd, sd, *pids = NULL, *fxt_pids = NULL;
	ssize_t fxt_npids;
	const char *dat_path = sample;

	snprintf(fxt_path, sizeof(fxt_path), "%s/%s.fxt", dir,
		 strrchr(dat_path, '/') + 1);
	if (!convert(dat_path, fxt_path))
		return;

	load_dat(dat_path, &dat, &pids, &npids, &dat_sd);
	sd = kshark_open(ctx, fxt_path);
	CU_ASSERT_FATAL(sd >= 0);
	n = kshark_load_entries(ctx, sd, &rows);
	CU_ASSERT_FATAL(n > 0);
	for (j = 0; j < n; j++) {
		char *name = kshark_get_event_name(rows[j]);
		char *buffer = kshark_get_aux_info(rows[j]);

		if (name && !strncmp(name, "trace-cmd/", 10)) {
			extra++;
			free(name);
		} else {
			side_add(&fxt, rows[j], buffer ? buffer : "top", name);
		}
		free(buffer);
	}
	free_entries(rows, n);

	qsort(dat.rows, dat.n, sizeof(*dat.rows), row_cmp);
	qsort(fxt.rows, fxt.n, sizeof(*fxt.rows), row_cmp);
	CU_ASSERT_EQUAL(extra, 0);
	CU_ASSERT_EQUAL(fxt.n, dat.n);
	for (i = 0; i < dat.n && i < fxt.n; i++) {
		const struct row *a = &dat.rows[i], *b = &fxt.rows[i];

		if (a->ts != b->ts || a->cpu != b->cpu || a->pid != b->pid ||
		    strcmp(a->buffer, b->buffer)) {
			if (!bad_pos++)
				printf("\nfirst difference at %zu: .dat %s %" PRId64
				       " cpu %d pid %d %s, .fxt %s %" PRId64
				       " cpu %d pid %d %s\n", i, a->buffer,
				       a->ts, a->cpu, a->pid, a->name,
				       b->buffer, b->ts, b->cpu, b->pid,
				       b->name);
		} else if (strcmp(a->name, b->name)) {
			if (!bad_name++)
				printf("\nfirst name difference: %s vs %s\n",
				       a->name, b->name);
		}
	}
	CU_ASSERT_EQUAL(bad_pos, 0);
	CU_ASSERT_EQUAL(bad_name, 0);

	/* The same tasks, with the same names (top buffer's pids). */
	fxt_npids = kshark_get_task_pids(ctx, sd, &fxt_pids);
	CU_ASSERT(fxt_npids >= npids);
	free(fxt_pids);
	for (j = 0; j < npids; j++) {
		char *a = kshark_comm_from_pid(dat_sd, pids[j]);
		char *b = kshark_comm_from_pid(sd, pids[j]);

		if (!a || !b || strcmp(a, b)) {
			printf("\npid %d: .dat task %s, .fxt task %s\n",
			       pids[j], a ? a : "(null)", b ? b : "(null)");
			CU_FAIL("task names differ");
		}
		free(a);
		free(b);
	}
	printf("\n# %s: %zu entries match, %zu trace-cmd/* extra, %zd tasks\n",
	       strrchr(dat_path, '/') + 1, dat.n, extra, npids);
	free(pids);
	side_free(&dat);
	side_free(&fxt);
	kshark_close_all(ctx);
}

/*
 * The project's recordings (tests/e2e/lib.sh lists the same), by name
 * under samples/; unit_path() answers in a static buffer, hence the copy.
 */
static void compare_sample(const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", unit_path("samples"), name);
	compare(path);
}

#define SAMPLE_TEST(fn, name)				\
	static void fn(void)				\
	{						\
		compare_sample(name);			\
	}
SAMPLE_TEST(test_sched, "sched.dat")
SAMPLE_TEST(test_sched_zstd, "sched-zstd.dat")
SAMPLE_TEST(test_sched_v6, "sched-v6.dat")
SAMPLE_TEST(test_two_buffers, "two-buffers.dat")
SAMPLE_TEST(test_threads, "threads.dat")
SAMPLE_TEST(test_atrace_markers, "atrace-markers.dat")
SAMPLE_TEST(test_lost_events, "lost-events.dat")
SAMPLE_TEST(test_net_events, "net-events.dat")

static CU_TestInfo dat_tests[] = {
	{ "sched.dat (v7) vs its .fxt", test_sched },
	{ "sched-zstd.dat (v7, zstd) vs its .fxt", test_sched_zstd },
	{ "sched-v6.dat vs its .fxt", test_sched_v6 },
	{ "two-buffers.dat (every buffer) vs its .fxt", test_two_buffers },
	{ "threads.dat vs its .fxt", test_threads },
	{ "atrace-markers.dat vs its .fxt", test_atrace_markers },
	{ "lost-events.dat vs its .fxt", test_lost_events },
	{ "net-events.dat vs its .fxt", test_net_events },
	CU_TEST_INFO_NULL,
};

static char **given;
static int ngiven;

static void test_given(void)
{
	int i;

	for (i = 0; i < ngiven; i++)
		compare(given[i]);
}

static CU_TestInfo given_tests[] = {
	{ "the .dat files given vs their .fxt", test_given },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "kshark .dat vs .fxt", suite_init, suite_clean, NULL, NULL,
	  dat_tests },
	CU_SUITE_INFO_NULL,
};

static CU_SuiteInfo given_suites[] = {
	{ "kshark .dat vs .fxt", suite_init, suite_clean, NULL, NULL,
	  given_tests },
	CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	if (argc > 1) {
		given = argv + 1;
		ngiven = argc - 1;
		return unit_run(argv[0], given_suites);
	}
	return unit_run(argv[0], suites);
}
