// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-convert.c - trace-fxt convert IN.dat -o OUT.fxt
 *
 * trace-fxt is the host of the trace-cmd input plugin: it checks the .dat
 * (datcheck.h), opens it with libtracecmd in a child process, hangs the
 * request on the handle and lets libtracecmd load its plugins (its
 * system directory, $TRACECMD_PLUGIN_DIR,
 * ~/.local/lib/trace-cmd/plugins/).  If none of them took the request it
 * tries trace-fxt-input.so in the install directory and then in the build
 * tree (the plugin's folder beside the command's).  FXT input goes the
 * other way, through libfxt-tep.a's fxt2dat_convert() and the core's .dat
 * writer.  Either output is
 * written through out-file.h, which never destroys the input or an
 * existing output.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "anon-file.h"
#include "datcheck.h"
#include "fd-io.h"
#include "fxt-format.h"
#include "fxt-input.h"
#include "fxt-tep.h"
#include "fxt-threads.h"
#include "fxt-zio.h"
#include "in-file.h"
#include "pft2dat.h"
#include "kallsyms.h"
#include "out-file.h"
#include "trace-fxt.h"
#include "view.h"

#ifndef TRACE_FXT_PLUGIN_DIR
#define TRACE_FXT_PLUGIN_DIR ""
#endif

#define MAX_SELECT	256

struct convert_args {
	const char	*in;		/* as the user named it */
	const char	*path;		/* what reads it (in-file.h) */
	const char	*out;
	const char	*events[MAX_SELECT];
	const char	*buffers[MAX_SELECT];
	const char	*compression;
	bool		quiet;
	bool		strict;		/* refuse damaged CPU data */
	bool		packets;	/* FXT in: its Perfetto packets */
};

/* "0,2-5" into a mask of CPUs (>= 256 kept as "any high CPU"). */
static int parse_cpus(const char *s, struct fxt_input_opts *o)
{
	char *end;
	long a, b, c;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (c = a; c <= b && c < 256; c++)
			o->cpu_mask[c / 64] |= 1ULL << (c % 64);
		if (b >= 256)
			o->cpu_any_high = true;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

/* Seconds as trace-cmd report prints them ("552.275297") into ns. */
static int parse_secs(const char *s, uint64_t *ns)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end || d < 0)
		return -1;
	*ns = (uint64_t)(d * 1e9 + 0.5);
	return 0;
}

/* Split "a,b,c" into @list (which keeps pointers into @s). */
static int add_list(char *s, const char **list, unsigned int *n)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_SELECT)
			return -1;
		list[(*n)++] = tok;
	}
	return 0;
}

/*
 * The input is neither: say what it was taken for (its name says FXT or
 * not) and what its first bytes are, so a user sees why.
 */
static void say_refused(const char *path, const unsigned char *buf,
			size_t r)
{
	size_t n = strlen(path), i;
	char hex[3 * 8 + 1] = "";

	for (i = 0; i < r && i < 8; i++)
		sprintf(hex + 3 * i, " %02x", buf[i]);
	if (n > 4 && !strcmp(path + n - 4, ".fxt"))
		trace_fxt_err("%s: taken for FXT (the name ends in .fxt) and "
			      "refused: FXT starts with the magic number record "
			      "10 00 04 46 78 54 16 00 (either byte order), "
			      "this file with%s; it is no trace-cmd .dat "
			      "either", path, r > 0 ? hex : " nothing");
	else
		trace_fxt_err("%s: not a trace-cmd .dat (it starts with "
			      "17 08 44 \"tracing\") nor FXT (10 00 04 46 78 54 "
			      "16 00) nor a Perfetto trace (0a, a length, a "
			      "packet): this file starts with%s", path,
			      r > 0 ? hex : " nothing");
}

/* tracecmd_init_data() with its printf()s to stdout silenced. */
static int init_data_quietly(struct tracecmd_input *handle)
{
	int saved, null, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, STDOUT_FILENO);
	ret = tracecmd_init_data(handle);
	fflush(stdout);
	if (saved >= 0 && null >= 0)
		dup2(saved, STDOUT_FILENO);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return ret < 0 ? -1 : 0;
}

/* Call the loader of the plugin at @path, the way libtracecmd does. */
static void *try_plugin(const char *dir, struct trace_plugin_context *ctx)
{
	int (*loader)(struct trace_plugin_context *);
	char path[PATH_MAX];
	void *h;

	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, FXT_INPUT_PLUGIN_NAME);
	if (access(path, R_OK))
		return NULL;
	h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		trace_fxt_err("cannot load %s: %s", path, dlerror());
		return NULL;
	}
	loader = (int (*)(struct trace_plugin_context *))
		 dlsym(h, "tracecmd_plugin_loader");
	if (loader)
		loader(ctx);
	return h;
}

/*
 * Where the build puts the plugin: trace-cmd-plugin/trace-fxt-input/ of
 * the build folder (make's O), beside the folder of this binary.
 */
