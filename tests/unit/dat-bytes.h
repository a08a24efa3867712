/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-bytes.h - a trace.dat written byte by byte in a unit test: numbers
 * in the file's byte order, raw bytes, texts after their size, and the
 * header_page and header_event texts the kernel gives for either size of
 * a long.  The buffer must have room: nothing is checked.
 */
#ifndef _TESTS_DAT_BYTES_H
#define _TESTS_DAT_BYTES_H

#include <stdint.h>
#include <string.h>

struct dat_bytes {
	uint8_t		*data;
	size_t		len;
	int		big;		/* the file's byte order */
	unsigned int	long_size;	/* 4 or 8, when the test needs it */
};

/* @v as a number of @n bytes. */
static inline void dat_put(struct dat_bytes *b, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		b->data[b->len + i] = v >> (8 * (b->big ? n - 1 - i : i));
	b->len += n;
}

static inline void dat_put_raw(struct dat_bytes *b, const void *p, size_t n)
{
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* @s after its length as a number of @sz bytes. */
static inline void dat_put_text(struct dat_bytes *b, const char *s,
				unsigned int sz)
{
	dat_put(b, strlen(s), sz);
	dat_put_raw(b, s, strlen(s));
}

static const char dat_header_page_8[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char dat_header_page_4[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
static const char dat_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/*
 * The format of an event of 16 bytes (the common fields, then a u64 v),
 * as the kernel writes it, of ID 0x1234: for files whose records need a
 * format (libtracecmd's iteration stops at a record with missed events
 * whose event it cannot find; the salvaging check damages a record
 * whose ID no format has).
 */
#define DAT_TEST_EVENT_ID	0x1234
static const char dat_test_event_format[] =
	"name: test\nID: 4660\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:u64 v;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"v=%llu\", REC->v\n";

#endif /* _TESTS_DAT_BYTES_H */
