/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt2dat.h - FXT -> trace-cmd .dat v7: the internals of fxt2dat_convert()
 * and of the records report-tep.c rebuilds (fxt-tep.h is the contract).
 *
 * fxt2dat-convert.c drives the conversion (passes, the record loop, one
 * branch per record type); fxt2dat-meta.c reads the converter's own
 * trace-cmd:* instants; fxt2dat-ftrace.c restores the ftrace events of
 * FXT that trace-fxt made from a .dat; fxt2dat-fxt.c turns any other FXT
 * event and log into an event of the "fxt" system; fxt2dat-sched.c turns
 * context switches and wakeups into sched_switch / sched_waking.  They
 * build records with fxt2dat-format.c (formats and payloads), hand them
 * to fxt2dat-out.c (sink, dry run, memory or the .dat writer) and look
 * things up in fxt2dat-table.c.
 */
#ifndef _FXT2DAT_H
#define _FXT2DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errmsg.h"
#include "fxt-reader.h"
#include "fxt-threads.h"
#include "fxt-tep.h"
#include "tcfxt.h"
#include "u64-map.h"

/*
 * The fields every ftrace event starts with, as the kernel describes them
 * (64-bit kernel): the head of each format text fxt2dat makes.
 */
#define F2D_COMMON_FIELDS \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

struct dat_writer;
struct tep_handle;
struct tep_event;
struct tep_format_field;
struct f2d_ctx;

/*
 * Where rebuilt records go when no .dat is written (trace-fxt report):
 * set in f2d_ctx.sink, f2d_emit() hands every record to it.
 */
typedef int (*f2d_sink_fn)(struct f2d_ctx *ctx, int buffer, unsigned int cpu,
			   uint64_t ts, const void *data, size_t len);

/* The names of the events the "fxt" system has. */
#define F2D_SYSTEM		TCFXT_SYSTEM_FXT
/*
 * Ids of generated formats: far above what kernels hand out, and below
 * 32768, as KernelShark keeps event ids in an int16_t (higher ones read
 * as negative ids, events without a name).
 */
#define F2D_FIRST_ID		30000

/* One event format known to the conversion, parsed into ctx->tep. */
struct f2d_format {
	struct f2d_format	*next;		/* hash chain */
	struct tep_event	*event;
	char			*system;
	char			*name;
	char			*text;		/* as registered */
	size_t			len;
	struct tep_format_field	**fields;	/* not the common ones */
	unsigned int		nr_fields;
	struct tep_format_field	*c_type, *c_flags, *c_preempt, *c_pid;
	int			id;
	unsigned int		fixed;		/* bytes before dynamic data */
	bool			restored;	/* from trace-cmd:event_format */
	bool			no_print;	/* print fmt not parsed */
};

struct f2d_prov {
	uint32_t	id;
	int		buffer;
	bool		ftrace;		/* made by trace-fxt from a .dat */
	/* buffer full with no CPU named: lost before the next event
	 * (count, -1 unknown, 0 nothing pending) */
	int64_t		lost;
};

/* A record being built, and where it goes. */
struct f2d_rec {
	uint8_t		*data;
	size_t		len, cap;
	int		buffer;
	unsigned int	cpu;
	uint64_t	ts;
	bool		big;		/* numbers big endian */
};

enum f2d_pending {
	F2D_PEND_NONE,
	F2D_PEND_EVENT,		/* a restored ftrace event, more in .cont */
	F2D_PEND_FORMAT,
	F2D_PEND_KALLSYMS,
	F2D_PEND_PRINTK,
	F2D_PEND_HEADERS,
};

struct f2d_text {
	char		*s;
	size_t		len, cap;
};

