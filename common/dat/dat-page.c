// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-page.c - encode events into kernel ring-buffer pages.
 *
 * The layout is the one header_page and header_event describe and
 * libtraceevent's kbuffer reads:
 *  - page header: u64 timestamp of the page, then a long whose low bits
 *    count the bytes of events that follow (the "commit").
 *  - event word: type_len in bits 0..4, time delta in bits 5..31.
 *    type_len 1..28: the data is type_len * 4 bytes and follows the word;
 *    type_len 0: the next u32 is the data length plus 4, then the data;
 *    type_len 30 (time extend): the next u32 holds delta bits 27 and up.
 * Deltas are from the previous event on the page; the first event of a
 * page has delta 0 and the page header carries its timestamp, so a new
 * page needs no time extend whatever the gap.
 *
 * The page tail after the commit is left zeroed and uncounted, as pages
 * saved by trace-cmd from a live kernel are: padding events are only
 * needed inside a page that is still being written to.
 *
 * Events lost before a page are told as the kernel tells a reader that
 * found its ring buffer overrun: bit 31 of the commit long ("missed
 * events"), and when the count is known and a long still fits after the
 * events, bit 30 ("stored") with the count as a long right after the
 * last event, outside the counted bytes.  kbuffer hands the count (or -1
 * without bit 30) to the page's first event only, so a marked page's
 * first event must not be preceded by a time extend: it never is here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat-format.h"
#include "dat-intern.h"

/* A time extend carries 27 + 32 bits of delta. */
#define DAT_EXTEND_BITS	(DAT_DELTA_BITS + 32)
#define DAT_SMALL_MAX	(DAT_TYPE_LEN_MAX * 4)

static size_t dat_align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Bytes an event of len data bytes takes, its word(s) included. */
static size_t dat_event_size(size_t len)
{
	if (len && len <= DAT_SMALL_MAX)
		return 4 + dat_align4(len);
	return 8 + dat_align4(len);
}

int dat_page_init(struct dat_page *pg, unsigned int page_size,
		  unsigned int long_size, bool big)
{
	memset(pg, 0, sizeof(*pg));
	pg->buf = calloc(1, page_size);
	if (!pg->buf)
		return -ENOMEM;
	pg->page_size = page_size;
	pg->hdr_size = 8 + long_size;
	pg->empty = true;
	pg->big = big;
	return 0;
}

void dat_page_release(struct dat_page *pg)
{
	free(pg->buf);
	pg->buf = NULL;
}

void dat_page_reset(struct dat_page *pg)
{
	memset(pg->buf, 0, pg->page_size);
	pg->used = 0;
	pg->last_ts = 0;
	pg->empty = true;
	pg->missed = 0;
}

/* libtraceevent returns the count as an int: more would wrap */
void dat_page_mark_lost(struct dat_page *pg, int64_t count)
{
	if (count < 0 || pg->missed < 0)
		pg->missed = -1;
	else if (count > INT32_MAX - pg->missed)
		pg->missed = INT32_MAX;
	else
		pg->missed += count;
}

static unsigned int dat_page_long(const struct dat_page *pg)
{
	return pg->hdr_size - 8;
}

size_t dat_page_max_data(const struct dat_page *pg)
{
	size_t room = pg->page_size - pg->hdr_size;

	/* a big event: two words, then data padded to 4 */
	return (room - 8) & ~(size_t)3;
}

static void dat_page_put_word(struct dat_page *pg, unsigned int type_len,
			      uint32_t delta)
{
	uint32_t word = type_len | delta << 5;

	/* a big-endian kernel's bitfield: type_len in the high bits */
	if (pg->big)
		word = type_len << DAT_DELTA_BITS | delta;
	dat_put32(pg->buf + pg->hdr_size + pg->used, word, pg->big);
	pg->used += 4;
}

static void dat_page_put_u32(struct dat_page *pg, uint32_t v)
{
	dat_put32(pg->buf + pg->hdr_size + pg->used, v, pg->big);
	pg->used += 4;
}

int dat_page_add(struct dat_page *pg, uint64_t ts, const void *data,
		 size_t len)
{
	uint64_t delta = 0;
	size_t need, room;
	uint32_t low;

	if (len > dat_page_max_data(pg))
		return -E2BIG;
	need = dat_event_size(len);
	if (!pg->empty) {
		if (ts < pg->last_ts)
			return -EINVAL;
		delta = ts - pg->last_ts;
		if (delta >> DAT_EXTEND_BITS)
			return -ENOSPC;
		if (delta >> DAT_DELTA_BITS)
			need += 8;
	}
	room = pg->page_size - pg->hdr_size - pg->used;
	/*
	 * A known lost count needs a long after the events.  The first
	 * event goes in regardless (the count then becomes unknown, as the
	 * kernel's does on a full page); later ones leave the room.
	 */
	if (pg->missed > 0 && !pg->empty)
		room = room > dat_page_long(pg) ? room - dat_page_long(pg) : 0;
	if (need > room)
		return -ENOSPC;

	if (pg->empty) {
		dat_put64(pg->buf, ts, pg->big);
		pg->empty = false;
	}
	low = delta & ((1u << DAT_DELTA_BITS) - 1);
	if (delta >> DAT_DELTA_BITS) {
		dat_page_put_word(pg, DAT_TYPE_TIME_EXTEND, low);
		dat_page_put_u32(pg, (uint32_t)(delta >> DAT_DELTA_BITS));
		low = 0;
	}
	if (len && len <= DAT_SMALL_MAX) {
		dat_page_put_word(pg, dat_align4(len) / 4, low);
	} else {
		dat_page_put_word(pg, 0, low);
		dat_page_put_u32(pg, (uint32_t)dat_align4(len) + 4);
	}
	if (len)
		memcpy(pg->buf + pg->hdr_size + pg->used, data, len);
	/* the alignment padding is already zero: pages start zeroed */
	pg->used += dat_align4(len);
	pg->last_ts = ts;
	return 0;
}

void dat_page_finish(struct dat_page *pg)
{
	uint64_t commit = pg->used & DAT_COMMIT_MASK;
	uint8_t *end = pg->buf + pg->hdr_size + pg->used;

	if (pg->missed)
		commit |= DAT_MISSED_EVENTS;
	if (pg->missed > 0 &&
	    pg->page_size - pg->hdr_size - pg->used >= dat_page_long(pg)) {
		commit |= DAT_MISSED_STORED;
		if (pg->hdr_size == 16)
			dat_put64(end, pg->missed, pg->big);
		else
			dat_put32(end, (uint32_t)pg->missed, pg->big);
	}
	if (pg->hdr_size == 16)
		dat_put64(pg->buf + 8, commit, pg->big);
	else
		dat_put32(pg->buf + 8, (uint32_t)commit, pg->big);
}
