// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-writer.c - trace-cmd .dat v7 files: metadata, options and layout.
 *
 * The file is written front to back in one pass at close time:
 *
 *   initial header (its "first options section" offset patched last)
 *   HEADER_INFO, FTRACE_EVENTS, EVENT_FORMATS, KALLSYMS, PRINTK, CMDLINES
 *   one BUFFER flyrecord section per buffer: per CPU, padding to a page
 *     boundary then the CPU's pages (compressed: chunk count, then per
 *     chunk compressed size, uncompressed size, data)
 *   the options section: section offsets, caller's options, CPUCOUNT,
 *     one BUFFER option per buffer, DONE with offset 0
 *   the STRINGS section: the section descriptions
 *
 * Sections follow each other with no gap: at open, libtracecmd finds the
 * strings by hopping from section header to section header up to the end
 * of the file, so every section's size must cover it exactly (a flyrecord
 * section's size includes its alignment padding).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "dat-format.h"
#include "dat-intern.h"
#include "fd-io.h"
#include "dat-writer.h"

#define DAT_PAGES_PER_CHUNK	10
#define DAT_MAX_EVENT_ID	0xffff	/* common_type is a u16 */

struct dat_format {
	char		*system;
	char		*text;
	size_t		len;
	int		id;
};

struct dat_cmdline {
	int		pid;
	size_t		seq;		/* adding order: later wins */
	char		*comm;
};

struct dat_opt {
	uint16_t	id;
	void		*data;
	size_t		size;
};

struct dat_cpu {
	struct dat_page	page;		/* buf NULL until used */
	int64_t		*slots;		/* spooled pages */
	size_t		nr_slots;
	size_t		cap_slots;
	uint64_t	last_ts;
	/* where close() put the data */
	uint64_t	file_offset;
	uint64_t	file_size;
};

struct dat_buffer {
	char		*name;
	struct dat_cpu	*cpus;
	uint64_t	section_offset;
};

struct dat_writer {
	int			fd;
	int			err;		/* sticky I/O error */
	uint64_t		pos;		/* offset of next byte */

	unsigned int		page_size;
	unsigned int		long_size;
	unsigned int		cpus;
	bool			big;		/* big-endian file */
	char			*clock;
	bool			zstd;
	ZSTD_CCtx		*cctx;

	struct dat_spool	*spool;
	const char		*tmpdir;

	struct dat_format	*formats;
	size_t			nr_formats;
	uint8_t			ids[(DAT_MAX_EVENT_ID + 1) / 8];
	int			max_id;

	struct dat_cmdline	*cmdlines;
	size_t			nr_cmdlines;

	struct dat_opt		*opts;
	size_t			nr_opts;
	bool			have_clock_opt;

	struct dat_buf		header_page;
	struct dat_buf		header_event;
	struct dat_buf		kallsyms;
	struct dat_buf		printk;

	struct dat_buffer	*buffers;
	size_t			nr_buffers;

	struct dat_buf		strings;
	struct dat_buf		scratch;	/* record being built */
	uint64_t		section_offsets[DAT_OPTION_CMDLINES + 1];
};

static bool dat_id_taken(const struct dat_writer *w, int id)
{
	return w->ids[id / 8] & (1u << (id % 8));
}

static void dat_id_take(struct dat_writer *w, int id)
{
	w->ids[id / 8] |= 1u << (id % 8);
	if (id > w->max_id)
		w->max_id = id;
}

static int dat_buf_set(struct dat_buf *b, const char *text, size_t len)
{
	b->len = 0;
	dat_buf_put(b, text, len);
	return b->err;
}

static void dat_default_headers(struct dat_writer *w)
{
	unsigned int data = 8 + w->long_size;
	char *s;
	int n;

	/* what events/header_page shows on a kernel of this long size */
	n = asprintf(&s,
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n",
		w->long_size, data, w->page_size - data);
	if (n < 0) {
		w->header_page.err = -ENOMEM;
	} else {
		dat_buf_set(&w->header_page, s, n);
		free(s);
	}
	static const char event[] =
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n";
	dat_buf_set(&w->header_event, event, sizeof(event) - 1);
}

