// SPDX-License-Identifier: LGPL-2.1-only
/*
 * eventheader-text.c - EventHeader values as text or JSON values.
 *
 * The text follows what LinuxTracepoints' decoder prints, so that output
 * can be checked against its test vectors: decimal integers, "0x%X" hex,
 * "ENOENT(2)" errnos, ISO dates, shortest round-trip floats, lowercase
 * "01 02" hex bytes.  Strings come out as UTF-8 whatever their encoding;
 * bytes that are not valid UTF-8 are read as Latin-1 rather than dropped,
 * and code points that UTF-8 cannot carry (surrogates, > 0x10FFFF) are
 * written in the old long UTF-8 forms, to show what the event held.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"
#include "eventheader-out.h"

void eh_out_write(struct eh_out *o, const void *s, size_t n)
{
	if (o->len + 1 < o->size) {
		size_t room = o->size - 1 - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

void eh_out_putc(struct eh_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

void eh_out_puts(struct eh_out *o, const char *s)
{
	eh_out_write(o, s, strlen(s));
}

void eh_out_printf(struct eh_out *o, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		eh_out_write(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n :
			     sizeof(tmp) - 1);
}

ssize_t eh_out_finish(struct eh_out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return (ssize_t)o->len;
}

void eh_out_quote(struct eh_out *o, bool json)
{
	if (json)
		eh_out_putc(o, '"');
}

/* --- byte order ------------------------------------------------------ */

static uint64_t get_uint(const uint8_t *p, unsigned int n, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[big_endian ? i : n - 1 - i];
	return v;
}

/* --- characters ------------------------------------------------------ */

static void out_ascii(struct eh_out *o, uint8_t c, bool json)
{
	static const char hex[] = "0123456789abcdef";

	if (!json || (c >= 0x20 && c != '"' && c != '\\')) {
		eh_out_putc(o, (char)c);
		return;
	}
	eh_out_putc(o, '\\');
	switch (c) {
	case '"':
	case '\\':
		eh_out_putc(o, (char)c);
		break;
	case '\b':
		eh_out_putc(o, 'b');
		break;
	case '\f':
		eh_out_putc(o, 'f');
		break;
	case '\n':
		eh_out_putc(o, 'n');
		break;
	case '\r':
		eh_out_putc(o, 'r');
		break;
	case '\t':
		eh_out_putc(o, 't');
		break;
	default:
		eh_out_puts(o, "u00");
		eh_out_putc(o, hex[c >> 4]);
		eh_out_putc(o, hex[c & 15]);
		break;
	}
}

/*
 * One code point as UTF-8.  Surrogates and values past 0x10FFFF are not
 * refused: they get the 3-byte, or the original 5/6/7-byte, forms.
 */
static void out_ucs(struct eh_out *o, uint32_t cp, bool json)
{
	uint8_t b[7];
	int n, i;

	if (cp < 0x80) {
		out_ascii(o, (uint8_t)cp, json);
		return;
	}
	if (cp < 0x800)
		n = 2;
	else if (cp < 0x10000)
		n = 3;
	else if (cp < 0x200000)
		n = 4;
	else if (cp < 0x4000000)
		n = 5;
	else if (cp < 0x80000000)
		n = 6;
	else
		n = 7;
	for (i = n - 1; i > 0; i--) {
		b[i] = (uint8_t)(0x80 | (cp & 0x3f));
		cp >>= 6;
	}
	/* Lead byte: n high bits set then a zero, 0xfe for 7 bytes. */
	b[0] = n == 7 ? 0xfe : (uint8_t)((0xff00 >> n) | cp);
	eh_out_write(o, b, (size_t)n);
}

static bool is_cont(uint8_t b)
{
	return (b & 0xc0) == 0x80;
}

