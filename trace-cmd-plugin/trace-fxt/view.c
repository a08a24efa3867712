// SPDX-License-Identifier: GPL-2.0-only
/*
 * view.c - libtracecmd's handle on a checked .dat's view (view.h).
 */
#include <stdio.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "datcheck.h"
#include "view.h"

struct tracecmd_input *view_open(int fd)
{
	char path[64];

	/* by its name in /proc: tracecmd_open_head() takes a path */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return tracecmd_open_head(path, 0);
}

static int view_parse_format(const char *system, const char *text,
			     size_t len, void *tep)
{
	tep_parse_event(tep, text, len, system);
	return 0;
}

int view_parse_formats(struct datcheck *dc, const uint8_t *ids,
		       struct tracecmd_input *handle)
{
	return datcheck_formats(dc, ids, view_parse_format,
				tracecmd_get_tep(handle));
}
