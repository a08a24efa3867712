// SPDX-License-Identifier: GPL-2.0-only
/*
 * arrays-dat-gen.c - a .dat of events with integer arrays, for
 * convert-arrays.sh, written with the core's .dat writer.
 *
 *   arrays-dat-gen OUT.dat
 *
 * raw_syscalls:sys_enter in the kernel's format (long id; unsigned long
 * args[6]), user addresses and small numbers in its arguments; and
 * test:arrays, whose fields are the other cases: "int vals[3]" (4-byte
 * signed elements, negatives among them), "unsigned char bytes[4]" (1-byte
 * elements), "u64 many[9]" (more elements than map-array.c splits),
 * "s64 deltas[3]" (8-byte signed elements around the 32-bit limits, which
 * map-array.c writes narrower when they fit).
 * trace-cmd report -R of the file is what the conversion must give back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat-fixture.h"

/* The kernel's (6.x), without its id: the writer gives it. */
static const char sys_enter_format[] =
	"name: sys_enter\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, "
	"REC->args[0], REC->args[1], REC->args[2], REC->args[3], "
	"REC->args[4], REC->args[5]\n";

static const char arrays_format[] =
	"name: arrays\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int vals[3];\toffset:12;\tsize:12;\tsigned:1;\n"
	"\tfield:unsigned char bytes[4];\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 many[9];\toffset:32;\tsize:72;\tsigned:0;\n"
	"\tfield:s64 deltas[3];\toffset:104;\tsize:24;\tsigned:1;\n"
	"\n"
	"print fmt: \"n=%d\", REC->n\n";


int main(int argc, char **argv)
{
	struct dat_writer *w;
	int id_enter, id_arrays;
	unsigned int i, k;

	if (argc != 2) {
		fprintf(stderr, "usage: arrays-dat-gen OUT.dat\n");
		return 2;
	}
	w = fixture_open("arrays-dat-gen", argv[1]);
	id_enter = fixture_format("raw_syscalls", sys_enter_format,
				  sizeof(sys_enter_format) - 1);
	id_arrays = fixture_format("test", arrays_format,
				   sizeof(arrays_format) - 1);
	dat_writer_add_cmdline(w, 4242, "arrays");

	for (i = 0; i < 8; i++) {
		/* the file is the host's byte order (little-endian here) */
		int64_t nr = i * 3;
		uint64_t args[6] = {
			i, 0x7ffd12345678ull + i, 0xffffffffffffff9cull,
			0, 1ull << 32 | i, 0x1000 * i,
		};
		int32_t n = i, vals[3] = { -1 - (int)i, 0x7fffffff, (int)i };
		uint8_t bytes[4] = { 0xde, 0xad, (uint8_t)i, 0 };
		uint64_t many[9];
		int64_t deltas[3] = {
			-1 - (int64_t)i, INT32_MIN - (int64_t)(i % 2),
			INT32_MAX + (int64_t)(i % 2),
		};
		uint8_t p[120] = { 0 };

		memcpy(p, &nr, 8);
		memcpy(p + 8, args, 48);
		fixture_emit(i % 2, id_enter, 4242, p, 56);
		for (k = 0; k < 9; k++)
			many[k] = (uint64_t)k << (8 * (k % 8)) | i;
		memset(p, 0, sizeof(p));
		memcpy(p, &n, 4);
		memcpy(p + 4, vals, 12);
		memcpy(p + 16, bytes, 4);
		memcpy(p + 24, many, 72);
		memcpy(p + 96, deltas, 24);
		fixture_emit(i % 2, id_arrays, 4242, p, 120);
	}
	fixture_close();
	return 0;
}
