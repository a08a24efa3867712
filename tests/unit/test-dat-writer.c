// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-dat-writer.c - the .dat v7 writer, judged by the real reader.
 *
 * Every test writes a file with the core's writer, opens it with Debian's
 * libtracecmd and compares what comes back (CPU, timestamp, event, pid,
 * every byte of every record, field values, task names) with what was
 * written.  Timestamps are unique within a file so that the reader's
 * merge order is the order of the expected list once sorted by time.
 * The second suite runs the same tests on big-endian files (the writer's
 * opts.big_endian, every number of the test's records big endian too):
 * libtracecmd reads either order on any host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "dat-writer.h"
#include "unit.h"

/* ---- expected events ---- */

struct want {
	int		buffer;
	unsigned int	cpu;
	uint64_t	ts;
	size_t		len;
	uint8_t		*data;
};

static struct want *wants;
static size_t nr_wants;
static char path[256];
static int out_fd = -1;

static void want_reset(void)
{
	size_t i;

	for (i = 0; i < nr_wants; i++)
		free(wants[i].data);
	free(wants);
	wants = NULL;
	nr_wants = 0;
}

static int want_cmp(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The files' byte order: the "big endian" suite sets it. */
static bool big;

static void put16(uint8_t *p, uint16_t v)
{
	p[big] = v;
	p[!big] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p + 2 * big, v);
	put16(p + 2 * !big, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p + 4 * big, v);
	put32(p + 4 * !big, v >> 32);
}

/* Write one event and remember its record bytes as the reader should
 * see them: common fields, then the payload. */
static int emit(struct dat_writer *w, int buffer, unsigned int cpu,
		uint64_t ts, int id, int pid, const void *payload, size_t len)
{
	struct dat_event ev = {
		.id = id, .flags = 1 + (ts & 3), .preempt_count = ts & 7,
		.pid = pid, .payload = payload, .payload_len = len,
	};
	struct want *x;
	int r;

	r = dat_writer_write_event(w, buffer, cpu, ts, &ev);
	if (r)
		return r;
	wants = realloc(wants, (nr_wants + 1) * sizeof(*wants));
	x = &wants[nr_wants++];
	x->buffer = buffer;
	x->cpu = cpu;
	x->ts = ts;
	x->len = 8 + len;
	x->data = malloc(x->len);
	put16(x->data, id);
	x->data[2] = ev.flags;
	x->data[3] = ev.preempt_count;
	put32(x->data + 4, pid);
	memcpy(x->data + 8, payload, len);
	return 0;
}

/* ---- files ---- */

static char *slurp(const char *rel, size_t *len)
{
	static char buf[8192];
	FILE *f = fopen(unit_path(rel), "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static struct dat_writer *open_writer_opts(const char *name,
					   const struct dat_writer_opts *opts)
{
	struct dat_writer_opts o = *opts;
	struct dat_writer *w;
	int fd;

	o.big_endian = big;
	want_reset();
	snprintf(path, sizeof(path), "%s/test-dat-%s-%d.dat",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return NULL;
	w = dat_writer_create(fd, &o);
	if (!w)
		close(fd);
	else
		out_fd = fd;
	return w;
}

static struct dat_writer *open_writer(const char *name, const char *comp,
				      unsigned int cpus)
{
	struct dat_writer_opts o = { .compression = comp, .cpus = cpus };

	return open_writer_opts(name, &o);
}

/* The writer leaves the fd to its caller. */
static int close_writer(struct dat_writer *w)
{
	int r = dat_writer_close(w);

	close(out_fd);
	out_fd = -1;
	return r;
}

static const char sched_sys[] = "sched";
static int id_switch, id_wakeup;

static void add_sched_formats(struct dat_writer *w)
{
	size_t n;
	char *t;

	t = slurp("tests/unit/dat-formats/sched_switch.format", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	id_switch = dat_writer_add_event_format(w, sched_sys, t, n);
	t = slurp("tests/unit/dat-formats/sched_wakeup.format", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	id_wakeup = dat_writer_add_event_format(w, sched_sys, t, n);
	CU_ASSERT_EQUAL(id_switch, 372);
	CU_ASSERT_EQUAL(id_wakeup, 374);
}

/* ---- reading back ---- */

struct got {
	int		buffer;
	unsigned int	cpu;
	uint64_t	ts;
	size_t		len;
	uint8_t		*data;
	int		pid;
};

static struct got *gots;
static size_t nr_gots;

static void got_reset(void)
{
	size_t i;

	for (i = 0; i < nr_gots; i++)
		free(gots[i].data);
	free(gots);
	gots = NULL;
	nr_gots = 0;
}

static int collect(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		   void *arg)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct got *g;

	gots = realloc(gots, (nr_gots + 1) * sizeof(*gots));
	g = &gots[nr_gots++];
	g->buffer = *(int *)arg;
	g->cpu = rec->cpu;
	g->ts = rec->ts;
	g->len = rec->size;
	g->data = malloc(rec->size);
	memcpy(g->data, rec->data, rec->size);
	g->pid = tep_data_pid(tep, rec);
	(void)cpu;
	return 0;
}

/* Compare what one buffer's handle yields with the wanted events. */
static void check_buffer(struct tracecmd_input *h, int buffer)
{
	size_t i, j = 0;

	got_reset();
	CU_ASSERT_EQUAL(tracecmd_iterate_events(h, NULL, 0, collect, &buffer),
			0);
	if (nr_wants)
		qsort(wants, nr_wants, sizeof(*wants), want_cmp);
	for (i = 0; i < nr_wants; i++) {
		struct want *x = &wants[i];
		int pid;

		if (x->buffer != buffer)
			continue;
		if (j >= nr_gots) {
			CU_FAIL("reader has fewer events than written");
			return;
		}
		CU_ASSERT_EQUAL(gots[j].cpu, x->cpu);
		CU_ASSERT_EQUAL(gots[j].ts, x->ts);
		/* small records come back padded to 4 bytes */
		CU_ASSERT_EQUAL(gots[j].len, (x->len + 3) & ~3ul);
		if (gots[j].len >= x->len)
			CU_ASSERT_EQUAL(memcmp(gots[j].data, x->data, x->len), 0);
		pid = big ? x->data[4] << 24 | x->data[5] << 16 |
			    x->data[6] << 8 | x->data[7] :
			    x->data[7] << 24 | x->data[6] << 16 |
			    x->data[5] << 8 | x->data[4];
		CU_ASSERT_EQUAL(gots[j].pid, pid);
		j++;
	}
	CU_ASSERT_EQUAL(j, nr_gots);
}

static struct tracecmd_input *open_reader(void)
{
	struct tracecmd_input *h;

	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	CU_ASSERT_PTR_NOT_NULL(h);
	if (h)
		CU_ASSERT_EQUAL(tep_is_file_bigendian(tracecmd_get_tep(h)),
				big);
	return h;
}

static size_t count_buffer(int buffer)
{
	size_t i, n = 0;

	for (i = 0; i < nr_wants; i++)
		n += wants[i].buffer == buffer;
	return n;
}

/* ---- the sched file: two real formats, field by field ---- */

static void fill_switch(uint8_t *p, const char *prev, int prev_pid,
			long prev_state, const char *next, int next_pid)
{
	memset(p, 0, 56);
	strncpy((char *)p, prev, 16);
	put32(p + 16, prev_pid);
	put32(p + 20, 120);
	put64(p + 24, prev_state);
	strncpy((char *)p + 32, next, 16);
	put32(p + 48, next_pid);
	put32(p + 52, 100 + next_pid % 20);
}

static void fill_wakeup(uint8_t *p, const char *comm, int pid, int cpu)
{
	memset(p, 0, 28);
	strncpy((char *)p, comm, 16);
	put32(p + 16, pid);
	put32(p + 20, 120);
	put32(p + 24, cpu);
}

static const char *comms[] = { "swapper/0", "bash", "kworker/1:2", "sshd" };
static const int pids[] = { 0, 1234, 77, 4242 };

static void write_sched(const char *comp)
{
	struct dat_writer *w = open_writer(comp, comp, 2);
	uint8_t p[64];
	unsigned int i, cpu;
	uint64_t ts = 1000000000ull;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	add_sched_formats(w);
	for (i = 1; i < 4; i++)
		CU_ASSERT_EQUAL(dat_writer_add_cmdline(w, pids[i], comms[i]), 0);
	CU_ASSERT_EQUAL(dat_writer_add_option_string(w, DAT_OPTION_UNAME,
				"Linux test 6.1.0 x86_64"), 0);
	CU_ASSERT_EQUAL(dat_writer_add_option_string(w, DAT_OPTION_VERSION,
				"trace-fxt test"), 0);
	for (i = 0; i < 3000; i++) {
		int a = i % 4, b = (i + 1) % 4;

		cpu = i % 2;
		ts += 1000 + i % 7;
		if (i % 3) {
			fill_switch(p, comms[a], pids[a], i % 3 == 1 ? 1 : 0,
				    comms[b], pids[b]);
			CU_ASSERT_EQUAL(emit(w, 0, cpu, ts, id_switch, pids[a],
					     p, 56), 0);
		} else {
			fill_wakeup(p, comms[b], pids[b], cpu);
			CU_ASSERT_EQUAL(emit(w, 0, cpu, ts, id_wakeup, pids[a],
					     p, 28), 0);
		}
	}
	CU_ASSERT_EQUAL(close_writer(w), 0);
}

static void check_sched_fields(struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *sw = tep_find_event(tep, id_switch);
	struct tep_event *wk = tep_find_event(tep, id_wakeup);
	struct tep_record *rec;
	unsigned long long v;
	unsigned int n = 0, cpu;
	const char *s;
	int len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wk);
	CU_ASSERT_STRING_EQUAL(sw->name, "sched_switch");
	CU_ASSERT_STRING_EQUAL(wk->system, "sched");
	for (cpu = 0; cpu < 2; cpu++) {
		while ((rec = tracecmd_read_data(h, cpu))) {
			int id = tep_data_type(tep, rec);
			struct tep_event *e = tep_find_event(tep, id);
			int pid = tep_data_pid(tep, rec);
			int a = (pid == 1234) ? 1 : pid == 77 ? 2 :
				pid == 4242 ? 3 : 0;
			int b = (a + 1) % 4;

			CU_ASSERT_EQUAL(rec->cpu, (int)cpu);
			CU_ASSERT_PTR_EQUAL(e, id == id_switch ? sw : wk);
			if (e == sw) {
				tep_get_field_val(NULL, e, "prev_pid", rec, &v, 0);
				CU_ASSERT_EQUAL(v, (unsigned long long)pids[a]);
				tep_get_field_val(NULL, e, "next_pid", rec, &v, 0);
				CU_ASSERT_EQUAL(v, (unsigned long long)pids[b]);
				tep_get_field_val(NULL, e, "next_prio", rec, &v, 0);
				CU_ASSERT_EQUAL(v, 100ull + pids[b] % 20);
				tep_get_field_val(NULL, e, "prev_prio", rec, &v, 0);
				CU_ASSERT_EQUAL(v, 120);
				CU_ASSERT_EQUAL(tep_read_number_field(
					tep_find_field(e, "prev_state"),
					rec->data, &v), 0);
				CU_ASSERT(v == 0 || v == 1);
				s = tep_get_field_raw(NULL, e, "next_comm", rec,
						      &len, 0);
				CU_ASSERT(s && len == 16 &&
					  !strcmp(s, comms[b]));
				s = tep_get_field_raw(NULL, e, "prev_comm", rec,
						      &len, 0);
				CU_ASSERT(s && !strcmp(s, comms[a]));
			} else {
				tep_get_field_val(NULL, e, "pid", rec, &v, 0);
				CU_ASSERT_EQUAL(v, (unsigned long long)pids[b]);
				tep_get_field_val(NULL, e, "target_cpu", rec,
						  &v, 0);
				CU_ASSERT_EQUAL(v, cpu);
				s = tep_get_field_raw(NULL, e, "comm", rec, &len,
						      0);
				CU_ASSERT(s && !strcmp(s, comms[b]));
			}
			tep_get_common_field_val(NULL, e, "common_flags", rec,
						 &v, 0);
			CU_ASSERT_EQUAL(v, 1 + (rec->ts & 3));
			tep_get_common_field_val(NULL, e, "common_preempt_count",
						 rec, &v, 0);
			CU_ASSERT_EQUAL(v, rec->ts & 7);
			tracecmd_free_record(rec);
			n++;
		}
	}
	CU_ASSERT_EQUAL(n, 3000);
	CU_ASSERT_STRING_EQUAL(tep_data_comm_from_pid(tep, 1234), "bash");
	CU_ASSERT_STRING_EQUAL(tep_data_comm_from_pid(tep, 77), "kworker/1:2");
	CU_ASSERT_STRING_EQUAL(tep_data_comm_from_pid(tep, 4242), "sshd");
	CU_ASSERT_EQUAL(tep_get_cpus(tep), 2);
}

static void test_sched(const char *comp)
{
	struct tracecmd_input *h;

	write_sched(comp);
	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 3000);
	tracecmd_close(h);
	h = open_reader();
	if (!h)
		return;
	check_sched_fields(h);
	tracecmd_close(h);
	unlink(path);
}

static void test_sched_none(void)
{
	test_sched("none");
}

static void test_sched_zstd(void)
{
	uint8_t head[32];
	off_t plain;
	int fd;

	write_sched("none");
	fd = open(path, O_RDONLY);
	plain = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(path);

	test_sched("zstd");
	write_sched("zstd");
	fd = open(path, O_RDONLY);
	CU_ASSERT_EQUAL(pread(fd, head, sizeof(head), 0), (ssize_t)sizeof(head));
	/* magic, "tracing", "7", endian, long size, page size, then name */
	CU_ASSERT_EQUAL(memcmp(head + 18, "zstd", 5), 0);
	CU_ASSERT(lseek(fd, 0, SEEK_END) < plain / 2);
	close(fd);
	unlink(path);
}

/* ---- sizes: small/large encodings, half-page events, the limit ---- */

/* A format with one array of n bytes; no ID line, so the writer picks. */
static int add_array_format(struct dat_writer *w, const char *name, int n)
{
	char text[1024];
	int len;

	len = snprintf(text, sizeof(text),
		"name: %s\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:unsigned int seq;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned char blob[%d];\toffset:12;\tsize:%d;\tsigned:0;\n"
		"\n"
		"print fmt: \"seq=%%u\", REC->seq\n", name, n, n);
	return dat_writer_add_event_format(w, "fxt_test", text, len);
}

static void fill_blob(uint8_t *p, size_t n, unsigned int seq)
{
	size_t i;

	put32(p, seq);
	for (i = 4; i < n; i++)
		p[i] = (uint8_t)(seq * 31 + i);
}

static void test_sizes(const char *comp)
{
	/* record sizes: smallest, largest small, first large, 1/2 page + */
	static const int blobs[] = { 0, 100, 104, 1, 2, 3, 500, 2100, 3000,
				     4060 };
	int ids[sizeof(blobs) / sizeof(blobs[0])];
	struct dat_writer *w = open_writer("sizes", comp, 3);
	struct tracecmd_input *h;
	static uint8_t p[4096];
	unsigned int i, k;
	uint64_t ts = 5000;
	char name[32];

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (k = 0; k < sizeof(blobs) / sizeof(blobs[0]); k++) {
		snprintf(name, sizeof(name), "blob%d", blobs[k]);
		ids[k] = add_array_format(w, name, blobs[k]);
		CU_ASSERT(ids[k] > 0);
	}
	/* the writer numbers formats without an ID line one after another */
	CU_ASSERT_EQUAL(ids[1], ids[0] + 1);
	for (i = 0; i < 600; i++) {
		k = i % (sizeof(blobs) / sizeof(blobs[0]));
		fill_blob(p, 4 + blobs[k], i);
		ts += 10 + i;
		CU_ASSERT_EQUAL(emit(w, 0, i % 3, ts, ids[k], i, p,
				     4 + blobs[k]), 0);
	}
	/* 8 + 4 + 4060 is the most a 4096-byte page takes; one more fails */
	k = add_array_format(w, "toobig", 4061);
	CU_ASSERT_EQUAL(emit(w, 0, 0, ts + 1, k, 1, p, 4 + 4061), -E2BIG);
	CU_ASSERT_EQUAL(close_writer(w), 0);

	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 600);
	tracecmd_close(h);
	unlink(path);
}

static void test_sizes_none(void)
{
	test_sizes("none");
}

static void test_sizes_zstd(void)
{
	test_sizes("zstd");
}

/* ---- time: gaps that need a time extend, or a new page ---- */

static void test_time_gaps(void)
{
	static const uint64_t gaps[] = {
		0, 1, (1ull << 27) - 1, 1ull << 27, (1ull << 27) + 1,
		1ull << 32, 123456789012ull, (1ull << 59) - 1, 1ull << 59,
		1ull << 60, 3, 0, 1ull << 40,
	};
	struct dat_writer *w = open_writer("gaps", "none", 2);
	struct tracecmd_input *h;
	uint8_t p[28];
	unsigned int i, cpu;
	uint64_t ts[2] = { 17, 99 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	add_sched_formats(w);
	for (i = 0; i < 2 * sizeof(gaps) / sizeof(gaps[0]); i++) {
		cpu = i & 1;
		ts[cpu] += gaps[i / 2];
		/* unique timestamps across CPUs keep the merge order */
		if (cpu && ts[1] == ts[0])
			ts[1]++;
		fill_wakeup(p, "gap", i, cpu);
		CU_ASSERT_EQUAL(emit(w, 0, cpu, ts[cpu], id_wakeup, i, p, 28),
				0);
	}
	/* time never goes back on a CPU */
	fill_wakeup(p, "late", 1, 0);
	CU_ASSERT_EQUAL(emit(w, 0, 0, ts[0] - 1, id_wakeup, 1, p, 28),
			-EINVAL);
	CU_ASSERT_EQUAL(close_writer(w), 0);

	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 2 * sizeof(gaps) / sizeof(gaps[0]));
	tracecmd_close(h);
	unlink(path);
}

/* ---- many CPUs, most of them empty ---- */

static void test_many_cpus(void)
{
	static const unsigned int used[] = { 0, 7, 64, 150, 255, 256, 299 };
	struct dat_writer *w = open_writer("cpus", "zstd", 300);
	struct tracecmd_input *h;
	uint8_t p[28];
	unsigned int i, cpu;
	uint64_t ts = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	add_sched_formats(w);
	for (i = 0; i < 2000; i++) {
		cpu = used[i % (sizeof(used) / sizeof(used[0]))];
		fill_wakeup(p, "many", i, cpu);
		ts += 3;
		CU_ASSERT_EQUAL(emit(w, 0, cpu, ts, id_wakeup, i, p, 28), 0);
	}
	CU_ASSERT_EQUAL(emit(w, 0, 300, ts + 1, id_wakeup, 1, p, 28), -EINVAL);
	CU_ASSERT_EQUAL(close_writer(w), 0);

	h = open_reader();
	if (!h)
		return;
	CU_ASSERT_EQUAL(tep_get_cpus(tracecmd_get_tep(h)), 300);
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 2000);
	tracecmd_close(h);
	unlink(path);
}

