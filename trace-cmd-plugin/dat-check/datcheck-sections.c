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
		return dc_fail(&c, file->len, "the %s section lies beyond the "
			       "end of the file, at 0x%llx: the file ends here "
			       "(cut short?)", what, (unsigned long long)off);
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
		f->walk_rebuilt = b->cpu_list_owned;
		for (cpu = 0; cpu < b->cpus; cpu++) {
			e = b->cpu_list + 20 * cpu;
			/*
			 * the CPU as the list numbers it, as libtracecmd
			 * numbers its records (its damage goes on it)
			 */
			f->walk_cpu = (unsigned int)dc_num(f, e, 4);
			if (f->walk_cpu != cpu)
				f->cpus_renumbered = true;
			if (dc_cpu_data(file, dc_num(f, e + 4, 8),
					dc_num(f, e + 12, 8), b->page_size,
					fl & DAT_SECTION_COMPRESSED, b->opt_at))
				return -EBADMSG;
		}
	}
	return 0;
}

/* The end of the section at @off, when its header is in the file. */
static uint64_t dc_section_end(const struct dc_file *f, uint64_t off)
{
	if (off > f->len || f->len - off < DC_SEC_HEADER)
		return 0;
	return off + DC_SEC_HEADER + dc_num(f, f->p + off + 8, 8);
}

/* Whether the section at @off is not wholly in the file (cut short). */
static bool dc_section_cut(const struct dc_file *f, uint64_t off)
{
	uint64_t end = dc_section_end(f, off);

	return !end || end > f->len || end < off;
}

/* One CPU of a rebuilt CPU list: cpu(4) offset(8) size(8). */
static void dc_list_put(const struct dc_file *f, uint8_t *e, uint32_t cpu,
			uint64_t off, uint64_t size)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		e[f->big ? 3 - i : i] = (uint8_t)(cpu >> (8 * i));
	for (i = 0; i < 8; i++) {
		e[4 + (f->big ? 7 - i : i)] = (uint8_t)(off >> (8 * i));
		e[12 + (f->big ? 7 - i : i)] = (uint8_t)(size >> (8 * i));
	}
}

/*
 * The CPU list of buffer @name rebuilt from its flyrecord section at
 * @sec (compressed): each CPU's data begins at a page boundary, a chunk
 * count and chunks whose headers hold; the CPU the file ends in runs to
 * the section's end, those after it have nothing.  @max (its CPUs'
 * stats, or CPUCOUNT) says how many there are (0: those the file has),
 * @ids (their stats, or NULL) their numbers.
 */
