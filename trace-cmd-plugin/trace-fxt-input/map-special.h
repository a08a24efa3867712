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

/* How a field of the row becomes a field of its Perfetto event. */
enum map_pkt_kind {
	MAP_PKT_NONE,		/* not written */
	MAP_PKT_UINT,		/* the value, unsigned */
	MAP_PKT_INT,		/* the value, sign-extended if signed */
	MAP_PKT_STR,		/* the text */
	MAP_PKT_SYM,		/* a kernel function: its interning id */
	MAP_PKT_KSTR,		/* a kernel string's address: its text */
	MAP_PKT_UINTS,		/* an array's elements, a field each */
};

struct map_pkt_field {
	uint8_t		kind;		/* enum map_pkt_kind */
	uint8_t		proto;		/* its number in the event message */
};

/*
 * The Perfetto ftrace event a row's events become (map-ftrace.c), field
 * for field with the row's .field[]: what Perfetto's ftrace importer
 * draws of them and FXT cannot say.
 */
struct map_pkt_def {
	uint32_t		event;		/* PFT_EV_*, 0: none */
	struct map_pkt_field	f[MAP_SPECIAL_FIELDS];
	/* the packet replaces .write's records, unless --fxt-records */
	bool			instead;
	/*
	 * Perfetto keeps the event as a raw row only: the packet in the
	 * default flavor, as a generic event would be; with --fxt-records
	 * the instant alone says it
	 */
	bool			raw;
	/* the event is left out when its first field is not below this */
	uint32_t		below;
};

/* Which sched_waking/wakeup event a wakeup is (map-sched.c). */
enum map_wake {
	MAP_WAKE_NEW,		/* sched_wakeup_new: always written */
	MAP_WAKE_WAKING,	/* sched_waking: makes sched_wakeup redundant */
	MAP_WAKE_UP,		/* sched_wakeup: unless sched_waking was seen */
};

/*
 * One row of the table of special events: which events (@system and
 * @name, NULL matching any), the fields its handlers read, found once in
 * map_event.sf[], and the handlers that write what the mapping derives
 * from one record, after the record's instant: FXT records (@write) and
 * Perfetto packets (@pkt_write).
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
	/* then the packets, NULL: none (map-ftrace.c's, by .pkt) */
	int		(*pkt_write)(struct map_ctx *ctx,
				     struct map_buffer *buf,
				     struct map_event *me,
				     struct tep_record *rec);
	struct map_pkt_def	pkt;
	union {				/* what the handler needs besides */
		struct map_counter_def	counter;
		enum map_wake		wake;
		bool			rename;	/* a task name replaced */
	};
};

#endif /* _MAP_SPECIAL_H */
