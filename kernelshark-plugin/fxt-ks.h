/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt-ks.h - an FXT file (or a Perfetto trace, fxt-ks-pft.c) decoded once
 * into the compact tables that the KernelShark stream interface answers
 * from.
 *
 * Loading a file walks every record a single time.  Each timestamped
 * record becomes a row (time, CPU, pid, event id) plus a run of stored
 * arguments, or, for a converted file's ftrace events, the offset of its
 * record, decoded again when asked about (fxt-ks-reread.c); nothing is
 * formatted as text until KernelShark asks for a particular row, so a
 * reload costs one allocation per entry and no decoding at all.
 */
#ifndef _FXT_KS_H
#define _FXT_KS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt-format.h"
#include "u64-map.h"

struct pft2dat_view;

/*
 * Record kinds that get their own event ids: the FXT event types keep
 * their numbers, the other timestamped records follow them.
 */
enum fxt_ks_kind {
	FXT_KS_SWITCH		= FXT_EVENT_TYPE_COUNT,
	FXT_KS_WAKEUP,
	FXT_KS_LOG,
	FXT_KS_LARGE_BLOB,
	FXT_KS_OTHER,		/* every event past the id limit */
	FXT_KS_KIND_COUNT
};

/* Argument types beyond FXT's: values the plugin itself derives. */
enum fxt_ks_arg_type {
	/* A zx thread state, as an integer. */
	FXT_KS_ARG_STATE	= 0x40,
	/*
	 * While loading: a thread of another producer (v.i: its
	 * fxt-threads.h index), an FXT_ARG_INT64 task id once loaded.
	 */
	FXT_KS_ARG_TASK		= 0x41,
};

/* Where a stored string argument lives. */
enum fxt_ks_where {
	FXT_KS_VALUE	= 0,	/* not a string: the value is in v */
	FXT_KS_IN_MAP	= 1,	/* v.u: offset in the mapped file */
	FXT_KS_IN_POOL	= 2,	/* v.u: offset in the string pool */
	/* v.u: a pointer, valid until fxt_ks_row_args_put() */
	FXT_KS_AT_PTR	= 3,
};

struct fxt_ks_arg {
	uint16_t	field;	/* index into its event's fields */
	uint8_t		type;	/* fxt_arg_type or fxt_ks_arg_type */
	uint8_t		where;	/* enum fxt_ks_where */
	uint32_t	len;	/* string length */
	union {
		uint64_t	u;
		int64_t		i;
		double		d;
	} v;
};

struct fxt_ks_field {
	char		*name;
	uint32_t	len;
	uint8_t		type;	/* of its first occurrence */
	const char	*seen;	/* last name pointer matched (in map) */
};

struct fxt_ks_event {
	unsigned int		kind;
	char			*category;
	char			*name;
	char			*label;	/* what KernelShark shows */
	/* trace-fxt's record of lost events: KernelShark's missed_events */
	bool			missed;
	/*
	 * A context switch (the kernel's sched/sched_switch or an FXT
	 * one): drawn as the task its next_pid names.
	 */
	bool			is_switch;
	/*
	 * A wakeup sched_events may draw: an FXT thread wakeup (0), or a
	 * converted sched/ wakeup instant, ranked from 1 in the order
	 * sched_events takes the first the file has (fxt-ks-event.c);
	 * -1 for other events.
	 */
	int8_t			wakeup_rank;
	/*
	 * The first argument name and count of the last reread record
	 * whose names were added to the fields: records of one ftrace
	 * event have the same, so the rest skip that.
	 */
	const char		*layout_name;
	unsigned int		layout_n;
	uint32_t		cat_len;
	uint32_t		name_len;
	uint32_t		hash;
	int			chain;	/* next in its bucket */
	struct fxt_ks_field	*fields;
	unsigned int		nfields;
	unsigned int		fields_cap;
};

/*
 * One timestamped record, 32 bytes.  A row either stores its arguments
 * (d->args from @arg on) or, for the ftrace events of a converted file,
 * is read again from the file when KernelShark asks about it
 * (FXT_KS_ROW_REREAD in @arg: the rest is the record's offset).
 */
