/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datcheck-intern.h - what the parts of the .dat check (datcheck-*.c)
 * share: the state of one check (struct dc_file), the bytes being walked
 * (struct dc_cur), and each part's calls into the others.
 *
 * The walk reads what libtracecmd 3.1.6 reads, in the same order and with
 * the same counts, but every size, offset and count is first compared with
 * what contains it: the file, a section, a decompressed section, a page.
 * Only what can make those libraries read out of bounds, loop or fail
 * unsafely is refused; anything they handle with an error of their own is
 * left to them.
 */
#ifndef _DATCHECK_INTERN_H
#define _DATCHECK_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dat-format.h"
#include "datcheck.h"

/* what no real recording exceeds; beyond it the libraries' sizes wrap */
#define DC_SEC_HEADER		16	/* v7: id 2, flags 2, string 4, size 8 */
#define DC_MIN_PAGE		4096u
#define DC_MAX_PAGE		(1u << 24)
#define DC_MAX_CPUS		65536u
#define DC_MAX_INFLATE		(512u << 20)
#define DC_MAX_OPT_SECTIONS	256
#define DC_MAX_BUFFERS		4096
/* where CPU data a file cut short lacks may still end (1 TB) */
#define DC_MAX_CUT		(1ull << 40)

/*
 * libtracecmd opens latency traces (text, no ring-buffer pages), but its
 * per-CPU calls then crash on them (tracecmd_get_first_ts): refused.
 */
#define DC_LATENCY	"latency trace: its data is text, not ring-buffer " \
			"pages; nothing to convert"

/* One buffer's CPU data, known from its option, checked once headers are. */
struct dc_buffer {
	char		*name;		/* "" for the top buffer */
	uint64_t	section;	/* v7: its BUFFER section; v6: 0 */
	uint32_t	page_size;
	uint32_t	cpus;
	uint64_t	opt_at;		/* where the option lies, for messages */
	const uint8_t	*cpu_list;	/* cpus x (cpu 4, offset 8, size 8) */
	/*
	 * v7, salvaging a file cut short: a buffer whose BUFFER option
	 * (after its data) is lost, its CPU list rebuilt from its
	 * chunks, owned
	 */
	uint8_t		*cpu_list_owned;
};

/*
 * A CPU's data, walked once everything else checked good; or a part of
 * a compressed CPU's chunks (dc_cpu_parts()).
 */
struct dc_job {
	uint64_t	off, size;
	uint32_t	page_size;
	bool		compressed;
	const char	*buffer;	/* its buffer's name */
	unsigned int	cpu;
	/* a part: its chunks, the first at @from past @off; not the first */
	uint64_t	from, chunks;
	bool		cont;
	/* salvaging, its chunks' headers in a chain to the data's end */
	bool		chained;
	uint64_t	good_chunks;	/* the merge's: chunks inflated */
	/* salvaging, the file ends before its data does */
	bool		cut;
	/* v7 cut short: its size runs to its buffer's end (list rebuilt) */
	bool		rebuilt;
};

/*
 * A damaged stretch one job's salvaging walk found (struct dat_damage):
 * its events and times so far as the job knows them, the merge makes
 * them the CPU's.
 */
struct dc_region {
	uint64_t	off, len;
	bool		inflated;
	bool		garbled;	/* dat_damage's */
	uint64_t	in_off, in_len;
	uint64_t	events_before;	/* the job's good ones before */
	bool		after;		/* a good one of the job follows */
	uint64_t	ts_before, ts_after;
	char		*why;
};

/* A watched record a job met, its payload in the job's blob. */
struct dc_job_rec {
	unsigned int	event;
	uint64_t	ts;
	size_t		at;		/* into blob */
	uint32_t	len;
};

/*
 * What one job's walk left, for dc_jobs_merge() to take in job order: as
 * if the jobs had been walked one after the other.
 */
struct dc_job_out {
	bool			ran;
	int			ret;
	char			*err;		/* errlen bytes */
	uint8_t			*ids;		/* DATCHECK_IDS_BYTES */
	struct datcheck_watch	watch;		/* into recs and blob */
	struct dc_job_rec	*recs;
	size_t			nr, max;
	uint8_t			*blob;
	size_t			used, size;
	/* salvaging: the damage, the good events and chunks walked */
	struct dc_region	*regions;
	unsigned int		nr_regions;
	uint64_t		events, chunks;
	uint64_t		first_ts, last_ts;
};

/* A format text as libtracecmd will hand it to tep_parse_event(). */
struct dc_format {
	char		*system;
	char		*text;
	size_t		len;
	uint64_t	at;		/* its offset, or its section's */
	int		id;		/* its "ID:" line's, -1: none read */
};

