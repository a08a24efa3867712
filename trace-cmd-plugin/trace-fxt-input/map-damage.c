// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-damage.c - where the damage the host's check skipped in a .dat's
 * CPU data is said among the records.
 *
 * The check salvaged a damaged file (datcheck.h, DATCHECK_SALVAGE): a
 * page from its first fault on, or a zstd chunk that does not inflate,
 * was not read, and each such stretch comes with the number of good
 * records of its CPU before it (dat_damage), its CPU numbered as the
 * buffer's CPU list numbers it, as libtracecmd numbers the records (a
 * recording of CPUs 0 and 3 has its second CPU's damage on 3, not 1).  Whoever reads the pages,
 * the plugin's page reader or libtracecmd over the host's view of the
 * file, reads those records and no other, so counting a CPU's records
 * finds each stretch again: it is said before the first record after
 * it, as the ring buffer's own lost events are, or, when the CPU has
 * none after it, before the last record before it (marked as standing
 * after it: a loss is said before the record it goes with, and the
 * report's lines keep trace-cmd's grammar).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-damage.h"

/* One CPU's damage not said yet, and its records so far. */
struct map_damage_cpu {
	const struct dat_damage	*d;
	size_t			nr;
	uint64_t		seen;
};

static uint64_t map_damage_bytes(const struct dat_damage *d)
{
	return d->inflated ? d->in_len : d->len;
}

/* @buf's damage by CPU: the layout's run for each of its CPUs. */
static int map_damage_buffer(struct map_buffer *buf, const char *name,
			     const struct dat_pages *pages)
{
	const struct dat_damage *d;
	uint32_t max = 0;
	size_t i;
	bool any = false;

	for (i = 0; i < pages->nr_damage; i++) {
		d = &pages->damage[i];
		if (strcmp(d->buffer, name))
			continue;
		if (d->cpu > max)
			max = d->cpu;
		any = true;
	}
	if (!any)
		return 0;
	buf->damage = calloc((size_t)max + 1, sizeof(*buf->damage));
	if (!buf->damage)
		return -ENOMEM;
	buf->nr_damage_cpus = max + 1;
	for (i = 0; i < pages->nr_damage; i++) {
		struct map_damage_cpu *c;

		d = &pages->damage[i];
		if (strcmp(d->buffer, name))
			continue;
		c = &buf->damage[d->cpu];
		/* a CPU's stretches follow one another in the layout */
		if (!c->d)
			c->d = d;
		c->nr++;
	}
	return 0;
}

int map_damage_open(struct map_ctx *ctx, const struct dat_pages *pages)
{
	int i, ret;

	if (!pages || !pages->nr_damage)
		return 0;
	for (i = 0; i < ctx->nr_bufs; i++) {
		struct map_buffer *b = &ctx->bufs[i];

		/* the layout names the top buffer "", as the file does */
		ret = map_damage_buffer(b, b->handle == ctx->top ? "" :
					b->name, pages);
		if (ret)
			return ret;
		if (b->damage)
			ctx->damaged = true;
	}
	return 0;
}

void map_damage_due(struct map_buffer *buf, const struct tep_record *rec,
		    struct map_damage_due *due)
{
	struct map_damage_cpu *c;

	due->before = due->after = 0;
	if (!buf || !buf->damage || rec->cpu < 0 ||
	    rec->cpu >= buf->nr_damage_cpus)
		return;
	c = &buf->damage[rec->cpu];
	for (; c->nr && c->d->events_before <= c->seen; c->d++, c->nr--)
		due->before += map_damage_bytes(c->d);
	c->seen++;
	for (; c->nr && c->d->events_before == c->seen &&
	       !c->d->events_after; c->d++, c->nr--)
		due->after += map_damage_bytes(c->d);
}

bool map_damage_left(struct map_buffer *buf, uint32_t *cpu,
		     uint64_t *bytes)
{
	struct map_damage_cpu *c;
	int i;

	for (i = 0; buf->damage && i < buf->nr_damage_cpus; i++) {
		c = &buf->damage[i];
		if (!c->nr)
			continue;
		*cpu = i;
		for (*bytes = 0; c->nr; c->d++, c->nr--)
			*bytes += map_damage_bytes(c->d);
		return true;
	}
	return false;
}

void map_damage_free(struct map_ctx *ctx)
{
	int i;

	for (i = 0; i < ctx->nr_bufs; i++) {
		free(ctx->bufs[i].damage);
		ctx->bufs[i].damage = NULL;
	}
}
