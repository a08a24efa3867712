/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-writer.h - stream FXT records to a file descriptor or a FILE.
 *
 * The writer owns the string and thread tables of every provider it has
 * written: callers hand it plain strings and (pid, tid) pairs and it emits
 * the string and thread records that the reader needs, reusing table
 * slots when a table is full.  Table slots are replaced in least recently
 * used order, approximated with a clock sweep so that a use costs one
 * store; slots that the record being written refers to are never taken.
 *
 * Strings reach the writer in one of three ways (struct fxt_str):
 *  - .id from fxt_writer_intern(): always indexed, no hashing per use;
 *    the fast path for category, event and argument names.
 *  - .id = 0 with .ptr/.len: the writer looks the text up and indexes it
 *    from its second use on; a string seen once goes inline, which is the
 *    smaller encoding for it.
 *  - .id = FXT_STR_INLINE: always inline.
 *
 * Records written before the first provider info record belong to no
 * provider: readers (and `trace-fxt check`) expect a provider first, so
 * start with fxt_write_provider_info().
 *
 * Every function returns 0 or a negative errno.  -E2BIG means the record
 * would not fit the format's size fields, -EINVAL a value the format
 * cannot encode (an unknown type, more than 15 arguments, a field out of
 * range); either way nothing at all was written, not even the string and
 * thread records the record would have needed.  (A string id that this
 * writer never gave out is -EINVAL too, but is only noticed while the
 * record's refs are resolved.)  Blobs and log messages too large for one
 * record are split into several records, never truncated.  A write error
 * is sticky: every later call returns it.
 */
#ifndef _FXT_WRITER_H
#define _FXT_WRITER_H

#include <stdio.h>

#include "fxt-format.h"

struct fxt_writer;

enum fxt_writer_flags {
	/* Write words big-endian whatever the host (for tests and BE hosts). */
	FXT_WRITER_BIG_ENDIAN		= 1 << 0,
	/* Never use the thread table: every thread ref is inline. */
	FXT_WRITER_INLINE_THREADS	= 1 << 1,
	/* Never use the string table for .id = 0 strings. */
	FXT_WRITER_INLINE_STRINGS	= 1 << 2,
	/* Compress the output as one gzip member, or one zstd stream (an
	 * fd writer only; see fxt-zio.h). */
	FXT_WRITER_GZIP			= 1 << 3,
	FXT_WRITER_ZSTD			= 1 << 4,
};

/*
 * Create a writer; the magic number record is its first record.
 * The fd or FILE stays the caller's: fxt_writer_close() flushes but does
 * not close it.
 */
struct fxt_writer *fxt_writer_create_fd(int fd, unsigned int flags);
struct fxt_writer *fxt_writer_create_fp(FILE *fp, unsigned int flags);

/* Flush buffered records; returns the sticky error if any. */
int fxt_writer_flush(struct fxt_writer *w);

/* Flush and free.  Returns the first error the writer met, or 0. */
int fxt_writer_close(struct fxt_writer *w);

/* Bytes handed to the output so far plus those still buffered. */
uint64_t fxt_writer_offset(const struct fxt_writer *w);

/*
 * Register @s (len bytes, not necessarily NUL terminated) and return its
 * id (> 0) for struct fxt_str.id, or a negative errno.  The same text
 * always gets the same id; ids are valid in every provider.
 */
int64_t fxt_writer_intern(struct fxt_writer *w, const char *s, size_t len);

/* Convenience: an fxt_str for an interned C string (id 0 on failure). */
struct fxt_str fxt_writer_str(struct fxt_writer *w, const char *s);

/*
 * Providers.  provider_info starts a provider (and makes it current);
 * provider_section switches back to one already started.  Each provider
 * has its own string and thread tables, as readers keep them.
 */
int fxt_write_provider_info(struct fxt_writer *w, uint32_t id,
			    const char *name, size_t len);
int fxt_write_provider_section(struct fxt_writer *w, uint32_t id);
int fxt_write_provider_event(struct fxt_writer *w, uint32_t id,
			     unsigned int event);

/* Initialization record: ticks per second of the timestamps that follow. */
int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second);

/* Any event type; args beyond FXT_MAX_ARGS are -EINVAL. */
int fxt_write_event(struct fxt_writer *w, const struct fxt_event *ev);

/*
 * Blob record.  A payload over one record's room is split into several
 * blob records of the same name, which the spec defines as appending to
 * one blob: a consumer joins them.
 */
int fxt_write_blob(struct fxt_writer *w, struct fxt_str name,
		   unsigned int type, const void *data, size_t size);

int fxt_write_userspace_object(struct fxt_writer *w, uint64_t pointer,
			       uint64_t pid, struct fxt_str name,
			       const struct fxt_arg *args, unsigned int nargs);

int fxt_write_kernel_object(struct fxt_writer *w, uint64_t koid,
			    unsigned int obj_type, struct fxt_str name,
			    const struct fxt_arg *args, unsigned int nargs);

/* The seed spec's context switch record: cpu and priorities are 8-bit. */
struct fxt_legacy_switch {
	uint64_t		ts;
	unsigned int		cpu;
	unsigned int		out_state;
	struct fxt_thread	out;
	struct fxt_thread	in;
	unsigned int		out_prio;
	unsigned int		in_prio;
};

int fxt_write_legacy_switch(struct fxt_writer *w,
			    const struct fxt_legacy_switch *cs);

/* Scheduling records (type 8, subtypes 1 and 2): 16-bit cpu, args. */
struct fxt_sched_switch {
	uint64_t		ts;
	unsigned int		cpu;
	unsigned int		out_state;
	uint64_t		out_tid;
	uint64_t		in_tid;
	unsigned int		nargs;
	const struct fxt_arg	*args;
};

struct fxt_sched_wakeup {
	uint64_t		ts;
	unsigned int		cpu;
	uint64_t		tid;
	unsigned int		nargs;
	const struct fxt_arg	*args;
};

int fxt_write_sched_switch(struct fxt_writer *w,
			   const struct fxt_sched_switch *cs);
int fxt_write_sched_wakeup(struct fxt_writer *w,
			   const struct fxt_sched_wakeup *wk);

/* Log record; a message longer than one record is split in several. */
int fxt_write_log(struct fxt_writer *w, uint64_t ts,
		  const struct fxt_thread *thread, const char *msg, size_t len);

/* Large blob record, format 0 (with metadata) or 1 (without). */
struct fxt_large_blob {
	unsigned int		format;
	struct fxt_str		category;
	struct fxt_str		name;
	/* format 0 only: */
	uint64_t		ts;
	struct fxt_thread	thread;
	unsigned int		nargs;
	const struct fxt_arg	*args;
	/* payload */
	const void		*data;
	uint64_t		size;
};

int fxt_write_large_blob(struct fxt_writer *w, const struct fxt_large_blob *lb);

/*
 * Write pre-encoded words verbatim (header included), for producers of
 * record types this writer does not model.  @nwords must match the size
 * in the header.
 */
int fxt_write_raw(struct fxt_writer *w, const uint64_t *words, size_t nwords);

#endif /* _FXT_WRITER_H */
