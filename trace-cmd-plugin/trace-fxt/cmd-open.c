// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-open.c - trace-fxt open [--kernelshark] FILE: a recording in a
 * viewer, in one command.
 *
 * For Perfetto's UI the file is served once on 127.0.0.1:9001 (serve.h)
 * and the UI is pointed at it by its URL, as Perfetto's
 * tools/open_trace_in_ui does: https://ui.perfetto.dev/#!/?url=
 * http://127.0.0.1:9001/NAME; the URL is printed, and given to xdg-open
 * when there is a display.  A trace.dat is converted first, by convert
 * itself, to gzip'd FXT in a file that has no name (it is gone when
 * trace-fxt is, however it ends); FXT is served as it is.  With
 * --kernelshark, KernelShark is started instead, on the file as it is:
 * FXT and Perfetto traces with trace-fxt's KernelShark plugin (which
 * shows a Perfetto trace as the trace.dat convert makes of it), a .dat
 * without it (KernelShark reads a .dat itself, with its own plugins).
 * A .dat is checked first: one whose CPU data is damaged (libtracecmd
 * may spin on it or drop what follows the damage) is converted as
 * convert salvages it, to FXT in a file that has no name, and
 * KernelShark opens that with the plugin.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datcheck.h"
#include "file-map.h"
#include "in-file.h"
#include "serve.h"
#include "trace-fxt.h"

#ifndef TRACE_FXT_KS_PLUGIN
#define TRACE_FXT_KS_PLUGIN ""
#endif

/* Where Perfetto's UI may fetch a trace over plain http (its CSP). */
#define OPEN_HOST		"127.0.0.1"
#define OPEN_PORT		9001
#define OPEN_ORIGIN		"https://ui.perfetto.dev"
/* Who sent the UI there, for its statistics. */
#define OPEN_REFERRER		"trace-fxt"
/* The KernelShark plugin in the build tree, from this binary's folder. */
#define OPEN_KS_BUILT		"/../../kernelshark-plugin/plugin-fxt.so"

struct open_args {
	const char	*in;		/* as the user named it */
	const char	*path;		/* what reads it (in-file.h) */
	const char	*origin;
	bool		no_browser;
	bool		kernelshark;
	char		name[256];	/* what the file is served as */
	char		url[1024];
	pid_t		browser;	/* xdg-open, while it runs */
};

/*
 * The name the trace is served as: the file's own, a .dat's as .fxt.gz,
 * anything but letters, digits and ._- made '_' (the URL takes it as it
 * is, and the UI shows it).
 */
