// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-kshark.c - libFuzzer target: what plugin-fxt.so does with an
 * untrusted FXT file inside KernelShark, in process: decode it
 * (fxt_ks_data_load, which also hands a converted file's formats,
 * kallsyms and printk lines to libtraceevent), then make the info and
 * latency text of every entry, as the table does when it shows them.
 * An input that starts as a Perfetto trace, or an FXT of `convert --once`,
 * is read as the plugin reads one (fxt_ks_pft_load(): its rows listed, each record rebuilt when
 * shown), its rows in time order, its fields and task names asked for
 * too; every other such
 * input with the kernel formats of the project's Perfetto sample
 * (samples/perfetto/formats, from the tree's top, where
 * tests/run-tests.sh runs), the others with formats made from the
 * packets.
 *
 * The input goes to a memfd that the loader maps by its /proc path.
 * Whatever the bytes, loading must end and free what it took, and a
 * refused file must say why; a sanitizer stops the run otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fxt-ks.h"
#include "fuzz-lsan.h"
#include "pft2dat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* As fuzz-fxt2dat.c: libtraceevent 1.7.1's own leak on bad formats. */
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

static void rows_print(struct fxt_ks_data *d)
{
	const struct fxt_ks_arg *args;
	char *info, *latency;
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		if (!fxt_ks_tep_text(d, &d->rows[i], &info, &latency)) {
			free(info);
			free(latency);
		}
		free(fxt_ks_info(d, &d->rows[i]));
		if (!d->pft)
			continue;
		/* KernelShark takes entries in time order */
		if (i && d->rows[i].ts < d->rows[i - 1].ts)
			abort();
		fxt_ks_row_args_get(d, &d->rows[i], &args);
		fxt_ks_row_args_put(d);
		if (!fxt_ks_pft_comm(d, d->rows[i].pid))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fxt_ks_data d;
	char path[64];
	ssize_t n;
	int fd, ret;

	fd = memfd_create("fuzz-kshark", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	n = size ? write(fd, data, size) : 0;
	if (n != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* as plugin-fxt.c: a --once FXT's events are its packets' too */
	if (pft2dat_sniff(data, size < PFT2DAT_SNIFF_LEN ? size :
			  PFT2DAT_SNIFF_LEN) || pft2dat_fxt_once(path)) {
		if (size % 2)
			setenv(PFT2DAT_FORMATS_ENV, "samples/perfetto/formats",
			       1);
		else
			unsetenv(PFT2DAT_FORMATS_ENV);
		ret = fxt_ks_pft_load(&d, path);
	} else {
		ret = fxt_ks_data_load(&d, path);
	}
	if (!ret) {
		rows_print(&d);
		fxt_ks_data_free(&d);
	}
	close(fd);
	return 0;
}
