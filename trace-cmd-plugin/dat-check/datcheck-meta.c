// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-meta.c - the metadata texts, as both versions lay them out:
 * header_page and header_event, the ftrace and event formats, kallsyms,
 * printk, cmdlines.  Version 6 has them one after the other
 * (datcheck-head.c), version 7 one to a section (datcheck-sections.c).
 * Each format text is kept for the probe (datcheck-probe.c) and matched
 * against what the caller watches for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "datcheck-intern.h"

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
int dc_headers(struct dc_cur *c)
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

/* A format the caller watches for: @name's, of event ID @id. */
static void dc_watch_format(struct dc_file *f, const char *system,
			    const char *name, int id)
{
	const struct datcheck_watch *w = f->watch;
	unsigned int i;

	for (i = 0; w && i < w->nr_events && i < DATCHECK_MAX_WATCH; i++)
		if (!strcmp(w->events[i].system, system) &&
		    !strcmp(w->events[i].name, name))
			f->watch_id[i] = id + 1;
}

/*
 * Salvaging: the format's event ID among those the records may have; a
 * format whose ID could not be read leaves every ID possible.
 */
static void dc_known_format(struct dc_file *f, int id)
{
	if (!f->known)
		return;
	if (id >= 0) {
		f->known[id >> 3] |= 1u << (id & 7);
		return;
	}
	free(f->known);
	f->known = NULL;
}

/*
 * Salvaging: the bytes format @text's fields take (the last field's
 * offset plus size), and whether a field has no fixed size (__data_loc,
 * __rel_loc, an array of size 0), for event ID @id.  The ftrace
 * system's own events are left out (no size to hold them to):
 * kernel_stack records as many callers as the stack has, however many
 * its format's array holds.
 */
static void dc_format_size(struct dc_file *f, const char *system,
			   const char *text, int id)
{
	const char *l, *o, *s, *e;
	unsigned long end = 0, off, size;
	bool dyn = !strcmp(system, "ftrace");

	if (!f->ev_size || id < 0 || dyn)
		return;
	for (l = text; (l = strstr(l, "field:")); l = e) {
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		o = strstr(l, "offset:");
		s = strstr(l, "size:");
		if (!o || !s || o > e || s > e)
			continue;
		off = strtoul(o + 7, NULL, 10);
		size = strtoul(s + 5, NULL, 10);
		if (memmem(l, e - l, "__data_loc", 10) ||
		    memmem(l, e - l, "__rel_loc", 9) || !size)
			dyn = true;
		if (off + size > end)
			end = off + size;
	}
	f->ev_size[id] = end > UINT16_MAX ? UINT16_MAX : (uint16_t)end;
	if (dyn)
		f->ev_dyn[id >> 3] |= 1u << (id & 7);
}

static int dc_format(struct dc_cur *c, const char *system, const char *what)
{
	struct dc_format *fm;
	unsigned int id;
	char name[128];
	uint64_t n;

	if (dc_u(c, 8, what, &n) || !dc_take(c, n, what) ||
	    dc_keep_format(c, system, n))
		return -EBADMSG;
	fm = &c->f->fmts[c->f->nr_fmts - 1];
	/* "name: <name>" and "ID: <id>" open the kernel's format texts */
	fm->id = sscanf(fm->text, "name: %127s ID: %u", name, &id) == 2 &&
		 id <= 0xffff ? (int)id : -1;
	if (fm->id >= 0)
		dc_watch_format(c->f, system, name, fm->id);
	dc_known_format(c->f, fm->id);
	dc_format_size(c->f, system, fm->text, fm->id);
	return 0;
}

int dc_ftrace_formats(struct dc_cur *c)
{
	uint64_t n, i;

	if (dc_u(c, 4, "the ftrace format count", &n))
		return -EBADMSG;
	for (i = 0; i < n; i++)
		if (dc_format(c, "ftrace", "an ftrace event format"))
			return -EBADMSG;
	return 0;
}

int dc_event_formats(struct dc_cur *c)
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

int dc_kallsyms(struct dc_cur *c)
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

int dc_printk(struct dc_cur *c)
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

int dc_cmdlines(struct dc_cur *c)
{
	return dc_blob(c, 8, "the saved command lines");
}
