/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * pb.h - the protocol buffers wire format, written into a growing buffer
 * and read back.
 *
 * Only what a producer of Perfetto packets needs (the messages' field
 * numbers are perfetto-proto.h's): varints, fixed64, length-delimited
 * fields and nested messages.  Writing appends straight to one buffer,
 * with no schema and no intermediate objects: a nested message is
 * opened with one byte kept for its length, which pb_close() fills in,
 * moving the body up in the rare case the length needs more bytes (a
 * body of 128 bytes or more).  Every length is the shortest varint, as
 * every protobuf library writes it.
 *
 * Reading walks the fields of one message, checking each against the
 * bytes it has: a field that runs past them, a varint of more than ten
 * bytes, field number 0 or a wire type protobuf has retired (groups, 3
 * and 4) or never defined (6, 7) is -EBADMSG, never a read out of
 * bounds.
 *
 * A writer whose allocation failed stays failed (pb_buf.err) and writes
 * nothing more; its caller checks once, at the end.
 */
#ifndef _PB_H
#define _PB_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pb_wire_type {
	PB_VARINT	= 0,
	PB_FIXED64	= 1,
	PB_LEN		= 2,
	PB_FIXED32	= 5,
};

/* The longest varint: a 64-bit value, 7 bits a byte. */
#define PB_VARINT_MAX	10

struct pb_buf {
	uint8_t		*p;
	size_t		len;
	size_t		cap;
	int		err;	/* -ENOMEM once an allocation failed */
};

/**
 * pb_grow() - make room in a buffer
 * @b: the buffer
 * @n: bytes wanted past its end
 *
 * Return: true when @n bytes fit, false (and b->err set) when memory
 * ran out or the buffer had already failed.
 */
bool pb_grow(struct pb_buf *b, size_t n);

/**
 * pb_free() - release a buffer's memory; it is empty and usable again
 * @b: the buffer
 */
void pb_free(struct pb_buf *b);

static inline bool pb_room(struct pb_buf *b, size_t n)
{
	return b->cap - b->len >= n || pb_grow(b, n);
}

/* @v as a varint at @p (room for PB_VARINT_MAX); its end. */
static inline uint8_t *pb_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* How many bytes @v takes as a varint. */
static inline size_t pb_varint_size(uint64_t v)
{
	/* 7 bits a byte: the bits up to the highest set one, at least one */
	return 1 + (size_t)(63 - __builtin_clzll(v | 1)) / 7;
}

/**
 * pb_varint() - a bare varint, no tag (an element of a packed field)
 * @b: the buffer
 * @v: the value
 */
static inline void pb_varint(struct pb_buf *b, uint64_t v)
{
	if (pb_room(b, PB_VARINT_MAX))
		b->len = pb_put_varint(b->p + b->len, v) - b->p;
}

static inline uint64_t pb_tag(uint32_t field, enum pb_wire_type wt)
{
	return (uint64_t)field << 3 | wt;
}

/**
 * pb_uint() - a varint field: uint32/64, an enum, a bool
 * @b: the buffer
 * @field: its number
 * @v: its value
 */
static inline void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	uint8_t *p;

	if (!pb_room(b, 2 * PB_VARINT_MAX))
		return;
	p = pb_put_varint(b->p + b->len, pb_tag(field, PB_VARINT));
	b->len = pb_put_varint(p, v) - b->p;
}

/**
 * pb_int() - an int32 or int64 field
 * @b: the buffer
 * @field: its number
 * @v: its value; a negative one is its 64-bit two's complement (ten
 *     bytes), as protobuf writes int32 and int64 (not sint32/64)
 */
static inline void pb_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

/**
 * pb_fixed64() - a fixed64 field (a double's bits, little endian)
 * @b: the buffer
 * @field: its number
 * @v: the 64 bits
 */
void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v);

/**
 * pb_double() - a double field
 * @b: the buffer
 * @field: its number
 * @v: its value
 */
void pb_double(struct pb_buf *b, uint32_t field, double v);

/**
 * pb_bytes() - a length-delimited field: string, bytes, a message
 *		already encoded
 * @b: the buffer
 * @field: its number
 * @data: its bytes
 * @len: how many
 */
void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t len);

/**
 * pb_open() - start a nested message (or a packed field)
 * @b: the buffer
 * @field: its number
 *
 * Return: the mark pb_close() takes: where the body starts.
 */
size_t pb_open(struct pb_buf *b, uint32_t field);

/**
 * pb_close() - end what pb_open() started, its length filled in
 * @b: the buffer
 * @mark: what pb_open() returned
 *
 * Messages nest: close the innermost first.
 */
void pb_close(struct pb_buf *b, size_t mark);

