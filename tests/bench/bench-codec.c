// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-codec.c - writer and reader throughput on a generated trace.
 *
 * The events look like converted ftrace: a handful of categories and
 * event names, 300 threads of which 24 make seven events in eight, three to five typed arguments with
 * interned names, string values that repeat (task names).  Prints
 * the best of three runs; asserts nothing about time.
 *
 * usage: bench-codec [EVENTS] [FILE]   (default 2000000, a temp file)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"

#define NR_NAMES	48
#define NR_THREADS	300
#define NR_COMMS	64
#define NR_PRE		8192
#define REPEAT		3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)rng_state;
}

struct gen {
	struct fxt_str	names[NR_NAMES];
	struct fxt_str	cat[6];
	struct fxt_str	argn[5];
	struct fxt_str	comms[NR_COMMS];
	char		comm_buf[NR_COMMS][16];
	struct fxt_event ev[NR_PRE];
	struct fxt_arg	args[NR_PRE][5];
};

/* Write @n events to @fd; returns seconds taken, or -1. */
static double write_events(int fd, unsigned long n)
{
	static const char *const cats[] = { "sched", "irq", "timer", "kmem",
					    "workqueue", "syscalls" };
	static struct gen g;
	struct fxt_writer *w = fxt_writer_create_fd(fd, 0);
	unsigned long i;
	char name[32];
	double t0;

	if (!w)
		return -1;
	rng_state = 0x2545f4914f6cdd1dULL;
	for (i = 0; i < 6; i++)
		g.cat[i] = fxt_writer_str(w, cats[i]);
	for (i = 0; i < NR_NAMES; i++) {
		snprintf(name, sizeof(name), "event_%lu", i);
		g.names[i] = fxt_writer_str(w, name);
	}
	g.argn[0] = fxt_writer_str(w, "cpu");
	g.argn[1] = fxt_writer_str(w, "prev_pid");
	g.argn[2] = fxt_writer_str(w, "comm");
	g.argn[3] = fxt_writer_str(w, "delta");
	g.argn[4] = fxt_writer_str(w, "flags");
	for (i = 0; i < NR_COMMS; i++) {
		snprintf(g.comm_buf[i], sizeof(g.comm_buf[i]), "task-%lu", i);
		g.comms[i] = fxt_str_make(g.comm_buf[i], strlen(g.comm_buf[i]));
	}
	fxt_write_provider_info(w, 1, "bench", 5);
	fxt_write_init(w, 1000000000ULL);

	/* Events are made before the clock starts: only the writer is timed. */
	for (i = 0; i < NR_PRE; i++) {
		uint32_t x = rnd();
		/* Like real traces: a few busy threads, a long tail. */
		uint32_t tid = 1000 + ((x >> 24) < 224 ? (x >> 16) % 24 :
				      (x >> 16) % NR_THREADS);
		struct fxt_arg *a = g.args[i];

		a[0] = (struct fxt_arg){ .type = FXT_ARG_UINT32,
					 .name = g.argn[0], .u32 = x & 7 };
		a[1] = (struct fxt_arg){ .type = FXT_ARG_INT32,
					 .name = g.argn[1], .i32 = (int)tid };
		a[2] = (struct fxt_arg){ .type = FXT_ARG_STRING,
					 .name = g.argn[2],
					 .str = g.comms[tid % NR_COMMS] };
		a[3] = (struct fxt_arg){ .type = FXT_ARG_INT64,
					 .name = g.argn[3], .i64 = x >> 8 };
		a[4] = (struct fxt_arg){ .type = FXT_ARG_UINT32,
					 .name = g.argn[4], .u32 = x >> 20 };
		g.ev[i] = (struct fxt_event){
			.type = FXT_EVENT_INSTANT, .thread = { tid / 4, tid },
			.category = g.cat[x % 6],
			.name = g.names[(x >> 3) % NR_NAMES], .args = a,
			.nargs = 3 + (x >> 12) % 3,
		};
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		struct fxt_event *ev = &g.ev[i % NR_PRE];

		ev->ts = i * 1000;
		if (fxt_write_event(w, ev))
			return -1;
	}
	if (fxt_writer_close(w))
		return -1;
	return now() - t0;
}

int main(int argc, char **argv)
{
	unsigned long nevents = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	char tmpl[] = "/tmp/bench-codec-XXXXXX";
	const char *path = argc > 2 ? argv[2] : NULL;
	struct fxt_reader *r;
	struct fxt_record rec;
	struct stat st;
	unsigned long nrec = 0, nev = 0;
	uint64_t sum = 0;
	double t0, tw, tf, tr;
	int fd, null, ret, rep;

	null = open("/dev/null", O_WRONLY);
	fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC, 0644) : mkstemp(tmpl);
	if (fd < 0 || null < 0) {
		perror("bench-codec");
		return 1;
	}
	if (!path)
		path = tmpl;
	/*
	 * Encoding alone (to /dev/null), then the same into a real file, then
	 * reading that file; each REPEAT times, keeping the best, so that
	 * other load on the machine shows less in the figures.
	 */
	tw = tf = tr = 1e9;
	for (rep = 0; rep < REPEAT; rep++) {
		double t;

		t = write_events(null, nevents);
		if (t < 0)
			return 1;
		tw = t < tw ? t : tw;
		if (lseek(fd, 0, SEEK_SET) || ftruncate(fd, 0))
			return 1;
		t = write_events(fd, nevents);
		if (t < 0 || fstat(fd, &st))
			return 1;
		tf = t < tf ? t : tf;

		r = fxt_reader_open(path, 0);
		if (!r)
			return 1;
		nrec = nev = 0;
		sum = 0;
		t0 = now();
		while ((ret = fxt_reader_next(r, &rec)) > 0) {
			nrec++;
			if (rec.type == FXT_REC_EVENT) {
				nev++;
				sum += rec.event.ts + rec.event.nargs +
				       rec.event.name.len;
			}
		}
		t = now() - t0;
		tr = t < tr ? t : tr;
		fxt_reader_close(r);
		if (ret < 0 || nev != nevents) {
			fprintf(stderr, "bench-codec: read back %lu of %lu events\n",
				nev, nevents);
			return 1;
		}
	}
	close(fd);
	close(null);
	if (argc < 3)
		unlink(path);

	printf("codec: %lu events, %.1f MB of FXT (%.1f bytes/event)\n",
	       nevents, st.st_size / 1e6, (double)st.st_size / nevents);
	printf("codec: writer %.1f M events/s (%.0f MB/s) encoding, %.1f M events/s into a file\n",
	       nevents / tw / 1e6, st.st_size / tw / 1e6, nevents / tf / 1e6);
	printf("codec: reader %.1f M records/s, %.0f MB/s (checksum %llx)\n",
	       nrec / tr / 1e6, st.st_size / tr / 1e6,
	       (unsigned long long)sum);
	return 0;
}
