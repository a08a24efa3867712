// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads-dat-gen.c - a .dat of a multi-threaded process, for
 * perfetto-samples.sh, written with the core's .dat writer.
 *
 *   threads-dat-gen FORMATS_DIR OUT.dat
 *
 * Process 5000 ("python3") has worker threads 5001-5003 that existed
 * before the recording (no task_newtask tells their group): only the
 * pid field of their atrace markers ("B|5000|...") says they are 5000's.
 * Workers and the main thread take turns on two CPUs, each writing a B
 * and a bare E; process 5000 and process 6000 both use async cookie 1,
 * under different names, overlapping (5000's ends first); worker 5003
 * leaves as a
 * zombie (prev_state 0x20).  Each CPU's frequency changes, and each
 * CPU leaves idle (cpu_idle state 4294967295) before its first switch of
 * a round and enters state 1 after its last; rss_stat
 * samples 5000's mm (mm_id 77) from its workers (curr = 1) and from
 * process 6000 (curr = 0).  The sched_switch format is the real one in
 * FORMATS_DIR, the print format a kernel's (ftrace/print, id 5).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat-fixture.h"

/* The kernel's formats (6.x), without their ids: the writer gives them. */

/* power:cpu_frequency and power:cpu_idle: a state and a CPU. */
#define POWER_FORMAT(name)						\
	"name: " name "\n"						\
	"format:\n"							\
	FIXTURE_COMMON_FIELDS						\
	"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"		\
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n"		\
	"\n"								\
	"print fmt: \"state=%lu cpu_id=%lu\", "				\
	"(unsigned long)REC->state, "					\
	"(unsigned long)REC->cpu_id\n"

static const char cpu_frequency_format[] = POWER_FORMAT("cpu_frequency");
static const char cpu_idle_format[] = POWER_FORMAT("cpu_idle");

static const char rss_stat_format[] =
	"name: rss_stat\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:unsigned int mm_id;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int curr;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int member;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:long size;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"mm_id=%u curr=%d type=%s size=%ldB\", REC->mm_id, "
	"REC->curr, __print_symbolic(REC->member, { 0, \"MM_FILEPAGES\" }, "
	"{ 1, \"MM_ANONPAGES\" }, { 2, \"MM_SWAPENTS\" }, "
	"{ 3, \"MM_SHMEMPAGES\" }), REC->size\n";

static int id_switch, id_print, id_freq, id_idle, id_rss;

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the file is the host's byte order */
}

static const char *comm_of(int pid)
{
	static const struct { int pid; const char *comm; } c[] = {
		{ 0, "swapper" }, { 5000, "python3" }, { 5001, "worker-1" },
		{ 5002, "worker-2" }, { 5003, "worker-3" }, { 6000, "other" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (c[i].pid == pid)
			return c[i].comm;
	return "?";
}

static void sched_switch(unsigned int cpu, int prev, uint64_t state,
			 int next)
{
	uint8_t p[56] = { 0 };

	strncpy((char *)p, comm_of(prev), 16);
	put32(p + 16, prev);
	put32(p + 20, 120);
	memcpy(p + 24, &state, 8);
	strncpy((char *)p + 32, comm_of(next), 16);
	put32(p + 48, next);
	put32(p + 52, 120);
	fixture_emit(cpu, id_switch, prev, p, sizeof(p));
}

static void marker(unsigned int cpu, int pid, const char *text)
{
	uint8_t p[128] = { 0 };
	size_t n = strlen(text);

	memcpy(p + 8, text, n);
	p[8 + n] = '\n';
	fixture_emit(cpu, id_print, pid, p, 8 + n + 2);
}

static void cpu_frequency(unsigned int cpu, uint32_t khz)
{
	uint8_t p[8];

	put32(p, khz);
	put32(p + 4, cpu);
	fixture_emit(cpu, id_freq, 0, p, sizeof(p));
}

static void cpu_idle(unsigned int cpu, uint32_t state)
{
	uint8_t p[8];

	put32(p, state);
	put32(p + 4, cpu);
	fixture_emit(cpu, id_idle, 0, p, sizeof(p));
}

/* @pid reads the anon rss of mm @mm (its own when @curr). */
static void rss_stat(unsigned int cpu, int pid, uint32_t mm, int curr,
		     int64_t bytes)
{
	uint8_t p[24] = { 0 };

	put32(p, mm);
	put32(p + 4, curr);
	put32(p + 8, 1);	/* MM_ANONPAGES */
	memcpy(p + 16, &bytes, 8);
	fixture_emit(cpu, id_rss, pid, p, sizeof(p));
}

int main(int argc, char **argv)
{
	struct dat_writer *w;
	static const int pids[] = { 5000, 5001, 5002, 5003, 6000 };
	char buf[64];
	unsigned int cpu, i;
	int t;

	if (argc != 3) {
		fprintf(stderr, "usage: threads-dat-gen FORMATS_DIR OUT.dat\n");
		return 2;
	}
	w = fixture_open("threads-dat-gen", argv[2]);
	id_switch = fixture_format_file(argv[1], "sched", "sched_switch");
	id_print = fixture_format("ftrace", fixture_print_format,
				  strlen(fixture_print_format));
	id_freq = fixture_format("power", cpu_frequency_format,
				 sizeof(cpu_frequency_format) - 1);
	id_idle = fixture_format("power", cpu_idle_format,
				 sizeof(cpu_idle_format) - 1);
	id_rss = fixture_format("kmem", rss_stat_format,
				sizeof(rss_stat_format) - 1);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
		dat_writer_add_cmdline(w, pids[i], comm_of(pids[i]));

	for (i = 0; i < 12; i++) {
		cpu = i % 2;
		t = 5001 + i % 3;
		cpu_idle(cpu, UINT32_MAX);
		sched_switch(cpu, 0, 0, t);
		snprintf(buf, sizeof(buf), "B|5000|work %u", i);
		marker(cpu, t, buf);
		marker(cpu, t, "E");
		cpu_frequency(cpu, 1200000 + 100000 * i);
		rss_stat(cpu, t, 77, 1, 4096 * (100 + i));
		sched_switch(cpu, t, 1, 5000);
		snprintf(buf, sizeof(buf), "B|5000|main %u", i);
		marker(cpu, 5000, buf);
		marker(cpu, 5000, "S|5000|upload|1");
		marker(cpu, 5000, "E|5000");
		sched_switch(cpu, 5000, 1, 6000);
		marker(cpu, 6000, "S|6000|download|1");
		/* 6000 reads 5000's mm (as reclaim or procfs would) */
		rss_stat(cpu, 6000, 77, 0, 4096 * (200 + i));
		sched_switch(cpu, 6000, 1, 5000);
		marker(cpu, 5000, "F|5000|upload|1");
		sched_switch(cpu, 5000, 1, 6000);
		marker(cpu, 6000, "F|6000|download|1");
		sched_switch(cpu, 6000, 1, 0);
		cpu_idle(cpu, 1);
	}
	sched_switch(0, 0, 0, 5003);
	sched_switch(0, 5003, 0x20, 0);
	fixture_close();
	return 0;
}
