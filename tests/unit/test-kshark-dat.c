// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-kshark-dat - what KernelShark shows of a recording's .fxt (made by
 * `trace-fxt convert`) against what it shows of the .dat itself, column
 * by column, through libkshark's own API: for every entry its time, CPU,
 * pid, the pid it is drawn with (entry->pid, which plugins change), event
 * name (kshark_get_event_name), task (kshark_get_task), latency
 * (kshark_get_aux_info) and info (kshark_get_info).
 *
 * Plugins as the kernelshark program puts them: the .dat's stream gets
 * KernelShark's default plugins (kshark_tep_handle_plugins(): sched_events,
 * missed_events, kvm_combo), its other buffers' streams none
 * (KsDataStore::_openDataFile()); every stream of the .fxt gets
 * plugin-fxt.so's plot part, as a plugin given with -p
 * (KsDataStore::_addPluginsToStream()), which it turns off itself on
 * other buffers' streams.  A file with several buffers is compared a
 * second time with sched_events on every stream of the .dat (what
 * importing a session that names a buffer does,
 * kshark_import_trace_file()) and the plot part ticked on every stream of
 * the .fxt (what Manage plugins does, KsPluginManager::updatePlugins()).
 *
 * Every project sample (samples/, every .dat: all ten must be there)
 * is compared, the shared ones (../shared/samples/, every .dat) when they
 * are there, and the recording $KSHARK_DAT names (make bench's, say).
 * Given .dat files as arguments, it compares those instead;
 * KSHARK_FXT_SUFFIX=.fxt.gz or .fxt.zst converts to compressed FXT,
 * KSHARK_CONVERT_OPTS=--once to the FXT whose events are its packets
 * alone (which the plugin reads as it reads a Perfetto trace).  A .dat
 * with several
 * ftrace buffers is opened as KernelShark opens them all (a stream per
 * buffer, kshark_tep_init_all_buffers); the .fxt must open as the same
 * streams (names, CPU counts), compared stream by stream.  Entries are
 * compared as sorted lists, so the order of equal-time entries does not
 * matter; any other difference is one.
 *
 * A Perfetto trace (samples/perfetto/, or given: any file not named
 * .dat) is compared the other way round: plugin-fxt.so opens it itself
 * (as the trace.dat it converts it to in memory), against the .dat
 * `trace-fxt convert` makes of it, opened by KernelShark's own trace.dat
 * reader; both streams get what the kernelshark program gives a trace.dat
 * stream.  The kernel's event formats are the sample's
 * ($TRACE_FXT_EVENT_FORMATS, else samples/perfetto/formats), for both.
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
#include "ks-draw.h"
#include "unit.h"

enum col { COL_EVENT, COL_TASK, COL_LATENCY, COL_INFO, NCOLS };

static const char *const col_name[NCOLS] = {
	"event", "task", "latency", "info",
};

struct row {
	int64_t	ts;
	int	cpu;
	int	pid;
	int	drawn;	/* entry->pid */
	char	*col[NCOLS];
};

struct side {
	struct row		*rows;
	size_t			n, cap;
	/* as loaded, kept for drawing, and the pid each was drawn with */
	struct kshark_entry	**entries;
	int			*loaded_pid;
	size_t			nentries;
};

static struct kshark_context *ctx;
/* What the other side of a comparison is called: a .dat's conversion. */
static const char *other = ".fxt";
static char dir[] = "/tmp/test-kshark-dat-XXXXXX";

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

/* The plugins KernelShark gives a .dat's stream by default. */
static const char *const ks_default_plugins[] = {
	"sched_events", "missed_events", "kvm_combo",
};

static int suite_init(void)
{
	const char *plugin = unit_build_path("kernelshark-plugin/plugin-fxt.so");
	const char *path;
	char file[4096];
	size_t i;

	if (!mkdtemp(dir) || !kshark_instance(&ctx))
		return -1;
	/* as the kernelshark program: its built-in plugins first */
	for (i = 0; i < sizeof(ks_default_plugins) /
		    sizeof(*ks_default_plugins); i++) {
		path = ks_plugin_path(ks_default_plugins[i]);
		if (!path) {
			printf("\nKernelShark's %s plugin is not installed\n",
			       ks_default_plugins[i]);
			return -1;
		}
		snprintf(file, sizeof(file), "%s", path);
		if (!kshark_register_plugin(ctx, ks_default_plugins[i], file))
			return -1;
	}
	return kshark_register_plugin(ctx, "fxt", plugin) ? 0 : -1;
}

/* Plugin @name's plot part, registered in the context. */
static struct kshark_dpi *dpi_of(const char *name)
{
	struct kshark_plugin_list *p;

	p = kshark_find_plugin_by_name(ctx->plugins, name);
	CU_ASSERT_FATAL(p && p->process_interface);
	return p->process_interface;
}

/*
 * plugin-fxt.so's plot part on stream @sd, as a -p plugin goes on: ticked
 * in Manage plugins on the opened stream, unticked on the other buffers'
 * (so that pressing Apply leaves it off there).
 */
static void fxt_plot_attach(int sd, bool first)
{
	struct kshark_data_stream *st = kshark_get_data_stream(ctx, sd);
	struct kshark_dpi_list *p;

	CU_ASSERT_FATAL(st != NULL);
	p = kshark_register_plugin_to_stream(st, dpi_of("fxt"), true);
	kshark_handle_dpi(st, p, KSHARK_PLUGIN_INIT);
	CU_ASSERT_EQUAL(p->status & (KSHARK_PLUGIN_ENABLED |
				     KSHARK_PLUGIN_FAILED),
			first ? KSHARK_PLUGIN_ENABLED : 0);
}

/* Tick plugin-fxt.so's plot part on stream @sd in Manage plugins. */
static void fxt_plot_tick(int sd)
{
	struct kshark_data_stream *st = kshark_get_data_stream(ctx, sd);
	struct kshark_dpi_list *p;

	CU_ASSERT_FATAL(st != NULL);
	for (p = st->plugins; p; p = p->next)
		if (p->interface == dpi_of("fxt"))
			p->status |= KSHARK_PLUGIN_ENABLED;
	kshark_handle_all_dpis(st, KSHARK_PLUGIN_UPDATE);
}

static int suite_clean(void)
{
	char cmd[300];

	kshark_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/*
 * Convert @dat to @fxt (or back); false (after saying why) when the
 * converter cannot.  $KSHARK_CONVERT_OPTS (say --once) are convert's
 * options towards FXT.
 */
static bool convert(const char *dat, const char *fxt)
{
	const char *opts = getenv("KSHARK_CONVERT_OPTS");
	char tool[4096], cmd[4 * 4096 + 64];
	size_t n = strlen(fxt);

	snprintf(tool, sizeof(tool), "%s",
		 unit_build_path("trace-cmd-plugin/trace-fxt/trace-fxt"));
	if (access(tool, X_OK)) {
		CU_FAIL("trace-fxt is not built");
		return false;
	}
	if (!opts || (n > 4 && !strcmp(fxt + n - 4, ".dat")))
		opts = "";
	snprintf(cmd, sizeof(cmd), "'%s' convert -q %s '%s' -o '%s' >/dev/null",
		 tool, opts, dat, fxt);
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
	if (x->drawn != y->drawn)
		return x->drawn - y->drawn;
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
	r->drawn = e->pid;
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
	for (i = 0; i < s->nentries; i++)
		free(s->entries[i]);
	free(s->entries);
	free(s->loaded_pid);
	memset(s, 0, sizeof(*s));
}

static void load_stream(int sd, struct side *s)
{
	struct kshark_entry **rows = NULL;
	ssize_t n, j;

	n = kshark_load_entries(ctx, sd, &rows);
	CU_ASSERT_FATAL(n >= 0);
	s->loaded_pid = calloc((size_t)n + 1, sizeof(*s->loaded_pid));
	CU_ASSERT_FATAL(s->loaded_pid != NULL);
	for (j = 0; j < n; j++) {
		side_add(s, rows[j]);
		s->loaded_pid[j] = rows[j]->pid;
	}
	s->entries = rows;
	s->nentries = (size_t)n;
}

/* Entries whose drawn pid drawing changed (the second pass). */
static size_t side_moved(const struct side *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nentries; i++)
		n += s->entries[i]->pid != s->loaded_pid[i];
	return n;
}

/*
 * The streams KernelShark shows for @path, from *@first on, with their
 * plugins: a .dat's buffers as KernelShark opens them all
 * (kshark_tep_init_all_buffers()), the default plugins on the first (on
 * all with @every), and so a file plugin-fxt.so made a trace.dat stream
 * of; whatever kshark_open() made of any other file, the plot part of
 * plugin-fxt.so on each (ticked on all with @every).
 * Returns how many.
 */
static int open_streams(const char *path, bool dat, bool every, int *first)
{
	int before = ctx->n_streams, n, i;

	*first = kshark_open(ctx, path);
	CU_ASSERT_FATAL(*first >= 0);
	/* a Perfetto trace: a trace.dat stream of plugin-fxt.so's making */
	if (dat || kshark_is_tep(ctx->stream[*first])) {
		n = kshark_tep_init_all_buffers(ctx, *first) + 1;
		CU_ASSERT_FATAL(n >= 1);
		for (i = 0; i < n; i++)
			if (!i || every)
				kshark_tep_handle_plugins(ctx, *first + i);
		return n;
	}
	n = ctx->n_streams - before;
	for (i = 0; i < n; i++)
		fxt_plot_attach(*first + i, i == 0);
	for (i = 1; every && i < n; i++)
		fxt_plot_tick(*first + i);
	return n;
}

static void show(const char *what, const struct row *r)
{
	printf("  %s: %" PRId64 " cpu %d pid %d drawn %d | %s | %s | %s | "
	       "%s\n", what, r->ts, r->cpu, r->pid, r->drawn,
	       r->col[COL_EVENT], r->col[COL_TASK], r->col[COL_LATENCY],
	       r->col[COL_INFO]);
}

/* Differences found, column by column, and how many entries compared. */
struct tally {
	size_t	key;		/* time, CPU or pid */
	size_t	drawn;		/* pid drawn with */
	size_t	redrawn;	/* the same, once task plots were drawn */
	size_t	plots;		/* task plots whose boxes differ */
	size_t	green, red;	/* box pixels drawn on the .dat's plots */
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
	printf(" (of %zu entries compared); drawn pid %zu (%zu after "
	       "drawing), task plots' boxes %zu\n", t->compared, t->drawn,
	       t->redrawn, t->plots);
}

/* How many entries a plugin draws as another pid than their own. */
static size_t side_redrawn(const struct side *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->rows[i].drawn != s->rows[i].pid;
	return n;
}

/*
 * Task plots drawn headless (ks-draw.h) with each stream's plugins: the
 * whole recording, eight tiles of it and eight narrow windows, 1000 bins
 * each (one a pixel), for the busiest tasks.
 */
#define PLOT_BINS	1000
#define PLOT_TILES	8
#define PLOT_TASKS	24

struct task_count {
	int	pid;
	size_t	n;
};

static int task_count_cmp(const void *a, const void *b)
{
	const struct task_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->pid - y->pid;
}

/* Up to PLOT_TASKS pids with the most entries in @s, busiest first. */
static size_t busiest(const struct side *s, int *pids)
{
	struct task_count *c = calloc(s->n + 1, sizeof(*c));
	size_t i, j, n = 0;

	CU_ASSERT_FATAL(c != NULL);
	for (i = 0; i < s->n; i++) {
		for (j = 0; j < n && c[j].pid != s->rows[i].drawn; j++)
			;
		if (j == n)
			c[n++].pid = s->rows[i].drawn;
		c[j].n++;
	}
	qsort(c, n, sizeof(*c), task_count_cmp);
	for (i = j = 0; i < n && j < PLOT_TASKS; i++)
		if (c[i].pid > 0)
			pids[j++] = c[i].pid;
	free(c);
	return j;
}

static bool box_eq(const struct ks_box *a, const struct ks_box *b)
{
	return a->rgb == b->rgb && a->x0 == b->x0 && a->y0 == b->y0 &&
	       a->x1 == b->x1 && a->y1 == b->y1 && a->ts_a == b->ts_a &&
	       a->ts_b == b->ts_b;
}

struct box_tally {
	size_t	plots, differ, boxes, green, red;
};

/* Task @pid's plot over [@min, @max] on both sides, into @bt. */
static void compare_plot(int dat_sd, int fxt_sd, struct ks_model *dm,
			 struct ks_model *fm, int pid, struct box_tally *bt)
{
	struct ks_box *a = NULL, *b = NULL;
	int na, nb, oa, ob, i;
	bool same;

	na = ks_model_task_boxes(dm, dat_sd, pid, &a, &oa);
	nb = ks_model_task_boxes(fm, fxt_sd, pid, &b, &ob);
	CU_ASSERT_FATAL(na >= 0 && nb >= 0);
	same = na == nb && oa == ob;
	for (i = 0; same && i < na; i++)
		same = box_eq(&a[i], &b[i]);
	bt->plots++;
	bt->boxes += (size_t)na;
	for (i = 0; i < na; i++) {
		bt->green += a[i].rgb == 0x00ff00;
		bt->red += a[i].rgb == 0xff0000;
	}
	if (!same && bt->differ++ < 3) {
		printf("  task %d: .dat %d boxes (%d other shapes), .fxt %d "
		       "(%d)\n", pid, na, oa, nb, ob);
		for (i = 0; i < na || i < nb; i++) {
			if (i < na && i < nb && box_eq(&a[i], &b[i]))
				continue;
			if (i < na)
				printf("    .dat #%06x %d-%d %" PRId64 "-%" PRId64
				       "\n", a[i].rgb, a[i].x0, a[i].x1,
				       a[i].ts_a, a[i].ts_b);
			if (i < nb)
				printf("    .fxt #%06x %d-%d %" PRId64 "-%" PRId64
				       "\n", b[i].rgb, b[i].x0, b[i].x1,
				       b[i].ts_a, b[i].ts_b);
			break;
		}
	}
	free(a);
	free(b);
}

static int64_t side_ts(const struct side *s, bool last)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < s->nentries; i++)
		if (!i || (last ? s->entries[i]->ts > t :
				  s->entries[i]->ts < t))
			t = s->entries[i]->ts;
	return t;
}

