// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-meta.c - read the metadata texts of a .dat file ourselves.
 *
 * libtracecmd hands the format texts to libtraceevent and frees them; the
 * parsed tep_event cannot be turned back into the exact text (the print
 * format's argument tree is not printable through the public API).  So
 * the file is read a second time, metadata only: version 6 has the texts
 * in a fixed order after the initial header; version 7 has sections
 * (zstd-compressed or not) found through the options sections' offsets.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "dat-format.h"
#include "dat-meta.h"
#include "file-map.h"


/* A bounds-checked reader over bytes in the file's byte order. */
struct meta_cur {
	const uint8_t	*p;
	size_t		len;
	size_t		pos;
	bool		big;
	bool		bad;
};

static const uint8_t *cur_take(struct meta_cur *c, size_t n)
{
	const uint8_t *p;

	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

static uint64_t cur_num(struct meta_cur *c, unsigned int n)
{
	const uint8_t *p = cur_take(c, n);
	uint64_t v = 0;
	unsigned int i;

	if (!p)
		return 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[c->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static const char *cur_cstr(struct meta_cur *c)
{
	const char *s = (const char *)c->p + c->pos;
	size_t n;

	if (c->bad)
		return NULL;
	n = strnlen(s, c->len - c->pos);
	if (n == c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	c->pos += n + 1;
	return s;
}

static int meta_dup(struct dat_meta_text *t, const uint8_t *p, size_t len)
{
	t->text = malloc(len + 1);
	if (!t->text)
		return -ENOMEM;
	memcpy(t->text, p, len);
	t->text[len] = '\0';
	t->len = len;
	return 0;
}

static int meta_add_format(struct dat_meta *m, const char *system,
			   const uint8_t *p, size_t len)
{
	const char *id_line;
	char *text;
	long id;

	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, p, len);
	text[len] = '\0';
	id_line = strstr(text, "\nID: ");
	id = id_line ? strtol(id_line + 5, NULL, 10) : -1;
	if (id < 0 || id > 65535) {
		free(text);
		return 0;
	}
	if (id >= m->nr_formats) {
		struct dat_meta_format *f;
		int n = id + 256;

		f = realloc(m->formats, n * sizeof(*f));
		if (!f) {
			free(text);
			return -ENOMEM;
		}
		memset(f + m->nr_formats, 0, (n - m->nr_formats) * sizeof(*f));
		m->formats = f;
		m->nr_formats = n;
	}
	free(m->formats[id].text);
	free(m->formats[id].system);
	m->formats[id].text = text;
	m->formats[id].len = len;
	m->formats[id].system = strdup(system);
	return m->formats[id].system ? 0 : -ENOMEM;
}

/* A PROCMAPS option: a NUL-terminated text (the NUL not kept). */
static int meta_add_procmaps(struct dat_meta *m, const uint8_t *p,
			     size_t len)
{
	struct dat_meta_text *t;

	len = strnlen((const char *)p, len);
	t = realloc(m->procmaps, (m->nr_procmaps + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	m->procmaps = t;
	if (meta_dup(&t[m->nr_procmaps], p, len))
		return -ENOMEM;
	m->nr_procmaps++;
	return 0;
}

/* A text option the file has one of (the last one kept), its NUL not kept. */
static int meta_set_text(struct dat_meta_text *t, const uint8_t *p,
			 size_t len)
{
	free(t->text);
	t->text = NULL;
	return meta_dup(t, p, strnlen((const char *)p, len));
}

/* "header_page\0" size(8) text "header_event\0" size(8) text */
static int meta_parse_headers(struct meta_cur *c, struct dat_meta *m)
{
	int i, ret;

	for (i = 0; i < 2; i++) {
		const char *name = cur_cstr(c);
		uint64_t size = cur_num(c, 8);
		const uint8_t *p = cur_take(c, size);

		if (!p || !name)
			return -EBADMSG;
		ret = meta_dup(!strcmp(name, "header_page") ? &m->header_page :
			       &m->header_event, p, size);
		if (ret)
			return ret;
	}
	return 0;
}

static int meta_parse_ftrace(struct meta_cur *c, struct dat_meta *m)
{
	uint32_t n = cur_num(c, 4), i;
	int ret;

	for (i = 0; i < n && !c->bad; i++) {
		uint64_t size = cur_num(c, 8);
		const uint8_t *p = cur_take(c, size);

		if (!p)
			break;
		ret = meta_add_format(m, "ftrace", p, size);
		if (ret)
			return ret;
	}
	return c->bad ? -EBADMSG : 0;
}

static int meta_parse_events(struct meta_cur *c, struct dat_meta *m)
{
	uint32_t nsys = cur_num(c, 4), s, n, i;
	int ret;

	for (s = 0; s < nsys && !c->bad; s++) {
		const char *system = cur_cstr(c);

		n = cur_num(c, 4);
		for (i = 0; i < n && !c->bad; i++) {
			uint64_t size = cur_num(c, 8);
			const uint8_t *p = cur_take(c, size);

			if (!p || !system)
				break;
			ret = meta_add_format(m, system, p, size);
			if (ret)
				return ret;
		}
	}
	return c->bad ? -EBADMSG : 0;
}

static int meta_parse_printk(struct meta_cur *c, struct dat_meta *m)
{
	uint32_t size = cur_num(c, 4);
	const uint8_t *p = cur_take(c, size);

	return p ? meta_dup(&m->printk, p, size) : -EBADMSG;
}

static int meta_read_v6(struct meta_cur *c, struct dat_meta *m)
{
	const uint8_t *p;
	uint32_t size;
	int ret;

	ret = meta_parse_headers(c, m);
	if (!ret)
		ret = meta_parse_ftrace(c, m);
	if (!ret)
		ret = meta_parse_events(c, m);
	if (ret)
		return ret;
	size = cur_num(c, 4);		/* kallsyms: not carried whole */
	cur_take(c, size);
	ret = meta_parse_printk(c, m);
	if (ret)
		return ret;
	cur_take(c, cur_num(c, 8));	/* cmdlines */
	cur_num(c, 4);			/* CPU count */
	p = cur_take(c, 10);
	if (!p || memcmp(p, "options  ", 10))
		return 0;		/* no options: none to read */
	/* id(2) size(4) data, up to id 0 */
	while (!ret && !c->bad) {
		unsigned int oid = cur_num(c, 2);
		uint32_t osize;

		if (oid == DAT_OPTION_DONE)
			break;
		osize = cur_num(c, 4);
		p = cur_take(c, osize);
		if (p && oid == DAT_OPTION_PROCMAPS)
			ret = meta_add_procmaps(m, p, osize);
		else if (p && oid == DAT_OPTION_SAVED_TGIDS)
			ret = meta_set_text(&m->tgids, p, osize);
	}
	return ret;
}

/*
 * A v7 section's payload: header (id, flags, string id, size) and, when
 * compressed, compressed and uncompressed sizes before the data.  Sets
 * @out to malloc'ed bytes when it had to decompress.
 */
static int meta_section(const struct meta_cur *file, uint64_t off,
			struct meta_cur *out, uint8_t **owned)
{
	struct meta_cur c = *file;
	unsigned int flags;
	uint64_t size;
	uint32_t csize, usize;
	const uint8_t *p;
	size_t got;

	*owned = NULL;
	if (off > c.len)
		return -EBADMSG;
	c.pos = off;
	cur_num(&c, 2);
	flags = cur_num(&c, 2);
	cur_num(&c, 4);
	size = cur_num(&c, 8);
	if (!(flags & DAT_SECTION_COMPRESSED)) {
		p = cur_take(&c, size);
		if (!p)
			return -EBADMSG;
		*out = (struct meta_cur){ .p = p, .len = size, .big = c.big };
		return 0;
	}
	csize = cur_num(&c, 4);
	usize = cur_num(&c, 4);
	p = cur_take(&c, csize);
	if (!p)
		return -EBADMSG;
	*owned = malloc(usize ? usize : 1);
	if (!*owned)
		return -ENOMEM;
	got = ZSTD_decompress(*owned, usize, p, csize);
	if (ZSTD_isError(got)) {
		free(*owned);
		*owned = NULL;
		return -EBADMSG;
	}
	*out = (struct meta_cur){ .p = *owned, .len = got, .big = c.big };
	return 0;
}

static int meta_read_v7(struct meta_cur *c, struct dat_meta *m, bool all)
{
	uint64_t opt_off, sec[DAT_OPTION_PRINTK + 1] = { 0 };
	struct meta_cur s;
	uint8_t *owned;
	int guard, ret = 0, id;

	cur_cstr(c);			/* compression name */
	cur_cstr(c);			/* and version */
	opt_off = cur_num(c, 8);
	for (guard = 0; opt_off && guard < 64 && !c->bad; guard++) {
		ret = meta_section(c, opt_off, &s, &owned);
		/*
		 * an options section after the first one the file does not
		 * hold (cut short in its CPU data, which trace-cmd writes
		 * before its BUFFER options): the metadata is before it
		 */
		if (ret && guard) {
			ret = 0;
			break;
		}
		if (ret)
			return ret;
		opt_off = 0;
		while (!s.bad && s.pos < s.len) {
			unsigned int oid = cur_num(&s, 2);
			uint32_t osize = cur_num(&s, 4);
			const uint8_t *p = cur_take(&s, osize);

			if (!p)
				break;
			if (oid == DAT_OPTION_DONE) {
				struct meta_cur d = { .p = p, .len = osize,
						   .big = s.big };

				opt_off = osize >= 8 ? cur_num(&d, 8) : 0;
				break;
			}
			if (oid == DAT_OPTION_PROCMAPS) {
				ret = meta_add_procmaps(m, p, osize);
				if (ret)
					break;
			}
			if (oid == DAT_OPTION_SAVED_TGIDS) {
				ret = meta_set_text(&m->tgids, p, osize);
				if (ret)
					break;
			}
			if (oid >= DAT_OPTION_HEADER_INFO &&
			    oid <= DAT_OPTION_PRINTK && osize >= 8) {
				struct meta_cur d = { .p = p, .len = osize,
						   .big = s.big };

				sec[oid] = cur_num(&d, 8);
			}
		}
		free(owned);
		if (ret)
			return ret;
	}
	if (!all)
		return 0;
	for (id = DAT_OPTION_HEADER_INFO; id <= DAT_OPTION_PRINTK && !ret; id++) {
		if (!sec[id])
			continue;
		ret = meta_section(c, sec[id], &s, &owned);
		if (ret)
			return ret;
		switch (id) {
		case DAT_OPTION_HEADER_INFO:
			ret = meta_parse_headers(&s, m);
			break;
		case DAT_OPTION_FTRACE_EVENTS:
			ret = meta_parse_ftrace(&s, m);
			break;
		case DAT_OPTION_EVENT_FORMATS:
			ret = meta_parse_events(&s, m);
			break;
		case DAT_OPTION_PRINTK:
			ret = meta_parse_printk(&s, m);
			break;
		}
		free(owned);
	}
	return ret;
}

static int meta_load(const char *path, struct dat_meta *m, bool all)
{
	struct meta_cur c = { 0 };
	const char *version;
	const void *map;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = file_map(path, 0, &map, &len);
	/* no regular file, or too short for the initial header: no .dat */
	if (ret == -ENODEV || (!ret && len < 18)) {
		if (!ret)
			file_unmap(map, len);
		return -EBADMSG;
	}
	if (ret)
		return ret;
	c.p = map;
	c.len = len;
	cur_take(&c, DAT_MAGIC_LEN);	/* magic */
	version = cur_cstr(&c);
	c.big = cur_num(&c, 1) != 0;
	cur_num(&c, 1);			/* long size */
	cur_num(&c, 4);			/* page size */
	if (!version || c.bad)
		ret = -EBADMSG;
	else if (atoi(version) >= 7)
		ret = meta_read_v7(&c, m, all);
	else
		ret = meta_read_v6(&c, m);
	file_unmap(map, len);
	if (ret)
		dat_meta_free(m);
	return ret;
}

int dat_meta_read(const char *path, struct dat_meta *m)
{
	return meta_load(path, m, true);
}

int dat_meta_read_options(const char *path, struct dat_meta *m)
{
	return meta_load(path, m, false);
}

void dat_meta_free(struct dat_meta *m)
{
	int i;

	free(m->header_page.text);
	free(m->header_event.text);
	free(m->printk.text);
	free(m->tgids.text);
	for (i = 0; i < m->nr_formats; i++) {
		free(m->formats[i].system);
		free(m->formats[i].text);
	}
	free(m->formats);
	for (i = 0; i < m->nr_procmaps; i++)
		free(m->procmaps[i].text);
	free(m->procmaps);
	memset(m, 0, sizeof(*m));
}