static void open_name(struct open_args *a, bool dat)
{
	const char *base = strrchr(a->in, '/');
	size_t n, i;

	base = base ? base + 1 : a->in;
	n = strlen(base);
	if (dat && n > 4 && !strcmp(base + n - 4, ".dat"))
		n -= 4;
	snprintf(a->name, sizeof(a->name) - 8, "%.*s", (int)n, base);
	for (i = 0; a->name[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", a->name[i]))
			a->name[i] = '_';
	if (!a->name[0] || a->name[0] == '.')
		snprintf(a->name, sizeof(a->name) - 8, "trace");
	if (dat)
		strcat(a->name, ".fxt.gz");
}

static bool open_display(void)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");

	return (x && *x) || (w && *w);
}

/* xdg-open URL, its output away from ours; it is reaped by open_tick(). */
static void open_browser(struct open_args *a)
{
	int null;

	fflush(NULL);
	a->browser = fork();
	if (a->browser < 0) {
		trace_fxt_err("open: cannot start xdg-open: %s",
			      strerror(errno));
		return;
	}
	if (a->browser)
		return;
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	/* Ctrl-C in this terminal is for trace-fxt, not the browser */
	setsid();
	execlp("xdg-open", "xdg-open", a->url, (char *)NULL);
	fprintf(stderr, "trace-fxt: open: cannot run xdg-open: %s\n",
		strerror(errno));
	_exit(127);
}

static void open_ready(void *priv)
{
	struct open_args *a = priv;

	printf("%s\n", a->url);
	fflush(stdout);
	if (!a->no_browser && open_display()) {
		fprintf(stderr, "trace-fxt: opening it with xdg-open\n");
		open_browser(a);
	} else {
		fprintf(stderr, "trace-fxt: open that URL in a browser on this "
			"machine (%s)\n", a->no_browser ? "--no-open-browser" :
			"no display to start one on");
	}
}

static void open_tick(void *priv)
{
	struct open_args *a = priv;
	int status;

	if (a->browser <= 0 || waitpid(a->browser, &status, WNOHANG) <= 0)
		return;
	a->browser = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		trace_fxt_err("open: xdg-open failed (%s %d): open the URL "
			      "yourself", WIFEXITED(status) ? "exit" :
			      "signal", WIFEXITED(status) ?
			      WEXITSTATUS(status) : WTERMSIG(status));
}

static int open_perfetto(struct open_args *a, int kind)
{
	struct serve_opts so = {
		.host = OPEN_HOST,
		.port = OPEN_PORT,
		.origin = a->origin,
		.name = a->name,
		.ready = open_ready,
		.tick = open_tick,
		.priv = a,
	};
	struct stat st;
	int ret;

	open_name(a, kind == IN_KIND_DAT);
	if (kind == IN_KIND_DAT) {
		fprintf(stderr, "trace-fxt: converting %s for Perfetto's UI\n",
			a->in);
		/* each event once: what Perfetto reads, half the bytes */
		so.fd = trace_fxt_convert_anon("open", a->path, "gzip",
					       TRACE_FXT_ONCE);
	} else {
		so.fd = open(a->path, O_RDONLY | O_CLOEXEC);
		if (so.fd < 0)
			trace_fxt_err("cannot read %s: %s", a->in,
				      strerror(errno));
	}
	if (so.fd < 0)
		return 1;
	if (fstat(so.fd, &st)) {
		close(so.fd);
		return 1;
	}
	so.size = st.st_size;
	snprintf(a->url, sizeof(a->url), "%s/#!/?url=http://%s:%u/%s"
		 "&referrer=%s", a->origin, OPEN_HOST, OPEN_PORT, a->name,
		 OPEN_REFERRER);
	fprintf(stderr, "trace-fxt: serving %s (%lld bytes) on http://%s:%u/ "
		"to %s until it is fetched; Ctrl-C stops\n", a->name,
		(long long)st.st_size, OPEN_HOST, OPEN_PORT, a->origin);
	ret = serve_once(&so);
	close(so.fd);
	if (ret > 0) {
		/* the file had no name: nothing to clean; die of the signal */
		fprintf(stderr, "trace-fxt: stopped before the trace was "
			"fetched\n");
		signal(ret, SIG_DFL);
		raise(ret);
		return 1;
	}
	if (ret < 0)
		return 1;
	fprintf(stderr, "trace-fxt: %s was fetched; the server is stopped\n",
		a->name);
	return 0;
}

/* Where trace-fxt's KernelShark plugin is: the build tree's, else installed. */
static const char *open_ks_plugin(char *buf)
{
	char exe[PATH_MAX], built[PATH_MAX + sizeof(OPEN_KS_BUILT)];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(built, sizeof(built), "%s%s", exe,
				 OPEN_KS_BUILT);
			if (realpath(built, buf) && !access(buf, R_OK))
				return buf;
		}
	}
	if (*TRACE_FXT_KS_PLUGIN && !access(TRACE_FXT_KS_PLUGIN, R_OK))
		return TRACE_FXT_KS_PLUGIN;
	return NULL;
}

/*
 * Whether the .dat at @path has damaged CPU data, as convert's check
 * finds it: the stretches (0: none, or a file the check refuses, which
 * KernelShark is left to read as before), or -1 when it cannot be read.
 */
static ssize_t open_dat_damage(const char *path, uint64_t *bytes)
{
	struct dat_pages pages = { 0 };
	struct datcheck *dc;
	const void *p;
	char err[512];
	size_t len, i;
	ssize_t n;
	int ret;

	*bytes = 0;
	ret = file_map(path, 0, &p, &len);
	if (ret) {
		trace_fxt_err("cannot read %s: %s", path, strerror(-ret));
		return -1;
	}
	ret = datcheck_head(p, len, NULL, DATCHECK_SALVAGE | DATCHECK_NO_PROBE,
			    err, sizeof(err), &dc);
	if (!ret) {
		datcheck_pages(dc);
		ret = datcheck_layout(dc, &pages);
		ret = datcheck_end(dc) ?: ret;
	}
	file_unmap(p, len);
	if (ret == -EBADMSG) {
		trace_fxt_err("open: %s: %s; KernelShark reads it as it is",
			      path, err);
		return 0;
	}
	if (ret) {
		trace_fxt_err("cannot read %s: %s", path, strerror(-ret));
		return -1;
	}
	for (i = 0; i < pages.nr_damage; i++)
		*bytes += pages.damage[i].inflated ? pages.damage[i].in_len :
						     pages.damage[i].len;
	n = (ssize_t)pages.nr_damage;
	datcheck_layout_free(&pages);
	return n;
}

