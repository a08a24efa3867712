/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-dat-meta.h - the texts of a .dat file that libtracecmd parses and
 * then drops: header_page, header_event, every event format and the
 * printk formats.  The FXT carries the ones a conversion uses, so that
 * the .dat can be rebuilt from the FXT alone.
 */
#ifndef _MAP_DAT_META_H
#define _MAP_DAT_META_H

#include <stddef.h>

struct map_meta_text {
	char		*text;
	size_t		len;
};

struct map_meta_format {
	char		*system;	/* "ftrace" for the ftrace formats */
	char		*text;
	size_t		len;
};

struct map_meta {
	struct map_meta_text	header_page;
	struct map_meta_text	header_event;
	struct map_meta_text	printk;
	/* by event id; NULL system where the file has no such id */
	struct map_meta_format	*formats;
	int			nr_formats;
};

/* Read @path's metadata (file versions 6 and 7, none or zstd). */
int map_meta_read(const char *path, struct map_meta *m);
void map_meta_free(struct map_meta *m);

#endif /* _MAP_DAT_META_H */
