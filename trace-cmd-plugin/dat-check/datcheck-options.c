// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-options.c - the options of a v6 file or of a v7 options
 * section: each one's size within what holds it, the string options'
 * terminating NUL, and the few whose contents libtracecmd parses unsafely
 * (TRACECLOCK, HOOK, GUEST, TIME_SHIFT, BUFFER).  A BUFFER option lists
 * a buffer whose CPU data is walked later; a v7 option that points at a
 * metadata section is noted for datcheck-sections.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datcheck-intern.h"

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
bool dc_clock_ok(const uint8_t *text, size_t len)
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
/*
 * A CPUSTAT option: "Buffer: NAME" (after line ends) starts an instance's stats (trace-cmd
 * writes them in the order of the buffers' data), any other one is a CPU
 * of the last buffer named.  Kept for a v7 file cut short, whose BUFFER
 * options after the data are lost.  0, or -ENOMEM.
 */
static int dc_cpustat(struct dc_file *f, const uint8_t *data, size_t size)
{
	static const char tag[] = "Buffer: ";
	char **names;
	uint32_t *cpus, *ids;
	unsigned int id;
	size_t n;

	/* trace-cmd writes it "\nBuffer: NAME\n\n" */
	while (size && data[0] == '\n') {
		data++;
		size--;
	}
	if (size < sizeof(tag) || memcmp(data, tag, sizeof(tag) - 1)) {
		/* "CPU: N" first (the option's string ends in a NUL) */
		if (f->nr_stat_ids >= DC_MAX_CPUS)
			return 0;
		ids = realloc(f->stat_ids, (f->nr_stat_ids + 1) *
			      sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		f->stat_ids = ids;
		if (sscanf((const char *)data, "CPU: %u", &id) != 1 ||
		    id >= DC_MAX_CPUS)
			id = UINT32_MAX;
		ids[f->nr_stat_ids++] = id;
		if (f->nr_stat)
			f->stat_cpus[f->nr_stat - 1]++;
		else
			f->top_stat_cpus++;
		return 0;
	}
	if (f->nr_stat == DC_MAX_BUFFERS)
		return 0;
	names = realloc(f->stat_names, (f->nr_stat + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	f->stat_names = names;
	cpus = realloc(f->stat_cpus, (f->nr_stat + 1) * sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	f->stat_cpus = cpus;
	/* the name to the line's end (the option's string ends in a NUL) */
	n = strcspn((const char *)data + sizeof(tag) - 1, "\n");
	names[f->nr_stat] = strndup((const char *)data + sizeof(tag) - 1, n);
	if (!names[f->nr_stat])
		return -ENOMEM;
	cpus[f->nr_stat++] = 0;
	return 0;
}

/* The clock a TRACECLOCK text selects ("[local]"), kept for the view. */
static void dc_clock_name(struct dc_file *f, const uint8_t *text,
			  size_t len)
{
	const uint8_t *b = memchr(text, '[', len), *e;
	size_t n;

	if (!b)
		return;
	e = memchr(b, ']', len - (b - text));
	n = e ? (size_t)(e - b - 1) : 0;
	if (!n || n >= sizeof(f->clock) || memchr(b + 1, '\0', n))
		return;
	memcpy(f->clock, b + 1, n);
	f->clock[n] = '\0';
}

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
int dc_options(struct dc_cur *c, uint64_t *next)
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
			case DAT_OPTION_CPUSTAT:
				if (dc_cpustat(f, data, size))
					return f->ret = -ENOMEM;
				break;
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
				dc_clock_name(f, data, size);
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