static int dc_v7_rebuild(struct dc_cur *c, uint64_t sec, const char *name,
			 uint64_t max, const uint32_t *ids)
{
	struct dc_file *f = c->f;
	uint64_t ps = f->page_size, end = dc_section_end(f, sec);
	uint64_t q, p, i, count, csize;
	struct dc_buffer b = { .section = sec, .page_size = f->page_size,
			       .opt_at = sec };
	struct dc_buffer *nb;
	bool cut = false, fixed = max;
	uint32_t cpu;

	if (!max)
		max = DC_MAX_CPUS;
	if (end < sec + DC_SEC_HEADER)
		return dc_fail(c, sec, "flyrecord section of %llu bytes",
			       (unsigned long long)(end - sec));
	if (end > f->len && f->cut_opt < end)
		return dc_fail(c, f->len, "the file ends inside the CPU data "
			       "of buffer \"%s\", and its options (at 0x%llx) "
			       "lie before the data's end: its CPU list cannot "
			       "be rebuilt", name,
			       (unsigned long long)f->cut_opt);
	b.cpu_list_owned = calloc(max < 1024 ? max : 1024, 20);
	if (!b.cpu_list_owned)
		return f->ret = -ENOMEM;
	q = (sec + DC_SEC_HEADER + ps - 1) / ps * ps;
	/* uncompressed, one CPU (dc_v7_cut()): its pages to the end */
	if (!(dc_num(f, f->p + sec + 2, 2) & DAT_SECTION_COMPRESSED)) {
		dc_list_put(f, b.cpu_list_owned,
			    ids && ids[0] != UINT32_MAX ? ids[0] : 0, q,
			    end > q ? end - q : 0);
		cpu = 1;
		goto add;
	}
	for (cpu = 0; cpu < max && cpu < 1024; cpu++) {
		uint8_t *e = b.cpu_list_owned + 20 * cpu;
		uint32_t id = ids && ids[cpu] != UINT32_MAX ? ids[cpu] : cpu;

		if (cut || q >= f->len || f->len - q < 4) {
			/* nothing of it in the file: the rest is its */
			if (!cut && q < end && end - q > 4)
				dc_list_put(f, e, id, q, end - q - 4);
			else
				dc_list_put(f, e, id, q, 0);
			if (!fixed && !cut)
				cpu++;
			cut = true;
			if (!fixed)
				break;
			continue;
		}
		count = dc_num(f, f->p + q, 4);
		if (q > end || count > (end - q) / 12) {
			free(b.cpu_list_owned);
			return dc_fail(c, q, "%llu chunks where CPU %u's data "
				       "of buffer \"%s\" would begin: its CPU "
				       "list (lost with the end of the file) "
				       "cannot be rebuilt",
				       (unsigned long long)count, cpu, name);
		}
		for (p = q + 4, i = 0; i < count; i++, p += 8 + csize) {
			if (f->len - p < 8)
				break;
			csize = dc_num(f, f->p + p, 4);
			if (csize > f->len - p - 8)
				break;
			if (!dc_chunk_plausible(f, f->p + p, f->len - p, ps)) {
				free(b.cpu_list_owned);
				return dc_fail(c, p, "no zstd chunk where CPU "
					       "%u's data of buffer \"%s\" goes "
					       "on: its CPU list (lost with the "
					       "end of the file) cannot be "
					       "rebuilt", cpu, name);
			}
		}
		if (i < count) {
			/* the file ends in its data */
			dc_list_put(f, e, id, q, end - q - 4);
			cut = true;
			if (!fixed) {
				cpu++;
				break;
			}
			continue;
		}
		dc_list_put(f, e, id, q, p - q - 4);
		q = (p + ps - 1) / ps * ps;
		if (q >= end && !fixed) {
			cpu++;
			break;
		}
	}
add:
	b.cpus = cpu;
	b.cpu_list = b.cpu_list_owned;
	b.name = strdup(name);
	nb = b.name ? realloc(f->bufs, (f->nr_bufs + 1) * sizeof(*nb)) : NULL;
	if (!nb) {
		free(b.name);
		free(b.cpu_list_owned);
		return f->ret = -ENOMEM;
	}
	f->bufs = nb;
	f->bufs[f->nr_bufs++] = b;
	return 0;
}

/*
 * A cut file's options lie right after the sections before them, the
 * CPU data of the buffer the file ends in running up to them: an options
 * chain that leads further past the end of every section is damage, not
 * a cut.  libtracecmd, reading the view, walks each section header in
 * the gap (16 bytes at a time), so such a view would take it hours.
 */
static int dc_v7_cut_reach(struct dc_cur *c)
{
	struct dc_file *f = c->f;
	uint64_t reach = f->sections_end > f->len ? f->sections_end : f->len;
	uint64_t end;
	unsigned int i;

	for (i = 0; i < f->nr_bufs; i++) {
		end = dc_section_end(f, f->bufs[i].section);
		if (end > reach)
			reach = end;
	}
	if (f->cut_opt <= reach + f->page_size)
		return 0;
	return dc_fail(c, f->len, "the options chain leads to 0x%llx, past "
		       "the end of every section (0x%llx): damaged, not a "
		       "file cut short", (unsigned long long)f->cut_opt,
		       (unsigned long long)reach);
}

