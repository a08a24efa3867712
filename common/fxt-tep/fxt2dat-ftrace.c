// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-ftrace.c - ftrace records rebuilt from FXT that trace-fxt made
 * from a .dat, by the formats the FXT carried (fxt2dat-format.c).
 *
 * A restored event starts from its instant (category = system, name =
 * event) and takes the arguments in order, as map-event.c wrote them:
 * "cpu" first, then common_flags / common_preempt_count, then one per
 * field, each perhaps followed by "<field>.text" (a rendering, skipped
 * here) and continued by "<event>.cont" instants.  Integers and pointers
 * go into the field at its width; strings into char arrays, __data_loc
 * and flexible arrays; "ARRAY[xx, ...]" back into the bytes it shows,
 * "<field>[k]" elements of small integer arrays each at its offset.
 * A last TCFXT_ARG_TRAILING (same text) is the bytes the record held past
 * its fields, appended after all the fields put in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fxt2dat.h"
#include "tcfxt.h"

/* "ARRAY[xx, yy]" into bytes; -1 when @s is not exactly that. */
static long parse_array(const char *s, size_t len, uint8_t *out)
{
	size_t i = 6, n = 0;
	int hi, lo;

	if (len < 7 || memcmp(s, "ARRAY[", 6) || s[len - 1] != ']')
		return -1;
	while (i < len - 1) {
		if (n && (i + 2 > len - 1 || s[i] != ',' || s[i + 1] != ' '))
			return -1;
		if (n)
			i += 2;
		if (i + 2 > len - 1)
			return -1;
		hi = s[i] >= 'a' ? s[i] - 'a' + 10 : s[i] - '0';
		lo = s[i + 1] >= 'a' ? s[i + 1] - 'a' + 10 : s[i + 1] - '0';
		if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
			return -1;
		out[n++] = hi << 4 | lo;
		i += 2;
	}
	return n;
}

static int put_arg(struct f2d_ctx *ctx, struct tep_format_field *fl,
		   const struct fxt_arg *a)
{
	struct f2d_rec *r = &ctx->rec;
	long n;

	if (!(fl->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			   TEP_FIELD_IS_DYNAMIC))) {
		if (a->type != FXT_ARG_STRING)
			f2d_put_field_int(r, fl, fxt_arg_bits(a));
		return 0;
	}
	if (a->type != FXT_ARG_STRING)
		return 0;
	if (a->str.len + 1 > ctx->scratch_cap) {
		uint8_t *p = realloc(ctx->scratch, a->str.len + 1);

		if (!p)
			return -ENOMEM;
		ctx->scratch = p;
		ctx->scratch_cap = a->str.len + 1;
	}
	n = parse_array(a->str.ptr, a->str.len, ctx->scratch);
	if (n >= 0) {
		f2d_put_field_bytes(r, fl, ctx->scratch, n);
		return 0;
	}
	memcpy(ctx->scratch, a->str.ptr, a->str.len);
	ctx->scratch[a->str.len] = '\0';
	/* a fixed char array keeps no NUL it has no room for */
	f2d_put_field_bytes(r, fl, ctx->scratch, a->str.len + 1);
	return 0;
}

/*
 * The bytes the record held past its fields, map-event.c's last
 * argument: they go after everything the fields put in.
 */
static int put_trailing(struct f2d_ctx *ctx, const struct fxt_arg *a)
{
	uint8_t *dst;
	long n;

	if (a->type != FXT_ARG_STRING)
		return 0;
	if (a->str.len > ctx->scratch_cap) {
		uint8_t *p = realloc(ctx->scratch, a->str.len);

		if (!p)
			return -ENOMEM;
		ctx->scratch = p;
		ctx->scratch_cap = a->str.len;
	}
	n = parse_array(a->str.ptr, a->str.len, ctx->scratch);
	if (n <= 0)
		return 0;
	dst = f2d_rec_room(&ctx->rec, n);
	if (!dst)
		return -ENOMEM;
	memcpy(dst, ctx->scratch, n);
	return 0;
}

static bool name_is(struct fxt_str s, const char *name, size_t nlen)
{
	return s.len == nlen && !memcmp(s.ptr, name, nlen);
}

/*
 * "<field>[k]": element k of a small integer array, which map-array.c
 * writes one argument an element, of the element's width: put at its
 * offset, in the record's byte order as any integer field.  False when
 * @a is no such element of a field of @f.
 */
