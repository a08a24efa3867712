// SPDX-License-Identifier: LGPL-2.1-only
/*
 * perfetto-zip.c - Perfetto packets compressed and inflated back
 * (perfetto-zip.h).
 *
 * igzip's level 1: on a whole-machine syscall recording (bench-syscalls,
 * 300 rounds) it deflates the packets to 28% of their size, its FXT
 * 37.17 MB against level 0's 38.12 MB and level 2's 37.17 MB, the three
 * as fast within the noise of the conversion's time.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <isa-l/igzip_lib.h>

#include "perfetto-proto.h"
#include "perfetto-zip.h"

#define PFT_ZIP_LEVEL		1
#define PFT_ZIP_LEVEL_BUF	ISAL_DEF_LVL1_DEFAULT

struct pft_zip {
	struct isal_zstream	zs;
	uint8_t			*level_buf;
	struct pb_buf		tmp;	/* the deflated bytes */
};

struct pft_zip *pft_zip_new(void)
{
	struct pft_zip *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	/*
	 * zeroed, so that nothing the heap held before can reach the
	 * stream igzip writes (an FXT once differed from one run to the
	 * next in a packets blob: same packets, other deflated bytes)
	 */
	z->level_buf = calloc(1, PFT_ZIP_LEVEL_BUF);
	if (!z->level_buf) {
		free(z);
		return NULL;
	}
	isal_deflate_init(&z->zs);
	return z;
}

void pft_zip_free(struct pft_zip *z)
{
	if (!z)
		return;
	pb_free(&z->tmp);
	free(z->level_buf);
	free(z);
}

/* @len bytes deflated into z->tmp, a whole zlib stream. */
static int pft_deflate(struct pft_zip *z, const void *data, size_t len)
{
	struct isal_zstream *zs = &z->zs;
	/* incompressible bytes grow by a few per 64 KiB block */
	size_t want = len / 2 + 1024;

	z->tmp.len = 0;
	isal_deflate_reset(zs);
	zs->level = PFT_ZIP_LEVEL;
	zs->level_buf = z->level_buf;
	zs->level_buf_size = PFT_ZIP_LEVEL_BUF;
	zs->gzip_flag = IGZIP_ZLIB;
	zs->flush = NO_FLUSH;
	zs->end_of_stream = 1;
	zs->next_in = (uint8_t *)data;
	zs->avail_in = (uint32_t)len;
	for (;;) {
		if (!pb_room(&z->tmp, want))
			return -ENOMEM;
		zs->next_out = z->tmp.p + z->tmp.len;
		zs->avail_out = (uint32_t)(z->tmp.cap - z->tmp.len);
		if (isal_deflate(zs) != COMP_OK)
			return -EIO;
		z->tmp.len = zs->next_out - z->tmp.p;
		if (zs->internal_state.state == ZSTATE_END)
			return 0;
		want = z->tmp.cap / 2 + 1024;
	}
}

int pft_zip_packets(struct pft_zip *z, struct pb_buf *out,
		    const void *packets, size_t len)
{
	size_t pkt;
	int ret;

	if (len > PFT_ZIP_MAX)
		return -EINVAL;
	ret = pft_deflate(z, packets, len);
	if (ret)
		return ret;
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_bytes(out, PFT_PACKET_COMPRESSED_PACKETS, z->tmp.p, z->tmp.len);
	pb_close(out, pkt);
	return out->err;
}

/*
 * igzip's inflate, not zlib's: zlib was a fifth of KernelShark's load of
 * a trace Perfetto deflated (TraceConfig.compression_type), and the load
 * got a sixth faster.
 * A zlib stream, or a gzip one (its magic bytes), as zlib's inflate takes
 * with window bits plus 32 (Perfetto writes zlib's).
 */
int pft_unzip(const void *data, size_t len, struct pb_buf *out)
{
	const uint8_t *in = data;
	struct inflate_state *zs;
	size_t want;
	int ret;

	out->len = 0;
	/* a field of a blob-made stream: far below 4 GiB, but checked */
	if (len > UINT32_MAX)
		return -EFBIG;
	zs = malloc(sizeof(*zs));
	if (!zs)
		return -ENOMEM;
	isal_inflate_init(zs);
	zs->crc_flag = len >= 2 && in[0] == 0x1f && in[1] == 0x8b ?
		       ISAL_GZIP : ISAL_ZLIB;
	zs->next_in = (uint8_t *)in;
	zs->avail_in = (uint32_t)len;
	want = 4 * len + 4096;
	for (;;) {
		if (want > PFT_ZIP_MAX + 1 - out->len)
			want = PFT_ZIP_MAX + 1 - out->len;
		if (!want) {
			ret = -EFBIG;
			break;
		}
		if (!pb_room(out, want)) {
			ret = -ENOMEM;
			break;
		}
		zs->next_out = out->p + out->len;
		zs->avail_out = (uint32_t)want;
		ret = isal_inflate(zs);
		out->len = zs->next_out - out->p;
		if (ret != ISAL_DECOMP_OK) {
			ret = -EBADMSG;
			break;
		}
		if (zs->block_state == ISAL_BLOCK_FINISH) {
			/*
			 * bytes past the stream (not what Perfetto wrote):
			 * left, or read ahead into igzip's bit buffer
			 */
			ret = zs->avail_in || zs->read_in_length >= 8 ?
			      -EBADMSG : 0;
			if (out->len > PFT_ZIP_MAX)
				ret = -EFBIG;
			break;
		}
		if (!zs->avail_in && zs->avail_out) {
			/* the bytes stop before the stream's end: cut */
			ret = out->len > PFT_ZIP_MAX ? -EFBIG : -ENODATA;
			break;
		}
		want = out->len;
	}
	free(zs);
	return ret;
}