/*
 * Salvaging a v7 file cut short in its CPU data (or its options after
 * it): the options chain led out of the file at f->cut_opt, and with it
 * the BUFFER options written after each buffer's data.  The sections
 * after those read are walked: each flyrecord section no BUFFER option
 * listed has its CPU list rebuilt (zstd data only: uncompressed pages do
 * not say their CPU).  Its name is lost with the strings at the file's
 * end: trace-cmd writes the buffers in the order their CPUSTAT options
 * name them, the top one first.
 */
static int dc_v7_cut(struct dc_cur *c)
{
	struct dc_file *f = c->f;
	uint64_t pos = f->sections_end, fl, end, id;
	unsigned int i, nr = f->nr_bufs;
	const uint32_t *ids;
	const char *name;
	uint64_t cpus, first;
	bool known;

	for (i = 0; i < f->nr_bufs; i++) {
		end = dc_section_end(f, f->bufs[i].section);
		if (end > pos && end <= f->len)
			pos = end;
	}
	/* a compressed section's size is not checked against the file */
	while (pos <= f->len && f->len - pos >= DC_SEC_HEADER) {
		id = dc_num(f, f->p + pos, 2);
		if (id != DAT_OPTION_BUFFER && id != DAT_OPTION_DONE)
			break;
		for (i = 0, known = false; i < f->nr_bufs; i++)
			known |= f->bufs[i].section == pos;
		if (id == DAT_OPTION_BUFFER && !known) {
			/* the buffers before it: those the options listed */
			/* its CPUs' stats: after those of the buffers before */
			for (i = 0, first = f->top_stat_cpus;
			     nr && i + 1 < nr && i < f->nr_stat; i++)
				first += f->stat_cpus[i];
			if (!nr) {
				name = "";
				cpus = f->top_stat_cpus ?: f->cpus;
				first = 0;
			} else if (nr - 1 < f->nr_stat) {
				name = f->stat_names[nr - 1];
				cpus = f->stat_cpus[nr - 1];
			} else {
				return dc_fail(c, f->len, "the file ends in "
					       "the CPU data of buffer %u "
					       "(section at 0x%llx), whose name "
					       "no option keeps", nr,
					       (unsigned long long)pos);
			}
			fl = dc_num(f, f->p + pos + 2, 2);
			if (!(fl & DAT_SECTION_COMPRESSED) && cpus != 1)
				return dc_fail(c, f->len, "the file ends in the "
					       "CPU data of an uncompressed "
					       "buffer (section at 0x%llx) whose "
					       "CPU list, in the options after "
					       "it, is lost: its pages do not "
					       "say their CPU",
					       (unsigned long long)pos);
			ids = cpus && first + cpus <= f->nr_stat_ids &&
			      (nr || f->top_stat_cpus == cpus) ?
			      f->stat_ids + first : NULL;
			if (dc_v7_rebuild(c, pos, name, cpus, ids))
				return -EBADMSG;
			nr++;
		}
		end = dc_section_end(f, pos);
		if (end > f->len || end <= pos)
			break;
		pos = end;
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
		/* salvaging, an options section cut off ends the chain */
		if ((f->flags & DATCHECK_SALVAGE) && n &&
		    dc_section_cut(f, opt)) {
			f->cut_opt = opt;
			break;
		}
		if (dc_section(c, opt, DAT_OPTION_DONE, "options", &s, &owned, &fl))
			return -EBADMSG;
		if (!n)
			f->opt_desc = (uint32_t)dc_num(f, c->p + opt + 4, 4);
		if (dc_section_end(f, opt) > f->sections_end)
			f->sections_end = dc_section_end(f, opt);
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
		if (dc_section_end(f, f->sections[id]) > f->sections_end)
			f->sections_end = dc_section_end(f, f->sections[id]);
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
	if (f->cut_opt && (dc_v7_cut(c) || dc_v7_cut_reach(c)))
		return -EBADMSG;
	return dc_buffers(c);
}
