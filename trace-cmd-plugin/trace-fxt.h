/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-fxt.h - what the trace-fxt command's subcommands share.
 *
 * Each subcommand lives in its own cmd-*.c and is listed in the table in
 * trace-fxt.c.  A subcommand returns the process exit status: 0 success,
 * 1 a fault in the input or a failed check, 2 a usage error.
 */
#ifndef _TRACE_FXT_H
#define _TRACE_FXT_H

struct trace_fxt_cmd {
	const char	*name;
	const char	*usage;		/* one line, after "trace-fxt NAME " */
	const char	*summary;
	int		(*run)(int argc, char **argv);
};

int cmd_convert(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* Print "trace-fxt: " + message to stderr. */
void trace_fxt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct fxt_reader;
/*
 * A lenient reader's tally, once: how many records it skipped or could
 * not read in full, and the first of them.  Returns that count.
 */
unsigned long long trace_fxt_say_skipped(const struct fxt_reader *r);
/* Print the usage line of the named subcommand; returns 2. */
int trace_fxt_usage(const char *name);

#endif /* _TRACE_FXT_H */
