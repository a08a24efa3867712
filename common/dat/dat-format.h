/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dat-format.h - the numbers of trace-cmd's .dat format, shared by the
 * .dat writer (dat-writer.c) and the .dat metadata reader (dat-meta.c).
 *
 * Version 7 keeps everything in sections; a section's id is the id of the
 * option that points at it, so options and sections share one numbering
 * (trace-cmd's TRACECMD_OPTION_*).  Version 6 has no sections: the same
 * texts follow the initial header in a fixed order.
 */
#ifndef _DAT_FORMAT_H
#define _DAT_FORMAT_H

/* The initial header: magic, then the version as a decimal string. */
#define DAT_MAGIC		"\x17\x08\x44tracing"
#define DAT_MAGIC_LEN		10

/* Option ids, which are also the ids of the sections they point at. */
enum dat_option {
	DAT_OPTION_DONE		= 0,	/* last option: next options section */
	DAT_OPTION_DATE		= 1,	/* string: "0x<usecs>" to gtod */
	DAT_OPTION_CPUSTAT	= 2,	/* string, once per CPU */
	DAT_OPTION_BUFFER	= 3,	/* a buffer's flyrecord section */
	DAT_OPTION_TRACECLOCK	= 4,	/* string: trace_clock */
	DAT_OPTION_UNAME	= 5,	/* string */
	DAT_OPTION_HOOK		= 6,	/* string */
	DAT_OPTION_OFFSET	= 7,	/* string: ns to add */
	DAT_OPTION_CPUCOUNT	= 8,	/* 4-byte number */
	DAT_OPTION_VERSION	= 9,	/* string: recorder */
	DAT_OPTION_PROCMAPS	= 10,	/* string */
	DAT_OPTION_TRACEID	= 11,	/* 8-byte number */
	DAT_OPTION_TIME_SHIFT	= 12,	/* a host's clock offsets, by CPU */
	DAT_OPTION_GUEST	= 13,	/* a guest's description */
	DAT_OPTION_TSC2NSEC	= 14,	/* mult(4) shift(4) offset(8) */
	DAT_OPTION_STRINGS	= 15,	/* the sections' descriptions */
	DAT_OPTION_HEADER_INFO	= 16,	/* header_page, header_event */
	DAT_OPTION_FTRACE_EVENTS = 17,	/* the ftrace system's formats */
	DAT_OPTION_EVENT_FORMATS = 18,	/* every other system's formats */
	DAT_OPTION_KALLSYMS	= 19,
	DAT_OPTION_PRINTK	= 20,	/* printk_formats */
	DAT_OPTION_CMDLINES	= 21,	/* saved command lines */
	DAT_OPTION_BUFFER_TEXT	= 22,	/* a latency trace's text buffer */
	DAT_OPTION_BTF_FILE	= 23,
	DAT_OPTION_LAST_BOOT_INFO = 24,
	DAT_OPTION_MODULES_FILE	= 25,
	DAT_OPTION_NR,			/* one past the last known id */
	/*
	 * Not trace-cmd's: gpuvis's fork of it reads the kernel's
	 * saved_tgids text ("pid tgid" lines, NUL-terminated) from this
	 * id; trace-cmd skips an id it does not know.
	 */
	DAT_OPTION_SAVED_TGIDS	= 32,
};

/* A section header's flags: the payload is compressed. */
#define DAT_SECTION_COMPRESSED	1

/*
 * A ring-buffer page (the kernel's and libtraceevent's kbuffer): a
 * timestamp, then a commit word whose low bits are the bytes of events
 * and whose top bits say events were lost (and their count stored after
 * the data); each event starts with a word of type_len (5 bits) and time
 * delta (27 bits).
 */
#define DAT_COMMIT_MASK		((1u << 27) - 1)
#define DAT_MISSED_EVENTS	(1u << 31)
#define DAT_MISSED_STORED	(1u << 30)
enum dat_event_type {
	DAT_TYPE_LEN_MAX	= 28,	/* largest length type_len */
	DAT_TYPE_PADDING	= 29,
	DAT_TYPE_TIME_EXTEND	= 30,
	DAT_TYPE_TIME_STAMP	= 31,
};
#define DAT_DELTA_BITS		27

#endif /* _DAT_FORMAT_H */
