// SPDX-License-Identifier: LGPL-2.1-only
/*
 * eventheader-enc.c - write EventHeader events (see eventheader-enc.h).
 *
 * The metadata, the payload and the other extensions grow in buffers of
 * their own; eh_enc_finish() lays them out as the format wants them:
 * header, extension blocks chained in order, payload.  Chain flags are set
 * only then, when it is known which block is the last.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"
#include "eventheader-enc.h"

/* More blocks than any test needs; the format itself has no limit. */
#define EH_ENC_MAX_EXT	16

struct eh_enc_buf {
	uint8_t		*p;
	size_t		n;
	size_t		cap;
};

struct eh_enc_ext {
	uint16_t	kind;
	size_t		off;		/* in exts */
	size_t		len;
};

struct eh_enc {
	struct eh_enc_header	h;
	int			err;
	struct eh_enc_buf	meta;
	struct eh_enc_buf	payload;
	struct eh_enc_buf	exts;		/* bodies of the other blocks */
	struct eh_enc_buf	out;
	struct eh_enc_ext	ext[EH_ENC_MAX_EXT];
	unsigned int		n_ext;
	bool			meta_placed;
};

static int eh_enc_fail(struct eh_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

static int eh_enc_grow(struct eh_enc *e, struct eh_enc_buf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (e->err)
		return e->err;
	if (b->cap - b->n >= more)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap - b->n < more) {
		if (cap > SIZE_MAX / 2)
			return eh_enc_fail(e, -ENOMEM);
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		return eh_enc_fail(e, -ENOMEM);
	b->p = p;
	b->cap = cap;
	return 0;
}

static int eh_enc_put(struct eh_enc *e, struct eh_enc_buf *b, const void *p,
		      size_t n)
{
	int ret = eh_enc_grow(e, b, n);

	if (ret)
		return ret;
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

/* The low @size bytes of @v in the event's byte order. */
static int eh_enc_put_num(struct eh_enc *e, struct eh_enc_buf *b,
			  unsigned int size, uint64_t v)
{
	uint8_t tmp[8];
	unsigned int i;

	for (i = 0; i < size; i++) {
		unsigned int shift = e->h.big_endian ? size - 1 - i : i;

		tmp[i] = (uint8_t)(v >> (8 * shift));
	}
	return eh_enc_put(e, b, tmp, size);
}

struct eh_enc *eh_enc_new(void)
{
	return calloc(1, sizeof(struct eh_enc));
}

void eh_enc_free(struct eh_enc *e)
{
	if (!e)
		return;
	free(e->meta.p);
	free(e->payload.p);
	free(e->exts.p);
	free(e->out.p);
	free(e);
}

int eh_enc_begin(struct eh_enc *e, const struct eh_enc_header *h,
		 const char *name)
{
	if (!e || !h || !name)
		return -EINVAL;
	e->h = *h;
	e->err = 0;
	e->meta.n = e->payload.n = e->exts.n = e->out.n = 0;
	e->n_ext = 0;
	e->meta_placed = false;
	return eh_enc_put(e, &e->meta, name, strlen(name) + 1);
}

int eh_enc_extension(struct eh_enc *e, uint16_t kind, const void *data,
		     size_t len)
{
	struct eh_enc_ext *x;

	if (e->err)
		return e->err;
	if (kind & EH_EXT_CHAIN || len > UINT16_MAX || (len && !data))
		return eh_enc_fail(e, -EINVAL);
	if (e->n_ext == EH_ENC_MAX_EXT ||
	    (kind == EH_EXT_METADATA && e->meta_placed))
		return eh_enc_fail(e, -E2BIG);
	x = &e->ext[e->n_ext];
	x->kind = kind;
	x->off = e->exts.n;
	x->len = kind == EH_EXT_METADATA ? 0 : len;
	if (kind == EH_EXT_METADATA)
		e->meta_placed = true;
	else if (eh_enc_put(e, &e->exts, data, len))
		return e->err;
	e->n_ext++;
	return 0;
}

int eh_enc_activity(struct eh_enc *e, const uint8_t *id,
		    const uint8_t *related)
{
	uint8_t ids[32];

	if (!id)
		return eh_enc_fail(e, -EINVAL);
	memcpy(ids, id, 16);
	if (related)
		memcpy(ids + 16, related, 16);
	return eh_enc_extension(e, EH_EXT_ACTIVITY_ID, ids,
				related ? 32 : 16);
}

int eh_enc_field(struct eh_enc *e, const char *name, uint8_t encoding,
		 uint8_t format, uint16_t tag, uint16_t carray_count)
{
	uint8_t b;

	if (!name || encoding & EH_ENC_CHAIN || format & EH_FMT_CHAIN)
		return eh_enc_fail(e, -EINVAL);
	if (eh_enc_put(e, &e->meta, name, strlen(name) + 1))
		return e->err;
	b = encoding | (format || tag ? EH_ENC_CHAIN : 0);
	eh_enc_put(e, &e->meta, &b, 1);
	if (format || tag) {
		b = format | (tag ? EH_FMT_CHAIN : 0);
		eh_enc_put(e, &e->meta, &b, 1);
		if (tag)
			eh_enc_put_num(e, &e->meta, 2, tag);
	}
	if (encoding & EH_ENC_CARRAY)
		eh_enc_put_num(e, &e->meta, 2, carray_count);
	return e->err;
}

int eh_enc_count(struct eh_enc *e, uint16_t count)
{
	return eh_enc_put_num(e, &e->payload, 2, count);
}

int eh_enc_uint(struct eh_enc *e, unsigned int size, uint64_t value)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return eh_enc_fail(e, -EINVAL);
	return eh_enc_put_num(e, &e->payload, size, value);
}

int eh_enc_bytes(struct eh_enc *e, const void *data, size_t len)
{
	if (len && !data)
		return eh_enc_fail(e, -EINVAL);
	return eh_enc_put(e, &e->payload, data, len);
}

int eh_enc_string(struct eh_enc *e, uint8_t encoding, const void *units,
		  size_t count)
{
	unsigned int unit;
	bool counted;
	size_t i;

	switch (encoding) {
	case EH_ENC_ZSTRING_CHAR8:
		unit = 1, counted = false;
		break;
	case EH_ENC_ZSTRING_CHAR16:
		unit = 2, counted = false;
		break;
	case EH_ENC_ZSTRING_CHAR32:
		unit = 4, counted = false;
		break;
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		unit = 1, counted = true;
		break;
	case EH_ENC_STRING_LENGTH16_CHAR16:
		unit = 2, counted = true;
		break;
	case EH_ENC_STRING_LENGTH16_CHAR32:
		unit = 4, counted = true;
		break;
	default:
		return eh_enc_fail(e, -EINVAL);
	}
	if ((count && !units) || (counted && count > UINT16_MAX))
		return eh_enc_fail(e, -EINVAL);
	if (counted)
		eh_enc_put_num(e, &e->payload, 2, count);
	for (i = 0; i < count; i++) {
		uint64_t v = unit == 1 ? ((const uint8_t *)units)[i] :
			     unit == 2 ? ((const uint16_t *)units)[i] :
					 ((const uint32_t *)units)[i];

		eh_enc_put_num(e, &e->payload, unit, v);
	}
	if (!counted)
		eh_enc_put_num(e, &e->payload, unit, 0);
	return e->err;
}

/* One extension block: size, kind (chained unless @last), body. */
static void eh_enc_put_block(struct eh_enc *e, uint16_t kind,
			     const uint8_t *body, size_t len, bool last)
{
	eh_enc_put_num(e, &e->out, 2, len);
	eh_enc_put_num(e, &e->out, 2, kind | (last ? 0 : EH_EXT_CHAIN));
	eh_enc_put(e, &e->out, body, len);
}

int eh_enc_finish(struct eh_enc *e, const uint8_t **data, size_t *len)
{
	uint8_t flags = EH_FLAG_EXTENSION;
	unsigned int i, blocks;

	if (e->err)
		return e->err;
	if (e->meta.n > UINT16_MAX)
		return eh_enc_fail(e, -E2BIG);
	if (!e->meta_placed && eh_enc_extension(e, EH_EXT_METADATA, NULL, 0))
		return e->err;
	if (!e->h.pointer32)
		flags |= EH_FLAG_POINTER64;
	if (!e->h.big_endian)
		flags |= EH_FLAG_LITTLE_ENDIAN;

	e->out.n = 0;
	eh_enc_put(e, &e->out, &flags, 1);
	eh_enc_put(e, &e->out, &e->h.version, 1);
	eh_enc_put_num(e, &e->out, 2, e->h.id);
	eh_enc_put_num(e, &e->out, 2, e->h.tag);
	eh_enc_put(e, &e->out, &e->h.opcode, 1);
	eh_enc_put(e, &e->out, &e->h.level, 1);
	blocks = e->n_ext;
	for (i = 0; i < blocks; i++) {
		const struct eh_enc_ext *x = &e->ext[i];

		if (x->kind == EH_EXT_METADATA)
			eh_enc_put_block(e, x->kind, e->meta.p, e->meta.n,
					 i + 1 == blocks);
		else
			eh_enc_put_block(e, x->kind, e->exts.p + x->off,
					 x->len, i + 1 == blocks);
	}
	eh_enc_put(e, &e->out, e->payload.p, e->payload.n);
	if (e->err)
		return e->err;
	*data = e->out.p;
	*len = e->out.n;
	return 0;
}

int eh_enc_tracepoint_name(char *buf, size_t size, const char *provider,
			   uint8_t level, uint64_t keyword,
			   const char *options)
{
	int n = snprintf(buf, size, "%s_L%xK%llx%s", provider, level,
			 (unsigned long long)keyword, options ? options : "");

	if (n < 0 || (size_t)n >= size || n >= EH_NAME_MAX)
		return -ENAMETOOLONG;
	return n;
}