static void build_dir(char *buf, size_t len)
{
	char real[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || (size_t)(slash - buf) + sizeof("/../trace-fxt-input") > len) {
		buf[0] = '\0';
		return;
	}
	strcpy(slash, "/../trace-fxt-input");
	if (realpath(buf, real) && strlen(real) < len)
		strcpy(buf, real);
}

static void say_searched(void)
{
	const char *env = getenv("TRACECMD_PLUGIN_DIR");
	const char *home = getenv("HOME");
	char exe[PATH_MAX];

	build_dir(exe, sizeof(exe));
	trace_fxt_err("no trace-cmd input plugin (%s) found; searched:",
		      FXT_INPUT_PLUGIN_NAME);
	fprintf(stderr, "  libtracecmd's system plugin directory\n");
	fprintf(stderr, "  $TRACECMD_PLUGIN_DIR (%s)\n", env ? env : "unset");
	fprintf(stderr, "  %s/.local/lib/trace-cmd/plugins/\n",
		home ? home : "~");
	if (*TRACE_FXT_PLUGIN_DIR)
		fprintf(stderr, "  %s (install directory)\n",
			TRACE_FXT_PLUGIN_DIR);
	fprintf(stderr, "  %s (the build tree)\n", exe);
	fprintf(stderr, "set TRACECMD_PLUGIN_DIR to the directory holding "
		"%s, or run 'make install'\n", FXT_INPUT_PLUGIN_NAME);
}

/* Run the plugin on @handle; 0 when a plugin took the request. */
static int run_plugin(struct tracecmd_input *handle, struct fxt_input_req *req)
{
	struct trace_plugin_context *ctx;
	struct trace_plugin_list *list;
	void *extra = NULL;
	char exe[PATH_MAX];

	ctx = tracecmd_plugin_context_create(FXT_TRACECMD_INPUT, handle);
	if (!ctx)
		return -ENOMEM;
	tracecmd_set_private(handle, req);
	list = tracecmd_load_plugins(ctx);
	if (!req->res.done)
		extra = try_plugin(TRACE_FXT_PLUGIN_DIR, ctx);
	if (!req->res.done) {
		if (extra)
			dlclose(extra);
		build_dir(exe, sizeof(exe));
		extra = try_plugin(exe, ctx);
	}
	tracecmd_unload_plugins(list, ctx);
	if (extra)
		dlclose(extra);
	tracecmd_set_private(handle, NULL);
	free(ctx);
	return req->res.done ? 0 : -ENOENT;
}

static int convert_fxt(struct convert_args *a)
{
	struct fxt2dat_opts o = { .compression = a->compression };
	struct fxt2dat_stats st;
	struct out_file *out;
	char err[512] = "", *line, *end;
	int ret;

	if (trace_fxt_opt_check_dir(&trace_fxt_convert, TRACE_FXT_TO_DAT,
				    "the input is FXT, converted whole"))
		return 2;
	if (a->compression && strcmp(a->compression, "none") &&
	    strcmp(a->compression, "zstd")) {
		trace_fxt_err("compression '%s': none or zstd", a->compression);
		return 2;
	}
	/* the .dat writer patches offsets and may start over */
	out = out_file_open(a->out, a->path, OUT_FILE_SEEK);
	if (!out)
		return 1;
	ret = fxt2dat_convert(a->path, out_file_fd(out), &o, &st, err,
			      sizeof(err));
	if (ret < 0) {
		trace_fxt_err("converting %s failed: %s", a->in,
			      err[0] ? err : strerror(-ret));
		out_file_discard(out);
		return 1;
	}
	if (out_file_commit(out))
		return 1;
	/* what the reader could not read is said even with -q, once */
	for (line = st.unread_tally; *line; line = end + 1) {
		end = strchrnul(line, '\n');
		trace_fxt_err("%.*s", (int)(end - line), line);
		if (!*end)
			break;
	}
	if (st.stopped[0])
		trace_fxt_err("%s; the records before it are converted",
			      st.stopped);
	if (!a->quiet)
		fprintf(stderr, "trace-fxt: %s -> %s: %llu events from %llu "
			"records (%llu ftrace events restored, %llu records "
			"without a .dat form, %llu skipped or not read in "
			"full), %u buffer%s, %u CPU%s\n",
			a->in, a->out, (unsigned long long)st.events_out,
			(unsigned long long)st.records_in,
			(unsigned long long)st.restored,
			(unsigned long long)st.skipped,
			(unsigned long long)st.unread, st.buffers,
			st.buffers == 1 ? "" : "s", st.cpus,
			st.cpus == 1 ? "" : "s");
	/* numbers the .dat changes are said even with -q */
	if (st.threads_renumbered || st.cpus_renumbered) {
		char why[512] = "";

		if (st.threads_renumbered)
			snprintf(why, sizeof(why), "%llu thread%s under a pid "
				 "other than %s tid (%s)",
				 (unsigned long long)st.threads_renumbered,
				 st.threads_renumbered == 1 ? "" : "s",
				 st.threads_renumbered == 1 ? "its" : "their",
				 FXT_THREADS_WHY);
		if (st.cpus_renumbered)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%s%u CPU%s renumbered (the CPUs used are too "
				 "sparse: a .dat has every CPU up to its "
				 "highest)", why[0] ? ", " : "",
				 st.cpus_renumbered,
				 st.cpus_renumbered == 1 ? "" : "s");
		trace_fxt_err("%s: %s: %s; all of them in the .dat's version "
			      "option (trace-cmd dump --options)", a->out, why,
			      st.renumbered);
	}
	return st.stopped[0] ? 1 : 0;
}

