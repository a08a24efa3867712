// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventheader-kshark-info.c - what KernelShark shows for a .dat, headless:
 *
 *   eventheader-kshark-info FILE.dat
 *
 * opens FILE.dat with libkshark (kshark_open, kshark_load_entries: the
 * calls the GUI makes, libtraceevent plugins included, so
 * TRACEEVENT_PLUGIN_DIR applies) and prints one line per entry, in
 * KernelShark's order:
 *
 *	<pid> <event name>\t<info>
 *
 * The info column is the text KernelShark's table and tooltips show.
 */
#include <stdio.h>
#include <stdlib.h>

#include "libkshark.h"

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	char *name, *info;
	ssize_t n, i;
	int sd;

	if (argc != 2) {
		fprintf(stderr, "usage: eventheader-kshark-info FILE.dat\n");
		return 2;
	}
	if (!kshark_instance(&ctx))
		return 1;
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_open %s: %d\n", argv[1], sd);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr, "kshark_load_entries: %zd\n", n);
		return 1;
	}
	for (i = 0; i < n; i++) {
		name = kshark_get_event_name(rows[i]);
		info = kshark_get_info(rows[i]);
		printf("%d %s\t%s\n", kshark_get_pid(rows[i]),
		       name ? name : "?", info ? info : "");
		free(name);
		free(info);
		free(rows[i]);
	}
	free(rows);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return 0;
}
