/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-run.h - a .dat through the whole mapping (map_convert()), as the
 * test-map-* programs that need a real file do it.
 */
#ifndef _MAP_RUN_H
#define _MAP_RUN_H

#include <stddef.h>

#include "fxt-input.h"

/*
 * Convert the .dat at @path (with the thread-group records @kept, or
 * NULL: the plugin's own pass) into memory: the FXT's bytes in *@out
 * (malloc'ed), the plugin's result in *@res if not NULL.  The test stops
 * if any step fails.  Returns the FXT's size.
 */
size_t map_run(const char *path, const struct dat_recs *kept,
	       char **out, struct fxt_input_result *res);

/* The same in the FXT records flavor (--fxt-records) if @fxt_records. */
size_t map_run_flavor(const char *path, const struct dat_recs *kept,
		      char **out, struct fxt_input_result *res,
		      bool fxt_records);

#endif
