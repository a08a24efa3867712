/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perfetto-zip.h - Perfetto packets compressed: a run of Trace.packet
 * fields deflated into one TracePacket's compressed_packets
 * (perfetto-proto.h, PFT_PACKET_COMPRESSED_PACKETS), as Perfetto's own
 * tracing service writes its traces, and inflated back.
 *
 * Both ways are ISA-L's igzip (fast: the conversion's budget, and a
 * deflated trace's load).  The stream has a zlib header, which Perfetto's
 * GzipDecompressor detects as it detects gzip's (inflateInit2 with
 * 32 + MAX_WBITS); the reader takes either.  What one compressed packet
 * may inflate to is bounded (PFT_ZIP_MAX): the writer never packs more,
 * the reader refuses more, so a hostile file cannot make a reader
 * allocate without end.
 */
#ifndef _PERFETTO_ZIP_H
#define _PERFETTO_ZIP_H

#include <stddef.h>

#include "pb.h"

/* The most one compressed packet inflates to, in bytes. */
#define PFT_ZIP_MAX		(64u << 20)

struct pft_zip;

/**
 * pft_zip_new() - a deflater, reused from packet to packet
 *
 * Return: the deflater, or NULL when out of memory.
 */
struct pft_zip *pft_zip_new(void);

/**
 * pft_zip_free() - free a deflater
 * @z: the deflater, or NULL
 */
void pft_zip_free(struct pft_zip *z);

/**
 * pft_zip_packets() - packets as one compressed packet
 * @z: the deflater
 * @out: where the Trace.packet field of the compressed packet is appended
 * @packets: a run of Trace.packet fields (tag, length, TracePacket)
 * @len: their size, at most PFT_ZIP_MAX
 *
 * Return: 0, -EINVAL when @len is past PFT_ZIP_MAX, -ENOMEM, or -EIO
 * when the deflater fails.
 */
int pft_zip_packets(struct pft_zip *z, struct pb_buf *out,
		    const void *packets, size_t len);

/**
 * pft_unzip() - inflate the bytes of a compressed_packets field
 * @data: the field's bytes
 * @len: how many
 * @out: emptied, then the inflated bytes
 *
 * Like Perfetto's reader, the bytes must be exactly one zlib or gzip
 * stream: nothing may follow its end.  Bytes that are a stream's
 * beginning, cut short (a file that ends within the field), leave in
 * @out all they inflate to: a prefix of the packets, exact, for the
 * lenient readers to take; Perfetto's reader refuses them.
 *
 * Return: 0; -ENODATA when the stream is cut short (@out holds its
 * prefix); -EBADMSG when the bytes are no stream (damaged, or followed
 * by more); -EFBIG when they inflate past PFT_ZIP_MAX; -ENOMEM.
 */
int pft_unzip(const void *data, size_t len, struct pb_buf *out);

#endif /* _PERFETTO_ZIP_H */
