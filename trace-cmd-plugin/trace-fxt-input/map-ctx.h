/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-ctx.h - the data the ftrace-to-FXT mapping works on: one conversion
 * (struct map_ctx), its buffers (one FXT provider each), what it knows of
 * each event format, field, task and CPU.
 *
 * Types only: each map-*.c file declares what it offers in its own
 * map-*.h, and a file includes the headers of the files it calls and
 * no other (README.md says in which order a record meets them).
 */
#ifndef _MAP_CTX_H
#define _MAP_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

#include "errmsg.h"
#include "fxt-input.h"
#include "fxt-writer.h"
#include "fxt-zio.h"
#include "map-residue.h"
#include "tcfxt.h"

struct dat_meta_text;
struct map_damage_cpu;

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
	struct fxt_str		text_name;	/* name + ".text": has_text, strings */
	struct fxt_str		*elem_names;	/* MAP_FIELD_ELEMS: "name[k]" */
	enum map_field_kind	kind;
	unsigned int		arg_type;	/* enum fxt_arg_type */
	bool			has_text;	/* -R prints it by print fmt */
	bool			ptr_like;	/* the print format shows a %p */
	bool			sym_field;	/* may point at a kernel symbol */
	bool			printk_field;	/* may point at a printk string */
	bool			dev;		/* a dev_t (perfetto-dev.h) */
	/* map-ftrace.c: a generic event of its event carries it */
	bool			in_generic;
};

struct map_special;
#define MAP_SPECIAL_FIELDS	24

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
	/*
	 * map-dispatch.c: no typed packet says it, so the packets have it
	 * as Perfetto's generic ftrace event (unless --fxt-records)
	 */
	bool			generic;
	/*
	 * map_ftrace_generic(), map_ftrace_print(): its described events'
	 * FtraceEvent field (PFT_DESCRIBED_FIRST and up), 0 until its
	 * first, MAP_PKT_LEGACY when too many fields to describe (a legacy
	 * generic event then); and their GenericEventDescriptor,
	 * @pkt_desc_len bytes
	 */
#define MAP_PKT_LEGACY		1
	uint32_t		pkt_id;
	uint8_t			*pkt_desc;
	size_t			pkt_desc_len;
	bool			user_data;	/* user_events: bytes past fields */
	/* map-dispatch.c: its row in the table of special events, or NULL */
	const struct map_special *special;
	struct tep_format_field	*sf[MAP_SPECIAL_FIELDS];	/* its fields */
	/*
	 * map-ftrace.c: how many of the packet row's fields to look at when
	 * they are all integers (its last used one's place + 1), + 1; -1:
	 * not all integers; 0: not known yet
	 */
	int8_t			pkt_ints;
	/* map-ftrace.c: the packet row's dev_t fields, a bit each */
	uint32_t		pkt_devs;
	/* map-formats.c: which fields it looks at, decided on first use */
	bool			fmts_ready;
	unsigned int		*fmts_idx;	/* those fields, in order */
	unsigned int		nr_fmts;
	/* map-residue.c: its decl of each form, + 1 */
	uint32_t		res_decl[MAP_RES_NR_FORMS];
	/*
	 * its packets hold what a field says, not its bytes (map-marker.c:
	 * a print's text without its newline): the residue keeps them all
	 */
	bool			pkt_text_only;
};

/* Per buffer: one FXT provider. */
struct map_buffer {
	struct tracecmd_input	*handle;
	struct tep_handle	*tep;
	bool			native;		/* file byte order is the host's */
	const char		*name;		/* "top" or the instance name */
	uint32_t		provider_id;
	/*
	 * tracecmd_get_first_ts() of the handle, read before the reading
	 * thread starts: it reads the CPUs' sizes, which reading changes.
	 */
	uint64_t		first_ts;
	/* map_event by event id, filled on first use */
	struct map_event	**events;
	int			nr_events;
	/* map-damage.c: by CPU, what the host's check skipped, or NULL */
	struct map_damage_cpu	*damage;
	int			nr_damage_cpus;
};