/* How long libtracecmd may take over a file's headers and formats. */
#define CONVERT_HEAD_SECONDS	30

/*
 * The reading half of a .dat conversion: the file checked, opened with
 * libtracecmd and handed to the plugin, which writes req->out_fd.  0 when
 * a plugin ran (req->res says how it went), else the exit code, the
 * reason said.
 */
/* The check's verdict, said; 0 when the file checked good. */
static int convert_checked(struct convert_args *a, int ret, const char *why)
{
	if (ret == -EBADMSG)
		trace_fxt_err("%s: %s", a->in, why);
	else if (ret)
		trace_fxt_err("cannot read %s: %s", a->in, strerror(-ret));
	return ret ? 1 : 0;
}

/*
 * Who reads the CPU data: unset, the plugin's page reader wherever the
 * check mapped the pages, else libtracecmd; "pages" or "libtracecmd",
 * that one alone (the tests compare the two).
 */
#define CONVERT_READER_ENV	"TRACE_FXT_READER"

static unsigned int convert_reader(void)
{
	const char *r = getenv(CONVERT_READER_ENV);

	if (r && !strcmp(r, "libtracecmd"))
		return FXT_INPUT_READ_LIBTRACECMD;
	if (r && !strcmp(r, "pages"))
		return FXT_INPUT_READ_PAGES;
	return FXT_INPUT_READ_ANY;
}

/* The recording's functions, for the plugin (fxt_input_opts.functions). */
static struct tep_handle *convert_functions(void *ks)
{
	return kallsyms_functions(ks);
}

static int convert_read(struct convert_args *a, struct fxt_input_req *req)
{
	struct tracecmd_input *handle = NULL;
	struct datcheck_keep_run *check;
	struct kallsyms *ks = NULL;
	struct datcheck *dc;
	uint8_t *ids = NULL;
	const char *text;
	bool complete;
	char why[256];
	int ret, view = -1;
	size_t len;

	/*
	 * libtracecmd trusts the file's sizes: check them first, keeping
	 * what the plugin's thread-group pass reads on the way.  Its pages
	 * are walked on a second thread while libtracecmd reads the
	 * headers, which the first half of the check covers.
	 */
	ret = datcheck_keep_start(a->path, fxt_input_tgid_events,
				  FXT_INPUT_NR_TGID_EVENTS, DATCHECK_NO_PROBE |
				  (a->strict ? 0 : DATCHECK_SALVAGE),
				  &check, why, sizeof(why));
	if (ret)
		return convert_checked(a, ret, why);
	dc = datcheck_keep_check(check);
	/*
	 * Most of libtracecmd's opening is the parse of every event format
	 * the recording saved (some 2,300, of which the records use a few
	 * dozen) and of the kallsyms, a sscanf() a line.  It reads a view
	 * of the file without either (datcheck_view()); the kallsyms are
	 * parsed on a thread meanwhile (kallsyms.h), the formats the
	 * records use once the walk of the pages says which.
	 */
	ids = malloc(DATCHECK_IDS_BYTES);
	ret = ids ? datcheck_view(dc, &view) : -ENOMEM;
	text = ret ? NULL : datcheck_kallsyms(dc, &len);
	if (text && len) {
		ks = kallsyms_start(text, len);
		if (!ks)
			ret = -ENOMEM;
	}
	if (!ret) {
		tracecmd_set_loglevel(TEP_LOG_CRITICAL);
		/* a format libtraceevent's parser loops on ends here */
		alarm(CONVERT_HEAD_SECONDS);
		handle = view_open(view);
		alarm(0);
	}
	/* the headers read: this thread walks pages too, as long as any */
	datcheck_keep_help(check);
	ret = datcheck_keep_walk(check, ids, &complete) ?: ret;
	/*
	 * The check's map of the CPU data lets the plugin read the pages;
	 * what it found damaged is skipped whoever reads them
	 */
	req->opts.reader = convert_reader();
	if (!ret && handle)
		ret = datcheck_layout(dc, &req->pages);
	if (req->opts.reader == FXT_INPUT_READ_LIBTRACECMD)
		req->pages.nr = 0;
	if (!ret && handle) {
		alarm(CONVERT_HEAD_SECONDS);
		view_parse_formats(dc, ids, handle);
		alarm(0);
		/* libtracecmd reads all the CPU data when the plugin cannot */
		ret = datcheck_view_data(dc, view,
					 complete ? &req->pages : NULL);
	}
	free(ids);
	ret = datcheck_keep_finish(check, &req->tgid_recs, NULL, NULL) ?: ret;
	if (ret) {
		datcheck_layout_free(&req->pages);
		return convert_checked(a, ret, why);
	}
	if (!handle) {
		trace_fxt_err("cannot open %s with libtracecmd: truncated or "
			      "corrupt trace file?", a->in);
		return 1;
	}
	trace_fxt_say_damage(a->in, &req->pages);
	if (ks) {
		if (kallsyms_attach(ks, tracecmd_get_tep(handle)))
			return convert_checked(a, -ENOMEM, why);
		req->opts.functions = convert_functions;
		req->opts.functions_priv = ks;
	}
	/*
	 * Not tracecmd_open(): when the CPU data runs past the end of the
	 * file, its cleanup crashes in libtracecmd 3.1.6.  A handle that
	 * failed here is left to the exit instead of tracecmd_close().
	 * libtracecmd also says why on stdout; keep stdout for data.
	 */
	if (init_data_quietly(handle)) {
		trace_fxt_err("cannot read the trace data of %s: the file is "
			      "truncated or corrupt", a->in);
		return 1;
	}
	/* never closed: the child exits once trace-fxt has the verdict */
	ret = run_plugin(handle, req);
	if (ret == -ENOENT) {
		say_searched();
		return 1;
	}
	return 0;
}

