// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-zio.c - gzip and zstd streams for FXT files.
 *
 * gzip is written and read by ISA-L's igzip.  igzip's level 2
 * deflates about ten times as fast as zlib's default level for about a
 * quarter more bytes (on a 175 MB converted kmem recording: 0.23 s and
 * 27.4 MB against zlib -6's 3.0 s and 21.2 MB; zlib -1 takes 1.0 s for
 * 27.2 MB): so a .fxt.gz costs little more than the plain conversion.
 * igzip inflates faster than zlib, which a viewer's load of a gzip'd
 * trace waits for (fxt_zip_map() of a 19 MB Perfetto trace gzip'd: 31 ms
 * against zlib's 48 ms).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <isa-l/igzip_lib.h>
#include <zstd.h>

#include "fd-io.h"
#include "fxt-zio.h"
#include "worker.h"

#define ZIO_CHUNK	(256u * 1024)
/* igzip's levels are 0-3; 3 is slower than 2 and no smaller here */
#define ZIO_GZIP_LEVEL	2
#define ZIO_GZIP_LEVEL_BUF	ISAL_DEF_LVL2_DEFAULT
#define ZIO_ZSTD_LEVEL	3

enum fxt_zip fxt_zip_detect(const void *p, size_t n)
{
	const uint8_t *b = p;

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return FXT_ZIP_GZIP;
	/* ZSTD_MAGICNUMBER, little-endian on disk */
	if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f &&
	    b[3] == 0xfd)
		return FXT_ZIP_ZSTD;
	return FXT_ZIP_NONE;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

enum fxt_zip fxt_zip_from_name(const char *path)
{
	if (has_suffix(path, ".gz"))
		return FXT_ZIP_GZIP;
	if (has_suffix(path, ".zst"))
		return FXT_ZIP_ZSTD;
	return FXT_ZIP_NONE;
}

int fxt_zip_parse(const char *s)
{
	if (!strcmp(s, "gzip") || !strcmp(s, "gz"))
		return FXT_ZIP_GZIP;
	if (!strcmp(s, "zstd") || !strcmp(s, "zst"))
		return FXT_ZIP_ZSTD;
	if (!strcmp(s, "none"))
		return FXT_ZIP_NONE;
	return -EINVAL;
}

/* ---- compressing ----------------------------------------------------- */

/*
 * The writer fills one batch while a thread compresses the other, so
 * compression takes the second core instead of adding to the first's
 * time.  Batches are compressed in order, always ZOUT_BATCH bytes but
 * the last: the same input gives the same bytes every time (igzip's
 * output, unlike zlib's, depends on how its input is split; without the
 * thread the writer's own pieces are fed, other bytes of the same
 * content).
 */
#define ZOUT_BATCH	(1u << 20)

struct fxt_zout {
	enum fxt_zip	kind;
	int		fd;
	int		err;	/* the thread's; read after waiting for it */
	struct isal_zstream gz;
	uint8_t		*gz_level_buf;
	ZSTD_CStream	*zs;
	uint8_t		out[ZIO_CHUNK];

	bool		threaded;
	struct worker	worker;		/* compresses work, then idles */
	bool		last;		/* work is the stream's end */
	uint8_t		*fill, *work;
	size_t		fill_len, work_len;
};

static void zout_start_thread(struct fxt_zout *z);

struct fxt_zout *fxt_zout_create(int fd, enum fxt_zip kind)
{
	struct fxt_zout *z;

	if (kind != FXT_ZIP_GZIP && kind != FXT_ZIP_ZSTD) {
		errno = EINVAL;
		return NULL;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->kind = kind;
	z->fd = fd;
	if (kind == FXT_ZIP_GZIP) {
		/* zeroed, as perfetto-zip.c's: the same bytes each run */
		z->gz_level_buf = calloc(1, ZIO_GZIP_LEVEL_BUF);
		if (z->gz_level_buf) {
			isal_deflate_init(&z->gz);
			z->gz.level = ZIO_GZIP_LEVEL;
			z->gz.level_buf = z->gz_level_buf;
			z->gz.level_buf_size = ZIO_GZIP_LEVEL_BUF;
			/* one gzip member, header and trailer included */
			z->gz.gzip_flag = IGZIP_GZIP;
			zout_start_thread(z);
			return z;
		}
	} else {
		/* with a checksum, as zstd(1) writes: damage is detected */
		z->zs = ZSTD_createCStream();
		if (z->zs && !ZSTD_isError(ZSTD_initCStream(z->zs,
							   ZIO_ZSTD_LEVEL)) &&
		    !ZSTD_isError(ZSTD_CCtx_setParameter(z->zs,
					ZSTD_c_checksumFlag, 1))) {
			zout_start_thread(z);
			return z;
		}
		ZSTD_freeCStream(z->zs);
	}
	free(z);
	errno = ENOMEM;
	return NULL;
}

/* Feed @n bytes (or finish when @end); write every full output chunk. */
static int zout_gzip(struct fxt_zout *z, const void *p, size_t n, bool end)
{
	int ret;

	z->gz.next_in = (uint8_t *)p;
	z->gz.avail_in = (uint32_t)n;
	z->gz.end_of_stream = end;
	z->gz.flush = NO_FLUSH;
	do {
		z->gz.next_out = z->out;
		z->gz.avail_out = sizeof(z->out);
		if (isal_deflate(&z->gz) != COMP_OK)
			return -EIO;
		ret = fd_write_all(z->fd, z->out, sizeof(z->out) - z->gz.avail_out);
		if (ret)
			return ret;
	} while (z->gz.avail_out == 0 || z->gz.avail_in ||
		 (end && z->gz.internal_state.state != ZSTATE_END));
	return 0;
}

static int zout_zstd(struct fxt_zout *z, const void *p, size_t n, bool end)
{
	ZSTD_inBuffer in = { p, n, 0 };
	size_t left;
	int ret;

	do {
		ZSTD_outBuffer out = { z->out, sizeof(z->out), 0 };

		left = end ? ZSTD_compressStream2(z->zs, &out, &in, ZSTD_e_end)
			   : ZSTD_compressStream(z->zs, &out, &in);
		if (ZSTD_isError(left))
			return -EIO;
		ret = fd_write_all(z->fd, z->out, out.pos);
		if (ret)
			return ret;
	} while (in.pos < in.size || (end && left));
	return 0;
}

static int zout_feed(struct fxt_zout *z, const void *p, size_t n, bool end)
{
	if (z->err)
		return z->err;
	z->err = z->kind == FXT_ZIP_GZIP ? zout_gzip(z, p, n, end)
					 : zout_zstd(z, p, n, end);
	return z->err;
}

static void zout_job(void *arg)
{
	struct fxt_zout *z = arg;

	zout_feed(z, z->work, z->work_len, z->last);
}

/* Wait for the thread, then give it the filled batch. */
static int zout_hand_off(struct fxt_zout *z, bool last)
{
	uint8_t *t;

	worker_wait(&z->worker);
	if (z->err)
		return z->err;
	t = z->work;
	z->work = z->fill;
	z->fill = t;
	z->work_len = z->fill_len;
	z->fill_len = 0;
	z->last = last;
	worker_hand(&z->worker);
	return 0;
}

static void zout_start_thread(struct fxt_zout *z)
{
	z->fill = malloc(ZOUT_BATCH);
	z->work = malloc(ZOUT_BATCH);
	if (z->fill && z->work && !worker_start(&z->worker, zout_job, z)) {
		z->threaded = true;
		return;
	}
	/* no thread: compress in the caller, as it writes */
	free(z->fill);
	free(z->work);
	z->fill = z->work = NULL;
}

int fxt_zout_write(struct fxt_zout *z, const void *p, size_t n)
{
	const uint8_t *b = p;

	if (!z->threaded) {
		/* igzip counts input in 32 bits: feed large buffers in parts */
		while (n > ZOUT_BATCH) {
			int ret = zout_feed(z, b, ZOUT_BATCH, false);

			if (ret)
				return ret;
			b += ZOUT_BATCH;
			n -= ZOUT_BATCH;
		}
		return zout_feed(z, b, n, false);
	}
	while (n) {
		size_t k = ZOUT_BATCH - z->fill_len;

		if (k > n)
			k = n;
		memcpy(z->fill + z->fill_len, b, k);
		z->fill_len += k;
		b += k;
		n -= k;
		if (z->fill_len == ZOUT_BATCH) {
			int ret = zout_hand_off(z, false);

			if (ret)
				return ret;
		}
	}
	return 0;
}

int fxt_zout_close(struct fxt_zout *z)
{
	int ret;

	if (!z)
		return 0;
	if (z->threaded) {
		zout_hand_off(z, true);
		worker_stop(&z->worker);
		free(z->fill);
		free(z->work);
		ret = z->err;
	} else {
		ret = zout_feed(z, NULL, 0, true);
	}
	if (z->kind == FXT_ZIP_GZIP)
		free(z->gz_level_buf);
	else
		ZSTD_freeCStream(z->zs);
	free(z);
	return ret;
}

/* ---- decompressing --------------------------------------------------- */

struct fxt_zin {
	enum fxt_zip	kind;
	int		fd;
	bool		eof;		/* no more compressed bytes */
	bool		in_stream;	/* a member/frame started, not ended */
	bool		cut;		/* the input ended inside one */
	uint64_t	consumed;	/* compressed bytes decoded */
	struct inflate_state gz;
	ZSTD_DStream	*zs;
	ZSTD_inBuffer	zin;
	uint8_t		*in;
	size_t		in_len;
	char		err[160];
	uint8_t		buf[ZIO_CHUNK];
};

struct fxt_zin *fxt_zin_create(int fd, enum fxt_zip kind, const void *head,
			       size_t head_len)
{
	struct fxt_zin *z;

	_Static_assert(FXT_ZIN_HEAD_MAX <= ZIO_CHUNK,
		       "the head must fit the input buffer");
	if ((kind != FXT_ZIP_GZIP && kind != FXT_ZIP_ZSTD) ||
	    head_len > FXT_ZIN_HEAD_MAX) {
		errno = EINVAL;
		return NULL;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->kind = kind;
	z->fd = fd;
	if (head_len)
		memcpy(z->buf, head, head_len);
	z->in = z->buf;
	z->in_len = head_len;
	/* gzip: each member's igzip state set up where it starts */
	if (kind == FXT_ZIP_GZIP)
		return z;
	z->zs = ZSTD_createDStream();
	if (z->zs && !ZSTD_isError(ZSTD_initDStream(z->zs)))
		return z;
	ZSTD_freeDStream(z->zs);
	free(z);
	errno = ENOMEM;
	return NULL;
}

static ssize_t zin_bad(struct fxt_zin *z, const char *what)
{
	snprintf(z->err, sizeof(z->err), "%s %s at compressed offset 0x%llx",
		 z->kind == FXT_ZIP_GZIP ? "gzip" : "zstd", what,
		 (unsigned long long)z->consumed);
	return -EBADMSG;
}

/* More compressed bytes into z->in; 0 at the end, < 0 on error. */
static ssize_t zin_fill(struct fxt_zin *z)
{
	ssize_t n;

	if (z->in_len)
		return (ssize_t)z->in_len;
	do {
		n = read(z->fd, z->buf, sizeof(z->buf));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		z->eof = true;
	z->in = z->buf;
	z->in_len = (size_t)n;
	return n;
}

/*
 * Compressed bytes to decode: > 0 available, 0 at a clean end, < 0 an
 * error, among them the end of the input inside a member or frame.
 */
static ssize_t zin_more(struct fxt_zin *z)
{
	ssize_t got = zin_fill(z);

	if (!got && z->in_stream) {
		z->cut = true;
		return zin_bad(z, "stream truncated");
	}
	return got;
}

static ssize_t zin_gzip(struct fxt_zin *z, void *buf, size_t n)
{
	uint32_t want = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;

	z->gz.next_out = buf;
	z->gz.avail_out = want;
	while (z->gz.avail_out == want) {
		size_t before;
		ssize_t got = zin_more(z);
		int ret;

		if (got <= 0) {
			if (got < 0)
				return got;
			break;
		}
		if (!z->in_stream) {
			/* a member, the first or one as `cat a.gz b.gz` makes */
			uint8_t *out = z->gz.next_out;
			uint32_t room = z->gz.avail_out;

			isal_inflate_init(&z->gz);
			z->gz.crc_flag = ISAL_GZIP;
			z->gz.next_out = out;
			z->gz.avail_out = room;
			z->in_stream = true;
		}
		z->gz.next_in = z->in;
		z->gz.avail_in = (uint32_t)z->in_len;
		before = z->in_len;
		ret = isal_inflate(&z->gz);
		if (ret != ISAL_DECOMP_OK)
			return zin_bad(z, "data corrupt");
		/*
		 * igzip takes a member's 8-byte trailer through its 64-bit
		 * bit buffer and leaves it empty (check_gzip_checksum()):
		 * the next member starts at next_in
		 */
		if (z->gz.block_state == ISAL_BLOCK_FINISH)
			z->in_stream = false;
		z->consumed += before - z->gz.avail_in;
		z->in = z->gz.next_in;
		z->in_len = z->gz.avail_in;
	}
	return (ssize_t)((uint8_t *)z->gz.next_out - (uint8_t *)buf);
}

static ssize_t zin_zstd(struct fxt_zin *z, void *buf, size_t n)
{
	ZSTD_outBuffer out = { buf, n, 0 };

	while (!out.pos) {
		ZSTD_inBuffer in;
		ssize_t got = zin_more(z);
		size_t ret;

		if (got <= 0) {
			if (got < 0)
				return got;
			break;
		}
		in = (ZSTD_inBuffer){ z->in, z->in_len, 0 };
		ret = ZSTD_decompressStream(z->zs, &out, &in);
		if (ZSTD_isError(ret))
			return zin_bad(z, "data corrupt");
		z->consumed += in.pos;
		z->in += in.pos;
		z->in_len -= in.pos;
		/* 0: a frame is complete and fully flushed */
		z->in_stream = ret != 0;
	}
	return (ssize_t)out.pos;
}

ssize_t fxt_zin_read(struct fxt_zin *z, void *buf, size_t n)
{
	if (!n)
		return 0;
	return z->kind == FXT_ZIP_GZIP ? zin_gzip(z, buf, n)
				       : zin_zstd(z, buf, n);
}

const char *fxt_zin_error(const struct fxt_zin *z)
{
	return z->err;
}

int fxt_zip_map(int fd, enum fxt_zip kind, void **map, size_t *len,
		bool *cut)
{
	struct fxt_zin *z = fxt_zin_create(fd, kind, NULL, 0);
	size_t cap = 1u << 20, used = 0;
	uint8_t *m;
	ssize_t n;

	if (!z)
		return -errno;
	m = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		fxt_zin_destroy(z);
		return -ENOMEM;
	}
	for (;;) {
		if (used == cap) {
			void *nm = mremap(m, cap, 2 * cap, MREMAP_MAYMOVE);

			if (nm == MAP_FAILED) {
				n = -ENOMEM;
				break;
			}
			m = nm;
			cap *= 2;
		}
		n = fxt_zin_read(z, m + used, cap - used);
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	if (cut) {
		*cut = n == -EBADMSG && z->cut;
		if (*cut)
			n = 0;
	}
	fxt_zin_destroy(z);
	if (n < 0 || !used) {
		munmap(m, cap);
		return n < 0 ? (int)n : -ENODATA;
	}
	/* give back what the last doubling did not use */
	if (cap - used >= 4096) {
		size_t keep = (used + 4095) & ~(size_t)4095;

		munmap(m + keep, cap - keep);
	}
	*map = m;
	*len = used;
	return 0;
}

void fxt_zin_destroy(struct fxt_zin *z)
{
	if (!z)
		return;
	if (z->kind != FXT_ZIP_GZIP)
		ZSTD_freeDStream(z->zs);
	free(z);
}