static int dat_buffer_init(struct dat_writer *w, struct dat_buffer *b,
			   const char *name)
{
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->cpus = calloc(w->cpus, sizeof(*b->cpus));
	if (!b->name || !b->cpus) {
		free(b->name);
		free(b->cpus);
		return -ENOMEM;
	}
	return 0;
}

static void dat_buffer_release(struct dat_buffer *b, unsigned int cpus)
{
	unsigned int i;

	for (i = 0; b->cpus && i < cpus; i++) {
		dat_page_release(&b->cpus[i].page);
		free(b->cpus[i].slots);
	}
	free(b->cpus);
	free(b->name);
}

static bool dat_power_of_two(unsigned int v)
{
	return v && !(v & (v - 1));
}

struct dat_writer *dat_writer_create(int fd,
				     const struct dat_writer_opts *opts)
{
	const char *comp = "none";
	struct dat_writer *w;
	int err = -EINVAL;

	if (fd < 0 || !opts || !opts->cpus || opts->cpus > 65536)
		goto fail;
	if (opts->compression)
		comp = opts->compression;
	if (opts->page_size && (!dat_power_of_two(opts->page_size) ||
				opts->page_size < 256 ||
				opts->page_size > (1u << 27)))
		goto fail;
	if (opts->long_size && opts->long_size != 4 && opts->long_size != 8)
		goto fail;
	if (strcmp(comp, "none") && strcmp(comp, "zstd"))
		goto fail;

	err = -ENOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto fail;
	w->fd = fd;
	w->page_size = opts->page_size ? opts->page_size : 4096;
	w->long_size = opts->long_size ? opts->long_size : 8;
	w->cpus = opts->cpus;
	w->big = opts->big_endian;
	w->scratch.big = w->strings.big = w->big;
	w->zstd = !strcmp(comp, "zstd");
	w->clock = strdup(opts->clock ? opts->clock : "local");
	w->tmpdir = opts->tmpdir;
	w->max_id = 0;
	if (!w->clock)
		goto fail_free;
	if (w->zstd) {
		w->cctx = ZSTD_createCCtx();
		if (!w->cctx)
			goto fail_free;
	}
	dat_default_headers(w);
	if (w->header_page.err || w->header_event.err)
		goto fail_free;
	w->buffers = calloc(1, sizeof(*w->buffers));
	if (!w->buffers || dat_buffer_init(w, &w->buffers[0], ""))
		goto fail_free;
	w->nr_buffers = 1;
	return w;

fail_free:
	dat_writer_discard(w);
fail:
	errno = -err;
	return NULL;
}

void dat_writer_discard(struct dat_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nr_formats; i++) {
		free(w->formats[i].system);
		free(w->formats[i].text);
	}
	free(w->formats);
	for (i = 0; i < w->nr_cmdlines; i++)
		free(w->cmdlines[i].comm);
	free(w->cmdlines);
	for (i = 0; i < w->nr_opts; i++)
		free(w->opts[i].data);
	free(w->opts);
	for (i = 0; i < w->nr_buffers; i++)
		dat_buffer_release(&w->buffers[i], w->cpus);
	free(w->buffers);
	dat_buf_free(&w->header_page);
	dat_buf_free(&w->header_event);
	dat_buf_free(&w->kallsyms);
	dat_buf_free(&w->printk);
	dat_buf_free(&w->strings);
	dat_buf_free(&w->scratch);
	dat_spool_free(w->spool);
	ZSTD_freeCCtx(w->cctx);
	free(w->clock);
	free(w);
}

/* ---- metadata the caller hands in ---- */

/* The value of the format's "ID:" line, -1 if it has none. */
static int dat_format_find_id(const char *text, size_t len, long *id)
{
	const char *p = text, *end = text + len, *nl;
	char num[16];
	size_t n;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl - p > 3 && !memcmp(p, "ID:", 3)) {
			n = nl - p - 3;
			if (n >= sizeof(num))
				return -EINVAL;
			memcpy(num, p + 3, n);
			num[n] = '\0';
			*id = strtol(num, NULL, 10);
			return 0;
		}
		p = nl + 1;
	}
	return -1;
}