/* What the reading child tells trace-fxt. */
struct convert_reply {
	int			code;	/* convert_read()'s */
	struct fxt_input_result	res;
	/* the damaged stretches of the CPU data skipped, their bytes */
	uint64_t		damaged, damaged_bytes;
};

/* The damage the check found, for the reply. */
static void convert_damage_sum(const struct dat_pages *pages,
			       struct convert_reply *reply)
{
	const struct dat_damage *d;
	size_t i;

	reply->damaged = pages->nr_damage;
	for (i = 0; i < pages->nr_damage; i++) {
		d = &pages->damage[i];
		reply->damaged_bytes += d->inflated ? d->in_len : d->len;
	}
}

/* How often the output written so far is sent on to the disk. */
#define CONVERT_WRITEBACK_MS	10

/*
 * The child's reply from @fd; how many bytes of it came.  While the child
 * writes, what it wrote is sent on to the disk (out_file_writeback()), so
 * that the sync at commit has only the tail left to wait for.
 */
static size_t convert_reply_read(int fd, struct convert_reply *reply,
				 struct out_file *out)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;
	int ready;

	while (got < sizeof(*reply)) {
		ready = poll(&pfd, 1, CONVERT_WRITEBACK_MS);
		if (ready < 0 && errno != EINTR)
			break;
		if (ready <= 0) {
			out_file_writeback(out);
			continue;
		}
		n = read(fd, (char *)reply + got, sizeof(*reply) - got);
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
		if (n > 0)
			got += n;
	}
	return got;
}

/*
 * libtraceevent's format parser crashes or hangs on some broken formats
 * (datcheck.h).  Rather than parse every format twice, once in a probe
 * and once in libtracecmd, the reading runs in a child: only when that
 * child dies of a signal are the formats probed, to name the one at
 * fault.  The child writes the output descriptor trace-fxt holds; it
 * dies with trace-fxt.  Returns convert_read()'s code, req->res filled
 * from the child's.  A child that answered may still be exiting: *@child
 * is then set, for the caller to reap once the output is committed.
 */
static int convert_isolated(struct convert_args *a, struct fxt_input_req *req,
			    struct out_file *out, pid_t *child,
			    struct convert_reply *damage)
{
	struct convert_reply reply = { .code = 1 };
	pid_t pid, parent = getpid();
	char why[256];
	int fds[2], status, sig;
	size_t got;
	bool sent;

