/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-fxt.h - what the trace-fxt command's subcommands share.
 *
 * Each subcommand lives in its own cmd-*.c, is listed in trace-fxt.c's
 * table and described in usage.c's.  A subcommand returns the process
 * exit status: 0 success, 1 a fault in the input or a failed check, 2 a
 * usage error.
 */
#ifndef _TRACE_FXT_H
#define _TRACE_FXT_H

#include <stdio.h>

/* cmd-*.c: the subcommands, run by trace-fxt.c's main() */
int cmd_convert(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* msg.c: print "trace-fxt: " + message to stderr. */
void trace_fxt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct fxt_reader;
/*
 * A lenient reader's tally, once (fxt_reader_tally()): how many records
 * it skipped as malformed, skipped or could not read in full, or read as
 * Perfetto does against their writer's likely intent, and the first of
 * each.  Returns how many records had a warning.
 */
unsigned long long trace_fxt_say_skipped(const struct fxt_reader *r);
/* usage.c: print the usage line of the named subcommand; returns 2. */
int trace_fxt_usage(const char *name);
/* Every subcommand's usage and summary on @out; 0 for stdout, else 2. */
int trace_fxt_usage_all(FILE *out);

#endif /* _TRACE_FXT_H */
