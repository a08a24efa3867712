// SPDX-License-Identifier: GPL-2.0-only
/*
 * wide-event-dat-gen.c - a .dat of an event of 33 fields, for
 * convert-samples.sh, written with the core's .dat writer: no event this
 * machine's kernel fires has more than 20 of its own, and Perfetto's
 * trace processor takes an event description of 32 fields at most
 * (generic_ftrace_tracker.cc, AddDescriptor), so such an event is the
 * older GenericFtraceEvent in the packets, every field named in it.
 *
 *   wide-event-dat-gen OUT.dat [U32S [CPU]]
 *
 * Task 7000 ("wide") on CPU 0 (or CPU, of CPU + 1 in the file) writes
 * three fixture/wide_event events:
 * sixteen (or U32S, up to 200) unsigned and eight signed 32-bit fields,
 * four unsigned and four signed 64-bit ones, and a comm; the values run
 * through the negative and past INT64_MAX, where a wrong sign or width
 * shows.  convert-once.sh makes one of more fields than the packets'
 * residue holds (tcfxt-residue.h) with U32S, and one of more CPUs than
 * Perfetto's with CPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-fixture.h"

#define U32S_MAX	200
#define S32S	8
#define U64S	4
#define S64S	4
#define COMM_LEN	16
/* the fields after the common ones, in the format's order */
#define PAYLOAD_MAX	(U32S_MAX * 4 + S32S * 4 + U64S * 8 + S64S * 8 + \
			 COMM_LEN)

static int u32s = 16;
static unsigned int cpu;
static char format[16384];

/* The format, its fields one after the other from offset 8. */
static size_t format_make(void)
{
	size_t n = 0, off = 8;
	int i;

#define ADD(...) (n += (size_t)snprintf(format + n, sizeof(format) - n, \
					 __VA_ARGS__))
	ADD("name: wide_event\nformat:\n%s", FIXTURE_COMMON_FIELDS);
	for (i = 0; i < u32s; i++, off += 4)
		ADD("\tfield:unsigned int u%02d;\toffset:%zu;\tsize:4;\t"
		    "signed:0;\n", i, off);
	for (i = 0; i < S32S; i++, off += 4)
		ADD("\tfield:int s%02d;\toffset:%zu;\tsize:4;\tsigned:1;\n",
		    i, off);
	for (i = 0; i < U64S; i++, off += 8)
		ADD("\tfield:unsigned long long w%02d;\toffset:%zu;\t"
		    "size:8;\tsigned:0;\n", i, off);
	for (i = 0; i < S64S; i++, off += 8)
		ADD("\tfield:long long l%02d;\toffset:%zu;\tsize:8;\t"
		    "signed:1;\n", i, off);
	ADD("\tfield:char comm[%d];\toffset:%zu;\tsize:%d;\tsigned:0;\n",
	    COMM_LEN, off, COMM_LEN);
	off += COMM_LEN;
	ADD("\nprint fmt: \"u00=%%u s00=%%d w00=%%llu l00=%%lld comm=%%s\", "
	    "REC->u00, REC->s00, REC->w00, REC->l00, REC->comm\n");
#undef ADD
	if (n >= sizeof(format) || off - 8 > PAYLOAD_MAX)
		fixture_die("format", -1);
	return n;
}

static void wide(int id, unsigned int k)
{
	uint8_t p[PAYLOAD_MAX] = { 0 }, *q = p;
	int i;

	/* the file is the host's byte order */
	for (i = 0; i < u32s; i++, q += 4) {
		uint32_t v = 0xfffffff0u + k * 100 + (unsigned int)i;

		memcpy(q, &v, 4);
	}
	for (i = 0; i < S32S; i++, q += 4) {
		int32_t v = -1000 * (int32_t)(k + 1) + i;

		memcpy(q, &v, 4);
	}
	for (i = 0; i < U64S; i++, q += 8) {
		uint64_t v = 0xfedcba9876543210ull + k + (uint64_t)i;

		memcpy(q, &v, 8);
	}
	for (i = 0; i < S64S; i++, q += 8) {
		int64_t v = INT64_MIN + 7 * (int64_t)k + i;

		memcpy(q, &v, 8);
	}
	snprintf((char *)q, COMM_LEN, "wide-%u", k);
	fixture_emit(cpu, id, 7000, p, (size_t)(q + COMM_LEN - p));
}

int main(int argc, char **argv)
{
	struct dat_writer *w;
	unsigned int k;
	size_t len;
	int id;

	if (argc >= 3)
		u32s = atoi(argv[2]);
	if (argc == 4)
		cpu = (unsigned int)strtoul(argv[3], NULL, 10);
	if (argc < 2 || argc > 4 || u32s < 1 || u32s > U32S_MAX ||
	    cpu > 4095) {
		fprintf(stderr, "usage: wide-event-dat-gen OUT.dat "
			"[U32S [CPU]]\n");
		return 2;
	}
	if (cpu + 1 > fixture_cpus)
		fixture_cpus = cpu + 1;
	w = fixture_open("wide-event-dat-gen", argv[1]);
	len = format_make();
	id = fixture_format("fixture", format, len);
	dat_writer_add_cmdline(w, 7000, "wide");
	for (k = 0; k < 3; k++)
		wide(id, k);
	fixture_close();
	return 0;
}
