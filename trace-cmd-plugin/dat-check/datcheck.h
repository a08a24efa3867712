/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datcheck.h - walk a trace.dat (file versions 6 and 7) against its own
 * size before libtracecmd and libtraceevent are handed it.
 *
 * libtracecmd 3.1.6 trusts what it reads: a header cut short makes it
 * free twice, a ring-buffer page whose commit field exceeds the page makes
 * libtraceevent's kbuffer read past it, an option without its terminating
 * NUL is strdup'ed off the end.  The check follows every size, offset and
 * count those libraries will follow - the initial header, header_page and
 * header_event, the event formats, kallsyms, printk, cmdlines, the options
 * (chained option sections in v7), every section and its compression
 * header, the CPU data of every buffer page by page (zstd chunks
 * decompressed), and each event header inside the pages - and refuses the
 * first thing that lies outside the file or outside its container.
 * Latency traces (text instead of pages) are refused too: libtracecmd
 * opens them, but its per-CPU calls crash on them.  Last, the event
 * formats are parsed by libtraceevent in a child process: one its parser
 * crashes or hangs on is refused (about as long as libtracecmd's own
 * parse of the ~2300 formats of a real recording, so trace-fxt convert
 * reads the file in a child instead and asks only when that child died:
 * DATCHECK_NO_PROBE, datcheck_file_formats()).
 */
#ifndef _DATCHECK_H
#define _DATCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dat-layout.h"

/*
 * Check the @len bytes at @p.  0 when libtracecmd may read them; -EBADMSG
 * with "offset 0x...: what is wrong" in @err otherwise (-ENOMEM when
 * memory ran out).
 */
int datcheck_buf(const uint8_t *p, size_t len, char *err, size_t errlen);
/*
 * The same on the file at @path (mapped, file-map.h); -errno when it
 * cannot be (-ENODEV: it is no regular file).
 */
int datcheck_file(const char *path, char *err, size_t errlen);

/*
 * A record of a watched event, as the walk meets it: each CPU's records
 * in their order, one CPU after the other, buffer after buffer.  Its
 * bytes last for the call only.
 */
struct datcheck_record {
	const char	*buffer;	/* the buffer's name, "" for the top */
	unsigned int	cpu;		/* the CPU's place in its buffer */
	unsigned int	event;		/* index into datcheck_watch.events */
	uint64_t	ts;		/* ring-buffer clock, as the pages say */
	const uint8_t	*data;		/* the payload, common_type first */
	uint32_t	len;
};

/*
 * Records a caller wants from the walk, which decompresses and visits
 * every record anyway: the events @events names, found by the name and
 * ID lines that open their format texts.  record() returning
 * non-zero ends the watch (not the check).  Records are handed over as
 * the walk meets them, before the file is known to be good: a caller
 * keeps them only once the check returned 0.
 */
struct datcheck_watch {
	const struct dat_event_name *events;
	unsigned int		nr_events;	/* at most DATCHECK_MAX_WATCH */
	int			(*record)(const struct datcheck_record *r,
					  void *priv);
	void			*priv;
};
#define DATCHECK_MAX_WATCH	8

/* What a check may leave out (the flags of the calls below). */
enum datcheck_flags {
	/*
	 * The format parser in a child (about as long as libtracecmd's own
	 * parse): for a caller that runs libtracecmd in a child itself and
	 * asks datcheck_file_formats() only when that child died.
	 */
	DATCHECK_NO_PROBE	= 1 << 0,
	/* the CPU data: the headers, options and formats only */
	DATCHECK_NO_PAGES	= 1 << 1,
	/*
	 * A fault in the CPU data does not fail the check: the page (from
	 * the fault on) or zstd chunk is listed as damaged (struct
	 * dat_damage, datcheck_layout()) and the walk goes on with the
	 * next one.  A record whose event ID no format has is a fault then
	 * (the conversion would stop at it), and so is one shorter than its
	 * format's fields (its header lies).  A file cut short in its CPU
	 * data keeps what it has, the rest listed as damaged (v7: the CPU
	 * lists lost with the end rebuilt from zstd chunks).  Faults
	 * anywhere else still fail it.
	 */
	DATCHECK_SALVAGE	= 1 << 2,
};

/* datcheck_buf() and datcheck_file() handing @w the records it asks for. */
int datcheck_buf_watch(const uint8_t *p, size_t len,
		       const struct datcheck_watch *w, unsigned int flags,
		       char *err, size_t errlen);
int datcheck_file_watch(const char *path, const struct datcheck_watch *w,
			unsigned int flags, char *err, size_t errlen);

/*
 * The check in its three steps, for a caller that lets libtracecmd read
 * the headers while the pages are walked: datcheck_head() checks all but
 * the CPU data (0 and *@dc, or the error, nothing left to free);
 * datcheck_pages() walks the CPU data - on any number of threads at
 * once, each taking the next CPU's data until none is left (the outcome
 * is that of one walk in file order: the first fault, the watched
 * records in order, handed over by the calls below once every caller
 * returned); datcheck_end() waits for the format probe, frees @dc and
 * returns the check's result.
 */
struct datcheck;
int datcheck_head(const uint8_t *p, size_t len,
		  const struct datcheck_watch *w, unsigned int flags,
		  char *err, size_t errlen, struct datcheck **dc);
int datcheck_pages(struct datcheck *dc);
int datcheck_end(struct datcheck *dc);

