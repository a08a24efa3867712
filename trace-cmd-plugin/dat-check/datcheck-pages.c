// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-pages.c - a CPU's ring-buffer pages, page by page and event by
 * event, as kbuffer will walk them; v7's zstd chunks decompressed first.
 * The IDs of the records met and the records of watched events are
 * handed on here.  Which CPU's data is walked when is datcheck-jobs.c's.
 *
 * Salvaging (DATCHECK_SALVAGE), a fault does not end the walk: the page
 * keeps the events before it and the rest of the page is damage, a
 * chunk that does not inflate is skipped to the next one whose header
 * holds, and each stretch is kept with the job's good events around it
 * (struct dc_region) for the merge to make the CPU's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "datcheck-intern.h"

/* The common fields every event has. */
#define DC_MIN_EVENT		8

/* A zstd frame's first bytes, as they lie in any file. */
static const uint8_t dc_zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

/*
 * A good event met while salvaging, at @ts: counted, and the time after
 * of the damage still waiting for one (the last stretches kept).
 */
static void dc_good_event(struct dc_job_out *o, uint64_t ts)
{
	unsigned int i;

	if (!o->events++)
		o->first_ts = ts;
	o->last_ts = ts;
	for (i = o->nr_regions; i && !o->regions[i - 1].after; i--) {
		o->regions[i - 1].after = true;
		o->regions[i - 1].ts_after = ts;
	}
}

/*
 * The fault just met, salvaged: the @len bytes at @pos of @c (of the
 * file past c->base, or of the chunk inflated there) kept as damage
 * with the fault's message, joined to the last stretch when no good
 * event lies between, and the walk free to go on.  0; the fault's
 * return when not salvaging, or -ENOMEM.
 */