/* ---- buffers: an instance with events, an empty one ---- */

static void check_instances(const char *comp, bool empty_top)
{
	struct dat_writer *w = open_writer("buffers", comp, 4);
	struct tracecmd_input *h, *ih;
	int second, idle, n, i, found = 0;
	uint8_t p[28];
	uint64_t ts = 100;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	add_sched_formats(w);
	second = dat_writer_add_buffer(w, "second");
	idle = dat_writer_add_buffer(w, "idle");
	CU_ASSERT_EQUAL(second, 1);
	CU_ASSERT_EQUAL(idle, 2);
	CU_ASSERT_EQUAL(dat_writer_add_buffer(w, "second"), -EEXIST);
	for (i = 0; i < 1500; i++) {
		int b = (empty_top || i % 3) ? second : 0;

		fill_wakeup(p, "inst", i, i % 4);
		ts += 7;
		CU_ASSERT_EQUAL(emit(w, b, i % 4, ts, id_wakeup, i, p, 28), 0);
	}
	CU_ASSERT_EQUAL(close_writer(w), 0);

	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, count_buffer(0));
	n = tracecmd_buffer_instances(h);
	CU_ASSERT_EQUAL(n, 2);
	for (i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(h, i);
		int b = !strcmp(name, "second") ? second : idle;

		found += b == second;
		ih = tracecmd_buffer_instance_handle(h, i);
		CU_ASSERT_PTR_NOT_NULL(ih);
		if (!ih)
			continue;
		check_buffer(ih, b);
		CU_ASSERT_EQUAL(nr_gots, count_buffer(b));
		tracecmd_close(ih);
	}
	CU_ASSERT_EQUAL(found, 1);
	tracecmd_close(h);
	unlink(path);
}

