// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-file.c - outputs that never destroy what the user has (out-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "anon-file.h"
#include "out-file.h"
#include "trace-fxt.h"

/* Links followed before giving up, as the kernel's own limit. */
#define OUT_MAX_LINKS	40

struct out_file {
	const char	*path;		/* as given, for messages */
	char		*target;	/* replace: the final name, links resolved */
	char		*named;		/* replace without O_TMPFILE: its name */
	int		fd;		/* what the writer writes to */
	int		dest;		/* in place: the opened target, else -1 */
	bool		replace;	/* a regular file, replaced atomically */
	off_t		sent;		/* out_file_writeback() started so far */
	bool		spool;		/* fd is a temporary copied to dest */
	bool		own_dest;	/* dest is not standard output */
};

/*
 * The one temporary name that may exist at a time, for the signal
 * handler: a kill leaves no OUT.XXXXXX behind.  (SIGKILL cannot be
 * caught; with O_TMPFILE there is no name to leave until commit.)
 */
static char pending_name[PATH_MAX];
static volatile sig_atomic_t pending_set;

static void out_on_signal(int sig)
{
	if (pending_set)
		unlink(pending_name);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void out_pending(const char *name)
{
	static bool installed;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = out_on_signal }, old;
	size_t i;

	pending_set = 0;
	if (!name)
		return;
	if (!installed) {
		sigemptyset(&sa.sa_mask);
		/* a signal ignored by whoever started us stays ignored */
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			if (!sigaction(sigs[i], NULL, &old) &&
			    old.sa_handler != SIG_IGN)
				sigaction(sigs[i], &sa, NULL);
		installed = true;
	}
	snprintf(pending_name, sizeof(pending_name), "%s", name);
	pending_set = 1;
}

static void out_err(const struct out_file *o, const char *what, int err)
{
	trace_fxt_err("cannot write %s: %s%s%s", o->path, what ? what : "",
		      what ? ": " : "", strerror(err));
}

/* @path with every symlink (also dangling ones) followed; malloc'd. */
static char *out_resolve(const char *path)
{
	char *cur = strdup(path), *next, *slash;
	char link[PATH_MAX];
	struct stat st;
	ssize_t n;
	int i;

	for (i = 0; cur && i < OUT_MAX_LINKS; i++) {
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return cur;
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash)
			next = strdup(link);
		else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur,
				  link) < 0)
			next = NULL;
		free(cur);
		cur = next;
	}
	if (cur)
		errno = ELOOP;
	free(cur);
	return NULL;
}

/* The directory holding @path, malloc'd. */
static char *out_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	if (asprintf(&d, "%.*s", (int)(slash - path), path) < 0)
		return NULL;
	return d;
}

static int out_open_replace(struct out_file *o, const struct stat *old)
{
	mode_t mask = umask(0);
	mode_t mode = old ? old->st_mode & 07777 : 0666 & ~mask;
	char *dir = out_dir(o->target);

	umask(mask);
	if (!dir) {
		out_err(o, NULL, ENOMEM);
		return -1;
	}
	o->fd = -1;
#ifdef O_TMPFILE
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
	free(dir);
	if (o->fd < 0) {
		if (asprintf(&o->named, "%s.XXXXXX", o->target) < 0) {
			o->named = NULL;
			out_err(o, NULL, ENOMEM);
			return -1;
		}
		o->fd = mkostemp(o->named, O_CLOEXEC);
		if (o->fd < 0) {
			out_err(o, NULL, errno);
			return -1;
		}
		out_pending(o->named);
	}
	/* an existing output keeps its permissions */
	fchmod(o->fd, mode);
	return 0;
}

