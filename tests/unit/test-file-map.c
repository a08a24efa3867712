// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-file-map - libutil.a's whole-file mapping (file-map.h): a file's
 * bytes as read(2) gives them, an empty file as an empty string, and
 * what is no regular file (a directory, a device, a FIFO, a pipe)
 * refused with -ENODEV, without waiting on a FIFO that has no writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-map.h"
#include "unit.h"

/* A name of this process's own in /tmp (each test removes its files). */
static const char *tmp_path(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "/tmp/test-file-map.%d.%s", (int)getpid(),
		 name);
	return path;
}

/* tmp_path(@name), holding @len bytes of @data. */
static const char *make_file(const char *name, const void *data, size_t len)
{
	const char *path = tmp_path(name);
	FILE *f;

	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(data, 1, len, f), len);
	CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
	return path;
}

/* Three pages and a bit of bytes, every one where the file has it. */
static void test_regular(void)
{
	size_t n = 3 * 4096 + 77, len = 0, i, bad = 0;
	unsigned char *data = malloc(n);
	const unsigned char *p;
	const void *map = NULL;
	const char *path;
	int flags;

	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	for (i = 0; i < n; i++)
		data[i] = (unsigned char)(i * 131 + 7);
	path = make_file("regular", data, n);
	for (flags = 0; flags < 4; flags++) {
		CU_ASSERT_EQUAL_FATAL(file_map(path, flags, &map, &len), 0);
		CU_ASSERT_EQUAL(len, n);
		p = map;
		for (i = 0; i < n; i++)
			bad += p[i] != data[i];
		file_unmap(map, len);
	}
	CU_ASSERT_EQUAL(bad, 0);
	unlink(path);
	free(data);
}

/* An open descriptor stays open, at the offset it was. */
static void test_fd(void)
{
	const char *path = make_file("fd", "0123456789", 10);
	const void *map;
	size_t len;
	char c;
	int fd = open(path, O_RDONLY);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(read(fd, &c, 1), 1);
	CU_ASSERT_EQUAL_FATAL(file_map_fd(fd, 0, &map, &len), 0);
	CU_ASSERT_EQUAL(len, 10);
	CU_ASSERT_EQUAL(memcmp(map, "0123456789", 10), 0);
	file_unmap(map, len);
	CU_ASSERT_EQUAL(lseek(fd, 0, SEEK_CUR), 1);
	CU_ASSERT_EQUAL(close(fd), 0);
	unlink(path);
}

/* An empty file: no mapping, an empty string, and nothing to undo. */
static void test_empty(void)
{
	const char *path = make_file("empty", "", 0);
	const void *map = NULL;
	size_t len = 1;

	CU_ASSERT_EQUAL_FATAL(file_map(path, FILE_MAP_POPULATE, &map, &len),
			      0);
	CU_ASSERT_EQUAL(len, 0);
	CU_ASSERT_PTR_NOT_NULL(map);
	CU_ASSERT_STRING_EQUAL(map, "");
	file_unmap(map, len);
	unlink(path);
}

static void test_not_regular(void)
{
	const char *fifo = tmp_path("fifo");
	const void *map;
	size_t len;
	int fds[2];

	CU_ASSERT_EQUAL(file_map("/tmp", 0, &map, &len), -ENODEV);
	CU_ASSERT_EQUAL(file_map("/dev/null", 0, &map, &len), -ENODEV);
	/* no writer: refused at once, not waited on */
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	CU_ASSERT_EQUAL(file_map(fifo, 0, &map, &len), -ENODEV);
	unlink(fifo);
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	CU_ASSERT_EQUAL(file_map_fd(fds[0], 0, &map, &len), -ENODEV);
	close(fds[0]);
	close(fds[1]);
}

static void test_errors(void)
{
	const void *map;
	size_t len;

	CU_ASSERT_EQUAL(file_map(tmp_path("no-such-file"), 0, &map, &len),
			-ENOENT);
	CU_ASSERT_EQUAL(file_map_fd(-1, 0, &map, &len), -EBADF);
}

static CU_TestInfo map_tests[] = {
	{ "a file's bytes, with each flag", test_regular },
	{ "a descriptor stays open where it was", test_fd },
	{ "an empty file is an empty string", test_empty },
	{ "a directory, a device, a FIFO, a pipe: -ENODEV",
	  test_not_regular },
	{ "a missing file, a closed descriptor: their errno", test_errors },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "file-map: a whole file mapped read-only", NULL, NULL, NULL, NULL,
	  map_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
