// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-nested.c - records inside blob records of records
 * (fxt_writer_create_nested(), FXT_BLOB_RECORDS and _ZSTD): read back
 * where they are, as they were written, mapped or streamed; read again
 * through their offsets; records kept together in one frame; invisible
 * to a reader that skips blob types it does not know (Perfetto's and
 * Tracy's importers); a damaged frame skipped with a warning, the others
 * read whole (each frame restates its tables); a string's place says its
 * text while the reader's text epoch stays.
 *
 * The file: a parent with two providers and a few records of its own
 * between the nested ones, the nested stream with enough events, names
 * and threads for several frames (and, compressed, frames cut into
 * several blob records).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

#define NEVENTS		6000
#define EVERY_PARENT	97	/* a parent record after each such many */
/* records kept together: 60 events from the 50th of every 200 */
#define GROUP_EVERY	200
#define GROUP_AT	50
#define GROUP_LEN	60

struct seen {
	uint64_t	offset;
	uint32_t	provider;
	bool		nested;
	char		text[200];
};

static void describe(const struct fxt_record *rec, char *buf, size_t n)
{
	const struct fxt_event *ev = &rec->event;
	size_t len;
	unsigned int i;

	len = (size_t)snprintf(buf, n, "%llu %llu/%llu %.*s/%.*s",
			       (unsigned long long)ev->ts,
			       (unsigned long long)ev->thread.pid,
			       (unsigned long long)ev->thread.tid,
			       (int)ev->category.len, ev->category.ptr,
			       (int)ev->name.len, ev->name.ptr);
	for (i = 0; i < ev->nargs && len < n; i++) {
		const struct fxt_arg *a = &ev->args[i];

		if (a->type == FXT_ARG_STRING)
			len += (size_t)snprintf(buf + len, n - len,
						" %.*s=%.*s",
						(int)a->name.len, a->name.ptr,
						(int)a->str.len, a->str.ptr);
		else
			len += (size_t)snprintf(buf + len, n - len,
						" %.*s=%llu",
						(int)a->name.len, a->name.ptr,
						(unsigned long long)a->u64);
	}
}

/* Event @i as written: which writer, and its text as describe() says. */
static bool expect(unsigned int i, char *text, size_t n)
{
	bool nested = i % EVERY_PARENT != 0;

	snprintf(text, n, "%u %u/%u %s/%s%u n=%u s=word%u h=%016llx", 1000 + i,
		 100 + i % 200, 1000 + i % 200, nested ? "in" : "out",
		 nested ? "ev" : "top", i % 50, i, i * 7919 % 9000,
		 (unsigned long long)(i * 0x9e3779b97f4a7c15ULL));
	return nested;
}

static int write_one(struct fxt_writer *w, unsigned int i, bool nested)
{
	char name[16], word[16], hash[24];
	struct fxt_arg a[3] = {
		{ .type = FXT_ARG_UINT64, .name = fxt_writer_str(w, "n"),
		  .u64 = i },
		{ .type = FXT_ARG_STRING, .name = fxt_writer_str(w, "s") },
		{ .type = FXT_ARG_STRING, .name = fxt_writer_str(w, "h") },
	};
	struct fxt_event e = {
		.type = FXT_EVENT_INSTANT, .ts = 1000 + i,
		.thread = { 100 + i % 200, 1000 + i % 200 },
		.category = fxt_writer_str(w, nested ? "in" : "out"),
		.args = a, .nargs = 3,
	};
	int nlen = snprintf(name, sizeof(name), "%s%u", nested ? "ev" : "top",
			    i % 50);
	int wlen = snprintf(word, sizeof(word), "word%u", i * 7919 % 9000);
	/* a text seen once (inline) that zstd cannot shrink much */
	int hlen = snprintf(hash, sizeof(hash), "%016llx",
			    (unsigned long long)(i * 0x9e3779b97f4a7c15ULL));

	/* 9000 words: string indexes taken again and again */
	e.name = fxt_str_make(name, (uint32_t)nlen);
	a[1].str = fxt_str_make(word, (uint32_t)wlen);
	a[2].str = fxt_str_make(hash, (uint32_t)hlen);
	return fxt_write_event(w, &e);
}

static char *write_file(size_t *size, bool compress)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, size);
	struct fxt_writer *w, *nw;
	unsigned int i;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	w = fxt_writer_create_fp(f, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	nw = fxt_writer_create_nested(w, "records", compress);
	CU_ASSERT_PTR_NOT_NULL_FATAL(nw);
	ret = fxt_write_provider_info(w, 1, "one", 3);
	if (!ret)
		ret = fxt_write_provider_info(w, 2, "two", 3);
	for (i = 0; !ret && i < NEVENTS; i++) {
		bool nested = i % EVERY_PARENT != 0;
		struct fxt_writer *to = nested ? nw : w;

		ret = fxt_write_provider_section(to, 1 + i / 1000 % 2);
		if (ret)
			break;
		if (i % GROUP_EVERY == GROUP_AT)
			fxt_writer_keep_together(nw, true);
		ret = write_one(to, i, nested);
		if (i % GROUP_EVERY == GROUP_AT + GROUP_LEN)
			fxt_writer_keep_together(nw, false);
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(fxt_writer_close(nw), 0);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	return buf;
}

/* The next event of one stream as written, from @i on, or NEVENTS. */
static unsigned int next_of(unsigned int i, bool nested)
{
	while (i < NEVENTS && (i % EVERY_PARENT != 0) != nested)
		i++;
	return i;
}

/*
 * Every event, each stream's in the order written (a frame's events come
 * where the frame is, after the parent's written meanwhile): @seen by
 * the event's number.
 */
static unsigned int read_all(struct fxt_reader *r, struct seen *seen,
			     unsigned int *frames)
{
	struct fxt_record rec;
	unsigned int n = 0, bad = 0, k, next[2];
	uint64_t last_base = 0;
	char text[200], got[200];
	int ret;

	next[0] = next_of(0, false);
	next[1] = next_of(0, true);
	*frames = 0;
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type != FXT_REC_EVENT || n == NEVENTS)
			continue;
		k = next[rec.nested];
		describe(&rec, got, sizeof(got));
		if (k == NEVENTS || (expect(k, text, sizeof(text)),
				     strcmp(text, got)) ||
		    rec.provider_id != 1 + k / 1000 % 2) {
			if (bad++ < 3)
				fprintf(stderr, "\n%s event %u: read as "
					"\"%s\"\n", rec.nested ? "nested" :
					"parent", k, got);
		}
		if (k < NEVENTS) {
			memcpy(seen[k].text, got, sizeof(got));
			seen[k].offset = rec.offset;
			seen[k].provider = rec.provider_id;
			seen[k].nested = rec.nested;
			next[rec.nested] = next_of(k + 1, rec.nested);
		}
		if (rec.nested && (rec.offset >> FXT_NEST_BITS) != last_base) {
			last_base = rec.offset >> FXT_NEST_BITS;
			++*frames;
		}
		n++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(next[0] == NEVENTS && next[1] == NEVENTS);
	return n;
}