	fflush(NULL);
	if (pipe(fds) || (pid = fork()) < 0) {
		trace_fxt_err("cannot start the conversion: %s",
			      strerror(errno));
		return 1;
	}
	if (!pid) {
		close(fds[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		reply.code = convert_read(a, req);
		reply.res = req->res;
		convert_damage_sum(&req->pages, &reply);
		fflush(NULL);
		sent = !fd_write_all(fds[1], &reply, sizeof(reply));
		/*
		 * Nothing freed: the exit gives it all back at once, where
		 * tracecmd_close() took as long as a tenth of the reading
		 * (the records' chunks, every format and symbol).
		 */
		_exit(sent ? 0 : 1);
	}
	close(fds[1]);
	got = convert_reply_read(fds[0], &reply, out);
	close(fds[0]);
	if (got == sizeof(reply)) {
		/* the whole verdict: the output is complete whatever follows */
		*child = pid;
		req->res = reply.res;
		*damage = reply;
		return reply.code;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!WIFSIGNALED(status))
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : 1;
	sig = WTERMSIG(status);
	/* the probe's finding, and the death it may not explain */
	if (datcheck_file_formats(a->path, why, sizeof(why)) == -EBADMSG) {
		trace_fxt_err("%s: %s", a->in, why);
		trace_fxt_err("converting %s failed: the conversion died (%s)",
			      a->in, strsignal(sig));
	} else
		trace_fxt_err("converting %s failed: %s (%s)", a->in,
			      sig == SIGALRM ? "libtracecmd did not read its "
			      "headers and formats in time" :
			      "the conversion died", strsignal(sig));
	return 1;
}

/* The output made final when the conversion (@ret) went well. */
static int convert_commit(struct convert_args *a, struct fxt_input_req *req,
			  struct out_file *out, int ret,
			  const struct convert_reply *damage)
{
	if (ret) {
		out_file_discard(out);
		return ret;
	}
	/* damage and not one event read: nothing was converted */
	if (damage->damaged && !req->res.status && !req->res.records_in) {
		trace_fxt_err("%s: no event could be read: the CPU data is "
			      "damaged wherever it has events", a->in);
		out_file_discard(out);
		return 1;
	}
	if (!a->quiet)
		fprintf(stderr, "trace-fxt: using plugin %s\n",
			req->res.plugin);
	if (req->res.status) {
		trace_fxt_err("converting %s failed: %s", a->in,
			      req->res.error[0] ? req->res.error :
			      strerror(-req->res.status));
		out_file_discard(out);
		return 1;
	}
	if (out_file_commit(out))
		return 1;
	if (!a->quiet)
		fprintf(stderr, "trace-fxt: %s -> %s: %llu of %llu events, "
			"%u buffer%s, %llu bytes\n", a->in, a->out,
			(unsigned long long)req->res.events_out,
			(unsigned long long)req->res.records_in,
			req->res.providers, req->res.providers == 1 ? "" : "s",
			(unsigned long long)req->res.bytes_out);
	if (req->res.note[0] && !a->quiet)
		trace_fxt_err("%s: %s", a->in, req->res.note);
	/* what was lost is said even with -q */
	if (damage->damaged)
		trace_fxt_err("%s: %llu damaged stretch%s of the CPU data "
			      "skipped (%llu bytes), %llu events read around "
			      "them and converted; --strict refuses such a "
			      "file", a->in,
			      (unsigned long long)damage->damaged,
			      damage->damaged == 1 ? "" : "es",
			      (unsigned long long)damage->damaged_bytes,
			      (unsigned long long)req->res.records_in);
	return 0;
}

/*
 * A Perfetto trace to a .dat, the kernel's event formats where
 * pft2dat_formats() finds them; or FXT (@fxt), its packets read as one:
 * with --packets as Perfetto reads them, else (a file whose events are
 * its packets) with what the file keeps beside them.
 */
static int convert_perfetto(struct convert_args *a, bool fxt)
{
	struct pft2dat_opts o = {
		.compression = a->compression,
		.packets_only = a->packets,
	};
	struct pft2dat_stats st;
	struct out_file *out;
	char err[512] = "";
	int ret;

	if (trace_fxt_opt_check_dir(&trace_fxt_convert, TRACE_FXT_TO_DAT,
				    fxt ? "the input is FXT, converted whole" :
				    "the input is a Perfetto trace, converted "
				    "whole"))
		return 2;
	if (a->compression && strcmp(a->compression, "none") &&
	    strcmp(a->compression, "zstd")) {
		trace_fxt_err("compression '%s': none or zstd", a->compression);
		return 2;
	}
	o.formats = pft2dat_formats();
	out = out_file_open(a->out, a->path, OUT_FILE_SEEK);
	if (!out)
		return 1;
	ret = pft2dat_convert(a->path, out_file_fd(out), &o, &st, err,
			      sizeof(err));
	if (ret < 0) {
		trace_fxt_err("converting %s failed: %s", a->in,
			      err[0] ? err : strerror(-ret));
		out_file_discard(out);
		return 1;
	}
	if (out_file_commit(out))
		return 1;
	/* damage is said even with -q */
	if (st.damaged)
		trace_fxt_err("%s: damaged in %llu place%s, the first: %s; "
			      "every whole packet is converted", a->in,
			      (unsigned long long)st.damaged,
			      st.damaged == 1 ? "" : "s", st.damage);
	if (a->quiet)
		return 0;
	fprintf(stderr, "trace-fxt: %s -> %s: %llu events from %llu ftrace "
		"events of %llu packets (%llu without a .dat form), %u "
		"CPU%s; formats: ", a->in, a->out,
		(unsigned long long)st.events_out,
		(unsigned long long)st.events_in,
		(unsigned long long)st.packets,
		(unsigned long long)st.dropped, st.cpus,
		st.cpus == 1 ? "" : "s");
	if (st.fxt_formats)
		fprintf(stderr, "%u the recording's (the FXT's), ",
			st.fxt_formats);
	fprintf(stderr, "%u the kernel's (%s), %u made from the packets\n",
		st.kernel_formats, o.formats ? o.formats : "none",
		st.made_formats);
	if (st.unkept[0])
		fprintf(stderr, "trace-fxt: kernel fields the recording does "
			"not keep (zero in the .dat): %s\n", st.unkept);
	if (st.indexed[0])
		fprintf(stderr, "trace-fxt: kernel pointers the recording "
			"keeps as an index of its own (symbolize_ksyms, no symbol "
			"there): %s\n", st.indexed);
	if (st.symbolized[0])
		fprintf(stderr, "trace-fxt: kernel addresses the recording "
			"keeps as a symbol only (an address of the .dat's kallsyms "
			"names it): %s\n", st.symbolized);
	if (st.unknown[0])
		fprintf(stderr, "trace-fxt: typed ftrace events no row of "
			"map-ftrace.table names, left out (FtraceEvent's field "
			"x events): %s\n", st.unknown);
	if (st.left_out[0])
		fprintf(stderr, "trace-fxt: left out (no .dat form): %s\n",
			st.left_out);
	if (st.instances[0])
		fprintf(stderr, "trace-fxt: ftrace instances: %s\n",
			st.instances);
	return 0;
}

static int convert_dat(struct convert_args *a, struct fxt_input_req *req)
{
	struct convert_reply damage = { 0 };
	struct out_file *out;
	unsigned char head[8];
	pid_t child = 0;
	int ret, zip, kind;
	size_t len;

	kind = in_file_kind(a->path, head, sizeof(head), &len);
	if (kind < 0) {
		trace_fxt_err("cannot read %s: %s", a->in, strerror(-kind));
		return 1;
	}
	/*
	 * gzip or zstd: FXT inside, or the FXT reader says why not; the
	 * events of a --once file are in its packets alone
	 */
	if (kind == IN_KIND_FXT)
		return a->packets || pft2dat_fxt_once(a->path) ?
		       convert_perfetto(a, true) : convert_fxt(a);
	if (kind == IN_KIND_PERFETTO)
		return convert_perfetto(a, false);
	if (kind != IN_KIND_DAT) {
		say_refused(a->in, head, len);
		return 1;
	}
	if (trace_fxt_opt_check_dir(&trace_fxt_convert, TRACE_FXT_TO_FXT,
				    "the input is a trace.dat"))
		return 2;
	zip = a->compression ? fxt_zip_parse(a->compression) :
			       (int)fxt_zip_from_name(a->out);
	if (zip < 0) {
		trace_fxt_err("compression '%s': none, gzip or zstd",
			      a->compression);
		return 2;
	}
	req->opts.compress = (unsigned int)zip;
	out = out_file_open(a->out, a->path, 0);
	if (!out)
		return 1;
	req->out_fd = out_file_fd(out);

	ret = convert_isolated(a, req, out, &child, &damage);
	ret = convert_commit(a, req, out, ret, &damage);
	/* the child exits while the output is committed */
	if (child)
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	return ret;
}

static int convert(struct convert_args *a, struct fxt_input_req *req)
{
	int ret = convert_dat(a, req);

	datcheck_recs_free(&req->tgid_recs);
	datcheck_layout_free(&req->pages);
	return ret;
}

static int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	struct fxt_input_req req = {
		.magic = FXT_INPUT_MAGIC,
		.abi = FXT_INPUT_ABI,
		.out_fd = -1,
	};
	struct fxt_input_opts *o = &req.opts;
	bool instants = false;
	char copy[64];
	int c, fd, ret;

	o->events = a.events;
	o->buffers = a.buffers;
	o->end_ts = UINT64_MAX;
	while ((c = trace_fxt_getopt(&trace_fxt_convert, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			a.out = optarg;
			break;
		case 'e':
			if (add_list(optarg, a.events, &o->nr_events))
				return trace_fxt_usage(&trace_fxt_convert,
						       "too many events");
			break;
		case 'B':
			if (add_list(optarg, a.buffers, &o->nr_buffers))
				return trace_fxt_usage(&trace_fxt_convert,
						       "too many buffers");
			break;
		case 'c':
			if (parse_cpus(optarg, o)) {
				trace_fxt_err("bad CPU list '%s'", optarg);
				return 2;
			}
			break;
		case 's':
		case 'E':
			if (parse_secs(optarg, c == 's' ? &o->start_ts :
						     &o->end_ts)) {
				trace_fxt_err("bad time '%s' (seconds)", optarg);
				return 2;
			}
			break;
		case 'p':
			o->progress = true;
			break;
		case 'T':
			o->tgids = optarg;
			break;
		case 'S':
		case 'F':
			o->fxt_records = true;
			break;
		case 'O':
			o->once_asked = true;
			break;
		case 'I':
			instants = true;
			break;
		case 'P':
			a.packets = true;
			break;
		case 'q':
			a.quiet = true;
			break;
		case 't':
			a.strict = true;
			break;
		case 'z':
			a.compression = optarg;
			break;
		case 'Z':
			a.compression = "gzip";
			break;
		default:
			return trace_fxt_opt_exit(&trace_fxt_convert, c);
		}
	}
	if (!a.out)
		return trace_fxt_usage(&trace_fxt_convert,
				       "where to write: -o OUT is required");
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_convert, optind == argc ?
				       "no input file" : "one input file only");
	if (o->once_asked + instants + o->fxt_records > 1)
		return trace_fxt_usage(&trace_fxt_convert, "--once writes each "
				       "event once, in the packets, --instants "
				       "as an FXT instant too, --fxt-records as "
				       "FXT records: one of them");
	/* each event once unless told otherwise */
	o->once = !instants && !o->fxt_records;
	a.in = argv[optind];
	a.path = in_file_seekable(a.in, copy, sizeof(copy), &fd);
	if (!a.path) {
		trace_fxt_err("cannot read %s: %s", a.in, strerror(errno));
		return 1;
	}
	o->path = a.path;
	ret = convert(&a, &req);
	if (fd >= 0)
		close(fd);
	return ret;
}

int trace_fxt_convert_anon(const char *who, const char *path,
			   const char *compression, const char *flavor)
{
	const char *tmp = getenv("TMPDIR");
	char *argv[] = { "convert", "-q", "--compression", (char *)compression,
			 "-o", "-", (char *)path, (char *)flavor, NULL };
	int fd, saved, ret, argc = 0;

	while (argv[argc])
		argc++;
	fd = anon_file_open(tmp && *tmp ? tmp : "/tmp");
	if (fd < 0) {
		trace_fxt_err("%s: no temporary file for the conversion: %s",
			      who, strerror(errno));
		return -1;
	}
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		trace_fxt_err("%s: %s", who, strerror(errno));
		close(fd);
		return -1;
	}
	/* its argv may be where the last run's was: a new command line */
	trace_fxt_getopt_reset();
	ret = trace_fxt_convert.run(argc, argv);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (ret) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * What convert takes.  The keys are the switch's cases above; the
 * directions are checked once the input's kind is known (convert_fxt(),
 * convert_dat()).
 */
