// SPDX-License-Identifier: GPL-2.0-only
/*
 * formats.c - libtraceevent's parse of a .dat's event formats, kept for
 * the events the records have.
 *
 * Opening a .dat, libtracecmd hands libtraceevent every event format the
 * recording saved - all the kernel offers, some 2,300 on this machine's -
 * and parsing them is most of tracecmd_open_head(): 709 M of its 780 M
 * instructions on the bench recordings (callgrind), while their records
 * use a few dozen.  trace-fxt defines tep_parse_event() itself, as it
 * does tep_parse_kallsyms() (kallsyms.c): between formats_defer() and
 * formats_parse_used(), a format of any system but "ftrace" is kept, not
 * parsed (its text copied, its ID read from its "ID:" line), and
 * formats_parse_used() then hands libtraceevent those whose ID a record
 * of the file has, in the order libtracecmd read them.  The check's walk
 * of the pages (datcheck.h) says which IDs those are.
 *
 * Why that is safe: nothing looks an event up between the two calls (the
 * handle is only being read); an event no record has is never asked for
 * by the conversion, whose output the tests compare byte for byte with
 * that of every format parsed; a handler a plugin registered for an event
 * not yet parsed is attached when it is (libtraceevent keeps it); a
 * format whose ID cannot be read is parsed at once, as is every format
 * outside the two calls.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "formats.h"

#define FORMATS_EXPORT __attribute__((visibility("default")))

FORMATS_EXPORT enum tep_errno tep_parse_event(struct tep_handle *tep,
					      const char *buf,
					      unsigned long size,
					      const char *sys);

typedef enum tep_errno (*formats_parse_fn)(struct tep_handle *, const char *,
					   unsigned long, const char *);

/* A format kept for later. */
struct formats_kept {
	struct tep_handle	*tep;
	char			*text;
	unsigned long		size;
	char			*sys;
	unsigned int		id;
};

static struct {
	bool			armed;
	struct formats_kept	*kept;
	size_t			nr, max;
} formats;

/* libtraceevent's tep_parse_event(), or NULL. */
static formats_parse_fn formats_real(void)
{
	static formats_parse_fn real;

	if (!real)
		real = (formats_parse_fn)dlsym(RTLD_NEXT, "tep_parse_event");
	return real;
}

/* The number on the "ID:" line of a format text; false if none. */
static bool formats_id(const char *buf, unsigned long size, unsigned int *id)
{
	const char *p = buf, *end = buf + size;
	unsigned long v = 0;
	unsigned int digits = 0;

	/* "name: X\nID: N\n" opens every format the kernel writes */
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			nl = end;
		if (nl - p > 4 && !memcmp(p, "ID: ", 4)) {
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
		p = nl + 1;
	}
	return false;
}

/* Keep a copy of the format; false when it must be parsed now. */
static bool formats_keep(struct tep_handle *tep, const char *buf,
			 unsigned long size, const char *sys)
{
	struct formats_kept *k;
	unsigned int id;

	if (!formats_id(buf, size, &id))
		return false;
	if (formats.nr == formats.max) {
		size_t max = formats.max ? 2 * formats.max : 512;

		k = realloc(formats.kept, max * sizeof(*k));
		if (!k)
			return false;
		formats.kept = k;
		formats.max = max;
	}
	k = &formats.kept[formats.nr];
	k->text = malloc(size ? size : 1);
	k->sys = strdup(sys);
	if (!k->text || !k->sys) {
		free(k->text);
		free(k->sys);
		return false;
	}
	memcpy(k->text, buf, size);
	k->size = size;
	k->tep = tep;
	k->id = id;
	formats.nr++;
	return true;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf,
			       unsigned long size, const char *sys)
{
	formats_parse_fn real = formats_real();

	if (!real)
		return TEP_ERRNO__MEM_ALLOC_FAILED;
	if (formats.armed && sys && strcmp(sys, "ftrace") &&
	    formats_keep(tep, buf, size, sys))
		return 0;
	return real(tep, buf, size, sys);
}

void formats_defer(void)
{
	formats.armed = true;
}

unsigned int formats_parse_used(const uint8_t *ids)
{
	formats_parse_fn real = formats_real();
	unsigned int parsed = 0;
	size_t i;

	formats.armed = false;
	for (i = 0; i < formats.nr; i++) {
		struct formats_kept *k = &formats.kept[i];

		if (real && (!ids || ids[k->id >> 3] & (1u << (k->id & 7)))) {
			real(k->tep, k->text, k->size, k->sys);
			parsed++;
		}
		free(k->text);
		free(k->sys);
	}
	free(formats.kept);
	formats.kept = NULL;
	formats.nr = formats.max = 0;
	return parsed;
}
