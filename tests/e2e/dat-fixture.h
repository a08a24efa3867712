/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-fixture.h - what the .dat fixture generators share: one file
 * written by the core's .dat writer (two CPUs and uncompressed unless
 * set), events a microsecond apart on one clock, and an exit with the
 * reason on the first error (a generator that cannot write its file has
 * nothing to say).
 */
#ifndef DAT_FIXTURE_H
#define DAT_FIXTURE_H

#include <stddef.h>

#include "dat-writer.h"

/* The common fields every event format opens with, and the blank line. */
#define FIXTURE_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* A kernel's ftrace/print (trace_marker) format: ip, then buf[]. */
extern const char fixture_print_format[];

/* The CPUs of the files fixture_open() creates after: 2 unless set. */
extern unsigned int fixture_cpus;
/* Their CPU data's compression ("none" unless set: "zstd"). */
extern const char *fixture_compression;
/* Create PATH (the generator's name PROG for messages) and its writer. */
struct dat_writer *fixture_open(const char *prog, const char *path);
/* Declare an event format of SYSTEM; returns its id. */
int fixture_format(const char *system, const char *text, size_t len);
/* The same of the format in DIR/NAME.format (tracefs' text). */
int fixture_format_file(const char *dir, const char *system,
			const char *name);
/* One event of format ID by PID on CPU, LEN payload bytes at P. */
void fixture_emit(unsigned int cpu, int id, int pid, const void *p,
		  size_t len);
/* The same in BUFFER (0: the top) at time TS, which the clock takes. */
void fixture_emit_at(int buffer, unsigned int cpu, uint64_t ts, int id,
		     int pid, const void *p, size_t len);
/* Add a buffer instance NAME; returns its index. */
int fixture_buffer(const char *name);
/* Finish the file. */
void fixture_close(void);
/* Print "PROG: WHAT: strerror(-ERR)" and exit 1. */
void fixture_die(const char *what, int err) __attribute__((noreturn));

#endif
