/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-feed.h - the records of every buffer read on one thread and mapped
 * on another (map-feed.c).
 */
#ifndef _MAP_FEED_H
#define _MAP_FEED_H

struct tracecmd_input;
struct tep_record;

/* What tracecmd_iterate_events_multi() calls for each record. */
typedef int (*map_record_fn)(struct tracecmd_input *h, struct tep_record *rec,
			     int cpu, void *data);

/*
 * tracecmd_iterate_events_multi() on this thread, @fn called on a second
 * one for each record, in the same order.
 */
int map_feed(struct tracecmd_input **handles, int nr, map_record_fn fn,
	     void *data);

#endif /* _MAP_FEED_H */
