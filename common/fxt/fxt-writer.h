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
 * Tracy's importer (import-fuchsia.cpp) reads each string record into
 * the buffer that holds the last name it read, resized to the text's
 * length plus one, and keeps that last byte: a string shorter than the
 * name before it keeps a byte of that name ("cpu" read after "comm" is
 * "cpum"; a thread object's "process" argument then matches nothing and
 * no thread is named).  So before a string record shorter than the last
 * name Tracy read (of a string record, an event or a kernel object) the
 * writer puts an empty string record at index 0, which the specification
 * has every reader ignore and which shrinks Tracy's buffer to one byte:
 * 8 bytes each time, and every name reads whole there.
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

#include <stdbool.h>
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

/**
 * fxt_writer_create_fd() - a writer to a file descriptor
 * @fd: where records go; stays the caller's (fxt_writer_close() flushes
 *	but does not close it)
 * @flags: enum fxt_writer_flags
 *
 * The magic number record is the writer's first record.
 *
 * Return: the writer, or NULL with errno set.
 */
struct fxt_writer *fxt_writer_create_fd(int fd, unsigned int flags);

/**
 * fxt_writer_create_fp() - a writer to a stdio stream
 * @fp: where records go; stays the caller's
 * @flags: enum fxt_writer_flags
 *
 * Return: the writer, or NULL with errno set.
 */
struct fxt_writer *fxt_writer_create_fp(FILE *fp, unsigned int flags);

/* The largest payload of one blob record whose name is an indexed string. */
#define FXT_WRITER_NESTED_CAP	((FXT_MAX_RECORD_WORDS - 1) * 8)

/**
 * fxt_writer_create_nested() - a writer of records inside another's
 * @parent: the writer whose blob records carry this one's records, and
 *	    whose string ids this one shares
 * @name: the name of those blob records
 * @compress: each buffer of records (up to 256 KiB) one zstd frame, in
 *	      as many blob records of type FXT_BLOB_RECORDS_ZSTD as it
 *	      needs; else each (up to FXT_WRITER_NESTED_CAP bytes) one blob
 *	      record of type FXT_BLOB_RECORDS
 *
 * Records that readers of the parent's file may skip as a whole:
 * Perfetto's and Tracy's importers skip blob types they do not know.
 * The nested stream begins with its own magic number record and has its
 * own string and thread tables and current provider, so that its
 * records read the same wherever the parent's records fall between its
 * blobs; string ids from fxt_writer_intern() and fxt_writer_str() of
 * either writer are valid in both.  A buffer goes to @parent when full,
 * on fxt_writer_flush() and on fxt_writer_close(); records never straddle
 * two.  Large blob records are refused; without @compress a record larger
 * than FXT_WRITER_NESTED_CAP is -E2BIG.  @parent must outlive it.
 *
 * Return: the writer, or NULL with errno set.
 */
struct fxt_writer *fxt_writer_create_nested(struct fxt_writer *parent,
					    const char *name, bool compress);

/**
 * fxt_writer_keep_together() - records that belong in one blob
 * @w: a nested writer (any other ignores the call)
 * @on: true before the first of them, false after the last
 *
 * The records written between the two calls (an event and its
 * continuations, whose readers expect them one after the other) reach
 * the parent in one buffer, unless together they are larger than it.
 */
void fxt_writer_keep_together(struct fxt_writer *w, bool on);

/**
 * fxt_writer_flush() - hand buffered records to the output
 * @w: the writer
 *
 * Return: 0, or the sticky error.
 */
int fxt_writer_flush(struct fxt_writer *w);

/**
 * fxt_writer_close() - flush and free the writer
 * @w: the writer; invalid afterwards
 *
 * Return: the first error the writer met, or 0.
 */
int fxt_writer_close(struct fxt_writer *w);

/**
 * fxt_writer_offset() - how many bytes the writer has produced
 * @w: the writer
 *
 * Return: bytes handed to the output so far plus those still buffered.
 */
uint64_t fxt_writer_offset(const struct fxt_writer *w);

/**
 * fxt_writer_intern() - register a string for struct fxt_str.id
 * @w: the writer
 * @s: the text, not necessarily NUL-terminated
 * @len: its length
 *
 * The same text always gets the same id; ids are valid in every provider.
 *
 * Return: the id (> 0), or a negative errno.
 */
int64_t fxt_writer_intern(struct fxt_writer *w, const char *s, size_t len);

/**
 * fxt_writer_str() - an interned C string, ready for a record
 * @w: the writer
 * @s: NUL-terminated
 *
 * Return: the string with its id set (id 0 if interning failed, which
 * the writer then treats as a plain string).
 */
struct fxt_str fxt_writer_str(struct fxt_writer *w, const char *s);

