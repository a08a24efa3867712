// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-dat.c - libFuzzer target: `trace-fxt convert IN.dat -o OUT.fxt` on
 * untrusted trace.dat bytes, in process and whole: the check of
 * datcheck.h, then, for what it lets through, libtracecmd's open and
 * init and the input plugin's conversion (map_convert) into a memfd.
 *
 * A refused input must say where and why ("offset 0x...: ..."); an
 * accepted one must not make libtracecmd, libtraceevent or the plugin
 * crash, loop or read out of bounds.  libtracecmd and libtraceevent are
 * not built with the sanitizers, so a wild read there shows as a crash.
 * One input in four goes the way `trace-fxt convert` takes by default,
 * which salvages damaged CPU data: the check lists the damage instead of
 * refusing it, libtracecmd opens the check's view of the file (damaged
 * pages made readable, formats parsed from the check), and the plugin
 * reads the pages around the damage.
 *
 * The mutator knows the file's structure, in either byte order: half of
 * the mutations hit a field found by a light walk of the input - the
 * initial header, the header_page and header_event sizes (v6), the
 * section headers and the options of uncompressed option sections (v7),
 * the commit word and first event headers of every 4096-byte-aligned
 * page - with values that stress sizes and offsets; the other half are
 * libFuzzer's own.  The corpus has big-endian seeds (*-be*.dat).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "datcheck.h"
#include "fd-io.h"
#include "fxt-input.h"
#include "map-convert.h"
#include "fuzz-lsan.h"

#define MAX_FIELDS	512

struct field {
	uint32_t	off;
	uint8_t		len;
};

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/*
 * A v6 trace_clock size that runs past the file is libtracecmd's to
 * survive: it allocates size + 1 bytes, and when that or the read fails
 * it uses "local" (old trace-cmd versions wrote CPU data over that
 * text).  A failed allocation is that fallback, not a fault.
 */
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);

/*
 * libtraceevent leaks on some malformed format texts, libtracecmd on
 * some failed opens and the handles left open below: leaks from inside
 * those libraries are theirs.
 */
const char *__lsan_default_suppressions(void)
{
	/* sscanf("%ms") inside libtracecmd: its frames have no symbols */
	return "leak:libtracecmd\nleak:libtraceevent\nleak:tep_parse_event\n"
	       "leak:__isoc99_vsscanf\n";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY);
	struct rlimit nofile;

	/* the handles left open keep their descriptors */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}

	/* libtracecmd explains failures on stdout; libFuzzer uses stderr */
	if (null >= 0)
		dup2(null, STDOUT_FILENO);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	return 0;
}

/* The file's byte order, as its initial header says (a mutation may
 * change it: the walk then reads nonsense, which is fine). */
static bool big;

static uint64_t get_num(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[big ? i : n - 1 - i];
	return v;
}

static void add(struct field *f, unsigned int *nr, size_t size, size_t off,
		unsigned int len)
{
	if (*nr < MAX_FIELDS && off + len <= size)
		f[(*nr)++] = (struct field){ off, len };
}

/* The fields a light walk finds, in either byte order. */
static unsigned int find_fields(const uint8_t *d, size_t size,
				struct field *f)
{
	unsigned int nr = 0;
	size_t pos, at, end;
	uint64_t sz;
	int v7;