static int out_open_in_place(struct out_file *o, unsigned int flags)
{
	if (strcmp(o->path, "-")) {
		o->dest = open(o->path, O_WRONLY | O_CLOEXEC);
		if (o->dest < 0) {
			out_err(o, NULL, errno);
			return -1;
		}
		o->own_dest = true;
	} else {
		o->dest = STDOUT_FILENO;
	}
	o->spool = flags & OUT_FILE_SEEK;
	if (!o->spool) {
		o->fd = o->dest;
		return 0;
	}
	o->fd = anon_file_open(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (o->fd < 0) {
		out_err(o, "temporary file", errno);
		return -1;
	}
	return 0;
}

struct out_file *out_file_open(const char *path, const char *in,
			       unsigned int flags)
{
	struct stat st_in, st_out;
	struct out_file *o = calloc(1, sizeof(*o));
	bool exists, is_stdout = !strcmp(path, "-");

	if (!o) {
		trace_fxt_err("cannot write %s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	o->path = path;
	o->fd = -1;
	o->dest = -1;
	exists = is_stdout ? !fstat(STDOUT_FILENO, &st_out) :
			     !stat(path, &st_out);
	if (in && exists && !stat(in, &st_in) &&
	    st_in.st_dev == st_out.st_dev && st_in.st_ino == st_out.st_ino) {
		trace_fxt_err("%s is the input %s (the same file): refusing "
			      "to overwrite it", path, in);
		goto fail;
	}
	if (is_stdout && !exists) {
		out_err(o, NULL, errno);
		goto fail;
	}
	if (exists && S_ISDIR(st_out.st_mode)) {
		out_err(o, NULL, EISDIR);
		goto fail;
	}
	if (is_stdout || (exists && !S_ISREG(st_out.st_mode))) {
		if (out_open_in_place(o, flags))
			goto fail;
		return o;
	}
	o->replace = true;
	o->target = out_resolve(path);
	if (!o->target) {
		out_err(o, NULL, errno);
		goto fail;
	}
	if (out_open_replace(o, exists ? &st_out : NULL))
		goto fail;
	return o;
fail:
	out_file_discard(o);
	return NULL;
}

int out_file_fd(const struct out_file *o)
{
	return o->fd;
}

/* Copy the spooled temporary into the in-place target. */
static int out_copy(struct out_file *o)
{
	char buf[1 << 16];
	ssize_t n, w, done;

	if (lseek(o->fd, 0, SEEK_SET) < 0)
		return -errno;
	for (;;) {
		n = read(o->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		for (done = 0; done < n; done += w) {
			w = write(o->dest, buf + done, n - done);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				return -errno;
		}
	}
}

/* Give the unnamed file a name beside the target; 0 or -errno. */
static int out_name(struct out_file *o, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
		return -errno;
	return 0;
}

static int out_commit_replace(struct out_file *o)
{
	char *dir, *tmp = NULL;
	int ret = 0, dfd, i;

	if (fsync(o->fd))
		return -errno;
	if (!o->named) {
		/* a new output is named at once: no rename, no window */
		ret = out_name(o, o->target);
		if (ret != -EEXIST)
			goto synced;
		for (i = 0; i < 100; i++) {
			free(tmp);
			if (asprintf(&tmp, "%s.%06lx", o->target,
				     (random() ^ (long)getpid() ^
				      (long)time(NULL)) & 0xffffff) < 0)
				return -ENOMEM;
			ret = out_name(o, tmp);
			if (ret != -EEXIST)
				break;
		}
		if (ret) {
			free(tmp);
			return ret;
		}
		out_pending(tmp);
		o->named = tmp;
	}
	if (rename(o->named, o->target))
		return -errno;
	out_pending(NULL);
	free(o->named);
	o->named = NULL;
synced:
	if (ret)
		return ret;
	dir = out_dir(o->target);
	dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	if (dfd >= 0) {
		/* some filesystems cannot sync a directory: not a failure */
		if (fsync(dfd) && errno != EINVAL && errno != EROFS)
			ret = -errno;
		close(dfd);
	}
	return ret;
}

/* What out_file_writeback() sends on at a time. */
#define OUT_WRITEBACK_STEP	((off_t)2 << 20)

void out_file_writeback(struct out_file *o)
{
	struct stat st;
	off_t end;

	if (!o->replace || fstat(o->fd, &st))
		return;
	end = st.st_size & ~(OUT_WRITEBACK_STEP - 1);
	if (end <= o->sent)
		return;
	/* only starts the writes: commit's fsync() waits for them */
	sync_file_range(o->fd, o->sent, end - o->sent, SYNC_FILE_RANGE_WRITE);
	o->sent = end;
}

int out_file_commit(struct out_file *o)
{
	int ret = 0;

	if (o->replace)
		ret = out_commit_replace(o);
	else if (o->spool)
		ret = out_copy(o);
	if (o->fd == o->dest)
		o->fd = -1;
	/* a write error of a device or NFS may only show on close */
	if (!ret && o->own_dest) {
		ret = close(o->dest) ? -errno : 0;
		o->dest = -1;
	}
	if (ret) {
		out_err(o, NULL, -ret);
		out_file_discard(o);
		return -1;
	}
	if (o->fd >= 0 && o->fd != o->dest && close(o->fd) && !o->spool) {
		o->fd = -1;
		out_err(o, NULL, errno);
		out_file_discard(o);
		return -1;
	}
	o->fd = -1;
	out_file_discard(o);
	return 0;
}

void out_file_discard(struct out_file *o)
{
	if (!o)
		return;
	if (o->fd >= 0 && o->fd != o->dest)
		close(o->fd);
	if (o->own_dest && o->dest >= 0)
		close(o->dest);
	if (o->named) {
		unlink(o->named);
		out_pending(NULL);
	}
	free(o->named);
	free(o->target);
	free(o);
}
