/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-special.h - a row of the table of special events (map-dispatch.c's
 * map_specials[]): the events whose records derive more than their
 * instant, and what each row tells its handler.
 */
#ifndef _MAP_SPECIAL_H
#define _MAP_SPECIAL_H

#include "map-ctx.h"

/* How a counter event is drawn (map-counter.c). */
enum map_counter_owner {
	MAP_COUNTER_CPU,	/* one series per CPU, the CPU in sf[1] */
	MAP_COUNTER_SYSTEM,	/* one series */
	MAP_COUNTER_RSS,	/* kmem:rss_stat: the process of the mm */
};

struct map_counter_def {
	const char		*series;	/* its name (+ the CPU) */
	const char		*arg;		/* the value's name */
	enum map_counter_owner	owner;
	bool			s32;		/* a u32 field meaning an int */
};

/* Which sched_waking/wakeup event a wakeup is (map-sched.c). */
enum map_wake {
	MAP_WAKE_NEW,		/* sched_wakeup_new: always written */
	MAP_WAKE_WAKING,	/* sched_waking: makes sched_wakeup redundant */
	MAP_WAKE_UP,		/* sched_wakeup: unless sched_waking was seen */
};

/*
 * One row of the table of special events: which events (@system and
 * @name, NULL matching any), the fields its handler reads, found once in
 * map_event.sf[], and the handler that writes what the mapping derives
 * from one record, after the record's instant.
 */
struct map_special {
	const char	*system;
	const char	*name;
	const char	*field[MAP_SPECIAL_FIELDS];	/* map_event.sf[] */
	unsigned int	need;		/* how many of them must exist */
	/* a last test of the format, NULL: none; may set map_event.sf[] */
	bool		(*classify)(struct map_event *me);
	int		(*write)(struct map_ctx *ctx, struct map_buffer *buf,
				 struct map_event *me, struct tep_record *rec,
				 const struct fxt_thread *thread);
	union {				/* what the handler needs besides */
		struct map_counter_def	counter;
		enum map_wake		wake;
		bool			rename;	/* a task name replaced */
	};
};

#endif /* _MAP_SPECIAL_H */