static bool put_element(struct f2d_ctx *ctx, struct f2d_format *f,
			const struct fxt_arg *a)
{
	const char *open = memchr(a->name.ptr, '[', a->name.len);
	struct tep_format_field *fl = NULL, elem;
	unsigned long k = 0;
	size_t i, nlen;

	if (!open || a->name.len < 4 || a->name.ptr[a->name.len - 1] != ']')
		return false;
	nlen = open - a->name.ptr;
	for (i = nlen + 1; i < a->name.len - 1; i++) {
		if (a->name.ptr[i] < '0' || a->name.ptr[i] > '9' || k > 0xffff)
			return false;
		k = k * 10 + (a->name.ptr[i] - '0');
	}
	if (i == nlen + 1 || a->type == FXT_ARG_STRING)
		return false;
	for (i = 0; i < f->nr_fields; i++) {
		fl = f->fields[i];
		if (name_is(fxt_str_make(a->name.ptr, nlen), fl->name,
			    strlen(fl->name)))
			break;
	}
	if (i == f->nr_fields || !(fl->flags & TEP_FIELD_IS_ARRAY) ||
	    fl->flags & TEP_FIELD_IS_DYNAMIC ||
	    (fl->elementsize != 4 && fl->elementsize != 8) ||
	    k >= (unsigned long)fl->arraylen ||
	    fl->arraylen * fl->elementsize > (unsigned int)fl->size)
		return true;	/* an element, of nothing this record has */
	elem = *fl;
	elem.offset += k * fl->elementsize;
	elem.size = fl->elementsize;
	f2d_put_field_int(&ctx->rec, &elem, fxt_arg_bits(a));
	return true;
}

int f2d_ftrace_args(struct f2d_ctx *ctx, const struct fxt_arg *args,
		    unsigned int nargs)
{
	struct f2d_format *f = ctx->rec_fmt;
	struct tep_format_field *fl;
	unsigned int i, k, j;
	int ret;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *a = &args[i];

		if (fxt_str_eq(a->name, TCFXT_ARG_FLAGS)) {
			f2d_put_field_int(&ctx->rec, f->c_flags,
					  fxt_arg_bits(a));
			continue;
		}
		if (fxt_str_eq(a->name, TCFXT_ARG_PREEMPT)) {
			f2d_put_field_int(&ctx->rec, f->c_preempt,
					  fxt_arg_bits(a));
			continue;
		}
		if (fxt_str_eq(a->name, TCFXT_ARG_TRAILING)) {
			ret = put_trailing(ctx, a);
			if (ret < 0)
				return ret;
			continue;
		}
		/* fields come in order: look at the expected one first */
		fl = NULL;
		for (k = 0; k < f->nr_fields; k++) {
			j = (ctx->rec_field + k) % f->nr_fields;
			if (name_is(a->name, f->fields[j]->name,
				    strlen(f->fields[j]->name))) {
				fl = f->fields[j];
				ctx->rec_field = j + 1;
				break;
			}
		}
		if (!fl && put_element(ctx, f, a))
			continue;
		if (!fl)
			continue;	/* "<field>.text" and the like */
		ret = put_arg(ctx, fl, a);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int f2d_ftrace_start(struct f2d_ctx *ctx, struct f2d_format *f,
		     const struct fxt_event *ev)
{
	int ret;

	ret = f2d_rec_begin(ctx, f, (int32_t)ev->thread.tid);
	if (ret < 0)
		return ret;
	ctx->rec_fmt = f;
	ctx->rec_field = 0;
	ctx->rec.buffer = ctx->cur->buffer;
	ctx->rec.ts = f2d_ns(ctx, ev->ts);
	ctx->rec.cpu = ev->args[0].u32;
	ctx->pending = F2D_PEND_EVENT;
	return f2d_ftrace_args(ctx, ev->args + 1, ev->nargs - 1);
}

int f2d_ftrace_flush(struct f2d_ctx *ctx)
{
	ctx->pending = F2D_PEND_NONE;
	ctx->st->restored++;
	return f2d_emit(ctx, ctx->rec.buffer, ctx->rec.cpu, ctx->rec.ts,
			ctx->rec.data, ctx->rec.len);
}
