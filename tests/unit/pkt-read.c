// SPDX-License-Identifier: GPL-2.0-only
/*
 * pkt-read.c - the Perfetto packets of an FXT in memory, read back field
 * by field (pkt-read.h).  Linked with the mapping (map-packet.c).
 */
#include <string.h>

#include <zlib.h>

#include "fxt-reader.h"
#include "map-packet.h"
#include "perfetto-proto.h"
#include "pkt-read.h"
#include "unit.h"

/*
 * @joined, the blobs' payloads, as the packets Perfetto's tokenizer hands
 * on: each packet of compressed_packets inflated in its place.  Every
 * packet the mapping writes is in one.  zlib's own uncompress() is the
 * judge here, not the core's reader.
 */
static void pkt_inflate(const struct pb_buf *joined, struct pb_buf *stream)
{
	struct pb_field top = { .wt = PB_LEN, .p = joined->p,
				.len = joined->len };
	struct pb_field pk, z = { 0 };
	uLongf n;
	int k;

	for (k = 0; pkt_get(&top, PFT_TRACE_PACKET, k, &pk); k++) {
		CU_ASSERT_FATAL(pkt_get(&pk, PFT_PACKET_COMPRESSED_PACKETS, 0,
					&z));
		n = 64 * z.len + 65536;
		CU_ASSERT_FATAL(pb_room(stream, n));
		CU_ASSERT_EQUAL_FATAL(uncompress(stream->p + stream->len, &n,
						 z.p, z.len), Z_OK);
		stream->len += n;
	}
	CU_ASSERT(k > 0 || !joined->len);
}

void pkt_join(const void *fxt, size_t len, struct pb_buf *stream,
	      unsigned int *blobs, unsigned int *sched)
{
	struct pb_buf joined = { 0 };
	struct fxt_reader *r;
	struct fxt_record rec;

	*blobs = *sched = 0;
	r = fxt_reader_open_mem(fxt, len, "mem", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &rec) > 0) {
		if (rec.type == FXT_REC_SCHED)
			(*sched)++;
		/* the nested records' blobs hold no packets */
		if (rec.type != FXT_REC_BLOB ||
		    rec.blob.type == FXT_BLOB_RECORDS ||
		    rec.blob.type == FXT_BLOB_RECORDS_ZSTD)
			continue;
		CU_ASSERT_EQUAL(rec.blob.type, FXT_BLOB_PERFETTO);
		CU_ASSERT_FATAL(pb_room(&joined, rec.blob.size));
		memcpy(joined.p + joined.len, rec.blob.data, rec.blob.size);
		joined.len += rec.blob.size;
		(*blobs)++;
	}
	CU_ASSERT_PTR_NULL(fxt_reader_error(r));
	fxt_reader_close(r);
	pkt_inflate(&joined, stream);
	pb_free(&joined);
}

void pkt_finish(struct map_ctx *ctx, FILE *fp, char **out, size_t *len,
		struct pb_buf *stream, unsigned int *blobs,
		unsigned int *sched)
{
	CU_ASSERT_EQUAL(map_pkt_finish(ctx), 0);
	map_pkt_free(ctx);
	CU_ASSERT_EQUAL(fxt_writer_close(ctx->w), 0);
	fclose(fp);
	pkt_join(*out, *len, stream, blobs, sched);
}

bool pkt_get(const struct pb_field *m, uint32_t id, int k,
	     struct pb_field *out)
{
	struct pb_reader r;
	struct pb_field f;

	pb_reader_init(&r, m->p, m->len);
	while (pb_next(&r, &f) > 0)
		if (f.id == id && k-- == 0) {
			*out = f;
			return true;
		}
	return false;
}

int64_t pkt_num(const struct pb_field *m, uint32_t id)
{
	struct pb_field f = { 0 };

	CU_ASSERT_FATAL(pkt_get(m, id, 0, &f));
	CU_ASSERT_EQUAL(f.wt, PB_VARINT);
	return (int64_t)f.v;
}

bool pkt_text_is(const struct pb_field *m, uint32_t id, const char *s)
{
	struct pb_field f = { 0 };

	return pkt_get(m, id, 0, &f) && f.wt == PB_LEN &&
	       f.len == strlen(s) && !memcmp(f.p, s, f.len);
}

size_t pkt_column(const struct pb_field *m, uint32_t id, int64_t *v,
		  size_t max)
{
	struct pb_field f = { 0 };
	const uint8_t *p, *end;
	uint64_t x = 0;
	size_t n = 0;

	if (!pkt_get(m, id, 0, &f) || !f.len)
		return 0;
	for (p = f.p, end = f.p + f.len; p < end && n < max; n++) {
		CU_ASSERT_FATAL(pb_read_varint(&p, end, &x) == 0);
		v[n] = (int64_t)x;
	}
	return n;
}

bool pkt_packet(const struct pb_buf *s, int k, struct pb_field *out)
{
	struct pb_field stream = { .wt = PB_LEN, .p = s->p, .len = s->len };

	return s->len && pkt_get(&stream, PFT_TRACE_PACKET, k, out);
}
