// SPDX-License-Identifier: LGPL-2.1-only
/*
 * eventheader.c - walk an EventHeader event: header, tracepoint name,
 * extension chain, then the fields its metadata describes.
 *
 * The walk is a small state machine over a stack of scopes: the event's
 * top level and one scope per struct being entered.  Each scope reads
 * field definitions from the metadata in turn; arrays are walked element
 * by element, and each element of an array of structs reads the struct's
 * field definitions again.  Every step either consumes metadata, consumes
 * payload, or closes a scope, and is counted against an item limit, so no
 * input can make it loop.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"

enum eh_state {
	EH_ST_NONE,		/* no event started, or it failed to start */
	EH_ST_BEGIN,		/* EVENT_BEGIN is next */
	EH_ST_FIELD,		/* next field definition of the top scope */
	EH_ST_ELEMENT,		/* next element of the top scope's array */
	EH_ST_DONE,		/* EVENT_END was produced */
	EH_ST_ERROR,
};

/* One field definition, as offsets into the metadata. */
struct eh_fielddef {
	uint32_t	name_off;
	uint32_t	name_len;	/* whole name, attributes included */
	uint8_t		enc;		/* value and array flags, no chain */
	uint8_t		fmt;		/* no chain flag */
	uint16_t	tag;
	uint16_t	carray_count;
};

/* A scope: the event's top level, or a struct being walked. */
struct eh_scope {
	uint32_t		pos;		/* next definition to read */
	uint32_t		remaining;	/* definitions left to read */
	struct eh_fielddef	f;		/* field being walked */
	uint16_t		index;		/* element of f being walked */
	uint16_t		count;
	uint8_t			elem_size;
	bool			in_array;
};

struct eh_decoder {
	struct eh_event_info	ev;
	enum eh_state		state;
	int			err;
	const uint8_t		*meta;
	uint32_t		meta_len;
	uint32_t		meta_start;	/* first field definition */
	const uint8_t		*data;
	uint32_t		data_len;
	uint32_t		pos;		/* in data */
	uint32_t		limit;
	uint32_t		left;		/* items before -E2BIG */
	unsigned int		depth;		/* current scope */
	struct eh_scope		scope[EH_MAX_DEPTH + 1];
	char			msg[160];
};

static uint16_t eh_get16(const uint8_t *p, bool big_endian)
{
	if (big_endian)
		return (uint16_t)(p[0] << 8 | p[1]);
	return (uint16_t)(p[1] << 8 | p[0]);
}

__attribute__((format(printf, 3, 4)))
static int eh_fail(struct eh_decoder *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->err = err;
	d->state = d->state == EH_ST_NONE ? EH_ST_NONE : EH_ST_ERROR;
	return err;
}

/* Lowercase hex digits only, as the name grammar says; wraps like C. */
static size_t eh_parse_hex(const char *s, size_t len, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned int nibble;

		if (s[i] >= '0' && s[i] <= '9')
			nibble = (unsigned int)(s[i] - '0');
		else if (s[i] >= 'a' && s[i] <= 'f')
			nibble = (unsigned int)(s[i] - 'a' + 10);
		else
			break;
		v = v << 4 | nibble;
	}
	*val = v;
	return i;
}

int eh_tracepoint_parse(struct eh_tracepoint *tp, const char *name,
			size_t len)
{
	uint64_t level;
	size_t us, i;

	if (!tp || !name || len >= EH_NAME_MAX || memchr(name, 0, len))
		return -ENOTSUP;

	/* The provider may itself hold '_': the attributes follow the last. */
	for (us = len; us > 0 && name[us - 1] != '_'; us--)
		;
	if (us == 0)
		return -ENOTSUP;
	i = us;
	if (i == len || name[i] != 'L')
		return -ENOTSUP;
	i++;
	i += eh_parse_hex(name + i, len - i, &level);
	if (i == len || name[i] != 'K')
		return -ENOTSUP;
	i++;
	i += eh_parse_hex(name + i, len - i, &tp->keyword);

	tp->name = name;
	tp->name_len = len;
	tp->provider_len = us - 1;
	tp->options_off = i;
	/* The level is a uint8_t; longer hex wraps as the reference's does. */
	tp->level = (uint8_t)level;

	while (i < len) {
		if (name[i] < 'A' || name[i] > 'Z')
			return -ENOTSUP;
		for (i++; i < len; i++) {
			char c = name[i];

			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')))
				break;
		}
	}
	return 0;
}

