/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dat-layout.h - what a walk of a whole trace.dat found in it, as the
 * walker hands it to a reader of the same file: where each CPU's
 * ring-buffer pages lie, and copies of the records of a few events.
 *
 * The .dat check (trace-cmd-plugin/dat-check, datcheck.h) fills them in
 * while it checks the file; the trace-cmd input plugin reads them, carried
 * from trace-fxt in its request (fxt-input.h), so that it neither walks
 * the pages' headers nor reads those records a second time.  Types only:
 * who fills one in says how it is freed (its owner).
 */
#ifndef _DAT_LAYOUT_H
#define _DAT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An event by its system and name. */
struct dat_event_name {
	const char	*system;
	const char	*name;
};

/* A record so collected. */
struct dat_rec {
	const char	*buffer;	/* its buffer's name, "" for the top */
	uint32_t	cpu;		/* the CPU as its buffer lists it */
	uint32_t	len;
	uint64_t	ts;		/* the pages' clock: for order only */
	const uint8_t	*data;		/* the payload, common_type first */
};

/* The records of the events asked for, each CPU's in its order. */
struct dat_recs {
	bool			complete;	/* else not collected */
	const struct dat_rec	*recs;
	size_t			nr;
	void			*owner;		/* the walker's */
};

/*
 * Where a CPU's ring-buffer pages lie in the .dat, as a check of the
 * whole file found them: one entry per CPU that has data, buffer after
 * buffer, each buffer's CPUs in order.
 */
struct dat_cpu_data {
	const char	*buffer;	/* its buffer's name, "" for the top */
	uint32_t	cpu;		/* the CPU's number in its buffer */
	uint32_t	page_size;
	uint64_t	off, size;	/* in the file (the count, for zstd) */
	bool		zstd;		/* chunks of zstd-compressed pages */
	/*
	 * zstd: the chunks to read, the damaged ones left out (struct
	 * dat_damage), however many the count at @off says
	 */
	uint64_t	chunks;
};

/*
 * A stretch of a CPU's data that a salvaging walk found damaged (a page
 * whose header or events fail the check, a zstd chunk that does not
 * inflate to its size): not read, and said to be lost.  A page keeps the
 * events before its first fault, so a stretch ends where a page or
 * chunk does.  Each CPU's stretches come in file order, buffer after
 * buffer, as the CPUs of struct dat_pages.
 */
struct dat_damage {
	const char	*buffer;	/* its buffer's name, "" for the top */
	uint32_t	cpu;		/* the CPU, as its buffer lists it */
	/*
	 * The file's bytes not read: whole pages, the end of a page from
	 * its first fault, or zstd chunks with their headers.  With
	 * @inflated, the chunk whose header is at @off (its @len bytes
	 * read) and the bytes [in_off, in_off + in_len) of its pages not.
	 */
	uint64_t	off, len;
	bool		inflated;
	uint64_t	in_off, in_len;
	/*
	 * One event whose header's length is shorter than its format
	 * (the header is damaged): the bytes to its format's end, which
	 * its header and what lies after it do not walk, are skipped
	 * whole, with the time delta of its header only.
	 */
	bool		garbled;
	/* the CPU's good events before it, and whether one follows */
	uint64_t	events_before;
	bool		events_after;
	/* their times (the pages' clock): the last before, first after */
	uint64_t	ts_before, ts_after;
	const char	*why;		/* its first fault, with its offset */
};

/*
 * The file's CPU data, checked page by page and event by event: nr is 0
 * when a reader must let libtracecmd read it (the pages were not
 * checked, or libtracecmd would move the file's times: a DATE, OFFSET,
 * TIME_SHIFT or TSC2NSEC option; or its CPUs are not numbered 0..n-1);
 * the damage is listed either way.
 */
struct dat_pages {
	const struct dat_cpu_data	*cpus;
	size_t				nr;
	bool				big;		/* file byte order */
	uint32_t			long_size;	/* 4 or 8 */
	/*
	 * The damaged stretches (whoever reads the pages): none unless
	 * the walk salvaged a damaged file
	 */
	const struct dat_damage		*damage;
	size_t				nr_damage;
	void				*owner;		/* the walker's */
};

#endif /* _DAT_LAYOUT_H */