struct map_formats;
struct map_pkt;
struct map_res;
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
	/*
	 * map-ftrace.c: its task_newtask went into the packets, where
	 * Perfetto starts it Runnable (its sched_wakeup_new then stays its
	 * own event: map-sched.c)
	 */
	bool			newtask_pkt;
	/* map-sched.c: a hash of the name the packets gave it last, 0 none */
	uint32_t		comm_hash;
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
	/*
	 * switched in last, -1 unknown; in Perfetto packets (map-sched.c):
	 * the last switch's next_pid, as Perfetto's importer holds it for
	 * the next compact switch, -1 until the CPU's first switch
	 */
	int32_t			cur;
	uint64_t		cur_ts;	/* packets: that switch's time */
	/*
	 * packets: the task every record of the CPU since @seen_ts ran in
	 * (map_sched_seen()), -1 none yet; a switch starts its next's run
	 * (map-sched.c: the run of a CPU's first switch's prev, and of a
	 * task whose switch in the recording lost)
	 */
	int32_t			seen;
	uint64_t		seen_ts;
	/*
	 * packets: the time of the CPU's latest record, and of the latest
	 * before the run since @seen_ts (where a lost switch in to the task
	 * of that run happened after, map_switch_lost_in())
	 */
	uint64_t		last_ts;
	uint64_t		before_ts;
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
	/*
	 * Where instants go: @w with --fxt-records (every record FXT's), else
	 * a nested writer whose records @w carries in blob records of type
	 * FXT_BLOB_RECORDS, which Perfetto skips: it reads each event once,
	 * from the packets (map-convert.c, map_nest_start()).
	 */
	struct fxt_writer	*iw;
	const struct fxt_input_opts *opts;
	struct map_buffer	*bufs;
	int			nr_bufs;
	struct map_buffer	*cur;		/* provider now current (iw) */
	struct map_buffer	*wcur;		/* in w: map_w() */
	struct tracecmd_input	*top;
	const struct dat_recs	*kept;		/* the host's, for map-tgid */
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
	struct map_pkt		*pkt;		/* map-packet.c's state */
	struct map_res		*res;		/* map-residue.c's (--once) */
	bool			once;		/* map_res_on() */
	/* map-ftrace.c: the next described generic event's field */
	uint32_t		next_desc_id;
	struct map_eh		*eh;		/* map-eventheader.c's state */
	struct map_text		*text;		/* map-text.c's cache */
	struct dat_meta_text	*procmaps;	/* the PROCMAPS texts */
	int			nr_procmaps;
	bool			procmaps_read;
	char			*saved_tgids;	/* the option's text, or NULL */
	/* map_name()'s memory: the program's own strings, by address */
	struct map_name_memo {
		const char	*key;
		struct fxt_str	str;
	}			names[MAP_NAME_MEMO];
	uint64_t		records_in;
	uint64_t		events_out;
	/* a buffer has damage (map-damage.c); the latest record's time */
	bool			damaged;
	uint64_t		last_ts;
	/*
	 * The record being mapped: its common_pid, read once by
	 * map_record() for every handler (libtraceevent's tep_data_pid()
	 * costs ~90 instructions a call).
	 */
	int32_t			rec_pid;
	int			err;
	char			*errbuf;
	size_t			errlen;
};

/* The conversion's first error and its message (common/util/errmsg.h). */
#define map_set_error(ctx, e, ...) \
	errmsg_set(&(ctx)->err, (ctx)->errbuf, (ctx)->errlen, (e), __VA_ARGS__)

/*
 * Where a buffer's functions are looked up (kallsyms): the host's own
 * handle of them when it gives one (fxt_input_opts.functions), else the
 * buffer's @tep.
 */
static inline struct tep_handle *map_functions(const struct map_ctx *ctx,
					       struct tep_handle *tep)
{
	const struct fxt_input_opts *o = ctx->opts;

	return o->functions ? o->functions(o->functions_priv) : tep;
}

/*
 * The file's own writer for a record derived from the record being
 * mapped, its provider made that record's first: the instants' writer
 * switches provider at every record, this one only when it is written.
 * A failed switch is the writer's sticky error, which the write returns.
 */
static inline struct fxt_writer *map_w(struct map_ctx *ctx)
{
	if (ctx->wcur != ctx->cur && ctx->cur) {
		fxt_write_provider_section(ctx->w, ctx->cur->provider_id);
		ctx->wcur = ctx->cur;
	}
	return ctx->w;
}

/*
 * Whether the Perfetto packets are deflated inside the file: not when
 * zstd compresses the whole file, which finds more in them raw, for
 * about the time deflating them took (and a reader then inflates
 * nothing: KernelShark opens such a file of them sooner).  The nested
 * records stay zstd frames there.  igzip's fast level finds less in raw
 * packets than deflating them does: a .fxt.gz keeps them deflated.
 */
static inline bool map_packets_deflated(const struct fxt_input_opts *o)
{
	return o->compress != FXT_ZIP_ZSTD;
}

#endif /* _MAP_CTX_H */
