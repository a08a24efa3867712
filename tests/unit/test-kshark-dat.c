// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-kshark-dat - what KernelShark shows of a recording's .fxt (made by
 * `trace-fxt convert`) against what it shows of the .dat itself, column
 * by column, through libkshark's own API: for every entry its time, CPU,
 * pid, event name (kshark_get_event_name), task (kshark_get_task),
 * latency (kshark_get_aux_info) and info (kshark_get_info).
 *
 * Every project sample (samples/, every .dat: all ten must be there)
 * is compared, the shared ones (../shared/samples/, every .dat) when they
 * are there, and the recording $KSHARK_DAT names (make bench's, say).
 * Given .dat files as arguments, it compares those instead;
 * KSHARK_FXT_SUFFIX=.fxt.gz or .fxt.zst converts to compressed FXT.  A .dat with several
 * ftrace buffers is opened as KernelShark opens them all (a stream per
 * buffer, kshark_tep_init_all_buffers); the .fxt must open as the same
 * streams (names, CPU counts), compared stream by stream.  Entries are
 * compared as sorted lists, so the order of equal-time entries does not
 * matter; any other difference is one.
 */
#include <dlfcn.h>
#include <glob.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include "unit.h"

enum col { COL_EVENT, COL_TASK, COL_LATENCY, COL_INFO, NCOLS };

static const char *const col_name[NCOLS] = {
	"event", "task", "latency", "info",
};

struct row {
	int64_t	ts;
	int	cpu;
	int	pid;
	char	*col[NCOLS];
};

struct side {
	struct row	*rows;
	size_t		n, cap;
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

/* Convert @dat; false (after saying why) when the converter cannot. */
static bool convert(const char *dat, const char *fxt)
{
	char tool[4096], cmd[3 * 4096 + 64];

	snprintf(tool, sizeof(tool), "%s",
		 unit_path("trace-cmd-plugin/trace-fxt/trace-fxt"));
	if (access(tool, X_OK)) {
		CU_FAIL("trace-fxt is not built");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "'%s' convert -q '%s' -o '%s' >/dev/null",
		 tool, dat, fxt);
	if (system(cmd)) {
		printf("\n%s: trace-fxt convert failed\n", dat);
		CU_FAIL("trace-fxt convert");
		return false;
	}
	return true;
}

static int str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c, i;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->pid != y->pid)
		return x->pid - y->pid;
	for (i = 0; i < NCOLS; i++) {
		c = str_cmp(x->col[i], y->col[i]);
		if (c)
			return c;
	}
	return 0;
}

static void side_add(struct side *s, struct kshark_entry *e)
{
	struct row *r;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		r = realloc(s->rows, s->cap * sizeof(*r));
		CU_ASSERT_FATAL(r != NULL);
		s->rows = r;
	}
	r = &s->rows[s->n++];
	r->ts = e->ts;
	r->cpu = e->cpu;
	r->pid = kshark_get_pid(e);
	r->col[COL_EVENT] = kshark_get_event_name(e);
	r->col[COL_TASK] = kshark_get_task(e);
	r->col[COL_LATENCY] = kshark_get_aux_info(e);
	r->col[COL_INFO] = kshark_get_info(e);
}

