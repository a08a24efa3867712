/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dat-intern.h - the parts of the .dat v7 writer that dat-writer.c uses:
 * a growable byte buffer, the kernel ring-buffer page
 * encoder and the page spool.  Not part of the core's API.
 */
#ifndef _DAT_INTERN_H
#define _DAT_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * --- dat-buf.c: bytes built in memory, numbers in the file's order ---
 *
 * A .dat is wholly in the byte order of the machine that recorded it
 * (initial header, sections, options, pages, records): big is that order.
 */

struct dat_buf {
	uint8_t		*data;
	size_t		len;
	size_t		cap;
	int		err;	/* sticky -ENOMEM */
	bool		big;	/* numbers big endian; kept by free */
};

void dat_buf_put(struct dat_buf *b, const void *p, size_t n);
void dat_buf_put_zero(struct dat_buf *b, size_t n);
void dat_buf_put_u16(struct dat_buf *b, uint16_t v);
void dat_buf_put_u32(struct dat_buf *b, uint32_t v);
void dat_buf_put_u64(struct dat_buf *b, uint64_t v);
/* The string and its NUL. */
void dat_buf_put_str(struct dat_buf *b, const char *s);
void dat_buf_free(struct dat_buf *b);

void dat_put16(uint8_t *p, uint16_t v, bool big);
void dat_put32(uint8_t *p, uint32_t v, bool big);
void dat_put64(uint8_t *p, uint64_t v, bool big);

/* --- dat-page.c: one ring-buffer page being filled --- */

/*
 * The page is what the kernel hands to splice readers: a header of a u64
 * timestamp and a long "commit" (bytes of event data that follow), then
 * events, each a 32-bit word of type_len (5 bits) and time delta from the
 * previous event (27 bits), then its data.  In a big-endian file the
 * word is a big-endian u32 whose top 5 bits are type_len and low 27 the
 * delta (the kernel's bitfield on such a machine).
 */
struct dat_page {
	uint8_t		*buf;		/* page_size bytes */
	unsigned int	page_size;
	unsigned int	hdr_size;	/* 8 + long size */
	unsigned int	used;		/* event bytes after header */
	uint64_t	last_ts;	/* timestamp of the last event */
	bool		empty;
	/* events lost before this page: 0 none, -1 unknown, else count */
	int64_t		missed;
	bool		big;		/* big-endian numbers */
};

int dat_page_init(struct dat_page *pg, unsigned int page_size,
		  unsigned int long_size, bool big);
void dat_page_release(struct dat_page *pg);
/* Forget the events: the page is empty again, buffer kept. */
void dat_page_reset(struct dat_page *pg);
/* Largest event data one page can take. */
size_t dat_page_max_data(const struct dat_page *pg);
/*
 * Append an event of len data bytes at ts (>= the page's last event).
 * -ENOSPC if the page must be closed first (full, or a delta too large
 * for a time extend event), -E2BIG if not even an empty page can take it.
 */
int dat_page_add(struct dat_page *pg, uint64_t ts, const void *data,
		 size_t len);
/*
 * Events were lost before the page's first event (count < 0: unknown).
 * Marks add up; a count is kept at most INT32_MAX.
 */
void dat_page_mark_lost(struct dat_page *pg, int64_t count);
/* Write the commit field (and the lost count after the events); the page
 * is then ready to be stored whole. */
void dat_page_finish(struct dat_page *pg);

/* --- dat-spool.c: finished pages kept in an unlinked temporary file --- */

struct dat_spool;

struct dat_spool *dat_spool_create(const char *dir, unsigned int page_size);
void dat_spool_free(struct dat_spool *sp);
/* Store one page; returns its slot number (>= 0) or a negative errno. */
int64_t dat_spool_put(struct dat_spool *sp, const void *page);
/* Read the page at slot back into page. */
int dat_spool_get(struct dat_spool *sp, int64_t slot, void *page);

#endif /* _DAT_INTERN_H */