struct f2d_ctx {
	struct fxt_reader	*r;
	struct dat_writer	*w;		/* NULL in a dry run */
	int			fd;
	const struct fxt2dat_opts *opts;
	bool			dry;		/* measure only */
	bool			sorted;		/* keep, sort, then write */
	struct tep_handle	*tep;
	/* the child that parses the input's formats first (NULL: none) */
	struct f2d_probe	*probe;
	struct f2d_format	*fmt_hash[256];
	struct f2d_format	**fmt_list;
	unsigned int		nr_fmts;
	int			next_id;
	struct f2d_prov		*provs;
	unsigned int		nr_provs;
	struct f2d_prov		*cur;
	char			**buf_names;	/* by buffer index */
	unsigned int		nr_bufs;
	/* what the file says about itself (trace-cmd:file_info) */
	bool			have_info;
	unsigned int		info_cpus, info_page_size, info_long_size;
	/*
	 * The source .dat was big endian: records are rebuilt, and the
	 * .dat written, in its order, so that bytes the FXT carries as
	 * they were (EventHeader payloads, arrays) mean what they meant.
	 */
	bool			info_big;
	struct f2d_text		clock, uname, version, cpustats;
	/* the saved tgids ("pid tgid" lines): a Perfetto trace's */
	struct f2d_text		tgids;
	struct f2d_text		header_page, header_event, kallsyms, printk;
	/* needs found by a dry run (or the failed optimistic pass) */
	unsigned int		cpus;
	unsigned int		page_size;
	unsigned int		max_cpu;
	size_t			max_len;
	bool			unordered;
	/*
	 * dry run: last time per (buffer, cpu): last_at maps
	 * buffer << 16 | cpu to an index + 1 into last_ts
	 */
	struct u64_map		last_at;
	uint64_t		*last_ts;
	bool			need_rerun;
	/* the record being built */
	enum f2d_pending	pending;
	struct f2d_rec		rec;
	struct f2d_format	*rec_fmt;
	unsigned int		rec_field;	/* next field to match */
	struct f2d_text		ptext;		/* texts being gathered */
	struct f2d_text		psystem, pname;
	int			pid;
	/*
	 * task names of converted providers: thread koid -> name (a char *,
	 * f2d_name_set()'s copy); the .dat's cmdlines are written in its slot
	 * order
	 */
	struct u64_map		names;
	/*
	 * converted threads in another task's thread group: thread koid
	 * -> its thread object's "process" koid, written back as the
	 * .dat's saved tgids
	 */
	struct u64_map		groups;
	/*
	 * Other providers' threads (fxt-threads.h), learnt by the dry run
	 * and numbered before the pass that writes; NULL when a host feeds
	 * the records (their tids are the pids then).
	 */
	struct fxt_threads	*threads;
	/*
	 * CPUs: the dry run notes each one used (a bit each, 65536); the
	 * pass that writes puts FXT CPU c on .dat CPU cpu_map[c] (NULL: c).
	 */
	uint64_t		*cpu_used;
	const uint16_t		*cpu_map;
	/* thread koid -> last CPU + 1, from context switches */
	struct u64_map		cpu_of;
	/* sorted mode: every record, sorted at the end */
	struct f2d_keep		*keep;
	size_t			nr_keep, cap_keep;
	/* f2d_kept_sort()'s room for the first of two runs it merges */
	struct f2d_keep		*run;
	size_t			cap_run;
	struct f2d_text		arena;
	struct f2d_text		arena_args;	/* encoded args of fxt events */
	uint8_t			*scratch;
	size_t			scratch_cap;
	struct fxt2dat_stats	*st;
	f2d_sink_fn		sink;		/* not NULL: no writer */
	void			*sink_priv;
	int			err;
	char			*errbuf;
	size_t			errlen;
};

/* A thread as the .dat shows it: its pid, and its name (NULL: none). */
struct f2d_task {
	int32_t		pid;
	const char	*name;
};

struct f2d_keep {
	uint64_t	ts;
	uint64_t	seq;
	size_t		off, len;
	int		buffer;
	unsigned int	cpu;
	int64_t		lost;		/* not 0: a lost-events mark */
};

/*
 * The files, each calling only the ones listed after it (and the core):
 * one FXT record goes down this list once, never back up.
 */

