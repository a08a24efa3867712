// SPDX-License-Identifier: GPL-2.0-only
/*
 * serve.c - one file over HTTP, once, on the loopback address (serve.h).
 *
 * libmicrohttpd parses the requests and sends the file (sendfile());
 * this file decides what each request gets.  The listening socket is
 * made here, so that what it is bound to is plain and a port in use is
 * said as such.  libmicrohttpd runs on this thread (MHD_run_wait()), a
 * quarter of a second at a time, so that a signal is seen at once.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve.h"
#include "trace-fxt.h"

/* How long one turn of the loop may wait, and an idle client. */
#define SERVE_TURN_MS		250
#define SERVE_IDLE_SECONDS	30
/* Clients at a time (a browser opens a few). */
#define SERVE_CLIENTS		8

struct serve {
	const struct serve_opts	*o;
	struct MHD_Daemon	*d;
	char			allow[256];	/* the origin, no path */
	char			path[512];	/* "/NAME" */
	struct MHD_Response	*file;
	int			fetching;	/* GETs being answered */
	bool			done;
	unsigned long long	refused;
};

/* Tags a connection answering GET with the file. */
static int fetch_tag;

static volatile sig_atomic_t serve_signal;

static void serve_on_signal(int sig)
{
	serve_signal = sig;
}

static void serve_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	trace_fxt_err("http: %s", msg);
}

/* The headers of every answer, as Perfetto's open_trace_in_ui sends. */
static void serve_headers(struct serve *s, struct MHD_Response *r)
{
	MHD_add_response_header(r, "Access-Control-Allow-Origin", s->allow);
	MHD_add_response_header(r, "Cache-Control", "no-cache");
}

static enum MHD_Result serve_answer(struct serve *s, struct MHD_Connection *c,
				    unsigned int status, const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	serve_headers(s, r);
	MHD_add_response_header(r, "Content-Type", "text/plain");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD, OPTIONS");
	if (status == MHD_HTTP_NO_CONTENT) {
		/* the preflight: what the trace processor's httpd answers */
		MHD_add_response_header(r, "Access-Control-Allow-Methods",
					"GET, HEAD, OPTIONS");
		MHD_add_response_header(r, "Access-Control-Allow-Headers", "*");
		MHD_add_response_header(r, "Access-Control-Max-Age", "86400");
		MHD_add_response_header(r, "Access-Control-Allow-Private-Network",
					"true");
	}
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result serve_request(void *cls, struct MHD_Connection *c,
				     const char *url, const char *method,
				     const char *version, const char *upload,
				     size_t *upload_size, void **req)
{
	struct serve *s = cls;
	const char *origin;

	origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	if (origin && strcasecmp(origin, s->allow)) {
		if (!s->refused++)
			trace_fxt_err("open: refused a request from %.200s: "
				      "only %s may fetch the trace", origin,
				      s->allow);
		return serve_answer(s, c, MHD_HTTP_FORBIDDEN,
				    "Origin not allowed\n");
	}
	if (!strcmp(method, MHD_HTTP_METHOD_OPTIONS))
		return serve_answer(s, c, MHD_HTTP_NO_CONTENT, "");
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return serve_answer(s, c, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "Method not allowed\n");
	if (strcmp(url, s->path))
		return serve_answer(s, c, MHD_HTTP_NOT_FOUND, "Not found\n");
	if (!strcmp(method, MHD_HTTP_METHOD_HEAD))
		return MHD_queue_response(c, MHD_HTTP_OK, s->file);
	if (s->fetching)
		return serve_answer(s, c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "Another client is fetching the trace\n");
	s->fetching++;
	*req = &fetch_tag;
	return MHD_queue_response(c, MHD_HTTP_OK, s->file);
}

static void serve_completed(void *cls, struct MHD_Connection *c, void **req,
			    enum MHD_RequestTerminationCode why)
{
	struct serve *s = cls;

	if (*req != &fetch_tag)
		return;
	*req = NULL;
	s->fetching--;
	if (why == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		s->done = true;
	else
		trace_fxt_err("open: a client stopped fetching the trace; "
			      "waiting for another");
}

/* The socket, listening on @o->host:@o->port only; -errno, said. */
static int serve_listen(const struct serve_opts *o)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(o->port),
	};
	int fd, one = 1, err;

	if (inet_pton(AF_INET, o->host, &sin.sin_addr) != 1) {
		trace_fxt_err("open: bad address %s", o->host);
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	/* a port left in TIME_WAIT by the last run is free to take */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, SERVE_CLIENTS))
		goto fail;
	return fd;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	if (err == EADDRINUSE)
		trace_fxt_err("open: %s:%u is in use (by another trace-fxt "
			      "open, or trace_processor_shell --httpd?); "
			      "Perfetto's UI fetches from that port only",
			      o->host, o->port);
	else
		trace_fxt_err("open: cannot listen on %s:%u: %s", o->host,
			      o->port, strerror(err));
	return -err;
}

