/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dat-meta.h - the texts of a .dat file that libtracecmd parses and
 * then drops or keeps out of reach: header_page, header_event, every
 * event format, the printk formats, the PROCMAPS options and the saved
 * tgids.  The FXT carries the ones a conversion uses, so that the .dat
 * can be rebuilt from the FXT alone (the saved tgids as its threads'
 * processes).
 */
#ifndef _DAT_META_H
#define _DAT_META_H

#include <stddef.h>

struct dat_meta_text {
	char		*text;
	size_t		len;
};

struct dat_meta_format {
	char		*system;	/* "ftrace" for the ftrace formats */
	char		*text;
	size_t		len;
};

struct dat_meta {
	struct dat_meta_text	header_page;
	struct dat_meta_text	header_event;
	struct dat_meta_text	printk;
	/* PROCMAPS options (trace-cmd record --proc-map), in file order */
	struct dat_meta_text	*procmaps;
	int			nr_procmaps;
	/* the saved tgids option (DAT_OPTION_SAVED_TGIDS), NULL when none */
	struct dat_meta_text	tgids;
	/* by event id; NULL system where the file has no such id */
	struct dat_meta_format	*formats;
	int			nr_formats;
};

/**
 * dat_meta_read() - read the metadata texts of a .dat file
 * @path: the file (versions 6 and 7, sections uncompressed or zstd)
 * @m: filled on success; zeroed, with nothing to free, on failure
 *
 * The file is mapped and every offset and size in it is checked against
 * its length before use.
 *
 * Return: 0, -EBADMSG for a file that is not a well-formed .dat, -ENOMEM,
 * or the negative errno of opening or mapping it.
 */
int dat_meta_read(const char *path, struct dat_meta *m);

/**
 * dat_meta_read_options() - read the text options of a .dat file
 * @path: the file, as for dat_meta_read()
 * @m: filled on success (procmaps and tgids, and in a version 6 file the
 *     texts before the options too); zeroed, with nothing to free, on
 *     failure
 *
 * For a version 7 file only the options sections are read.
 *
 * Return: as dat_meta_read().
 */
int dat_meta_read_options(const char *path, struct dat_meta *m);

/**
 * dat_meta_free() - free what dat_meta_read() filled in
 * @m: the metadata; zeroed afterwards, so freeing twice is harmless
 */
void dat_meta_free(struct dat_meta *m);

#endif /* _DAT_META_H */
