// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-file.c - a trace.dat checked against its own size before
 * libtracecmd reads it (datcheck.h).
 *
 * The walk reads what libtracecmd 3.1.6 reads, in the same order and with
 * the same counts, but every size, offset and count is first compared with
 * what contains it: the file, a section, a decompressed section, a page.
 * Only what can make those libraries read out of bounds, loop or fail
 * unsafely is refused; anything they handle with an error of their own is
 * left to them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <zstd.h>

#include "dat-format.h"
#include "datcheck.h"

#define DC_SEC_HEADER		16	/* id 2, flags 2, string 4, size 8 */
#define DC_MIN_EVENT		8	/* the common fields every event has */
/* what no real recording exceeds; beyond it the libraries' sizes wrap */
#define DC_MIN_PAGE		4096u
#define DC_MAX_PAGE		(1u << 24)
#define DC_MAX_CPUS		65536u
#define DC_MAX_INFLATE		(512u << 20)
#define DC_MAX_OPT_SECTIONS	256
#define DC_MAX_BUFFERS		4096

/*
 * libtracecmd opens latency traces (text, no ring-buffer pages), but its
 * per-CPU calls then crash on them (tracecmd_get_first_ts): refused.
 */
#define DC_LATENCY	"latency trace: its data is text, not ring-buffer " \
			"pages; nothing to convert"

/* One buffer's CPU data, known from its option, checked once headers are. */
struct dc_buffer {
	char		*name;		/* "" for the top buffer */
	uint64_t	section;	/* v7: its BUFFER section; v6: 0 */
	uint32_t	page_size;
	uint32_t	cpus;
	uint64_t	opt_at;		/* where the option lies, for messages */
	const uint8_t	*cpu_list;	/* cpus x (cpu 4, offset 8, size 8) */
};

/*
 * A CPU's data, walked once everything else checked good; or a part of
 * a compressed CPU's chunks (dc_cpu_parts()).
 */
struct dc_job {
	uint64_t	off, size;
	uint32_t	page_size;
	bool		compressed;
	const char	*buffer;	/* its buffer's name */
	unsigned int	cpu;
	/* a part: its chunks, the first at @from past @off; not the first */
	uint64_t	from, chunks;
	bool		cont;
};

/* A watched record a job met, its payload in the job's blob. */
struct dc_job_rec {
	unsigned int	event;
	uint64_t	ts;
	size_t		at;		/* into blob */
	uint32_t	len;
};

/*
 * What one job's walk left, for dc_jobs_merge() to take in job order: as
 * if the jobs had been walked one after the other.
 */
struct dc_job_out {
	bool			ran;
	int			ret;
	char			*err;		/* errlen bytes */
	uint8_t			*ids;		/* DATCHECK_IDS_BYTES */
	struct datcheck_watch	watch;		/* into recs and blob */
	struct dc_job_rec	*recs;
	size_t			nr, max;
	uint8_t			*blob;
	size_t			used, size;
};

/* A format text as libtracecmd will hand it to tep_parse_event(). */
struct dc_format {
	char		*system;
	char		*text;
	size_t		len;
	uint64_t	at;		/* its offset, or its section's */
};

/*
 * The format parser's child (dc_probe_start()): it parses formats
 * [first, first + nr) while the parent walks the CPU data.
 */
struct dc_probe {
	pid_t		pid;		/* 0: none running */
	int		fd;		/* reads the index it is at */
	unsigned int	first, nr;
};

struct dc_file {
	const uint8_t	*p;
	size_t		len;
	bool		big;
	bool		v7;
	bool		zstd;
	unsigned int	long_size;
	unsigned int	commit_size;	/* header_page's commit: 4 or 8 */
	uint32_t	page_size;
	uint32_t	cpus;		/* v6: header count, CPUCOUNT option */
	bool		has_clock;	/* a TRACECLOCK option was seen */
	/* libtracecmd moves the records' times (DATE, OFFSET, ...) */
	bool		times_moved;
	/* a buffer lists its CPUs other than as 0..n-1 */
	bool		cpus_renumbered;
	uint64_t	sections[DAT_OPTION_NR];
	struct dc_buffer *bufs;
	unsigned int	nr_bufs;
	struct dc_format *fmts;		/* every format text, for the probe */
	unsigned int	nr_fmts;
	/* where the event formats and kallsyms lie (datcheck_view()) */
	uint64_t	events_at, kallsyms_end;	/* v6: both, in turn */
	const char	*kallsyms;	/* the text, in the file or owned */
	size_t		kallsyms_len;
	uint8_t		*kallsyms_owned;	/* decompressed */
	struct dc_probe	probe;
	/* what the caller watches for, and where the walk is */
	const struct datcheck_watch *watch;
	uint32_t	watch_id[DATCHECK_MAX_WATCH];	/* event ID + 1 */
	const char	*walk_buffer;
	unsigned int	walk_cpu;
	unsigned int	flags;		/* enum datcheck_flags */
	uint8_t		*ids;		/* event IDs the records have (bits) */
	struct dc_job	*jobs;		/* every CPU's data, in file order */
	unsigned int	nr_jobs;
	/* the walk of the jobs, shared by the threads that call it */
	struct dc_job_out *outs;	/* by job, merged in order after */
	unsigned int	next_job;	/* atomic: the next job to take */
	bool		stop;		/* atomic: a job failed */
	bool		probe_started;	/* atomic */
	char		*err;
	size_t		errlen;
	int		ret;
};

/* Bytes being walked: the file, or one decompressed section of it. */
struct dc_cur {
	struct dc_file	*f;
	const uint8_t	*p;
	size_t		len;
	size_t		pos;
	uint64_t	base;		/* file offset of p[0], or the section's */
	bool		inflated;
	const char	*in;		/* what contains the bytes, for messages */
};

static void dc_probe_start(struct dc_file *f);

static int __attribute__((format(printf, 3, 4)))
dc_fail(struct dc_cur *c, size_t pos, const char *fmt, ...)
{
	struct dc_file *f = c->f;
	va_list ap;
	int n;

	if (f->ret)
		return f->ret;
	f->ret = -EBADMSG;
	if (c->inflated)
		n = snprintf(f->err, f->errlen, "offset 0x%llx: %s, byte %zu "
			     "decompressed: ", (unsigned long long)c->base,
			     c->in, pos);
	else
		n = snprintf(f->err, f->errlen, "offset 0x%llx: ",
			     (unsigned long long)(c->base + pos));
	if (n < 0 || (size_t)n >= f->errlen)
		return f->ret;
	va_start(ap, fmt);
	vsnprintf(f->err + n, f->errlen - n, fmt, ap);
	va_end(ap);
	return f->ret;
}

