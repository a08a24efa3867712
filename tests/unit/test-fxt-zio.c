// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-zio - the core's gzip and zstd streams (fxt-zio.h), and the
 * reader and writer through them.  Compressed bytes are checked against
 * zlib's and libzstd's own one-shot decoders (not only our reader), and
 * our decoder is fed what the libraries' one-shot encoders and the gzip
 * format's member concatenation make.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "fxt-zio.h"
#include "unit.h"

#define DATA_LEN	(3u * 1024 * 1024 + 77)

static uint8_t *make_data(size_t n)
{
	uint8_t *p = malloc(n);
	uint32_t x = 12345;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* compressible, but not trivially: repeated words with noise */
	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		p[i] = (i % 64 < 48) ? (uint8_t)(i / 64) : (uint8_t)(x >> 24);
	}
	return p;
}

/* A temporary file holding @n bytes of @p, rewound; returns its fd. */
static int tmp_with(const void *p, size_t n)
{
	FILE *f = tmpfile();
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fd = dup(fileno(f));
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(write(fd, p, n), (ssize_t)n);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static size_t fd_slurp(int fd, uint8_t **out)
{
	off_t n = lseek(fd, 0, SEEK_END);

	*out = malloc((size_t)n + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*out);
	CU_ASSERT_EQUAL_FATAL(pread(fd, *out, (size_t)n, 0), n);
	return (size_t)n;
}

/* Compress @n bytes with fxt_zout in odd-sized writes; the bytes out. */
static size_t zout_all(enum fxt_zip kind, const uint8_t *p, size_t n,
		       uint8_t **out)
{
	int fd = tmp_with("", 0);
	struct fxt_zout *z = fxt_zout_create(fd, kind);
	size_t at = 0, step = 1, len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	while (at < n) {
		size_t k = step < n - at ? step : n - at;

		CU_ASSERT_EQUAL_FATAL(fxt_zout_write(z, p + at, k), 0);
		at += k;
		step = step * 3 + 1;
	}
	CU_ASSERT_EQUAL(fxt_zout_close(z), 0);
	len = fd_slurp(fd, out);
	close(fd);
	return len;
}

/* Everything fxt_zin gives for compressed @c, read in small pieces. */
static ssize_t zin_all(enum fxt_zip kind, const uint8_t *c, size_t clen,
		       uint8_t *out, size_t cap, char *err, size_t errlen)
{
	int fd = tmp_with(c, clen);
	/* the first bytes come as a head, as the reader passes them */
	size_t head = clen < 3 ? clen : 3;
	struct fxt_zin *z;
	size_t got = 0;
	ssize_t r;

	lseek(fd, (off_t)head, SEEK_SET);
	z = fxt_zin_create(fd, kind, c, head);
	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	do {
		size_t want = cap - got < 4099 ? cap - got : 4099;

		r = fxt_zin_read(z, out + got, want);
		if (r > 0)
			got += (size_t)r;
	} while (r > 0 && got < cap);
	snprintf(err, errlen, "%s", fxt_zin_error(z));
	fxt_zin_destroy(z);
	close(fd);
	return r < 0 ? r : (ssize_t)got;
}

static void test_detect(void)
{
	static const uint8_t gz[] = { 0x1f, 0x8b, 8, 0 };
	static const uint8_t zs[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const uint8_t fxt[] = { 0x10, 0, 0x04, 0x46 };

	CU_ASSERT_EQUAL(fxt_zip_detect(gz, 4), FXT_ZIP_GZIP);
	CU_ASSERT_EQUAL(fxt_zip_detect(zs, 4), FXT_ZIP_ZSTD);
	CU_ASSERT_EQUAL(fxt_zip_detect(zs, 3), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_detect(fxt, 4), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_detect(gz, 1), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_from_name("a.fxt.gz"), FXT_ZIP_GZIP);
	CU_ASSERT_EQUAL(fxt_zip_from_name("a.fxt.zst"), FXT_ZIP_ZSTD);
	CU_ASSERT_EQUAL(fxt_zip_from_name("a.gz.fxt"), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_from_name(".gz"), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_parse("gzip"), FXT_ZIP_GZIP);
	CU_ASSERT_EQUAL(fxt_zip_parse("zstd"), FXT_ZIP_ZSTD);
	CU_ASSERT_EQUAL(fxt_zip_parse("none"), FXT_ZIP_NONE);
	CU_ASSERT_EQUAL(fxt_zip_parse("xz"), -EINVAL);
}

/* Our gzip is one member that zlib's own uncompress of gzip reads. */
static void test_gzip_out_by_zlib(void)
{
	uint8_t *p = make_data(DATA_LEN), *c, *back = malloc(DATA_LEN);
	size_t clen = zout_all(FXT_ZIP_GZIP, p, DATA_LEN, &c);
	z_stream s = { 0 };
	int ret;

	printf("\n    %u bytes -> %zu bytes of gzip\n", DATA_LEN, clen);
	CU_ASSERT(clen < DATA_LEN / 2);
	CU_ASSERT_EQUAL_FATAL(inflateInit2(&s, 16 + MAX_WBITS), Z_OK);
	s.next_in = c;
	s.avail_in = (uInt)clen;
	s.next_out = back;
	s.avail_out = DATA_LEN;
	ret = inflate(&s, Z_FINISH);
	CU_ASSERT_EQUAL(ret, Z_STREAM_END);
	/* exactly one member: it ends where the file ends */
	CU_ASSERT_EQUAL(s.avail_in, 0);
	CU_ASSERT_EQUAL(s.total_out, DATA_LEN);
	CU_ASSERT(!memcmp(p, back, DATA_LEN));
	inflateEnd(&s);
	free(p);
	free(c);
	free(back);
}

static void test_zstd_out_by_libzstd(void)
{
	uint8_t *p = make_data(DATA_LEN), *c, *back = malloc(DATA_LEN + 1);
	size_t clen = zout_all(FXT_ZIP_ZSTD, p, DATA_LEN, &c);
	size_t n = ZSTD_decompress(back, DATA_LEN + 1, c, clen);

	printf("\n    %u bytes -> %zu bytes of zstd\n", DATA_LEN, clen);
	CU_ASSERT_FALSE(ZSTD_isError(n));
	CU_ASSERT_EQUAL(n, DATA_LEN);
	CU_ASSERT(!memcmp(p, back, DATA_LEN));
	free(p);
	free(c);
	free(back);
}

/* Two members made by zlib's one-shot gzip, concatenated: one stream. */
static void test_gzip_in_members(void)
{
	uint8_t *p = make_data(DATA_LEN), *c, *back = malloc(DATA_LEN + 10);
	size_t half = DATA_LEN / 2, clen = 0;
	char err[200];
	int part;

	c = malloc(DATA_LEN * 2);
	for (part = 0; part < 2; part++) {
		z_stream s = { 0 };
		size_t off = part ? half : 0, n = part ? DATA_LEN - half : half;

		CU_ASSERT_EQUAL_FATAL(deflateInit2(&s, 1, Z_DEFLATED,
						   16 + MAX_WBITS, 8,
						   Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = p + off;
		s.avail_in = (uInt)n;
		s.next_out = c + clen;
		s.avail_out = (uInt)(DATA_LEN * 2 - clen);
		CU_ASSERT_EQUAL(deflate(&s, Z_FINISH), Z_STREAM_END);
		clen += s.total_out;
		deflateEnd(&s);
	}
	CU_ASSERT_EQUAL(zin_all(FXT_ZIP_GZIP, c, clen, back, DATA_LEN + 10,
				err, sizeof(err)), DATA_LEN);
	CU_ASSERT(!memcmp(p, back, DATA_LEN));
	free(p);
	free(c);
	free(back);
}

/*
 * @n bytes of @c written into a pipe a few at a time by a child, so that
 * the reader's refills end anywhere: its read end.
 */
static int trickle(const uint8_t *c, size_t n)
{
	int fds[2];
	size_t off = 0, k;
	unsigned int seed = 7;

	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	if (!fork()) {
		close(fds[0]);
		while (off < n) {
			seed = seed * 1103515245u + 12345u;
			k = 1 + (seed >> 16) % 23;
			if (k > n - off)
				k = n - off;
			if (write(fds[1], c + off, k) != (ssize_t)k)
				_exit(1);
			off += k;
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

/*
 * 300 gzip members of 1 to 6,000 bytes each, by zlib, read through a pipe
 * that brings 1 to 23 bytes a time: each member's end, and the next one's
 * start, falls anywhere in a read.
 */
static void test_gzip_members_trickled(void)
{
	uint8_t *p = make_data(1024 * 1024), *c = malloc(4 * 1024 * 1024);
	uint8_t *back = malloc(1024 * 1024 + 10);
	size_t off = 0, clen = 0, n, got = 0;
	unsigned int i, seed = 3;
	struct fxt_zin *z;
	ssize_t r;
	int fd;

	CU_ASSERT_FATAL(p && c && back);
	for (i = 0; i < 300; i++) {
		z_stream s = { 0 };

		seed = seed * 1103515245u + 12345u;
		n = 1 + (seed >> 16) % 6000;
		CU_ASSERT_EQUAL_FATAL(deflateInit2(&s, i % 10, Z_DEFLATED,
						   16 + MAX_WBITS, 8,
						   Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = p + off;
		s.avail_in = (uInt)n;
		s.next_out = c + clen;
		s.avail_out = (uInt)(4 * 1024 * 1024 - clen);
		CU_ASSERT_EQUAL(deflate(&s, Z_FINISH), Z_STREAM_END);
		clen += s.total_out;
		off += n;
		deflateEnd(&s);
	}
	fd = trickle(c, clen);
	z = fxt_zin_create(fd, FXT_ZIP_GZIP, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	while ((r = fxt_zin_read(z, back + got, 1024 * 1024 + 10 - got)) > 0)
		got += (size_t)r;
	CU_ASSERT_EQUAL(r, 0);
	CU_ASSERT_EQUAL(got, off);
	CU_ASSERT(!memcmp(p, back, off));
	printf("\n    300 members, %zu bytes of gzip, read 1-23 bytes at a "
	       "time: %zu bytes, %s\n", clen, got,
	       got == off && !memcmp(p, back, off) ? "equal" : "DIFFER");
	fxt_zin_destroy(z);
	close(fd);
	while (wait(NULL) > 0)
		;
	free(p);
	free(c);
	free(back);
}

static void test_zstd_in_frames(void)
{
	uint8_t *p = make_data(DATA_LEN), *c, *back = malloc(DATA_LEN + 10);
	size_t half = DATA_LEN / 2, bound = ZSTD_compressBound(DATA_LEN);
	size_t a, b;
	char err[200];

	c = malloc(bound * 2);
	a = ZSTD_compress(c, bound, p, half, 1);
	b = ZSTD_compress(c + a, bound, p + half, DATA_LEN - half, 1);
	CU_ASSERT_FATAL(!ZSTD_isError(a) && !ZSTD_isError(b));
	CU_ASSERT_EQUAL(zin_all(FXT_ZIP_ZSTD, c, a + b, back, DATA_LEN + 10,
				err, sizeof(err)), DATA_LEN);
	CU_ASSERT(!memcmp(p, back, DATA_LEN));
	free(p);
	free(c);
	free(back);
}

/* Every cut of a stream is an error naming it, never a short success. */
static void test_truncated(void)
{
	enum fxt_zip kinds[] = { FXT_ZIP_GZIP, FXT_ZIP_ZSTD };
	uint8_t *p = make_data(100000), *c, *back = malloc(100010);
	unsigned int k, bad = 0, tried = 0;
	char err[200];

	for (k = 0; k < 2; k++) {
		size_t clen = zout_all(kinds[k], p, 100000, &c), cut;

		for (cut = 1; cut < clen; cut += 1 + cut / 8) {
			ssize_t r = zin_all(kinds[k], c, cut, back, 100010,
					    err, sizeof(err));

			tried++;
			if (r != -EBADMSG || !strstr(err, "truncated"))
				bad++;
		}
		free(c);
	}
	printf("\n    %u cut streams, %u not reported as truncated\n",
	       tried, bad);
	CU_ASSERT(tried > 40);
	CU_ASSERT_EQUAL(bad, 0);
	free(p);
	free(back);
}

/*
 * fxt_zip_map() of every cut of a stream: refused without @cut; with it,
 * the bytes decompressed, a prefix of the data, and the cut said; a
 * corrupt stream refused either way.
 */
static void test_map_cut(void)
{
	enum fxt_zip kinds[] = { FXT_ZIP_GZIP, FXT_ZIP_ZSTD };
	uint8_t *p = make_data(100000), *c;
	unsigned int k, tried = 0, kept = 0;
	size_t most = 0;

	for (k = 0; k < 2; k++) {
		size_t clen = zout_all(kinds[k], p, 100000, &c), at, len;
		bool cut;
		void *m;
		int fd, ret;

		for (at = 1; at < clen; at += 1 + at / 8) {
			fd = tmp_with(c, at);
			CU_ASSERT_EQUAL(fxt_zip_map(fd, kinds[k], &m, &len,
						    NULL), -EBADMSG);
			lseek(fd, 0, SEEK_SET);
			ret = fxt_zip_map(fd, kinds[k], &m, &len, &cut);
			close(fd);
			tried++;
			if (ret == -ENODATA)
				continue;	/* nothing decompressed yet */
			CU_ASSERT_EQUAL_FATAL(ret, 0);
			CU_ASSERT(cut);
			CU_ASSERT(len <= 100000 && !memcmp(m, p, len));
			kept++;
			if (len > most)
				most = len;
			munmap(m, len);
		}
		/* a corrupt stream: its middle flipped */
		for (at = clen / 2; at < clen / 2 + 64; at++)
			c[at] ^= 0x5a;
		fd = tmp_with(c, clen);
		CU_ASSERT_EQUAL(fxt_zip_map(fd, kinds[k], &m, &len, &cut),
				-EBADMSG);
		CU_ASSERT_FALSE(cut);
		close(fd);
		free(c);
	}
	/* zstd gives a block's bytes once all of it is there */
	printf("\n    %u cut streams mapped: %u gave a prefix (up to %zu of "
	       "100000 bytes), the rest nothing yet\n", tried, kept, most);
	CU_ASSERT(kept > 20 && most > 90000);
	free(p);
}

/* The writer compresses, the reader decompresses: same records. */
static void test_writer_reader(void)
{
	unsigned int flags[] = { FXT_WRITER_GZIP, FXT_WRITER_ZSTD };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		int fd = tmp_with("", 0);
		struct fxt_writer *w = fxt_writer_create_fd(fd, flags[k]);
		struct fxt_reader *r;
		struct fxt_record rec;
		char path[64];
		int i, events = 0, ret;

		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_EQUAL(fxt_write_provider_info(w, 1, "p", 1), 0);
		for (i = 0; i < 50000; i++) {
			struct fxt_event ev = {
				.type = FXT_EVENT_INSTANT, .ts = (uint64_t)i,
				.thread = { 1, 2 },
				.category = fxt_writer_str(w, "cat"),
				.name = fxt_writer_str(w, "name"),
			};

			CU_ASSERT_EQUAL_FATAL(fxt_write_event(w, &ev), 0);
		}
		CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		r = fxt_reader_open(path, FXT_READER_STRICT);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		while ((ret = fxt_reader_next(r, &rec)) > 0)
			events += rec.type == FXT_REC_EVENT &&
				  rec.event.ts == (uint64_t)events;
		if (ret)
			printf("\n    %s\n", fxt_reader_error(r));
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(events, 50000);
		fxt_reader_close(r);
		close(fd);
	}
}

static CU_TestInfo zio_tests[] = {
	{ "kinds told by magic bytes, names and command-line words",
	  test_detect },
	{ "our gzip: one member, zlib's inflate reads it whole",
	  test_gzip_out_by_zlib },
	{ "our zstd: libzstd's one-shot decoder reads it",
	  test_zstd_out_by_libzstd },
	{ "two concatenated gzip members read as one stream",
	  test_gzip_in_members },
	{ "300 gzip members through a pipe, a few bytes a read",
	  test_gzip_members_trickled },
	{ "two zstd frames read as one stream", test_zstd_in_frames },
	{ "every cut gzip/zstd stream is reported truncated",
	  test_truncated },
	{ "fxt_zip_map(): a cut stream's prefix for a lenient reader",
	  test_map_cut },
	{ "50000 events through the compressing writer and reader",
	  test_writer_reader },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt-zio: gzip and zstd streams", NULL, NULL, NULL, NULL,
	  zio_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
