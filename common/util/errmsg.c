// SPDX-License-Identifier: LGPL-2.1-only
/*
 * errmsg.c - the first error of a long job, kept with its message.
 */
#include <errno.h>
#include <stdio.h>

#include "errmsg.h"

void errmsg_set(int *err, char *buf, size_t len, int e, const char *fmt, ...)
{
	va_list ap;

	if (*err)
		return;
	*err = e ? e : -EIO;
	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}
