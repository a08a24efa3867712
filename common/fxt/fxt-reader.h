/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-reader.h - decode an FXT archive record by record.
 *
 * The reader takes a file (memory-mapped when it can be, read in chunks
 * when it cannot, e.g. a pipe), a memory buffer or a file descriptor.  The
 * byte order comes from the magic record (host order when there is none).
 * It keeps the string and thread tables of every provider and resolves
 * refs, so records come out with plain strings and (pid, tid) pairs.
 *
 * fxt_reader_next() fills a struct fxt_record whose pointers stay valid
 * until the next call.  Unknown record and argument types are delivered
 * as such (the record's bytes in .raw, no decoded fields) and skipped by
 * their size.  Records before any provider record belong to provider 0,
 * as in Perfetto's tokenizer, which registers it when it starts.
 *
 * A record whose size cannot be trusted (0, or past the end of the
 * input) ends the iteration with an error naming its offset; every
 * record before it was delivered.  A record whose size is sound but whose
 * contents are not (fields or arguments running past it, an argument of
 * size 0, ...) is skipped, as Perfetto parses each record within the size
 * its header gives: counted and kept as an FXT_WARN_MALFORMED warning,
 * and the reader goes on with the next record.  No input makes the
 * reader read out of bounds, allocate more than a small multiple of the
 * input size, or loop.
 *
 * With FXT_READER_STRICT the reader also enforces everything the
 * specification requires (reserved bits zero, zero padding, known types,
 * refs to set table entries, exact argument sizes, ...) and stops at the
 * first fault, a malformed record included: that is `trace-fxt check`.
 * Without it, those faults are tolerated: an unset string ref reads as
 * the empty string, an unset thread ref as pid 0 / tid 0.
 *
 * Some deviations are warnings, not faults (enum fxt_warn_kind): what the
 * specification tells readers to skip (reserved record, event, argument
 * and metadata types, words past the fields a record or argument needs),
 * and what every reader reads alike though its writer may have meant
 * otherwise.  They never stop the reader, strict or not, unless
 * FXT_READER_PEDANTIC is given with FXT_READER_STRICT; without
 * FXT_READER_STRICT the refs a lenient read resolved to nothing are
 * warnings too.  Each record with one is counted
 * (fxt_reader_warned_records(), fxt_reader_warned() by kind), the first
 * of each kind is kept (fxt_reader_first_warning(), fxt_reader_warning()),
 * fxt_reader_tally() says them all at once, and a callback may see every
 * one.
 */
#ifndef _FXT_READER_H
#define _FXT_READER_H

#include "fxt-format.h"

struct fxt_reader;

enum fxt_reader_flags {
	FXT_READER_STRICT	= 1 << 0,
	/* Read with read(2) even when the input could be mapped. */
	FXT_READER_STREAM	= 1 << 1,
	/* With FXT_READER_STRICT: warnings are faults too. */
	FXT_READER_PEDANTIC	= 1 << 2,
	/*
	 * A blob record of the file's own stream that the file ends
	 * within is given as far as it goes (blob.cut set, blob.size the
	 * payload's bytes there) before the truncation is said: a reader
	 * of a stream carried in blobs (Perfetto's packets) keeps what of
	 * it the cut left.
	 */
	FXT_READER_CUT_BLOB	= 1 << 3,
};

/* What a warning says of its record. */
enum fxt_warn_kind {
	/* Skipped (a reserved type), or not read in full. */
	FXT_WARN_PARTIAL,
	/* Lenient readers: a sound size, bad contents; skipped whole. */
	FXT_WARN_MALFORMED,
	/*
	 * Read in full, as Perfetto reads it, where its writer most likely
	 * meant something else (a rate before any provider record, then a
	 * provider) or the specification is silent (a context switch
	 * leaving a thread "running").
	 */
	FXT_WARN_NOTE,
	/*
	 * Strict readers only (`trace-fxt check`): a value the
	 * specification allows that a viewer does not take whole (a CPU
	 * Perfetto's importer stops on, a koid it cuts to 32 bits).  Not
	 * a fault of the file: the warning names the viewer and its limit,
	 * for the file's writer to know.
	 */
	FXT_WARN_VIEWER,
	FXT_WARN_KINDS
};

/* Called with each warning, "FILE: offset 0x...: what is odd". */
typedef void (*fxt_reader_warn_fn)(void *priv, const char *msg);

/*
 * Records of a nested stream (blob types FXT_BLOB_RECORDS and
 * FXT_BLOB_RECORDS_ZSTD) have offsets of their own, which
 * fxt_reader_seek() takes: this bit, the offset of the frame's first
 * blob record shifted by FXT_NEST_BITS, and the record's byte in the
 * frame, a frame being at most FXT_NEST_MAX bytes.
 */
#define FXT_OFFSET_NESTED	(1ULL << 62)
#define FXT_NEST_BITS		20
#define FXT_NEST_MAX		(1u << FXT_NEST_BITS)

struct fxt_record {
	unsigned int	type;		/* enum fxt_record_type */
	uint64_t	offset;		/* of the header word in the input */
	uint64_t	size;		/* bytes, header included */
	const void	*raw;		/* the record's bytes, as in the input */
	uint32_t	provider_id;	/* current provider (0 before any) */
	/*
	 * Read from the payload of a blob of records (FXT_BLOB_RECORDS):
	 * a nested stream, whose string and thread tables are its own.
	 */
	bool		nested;
	/*
	 * An event record's arguments that a lazy reader (see
	 * fxt_reader_set_lazy()) left undecoded, after its event.nargs
	 * decoded ones; 0 otherwise.
	 */
	unsigned int	args_left;

	union {
		struct {
			unsigned int		type;	/* enum fxt_metadata_type */
			uint32_t		provider_id;
			struct fxt_str		name;	/* provider info */
			unsigned int		event;	/* provider event */
			unsigned int		info_type; /* trace info */
			uint32_t		magic;
		} meta;
		struct {
			uint64_t		ticks_per_second;
		} init;
		struct {
			uint16_t		index;
			struct fxt_str		str;
		} string;
		struct {
			uint8_t			index;
			struct fxt_thread	thread;
		} thread;
		struct fxt_event		event;
		struct {
			struct fxt_str		name;
			unsigned int		type;
			const void		*data;
			uint32_t		size;
			bool			cut;	/* FXT_READER_CUT_BLOB */
		} blob;
		struct {
			uint64_t		pointer;
			uint64_t		pid;
			struct fxt_str		name;
			unsigned int		nargs;
			const struct fxt_arg	*args;
		} uobj;
		struct {
			uint64_t		koid;
			unsigned int		obj_type;
			struct fxt_str		name;
			unsigned int		nargs;
			const struct fxt_arg	*args;
		} kobj;
		struct {
			unsigned int		subtype; /* enum fxt_sched_type */
			uint64_t		ts;
			unsigned int		cpu;
			unsigned int		out_state;
			struct fxt_thread	out;	/* legacy: pid and tid */
			struct fxt_thread	in;	/* new: tid only */
			unsigned int		out_prio; /* legacy only */
			unsigned int		in_prio;
			unsigned int		nargs;	/* new only */
			const struct fxt_arg	*args;
		} sched;		/* switch and wakeup (wakeup: in = waking) */
		struct {
			uint64_t		ts;
			struct fxt_thread	thread;
			struct fxt_str		msg;
		} log;
		struct {
			unsigned int		large_type;
			unsigned int		format;
			struct fxt_str		category;
			struct fxt_str		name;
			uint64_t		ts;
			struct fxt_thread	thread;
			unsigned int		nargs;
			const struct fxt_arg	*args;
			const void		*data;
			uint64_t		size;
		} large;
	};
};

/**
 * fxt_reader_open() - read an FXT file
 * @path: the file (memory-mapped when it can be, read in chunks if not)
 * @flags: enum fxt_reader_flags
 *
 * Return: the reader, or NULL with errno set.
 */
struct fxt_reader *fxt_reader_open(const char *path, unsigned int flags);

/**
 * fxt_reader_open_fd() - read FXT from a file descriptor
 * @fd: the input; not closed by the reader
 * @name: what error messages call it
 * @flags: enum fxt_reader_flags
 *
 * Return: the reader, or NULL with errno set.
 */
struct fxt_reader *fxt_reader_open_fd(int fd, const char *name,
				      unsigned int flags);

/**
 * fxt_reader_open_mem() - read FXT from memory
 * @buf: the bytes; must outlive the reader
 * @len: their number
 * @name: what error messages call it
 * @flags: enum fxt_reader_flags
 *
 * Return: the reader, or NULL with errno set.
 */
struct fxt_reader *fxt_reader_open_mem(const void *buf, size_t len,
				       const char *name, unsigned int flags);

/**
 * fxt_reader_close() - free the reader (and unmap its input)
 * @r: the reader, or NULL
 */
void fxt_reader_close(struct fxt_reader *r);

/**
 * fxt_reader_next() - decode the next record
 * @r: the reader
 * @rec: filled with the record; its pointers stay valid until the next
 *	 call
 *
 * Return: 1 with a record, 0 at a clean end of input, or a negative errno
 * (-EBADMSG malformed, -EIO read error, -ENOMEM) with fxt_reader_error()
 * describing the fault.
 */
int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec);

