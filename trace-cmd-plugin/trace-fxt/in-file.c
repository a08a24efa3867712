// SPDX-License-Identifier: GPL-2.0-only
/*
 * in-file.c - what an input is, and a seekable copy of a pipe
 * (in-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anon-file.h"
#include "dat-format.h"
#include "fd-io.h"
#include "fxt-format.h"
#include "fxt-zio.h"
#include "in-file.h"
#include "pft2dat.h"

/* The magic number record, little- and big-endian. */
static bool is_fxt_magic(const unsigned char *p, size_t n)
{
	uint64_t le = 0, be = 0;
	size_t i;

	if (n < 8)
		return false;
	for (i = 0; i < 8; i++) {
		le |= (uint64_t)p[i] << (8 * i);
		be = be << 8 | p[i];
	}
	return le == FXT_MAGIC_RECORD || be == FXT_MAGIC_RECORD;
}

/* Whether a compressed file holds a Perfetto trace: its first bytes. */
static bool zipped_perfetto(int fd, enum fxt_zip kind)
{
	unsigned char buf[PFT2DAT_SNIFF_LEN];
	struct fxt_zin *z;
	ssize_t n = 0, got;

	if (lseek(fd, 0, SEEK_SET))
		return false;
	z = fxt_zin_create(fd, kind, NULL, 0);
	if (!z)
		return false;
	while (n < (ssize_t)sizeof(buf) &&
	       (got = fxt_zin_read(z, buf + n, sizeof(buf) - n)) > 0)
		n += got;
	fxt_zin_destroy(z);
	return n > 0 && pft2dat_sniff(buf, (size_t)n);
}

int in_file_kind(const char *path, unsigned char *head, size_t size,
		 size_t *len)
{
	enum fxt_zip zip;
	bool pft;

	unsigned char buf[PFT2DAT_SNIFF_LEN];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	if (n < 0) {
		close(fd);
		return -errno;
	}
	zip = n > 0 ? fxt_zip_detect(buf, (size_t)n) : FXT_ZIP_NONE;
	pft = zip != FXT_ZIP_NONE ? zipped_perfetto(fd, zip) :
				    pft2dat_sniff(buf, (size_t)n);
	close(fd);
	if (head && len) {
		*len = (size_t)n < size ? (size_t)n : size;
		memcpy(head, buf, *len);
	}
	if (n >= DAT_MAGIC_LEN && !memcmp(buf, DAT_MAGIC, DAT_MAGIC_LEN))
		return IN_KIND_DAT;
	if (pft)
		return IN_KIND_PERFETTO;
	if (is_fxt_magic(buf, (size_t)n) || zip != FXT_ZIP_NONE)
		return IN_KIND_FXT;
	return IN_KIND_OTHER;
}

bool in_file_is_dat(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) &&
	       in_file_kind(path, NULL, 0, NULL) == IN_KIND_DAT;
}

bool in_file_is_perfetto(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) &&
	       in_file_kind(path, NULL, 0, NULL) == IN_KIND_PERFETTO;
}

/* Copy @from to its end into a new unnamed file: its fd, or -1. */
static int copy_to_anon(int from)
{
	const char *tmp = getenv("TMPDIR");
	char buf[1 << 16];
	ssize_t n;
	int fd = anon_file_open(tmp && *tmp ? tmp : "/tmp");

	if (fd < 0)
		return -1;
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fd_write_all(fd, buf, (size_t)n) < 0)
			goto fail;
	}
	if (lseek(fd, 0, SEEK_SET) == 0)
		return fd;
fail:
	n = errno;
	close(fd);
	errno = (int)n;
	return -1;
}

const char *in_file_seekable(const char *in, char *buf, size_t size, int *fd)
{
	struct stat st;
	int from, err;

	*fd = -1;
	if (!stat(in, &st) && S_ISREG(st.st_mode))
		return in;
	from = open(in, O_RDONLY | O_CLOEXEC);
	if (from < 0)
		return NULL;
	*fd = copy_to_anon(from);
	err = errno;
	close(from);
	if (*fd < 0) {
		errno = err;
		return NULL;
	}
	snprintf(buf, size, "/proc/self/fd/%d", *fd);
	return buf;
}