/*
 * A damaged .dat for KernelShark: converted as convert salvages it (the
 * damage said), to FXT in a file without a name that KernelShark reads
 * by its /proc/self/fd name, in @path (PATH_MAX); its fd, or -1.
 */
static int open_salvaged(struct open_args *a, ssize_t nr, uint64_t bytes,
			 char *path)
{
	int fd;

	fprintf(stderr, "trace-fxt: %s is damaged (%zd stretch%s of its CPU "
		"data, %llu bytes): KernelShark opens its conversion, which "
		"skips them, instead of the .dat\n", a->in, nr,
		nr == 1 ? "" : "es", (unsigned long long)bytes);
	fd = trace_fxt_convert_anon("open", a->path, "none",
				    TRACE_FXT_INSTANTS);
	if (fd < 0)
		return -1;
	/* kernelshark is exec'd in this process: the fd stays open */
	if (fcntl(fd, F_SETFD, 0)) {
		trace_fxt_err("open: %s", strerror(errno));
		close(fd);
		return -1;
	}
	snprintf(path, PATH_MAX, "/proc/self/fd/%d", fd);
	return fd;
}

static int open_kernelshark(struct open_args *a, int kind)
{
	char buf[PATH_MAX], salvaged[PATH_MAX];
	const char *plugin;
	uint64_t bytes;
	ssize_t nr;

	plugin = kind == IN_KIND_DAT ? NULL : open_ks_plugin(buf);
	if (kind == IN_KIND_DAT) {
		nr = open_dat_damage(a->path, &bytes);
		if (nr < 0)
			return 1;
		if (nr) {
			plugin = open_ks_plugin(buf);
			if (!plugin) {
				trace_fxt_err("open: %s is damaged, and "
					      "KernelShark needs trace-fxt's "
					      "plugin (plugin-fxt.so) for its "
					      "conversion: run 'make install'",
					      a->in);
				return 1;
			}
			if (open_salvaged(a, nr, bytes, salvaged) < 0)
				return 1;
			a->path = salvaged;
			kind = IN_KIND_FXT;
		}
	}
	if (!plugin && kind != IN_KIND_DAT) {
		trace_fxt_err("open: KernelShark needs trace-fxt's plugin "
			      "(plugin-fxt.so) for %s, and it is not in %s "
			      "nor in the build tree: run 'make install'",
			      kind == IN_KIND_PERFETTO ? "a Perfetto trace" :
			      "FXT", *TRACE_FXT_KS_PLUGIN ? TRACE_FXT_KS_PLUGIN :
			      "the install directory");
		return 1;
	}
	fprintf(stderr, "trace-fxt: kernelshark%s%s %s\n", plugin ? " -p " : "",
		plugin ? plugin : "", a->path == salvaged ? salvaged : a->in);
	fflush(NULL);
	if (plugin)
		execlp("kernelshark", "kernelshark", "-p", plugin, a->path,
		       (char *)NULL);
	else
		execlp("kernelshark", "kernelshark", a->path, (char *)NULL);
	trace_fxt_err("open: cannot run kernelshark: %s", strerror(errno));
	return 1;
}