/* The task plots of both streams, every range and busy task. */
static void compare_plots(const char *base, const char *stream, int dat_sd,
			  int fxt_sd, struct side *dat, struct side *fxt,
			  struct tally *t)
{
	int64_t min = side_ts(dat, false), max = side_ts(dat, true), lo, span;
	struct box_tally bt = { 0 };
	struct ks_model *dm, *fm;
	int pids[PLOT_TASKS];
	size_t npids, i, r;

	if (!dat->nentries || max <= min)
		return;
	npids = busiest(dat, pids);
	span = max - min;
	for (r = 0; r < 1 + 2 * PLOT_TILES; r++) {
		if (r == 0) {
			lo = min;
		} else if (r <= PLOT_TILES) {
			lo = min + span / PLOT_TILES * (int64_t)(r - 1);
		} else {
			lo = min + span / PLOT_TILES * (int64_t)(r - 1 -
								 PLOT_TILES);
		}
		dm = ks_model_new(dat->entries, dat->nentries, lo,
				  r == 0 ? max : r <= PLOT_TILES ?
				  lo + span / PLOT_TILES : lo + span / 64,
				  PLOT_BINS);
		fm = ks_model_new(fxt->entries, fxt->nentries, lo,
				  r == 0 ? max : r <= PLOT_TILES ?
				  lo + span / PLOT_TILES : lo + span / 64,
				  PLOT_BINS);
		CU_ASSERT_FATAL(dm && fm);
		for (i = 0; i < npids; i++)
			compare_plot(dat_sd, fxt_sd, dm, fm, pids[i], &bt);
		ks_model_free(dm);
		ks_model_free(fm);
	}
	printf("# %s: stream \"%s\": %zu task plots drawn (%zu tasks, %d "
	       "ranges): %zu boxes on the .dat's (%zu green, %zu red), %zu "
	       "plots differ\n", base, stream, bt.plots, npids,
	       1 + 2 * PLOT_TILES, bt.boxes, bt.green, bt.red, bt.differ);
	t->plots += bt.differ;
	t->green += bt.green;
	t->red += bt.red;
}

