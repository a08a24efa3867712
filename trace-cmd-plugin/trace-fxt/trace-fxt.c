// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-fxt.c - the trace-fxt command: one front end for the converters,
 * the report and the FXT inspection tools.  main() finds the subcommand
 * and runs its cmd-*.c; usage.c says what each one takes.
 */
#include <stdio.h>
#include <string.h>

#include "trace-fxt.h"

static const struct {
	const char	*name;
	int		(*run)(int argc, char **argv);
} commands[] = {
	{ "convert",	cmd_convert },
	{ "report",	cmd_report },
	{ "dump",	cmd_dump },
	{ "check",	cmd_check },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return trace_fxt_usage_all(stderr);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help"))
		return trace_fxt_usage_all(stdout);
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, argv[1]))
			return commands[i].run(argc - 1, argv + 1);
	trace_fxt_err("unknown command '%s'", argv[1]);
	return trace_fxt_usage_all(stderr);
}
