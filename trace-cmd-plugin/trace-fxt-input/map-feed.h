/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-feed.h - the records of every buffer read on one thread and mapped
 * on another (map-feed.c).
 */
#ifndef _MAP_FEED_H
#define _MAP_FEED_H

struct map_pages;
struct tracecmd_input;
struct tep_record;

/* What tracecmd_iterate_events_multi() calls for each record. */
typedef int (*map_record_fn)(struct tracecmd_input *h, struct tep_record *rec,
			     int cpu, void *data);

/* What runs on the mapping thread before the first record; 0 or -errno. */
typedef int (*map_start_fn)(void *data);

/*
 * The records of @handles read on this thread, by @pages (map-pages.h)
 * when it is not NULL, else by tracecmd_iterate_events_multi(); @fn
 * called on a second thread for each record, in the same order, after
 * @start (if any) returned 0 there: what the mapping does before the
 * records, done while the first records are read.  @start must not touch
 * the handles' reading.  Returns @start's error, else @fn's or the
 * reading's.
 */
int map_feed(struct tracecmd_input **handles, int nr,
	     struct map_pages *pages, map_start_fn start, map_record_fn fn,
	     void *data);

#endif /* _MAP_FEED_H */
