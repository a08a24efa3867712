// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-kshark-load - time what KernelShark does to open a trace: register
 * the FXT plugin, then kshark_open() + kshark_load_entries() per file, in
 * one process so that .dat and .fxt loads are measured alike.
 *
 *   bench-kshark-load [-p PLUGIN.so] [-g DIR] [-r REPS] [-D N] [-1] FILE...
 *
 * One line per file: "FILE entries=N best_ms=... median_ms=...".  Each
 * file is loaded once first so that both start from a warm page cache;
 * then the files take turns, REPS rounds, so that a busy machine slows
 * them alike rather than whichever ran while it was busiest.
 * -1 times the first load of each file instead, and that one only: the
 * load of a program that has just started, as the kernelshark program's
 * of the file it is given (the page cache warmed by an earlier process).
 * -D N also prints the first N entries as kshark_dump_entry() does.
 * -g DIR opens each file as the kernelshark program does, what it turns
 * on by default included: KernelShark's default plugins of a trace.dat
 * stream (sched_events, missed_events, kvm_combo: DIR/plugin-NAME.so)
 * on a .dat's stream, PLUGIN.so's plot part on the stream of any other
 * file, before the load (whose event handlers they add); and loads the
 * entries of every stream the file opened (a .dat's buffers, an FXT's
 * providers, a Perfetto trace's instances), as the GUI does.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

/* What kshark_tep_handle_plugins() gives a trace.dat stream. */
static const char *const ks_default_plugins[] = {
	"sched_events", "missed_events", "kvm_combo",
};

/* -g: the plugins each stream gets on opening, as the GUI's. */
static bool gui;

/* The default plugins of KernelShark's in @dir registered; false if not. */
static bool register_defaults(struct kshark_context *ctx, const char *dir)
{
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(ks_default_plugins) /
		    sizeof(*ks_default_plugins); i++) {
		snprintf(path, sizeof(path), "%s/plugin-%s.so", dir,
			 ks_default_plugins[i]);
		if (access(path, R_OK) ||
		    !kshark_register_plugin(ctx, ks_default_plugins[i], path)) {
			fprintf(stderr, "cannot register %s\n", path);
			return false;
		}
	}
	return true;
}

/*
 * What the GUI does to a file it has just opened as stream @sd
 * (KsDataStore): a trace.dat's buffers opened and its default plugins
 * on; any other stream the -p plugins' plot parts (here, "fxt"'s).
 */
static void open_as_gui(struct kshark_context *ctx, int sd)
{
	struct kshark_data_stream *st = kshark_get_data_stream(ctx, sd);
	struct kshark_plugin_list *p;
	struct kshark_dpi_list *dpi;

	if (!st)
		return;
	if (kshark_is_tep(st)) {
		kshark_tep_init_all_buffers(ctx, sd);
		kshark_tep_handle_plugins(ctx, sd);
		return;
	}
	p = kshark_find_plugin_by_name(ctx->plugins, "fxt");
	if (!p || !p->process_interface)
		return;
	dpi = kshark_register_plugin_to_stream(st, p->process_interface, true);
	if (dpi)
		kshark_handle_dpi(st, dpi, KSHARK_PLUGIN_INIT);
}

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Open, load, free, close; the time of open + load, or < 0, and in *@cpu
 * the CPU time it took (the process's, its format-parsing children's
 * apart: on a busy machine, less noisy than the wall clock).
 */
static double load_once(struct kshark_context *ctx, const char *file,
			ssize_t *n, int dump, double *cpu)
{
	struct kshark_entry **rows = NULL;
	double t0, t1, c0;
	ssize_t i;
	int sd;

	t0 = clock_ms(CLOCK_MONOTONIC);
	c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	sd = kshark_open(ctx, file);
	if (sd < 0)
		return -1;
	/* as the GUI: every stream the file opened, every buffer's */
	if (gui)
		open_as_gui(ctx, sd);
	*n = gui ? kshark_load_all_entries(ctx, &rows) :
		   kshark_load_entries(ctx, sd, &rows);
	t1 = clock_ms(CLOCK_MONOTONIC);
	*cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
	for (i = 0; i < *n && i < dump; i++) {
		char *s = kshark_dump_entry(rows[i]);

		printf("%s\n", s ? s : "(null)");
		free(s);
	}
	for (i = 0; i < *n; i++)
		free(rows[i]);
	free(rows);
	if (gui)
		kshark_close_all(ctx);
	else
		kshark_close(ctx, sd);
	return *n < 0 ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	const char *plugin = NULL, *defaults = NULL;
	int reps = 5, dump = 0, c, i, r, nfiles;
	bool first = false;
	ssize_t *n;
	double *t, *cpu;

	while ((c = getopt(argc, argv, "p:g:r:D:1")) != -1) {
		switch (c) {
		case 'p': plugin = optarg; break;
		case 'g': defaults = optarg; gui = true; break;
		case 'r': reps = atoi(optarg); break;
		case 'D': dump = atoi(optarg); break;
		case '1': first = true; break;
		default:
			fputs("usage: bench-kshark-load [-p PLUGIN.so] [-g DIR] "
			      "[-r REPS] [-D N] [-1] FILE...\n", stderr);
			return 2;
		}
	}
	if (first)
		reps = 1;
	if (reps < 1 || optind >= argc || !kshark_instance(&ctx))
		return 2;
	/* as the kernelshark program: its own plugins first */
	if (defaults && !register_defaults(ctx, defaults))
		return 1;
	if (plugin && !kshark_register_plugin(ctx, "fxt", plugin))
		return 1;
	nfiles = argc - optind;
	t = calloc((size_t)reps * nfiles, sizeof(*t));
	cpu = calloc((size_t)reps * nfiles, sizeof(*cpu));
	n = calloc((size_t)nfiles, sizeof(*n));
	if (!t || !cpu || !n)
		return 1;
	for (i = 0; i < nfiles && !first; i++) {
		if (load_once(ctx, argv[optind + i], &n[i], dump, cpu) < 0) {
			fprintf(stderr, "%s: cannot load\n", argv[optind + i]);
			return 1;
		}
	}
	for (r = 0; r < reps; r++)
		for (i = 0; i < nfiles; i++) {
			t[i * reps + r] = load_once(ctx, argv[optind + i],
						    &n[i], first ? dump : 0,
						    &cpu[i * reps + r]);
			if (t[i * reps + r] < 0) {
				fprintf(stderr, "%s: cannot load\n",
					argv[optind + i]);
				return 1;
			}
		}
	for (i = 0; i < nfiles; i++) {
		double *ti = t + i * reps, *ci = cpu + i * reps;

		qsort(ti, (size_t)reps, sizeof(*ti), cmp_double);
		qsort(ci, (size_t)reps, sizeof(*ci), cmp_double);
		printf("%s entries=%zd best_ms=%.1f median_ms=%.1f cpu_median_ms=%.1f\n",
		       argv[optind + i], n[i], ti[0], ti[reps / 2],
		       ci[reps / 2]);
	}
	free(t);
	free(cpu);
	free(n);
	kshark_free(ctx);
	return 0;
}