/* The origin without its path: what Access-Control-Allow-Origin names. */
static void serve_origin(struct serve *s, const char *origin)
{
	const char *host = strstr(origin, "://");
	size_t n = host ? strcspn(host + 3, "/?#") + (host + 3 - origin) :
			  strlen(origin);

	snprintf(s->allow, sizeof(s->allow), "%.*s", (int)n, origin);
}

static void serve_signals(struct sigaction *old, bool restore)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = serve_on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (restore) {
			sigaction(sigs[i], &old[i], NULL);
			continue;
		}
		/* a client gone mid-answer must not end trace-fxt */
		sa.sa_handler = sigs[i] == SIGPIPE ? SIG_IGN : serve_on_signal;
		sigaction(sigs[i], &sa, &old[i]);
	}
}

struct serve *serve_start(const struct serve_opts *o, int listen_fd)
{
	/* no socket of its own: this one, or none (serve_add()) */
	struct MHD_OptionItem listen[] = {
		{ listen_fd < 0 ? MHD_OPTION_END : MHD_OPTION_LISTEN_SOCKET,
		  listen_fd, NULL },
		{ MHD_OPTION_END, 0, NULL },
	};
	struct serve *s = calloc(1, sizeof(*s));
	int file_fd = -1;

	if (!s)
		goto nomem;
	s->o = o;
	serve_origin(s, o->origin);
	snprintf(s->path, sizeof(s->path), "/%s", o->name);
	/* libmicrohttpd closes the descriptor it is given */
	file_fd = dup(o->fd);
	s->file = file_fd < 0 ? NULL :
		  MHD_create_response_from_fd_at_offset64(o->size, file_fd, 0);
	if (!s->file)
		goto nomem;
	serve_headers(s, s->file);
	MHD_add_response_header(s->file, "Content-Type",
				"application/octet-stream");
	s->d = MHD_start_daemon(MHD_USE_ERROR_LOG |
				(listen_fd < 0 ? MHD_USE_NO_LISTEN_SOCKET : 0),
				0, NULL, NULL, serve_request, s,
				MHD_OPTION_EXTERNAL_LOGGER, serve_log, NULL,
				MHD_OPTION_ARRAY, listen,
				MHD_OPTION_NOTIFY_COMPLETED, serve_completed, s,
				MHD_OPTION_CONNECTION_TIMEOUT,
				(unsigned int)SERVE_IDLE_SECONDS,
				MHD_OPTION_CONNECTION_LIMIT,
				(unsigned int)SERVE_CLIENTS,
				MHD_OPTION_END);
	if (!s->d) {
		MHD_destroy_response(s->file);
		free(s);
		trace_fxt_err("open: cannot start the HTTP server");
		return NULL;
	}
	return s;
nomem:
	if (file_fd >= 0)
		close(file_fd);
	free(s);
	trace_fxt_err("open: cannot serve the trace: %s", strerror(ENOMEM));
	return NULL;
}

int serve_add(struct serve *s, int fd)
{
	struct sockaddr_in peer = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return MHD_add_connection(s->d, fd, (struct sockaddr *)&peer,
				  sizeof(peer)) == MHD_YES ? 0 : -EIO;
}

int serve_run(struct serve *s, int ms)
{
	if (s->done)
		return 0;
	return MHD_run_wait(s->d, ms) == MHD_YES ? 1 : -EIO;
}

void serve_stop(struct serve *s)
{
	int fd;

	if (!s)
		return;
	/* the listening socket back from libmicrohttpd, closed at once */
	fd = MHD_quiesce_daemon(s->d);
	if (fd != MHD_INVALID_SOCKET)
		close(fd);
	MHD_stop_daemon(s->d);
	MHD_destroy_response(s->file);
	free(s);
}

int serve_once(const struct serve_opts *o)
{
	struct sigaction old[4];
	struct serve *s;
	int fd, ret = 1;

	fd = serve_listen(o);
	if (fd < 0)
		return fd;
	s = serve_start(o, fd);
	if (!s) {
		close(fd);
		return -EIO;
	}
	serve_signal = 0;
	serve_signals(old, false);
	if (o->ready)
		o->ready(o->priv);
	while (!serve_signal && (ret = serve_run(s, SERVE_TURN_MS)) > 0)
		if (o->tick)
			o->tick(o->priv);
	if (ret < 0)
		trace_fxt_err("open: the HTTP server failed");
	serve_stop(s);
	serve_signals(old, true);
	return !ret ? 0 : serve_signal ? serve_signal : -EIO;
}
