// SPDX-License-Identifier: GPL-2.0-only
/*
 * datcheck-file.c - a trace.dat checked against its own size before
 * libtracecmd reads it (datcheck.h): the calls that check a buffer or a
 * mapped file in one go, and the end of a check.
 *
 * The check's parts: datcheck-cursor.c (the bytes walked),
 * datcheck-head.c (the initial header, version 6), datcheck-meta.c (the
 * metadata texts), datcheck-options.c, datcheck-sections.c (version 7),
 * datcheck-jobs.c and datcheck-pages.c (the CPU data), datcheck-probe.c
 * (the formats parsed in a child); datcheck-intern.h is what they share.
 * No part calls into one that calls it (README.md lists them in that
 * order).
 */
#include <stdlib.h>

#include "datcheck-intern.h"
#include "file-map.h"

int datcheck_end(struct datcheck *dc)
{
	struct dc_file *f = &dc->f;
	int ret;

	dc_jobs_merge(f);
	/* formats kept after the probe started (none in 6 or 7) too */
	while (!f->ret && f->probe.first + f->probe.nr < f->nr_fmts) {
		dc_probe_start(f);
		if (!f->probe.pid)
			break;
		dc_probe_finish(f, true);
	}
	dc_probe_finish(f, !f->ret);
	ret = f->ret;
	dc_free(f);
	free(dc);
	return ret;
}

int datcheck_buf_watch(const uint8_t *p, size_t len,
		       const struct datcheck_watch *w, unsigned int flags,
		       char *err, size_t errlen)
{
	struct datcheck *dc;
	int ret = datcheck_head(p, len, w, flags, err, errlen, &dc);

	if (ret)
		return ret;
	datcheck_pages(dc);
	return datcheck_end(dc);
}

int datcheck_buf(const uint8_t *p, size_t len, char *err, size_t errlen)
{
	return datcheck_buf_watch(p, len, NULL, 0, err, errlen);
}

int datcheck_file_watch(const char *path, const struct datcheck_watch *w,
			unsigned int flags, char *err, size_t errlen)
{
	const void *p;
	size_t len;
	int ret = file_map(path, 0, &p, &len);

	if (ret)
		return ret;
	ret = datcheck_buf_watch(p, len, w, flags, err, errlen);
	file_unmap(p, len);
	return ret;
}

int datcheck_file(const char *path, char *err, size_t errlen)
{
	return datcheck_file_watch(path, NULL, 0, err, errlen);
}

int datcheck_file_formats(const char *path, char *err, size_t errlen)
{
	return datcheck_file_watch(path, NULL, DATCHECK_NO_PAGES, err, errlen);
}
