// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-probe.c - the event formats parsed by libtraceevent in a
 * child process, so that a format its parser crashes or hangs on is
 * named instead of crashing the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "datcheck-intern.h"

/* How long the parser may take over every format of a file. */
#define DC_PROBE_SECONDS	30

/*
 * libtraceevent 1.7's format parser dereferences NULL on some broken
 * print formats (an operator inside __print_symbolic()'s first argument,
 * among others) and nothing short of its own grammar says which.  So the
 * texts libtracecmd will hand it are first parsed in a child process,
 * which tells the parent, through a pipe, which format it is at: a child
 * killed by a signal names the format that killed it.  The child starts
 * once the formats are known, before the CPU data, and parses on the
 * second CPU while the parent walks (and decompresses) the pages; its
 * verdict is taken after the walk, whose own errors come first.
 */
void dc_probe_start(struct dc_file *f)
{
	struct dc_probe *pr = &f->probe;
	uint32_t i, first = pr->first + pr->nr;
	struct tep_handle *tep;
	int fds[2], null;
	pid_t pid;

	if (pr->pid || first >= f->nr_fmts || f->flags & DATCHECK_NO_PROBE)
		return;
	if (pipe(fds))
		return;			/* no probe: libtracecmd as before */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE,
					     SIGABRT };

		/* die of the fault, not of a handler someone installed */
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		close(fds[0]);
		null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		alarm(DC_PROBE_SECONDS);
		tep = tep_alloc();
		for (i = first; tep && i < f->nr_fmts; i++) {
			if (write(fds[1], &i, sizeof(i)) != sizeof(i))
				break;
			tep_parse_event(tep, f->fmts[i].text, f->fmts[i].len,
					f->fmts[i].system);
		}
		_exit(0);
	}
	close(fds[1]);
	pr->pid = pid;
	pr->fd = fds[0];
	pr->first = first;
	pr->nr = f->nr_fmts - first;
}

/*
 * The child's verdict, once the walk found nothing: 0 when it parsed
 * every format and exited, else the format it crashed, hung or exited on.
 * After a failed walk (@judge false) the child is only stopped.
 */
int dc_probe_finish(struct dc_file *f, bool judge)
{
	struct dc_probe *pr = &f->probe;
	struct dc_cur c = { .f = f, .p = f->p, .len = f->len,
			    .in = "the file" };
	uint32_t i, at = pr->first;
	int status;

	if (!pr->pid)
		return 0;
	if (!judge)
		kill(pr->pid, SIGKILL);
	while (judge && read(pr->fd, &i, sizeof(i)) == sizeof(i))
		at = i;
	close(pr->fd);
	while (waitpid(pr->pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	pr->pid = 0;
	if (!judge || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return 0;
	if (!WIFSIGNALED(status))
		return dc_fail(&c, f->fmts[at].at, "event format (%s) makes "
			       "libtraceevent's parser exit (status %d)",
			       f->fmts[at].system, WEXITSTATUS(status));
	return dc_fail(&c, f->fmts[at].at, "event format (%s) %s "
		       "libtraceevent's parser (%s)", f->fmts[at].system,
		       WTERMSIG(status) == SIGALRM ? "hangs" : "crashes",
		       strsignal(WTERMSIG(status)));
}