static void test_two_buffers(void)
{
	check_instances("none", false);
	check_instances("zstd", false);
}

static void test_empty_top_buffer(void)
{
	check_instances("zstd", true);
}

static void test_no_events(void)
{
	struct dat_writer *w = open_writer("empty", "none", 2);
	struct tracecmd_input *h;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	add_sched_formats(w);
	CU_ASSERT_EQUAL(close_writer(w), 0);
	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 0);
	tracecmd_close(h);
	unlink(path);
}

/* ---- a long zstd run: many chunks, mixed sizes, random gaps ---- */

static void test_long_zstd(void)
{
	struct dat_writer *w = open_writer("long", "zstd", 4);
	struct tracecmd_input *h;
	static uint8_t p[1024];
	uint64_t ts[4] = { 0, 1, 2, 3 };
	unsigned int i, cpu, seed = 12345;
	int id;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	id = add_array_format(w, "var", 600);
	for (i = 0; i < 20000; i++) {
		seed = seed * 1103515245 + 12345;
		cpu = (seed >> 8) % 4;
		/* steps are multiples of 4 plus the CPU: never equal; one
		 * in eight is up to 2^34 ns, past a 27-bit delta */
		if ((seed >> 4) % 8)
			ts[cpu] += 4 * (1 + (seed >> 12) % 50);
		else
			ts[cpu] += (uint64_t)(seed >> 4) << 6;
		fill_blob(p, 604, i);
		CU_ASSERT_EQUAL(emit(w, 0, cpu, ts[cpu], id, i, p, 604), 0);
	}
	CU_ASSERT_EQUAL(close_writer(w), 0);
	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, 20000);
	tracecmd_close(h);
	unlink(path);
}