/*
 * The file's top-level records, as a reader that skips blob types it
 * does not know walks them: its events and blob records of records
 * counted; where the walk ended.
 */
static size_t top_walk(const char *buf, size_t size, unsigned int *events,
		       unsigned int *blobs)
{
	size_t off = 0;

	*events = *blobs = 0;
	while (off + 8 <= size) {
		uint64_t h, words;

		memcpy(&h, buf + off, 8);
		words = (h >> 4) & 0xfff;
		if (!words)
			break;
		*events += (h & 0xf) == FXT_REC_EVENT;
		*blobs += (h & 0xf) == FXT_REC_BLOB &&
			  ((h >> 48 & 0xff) == FXT_BLOB_RECORDS ||
			   (h >> 48 & 0xff) == FXT_BLOB_RECORDS_ZSTD);
		off += words * 8;
	}
	return off;
}

static unsigned int count_chunks(const char *buf, size_t size)
{
	unsigned int events, blobs;

	top_walk(buf, size, &events, &blobs);
	return blobs;
}

static void check_file(bool compress)
{
	static struct seen seen[NEVENTS], seen2[NEVENTS];
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int n, frames, frames2, i, k, same = 0;
	size_t size;
	char *buf = write_file(&size, compress), text[200];
	int fds[2], ret;
	pid_t pid;

	r = fxt_reader_open_mem(buf, size, "nested.fxt", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	n = read_all(r, seen, &frames);
	printf("\n# %s: %zu bytes, %u events read back in order, %u in %u "
	       "frames, %u warnings\n", compress ? "zstd" : "plain", size, n,
	       NEVENTS - (NEVENTS + EVERY_PARENT - 1) / EVERY_PARENT, frames,
	       (unsigned int)fxt_reader_warned_records(r));
	CU_ASSERT_EQUAL(n, NEVENTS);
	CU_ASSERT(frames >= 2);
	/* a compressed frame larger than a blob record: in several */
	printf("# %u blob records for %u frames\n", count_chunks(buf, size),
	       frames);
	if (compress)
		CU_ASSERT(count_chunks(buf, size) > frames);
	CU_ASSERT_EQUAL(fxt_reader_warned_records(r), 0);
	/* the records kept together each in one frame */
	for (i = 0, k = 0; i < NEVENTS; i++) {
		unsigned int g = i - i % GROUP_EVERY + GROUP_AT + 1;

		if (i % GROUP_EVERY > GROUP_AT &&
		    i % GROUP_EVERY <= GROUP_AT + GROUP_LEN &&
		    seen[i].nested && seen[g].nested &&
		    seen[i].offset >> FXT_NEST_BITS !=
		    seen[g].offset >> FXT_NEST_BITS)
			k++;
	}
	printf("# %u events kept together with others in another frame\n",
	       k);
	CU_ASSERT_EQUAL(k, 0);

	/* read again through the offsets, scattered, after the end */
	for (i = 0; i < n; i++) {
		k = (unsigned int)((uint64_t)i * 7919 % n);
		ret = fxt_reader_seek(r, seen[k].offset, seen[k].provider);
		if (ret || fxt_reader_next(r, &rec) <= 0 ||
		    rec.type != FXT_REC_EVENT) {
			fprintf(stderr, "\nevent %u: seek %d\n", k, ret);
			continue;
		}
		describe(&rec, text, sizeof(text));
		if (!strcmp(text, seen[k].text) &&
		    rec.offset == seen[k].offset &&
		    rec.nested == seen[k].nested)
			same++;
	}
	printf("# %u events read again through their offsets: %u the same\n",
	       n, same);
	CU_ASSERT_EQUAL(same, n);
	/* an offset inside no record of a frame, or of no frame */
	CU_ASSERT_EQUAL(fxt_reader_seek(r, FXT_OFFSET_NESTED |
					(uint64_t)8 << FXT_NEST_BITS, 1),
			-EINVAL);
	CU_ASSERT_EQUAL(fxt_reader_seek(r, seen[1].offset + 4, 1), -EINVAL);
	fxt_reader_close(r);

	/* streamed through a pipe: the same events, the same offsets */
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		close(fds[0]);
		_exit(write(fds[1], buf, size) == (ssize_t)size ? 0 : 1);
	}
	close(fds[1]);
	r = fxt_reader_open_fd(fds[0], "pipe", FXT_READER_STREAM);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(read_all(r, seen2, &frames2), NEVENTS);
	for (i = 0, k = 0; i < NEVENTS; i++)
		k += seen2[i].offset == seen[i].offset &&
		     !strcmp(seen2[i].text, seen[i].text);
	printf("# streamed: %u of %u events the same, %u frames\n", k,
	       NEVENTS, frames2);
	CU_ASSERT_EQUAL(k, NEVENTS);
	fxt_reader_close(r);
	close(fds[0]);
	free(buf);
}