static const struct trace_fxt_opt convert_opts[] = {
	{ .key = 'o', .letter = true, .name = "output",
	  .arg = TRACE_FXT_ARG_FILE, .value = "OUT", .required = true,
	  .help = "where to write: a name ending in .fxt, .fxt.gz, .fxt.zst "
		  "(a trace.dat in) or .dat (FXT in); '-' is standard output" },
	{ .key = 'e', .letter = true, .name = "events",
	  .arg = TRACE_FXT_ARG_EVENTS, .value = "SYS[:EVENT],...",
	  .dirs = TRACE_FXT_TO_FXT, .def = "every event",
	  .help = "only these events: a system (sched), an event "
		  "(sched_switch), both (sched:sched_switch) or SYS:*; "
		  "comma-separated, may be repeated" },
	{ .key = 'B', .letter = true, .name = "buffer",
	  .arg = TRACE_FXT_ARG_BUFFERS, .value = "BUFFER,...",
	  .dirs = TRACE_FXT_TO_FXT, .def = "every buffer",
	  .help = "only these ftrace buffers: 'top' (the main one) or an "
		  "instance's name; comma-separated, may be repeated" },
	{ .key = 'c', .letter = true, .name = "cpu",
	  .arg = TRACE_FXT_ARG_TEXT, .value = "LIST",
	  .dirs = TRACE_FXT_TO_FXT, .def = "every CPU",
	  .help = "only the events of these CPUs, as 0,2-5" },
	{ .key = 's', .name = "start", .arg = TRACE_FXT_ARG_TEXT,
	  .value = "SECONDS", .dirs = TRACE_FXT_TO_FXT,
	  .def = "the first event",
	  .help = "only the events from this time on, in seconds as "
		  "trace-cmd report prints them: 552.275297" },
	{ .key = 'E', .name = "end", .arg = TRACE_FXT_ARG_TEXT,
	  .value = "SECONDS", .dirs = TRACE_FXT_TO_FXT,
	  .def = "the last event",
	  .help = "only the events up to this time, in the same seconds" },
	{ .key = 'T', .name = "tgids", .arg = TRACE_FXT_ARG_FILE,
	  .value = "FILE", .dirs = TRACE_FXT_TO_FXT,
	  .def = "what the recording says: record-tgid, fork and exec "
		 "events",
	  .help = "each thread's process from 'pid tgid' lines, as the "
		  "kernel's saved_tgids lists them" },
	{ .key = 'S', .name = "fxt-records", .dirs = TRACE_FXT_TO_FXT,
	  .def = "each event once, in Perfetto's own ftrace packets (FXT "
		 "blob records of type 3) and what they do not carry of its "
		 "record in a field of this project's own, which Perfetto "
		 "skips",
	  .help = "every event as FXT records Tracy and any reader of the "
		  "FXT specification reads: its instant at the top level, "
		  "scheduling (context switches, wakeups, CPU frequency and "
		  "idle) as FXT records, atrace markers as FXT slices and "
		  "counters; Perfetto then shows every event twice (an "
		  "instant besides the packets) and no D, I or R+ thread "
		  "states, wakers or process tree" },
	{ .key = 'F', .name = "fxt-sched", .dirs = TRACE_FXT_TO_FXT,
	  .help = "the old name of --fxt-records" },
	{ .key = 'I', .name = "instants", .dirs = TRACE_FXT_TO_FXT,
	  .help = "each event also an FXT instant with every field, in "
		  "records nested in blobs Perfetto skips, as this project's "
		  "conversions were before each event once became the "
		  "default: a file about twice the size, which report reads "
		  "as it is and KernelShark opens sooner" },
	{ .key = 'O', .name = "once", .dirs = TRACE_FXT_TO_FXT,
	  .help = "the default, said: each event once, in the packets" },
	{ .key = 'P', .name = "packets", .dirs = TRACE_FXT_TO_DAT,
	  .def = "every event as the trace.dat held it: the packets with "
		 "what they do not carry of each record, or the FXT records "
		 "of an --instants file or another producer's",
	  .help = "the .dat of the Perfetto packets alone (the FXT's blob "
		  "records of type 3), what Perfetto's importer reads of it, "
		  "as of a Perfetto trace: shows what the packets keep of "
		  "each event of a converted trace.dat" },
	{ .key = 'p', .name = "progress", .dirs = TRACE_FXT_TO_FXT,
	  .help = "print how far the conversion is on standard error" },
	{ .key = 'q', .letter = true, .name = "quiet",
	  .help = "print only errors: not the plugin used nor the summary" },
	{ .key = 't', .name = "strict", .dirs = TRACE_FXT_TO_FXT,
	  .def = "damaged CPU data skipped: every event that can be read "
		 "is converted, what was lost said on standard error and in "
		 "the FXT",
	  .help = "refuse a trace.dat whose CPU data is damaged (a page or "
		  "zstd chunk that fails the check), naming the first fault, "
		  "instead of converting the rest" },
	{ .key = 'z', .name = "compression", .arg = TRACE_FXT_ARG_CHOICE,
	  .words = "none gzip zstd",
	  .def = "by OUT's name: .gz gzip, .zst zstd, else none; a .dat "
		 "none",
	  .help = "compress the output; a .dat takes none or zstd "
		  "(trace-cmd's own compression), FXT any of them (gzip "
		  "opens in Perfetto's UI as it is)" },
	{ .key = 'Z', .name = "compress", .dirs = TRACE_FXT_TO_FXT,
	  .help = "the same as --compression gzip" },
	{ 0 }
};

