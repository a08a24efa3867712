// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-cursor.c - the bytes the check walks (struct dc_cur): numbers,
 * strings and blobs taken from them only after their size was compared
 * with what is left of what contains them, and the first fault, named by
 * its offset.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "datcheck-intern.h"

int __attribute__((format(printf, 3, 4)))
dc_fail(struct dc_cur *c, size_t pos, const char *fmt, ...)
{
	struct dc_file *f = c->f;
	va_list ap;
	int n;

	if (f->ret)
		return f->ret;
	f->ret = -EBADMSG;
	if (c->inflated)
		n = snprintf(f->err, f->errlen, "offset 0x%llx: %s, byte %zu "
			     "decompressed: ", (unsigned long long)c->base,
			     c->in, pos);
	else
		n = snprintf(f->err, f->errlen, "offset 0x%llx: ",
			     (unsigned long long)(c->base + pos));
	if (n < 0 || (size_t)n >= f->errlen)
		return f->ret;
	va_start(ap, fmt);
	vsnprintf(f->err + n, f->errlen - n, fmt, ap);
	va_end(ap);
	return f->ret;
}

const uint8_t *dc_take(struct dc_cur *c, uint64_t n, const char *what)
{
	const uint8_t *p;

	if (c->f->ret)
		return NULL;
	if (n > c->len - c->pos) {
		dc_fail(c, c->pos, "%s (%llu bytes) runs past the end of %s "
			"(%zu bytes left)", what, (unsigned long long)n, c->in,
			c->len - c->pos);
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

int dc_u(struct dc_cur *c, unsigned int n, const char *what,
	 uint64_t *v)
{
	const uint8_t *p = dc_take(c, n, what);

	*v = p ? dc_num(c->f, p, n) : 0;
	return p ? 0 : -EBADMSG;
}

const char *dc_str(struct dc_cur *c, const char *what)
{
	const char *s = (const char *)c->p + c->pos;
	size_t n;

	if (c->f->ret)
		return NULL;
	n = strnlen(s, c->len - c->pos);
	if (n == c->len - c->pos) {
		dc_fail(c, c->pos, "%s has no terminating NUL before the end "
			"of %s", what, c->in);
		return NULL;
	}
	c->pos += n + 1;
	return s;
}

/* A size-prefixed blob: @sz-byte size, then that many bytes. */
int dc_blob(struct dc_cur *c, unsigned int sz, const char *what)
{
	uint64_t n;

	if (dc_u(c, sz, what, &n))
		return -EBADMSG;
	return dc_take(c, n, what) ? 0 : -EBADMSG;
}