/*
 * After datcheck_pages() walked them good (or salvaged them): where each
 * CPU's pages lie, for the input plugin's page reader (struct
 * dat_pages), or nothing (nr 0) when libtracecmd must read them (see
 * dat-layout.h), and with DATCHECK_SALVAGE what was damaged, as the
 * reader skips it.  0 or -ENOMEM; free with datcheck_layout_free().
 */
int datcheck_layout(struct datcheck *dc, struct dat_pages *out);
void datcheck_layout_free(struct dat_pages *pages);

/* A bit for each event ID (a record's common_type): 65536 of them. */
#define DATCHECK_IDS_BYTES	(65536 / 8)

/*
 * After datcheck_pages() walked them good: into @ids (DATCHECK_IDS_BYTES),
 * bit n set when a record of event ID n is in the file.  0, or -ENODATA
 * when the pages were not walked or are not good.
 */
int datcheck_ids(struct datcheck *dc, uint8_t *ids);

/*
 * The file's headers and formats, the formats parsed in a child: which
 * one libtraceevent's parser crashes or hangs on (-EBADMSG, @err saying
 * which), after something that read the file died.
 */
int datcheck_file_formats(const char *path, char *err, size_t errlen);

/*
 * datcheck_file() with @flags, keeping copies of the records of @events
 * (datcheck-keep.c) in @out when the file checked good: out->complete
 * says they are all there (not when they took more memory than a pass
 * over the file costs).  Free with datcheck_recs_free().
 */
int datcheck_file_keep(const char *path,
		       const struct dat_event_name *events,
		       unsigned int nr_events, unsigned int flags,
		       struct dat_recs *out, char *err, size_t errlen);
void datcheck_recs_free(struct dat_recs *recs);

/*
 * datcheck_file_keep() in two halves: datcheck_keep_start() checks all
 * but the CPU data and leaves the pages to a thread of its own (0 and
 * *@run, or the error); datcheck_keep_finish() waits for it and returns
 * what datcheck_file_keep() would, with the layout of the pages in @pages
 * (datcheck_layout()) and the event IDs of the records in @ids
 * (datcheck_ids(); all bits set when unknown) where they are not NULL.  In between, libtracecmd may read the
 * file's headers and formats (tracecmd_open_head()), not its CPU data.
 */
struct datcheck_keep_run;
int datcheck_keep_start(const char *path,
			const struct dat_event_name *events,
			unsigned int nr_events, unsigned int flags,
			struct datcheck_keep_run **run, char *err,
			size_t errlen);
/*
 * The calling thread walks CPU data too, beside datcheck_keep_start()'s,
 * until none is left (a thread that has nothing else to do meanwhile).
 */
void datcheck_keep_help(struct datcheck_keep_run *run);
int datcheck_keep_finish(struct datcheck_keep_run *run,
			 struct dat_recs *out,
			 struct dat_pages *pages, uint8_t *ids);

/*
 * Between datcheck_keep_start() and datcheck_keep_finish(): the check, for
 * the calls below.
 */
struct datcheck *datcheck_keep_check(struct datcheck_keep_run *run);
/*
 * Wait for the walk of the pages (datcheck_keep_help() first, to take a
 * part in it): 0 and the IDs of the records in @ids (datcheck_ids()),
 * *@complete set when every record asked for was kept; or the check's
 * fault, which datcheck_keep_finish() then returns too.
 */
int datcheck_keep_walk(struct datcheck_keep_run *run, uint8_t *ids,
		       bool *complete);

/*
 * The file as libtracecmd is to read it for a conversion, in a file of
 * its own (a memfd: *@fd, which the caller closes), after datcheck_head():
 * the same bytes at the same offsets, but for what libtracecmd spends
 * most of its opening on and a converter does without or does itself -
 * the event formats (no system in them: parse those the records use,
 * datcheck_formats()) and the kallsyms (none: datcheck_kallsyms() gives
 * the text) - and but for the CPU data, zeros until datcheck_view_data().
 * The "ftrace" system's formats, printk formats, command lines, options
 * and every offset are the file's.  0, or a negative errno.
 */
int datcheck_view(struct datcheck *dc, int *fd);
/*
 * The CPU data libtracecmd reads of the view @fd: where @pages says the
 * plugin's page reader reads the rest (pages->nr not 0), what libtracecmd
 * reads before it does - each CPU's first page (tracecmd_get_first_ts()),
 * its last pages back to one with an event (tracecmd_read_cpu_last()),
 * of a compressed CPU every chunk's header and the first and last chunks;
 * else (@pages NULL or empty) all of it.
 * After the pages were walked, before the check ends.  0 or -EIO.
 */
int datcheck_view_data(struct datcheck *dc, int fd,
		       const struct dat_pages *pages);
/*
 * The file's kallsyms text (its size in *@len; not NUL-ended), until the
 * check ends; NULL and 0 when it has none.
 */
const char *datcheck_kallsyms(struct datcheck *dc, size_t *len);
/*
 * @fn on each event format libtracecmd would parse from the file but the
 * "ftrace" system's (those it parses from the view), in the file's order,
 * with its system and text: those whose event ID has its bit set in @ids
 * (DATCHECK_IDS_BYTES; NULL: all of them), and those whose ID cannot be
 * read.  Ends at @fn's first non-zero return, which it returns; else how
 * many formats were handed over.
 */
typedef int (*datcheck_format_fn)(const char *system, const char *text,
				  size_t len, void *priv);
int datcheck_formats(struct datcheck *dc, const uint8_t *ids,
		     datcheck_format_fn fn, void *priv);

#endif /* _DATCHECK_H */
