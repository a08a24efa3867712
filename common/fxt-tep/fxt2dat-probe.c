// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-probe.c - does libtraceevent survive parsing a format text, in
 * a time a format's parse may take?
 *
 * libtraceevent 1.7.1 crashes on some broken formats (fxt2dat-format.c
 * says which), so every input's format is asked of a child process first,
 * which parses it on its copy of the tep: a crash there costs the child
 * only, and so does a parse that takes longer than F2D_PARSE_MS (1.7.1
 * appends each token of a type or an argument to the ones before it, in
 * time quadratic in their number: minutes for a format of a few
 * megabytes, hog-format.fxt), or than what is left of F2D_PARSE_TOTAL_MS
 * for the whole file: the child is killed and the format taken for one
 * that crashes it.  One child stays and is asked of every format in
 * turn; one that died is replaced, forked from the host as it is then.
 * (A child a format, forked from a process holding a KernelShark load's
 * rows, cost more than the rest of the load.)  libtraceevent's
 * complaints come from the host's own parse, if it is made; the child's
 * go nowhere.
 *
 * A host that knows which formats it will need may ask ahead
 * (f2d_probe_ahead()): the child parses them on a core of its own while
 * the host reads on, and the host later waits only for answers not yet
 * in, where a question and its answer each cost a round trip of two
 * processes (most of a KernelShark load of a converted file's 126
 * formats).  The child answers in the order asked, so the host may keep
 * only a window of questions in flight: enough bytes and answers that
 * neither side's socket fills while the other waits on it.  The child's
 * tep holds the formats in the order asked, the host's in the order it
 * parses them; a format's parse reads no other event's, so the verdicts
 * hold for either.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "fxt2dat.h"

/*
 * How long the child may parse one format, and all of a file's (real
 * formats take well under a millisecond each; the .dat direction gives
 * libtracecmd 30 s for a kernel's 2300).
 */
#define F2D_PARSE_MS		2000
#define F2D_PARSE_TOTAL_MS	10000

/* The questions in flight at most: answers, and the bytes asked. */
#define PROBE_WINDOW_ASKS	32
#define PROBE_WINDOW_BYTES	(64 * 1024)

struct probe_msg {
	uint32_t	system_len, text_len;
	int32_t		long_size;
	int32_t		big_endian;
};

enum probe_verdict { ASK_WAITING, ASK_SURVIVED, ASK_DIED };

struct probe_ask {
	char		*system;
	char		*text;
	size_t		len;
	uint64_t	hash;
	enum probe_verdict verdict;
};

