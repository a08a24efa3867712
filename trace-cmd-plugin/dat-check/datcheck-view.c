// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-view.c - the file as libtracecmd is to read it for a
 * conversion (datcheck_view(), datcheck.h), and what the view leaves out
 * handed to the caller instead: the formats the records use
 * (datcheck_formats()) and the kallsyms text (datcheck_kallsyms()).
 *
 * The view is a memfd of the file's size, written with pwrite(): every
 * byte the file has, at its offset, but for the event formats and the
 * kallsyms, which read as empty, and the CPU data, which read as zeros
 * until datcheck_view_data() copies what libtracecmd reads of it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include "datcheck-intern.h"

/*
 * How a chunk with damaged pages is compressed again for the view: as
 * trace-cmd compresses (its pages made readable compress better than
 * the damage did), else harder, when that does not fit where it was.
 */
static const int dc_view_zstd_levels[] = { ZSTD_CLEVEL_DEFAULT, 19 };

const char *datcheck_kallsyms(struct datcheck *dc, size_t *len)
{
	*len = dc->f.kallsyms_len;
	return dc->f.kallsyms;
}

int datcheck_formats(struct datcheck *dc, const uint8_t *ids,
		     datcheck_format_fn fn, void *priv)
{
	struct dc_file *f = &dc->f;
	unsigned int i;
	int ret, n = 0;

	for (i = 0; i < f->nr_fmts; i++) {
		const struct dc_format *fm = &f->fmts[i];

		/* libtracecmd parsed the ftrace system's section itself */
		if (!strcmp(fm->system, "ftrace"))
			continue;
		if (ids && fm->id >= 0 &&
		    !(ids[fm->id >> 3] & (1u << (fm->id & 7))))
			continue;
		ret = fn(fm->system, fm->text, fm->len, priv);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

/*
 * @len bytes of the file at @off written at the same offset of @fd; of a
 * file cut short, those it has (the rest stays zeros).
 */
static int dc_view_copy(const struct dc_file *f, int fd, uint64_t off,
			uint64_t len)
{
	ssize_t n;

	if (off >= f->len)
		return 0;
	if (len > f->len - off)
		len = f->len - off;
	while (len) {
		n = pwrite(fd, f->p + off, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -EIO;
		off += n;
		len -= n;
	}
	return 0;
}

/* A number in the file's byte order, @n bytes at @p. */
static void dc_view_put(const struct dc_file *f, uint8_t *p, uint64_t v,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[f->big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* A number in the file's byte order, @n bytes at @off of @fd. */
static int dc_view_num(const struct dc_file *f, int fd, uint64_t off,
		       uint64_t v, unsigned int n)
{
	uint8_t b[8];

	dc_view_put(f, b, v, n);
	return pwrite(fd, b, n, off) == (ssize_t)n ? 0 : -EIO;
}

/* A byte range of the file the view leaves out (or fills in later). */
struct dc_gap {
	uint64_t	off, end;
};

static int dc_gap_cmp(const void *a, const void *b)
{
	const struct dc_gap *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * v7: the section at @off left with an empty body: its header as it was
 * but uncompressed, and zeros after it, which read as a count (event
 * formats) or a size (kallsyms) of 0.  Its size stays, for libtracecmd's
 * walk from section to section (dc_strings()).
 */
static int dc_view_empty_section(const struct dc_file *f, int fd,
				 uint64_t off, struct dc_gap *gap)
{
	gap->off = off;
	gap->end = off + DC_SEC_HEADER + dc_num(f, f->p + off + 8, 8);
	if (dc_view_copy(f, fd, off, DC_SEC_HEADER) ||
	    dc_view_num(f, fd, off + 2, 0, 2))
		return -EIO;
	return 0;
}

/*
 * v7 cut short (f->cut_opt): the options section the chain led out of
 * the file to, written in the view with a BUFFER option for each buffer
 * whose CPU list was rebuilt and a DONE that ends the chain; its size,
 * 0 when there is none, or -ENOMEM.
 */
static ssize_t dc_view_cut_options(const struct dc_file *f, uint8_t **out)
{
	const char *clock = f->clock[0] ? f->clock : "local";
	size_t len = DC_SEC_HEADER + 2 + 4 + 8, at, n;
	unsigned int i;
	uint8_t *b;

	*out = NULL;
	if (!f->cut_opt)
		return 0;
	for (i = 0; i < f->nr_bufs; i++)
		if (f->bufs[i].cpu_list_owned)
			len += 2 + 4 + 8 + strlen(f->bufs[i].name) + 1 +
			       strlen(clock) + 1 + 4 + 4 +
			       20 * (size_t)f->bufs[i].cpus;
	b = calloc(1, len);
	if (!b)
		return -ENOMEM;
	dc_view_put(f, b, DAT_OPTION_DONE, 2);
	dc_view_put(f, b + 4, f->opt_desc, 4);
	dc_view_put(f, b + 8, len - DC_SEC_HEADER, 8);
	at = DC_SEC_HEADER;
	for (i = 0; i < f->nr_bufs; i++) {
		const struct dc_buffer *bf = &f->bufs[i];

		if (!bf->cpu_list_owned)
			continue;
		n = 8 + strlen(bf->name) + 1 + strlen(clock) + 1 + 8 +
		    20 * (size_t)bf->cpus;
		dc_view_put(f, b + at, DAT_OPTION_BUFFER, 2);
		dc_view_put(f, b + at + 2, n, 4);
		at += 6;
		dc_view_put(f, b + at, bf->section, 8);
		at += 8;
		at += strlen(strcpy((char *)b + at, bf->name)) + 1;
		at += strlen(strcpy((char *)b + at, clock)) + 1;
		dc_view_put(f, b + at, bf->page_size, 4);
		dc_view_put(f, b + at + 4, bf->cpus, 4);
		at += 8;
		memcpy(b + at, bf->cpu_list, 20 * (size_t)bf->cpus);
		at += 20 * (size_t)bf->cpus;
	}
	/* DONE, 0: no options section after */
	dc_view_put(f, b + at, DAT_OPTION_DONE, 2);
	dc_view_put(f, b + at + 2, 8, 4);
	*out = b;
	return (ssize_t)len;
}

int datcheck_view(struct datcheck *dc, int *out)
{
	const struct dc_file *f = &dc->f;
	struct dc_gap *gaps;
	uint64_t at = 0, size = f->view_len > f->len ? f->view_len : f->len;
	unsigned int i, n = 0;
	int fd, ret = -EIO;
	uint8_t *opts;
	ssize_t opts_len;

	*out = -1;
	opts_len = dc_view_cut_options(f, &opts);
	if (opts_len < 0)
		return (int)opts_len;
	if (opts_len && f->cut_opt + opts_len > size)
		size = f->cut_opt + opts_len;
	gaps = calloc(f->nr_jobs + 2, sizeof(*gaps));
	if (!gaps) {
		free(opts);
		return -ENOMEM;
	}
	fd = memfd_create("trace-fxt-view", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		ret = -errno;
		goto out;
	}
	/* the CPU data: datcheck_view_data()'s */
	for (i = 0; i < f->nr_jobs; i++)
		if (!f->jobs[i].cont)
			gaps[n++] = (struct dc_gap){ f->jobs[i].off,
						     f->jobs[i].off +
						     f->jobs[i].size };
	if (f->v7) {
		if (f->sections[DAT_OPTION_EVENT_FORMATS] &&
		    dc_view_empty_section(f, fd,
					  f->sections[DAT_OPTION_EVENT_FORMATS],
					  &gaps[n++]))
			goto out;
		if (f->sections[DAT_OPTION_KALLSYMS] &&
		    dc_view_empty_section(f, fd,
					  f->sections[DAT_OPTION_KALLSYMS],
					  &gaps[n++]))
			goto out;
	} else {
		/*
		 * No event system, then a kallsyms text of zeros to where
		 * the printk formats begin: libtracecmd reads one NUL-ended
		 * string of it, and the offsets after stay the file's
		 */
		gaps[n++] = (struct dc_gap){ f->events_at, f->kallsyms_end };
		if (dc_view_num(f, fd, f->events_at, 0, 4) ||
		    dc_view_num(f, fd, f->events_at + 4,
				f->kallsyms_end - f->events_at - 8, 4))
			goto out;
	}
	qsort(gaps, n, sizeof(*gaps), dc_gap_cmp);
	for (i = 0; i < n; i++) {
		if (gaps[i].off > at &&
		    dc_view_copy(f, fd, at, gaps[i].off - at))
			goto out;
		if (gaps[i].end > at)
			at = gaps[i].end;
	}
	if (at < f->len && dc_view_copy(f, fd, at, f->len - at))
		goto out;
	if (opts_len && pwrite(fd, opts, opts_len, f->cut_opt) != opts_len)
		goto out;
	*out = fd;
	fd = -1;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(gaps);
	free(opts);
	return ret;
}

/* Whether the page at @off of an uncompressed CPU commits no event. */
static bool dc_view_page_empty(const struct dc_file *f, uint64_t off)
{
	return !(dc_num(f, f->p + off + 8, f->commit_size) & DAT_COMMIT_MASK);
}

/*
 * The damaged page @pg as libtracecmd is to read it: with the @kept
 * bytes of events before its first fault (the commit cut there, a
 * stored lost-event count moved after them), or, with none kept, an
 * empty page at the time of the good events around the damage @d.
 */
static void dc_view_fix_page(const struct dc_file *f, uint8_t *pg,
			     uint32_t page_size, uint64_t kept,
			     const struct dat_damage *d)
{
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint64_t commit = dc_num(f, pg + 8, f->commit_size);
	uint64_t ts = dc_num(f, pg, 8), size = commit & DAT_COMMIT_MASK;

	/* a size past the page: nothing of the word can be trusted */
	if (size > page_size - start)
		commit = size = 0;
	if (kept) {
		/* a count the commit word puts outside the page is lost */
		if ((commit & DAT_MISSED_STORED) &&
		    size + f->commit_size <= page_size - start)
			memmove(pg + start + kept, pg + start + size,
				f->commit_size);
		else
			commit &= ~(uint64_t)DAT_MISSED_STORED;
		dc_view_put(f, pg + 8, (commit & ~(uint64_t)DAT_COMMIT_MASK) |
			    kept, f->commit_size);
		return;
	}
	if (d->events_after)
		ts = d->ts_after;
	else if (d->events_before)
		ts = d->ts_before;
	memset(pg, 0, page_size);
	dc_view_put(f, pg, ts, 8);
}

/*
 * A page whose commit word lies when its events fill it (the walk found
 * them whole to its end): its commit made that, no count stored.
 */
static void dc_view_fill_page(const struct dc_file *f, uint8_t *pg,
			      uint32_t page_size)
{
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint64_t commit = dc_num(f, pg + 8, f->commit_size);

	/* a size past the page: nothing of the word can be trusted */
	if ((commit & DAT_COMMIT_MASK) > page_size - start)
		commit = 0;
	commit &= ~(uint64_t)(DAT_COMMIT_MASK | DAT_MISSED_STORED);
	dc_view_put(f, pg + 8, commit | (page_size - start), f->commit_size);
}

/*
 * Damaged events inside a page, the @len bytes at @ev (whole events, an
 * ID no format has), as libtracecmd is to read them: each one a padding
 * event of its size and its time delta, so that the events after keep
 * their times.  @garbled: one event whose header does not walk its
 * bytes, one padding of them all with its header's delta.
 */
static void dc_view_pad(const struct dc_file *f, uint8_t *ev, uint64_t len,
			bool garbled)
{
	uint64_t at, n, delta;
	uint32_t v, type;

	for (at = 0; len - at >= 8; at += n) {
		v = (uint32_t)dc_num(f, ev + at, 4);
		type = f->big ? v >> DAT_DELTA_BITS : v & 0x1f;
		delta = f->big ? v & DAT_COMMIT_MASK : v >> 5;
		n = type ? 4 + 4 * (uint64_t)type :
			   8 + ((dc_num(f, ev + at + 4, 4) - 4 + 3) & ~3ULL);
		/* the walk found whole events here: be sure all the same */
		if (n < 8 || n > len - at || garbled)
			n = len - at;
		dc_view_put(f, ev + at, f->big ? (uint64_t)DAT_TYPE_PADDING <<
			    DAT_DELTA_BITS | delta :
			    delta << 5 | DAT_TYPE_PADDING, 4);
		dc_view_put(f, ev + at + 4, n - 4, 4);
	}
}

/*
 * The pages of @data (a CPU's, or a chunk's inflated) that the damage @d
 * covers, from @at on (where @data begins in its terms), made readable:
 * a page the damage covers from its start on empty, one it covers from
 * an event to its end cut there (dc_view_fix_page()), damaged events
 * inside one padding; a last page cut short zeroed.
 */
static void dc_view_fix_pages(const struct dc_file *f, uint8_t *data,
			      uint64_t len, uint64_t at, uint32_t page_size,
			      const struct dat_damage *d)
{
	unsigned int start = f->commit_size == 8 ? 16 : 12;
	uint64_t off = d->inflated ? d->in_off : d->off;
	uint64_t end = off + (d->inflated ? d->in_len : d->len), pg, kept;

	if (off < at || end > at + len)
		return;
	for (pg = (off - at) / page_size * page_size; at + pg < end;
	     pg += page_size) {
		if (pg + page_size > len) {
			memset(data + pg, 0, len - pg);
			break;
		}
		/* the commit word alone: the events fill the page */
		if (at + pg < off && off < at + pg + start) {
			dc_view_fill_page(f, data + pg, page_size);
			break;
		}
		if (at + pg + start <= off && at + pg + page_size > end) {
			dc_view_pad(f, data + (off - at), end - off,
				    d->garbled);
			break;
		}
		kept = at + pg + start < off ? off - at - pg - start : 0;
		dc_view_fix_page(f, data + pg, page_size, kept, d);
	}
}

/*
 * An uncompressed CPU's damaged pages in the view: the pages of each run
 * of damage that shares pages copied, made readable
 * (dc_view_fix_pages(), every damage of the run over the same copy) and
 * written back in place.
 */
static int dc_view_fix_cpu(const struct dc_file *f, int fd,
			   const struct dc_job *j, const struct dat_damage *d,
			   size_t nr)
{
	uint64_t ps = j->page_size, first, end;
	size_t i, k;
	uint8_t *buf;
	int ret = 0;

	for (i = 0; i < nr && !ret; i = k) {
		if (d[i].off < j->off)
			return -EIO;
		first = (d[i].off - j->off) / ps * ps;
		end = d[i].off + d[i].len - j->off;
		for (k = i + 1; k < nr && d[k].off - j->off < (end + ps - 1) /
		     ps * ps; k++)
			if (d[k].off + d[k].len - j->off > end)
				end = d[k].off + d[k].len - j->off;
		end = (end + ps - 1) / ps * ps;
		if (end > j->size)
			end = j->size;
		buf = calloc(1, end - first);
		if (!buf)
			return -ENOMEM;
		/* of a file cut short, what it has: the rest zeros */
		if (j->off + first < f->len)
			memcpy(buf, f->p + j->off + first,
			       f->len - j->off - first < end - first ?
			       f->len - j->off - first : end - first);
		for (; i < k; i++)
			dc_view_fix_pages(f, buf, end - first, j->off + first,
					  ps, &d[i]);
		if (pwrite(fd, buf, end - first, j->off + first) !=
		    (ssize_t)(end - first))
			ret = -EIO;
		free(buf);
	}
	return ret;
}

/*
 * The chunk of @csize bytes at @z (inflating to @usize), its damaged
 * pages @d (@nr of them) made readable, compressed again into @out
 * (@room bytes): its size, or 0 when it does not fit there - then its
 * pages empty, or 0 again.
 */
static size_t dc_view_chunk_fix(const struct dc_file *f, const uint8_t *z,
				uint64_t csize, uint64_t usize,
				uint32_t page_size,
				const struct dat_damage *d, size_t nr,
				uint8_t *out, size_t room)
{
	uint8_t *pages = malloc(usize);
	size_t n = 0;
	unsigned int i;

	if (!pages)
		return 0;
	if (ZSTD_decompress(pages, usize, z, csize) == usize) {
		for (; nr; d++, nr--)
			dc_view_fix_pages(f, pages, usize, 0, page_size, d);
		for (i = 0; i < sizeof(dc_view_zstd_levels) /
			    sizeof(dc_view_zstd_levels[0]); i++) {
			n = ZSTD_compress(out, room, pages, usize,
					  dc_view_zstd_levels[i]);
			if (!ZSTD_isError(n))
				break;
		}
	}
	if (!n || ZSTD_isError(n)) {
		memset(pages, 0, usize);
		n = ZSTD_compress(out, room, pages, usize, 1);
	}
	free(pages);
	return ZSTD_isError(n) ? 0 : n;
}

/*
 * A damaged compressed CPU's chunks in the view as libtracecmd is to
 * read them: those that inflated, one after the other from the CPU's
 * start, the damaged pages in them made readable (the chunk compressed
 * again), and a count of them; the damaged chunks left out.  The rest of
 * the CPU's bytes stay zeros.
 */
static int dc_view_chunks(const struct dc_file *f, int fd,
			  const struct dc_job *j, const struct dat_damage *d,
			  size_t nr)
{
	uint64_t end = f->len > j->off ? f->len - j->off : 0;
	uint64_t pos = 4, out = 4, csize, usize;
	const uint8_t *p = f->p + j->off;
	uint32_t count = 0;
	size_t k, room;
	uint8_t *buf;
	int ret = 0;

	if (end > j->size + 4)
		end = j->size + 4;
	/* no room for a count: zeros, which read as none */
	if (end < 4)
		return 0;
	buf = malloc(end);
	if (!buf)
		return -ENOMEM;
	while (pos + 8 <= end) {
		/* none is behind (the walk saw the same bytes), but be sure */
		while (nr && d->off < j->off + pos) {
			d++;
			nr--;
		}
		if (nr && !d->inflated && d->off == j->off + pos) {
			pos += d->len;
			d++;
			nr--;
			continue;
		}
		csize = dc_num(f, p + pos, 4);
		usize = dc_num(f, p + pos + 4, 4);
		if (csize > end - pos - 8)
			break;
		for (k = 0; k < nr && d[k].inflated &&
		     d[k].off == j->off + pos; k++)
			;
		if (k) {
			/* no further than the chunks before left room */
			room = pos + 8 + csize - out - 8;
			csize = dc_view_chunk_fix(f, p + pos + 8, csize, usize,
						  j->page_size, d, k,
						  buf + out + 8, room);
			d += k;
			nr -= k;
		} else {
			memcpy(buf + out + 8, p + pos + 8, csize);
		}
		pos += 8 + dc_num(f, p + pos, 4);
		if (!csize)
			continue;
		dc_view_put(f, buf + out, csize, 4);
		dc_view_put(f, buf + out + 4, usize, 4);
		out += 8 + csize;
		count++;
	}
	dc_view_put(f, buf, count, 4);
	if (pwrite(fd, buf, out, j->off) != (ssize_t)out)
		ret = -EIO;
	free(buf);
	return ret;
}

/* Whether compressed job @i's CPU has other chunks than its count says. */
static bool dc_view_recount(const struct dc_file *f, unsigned int i)
{
	const struct dc_job *j = &f->jobs[i];

	return (f->flags & DATCHECK_SALVAGE) &&
	       (j->cut || f->len - j->off < 4 ||
		dc_num(f, f->p + j->off, 4) != dc_chunks_read(f, i));
}

/*
 * An undamaged compressed CPU's chunks as libtracecmd reads them before
 * the page reader takes over: the count and every chunk's header (it
 * lists them all), the first chunk's data (tracecmd_get_first_ts()) and
 * the last's (tracecmd_read_cpu_last(), for the progress only).
 */
static int dc_view_chunk_ends(const struct dc_file *f, int fd,
			      const struct dc_job *j)
{
	/* the chunks' own sizes say where they end, not the CPU's */
	uint64_t pos = j->off, end = f->len, count, i, zsize;

	if (end - pos < 4 || dc_view_copy(f, fd, pos, 4))
		return end - pos < 4 ? 0 : -EIO;
	count = dc_num(f, f->p + pos, 4);
	pos += 4;
	/* the check walked these: each header and its data lie inside */
	for (i = 0; i < count && end - pos >= 8; i++) {
		zsize = dc_num(f, f->p + pos, 4);
		if (zsize > end - pos - 8)
			break;
		if (dc_view_copy(f, fd, pos, i == 0 || i == count - 1 ?
				 8 + zsize : 8))
			return -EIO;
		pos += 8 + zsize;
	}
	return 0;
}

int datcheck_view_data(struct datcheck *dc, int fd,
		       const struct dat_pages *pages)
{
	struct dc_file *f = &dc->f;
	const struct dat_damage *d;
	uint64_t first, last, ps;
	size_t k = 0, nr;
	unsigned int i;
	int ret;

	dc_jobs_merge(f);
	for (i = 0; i < f->nr_jobs; i++) {
		const struct dc_job *j = &f->jobs[i];

		if (j->cont || !j->size)
			continue;
		/*
		 * the CPU's damage: the next in the merge's order (a list
		 * may name a CPU twice: inside its data too)
		 */
		d = f->damage ? f->damage + k : NULL;
		for (nr = 0; k + nr < f->nr_damage &&
		     d[nr].buffer == j->buffer && d[nr].cpu == j->cpu &&
		     d[nr].off >= j->off && d[nr].off - j->off <= j->size + 4;
		     nr++)
			;
		k += nr;
		ps = j->page_size;
		if (j->compressed && (nr || dc_view_recount(f, i))) {
			ret = dc_view_chunks(f, fd, j, d, nr);
			if (ret)
				return ret;
			continue;
		}
		if (!pages || !pages->nr ||
		    (!j->compressed && j->size <= 2 * ps)) {
			if (dc_view_copy(f, fd, j->off, j->size))
				return -EIO;
		} else if (j->compressed) {
			if (dc_view_chunk_ends(f, fd, j))
				return -EIO;
		} else {
			/*
			 * What libtracecmd reads before the page reader takes
			 * over: the first page (tracecmd_get_first_ts()), and
			 * the last pages back to one that commits an event
			 * (tracecmd_read_cpu_last(), for the progress)
			 */
			first = ps;
			last = (j->size - 1) / ps * ps;
			while (last >= first &&
			       dc_view_page_empty(f, j->off + last))
				last -= ps;
			if (last < first)
				last = first;
			if (dc_view_copy(f, fd, j->off, first) ||
			    dc_view_copy(f, fd, j->off + last, j->size - last))
				return -EIO;
		}
		ret = dc_view_fix_cpu(f, fd, j, d, nr);
		if (ret)
			return ret;
	}
	return 0;
}
