// SPDX-License-Identifier: GPL-2.0-only
/*
 * ties-dat-gen.c - a .dat whose CPU records events of one time on both
 * sides of a compact one, for convert-once.sh, written with the core's
 * .dat writer.
 *
 *   ties-dat-gen FORMATS_DIR OUT.dat
 *
 * Readers of Perfetto's packets take a bundle's events of one time as
 * its FtraceEvents, then its compact switches, then its compact wakings
 * (map-packet.c, map_bundle_order()).  On CPU 0, task 7000 ("ties") is
 * switched in, then at each of three times writes: a sched_waking
 * (compact: its waker runs there) then a trace_marker print; a
 * sched_waking then the sched_switch that takes it off the CPU and back
 * (the switch compact too); and a print then a sched_waking.  The
 * sched_switch and sched_waking formats are the kernel's in
 * FORMATS_DIR (tests/e2e/kernel-formats/), the print format a kernel's.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dat-fixture.h"

static int id_switch, id_waking, id_print;

static void put_comm(uint8_t *p, const char *comm)
{
	memset(p, 0, 16);
	memcpy(p, comm, strlen(comm) < 15 ? strlen(comm) : 15);
}

static void put_i32(uint8_t *p, int32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static const char *comm_of(int pid)
{
	return pid == 7000 ? "ties" : pid == 7001 ? "other" : "swapper/0";
}

/* The payloads after the common fields, at the formats' offsets - 8. */
static void sched_switch(uint64_t ts, int prev, uint64_t state, int next)
{
	uint8_t p[64 - 8] = { 0 };

	put_comm(p, comm_of(prev));
	put_i32(p + 16, prev);
	put_i32(p + 20, 120);
	memcpy(p + 24, &state, sizeof(state));
	put_comm(p + 32, comm_of(next));
	put_i32(p + 48, next);
	put_i32(p + 52, 120);
	fixture_emit_at(0, 0, ts, id_switch, prev, p, sizeof(p));
}

static void sched_waking(uint64_t ts, int waker, int pid)
{
	uint8_t p[36 - 8] = { 0 };

	put_comm(p, comm_of(pid));
	put_i32(p + 16, pid);
	put_i32(p + 20, 120);
	put_i32(p + 24, 0);
	fixture_emit_at(0, 0, ts, id_waking, waker, p, sizeof(p));
}

static void print(uint64_t ts, int pid, const char *text)
{
	uint8_t p[64] = { 0 };
	size_t n = strlen(text);

	memcpy(p + 8, text, n);
	p[8 + n] = '\n';
	fixture_emit_at(0, 0, ts, id_print, pid, p, 8 + n + 2);
}

int main(int argc, char **argv)
{
	uint64_t t = 1000000000ull;
	struct dat_writer *w;

	if (argc != 3) {
		fprintf(stderr, "usage: ties-dat-gen FORMATS_DIR OUT.dat\n");
		return 2;
	}
	w = fixture_open("ties-dat-gen", argv[2]);
	id_switch = fixture_format_file(argv[1], "sched", "sched_switch");
	id_waking = fixture_format_file(argv[1], "sched", "sched_waking");
	id_print = fixture_format("ftrace", fixture_print_format,
				  strlen(fixture_print_format));
	dat_writer_add_cmdline(w, 7000, "ties");
	dat_writer_add_cmdline(w, 7001, "other");

	sched_switch(t, 0, 0, 7000);
	/* a compact waking, then an event of the same time */
	sched_waking(t + 1000, 7000, 7001);
	print(t + 1000, 7000, "after the waking");
	/* a compact waking, then a compact switch of the same time */
	sched_waking(t + 2000, 7000, 7001);
	sched_switch(t + 2000, 7000, 0, 7001);
	sched_switch(t + 3000, 7001, 1, 7000);
	/* an event, then a compact waking of the same time */
	print(t + 4000, 7000, "before the waking");
	sched_waking(t + 4000, 7000, 7001);
	sched_switch(t + 5000, 7000, 1, 0);
	fixture_close();
	return 0;
}
