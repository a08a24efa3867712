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
	unsigned long long n = fxt_reader_warned_records(r);

	if (n)
		trace_fxt_err("%llu record%s skipped or not read in full; "
			      "the first: %s", n, n == 1 ? "" : "s",
			      fxt_reader_first_warning(r));
	return n;
}
