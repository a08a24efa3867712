// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-zip.c - the Perfetto packets compressed on a thread of their own
 * (map-zip.h).  One batch at a time: the mapping fills the next one
 * while the thread deflates this one, and waits only when it hands over
 * a batch before the thread is done with the one before.  Packets kept
 * raw are written as they are handed over, with no thread.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "map-zip.h"
#include "perfetto-zip.h"
#include "worker.h"

struct map_zip {
	struct fxt_writer	*w;
	struct fxt_str		name;
	struct pft_zip		*zip;		/* NULL: packets kept raw */
	struct pb_buf		in;		/* the batch, as handed over */
	struct pb_buf		out;		/* it compressed */
	const struct pb_buf	*ready;		/* what to write: out or in */
	int			ret;		/* the thread's verdict */
	struct worker		worker;		/* map_zip_work(), then idle */
};

/* A batch as one compressed packet or, past PFT_ZIP_MAX, as it is. */
static void map_zip_work(void *arg)
{
	struct map_zip *z = arg;

	z->out.len = 0;
	z->ready = &z->in;
	z->ret = 0;
	if (z->in.len > PFT_ZIP_MAX)
		return;
	z->ret = pft_zip_packets(z->zip, &z->out, z->in.p, z->in.len);
	z->ready = &z->out;
}

struct map_zip *map_zip_new(struct fxt_writer *w, struct fxt_str name,
			    bool deflate)
{
	struct map_zip *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->w = w;
	z->name = name;
	if (!deflate)
		return z;
	z->zip = pft_zip_new();
	if (!z->zip || worker_start(&z->worker, map_zip_work, z)) {
		pft_zip_free(z->zip);
		free(z);
		return NULL;
	}
	return z;
}

/* Wait for the thread, then write what it made; the thread is idle. */
static int map_zip_flush(struct map_zip *z)
{
	const struct pb_buf *r;
	int ret;

	if (!z->zip)
		return 0;
	worker_wait(&z->worker);
	r = z->ready;
	z->ready = NULL;
	if (!r)
		return 0;
	if (z->ret)
		return z->ret;
	ret = fxt_write_blob(z->w, z->name, FXT_BLOB_PERFETTO, r->p, r->len);
	z->in.len = 0;
	return ret;
}

int map_zip_put(struct map_zip *z, struct pb_buf *packets)
{
	struct pb_buf t;
	int ret;

	if (!z->zip) {
		ret = fxt_write_blob(z->w, z->name, FXT_BLOB_PERFETTO,
				     packets->p, packets->len);
		packets->len = 0;
		return ret;
	}
	ret = map_zip_flush(z);
	if (ret)
		return ret;
	t = z->in;
	z->in = *packets;
	*packets = t;
	packets->len = 0;
	worker_hand(&z->worker);
	return 0;
}

int map_zip_end(struct map_zip *z)
{
	return map_zip_flush(z);
}

void map_zip_free(struct map_zip *z)
{
	if (!z)
		return;
	if (z->zip)
		worker_stop(&z->worker);
	pft_zip_free(z->zip);
	pb_free(&z->in);
	pb_free(&z->out);
	free(z);
}
