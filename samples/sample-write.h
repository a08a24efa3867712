/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample-write.h - what every sample producer does around its records:
 * the output file, a writer on it, both closed, and what failed said.
 */
#ifndef _SAMPLE_WRITE_H
#define _SAMPLE_WRITE_H

#include "fxt-writer.h"

/*
 * Write @path (FXT_WRITER_* @flags) with @fn(writer, @priv); on failure
 * "@prog: @path: why" on stderr.  Returns the exit status: 0, or 1.
 */
int sample_write(const char *prog, const char *path, unsigned int flags,
		 int (*fn)(struct fxt_writer *w, void *priv), void *priv);

#endif /* _SAMPLE_WRITE_H */
