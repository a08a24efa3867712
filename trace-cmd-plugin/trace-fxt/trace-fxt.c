// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-fxt.c - the trace-fxt command: one front end for the converters,
 * the report, the FXT inspection tools and the viewers.  main() finds
 * the subcommand and runs its cmd-*.c; this file holds the list of them,
 * what trace-fxt says of itself (its own options: --help, --version) and
 * the help command.  Two more words are for the build and the shell, not
 * for users: __doc (the man pages' generated sections, doc.c) and
 * __complete (the bash completion's questions, complete.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace-fxt.h"

static const struct trace_fxt_cmd trace_fxt_help;

static const struct trace_fxt_cmd *const commands[] = {
	&trace_fxt_convert,
	&trace_fxt_open,
	&trace_fxt_report,
	&trace_fxt_dump,
	&trace_fxt_check,
	&trace_fxt_help,
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct trace_fxt_opt main_opts[] = {
	{ .key = 'V', .name = "version",
	  .help = "print trace-fxt's version and the versions of libtracecmd "
		  "and libtraceevent it runs with, and exit" },
	{ 0 }
};

static const struct trace_fxt_example main_examples[] = {
	{ "convert trace.dat -o trace.fxt.gz",
	  "convert a trace-cmd recording to gzip'd FXT" },
	{ "open trace.dat",
	  "look at a recording in Perfetto's UI (converted on the way)" },
	{ "open --kernelshark trace.fxt", "look at an FXT file in KernelShark" },
	{ "help convert", "what convert takes, with examples" },
	{ NULL }
};

static const struct trace_fxt_exit main_exits[] = {
	{ 0, "the command succeeded, or the help was printed" },
	{ 1, "the command failed; the message on standard error says why" },
	{ 2, "a usage error: an unknown command or option, a missing operand" },
	{ 0, NULL }
};

static const struct trace_fxt_cmd trace_fxt_main = {
	.summary = "make trace-cmd, KernelShark and libtraceevent speak the "
		   "Fuchsia Trace Format",
	.synopsis = { "COMMAND [OPTIONS] FILE...", "help [COMMAND]",
		      "--version" },
	.about = "trace-fxt converts trace-cmd recordings (trace.dat) to the "
		 "Fuchsia Trace Format (FXT) that Perfetto reads, and back; "
		 "reports, dumps and checks FXT files; and opens a recording "
		 "in Perfetto's UI or KernelShark.  Options go after the "
		 "command.",
	.opts = main_opts,
	.operand = TRACE_FXT_ARG_COMMAND,
	.examples = main_examples,
	.exits = main_exits,
	.subs = commands,
	.nr_subs = NR_COMMANDS,
};

static int unknown_command(const char *name)
{
	trace_fxt_err("unknown command '%s'; 'trace-fxt help' lists them",
		      name);
	return 2;
}

static int cmd_help(int argc, char **argv)
{
	const struct trace_fxt_cmd *cmd;
	int c;

	/* help takes no option but -h: any other is a usage error */
	c = trace_fxt_getopt(&trace_fxt_help, argc, argv);
	if (c != -1)
		return trace_fxt_opt_exit(&trace_fxt_help, c);
	if (optind == argc) {
		trace_fxt_help_cmd(stdout, &trace_fxt_main);
		return 0;
	}
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_help, "one command only");
	cmd = trace_fxt_sub(&trace_fxt_main, argv[optind]);
	if (!cmd)
		return unknown_command(argv[optind]);
	trace_fxt_help_cmd(stdout, cmd);
	return 0;
}

static const struct trace_fxt_example help_examples[] = {
	{ "help", "the commands" },
	{ "help open", "what open takes; the same as trace-fxt open -h" },
	{ NULL }
};

static const struct trace_fxt_exit help_exits[] = {
	{ 0, "the help was printed" },
	{ 2, "no such command" },
	{ 0, NULL }
};

static const struct trace_fxt_cmd trace_fxt_help = {
	.name = "help",
	.run = cmd_help,
	.summary = "list the commands, or say what one of them takes",
	.synopsis = { "[COMMAND]" },
	.about = "Without COMMAND, lists the commands; with one, prints what "
		 "'trace-fxt COMMAND -h' prints: its options with their "
		 "arguments and defaults, examples and exit statuses.",
	.operand = TRACE_FXT_ARG_COMMAND,
	.examples = help_examples,
	.exits = help_exits,
};

/* trace-fxt's own options, before any command. */
static int main_opts_run(int argc, char **argv)
{
	int c = trace_fxt_getopt(&trace_fxt_main, argc, argv);

	switch (c) {
	case 'V':
		trace_fxt_version(stdout);
		return 0;
	case -1:	/* "--" */
		return trace_fxt_usage(&trace_fxt_main,
				       "the command goes first");
	}
	return trace_fxt_opt_exit(&trace_fxt_main, c);
}

int main(int argc, char **argv)
{
	const struct trace_fxt_cmd *cmd;

	trace_fxt_opts_main(&trace_fxt_main);
	if (argc < 2) {
		trace_fxt_help_cmd(stderr, &trace_fxt_main);
		return 2;
	}
	if (!strcmp(argv[1], "__doc"))
		return trace_fxt_doc(argc - 1, argv + 1, &trace_fxt_main);
	if (!strcmp(argv[1], "__complete"))
		return trace_fxt_complete(argc - 1, argv + 1, &trace_fxt_main);
	/* an option before the command is trace-fxt's own */
	if (argv[1][0] == '-' && argv[1][1])
		return main_opts_run(argc, argv);
	cmd = trace_fxt_sub(&trace_fxt_main, argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->run(argc - 1, argv + 1);
}
