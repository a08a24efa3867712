// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg.c - how trace-fxt's subcommands speak on stderr: one prefix, and a
 * lenient reader's tally of what it skipped said once.
 */
#include <stdarg.h>
#include <stdio.h>

#include "fxt-reader.h"
#include "trace-fxt.h"

void trace_fxt_err(const char *fmt, ...)
{
	va_list ap;

	fputs("trace-fxt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

unsigned long long trace_fxt_say_skipped(const struct fxt_reader *r)
{
	char buf[2048];

	if (fxt_reader_tally(r, "trace-fxt: ", buf, sizeof(buf)))
		fputs(buf, stderr);
	return fxt_reader_warned_records(r);
}