/*
 * The format parser's child (dc_probe_start()): it parses formats
 * [first, first + nr) while the parent walks the CPU data.
 */
struct dc_probe {
	pid_t		pid;		/* 0: none running */
	int		fd;		/* reads the index it is at */
	unsigned int	first, nr;
};

struct dc_file {
	const uint8_t	*p;
	size_t		len;
	bool		big;
	bool		v7;
	bool		zstd;
	unsigned int	long_size;
	unsigned int	commit_size;	/* header_page's commit: 4 or 8 */
	uint32_t	page_size;
	uint32_t	cpus;		/* v6: header count, CPUCOUNT option */
	bool		has_clock;	/* a TRACECLOCK option was seen */
	/* libtracecmd moves the records' times (DATE, OFFSET, ...) */
	bool		times_moved;
	/* a buffer lists its CPUs other than as 0..n-1 */
	bool		cpus_renumbered;
	/*
	 * salvaging a file cut short in its CPU data: the size the view
	 * takes so that every CPU's data lies in it (its missing bytes
	 * zeros), and that it is cut
	 */
	bool		cut;
	uint64_t	view_len;
	/*
	 * v7 cut short: the options section the chain led out of the file
	 * to (the view writes the rebuilt BUFFER options there), the first
	 * options section's description, the end of the sections read,
	 * the clock the TRACECLOCK option selects
	 */
	uint64_t	cut_opt;
	uint32_t	opt_desc;
	uint64_t	sections_end;
	char		clock[32];
	bool		walk_rebuilt;	/* the buffer walked: list rebuilt */
	/*
	 * the instances the CPUSTAT options name ("Buffer: NAME"), in
	 * order, each with the CPUs whose stats follow; the top buffer's
	 * CPUs are those before the first
	 */
	char		**stat_names;
	uint32_t	*stat_cpus;
	unsigned int	nr_stat;
	uint32_t	top_stat_cpus;
	/* every CPUSTAT's CPU number ("CPU: N"), buffer after buffer */
	uint32_t	*stat_ids;
	size_t		nr_stat_ids;
	uint64_t	sections[DAT_OPTION_NR];
	struct dc_buffer *bufs;
	unsigned int	nr_bufs;
	struct dc_format *fmts;		/* every format text, for the probe */
	unsigned int	nr_fmts;
	/* where the event formats and kallsyms lie (datcheck_view()) */
	uint64_t	events_at, kallsyms_end;	/* v6: both, in turn */
	const char	*kallsyms;	/* the text, in the file or owned */
	size_t		kallsyms_len;
	uint8_t		*kallsyms_owned;	/* decompressed */
	struct dc_probe	probe;
	/* what the caller watches for, and where the walk is */
	const struct datcheck_watch *watch;
	uint32_t	watch_id[DATCHECK_MAX_WATCH];	/* event ID + 1 */
	const char	*walk_buffer;
	unsigned int	walk_cpu;
	unsigned int	flags;		/* enum datcheck_flags */
	uint8_t		*ids;		/* event IDs the records have (bits) */
	/*
	 * salvaging: the event IDs the formats have (bits; NULL when a
	 * format's ID cannot be read), and where a job's walk puts the
	 * damage it meets instead of failing (NULL: it fails)
	 */
	uint8_t		*known;
	/*
	 * salvaging, by event ID: the bytes its format's fields take
	 * (0: no format read), and whether it has fields of no fixed size
	 * (bits): an event shorter than that has a header that lies
	 */
	uint16_t	*ev_size;
	uint8_t		*ev_dyn;
	bool		join_not;	/* dc_salvage(): a stretch of its own */
	struct dc_job_out *salvage;
	/* the merge's: every job's damage, by CPU in file order */
	struct dat_damage *damage;
	size_t		nr_damage;
	struct dc_job	*jobs;		/* every CPU's data, in file order */
	unsigned int	nr_jobs;
	/* the walk of the jobs, shared by the threads that call it */
	struct dc_job_out *outs;	/* by job, merged in order after */
	unsigned int	next_job;	/* atomic: the next job to take */
	bool		stop;		/* atomic: a job failed */
	bool		probe_started;	/* atomic */
	char		*err;
	size_t		errlen;
	int		ret;
};

/* Bytes being walked: the file, or one decompressed section of it. */
struct dc_cur {
	struct dc_file	*f;
	const uint8_t	*p;
	size_t		len;
	size_t		pos;
	uint64_t	base;		/* file offset of p[0], or the section's */
	bool		inflated;
	const char	*in;		/* what contains the bytes, for messages */
};

