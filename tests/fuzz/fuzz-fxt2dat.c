// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-fxt2dat.c - libFuzzer target: `trace-fxt convert IN.fxt -o OUT.dat`
 * on untrusted FXT, in process.
 *
 * The input goes to a memfd that the converter opens by its /proc path,
 * as it would open a file; the .dat goes to another memfd, which is
 * seekable and truncatable like the temporary file trace-fxt writes.
 * Whatever the bytes, the conversion must end, free what it took, and
 * either succeed or fail with a message; a sanitizer or the message check
 * stops the run otherwise.  One input in seven is written zstd-compressed
 * so that the writer's compressed path is fuzzed too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fd-io.h"
#include "fxt-tep.h"
#include "fuzz-lsan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/*
 * libtraceevent 1.7.1 leaks a token inside tep_parse_event() on some
 * malformed format texts (regress-tep-leak.fxt): not ours to free, so
 * leaks allocated under that call alone are not reported.
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fxt2dat_opts o = { .compression = size % 7 ? NULL : "zstd" };
	struct fxt2dat_stats st;
	char path[64], err[512] = "";
	int in, out, ret;

	in = memfd_create("fuzz-fxt2dat-in", MFD_CLOEXEC);
	out = memfd_create("fuzz-fxt2dat-out", MFD_CLOEXEC);
	if (in < 0 || out < 0 || fd_write_all(in, data, size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in);
	ret = fxt2dat_convert(path, out, &o, &st, err, sizeof(err));
	/* a refused input says why */
	if (ret < 0 && !err[0]) {
		fprintf(stderr, "fxt2dat failed (%d) without a message\n",
			ret);
		abort();
	}
	close(in);
	close(out);
	return 0;
}
