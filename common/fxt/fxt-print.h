/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-print.h - FXT values as text, for dumps, reports and info columns.
 *
 * All functions follow snprintf(): they write at most @size bytes
 * including the NUL and return the length the full text would have.
 */
#ifndef _FXT_PRINT_H
#define _FXT_PRINT_H

#include "fxt-format.h"

enum fxt_print_flags {
	/* Strings in double quotes with C escapes (dumps). */
	FXT_PRINT_QUOTE		= 1 << 0,
	/* Values prefixed by their type: int32(-1), koid(5) (dumps). */
	FXT_PRINT_TYPED		= 1 << 1,
	/*
	 * Strings as they are, as trace-cmd report shows text, but quoted
	 * as FXT_PRINT_QUOTE when they hold what one line cannot show (a
	 * control character) (info columns).
	 */
	FXT_PRINT_QUOTE_NEEDED	= 1 << 2,
};

/**
 * fxt_str_needs_quote() - whether one line of text cannot show a string
 * @s: the string
 *
 * The rule FXT_PRINT_QUOTE_NEEDED applies, for callers that print the
 * common case (no such byte) by copying.
 *
 * Return: true when @s holds a control character or DEL.
 */
bool fxt_str_needs_quote(struct fxt_str s);

/**
 * fxt_print_str() - a string as text
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @s: the string
 * @flags: enum fxt_print_flags
 *
 * Control characters, quotes and backslashes are escaped.
 *
 * Return: the length the whole text needs, as snprintf() returns it.
 */
int fxt_print_str(char *buf, size_t size, struct fxt_str s, unsigned int flags);

/**
 * fxt_print_arg_value() - an argument's value as text
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @a: the argument
 * @flags: enum fxt_print_flags
 *
 * Return: the length the whole text needs, as snprintf() returns it.
 */
int fxt_print_arg_value(char *buf, size_t size, const struct fxt_arg *a,
			unsigned int flags);

/**
 * fxt_print_args() - arguments as "name=value name=value ..."
 *
 * With FXT_PRINT_QUOTE or FXT_PRINT_QUOTE_NEEDED a name holding a control
 * character (a NUL included) is quoted with escapes; any other is bare.
 *
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @args: the arguments
 * @nargs: how many
 * @flags: enum fxt_print_flags
 *
 * Return: the length the whole text needs, as snprintf() returns it.
 */
int fxt_print_args(char *buf, size_t size, const struct fxt_arg *args,
		   unsigned int nargs, unsigned int flags);

/*
 * A list of items as text, "a, b, c, ...": at most @max items (0: any
 * number), the first one past them written as "..." and ending the list.
 * @len grows by what the whole text needs, as snprintf() counts.
 */
struct fxt_list {
	char		*buf;
	size_t		size;
	size_t		len;
	size_t		max;
	size_t		n;
	const char	*sep;
};

/**
 * fxt_list_add() - one more item of a list
 * @l: the list; set @buf, @size (@buf may be NULL when 0), @max and @sep,
 *	the rest zero
 * @fmt: the item, printf-style
 *
 * Return: false once the list is full (this item was "..."), else true.
 */
bool fxt_list_add(struct fxt_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _FXT_PRINT_H */