static void side_free(struct side *s)
{
	size_t i;
	int c;

	for (i = 0; i < s->n; i++)
		for (c = 0; c < NCOLS; c++)
			free(s->rows[i].col[c]);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

static void load_stream(int sd, struct side *s)
{
	struct kshark_entry **rows = NULL;
	ssize_t n, j;

	n = kshark_load_entries(ctx, sd, &rows);
	CU_ASSERT_FATAL(n >= 0);
	for (j = 0; j < n; j++) {
		side_add(s, rows[j]);
		free(rows[j]);
	}
	free(rows);
}

/*
 * The streams KernelShark shows for @path, from *@first on: a .dat's
 * buffers as KernelShark opens them all (kshark_tep_init_all_buffers());
 * whatever kshark_open() made of any other file.  Returns how many.
 */
static int open_streams(const char *path, bool dat, int *first)
{
	int before = ctx->n_streams, n;

	*first = kshark_open(ctx, path);
	CU_ASSERT_FATAL(*first >= 0);
	if (dat) {
		n = kshark_tep_init_all_buffers(ctx, *first);
		CU_ASSERT_FATAL(n >= 0);
		return n + 1;
	}
	return ctx->n_streams - before;
}

static void show(const char *what, const struct row *r)
{
	printf("  %s: %" PRId64 " cpu %d pid %d | %s | %s | %s | %s\n", what,
	       r->ts, r->cpu, r->pid, r->col[COL_EVENT], r->col[COL_TASK],
	       r->col[COL_LATENCY], r->col[COL_INFO]);
}

/* Differences found, column by column, and how many entries compared. */
struct tally {
	size_t	key;		/* time, CPU or pid */
	size_t	col[NCOLS];
	size_t	compared;
	size_t	other;		/* entry counts, stream names, CPU counts */
};

static void tally_print(const char *base, const char *stream,
			const struct tally *t)
{
	int c;

	printf("# %s:%s%s%s differences in time/cpu/pid %zu", base,
	       stream ? " stream \"" : "", stream ? stream : "",
	       stream ? "\":" : "", t->key);
	for (c = 0; c < NCOLS; c++)
		printf(", %s %zu", col_name[c], t->col[c]);
	printf(" (of %zu entries compared)\n", t->compared);
}

/* One stream of each side, entry by entry, into @sum. */
static void compare_stream(const char *base, int dat_sd, int fxt_sd,
			   struct tally *sum)
{
	struct kshark_data_stream *ds = kshark_get_data_stream(ctx, dat_sd);
	struct kshark_data_stream *fs = kshark_get_data_stream(ctx, fxt_sd);
	struct side dat = { 0 }, fxt = { 0 };
	struct tally t = { 0 };
	size_t i, shown = 0;
	int c;

	CU_ASSERT_FATAL(ds && fs);
	load_stream(dat_sd, &dat);
	load_stream(fxt_sd, &fxt);
	qsort(dat.rows, dat.n, sizeof(*dat.rows), row_cmp);
	qsort(fxt.rows, fxt.n, sizeof(*fxt.rows), row_cmp);
	printf("# %s: stream \"%s\" / \"%s\": %d / %d CPUs, %zu entries "
	       "from the .dat, %zu from the .fxt\n", base, ds->name, fs->name,
	       ds->n_cpus, fs->n_cpus, dat.n, fxt.n);
	t.other = (dat.n != fxt.n) + (ds->n_cpus != fs->n_cpus) +
		  (str_cmp(ds->name, fs->name) != 0);
	for (i = 0; i < dat.n && i < fxt.n; i++) {
		const struct row *a = &dat.rows[i], *b = &fxt.rows[i];
		bool differs = false;

		if (a->ts != b->ts || a->cpu != b->cpu || a->pid != b->pid) {
			t.key++;
			differs = true;
		}
		for (c = 0; c < NCOLS; c++) {
			if (str_cmp(a->col[c], b->col[c])) {
				t.col[c]++;
				differs = true;
			}
		}
		if (differs && shown++ < 5) {
			show(".dat", a);
			show(".fxt", b);
		}
	}
	t.compared = dat.n < fxt.n ? dat.n : fxt.n;
	tally_print(base, ds->name, &t);
	sum->key += t.key;
	for (c = 0; c < NCOLS; c++)
		sum->col[c] += t.col[c];
	sum->compared += t.compared;
	sum->other += t.other;
	side_free(&dat);
	side_free(&fxt);
}

/*
 * A recording both ways: the same streams (one per ftrace buffer, same
 * names, same CPU counts), each with the same entries, every column.
 */
static void compare(const char *dat_path)
{
	const char *base = strrchr(dat_path, '/') + 1;
	int ndat, nfxt, dat_sd, fxt_sd, i, c;
	struct tally sum = { 0 };
	char fxt_path[4096];

	/* KSHARK_FXT_SUFFIX=.fxt.gz (or .zst): compare compressed FXT */
	snprintf(fxt_path, sizeof(fxt_path), "%s/%s%s", dir, base,
		 getenv("KSHARK_FXT_SUFFIX") ? getenv("KSHARK_FXT_SUFFIX") :
		 ".fxt");
	if (!convert(dat_path, fxt_path))
		return;
	ndat = open_streams(dat_path, true, &dat_sd);
	nfxt = open_streams(fxt_path, false, &fxt_sd);
	printf("\n# %s: %d stream(s) from the .dat, %d from the .fxt\n",
	       base, ndat, nfxt);
	CU_ASSERT_EQUAL(nfxt, ndat);
	for (i = 0; i < ndat && i < nfxt; i++)
		compare_stream(base, dat_sd + i, fxt_sd + i, &sum);
	/* every stream: the line e2e scripts look for */
	tally_print(base, NULL, &sum);
	CU_ASSERT_EQUAL(sum.other, 0);
	CU_ASSERT_EQUAL(sum.key, 0);
	for (c = 0; c < NCOLS; c++)
		CU_ASSERT_EQUAL(sum.col[c], 0);
	kshark_close_all(ctx);
}

/* The project's recordings (samples/record.sh and its derived two). */
#define NR_PROJECT_SAMPLES	10

static void compare_glob(const char *pattern, size_t required)
{
	glob_t g;
	size_t i;

	if (glob(pattern, 0, NULL, &g)) {
		if (required) {
			CU_FAIL("no samples");
		} else {
			printf("\n# skip: no %s (optional data)\n", pattern);
		}
		return;
	}
	if (g.gl_pathc < required) {
		printf("\n# %zu of the %zu recordings %s\n", g.gl_pathc,
		       required, pattern);
		CU_FAIL("a project recording is missing");
	}
	for (i = 0; i < g.gl_pathc; i++)
		compare(g.gl_pathv[i]);
	globfree(&g);
}

/* In-tree recordings (samples/): they must all be there. */
static void test_project_samples(void)
{
	char pattern[4096];
	const char *samples = getenv("SAMPLES");

	if (samples)
		snprintf(pattern, sizeof(pattern), "%s/*.dat", samples);
	else
		snprintf(pattern, sizeof(pattern), "%s",
			 unit_path("samples/*.dat"));
	compare_glob(pattern, NR_PROJECT_SAMPLES);
}

/* $SHARED_SAMPLES or ../shared/samples: optional. */
static void test_shared_samples(void)
{
	char pattern[4096];

	snprintf(pattern, sizeof(pattern), "%s", unit_shared_path("*.dat"));
	compare_glob(pattern, 0);
}

/* KSHARK_DAT=FILE.dat: one more recording, e.g. make bench's. */
static void test_more(void)
{
	const char *more = getenv("KSHARK_DAT");

	if (!more || !*more) {
		printf("\n# skip: KSHARK_DAT not set\n");
		return;
	}
	compare(more);
}

/*
 * What KernelShark's sched_events plugin reads, read the way a plugin
 * that is not tied to trace.dat streams reads it (latency_plot.c does:
 * kshark_find_event_id(), kshark_register_event_handler(), and in the
 * handler kshark_read_record_field_int() of the record it is given):
 * every wakeup's pid (sched_waking, else sched_wakeup, as sched_events'
 * define_wakeup_event() picks) and every sched_switch's next_pid and
 * prev_state, as KernelShark loads the stream.  From them the wakeup
 * latencies sched_events draws: a wakeup of a task to its next switch in.
 */
struct field_val {
	int64_t	ts;
	int	what;	/* 0 wakeup pid, 1 next_pid, 2 prev_state */
	int64_t	val;
};

static struct {
	struct field_val	*v;
	size_t			n, cap, unread;
} fv;

static void fv_add(int64_t ts, int what, int64_t val)
{
	if (fv.n == fv.cap) {
		fv.cap = fv.cap ? 2 * fv.cap : 1024;
		fv.v = realloc(fv.v, fv.cap * sizeof(*fv.v));
		CU_ASSERT_FATAL(fv.v != NULL);
	}
	fv.v[fv.n].ts = ts;
	fv.v[fv.n].what = what;
	fv.v[fv.n++].val = val;
}

static void on_wakeup(struct kshark_data_stream *stream, void *rec,
		      struct kshark_entry *e)
{
	int64_t v;

	if (kshark_read_record_field_int(stream, rec, "pid", &v))
		fv.unread++;
	else
		fv_add(e->ts, 0, v);
}

static void on_switch(struct kshark_data_stream *stream, void *rec,
		      struct kshark_entry *e)
{
	int64_t v;

	if (kshark_read_record_field_int(stream, rec, "next_pid", &v))
		fv.unread++;
	else
		fv_add(e->ts, 1, v);
	if (kshark_read_record_field_int(stream, rec, "prev_state", &v))
		fv.unread++;
	else
		fv_add(e->ts, 2, v);
}

static int fv_cmp(const void *a, const void *b)
{
	const struct field_val *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->what != y->what)
		return x->what - y->what;
	return (x->val > y->val) - (x->val < y->val);
}