/* Insert "ID: id" after the "name:" line. */
static char *dat_format_with_id(const char *text, size_t len, int id,
				size_t *out_len)
{
	const char *nl;
	char line[32];
	size_t head, n;
	char *s;

	if (len < 5 || memcmp(text, "name:", 5))
		return NULL;
	nl = memchr(text, '\n', len);
	if (!nl)
		return NULL;
	head = nl + 1 - text;
	n = snprintf(line, sizeof(line), "ID: %d\n", id);
	s = malloc(len + n + 1);
	if (!s)
		return NULL;
	memcpy(s, text, head);
	memcpy(s + head, line, n);
	memcpy(s + head + n, text + head, len - head);
	s[len + n] = '\0';
	*out_len = len + n;
	return s;
}

int dat_writer_add_event_format(struct dat_writer *w, const char *system,
				const char *format, size_t len)
{
	struct dat_format *f;
	size_t text_len = len;
	char *text;
	long id;
	int r;

	if (w->err)
		return w->err;
	if (!system || !*system || !format || !len)
		return -EINVAL;
	r = dat_format_find_id(format, len, &id);
	if (r == -EINVAL)
		return r;
	if (r == 0) {
		if (id < 0 || id > DAT_MAX_EVENT_ID)
			return -EINVAL;
		if (dat_id_taken(w, id))
			return -EEXIST;
		/* every byte: the section stores len, NULs or not */
		text = malloc(len + 1);
		if (text) {
			memcpy(text, format, len);
			text[len] = '\0';
		}
	} else {
		id = w->max_id + 1;
		if (id > DAT_MAX_EVENT_ID)
			return -ENOSPC;
		text = dat_format_with_id(format, len, id, &text_len);
		if (!text)
			return -EINVAL;
	}
	if (!text)
		return -ENOMEM;

	f = realloc(w->formats, (w->nr_formats + 1) * sizeof(*f));
	if (!f) {
		free(text);
		return -ENOMEM;
	}
	w->formats = f;
	f = &w->formats[w->nr_formats];
	f->system = strdup(system);
	if (!f->system) {
		free(text);
		return -ENOMEM;
	}
	f->text = text;
	f->len = text_len;
	f->id = id;
	w->nr_formats++;
	dat_id_take(w, id);
	return id;
}

int dat_writer_set_header_page(struct dat_writer *w, const char *text,
			       size_t len)
{
	return dat_buf_set(&w->header_page, text, len);
}

int dat_writer_set_header_event(struct dat_writer *w, const char *text,
				size_t len)
{
	return dat_buf_set(&w->header_event, text, len);
}

int dat_writer_set_kallsyms(struct dat_writer *w, const char *text,
			    size_t len)
{
	return dat_buf_set(&w->kallsyms, text, len);
}

int dat_writer_set_printk(struct dat_writer *w, const char *text, size_t len)
{
	return dat_buf_set(&w->printk, text, len);
}