	if (size < 20 || memcmp(d, "\x17\x08\x44tracing", 10))
		return 0;
	v7 = d[10] == '7';
	big = d[12] == 1;
	add(f, &nr, size, 12, 1);		/* byte order */
	add(f, &nr, size, 13, 1);		/* long size */
	add(f, &nr, size, 14, 4);		/* page size */
	pos = 18;
	if (!v7) {
		/* "header_page\0" size text "header_event\0" size text */
		add(f, &nr, size, 30, 8);
		if (size >= 38) {
			at = 38 + get_num(d + 30, 8) + 13;
			add(f, &nr, size, at, 8);
		}
	} else {
		pos += strnlen((const char *)d + pos, size - pos) + 1;
		if (pos < size)
			pos += strnlen((const char *)d + pos, size - pos) + 1;
		add(f, &nr, size, pos, 8);		/* options offset */
		for (pos += 8; pos + 16 <= size; pos += 16 + sz) {
			add(f, &nr, size, pos, 2);	/* section id */
			add(f, &nr, size, pos + 2, 2);	/* flags */
			add(f, &nr, size, pos + 8, 8);	/* size */
			sz = get_num(d + pos + 8, 8);
			if (sz > size - pos - 16)
				break;
			if (get_num(d + pos, 2) || (d[pos + 2] & 1))
				continue;
			/* an uncompressed options section: each option */
			end = pos + 16 + sz;
			for (at = pos + 16; at + 6 <= end;
			     at += 6 + get_num(d + at + 2, 4)) {
				add(f, &nr, size, at, 2);
				add(f, &nr, size, at + 2, 4);
				add(f, &nr, size, at + 6, 8);
			}
		}
	}
	for (pos = 4096; pos + 24 <= size; pos += 4096) {
		add(f, &nr, size, pos + 8, 8);		/* commit */
		add(f, &nr, size, pos + 16, 4);		/* first event */
		add(f, &nr, size, pos + 20, 4);
	}
	return nr;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	static const uint64_t values[] = {
		0, 1, 4, 8, 12, 16, 28, 29, 30, 31, 0x7f, 0xff, 0x1000,
		0xffff, 0x7ffffff, 0x8000000, 0x40000000, 0x80000000,
		0xffffffff, 0x7fffffffffffffffULL, ~0ULL,
	};
	struct field f[MAX_FIELDS];
	unsigned int nr, i;
	uint64_t v;

	srand(seed);
	nr = find_fields(data, size, f);
	if (!nr || rand() % 2)
		return LLVMFuzzerMutate(data, size, max);
	i = rand() % nr;
	switch (rand() % 5) {
	case 0:
		v = values[rand() % (sizeof(values) / sizeof(values[0]))];
		break;
	case 1:
		v = get_num(data + f[i].off, f[i].len) + (rand() % 33) - 16;
		break;
	case 2:
		v = size + (rand() % 33) - 16;		/* at the file's end */
		break;
	case 3:
		v = (uint64_t)rand() << 32 | (unsigned int)rand();
		break;
	default:
		/* cut the file at or just after the field */
		return f[i].off + rand() % (f[i].len + 1);
	}
	for (nr = 0; nr < f[i].len; nr++)
		data[f[i].off + (big ? f[i].len - 1 - nr : nr)] = v >> (8 * nr);
	return size;
}

/* A format the records use parsed into libtracecmd's handle (@priv). */
static int parse_format(const char *system, const char *text, size_t len,
			void *priv)
{
	tep_parse_event(priv, text, len, system);
	return 0;
}

/*
 * The salvaging conversion of the @size bytes at @data, the file at
 * @path, as trace-fxt convert runs it (cmd-convert.c, convert_read()):
 * the check, its view for libtracecmd, the layout and damage for the
 * plugin.  The format probe runs first, on its own: trace-fxt reads in
 * a child and asks the probe only when that child died.  0, or the
 * check's refusal with its message in @err.
 */
