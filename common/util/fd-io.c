// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fd-io.c - whole writes to a file descriptor.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "fd-io.h"

int fd_write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t r = write(fd, b, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!r)
			return -EIO;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}
