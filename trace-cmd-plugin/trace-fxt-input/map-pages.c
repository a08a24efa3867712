// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-pages.c - the records of a checked .dat read from its ring-buffer
 * pages directly, instead of through tracecmd_iterate_events_multi().
 *
 * libtracecmd spends most of a pass on what a converter does not need: a
 * tep_record allocated, filled and freed per event, a page object per
 * page, every decompressed zstd chunk kept until the handle closes.  The
 * host has already walked every page and event header of the file against
 * its size (datcheck.h) and says where each CPU's pages lie
 * (dat_pages); this reader walks them again, keeping one page (or
 * one zstd chunk) per CPU, and hands each record over as libtracecmd
 * would: its time as kbuffer follows it (the page's, plus each delta; an
 * extend adds high bits, a stamp sets the time under the old top bits),
 * its payload and size as kbuffer_read_event() and kbuffer_event_size()
 * give them, its missed events only on a page's first header, and the
 * records of all the handles' CPUs merged as the multi iteration merges
 * them (the earliest first, equal times to the lower handle, then CPU).
 * Files whose times libtracecmd would correct (the layout is empty then)
 * are left to libtracecmd.  Each step is still bounded by its page, so a
 * file changed since the check cannot make the reader leave it.  What
 * the check found damaged (dat_damage) is not read: a zstd chunk is
 * skipped, a page read up to its first fault or not at all.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <zstd.h>

#include "dat-format.h"
#include "file-map.h"
#include "map-pages.h"

/* kbuffer keeps these top bits of the time across a time stamp */
#define PG_TS_MSB	(0xf8ULL << 56)

/* One CPU's pages and where the walk is in them. */
struct pg_cpu {
	const uint8_t	*pages;		/* the file's, or the inflated chunk */
	uint64_t	pages_len;
	uint64_t	at;		/* offset of the current page */
	const uint8_t	*data;		/* the current page's events */
	uint32_t	area;		/* bytes after the page header */
	uint32_t	size;		/* committed bytes */
	uint32_t	curr, next, index;
	uint64_t	ts;
	int32_t		lost;		/* on the page's first header */
	/* zstd: the chunks not yet inflated, and where the current one is */
	const uint8_t	*z, *z_end;
	uint64_t	chunks;
	uint64_t	chunk_at;
	/* the damage still ahead, in file order; where the pages are */
	const struct dat_damage *dmg;
	size_t		nr_dmg;
	uint64_t	file_at;
	uint8_t		*buf;
	size_t		buf_cap;
	uint32_t	page_size;
	int32_t		handle, cpu, slot;
	bool		live;		/* a record is ready */
};

struct map_pages {
	const uint8_t	*map;
	size_t		map_len;
	bool		big;
	uint32_t	long_size;
	struct pg_cpu	*cpus;		/* in the iteration's order */
	unsigned int	nr;
	ZSTD_DCtx	*zd;
	int		err;
};

static uint32_t pg_u32(const struct map_pages *p, const uint8_t *b)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return p->big == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v :
	       __builtin_bswap32(v);
}

static uint64_t pg_u64(const struct map_pages *p, const uint8_t *b)
{
	uint64_t v;

	memcpy(&v, b, 8);
	return p->big == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v :
	       __builtin_bswap64(v);
}

static uint64_t pg_long(const struct map_pages *p, const uint8_t *b)
{
	return p->long_size == 8 ? pg_u64(p, b) : pg_u32(p, b);
}

/*
 * The header at c->next, as kbuffer's update_pointers(): the time moved
 * by it, c->index at its payload, c->next past it.  Its type, or -1 when
 * it does not fit in the page.
 */
