// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-kshark-load - time what KernelShark does to open a trace: register
 * the FXT plugin, then kshark_open() + kshark_load_entries() per file, in
 * one process so that .dat and .fxt loads are measured alike.
 *
 *   bench-kshark-load [-p PLUGIN.so] [-r REPS] [-D N] FILE...
 *
 * One line per file: "FILE entries=N best_ms=... median_ms=...".  Each
 * file is loaded once first so that both start from a warm page cache.
 * -D N also prints the first N entries as kshark_dump_entry() does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "libkshark.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Open, load, free, close; the time of open + load, or < 0. */
static double load_once(struct kshark_context *ctx, const char *file,
			ssize_t *n, int dump)
{
	struct kshark_entry **rows = NULL;
	double t0, t1;
	ssize_t i;
	int sd;

	t0 = now_ms();
	sd = kshark_open(ctx, file);
	if (sd < 0)
		return -1;
	*n = kshark_load_entries(ctx, sd, &rows);
	t1 = now_ms();
	for (i = 0; i < *n && i < dump; i++) {
		char *s = kshark_dump_entry(rows[i]);

		printf("%s\n", s ? s : "(null)");
		free(s);
	}
	for (i = 0; i < *n; i++)
		free(rows[i]);
	free(rows);
	kshark_close(ctx, sd);
	return *n < 0 ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	const char *plugin = NULL;
	int reps = 5, dump = 0, c, i, r;
	double *t;

	while ((c = getopt(argc, argv, "p:r:D:")) != -1) {
		switch (c) {
		case 'p': plugin = optarg; break;
		case 'r': reps = atoi(optarg); break;
		case 'D': dump = atoi(optarg); break;
		default:
			fputs("usage: bench-kshark-load [-p PLUGIN.so] [-r REPS] [-D N] FILE...\n",
			      stderr);
			return 2;
		}
	}
	if (reps < 1 || optind >= argc || !kshark_instance(&ctx))
		return 2;
	if (plugin && !kshark_register_plugin(ctx, "fxt", plugin))
		return 1;
	t = calloc((size_t)reps, sizeof(*t));
	if (!t)
		return 1;
	for (i = optind; i < argc; i++) {
		ssize_t n = 0;

		if (load_once(ctx, argv[i], &n, dump) < 0) {
			fprintf(stderr, "%s: cannot load\n", argv[i]);
			return 1;
		}
		for (r = 0; r < reps; r++)
			t[r] = load_once(ctx, argv[i], &n, 0);
		qsort(t, (size_t)reps, sizeof(*t), cmp_double);
		printf("%s entries=%zd best_ms=%.1f median_ms=%.1f\n", argv[i],
		       n, t[0], t[reps / 2]);
	}
	free(t);
	kshark_free(ctx);
	return 0;
}
