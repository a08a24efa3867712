// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-print.c - FXT values as text.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "fxt-print.h"

/* snprintf-style appending: keeps counting once the buffer is full. */
struct out {
	char	*buf;
	size_t	size;
	size_t	len;
};

static void out_c(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_fmt(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_fmt(struct out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static int out_end(struct out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return (int)o->len;
}

bool fxt_str_needs_quote(struct fxt_str s)
{
	uint32_t i;

	for (i = 0; i < s.len; i++)
		if ((unsigned char)s.ptr[i] < 0x20 || s.ptr[i] == 0x7f)
			return true;
	return false;
}

static void out_str(struct out *o, struct fxt_str s, unsigned int flags)
{
	uint32_t i;

	if ((flags & FXT_PRINT_QUOTE_NEEDED) && fxt_str_needs_quote(s))
		flags |= FXT_PRINT_QUOTE;
	if (!(flags & FXT_PRINT_QUOTE)) {
		for (i = 0; i < s.len; i++)
			out_c(o, s.ptr[i]);
		return;
	}
	out_c(o, '"');
	for (i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.ptr[i];

		switch (c) {
		case '"':
		case '\\':
			out_c(o, '\\');
			out_c(o, (char)c);
			break;
		case '\n':
			out_fmt(o, "\\n");
			break;
		case '\t':
			out_fmt(o, "\\t");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				out_fmt(o, "\\x%02x", c);
			else
				out_c(o, (char)c);
		}
	}
	out_c(o, '"');
}

int fxt_print_str(char *buf, size_t size, struct fxt_str s, unsigned int flags)
{
	struct out o = { buf, size, 0 };

	out_str(&o, s, flags);
	return out_end(&o);
}

static void out_value(struct out *o, const struct fxt_arg *a,
		      unsigned int flags)
{
	const char *type = fxt_arg_type_name(a->type);
	bool typed = flags & FXT_PRINT_TYPED;

	if (typed && a->type != FXT_ARG_STRING && a->type != FXT_ARG_NULL)
		out_fmt(o, "%s(", type ? type : "unknown");
	switch (a->type) {
	case FXT_ARG_NULL:
		out_fmt(o, "null");
		break;
	case FXT_ARG_INT32:
		out_fmt(o, "%" PRId32, a->i32);
		break;
	case FXT_ARG_UINT32:
		out_fmt(o, "%" PRIu32, a->u32);
		break;
	case FXT_ARG_INT64:
		out_fmt(o, "%" PRId64, a->i64);
		break;
	case FXT_ARG_UINT64:
		out_fmt(o, "%" PRIu64, a->u64);
		break;
	case FXT_ARG_DOUBLE:
		out_fmt(o, "%.17g", a->d);
		break;
	case FXT_ARG_STRING:
		out_str(o, a->str, flags);
		break;
	case FXT_ARG_POINTER:
		out_fmt(o, "0x%" PRIx64, a->ptr);
		break;
	case FXT_ARG_KOID:
		out_fmt(o, "%" PRIu64, a->koid);
		break;
	case FXT_ARG_BOOL:
		out_fmt(o, "%s", a->b ? "true" : "false");
		break;
	default:
		out_fmt(o, "type %u, %u words", a->type, a->raw_words);
		break;
	}
	if (typed && a->type != FXT_ARG_STRING && a->type != FXT_ARG_NULL)
		out_c(o, ')');
}

int fxt_print_arg_value(char *buf, size_t size, const struct fxt_arg *a,
			unsigned int flags)
{
	struct out o = { buf, size, 0 };

	out_value(&o, a, flags);
	return out_end(&o);
}

int fxt_print_args(char *buf, size_t size, const struct fxt_arg *args,
		   unsigned int nargs, unsigned int flags)
{
	struct out o = { buf, size, 0 };
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		if (i)
			out_c(&o, ' ');
		/* a name bare, but quoted where one line could not show it */
		out_str(&o, args[i].name, flags & (FXT_PRINT_QUOTE |
						   FXT_PRINT_QUOTE_NEEDED) ?
			FXT_PRINT_QUOTE_NEEDED : 0);
		out_c(&o, '=');
		out_value(&o, &args[i], flags);
	}
	return out_end(&o);
}

bool fxt_list_add(struct fxt_list *l, const char *fmt, ...)
{
	struct out o = { l->buf, l->size, l->len };
	va_list ap;
	size_t room;
	int n;

	if (l->max && l->n == l->max) {
		out_fmt(&o, "%s...", l->n ? l->sep : "");
		l->len = o.len;
		out_end(&o);
		return false;
	}
	if (l->n++)
		out_fmt(&o, "%s", l->sep);
	room = o.len < o.size ? o.size - o.len : 0;
	va_start(ap, fmt);
	n = vsnprintf(room ? o.buf + o.len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o.len += (size_t)n;
	l->len = o.len;
	out_end(&o);
	return true;
}
