// SPDX-License-Identifier: GPL-2.0-only
/*
 * funcgraph-dat-gen.c - a .dat of the function_graph tracer's events, for
 * perfetto-samples.sh, written with the core's .dat writer: this
 * machine's kernel offers no function_graph tracer to record them with.
 *
 *   funcgraph-dat-gen OUT.dat
 *
 * Thread 7000 ("reader") on CPU 0 calls ksys_read, which calls vfs_read,
 * which calls rw_verify_area, twice; the idle task on CPU 1 calls
 * do_idle (pid 0: Perfetto draws it on the CPU's track, not a thread's).
 * The formats are the kernel's ftrace funcgraph_entry/funcgraph_exit
 * (6.18, as tracefs lists them), the symbols a kallsyms text of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dat-fixture.h"

static const char funcgraph_entry_format[] =
	"name: funcgraph_entry\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"--> %ps (%u)\", (void *)REC->func, REC->depth\n";

static const char funcgraph_exit_format[] =
	"name: funcgraph_exit\n"
	"format:\n"
	FIXTURE_COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\t"
	"signed:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\t"
	"signed:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%u) (start: %llx  end: %llx) over: %u\", "
	"(void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
	"REC->depth\n";

/* The functions called, as /proc/kallsyms lists them. */
#define F_KSYS_READ		0xffffffff816d61a0ull
#define F_VFS_READ		0xffffffff816d5370ull
#define F_RW_VERIFY_AREA	0xffffffff816d2a20ull
#define F_DO_IDLE		0xffffffff81176a60ull

static const char kallsyms[] =
	"ffffffff81176a60 T do_idle\n"
	"ffffffff816d2a20 T rw_verify_area\n"
	"ffffffff816d5370 T vfs_read\n"
	"ffffffff816d61a0 T ksys_read\n";

static int id_entry, id_exit;

static void entry(unsigned int cpu, int pid, uint64_t func, uint32_t depth)
{
	uint8_t p[16] = { 0 };

	memcpy(p, &func, 8);	/* the file is the host's byte order */
	memcpy(p + 8, &depth, 4);
	fixture_emit(cpu, id_entry, pid, p, sizeof(p));
}

static void leave(unsigned int cpu, int pid, uint64_t func, uint32_t depth)
{
	uint8_t p[32] = { 0 };
	uint64_t t = 1000;

	memcpy(p, &func, 8);
	memcpy(p + 8, &depth, 4);
	memcpy(p + 16, &t, 8);	/* calltime, rettime: the tracer's own */
	t += 500;
	memcpy(p + 24, &t, 8);
	fixture_emit(cpu, id_exit, pid, p, sizeof(p));
}

int main(int argc, char **argv)
{
	struct dat_writer *w;
	int i, r;

	if (argc != 2) {
		fprintf(stderr, "usage: funcgraph-dat-gen OUT.dat\n");
		return 2;
	}
	w = fixture_open("funcgraph-dat-gen", argv[1]);
	id_entry = fixture_format("ftrace", funcgraph_entry_format,
				  sizeof(funcgraph_entry_format) - 1);
	id_exit = fixture_format("ftrace", funcgraph_exit_format,
				 sizeof(funcgraph_exit_format) - 1);
	r = dat_writer_set_kallsyms(w, kallsyms, sizeof(kallsyms) - 1);
	if (r)
		fixture_die("kallsyms", r);
	dat_writer_add_cmdline(w, 7000, "reader");
	for (i = 0; i < 2; i++) {
		entry(0, 7000, F_KSYS_READ, 0);
		entry(0, 7000, F_VFS_READ, 1);
		entry(0, 7000, F_RW_VERIFY_AREA, 2);
		leave(0, 7000, F_RW_VERIFY_AREA, 2);
		leave(0, 7000, F_VFS_READ, 1);
		leave(0, 7000, F_KSYS_READ, 0);
		entry(1, 0, F_DO_IDLE, 0);
		leave(1, 0, F_DO_IDLE, 0);
	}
	fixture_close();
	return 0;
}