/* @s's entries by time, CPU and pid. */
static struct row *redrawn_rows(const struct side *s, size_t *n)
{
	struct row *r = calloc(s->nentries + 1, sizeof(*r));
	size_t i;

	CU_ASSERT_FATAL(r != NULL);
	for (i = *n = 0; i < s->nentries; i++) {
		r[*n].ts = s->entries[i]->ts;
		r[*n].cpu = s->entries[i]->cpu;
		r[*n].pid = kshark_get_pid(s->entries[i]);
		r[*n].drawn = s->entries[i]->pid;
		(*n)++;
	}
	qsort(r, *n, sizeof(*r), row_cmp);
	return r;
}

/*
 * What drawing changed (sched_events moves a switched-out task's last
 * trailing entry to the task switched in when it draws its first task
 * plot): every entry's drawn pid compared again, by time, CPU and pid
 * (rows without columns, in row_cmp()'s order).
 */
static size_t compare_redrawn(const struct side *dat, const struct side *fxt)
{
	size_t i, na, nb, n;
	struct row *a = redrawn_rows(dat, &na);
	struct row *b = redrawn_rows(fxt, &nb);

	n = na > nb ? na - nb : nb - na;
	for (i = 0; i < na && i < nb; i++)
		n += row_cmp(&a[i], &b[i]) != 0;
	free(a);
	free(b);
	return n;
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
	       "from the .dat, %zu from the %s; drawn as another pid: %zu / "
	       "%zu\n", base, ds->name, fs->name, ds->n_cpus, fs->n_cpus,
	       dat.n, fxt.n, other, side_redrawn(&dat), side_redrawn(&fxt));
	t.other = (dat.n != fxt.n) + (ds->n_cpus != fs->n_cpus) +
		  (str_cmp(ds->name, fs->name) != 0);
	for (i = 0; i < dat.n && i < fxt.n; i++) {
		const struct row *a = &dat.rows[i], *b = &fxt.rows[i];
		bool differs = false;

		if (a->ts != b->ts || a->cpu != b->cpu || a->pid != b->pid) {
			t.key++;
			differs = true;
		} else if (a->drawn != b->drawn) {
			t.drawn++;
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
			show(other, b);
		}
	}
	t.compared = dat.n < fxt.n ? dat.n : fxt.n;
	compare_plots(base, ds->name, dat_sd, fxt_sd, &dat, &fxt, &t);
	t.redrawn = compare_redrawn(&dat, &fxt);
	tally_print(base, ds->name, &t);
	sum->key += t.key;
	sum->drawn += t.drawn;
	sum->redrawn += t.redrawn;
	sum->plots += t.plots;
	for (c = 0; c < NCOLS; c++)
		sum->col[c] += t.col[c];
	sum->compared += t.compared;
	sum->other += t.other;
	side_free(&dat);
	side_free(&fxt);
}