/* fxt2dat-convert.c: the passes and the record loop, by record type. */
/*
 * Records fed one by one by a host that owns the reading loop, rebuilt
 * events going to @sink: init, feed (any record; the .dat side of each
 * is done as fxt2dat_convert does it), flush what is still being built
 * (before the host prints anything itself), free (not ctx->r, not the
 * tep if the host took it back by clearing ctx->tep).
 */
void fxt2dat_feed_init(struct f2d_ctx *ctx, struct tep_handle *tep,
		       f2d_sink_fn sink, void *priv, struct fxt2dat_stats *st,
		       char *err, size_t errlen);
int fxt2dat_feed(struct f2d_ctx *ctx, const struct fxt_record *rec);
int fxt2dat_feed_flush(struct f2d_ctx *ctx);
void fxt2dat_feed_free(struct f2d_ctx *ctx);

/* fxt2dat-meta.c: the converter's trace-cmd:* instants. */
int f2d_meta_event(struct f2d_ctx *ctx, const struct fxt_event *ev);
/* More text of the pending metadata, from a ".cont" instant. */
int f2d_meta_cont(struct f2d_ctx *ctx, const struct fxt_event *ev);
/* The pending metadata text is whole: keep it where it belongs. */
int f2d_meta_flush(struct f2d_ctx *ctx);

/* fxt2dat-ftrace.c: ftrace events restored from their instants. */
int f2d_ftrace_start(struct f2d_ctx *ctx, struct f2d_format *f,
		     const struct fxt_event *ev);
int f2d_ftrace_args(struct f2d_ctx *ctx, const struct fxt_arg *args,
		    unsigned int nargs);
int f2d_ftrace_flush(struct f2d_ctx *ctx);

/* fxt2dat-fxt.c: any other event as fxt/<type>, logs as fxt/log. */
int f2d_fxt_event(struct f2d_ctx *ctx, const struct fxt_record *rec);
int f2d_fxt_log(struct f2d_ctx *ctx, const struct fxt_record *rec);

/* fxt2dat-sched.c: context switches and wakeups as sched events. */
int f2d_sched(struct f2d_ctx *ctx, const struct fxt_record *rec);

/*
 * fxt2dat-probe.c: whether libtraceevent survives parsing a format text,
 * asked of a child process.
 */
struct f2d_probe;
/*
 * Whether @text (@len bytes, a C string) of @system parses in the child,
 * within the time a format and the file's formats may take; asked now
 * unless it was asked ahead.
 */
bool f2d_probe_survives(struct f2d_ctx *ctx, const char *system,
			const char *text, size_t len);
/*
 * Start the child now, while the host is small, if none is: each page
 * the host writes while a child lives is copied first.  0, or a negative
 * errno (the first question tries again).
 */
int f2d_probe_start(struct f2d_ctx *ctx);
/*
 * Ask of @text now, its answer read when f2d_probe_survives() asks for
 * it: 0, or a negative errno (not asked).
 */
int f2d_probe_ahead(struct f2d_ctx *ctx, const char *system,
		    const char *text, size_t len);
/* The child ends, every answer forgotten; the next question forks one. */
void f2d_probe_stop(struct f2d_ctx *ctx);
/* How many texts were asked since the last stop: each once, ahead or not. */
size_t f2d_probe_asked(const struct f2d_ctx *ctx);

/* fxt2dat-format.c: the formats, and records built by them. */
struct f2d_format *f2d_format_find(struct f2d_ctx *ctx, const char *system,
				   size_t slen, const char *name, size_t nlen);
/* How f2d_format_add() takes a format text. */
enum f2d_format_flags {
	/* the input's trace-cmd:event_format: its events rebuilt by it */
	F2D_FORMAT_RESTORED	= 1 << 0,
	/*
	 * made by this program, or read from the kernel's formats (tracefs,
	 * the folder the user named), not from the input: parsed in this
	 * process, without the child that survives what a hostile text does
	 * to libtraceevent (its fork and round trips are most of a small
	 * trace's load)
	 */
	F2D_FORMAT_TRUSTED	= 1 << 1,
};

