/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-pages.h - a .dat's records read from its ring-buffer pages by the
 * plugin itself, in the order tracecmd_iterate_events_multi() gives them
 * (map-pages.c).
 */
#ifndef _MAP_PAGES_H
#define _MAP_PAGES_H

#include <stdint.h>

#include "fxt-input.h"

struct tracecmd_input;

/* A record as libtracecmd's tep_record would have it. */
struct map_pages_rec {
	uint64_t	ts;
	const void	*data;		/* lasts for the call only */
	uint32_t	size;
	int32_t		cpu;		/* the record's CPU */
	int32_t		missed;		/* tep_record's missed_events */
	int32_t		handle;		/* index into the handles */
	int32_t		slot;		/* the iteration's CPU number */
};

typedef int (*map_pages_fn)(const struct map_pages_rec *r, void *data);

struct map_pages;

/*
 * A reader of the @nr handles' pages, @names[i] being handle i's buffer
 * ("" for the top), from the file at @path that the host checked and
 * described in @layout.  0 and *@out; -ENOTSUP when libtracecmd must read
 * (no layout, a handle whose CPUs the layout does not match, the old
 * ring-buffer format); another -errno when the file cannot be mapped.
 */
int map_pages_open(const struct dat_pages *layout, const char *path,
		   struct tracecmd_input **handles, const char *const *names,
		   int nr, struct map_pages **out);

/*
 * @fn on each record, in time order: equal times in the order of the
 * handles, then of the CPUs, as tracecmd_iterate_events_multi().  Stops
 * at @fn's first non-zero return and returns it; -errno when a zstd
 * chunk does not decompress.
 */
int map_pages_read(struct map_pages *p, map_pages_fn fn, void *data);

void map_pages_close(struct map_pages *p);

#endif /* _MAP_PAGES_H */