struct fxt_ks_row {
	int64_t		ts;		/* ns */
	uint64_t	arg;
	/*
	 * Its task.  While loading, a thread of another producer is
	 * FXT_KS_THREAD(index) (fxt-threads.h), given its task id when
	 * every thread is known.
	 */
	int32_t		pid;
	/*
	 * What the plot part draws, read while loading so that no record
	 * is read again for it: a context switch's next_pid (the task it
	 * is drawn with), a wakeup's woken pid; else FXT_KS_NO_PID.
	 */
	int32_t		sched_pid;
	int16_t		cpu : 13;	/* below FXT_KS_MAX_CPU */
	/*
	 * A context switch whose task left running: its prev_state has
	 * none of FXT_KS_LEFT_MASK's bits (sched_events' red box).
	 */
	uint16_t	preempted : 1;
	int16_t		event;
	/* stored arguments; reread rows: the TCFXT_CONT_SUFFIX records */
	uint16_t	nargs;
	uint16_t	provider;	/* index into providers */
};

#define FXT_KS_ROW_REREAD	(1ULL << 63)
/*
 * A row's sched_pid when it has none.  Any other, negative ones too, is
 * drawn: sched_events reads a record's 32-bit pid into 64 bits, no sign
 * extended, and so draws every pid a record holds.
 */
#define FXT_KS_NO_PID		(-1)
/* A Perfetto trace's event: the rest is its pft2dat_row.at. */
#define FXT_KS_ROW_PFT		(1ULL << 62)
/* A Perfetto trace's lost events: the rest is their count + 1, 0 unknown. */
#define FXT_KS_ROW_PFT_LOST	(1ULL << 61)

/*
 * The prev_state bits that say a task left the CPU other than running,
 * as sched_events tests them (the low byte, but TASK_REPORT_MAX).
 */
#define FXT_KS_LEFT_MASK	0x7f

/* A row's pid while loading: thread @idx of another producer (< -1). */
#define FXT_KS_THREAD(idx)	(-2 - (int32_t)(idx))
#define FXT_KS_THREAD_IDX(pid)	(-2 - (pid))

static inline bool fxt_ks_row_reread(const struct fxt_ks_row *row)
{
	return row->arg & FXT_KS_ROW_REREAD;
}

struct fxt_ks_task {
	int32_t		pid;
	int32_t		name;	/* pool offset, -1 when unnamed */
	int16_t		cpu;	/* of its last context switch, or -1 */
	bool		named_thread;	/* named by a thread object */
};

struct report_tep;

struct fxt_ks_provider {
	uint32_t	id;
	char		*name;
	/* Began with trace-fxt's trace-cmd/file_info: restatements fold. */
	bool		from_trace_fxt;
	/*
	 * What that file_info says: the ftrace buffer (NULL when it does
	 * not say), its CPU count (0 when it does not say).
	 */
	char		*buffer;
	int		cpus;
	/*
	 * string indexes set so far (a bit each), NULL before the first: in
	 * the file's records, in a nested stream's (fxt_record.nested)
	 */
	uint64_t	*str_set;
	uint64_t	*str_set_nested;
	/*
	 * Its rows, and the CPUs they are on (a bit each, NULL before its
	 * first row): what a stream of it learns when it opens, told as
	 * the rows are made rather than by another pass over them.
	 */
	size_t		nrows;
	uint64_t	*cpus_used;
};

#define FXT_KS_CPU_WORDS	(FXT_KS_MAX_CPU / 64)

struct fxt_ks_cache_slot {
	const char	*cat;
	const char	*name;
	uint32_t	cat_len;
	uint32_t	name_len;
	unsigned int	kind;
	int		event;
};

#define FXT_KS_CACHE_SIZE	256
#define FXT_KS_EVENT_BUCKETS	1024
/* KernelShark's event ids are int16_t. */
#define FXT_KS_MAX_EVENTS	INT16_MAX
/* CPU numbers past this are taken for garbage rather than drawn. */
#define FXT_KS_MAX_CPU		4096
/* Rows name their provider in 16 bits: files with more are refused. */
#define FXT_KS_MAX_PROVIDERS	UINT16_MAX
/* The CPU of a record whose thread never ran in a context switch. */
#define FXT_KS_FALLBACK_CPU	0