/*
 * Parse and keep a format text (@flags: enum f2d_format_flags); hand it
 * to the writer if there is one (otherwise fxt2dat-out.c does when it
 * creates the writer).
 */
int f2d_format_add(struct f2d_ctx *ctx, const char *system, const char *text,
		   size_t len, unsigned int flags, struct f2d_format **out);
/* A generated format of @system/@name (format text after "ID: n\n"). */
struct f2d_format *f2d_format_make(struct f2d_ctx *ctx, const char *system,
				   const char *name, const char *body);
void f2d_formats_free(struct f2d_ctx *ctx);
/*
 * A format of the input the host will add (f2d_format_add(), not
 * trusted) later: its parse is tried now (f2d_probe_ahead()).  0, or a
 * negative errno, which costs nothing but the time it would have saved.
 */
int f2d_format_foresee(struct f2d_ctx *ctx, const char *system,
		       const char *text, size_t len);
/*
 * The formats a host gathered are all parsed: the child process that
 * tried them ends (a format after this forks another).  Alive, it shares
 * the host's pages, and each the host then writes (a KernelShark load's
 * entries, in heap memory freed before) is copied first.
 */
static inline void f2d_formats_settled(struct f2d_ctx *ctx)
{
	f2d_probe_stop(ctx);
}
/* Start ctx->rec in format @f for @pid: zeroed fixed part, common set. */
int f2d_rec_begin(struct f2d_ctx *ctx, struct f2d_format *f, int pid);
/* @len more zeroed bytes at the end of @r; NULL when out of memory. */
uint8_t *f2d_rec_room(struct f2d_rec *r, size_t len);
/* Field helpers: by the parsed field, or by name for generated formats. */
void f2d_put_field_int(struct f2d_rec *r, struct tep_format_field *fl,
		       uint64_t v);
void f2d_put_field_bytes(struct f2d_rec *r, struct tep_format_field *fl,
			 const uint8_t *p, size_t n);
/* A text of @len bytes; a dynamic or flexible field's ends in a NUL. */
void f2d_put_field_str(struct f2d_rec *r, struct tep_format_field *fl,
		       const char *s, size_t len);
void f2d_put_int(struct f2d_rec *r, struct f2d_format *f, const char *field,
		 uint64_t v);
void f2d_put_str(struct f2d_rec *r, struct f2d_format *f, const char *field,
		 const char *s, size_t len);
void f2d_put_bytes(struct f2d_rec *r, struct f2d_format *f,
		   const char *field, const void *p, size_t n);

/* fxt2dat-out.c: where rebuilt records go. */
int f2d_emit(struct f2d_ctx *ctx, int buffer, unsigned int cpu, uint64_t ts,
	     const void *data, size_t len);
/* Events lost on @buffer's @cpu before its next event (-1: how many is
 * unknown). */
int f2d_lost(struct f2d_ctx *ctx, int buffer, unsigned int cpu, uint64_t ts,
	     int64_t count);
/* Buffer @i (a provider's) into the .dat, if the writer exists yet. */
int f2d_out_add_buffer(struct f2d_ctx *ctx, unsigned int i);
/*
 * The events kept since the @from'th (ctx->nr_keep then) in the order
 * they are written in (ctx->sorted): a source whose stretches of one CPU
 * are each in several runs of time sorts each stretch as it ends, so
 * that f2d_out_finish() finds the CPU's events in order.
 */
void f2d_kept_sort(struct f2d_ctx *ctx, size_t from);
/*
 * @tgid (pid -> its thread group) as the kernel's saved_tgids text into
 * ctx->tgids, the .dat's option: "pid tgid" lines in pid order.
 */
int f2d_tgids_text(struct f2d_ctx *ctx, const struct u64_map *tgid);
/* Page size that holds an event of @len payload bytes. */
unsigned int f2d_page_for(size_t len);
/*
 * What the conversion numbers otherwise than the FXT: the threads as
 * fxt_threads_mapping() says them (when assigned), then the CPUs of
 * @cpu_map (may be NULL), "cpu C -> D"; at most @max of each (0: all),
 * joined by @sep.  Returns the length the text needs (snprintf()).
 */