/**
 * fxt_write_provider_info() - start a provider and make it current
 * @w: the writer
 * @id: the provider id
 * @name: its name (at most FXT_MAX_PROVIDER_NAME bytes)
 * @len: the name's length
 *
 * Each provider has its own string and thread tables, as readers keep
 * them; restating a provider's info empties them.
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_provider_info(struct fxt_writer *w, uint32_t id,
			    const char *name, size_t len);

/**
 * fxt_write_provider_section() - switch back to a provider already started
 * @w: the writer
 * @id: the provider id
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_provider_section(struct fxt_writer *w, uint32_t id);

/**
 * fxt_write_provider_event() - a provider event metadata record
 * @w: the writer
 * @id: the provider id
 * @event: enum fxt_provider_event (FXT_PROVIDER_EVENT_BUFFER_FULL)
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_provider_event(struct fxt_writer *w, uint32_t id,
			     unsigned int event);

/**
 * fxt_write_init() - an initialization record
 * @w: the writer
 * @ticks_per_second: the unit of the timestamps that follow
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second);

/**
 * fxt_write_event() - an event record of any event type
 * @w: the writer
 * @ev: the event; at most FXT_MAX_ARGS arguments
 *
 * Return: 0, -EINVAL for more arguments or an unknown type, -E2BIG for a
 * record too large, or another negative errno.
 */
int fxt_write_event(struct fxt_writer *w, const struct fxt_event *ev);

/**
 * fxt_write_blob() - a blob record, split when large
 * @w: the writer
 * @name: the blob's name
 * @type: enum fxt_blob_type
 * @data: the payload
 * @size: its length
 *
 * A payload over one record's room is split into several blob records of
 * the same name, which the spec defines as appending to one blob: a
 * consumer joins them.
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_blob(struct fxt_writer *w, struct fxt_str name,
		   unsigned int type, const void *data, size_t size);

/**
 * fxt_write_userspace_object() - a userspace object record
 * @w: the writer
 * @pointer: the object's address
 * @pid: the process it lives in
 * @name: its name
 * @args: its arguments
 * @nargs: how many (at most FXT_MAX_ARGS)
 *
 * Return: 0 or a negative errno.
 */
int fxt_write_userspace_object(struct fxt_writer *w, uint64_t pointer,
			       uint64_t pid, struct fxt_str name,
			       const struct fxt_arg *args, unsigned int nargs);

/**
 * fxt_write_kernel_object() - a kernel object record (names a koid)
 * @w: the writer
 * @koid: the object
 * @obj_type: enum fxt_koid_type
 * @name: its name
 * @args: its arguments
 * @nargs: how many (at most FXT_MAX_ARGS)
 *
 * Return: 0 or a negative errno.
 */
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

/**
 * fxt_write_legacy_switch() - the seed spec's context switch record
 * @w: the writer
 * @cs: the switch; cpu and priorities must fit 8 bits
 *
 * Return: 0, -EINVAL for a value out of range, or a negative errno.
 */
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

/**
 * fxt_write_sched_switch() - a context switch scheduling record
 * @w: the writer
 * @cs: the switch; a 16-bit cpu, at most FXT_MAX_ARGS arguments
 *
 * Return: 0, -EINVAL for a value out of range, or a negative errno.
 */
int fxt_write_sched_switch(struct fxt_writer *w,
			   const struct fxt_sched_switch *cs);

/**
 * fxt_write_sched_wakeup() - a thread wakeup scheduling record
 * @w: the writer
 * @wk: the wakeup; a 16-bit cpu, at most FXT_MAX_ARGS arguments
 *
 * Return: 0, -EINVAL for a value out of range, or a negative errno.
 */
int fxt_write_sched_wakeup(struct fxt_writer *w,
			   const struct fxt_sched_wakeup *wk);

/**
 * fxt_write_log() - a log record, split when long
 * @w: the writer
 * @ts: its timestamp
 * @thread: the thread that logged it
 * @msg: the message, not necessarily NUL-terminated
 * @len: its length
 *
 * A message longer than one record is split in several, never inside a
 * UTF-8 character.
 *
 * Return: 0 or a negative errno.
 */
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

/**
 * fxt_write_large_blob() - a large blob record
 * @w: the writer
 * @lb: the blob, format 0 (with metadata) or 1 (without)
 *
 * Return: 0, -E2BIG for a payload past the 32-bit size field, or a
 * negative errno.
 */
int fxt_write_large_blob(struct fxt_writer *w, const struct fxt_large_blob *lb);

/**
 * fxt_write_raw() - pre-encoded words, verbatim
 * @w: the writer
 * @words: the record, header included
 * @nwords: how many words; must match the size in the header
 *
 * For producers of record types this writer does not model.
 *
 * Return: 0, -EINVAL when @nwords is 0 or disagrees with the header, or
 * a negative errno.
 */
int fxt_write_raw(struct fxt_writer *w, const uint64_t *words, size_t nwords);

#endif /* _FXT_WRITER_H */
