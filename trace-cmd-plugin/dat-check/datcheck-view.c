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

#include "datcheck-intern.h"

const char *datcheck_kallsyms(struct datcheck *dc, size_t *len)
{
	*len = dc->f.kallsyms_len;
	return dc->f.kallsyms;
}

/* The number on a format text's "ID:" line; false if it has none. */
static bool dc_format_id(const char *text, size_t len, unsigned int *id)
{
	const char *p = text, *end = text + len, *nl;
	unsigned long v = 0;
	unsigned int digits = 0;

	/* "name: X\nID: N\n" opens every format the kernel writes */
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl - p <= 4 || memcmp(p, "ID: ", 4))
			continue;
		for (p += 4; p < nl && *p >= '0' && *p <= '9'; p++) {
			v = v * 10 + (unsigned long)(*p - '0');
			if (++digits > 5)
				return false;
		}
		if (!digits || p != nl || v > 0xffff)
			return false;
		*id = (unsigned int)v;
		return true;
	}
	return false;
}

int datcheck_formats(struct datcheck *dc, const uint8_t *ids,
		     datcheck_format_fn fn, void *priv)
{
	struct dc_file *f = &dc->f;
	unsigned int i, id;
	int ret, n = 0;

	for (i = 0; i < f->nr_fmts; i++) {
		const struct dc_format *fm = &f->fmts[i];

		/* libtracecmd parsed the ftrace system's section itself */
		if (!strcmp(fm->system, "ftrace"))
			continue;
		if (ids && dc_format_id(fm->text, fm->len, &id) &&
		    !(ids[id >> 3] & (1u << (id & 7))))
			continue;
		ret = fn(fm->system, fm->text, fm->len, priv);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

/* @len bytes of the file at @off written at the same offset of @fd. */
static int dc_view_copy(const struct dc_file *f, int fd, uint64_t off,
			uint64_t len)
{
	ssize_t n;

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

/* A number in the file's byte order, @n bytes at @off of @fd. */
static int dc_view_num(const struct dc_file *f, int fd, uint64_t off,
		       uint64_t v, unsigned int n)
{
	uint8_t b[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		b[f->big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
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

int datcheck_view(struct datcheck *dc, int *out)
{
	const struct dc_file *f = &dc->f;
	struct dc_gap *gaps;
	uint64_t at = 0;
	unsigned int i, n = 0;
	int fd, ret = -EIO;

	*out = -1;
	gaps = calloc(f->nr_jobs + 2, sizeof(*gaps));
	if (!gaps)
		return -ENOMEM;
	fd = memfd_create("trace-fxt-view", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)f->len)) {
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
	*out = fd;
	fd = -1;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(gaps);
	return ret;
}

/* Whether the page at @off of an uncompressed CPU commits no event. */
static bool dc_view_page_empty(const struct dc_file *f, uint64_t off)
{
	return !(dc_num(f, f->p + off + 8, f->commit_size) & DAT_COMMIT_MASK);
}

/*
 * A compressed CPU's chunks as libtracecmd reads them before the page
 * reader takes over: the count and every chunk's header (it lists them
 * all), the first chunk's data (tracecmd_get_first_ts()) and the last's
 * (tracecmd_read_cpu_last(), for the progress only).
 */
static int dc_view_chunks(const struct dc_file *f, int fd,
			  const struct dc_job *j)
{
	/* the chunks run on past the CPU's size, its uncompressed one */
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
	const struct dc_file *f = &dc->f;
	uint64_t first, last, ps;
	unsigned int i;

	for (i = 0; i < f->nr_jobs; i++) {
		const struct dc_job *j = &f->jobs[i];

		if (j->cont || !j->size)
			continue;
		ps = j->page_size;
		if (!pages || !pages->nr) {
			if (dc_view_copy(f, fd, j->off, j->size))
				return -EIO;
			continue;
		}
		if (j->compressed) {
			if (dc_view_chunks(f, fd, j))
				return -EIO;
			continue;
		}
		if (j->size <= 2 * ps) {
			if (dc_view_copy(f, fd, j->off, j->size))
				return -EIO;
			continue;
		}
		/*
		 * What libtracecmd reads before the page reader takes over:
		 * the first page (tracecmd_get_first_ts()), and the last
		 * pages back to one that commits an event
		 * (tracecmd_read_cpu_last(), for the progress)
		 */
		first = ps;
		last = (j->size - 1) / ps * ps;
		while (last >= first && dc_view_page_empty(f, j->off + last))
			last -= ps;
		if (last < first)
			last = first;
		if (dc_view_copy(f, fd, j->off, first) ||
		    dc_view_copy(f, fd, j->off + last, j->size - last))
			return -EIO;
	}
	return 0;
}