static int pg_header(const struct map_pages *p, struct pg_cpu *c)
{
	uint32_t pos = c->curr, v, type, delta, len;

	if (pos > c->area || c->area - pos < 4)
		return -1;
	v = pg_u32(p, c->data + pos);
	type = p->big ? v >> DAT_DELTA_BITS : v & 0x1f;
	delta = p->big ? v & DAT_COMMIT_MASK : v >> 5;
	pos += 4;
	if ((!type || type >= DAT_TYPE_PADDING) && c->area - pos < 4)
		return -1;
	switch (type) {
	case DAT_TYPE_PADDING:
		len = pg_u32(p, c->data + pos);
		c->ts += delta;
		break;
	case DAT_TYPE_TIME_STAMP:
		c->ts = (((uint64_t)pg_u32(p, c->data + pos) <<
			  DAT_DELTA_BITS) + delta) | (c->ts & PG_TS_MSB);
		pos += 4;
		len = 0;
		break;
	case DAT_TYPE_TIME_EXTEND:
		c->ts += ((uint64_t)pg_u32(p, c->data + pos) <<
			  DAT_DELTA_BITS) + delta;
		pos += 4;
		len = 0;
		break;
	case 0:
		len = (pg_u32(p, c->data + pos) - 4 + 3) & ~3u;
		pos += 4;
		c->ts += delta;
		break;
	default:
		len = type * 4;
		c->ts += delta;
		break;
	}
	if (len > c->area - pos)
		return -1;
	c->index = pos;
	c->next = pos + len;
	return (int)type;
}

/* Where the page at c->at begins: in the file, or in its inflated chunk. */
static uint64_t pg_base(const struct pg_cpu *c)
{
	return c->z ? c->at : c->file_at + c->at;
}

/*
 * The first damage of the current pages that ends past @at (in
 * pg_base()'s terms), its bytes [*@off, *@end); what ends before is
 * dropped.  NULL when there is none.
 */
static const struct dat_damage *pg_damage(struct pg_cpu *c, uint64_t at,
					  uint64_t *off, uint64_t *end)
{
	const struct dat_damage *d;

	for (; c->nr_dmg; c->dmg++, c->nr_dmg--) {
		d = c->dmg;
		/* a later chunk's */
		if (c->z && d->off > c->chunk_at)
			return NULL;
		if (c->z ? !d->inflated || d->off != c->chunk_at :
			   d->inflated)
			continue;
		*off = c->z ? d->in_off : d->off;
		*end = *off + (c->z ? d->in_len : d->len);
		if (*end > at)
			return d;
	}
	return NULL;
}

/*
 * Whether the event whose header is at c->curr is damaged (an event
 * whose ID no format has): then it is not handed on.  One whose header
 * lies about its length (garbled) is skipped to its damage's end.
 */
static bool pg_event_damaged(const struct map_pages *p, struct pg_cpu *c)
{
	uint32_t start = p->long_size == 8 ? 16 : 12;
	uint64_t at = pg_base(c) + start + c->curr;
	const struct dat_damage *d;
	uint64_t off, end;

	d = pg_damage(c, at, &off, &end);
	if (!d || off > at)
		return false;
	if (d->garbled && end - pg_base(c) - start <= c->area)
		c->next = (uint32_t)(end - pg_base(c) - start);
	return true;
}

/*
 * kbuffer's next_event(): on to the next data event of the page, over a
 * damaged one.
 */
static bool pg_next_event(const struct map_pages *p, struct pg_cpu *c)
{
	int type;

	do {
		c->curr = c->next;
		if (c->next >= c->size)
			return false;
		type = pg_header(p, c);
		if (type < 0) {
			c->curr = c->size;
			return false;
		}
	} while (type >= DAT_TYPE_PADDING ||
		 (c->nr_dmg && pg_event_damaged(p, c)));
	return true;
}

