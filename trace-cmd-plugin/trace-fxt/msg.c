// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg.c - how trace-fxt's subcommands speak on stderr: one prefix, a
 * lenient reader's tally of what it skipped said once, the damage a
 * salvaged .dat's check found.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "dat-layout.h"
#include "fxt-reader.h"
#include "tcfxt.h"
#include "trace-fxt.h"

void trace_fxt_err(const char *fmt, ...)
{
	va_list ap;

	fputs("trace-fxt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

unsigned long long trace_fxt_say_skipped(const struct fxt_reader *r)
{
	char buf[2048];

	if (fxt_reader_tally(r, "trace-fxt: ", buf, sizeof(buf)))
		fputs(buf, stderr);
	return fxt_reader_warned_records(r);
}

/* The pages' clock as trace-cmd report prints it: seconds, to the us. */
static void msg_secs(char *buf, size_t len, uint64_t ts)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ts / 1000000000),
		 (unsigned long long)(ts % 1000000000 / 1000));
}

void trace_fxt_say_damage(const char *in, const struct dat_pages *pages)
{
	const struct dat_damage *d;
	char from[32], to[32], span[128], where[128];
	size_t i;

	for (i = 0; i < pages->nr_damage; i++) {
		d = &pages->damage[i];
		msg_secs(from, sizeof(from), d->ts_before);
		msg_secs(to, sizeof(to), d->ts_after);
		if (d->events_before && d->events_after)
			snprintf(span, sizeof(span), "between its CPU's good "
				 "events at %s and %s", from, to);
		else if (d->events_after)
			snprintf(span, sizeof(span), "before its CPU's first "
				 "good event, at %s", to);
		else if (d->events_before)
			snprintf(span, sizeof(span), "after its CPU's last "
				 "good event, at %s", from);
		else
			snprintf(span, sizeof(span), "its CPU has no good "
				 "event");
		if (d->inflated)
			snprintf(where, sizeof(where), "%llu bytes of the zstd "
				 "chunk at offset 0x%llx (decompressed %llu to "
				 "%llu)", (unsigned long long)d->in_len,
				 (unsigned long long)d->off,
				 (unsigned long long)d->in_off,
				 (unsigned long long)(d->in_off + d->in_len));
		else
			snprintf(where, sizeof(where), "%llu bytes at offset "
				 "0x%llx", (unsigned long long)d->len,
				 (unsigned long long)d->off);
		trace_fxt_err("%s: damaged CPU data skipped: buffer %s, CPU "
			      "%u: %s; %s (%s)", in,
			      d->buffer[0] ? d->buffer : TCFXT_TOP_BUFFER,
			      d->cpu, where, span, d->why);
	}
}