int eh_tracepoint_option(const struct eh_tracepoint *tp, char letter,
			 const char **value, size_t *len)
{
	size_t i = tp->options_off;

	while (i < tp->name_len) {
		char opt = tp->name[i];
		size_t start = ++i;

		while (i < tp->name_len &&
		       !(tp->name[i] >= 'A' && tp->name[i] <= 'Z'))
			i++;
		if (opt == letter) {
			*value = tp->name + start;
			*len = i - start;
			return 0;
		}
	}
	return -ENOENT;
}

struct eh_decoder *eh_decoder_new(void)
{
	struct eh_decoder *d = calloc(1, sizeof(*d));

	if (d)
		d->limit = EH_ITEM_LIMIT_DEFAULT;
	return d;
}

void eh_decoder_free(struct eh_decoder *d)
{
	free(d);
}

void eh_decoder_set_item_limit(struct eh_decoder *d, uint32_t limit)
{
	d->limit = limit ? limit : EH_ITEM_LIMIT_DEFAULT;
}

const char *eh_decoder_strerror(const struct eh_decoder *d)
{
	return d->err ? d->msg : "";
}

const struct eh_event_info *eh_decoder_event(const struct eh_decoder *d)
{
	return d->state == EH_ST_NONE ? NULL : &d->ev;
}

int eh_decoder_rewind(struct eh_decoder *d)
{
	if (d->state == EH_ST_NONE)
		return -EINVAL;
	d->state = EH_ST_BEGIN;
	d->err = 0;
	d->msg[0] = '\0';
	d->pos = 0;
	d->left = d->limit;
	d->depth = 0;
	memset(&d->scope[0], 0, sizeof(d->scope[0]));
	d->scope[0].pos = d->meta_start;
	d->scope[0].remaining = UINT32_MAX;
	return 0;
}

static int eh_start_extensions(struct eh_decoder *d, const uint8_t *p,
			       uint32_t size, uint32_t *posp)
{
	uint32_t pos = *posp;
	bool chain = d->ev.flags & EH_FLAG_EXTENSION;
	unsigned int n;

	/* Each block takes 4 bytes or more: the chain ends with the data. */
	for (n = 0; chain; n++) {
		uint16_t len, kind;

		if (size - pos < 4)
			return eh_fail(d, -EBADMSG,
				       "extension %u at offset %u: header runs past the end of the %u-byte event",
				       n, pos, size);
		len = eh_get16(p + pos, d->ev.big_endian);
		kind = eh_get16(p + pos + 2, d->ev.big_endian);
		pos += 4;
		if (size - pos < len)
			return eh_fail(d, -EBADMSG,
				       "extension %u at offset %u: size %u exceeds the %u bytes left",
				       n, pos - 4, len, size - pos);
		switch (kind & EH_EXT_KIND_MASK) {
		case EH_EXT_INVALID:
			return eh_fail(d, -EBADMSG,
				       "extension %u at offset %u: kind 0 is invalid",
				       n, pos - 4);
		case EH_EXT_METADATA:
			if (d->meta)
				return eh_fail(d, -EBADMSG,
					       "extension %u: second metadata extension",
					       n);
			d->meta = p + pos;
			d->meta_len = len;
			break;
		case EH_EXT_ACTIVITY_ID:
			if (d->ev.activity_id || (len != 16 && len != 32))
				return eh_fail(d, -EBADMSG,
					       "extension %u: %s activity id extension (size %u)",
					       n,
					       d->ev.activity_id ? "second" :
								   "bad",
					       len);
			d->ev.activity_id = p + pos;
			d->ev.related_id = len == 32 ? p + pos + 16 : NULL;
			break;
		default:
			/* Kinds this decoder does not know are skipped. */
			break;
		}
		pos += len;
		chain = kind & EH_EXT_CHAIN;
	}
	*posp = pos;
	return 0;
}