/* The page at c->at loaded as kbuffer_load_subbuffer() loads it. */
static bool pg_load(const struct map_pages *p, struct pg_cpu *c)
{
	const uint8_t *pg = c->pages + c->at;
	unsigned int start = p->long_size == 8 ? 16 : 12;
	uint64_t commit, off, end;

	c->ts = pg_u64(p, pg);
	commit = pg_long(p, pg + 8);
	c->data = pg + start;
	c->area = c->page_size - start;
	c->size = (uint32_t)commit & DAT_COMMIT_MASK;
	/*
	 * A size past the page: a damaged commit word (the check found
	 * where the events end), whose flags are not to be trusted either
	 */
	if (c->size > c->area) {
		c->size = c->area;
		commit = 0;
	}
	c->lost = 0;
	if (commit & DAT_MISSED_EVENTS) {
		c->lost = -1;
		if ((commit & DAT_MISSED_STORED) &&
		    c->area - c->size >= p->long_size)
			c->lost = (int32_t)pg_long(p, c->data + c->size);
	}
	/*
	 * Damage from before the page on: none of it is read; from an
	 * event on to the page's end: the events before it are
	 */
	if (c->nr_dmg && pg_damage(c, pg_base(c), &off, &end) &&
	    off < pg_base(c) + c->page_size) {
		if (off <= pg_base(c))
			return false;
		if (end >= pg_base(c) + c->page_size &&
		    off - pg_base(c) - start < c->size)
			c->size = (uint32_t)(off - pg_base(c) - start);
	}
	c->curr = c->next = c->index = 0;
	return pg_next_event(p, c);
}

/* The next zstd chunk of @c inflated into its buffer; false at the end. */
static bool pg_inflate(struct map_pages *p, struct pg_cpu *c)
{
	uint32_t csize, usize;
	uint64_t at;
	size_t got;

	/* the damaged chunks before the next one skipped, as the check did */
	while (c->nr_dmg && c->dmg->off <= (at = c->z - p->map) &&
	       !(c->dmg->inflated && c->dmg->off == at)) {
		if (c->dmg->off == at) {
			if (c->dmg->len > (uint64_t)(c->z_end - c->z))
				return false;
			c->z += c->dmg->len;
		}
		c->dmg++;
		c->nr_dmg--;
	}
	if (!c->chunks || c->z_end - c->z < 8)
		return false;
	c->chunks--;
	c->chunk_at = c->z - p->map;
	csize = pg_u32(p, c->z);
	usize = pg_u32(p, c->z + 4);
	c->z += 8;
	if (csize > (uint64_t)(c->z_end - c->z) || !usize ||
	    usize % c->page_size) {
		p->err = -EBADMSG;
		return false;
	}
	if (usize > c->buf_cap) {
		uint8_t *b = realloc(c->buf, usize);

		if (!b) {
			p->err = -ENOMEM;
			return false;
		}
		c->buf = b;
		c->buf_cap = usize;
	}
	got = ZSTD_decompressDCtx(p->zd, c->buf, usize, c->z, csize);
	c->z += csize;
	if (ZSTD_isError(got) || got != usize) {
		p->err = -EBADMSG;
		return false;
	}
	c->pages = c->buf;
	c->pages_len = usize;
	c->at = 0;
	return true;
}

/*
 * @c at its next record, over empty pages (get_next_page()); false when
 * its pages are done.
 */
static bool pg_advance(struct map_pages *p, struct pg_cpu *c, bool first)
{
	if (!first && pg_next_event(p, c))
		return true;
	for (;;) {
		if (!first)
			c->at += c->page_size;
		first = false;
		while (c->at + c->page_size > c->pages_len) {
			if (!c->z || !pg_inflate(p, c))
				return false;
		}
		if (pg_load(p, c))
			return true;
	}
}

