// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-perfetto-read.c - the Perfetto packets of an FXT file read back
 * (common/perfetto/perfetto-read.c), as `trace-fxt check` and `dump` read them:
 * a stream cut anywhere across blobs reads the same; what Perfetto's
 * importer refuses or loses is a fault naming the packet (the rules are
 * perfetto-read.c's, each from Perfetto's source), what it reads is not;
 * packets compressed (perfetto-zip.c) read as the same packets, by zlib
 * too, and a compressed packet that is damaged, too large or holds what
 * Perfetto drops is a fault.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "map-ftrace-table.h"
#include "pb.h"
#include "perfetto-proto.h"
#include "perfetto-read.h"
#include "perfetto-zip.h"
#include "unit.h"

#include <stdlib.h>
#include <zlib.h>

/*
 * A packet's bundle of @cpu opened, with one FtraceEvent at 1000 by pid 7:
 * event @id of one varint field @num = @v, and common_flags if asked.
 * The marks to close (bundle_close()) in @pkt and @fe.
 */
static void bundle_open(struct pb_buf *b, uint64_t cpu, bool flags_field,
			uint32_t id, uint32_t num, uint64_t v, size_t *pkt,
			size_t *fe)
{
	size_t ev, msg;

	*pkt = pb_open(b, PFT_TRACE_PACKET);
	*fe = pb_open(b, PFT_PACKET_FTRACE_EVENTS);
	pb_uint(b, PFT_BUNDLE_CPU, cpu);
	ev = pb_open(b, PFT_BUNDLE_EVENT);
	pb_uint(b, PFT_EVENT_TIMESTAMP, 1000);
	pb_uint(b, PFT_EVENT_PID, 7);
	if (flags_field)
		pb_uint(b, 5, 1);	/* common_flags */
	msg = pb_open(b, id);
	pb_uint(b, num, v);
	pb_close(b, msg);
	pb_close(b, ev);
}

static void bundle_close(struct pb_buf *b, size_t pkt, size_t fe)
{
	pb_close(b, fe);
	pb_close(b, pkt);
}

/* A bundle of @cpu, one event (softirq_entry vec 3), common_flags if asked. */
static void bundle(struct pb_buf *b, uint64_t cpu, bool flags_field)
{
	size_t pkt, fe;

	bundle_open(b, cpu, flags_field, PFT_EV_SOFTIRQ_ENTRY,
		    PFT_SOFTIRQ_ENTRY_VEC, 3, &pkt, &fe);
	bundle_close(b, pkt, fe);
}

/*
 * A bundle of @cpu with a generic event of field @id (its one field,
 * number 1, a uint64), and, if @desc, a descriptor of @id whose field is
 * number @num.
 */
static void described(struct pb_buf *b, uint64_t cpu, uint32_t id,
		      bool desc, uint64_t num)
{
	size_t pkt, fe, d, dp, fp;

	bundle_open(b, cpu, false, id, 1, 42, &pkt, &fe);
	if (desc) {
		d = pb_open(b, PFT_BUNDLE_DESCRIPTORS);
		pb_uint(b, PFT_DESC_FIELD_ID, id);
		pb_bytes(b, PFT_DESC_GROUP, "sched", 5);
		dp = pb_open(b, PFT_DESC_DESCRIPTOR);
		pb_bytes(b, PFT_DPROTO_NAME, "sched_stat_runtime", 18);
		fp = pb_open(b, PFT_DPROTO_FIELD);
		pb_bytes(b, PFT_FDPROTO_NAME, "runtime", 7);
		pb_uint(b, PFT_FDPROTO_NUMBER, num);
		pb_uint(b, PFT_FDPROTO_TYPE, PFT_FD_UINT64);
		pb_close(b, fp);
		pb_close(b, dp);
		pb_close(b, d);
	}
	bundle_close(b, pkt, fe);
}

/* FtraceStats of @phase, with a parse error @err if not 0. */
static void stats(struct pb_buf *b, uint64_t phase, uint64_t err)
{
	size_t pkt, st;

	pkt = pb_open(b, PFT_TRACE_PACKET);
	st = pb_open(b, PFT_PACKET_FTRACE_STATS);
	pb_uint(b, PFT_STATS_PHASE, phase);
	if (err)
		pb_uint(b, PFT_STATS_PARSE_ERRORS, err);
	pb_close(b, st);
	pb_close(b, pkt);
}

