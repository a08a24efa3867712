/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * serve.h - hand one file to a web page over HTTP, once, on the loopback
 * address: how `trace-fxt open` gives a trace to Perfetto's UI, as
 * Perfetto's own tools/open_trace_in_ui does (the UI may fetch plain
 * http only from 127.0.0.1:9001).
 *
 * GET /NAME answers the file with Access-Control-Allow-Origin: ORIGIN and
 * Cache-Control: no-cache (every answer carries both), and the server
 * stops once one such answer has been sent whole.  A request from
 * another origin is refused (403), as Perfetto's trace processor refuses
 * it; one with no Origin at all (not a browser's: curl) is served.  While
 * one client fetches the file a second is refused (503); a browser's
 * CORS preflight (OPTIONS) is answered as the trace processor answers it,
 * Private Network Access included.  Other paths are 404, other methods
 * 405.  The HTTP itself is libmicrohttpd's.
 */
#ifndef _SERVE_H
#define _SERVE_H

#include <sys/types.h>

struct serve_opts {
	int		fd;		/* the file, read from offset 0 */
	off_t		size;
	const char	*name;		/* served at /NAME */
	const char	*host;		/* the address to listen on */
	unsigned int	port;
	const char	*origin;	/* the one a browser may fetch from */
	/* called once listening, then about every quarter of a second */
	void		(*ready)(void *priv);
	void		(*tick)(void *priv);
	void		*priv;
};

/*
 * Serve @o->fd until it has been fetched once (0), or SIGINT, SIGTERM
 * or SIGHUP came (its number: the caller cleans up and dies of it), or
 * the server cannot run (-errno, the reason said on stderr).
 */
int serve_once(const struct serve_opts *o);

/*
 * serve_once() in its steps, for a caller that brings its own
 * connections (tests/fuzz/fuzz-serve.c): a server answering on
 * @listen_fd, or on what serve_add() hands it when -1 (NULL, the
 * reason said, when it cannot start); one turn of at most @ms
 * milliseconds (1, then 0 once the file has been fetched, -EIO when the
 * server failed); the server stopped and freed.
 */
struct serve;
struct serve *serve_start(const struct serve_opts *o, int listen_fd);
int serve_add(struct serve *s, int fd);
int serve_run(struct serve *s, int ms);
void serve_stop(struct serve *s);

#endif /* _SERVE_H */