/**
 * fxt_reader_error() - what stopped the reader
 * @r: the reader
 *
 * Return: "FILE: offset 0x...: what is wrong", or NULL if no error
 * occurred.
 */
const char *fxt_reader_error(const struct fxt_reader *r);

/**
 * fxt_reader_offset() - where the reader is
 * @r: the reader
 *
 * Return: the offset of the faulty record, or of the next record to read.
 */
uint64_t fxt_reader_offset(const struct fxt_reader *r);

/**
 * fxt_reader_seek() - read again from a record read before
 * @r: a reader of mapped or memory input
 * @offset: that record's struct fxt_record.offset
 * @provider_id: its struct fxt_record.provider_id
 *
 * Refs resolve with the string and thread tables as they are now: the
 * record reads as it first did when no index it uses was set again since.
 * A fault that stopped the reader is forgotten.
 *
 * Return: 0, or -EINVAL (stream input, nothing read yet, an offset past
 * the input or not a multiple of 8, a provider never seen).
 */
int fxt_reader_seek(struct fxt_reader *r, uint64_t offset,
		    uint32_t provider_id);

/**
 * fxt_reader_text_epoch() - while a string's place says its text
 * @r: the reader
 *
 * A record's strings point into mapped or memory input, whose bytes
 * never change, or into the reader's own memory: a stream's buffer, a
 * frame of nested records inflated, the copies of their string tables.
 * That memory is reused, and a place seen before may then hold another
 * text.  The epoch changes whenever it may be; while it stays the same,
 * a string at the place and of the length of one seen before is the
 * same text (a loader caches what it made of a record's strings by their
 * places).
 *
 * Return: the epoch, never 0.
 */
