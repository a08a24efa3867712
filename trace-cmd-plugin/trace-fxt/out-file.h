/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * out-file.h - the one way trace-fxt writes an output file.
 *
 * Whatever fails, what the user already has survives:
 *  - an output that is the input (same device and inode, however named:
 *    hard link, symlink, "./x") is refused before anything is written;
 *  - "-" is standard output;
 *  - a device, FIFO or socket is opened and written in place, never
 *    replaced by a regular file;
 *  - a symlink is followed, and its target is what gets replaced;
 *  - a regular file is written as an unnamed file (O_TMPFILE) in the
 *    target's directory, synced, given a name and renamed over the target,
 *    then the directory is synced.  Where O_TMPFILE is not supported a
 *    named OUT.XXXXXX is used, removed on failure and on SIGINT, SIGTERM
 *    and SIGHUP.
 * A writer that seeks back (the .dat writer) gets a seekable file: a
 * non-seekable target (pipe, FIFO, terminal) is fed by copying an unnamed
 * temporary file at commit.
 */
#ifndef _OUT_FILE_H
#define _OUT_FILE_H

#include <stdbool.h>

struct out_file;

/* out_file_open() flags */
#define OUT_FILE_SEEK	0x1	/* the writer seeks, rewrites or truncates */

/*
 * Open @path for writing; @in is the input it must not be (NULL: none).
 * Prints why on stderr and returns NULL on failure.
 */
struct out_file *out_file_open(const char *path, const char *in,
			       unsigned int flags);
/* The descriptor to write to. */
int out_file_fd(const struct out_file *o);
/*
 * Start writing to disk what has been written to @o so far, by anyone
 * holding its descriptor, when commit will sync it (a replaced regular
 * file): the sync at commit then waits for the tail only.  Whole steps
 * of a few MB at a time, never the page the writer is still filling;
 * cheap to call often, never fails (commit's sync says what went wrong).
 */
void out_file_writeback(struct out_file *o);
/* Make the output final; frees @o.  0, or -1 after saying why. */
int out_file_commit(struct out_file *o);
/* Drop what was written, leave any previous output as it was; frees @o. */
void out_file_discard(struct out_file *o);

#endif /* _OUT_FILE_H */