/* Wakeup to next switch in of the woken task: how many, ns in all. */
static void fv_latencies(size_t *pairs, int64_t *total)
{
	size_t i, j;

	*pairs = 0;
	*total = 0;
	for (i = 0; i < fv.n; i++) {
		if (fv.v[i].what != 0)
			continue;
		for (j = i + 1; j < fv.n; j++) {
			if (fv.v[j].what == 0 && fv.v[j].val == fv.v[i].val)
				break;	/* woken again first: that one counts */
			if (fv.v[j].what == 1 && fv.v[j].val == fv.v[i].val) {
				(*pairs)++;
				*total += fv.v[j].ts - fv.v[i].ts;
				break;
			}
		}
	}
}

/* Load stream @sd with the handlers on; the values, sorted, in fv. */
static void sched_fields(int sd, bool *found)
{
	struct kshark_data_stream *st = kshark_get_data_stream(ctx, sd);
	struct kshark_entry **rows = NULL;
	int sw, wk;
	ssize_t n, i;

	memset(&fv, 0, sizeof(fv));
	CU_ASSERT_FATAL(st != NULL);
	sw = kshark_find_event_id(st, "sched/sched_switch");
	wk = kshark_find_event_id(st, "sched/sched_waking");
	if (wk < 0)
		wk = kshark_find_event_id(st, "sched/sched_wakeup");
	*found = sw >= 0 && wk >= 0;
	if (!*found)
		return;
	kshark_register_event_handler(st, sw, on_switch);
	kshark_register_event_handler(st, wk, on_wakeup);
	n = kshark_load_entries(ctx, sd, &rows);
	CU_ASSERT(n > 0);
	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	kshark_unregister_event_handler(st, sw, on_switch);
	kshark_unregister_event_handler(st, wk, on_wakeup);
	qsort(fv.v, fv.n, sizeof(*fv.v), fv_cmp);
}

