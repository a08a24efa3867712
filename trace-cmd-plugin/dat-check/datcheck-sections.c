// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-sections.c - the layout of a version 7 file: sections.
 *
 * After the compression header, the STRINGS sections libtracecmd
 * collects, then the chain of options sections (datcheck-options.c),
 * then each metadata section the options point at (its body read as v6
 * lays it out, datcheck-head.c), then each buffer's flyrecord section and
 * its CPUs' data, listed for datcheck-jobs.c.  A compressed section is
 * decompressed whole (datcheck-pages.c's dc_inflate()) before its body is
 * read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datcheck-intern.h"

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

int dc_v7(struct dc_cur *c)
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
