/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * errmsg.h - the first error of a long job, kept with its message.
 *
 * A conversion stops at its first fault, but the fault is often noticed
 * several calls below the one that reports it, and the callers in
 * between only see a negative errno.  The deepest caller that knows what
 * went wrong says so here; the first message wins, later ones (the same
 * failure seen from further up) are dropped.
 */
#ifndef _ERRMSG_H
#define _ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

/**
 * errmsg_set() - record the first error and its message
 * @err: where the error is kept; left alone if already not 0
 * @buf: where the message goes, as snprintf() writes it
 * @len: size of @buf (0: no message is kept)
 * @e: the negative errno; 0 stands for -EIO
 * @fmt: printf-style message
 */
void errmsg_set(int *err, char *buf, size_t len, int e, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif /* _ERRMSG_H */