int eh_decoder_start(struct eh_decoder *d, const char *name, size_t name_len,
		     const void *data, size_t size)
{
	const uint8_t *p = data;
	uint32_t pos = EH_HEADER_SIZE;
	const char *semi;
	size_t nlen;
	int ret;

	if (!d)
		return -EINVAL;
	memset(&d->ev, 0, sizeof(d->ev));
	d->state = EH_ST_NONE;
	d->meta = NULL;
	d->meta_len = 0;
	if (!name || !data || size < EH_HEADER_SIZE || size > 0x7fffffff)
		return eh_fail(d, -EINVAL,
			       "event of %zu bytes: an EventHeader event has at least %d",
			       size, EH_HEADER_SIZE);

	d->ev.flags = p[0];
	d->ev.version = p[1];
	d->ev.opcode = p[6];
	d->ev.level = p[7];
	d->ev.big_endian = !(p[0] & EH_FLAG_LITTLE_ENDIAN);
	d->ev.id = eh_get16(p + 2, d->ev.big_endian);
	d->ev.tag = eh_get16(p + 4, d->ev.big_endian);
	if (p[0] & ~(EH_FLAG_POINTER64 | EH_FLAG_LITTLE_ENDIAN |
		     EH_FLAG_EXTENSION))
		return eh_fail(d, -ENOTSUP, "unknown header flags 0x%x", p[0]);

	ret = eh_tracepoint_parse(&d->ev.tp, name, name_len);
	if (ret < 0)
		return eh_fail(d, ret,
			       "tracepoint name is not Provider_L<level>K<keyword>[options]");
	if (d->ev.tp.level != d->ev.level)
		return eh_fail(d, -ENOTSUP,
			       "level %u in the name, %u in the header",
			       d->ev.tp.level, d->ev.level);

	ret = eh_start_extensions(d, p, (uint32_t)size, &pos);
	if (ret < 0)
		return ret;
	if (!d->meta)
		return eh_fail(d, -ENOTSUP, "no metadata extension");

	nlen = strnlen((const char *)d->meta, d->meta_len);
	if (nlen == d->meta_len)
		return eh_fail(d, -EBADMSG,
			       "event name is not NUL-terminated in the metadata");
	d->ev.name = (const char *)d->meta;
	semi = memchr(d->ev.name, ';', nlen);
	d->ev.name_len = semi ? (size_t)(semi - d->ev.name) : nlen;
	d->ev.meta = d->meta;
	d->ev.meta_len = d->meta_len;
	d->meta_start = (uint32_t)nlen + 1;
	d->data = p + pos;
	d->data_len = (uint32_t)size - pos;
	d->ev.payload = d->data;
	d->ev.payload_len = d->data_len;

	d->state = EH_ST_BEGIN;
	return eh_decoder_rewind(d);
}

/* Read the field definition at @pos; returns the offset after it. */
static int eh_read_def(struct eh_decoder *d, uint32_t pos,
		       struct eh_fielddef *f, uint32_t *next)
{
	uint32_t at = pos;
	uint8_t enc, fmt = 0;
	size_t len;

	len = strnlen((const char *)d->meta + pos, d->meta_len - pos);
	pos += (uint32_t)len;
	if (d->meta_len - pos < 2)
		return eh_fail(d, -EBADMSG,
			       "metadata offset %u: field definition cut short",
			       at);
	f->name_off = at;
	f->name_len = (uint32_t)len;
	pos++;
	enc = d->meta[pos++];
	f->tag = 0;
	f->carray_count = 0;
	if (enc & EH_ENC_CHAIN) {
		if (pos == d->meta_len)
			return eh_fail(d, -EBADMSG,
				       "metadata offset %u: format byte missing",
				       at);
		fmt = d->meta[pos++];
		if (fmt & EH_FMT_CHAIN) {
			if (d->meta_len - pos < 2)
				return eh_fail(d, -EBADMSG,
					       "metadata offset %u: field tag missing",
					       at);
			f->tag = eh_get16(d->meta + pos, d->ev.big_endian);
			pos += 2;
		}
	}
	f->enc = enc & (uint8_t)~EH_ENC_CHAIN;
	f->fmt = fmt & EH_FMT_VALUE_MASK;