int dat_writer_add_cmdline(struct dat_writer *w, int pid, const char *comm)
{
	struct dat_cmdline *c;

	if (!comm || strchr(comm, '\n'))
		return -EINVAL;
	c = realloc(w->cmdlines, (w->nr_cmdlines + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	w->cmdlines = c;
	c = &w->cmdlines[w->nr_cmdlines];
	c->comm = strdup(comm);
	if (!c->comm)
		return -ENOMEM;
	c->pid = pid;
	c->seq = w->nr_cmdlines++;
	return 0;
}

int dat_writer_add_option(struct dat_writer *w, enum dat_option id,
			  const void *data, size_t size)
{
	struct dat_opt *o;

	switch (id) {
	case DAT_OPTION_DATE: case DAT_OPTION_CPUSTAT:
	case DAT_OPTION_TRACECLOCK: case DAT_OPTION_UNAME:
	case DAT_OPTION_HOOK: case DAT_OPTION_OFFSET:
	case DAT_OPTION_VERSION: case DAT_OPTION_PROCMAPS:
	case DAT_OPTION_TRACEID: case DAT_OPTION_TSC2NSEC:
	case DAT_OPTION_SAVED_TGIDS:
		break;
	default:
		return -EINVAL;
	}
	if (size > UINT32_MAX || (size && !data))
		return -EINVAL;
	o = realloc(w->opts, (w->nr_opts + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	w->opts = o;
	o = &w->opts[w->nr_opts];
	o->data = malloc(size ? size : 1);
	if (!o->data)
		return -ENOMEM;
	if (size)
		memcpy(o->data, data, size);
	o->id = id;
	o->size = size;
	w->nr_opts++;
	if (id == DAT_OPTION_TRACECLOCK)
		w->have_clock_opt = true;
	return 0;
}

int dat_writer_add_option_string(struct dat_writer *w, enum dat_option id,
				 const char *value)
{
	if (!value)
		return -EINVAL;
	return dat_writer_add_option(w, id, value, strlen(value) + 1);
}

int dat_writer_add_buffer(struct dat_writer *w, const char *name)
{
	struct dat_buffer *b;
	size_t i;
	int r;

	if (w->err)
		return w->err;
	if (!name || !*name)
		return -EINVAL;
	for (i = 0; i < w->nr_buffers; i++)
		if (!strcmp(w->buffers[i].name, name))
			return -EEXIST;
	b = realloc(w->buffers, (w->nr_buffers + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	w->buffers = b;
	r = dat_buffer_init(w, &w->buffers[w->nr_buffers], name);
	if (r)
		return r;
	return w->nr_buffers++;
}

/* ---- events ---- */

static int dat_cpu_flush(struct dat_writer *w, struct dat_cpu *c)
{
	int64_t slot, *s;

	if (!c->page.buf || c->page.empty)
		return 0;
	if (c->nr_slots == c->cap_slots) {
		size_t cap = c->cap_slots ? c->cap_slots * 2 : 16;

		s = realloc(c->slots, cap * sizeof(*s));
		if (!s)		/* sticky: a lost page must fail close() */
			return w->err = -ENOMEM;
		c->slots = s;
		c->cap_slots = cap;
	}
	if (!w->spool) {
		w->spool = dat_spool_create(w->tmpdir, w->page_size);
		if (!w->spool)
			return w->err = errno ? -errno : -EIO;
	}
	dat_page_finish(&c->page);
	slot = dat_spool_put(w->spool, c->page.buf);
	if (slot < 0)
		return w->err = slot;
	c->slots[c->nr_slots++] = slot;
	dat_page_reset(&c->page);
	return 0;
}

int dat_writer_write_raw(struct dat_writer *w, int buffer, unsigned int cpu,
			 uint64_t ts, const void *data, size_t len)
{
	struct dat_cpu *c;
	int r;

	if (w->err)
		return w->err;
	if (buffer < 0 || (size_t)buffer >= w->nr_buffers || cpu >= w->cpus ||
	    (len && !data))
		return -EINVAL;
	c = &w->buffers[buffer].cpus[cpu];
	if (!c->page.buf) {
		r = dat_page_init(&c->page, w->page_size, w->long_size,
				  w->big);
		if (r)
			return r;
	} else if (ts < c->last_ts) {
		return -EINVAL;
	}
	r = dat_page_add(&c->page, ts, data, len);
	if (r == -ENOSPC) {
		r = dat_cpu_flush(w, c);
		if (r)
			return r;
		r = dat_page_add(&c->page, ts, data, len);
	}
	if (r)
		return r;
	c->last_ts = ts;
	return 0;
}

int dat_writer_lost_events(struct dat_writer *w, int buffer, unsigned int cpu,
			   int64_t count)
{
	struct dat_cpu *c;
	int r;

	if (w->err)
		return w->err;
	if (buffer < 0 || (size_t)buffer >= w->nr_buffers || cpu >= w->cpus ||
	    !count)
		return -EINVAL;
	c = &w->buffers[buffer].cpus[cpu];
	if (!c->page.buf) {
		r = dat_page_init(&c->page, w->page_size, w->long_size,
				  w->big);
		if (r)
			return r;
	}
	/* only a page's first event can say what was lost before it */
	r = dat_cpu_flush(w, c);
	if (r)
		return r;
	dat_page_mark_lost(&c->page, count);
	return 0;
}

int dat_writer_write_event(struct dat_writer *w, int buffer, unsigned int cpu,
			   uint64_t ts, const struct dat_event *ev)
{
	struct dat_buf *b = &w->scratch;

	if (w->err)
		return w->err;
	if (!ev || ev->id < 0 || ev->id > DAT_MAX_EVENT_ID ||
	    (ev->payload_len && !ev->payload))
		return -EINVAL;
	if (!dat_id_taken(w, ev->id))
		return -ENOENT;
	b->len = 0;
	dat_buf_put_u16(b, ev->id);
	dat_buf_put(b, &ev->flags, 1);
	dat_buf_put(b, &ev->preempt_count, 1);
	dat_buf_put_u32(b, (uint32_t)ev->pid);
	dat_buf_put(b, ev->payload, ev->payload_len);
	if (b->err) {
		int err = b->err;

		b->err = 0;
		return err;
	}
	return dat_writer_write_raw(w, buffer, cpu, ts, b->data, b->len);
}

/* ---- laying the file out ---- */

static void dat_write(struct dat_writer *w, const void *p, size_t n)
{
	if (w->err)
		return;
	w->err = fd_write_all(w->fd, p, n);
	if (!w->err)
		w->pos += n;
}

static void dat_write_zero(struct dat_writer *w, size_t n)
{
	static const uint8_t zero[512];
	size_t k;

	while (n) {
		k = n < sizeof(zero) ? n : sizeof(zero);
		dat_write(w, zero, k);
		n -= k;
	}
}

static void dat_patch_u64(struct dat_writer *w, uint64_t off, uint64_t v)
{
	uint8_t b[8];
	ssize_t r;

	if (w->err)
		return;
	dat_put64(b, v, w->big);
	do {
		r = pwrite(w->fd, b, 8, off);
	} while (r < 0 && errno == EINTR);
	if (r != 8)
		w->err = r < 0 ? -errno : -EIO;
}

/* Offset of desc in the strings section, adding it if new. */
static uint32_t dat_string_id(struct dat_writer *w, const char *desc)
{
	size_t off = 0, n;

	while (off < w->strings.len) {
		n = strlen((char *)w->strings.data + off);
		if (!strcmp((char *)w->strings.data + off, desc))
			return off;
		off += n + 1;
	}
	dat_buf_put_str(&w->strings, desc);
	return off;
}

/* Append compressed size, uncompressed size and src compressed to out. */
static int dat_compress_block(struct dat_writer *w, const void *src,
			      size_t n, struct dat_buf *out)
{
	size_t bound = ZSTD_compressBound(n), csize, at;

	if (n > UINT32_MAX || bound > UINT32_MAX)
		return -E2BIG;
	at = out->len;
	dat_buf_put_zero(out, 8 + bound);
	if (out->err)
		return out->err;
	csize = ZSTD_compressCCtx(w->cctx, out->data + at + 8, bound, src, n,
				  ZSTD_CLEVEL_DEFAULT);
	if (ZSTD_isError(csize))
		return -EIO;
	dat_put32(out->data + at, csize, w->big);
	dat_put32(out->data + at + 4, n, w->big);
	out->len = at + 8 + csize;
	return 0;
}

static void dat_write_section_header(struct dat_writer *w, uint16_t id,
				     uint16_t flags, const char *desc,
				     uint64_t size)
{
	uint8_t h[16];

	dat_put16(h, id, w->big);
	dat_put16(h + 2, flags, w->big);
	dat_put32(h + 4, dat_string_id(w, desc), w->big);
	dat_put64(h + 8, size, w->big);
	if (w->strings.err)
		w->err = w->strings.err;
	dat_write(w, h, sizeof(h));
}

/* A whole section from its uncompressed body. */
static void dat_write_section(struct dat_writer *w, uint16_t id,
			      const char *desc, struct dat_buf *body,
			      bool compress)
{
	struct dat_buf z = { .big = w->big };
	int r;

	if (w->err)
		return;
	if (body->err) {
		w->err = body->err;
		return;
	}
	if (id < sizeof(w->section_offsets) / sizeof(w->section_offsets[0]))
		w->section_offsets[id] = w->pos;
	if (!compress || !w->zstd) {
		dat_write_section_header(w, id, 0, desc, body->len);
		dat_write(w, body->data, body->len);
		return;
	}
	r = dat_compress_block(w, body->data, body->len, &z);
	if (r) {
		w->err = r;
	} else {
		dat_write_section_header(w, id, DAT_SECTION_COMPRESSED, desc,
					 z.len);
		dat_write(w, z.data, z.len);
	}
	dat_buf_free(&z);
}

static void dat_write_initial_header(struct dat_writer *w,
				     uint64_t *options_at)
{
	struct dat_buf b = { .big = w->big };
	uint8_t c;

	dat_buf_put(&b, DAT_MAGIC, DAT_MAGIC_LEN);
	dat_buf_put_str(&b, "7");
	c = w->big;		/* the file's byte order: 1 big endian */
	dat_buf_put(&b, &c, 1);
	c = w->long_size;
	dat_buf_put(&b, &c, 1);
	dat_buf_put_u32(&b, w->page_size);
	dat_buf_put_str(&b, w->zstd ? "zstd" : "none");
	dat_buf_put_str(&b, w->zstd ? ZSTD_versionString() : "");
	*options_at = w->pos + b.len;
	dat_buf_put_u64(&b, 0);	/* patched once the options are placed */
	if (b.err)
		w->err = b.err;
	else
		dat_write(w, b.data, b.len);
	dat_buf_free(&b);
}

static void dat_write_header_info(struct dat_writer *w)
{
	struct dat_buf b = { .big = w->big };

	dat_buf_put_str(&b, "header_page");
	dat_buf_put_u64(&b, w->header_page.len);
	dat_buf_put(&b, w->header_page.data, w->header_page.len);
	dat_buf_put_str(&b, "header_event");
	dat_buf_put_u64(&b, w->header_event.len);
	dat_buf_put(&b, w->header_event.data, w->header_event.len);
	dat_write_section(w, DAT_OPTION_HEADER_INFO, "headers", &b, true);
	dat_buf_free(&b);
}

static bool dat_is_ftrace(const struct dat_format *f)
{
	return !strcmp(f->system, "ftrace");
}

static void dat_write_ftrace_events(struct dat_writer *w)
{
	struct dat_buf b = { .big = w->big };
	uint32_t n = 0;
	size_t i;

	dat_buf_put_u32(&b, 0);
	for (i = 0; i < w->nr_formats; i++) {
		if (!dat_is_ftrace(&w->formats[i]))
			continue;
		dat_buf_put_u64(&b, w->formats[i].len);
		dat_buf_put(&b, w->formats[i].text, w->formats[i].len);
		n++;
	}
	if (!b.err)
		dat_put32(b.data, n, w->big);
	dat_write_section(w, DAT_OPTION_FTRACE_EVENTS, "ftrace events", &b, true);
	dat_buf_free(&b);
}

/* Systems in the order their first format was added. */
static void dat_write_event_formats(struct dat_writer *w)
{
	struct dat_buf b = { .big = w->big };
	size_t i, j, count_at;
	uint32_t systems = 0, n;
	bool seen;

	dat_buf_put_u32(&b, 0);
	for (i = 0; i < w->nr_formats; i++) {
		const char *sys = w->formats[i].system;

		if (dat_is_ftrace(&w->formats[i]))
			continue;
		seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(w->formats[j].system, sys);
		if (seen)
			continue;
		dat_buf_put_str(&b, sys);
		count_at = b.len;
		dat_buf_put_u32(&b, 0);
		for (j = i, n = 0; j < w->nr_formats; j++) {
			if (strcmp(w->formats[j].system, sys))
				continue;
			dat_buf_put_u64(&b, w->formats[j].len);
			dat_buf_put(&b, w->formats[j].text, w->formats[j].len);
			n++;
		}
		if (!b.err)
			dat_put32(b.data + count_at, n, w->big);
		systems++;
	}
	if (!b.err)
		dat_put32(b.data, systems, w->big);
	dat_write_section(w, DAT_OPTION_EVENT_FORMATS, "events format", &b, true);
	dat_buf_free(&b);
}

static void dat_write_text_section(struct dat_writer *w, uint16_t id,
				   const char *desc, const struct dat_buf *text,
				   bool size64)
{
	struct dat_buf b = { .big = w->big };

	if (size64)
		dat_buf_put_u64(&b, text->len);
	else if (text->len > UINT32_MAX)
		b.err = -E2BIG;
	else
		dat_buf_put_u32(&b, text->len);
	dat_buf_put(&b, text->data, text->len);
	dat_write_section(w, id, desc, &b, true);
	dat_buf_free(&b);
}

static int dat_cmdline_cmp(const void *a, const void *b)
{
	const struct dat_cmdline *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void dat_write_cmdlines(struct dat_writer *w)
{
	struct dat_buf text = { .big = w->big };
	char line[64];
	size_t i;
	int n;

	if (w->nr_cmdlines)
		qsort(w->cmdlines, w->nr_cmdlines, sizeof(*w->cmdlines),
		      dat_cmdline_cmp);
	for (i = 0; i < w->nr_cmdlines; i++) {
		/* a pid's later comm replaces its earlier ones */
		if (i + 1 < w->nr_cmdlines &&
		    w->cmdlines[i + 1].pid == w->cmdlines[i].pid)
			continue;
		n = snprintf(line, sizeof(line), "%d ", w->cmdlines[i].pid);
		dat_buf_put(&text, line, n);
		dat_buf_put(&text, w->cmdlines[i].comm,
			    strlen(w->cmdlines[i].comm));
		dat_buf_put(&text, "\n", 1);
	}
	dat_write_text_section(w, DAT_OPTION_CMDLINES, "command lines", &text,
			       true);
	dat_buf_free(&text);
}

static void dat_write_cpu_plain(struct dat_writer *w, struct dat_cpu *c,
				uint8_t *page)
{
	size_t i;
	int r;

	for (i = 0; i < c->nr_slots && !w->err; i++) {
		r = dat_spool_get(w->spool, c->slots[i], page);
		if (r)
			w->err = r;
		dat_write(w, page, w->page_size);
	}
}

static void dat_write_cpu_zstd(struct dat_writer *w, struct dat_cpu *c,
			       uint8_t *chunk)
{
	struct dat_buf z = { .big = w->big };
	size_t i, k, chunks;
	int r = 0;

	chunks = (c->nr_slots + DAT_PAGES_PER_CHUNK - 1) / DAT_PAGES_PER_CHUNK;
	dat_buf_put_u32(&z, chunks);
	dat_write(w, z.data, z.len);
	for (i = 0; i < c->nr_slots && !w->err; i += k) {
		for (k = 0; k < DAT_PAGES_PER_CHUNK && i + k < c->nr_slots &&
			    !r; k++)
			r = dat_spool_get(w->spool, c->slots[i + k],
					  chunk + k * w->page_size);
		z.len = 0;
		if (!r)
			r = dat_compress_block(w, chunk, k * w->page_size, &z);
		if (r) {
			w->err = r;
			break;
		}
		dat_write(w, z.data, z.len);
	}
	if (z.err && !w->err)
		w->err = z.err;
	dat_buf_free(&z);
}

static void dat_write_flyrecord(struct dat_writer *w, struct dat_buffer *b)
{
	uint64_t size_at, start, pad;
	uint8_t *scratch;
	unsigned int i;
	char *desc;

	if (asprintf(&desc, "buffer flyrecord %s", b->name) < 0) {
		w->err = -ENOMEM;
		return;
	}
	scratch = malloc((size_t)w->page_size * DAT_PAGES_PER_CHUNK);
	if (!scratch)
		w->err = -ENOMEM;
	b->section_offset = w->pos;
	dat_write_section_header(w, DAT_OPTION_BUFFER,
				 w->zstd ? DAT_SECTION_COMPRESSED : 0, desc, 0);
	size_at = b->section_offset + 8;
	start = w->pos;
	for (i = 0; i < w->cpus && !w->err; i++) {
		struct dat_cpu *c = &b->cpus[i];

		pad = (w->page_size - w->pos % w->page_size) % w->page_size;
		dat_write_zero(w, pad);
		c->file_offset = w->pos;
		if (!c->nr_slots)
			continue;
		if (w->zstd)
			dat_write_cpu_zstd(w, c, scratch);
		else
			dat_write_cpu_plain(w, c, scratch);
		c->file_size = w->pos - c->file_offset;
	}
	dat_patch_u64(w, size_at, w->pos - start);
	free(scratch);
	free(desc);
}

static void dat_put_option(struct dat_buf *b, uint16_t id, const void *data,
			   size_t size)
{
	dat_buf_put_u16(b, id);
	dat_buf_put_u32(b, size);
	dat_buf_put(b, data, size);
}

static void dat_put_offset_option(struct dat_writer *w, struct dat_buf *b,
				  uint16_t id)
{
	uint8_t v[8];

	dat_put64(v, w->section_offsets[id], w->big);
	dat_put_option(b, id, v, 8);
}

static void dat_put_buffer_option(struct dat_writer *w, struct dat_buf *b,
				  const struct dat_buffer *buf)
{
	struct dat_buf o = { .big = w->big };
	unsigned int i;

	dat_buf_put_u64(&o, buf->section_offset);
	dat_buf_put_str(&o, buf->name);
	dat_buf_put_str(&o, w->clock);
	dat_buf_put_u32(&o, w->page_size);
	dat_buf_put_u32(&o, w->cpus);
	for (i = 0; i < w->cpus; i++) {
		dat_buf_put_u32(&o, i);
		dat_buf_put_u64(&o, buf->cpus[i].file_offset);
		dat_buf_put_u64(&o, buf->cpus[i].file_size);
	}
	if (o.err)
		b->err = o.err;
	else
		dat_put_option(b, DAT_OPTION_BUFFER, o.data, o.len);
	dat_buf_free(&o);
}

static void dat_write_options(struct dat_writer *w)
{
	struct dat_buf b = { .big = w->big };
	uint8_t v[8];
	char *clock;
	size_t i;
	int n;

	for (i = DAT_OPTION_HEADER_INFO; i <= DAT_OPTION_CMDLINES; i++)
		dat_put_offset_option(w, &b, i);
	for (i = 0; i < w->nr_opts; i++)
		dat_put_option(&b, w->opts[i].id, w->opts[i].data,
			       w->opts[i].size);
	if (!w->have_clock_opt) {
		/* the trace_clock file names the clock in use in brackets */
		n = asprintf(&clock, "[%s]\n", w->clock);
		if (n < 0) {
			b.err = -ENOMEM;
		} else {
			dat_put_option(&b, DAT_OPTION_TRACECLOCK, clock, n + 1);
			free(clock);
		}
	}
	dat_put32(v, w->cpus, w->big);
	dat_put_option(&b, DAT_OPTION_CPUCOUNT, v, 4);
	for (i = 0; i < w->nr_buffers; i++)
		dat_put_buffer_option(w, &b, &w->buffers[i]);
	dat_put64(v, 0, w->big);	/* no further options section */
	dat_put_option(&b, DAT_OPTION_DONE, v, 8);
	dat_write_section(w, DAT_OPTION_DONE, "options", &b, false);
	dat_buf_free(&b);
}

static void dat_write_strings(struct dat_writer *w)
{
	struct dat_buf copy = { .big = w->big };

	/* the section names itself: add that before copying the table */
	dat_string_id(w, "strings");
	dat_buf_put(&copy, w->strings.data, w->strings.len);
	dat_write_section(w, DAT_OPTION_STRINGS, "strings", &copy, true);
	dat_buf_free(&copy);
}

int dat_writer_close(struct dat_writer *w)
{
	uint64_t options_at, options;
	size_t i;
	unsigned int cpu;
	int err;

	for (i = 0; i < w->nr_buffers && !w->err; i++)
		for (cpu = 0; cpu < w->cpus && !w->err; cpu++)
			dat_cpu_flush(w, &w->buffers[i].cpus[cpu]);

	if (!w->err) {
		off_t at = lseek(w->fd, 0, SEEK_CUR);

		if (at < 0)
			w->err = -errno;
		else
			w->pos = at;
	}
	dat_write_initial_header(w, &options_at);
	dat_write_header_info(w);
	dat_write_ftrace_events(w);
	dat_write_event_formats(w);
	dat_write_text_section(w, DAT_OPTION_KALLSYMS, "kallsyms", &w->kallsyms,
			       false);
	dat_write_text_section(w, DAT_OPTION_PRINTK, "printk", &w->printk, false);
	dat_write_cmdlines(w);
	for (i = 0; i < w->nr_buffers && !w->err; i++)
		dat_write_flyrecord(w, &w->buffers[i]);
	options = w->pos;
	dat_write_options(w);
	dat_write_strings(w);
	dat_patch_u64(w, options_at, options);

	err = w->err;
	dat_writer_discard(w);
	return err;
}
