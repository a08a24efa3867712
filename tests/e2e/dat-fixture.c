// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-fixture.c - the .dat fixture generators' shared steps; see
 * dat-fixture.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat-fixture.h"

static const char *fixture_prog = "fixture";
static const char *fixture_path;
static struct dat_writer *fixture_w;
static int fixture_fd = -1;
static uint64_t fixture_now = 1000000000ull;
unsigned int fixture_cpus = 2;
const char *fixture_compression = "none";

const char fixture_print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

void fixture_die(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", fixture_prog, what, strerror(-err));
	exit(1);
}

struct dat_writer *fixture_open(const char *prog, const char *path)
{
	struct dat_writer_opts o = {
		.compression = fixture_compression, .cpus = fixture_cpus,
	};

	fixture_prog = prog;
	fixture_path = path;
	fixture_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fixture_fd < 0)
		fixture_die(path, -errno);
	fixture_w = dat_writer_create(fixture_fd, &o);
	if (!fixture_w)
		fixture_die("dat_writer_create", -errno);
	return fixture_w;
}

int fixture_format(const char *system, const char *text, size_t len)
{
	int id = dat_writer_add_event_format(fixture_w, system, text, len);

	if (id < 0)
		fixture_die(system, id);
	return id;
}

int fixture_format_file(const char *dir, const char *system,
			const char *name)
{
	char path[4096], text[16384];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.format", dir, name);
	f = fopen(path, "r");
	if (!f)
		fixture_die(path, -errno);
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	return fixture_format(system, text, n);
}

void fixture_emit_at(int buffer, unsigned int cpu, uint64_t ts, int id,
		     int pid, const void *p, size_t len)
{
	struct dat_event ev = {
		.id = id, .pid = pid, .payload = p, .payload_len = len,
	};
	int r = dat_writer_write_event(fixture_w, buffer, cpu, ts, &ev);

	if (r)
		fixture_die("write", r);
	if (ts > fixture_now)
		fixture_now = ts;
}

void fixture_emit(unsigned int cpu, int id, int pid, const void *p,
		  size_t len)
{
	fixture_emit_at(0, cpu, fixture_now + 1000, id, pid, p, len);
}

int fixture_buffer(const char *name)
{
	int b = dat_writer_add_buffer(fixture_w, name);

	if (b < 0)
		fixture_die(name, b);
	return b;
}

void fixture_close(void)
{
	int r = dat_writer_close(fixture_w);

	if (r)
		fixture_die(fixture_path, r);
	close(fixture_fd);
}