static uint64_t dc_num(const struct dc_file *f, const uint8_t *p,
		       unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[f->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static const uint8_t *dc_take(struct dc_cur *c, uint64_t n, const char *what)
{
	const uint8_t *p;

	if (c->f->ret)
		return NULL;
	if (n > c->len - c->pos) {
		dc_fail(c, c->pos, "%s (%llu bytes) runs past the end of %s "
			"(%zu bytes left)", what, (unsigned long long)n, c->in,
			c->len - c->pos);
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

static int dc_u(struct dc_cur *c, unsigned int n, const char *what,
		uint64_t *v)
{
	const uint8_t *p = dc_take(c, n, what);

	*v = p ? dc_num(c->f, p, n) : 0;
	return p ? 0 : -EBADMSG;
}

static const char *dc_str(struct dc_cur *c, const char *what)
{
	const char *s = (const char *)c->p + c->pos;
	size_t n;

	if (c->f->ret)
		return NULL;
	n = strnlen(s, c->len - c->pos);
	if (n == c->len - c->pos) {
		dc_fail(c, c->pos, "%s has no terminating NUL before the end "
			"of %s", what, c->in);
		return NULL;
	}
	c->pos += n + 1;
	return s;
}

/* A size-prefixed blob: @sz-byte size, then that many bytes. */
static int dc_blob(struct dc_cur *c, unsigned int sz, const char *what)
{
	uint64_t n;

	if (dc_u(c, sz, what, &n))
		return -EBADMSG;
	return dc_take(c, n, what) ? 0 : -EBADMSG;
}

static bool dc_pow2_page(uint64_t v)
{
	return v >= DC_MIN_PAGE && v <= DC_MAX_PAGE && !(v & (v - 1));
}

/* ---- the metadata ---- */

/* The commit field's size libtraceevent reads from a header_page text. */
static unsigned int dc_header_page_commit(struct dc_file *f,
					  const uint8_t *text, size_t len)
{
	struct tep_handle *tep = tep_alloc();
	char *copy = malloc(len);
	int size = 0;

	if (!tep || !copy) {
		f->ret = -ENOMEM;
	} else {
		memcpy(copy, text, len);
		tep_parse_header_page(tep, copy, len, f->long_size);
		size = tep_get_header_page_size(tep);
	}
	free(copy);
	tep_free(tep);
	return size < 0 ? 0 : size;
}

/* "header_page\0" size(8) text "header_event\0" size(8) text */
static int dc_headers(struct dc_cur *c)
{
	struct dc_file *f = c->f;
	const char *name;
	const uint8_t *text;
	uint64_t n;
	size_t at;

	name = dc_str(c, "the header_page name");
	if (name && strcmp(name, "header_page"))
		return dc_fail(c, c->pos - strlen(name) - 1, "\"header_page\" "
			       "expected, found \"%.20s\"", name);
	at = c->pos;
	if (dc_u(c, 8, "the header_page size", &n))
		return -EBADMSG;
	text = dc_take(c, n, "the header_page text");
	if (!text)
		return -EBADMSG;
	/*
	 * The page layout is what libtraceevent makes of this text (and
	 * libtracecmd then reads pages with): ask it.  An empty text is the
	 * pre-2.6.31 page format, which kbuffer walks differently.
	 */
	if (!n)
		return dc_fail(c, at, "header_page is empty (the old page "
			       "format, not read here)");
	f->commit_size = dc_header_page_commit(f, text, n);
	if (f->ret)
		return f->ret;
	if (f->commit_size != 4 && f->commit_size != 8)
		return dc_fail(c, at, "header_page: libtraceevent reads a "
			       "commit field of %u bytes, not 4 or 8",
			       f->commit_size);
	name = dc_str(c, "the header_event name");
	if (name && strcmp(name, "header_event"))
		return dc_fail(c, c->pos - strlen(name) - 1, "\"header_event\" "
			       "expected, found \"%.20s\"", name);
	return dc_blob(c, 8, "the header_event text");
}

/* Keep a copy of the format text just taken (the last @len bytes). */
static int dc_keep_format(struct dc_cur *c, const char *system, uint64_t len)
{
	struct dc_file *f = c->f;
	struct dc_format *n, *fm;

	n = realloc(f->fmts, (f->nr_fmts + 1) * sizeof(*n));
	if (!n)
		return f->ret = -ENOMEM;
	f->fmts = n;
	fm = &f->fmts[f->nr_fmts];
	fm->system = strdup(system);
	fm->text = malloc(len + 1);
	if (!fm->system || !fm->text) {
		free(fm->system);
		free(fm->text);
		return f->ret = -ENOMEM;
	}
	memcpy(fm->text, c->p + c->pos - len, len);
	fm->text[len] = '\0';
	fm->len = len;
	fm->at = c->inflated ? c->base : c->base + c->pos - len;
	f->nr_fmts++;
	return 0;
}

/*
 * A format the caller watches for: its text opens with "name: <name>"
 * and "ID: <id>" lines (the kernel's events/<system>/<name>/format).
 */
static void dc_watch_format(struct dc_file *f, const char *system,
			    const char *text)
{
	const struct datcheck_watch *w = f->watch;
	char name[128];
	unsigned int i, id;

	if (!w || sscanf(text, "name: %127s ID: %u", name, &id) != 2 ||
	    id > 0xffff)
		return;
	for (i = 0; i < w->nr_events && i < DATCHECK_MAX_WATCH; i++)
		if (!strcmp(w->events[i].system, system) &&
		    !strcmp(w->events[i].name, name))
			f->watch_id[i] = id + 1;
}

static int dc_format(struct dc_cur *c, const char *system, const char *what)
{
	uint64_t n;

	if (dc_u(c, 8, what, &n) || !dc_take(c, n, what) ||
	    dc_keep_format(c, system, n))
		return -EBADMSG;
	dc_watch_format(c->f, system, c->f->fmts[c->f->nr_fmts - 1].text);
	return 0;
}

static int dc_ftrace_formats(struct dc_cur *c)
{
	uint64_t n, i;

	if (dc_u(c, 4, "the ftrace format count", &n))
		return -EBADMSG;
	for (i = 0; i < n; i++)
		if (dc_format(c, "ftrace", "an ftrace event format"))
			return -EBADMSG;
	return 0;
}

static int dc_event_formats(struct dc_cur *c)
{
	uint64_t nsys, n, s, i;

	if (dc_u(c, 4, "the event system count", &nsys))
		return -EBADMSG;
	for (s = 0; s < nsys; s++) {
		const char *system = dc_str(c, "an event system name");

		if (!system || dc_u(c, 4, "the system's event count", &n))
			return -EBADMSG;
		for (i = 0; i < n; i++)
			if (dc_format(c, system, "an event format"))
				return -EBADMSG;
	}
	return 0;
}

/* ---- ring-buffer pages ---- */

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

static int dc_pages(struct dc_cur *c, size_t at, uint64_t size,
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
static uint8_t *dc_inflate(struct dc_cur *c, size_t at, const uint8_t *p,
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
static int dc_cpu_chunks(struct dc_cur *file, size_t at, uint64_t pos,
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

/* @job one more of the jobs datcheck_pages() runs. */
static int dc_job_add(struct dc_file *f, const struct dc_job *job)
{
	struct dc_job *j = realloc(f->jobs, (f->nr_jobs + 1) * sizeof(*j));

	if (!j)
		return f->ret = -ENOMEM;
	f->jobs = j;
	f->jobs[f->nr_jobs++] = *job;
	return 0;
}

/*
 * Chunks a part of a compressed CPU's data holds: 320 KB of pages where
 * trace-cmd compresses 10 pages a chunk, a millisecond or two of walk,
 * ~300 parts for a CPU of 100 MB.
 */
#define DC_PART_CHUNKS	8

/*
 * A compressed CPU's data @j as parts of DC_PART_CHUNKS chunks, each a
 * job: the threads that walk the pages then share one CPU's data too (a
 * recording of syscalls may have nearly all of them on one CPU).  Each
 * chunk decompresses to whole pages of its own, and the parts are
 * merged in order: the same walk as the CPU's in one go.  When the
 * chunks' headers do not hold up, the CPU is one job again, whose walk
 * says why.
 */
static int dc_cpu_parts(struct dc_cur *file, const struct dc_job *j)
{
	struct dc_file *f = file->f;
	unsigned int first = f->nr_jobs;
	size_t len = file->len - j->off;
	const uint8_t *p = file->p + j->off;
	struct dc_job part = *j;
	uint64_t count, i, csize, pos = 4;

	if (len < 4 || !(count = dc_num(f, p, 4)))
		return dc_job_add(f, j);
	for (i = 0; i < count; i++, pos += 8 + csize) {
		if (len - pos < 8 ||
		    dc_num(f, p + pos, 4) > len - pos - 8) {
			f->nr_jobs = first;
			return dc_job_add(f, j);
		}
		csize = dc_num(f, p + pos, 4);
		if (i % DC_PART_CHUNKS == 0) {
			part.from = pos;
			part.chunks = count - i < DC_PART_CHUNKS ?
				      count - i : DC_PART_CHUNKS;
			part.cont = i > 0;
			if (dc_job_add(f, &part))
				return f->ret;
		}
	}
	return 0;
}

/*
 * A CPU's data: within the file, and walked by datcheck_pages() once the
 * headers, options and formats are checked (libtracecmd reads those
 * without the pages, so both can go on at once).
 */
static int dc_cpu_data(struct dc_cur *file, uint64_t off, uint64_t size,
		       uint32_t page_size, bool compressed, size_t opt_at)
{
	struct dc_file *f = file->f;
	struct dc_job j = {
		.off = off, .size = size, .page_size = page_size,
		.compressed = compressed, .buffer = f->walk_buffer,
		.cpu = f->walk_cpu,
	};

	if (!size || f->flags & DATCHECK_NO_PAGES)
		return 0;
	if (off > file->len || size > file->len - off)
		return dc_fail(file, opt_at, "CPU data at 0x%llx of %llu bytes "
			       "lies beyond the end of the file (%zu bytes)",
			       (unsigned long long)off,
			       (unsigned long long)size, file->len);
	return compressed ? dc_cpu_parts(file, &j) : dc_job_add(f, &j);
}

static int dc_job_run(struct dc_file *f, const struct dc_job *j)
{
	struct dc_cur c = { .f = f, .p = f->p, .len = f->len,
			    .in = "the file" };

	f->walk_buffer = j->buffer;
	f->walk_cpu = j->cpu;
	if (j->compressed)
		return dc_cpu_chunks(&c, j->off, j->from, j->chunks,
				     j->page_size);
	return dc_pages(&c, j->off, j->size, j->page_size);
}

/* A watched record of a job kept for the merge; non-zero: out of memory. */
static int dc_job_keep(const struct datcheck_record *r, void *priv)
{
	struct dc_job_out *o = priv;

	if (o->nr == o->max) {
		size_t max = o->max ? 2 * o->max : 64;
		struct dc_job_rec *n = realloc(o->recs, max * sizeof(*n));

		if (!n)
			return o->ret = -ENOMEM;
		o->recs = n;
		o->max = max;
	}
	if (o->used + r->len > o->size) {
		size_t size = o->size ? 2 * o->size : 4096;
		uint8_t *n;

		while (size < o->used + r->len)
			size *= 2;
		n = realloc(o->blob, size);
		if (!n)
			return o->ret = -ENOMEM;
		o->blob = n;
		o->size = size;
	}
	memcpy(o->blob + o->used, r->data, r->len);
	o->recs[o->nr++] = (struct dc_job_rec){
		.event = r->event, .ts = r->ts, .at = o->used, .len = r->len,
	};
	o->used += r->len;
	return 0;
}

/*
 * Job @i walked with a copy of the file's state of its own: its fault,
 * IDs and watched records go to f->outs[i], whichever thread runs it.
 */
static void dc_job_walk(struct dc_file *f, unsigned int i)
{
	struct dc_job_out *o = &f->outs[i];
	struct dc_file jf = *f;

	o->ran = true;
	o->err = calloc(1, f->errlen ? f->errlen : 1);
	o->ids = f->ids ? calloc(1, DATCHECK_IDS_BYTES) : NULL;
	if (!o->err || (f->ids && !o->ids)) {
		o->ret = -ENOMEM;
	} else {
		jf.err = o->err;
		jf.ret = 0;
		jf.ids = o->ids;
		if (f->watch) {
			/* the same events, kept here until the merge */
			o->watch = *f->watch;
			o->watch.record = dc_job_keep;
			o->watch.priv = o;
			jf.watch = &o->watch;
		}
		dc_job_run(&jf, &f->jobs[i]);
		if (!o->ret)
			o->ret = jf.ret;
	}
	if (o->ret)
		__atomic_store_n(&f->stop, true, __ATOMIC_RELAXED);
}

static void dc_jobs_free(struct dc_file *f)
{
	unsigned int i;

	for (i = 0; f->outs && i < f->nr_jobs; i++) {
		free(f->outs[i].err);
		free(f->outs[i].ids);
		free(f->outs[i].recs);
		free(f->outs[i].blob);
	}
	free(f->outs);
	f->outs = NULL;
}

/*
 * The jobs' outcomes taken in job order, as a walk of one job after the
 * other would have met them: the first fault ends it, the watched
 * records go to the caller's watch, the IDs add up.  Once.
 */
static void dc_jobs_merge(struct dc_file *f)
{
	unsigned int i, k;
	size_t n;

	if (!f->outs)
		return;
	for (i = 0; i < f->nr_jobs; i++) {
		struct dc_job_out *o = &f->outs[i];

		if (!o->ran || f->ret)
			break;
		for (n = 0; n < o->nr && f->watch; n++) {
			struct datcheck_record r = {
				.buffer = f->jobs[i].buffer,
				.cpu = f->jobs[i].cpu,
				.event = o->recs[n].event,
				.ts = o->recs[n].ts,
				.data = o->blob + o->recs[n].at,
				.len = o->recs[n].len,
			};

			if (f->watch->record(&r, f->watch->priv))
				f->watch = NULL;
		}
		if (f->ids && o->ids)
			for (k = 0; k < DATCHECK_IDS_BYTES; k++)
				f->ids[k] |= o->ids[k];
		if (o->ret) {
			f->ret = o->ret;
			if (f->errlen)
				snprintf(f->err, f->errlen, "%s", o->err);
		}
	}
	dc_jobs_free(f);
}

/* ---- options ---- */

static const char *const dc_string_opts[DAT_OPTION_NR] = {
	[DAT_OPTION_DATE] = "DATE", [DAT_OPTION_CPUSTAT] = "CPUSTAT",
	[DAT_OPTION_TRACECLOCK] = "TRACECLOCK", [DAT_OPTION_UNAME] = "UNAME",
	[DAT_OPTION_HOOK] = "HOOK", [DAT_OPTION_OFFSET] = "OFFSET",
	[DAT_OPTION_VERSION] = "VERSION", [DAT_OPTION_PROCMAPS] = "PROCMAPS",
	[DAT_OPTION_LAST_BOOT_INFO] = "LAST_BOOT_INFO",
};

/*
 * A trace_clock text ("local [global] ..."): libtracecmd takes the first
 * space-separated word that starts with '[' and sscanf()s what lies
 * between the brackets - NULL, and a crash, when nothing does.
 */
static bool dc_clock_ok(const uint8_t *text, size_t len)
{
	const char *p = (const char *)text, *end = p + strnlen(p, len), *w;

	for (; p < end; p = w + 1) {
		w = memchr(p, ' ', end - p);
		if (!w)
			w = end;
		if (w > p && *p == '[')
			return p + strspn(p, "[]") < w;
	}
	return true;
}

/*
 * HOOK: "[sys:]event,match[,pid]/[sys:]event,match[,flags]".  libtracecmd
 * 3.1.6 dereferences the NULL its parser returns for anything else, so
 * the same tokens are taken here, in the same order, on a copy.
 */
static bool dc_hook_ok(const char *arg)
{
	char *str = strdup(arg), *tok, *save = NULL;
	bool ok = false;
	int half;

	/* libtracecmd measures a leading token from arg[0]: keep them equal */
	if (!str || *arg == ':' || *arg == ',') {
		free(str);
		return false;
	}
	for (half = 0, tok = strtok_r(str, ":,", &save); half < 2; half++) {
		if (!tok)
			goto out;
		/* a token that ended at ':' was the system */
		if (arg[tok - str + strlen(tok)] == ':' &&
		    !strtok_r(NULL, ",", &save))
			goto out;
		tok = strtok_r(NULL, half ? "," : ",/", &save);
		if (!tok)
			goto out;
		/* then the pid (start) or the flags (end), if a ',' follows */
		if (arg[tok - str + strlen(tok)] == ',' &&
		    !strtok_r(NULL, half ? "" : "/", &save))
			goto out;
		if (!half)
			tok = strtok_r(NULL, ":,", &save);
	}
	ok = true;
out:
	free(str);
	return ok;
}

/* GUEST: name, trace id(8), vcpus(4), vcpus x (cpu(4) < vcpus, pid(4)) */
static int dc_opt_guest(struct dc_cur *c)
{
	uint64_t n, i, cpu, pid;

	if (!dc_str(c, "the guest name") || dc_u(c, 8, "the guest id", &n) ||
	    dc_u(c, 4, "the guest CPU count", &n))
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		if (dc_u(c, 4, "a guest CPU", &cpu) ||
		    dc_u(c, 4, "a guest CPU's pid", &pid))
			return -EBADMSG;
		if (cpu >= n)
			return dc_fail(c, c->pos - 8, "guest CPU %llu of %llu",
				       (unsigned long long)cpu,
				       (unsigned long long)n);
	}
	return 0;
}

/*
 * TIME_SHIFT: trace id(8) flags(4) cpus(4), then per CPU a count(4) and
 * count x (time, offset, scaling)(8 each), then maybe per CPU count x
 * fraction(8).  libtracecmd ignores one under 16 bytes, and allocates
 * for every count it reads before it reads what the count promises: a
 * count that the option's bytes cannot hold is refused here.
 */
static int dc_opt_time_shift(struct dc_cur *c, uint64_t size)
{
	uint64_t cpus, n, i, *counts, rest;

	if (size < 16)
		return 0;
	if (dc_u(c, 8, "the peer's trace id", &n) ||
	    dc_u(c, 4, "the time shift's flags", &n) ||
	    dc_u(c, 4, "the time shift's CPU count", &cpus))
		return -EBADMSG;
	if (cpus > (size - 16) / 4)
		return dc_fail(c, c->pos - 4, "option TIME_SHIFT: %llu CPUs "
			       "of offsets in %llu bytes",
			       (unsigned long long)cpus,
			       (unsigned long long)size);
	counts = calloc(cpus ? cpus : 1, sizeof(*counts));
	if (!counts)
		return c->f->ret = -ENOMEM;
	for (i = 0; i < cpus; i++) {
		if (dc_u(c, 4, "a CPU's offset count", &counts[i]) ||
		    !dc_take(c, counts[i] * 24, "a CPU's offsets")) {
			free(counts);
			return -EBADMSG;
		}
	}
	rest = size - c->pos;
	for (i = 0; rest && i < cpus; i++) {
		if (!dc_take(c, counts[i] * 8, "a CPU's scaling fractions")) {
			free(counts);
			return -EBADMSG;
		}
	}
	free(counts);
	return 0;
}

/* BUFFER: offset(8) name [clock page_size(4) cpus(4) cpus x 20 bytes] */
static int dc_opt_buffer(struct dc_cur *c, bool latency)
{
	struct dc_file *f = c->f;
	struct dc_buffer b = { .opt_at = c->base + c->pos };
	struct dc_buffer *nb;
	uint64_t v, i, cpu;

	const char *name;

	if (dc_u(c, 8, "the buffer's offset", &b.section))
		return -EBADMSG;
	name = dc_str(c, "the buffer's name");
	if (!name)
		return -EBADMSG;
	if (!f->v7) {
		/* v6: the offset leads to the instance's own flyrecord */
		b.page_size = f->page_size;
		b.cpus = f->cpus;
	} else {
		if (!dc_str(c, "the buffer's clock"))
			return -EBADMSG;
		if (latency)
			return dc_fail(c, 0, DC_LATENCY);
		if (dc_u(c, 4, "the buffer's page size", &v))
			return -EBADMSG;
		if (!dc_pow2_page(v))
			return dc_fail(c, c->pos - 4, "buffer page size %llu",
				       (unsigned long long)v);
		/*
		 * libtracecmd reads an instance with its own page size, the
		 * top buffer ("") with the file's.
		 */
		b.page_size = *name ? v : f->page_size;
		if (dc_u(c, 4, "the buffer's CPU count", &v))
			return -EBADMSG;
		if (v > DC_MAX_CPUS)
			return dc_fail(c, c->pos - 4, "%llu CPUs",
				       (unsigned long long)v);
		b.cpus = v;
		b.cpu_list = c->p + c->pos;
		if (!dc_take(c, (uint64_t)b.cpus * 20, "the buffer's CPU list"))
			return -EBADMSG;
		for (i = 0; i < b.cpus; i++) {
			cpu = dc_num(f, b.cpu_list + 20 * i, 4);
			if (cpu >= DC_MAX_CPUS)
				return dc_fail(c, c->pos - 20 * (b.cpus - i),
					       "CPU %llu",
					       (unsigned long long)cpu);
		}
	}
	if (f->nr_bufs == DC_MAX_BUFFERS)
		return dc_fail(c, c->pos, "more than %d buffers",
			       DC_MAX_BUFFERS);
	b.name = strdup(name);
	nb = b.name ? realloc(f->bufs, (f->nr_bufs + 1) * sizeof(*nb)) : NULL;
	if (!nb) {
		free(b.name);
		return f->ret = -ENOMEM;
	}
	f->bufs = nb;
	f->bufs[f->nr_bufs++] = b;
	return 0;
}

/*
 * The options of a v6 file or of one v7 options section; *@next is the
 * next v7 options section (0: none).
 */
static int dc_options(struct dc_cur *c, uint64_t *next)
{
	struct dc_file *f = c->f;
	uint64_t id, size, v;
	const uint8_t *data;
	size_t at;

	*next = 0;
	for (;;) {
		at = c->pos;
		if (dc_u(c, 2, "an option id", &id))
			return -EBADMSG;
		if (!f->v7 && id == DAT_OPTION_DONE)
			return 0;
		if (dc_u(c, 4, "an option size", &size))
			return -EBADMSG;
		data = dc_take(c, size, "an option's data");
		if (!data)
			return -EBADMSG;
		if (id < DAT_OPTION_NR && dc_string_opts[id] &&
		    (!size || data[size - 1]))
			return dc_fail(c, at, "option %s: its string has no "
				       "terminating NUL", dc_string_opts[id]);
		{
			struct dc_cur o = *c;

			o.p = data;
			o.len = size;
			o.pos = 0;
			o.base = c->base + (data - c->p);
			o.in = "the option";
			if (c->inflated)
				o.base = c->base;
			switch (id) {
			case DAT_OPTION_DONE:
				if (dc_u(&o, 8, "the next options offset",
					 next))
					return -EBADMSG;
				return 0;
			case DAT_OPTION_CPUCOUNT:
				if (dc_u(&o, 4, "the CPU count", &v))
					return -EBADMSG;
				if (v > DC_MAX_CPUS)
					return dc_fail(c, at, "CPUCOUNT %llu",
						(unsigned long long)v);
				f->cpus = v;
				break;
			case DAT_OPTION_GUEST:
				if (dc_opt_guest(&o))
					return -EBADMSG;
				break;
			case DAT_OPTION_TIME_SHIFT:
				f->times_moved = true;
				if (dc_opt_time_shift(&o, size))
					return -EBADMSG;
				break;
			case DAT_OPTION_DATE:
			case DAT_OPTION_OFFSET:
			case DAT_OPTION_TSC2NSEC:
				f->times_moved = true;
				break;
			case DAT_OPTION_TRACECLOCK:
				f->has_clock = true;
				if (!dc_clock_ok(data, size))
					return dc_fail(c, at, "option "
						       "TRACECLOCK: no clock "
						       "name in its brackets");
				break;
			case DAT_OPTION_HOOK:
				if (!dc_hook_ok((const char *)data))
					return dc_fail(c, at, "option HOOK: "
						       "\"%.40s\" is no hook",
						       data);
				break;
			case DAT_OPTION_BUFFER:
			case DAT_OPTION_BUFFER_TEXT:
				if (dc_opt_buffer(&o, id == DAT_OPTION_BUFFER_TEXT))
					return -EBADMSG;
				break;
			case DAT_OPTION_HEADER_INFO: case DAT_OPTION_FTRACE_EVENTS:
			case DAT_OPTION_EVENT_FORMATS: case DAT_OPTION_KALLSYMS:
			case DAT_OPTION_PRINTK: case DAT_OPTION_CMDLINES:
			case DAT_OPTION_BTF_FILE: case DAT_OPTION_MODULES_FILE:
				if (f->v7 && size >= 8)
					f->sections[id] = dc_num(f, data, 8);
				break;
			}
		}
	}
}

/* ---- version 7 sections ---- */

/*
 * The section at @off, which must have id @id: @out covers its payload,
 * decompressed into *@owned when compressed.  *@flags gets its flags.
 */
static int dc_section(struct dc_cur *file, uint64_t off, unsigned int id,
		      const char *what, struct dc_cur *out, uint8_t **owned,
		      unsigned int *flags)
{
	struct dc_cur c = *file;
	uint64_t sid, fl, desc, size, csize, usize;
	const uint8_t *z;

	*owned = NULL;
	c.pos = off;
	if (off > file->len)
		return dc_fail(&c, off, "the %s section lies beyond the end "
			       "of the file (%zu bytes)", what, file->len);
	if (dc_u(&c, 2, "a section id", &sid) ||
	    dc_u(&c, 2, "a section's flags", &fl) ||
	    dc_u(&c, 4, "a section's description", &desc) ||
	    dc_u(&c, 8, "a section's size", &size))
		return -EBADMSG;
	if (sid != id)
		return dc_fail(&c, off, "section id %llu where the options "
			       "place the %s section (id %u)",
			       (unsigned long long)sid, what, id);
	*flags = fl;
	*out = c;
	out->in = what;
	if (!(fl & DAT_SECTION_COMPRESSED) || id == DAT_OPTION_BUFFER) {
		/* flyrecord CPU data is compressed in chunks of its own */
		if (id == DAT_OPTION_BUFFER)
			return 0;
		out->p = c.p + c.pos;
		out->base = c.base + c.pos;
		out->pos = 0;
		out->len = size;
		if (!dc_take(&c, size, "the section"))
			return -EBADMSG;
		return 0;
	}
	if (!c.f->zstd)
		return dc_fail(&c, off, "compressed %s section in a file "
			       "that names no compression", what);
	if (size < 8 || dc_u(&c, 4, "the compressed size", &csize) ||
	    dc_u(&c, 4, "the decompressed size", &usize))
		return size < 8 ? dc_fail(&c, off, "compressed section of "
					  "%llu bytes",
					  (unsigned long long)size) : -EBADMSG;
	if (csize > size - 8)
		return dc_fail(&c, off, "compressed size %llu exceeds the "
			       "section's %llu bytes",
			       (unsigned long long)csize,
			       (unsigned long long)size);
	z = dc_take(&c, csize, "the compressed data");
	if (!z)
		return -EBADMSG;
	*owned = dc_inflate(&c, off, z, csize, usize);
	if (!*owned)
		return c.f->ret;
	*out = (struct dc_cur){ .f = c.f, .p = *owned, .len = usize,
				.base = off, .inflated = true, .in = what };
	return 0;
}

/* libtracecmd collects STRINGS by walking sections from the header on */
static int dc_strings(struct dc_cur *file, size_t pos)
{
	struct dc_cur s;
	uint8_t *owned;
	unsigned int fl;
	uint64_t id, size;

	while (file->len - pos >= DC_SEC_HEADER) {
		id = dc_num(file->f, file->p + pos, 2);
		size = dc_num(file->f, file->p + pos + 8, 8);
		/*
		 * libtracecmd's walk stops at a section past the end, but
		 * not before it allocated what a STRINGS one claims.
		 */
		if (size > file->len - pos - DC_SEC_HEADER)
			return id != DAT_OPTION_STRINGS ? 0 :
			       dc_fail(file, pos, "strings section of %llu "
				       "bytes runs past the end of the file",
				       (unsigned long long)size);
		if (id == DAT_OPTION_STRINGS) {
			if (dc_section(file, pos, DAT_OPTION_STRINGS, "strings", &s,
				       &owned, &fl))
				return -EBADMSG;
			free(owned);
		}
		pos += DC_SEC_HEADER + size;
	}
	return 0;
}

typedef int (*dc_body_fn)(struct dc_cur *c);

static int dc_kallsyms(struct dc_cur *c)
{
	const uint8_t *text;
	uint64_t n;

	if (dc_u(c, 4, "the kallsyms text", &n))
		return -EBADMSG;
	text = dc_take(c, n, "the kallsyms text");
	if (!text)
		return -EBADMSG;
	c->f->kallsyms = (const char *)text;
	c->f->kallsyms_len = n;
	return 0;
}

/*
 * libtraceevent 1.7's tep_parse_printk_formats() takes, per line, what
 * follows the first ':' plus one character, drops a leading '"', then
 * looks two characters before the last: a line without that much reads
 * outside its copy.  Lines are taken as it takes them (up to a NUL,
 * empty lines skipped, leading ':' skipped).
 */
static int dc_printk_text(struct dc_cur *c, const uint8_t *text, size_t len)
{
	const char *p = (const char *)text, *end, *eol, *colon, *fmt;
	size_t at;

	end = p + strnlen(p, len);
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		at = (const uint8_t *)p - c->p;
		while (p < eol && *p == ':')
			p++;
		if (p == eol)
			continue;
		colon = memchr(p, ':', eol - p);
		if (!colon || colon + 1 >= eol)
			return dc_fail(c, at, "printk line \"%.*s\": no format "
				       "after its ':'", (int)(eol - p > 40 ? 40 :
				       eol - p), p);
		fmt = colon + 2;
		if (fmt < eol && *fmt == '"')
			fmt++;
		if (eol - fmt < 3)
			return dc_fail(c, at, "printk line \"%.*s\": format "
				       "shorter than 3 characters",
				       (int)(eol - p > 40 ? 40 : eol - p), p);
	}
	return 0;
}

static int dc_printk(struct dc_cur *c)
{
	uint64_t n;
	const uint8_t *text;

	if (dc_u(c, 4, "the printk formats size", &n))
		return -EBADMSG;
	text = dc_take(c, n, "the printk formats");
	if (!text)
		return -EBADMSG;
	return dc_printk_text(c, text, n);
}

static int dc_cmdlines(struct dc_cur *c)
{
	return dc_blob(c, 8, "the saved command lines");
}

static const struct {
	unsigned int	id;
	const char	*name;
	dc_body_fn	body;
} dc_meta_sections[] = {
	{ DAT_OPTION_HEADER_INFO,	"headers",	 dc_headers },
	{ DAT_OPTION_FTRACE_EVENTS,	"ftrace events", dc_ftrace_formats },
	{ DAT_OPTION_EVENT_FORMATS,	"event formats", dc_event_formats },
	{ DAT_OPTION_KALLSYMS,	"kallsyms",	 dc_kallsyms },
	{ DAT_OPTION_PRINTK,		"printk",	 dc_printk },
	{ DAT_OPTION_CMDLINES,	"command lines", dc_cmdlines },
};

static int dc_buffers(struct dc_cur *file)
{
	struct dc_file *f = file->f;
	struct dc_buffer *b;
	struct dc_cur s;
	uint8_t *owned;
	unsigned int i, cpu, fl = 0;
	const uint8_t *e;

	for (i = 0; i < f->nr_bufs; i++) {
		b = &f->bufs[i];
		if (dc_section(file, b->section, DAT_OPTION_BUFFER, "flyrecord", &s,
			       &owned, &fl))
			return -EBADMSG;
		if ((fl & DAT_SECTION_COMPRESSED) && !f->zstd)
			return dc_fail(file, b->section, "compressed CPU data "
				       "in a file that names no compression");
		f->walk_buffer = b->name;
		for (cpu = 0; cpu < b->cpus; cpu++) {
			f->walk_cpu = cpu;
			e = b->cpu_list + 20 * cpu;
			if (dc_num(f, e, 4) != cpu)
				f->cpus_renumbered = true;
			if (dc_cpu_data(file, dc_num(f, e + 4, 8),
					dc_num(f, e + 12, 8), b->page_size,
					fl & DAT_SECTION_COMPRESSED, b->opt_at))
				return -EBADMSG;
		}
	}
	return 0;
}

static int dc_v7(struct dc_cur *c)
{
	struct dc_file *f = c->f;
	uint64_t opt, next;
	struct dc_cur s;
	uint8_t *owned;
	unsigned int fl, i;
	const char *name;
	int n, ret;

	name = dc_str(c, "the compression name");
	if (!name || !dc_str(c, "the compression version"))
		return -EBADMSG;
	if (!strcmp(name, "zstd"))
		f->zstd = true;
	else if (strcmp(name, "none"))
		return dc_fail(c, c->pos, "compression \"%.20s\": only none "
			       "and zstd are read", name);
	if (dc_u(c, 8, "the options offset", &opt))
		return -EBADMSG;
	if (dc_strings(c, c->pos))
		return -EBADMSG;
	for (n = 0; opt; n++) {
		if (n == DC_MAX_OPT_SECTIONS)
			return dc_fail(c, opt, "more than %d options "
				       "sections (a loop?)",
				       DC_MAX_OPT_SECTIONS);
		if (dc_section(c, opt, DAT_OPTION_DONE, "options", &s, &owned, &fl))
			return -EBADMSG;
		ret = dc_options(&s, &next);
		free(owned);
		if (ret)
			return ret;
		opt = next;
	}
	if (!f->sections[DAT_OPTION_HEADER_INFO])
		return dc_fail(c, 0, "no header_page and header_event (no "
			       "HEADER_INFO option)");
	for (i = 0; i < sizeof(dc_meta_sections) /
			sizeof(dc_meta_sections[0]); i++) {
		unsigned int id = dc_meta_sections[i].id;

		if (!f->sections[id])
			continue;
		if (dc_section(c, f->sections[id], id,
			       dc_meta_sections[i].name, &s, &owned, &fl))
			return -EBADMSG;
		ret = dc_meta_sections[i].body(&s);
		/* the kallsyms text stays for datcheck_kallsyms() */
		if (id == DAT_OPTION_KALLSYMS && !ret)
			f->kallsyms_owned = owned;
		else
			free(owned);
		if (ret)
			return ret;
	}
	for (i = DAT_OPTION_BTF_FILE; i < DAT_OPTION_NR; i++)
		if (f->sections[i] && f->sections[i] > c->len)
			return dc_fail(c, 0, "section %u at 0x%llx is beyond "
				       "the end of the file", i,
				       (unsigned long long)f->sections[i]);
	return dc_buffers(c);
}

/* ---- version 6 ---- */

/* [options] then "flyrecord\0" and its CPU list, or "latency  \0" */
static int dc_v6_data(struct dc_cur *c, bool top)
{
	struct dc_file *f = c->f;
	const uint8_t *tag;
	uint64_t next, off, size, cpu;
	size_t at;

	tag = dc_take(c, 10, "the data type (options, flyrecord, latency)");
	if (tag && !memcmp(tag, "options  ", 10)) {
		if (dc_options(c, &next))
			return -EBADMSG;
		tag = dc_take(c, 10, "the data type (flyrecord, latency)");
	}
	if (!tag)
		return -EBADMSG;
	if (!memcmp(tag, "latency  ", 10))
		return dc_fail(c, c->pos - 10, DC_LATENCY);
	if (memcmp(tag, "flyrecord", 10))
		return dc_fail(c, c->pos - 10, "\"flyrecord\" expected");
	for (cpu = 0; cpu < f->cpus; cpu++) {
		f->walk_cpu = cpu;
		at = c->pos;
		if (dc_u(c, 8, "a CPU data offset", &off) ||
		    dc_u(c, 8, "a CPU data size", &size) ||
		    dc_cpu_data(c, off, size, f->page_size, false, at))
			return -EBADMSG;
	}
	if (!top)
		return 0;
	/*
	 * With a TRACECLOCK option, libtracecmd reads a trace_clock text
	 * after the CPU list; one it cannot read makes it use "local" (an
	 * old trace-cmd wrote CPU data over it).  It allocates size + 1
	 * bytes first: for 2^64-1 that is 0, and the read overflows it.
	 */
	if (f->has_clock && c->len - c->pos >= 8) {
		size = dc_num(f, c->p + c->pos, 8);
		if (size == UINT64_MAX)
			return dc_fail(c, c->pos, "trace_clock size 2^64-1 "
				       "wraps libtracecmd's allocation");
		if (size <= c->len - c->pos - 8 &&
		    !dc_clock_ok(c->p + c->pos + 8, size))
			return dc_fail(c, c->pos, "trace_clock text: no clock "
				       "name in its brackets");
	}
	/* v6 instances: at each BUFFER offset, the same again */
	for (cpu = 0; cpu < f->nr_bufs; cpu++) {
		struct dc_cur b = *c;

		if (f->bufs[cpu].section > c->len)
			return dc_fail(c, 0, "buffer at 0x%llx is beyond the "
				       "end of the file",
				       (unsigned long long)f->bufs[cpu].section);
		b.pos = f->bufs[cpu].section;
		f->walk_buffer = f->bufs[cpu].name;
		if (dc_v6_data(&b, false))
			return -EBADMSG;
	}
	return 0;
}

static int dc_v6(struct dc_cur *c)
{
	struct dc_file *f = c->f;
	uint64_t v;

	if (dc_headers(c) || dc_ftrace_formats(c))
		return -EBADMSG;
	f->events_at = c->pos;
	if (dc_event_formats(c) || dc_kallsyms(c))
		return -EBADMSG;
	f->kallsyms_end = c->pos;
	if (dc_printk(c) || dc_cmdlines(c) ||
	    dc_u(c, 4, "the CPU count", &v))
		return -EBADMSG;
	if (v > DC_MAX_CPUS)
		return dc_fail(c, c->pos - 4, "%llu CPUs",
			       (unsigned long long)v);
	f->cpus = v;
	return dc_v6_data(c, true);
}

/* ---- the format parser ---- */

/* How long the parser may take over every format of a file. */
#define DC_PROBE_SECONDS	30

/*
 * libtraceevent 1.7's format parser dereferences NULL on some broken
 * print formats (an operator inside __print_symbolic()'s first argument,
 * among others) and nothing short of its own grammar says which.  So the
 * texts libtracecmd will hand it are first parsed in a child process,
 * which tells the parent, through a pipe, which format it is at: a child
 * killed by a signal names the format that killed it.  The child starts
 * once the formats are known, before the CPU data, and parses on the
 * second CPU while the parent walks (and decompresses) the pages; its
 * verdict is taken after the walk, whose own errors come first.
 */
static void dc_probe_start(struct dc_file *f)
{
	struct dc_probe *pr = &f->probe;
	uint32_t i, first = pr->first + pr->nr;
	struct tep_handle *tep;
	int fds[2], null;
	pid_t pid;

	if (pr->pid || first >= f->nr_fmts || f->flags & DATCHECK_NO_PROBE)
		return;
	if (pipe(fds))
		return;			/* no probe: libtracecmd as before */
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE,
					     SIGABRT };

		/* die of the fault, not of a handler someone installed */
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		close(fds[0]);
		null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		alarm(DC_PROBE_SECONDS);
		tep = tep_alloc();
		for (i = first; tep && i < f->nr_fmts; i++) {
			if (write(fds[1], &i, sizeof(i)) != sizeof(i))
				break;
			tep_parse_event(tep, f->fmts[i].text, f->fmts[i].len,
					f->fmts[i].system);
		}
		_exit(0);
	}
	close(fds[1]);
	pr->pid = pid;
	pr->fd = fds[0];
	pr->first = first;
	pr->nr = f->nr_fmts - first;
}

/*
 * The child's verdict, once the walk found nothing: 0 when it parsed
 * every format and exited, else the format it crashed, hung or exited on.
 * After a failed walk (@judge false) the child is only stopped.
 */
static int dc_probe_finish(struct dc_file *f, bool judge)
{
	struct dc_probe *pr = &f->probe;
	struct dc_cur c = { .f = f, .p = f->p, .len = f->len,
			    .in = "the file" };
	uint32_t i, at = pr->first;
	int status;

	if (!pr->pid)
		return 0;
	if (!judge)
		kill(pr->pid, SIGKILL);
	while (judge && read(pr->fd, &i, sizeof(i)) == sizeof(i))
		at = i;
	close(pr->fd);
	while (waitpid(pr->pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	pr->pid = 0;
	if (!judge || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return 0;
	if (!WIFSIGNALED(status))
		return dc_fail(&c, f->fmts[at].at, "event format (%s) makes "
			       "libtraceevent's parser exit (status %d)",
			       f->fmts[at].system, WEXITSTATUS(status));
	return dc_fail(&c, f->fmts[at].at, "event format (%s) %s "
		       "libtraceevent's parser (%s)", f->fmts[at].system,
		       WTERMSIG(status) == SIGALRM ? "hangs" : "crashes",
		       strsignal(WTERMSIG(status)));
}

static void dc_free(struct dc_file *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_fmts; i++) {
		free(f->fmts[i].system);
		free(f->fmts[i].text);
	}
	free(f->fmts);
	free(f->kallsyms_owned);
	for (i = 0; i < f->nr_bufs; i++)
		free(f->bufs[i].name);
	free(f->bufs);
	dc_jobs_free(f);
	free(f->jobs);
	free(f->ids);
}

struct datcheck {
	struct dc_file	f;
};

int datcheck_head(const uint8_t *p, size_t len,
		  const struct datcheck_watch *w, unsigned int flags,
		  char *err, size_t errlen, struct datcheck **out)
{
	struct datcheck *dc = calloc(1, sizeof(*dc));
	struct dc_file *f;
	struct dc_cur c;
	const char *version;
	uint64_t v;
	long ver;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!dc)
		return -ENOMEM;
	f = &dc->f;
	*f = (struct dc_file){ .p = p, .len = len, .err = err,
			       .errlen = errlen, .watch = w, .flags = flags,
			       .walk_buffer = "" };
	c = (struct dc_cur){ .f = f, .p = p, .len = len, .in = "the file" };
	if (len < DAT_MAGIC_LEN || memcmp(p, DAT_MAGIC, DAT_MAGIC_LEN)) {
		dc_fail(&c, 0, "no trace.dat magic");
		goto out;
	}
	c.pos = DAT_MAGIC_LEN;
	version = dc_str(&c, "the file version");
	if (!version)
		goto out;
	ver = strtol(version, NULL, 10);
	if (ver != 6 && ver != 7) {
		dc_fail(&c, DAT_MAGIC_LEN, "file version \"%.10s\": only 6 and "
			"7 are read", version);
		goto out;
	}
	f->v7 = ver == 7;
	if (!(flags & DATCHECK_NO_PAGES)) {
		f->ids = calloc(1, DATCHECK_IDS_BYTES);
		if (!f->ids) {
			f->ret = -ENOMEM;
			goto out;
		}
	}
	if (dc_u(&c, 1, "the byte order", &v))
		goto out;
	if (v > 1) {
		dc_fail(&c, c.pos - 1, "byte order %llu, not 0 or 1",
			(unsigned long long)v);
		goto out;
	}
	f->big = v;
	if (dc_u(&c, 1, "the long size", &v))
		goto out;
	if (v != 4 && v != 8) {
		dc_fail(&c, c.pos - 1, "long size %llu, not 4 or 8",
			(unsigned long long)v);
		goto out;
	}
	f->long_size = v;
	if (dc_u(&c, 4, "the page size", &v))
		goto out;
	if (!dc_pow2_page(v)) {
		dc_fail(&c, c.pos - 4, "page size %llu is not a power of two "
			"from %u to %u", (unsigned long long)v, DC_MIN_PAGE,
			DC_MAX_PAGE);
		goto out;
	}
	f->page_size = v;
	if (f->v7)
		dc_v7(&c);
	else
		dc_v6(&c);
	if (!f->ret && f->nr_jobs) {
		f->outs = calloc(f->nr_jobs, sizeof(*f->outs));
		if (!f->outs)
			f->ret = -ENOMEM;
	}
out:
	if (f->ret) {
		int ret = f->ret;

		dc_free(f);
		free(dc);
		return ret;
	}
	*out = dc;
	return 0;
}

int datcheck_pages(struct datcheck *dc)
{
	struct dc_file *f = &dc->f;
	unsigned int i;

	/* every format is known: the probe parses them meanwhile */
	if (!__atomic_exchange_n(&f->probe_started, true, __ATOMIC_ACQ_REL))
		dc_probe_start(f);
	if (!f->outs)
		return 0;
	for (;;) {
		if (__atomic_load_n(&f->stop, __ATOMIC_RELAXED))
			break;
		i = __atomic_fetch_add(&f->next_job, 1, __ATOMIC_RELAXED);
		if (i >= f->nr_jobs)
			break;
		dc_job_walk(f, i);
	}
	return 0;
}

int datcheck_layout(struct datcheck *dc, struct fxt_input_pages *out)
{
	struct dc_file *f = &dc->f;
	struct fxt_input_cpu_data *cpus;
	size_t names = 0, i, n;
	char *s;

	memset(out, 0, sizeof(*out));
	dc_jobs_merge(f);
	if (f->ret || (f->flags & DATCHECK_NO_PAGES) || f->times_moved ||
	    f->cpus_renumbered || !f->nr_jobs)
		return 0;
	for (i = n = 0; i < f->nr_jobs; i++) {
		if (f->jobs[i].cont)
			continue;
		names += strlen(f->jobs[i].buffer) + 1;
		n++;
	}
	cpus = malloc(n * sizeof(*cpus) + names);
	if (!cpus)
		return -ENOMEM;
	s = (char *)(cpus + n);
	/* a CPU's data once, whatever parts its walk took */
	for (i = n = 0; i < f->nr_jobs; i++) {
		const struct dc_job *j = &f->jobs[i];

		if (j->cont)
			continue;
		cpus[n++] = (struct fxt_input_cpu_data){
			.buffer = s, .cpu = j->cpu, .page_size = j->page_size,
			.off = j->off, .size = j->size, .zstd = j->compressed,
		};
		s = stpcpy(s, j->buffer) + 1;
	}
	out->cpus = cpus;
	out->nr = n;
	out->big = f->big;
	out->long_size = f->long_size;
	out->owner = cpus;
	return 0;
}

int datcheck_ids(struct datcheck *dc, uint8_t *ids)
{
	struct dc_file *f = &dc->f;

	dc_jobs_merge(f);
	if (f->ret || !f->ids)
		return -ENODATA;
	memcpy(ids, f->ids, DATCHECK_IDS_BYTES);
	return 0;
}

void datcheck_layout_free(struct fxt_input_pages *pages)
{
	free(pages->owner);
	memset(pages, 0, sizeof(*pages));
}

int datcheck_end(struct datcheck *dc)
{
	struct dc_file *f = &dc->f;
	int ret;

	dc_jobs_merge(f);
	/* formats kept after the probe started (none in 6 or 7) too */
	while (!f->ret && f->probe.first + f->probe.nr < f->nr_fmts) {
		dc_probe_start(f);
		if (!f->probe.pid)
			break;
		dc_probe_finish(f, true);
	}
	dc_probe_finish(f, !f->ret);
	ret = f->ret;
	dc_free(f);
	free(dc);
	return ret;
}

int datcheck_buf_watch(const uint8_t *p, size_t len,
		       const struct datcheck_watch *w, unsigned int flags,
		       char *err, size_t errlen)
{
	struct datcheck *dc;
	int ret = datcheck_head(p, len, w, flags, err, errlen, &dc);

	if (ret)
		return ret;
	datcheck_pages(dc);
	return datcheck_end(dc);
}

int datcheck_buf(const uint8_t *p, size_t len, char *err, size_t errlen)
{
	return datcheck_buf_watch(p, len, NULL, 0, err, errlen);
}

int datcheck_map(const char *path, const uint8_t **p, size_t *len)
{
	struct stat st;
	void *map;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*len = st.st_size;
	if (!st.st_size) {
		close(fd);
		*p = (const uint8_t *)"";
		return 0;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	*p = map;
	return 0;
}

void datcheck_unmap(const uint8_t *p, size_t len)
{
	if (len)
		munmap((void *)p, len);
}

int datcheck_file_watch(const char *path, const struct datcheck_watch *w,
			unsigned int flags, char *err, size_t errlen)
{
	const uint8_t *p;
	size_t len;
	int ret = datcheck_map(path, &p, &len);

	if (ret)
		return ret;
	ret = datcheck_buf_watch(p, len, w, flags, err, errlen);
	datcheck_unmap(p, len);
	return ret;
}

int datcheck_file(const char *path, char *err, size_t errlen)
{
	return datcheck_file_watch(path, NULL, 0, err, errlen);
}

int datcheck_file_formats(const char *path, char *err, size_t errlen)
{
	return datcheck_file_watch(path, NULL, DATCHECK_NO_PAGES, err, errlen);
}

/* ---- the view libtracecmd is handed for a conversion ---- */

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

int datcheck_view_data(struct datcheck *dc, int fd,
		       const struct fxt_input_pages *pages)
{
	const struct dc_file *f = &dc->f;
	uint64_t first, last, ps;
	unsigned int i;

	for (i = 0; i < f->nr_jobs; i++) {
		const struct dc_job *j = &f->jobs[i];

		if (j->cont || !j->size)
			continue;
		ps = j->page_size;
		if (!pages || !pages->nr || j->compressed || j->size <= 2 * ps) {
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