/* ---- lost events: the missed-events flags of a page ---- */

/* What tracecmd_read_data() should say each CPU's records missed. */
struct lost_want {
	long long	missed[2][1024];
	unsigned int	n[2];
};

static void lost_emit(struct dat_writer *w, struct lost_want *lw,
		      unsigned int cpu, uint64_t *ts, int id, size_t len,
		      long long missed)
{
	static uint8_t p[8192];

	fill_blob(p, len, lw->n[cpu]);
	*ts += 10;
	CU_ASSERT_EQUAL(emit(w, 0, cpu, *ts, id, 100 + cpu, p, len), 0);
	lw->missed[cpu][lw->n[cpu]++] = missed;
}

/* The lines trace-cmd report prints for dropped events, in file order. */
static char *report_dropped(void)
{
	static char out[4096];
	char cmd[512], line[1024];
	size_t n = 0;
	FILE *f;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return out;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "EVENTS DROPPED]") &&
		    n + strlen(line) < sizeof(out)) {
			strcpy(out + n, line);
			n += strlen(line);
		}
	pclose(f);
	return out;
}

static void check_lost(unsigned int long_size, const char *comp)
{
	struct dat_writer_opts o = {
		.compression = comp, .cpus = 2, .long_size = long_size,
	};
	/* the page's data area, minus a big event's two words, the common
	 * fields and seq: a blob that fills the page to the last byte */
	size_t full = 4096 - (8 + long_size) - 8 - 8 - 4;
	struct dat_writer *w = open_writer_opts("lost", &o);
	static struct lost_want lw;
	struct tracecmd_input *h;
	struct tep_record *rec;
	int id, id_full, id_room;
	unsigned int cpu, i;
	uint64_t ts = 1000;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	memset(&lw, 0, sizeof(lw));
	id = add_array_format(w, "small", 32);
	id_full = add_array_format(w, "full", full);
	id_room = add_array_format(w, "room", full - long_size);

	/* before the very first event, count unknown */
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, -1), 0);
	lost_emit(w, &lw, 0, &ts, id, 36, -1);
	for (i = 0; i < 9; i++)
		lost_emit(w, &lw, 0, &ts, id, 36, 0);
	/* mid-page: the next event starts a page of its own */
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, 2465), 0);
	lost_emit(w, &lw, 0, &ts, id, 36, 2465);
	/* the count's long is kept free while the page fills up */
	for (i = 0; i < 300; i++)
		lost_emit(w, &lw, 0, &ts, id, 36, 0);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, 3), 0);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, 4), 0);
	lost_emit(w, &lw, 0, &ts, id, 36, 7);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, 5), 0);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, -1), 0);
	lost_emit(w, &lw, 0, &ts, id, 36, -1);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, INT64_MAX), 0);
	lost_emit(w, &lw, 0, &ts, id, 36, INT32_MAX);
	lost_emit(w, &lw, 0, &ts, id, 36, 0);

	lost_emit(w, &lw, 1, &ts, id, 36, 0);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 1, 1), 0);
	lost_emit(w, &lw, 1, &ts, id, 36, 1);
	/* an event that fills its page leaves no room for the count */
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 1, 42), 0);
	lost_emit(w, &lw, 1, &ts, id_full, full + 4, -1);
	/* one that leaves exactly a long does */
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 1, 43), 0);
	lost_emit(w, &lw, 1, &ts, id_room, full - long_size + 4, 43);
	lost_emit(w, &lw, 1, &ts, id, 36, 0);
	/* lost after the last event: no page to say it on */
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 1, 9), 0);

	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 2, 1), -EINVAL);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 1, 0, 1), -EINVAL);
	CU_ASSERT_EQUAL(dat_writer_lost_events(w, 0, 0, 0), -EINVAL);
	CU_ASSERT_EQUAL(close_writer(w), 0);

	h = open_reader();
	if (!h)
		return;
	check_buffer(h, 0);
	CU_ASSERT_EQUAL(nr_gots, lw.n[0] + lw.n[1]);
	tracecmd_close(h);
	h = open_reader();
	if (!h)
		return;
	for (cpu = 0; cpu < 2; cpu++) {
		for (i = 0; (rec = tracecmd_read_data(h, cpu)); i++) {
			if (i < lw.n[cpu] &&
			    rec->missed_events != lw.missed[cpu][i])
				fprintf(stderr, "cpu %u record %u: missed %lld, "
					"want %lld\n", cpu, i,
					rec->missed_events,
					lw.missed[cpu][i]);
			CU_ASSERT(i < lw.n[cpu] &&
				  rec->missed_events == lw.missed[cpu][i]);
			tracecmd_free_record(rec);
		}
		CU_ASSERT_EQUAL(i, lw.n[cpu]);
	}
	tracecmd_close(h);
	CU_ASSERT_STRING_EQUAL(report_dropped(),
			       "CPU:0 [EVENTS DROPPED]\n"
			       "CPU:0 [2465 EVENTS DROPPED]\n"
			       "CPU:0 [7 EVENTS DROPPED]\n"
			       "CPU:0 [EVENTS DROPPED]\n"
			       "CPU:0 [2147483647 EVENTS DROPPED]\n"
			       "CPU:1 [1 EVENTS DROPPED]\n"
			       "CPU:1 [EVENTS DROPPED]\n"
			       "CPU:1 [43 EVENTS DROPPED]\n");
	unlink(path);
}

