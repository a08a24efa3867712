// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-pft2dat.c - libFuzzer target: `trace-fxt convert IN.pftrace -o
 * OUT.dat` on untrusted Perfetto traces, in process: the packet walk and
 * its resynchronisation after damage, compressed packets, FtraceEvent
 * bundles (typed events by the table, GenericFtraceEvent, events
 * described by generic_event_descriptors), compact sched, the process
 * tree, system info, interned kernel symbols and ftrace stats; and an
 * FXT's packets (`convert --packets`): its records walked for the blob
 * records of type 3 and the converter's formats, kallsyms and printk
 * lines, which then write the events and give symbols their addresses.
 *
 * The input goes to a memfd the converter opens by its /proc path; the
 * .dat goes to another memfd.  Whatever the bytes, the conversion must
 * end, free what it took, and succeed or fail with a message.  Every
 * other input is converted with the kernel formats of the project's
 * Perfetto sample (samples/perfetto/formats, from the tree's top, where
 * tests/run-tests.sh runs), the others with formats made from the
 * packets; one in seven writes the .dat zstd-compressed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fd-io.h"
#include "pft2dat.h"
#include "fuzz-lsan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libtraceevent 1.7.1's leak in tep_parse_event() (fuzz-fxt2dat.c). */
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft2dat_opts o = {
		.compression = size % 7 ? NULL : "zstd",
		.formats = size % 2 ? "samples/perfetto/formats" : NULL,
	};
	struct pft2dat_stats st;
	char path[64], err[512] = "";
	int in, out, ret;

	in = memfd_create("fuzz-pft2dat-in", MFD_CLOEXEC);
	out = memfd_create("fuzz-pft2dat-out", MFD_CLOEXEC);
	if (in < 0 || out < 0 || fd_write_all(in, data, size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in);
	ret = pft2dat_convert(path, out, &o, &st, err, sizeof(err));
	/* a refused input says why */
	if (ret < 0 && !err[0]) {
		fprintf(stderr, "pft2dat failed (%d) without a message\n",
			ret);
		abort();
	}
	close(in);
	close(out);
	return 0;
}
