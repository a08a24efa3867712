/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-zio.h - FXT inside gzip or zstd: streaming compression for the
 * writer, streaming decompression for the reader.
 *
 * Perfetto's trace processor gunzips any trace before it looks at the
 * content, so a gzip'd FXT opens there as it is; older releases stop at
 * the end of the first gzip member, so the writer makes exactly one.
 * zstd is for our own tools, `zstd -d` and current Perfetto releases
 * (which read zstd too).  Both directions stream:
 * nothing holds the whole file, and readers recognise a compressed input
 * by its magic bytes, never by its name.  Compressing runs on a thread of
 * its own, a batch behind the writer, in batches of one size: the same
 * input always gives the same bytes.
 */
#ifndef _FXT_ZIO_H
#define _FXT_ZIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum fxt_zip {
	FXT_ZIP_NONE,
	FXT_ZIP_GZIP,
	FXT_ZIP_ZSTD,
};

/* Enough leading bytes for fxt_zip_detect() to tell every kind apart. */
#define FXT_ZIP_MAGIC_LEN	4

/**
 * fxt_zip_detect() - which compression the first bytes of an input say
 * @p: the input's first bytes
 * @n: how many there are (fewer than FXT_ZIP_MAGIC_LEN: FXT_ZIP_NONE)
 *
 * Return: FXT_ZIP_GZIP, FXT_ZIP_ZSTD, or FXT_ZIP_NONE for anything else.
 */
enum fxt_zip fxt_zip_detect(const void *p, size_t n);

/**
 * fxt_zip_from_name() - the compression a file name's suffix asks for
 * @path: the file name
 *
 * Return: FXT_ZIP_GZIP for ".gz", FXT_ZIP_ZSTD for ".zst", else
 * FXT_ZIP_NONE.
 */
enum fxt_zip fxt_zip_from_name(const char *path);

/**
 * fxt_zip_parse() - a compression named on a command line
 * @s: "gzip" (or "gz"), "zstd" (or "zst") or "none"
 *
 * Return: the kind, or -EINVAL for any other name.
 */
int fxt_zip_parse(const char *s);

/* ---- compressing ----------------------------------------------------- */

struct fxt_zout;

/**
 * fxt_zout_create() - a compressor that writes one stream to @fd
 * @fd: where the compressed bytes go (stays the caller's)
 * @kind: FXT_ZIP_GZIP or FXT_ZIP_ZSTD
 *
 * Return: the compressor, or NULL with errno set.
 */
struct fxt_zout *fxt_zout_create(int fd, enum fxt_zip kind);

/**
 * fxt_zout_write() - compress @n bytes and write what is ready
 * @z: the compressor
 * @p: the bytes
 * @n: how many
 *
 * Return: 0, or a negative errno (write error, or -EIO from the library).
 */
int fxt_zout_write(struct fxt_zout *z, const void *p, size_t n);

/**
 * fxt_zout_close() - end the stream, write its tail and free @z
 * @z: the compressor (NULL is allowed)
 *
 * Return: 0, or the first error this compressor met.
 */
int fxt_zout_close(struct fxt_zout *z);

/* ---- decompressing --------------------------------------------------- */

struct fxt_zin;

/* The most bytes fxt_zin_create() takes as @head. */
#define FXT_ZIN_HEAD_MAX	(64u * 1024)

/**
 * fxt_zin_create() - a decompressor reading a stream from @fd
 * @fd: the compressed input (stays the caller's)
 * @kind: FXT_ZIP_GZIP or FXT_ZIP_ZSTD
 * @head: bytes already read from @fd (to detect the kind), decompressed
 *	  before anything else is read; may be NULL
 * @head_len: how many, at most FXT_ZIN_HEAD_MAX
 *
 * gzip input may hold several members, as gzip(1) writes when files are
 * concatenated; they decompress as one stream.  zstd input may hold
 * several frames likewise.
 *
 * Return: the decompressor, or NULL with errno set.
 */
struct fxt_zin *fxt_zin_create(int fd, enum fxt_zip kind, const void *head,
			       size_t head_len);

/**
 * fxt_zin_read() - up to @n decompressed bytes
 * @z: the decompressor
 * @buf: where they go
 * @n: room in @buf
 *
 * Return: bytes stored; 0 at the end of the stream; -EBADMSG for corrupt
 * or truncated data (fxt_zin_error() says what), another negative errno
 * for a read error.
 */
ssize_t fxt_zin_read(struct fxt_zin *z, void *buf, size_t n);

/**
 * fxt_zin_error() - why the last fxt_zin_read() failed
 * @z: the decompressor
 *
 * Return: a message naming the compressed offset, or "" when none.
 */
const char *fxt_zin_error(const struct fxt_zin *z);

/**
 * fxt_zip_map() - decompress a whole input into anonymous memory
 * @fd: the compressed input, read from its current offset
 * @kind: FXT_ZIP_GZIP or FXT_ZIP_ZSTD
 * @map: set to the memory, page-aligned; munmap(*map, *len) frees it
 * @len: set to the number of decompressed bytes (at least 1)
 * @cut: NULL, or set to whether the stream was cut short: a lenient
 *	 reader's, which then gets the bytes it decompressed to (exact:
 *	 the compressed bytes there were whole) as the file, cut too
 *
 * For readers that need the decoded file at random (KernelShark's plugin
 * keeps offsets into it): the memory is what mapping the plain file
 * would take, grown as the stream decompresses.
 *
 * Return: 0, -ENODATA for an empty stream, -EBADMSG for corrupt data or
 * (@cut NULL) a stream cut short, or another negative errno.
 */
int fxt_zip_map(int fd, enum fxt_zip kind, void **map, size_t *len,
		bool *cut);

/**
 * fxt_zin_destroy() - free @z (NULL is allowed)
 * @z: the decompressor
 */
void fxt_zin_destroy(struct fxt_zin *z);

#endif /* _FXT_ZIO_H */
