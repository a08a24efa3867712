// SPDX-License-Identifier: LGPL-2.1-only
/*
 * file-map.c - a whole file mapped read-only (file-map.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-map.h"

int file_map_fd(int fd, unsigned int flags, const void **p, size_t *len)
{
	struct stat st;
	void *map;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENODEV;
	*len = (size_t)st.st_size;
	if (!*len) {
		/* mmap() refuses 0 bytes; the caller sees an empty file */
		*p = "";
		return 0;
	}
	map = mmap(NULL, *len, PROT_READ,
		   MAP_PRIVATE | (flags & FILE_MAP_POPULATE ? MAP_POPULATE : 0),
		   fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (flags & FILE_MAP_SEQUENTIAL)
		madvise(map, *len, MADV_SEQUENTIAL);
	*p = map;
	return 0;
}

int file_map(const char *path, unsigned int flags, const void **p,
	     size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;

	if (fd < 0)
		return -errno;
	ret = file_map_fd(fd, flags, p, len);
	close(fd);
	return ret;
}

void file_unmap(const void *p, size_t len)
{
	if (len)
		munmap((void *)p, len);
}