uint64_t fxt_reader_text_epoch(const struct fxt_reader *r);

/**
 * fxt_reader_set_lazy() - decode an event's arguments only when asked
 * @r: a lenient reader (not FXT_READER_STRICT)
 * @lazy: true from the next record on, false to decode every argument
 *	  again
 *
 * A loader that keeps only where most records are (to read them again
 * with fxt_reader_seek() when shown) spends most of its time decoding
 * arguments it drops.  A lazy reader decodes an event record's header,
 * timestamp, thread, category, name and first argument (what tells a
 * record of trace-fxt's converter apart); the other arguments are left,
 * counted in struct fxt_record.args_left, for fxt_reader_args().  They
 * are still checked for what would stop the reader, so a lazy read stops
 * where a full one does, with the same error; what a full read would only
 * warn about in them (unset string refs, reserved argument types, words
 * past a value) is said when fxt_reader_args() decodes them, or never.
 * Records other than events are always decoded in full.
 *
 * Return: 0, or -EINVAL for a strict reader, which must see every
 * argument.
 */
int fxt_reader_set_lazy(struct fxt_reader *r, bool lazy);

/**
 * fxt_reader_args() - decode the arguments a lazy read left
 * @r: the reader
 * @rec: the record that fxt_reader_next() last filled
 *
 * Before the next call of fxt_reader_next() or fxt_reader_seek(), decodes
 * @rec's struct fxt_record.args_left arguments: @rec's event then has all
 * of them in event.args and event.nargs, as a full read gives them, and
 * args_left is 0.  Nothing is done when args_left is already 0.
 *
 * Return: 0, or -EINVAL when @rec is not the record last read.
 */
int fxt_reader_args(struct fxt_reader *r, struct fxt_record *rec);

/* Let @fn see every warning from now on (NULL: none). */
void fxt_reader_set_warn(struct fxt_reader *r, fxt_reader_warn_fn fn,
			 void *priv);
/* How many records so far had a warning, of any kind. */
uint64_t fxt_reader_warned_records(const struct fxt_reader *r);
/* The first warning, "FILE: offset 0x...: ...", or NULL if none. */
const char *fxt_reader_first_warning(const struct fxt_reader *r);
/* How many records so far had a warning of @kind (each counted once). */
uint64_t fxt_reader_warned(const struct fxt_reader *r,
			   enum fxt_warn_kind kind);
/* The first warning of @kind, or NULL if none. */
const char *fxt_reader_warning(const struct fxt_reader *r,
			       enum fxt_warn_kind kind);

/**
 * fxt_reader_tally() - what a lenient read skipped, said once
 * @r: the reader
 * @prefix: put before each line (the program's name)
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 *
 * One line per kind of warning the read met: "<prefix>N records
 * malformed, skipped; the first: FILE: offset 0x...: ...\n", then those
 * skipped or not read in full, then those read as Perfetto reads them.
 * Every program that reads leniently says this, and only this, about
 * the records it could not take as they came.
 *
 * Return: the length the whole text needs, as snprintf() returns it (0:
 * nothing to say).
 */
int fxt_reader_tally(const struct fxt_reader *r, const char *prefix,
		     char *buf, size_t size);

/**
 * fxt_reader_big_endian() - the input's byte order
 * @r: the reader
 *
 * Return: true if the magic record was big-endian.
 */
bool fxt_reader_big_endian(const struct fxt_reader *r);

/**
 * fxt_reader_ticks_per_second() - the unit of the current timestamps
 * @r: the reader
 *
 * Return: the current provider's ticks per second (1e9 until an
 * initialization record).
 */
uint64_t fxt_reader_ticks_per_second(const struct fxt_reader *r);

/**
 * fxt_reader_provider_name() - the name of a provider seen so far
 * @r: the reader
 * @id: the provider id
 *
 * Return: the name, valid until that provider's info is restated or the
 * reader is closed (copy it to keep it), or NULL for an unknown id.
 */
const char *fxt_reader_provider_name(const struct fxt_reader *r, uint32_t id);

#endif /* _FXT_READER_H */