/* A CompactSched with @nsw switches, one column short if @short_col. */
static void compact(struct pb_buf *b, int nsw, bool short_col,
		    uint64_t comm_idx)
{
	size_t pkt, fe, cs, col;
	int i, c;

	pkt = pb_open(b, PFT_TRACE_PACKET);
	fe = pb_open(b, PFT_PACKET_FTRACE_EVENTS);
	pb_uint(b, PFT_BUNDLE_CPU, 0);
	cs = pb_open(b, PFT_BUNDLE_COMPACT_SCHED);
	pb_bytes(b, PFT_COMPACT_INTERN_TABLE, "a", 1);
	for (c = PFT_COMPACT_SWITCH_TIMESTAMP;
	     c <= PFT_COMPACT_SWITCH_NEXT_COMM; c++) {
		if (c == PFT_COMPACT_INTERN_TABLE)
			continue;
		col = pb_open(b, c);
		for (i = 0; i < nsw - (short_col && c == 3); i++)
			pb_varint(b, c == PFT_COMPACT_SWITCH_NEXT_COMM ?
				     comm_idx : 10);
		pb_close(b, col);
	}
	pb_close(b, cs);
	pb_close(b, fe);
	pb_close(b, pkt);
}

static int feed_all(const struct pb_buf *b, size_t piece, char *err,
		    size_t errlen, struct pft_totals *t)
{
	struct pft_stream *s = pft_stream_new();
	size_t off = 0, n;
	int ret = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	while (!ret && off < b->len) {
		n = b->len - off < piece ? b->len - off : piece;
		ret = pft_stream_feed(s, b->p + off, n);
		off += n;
	}
	if (!ret)
		ret = pft_stream_end(s);
	snprintf(err, errlen, "%s", pft_stream_error(s) ?
		 pft_stream_error(s) : "");
	if (t)
		*t = *pft_stream_totals(s);
	pft_stream_free(s);
	return ret;
}

static void test_good(void)
{
	struct pb_buf b = { 0 };
	struct pft_totals t;
	char err[256];
	size_t piece;

	bundle(&b, 0, false);
	compact(&b, 3, false, 0);
	stats(&b, PFT_PHASE_END_OF_TRACE, 12);	/* ZERO_DATA_LENGTH: ok */
	stats(&b, PFT_PHASE_START_OF_TRACE, 0);
	pb_uint(&b, 2, 5);	/* another field of Trace: skipped */
	/* a described event, its descriptor in its bundle, then again */
	described(&b, 1, PFT_DESCRIBED_FIRST, true, 1);
	described(&b, 1, PFT_DESCRIBED_FIRST, false, 0);
	for (piece = 1; piece <= b.len; piece++) {
		CU_ASSERT_EQUAL(feed_all(&b, piece, err, sizeof(err), &t), 0);
		CU_ASSERT_EQUAL(t.packets, 6);
		CU_ASSERT_EQUAL(t.bundles, 4);
		CU_ASSERT_EQUAL(t.events, 3);
		CU_ASSERT_EQUAL(t.switches, 3);
		CU_ASSERT_EQUAL(t.other, 1);
	}
	printf("\n    %zu bytes of 6 packets (2 with a described generic "
	       "event), fed 1 to %zu bytes at a time: the same packets, no "
	       "fault\n", b.len, b.len);
	pb_free(&b);
}