static void test_plain(void)
{
	check_file(false);
}

static void test_zstd(void)
{
	check_file(true);
}

/*
 * What a reader that skips unknown blob types sees (Perfetto's
 * tokenizer, Tracy's importer): the parent's records only.
 */
static void test_skipped_by_others(void)
{
	size_t size, off;
	char *buf = write_file(&size, true);
	unsigned int events, blobs;

	off = top_walk(buf, size, &events, &blobs);
	printf("\n# top-level records: %u events (the parent's %u), %u blobs "
	       "of records, to the end: %s\n", events,
	       (NEVENTS + EVERY_PARENT - 1) / EVERY_PARENT, blobs,
	       off == size ? "yes" : "no");
	CU_ASSERT_EQUAL(off, size);
	CU_ASSERT_EQUAL(events, (NEVENTS + EVERY_PARENT - 1) / EVERY_PARENT);
	CU_ASSERT(blobs > 2);
	free(buf);
}

/*
 * A frame whose compressed bytes are damaged: a warning, the frame
 * skipped, every event of the other frames and of the parent read.
 */
static void test_damaged_frame(void)
{
	struct fxt_record rec;
	struct fxt_reader *r;
	size_t size, off = 0;
	char *buf = write_file(&size, true);
	unsigned int blobs = 0, events = 0, nested = 0;
	int ret;

	/* the second blob of records: its payload's middle flipped */
	while (off + 8 <= size) {
		uint64_t h, words;

		memcpy(&h, buf + off, 8);
		words = (h >> 4) & 0xfff;
		if ((h & 0xf) == FXT_REC_BLOB &&
		    (h >> 48 & 0xff) == FXT_BLOB_RECORDS_ZSTD && ++blobs == 2) {
			memset(buf + off + 8 * (words / 2), 0xa5, 64);
			break;
		}
		off += words * 8;
	}
	CU_ASSERT_EQUAL_FATAL(blobs, 2);
	r = fxt_reader_open_mem(buf, size, "damaged.fxt", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		if (rec.type == FXT_REC_EVENT) {
			events++;
			nested += rec.nested;
		}
	printf("\n# a damaged frame: %d at the end, %u events (%u nested), "
	       "%llu warned: %s\n", ret, events, nested,
	       (unsigned long long)fxt_reader_warned_records(r),
	       fxt_reader_first_warning(r) ? fxt_reader_first_warning(r) :
					      "-");
	CU_ASSERT_EQUAL(ret, 0);
	/* the frame's loss said, and nothing else: the next reads alone */
	CU_ASSERT_EQUAL(fxt_reader_warned_records(r), 1);
	CU_ASSERT(nested > 0 && events < NEVENTS);
	CU_ASSERT(events - nested == (NEVENTS + EVERY_PARENT - 1) /
				     EVERY_PARENT);
	fxt_reader_close(r);
	free(buf);
}

/*
 * An empty blob of records (no writer makes one; a damaged file can):
 * nothing to read in it, the events around it read, as streamed and
 * as mapped.
 */
static void test_empty_blob(void)
{
	struct fxt_event e = {
		.type = FXT_EVENT_INSTANT, .ts = 1, .thread = { 1, 2 },
		.category = fxt_str_make("c", 1), .name = fxt_str_make("e", 1),
	};
	struct fxt_record rec;
	struct fxt_writer *w;
	struct fxt_reader *r;
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);
	unsigned int pass, events;
	int fds[2], ret;
	pid_t pid;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	w = fxt_writer_create_fp(f, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(fxt_write_event(w, &e), 0);
	CU_ASSERT_EQUAL(fxt_write_blob(w, fxt_str_make("records", 7),
				       FXT_BLOB_RECORDS, NULL, 0), 0);
	CU_ASSERT_EQUAL(fxt_write_event(w, &e), 0);
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	fclose(f);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
			pid = fork();
			CU_ASSERT_FATAL(pid >= 0);
			if (!pid) {
				close(fds[0]);
				_exit(write(fds[1], buf, size) !=
				      (ssize_t)size);
			}
			close(fds[1]);
			r = fxt_reader_open_fd(fds[0], "pipe",
					       FXT_READER_STREAM);
		} else {
			r = fxt_reader_open_mem(buf, size, "empty.fxt", 0);
		}
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		events = 0;
		while ((ret = fxt_reader_next(r, &rec)) > 0)
			events += rec.type == FXT_REC_EVENT;
		printf("\n# an empty blob of records, %s: %d at the end, "
		       "%u of 2 events", pass ? "streamed" : "mapped", ret,
		       events);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(events, 2);
		fxt_reader_close(r);
		if (pass) {
			close(fds[0]);
			waitpid(pid, NULL, 0);
		}
	}
	free(buf);
}

