/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-fxt.h - what the trace-fxt command's subcommands share.
 *
 * Each subcommand lives in its own cmd-*.c, which defines its struct
 * trace_fxt_cmd: the name, the function that runs it and everything said
 * of it - options, operands, examples, exit statuses.  That one table is
 * what the option parser (opts.c) hands getopt_long(), what the help
 * (usage.c), the man pages' generated sections (doc.c) and the shell
 * completion (complete.c) print; trace-fxt.c lists the commands.  A
 * subcommand returns the process exit status: 0 success, 1 a fault in
 * the input or a failed check, 2 a usage error.
 */
#ifndef _TRACE_FXT_H
#define _TRACE_FXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Which direction of `convert` an option concerns (a mask; 0: both). */
enum trace_fxt_dir {
	TRACE_FXT_TO_FXT	= 1 << 0,	/* a trace.dat in, FXT out */
	TRACE_FXT_TO_DAT	= 1 << 1,	/* FXT in, a trace.dat out */
};

/* What an option's argument is, for the help and the completion. */
enum trace_fxt_arg {
	TRACE_FXT_ARG_NONE,	/* a flag */
	TRACE_FXT_ARG_TEXT,	/* a number, a list, a URL: nothing offered */
	TRACE_FXT_ARG_FILE,	/* a file name */
	TRACE_FXT_ARG_CHOICE,	/* one of .words */
	TRACE_FXT_ARG_EVENTS,	/* events of the input .dat, comma-separated */
	TRACE_FXT_ARG_BUFFERS,	/* buffers of the input .dat, comma-separated */
	TRACE_FXT_ARG_COMMAND,	/* a command's name */
};

struct trace_fxt_opt {
	int			key;	/* what getopt_long() returns */
	bool			letter;	/* -KEY is its short form */
	const char		*name;	/* --NAME */
	enum trace_fxt_arg	arg;
	const char		*value;	/* the argument as the help shows it */
	const char		*words;	/* ARG_CHOICE: the choices, by spaces */
	const char		*def;	/* what holds without the option */
	bool			required;	/* no default: always given */
	unsigned int		dirs;	/* enum trace_fxt_dir; 0: any */
	const char		*help;
};

struct trace_fxt_example {
	const char	*line;		/* the command line, after "trace-fxt " */
	const char	*what;
};

struct trace_fxt_exit {
	int		code;
	const char	*what;
};

struct trace_fxt_cmd {
	const char			*name;
	int				(*run)(int argc, char **argv);
	const char			*summary;	/* one line, lower case */
	const char			*synopsis[3];	/* after the name */
	const char			*about;		/* what -h says first */
	const struct trace_fxt_opt	*opts;		/* ends at .name NULL */
	enum trace_fxt_arg		operand;	/* what the operands are */
	const char			*files;		/* ARG_FILE: extensions */
	const struct trace_fxt_example	*examples;	/* ends at .line NULL */
	const struct trace_fxt_exit	*exits;		/* ends at .what NULL */
	/* trace-fxt itself (.name NULL): its commands */
	const struct trace_fxt_cmd *const *subs;
	unsigned int			nr_subs;
};

/* cmd-*.c: the subcommands, listed by trace-fxt.c */
extern const struct trace_fxt_cmd trace_fxt_convert;
/*
 * cmd-convert.c: @path converted by convert itself (quietly, its damage
 * said), compressed as @compression, into an unnamed file: its
 * descriptor, or -1 with what went wrong said (@who is the command
 * asking).  A .dat to FXT of @flavor (TRACE_FXT_INSTANTS: what report
 * reads, what KernelShark opens sooner; TRACE_FXT_ONCE: what Perfetto
 * reads, in half the bytes); a trace to a .dat takes none (NULL).
 */
#define TRACE_FXT_INSTANTS	"--instants"
#define TRACE_FXT_ONCE		"--once"
int trace_fxt_convert_anon(const char *who, const char *path,
			   const char *compression, const char *flavor);
