/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * file-map.h - a whole file mapped read-only: the .dat check's walk, the
 * .dat metadata reader, the FXT reader, the input plugin's page reader
 * and the KernelShark loader all read their input this way.
 */
#ifndef _FILE_MAP_H
#define _FILE_MAP_H

#include <stddef.h>

/* file_map*()'s flags */
enum file_map_flags {
	FILE_MAP_POPULATE	= 1 << 0,	/* read it all in now */
	FILE_MAP_SEQUENTIAL	= 1 << 1,	/* it is read front to back */
};

/**
 * file_map_fd() - map the whole of an open file, read-only
 * @fd: the file; it stays open and the caller's (a caller that falls back
 *      to reading it, or decodes it, still has it)
 * @flags: enum file_map_flags
 * @p: its bytes; an empty file's are an empty string, mapped nowhere
 * @len: its size
 *
 * Only a regular file is mapped: a pipe, a device or a directory has no
 * size to map, and a caller that can read one does so itself.
 *
 * Return: 0; -ENODEV when @fd is no regular file; fstat()'s or mmap()'s
 * -errno.  Undo with file_unmap().
 */
int file_map_fd(int fd, unsigned int flags, const void **p, size_t *len);

/**
 * file_map() - map the whole of the file at @path, read-only
 * @path: the file
 * @flags: enum file_map_flags
 * @p: as file_map_fd()'s
 * @len: as file_map_fd()'s
 *
 * The file is opened without waiting (a FIFO with no writer is refused,
 * not waited on) and closed again before this returns.
 *
 * Return: 0; open()'s -errno; as file_map_fd().  Undo with file_unmap().
 */
int file_map(const char *path, unsigned int flags, const void **p,
	     size_t *len);

/**
 * file_unmap() - undo file_map() or file_map_fd()
 * @p: what it gave
 * @len: the size it gave (0: nothing was mapped)
 */
void file_unmap(const void *p, size_t len);

#endif /* _FILE_MAP_H */
