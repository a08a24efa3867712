/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-convert.h - the conversion of one trace.dat (map-convert.c): what the
 * plugin's entry point (plugin-fxt-input.c) calls.
 */
#ifndef _MAP_CONVERT_H
#define _MAP_CONVERT_H

#include "fxt-input.h"

struct tracecmd_input;

/*
 * Convert @handle's buffers to FXT on @fd as @opts asks; @kept holds the
 * records the host's .dat check kept for the thread groups, @pages where
 * the check found the CPU data (read by the plugin's page reader, else by
 * libtracecmd).  Fills @res; 0 or a negative errno.
 */
int map_convert(struct tracecmd_input *handle, int fd,
		const struct fxt_input_opts *opts,
		const struct dat_recs *kept,
		const struct dat_pages *pages,
		struct fxt_input_result *res);

#endif /* _MAP_CONVERT_H */
