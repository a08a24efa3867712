// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-args.c - the fxt events' argument list, decoded.
 *
 * Every read is checked against the field's length: the bytes come from
 * a file, and a short or corrupt list must end the decoding, not the
 * reader.
 */
#include <string.h>

#include "fxt-args.h"

static uint64_t get_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int fxt_args_decode(const void *buf, size_t len, struct fxt_arg *args,
		    unsigned int max, unsigned int *ndone)
{
	const uint8_t *p = buf, *end = p + len;
	unsigned int n = 0, vlen;
	size_t nlen, slen;
	struct fxt_arg *a;

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
		switch (a->type) {
		case FXT_ARG_NULL:
			vlen = 0;
			break;
		case FXT_ARG_INT32:
		case FXT_ARG_UINT32:
			vlen = 4;
			break;
		case FXT_ARG_BOOL:
			vlen = 1;
			break;
		case FXT_ARG_STRING:
			if (end - p < 4)
				return -1;
			slen = get_le(p, 4);
			p += 4;
			if ((size_t)(end - p) < slen)
				return -1;
			a->str = fxt_str_make((const char *)p, slen);
			p += slen;
			vlen = 0;
			break;
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
		case FXT_ARG_DOUBLE:
		case FXT_ARG_POINTER:
		case FXT_ARG_KOID:
			vlen = 8;
			break;
		default:
			return -1;
		}
		if ((size_t)(end - p) < vlen)
			return -1;
		if (vlen == 4)
			a->u32 = get_le(p, 4);
		else if (vlen == 8)
			a->u64 = get_le(p, 8);
		else if (vlen == 1)
			a->b = p[0] != 0;
		p += vlen;
		*ndone = ++n;
	}
	return n;
}
