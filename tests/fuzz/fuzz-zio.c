// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-zio - gzip'd and zstd'd FXT through the reader: the input is
 * handed over as a stream (a memfd), as a pipe would be, so that the
 * reader's detection and the decompressors meet every mutation of a
 * compressed file.  Any record must lie within what was decompressed
 * (a nested frame's within its frame), the top level's in order, and
 * every failure must come with a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fxt-reader.h"

static void run(int fd, unsigned int flags)
{
	struct fxt_reader *r;
	struct fxt_record rec;
	uint64_t end = 0;
	int ret;

	lseek(fd, 0, SEEK_SET);
	r = fxt_reader_open_fd(fd, "fuzz", flags);
	if (!r)
		return;
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		/* a frame's record: its own offsets, within the frame */
		if (rec.nested) {
			if (!(rec.offset & FXT_OFFSET_NESTED) || rec.size < 8 ||
			    (rec.offset & (FXT_NEST_MAX - 1)) + rec.size >
			    FXT_NEST_MAX)
				abort();
		} else if (rec.offset < end || rec.size < 8) {
			abort();
		} else {
			end = rec.offset + rec.size;
		}
		/* touch the record's bytes: ASan sees any over-read */
		if (((const volatile uint8_t *)rec.raw)[rec.size - 1] == 0x5a)
			end++, end--;
	}
	if (ret < 0 && !fxt_reader_error(r))
		abort();
	fxt_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-zio", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		run(fd, 0);
		run(fd, FXT_READER_STRICT);
	}
	close(fd);
	return 0;
}
