// SPDX-License-Identifier: LGPL-2.1-only
/*
 * pb.c - the protocol buffers wire format: the writer's out-of-line half
 * and the reader (pb.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

bool pb_grow(struct pb_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return false;
	if (b->cap - b->len >= n)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		goto fail;
	b->p = p;
	b->cap = cap;
	return true;
fail:
	b->err = -ENOMEM;
	return false;
}

void pb_free(struct pb_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v)
{
	uint8_t *p;
	int i;

	if (!pb_room(b, PB_VARINT_MAX + 8))
		return;
	p = pb_put_varint(b->p + b->len, pb_tag(field, PB_FIXED64));
	for (i = 0; i < 8; i++)
		*p++ = (uint8_t)(v >> (8 * i));
	b->len = p - b->p;
}

void pb_double(struct pb_buf *b, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_fixed64(b, field, bits);
}

void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t len)
{
	uint8_t *p;

	if (len > SIZE_MAX - 2 * PB_VARINT_MAX ||
	    !pb_room(b, 2 * PB_VARINT_MAX + len))
		return;
	p = pb_put_varint(b->p + b->len, pb_tag(field, PB_LEN));
	p = pb_put_varint(p, len);
	if (len)
		memcpy(p, data, len);
	b->len = p + len - b->p;
}

size_t pb_open(struct pb_buf *b, uint32_t field)
{
	if (!pb_room(b, PB_VARINT_MAX + 1))
		return b->len;
	b->len = pb_put_varint(b->p + b->len, pb_tag(field, PB_LEN)) - b->p;
	b->p[b->len++] = 0;	/* the length, one byte until pb_close() */
	return b->len;
}

void pb_close(struct pb_buf *b, size_t mark)
{
	size_t len, n;

	if (b->err)
		return;
	len = b->len - mark;
	if (len < 0x80) {
		b->p[mark - 1] = (uint8_t)len;
		return;
	}
	/* a longer length: move the body up by what it needs beyond one */
	n = pb_varint_size(len);
	if (!pb_room(b, n - 1))
		return;
	memmove(b->p + mark - 1 + n, b->p + mark, len);
	pb_put_varint(b->p + mark - 1, len);
	b->len += n - 1;
}

long pb_packed_count(const struct pb_field *f)
{
	const uint8_t *p, *end;
	uint64_t v;
	long n = 0;

	if (f->wt != PB_LEN)
		return -EBADMSG;
	if (!f->len)
		return 0;
	p = f->p;
	end = f->p + f->len;
	while (p < end) {
		if (pb_read_varint(&p, end, &v))
			return -EBADMSG;
		n++;
	}
	return n;
}