/*
 * A recording both ways: the same streams (one per ftrace buffer, same
 * names, same CPU counts), each with the same entries, every column;
 * @every: the scheduling plugins on every stream.  Adds to @sum, returns
 * the streams.
 */
static int compare_view(const char *dat_path, const char *fxt_path,
			bool every, struct tally *sum)
{
	const char *base = strrchr(dat_path, '/') + 1;
	int ndat, nfxt, dat_sd, fxt_sd, i;

	ndat = open_streams(dat_path, true, every, &dat_sd);
	nfxt = open_streams(fxt_path, false, every, &fxt_sd);
	printf("\n# %s: %d stream(s) from the .dat, %d from the %s; "
	       "sched_events / plugin-fxt's plot part on %s\n", base, ndat,
	       nfxt, other, every ? "every stream" : "the first (as opened)");
	CU_ASSERT_EQUAL(nfxt, ndat);
	for (i = 0; i < ndat && i < nfxt; i++)
		compare_stream(base, dat_sd + i, fxt_sd + i, sum);
	kshark_close_all(ctx);
	return ndat;
}

/* Whether @path is named as a trace.dat (what libkshark goes by). */
static bool named_dat(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcmp(path + n - 4, ".dat");
}

/*
 * A recording and its conversion, every stream and view: a .dat against
 * the .fxt trace-fxt convert makes of it; a Perfetto trace, opened by
 * plugin-fxt.so, against the .dat trace-fxt convert makes of it (what
 * the plugin shows must be what KernelShark shows of that .dat).
 */
