// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-serve.c - libFuzzer target: what trace-fxt open's server does
 * with whatever a client sends it - serve.c's answers on libmicrohttpd's
 * parsing, in process.  Each input is one client's bytes, written into
 * a socketpair whose other end the server was handed (serve_add()), then
 * the client's half closed; the server runs until it has answered and
 * closed, or the turns run out.  A sanitizer stops the run on a fault;
 * a server that never lets go of the client is a timeout.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How many turns a client gets (a turn ends when nothing is to do). */
#define FUZZ_TURNS	2000

/* msg.c's, quiet: the server's messages are not what is tested. */
void trace_fxt_err(const char *fmt, ...)
{
}

static const char trace[] = "\x10\x00\x04\x46\x78\x54\x16\x00 a trace";
static int trace_fd = -1;

static int setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	trace_fd = memfd_create("trace", 0);
	if (trace_fd < 0 ||
	    write(trace_fd, trace, sizeof(trace)) != (ssize_t)sizeof(trace))
		return -1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_opts o = {
		.size = sizeof(trace),
		.name = "t.fxt",
		.host = "127.0.0.1",
		.port = 9001,
		.origin = "https://ui.perfetto.dev",
	};
	struct serve *s;
	size_t sent = 0;
	char buf[4096];
	int sv[2], i, ret;
	ssize_t n;

	if (trace_fd < 0 && setup())
		return 0;
	o.fd = trace_fd;
	s = serve_start(&o, -1);
	if (!s)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv)) {
		serve_stop(s);
		return 0;
	}
	if (serve_add(s, sv[0])) {
		close(sv[1]);
		serve_stop(s);
		return 0;
	}
	for (i = 0; i < FUZZ_TURNS; i++) {
		if (sent < size) {
			n = write(sv[1], data + sent, size - sent);
			if (n > 0)
				sent += n;
			if (sent == size)
				shutdown(sv[1], SHUT_WR);
		} else if (!size && !i) {
			shutdown(sv[1], SHUT_WR);
		}
		ret = serve_run(s, 0);
		n = read(sv[1], buf, sizeof(buf));
		if (ret <= 0 || !n || (n < 0 && errno != EAGAIN))
			break;
	}
	close(sv[1]);
	serve_stop(s);
	return 0;
}