static void test_sched_fields(void)
{
	static const char *const names[] = {
		"sched.dat", "sched-v6.dat", "threads.dat", "two-buffers.dat",
	};
	size_t i, k, pairs[2], differ, ndat;
	struct field_val *dat_v;
	char dat[4096], fxt[4096];
	bool found[2];
	int64_t total[2];
	int sd;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(dat, sizeof(dat), "%s/%s",
			 unit_path("samples"), names[i]);
		snprintf(fxt, sizeof(fxt), "%s/fields-%s.fxt", dir, names[i]);
		if (!convert(dat, fxt))
			continue;
		sd = kshark_open(ctx, dat);
		CU_ASSERT_FATAL(sd >= 0);
		sched_fields(sd, &found[0]);
		fv_latencies(&pairs[0], &total[0]);
		CU_ASSERT_EQUAL(fv.unread, 0);
		dat_v = fv.v;
		ndat = fv.n;
		sd = kshark_open(ctx, fxt);
		CU_ASSERT_FATAL(sd >= 0);
		sched_fields(sd, &found[1]);
		fv_latencies(&pairs[1], &total[1]);
		differ = fv.unread;
		for (k = 0; k < ndat && k < fv.n; k++)
			differ += fv_cmp(&dat_v[k], &fv.v[k]) != 0;
		differ += ndat > fv.n ? ndat - fv.n : fv.n - ndat;
		printf("\n# %s: switch and wakeup events found: .dat %s, .fxt "
		       "%s; %zu / %zu field values read, %zu differ; wakeup "
		       "latencies: .dat %zu (%" PRId64 " ns), .fxt %zu (%"
		       PRId64 " ns)\n", names[i], found[0] ? "yes" : "no",
		       found[1] ? "yes" : "no", ndat, fv.n, differ, pairs[0],
		       total[0], pairs[1], total[1]);
		CU_ASSERT(found[0] && found[1]);
		CU_ASSERT(ndat > 0);
		CU_ASSERT_EQUAL(differ, 0);
		CU_ASSERT_EQUAL(pairs[0], pairs[1]);
		CU_ASSERT_EQUAL(total[0], total[1]);
		free(dat_v);
		free(fv.v);
		kshark_close_all(ctx);
	}
}

