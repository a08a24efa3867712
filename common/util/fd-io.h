/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fd-io.h - whole writes to a file descriptor, for the core's writers and
 * the tools around them.
 */
#ifndef _FD_IO_H
#define _FD_IO_H

#include <stddef.h>

/**
 * fd_write_all() - write all @n bytes of @p to @fd
 * @fd: the descriptor
 * @p: the bytes
 * @n: how many
 *
 * Short writes are continued and EINTR retried.
 *
 * Return: 0, or a negative errno (-EIO if the descriptor takes nothing).
 */
int fd_write_all(int fd, const void *p, size_t n);

#endif /* _FD_IO_H */
