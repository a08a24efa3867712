// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-pages.c - a CPU's ring-buffer pages, page by page and event by
 * event, as kbuffer will walk them; v7's zstd chunks decompressed first.
 * The IDs of the records met and the records of watched events are
 * handed on here.  Which CPU's data is walked when is datcheck-jobs.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include <zstd.h>

#include "datcheck-intern.h"

/* The common fields every event has. */
#define DC_MIN_EVENT		8

/* Hand a watched event's record to the caller. */
static void dc_watch_record(struct dc_file *f, uint64_t ts,
			    const uint8_t *data, uint32_t len)
{
	const struct datcheck_watch *w = f->watch;
	uint32_t type = (uint32_t)dc_num(f, data, 2) + 1;
	struct datcheck_record r;
	unsigned int i;

	for (i = 0; i < w->nr_events && i < DATCHECK_MAX_WATCH; i++) {
		if (f->watch_id[i] != type)
			continue;
		r = (struct datcheck_record){
			.buffer = f->walk_buffer, .cpu = f->walk_cpu,
			.event = i, .ts = ts, .data = data, .len = len,
		};
		if (w->record(&r, w->priv))
			f->watch = NULL;
		return;
	}
}

/*
 * One page as kbuffer walks it: the commit word, then event headers up to
 * the committed size.  Every event lies inside the commit, no padding
 * goes backwards (kbuffer would loop), every event holds the common
 * fields.  The time is followed as kbuffer follows it (the page's, plus
 * each delta; an extend adds its high bits, a stamp sets the time), for
 * the records of watched events.
 */
static int dc_page(struct dc_cur *c, size_t at, uint32_t page_size)
{
	struct dc_file *f = c->f;
	const uint8_t *pg = c->p + at, *d;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint32_t area = page_size - start, size, curr, next, v, type, delta;
	uint64_t commit = dc_num(f, pg + 8, f->commit_size);
	uint64_t ts = dc_num(f, pg, 8), high;
	int64_t length;

	size = (uint32_t)commit & DAT_COMMIT_MASK;
	if (size > area)
		return dc_fail(c, at + 8, "page commit size %u is larger than "
			       "the page's %u data bytes (commit word 0x%llx)",
			       size, area, (unsigned long long)commit);
	if ((commit & DAT_MISSED_EVENTS) && (commit & DAT_MISSED_STORED) &&
	    size + f->commit_size > area)
		return dc_fail(c, at + 8, "page commit size %u leaves no room "
			       "for the lost-event count", size);
	d = pg + start;
	for (curr = 0; curr < size; curr = next) {
		if (area - curr < 8)
			return dc_fail(c, at + start + curr, "event header at "
				       "the end of the page");
		v = (uint32_t)dc_num(f, d + curr, 4);
		type = f->big ? v >> DAT_DELTA_BITS : v & 0x1f;
		delta = f->big ? v & DAT_COMMIT_MASK : v >> 5;
		switch (type) {
		case DAT_TYPE_PADDING:
			next = curr + 4 + (uint32_t)dc_num(f, d + curr + 4, 4);
			if (next <= curr)
				return dc_fail(c, at + start + curr, "padding "
					       "of the page goes backwards");
			ts += delta;
			continue;
		case DAT_TYPE_TIME_EXTEND:
		case DAT_TYPE_TIME_STAMP:
			high = dc_num(f, d + curr + 4, 4) << DAT_DELTA_BITS;
			ts = (type == DAT_TYPE_TIME_STAMP ? 0 : ts) + high +
			     delta;
			next = curr + 8;
			continue;
		case 0:
			length = (int64_t)dc_num(f, d + curr + 4, 4) - 4;
			length = (length + 3) & ~3LL;
			curr += 8;
			break;
		default:
			length = type * 4;
			curr += 4;
			break;
		}
		/* a header may itself end past the commit: kbuffer reads it */
		if (length < DC_MIN_EVENT || curr > size ||
		    length > size - curr)
			return dc_fail(c, at + start + curr - (type ? 4 : 8),
				       "event of %lld bytes: outside the "
				       "page's %u committed bytes or shorter "
				       "than the common fields",
				       (long long)length, size);
		next = curr + (uint32_t)length;
		ts += delta;
		if (f->ids) {
			v = (uint32_t)dc_num(f, d + curr, 2);
			f->ids[v >> 3] |= 1u << (v & 7);
		}
		if (f->watch)
			dc_watch_record(f, ts, d + curr, (uint32_t)length);
	}
	return 0;
}