	switch (f->enc & (EH_ENC_CARRAY | EH_ENC_VARRAY)) {
	case EH_ENC_CARRAY | EH_ENC_VARRAY:
		return eh_fail(d, -ENOTSUP,
			       "metadata offset %u: both array flags set (reserved)",
			       at);
	case EH_ENC_CARRAY:
		if (d->meta_len - pos < 2)
			return eh_fail(d, -EBADMSG,
				       "metadata offset %u: array length missing",
				       at);
		f->carray_count = eh_get16(d->meta + pos, d->ev.big_endian);
		pos += 2;
		if (!f->carray_count)
			return eh_fail(d, -EBADMSG,
				       "metadata offset %u: constant array of length 0",
				       at);
		break;
	}
	if ((f->enc & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT && !f->fmt)
		return eh_fail(d, -EBADMSG,
			       "metadata offset %u: struct with no fields", at);
	*next = pos;
	return 0;
}

/*
 * Skip the definitions of a struct's fields, nested structs included:
 * an empty array of structs never walks them.
 */
static int eh_skip_struct_defs(struct eh_decoder *d, struct eh_scope *s)
{
	uint32_t remaining = s->f.fmt;
	struct eh_fielddef f;
	int ret;

	/* Bounded: every definition consumes at least two bytes. */
	while (remaining && s->pos != d->meta_len) {
		ret = eh_read_def(d, s->pos, &f, &s->pos);
		if (ret < 0)
			return ret;
		remaining--;
		if ((f.enc & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT)
			remaining += f.fmt;
	}
	return 0;
}

static uint8_t eh_fixed_size(unsigned int enc)
{
	switch (enc) {
	case EH_ENC_VALUE8:
		return 1;
	case EH_ENC_VALUE16:
		return 2;
	case EH_ENC_VALUE32:
		return 4;
	case EH_ENC_VALUE64:
		return 8;
	case EH_ENC_VALUE128:
		return 16;
	}
	return 0;
}

static int eh_bad_encoding(struct eh_decoder *d, const struct eh_fielddef *f)
{
	unsigned int enc = f->enc & EH_ENC_VALUE_MASK;

	return eh_fail(d, enc >= EH_ENC_MAX ? -ENOTSUP : -EBADMSG,
		       "field \"%.*s\": %s encoding %u", (int)f->name_len,
		       (const char *)d->meta + f->name_off,
		       enc >= EH_ENC_MAX ? "unknown" : "invalid", enc);
}

/* Size up the value at d->pos: the cooked bytes, and the bytes it takes. */
static int eh_read_value(struct eh_decoder *d, const struct eh_fielddef *f,
			 struct eh_item *it, uint32_t *taken)
{
	uint32_t left = d->data_len - d->pos;
	const uint8_t *p = d->data + d->pos;
	unsigned int enc = f->enc & EH_ENC_VALUE_MASK;
	uint32_t unit, cooked, raw;

	it->data = p;
	switch (enc) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		raw = cooked = eh_fixed_size(enc);
		it->elem_size = (uint8_t)raw;
		break;
	case EH_ENC_ZSTRING_CHAR8:
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_ZSTRING_CHAR32:
		unit = enc == EH_ENC_ZSTRING_CHAR8 ? 1 :
		       enc == EH_ENC_ZSTRING_CHAR16 ? 2 : 4;
		for (cooked = 0; left - cooked >= unit; cooked += unit) {
			uint32_t i;

			for (i = 0; i < unit && !p[cooked + i]; i++)
				;
			if (i == unit)
				break;
		}
		raw = cooked + unit;
		break;
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_STRING_LENGTH16_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR32:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		if (left < 2) {
			raw = 2;
			cooked = 0;
			break;
		}
		unit = enc == EH_ENC_STRING_LENGTH16_CHAR16 ? 2 :
		       enc == EH_ENC_STRING_LENGTH16_CHAR32 ? 4 : 1;
		cooked = (uint32_t)eh_get16(p, d->ev.big_endian) * unit;
		raw = cooked + 2;
		it->data = p + 2;
		break;
	default:
		return eh_bad_encoding(d, f);
	}
	if (raw > left)
		return eh_fail(d, -EBADMSG,
			       "payload offset %u: field \"%.*s\" needs %u bytes, %u left",
			       d->pos, (int)f->name_len,
			       (const char *)d->meta + f->name_off, raw, left);
	it->size = cooked;
	*taken = raw;
	return 0;
}

static void eh_fill_item(struct eh_decoder *d, struct eh_item *it,
			 enum eh_item_kind kind, const struct eh_scope *s)
{
	const char *name = (const char *)d->meta + s->f.name_off;
	const char *semi = memchr(name, ';', s->f.name_len);