struct fxt_ks_data {
	const uint8_t		*map;
	size_t			map_len;

	struct fxt_ks_row	*rows;
	size_t			nrows;
	size_t			rows_cap;
	/* A row was added, or moved, before the one it follows. */
	bool			unsorted;

	struct fxt_ks_arg	*args;
	size_t			nargs;
	size_t			args_cap;

	struct fxt_ks_event	*events;
	unsigned int		nevents;
	unsigned int		events_cap;
	int			buckets[FXT_KS_EVENT_BUCKETS];
	struct fxt_ks_cache_slot cache[FXT_KS_CACHE_SIZE];

	/* Strings that do not live in the map, NUL terminated. */
	char			*pool;
	size_t			pool_len;
	size_t			pool_cap;

	struct fxt_ks_task	*tasks;		/* in the order first seen */
	size_t			ntasks;
	size_t			tasks_cap;
	struct u64_map		task_at;	/* pid -> index + 1 */

	struct fxt_ks_provider	*providers;
	unsigned int		nproviders;
	unsigned int		providers_cap;
	struct u64_map		provider_at;	/* id -> index + 1 */

	int			n_cpus;
	/*
	 * libtraceevent with the formats, kallsyms and printk strings that
	 * converted providers carry; NULL when the file has none.
	 */
	struct report_tep	*tep;
	/* "FILE: offset 0x...: what" when decoding stopped early. */
	char			*error;

	/*
	 * Reread rows: the reader that decoded the file, kept for them
	 * (NULL when every row stores its arguments), and their
	 * arguments while one is looked at, under @lock.
	 */
	struct fxt_reader	*reread;
	pthread_mutex_t		lock;
	struct fxt_ks_arg	*scratch;
	size_t			scratch_cap;
	/*
	 * A Perfetto trace (fxt-ks-pft.c): the view its rows' records are
	 * built by; NULL for FXT.
	 */
	struct pft2dat_view	*pft;
};

/*
 * Map @path and decode it.  Returns 0 (rows up to the first fault when the
 * file is damaged: see d->error), -ENODATA when no record could be decoded
 * at all, or another negative errno.
 */
int fxt_ks_data_load(struct fxt_ks_data *d, const char *path);
void fxt_ks_data_free(struct fxt_ks_data *d);

/*
 * A Perfetto trace decoded into rows, as the .dat `trace-fxt convert`
 * makes of it (fxt-ks-pft.c); returns as fxt_ks_data_load().
 */
int fxt_ks_pft_load(struct fxt_ks_data *d, const char *path);
/*
 * fxt_ks_tep_text() of a Perfetto trace's row; takes d->lock, which
 * guards the view's records (fxt_ks_row_args_get() reads them too).
 */
int fxt_ks_pft_text(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		    char **info, char **latency);
/*
 * The fields of a Perfetto trace's row, from its record, into d->scratch
 * (under d->lock): how many, or a negative errno.
 */
int fxt_ks_pft_args(struct fxt_ks_data *d, const struct fxt_ks_row *row);
/*
 * The name of a Perfetto trace's task @pid now, as libtraceevent tells a
 * .dat's: "<idle>" for 0, "<...>" when unknown.  Not thread safe (the
 * caller holds what guards the info column).
 */
const char *fxt_ks_pft_comm(struct fxt_ks_data *d, int32_t pid);

/* Task name of @pid, NULL when the file never named it. */
const char *fxt_ks_task_name(const struct fxt_ks_data *d, int32_t pid);
struct fxt_ks_task *fxt_ks_task_get(struct fxt_ks_data *d, int32_t pid,
				    bool create);

/*
 * The arguments of @row, stored or read again from the file: *@args
 * stays valid, and other threads wait, until fxt_ks_row_args_put().
 * Returns how many (0 with *@args NULL when they cannot be read); call
 * fxt_ks_row_args_put() whatever it returns.
 */
unsigned int fxt_ks_row_args_get(struct fxt_ks_data *d,
				 const struct fxt_ks_row *row,
				 const struct fxt_ks_arg **args);
