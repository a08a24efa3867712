// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-head.c - the start of a check: the initial header, then the
 * layout of a version 6 file (its metadata read by datcheck-meta.c);
 * version 7's is datcheck-sections.c's.  dc_free() lets go of what a
 * check holds.
 *
 * datcheck_head() reads the magic, version, byte order, long size and
 * page size, then hands the rest to dc_v6() here or dc_v7().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datcheck-intern.h"

void dc_free(struct dc_file *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_fmts; i++) {
		free(f->fmts[i].system);
		free(f->fmts[i].text);
	}
	free(f->fmts);
	free(f->kallsyms_owned);
	for (i = 0; i < f->nr_bufs; i++) {
		free(f->bufs[i].name);
		free(f->bufs[i].cpu_list_owned);
	}
	free(f->bufs);
	for (i = 0; i < f->nr_stat; i++)
		free(f->stat_names[i]);
	free(f->stat_names);
	free(f->stat_cpus);
	free(f->stat_ids);
	dc_jobs_free(f);
	free(f->jobs);
	free(f->ids);
	free(f->known);
	free(f->ev_size);
	free(f->ev_dyn);
	for (i = 0; i < f->nr_damage; i++)
		free((char *)f->damage[i].why);
	free(f->damage);
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

/* A byte of the initial header, @name, that must be @a or @b. */
static int dc_byte_of(struct dc_cur *c, const char *name, unsigned int a,
		      unsigned int b, uint64_t *v)
{
	char what[32];

	snprintf(what, sizeof(what), "the %s", name);
	if (dc_u(c, 1, what, v))
		return -EBADMSG;
	if (*v != a && *v != b)
		return dc_fail(c, c->pos - 1, "%s %llu, not %u or %u", name,
			       (unsigned long long)*v, a, b);
	return 0;
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
		if (flags & DATCHECK_SALVAGE) {
			f->known = calloc(1, DATCHECK_IDS_BYTES);
			f->ev_size = calloc(65536, sizeof(*f->ev_size));
			f->ev_dyn = calloc(1, DATCHECK_IDS_BYTES);
		}
		if (!f->ids || ((flags & DATCHECK_SALVAGE) &&
				(!f->known || !f->ev_size || !f->ev_dyn))) {
			f->ret = -ENOMEM;
			goto out;
		}
	}
	if (dc_byte_of(&c, "byte order", 0, 1, &v))
		goto out;
	f->big = v;
	if (dc_byte_of(&c, "long size", 4, 8, &v))
		goto out;
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
