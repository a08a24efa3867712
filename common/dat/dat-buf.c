// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-buf.c - the byte buffer the .dat writer builds sections in.
 *
 * Allocation failure is remembered in the buffer rather than returned by
 * every put, so that a section can be built with straight-line code and
 * checked once.  Numbers go in the buffer's byte order, the file's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-intern.h"

void dat_put16(uint8_t *p, uint16_t v, bool big)
{
	p[big] = v;
	p[!big] = v >> 8;
}

void dat_put32(uint8_t *p, uint32_t v, bool big)
{
	dat_put16(p + 2 * big, v, big);
	dat_put16(p + 2 * !big, v >> 16, big);
}

void dat_put64(uint8_t *p, uint64_t v, bool big)
{
	dat_put32(p + 4 * big, (uint32_t)v, big);
	dat_put32(p + 4 * !big, (uint32_t)(v >> 32), big);
}

static uint8_t *dat_buf_grow(struct dat_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return NULL;
	if (n > b->cap - b->len) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n) {
			if (cap > SIZE_MAX / 2) {
				b->err = -ENOMEM;
				return NULL;
			}
			cap *= 2;
		}
		p = realloc(b->data, cap);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->data = p;
		b->cap = cap;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

void dat_buf_put(struct dat_buf *b, const void *p, size_t n)
{
	uint8_t *d = dat_buf_grow(b, n);

	if (d && n)
		memcpy(d, p, n);
}

void dat_buf_put_zero(struct dat_buf *b, size_t n)
{
	uint8_t *d = dat_buf_grow(b, n);

	if (d && n)
		memset(d, 0, n);
}

void dat_buf_put_u16(struct dat_buf *b, uint16_t v)
{
	uint8_t *d = dat_buf_grow(b, 2);

	if (d)
		dat_put16(d, v, b->big);
}

void dat_buf_put_u32(struct dat_buf *b, uint32_t v)
{
	uint8_t *d = dat_buf_grow(b, 4);

	if (d)
		dat_put32(d, v, b->big);
}

void dat_buf_put_u64(struct dat_buf *b, uint64_t v)
{
	uint8_t *d = dat_buf_grow(b, 8);

	if (d)
		dat_put64(d, v, b->big);
}

void dat_buf_put_str(struct dat_buf *b, const char *s)
{
	dat_buf_put(b, s, strlen(s) + 1);
}

void dat_buf_free(struct dat_buf *b)
{
	bool big = b->big;

	free(b->data);
	memset(b, 0, sizeof(*b));
	b->big = big;
}