static void compare(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *suffix = getenv("KSHARK_FXT_SUFFIX");
	const char *dat_path = path, *other_path;
	bool dat = named_dat(path);
	struct tally sum = { 0 };
	char conv[4096];
	int c;

	/* KSHARK_FXT_SUFFIX=.fxt.gz (or .zst): compare compressed FXT */
	snprintf(conv, sizeof(conv), "%s/%s%s", dir, base,
		 !dat ? ".dat" : suffix ? suffix : ".fxt");
	other_path = conv;
	if (!dat) {
		if (!getenv("TRACE_FXT_EVENT_FORMATS"))
			setenv("TRACE_FXT_EVENT_FORMATS",
			       unit_path("samples/perfetto/formats"), 1);
		dat_path = conv;
		other_path = path;
		other = "Perfetto trace";
	}
	if (convert(path, conv) &&
	    compare_view(dat_path, other_path, false, &sum) > 1)
		compare_view(dat_path, other_path, true, &sum);
	other = ".fxt";
	/* every stream, every view: the line e2e scripts look for */
	tally_print(base, NULL, &sum);
	CU_ASSERT(dat || sum.compared > 0);
	CU_ASSERT_EQUAL(sum.other, 0);
	CU_ASSERT_EQUAL(sum.key, 0);
	CU_ASSERT_EQUAL(sum.drawn, 0);
	CU_ASSERT_EQUAL(sum.redrawn, 0);
	CU_ASSERT_EQUAL(sum.plots, 0);
	for (c = 0; c < NCOLS; c++)
		CU_ASSERT_EQUAL(sum.col[c], 0);
}