struct datcheck {
	struct dc_file	f;
};

/* A number of @n bytes at @p in the file's byte order (on every event). */
static inline uint64_t dc_num(const struct dc_file *f, const uint8_t *p,
			      unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[f->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static inline bool dc_pow2_page(uint64_t v)
{
	return v >= DC_MIN_PAGE && v <= DC_MAX_PAGE && !(v & (v - 1));
}

/*
 * datcheck-cursor.c: the first fault, at @pos of @c, in f->err (returns
 * f->ret; a later fault leaves the first); what follows the cursor taken
 * once it is known to be there (NULL, or -EBADMSG, and the fault set when
 * it is not): @n bytes, an @n-byte number, a NUL-terminated string, a
 * blob after its @sz-byte size.
 */
int __attribute__((format(printf, 3, 4)))
dc_fail(struct dc_cur *c, size_t pos, const char *fmt, ...);
const uint8_t *dc_take(struct dc_cur *c, uint64_t n, const char *what);
int dc_u(struct dc_cur *c, unsigned int n, const char *what, uint64_t *v);
const char *dc_str(struct dc_cur *c, const char *what);
int dc_blob(struct dc_cur *c, unsigned int sz, const char *what);

/* datcheck-meta.c: the metadata bodies, as both versions lay them out. */
int dc_headers(struct dc_cur *c);
int dc_ftrace_formats(struct dc_cur *c);
int dc_event_formats(struct dc_cur *c);
int dc_kallsyms(struct dc_cur *c);
int dc_printk(struct dc_cur *c);
int dc_cmdlines(struct dc_cur *c);

/* datcheck-options.c */
bool dc_clock_ok(const uint8_t *text, size_t len);
int dc_options(struct dc_cur *c, uint64_t *next);

/* datcheck-sections.c: version 7's file. */
int dc_v7(struct dc_cur *c);

/* datcheck-jobs.c */
int dc_cpu_data(struct dc_cur *file, uint64_t off, uint64_t size,
		uint32_t page_size, bool compressed, size_t opt_at);
void dc_jobs_merge(struct dc_file *f);
void dc_jobs_free(struct dc_file *f);
/*
 * The chunks the reader of compressed job @i's CPU reads (after the
 * merge): those the walk inflated when salvaging, however many the
 * count says, else the count.
 */
uint64_t dc_chunks_read(const struct dc_file *f, unsigned int i);

/* datcheck-pages.c */
int dc_pages(struct dc_cur *c, size_t at, uint64_t size, uint32_t page_size);
/*
 * Salvaging an uncompressed CPU's data at @at of @size bytes that the
 * file ends inside of (or before): its whole pages walked, the complete
 * events of a last page cut short kept when its commit word holds, and
 * the rest said lost.
 */
int dc_pages_cut(struct dc_cur *c, size_t at, uint64_t size,
		 uint32_t page_size, bool rebuilt);
/*
 * Salvaging a CPU's data from @data_at to @data_end that the file ends
 * inside of (or before): the bytes from @pos (where what was read of it
 * ends) to @data_end kept as damage, saying the cut.  @rebuilt: v7's CPU
 * list was rebuilt, @data_end is the buffer's, the CPUs after this one
 * lost with it.
 */
int dc_cut_tail(struct dc_cur *c, uint64_t pos, uint64_t data_at,
		uint64_t data_end, bool rebuilt);
uint8_t *dc_inflate(struct dc_cur *c, size_t at, const uint8_t *p,
		    uint64_t csize, uint64_t usize);
int dc_cpu_chunks(struct dc_cur *file, size_t at, uint64_t pos,
		  uint64_t count, uint32_t page_size);
/*
 * Salvaging: a compressed CPU's chunks from @pos (its first one's
 * header) past @at, the CPU's data, up to @end past @at: @count of them
 * in a chain (@chained: a part, its headers known to hold), else as
 * many as look like chunks, a damaged one skipped to the next that does.
 */
int dc_cpu_chunks_salvage(struct dc_cur *file, size_t at, uint64_t pos,
			  uint64_t count, uint64_t end, uint32_t page_size,
			  bool chained);
/* Whether a chunk's header at @p (@left bytes to the data's end) holds. */
bool dc_chunk_plausible(const struct dc_file *f, const uint8_t *p,
			uint64_t left, uint32_t page_size);

/* datcheck-probe.c */
void dc_probe_start(struct dc_file *f);
int dc_probe_finish(struct dc_file *f, bool judge);

/* datcheck-head.c: everything a check holds freed (not @f itself). */
void dc_free(struct dc_file *f);

#endif /* _DATCHECK_INTERN_H */