/* Whether /proc/self/maps still maps @path, any part of it. */
static bool still_mapped(const char *path)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, path) != NULL;
	fclose(f);
	return found;
}

/*
 * A mapped file closed while a frame is being read: the whole mapping
 * goes, not the frame's length of it (which unmapped a part of the file
 * only, or, from a frame larger than the file, what lay after it: the
 * memory of whoever had it, found by fuzz-fxt2dat).
 */
static void test_close_inside_frame(void)
{
	char path[] = "/tmp/test-fxt-nested-XXXXXX";
	struct fxt_record rec;
	struct fxt_reader *r;
	size_t size;
	char *buf = write_file(&size, false);
	int fd = mkstemp(path), ret;
	bool inside = false;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(write(fd, buf, size), (ssize_t)size);
	close(fd);
	r = fxt_reader_open(path, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (!inside && (ret = fxt_reader_next(r, &rec)) > 0)
		inside = rec.nested;
	printf("\n# closed inside a frame of a %zu-byte mapped file: %s; "
	       "mapped before close: %s", size, inside ? "yes" : "no",
	       still_mapped(path) ? "yes" : "no");
	CU_ASSERT(inside);
	fxt_reader_close(r);
	printf(", after: %s", still_mapped(path) ? "yes" : "no");
	CU_ASSERT(!still_mapped(path));
	unlink(path);
	free(buf);
}

/*
 * fxt_reader_text_epoch(): the strings of a frame's records are the
 * reader's copies, freed and made again as the frame's string indexes
 * are set again (9000 words in a few thousand), and frames are inflated
 * over one another; yet two strings at one place and of one length
 * under one epoch have the same text.  The reader must not have changed
 * the epoch at every record either (a loader would gain nothing).
 */
#define PLACES	32768

struct place {
	const char	*p;
	uint32_t	len;
	uint64_t	epoch;
	char		text[24];
};

/* @s, seen under @epoch: 1 if its place held it before, -1 if not it */
static int place_check(struct place *t, struct fxt_str s, uint64_t epoch)
{
	size_t i = (((uintptr_t)s.ptr >> 3) ^ epoch * 0x9e3779b9u) % PLACES;

	if (!s.len || s.len >= sizeof(t->text))
		return 0;
	for (;; i = (i + 1) % PLACES) {
		struct place *e = &t[i];

		if (!e->p) {
			*e = (struct place){ s.ptr, s.len, epoch, "" };
			memcpy(e->text, s.ptr, s.len);
			return 0;
		}
		if (e->p == s.ptr && e->len == s.len && e->epoch == epoch)
			return memcmp(e->text, s.ptr, s.len) ? -1 : 1;
	}
}

static void test_text_epoch(void)
{
	static struct place places[PLACES];
	unsigned int records = 0, same = 0, wrong = 0, epochs = 0;
	size_t size;
	char *buf = write_file(&size, true);
	struct fxt_reader *r = fxt_reader_open_mem(buf, size, "epoch", 0);
	struct fxt_record rec;
	uint64_t epoch, last = 0;
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	memset(places, 0, sizeof(places));
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type != FXT_REC_EVENT || !rec.nested ||
		    rec.event.nargs < 2)
			continue;
		epoch = fxt_reader_text_epoch(r);
		CU_ASSERT_NOT_EQUAL(epoch, 0);
		epochs += epoch != last;
		last = epoch;
		records++;
		ret = place_check(places, rec.event.name, epoch);
		same += ret > 0, wrong += ret < 0;
		ret = place_check(places, rec.event.args[1].str, epoch);
		same += ret > 0, wrong += ret < 0;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(wrong, 0);
	/* most names come again within an epoch: it lasts */
	CU_ASSERT(same > records / 2);
	CU_ASSERT(epochs > 1 && epochs < records / 4);
	printf("\n  %u nested events, %u epochs: %u strings met again at "
	       "their place, %u with another text ",
	       records, epochs, same, wrong);
	fxt_reader_close(r);
	free(buf);
}

static CU_TestInfo nested_tests[] = {
	{ "blobs of records read where they are", test_plain },
	{ "compressed blobs of records read where they are", test_zstd },
	{ "other readers skip them", test_skipped_by_others },
	{ "a damaged frame is skipped, the rest read", test_damaged_frame },
	{ "an empty blob of records is read past", test_empty_blob },
	{ "a file closed inside a frame is unmapped whole",
	  test_close_inside_frame },
	{ "a string's place and epoch say its text", test_text_epoch },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "fxt nested records", NULL, NULL, NULL, NULL, nested_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