	it->kind = kind;
	it->name = name;
	it->name_len = semi ? (size_t)(semi - name) : s->f.name_len;
	it->encoding = s->f.enc & EH_ENC_VALUE_MASK;
	it->format = s->f.fmt;
	it->tag = s->f.tag;
	it->array_flags = s->f.enc & (EH_ENC_CARRAY | EH_ENC_VARRAY);
	it->array_index = s->index;
	it->array_count = s->count;
	it->elem_size = s->elem_size;
	it->depth = (uint8_t)d->depth;
	it->big_endian = d->ev.big_endian;
	it->data = d->data + d->pos;
	it->size = 0;
}

/* Enter the struct that the current scope's field (element) holds. */
static int eh_enter_struct(struct eh_decoder *d, struct eh_item *it)
{
	struct eh_scope *s = &d->scope[d->depth];
	struct eh_scope *child;

	if (d->depth == EH_MAX_DEPTH)
		return eh_fail(d, -EMLINK,
			       "field \"%.*s\": structs nested deeper than %d",
			       (int)s->f.name_len,
			       (const char *)d->meta + s->f.name_off,
			       EH_MAX_DEPTH);
	eh_fill_item(d, it, EH_ITEM_STRUCT_BEGIN, s);
	child = &d->scope[++d->depth];
	memset(child, 0, sizeof(*child));
	/* Each element reads the same definitions, found right after s's. */
	child->pos = s->pos;
	child->remaining = s->f.fmt;
	d->state = EH_ST_FIELD;
	return 1;
}

static int eh_leave_struct(struct eh_decoder *d, struct eh_item *it)
{
	uint32_t end = d->scope[d->depth].pos;
	struct eh_scope *s = &d->scope[--d->depth];

	eh_fill_item(d, it, EH_ITEM_STRUCT_END, s);
	if (s->in_array && ++s->index < s->count) {
		d->state = EH_ST_ELEMENT;
		return 1;
	}
	/* Past the last element the parent resumes after the definitions. */
	s->pos = end;
	d->state = s->in_array ? EH_ST_ELEMENT : EH_ST_FIELD;
	return 1;
}

static int eh_next_field(struct eh_decoder *d, struct eh_item *it)
{
	struct eh_scope *s = &d->scope[d->depth];
	unsigned int enc;
	uint32_t taken;
	int ret;

	if (!s->remaining || s->pos == d->meta_len) {
		if (d->depth)
			return eh_leave_struct(d, it);
		it->kind = EH_ITEM_EVENT_END;
		it->name = d->ev.name;
		it->name_len = d->ev.name_len;
		d->state = EH_ST_DONE;
		return 1;
	}
	ret = eh_read_def(d, s->pos, &s->f, &s->pos);
	if (ret < 0)
		return ret;
	s->remaining--;
	s->index = 0;
	s->elem_size = 0;
	s->in_array = false;
	enc = s->f.enc & EH_ENC_VALUE_MASK;

	if (!(s->f.enc & (EH_ENC_CARRAY | EH_ENC_VARRAY))) {
		s->count = 1;
		if (enc == EH_ENC_STRUCT)
			return eh_enter_struct(d, it);
		eh_fill_item(d, it, EH_ITEM_VALUE, s);
		ret = eh_read_value(d, &s->f, it, &taken);
		if (ret < 0)
			return ret;
		d->pos += taken;
		return 1;
	}

	if (s->f.enc & EH_ENC_CARRAY) {
		s->count = s->f.carray_count;
	} else {
		if (d->data_len - d->pos < 2)
			return eh_fail(d, -EBADMSG,
				       "payload offset %u: array length of \"%.*s\" missing",
				       d->pos, (int)s->f.name_len,
				       (const char *)d->meta + s->f.name_off);
		s->count = eh_get16(d->data + d->pos, d->ev.big_endian);
		d->pos += 2;
	}
	if (enc == EH_ENC_INVALID || enc >= EH_ENC_MAX)
		return eh_bad_encoding(d, &s->f);
	s->elem_size = eh_fixed_size(enc);
	s->in_array = true;
	eh_fill_item(d, it, EH_ITEM_ARRAY_BEGIN, s);
	if (s->elem_size) {
		/* Checked once here, so the whole array can be exposed. */
		uint32_t bytes = (uint32_t)s->count * s->elem_size;

		if (bytes > d->data_len - d->pos)
			return eh_fail(d, -EBADMSG,
				       "payload offset %u: array \"%.*s\" needs %u bytes, %u left",
				       d->pos, (int)s->f.name_len,
				       (const char *)d->meta + s->f.name_off,
				       bytes, d->data_len - d->pos);
		it->size = bytes;
	}
	d->state = EH_ST_ELEMENT;
	return 1;
}

static int eh_next_element(struct eh_decoder *d, struct eh_item *it)
{
	struct eh_scope *s = &d->scope[d->depth];
	uint32_t taken;
	int ret;

	if (s->index >= s->count) {
		if ((s->f.enc & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT &&
		    !s->count) {
			ret = eh_skip_struct_defs(d, s);
			if (ret < 0)
				return ret;
		}
		eh_fill_item(d, it, EH_ITEM_ARRAY_END, s);
		s->in_array = false;
		d->state = EH_ST_FIELD;
		return 1;
	}
	if ((s->f.enc & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT)
		return eh_enter_struct(d, it);

	eh_fill_item(d, it, EH_ITEM_VALUE, s);
	ret = eh_read_value(d, &s->f, it, &taken);
	if (ret < 0)
		return ret;
	d->pos += taken;
	s->index++;
	return 1;
}

int eh_decoder_next(struct eh_decoder *d, struct eh_item *it)
{
	int ret;

	memset(it, 0, sizeof(*it));
	switch (d->state) {
	case EH_ST_NONE:
		ret = d->err ? d->err : -EINVAL;
		break;
	case EH_ST_DONE:
		return 0;
	case EH_ST_ERROR:
		ret = d->err;
		break;
	default:
		if (!d->left) {
			ret = eh_fail(d, -E2BIG,
				      "more than %u items in one event",
				      d->limit);
			break;
		}
		d->left--;
		if (d->state == EH_ST_BEGIN) {
			it->kind = EH_ITEM_EVENT_BEGIN;
			it->name = d->ev.name;
			it->name_len = d->ev.name_len;
			it->big_endian = d->ev.big_endian;
			it->data = d->data;
			it->size = d->data_len;
			d->state = EH_ST_FIELD;
			return 1;
		}
		ret = d->state == EH_ST_FIELD ? eh_next_field(d, it) :
						eh_next_element(d, it);
		if (ret > 0)
			return ret;
		break;
	}
	memset(it, 0, sizeof(*it));
	it->kind = EH_ITEM_ERROR;
	it->name = d->msg;
	it->name_len = strlen(d->msg);
	return ret;
}

int eh_decoder_skip_array(struct eh_decoder *d)
{
	struct eh_scope *s = &d->scope[d->depth];

	if (d->state != EH_ST_ELEMENT || !s->elem_size || s->index)
		return -EINVAL;
	/* eh_next_field() checked that the elements fit. */
	d->pos += (uint32_t)s->count * s->elem_size;
	s->index = s->count;
	return 0;
}

const char *eh_encoding_name(unsigned int encoding)
{
	static const char *const names[EH_ENC_MAX] = {
		"invalid", "struct", "value8", "value16", "value32",
		"value64", "value128", "zstring_char8", "zstring_char16",
		"zstring_char32", "string_length16_char8",
		"string_length16_char16", "string_length16_char32",
		"binary_length16_char8",
	};

	return encoding < EH_ENC_MAX ? names[encoding] : NULL;
}

const char *eh_format_name(unsigned int format)
{
	static const char *const names[] = {
		"default", "unsigned_int", "signed_int", "hex_int", "errno",
		"pid", "time", "boolean", "float", "hex_bytes", "string8",
		"string_utf", "string_utf_bom", "string_xml", "string_json",
		"uuid", "port", "ip_address", "ip_address_obsolete",
	};

	return format < sizeof(names) / sizeof(names[0]) ? names[format] : NULL;
}