int f2d_renumbering(const struct fxt_threads *threads, const uint16_t *cpu_map,
		    char *buf, size_t size, size_t max, const char *sep);
/* Write what is kept, the file's metadata, and close the .dat. */
int f2d_out_finish(struct f2d_ctx *ctx);
void f2d_out_free(struct f2d_ctx *ctx);

/* fxt2dat-table.c: lookups, and the texts everything keeps. */
struct f2d_prov *f2d_prov_get(struct f2d_ctx *ctx, uint32_t id);
/*
 * The index of the .dat buffer named @name ("" the top one, 0), added if
 * new (before the writer exists, or f2d_out_add_buffer() after) and the
 * buffers are fewer than @max; -ENOSPC when they are not, -ENOMEM.
 */
int f2d_buffer_named(struct f2d_ctx *ctx, const char *name,
		     unsigned int max);
int f2d_name_set(struct f2d_ctx *ctx, uint64_t koid, struct fxt_str s);
const char *f2d_name_of(struct f2d_ctx *ctx, uint64_t koid);
/*
 * The thread (@pid, @tid) of the current provider's record (@by_tid: a
 * scheduling record's, named by @tid alone) as the .dat shows it: in a
 * converted provider the tid is the pid; another producer's thread has
 * the task id and name fxt-threads.h gives it.
 */
struct f2d_task f2d_task_of(struct f2d_ctx *ctx, uint64_t pid, uint64_t tid,
			    bool by_tid);
/* The .dat CPU of FXT CPU @cpu (the dry run notes it as used). */
unsigned int f2d_dat_cpu(struct f2d_ctx *ctx, unsigned int cpu);
unsigned int f2d_cpu_of(struct f2d_ctx *ctx, uint64_t tid);
void f2d_cpu_set(struct f2d_ctx *ctx, uint64_t tid, unsigned int cpu);
uint64_t f2d_ns(struct f2d_ctx *ctx, uint64_t ticks);
void f2d_tables_free(struct f2d_ctx *ctx);
/* @len more bytes at the end of @t (NUL after them) to write into. */
char *f2d_text_room(struct f2d_text *t, size_t len);
int f2d_text_add(struct f2d_text *t, const char *s, size_t len);
int f2d_text_set(struct f2d_text *t, struct fxt_str s);
void f2d_text_free(struct f2d_text *t);

/*
 * report-tep.c: a rebuilt record handed to libtraceevent, as a ring
 * buffer's page holds it.  @p keeps it, zeros after it (what a damaged
 * record's text or __data_loc may point at), from one record to the next.
 */
struct f2d_pad {
	uint8_t		*data;
	size_t		cap;
	size_t		used;		/* the record's length; zeros after */
};

struct trace_seq;
struct tep_record;

/*
 * @data (@len bytes, of CPU @cpu at @ts) into @p and @rec; -EINVAL when
 * not even its common fields can be read safely by @tep's formats,
 * -ENOMEM.
 */
int f2d_pad_record(struct f2d_pad *p, struct tep_handle *tep,
		   struct tep_record *rec, unsigned int cpu, uint64_t ts,
		   const void *data, size_t len);
void f2d_pad_free(struct f2d_pad *p);
/*
 * What KernelShark shows of @rec: libtraceevent's TEP_PRINT_INFO and
 * TEP_PRINT_LATENCY texts, through @s, each malloc'ed with one final
 * newline dropped, NULL when empty.
 */
void f2d_record_texts(struct tep_handle *tep, struct trace_seq *s,
		      struct tep_record *rec, char **info, char **latency);

/* The conversion's first error and its message (common/util/errmsg.h). */
#define f2d_error(ctx, e, ...) \
	errmsg_set(&(ctx)->err, (ctx)->errbuf, (ctx)->errlen, (e), __VA_ARGS__)

#endif /* _FXT2DAT_H */
