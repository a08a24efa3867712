// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-fxt.c - the trace-fxt command: one front end for the converters,
 * the report and the FXT inspection tools.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fxt-reader.h"
#include "trace-fxt.h"

static const struct trace_fxt_cmd commands[] = {
	{ "convert", "IN.dat -o OUT.fxt [-e SYS:EVENT,..] [-B BUFFER,..] "
	  "[--cpu LIST] [--start SECS] [--end SECS] [--tgids FILE] "
	  "[--progress] [-q] [--compression none|gzip|zstd | --compress] | "
	  "IN.fxt -o OUT.dat [--compression none|zstd] [-q]",
	  "convert a trace-cmd .dat to FXT (trace-cmd input plugin; gzip "
	  "or zstd for -o *.gz/*.zst or as asked), or FXT to a .dat",
	  cmd_convert },
	{ "report", "[--raw] FILE.fxt",
	  "one line per event, as trace-cmd report (-R with --raw)",
	  cmd_report },
	{ "dump", "[--json] FILE.fxt",
	  "print every record, decoded", cmd_dump },
	{ "check", "[--pedantic] FILE.fxt",
	  "strict validation; non-zero exit names the first fault; "
	  "warnings are listed (--pedantic: they are faults)", cmd_check },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

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

int trace_fxt_usage(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			fprintf(stderr, "usage: trace-fxt %s %s\n",
				commands[i].name, commands[i].usage);
	return 2;
}

static int usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: trace-fxt COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n           %s\n", commands[i].name,
			commands[i].usage, commands[i].summary);
	return out == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help"))
		return usage(stdout);
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, argv[1]))
			return commands[i].run(argc - 1, argv + 1);
	trace_fxt_err("unknown command '%s'", argv[1]);
	return usage(stderr);
}
