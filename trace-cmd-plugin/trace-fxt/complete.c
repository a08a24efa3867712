// SPDX-License-Identifier: GPL-2.0-only
/*
 * complete.c - what the bash completion (trace-fxt.bash) asks the
 * command, so that it offers what the command takes and nothing else:
 *
 *   trace-fxt __complete commands         the commands, one a line
 *   trace-fxt __complete options [CMD]    CMD's options (trace-fxt's own
 *                                         without CMD), then its operands
 *   trace-fxt __complete events FILE      a .dat's systems and SYS:EVENTs
 *   trace-fxt __complete buffers FILE     a .dat's buffers: top, instances
 *
 * An option line is "FORMS<TAB>KIND<TAB>WORDS": its forms ("-o --output"),
 * what its argument is (flag, text, file, choice, events, buffers) and
 * the choices; the last line's FORMS is "operands", and its kind is file
 * (WORDS: the extensions) or command.  A .dat is read as convert reads
 * it - checked first (libdatcheck.a), then opened by libtracecmd in a
 * child process - so that a damaged file offers nothing and harms
 * nothing; anything else offers nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "datcheck.h"
#include "file-map.h"
#include "in-file.h"
#include "trace-fxt.h"
#include "view.h"

/* How long the child may take over a .dat's headers and formats. */
#define COMPLETE_SECONDS	5

static const char *const kinds[] = {
	[TRACE_FXT_ARG_NONE]	= "flag",
	[TRACE_FXT_ARG_TEXT]	= "text",
	[TRACE_FXT_ARG_FILE]	= "file",
	[TRACE_FXT_ARG_CHOICE]	= "choice",
	[TRACE_FXT_ARG_EVENTS]	= "events",
	[TRACE_FXT_ARG_BUFFERS]	= "buffers",
	[TRACE_FXT_ARG_COMMAND]	= "command",
};

static void complete_opt(const struct trace_fxt_opt *o)
{
	if (o->letter)
		printf("-%c ", o->key);
	printf("--%s\t%s\t%s\n", o->name, kinds[o->arg],
	       o->words ? o->words : "");
}

static void complete_options(const struct trace_fxt_cmd *cmd)
{
	const struct trace_fxt_opt *o;

	for (o = cmd->opts; o && o->name; o++)
		complete_opt(o);
	complete_opt(trace_fxt_help_opt);
	printf("operands\t%s\t%s\n", kinds[cmd->operand],
	       cmd->files ? cmd->files : "");
}

static void list_events(struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event **ev = tep ? tep_list_events(tep,
						      TEP_EVENT_SORT_SYSTEM) :
				      NULL;
	const char *sys = NULL;

	for (; ev && *ev; ev++) {
		if (!sys || strcmp(sys, (*ev)->system))
			printf("%s\n", (*ev)->system);
		sys = (*ev)->system;
		printf("%s:%s\n", sys, (*ev)->name);
	}
}

static void list_buffers(struct tracecmd_input *h)
{
	int i, n = tracecmd_buffer_instances(h);
	const char *name;

	printf("top\n");
	for (i = 0; i < n; i++) {
		name = tracecmd_buffer_instance_name(h, i);
		if (name && *name)
			printf("%s\n", name);
	}
}

/*
 * The child: check @path, open its view (no kallsyms to parse, view.h),
 * list; its exit status says how.
 */
static void complete_dat_child(const char *path, bool events)
{
	struct tracecmd_input *h;
	struct datcheck *dc;
	const void *p;
	char err[256];
	size_t len;
	int null = open("/dev/null", O_WRONLY), fd;

	/* libtracecmd speaks of what it finds on both: not here */
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	alarm(COMPLETE_SECONDS);
	if (file_map(path, 0, &p, &len) ||
	    datcheck_head(p, len, NULL, DATCHECK_NO_PAGES | DATCHECK_NO_PROBE,
			  err, sizeof(err), &dc) ||
	    datcheck_view(dc, &fd))
		_exit(1);
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	h = view_open(fd);
	if (!h)
		_exit(1);
	if (events) {
		view_parse_formats(dc, NULL, h);
		list_events(h);
	} else {
		list_buffers(h);
	}
	fflush(stdout);
	_exit(0);
}

static int complete_dat(const char *path, bool events)
{
	int status;
	pid_t pid;

	if (in_file_kind(path, NULL, 0, NULL) != IN_KIND_DAT)
		return 0;		/* not a .dat: nothing to offer */
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid)
		complete_dat_child(path, events);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int trace_fxt_complete(int argc, char **argv,
		       const struct trace_fxt_cmd *main_cmd)
{
	const struct trace_fxt_cmd *cmd;
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "commands")) {
		for (i = 0; i < main_cmd->nr_subs; i++)
			printf("%s\n", main_cmd->subs[i]->name);
		return 0;
	}
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "options")) {
		if (argc == 2) {
			complete_options(main_cmd);
			return 0;
		}
		cmd = trace_fxt_sub(main_cmd, argv[2]);
		if (!cmd)
			return 1;
		complete_options(cmd);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "events"))
		return complete_dat(argv[2], true);
	if (argc == 3 && !strcmp(argv[1], "buffers"))
		return complete_dat(argv[2], false);
	trace_fxt_err("__complete commands | options [COMMAND] | events FILE "
		      "| buffers FILE: what the bash completion asks");
	return 2;
}
