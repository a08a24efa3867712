/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map.h - the ftrace-to-FXT mapping inside trace-fxt-input.so.
 *
 * Calls go one way, each file below only calls the ones after it:
 *
 *   map-convert.c   drives the conversion: buffers, options, iteration
 *                   (map-tgid.c first settles every thread's group,
 *                   map-formats.c and map-options.c keep what rebuilding
 *                   the .dat needs);
 *   map-dispatch.c  knows each event: its description, by id, and the one
 *                   table of special events, the handler each one has;
 *                   writes every record as map-event.c's instant and then
 *                   hands it to its handler;
 *   map-sched.c, map-marker.c, map-counter.c, map-eventheader.c
 *                   the handlers: the records Perfetto draws (context
 *                   switches, wakeups, task names, logs and atrace
 *                   slices, counters, EventHeader events) next to the
 *                   instant, never instead of it, so that every field of
 *                   every event stays in the FXT;
 *   map-event.c     any ftrace event as an instant event with one typed
 *                   argument per field;
 *   map-task.c      the tables of pids and CPUs, and the names of tasks;
 *   map-field.c     a record's fields read: strings, arrays as text, the
 *                   bytes past the fields (integers: map_field_u64()).
 */
#ifndef _MAP_H
#define _MAP_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

#include "errmsg.h"
#include "fxt-input.h"
#include "fxt-writer.h"
#include "tcfxt.h"

struct dat_meta_text;

/* The names the mapping writes besides the events' own: tcfxt.h. */

enum map_field_kind {
	MAP_FIELD_INT,		/* integer, kept with its size and sign */
	MAP_FIELD_POINTER,	/* pointer-sized pointer field */
	MAP_FIELD_STRING,	/* char array or __data_loc string */
	MAP_FIELD_ARRAY,	/* any other array: "ARRAY[..]" text */
	MAP_FIELD_ELEMS,	/* small integer array: an arg an element */
};

struct map_field {
	struct tep_format_field	*field;
	struct fxt_str		name;
	struct fxt_str		text_name;	/* name + ".text" if has_text */
	struct fxt_str		*elem_names;	/* MAP_FIELD_ELEMS: "name[k]" */
	enum map_field_kind	kind;
	unsigned int		arg_type;	/* enum fxt_arg_type */
	bool			has_text;	/* -R prints it by print fmt */
	bool			ptr_like;	/* the print format shows a %p */
	bool			sym_field;	/* may point at a kernel symbol */
	bool			printk_field;	/* may point at a printk string */
};

struct map_special;
#define MAP_SPECIAL_FIELDS	7

/* What the mapping knows about one ftrace event format. */
struct map_event {
	struct tep_event	*event;
	struct fxt_str		category;
	struct fxt_str		name;
	struct fxt_str		cont_name;
	struct fxt_str		trailing_name;	/* TCFXT_ARG_TRAILING */
	unsigned int		fixed_end;	/* end of the last fixed field */
	unsigned int		*var_idx;	/* __data_loc and flexible ones */
	unsigned int		nr_var;
	unsigned int		nr_fields;
	unsigned int		extra_args;	/* elements past one per field */
	struct map_field	*fields;
	bool			keep;		/* passes the event filter */
	bool			user_data;	/* user_events: bytes past fields */
	/* map-dispatch.c: its row in the table of special events, or NULL */
	const struct map_special *special;
	struct tep_format_field	*sf[MAP_SPECIAL_FIELDS];	/* its fields */
	/* map-formats.c: which fields it looks at, decided on first use */
	bool			fmts_ready;
	unsigned int		*fmts_idx;	/* those fields, in order */
	unsigned int		nr_fmts;
};

/* Per buffer: one FXT provider. */
struct map_buffer {
	struct tracecmd_input	*handle;
	struct tep_handle	*tep;
	bool			native;		/* file byte order is the host's */
	const char		*name;		/* "top" or the instance name */
	uint32_t		provider_id;
	/* map_event by event id, filled on first use */
	struct map_event	**events;
	int			nr_events;
};

struct map_formats;
struct map_eh;
struct map_text;
struct map_text_ref;

/* map-task.c: what the conversion knows of one pid. */
struct map_task {
	uint8_t			named;	/* 1 seen, 2 named by an event, 3 cmdlines */
	int32_t			cpu;	/* CPU it was last switched in on, or -1 */
	int32_t			tgid;	/* its thread group, 0 unknown */
	uint8_t			tgid_rank;	/* how sure (map-tgid.c) */
	bool			proc_named;	/* its process object written */
};

/*
 * Per CPU: the running thread, and the recent records of events that
 * derive records, to tell one kernel event recorded in two buffers.
 */
#define MAP_DUP_SLOTS	32
struct map_dup {
	uint64_t		ts;
	uint64_t		hash;
	struct map_buffer	*buf;	/* NULL: slot free or matched */
};

struct map_cpu {
	int32_t			cur;	/* switched in last, -1 unknown */
	unsigned int		next;	/* slot to reuse */
	struct map_dup		dup[MAP_DUP_SLOTS];
};

