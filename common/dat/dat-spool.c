// SPDX-License-Identifier: LGPL-2.1-only
/*
 * dat-spool.c - finished ring-buffer pages, parked until the file layout
 * is known.
 *
 * A .dat file stores each CPU's pages contiguously, but events of all CPUs
 * and buffers arrive interleaved.  Rather than holding every page in
 * memory, full pages go to one temporary file in arrival order and the
 * writer keeps, per CPU, the list of slots its pages went to.  The file
 * is unlinked from the start, so nothing is left behind on a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anon-file.h"
#include "dat-intern.h"

struct dat_spool {
	int		fd;
	unsigned int	page_size;
	int64_t		slots;
};

struct dat_spool *dat_spool_create(const char *dir, unsigned int page_size)
{
	struct dat_spool *sp;

	if (!dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";

	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->page_size = page_size;
	sp->fd = anon_file_open(dir);
	if (sp->fd < 0) {
		free(sp);
		return NULL;
	}
	return sp;
}

void dat_spool_free(struct dat_spool *sp)
{
	if (!sp)
		return;
	close(sp->fd);
	free(sp);
}

int64_t dat_spool_put(struct dat_spool *sp, const void *page)
{
	off_t off = (off_t)sp->slots * sp->page_size;
	size_t done = 0;
	ssize_t r;

	while (done < sp->page_size) {
		r = pwrite(sp->fd, (const char *)page + done,
			   sp->page_size - done, off + done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += r;
	}
	return sp->slots++;
}

int dat_spool_get(struct dat_spool *sp, int64_t slot, void *page)
{
	off_t off = (off_t)slot * sp->page_size;
	size_t done = 0;
	ssize_t r;

	if (slot < 0 || slot >= sp->slots)
		return -EINVAL;
	while (done < sp->page_size) {
		r = pread(sp->fd, (char *)page + done, sp->page_size - done,
			  off + done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		done += r;
	}
	return 0;
}
