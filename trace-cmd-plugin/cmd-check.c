// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-check.c - `trace-fxt check FILE.fxt`: decode the whole file with
 * the reader's strict mode and name the first fault.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fxt-reader.h"
#include "trace-fxt.h"

int cmd_check(int argc, char **argv)
{
	unsigned long long counts[16] = { 0 }, total = 0;
	struct fxt_record rec;
	struct fxt_reader *r;
	const char *path;
	int ret, i;

	if (argc != 2 || argv[1][0] == '-')
		return trace_fxt_usage("check");
	path = argv[1];
	r = fxt_reader_open(path, FXT_READER_STRICT);
	if (!r) {
		trace_fxt_err("%s: %s", path, strerror(errno));
		return 1;
	}
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		counts[rec.type & 0xf]++;
		total++;
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", fxt_reader_error(r));
		fprintf(stderr, "%s: FAILED after %llu good records\n", path,
			total);
		fxt_reader_close(r);
		return 1;
	}
	printf("%s: ok, %llu records (%s byte order):", path, total,
	       fxt_reader_big_endian(r) ? "big" : "little");
	for (i = 0; i < 16; i++)
		if (counts[i])
			printf(" %s %llu", fxt_record_type_name(i), counts[i]);
	printf("\n");
	fxt_reader_close(r);
	return 0;
}
