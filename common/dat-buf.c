// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-buf.c - the byte buffer the .dat writer builds sections in.
 *
 * Allocation failure is remembered in the buffer rather than returned by
 * every put, so that a section can be built with straight-line code and
 * checked once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-intern.h"

void dat_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

void dat_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

void dat_put_le64(uint8_t *p, uint64_t v)
{
	dat_put_le32(p, (uint32_t)v);
	dat_put_le32(p + 4, (uint32_t)(v >> 32));
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
		dat_put_le16(d, v);
}

void dat_buf_put_u32(struct dat_buf *b, uint32_t v)
{
	uint8_t *d = dat_buf_grow(b, 4);

	if (d)
		dat_put_le32(d, v);
}

void dat_buf_put_u64(struct dat_buf *b, uint64_t v)
{
	uint8_t *d = dat_buf_grow(b, 8);

	if (d)
		dat_put_le64(d, v);
}

void dat_buf_put_str(struct dat_buf *b, const char *s)
{
	dat_buf_put(b, s, strlen(s) + 1);
}

void dat_buf_free(struct dat_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