int dc_pages(struct dc_cur *c, size_t at, uint64_t size,
	     uint32_t page_size)
{
	uint64_t off;

	if (size % page_size)
		return dc_fail(c, at, "CPU data of %llu bytes is not a whole "
			       "number of %u-byte pages",
			       (unsigned long long)size, page_size);
	for (off = 0; off < size; off += page_size)
		if (dc_page(c, at + off, page_size))
			return -EBADMSG;
	return 0;
}

/* zstd data of @csize bytes at @p into exactly @usize bytes (malloc'ed) */
uint8_t *dc_inflate(struct dc_cur *c, size_t at, const uint8_t *p,
		    uint64_t csize, uint64_t usize)
{
	uint8_t *out;
	size_t got;

	if (usize > DC_MAX_INFLATE) {
		dc_fail(c, at, "claims %llu bytes once decompressed",
			(unsigned long long)usize);
		return NULL;
	}
	out = malloc(usize ? usize : 1);
	if (!out) {
		c->f->ret = -ENOMEM;
		return NULL;
	}
	got = ZSTD_decompress(out, usize, p, csize);
	if (ZSTD_isError(got) || got != usize) {
		dc_fail(c, at, "compressed data does not decompress to the "
			"%llu bytes it claims (%s)", (unsigned long long)usize,
			ZSTD_isError(got) ? ZSTD_getErrorName(got) :
			"size differs");
		free(out);
		return NULL;
	}
	return out;
}

/*
 * v7 compressed CPU data: count(4), then chunks of csize(4) usize(4)
 * data.  The CPU's data starts at @at in the file; @count chunks are
 * walked from @pos past it, or, when @pos is 0, as many as the count
 * there says.
 */
int dc_cpu_chunks(struct dc_cur *file, size_t at, uint64_t pos,
		  uint64_t count, uint32_t page_size)
{
	struct dc_cur c = *file;
	uint64_t i, csize, usize;
	const uint8_t *z;
	uint8_t *page_data;
	size_t zat;
	int ret;

	/*
	 * libtracecmd reads the chunks from the file as counted; the
	 * recorded size leaves out the count itself.
	 */
	c.p = file->p + at;
	c.len = file->len - at;
	c.pos = pos;
	c.base = at;
	c.in = "the CPU's compressed data";
	if (!pos && dc_u(&c, 4, "the chunk count", &count))
		return -EBADMSG;
	for (i = 0; i < count; i++) {
		if (dc_u(&c, 4, "a chunk's compressed size", &csize) ||
		    dc_u(&c, 4, "a chunk's size", &usize))
			return -EBADMSG;
		zat = c.pos - 8;
		if (!usize || usize % page_size)
			return dc_fail(&c, zat, "chunk of %llu bytes is not a "
				       "whole number of %u-byte pages",
				       (unsigned long long)usize, page_size);
		z = dc_take(&c, csize, "a compressed chunk");
		if (!z)
			return -EBADMSG;
		page_data = dc_inflate(&c, zat, z, csize, usize);
		if (!page_data)
			return c.f->ret;
		{
			struct dc_cur pc = {
				.f = c.f, .p = page_data, .len = usize,
				.base = at + zat, .inflated = true,
				.in = "a CPU data chunk",
			};

			ret = dc_pages(&pc, 0, usize, page_size);
		}
		free(page_data);
		if (ret)
			return ret;
	}
	return 0;
}
