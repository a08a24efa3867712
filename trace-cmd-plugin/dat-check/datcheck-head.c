// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-head.c - the initial header, the metadata texts and the
 * layout of a version 6 file.
 *
 * datcheck_head() reads the magic, version, byte order, long size and
 * page size, then hands the rest to dc_v6() here or dc_v7()
 * (datcheck-sections.c).  The metadata bodies - header_page and
 * header_event, the ftrace and event formats, kallsyms, printk,
 * cmdlines - are laid out the same in both versions: v6 has them one
 * after the other, v7 one to a section.  Each format text is kept for
 * the probe (datcheck-probe.c) and matched against what the caller
 * watches for.
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