static void test_lost_long8(void)
{
	check_lost(8, "none");
}

static void test_lost_long4_zstd(void)
{
	check_lost(4, "zstd");
}

/* ---- the API's refusals ---- */

static void test_refusals(void)
{
	struct dat_writer_opts o = { .cpus = 1 };
	struct dat_writer *w;
	uint8_t p[28] = { 0 };
	size_t n;
	char *t;

	o.compression = "zlib";
	CU_ASSERT_PTR_NULL(dat_writer_create(1, &o));
	CU_ASSERT_EQUAL(errno, EINVAL);
	o.compression = NULL;
	o.page_size = 5000;
	CU_ASSERT_PTR_NULL(dat_writer_create(1, &o));
	o.page_size = 0;
	o.cpus = 0;
	CU_ASSERT_PTR_NULL(dat_writer_create(1, &o));

	w = open_writer("refuse", "none", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	t = slurp("tests/unit/dat-formats/sched_wakeup.format", &n);
	CU_ASSERT_EQUAL(dat_writer_add_event_format(w, "sched", t, n), 374);
	CU_ASSERT_EQUAL(dat_writer_add_event_format(w, "sched", t, n),
			-EEXIST);
	CU_ASSERT_EQUAL(dat_writer_add_event_format(w, "x", "nothing", 7),
			-EINVAL);
	CU_ASSERT_EQUAL(emit(w, 0, 0, 5, 999, 1, p, 28), -ENOENT);
	CU_ASSERT_EQUAL(emit(w, 1, 0, 5, 374, 1, p, 28), -EINVAL);
	CU_ASSERT_EQUAL(dat_writer_add_option(w, 3, p, 8), -EINVAL);
	CU_ASSERT_EQUAL(dat_writer_add_cmdline(w, 5, "two\nlines"), -EINVAL);
	dat_writer_discard(w);
	close(out_fd);
	out_fd = -1;
	unlink(path);
}

static CU_TestInfo dat_tests[] = {
	{ "sched_switch + sched_wakeup, none", test_sched_none },
	{ "sched_switch + sched_wakeup, zstd", test_sched_zstd },
	{ "small, large, half-page, page-limit events, none", test_sizes_none },
	{ "small, large, half-page, page-limit events, zstd", test_sizes_zstd },
	{ "timestamp gaps up to 2^60 ns", test_time_gaps },
	{ "300 CPUs, 293 empty", test_many_cpus },
	{ "two buffers and an empty one", test_two_buffers },
	{ "empty top buffer", test_empty_top_buffer },
	{ "no events at all", test_no_events },
	{ "20000 events, zstd chunks", test_long_zstd },
	{ "lost events, 8-byte long", test_lost_long8 },
	{ "lost events, 4-byte long, zstd", test_lost_long4_zstd },
	{ "refusals", test_refusals },
	CU_TEST_INFO_NULL,
};

static int suite_cleanup(void)
{
	want_reset();
	got_reset();
	return 0;
}

/* What a byte order changes: numbers, event words, commit flags. */
static CU_TestInfo dat_be_tests[] = {
	{ "sched_switch + sched_wakeup, none", test_sched_none },
	{ "sched_switch + sched_wakeup, zstd", test_sched_zstd },
	{ "small, large, half-page, page-limit events, none", test_sizes_none },
	{ "small, large, half-page, page-limit events, zstd", test_sizes_zstd },
	{ "timestamp gaps up to 2^60 ns", test_time_gaps },
	{ "two buffers and an empty one", test_two_buffers },
	{ "lost events, 8-byte long", test_lost_long8 },
	{ "lost events, 4-byte long, zstd", test_lost_long4_zstd },
	CU_TEST_INFO_NULL,
};

static int suite_be_init(void)
{
	big = true;
	return 0;
}

static int suite_be_cleanup(void)
{
	big = false;
	return suite_cleanup();
}

static CU_SuiteInfo suites[] = {
	{ "dat-writer", NULL, suite_cleanup, NULL, NULL, dat_tests },
	{ "dat-writer big endian", suite_be_init, suite_be_cleanup, NULL, NULL,
	  dat_be_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
