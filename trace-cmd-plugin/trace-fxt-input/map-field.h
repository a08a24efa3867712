/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-field.h - a record's fields read: integers (inline, on every record),
 * strings, arrays as text, the bytes past the fields (map-field.c).
 */
#ifndef _MAP_FIELD_H
#define _MAP_FIELD_H

#include "map-ctx.h"

/* A field's integer value; false if the record is too short for it. */
static inline bool map_field_u64(struct map_buffer *buf,
				 struct tep_record *rec,
				 struct tep_format_field *f, uint64_t *val)
{
	const void *p;

	if (!f || f->offset + f->size > rec->size)
		return false;
	p = (const char *)rec->data + f->offset;
	if (!buf->native) {
		*val = tep_read_number(buf->tep, p, f->size);
		return true;
	}
	switch (f->size) {
	case 1:
		*val = *(const uint8_t *)p;
		return true;
	case 2: {
		uint16_t v;

		__builtin_memcpy(&v, p, 2);
		*val = v;
		return true;
	}
	case 4: {
		uint32_t v;

		__builtin_memcpy(&v, p, 4);
		*val = v;
		return true;
	}
	case 8:
		__builtin_memcpy(val, p, 8);
		return true;
	}
	*val = tep_read_number(buf->tep, p, f->size);
	return true;
}
/*
 * @v as @a's value for a 64-bit argument type @a already has: an int32 or
 * uint32 instead when the value fits, which takes one word, not two.
 * Lossless where the reader takes the width from the event's format
 * (fxt2dat) or from elsewhere in the event (map-array.c's first element).
 */
static inline void map_arg_set_64(struct fxt_arg *a, uint64_t v)
{
	if (a->type == FXT_ARG_UINT64 && v <= UINT32_MAX) {
		a->type = FXT_ARG_UINT32;
		a->u32 = v;
	} else if (a->type == FXT_ARG_INT64 && (int64_t)v == (int32_t)v) {
		a->type = FXT_ARG_INT32;
		a->i32 = (int32_t)v;
	} else {
		a->u64 = v;
	}
}
/*
 * The elements of fixed array @f of @rec (elements of 1 to 8 bytes), at
 * most @max, into @v: how many (none when the record is too short).
 */
static inline unsigned int map_field_elems(struct map_buffer *buf,
					   struct tep_record *rec,
					   struct tep_format_field *f,
					   uint64_t *v, unsigned int max)
{
	const unsigned char *p;
	unsigned int k, n, elem;

	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) ||
	    f->flags & TEP_FIELD_IS_DYNAMIC || f->arraylen <= 0 ||
	    f->offset + f->size > rec->size)
		return 0;
	elem = f->elementsize;
	if (!elem || elem > 8 || elem * (unsigned int)f->arraylen >
				 (unsigned int)f->size)
		return 0;
	n = (unsigned int)f->arraylen < max ? (unsigned int)f->arraylen : max;
	p = (const unsigned char *)rec->data + f->offset;
	for (k = 0; k < n; k++, p += elem) {
		if (buf->native && elem == 8)
			__builtin_memcpy(&v[k], p, 8);
		else
			v[k] = tep_read_number(buf->tep, p, (int)elem);
	}
	return n;
}
/* A fixed array without a size ("char buf[]"): it runs to the record's end. */
static inline bool map_field_flexible(const struct tep_format_field *f)
{
	return !f->size && f->flags & TEP_FIELD_IS_ARRAY &&
	       !(f->flags & TEP_FIELD_IS_DYNAMIC);
}
bool map_field_span(struct tep_record *rec, struct tep_format_field *f,
		    unsigned int *off, unsigned int *len);
int map_field_str(struct tep_record *rec, struct tep_format_field *f,
		  const char **s);
bool map_field_printable(const char *p, unsigned int len);
/* Whether any of @len bytes at @p is not 0. */
bool map_field_nonzero(const char *p, size_t len);
void map_field_array_text(struct map_ctx *ctx, const unsigned char *p,
			  unsigned int len);
unsigned int map_field_data_end(struct map_event *me, struct tep_record *rec);
unsigned int map_field_trailing(struct map_event *me, struct tep_record *rec,
				unsigned int *start);

#endif /* _MAP_FIELD_H */
