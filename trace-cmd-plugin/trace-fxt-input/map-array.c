// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-array.c - small arrays of integers as one argument per element.
 *
 * An array of 4- or 8-byte integers (raw_syscalls:sys_enter's
 * "unsigned long args[6]", the commonest) is written as arguments
 * "<field>[0]", "<field>[1]", ... of the element's declared type and
 * width (int32/uint32, int64/uint64), instead of the "ARRAY[xx, ...]"
 * text of its bytes: 6 to 12 words and values a viewer shows as numbers,
 * where the text took 25 words.  The first element has the declared
 * width; the others of a 64-bit array are 32-bit arguments when their
 * value fits (syscall arguments mostly do).  Lossless: the first
 * element's type says every element's width, so `report --raw` prints
 * the bytes -R prints, and fxt2dat puts each element back at its offset
 * with the width of the format.  Only when the file is little-endian
 * (the text keeps a big-endian file's bytes as they were), the array
 * fixed (not __data_loc) with at most MAP_ARRAY_MAX elements, and the
 * whole event fits one record of 15 arguments (elements never continue
 * in a "<event>.cont" record, so a reader groups them within one).
 * Decided once per event type; element names interned once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "map-array.h"
#include "map-field.h"

#define MAP_ARRAY_MAX	8

/* Whether @mf can go as elements, as far as the field itself says. */
static bool map_array_fits(struct map_event *me, struct map_field *mf)
{
	struct tep_format_field *f = mf->field;

	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ ||
	    mf->kind != MAP_FIELD_ARRAY ||
	    f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC) ||
	    tep_is_file_bigendian(me->event->tep))
		return false;
	if (f->elementsize != 4 && f->elementsize != 8)
		return false;
	return f->arraylen > 0 && f->arraylen <= MAP_ARRAY_MAX &&
	       f->arraylen * f->elementsize == (unsigned int)f->size;
}

int map_array_classify(struct map_ctx *ctx, struct map_event *me)
{
	/* cpu, common_flags, common_preempt_count, trailing bytes */
	unsigned int i, k, nargs = 3 + 1;
	bool any = false;
	char name[256];

	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];

		nargs += 1 + mf->has_text;
		if (map_array_fits(me, mf)) {
			nargs += mf->field->arraylen - 1;
			any = true;
		}
	}
	if (!any || nargs > FXT_MAX_ARGS)
		return 0;
	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];
		struct tep_format_field *f = mf->field;

		if (!map_array_fits(me, mf))
			continue;
		mf->elem_names = calloc(f->arraylen, sizeof(*mf->elem_names));
		if (!mf->elem_names)
			return -ENOMEM;
		for (k = 0; k < (unsigned int)f->arraylen; k++) {
			snprintf(name, sizeof(name), "%s[%u]", f->name, k);
			mf->elem_names[k] = fxt_writer_str(ctx->w, name);
			/* built on the stack: only an index may be kept */
			if (!mf->elem_names[k].id)
				return -ENOMEM;
		}
		mf->kind = MAP_FIELD_ELEMS;
		if (f->elementsize == 4)
			mf->arg_type = f->flags & TEP_FIELD_IS_SIGNED ?
				       FXT_ARG_INT32 : FXT_ARG_UINT32;
		else
			mf->arg_type = f->flags & TEP_FIELD_IS_SIGNED ?
				       FXT_ARG_INT64 : FXT_ARG_UINT64;
		me->extra_args += f->arraylen - 1;
	}
	return 0;
}

unsigned int map_array_args(const struct map_field *mf,
			    const struct tep_record *rec, struct fxt_arg *args)
{
	const struct tep_format_field *f = mf->field;
	const unsigned char *p = (const unsigned char *)rec->data + f->offset;
	unsigned int k, n = f->arraylen;

	/* a record too short for the array has no such arguments */
	if (f->offset + f->size > rec->size)
		return 0;
	for (k = 0; k < n; k++) {
		struct fxt_arg *a = &args[k];

		a->name = mf->elem_names[k];
		a->type = mf->arg_type;
		/* little-endian file on a little-endian host: see above */
		if (f->elementsize == 4) {
			uint32_t v;

			__builtin_memcpy(&v, p + 4 * k, 4);
			a->u32 = v;
		} else {
			uint64_t v;

			__builtin_memcpy(&v, p + 8 * k, 8);
			if (k)
				map_arg_set_64(a, v);
			else
				a->u64 = v;
		}
	}
	return n;
}
