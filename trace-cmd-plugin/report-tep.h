/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report-tep.h - trace-fxt report's events in trace-cmd report's text,
 * for FXT that trace-fxt converted from a .dat.
 *
 * Such FXT carries what libtraceevent needs (header page, every event
 * format before its first use, the kallsyms and printk lines the events
 * point into) and the thread kernel objects that are the file's saved
 * cmdlines.  A first pass gathers all of it into one tep handle set up as
 * libtracecmd sets up its own, plugins loaded first; then each ftrace
 * instant is rebuilt into its raw record by fxt2dat and printed with
 * tep_print_event in trace-cmd report's layout.
 */
#ifndef _REPORT_TEP_H
#define _REPORT_TEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt-reader.h"

struct report_tep;

/*
 * One event's text, as trace-cmd report prints it after the buffer
 * prefix, without the final newline.
 */
typedef void (*report_line_fn)(void *priv, uint32_t provider_id,
			       const char *text, size_t len);

/*
 * Read @path once for what printing needs.  NULL when it carries no
 * event format (not made from a .dat, or by an older trace-fxt) or is
 * not a regular file (a pipe cannot be read twice): the caller prints
 * its own layout then.
 */
struct report_tep *report_tep_open(const char *path, report_line_fn fn,
				   void *priv);
/*
 * The same, for a host that reads the file itself, once: new, then every
 * record offered to gather (the reader @rd is only used during the call),
 * then ready, which says -ENODATA when the file carried no event format
 * (the caller prints its own layout then) or another negative errno.
 * @fn may be NULL when nothing is printed through report_tep_take().
 */
struct report_tep *report_tep_new(report_line_fn fn, void *priv);
int report_tep_gather(struct report_tep *t, struct fxt_reader *rd,
		      const struct fxt_record *rec);
int report_tep_ready(struct report_tep *t, struct fxt_reader *rd);
/*
 * What libtraceevent prints of one ftrace event @ev (an instant as the
 * converter wrote it: the `cpu` argument first, the arguments of its
 * ".cont" instants appended) at @ts ns: *@info as TEP_PRINT_INFO and
 * *@latency as TEP_PRINT_LATENCY print it (KernelShark's info and latency
 * columns of a .dat), one final newline dropped, malloc'ed, NULL when
 * empty.  -ENOENT when the file carries no format for @ev.
 */
int report_tep_event_text(struct report_tep *t, const struct fxt_event *ev,
			  uint64_t ts, char **info, char **latency);
/*
 * Offer the next record of the second pass: 1 when it is the tep's (an
 * ftrace event rebuilt, perhaps printed later, or the continuation of
 * one or of carried metadata), 0 when the caller handles it, negative
 * errno on failure (report_tep_error() says what).
 */
int report_tep_take(struct report_tep *t, struct fxt_reader *rd,
		    const struct fxt_record *rec);
/* Print the event still being rebuilt, before the caller prints. */
int report_tep_flush(struct report_tep *t);
const char *report_tep_error(struct report_tep *t);
void report_tep_close(struct report_tep *t);

#endif /* _REPORT_TEP_H */
