/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * eventheader-out.h - private to the EventHeader code: the text sink that
 * eventheader-text.c (values) and eventheader-json.c (whole events) share.
 *
 * The sink has snprintf's rules: it stores what fits in buf[0, size - 1],
 * counts everything in len, and eh_out_finish() NUL-terminates and returns
 * the whole length, so callers can size a buffer with a first pass.
 */
#ifndef _TRACE_FXT_EVENTHEADER_OUT_H
#define _TRACE_FXT_EVENTHEADER_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct eh_out {
	char	*buf;
	size_t	size;
	size_t	len;
};

void eh_out_write(struct eh_out *o, const void *s, size_t n);
void eh_out_putc(struct eh_out *o, char c);
void eh_out_puts(struct eh_out *o, const char *s);
__attribute__((format(printf, 2, 3)))
void eh_out_printf(struct eh_out *o, const char *fmt, ...);
ssize_t eh_out_finish(struct eh_out *o);

/* A '"' when @json. */
void eh_out_quote(struct eh_out *o, bool json);

/* UTF-8 text, invalid bytes taken as Latin-1, JSON-escaped if @json. */
void eh_out_utf8(struct eh_out *o, const uint8_t *p, size_t n, bool json);

/* 16 bytes as 8-4-4-4-12 lowercase hex, quoted if @json. */
void eh_out_uuid(struct eh_out *o, const uint8_t *p, bool json);

/* One value, as eh_format_value_raw() describes; 0 or -errno. */
int eh_out_value(struct eh_out *o, const uint8_t *p, size_t n,
		 unsigned int enc, unsigned int format, bool be, bool json);

#endif /* _TRACE_FXT_EVENTHEADER_OUT_H */
