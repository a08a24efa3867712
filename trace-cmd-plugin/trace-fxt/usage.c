// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage.c - what trace-fxt says of its subcommands: the usage line and
 * summary of each, printed alone (a subcommand's usage error) or all
 * together (trace-fxt --help).
 */
#include <stdio.h>
#include <string.h>

#include "trace-fxt.h"

struct trace_fxt_usage {
	const char	*name;
	const char	*usage;		/* one line, after "trace-fxt NAME " */
	const char	*summary;
};

static const struct trace_fxt_usage usages[] = {
	{ "convert", "IN.dat -o OUT.fxt [-e SYS:EVENT,..] [-B BUFFER,..] "
	  "[--cpu LIST] [--start SECS] [--end SECS] [--tgids FILE] "
	  "[--fxt-sched] [--progress] [-q] "
	  "[--compression none|gzip|zstd | --compress] | "
	  "IN.fxt -o OUT.dat [--compression none|zstd] [-q]",
	  "convert a trace-cmd .dat to FXT (trace-cmd input plugin; gzip "
	  "or zstd for -o *.gz/*.zst or as asked), or FXT to a .dat" },
	{ "report", "[--raw] FILE.fxt",
	  "one line per event, as trace-cmd report (-R with --raw)" },
	{ "dump", "[--json] FILE.fxt",
	  "print every record, decoded" },
	{ "check", "[--pedantic] FILE.fxt",
	  "strict validation; non-zero exit names the first fault; "
	  "warnings are listed (--pedantic: they are faults)" },
};

#define NR_USAGES (sizeof(usages) / sizeof(usages[0]))

int trace_fxt_usage(const char *name)
{
	size_t i;

	for (i = 0; i < NR_USAGES; i++)
		if (!strcmp(usages[i].name, name))
			fprintf(stderr, "usage: trace-fxt %s %s\n",
				usages[i].name, usages[i].usage);
	return 2;
}

int trace_fxt_usage_all(FILE *out)
{
	size_t i;

	fprintf(out, "usage: trace-fxt COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NR_USAGES; i++)
		fprintf(out, "  %-8s %s\n           %s\n", usages[i].name,
			usages[i].usage, usages[i].summary);
	return out == stdout ? 0 : 2;
}