/*
 * The project's recordings: samples/record.sh's in samples/, and the two
 * the build derives from sched-zstd.dat in the build's samples/.
 */
#define NR_PROJECT_SAMPLES	10
#define NR_BUILT_SAMPLES	2

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

/* The project's recordings: they must all be there. */
static void test_project_samples(void)
{
	char pattern[4096];
	const char *samples = getenv("SAMPLES");

	if (samples) {
		snprintf(pattern, sizeof(pattern), "%s/*.dat", samples);
		compare_glob(pattern, 1);
		return;
	}
	snprintf(pattern, sizeof(pattern), "%s", unit_path("samples/*.dat"));
	compare_glob(pattern, NR_PROJECT_SAMPLES);
	snprintf(pattern, sizeof(pattern), "%s",
		 unit_build_path("samples/*.dat"));
	compare_glob(pattern, NR_BUILT_SAMPLES);
}

/* The Perfetto recording of samples/perfetto/, through plugin-fxt.so. */
static void test_perfetto_samples(void)
{
	compare_glob(unit_path("samples/perfetto/*.pftrace*"), 1);
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
		snprintf(dat, sizeof(dat), "%s", unit_sample_path(names[i]));
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
	char dat[4096], fxt[4096];
	bool on_dat, on_fxt;
	int sd;

	snprintf(dat, sizeof(dat), "%s",
		 unit_path("samples/lost-events.dat"));
	snprintf(fxt, sizeof(fxt), "%s/missed.fxt", dir);
	if (!convert(dat, fxt))
		return;
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
}