static void bad(const char *what, struct pb_buf *b, const char *want)
{
	char err[256];

	CU_ASSERT_EQUAL(feed_all(b, b->len, err, sizeof(err), NULL), -EBADMSG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	printf("    %s: \"%s\"\n", what, err);
	pb_free(b);
}

static void test_faults(void)
{
	struct pb_buf b = { 0 };
	size_t pkt, m;

	printf("\n");
	bundle(&b, PFT_MAX_CPU, false);
	bad("a bundle of CPU 1024", &b, "CPU 1024");
	bundle(&b, 0, true);
	bad("common_flags in an FtraceEvent", &b, "field 5");
	stats(&b, 0, 0);
	bad("FtraceStats of phase 0", &b, "phase 0");
	stats(&b, PFT_PHASE_END_OF_TRACE, 3);
	bad("FtraceStats with a parse error", &b, "parse error 3");
	compact(&b, 3, true, 0);
	bad("CompactSched columns of unequal lengths", &b, "column 3");
	compact(&b, 2, false, 1);
	bad("a comm index past the intern table", &b, "comm index (1)");

	pkt = pb_open(&b, PFT_TRACE_PACKET);
	pb_uint(&b, PFT_PACKET_SEQUENCE_FLAGS, PFT_SEQ_NEEDS_INCREMENTAL_STATE);
	pb_close(&b, pkt);
	bad("incremental state on no sequence", &b, "needs incremental state");

	pkt = pb_open(&b, PFT_TRACE_PACKET);
	pb_uint(&b, PFT_PACKET_CLOCK_ID, 64);
	pb_close(&b, pkt);
	bad("a sequence's clock on no sequence", &b, "clock 64");

	pkt = pb_open(&b, PFT_TRACE_PACKET);
	m = pb_open(&b, PFT_PACKET_FTRACE_EVENTS);
	pb_uint(&b, PFT_BUNDLE_CPU, 0);
	pb_uint(&b, PFT_BUNDLE_FTRACE_CLOCK, 9);
	pb_close(&b, m);
	pb_close(&b, pkt);
	bad("an unknown ftrace clock", &b, "ftrace clock 9");

	pkt = pb_open(&b, PFT_TRACE_PACKET);
	m = pb_open(&b, PFT_PACKET_FTRACE_EVENTS);
	pb_close(&b, m);
	pb_close(&b, pkt);
	bad("a bundle without its cpu", &b, "without its cpu");

	pkt = pb_open(&b, PFT_TRACE_PACKET);
	pb_varint(&b, PFT_PACKET_TIMESTAMP << 3 | PB_LEN);
	pb_varint(&b, 9);	/* past the packet */
	pb_close(&b, pkt);
	bad("a packet whose field runs past it", &b, "do not parse");

	bundle(&b, 0, false);
	b.len--;
	bad("a packet cut short at the end", &b, "unfinished");

	pb_varint(&b, PFT_TRACE_PACKET << 3 | 3);
	bad("a group at the top level", &b, "wire type 3");

	pb_uint(&b, PFT_TRACE_PACKET, 1);
	bad("a packet that is a varint", &b, "no message");

	described(&b, 0, PFT_DESCRIBED_FIRST + 3, false, 0);
	bad("a described event no descriptor came for", &b,
	    "no descriptor");
	described(&b, 0, PFT_DESCRIBED_FIRST, true, 1);
	described(&b, 1, PFT_DESCRIBED_FIRST, false, 0);
	bad("a described event whose descriptor came for another CPU", &b,
	    "no descriptor");
	described(&b, 0, PFT_DESCRIBED_FIRST, true, PFT_DESCRIBED_MAX_FIELDS);
	bad("a descriptor of field 32", &b, "field 32");
}

/*
 * @in (a run of Trace.packet fields) as one compressed packet appended to
 * @out, deflated by zlib itself at @wbits (15: zlib header, 31: gzip's),
 * not by perfetto-zip.c; @tail extra bytes (0) after the stream, the
 * stream @cut bytes short.
 */
static void zlib_packet(struct pb_buf *out, const struct pb_buf *in,
			int wbits, size_t tail, size_t cut)
{
	z_stream zs = { 0 };
	size_t cap = in->len + 1024, pkt;
	uint8_t *z = calloc(1, cap + tail);

	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	CU_ASSERT_EQUAL_FATAL(deflateInit2(&zs, 9, Z_DEFLATED, wbits, 9,
					   Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = in->p;
	zs.avail_in = in->len;
	zs.next_out = z;
	zs.avail_out = cap;
	CU_ASSERT_EQUAL_FATAL(deflate(&zs, Z_FINISH), Z_STREAM_END);
	pkt = pb_open(out, PFT_TRACE_PACKET);
	pb_bytes(out, PFT_PACKET_COMPRESSED_PACKETS, z,
		 zs.total_out + tail - cut);
	pb_close(out, pkt);
	deflateEnd(&zs);
	free(z);
}

static void test_zip_good(void)
{
	struct pb_buf in = { 0 }, b = { 0 }, back = { 0 };
	struct pft_zip *z = pft_zip_new();
	struct pft_totals t;
	struct pb_reader r;
	struct pb_field f = { 0 }, c = { 0 };
	uLongf n;
	char err[256];
	size_t piece;

	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	bundle(&in, 0, false);
	compact(&in, 3, false, 0);
	stats(&in, PFT_PHASE_END_OF_TRACE, 12);
	stats(&in, PFT_PHASE_START_OF_TRACE, 0);

	/* perfetto-zip.c's packet: one field 50, zlib's inflate gives @in */
	CU_ASSERT_EQUAL(pft_zip_packets(z, &b, in.p, in.len), 0);
	pb_reader_init(&r, b.p, b.len);
	CU_ASSERT_EQUAL_FATAL(pb_next(&r, &f), 1);
	CU_ASSERT_EQUAL(f.id, PFT_TRACE_PACKET);
	pb_reader_init(&r, f.p, f.len);
	CU_ASSERT_EQUAL_FATAL(pb_next(&r, &c), 1);
	CU_ASSERT_EQUAL(c.id, PFT_PACKET_COMPRESSED_PACKETS);
	CU_ASSERT_EQUAL(c.wt, PB_LEN);
	CU_ASSERT_EQUAL(pb_next(&r, &f), 0);	/* nothing beside it */
	n = in.len + 16;
	CU_ASSERT_FATAL(pb_room(&back, n));
	CU_ASSERT_EQUAL(uncompress(back.p, &n, c.p, c.len), Z_OK);
	CU_ASSERT(n == in.len && !memcmp(back.p, in.p, in.len));
	CU_ASSERT_EQUAL(pft_zip_packets(z, &b, in.p, (size_t)PFT_ZIP_MAX + 1),
			-EINVAL);

	/* zlib's own streams, zlib and gzip headers, beside a plain packet */
	zlib_packet(&b, &in, 15, 0, 0);
	zlib_packet(&b, &in, 31, 0, 0);
	bundle(&b, 1, false);
	for (piece = 1; piece <= b.len; piece++) {
		CU_ASSERT_EQUAL(feed_all(&b, piece, err, sizeof(err), &t), 0);
		CU_ASSERT_EQUAL(t.packets, 3 * 4 + 1);
		CU_ASSERT_EQUAL(t.bundles, 3 * 2 + 1);
		CU_ASSERT_EQUAL(t.switches, 3 * 3);
		CU_ASSERT_EQUAL(t.zipped, 3);
	}
	printf("\n    4 packets (%zu bytes) compressed by perfetto-zip.c "
	       "(zlib inflates them back whole), by zlib (zlib and gzip "
	       "headers), and a plain packet: %zu bytes fed 1 to %zu at a "
	       "time read as 13 packets, 3 compressed, no fault\n", in.len,
	       b.len, b.len);
	pb_free(&in);
	pb_free(&b);
	pb_free(&back);
	pft_zip_free(z);
}

/* @in's bytes compressed by perfetto-zip.c into @b. */
static void zip(struct pb_buf *b, struct pb_buf *in)
{
	struct pft_zip *z = pft_zip_new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	CU_ASSERT_EQUAL(pft_zip_packets(z, b, in->p, in->len), 0);
	pft_zip_free(z);
	pb_free(in);
}

static void test_zip_faults(void)
{
	struct pb_buf in = { 0 }, b = { 0 };
	size_t pkt, piece;

	printf("\n");
	bundle(&in, 0, false);
	zlib_packet(&b, &in, 15, 0, 0);
	b.p[b.len - 6] ^= 0x55;		/* in the deflate data or its sum */
	bad("a damaged stream", &b, "do not inflate");
	zlib_packet(&b, &in, 15, 0, 3);
	bad("a stream cut short", &b, "do not inflate");
	zlib_packet(&b, &in, 15, 1, 0);
	bad("a byte after the stream", &b, "do not inflate");
	/* igzip reads ahead into a bit buffer: any count of bytes */
	for (piece = 2; piece <= 17; piece++) {
		char what[64];

		zlib_packet(&b, &in, piece & 1 ? 31 : 15, piece, 0);
		snprintf(what, sizeof(what), "%zu bytes after a %s stream",
			 piece, piece & 1 ? "gzip" : "zlib");
		bad(what, &b, "do not inflate");
	}
	pb_free(&in);

	/* a zlib stream of PFT_ZIP_MAX + 1 zero bytes: about 64 KiB */
	CU_ASSERT_FATAL(pb_room(&in, (size_t)PFT_ZIP_MAX + 1));
	memset(in.p, 0, (size_t)PFT_ZIP_MAX + 1);
	in.len = (size_t)PFT_ZIP_MAX + 1;
	zlib_packet(&b, &in, 15, 0, 0);
	pb_free(&in);
	printf("    (%zu bytes inflating to %u)\n", b.len, PFT_ZIP_MAX + 1);
	bad("a stream inflating past PFT_ZIP_MAX", &b, "inflates past");

	pb_uint(&in, PFT_PACKET_TIMESTAMP, 5);	/* a varint, no packet */
	pb_uint(&in, PFT_PACKET_TIMESTAMP, 5);
	zip(&b, &in);
	bad("inflated, a field that is no packet", &b, "no Trace.packet");

	pb_varint(&in, PFT_TRACE_PACKET << 3 | PB_LEN);
	pb_varint(&in, 40);
	pb_uint(&in, PFT_PACKET_TIMESTAMP, 5);
	zip(&b, &in);
	bad("inflated, a packet past the end", &b, "past the end");

	bundle(&in, PFT_MAX_CPU, false);
	zip(&b, &in);
	bad("inflated, a packet Perfetto refuses", &b,
	    "packet 1 (compressed): an FtraceEventBundle of CPU 1024");

	{
		struct pb_buf inner = { 0 };

		bundle(&inner, 0, false);
		zip(&in, &inner);
		zip(&b, &in);
	}
	bad("a compressed packet inside another", &b,
	    "compressed packet 2: inside another");

	/* a timestamp after compressed_packets: Perfetto drops it */
	bundle(&in, 0, false);
	{
		struct pb_buf z = { 0 };
		struct pb_field f = { 0 }, c = { 0 };
		struct pb_reader r;

		zip(&z, &in);
		pb_reader_init(&r, z.p, z.len);
		CU_ASSERT_EQUAL_FATAL(pb_next(&r, &f), 1);
		pb_reader_init(&r, f.p, f.len);
		CU_ASSERT_EQUAL_FATAL(pb_next(&r, &c), 1);
		pkt = pb_open(&b, PFT_TRACE_PACKET);
		pb_bytes(&b, PFT_PACKET_COMPRESSED_PACKETS, c.p, c.len);
		pb_uint(&b, PFT_PACKET_TIMESTAMP, 9);
		pb_close(&b, pkt);
		pb_free(&z);
	}
	bad("a field beside compressed_packets", &b,
	    "field 8 beside compressed_packets");
}

/*
 * A stream cut after each of its bytes: pft_unzip() says -ENODATA and
 * gives what the bytes there inflate to, a prefix of the packets, all of
 * them once the deflate data is whole (only the sum cut).
 */
static void test_unzip_cut(void)
{
	struct pb_buf in = { 0 }, b = { 0 }, out = { 0 };
	struct pb_reader r;
	struct pb_field f = { 0 }, c = { 0 };
	size_t k, prev = 0, grew = 0;
	int ret;

	bundle(&in, 0, false);
	compact(&in, 3, false, 0);
	bundle(&in, 1, false);
	zlib_packet(&b, &in, 15, 0, 0);
	pb_reader_init(&r, b.p, b.len);
	CU_ASSERT_EQUAL_FATAL(pb_next(&r, &f), 1);
	pb_reader_init(&r, f.p, f.len);
	CU_ASSERT_EQUAL_FATAL(pb_next(&r, &c), 1);
	CU_ASSERT_EQUAL(pft_unzip(c.p, c.len, &out), 0);
	CU_ASSERT(out.len == in.len && !memcmp(out.p, in.p, in.len));
	for (k = 0; k < c.len; k++) {
		ret = pft_unzip(c.p, k, &out);
		CU_ASSERT(ret == -ENODATA || (k < 2 && ret == -EBADMSG));
		CU_ASSERT(out.len <= in.len && !memcmp(out.p, in.p, out.len));
		CU_ASSERT(out.len >= prev);
		grew += out.len > prev;
		prev = out.len;
	}
	/* the adler32 sum cut: the packets all there */
	CU_ASSERT_EQUAL(prev, in.len);
	printf("\n    %zu bytes of zlib stream cut after each: -ENODATA, a "
	       "prefix of the %zu bytes of packets, longer %zu times\n",
	       c.len, in.len, grew);
	CU_ASSERT(grew > 1);
	pb_free(&in);
	pb_free(&b);
	pb_free(&out);
}

static CU_TestInfo read_tests[] = {
	{ "packets cut anywhere read the same", test_good },
	{ "what Perfetto refuses or loses is a fault", test_faults },
	{ "compressed packets read as their packets", test_zip_good },
	{ "a compressed packet damaged, too large or losing data is a fault",
	  test_zip_faults },
	{ "a stream cut short inflates to a prefix of its packets",
	  test_unzip_cut },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "perfetto-read: the packets of blob records of type 3", NULL, NULL,
	  NULL, NULL, read_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