/* Length of a well-formed UTF-8 sequence at p (surrogates allowed), or 0. */
static size_t utf8_seq_len(const uint8_t *p, size_t left)
{
	uint32_t cp;

	if (p[0] >= 0xc0 && p[0] <= 0xdf && left >= 2 && is_cont(p[1])) {
		cp = (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
		return cp >= 0x80 ? 2 : 0;
	}
	if (p[0] >= 0xe0 && p[0] <= 0xef && left >= 3 && is_cont(p[1]) &&
	    is_cont(p[2])) {
		cp = (uint32_t)(p[0] & 0x0f) << 12 |
		     (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
		return cp >= 0x800 ? 3 : 0;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4 && left >= 4 && is_cont(p[1]) &&
	    is_cont(p[2]) && is_cont(p[3])) {
		cp = (uint32_t)(p[0] & 0x07) << 18 |
		     (uint32_t)(p[1] & 0x3f) << 12 |
		     (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
		return cp >= 0x10000 && cp <= 0x10ffff ? 4 : 0;
	}
	return 0;
}

void eh_out_utf8(struct eh_out *o, const uint8_t *p, size_t n, bool json)
{
	size_t i = 0;

	while (i < n) {
		size_t len;

		if (p[i] < 0x80) {
			out_ascii(o, p[i++], json);
			continue;
		}
		len = utf8_seq_len(p + i, n - i);
		if (len) {
			eh_out_write(o, p + i, len);
			i += len;
		} else {
			/* Not UTF-8: take the byte as Latin-1. */
			out_ucs(o, p[i++], json);
		}
	}
}

static void out_latin1(struct eh_out *o, const uint8_t *p, size_t n,
		       bool json)
{
	size_t i;

	for (i = 0; i < n; i++)
		out_ucs(o, p[i], json);
}

static void out_utf16(struct eh_out *o, const uint8_t *p, size_t units,
		      bool big_endian, bool json)
{
	size_t i;

	for (i = 0; i < units; i++) {
		uint32_t w0 = (uint32_t)get_uint(p + 2 * i, 2, big_endian);
		uint32_t w1;

		/* A high surrogate followed by a low one makes a pair. */
		if (w0 >= 0xd800 && w0 <= 0xdbff && i + 1 < units) {
			w1 = (uint32_t)get_uint(p + 2 * i + 2, 2, big_endian);
			if (w1 >= 0xdc00 && w1 <= 0xdfff) {
				w0 = 0x10000 + ((w0 - 0xd800) << 10) +
				     (w1 - 0xdc00);
				i++;
			}
		}
		out_ucs(o, w0, json);
	}
}

static void out_utf32(struct eh_out *o, const uint8_t *p, size_t units,
		      bool big_endian, bool json)
{
	size_t i;

	for (i = 0; i < units; i++)
		out_ucs(o, (uint32_t)get_uint(p + 4 * i, 4, big_endian), json);
}

/*
 * A byte order mark, when there is one, overrides the encoding: the
 * UTF-32 marks are looked for first, as FF FE is also UTF-16's.
 */
static bool out_bom_string(struct eh_out *o, const uint8_t *p, size_t n,
			   bool json)
{
	static const uint8_t bom32le[] = { 0xff, 0xfe, 0x00, 0x00 };
	static const uint8_t bom32be[] = { 0x00, 0x00, 0xfe, 0xff };
	int kind;

	if (n >= 4 && !memcmp(p, bom32le, 4))
		kind = 1;
	else if (n >= 4 && !memcmp(p, bom32be, 4))
		kind = 2;
	else if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
		kind = 3;
	else if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
		kind = 4;
	else if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		kind = 5;
	else
		return false;

	eh_out_quote(o, json);
	if (kind <= 2)
		out_utf32(o, p + 4, n / 4 - 1, kind == 2, json);
	else if (kind <= 4)
		out_utf16(o, p + 2, n / 2 - 1, kind == 4, json);
	else
		eh_out_utf8(o, p + 3, n - 3, json);
	eh_out_quote(o, json);
	return true;
}

static bool is_bom_format(unsigned int format)
{
	return format == EH_FMT_STRING_UTF_BOM || format == EH_FMT_STRING_XML ||
	       format == EH_FMT_STRING_JSON;
}

/* --- scalars --------------------------------------------------------- */

static void out_hex_bytes(struct eh_out *o, const uint8_t *p, size_t n,
			  bool json)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	eh_out_quote(o, json);
	for (i = 0; i < n; i++) {
		if (i)
			eh_out_putc(o, ' ');
		eh_out_putc(o, hex[p[i] >> 4]);
		eh_out_putc(o, hex[p[i] & 15]);
	}
	eh_out_quote(o, json);
}

static const char *const eh_errno_names[] = {
	NULL, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
	"ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT",
	"ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR",
	"EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
	"ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
	"ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", NULL,
	"ENOMSG", "EIDRM", "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST", "ELNRNG",
	"EUNATCH", "ENOCSI", "EL2HLT", "EBADE", "EBADR", "EXFULL", "ENOANO",
	"EBADRQC", "EBADSLT", NULL, "EBFONT", "ENOSTR", "ENODATA", "ETIME",
	"ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV", "ESRMNT",
	"ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW",
	"ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN",
	"ELIBMAX", "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS",
	"ENOTSOCK", "EDESTADDRREQ", "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT",
	"EPROTONOSUPPORT", "ESOCKTNOSUPPORT", "EOPNOTSUPP", "EPFNOSUPPORT",
	"EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL", "ENETDOWN",
	"ENETUNREACH", "ENETRESET", "ECONNABORTED", "ECONNRESET", "ENOBUFS",
	"EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT",
	"ECONNREFUSED", "EHOSTDOWN", "EHOSTUNREACH", "EALREADY",
	"EINPROGRESS", "ESTALE", "EUCLEAN", "ENOTNAM", "ENAVAIL", "EISNAM",
	"EREMOTEIO", "EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE", "ECANCELED",
	"ENOKEY", "EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
	"ENOTRECOVERABLE", "ERFKILL", "EHWPOISON",
};

static void out_errno(struct eh_out *o, uint32_t val, bool json)
{
	size_t n = sizeof(eh_errno_names) / sizeof(eh_errno_names[0]);

	eh_out_quote(o, json);
	if (val < n && eh_errno_names[val])
		eh_out_printf(o, "%s(%u)", eh_errno_names[val], val);
	else
		eh_out_printf(o, "ERRNO(%d)", (int32_t)val);
	eh_out_quote(o, json);
}

/*
 * Seconds since 1970 as a UTC date, by the days-to-civil arithmetic of
 * the proleptic Gregorian calendar (eras of 400 years starting in March).
 * Years whose tm_year would not fit an int are shown as TIME(n), as
 * gmtime_r() refuses them.
 */
static void out_time(struct eh_out *o, int64_t t, bool json)
{
	int64_t days = t / 86400, secs = t % 86400;
	int64_t z, era, doe, yoe, doy, mp, year;
	unsigned int mon, mday;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	mday = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	mon = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	year = yoe + era * 400 + (mon <= 2);

	eh_out_quote(o, json);
	if (year - 1900 < INT32_MIN || year - 1900 > INT32_MAX)
		eh_out_printf(o, "TIME(%" PRId64 ")", t);
	else
		eh_out_printf(o, "%04" PRId64 "-%02u-%02uT%02u:%02u:%02u", year,
			      mon, mday, (unsigned int)(secs / 3600),
			      (unsigned int)(secs / 60 % 60),
			      (unsigned int)(secs % 60));
	eh_out_quote(o, json);
}

static void out_bool(struct eh_out *o, uint32_t v)
{
	if (v <= 1)
		eh_out_puts(o, v ? "true" : "false");
	else
		eh_out_printf(o, "%d", (int32_t)v);
}

static bool float_round_trips(const char *s, double v, bool single)
{
	if (single) {
		float f = strtof(s, NULL), g = (float)v;

		return !memcmp(&f, &g, sizeof(f));
	}
	double d = strtod(s, NULL);

	return !memcmp(&d, &v, sizeof(d));
}

/*
 * Shortest decimal that reads back as @v: digits (no point) and the
 * exponent of the first digit.  Tries the correctly rounded n-digit form
 * and its two neighbours, for n = 1, 2, ..., so it finds the same digits
 * as Ryu-style algorithms.
 */
static void float_shortest(double v, bool single, char *digits, int *exp10)
{
	int max = single ? 9 : 17;
	char tmp[48];
	int p;

	for (p = 1; p <= max; p++) {
		unsigned long long m, cand[3];
		int e, i, k;
		char *dot;

		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
		dot = strchr(tmp, 'e');
		e = atoi(dot + 1);
		m = 0;
		for (k = 0; tmp[k] != 'e'; k++)
			if (tmp[k] >= '0' && tmp[k] <= '9')
				m = m * 10 + (unsigned long long)(tmp[k] - '0');
		cand[0] = m;
		cand[1] = m - 1;
		cand[2] = m + 1;
		for (i = 0; i < 3; i++) {
			char num[48], ds[24];
			int ce = e;

			if (i == 1 && m == 0)
				continue;
			snprintf(ds, sizeof(ds), "%llu", cand[i]);
			if ((int)strlen(ds) > p) {	/* 99 + 1 = 100 */
				ds[p] = '\0';
				ce++;
			} else if ((int)strlen(ds) < p) {
				continue;	/* 10 - 1 = 9: a shorter form */
			}
			snprintf(num, sizeof(num), "%s%c.%se%d",
				 signbit(v) ? "-" : "", ds[0], ds + 1, ce);
			if (float_round_trips(num, v, single)) {
				size_t n = strlen(ds);

				while (n > 1 && ds[n - 1] == '0')
					ds[--n] = '\0';
				strcpy(digits, ds);
				*exp10 = ce;
				return;
			}
		}
	}
	/* Not reached: 9 or 17 digits always round-trip. */
	snprintf(digits, 24, "0");
	*exp10 = 0;
}

/* Like C++ std::to_chars(double): shortest, fixed unless 'e' is shorter. */
static void out_float(struct eh_out *o, double v, bool single, bool json)
{
	char digits[24], sci[48], fix[400];
	int e, n, i, len_s, len_f;

	if (isnan(v) || isinf(v)) {
		eh_out_quote(o, json);
		eh_out_puts(o, signbit(v) ? "-" : "");
		eh_out_puts(o, isnan(v) ? "nan" : "inf");
		eh_out_quote(o, json);
		return;
	}
	float_shortest(v, single, digits, &e);
	n = (int)strlen(digits);

	len_s = snprintf(sci, sizeof(sci), "%s%c%s%se%c%02d",
			 signbit(v) ? "-" : "", digits[0], n > 1 ? "." : "",
			 digits + 1, e < 0 ? '-' : '+', e < 0 ? -e : e);

	len_f = 0;
	if (signbit(v))
		fix[len_f++] = '-';
	if (e >= n - 1) {
		memcpy(fix + len_f, digits, (size_t)n);
		len_f += n;
		for (i = 0; i < e - (n - 1); i++)
			fix[len_f++] = '0';
	} else if (e >= 0) {
		memcpy(fix + len_f, digits, (size_t)e + 1);
		len_f += e + 1;
		fix[len_f++] = '.';
		memcpy(fix + len_f, digits + e + 1, (size_t)(n - e - 1));
		len_f += n - e - 1;
	} else {
		fix[len_f++] = '0';
		fix[len_f++] = '.';
		for (i = 0; i < -e - 1; i++)
			fix[len_f++] = '0';
		memcpy(fix + len_f, digits, (size_t)n);
		len_f += n;
	}
	if (len_f <= len_s)
		eh_out_write(o, fix, (size_t)len_f);
	else
		eh_out_write(o, sci, (size_t)len_s);
}

void eh_out_uuid(struct eh_out *o, const uint8_t *p, bool json)
{
	int i;

	eh_out_quote(o, json);
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			eh_out_putc(o, '-');
		eh_out_printf(o, "%02x", p[i]);
	}
	eh_out_quote(o, json);
}

static void out_ip(struct eh_out *o, const uint8_t *p, size_t n, bool json)
{
	char tmp[INET6_ADDRSTRLEN];

	eh_out_quote(o, json);
	if (n == 4)
		eh_out_printf(o, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
	else if (inet_ntop(AF_INET6, p, tmp, sizeof(tmp)))
		eh_out_puts(o, tmp);
	eh_out_quote(o, json);
}

/*
 * A fixed-size value (1, 2, 4, 8 or 16 bytes) shown in @format, as the
 * value8..value128 encodings are: formats that do not apply to the size
 * fall back to the encoding's default (unsigned, or hex bytes for 16).
 */
static void out_fixed(struct eh_out *o, const uint8_t *p, unsigned int size,
		      unsigned int format, bool be, bool json)
{
	uint64_t u = size <= 8 ? get_uint(p, size, be) : 0;
	int64_t s = size == 1 ? (int8_t)u : size == 2 ? (int16_t)u :
		    size == 4 ? (int32_t)u : (int64_t)u;
	float f;
	double g;

	switch (format) {
	case EH_FMT_SIGNED_INT:
		if (size <= 8)
			goto signed_int;
		break;
	case EH_FMT_PID:
		if (size == 4)
			goto signed_int;
		break;
	case EH_FMT_HEX_INT:
		if (size > 8)
			break;
		eh_out_quote(o, json);
		eh_out_printf(o, "0x%" PRIX64, u);
		eh_out_quote(o, json);
		return;
	case EH_FMT_ERRNO:
		if (size != 4)
			break;
		out_errno(o, (uint32_t)u, json);
		return;
	case EH_FMT_TIME:
		if (size != 4 && size != 8)
			break;
		out_time(o, s, json);
		return;
	case EH_FMT_BOOLEAN:
		if (size > 4)
			break;
		out_bool(o, (uint32_t)u);
		return;
	case EH_FMT_FLOAT:
		if (size == 4) {
			uint32_t bits = (uint32_t)u;

			memcpy(&f, &bits, sizeof(f));
			out_float(o, f, true, json);
			return;
		}
		if (size == 8) {
			memcpy(&g, &u, sizeof(g));
			out_float(o, g, false, json);
			return;
		}
		break;
	case EH_FMT_HEX_BYTES:
		out_hex_bytes(o, p, size, json);
		return;
	case EH_FMT_STRING8:
		if (size != 1)
			break;
		eh_out_quote(o, json);
		out_ucs(o, p[0], json);
		eh_out_quote(o, json);
		return;
	case EH_FMT_STRING_UTF:
		if (size != 2 && size != 4)
			break;
		eh_out_quote(o, json);
		out_ucs(o, (uint32_t)u, json);
		eh_out_quote(o, json);
		return;
	case EH_FMT_UUID:
		if (size != 16)
			break;
		eh_out_uuid(o, p, json);
		return;
	case EH_FMT_PORT:
		if (size != 2)
			break;
		eh_out_printf(o, "%u", (unsigned int)get_uint(p, 2, true));
		return;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IP_ADDRESS_OBSOLETE:
		if (size != 4 && size != 16)
			break;
		out_ip(o, p, size, json);
		return;
	}
	if (size == 16)
		out_hex_bytes(o, p, size, json);
	else
		eh_out_printf(o, "%" PRIu64, u);
	return;
signed_int:
	eh_out_printf(o, "%" PRId64, s);
}

uint32_t eh_format_counted_sizes(unsigned int format)
{
	switch (format) {
	case EH_FMT_UNSIGNED_INT:
	case EH_FMT_SIGNED_INT:
	case EH_FMT_HEX_INT:
		return 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8;
	case EH_FMT_ERRNO:
	case EH_FMT_PID:
		return 1u << 4;
	case EH_FMT_TIME:
	case EH_FMT_FLOAT:
		return 1u << 4 | 1u << 8;
	case EH_FMT_BOOLEAN:
		return 1u << 1 | 1u << 2 | 1u << 4;
	case EH_FMT_UUID:
		return 1u << 16;
	case EH_FMT_PORT:
		return 1u << 2;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IP_ADDRESS_OBSOLETE:
		return 1u << 4 | 1u << 16;
	}
	return 0;
}

static void out_string8(struct eh_out *o, const uint8_t *p, size_t n,
			unsigned int format, bool json)
{
	if (is_bom_format(format) && out_bom_string(o, p, n, json))
		return;
	eh_out_quote(o, json);
	if (format == EH_FMT_STRING8)
		out_latin1(o, p, n, json);
	else
		eh_out_utf8(o, p, n, json);
	eh_out_quote(o, json);
}

int eh_out_value(struct eh_out *o, const uint8_t *p, size_t n,
		 unsigned int enc, unsigned int format, bool be, bool json)
{
	uint32_t sizes;

	switch (enc) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		if (n != 1u << (enc - EH_ENC_VALUE8))
			return -EINVAL;
		out_fixed(o, p, (unsigned int)n, format, be, json);
		return 0;
	case EH_ENC_ZSTRING_CHAR8:
		if (format == EH_FMT_HEX_BYTES)
			out_hex_bytes(o, p, n, json);
		else
			out_string8(o, p, n, format, json);
		return 0;
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		/*
		 * Counted bytes double as nullable fixed-size values: empty
		 * is null, a size the format knows is that value, any other
		 * size falls back to the encoding's default format.
		 */
		sizes = eh_format_counted_sizes(format);
		if (sizes && !n) {
			eh_out_puts(o, "null");
			return 0;
		}
		if (sizes && n <= 16 && (sizes & (1u << n))) {
			out_fixed(o, p, (unsigned int)n, format, be, json);
			return 0;
		}
		if (format == EH_FMT_HEX_BYTES)
			out_hex_bytes(o, p, n, json);
		else if (format == EH_FMT_STRING8 ||
			 format == EH_FMT_STRING_UTF || is_bom_format(format))
			out_string8(o, p, n, format, json);
		else if (enc == EH_ENC_BINARY_LENGTH16_CHAR8)
			out_hex_bytes(o, p, n, json);
		else
			out_string8(o, p, n, EH_FMT_STRING_UTF, json);
		return 0;
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR16:
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR32: {
		bool wide = enc == EH_ENC_ZSTRING_CHAR32 ||
			    enc == EH_ENC_STRING_LENGTH16_CHAR32;
		size_t unit = wide ? 4 : 2;

		if (n % unit)
			return -EINVAL;
		if (format == EH_FMT_HEX_BYTES) {
			out_hex_bytes(o, p, n, json);
			return 0;
		}
		if (is_bom_format(format) && out_bom_string(o, p, n, json))
			return 0;
		eh_out_quote(o, json);
		if (wide)
			out_utf32(o, p, n / 4, be, json);
		else
			out_utf16(o, p, n / 2, be, json);
		eh_out_quote(o, json);
		return 0;
	}
	case EH_ENC_INVALID:
	case EH_ENC_STRUCT:
		return -EINVAL;
	}
	return -ENOTSUP;
}

ssize_t eh_format_value_raw(char *buf, size_t size, const void *data,
			    size_t len, unsigned int encoding,
			    unsigned int format, bool big_endian,
			    unsigned int flags)
{
	struct eh_out o = { buf, size, 0 };
	int ret;

	if (!data && len)
		return -EINVAL;
	ret = eh_out_value(&o, data, len, encoding & EH_ENC_VALUE_MASK,
			   format & EH_FMT_VALUE_MASK, big_endian,
			   flags & EH_TEXT_JSON);
	if (ret < 0) {
		if (size)
			buf[0] = '\0';
		return ret;
	}
	return eh_out_finish(&o);
}

ssize_t eh_format_value(char *buf, size_t size, const struct eh_item *item,
			unsigned int flags)
{
	if (item->kind != EH_ITEM_VALUE)
		return -EINVAL;
	return eh_format_value_raw(buf, size, item->data, item->size,
				   item->encoding, item->format,
				   item->big_endian, flags);
}
