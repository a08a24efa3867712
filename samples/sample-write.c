// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample-write.c - the output side of the sample producers
 * (sample-write.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sample-write.h"

int sample_write(const char *prog, const char *path, unsigned int flags,
		 int (*fn)(struct fxt_writer *w, void *priv), void *priv)
{
	struct fxt_writer *w;
	FILE *f = fopen(path, "wb");
	int ret, c;

	if (!f) {
		perror(path);
		return 1;
	}
	w = fxt_writer_create_fp(f, flags);
	if (!w) {
		perror("fxt_writer_create_fp");
		fclose(f);
		return 1;
	}
	ret = fn(w, priv);
	c = fxt_writer_close(w);
	if (!ret)
		ret = c;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(-ret));
		return 1;
	}
	return 0;
}