/* The layout's CPUs of buffer @name, appended for handle @h. */
static int pg_add_handle(struct map_pages *p,
			 const struct dat_pages *layout,
			 struct tracecmd_input *handle, const char *name,
			 int h, int *slot)
{
	int cpus = tracecmd_cpus(handle);
	size_t i, k;

	if (cpus < 0)
		return -ENOTSUP;
	for (i = 0; i < layout->nr; i++) {
		const struct dat_cpu_data *d = &layout->cpus[i];
		struct pg_cpu *c;

		if (strcmp(d->buffer, name))
			continue;
		if (d->cpu >= (uint32_t)cpus || d->off > p->map_len ||
		    d->size > p->map_len - d->off || d->page_size < 16)
			return -ENOTSUP;
		c = &p->cpus[p->nr++];
		*c = (struct pg_cpu){
			.page_size = d->page_size, .handle = h,
			.cpu = (int32_t)d->cpu, .slot = *slot + (int)d->cpu,
			.file_at = d->off,
		};
		/* its damage: one run of the layout's, in the same order */
		for (k = 0; k < layout->nr_damage; k++) {
			const struct dat_damage *g = &layout->damage[k];

			if (g->cpu != d->cpu || strcmp(g->buffer, name))
				continue;
			if (!c->dmg)
				c->dmg = g;
			c->nr_dmg++;
		}
		if (d->zstd) {
			if (d->size < 4)
				return -ENOTSUP;
			c->z = p->map + d->off;
			c->chunks = d->chunks;
			c->z += 4;
			c->z_end = p->map + p->map_len;
		} else {
			c->pages = p->map + d->off;
			c->pages_len = d->size;
		}
	}
	*slot += cpus;
	return 0;
}

int map_pages_open(const struct dat_pages *layout, const char *path,
		   struct tracecmd_input **handles, const char *const *names,
		   int nr, struct map_pages **out)
{
	struct map_pages *p;
	const void *map;
	int h, slot = 0, ret = -ENOTSUP;
	unsigned int i;

	*out = NULL;
	if (!layout || !layout->nr || !path ||
	    (layout->long_size != 4 && layout->long_size != 8))
		return -ENOTSUP;
	for (h = 0; h < nr; h++)
		if (tep_is_old_format(tracecmd_get_tep(handles[h])))
			return -ENOTSUP;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->big = layout->big;
	p->long_size = layout->long_size;
	p->cpus = calloc(layout->nr, sizeof(*p->cpus));
	p->zd = ZSTD_createDCtx();
	if (!p->cpus || !p->zd) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = file_map(path, FILE_MAP_SEQUENTIAL, &map, &p->map_len);
	if (ret)
		goto fail;
	p->map = map;
	if (!p->map_len) {
		/* no pages where the check's layout put them */
		ret = -ENOMEM;
		goto fail;
	}
	for (h = 0; h < nr; h++) {
		ret = pg_add_handle(p, layout, handles[h], names[h], h, &slot);
		if (ret)
			goto fail;
	}
	for (i = 0; i < p->nr; i++)
		p->cpus[i].live = pg_advance(p, &p->cpus[i], true);
	if (p->err) {
		ret = p->err;
		goto fail;
	}
	*out = p;
	return 0;
fail:
	map_pages_close(p);
	return ret;
}

int map_pages_read(struct map_pages *p, map_pages_fn fn, void *data)
{
	struct map_pages_rec r;
	struct pg_cpu *c, *next;
	unsigned int i;
	int ret;

	for (;;) {
		next = NULL;
		for (i = 0; i < p->nr; i++) {
			c = &p->cpus[i];
			if (c->live && (!next || c->ts < next->ts))
				next = c;
		}
		if (!next)
			return p->err;
		c = next;
		r = (struct map_pages_rec){
			.ts = c->ts, .data = c->data + c->index,
			.size = c->next - c->index, .cpu = c->cpu,
			.missed = c->curr ? 0 : c->lost,
			.handle = c->handle, .slot = c->slot,
		};
		ret = fn(&r, data);
		if (ret)
			return ret;
		c->live = pg_advance(p, c, false);
	}
}

void map_pages_close(struct map_pages *p)
{
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++)
		free(p->cpus[i].buf);
	free(p->cpus);
	if (p->map)
		file_unmap(p->map, p->map_len);
	ZSTD_freeDCtx(p->zd);
	free(p);
}