static int dc_salvage(struct dc_cur *c, uint64_t pos, uint64_t len)
{
	struct dc_file *f = c->f;
	struct dc_job_out *o = f->salvage;
	struct dc_region *r, *n;
	bool solo = f->join_not;

	f->join_not = false;
	if (!o || f->ret != -EBADMSG)
		return f->ret;
	r = o->nr_regions ? &o->regions[o->nr_regions - 1] : NULL;
	if (r && !r->after && !solo && !r->garbled &&
	    r->inflated == c->inflated &&
	    (c->inflated ? r->off == c->base && r->in_off + r->in_len == pos :
			   r->off + r->len == c->base + pos)) {
		if (c->inflated)
			r->in_len += len;
		else
			r->len += len;
	} else {
		n = realloc(o->regions, (o->nr_regions + 1) * sizeof(*n));
		if (!n)
			return f->ret = -ENOMEM;
		o->regions = n;
		r = &n[o->nr_regions];
		*r = (struct dc_region){
			.off = c->inflated ? c->base : c->base + pos,
			.len = c->inflated ? 0 : len,
			.inflated = c->inflated, .garbled = solo,
			.in_off = c->inflated ? pos : 0,
			.in_len = c->inflated ? len : 0,
			.events_before = o->events, .ts_before = o->last_ts,
			.why = strdup(f->errlen ? f->err : ""),
		};
		if (!r->why)
			return f->ret = -ENOMEM;
		o->nr_regions++;
	}
	f->ret = 0;
	if (f->errlen)
		f->err[0] = '\0';
	return 0;
}

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
 * How many events a walk from where a damaged header's event ends must
 * find good (or the page's end) for that end to be taken as true.
 */
#define DC_HOLD_EVENTS	4

/*
 * Salvaging: whether the events of the page at @at from byte @from of
 * its data on walk, DC_HOLD_EVENTS of them or to its @size committed
 * bytes, each of an event ID a format has and as long as its format's
 * fields at least (a later fault is the walk's to find).
 */
static bool dc_events_hold(const struct dc_cur *c, size_t at,
			   uint32_t page_size, uint32_t size, uint32_t from)
{
	const struct dc_file *f = c->f;
	unsigned int start = f->commit_size == 8 ? 16 : 12, n = 0;
	const uint8_t *d = c->p + at + start;
	uint32_t area = page_size - start, curr, next, v, type;
	int64_t length;

	for (curr = from; curr < size && n < DC_HOLD_EVENTS; curr = next) {
		if (area - curr < 8)
			return false;
		v = (uint32_t)dc_num(f, d + curr, 4);
		type = f->big ? v >> DAT_DELTA_BITS : v & 0x1f;
		if (type == DAT_TYPE_PADDING) {
			next = curr + 4 + (uint32_t)dc_num(f, d + curr + 4, 4);
			if (next <= curr)
				return false;
			continue;
		}
		if (type == DAT_TYPE_TIME_EXTEND ||
		    type == DAT_TYPE_TIME_STAMP) {
			next = curr + 8;
			continue;
		}
		length = type ? type * 4 :
			 (((int64_t)dc_num(f, d + curr + 4, 4) - 4 + 3) & ~3LL);
		curr += type ? 4 : 8;
		if (length < DC_MIN_EVENT || curr > size ||
		    length > size - curr)
			return false;
		v = (uint32_t)dc_num(f, d + curr, 2);
		if (!(f->known[v >> 3] & (1u << (v & 7))) ||
		    f->ev_size[v] > length)
			return false;
		next = curr + (uint32_t)length;
		n++;
	}
	return true;
}

/*
 * Salvaging: the event whose header is at @hdr of the page at @at (its
 * data's bytes) has event ID @id and @length bytes, fewer than its
 * format's fields take: its header lies (a damaged type or length).
 * When the format has a fixed size, and the events from where the event
 * then ends walk the rest of the page, it is damaged alone (all of it,
 * garbled: its header does not walk its bytes) and *@next is its end;
 * else the page is damaged from it on (-EBADMSG).
 */
static int dc_short_event(struct dc_cur *c, size_t at, uint32_t page_size,
			  uint32_t size, uint32_t hdr, unsigned int id,
			  int64_t length, uint32_t *next)
{
	struct dc_file *f = c->f;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	/* what the ring buffer reserves: 4-byte steps, or 8 (64-bit) */
	uint32_t want = f->ev_size[id], sizes[2] = {
		(want + 3) & ~3u, (want + 7) & ~7u,
	}, end = 0, i, h;

	for (i = 0; !(f->ev_dyn[id >> 3] & (1u << (id & 7))) && !end &&
	     i < 2; i++)
		/* a length of 28 words or more has a word of its own */
		for (h = 4; !end && h <= 8; h += 4) {
			if ((h == 8) != (sizes[i] > 4 * 28) ||
			    hdr + h + sizes[i] > size)
				continue;
			if (dc_events_hold(c, at, page_size, size,
					   hdr + h + sizes[i]))
				end = hdr + h + sizes[i];
		}
	if (!end)
		return dc_fail(c, at + start + hdr, "event ID %u of %lld bytes: "
			       "shorter than its format's %u (its header is "
			       "damaged)", id, (long long)length, want);
	dc_fail(c, at + start + hdr, "event ID %u of %lld bytes: shorter than "
		"its format's %u (its header is damaged); the events after it "
		"read from where its format ends, byte %u", id,
		(long long)length, want, start + end);
	f->join_not = true;
	if (dc_salvage(c, at + start + hdr, end - hdr))
		return f->ret;
	*next = end;
	return 0;
}

/*
 * The events of the page at @at, @size committed bytes from @ts on, as
 * kbuffer walks them: event headers up to the committed size.  Every
 * event lies inside the commit, no padding goes backwards (kbuffer would
 * loop), every event holds the common fields.  The time is followed as
 * kbuffer follows it (the page's, plus each delta; an extend adds its
 * high bits, a stamp sets the time), for the records of watched events.
 * On a fault, *@fault is the faulty event's header (from the page's
 * start); *@last the last event's before it.  Salvaging, an event whose
 * ID no format has is damaged alone (the conversion would stop at it;
 * kbuffer walks past).  @dry: the structure only, nothing handed on.
 */
static int dc_events(struct dc_cur *c, size_t at, uint32_t page_size,
		     uint32_t size, uint64_t ts, bool dry, uint32_t *fault,
		     uint32_t *last)
{
	struct dc_file *f = c->f;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	const uint8_t *d = c->p + at + start;
	uint32_t area = page_size - start, curr, next, v, type, delta;
	uint64_t high;
	int64_t length;

	*last = 0;
	for (curr = 0; curr < size; curr = next) {
		*fault = start + curr;
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
		*last = *fault;
		if (dry)
			continue;
		v = (uint32_t)dc_num(f, d + curr, 2);
		/* salvaging: the event alone is damaged, the page goes on */
		if (f->known && !(f->known[v >> 3] & (1u << (v & 7)))) {
			dc_fail(c, at + *fault, "event ID %u: no format of the "
				"file has it", v);
			if (dc_salvage(c, at + *fault, start + next - *fault))
				return c->f->ret;
			continue;
		}
		/* salvaging: shorter than its format, its header lies */
		if (f->known && f->ev_size[v] > length) {
			if (dc_short_event(c, at, page_size, size,
					   *fault - start, v, length, &next))
				return -EBADMSG;
			continue;
		}
		if (f->ids)
			f->ids[v >> 3] |= 1u << (v & 7);
		if (f->watch)
			dc_watch_record(f, ts, d + curr, (uint32_t)length);
		if (f->salvage)
			dc_good_event(f->salvage, ts);
	}
	return 0;
}

/*
 * One page as kbuffer walks it: the commit word, then its events
 * (dc_events()).  On a fault, *@fault is where the page stops being
 * good: 0 for its header, else the faulty event's header.  Salvaging, a
 * header of zeros (no time, no commit: no ring buffer writes one) loses
 * the page; a commit word that lies about the page's size (a size past
 * the page, a lost-event count stored outside it) still lets the events
 * be read, as kbuffer would read them, up to the first fault past the
 * page's true end: the damage is from there on, or the commit word
 * alone when the events fill the page.  The damage is the *@len bytes
 * from *@fault on.
 */
static int dc_page(struct dc_cur *c, size_t at, uint32_t page_size,
		   uint32_t *fault, uint32_t *len)
{
	struct dc_file *f = c->f;
	const uint8_t *pg = c->p + at;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint32_t area = page_size - start, size, last;
	uint64_t commit = dc_num(f, pg + 8, f->commit_size);
	uint64_t ts = dc_num(f, pg, 8);
	bool lies, full = false;

	*fault = 0;
	size = (uint32_t)commit & DAT_COMMIT_MASK;
	lies = size > area || ((commit & DAT_MISSED_EVENTS) &&
			       (commit & DAT_MISSED_STORED) &&
			       size + f->commit_size > area);
	*len = page_size;
	if (lies && !f->salvage) {
		if (size > area)
			return dc_fail(c, at + 8, "page commit size %u is "
				       "larger than the page's %u data bytes "
				       "(commit word 0x%llx)", size, area,
				       (unsigned long long)commit);
		return dc_fail(c, at + 8, "page commit size %u leaves no room "
			       "for the lost-event count", size);
	}
	if (f->salvage && !ts && !commit) {
		*len = page_size;
		return dc_fail(c, at, "page header of zeros (no time, no "
			       "commit): whatever the page held is lost");
	}
	if (lies) {
		/* where the events stop holding, the page's true end */
		full = !dc_events(c, at, page_size, area, ts, true, fault,
				  &last);
		f->ret = 0;
		size = full ? area : *fault - start;
	}
	if (dc_events(c, at, page_size, size, ts, false, fault, &last)) {
		*len = page_size - *fault;
		return -EBADMSG;
	}
	if (!lies)
		return 0;
	*fault = full ? 8 : start + size;
	*len = full ? f->commit_size : page_size - *fault;
	return dc_fail(c, at + 8, "page commit word 0x%llx does not fit the "
		       "page's %u bytes of events (those before byte %u read)",
		       (unsigned long long)commit, area, start + size);
}

int dc_pages(struct dc_cur *c, size_t at, uint64_t size,
	     uint32_t page_size)
{
	uint64_t off, whole = size / page_size * page_size;
	uint32_t fault, len;

	if (whole != size && !c->f->salvage)
		return dc_fail(c, at, "CPU data of %llu bytes is not a whole "
			       "number of %u-byte pages",
			       (unsigned long long)size, page_size);
	for (off = 0; off < whole; off += page_size)
		if (dc_page(c, at + off, page_size, &fault, &len) &&
		    dc_salvage(c, at + off + fault, len))
			return c->f->ret;
	if (whole == size)
		return 0;
	/* salvaging: the pages before are read, not the last bytes */
	dc_fail(c, at + whole, "the CPU data's last %llu bytes are not a "
		"whole %u-byte page", (unsigned long long)(size - whole),
		page_size);
	return dc_salvage(c, at + whole, size - whole);
}

int dc_cut_tail(struct dc_cur *c, uint64_t pos, uint64_t data_at,
		uint64_t data_end, bool rebuilt)
{
	struct dc_file *f = c->f;
	struct dc_job_out *o = f->salvage;
	unsigned int n;
	char *why;

	if (!o || pos >= data_end)
		return 0;
	n = o->nr_regions;
	if (f->len > c->base + data_at)
		dc_fail(c, f->len - c->base, "the file ends %llu bytes short "
			"of the end of the %s (0x%llx): cut short",
			(unsigned long long)(data_end - f->len),
			rebuilt ? "buffer's CPU data, this CPU's and any "
			"after it" : "CPU's data",
			(unsigned long long)data_end);
	else
		dc_fail(c, f->len - c->base, "the file ends before the CPU's "
			"data (%llu bytes at 0x%llx): cut short",
			(unsigned long long)(data_end - pos),
			(unsigned long long)(c->base + pos));
	why = strdup(f->errlen ? f->err : "");
	if (!why)
		return f->ret = -ENOMEM;
	if (dc_salvage(c, pos, data_end - pos)) {
		free(why);
		return f->ret;
	}
	/* joined to the stretch before it: the cut is what it says */
	if (o->nr_regions == n && n) {
		free(o->regions[n - 1].why);
		o->regions[n - 1].why = why;
	} else {
		free(why);
	}
	return 0;
}

/*
 * The last page of a CPU's data cut short, of which the file has @have
 * bytes at @at: the events wholly there kept, when the commit word
 * holds (a size inside the page); their bytes, or 0.  The page is
 * walked in a copy, zeros past what the file has.
 */
static uint32_t dc_page_cut(struct dc_cur *c, size_t at, uint64_t have,
			    uint32_t page_size)
{
	struct dc_file *f = c->f;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint64_t commit, ts;
	uint32_t size, fault, last;
	uint8_t *pg;

	if (have <= start)
		return 0;
	commit = dc_num(f, c->p + at + 8, f->commit_size);
	ts = dc_num(f, c->p + at, 8);
	size = (uint32_t)commit & DAT_COMMIT_MASK;
	if (size > page_size - start || (!ts && !commit))
		return 0;
	if (size > have - start)
		size = (uint32_t)(have - start);
	pg = calloc(1, page_size);
	if (!pg) {
		f->ret = -ENOMEM;
		return 0;
	}
	memcpy(pg, c->p + at, have);
	{
		struct dc_cur pc = {
			.f = f, .p = pg, .len = page_size,
			.base = c->base + at, .in = c->in,
		};

		/* the events before the first one the cut (or a fault) ends */
		if (dc_events(&pc, 0, page_size, size, ts, true, &fault,
			      &last)) {
			f->ret = 0;
			if (f->errlen)
				f->err[0] = '\0';
			size = fault - start;
		}
		if (size && dc_events(&pc, 0, page_size, size, ts, false,
				      &fault, &last))
			size = 0;
	}
	free(pg);
	return size;
}

int dc_pages_cut(struct dc_cur *c, size_t at, uint64_t size,
		 uint32_t page_size, bool rebuilt)
{
	struct dc_file *f = c->f;
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint64_t have = c->base + at < f->len ? f->len - c->base - at : 0;
	uint64_t whole = have / page_size * page_size;
	uint32_t kept = 0;

	if (have > size)
		have = size;
	if (whole && dc_pages(c, at, whole, page_size))
		return f->ret;
	if (have > whole)
		kept = dc_page_cut(c, at + whole, have - whole, page_size);
	if (f->ret)
		return f->ret;
	return dc_cut_tail(c, at + whole + (kept ? start + kept : 0), at,
			   at + size, rebuilt);
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
 * The chunk at c->pos (past @at, the CPU's data in the file): its
 * header, its data inflated to its size, its pages walked; c->pos past
 * it.  Salvaging, its damaged pages are kept as such with the chunk's
 * length; a chunk that does not inflate is the caller's to skip.
 */
static int dc_chunk(struct dc_cur *c, size_t at, uint32_t page_size)
{
	struct dc_job_out *o = c->f->salvage;
	uint64_t csize, usize;
	const uint8_t *z;
	uint8_t *page_data;
	unsigned int i;
	size_t zat;
	int ret;

	if (dc_u(c, 4, "a chunk's compressed size", &csize) ||
	    dc_u(c, 4, "a chunk's size", &usize))
		return -EBADMSG;
	zat = c->pos - 8;
	if (!usize || usize % page_size)
		return dc_fail(c, zat, "chunk of %llu bytes is not a whole "
			       "number of %u-byte pages",
			       (unsigned long long)usize, page_size);
	z = dc_take(c, csize, "a compressed chunk");
	if (!z)
		return -EBADMSG;
	page_data = dc_inflate(c, zat, z, csize, usize);
	if (!page_data)
		return c->f->ret;
	{
		struct dc_cur pc = {
			.f = c->f, .p = page_data, .len = usize,
			.base = at + zat, .inflated = true,
			.in = "a CPU data chunk",
		};

		ret = dc_pages(&pc, 0, usize, page_size);
	}
	free(page_data);
	/* the chunk's damaged pages: the chunk is read whole */
	for (i = o ? o->nr_regions : 0; i && o->regions[i - 1].inflated &&
	     o->regions[i - 1].off == at + zat; i--)
		o->regions[i - 1].len = 8 + csize;
	return ret;
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
	uint64_t i;
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
		ret = dc_chunk(&c, at, page_size);
		if (ret)
			return ret;
	}
	return 0;
}

bool dc_chunk_plausible(const struct dc_file *f, const uint8_t *p,
			uint64_t left, uint32_t page_size)
{
	uint64_t csize, usize;

	if (left < 12)
		return false;
	csize = dc_num(f, p, 4);
	usize = dc_num(f, p + 4, 4);
	return usize && !(usize % page_size) && usize <= DC_MAX_INFLATE &&
	       csize >= sizeof(dc_zstd_magic) && csize <= left - 8 &&
	       !memcmp(p + 8, dc_zstd_magic, sizeof(dc_zstd_magic));
}

/*
 * Where the chunk after the damaged one at @pos of @c begins: past it
 * when its size leads to the data's end (@end) or to a header that
 * holds, else at the next header that holds (a size, a size in whole
 * pages, a zstd frame after them); @end when none does.
 */
static uint64_t dc_chunk_next(const struct dc_cur *c, uint64_t pos,
			      uint64_t end, uint32_t page_size)
{
	const struct dc_file *f = c->f;
	const uint8_t *m;
	uint64_t q;

	if (end - pos >= 8) {
		q = dc_num(f, c->p + pos, 4);
		if (q <= end - pos - 8) {
			q += pos + 8;
			if (q == end || dc_chunk_plausible(f, c->p + q, end - q,
							   page_size))
				return q;
		}
	}
	for (q = pos + 1; end - q >= 12; q = m - c->p - 7) {
		m = memchr(c->p + q + 8, dc_zstd_magic[0], end - q - 8);
		if (!m || (uint64_t)(m - c->p) < 8 + q)
			break;
		if (dc_chunk_plausible(f, m - 8, end - (m - 8 - c->p),
				       page_size))
			return m - 8 - c->p;
	}
	return end;
}

int dc_cpu_chunks_salvage(struct dc_cur *file, size_t at, uint64_t pos,
			  uint64_t count, uint64_t end, uint32_t page_size,
			  bool chained)
{
	struct dc_file *f = file->f;
	struct dc_cur c = *file;
	uint64_t n, start;
	int ret;

	c.p = file->p + at;
	c.len = end;
	c.pos = pos;
	c.base = at;
	c.in = "the CPU's compressed data";
	/*
	 * Past the count (a damaged one), chunks whose headers hold are
	 * walked on to the data's end: the size the file records, which
	 * trace-cmd's writer counts without the count's 4 bytes, the
	 * core's with them (what is left of it then is no chunk, and no
	 * damage either)
	 */
	for (n = 0; c.pos < end; n++) {
		start = c.pos;
		if (n >= count && (chained ||
				   !dc_chunk_plausible(f, c.p + start,
						       end - start, page_size)))
			break;
		ret = dc_chunk(&c, at, page_size);
		if (!ret) {
			f->salvage->chunks++;
			continue;
		}
		if (ret != -EBADMSG)
			return ret;
		/* a part's chain of headers held: its sizes are right */
		c.pos = chained ? start + 8 + dc_num(f, c.p + start, 4) :
				  dc_chunk_next(&c, start, end, page_size);
		if (dc_salvage(&c, start, c.pos - start))
			return f->ret;
	}
	return 0;
}