/* map-counter.c: which process an mm (rss_stat's mm_id) belongs to. */
#define MAP_MM_SLOTS	1024
struct map_mm {
	uint64_t		mm_id;
	int32_t			tgid;
};

#define MAP_NAME_MEMO	64

/* The conversion as a whole. */
struct map_ctx {
	struct fxt_writer	*w;
	const struct fxt_input_opts *opts;
	struct map_buffer	*bufs;
	int			nr_bufs;
	struct map_buffer	*cur;		/* provider now current */
	struct tracecmd_input	*top;
	const struct fxt_input_recs *kept;	/* the host's, for map-tgid */
	struct map_task		*tasks;		/* by pid, grows */
	int			nr_tasks;
	struct map_cpu		*cpus;		/* by CPU, grows */
	int			nr_cpus;
	bool			seen_waking;
	bool			meta_named;	/* map_meta_thread() */
	struct map_mm		mms[MAP_MM_SLOTS];
	size_t			nr_mms;
	struct tep_format_field	*common_type;
	struct tep_format_field	*common_pid;
	struct tep_format_field	*common_flags;
	struct tep_format_field	*common_preempt;
	struct fxt_arg		*args;		/* scratch, grows */
	struct map_text_ref	*text_refs;	/* map-event.c's, as many */
	unsigned int		nr_args_max;
	struct trace_seq	seq;		/* scratch for .text values */
	struct map_formats	*fmts;		/* map-formats.c's state */
	struct map_eh		*eh;		/* map-eventheader.c's state */
	struct map_text		*text;		/* map-text.c's cache */
	struct dat_meta_text	*procmaps;	/* the PROCMAPS texts */
	int			nr_procmaps;
	bool			procmaps_read;
	/* map_name()'s memory: the program's own strings, by address */
	struct map_name_memo {
		const char	*key;
		struct fxt_str	str;
	}			names[MAP_NAME_MEMO];
	uint64_t		records_in;
	uint64_t		events_out;
	int			err;
	char			*errbuf;
	size_t			errlen;
};

/*
 * @s interned, for a name of the program's own (tcfxt.h's, a literal or
 * a table's entry, which live as long as the program): remembered by its
 * address, so that what is written on every record is not hashed every
 * time.  Never a record's bytes: those move.
 */
struct fxt_str map_name_slow(struct map_ctx *ctx, const char *s);

static inline struct fxt_str map_name(struct map_ctx *ctx, const char *s)
{
	const struct map_name_memo *m;

	m = &ctx->names[((uintptr_t)s >> 3) % MAP_NAME_MEMO];
	if (m->key == s && m->str.id)
		return m->str;
	return map_name_slow(ctx, s);
}

int map_convert(struct tracecmd_input *handle, int fd,
		const struct fxt_input_opts *opts,
		const struct fxt_input_recs *kept,
		struct fxt_input_result *res);

/* What tracecmd_iterate_events_multi() calls for each record. */
typedef int (*map_record_fn)(struct tracecmd_input *h, struct tep_record *rec,
			     int cpu, void *data);

/*
 * map-feed.c: tracecmd_iterate_events_multi() on this thread, @fn called
 * on a second one for each record, in the same order.
 */
int map_feed(struct tracecmd_input **handles, int nr, map_record_fn fn,
	     void *data);

/* map-tgid.c: thread groups, settled before the conversion writes */
int map_tgid_read(struct map_ctx *ctx, struct tracecmd_input **handles,
		  int nr);

/* map-formats.c: formats, headers, symbols for rebuilding the .dat */
int map_formats_start(struct map_ctx *ctx, uint64_t ts);
int map_formats_event(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec);
void map_formats_free(struct map_ctx *ctx);

/* map-options.c */
int map_meta_thread(struct map_ctx *ctx, struct fxt_thread *thread);
int map_options_procmaps(struct map_ctx *ctx);
void map_options_free(struct map_ctx *ctx);
int map_options_write(struct map_ctx *ctx, struct map_buffer *buf,
		      uint64_t first_ts);

/* map-dispatch.c */

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

extern const struct map_special map_specials[];
extern const unsigned int map_nr_specials;

const struct map_special *map_dispatch_classify(struct map_event *me);
struct map_event *map_dispatch_event(struct map_ctx *ctx,
				     struct map_buffer *buf,
				     struct tep_record *rec);
int map_dispatch_write(struct map_ctx *ctx, struct map_buffer *buf,
		       struct map_event *me, struct tep_record *rec,
		       const struct fxt_thread *thread);
void map_dispatch_free(struct map_ctx *ctx);

/* The handlers of map_specials[]. */
int map_sched_switch_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread);
int map_sched_wakeup_write(struct map_ctx *ctx, struct map_buffer *buf,
			   struct map_event *me, struct tep_record *rec,
			   const struct fxt_thread *thread);
int map_sched_names_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread);
int map_marker_write(struct map_ctx *ctx, struct map_buffer *buf,
		     struct map_event *me, struct tep_record *rec,
		     const struct fxt_thread *thread);

/*
 * An atrace marker "K|pid|name|value" split (map-marker.c): the one
 * reading of the convention, for the slices drawn and for the thread
 * groups map-tgid.c learns from the writer's pid.
 */
