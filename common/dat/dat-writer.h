/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dat-writer.h - write trace-cmd .dat files, file version 7.
 *
 * The files are what trace-cmd 3.x records: an initial header, metadata
 * sections (header_page/header_event, ftrace and event formats, kallsyms,
 * printk formats, saved command lines), one options section, one
 * "buffer flyrecord" section per buffer holding per-CPU kernel ring-buffer
 * pages, and the strings section.  Multi-byte numbers are in the byte
 * order opts.big_endian chooses (little endian by default), everywhere:
 * headers, sections, options, pages and the events' common fields.  The
 * bytes a caller hands in (payloads, raw records, option data) are
 * written as they are, so they must be in that order too.
 *
 * Events are encoded into ring-buffer pages as they arrive and the full
 * pages are spooled to one unlinked temporary file (opts.tmpdir, else
 * $TMPDIR, else /tmp); memory holds one open page per buffer and CPU plus
 * an index of the spooled pages.  dat_writer_close() lays the file out:
 * metadata, then every buffer's CPU data copied (and compressed, in
 * chunks of ten pages as trace-cmd does) from the spool, page aligned.
 * The output fd must be a seekable file positioned at its start: offsets
 * in the file are absolute, and two of them, known only once the CPU data
 * is written, are patched in place.  The fd stays the caller's.
 *
 * Order: events of one buffer and CPU must arrive in non-decreasing time
 * order (a ring buffer stores deltas); an older timestamp is -EINVAL.
 * Buffers and CPUs are independent of each other.
 *
 * Every function returns 0 (or the documented non-negative value) or a
 * negative errno.  An error from writing the file or the spool is sticky:
 * every later call returns it.
 */
#ifndef _DAT_WRITER_H
#define _DAT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dat-format.h"

struct dat_writer;


struct dat_writer_opts {
	/* "none" (also when NULL) or "zstd". */
	const char	*compression;
	/* Ring-buffer page size: a power of two, 0 means 4096. */
	unsigned int	page_size;
	/* Bytes in a kernel long (page commit field): 4 or 8, 0 means 8. */
	unsigned int	long_size;
	/* CPUs of every buffer (1..65536); events name a CPU below it. */
	unsigned int	cpus;
	/* Trace clock of every buffer; NULL means "local". */
	const char	*clock;
	/* Directory of the page spool; NULL means $TMPDIR or /tmp. */
	const char	*tmpdir;
	/*
	 * A file as a big-endian machine records it (libtracecmd reads
	 * either order on any host); false: little endian.
	 */
	bool		big_endian;
};

/* The fields every ftrace event starts with (common_*). */
struct dat_event {
	int		id;		/* common_type: a registered id */
	uint8_t		flags;		/* common_flags */
	uint8_t		preempt_count;	/* common_preempt_count */
	int32_t		pid;		/* common_pid */
	const void	*payload;	/* after the common fields */
	size_t		payload_len;
};

/**
 * dat_writer_create() - a writer of one .dat file
 * @fd: a seekable file positioned at its start; stays the caller's
 * @opts: page size, long size, CPUs, clock, compression, spool directory
 *
 * The top buffer ("") exists from the start as buffer 0.
 *
 * Return: the writer, or NULL with errno set.
 */
struct dat_writer *dat_writer_create(int fd,
				     const struct dat_writer_opts *opts);

/**
 * dat_writer_add_event_format() - register one event format
 * @w: the writer
 * @system: the event's system; "ftrace" goes to the ftrace formats
 *	    section, like the kernel's own ftrace events
 * @format: the text of events/<system>/<event>/format
 * @len: its length
 *
 * Return: the event id (the "ID:" line of the text, or if it has none, a
 * fresh id that the writer inserts after the "name:" line), -EEXIST if
 * the id is already registered, or another negative errno.
 */
int dat_writer_add_event_format(struct dat_writer *w, const char *system,
				const char *format, size_t len);

/**
 * dat_writer_set_header_page() - the header_page text
 * @w: the writer
 * @text: the text (by default what a kernel of opts.long_size and
 *	  opts.page_size shows)
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int dat_writer_set_header_page(struct dat_writer *w, const char *text,
			       size_t len);

/**
 * dat_writer_set_header_event() - the header_event text
 * @w: the writer
 * @text: the text (by default what a kernel shows)
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int dat_writer_set_header_event(struct dat_writer *w, const char *text,
				size_t len);

/**
 * dat_writer_set_kallsyms() - the /proc/kallsyms text (empty by default)
 * @w: the writer
 * @text: the text
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int dat_writer_set_kallsyms(struct dat_writer *w, const char *text,
			    size_t len);

/**
 * dat_writer_set_printk() - the printk_formats text (empty by default)
 * @w: the writer
 * @text: the text
 * @len: its length
 *
 * Return: 0 or a negative errno.
 */