/*
 * Another producer's scheduling (samples/fxt-sched-sample: FXT context
 * switches and wakeups as a Fuchsia-style producer writes them, no ftrace
 * instant beside them): plugin-fxt.so's plot part on the .fxt draws the
 * boxes sched_events draws on the .dat trace-fxt makes of it, and moves
 * the same trailing entries; every entry is drawn as the same pid (a
 * wakeup's entry is the waker's in both).  Their events' names differ,
 * so those are not compared.
 */
static void test_other_producer(void)
{
	char gen[4096], fxt[4096], dat[4096], cmd[3 * 4096];
	struct side ds = { 0 }, fs = { 0 };
	struct tally t = { 0 };
	int dat_sd, fxt_sd;
	size_t moved[2], redrawn;

	snprintf(gen, sizeof(gen), "%s", unit_build_path("samples/fxt-sched-sample"));
	snprintf(fxt, sizeof(fxt), "%s/sched-sample.fxt", dir);
	snprintf(dat, sizeof(dat), "%s/sched-sample.dat", dir);
	snprintf(cmd, sizeof(cmd), "'%s' '%s'", gen, fxt);
	CU_ASSERT_FATAL(!system(cmd));
	if (!convert(fxt, dat))
		return;
	CU_ASSERT_EQUAL(open_streams(dat, true, false, &dat_sd), 1);
	CU_ASSERT_EQUAL(open_streams(fxt, false, false, &fxt_sd), 1);
	load_stream(dat_sd, &ds);
	load_stream(fxt_sd, &fs);
	printf("\n# fxt-sched-sample: %zu entries in the .fxt, %zu in the "
	       ".dat trace-fxt made of it; drawn as another pid: %zu / %zu\n",
	       fs.n, ds.n, side_redrawn(&fs), side_redrawn(&ds));
	compare_plots("fxt-sched-sample", "", dat_sd, fxt_sd, &ds, &fs, &t);
	moved[0] = side_moved(&ds);
	moved[1] = side_moved(&fs);
	redrawn = compare_redrawn(&ds, &fs);
	printf("# fxt-sched-sample: entries moved by drawing: .dat %zu, .fxt "
	       "%zu; drawn pids that differ %zu\n", moved[0], moved[1],
	       redrawn);
	CU_ASSERT(side_redrawn(&ds) > 0);
	CU_ASSERT_EQUAL(side_redrawn(&ds), side_redrawn(&fs));
	CU_ASSERT_EQUAL(t.plots, 0);
	/* boxes were drawn: equal plots of nothing would prove nothing */
	CU_ASSERT(t.green > 0 && t.red > 0);
	CU_ASSERT(moved[0] > 0);
	CU_ASSERT_EQUAL(moved[0], moved[1]);
	CU_ASSERT_EQUAL(redrawn, 0);
	side_free(&ds);
	side_free(&fs);
	kshark_close_all(ctx);
}

static CU_TestInfo dat_tests[] = {
	{ "samples/*.dat vs their .fxt, every column", test_project_samples },
	{ "samples/perfetto/*.pftrace* opened by plugin-fxt.so vs their "
	  ".dat, every column", test_perfetto_samples },
	{ "../shared/samples/*.dat vs their .fxt, every column",
	  test_shared_samples },
	{ "$KSHARK_DAT vs its .fxt, every column", test_more },
	{ "sched_switch and wakeup fields through the generic plugin API",
	  test_sched_fields },
	{ "missed_events plugin on the .fxt as on the .dat",
	  test_missed_events_plugin },
	{ "another producer's scheduling: its boxes as on its .dat",
	  test_other_producer },
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
	{ "the files given (a .dat vs its .fxt, any other a Perfetto trace "
	  "vs its .dat), every column", test_given },
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
