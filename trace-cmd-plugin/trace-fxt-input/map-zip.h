/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-zip.h - the conversion's Perfetto packets compressed on a thread of
 * their own (perfetto-zip.h) and written as FXT blob records of type 3,
 * in the order they were handed over.
 *
 * Deflating is about 3% of a syscall-heavy conversion's CPU time; on its
 * own thread it overlaps the mapping.  A batch handed over is written
 * when the next one is handed over, or at the end: blob records stand a
 * batch later in the file than they were made, which no reader minds
 * (Perfetto joins them into one stream in file order; the others skip
 * them).
 */
#ifndef _MAP_ZIP_H
#define _MAP_ZIP_H

#include <stdbool.h>

#include "fxt-writer.h"
#include "pb.h"

struct map_zip;

/**
 * map_zip_new() - a compressing thread for @w's blob records named @name
 * @w: the writer, used only on the caller's thread
 * @name: the blob records' name
 * @deflate: false: each batch written raw as it is handed over, no
 *	     thread
 *
 * Return: the compressor, or NULL when out of memory or threads.
 */
struct map_zip *map_zip_new(struct fxt_writer *w, struct fxt_str name,
			    bool deflate);

/**
 * map_zip_put() - hand a batch of packets over
 * @z: the compressor
 * @packets: a run of Trace.packet fields; taken, and left empty
 *
 * The batch handed over before is written first.
 *
 * Return: 0, or a negative errno of the previous batch or of the writer.
 */
int map_zip_put(struct map_zip *z, struct pb_buf *packets);

/**
 * map_zip_end() - write the last batch handed over
 * @z: the compressor
 *
 * Return: 0, or a negative errno.
 */
int map_zip_end(struct map_zip *z);

/**
 * map_zip_free() - stop the thread and free the compressor
 * @z: the compressor, or NULL
 */
void map_zip_free(struct map_zip *z);

#endif
