/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * view.h - libtracecmd's handle on a checked .dat's view (view.c): the
 * file as datcheck_view() writes it, without the event formats and the
 * kallsyms that libtracecmd would spend most of its opening on, and the
 * formats the caller wants parsed into the handle afterwards.
 */
#ifndef _TRACE_FXT_VIEW_H
#define _TRACE_FXT_VIEW_H

#include <stdint.h>

struct datcheck;
struct tracecmd_input;

/*
 * tracecmd_open_head() of the view @fd (a memfd from datcheck_view());
 * NULL when libtracecmd fails.
 */
struct tracecmd_input *view_open(int fd);

/*
 * The formats of @dc whose event ID has its bit set in @ids (NULL: all),
 * parsed into @handle's tep_handle with tep_parse_event(), in the file's
 * order; one libtraceevent refuses is left out, as libtracecmd leaves
 * it.  Returns how many were handed to libtraceevent.
 */
int view_parse_formats(struct datcheck *dc, const uint8_t *ids,
		       struct tracecmd_input *handle);

#endif /* _TRACE_FXT_VIEW_H */