static int cmd_open(int argc, char **argv)
{
	struct open_args a = { .origin = OPEN_ORIGIN };
	char copy[64];
	int c, kind, fd, ret;
	size_t n;

	while ((c = trace_fxt_getopt(&trace_fxt_open, argc, argv)) != -1) {
		switch (c) {
		case 'k':
			a.kernelshark = true;
			break;
		case 'n':
			a.no_browser = true;
			break;
		case 'O':
			/* the URL's "/#!/" follows it */
			a.origin = optarg;
			n = strlen(optarg);
			while (n > 1 && optarg[n - 1] == '/')
				optarg[--n] = '\0';
			break;
		default:
			return trace_fxt_opt_exit(&trace_fxt_open, c);
		}
	}
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_open, optind == argc ?
				       "no file to open" : "one file only");
	a.in = argv[optind];
	/* a pipe is read once: into a copy, before its first bytes are */
	a.path = in_file_seekable(a.in, copy, sizeof(copy), &fd);
	kind = a.path ? in_file_kind(a.path, NULL, 0, NULL) : -errno;
	if (kind <= 0) {
		if (kind < 0)
			trace_fxt_err("cannot read %s: %s", a.in,
				      strerror(-kind));
		else
			trace_fxt_err("%s: neither a trace-cmd recording "
				      "(.dat) nor FXT", a.in);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	/* KernelShark reads the copy by its /proc/self/fd name */
	if (fd >= 0 && a.kernelshark)
		fcntl(fd, F_SETFD, 0);
	if (a.kernelshark)
		ret = open_kernelshark(&a, kind);
	else
		ret = open_perfetto(&a, kind);
	if (fd >= 0)
		close(fd);
	return ret;
}

static const struct trace_fxt_opt open_opts[] = {
	{ .key = 'k', .letter = true, .name = "kernelshark",
	  .help = "start KernelShark on FILE instead: FXT with trace-fxt's "
		  "KernelShark plugin (the build tree's, else the installed "
		  "one): -p PLUGIN FILE; a trace.dat as it is, or, when its "
		  "CPU data is damaged, its conversion (as convert salvages "
		  "it) with the plugin; a Perfetto trace with the plugin too, "
		  "which shows it as the trace.dat convert makes of it" },
	{ .key = 'n', .letter = true, .name = "no-open-browser",
	  .help = "print the URL only, and start no browser",
	  .def = "xdg-open URL when $DISPLAY or $WAYLAND_DISPLAY is set" },
	{ .key = 'O', .name = "origin", .arg = TRACE_FXT_ARG_TEXT,
	  .value = "URL", .def = OPEN_ORIGIN,
	  .help = "where Perfetto's UI is, if not its own site (a build of "
		  "your own); the only origin the trace is served to" },
	{ 0 }
};

static const struct trace_fxt_example open_examples[] = {
	{ "open trace.dat",
	  "convert the recording and open it in Perfetto's UI, in the "
	  "browser xdg-open starts" },
	{ "open -n trace.fxt.gz",
	  "on a machine without a display: open the printed URL in a "
	  "browser that reaches this machine's 127.0.0.1:9001 (ssh -L "
	  "9001:127.0.0.1:9001 HOST)" },
	{ "open --kernelshark trace.fxt", "the file in KernelShark" },
	{ NULL }
};

static const struct trace_fxt_exit open_exits[] = {
	{ 0, "the trace was fetched (or KernelShark was started)" },
	{ 1, "the file could not be read or converted, or 127.0.0.1:9001 "
	     "is taken; Ctrl-C ends trace-fxt as the signal does" },
	{ 2, "a usage error" },
	{ 0, NULL }
};

const struct trace_fxt_cmd trace_fxt_open = {
	.name = "open",
	.run = cmd_open,
	.summary = "open a recording in Perfetto's UI or KernelShark",
	.synopsis = { "[-n] [--origin URL] FILE", "--kernelshark FILE" },
	.about = "Opens a trace.dat or an FXT file in Perfetto's UI: the "
		 "file (a trace.dat converted to gzip'd FXT first) is served "
		 "once on http://127.0.0.1:9001, the one place the UI fetches "
		 "plain http from, to the UI's origin only; its URL is printed "
		 "and opened with xdg-open when there is a display.  The "
		 "server stops once the trace has been fetched, or on Ctrl-C.  "
		 "A Perfetto trace goes to the UI as it is, and to KernelShark "
		 "with trace-fxt's plugin, which shows it as the trace.dat "
		 "convert makes of it.",
	.opts = open_opts,
	.operand = TRACE_FXT_ARG_FILE,
	.files = "dat fxt fxt.gz fxt.zst pftrace pftrace.gz perfetto-trace",
	.examples = open_examples,
	.exits = open_exits,
};