/*
 * One field as pb_next() read it.  @id and @wt are apart: side by side,
 * GCC tests "id == N && wt == W" with one 8-byte load of the two 4-byte
 * stores pb_next() just made, which the CPU cannot forward (a stall of
 * a fifth of a packet reader's time).
 */
struct pb_field {
	uint32_t		id;
	uint64_t		v;	/* varint, fixed64, fixed32 */
	enum pb_wire_type	wt;
	const uint8_t		*p;	/* PB_LEN: the bytes */
	size_t			len;
};

struct pb_reader {
	const uint8_t	*p;
	const uint8_t	*end;
};

static inline void pb_reader_init(struct pb_reader *r, const void *data,
				  size_t len)
{
	/* no bytes may come as NULL: NULL + 0 is no pointer in C */
	r->p = data;
	r->end = data ? r->p + len : r->p;
}

/**
 * pb_read_varint() - one varint
 * @p: where it starts; moved past it
 * @end: the end of what may be read
 * @v: its value
 *
 * Return: 0, or -EBADMSG when it runs past @end or past ten bytes.
 */
static inline __attribute__((always_inline)) int
pb_read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t x = 0;
	unsigned int shift;

	/* tags and small numbers, most of a trace's varints: one byte */
	if (q < end && !(*q & 0x80)) {
		*v = *q;
		*p = q + 1;
		return 0;
	}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Up to eight bytes (timestamps, lengths, pids: 56 bits) read as
	 * one word: the first byte without the top bit ends the varint,
	 * and its seven-bit groups are packed in three steps.
	 */
	if (end - q >= 8) {
		uint64_t w, last;

		memcpy(&w, q, 8);
		last = ~w & 0x8080808080808080ULL;
		if (last) {
			w &= last ^ (last - 1);
			w = (w & 0x007f007f007f007fULL) |
			    (w & 0x7f007f007f007f00ULL) >> 1;
			w = (w & 0x00003fff00003fffULL) |
			    (w & 0x3fff00003fff0000ULL) >> 2;
			w = (w & 0x000000000fffffffULL) |
			    (w & 0x0fffffff00000000ULL) >> 4;
			*v = w;
			*p = q + (__builtin_ctzll(last) >> 3) + 1;
			return 0;
		}
	}
#endif
	for (shift = 0; shift < 7 * PB_VARINT_MAX; shift += 7) {
		if (q >= end)
			return -EBADMSG;
		x |= (uint64_t)(*q & 0x7f) << shift;
		if (!(*q++ & 0x80)) {
			*p = q;
			*v = x;
			return 0;
		}
	}
	return -EBADMSG;
}

/**
 * pb_next() - the next field of a message
 * @r: the reader
 * @f: the field read
 *
 * Always inline: a trace's readers call it for each of millions of
 * fields, and GCC left some of those calls out of line (the field then
 * goes through memory: a sixth of the diverse pair's listing).
 *
 * Return: 1 for a field, 0 at the message's end, -EBADMSG for bytes
 * that are no field (the reader then stays where it was).
 */
static inline __attribute__((always_inline)) int
pb_next(struct pb_reader *r, struct pb_field *f)
{
	const uint8_t *p = r->p;
	uint64_t tag, v;

	if (p >= r->end)
		return 0;
	if (pb_read_varint(&p, r->end, &tag) || tag >> 3 == 0 ||
	    tag >> 3 > UINT32_MAX)
		return -EBADMSG;
	f->id = tag >> 3;
	f->wt = tag & 7;
	f->p = NULL;
	f->len = 0;
	switch (f->wt) {
	case PB_VARINT:
		if (pb_read_varint(&p, r->end, &f->v))
			return -EBADMSG;
		break;
	case PB_FIXED64:
	case PB_FIXED32: {
		size_t n = f->wt == PB_FIXED64 ? 8 : 4, i;

		if ((size_t)(r->end - p) < n)
			return -EBADMSG;
		for (i = 0, f->v = 0; i < n; i++)
			f->v |= (uint64_t)p[i] << (8 * i);
		p += n;
		break;
	}
	case PB_LEN:
		if (pb_read_varint(&p, r->end, &v) ||
		    v > (uint64_t)(r->end - p))
			return -EBADMSG;
		f->p = p;
		f->len = v;
		f->v = v;
		p += v;
		break;
	default:
		return -EBADMSG;
	}
	r->p = p;
	return 1;
}

/**
 * pb_packed_count() - how many varints a packed field holds
 * @f: the field (PB_LEN)
 *
 * Return: the count, or -EBADMSG when its bytes are no run of varints.
 */
long pb_packed_count(const struct pb_field *f);

#endif /* _PB_H */
