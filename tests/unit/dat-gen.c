// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-gen.c - write synthetic .dat v7 files for the end-to-end tests.
 *
 *   dat-gen KIND none|zstd OUT.dat FORMATS_DIR
 *
 * KIND is one of
 *   sched    sched_switch and sched_wakeup (real formats from FORMATS_DIR),
 *            2 CPUs, with saved command lines and uname/version options
 *   sizes    events from 12 bytes to a whole page, over 3 CPUs
 *   gaps     timestamp gaps from 1 ns to 2^60 ns
 *   cpus     300 CPUs, events on 7 of them
 *   buffers  the top buffer, an instance "second" and an empty "idle"
 * and prints the number of events it wrote, which is what `trace-cmd
 * report` must show.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../e2e/dat-fixture.h"

static const char *formats_dir;
static long written;

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void emit(struct dat_writer *w, int buffer, unsigned int cpu,
		 uint64_t ts, int id, int pid, const void *payload, size_t len)
{
	struct dat_event ev = {
		.id = id, .flags = 1, .pid = pid,
		.payload = payload, .payload_len = len,
	};
	int r = dat_writer_write_event(w, buffer, cpu, ts, &ev);

	if (r)
		fixture_die("write", r);
	written++;
}

/* seq, then an array of n bytes; the writer assigns the id. */
static int add_blob_format(int n)
{
	char text[1024];
	int len;

	len = snprintf(text, sizeof(text),
		"name: blob%d\n"
		"format:\n"
		FIXTURE_COMMON_FIELDS
		"\tfield:unsigned int seq;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned char blob[%d];\toffset:12;\tsize:%d;\tsigned:0;\n"
		"\n"
		"print fmt: \"seq=%%u\", REC->seq\n", n, n, n);
	return fixture_format("fxt_test", text, len);
}

static void wakeup(uint8_t *p, const char *comm, int pid, int cpu)
{
	memset(p, 0, 28);
	strncpy((char *)p, comm, 16);
	put32(p + 16, pid);
	put32(p + 20, 120);
	put32(p + 24, cpu);
}

static void gen_sched(struct dat_writer *w)
{
	static const char *comms[] = { "swapper/0", "bash", "kworker/1:2",
				       "sshd" };
	static const int pids[] = { 0, 1234, 77, 4242 };
	int sw = fixture_format_file(formats_dir, "sched", "sched_switch");
	int wk = fixture_format_file(formats_dir, "sched", "sched_wakeup");
	uint64_t ts = 1000000000ull;
	uint8_t p[56];
	int i, a, b;

	for (i = 1; i < 4; i++)
		dat_writer_add_cmdline(w, pids[i], comms[i]);
	dat_writer_add_option_string(w, DAT_OPTION_UNAME,
				     "Linux dat-gen 6.1.0 x86_64");
	dat_writer_add_option_string(w, DAT_OPTION_VERSION, "trace-fxt");
	for (i = 0; i < 3000; i++) {
		a = i % 4;
		b = (i + 1) % 4;
		ts += 1000 + i % 7;
		if (i % 3) {
			memset(p, 0, sizeof(p));
			strncpy((char *)p, comms[a], 16);
			put32(p + 16, pids[a]);
			put32(p + 20, 120);
			p[24] = i % 3 == 1;
			strncpy((char *)p + 32, comms[b], 16);
			put32(p + 48, pids[b]);
			put32(p + 52, 120);
			emit(w, 0, i % 2, ts, sw, pids[a], p, 56);
		} else {
			wakeup(p, comms[b], pids[b], i % 2);
			emit(w, 0, i % 2, ts, wk, pids[a], p, 28);
		}
	}
}

static void gen_sizes(struct dat_writer *w)
{
	static const int blobs[] = { 0, 100, 104, 1, 500, 2100, 3000, 4060 };
	static uint8_t p[4096];
	int ids[8], i, k;
	uint64_t ts = 5000;

	for (k = 0; k < 8; k++)
		ids[k] = add_blob_format(blobs[k]);
	for (i = 0; i < 400; i++) {
		k = i % 8;
		memset(p, i, sizeof(p));
		put32(p, i);
		ts += 10 + i;
		emit(w, 0, i % 3, ts, ids[k], i, p, 4 + blobs[k]);
	}
}

static void gen_gaps(struct dat_writer *w)
{
	static const uint64_t gaps[] = {
		1, (1ull << 27) - 1, 1ull << 27, 1ull << 32, 123456789012ull,
		(1ull << 59) - 1, 1ull << 59, 1ull << 60, 3, 1ull << 40,
	};
	int wk = fixture_format_file(formats_dir, "sched", "sched_wakeup");
	uint64_t ts = 17;
	uint8_t p[28];
	unsigned int i;

	for (i = 0; i < 2 * sizeof(gaps) / sizeof(gaps[0]); i++) {
		ts += gaps[i / 2];
		wakeup(p, "gap", i, i & 1);
		emit(w, 0, i & 1, ts, wk, i, p, 28);
	}
}

static void gen_cpus(struct dat_writer *w)
{
	static const unsigned int used[] = { 0, 7, 64, 150, 255, 256, 299 };
	int wk = fixture_format_file(formats_dir, "sched", "sched_wakeup");
	uint8_t p[28];
	uint64_t ts = 1;
	int i;

	for (i = 0; i < 2000; i++) {
		wakeup(p, "many", i, used[i % 7]);
		ts += 3;
		emit(w, 0, used[i % 7], ts, wk, i, p, 28);
	}
}

static void gen_buffers(struct dat_writer *w)
{
	int wk = fixture_format_file(formats_dir, "sched", "sched_wakeup");
	int second = fixture_buffer("second");
	uint8_t p[28];
	uint64_t ts = 100;
	int i;

	fixture_buffer("idle");
	for (i = 0; i < 1500; i++) {
		wakeup(p, "inst", i, i % 4);
		ts += 7;
		emit(w, i % 3 ? second : 0, i % 4, ts, wk, i, p, 28);
	}
}

int main(int argc, char **argv)
{
	struct dat_writer *w;
	const char *kind;

	if (argc != 5) {
		fprintf(stderr,
			"usage: dat-gen sched|sizes|gaps|cpus|buffers none|zstd OUT.dat FORMATS_DIR\n");
		return 2;
	}
	kind = argv[1];
	fixture_compression = argv[2];
	formats_dir = argv[4];
	fixture_cpus = !strcmp(kind, "cpus") ? 300 :
		       !strcmp(kind, "buffers") ? 4 :
		       !strcmp(kind, "sizes") ? 3 : 2;
	w = fixture_open("dat-gen", argv[3]);
	if (!strcmp(kind, "sched"))
		gen_sched(w);
	else if (!strcmp(kind, "sizes"))
		gen_sizes(w);
	else if (!strcmp(kind, "gaps"))
		gen_gaps(w);
	else if (!strcmp(kind, "cpus"))
		gen_cpus(w);
	else if (!strcmp(kind, "buffers"))
		gen_buffers(w);
	else
		fixture_die(kind, -EINVAL);
	fixture_close();
	printf("%ld\n", written);
	return 0;
}
