/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * in-file.h - what trace-fxt's input is, read once from its first bytes,
 * and a seekable copy of an input that is not a regular file.
 *
 * report, dump and check read FXT as a stream; convert and open read
 * their input more than once (the .dat through libtracecmd, which
 * seeks; FXT to .dat in two passes; open sniffs, then serves), so a pipe
 * is copied into an unnamed temporary file first and read by its
 * /proc/self/fd name.
 */
#ifndef _IN_FILE_H
#define _IN_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* What an input is: in_file_kind()'s answers. */
enum in_kind {
	IN_KIND_OTHER	= 0,	/* neither */
	IN_KIND_DAT	= 'd',	/* a trace-cmd .dat */
	IN_KIND_FXT	= 'f',	/* FXT, either byte order, or gzip/zstd */
	IN_KIND_PERFETTO = 'p',	/* Perfetto's, or it gzip/zstd'd */
};

/*
 * The kind of @path from its first bytes, or -errno when it cannot be
 * read.  @head (room @size, may be NULL) gets those bytes and *@len how
 * many were read, for a message that shows them.
 */
int in_file_kind(const char *path, unsigned char *head, size_t size,
		 size_t *len);

/*
 * Whether @path is a regular file whose first bytes are a .dat's: for
 * the commands that read FXT as a stream, whose input may be a pipe (its
 * first bytes are then not read here).
 */
bool in_file_is_dat(const char *path);

/* Whether @path is a regular file holding a Perfetto trace. */
bool in_file_is_perfetto(const char *path);

/*
 * @in, or the name of a seekable copy of it when it is not a regular
 * file (written into @buf of @size bytes).  *@fd is the copy's
 * descriptor, to close when the input is no longer read, or -1.  NULL
 * with errno set when @in cannot be read or copied.
 */
const char *in_file_seekable(const char *in, char *buf, size_t size, int *fd);

#endif /* _IN_FILE_H */
