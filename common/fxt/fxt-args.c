// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-args.c - the argument list of fxt/<type> events in a .dat, both ways
 * (layout in fxt-args.h).
 */
#include <string.h>

#include "fxt-args.h"

/* Bytes of an argument's value after its name; -1 for an unknown type. */
static int value_len(unsigned int type)
{
	switch (type) {
	case FXT_ARG_NULL:
		return 0;
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
		return 4;
	case FXT_ARG_BOOL:
		return 1;
	case FXT_ARG_STRING:
		return 4;	/* the length; the bytes follow */
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return 8;
	}
	return -1;
}

static uint64_t get_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* The value as its entry stores it. */
static uint64_t value_of(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
		return a->u32;
	case FXT_ARG_BOOL:
		return a->b;
	case FXT_ARG_STRING:
		return a->str.len;
	case FXT_ARG_NULL:
		return 0;
	}
	return a->u64;
}

size_t fxt_args_encode(const struct fxt_arg *args, unsigned int nargs,
		       uint8_t *buf, size_t cap)
{
	size_t need = 0, at = 0, nlen;
	unsigned int i, pass;
	int vlen;

	/* pass 0 measures; pass 1 writes, only if it all fits */
	for (pass = 0; pass < 2; pass++) {
		if (pass && need > cap)
			break;
		for (i = 0; i < nargs; i++) {
			const struct fxt_arg *a = &args[i];

			vlen = value_len(a->type);
			if (vlen < 0)
				continue;	/* its bytes mean nothing here */
			nlen = a->name.len > 0xffff ? 0xffff : a->name.len;
			if (!pass) {
				need += 4 + nlen + vlen;
				if (a->type == FXT_ARG_STRING)
					need += a->str.len;
				continue;
			}
			buf[at] = a->type;
			buf[at + 1] = 0;
			put_le(buf + at + 2, nlen, 2);
			at += 4;
			memcpy(buf + at, a->name.ptr, nlen);
			at += nlen;
			put_le(buf + at, value_of(a), vlen);
			at += vlen;
			if (a->type == FXT_ARG_STRING && a->str.len) {
				memcpy(buf + at, a->str.ptr, a->str.len);
				at += a->str.len;
			}
		}
	}
	return need;
}

int fxt_args_decode(const void *buf, size_t len, struct fxt_arg *args,
		    unsigned int max, unsigned int *ndone)
{
	const uint8_t *p = buf, *end = p + len;
	unsigned int n = 0;
	size_t nlen, slen;
	struct fxt_arg *a;
	int vlen;

	*ndone = 0;
	while (p < end && n < max) {
		if (end - p < 4)
			return -1;
		a = &args[n];
		memset(a, 0, sizeof(*a));
		a->type = p[0];
		nlen = get_le(p + 2, 2);
		p += 4;
		if ((size_t)(end - p) < nlen)
			return -1;
		a->name = fxt_str_make((const char *)p, nlen);
		p += nlen;
		vlen = value_len(a->type);
		if (vlen < 0 || end - p < vlen)
			return -1;
		if (a->type == FXT_ARG_STRING) {
			slen = get_le(p, 4);
			p += 4;
			if ((size_t)(end - p) < slen)
				return -1;
			a->str = fxt_str_make((const char *)p, slen);
			p += slen;
			vlen = 0;
		} else if (vlen == 4) {
			a->u32 = get_le(p, 4);
		} else if (vlen == 8) {
			a->u64 = get_le(p, 8);
		} else if (vlen == 1) {
			a->b = p[0] != 0;
		}
		p += vlen;
		*ndone = ++n;
	}
	return n;
}
