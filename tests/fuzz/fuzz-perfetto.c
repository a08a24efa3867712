// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-perfetto.c - libFuzzer target for the reader of the Perfetto
 * packets in FXT blobs (common/perfetto/perfetto-read.c), which `trace-fxt check`
 * and `dump` run on any file's blob records of type 3: the input is a
 * protobuf stream, fed in pieces cut where its first byte says (as blob
 * records cut it), then ended.  It must never read out of bounds, leak
 * or crash; faults are answers, not failures.
 */
#include <stddef.h>
#include <stdint.h>

#include "perfetto-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_stream *s = pft_stream_new();
	size_t piece, off = 1;

	if (!s || !size) {
		pft_stream_free(s);
		return 0;
	}
	piece = data[0] ? data[0] : size;
	while (off < size) {
		size_t n = size - off < piece ? size - off : piece;

		if (pft_stream_feed(s, data + off, n) < 0)
			break;
		(void)pft_stream_text(s);
		off += n;
	}
	(void)pft_stream_end(s);
	(void)pft_stream_error(s);
	(void)pft_stream_totals(s);
	pft_stream_free(s);
	return 0;
}