/* KernelShark's own plugins live beside libkshark. */
static const char *ks_plugin_path(const char *name)
{
	static char buf[4096];
	char lib[4096];
	Dl_info info;

	if (!dladdr((void *)kshark_instance, &info) || !info.dli_fname)
		return NULL;
	snprintf(lib, sizeof(lib), "%s", info.dli_fname);
	snprintf(buf, sizeof(buf), "%s/kernelshark/plugins/plugin-%s.so",
		 dirname(lib), name);
	return access(buf, R_OK) ? NULL : buf;
}

/* Is plugin @name attached to stream @sd, loaded, drawing? */
static bool stream_has_plugin(int sd, const char *name)
{
	struct kshark_data_stream *st = kshark_get_data_stream(ctx, sd);
	struct kshark_dpi_list *p;

	for (p = st ? st->plugins : NULL; p; p = p->next)
		if (!strcmp(p->interface->name, name))
			return (p->status & KSHARK_PLUGIN_LOADED) &&
			       st->draw_handlers;
	return false;
}

/*
 * KernelShark's missed_events plugin draws the lost events of the .fxt
 * as it draws those of the .dat: attached to the stream and loaded.
 */
static void test_missed_events_plugin(void)
{
	const char *path = ks_plugin_path("missed_events");
	char dat[4096], fxt[4096], file[4096];
	bool on_dat, on_fxt;
	int sd;

	if (!path) {
		printf("\n# skip: KernelShark's missed_events plugin not "
		       "installed\n");
		return;
	}
	snprintf(file, sizeof(file), "%s", path);
	CU_ASSERT_FATAL(kshark_register_plugin(ctx, "missed_events",
					       file) != NULL);
	snprintf(dat, sizeof(dat), "%s",
		 unit_path("samples/lost-events.dat"));
	snprintf(fxt, sizeof(fxt), "%s/missed.fxt", dir);
	if (!convert(dat, fxt))
		goto out;
	sd = kshark_open(ctx, dat);
	CU_ASSERT_FATAL(sd >= 0);
	kshark_tep_handle_plugins(ctx, sd);
	on_dat = stream_has_plugin(sd, "missed_events");
	sd = kshark_open(ctx, fxt);
	CU_ASSERT_FATAL(sd >= 0);
	on_fxt = stream_has_plugin(sd, "missed_events");
	printf("\n# missed_events plugin: on the .dat %s, on the .fxt %s\n",
	       on_dat ? "loaded" : "not loaded",
	       on_fxt ? "loaded" : "not loaded");
	CU_ASSERT(on_dat);
	CU_ASSERT(on_fxt);
	kshark_close_all(ctx);
out:
	kshark_unregister_plugin(ctx, "missed_events", file);
}

static CU_TestInfo dat_tests[] = {
	{ "samples/*.dat vs their .fxt, every column", test_project_samples },
	{ "../shared/samples/*.dat vs their .fxt, every column",
	  test_shared_samples },
	{ "$KSHARK_DAT vs its .fxt, every column", test_more },
	{ "sched_switch and wakeup fields through the generic plugin API",
	  test_sched_fields },
	{ "missed_events plugin on the .fxt as on the .dat",
	  test_missed_events_plugin },
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
	{ "the .dat files given vs their .fxt, every column", test_given },
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