struct f2d_probe {
	pid_t			pid;		/* 0: no child */
	int			fd;
	/* the time spent waiting for answers, all told (us) */
	int64_t			waited_us;
	/*
	 * Every question, in the order asked: [0, answered) have their
	 * verdicts, [answered, sent) are in flight to the live child,
	 * [sent, nr) wait for room in the window.
	 */
	struct probe_ask	*asks;
	size_t			nr, cap, answered, sent;
	size_t			flight_bytes;
	/* a question's hash -> its last index + 1 */
	struct u64_map		by_hash;
};

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One byte from @fd within @us microseconds: false on timeout or EOF. */
static bool probe_read_within(int fd, char *c, int64_t us)
{
	int64_t end = now_us() + us, left;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t r;
	int ret;

	for (;;) {
		left = end - now_us();
		if (left <= 0)
			return false;
		ret = poll(&pfd, 1, (int)((left + 999) / 1000));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return false;
		r = read(fd, c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		return r == 1;
	}
}

static bool probe_read(int fd, void *p, size_t n)
{
	ssize_t r;

	while (n) {
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p = (char *)p + r;
		n -= r;
	}
	return true;
}

static bool probe_send(int fd, const void *p, size_t n)
{
	ssize_t r;

	while (n) {
		r = send(fd, p, n, MSG_NOSIGNAL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p = (const char *)p + r;
		n -= r;
	}
	return true;
}

/* The child: parse what comes, say 'k' after each; end at EOF. */
static void __attribute__((noreturn)) probe_serve(struct f2d_ctx *ctx, int fd)
{
	struct probe_msg m;
	char *sys, *text;
	int null;

	/*
	 * A crash here is the child's plain death: not one for a crash
	 * handler of the host (a sanitizer's, a fuzzer's) to report as its
	 * own.
	 */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	while (probe_read(fd, &m, sizeof(m))) {
		sys = malloc(m.system_len + 1);
		text = malloc(m.text_len + 1);
		if (!sys || !text || !probe_read(fd, sys, m.system_len) ||
		    !probe_read(fd, text, m.text_len))
			_exit(1);
		sys[m.system_len] = '\0';
		text[m.text_len] = '\0';
		tep_set_long_size(ctx->tep, m.long_size);
		tep_set_file_bigendian(ctx->tep, m.big_endian ?
				       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_parse_event(ctx->tep, text, m.text_len, sys);
		free(sys);
		free(text);
		if (!probe_send(fd, "k", 1))
			_exit(1);
	}
	_exit(0);
}

/*
 * The child ends: killed if it still has questions (it may be parsing),
 * else at EOF.  The questions it did not answer wait for the next one.
 */
static void child_stop(struct f2d_probe *p)
{
	if (!p->pid)
		return;
	if (p->answered < p->sent)
		kill(p->pid, SIGKILL);
	close(p->fd);
	while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
	p->sent = p->answered;
	p->flight_bytes = 0;
}

static bool child_start(struct f2d_ctx *ctx, struct f2d_probe *p)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return false;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (!pid) {
		close(sv[0]);
		probe_serve(ctx, sv[1]);
	}
	close(sv[1]);
	p->pid = pid;
	p->fd = sv[0];
	return true;
}

static uint64_t ask_hash(const char *system, const char *text, size_t len)
{
	/* the system's NUL between them */
	return u64_map_key(u64_map_key(U64_MAP_KEY_FIRST, system,
				       strlen(system) + 1), text, len);
}

/* The index of the question of @system and @text, or SIZE_MAX. */
static size_t ask_find(struct f2d_probe *p, uint64_t hash,
		       const char *system, const char *text, size_t len)
{
	uint64_t at = u64_map_get(&p->by_hash, hash);
	struct probe_ask *a;

	if (!at || at > p->nr)
		return SIZE_MAX;
	a = &p->asks[at - 1];
	if (a->hash != hash || a->len != len || strcmp(a->system, system) ||
	    memcmp(a->text, text, len))
		return SIZE_MAX;
	return (size_t)(at - 1);
}

static size_t ask_bytes(const struct probe_ask *a)
{
	return sizeof(struct probe_msg) + strlen(a->system) + a->len;
}

/*
 * The next answer in, within the time a format may take; a child that
 * died on its question or took too long is stopped, and the questions
 * after it wait for the next.
 */
static void answer_next(struct f2d_probe *p)
{
	int64_t left = F2D_PARSE_TOTAL_MS * 1000LL - p->waited_us, start;
	struct probe_ask *a = &p->asks[p->answered];
	bool ok;
	char k;

	start = now_us();
	ok = left > 0 &&
	     probe_read_within(p->fd, &k, left < F2D_PARSE_MS * 1000LL ?
				      left : F2D_PARSE_MS * 1000LL) &&
	     k == 'k';
	p->waited_us += now_us() - start;
	a->verdict = ok ? ASK_SURVIVED : ASK_DIED;
	p->answered++;
	p->flight_bytes -= ask_bytes(a);
	if (ok)
		return;
	/* it may be parsing still: killed, whatever is in flight */
	kill(p->pid, SIGKILL);
	child_stop(p);
}

/*
 * The waiting questions sent while the window has room (a child started
 * if none is); with @must, the first of them is sent even if answers
 * have to be read first.  False when the first could not be sent.
 */
static bool send_more(struct f2d_ctx *ctx, struct f2d_probe *p, bool must)
{
	struct probe_msg m = {
		.long_size = tep_get_long_size(ctx->tep),
		.big_endian = tep_is_file_bigendian(ctx->tep),
	};
	struct probe_ask *a;
	size_t bytes;

	while (p->sent < p->nr) {
		if (p->waited_us >= F2D_PARSE_TOTAL_MS * 1000LL)
			return false;
		a = &p->asks[p->sent];
		bytes = ask_bytes(a);
		/* no room: answers first, a large question alone */
		if (p->pid && p->answered < p->sent &&
		    (p->sent - p->answered >= PROBE_WINDOW_ASKS ||
		     p->flight_bytes + bytes > PROBE_WINDOW_BYTES)) {
			if (!must)
				return true;
			answer_next(p);
			continue;
		}
		if (!p->pid && !child_start(ctx, p))
			return false;
		m.system_len = (uint32_t)strlen(a->system);
		m.text_len = (uint32_t)a->len;
		p->sent++;
		p->flight_bytes += bytes;
		if (!probe_send(p->fd, &m, sizeof(m)) ||
		    !probe_send(p->fd, a->system, m.system_len) ||
		    !probe_send(p->fd, a->text, a->len)) {
			/*
			 * A child that cannot be asked: it died on a question
			 * in flight (all are asked again), or this one is
			 * taken for a text it dies on.
			 */
			p->sent--;
			p->flight_bytes -= bytes;
			if (p->sent == p->answered) {
				a->verdict = ASK_DIED;
				p->answered++;
				p->sent++;
			}
			child_stop(p);
			if (a->verdict == ASK_DIED)
				return false;
			continue;
		}
		must = false;
	}
	return true;
}

/*
 * The question of @system and @text, added to those waiting: its index,
 * or SIZE_MAX (out of memory, a text too long to ask).
 */
static size_t ask_add(struct f2d_probe *p, uint64_t hash, const char *system,
		      const char *text, size_t len)
{
	struct probe_ask *a;
	uint64_t *at;

	if (len > UINT32_MAX || strlen(system) > UINT32_MAX)
		return SIZE_MAX;
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;

		a = realloc(p->asks, cap * sizeof(*a));
		if (!a)
			return SIZE_MAX;
		p->asks = a;
		p->cap = cap;
	}
	a = &p->asks[p->nr];
	a->system = strdup(system);
	a->text = malloc(len ? len : 1);
	at = a->system && a->text ? u64_map_put(&p->by_hash, hash) : NULL;
	if (!at) {
		free(a->system);
		free(a->text);
		return SIZE_MAX;
	}
	memcpy(a->text, text, len);
	a->len = len;
	a->hash = hash;
	a->verdict = ASK_WAITING;
	*at = ++p->nr;
	return p->nr - 1;
}

/* Question @i, waiting, becomes the next to be sent. */
static void ask_first(struct f2d_probe *p, size_t i)
{
	struct u64_map_slot *s;
	struct probe_ask t;

	if (i == p->sent)
		return;
	t = p->asks[i];
	p->asks[i] = p->asks[p->sent];
	p->asks[p->sent] = t;
	/* both are in the map (unless another text shares a hash) */
	s = u64_map_probe(&p->by_hash, p->asks[i].hash);
	if (s->val)
		s->val = i + 1;
	s = u64_map_probe(&p->by_hash, t.hash);
	if (s->val)
		s->val = p->sent + 1;
}

static struct f2d_probe *probe_of(struct f2d_ctx *ctx)
{
	if (!ctx->probe)
		ctx->probe = calloc(1, sizeof(*ctx->probe));
	return ctx->probe;
}

int f2d_probe_start(struct f2d_ctx *ctx)
{
	struct f2d_probe *p = probe_of(ctx);

	if (!p)
		return -ENOMEM;
	return p->pid || child_start(ctx, p) ? 0 : -EAGAIN;
}

int f2d_probe_ahead(struct f2d_ctx *ctx, const char *system,
		    const char *text, size_t len)
{
	struct f2d_probe *p = probe_of(ctx);
	uint64_t hash = ask_hash(system, text, len);

	if (!p)
		return -ENOMEM;
	if (ask_find(p, hash, system, text, len) != SIZE_MAX)
		return 0;
	if (ask_add(p, hash, system, text, len) == SIZE_MAX)
		return -ENOMEM;
	send_more(ctx, p, false);
	return 0;
}

bool f2d_probe_survives(struct f2d_ctx *ctx, const char *system,
			const char *text, size_t len)
{
	struct f2d_probe *p = probe_of(ctx);
	uint64_t hash = ask_hash(system, text, len);
	size_t i;

	if (!p)
		return false;
	i = ask_find(p, hash, system, text, len);
	if (i == SIZE_MAX)
		i = ask_add(p, hash, system, text, len);
	if (i == SIZE_MAX)
		return false;
	while (p->asks[i].verdict == ASK_WAITING) {
		/* not sent yet: sent before the others waiting */
		if (i >= p->sent) {
			ask_first(p, i);
			i = p->sent;
			if (!send_more(ctx, p, true) && i >= p->sent)
				return false;
			continue;
		}
		/* in flight: the answers before its own come first */
		answer_next(p);
		/* sent again, later, when its child died on another */
		send_more(ctx, p, false);
	}
	return p->asks[i].verdict == ASK_SURVIVED;
}

size_t f2d_probe_asked(const struct f2d_ctx *ctx)
{
	return ctx->probe ? ctx->probe->nr : 0;
}

void f2d_probe_stop(struct f2d_ctx *ctx)
{
	struct f2d_probe *p = ctx->probe;
	size_t i;

	if (!p)
		return;
	child_stop(p);
	for (i = 0; i < p->nr; i++) {
		free(p->asks[i].system);
		free(p->asks[i].text);
	}
	free(p->asks);
	u64_map_free(&p->by_hash);
	free(p);
	ctx->probe = NULL;
}