void fxt_ks_row_args_put(struct fxt_ks_data *d);

/* The argument for @field among @args, or NULL. */
const struct fxt_ks_arg *fxt_ks_args_field(const struct fxt_ks_arg *args,
					   unsigned int n, int field);

/* Text of a stored string argument. */
const char *fxt_ks_arg_str(const struct fxt_ks_data *d,
			   const struct fxt_ks_arg *a);

/* Index of @name among @event's fields, or -1. */
int fxt_ks_field_find(const struct fxt_ks_data *d, int event,
		      const char *name);

/*
 * KernelShark's own marker for lost events, which trace.dat streams place
 * this long before the first record after the loss (on its CPU, with its
 * pid); trace-fxt writes them as "trace-cmd/lost_events" instants.
 */
#define FXT_KS_MISSED_SHIFT	10
int fxt_ks_rows_place_missed(struct fxt_ks_data *d);

/*
 * Sort rows by time, keeping file order among equal times; nothing to do
 * unless d->unsorted.
 */
int fxt_ks_rows_sort(struct fxt_ks_data *d);

/* Events: lookup/insert, and the labels made once decoding is done. */
int fxt_ks_event_get(struct fxt_ks_data *d, unsigned int kind,
		     struct fxt_str cat, struct fxt_str name);
/*
 * Index of field @name of @event, added if new; @hint: where @name was
 * last time (the argument's position).  -E2BIG when the event keeps no
 * more field names (the caller drops that argument), or -ENOMEM.
 */
int fxt_ks_event_field(struct fxt_ks_data *d, int event,
		       struct fxt_str name, unsigned int type,
		       unsigned int hint);
int fxt_ks_events_label(struct fxt_ks_data *d);
/*
 * The fields of a reread row's record (@args, as decoded), added as
 * storing them would; with @same_layout, nothing is done when the last
 * record so noted had the same first name and count.  0 or -ENOMEM.
 */
int fxt_ks_fields_note(struct fxt_ks_data *d, int event,
		       const struct fxt_arg *args, unsigned int nargs,
		       bool same_layout);
/*
 * Whether a record of @event with @nargs arguments, the first @args[0],
 * has the layout last noted with @same_layout (only @args[0] is read).
 */
bool fxt_ks_layout_same(const struct fxt_ks_data *d, int event,
			const struct fxt_arg *args, unsigned int nargs);
/*
 * @src's value into @a (its field, type and where already set); a
 * string outside the map is copied to the pool if @keep, else pointed
 * at (FXT_KS_AT_PTR).  0 or -ENOMEM.
 */
int fxt_ks_arg_set(struct fxt_ks_data *d, struct fxt_ks_arg *a,
		   const struct fxt_arg *src, bool keep);
void fxt_ks_events_free(struct fxt_ks_data *d);

/*
 * The rows' and arguments' arrays: malloc()'ed, their whole pages not
 * shared with a child process (fxt-ks-table.c says why).  NULL when out
 * of memory; @size: what they were made (or grown) to.
 */
void *fxt_ks_big_alloc(size_t size);
void *fxt_ks_big_realloc(void *p, size_t size, size_t new_size);
void fxt_ks_big_free(void *p, size_t size);

/* Copy @len bytes to the pool; returns the offset or -1. */
int64_t fxt_ks_pool_add(struct fxt_ks_data *d, const char *s, size_t len);

static inline bool fxt_ks_in_map(const struct fxt_ks_data *d, const void *p)
{
	const uint8_t *b = p;

	/* a Perfetto trace's rows map no file (fxt-ks-pft.c) */
	return d->map && b >= d->map && b < d->map + d->map_len;
}

/* Info column, dump line: malloc'ed strings (NULL on failure). */
char *fxt_ks_info(struct fxt_ks_data *d, const struct fxt_ks_row *row);
/*
 * Info and latency columns of an ftrace event of a converted provider, as
 * KernelShark shows them for the .dat (libtraceevent prints them):
 * malloc'ed, NULL when empty.  -ENOENT when @row is no such event or the
 * file carries no format for it, -ENOMEM.
 */
int fxt_ks_tep_text(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		    char **info, char **latency);

#endif /* _FXT_KS_H */