struct map_atrace {
	char		kind;
	uint64_t	pid;
	const char	*name;
	size_t		name_len;
	const char	*value;	/* C: the value; S/F: the cookie */
	size_t		value_len;
};
bool map_atrace_parse(const char *s, size_t len, struct map_atrace *at);
int map_counter_write(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec,
		      const struct fxt_thread *thread);
bool map_eventheader_classify(struct map_event *me);
int map_eventheader_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread);
void map_eventheader_free(struct map_ctx *ctx);

/* map-event.c: any event's instant */
struct map_event *map_event_new(struct map_ctx *ctx, struct tep_event *event);
void map_event_free(struct map_event *me);
int map_event_write(struct map_ctx *ctx, struct map_buffer *buf,
		    struct map_event *me, struct tep_record *rec,
		    const struct fxt_thread *thread);

/* map-task.c */

/*
 * The kernel's PID_MAX_LIMIT: no real pid reaches it, and the per-pid
 * table must not grow to what a damaged record claims (2^31 bytes).
 */
#define MAP_PID_LIMIT	(1 << 22)

struct map_task *map_task_get(struct map_ctx *ctx, int pid);
struct map_cpu *map_cpu_get(struct map_ctx *ctx, unsigned int cpu);
int map_task_thread(struct map_ctx *ctx, struct map_buffer *buf,
		    int pid, struct fxt_thread *thread);
int map_task_name(struct map_ctx *ctx, struct map_buffer *buf,
		  struct tep_record *rec, struct tep_format_field *pid_field,
		  struct tep_format_field *comm_field, bool rename);

/* map-field.c */

/* A field's integer value; false if the record is too short for it. */
static inline bool map_field_u64(struct map_buffer *buf,
				 struct tep_record *rec,
				 struct tep_format_field *f, uint64_t *val)
{
	const void *p;

	if (!f || f->offset + f->size > rec->size)
		return false;
	p = (const char *)rec->data + f->offset;
	if (!buf->native) {
		*val = tep_read_number(buf->tep, p, f->size);
		return true;
	}
	switch (f->size) {
	case 1:
		*val = *(const uint8_t *)p;
		return true;
	case 2: {
		uint16_t v;

		__builtin_memcpy(&v, p, 2);
		*val = v;
		return true;
	}
	case 4: {
		uint32_t v;

		__builtin_memcpy(&v, p, 4);
		*val = v;
		return true;
	}
	case 8:
		__builtin_memcpy(val, p, 8);
		return true;
	}
	*val = tep_read_number(buf->tep, p, f->size);
	return true;
}
/*
 * @v as @a's value for a 64-bit argument type @a already has: an int32 or
 * uint32 instead when the value fits, which takes one word, not two.
 * Lossless where the reader takes the width from the event's format
 * (fxt2dat) or from elsewhere in the event (map-array.c's first element).
 */
static inline void map_arg_set_64(struct fxt_arg *a, uint64_t v)
{
	if (a->type == FXT_ARG_UINT64 && v <= UINT32_MAX) {
		a->type = FXT_ARG_UINT32;
		a->u32 = v;
	} else if (a->type == FXT_ARG_INT64 && (int64_t)v == (int32_t)v) {
		a->type = FXT_ARG_INT32;
		a->i32 = (int32_t)v;
	} else {
		a->u64 = v;
	}
}
/* A fixed array without a size ("char buf[]"): it runs to the record's end. */
static inline bool map_field_flexible(const struct tep_format_field *f)
{
	return !f->size && f->flags & TEP_FIELD_IS_ARRAY &&
	       !(f->flags & TEP_FIELD_IS_DYNAMIC);
}
bool map_field_span(struct tep_record *rec, struct tep_format_field *f,
		    unsigned int *off, unsigned int *len);
int map_field_str(struct tep_record *rec, struct tep_format_field *f,
		  const char **s);
bool map_field_printable(const char *p, unsigned int len);
void map_field_array_text(struct map_ctx *ctx, const unsigned char *p,
			  unsigned int len);
unsigned int map_field_trailing(struct map_event *me, struct tep_record *rec,
				unsigned int *start);

/* map-array.c: small integer arrays, one argument an element */
int map_array_classify(struct map_ctx *ctx, struct map_event *me);
unsigned int map_array_args(const struct map_field *mf,
			    const struct tep_record *rec, struct fxt_arg *args);

/*
 * map-text.c: "<field>.text" renderings by (field, value).  A lookup
 * that misses says where map_text_store() keeps the rendering made next.
 */
bool map_text_lookup(struct map_ctx *ctx, const struct map_field *mf,
		     uint64_t value, struct fxt_str *out);
void map_text_store(struct map_ctx *ctx, const struct map_field *mf,
		    uint64_t value, const char *text, size_t len);
void map_text_free(struct map_ctx *ctx);

/* The conversion's first error and its message (common/errmsg.h). */
#define map_set_error(ctx, e, ...) \
	errmsg_set(&(ctx)->err, (ctx)->errbuf, (ctx)->errlen, (e), __VA_ARGS__)

#endif /* _MAP_H */