extern const struct trace_fxt_cmd trace_fxt_report;
extern const struct trace_fxt_cmd trace_fxt_dump;
extern const struct trace_fxt_cmd trace_fxt_check;
extern const struct trace_fxt_cmd trace_fxt_open;

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
struct dat_pages;
/*
 * Each damaged stretch of the CPU data of the .dat @in that the check
 * salvaged (@pages' damage), a line: where, how many bytes, between
 * which good events of its CPU, and the first fault.
 */
void trace_fxt_say_damage(const char *in, const struct dat_pages *pages);

/*
 * opts.c: getopt_long() over @cmd's table (and -h/--help, which every
 * command takes); a new @argv starts the parse over.  Returns the
 * option's key, or -1 at the end; 'h' once the help is printed, '?' once
 * what is wrong is said (the unknown, ambiguous or misplaced option
 * named, with a pointer to the command's -h).  Any other key is the
 * command's to handle; trace_fxt_opt_exit() is the status of the rest.
 */
int trace_fxt_getopt(const struct trace_fxt_cmd *cmd, int argc, char **argv);
/*
 * The next trace_fxt_getopt() starts a new command line even if its argv
 * is where the last one's was (a command run twice from one stack frame).
 */
void trace_fxt_getopt_reset(void);
/* The exit status after trace_fxt_getopt() returned @key unhandled. */
int trace_fxt_opt_exit(const struct trace_fxt_cmd *cmd, int key);
/* The command of @parent's .subs named @name, or NULL. */
const struct trace_fxt_cmd *trace_fxt_sub(const struct trace_fxt_cmd *parent,
					  const char *name);
/*
 * After parsing: when an option given does not concern the direction
 * @dir of @cmd (enum trace_fxt_dir), say so, naming it; then 2, else 0.
 */
int trace_fxt_opt_check_dir(const struct trace_fxt_cmd *cmd, unsigned int dir,
			    const char *why);
/*
 * trace-fxt itself, whose .subs are every command: for the messages
 * about an option given to the wrong one (set by trace-fxt.c first).
 */
void trace_fxt_opts_main(const struct trace_fxt_cmd *main_cmd);

/* usage.c: @cmd's help (with its commands for trace-fxt's own) on @out */
void trace_fxt_help_cmd(FILE *out, const struct trace_fxt_cmd *cmd);
/* The operands are not what @cmd takes (@what): say so; returns 2. */
int trace_fxt_usage(const struct trace_fxt_cmd *cmd, const char *what);
/* -h, --help: the option every command takes besides its table's. */
extern const struct trace_fxt_opt trace_fxt_help_opt[];
/* trace-fxt --version: its own, and the libraries' it runs with */
void trace_fxt_version(FILE *out);
/* An option's direction as the help and the man page say it, or NULL. */
const char *trace_fxt_dir_name(unsigned int dirs);
/* An option's argument as shown (the choices by '|'), in @buf or static. */
const char *trace_fxt_opt_value(const struct trace_fxt_opt *o, char *buf,
				size_t len);
/* What an option does, with its direction and default, into @buf. */
void trace_fxt_opt_text(const struct trace_fxt_opt *o, char *buf, size_t len);

/*
 * doc.c: trace-fxt __doc PART [COMMAND] - the man page's sections made
 * from the command's table, in AsciiDoc: PART "synopsis" (SYNOPSIS), or
 * "body" (OPTIONS, EXAMPLES, EXIT STATUS; trace-fxt's own COMMANDS
 * first).  Returns the exit status.
 */
int trace_fxt_doc(int argc, char **argv, const struct trace_fxt_cmd *main_cmd);

/*
 * complete.c: trace-fxt __complete WHAT [ARG] - what the bash completion
 * asks: the commands, a command's options and operands, the events or
 * buffers of a .dat.  Returns the exit status.
 */
int trace_fxt_complete(int argc, char **argv,
		       const struct trace_fxt_cmd *main_cmd);

#endif /* _TRACE_FXT_H */