int dat_writer_set_printk(struct dat_writer *w, const char *text, size_t len);

/**
 * dat_writer_add_cmdline() - one saved command line
 * @w: the writer
 * @pid: the task
 * @comm: its name; a pid added twice keeps the later one
 *
 * Return: 0 or a negative errno.
 */
int dat_writer_add_cmdline(struct dat_writer *w, int pid, const char *comm);

/**
 * dat_writer_add_option() - add an option, written in the order added
 * @w: the writer
 * @id: the option; the writer itself writes the section, BUFFER,
 *	CPUCOUNT and DONE options (and a TRACECLOCK of "[clock]" if none
 *	was added): those ids are refused
 * @data: its bytes
 * @size: their number
 *
 * Return: 0, -EINVAL for an id the writer owns, or a negative errno.
 */
int dat_writer_add_option(struct dat_writer *w, enum dat_option id,
			  const void *data, size_t size);

/**
 * dat_writer_add_option_string() - add a string option, NUL included
 * @w: the writer
 * @id: the option, as for dat_writer_add_option()
 * @value: NUL-terminated
 *
 * Return: as dat_writer_add_option().
 */
int dat_writer_add_option_string(struct dat_writer *w, enum dat_option id,
				 const char *value);

/**
 * dat_writer_add_buffer() - add a buffer instance
 * @w: the writer
 * @name: its name, not empty
 *
 * Return: its index (1, 2, ...), -EEXIST if the name is taken, or another
 * negative errno.
 */
int dat_writer_add_buffer(struct dat_writer *w, const char *name);

/**
 * dat_writer_write_event() - append one event to a buffer's CPU
 * @w: the writer
 * @buffer: the buffer index
 * @cpu: the CPU, below opts.cpus
 * @ts: its timestamp (ns, or the clock's unit), not older than the last
 *	one on that CPU
 * @ev: the event's common fields and payload
 *
 * Return: 0, -ENOENT for an unregistered event id, -E2BIG if the event
 * cannot fit a page, -EINVAL for a bad buffer/CPU or an older timestamp,
 * or the sticky I/O error.
 */
int dat_writer_write_event(struct dat_writer *w, int buffer, unsigned int cpu,
			   uint64_t ts, const struct dat_event *ev);

/**
 * dat_writer_write_raw() - append one record as the ring buffer holds it
 * @w: the writer
 * @buffer: the buffer index
 * @cpu: the CPU
 * @ts: its timestamp
 * @data: the record's bytes, common fields included, as libtracecmd hands
 *	  out record->data
 * @len: their number
 *
 * Return: as dat_writer_write_event().
 */
int dat_writer_write_raw(struct dat_writer *w, int buffer, unsigned int cpu,
			 uint64_t ts, const void *data, size_t len);

/**
 * dat_writer_lost_events() - events lost before the next one on a CPU
 * @w: the writer
 * @buffer: the buffer index
 * @cpu: the CPU
 * @count: how many (trace-cmd report's "CPU:N [COUNT EVENTS DROPPED]"),
 *	   or negative when unknown ("CPU:N [EVENTS DROPPED]")
 *
 * Encoded as the kernel does for a reader that found its ring buffer
 * overrun: the next event starts a new page whose commit field carries the
 * missed-events flag, and for a known count the stored flag with the count
 * in a long after the page's events (a count on a page its first event
 * fills becomes unknown, as in the kernel).  Marks before one event add up
 * (unknown if one is); a count is kept at most INT32_MAX, what
 * libtraceevent can hand out.  A mark that no later event on that CPU
 * follows has no page to go on and is dropped.
 *
 * Return: 0, -EINVAL for a count of 0 or a bad buffer/CPU, or the sticky
 * I/O error.
 */
int dat_writer_lost_events(struct dat_writer *w, int buffer, unsigned int cpu,
			   int64_t count);

/**
 * dat_writer_close() - write the file out and free the writer
 * @w: the writer; invalid afterwards
 *
 * Return: 0, or the first error the writer met.
 */
int dat_writer_close(struct dat_writer *w);

/**
 * dat_writer_discard() - free the writer without finishing the file
 * @w: the writer, or NULL
 */
void dat_writer_discard(struct dat_writer *w);

#endif /* _DAT_WRITER_H */
