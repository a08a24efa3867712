// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-run.c - a .dat through map_convert() into memory (map-run.h).
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "map-convert.h"
#include "map-run.h"
#include "unit.h"

size_t map_run(const char *path, const struct dat_recs *kept,
	       char **out, struct fxt_input_result *res)
{
	return map_run_flavor(path, kept, out, res, false);
}

size_t map_run_flavor(const char *path, const struct dat_recs *kept,
		      char **out, struct fxt_input_result *res,
		      bool fxt_records)
{
	struct fxt_input_opts opts = { .end_ts = UINT64_MAX, .path = path,
				       .fxt_records = fxt_records };
	struct fxt_input_result r = { 0 };
	struct tracecmd_input *h;
	int fd = memfd_create("map-run", MFD_CLOEXEC);
	off_t size;

	*out = NULL;
	CU_ASSERT_FATAL(fd >= 0);
	h = tracecmd_open_head(path, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_FATAL(tracecmd_init_data(h) == 0);
	CU_ASSERT_EQUAL(map_convert(h, fd, &opts, kept, NULL, &r), 0);
	tracecmd_close(h);
	if (res)
		*res = r;
	size = lseek(fd, 0, SEEK_END);
	CU_ASSERT_FATAL(size > 0);
	*out = malloc(size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*out);
	CU_ASSERT_FATAL(pread(fd, *out, size, 0) == size);
	close(fd);
	return size;
}