static const struct trace_fxt_example convert_examples[] = {
	{ "convert trace.dat -o trace.fxt.gz",
	  "a recording to gzip'd FXT, which Perfetto's UI opens as it is" },
	{ "convert -e sched:sched_switch,irq --cpu 0-3 trace.dat -o x.fxt",
	  "only the context switches and the irq system's events, and "
	  "only those of CPUs 0 to 3" },
	{ "convert -B top --start 552.2 --end 553 trace.dat -o top.fxt.zst",
	  "the top buffer's events of that second, zstd-compressed" },
	{ "convert trace.fxt.gz -o trace.dat",
	  "FXT (from trace-fxt or any other producer) back to a trace.dat "
	  "that trace-cmd and KernelShark read" },
	{ "convert trace.pftrace -o trace.dat",
	  "the ftrace events of a Perfetto recording as a trace.dat" },
	{ NULL }
};

static const struct trace_fxt_exit convert_exits[] = {
	{ 0, "converted; from a trace.dat whose CPU data is damaged, every "
	     "event that could be read, the damage said on standard error" },
	{ 1, "the input could not be read or converted; nothing was written "
	     "and an existing OUT is left as it was" },
	{ 2, "a usage error, or an option of the other direction" },
	{ 0, NULL }
};

const struct trace_fxt_cmd trace_fxt_convert = {
	.name = "convert",
	.run = cmd_convert,
	.summary = "convert a trace-cmd recording (trace.dat) to FXT, or FXT "
		   "or a Perfetto trace to a trace.dat",
	.synopsis = { "[OPTIONS] IN.dat -o OUT.fxt[.gz|.zst]",
		      "[OPTIONS] IN.fxt -o OUT.dat",
		      "[OPTIONS] IN.pftrace -o OUT.dat" },
	.about = "Converts a trace-cmd recording (trace.dat v6 or v7) to the "
		 "Fuchsia Trace Format through trace-cmd's input plugin "
		 "(trace-fxt-input.so), or FXT from any producer back to a "
		 "trace.dat v7, and so the ftrace events of a Perfetto "
		 "recording.  The input's first bytes choose the direction, "
		 "whatever its name; FXT and Perfetto traces may be gzip'd or "
		 "zstd'd.  OUT is "
		 "written whole or not at all.",
	.opts = convert_opts,
	.operand = TRACE_FXT_ARG_FILE,
	.files = "dat fxt fxt.gz fxt.zst pftrace pftrace.gz perfetto-trace",
	.examples = convert_examples,
	.exits = convert_exits,
};
