// SPDX-License-Identifier: LGPL-2.1-only
/*
 * anon-file.c - unnamed scratch and output files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "anon-file.h"

int anon_file_open(const char *dir)
{
	char *path;
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	/* filesystems without O_TMPFILE: create, then unlink at once */
	if (asprintf(&path, "%s/trace-fxt-XXXXXX", dir) < 0)
		return -1;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}