static int salvage(const uint8_t *data, size_t size, const char *path,
		   int out, char *err, size_t errlen)
{
	struct fxt_input_opts opts = { .end_ts = UINT64_MAX, .path = path };
	struct fxt_input_result res = { 0 };
	struct dat_recs kept = { 0 };
	struct dat_pages pages = { 0 };
	struct datcheck_keep_run *run;
	struct tracecmd_input *handle = NULL;
	uint8_t ids[DATCHECK_IDS_BYTES];
	struct datcheck *dc;
	char view_path[64];
	bool complete;
	int ret, view = -1;

	ret = datcheck_buf_watch(data, size, NULL, DATCHECK_SALVAGE, err,
				 errlen);
	if (!ret)
		ret = datcheck_keep_start(path, fxt_input_tgid_events,
					  FXT_INPUT_NR_TGID_EVENTS,
					  DATCHECK_NO_PROBE | DATCHECK_SALVAGE,
					  &run, err, errlen);
	if (ret)
		return ret;
	dc = datcheck_keep_check(run);
	ret = datcheck_view(dc, &view);
	datcheck_keep_help(run);
	ret = datcheck_keep_walk(run, ids, &complete) ?: ret;
	if (!ret)
		ret = datcheck_layout(dc, &pages);
	if (!ret) {
		snprintf(view_path, sizeof(view_path), "/proc/self/fd/%d",
			 view);
		handle = tracecmd_open_head(view_path, 0);
	}
	if (handle) {
		datcheck_formats(dc, ids, parse_format,
				 tracecmd_get_tep(handle));
		ret = datcheck_view_data(dc, view, complete ? &pages : NULL);
	}
	ret = datcheck_keep_finish(run, &kept, NULL, NULL) ?: ret;
	/* the view is libtracecmd's; the pages are read from the file */
	if (!ret && handle && tracecmd_init_data(handle) == 0) {
		ret = map_convert(handle, out, &opts, &kept, &pages, &res);
		if (ret < 0 && !res.error[0]) {
			fprintf(stderr, "salvaging conversion failed (%d) "
				"without a message\n", ret);
			abort();
		}
		ret = 0;
	}
	datcheck_recs_free(&kept);
	datcheck_layout_free(&pages);
	if (view >= 0)
		close(view);
	return ret == -EBADMSG ? ret : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fxt_input_opts opts = { .end_ts = UINT64_MAX };
	struct fxt_input_result res = { 0 };
	struct dat_recs kept = { 0 };
	struct dat_pages pages = { 0 };
	struct datcheck_keep_run *run;
	struct tracecmd_input *handle;
	char path[64], err[256];
	int in, out, ret;

	in = memfd_create("fuzz-dat-in", MFD_CLOEXEC);
	out = memfd_create("fuzz-dat-out", MFD_CLOEXEC);
	if (in < 0 || out < 0 || fd_write_all(in, data, size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in);
	/*
	 * The whole check, the format parser's probe included (trace-fxt
	 * runs libtracecmd in a child instead); on odd-sized inputs the
	 * thread-group records are kept on a second walk and the pages
	 * mapped for the plugin's page reader, as trace-fxt does (every
	 * other input: the plugin's own pass and libtracecmd's reading, as
	 * under trace-cmd); one input in four salvaged and converted as
	 * trace-fxt convert does by default (salvage()).
	 */
	if (size % 4 == 3)
		ret = salvage(data, size, path, out, err, sizeof(err));
	else
		ret = datcheck_buf(data, size, err, sizeof(err));
	if (!ret && (size & 1) && size % 4 != 3) {
		ret = datcheck_keep_start(path, fxt_input_tgid_events,
					  FXT_INPUT_NR_TGID_EVENTS,
					  DATCHECK_NO_PROBE, &run, err,
					  sizeof(err));
		if (!ret)
			ret = datcheck_keep_finish(run, &kept, &pages, NULL);
	}
	if (ret) {
		if (strncmp(err, "offset 0x", 9)) {
			fprintf(stderr, "refused (%d) without a place: %s\n",
				ret, err);
			abort();
		}
		close(in);
		close(out);
		return 0;
	}
	/* salvaged and converted already */
	if (size % 4 == 3) {
		close(in);
		close(out);
		return 0;
	}
	opts.path = path;
	handle = tracecmd_open_head(path, 0);
	/*
	 * As trace-fxt does: a handle whose init failed is left open, for
	 * libtracecmd 3.1.6's tracecmd_close() crashes on some of them.
	 */
	if (handle && tracecmd_init_data(handle) == 0) {
		ret = map_convert(handle, out, &opts, &kept, &pages, &res);
		if (ret < 0 && !res.error[0]) {
			fprintf(stderr, "conversion failed (%d) without a "
				"message\n", ret);
			abort();
		}
		tracecmd_close(handle);
	}
	datcheck_recs_free(&kept);
	datcheck_layout_free(&pages);
	close(in);
	close(out);
	return 0;
}
