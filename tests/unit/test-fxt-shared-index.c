// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fxt-shared-index.c - FXT the writer makes resolves in a reader
 * that keeps one string and one thread table for the whole file.
 *
 * Tracy's import-fuchsia ignores provider sections: whatever string or
 * thread record came last for an index is what a ref to it means.  The
 * writer allocates indexes across providers so that such a reader and a
 * provider-aware one (the core's reader) agree on every event's thread,
 * category and name.  The naive reader is modelled here from the raw
 * records, field by field from the specification, not with the core's
 * decoding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt-reader.h"
#include "fxt-writer.h"
#include "unit.h"

#define NPROV	3

/* The single-table reader's state. */
struct naive {
	char		*str[0x8000];
	uint32_t	len[0x8000];
	uint64_t	pid[256], tid[256];
	bool		thr_set[256];
	/* index -> the values written there, by every provider */
	unsigned int	redefined;
	unsigned long	checked, wrong;
};

static uint64_t bits(uint64_t w, unsigned int lo, unsigned int hi)
{
	return (w >> lo) & ((hi - lo == 63) ? ~0ULL : (1ULL << (hi - lo + 1)) - 1);
}

static void naive_string(struct naive *n, const uint64_t *w)
{
	uint32_t i = (uint32_t)bits(w[0], 16, 30);
	uint32_t len = (uint32_t)bits(w[0], 32, 46);

	if (!i)
		return;
	if (n->str[i] && (n->len[i] != len || memcmp(n->str[i], w + 1, len)))
		n->redefined++;
	free(n->str[i]);
	n->str[i] = malloc(len + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n->str[i]);
	memcpy(n->str[i], w + 1, len);
	n->len[i] = len;
}

static void naive_thread(struct naive *n, const uint64_t *w)
{
	uint32_t i = (uint32_t)bits(w[0], 16, 23);

	if (!i)
		return;
	if (n->thr_set[i] && (n->pid[i] != w[1] || n->tid[i] != w[2]))
		n->redefined++;
	n->pid[i] = w[1];
	n->tid[i] = w[2];
	n->thr_set[i] = true;
}

static bool naive_str_is(struct naive *n, uint32_t ref, struct fxt_str want)
{
	if (!ref || (ref & 0x8000))
		return true;	/* empty or inline: nothing to resolve */
	return n->str[ref] && n->len[ref] == want.len &&
	       !memcmp(n->str[ref], want.ptr, want.len);
}

/* An event as the naive reader sees it, against the core's decoding. */
static void naive_event(struct naive *n, const struct fxt_record *rec)
{
	const uint64_t *w = rec->raw;
	uint32_t tref = (uint32_t)bits(w[0], 24, 31);
	bool ok = true;

	if (tref)
		ok = n->thr_set[tref] && n->pid[tref] == rec->event.thread.pid &&
		     n->tid[tref] == rec->event.thread.tid;
	ok = ok && naive_str_is(n, (uint32_t)bits(w[0], 32, 47),
				rec->event.category);
	ok = ok && naive_str_is(n, (uint32_t)bits(w[0], 48, 63),
				rec->event.name);
	n->checked++;
	if (!ok)
		n->wrong++;
}

static void naive_free(struct naive *n)
{
	unsigned int i;

	for (i = 0; i < 0x8000; i++)
		free(n->str[i]);
	free(n);
}

/*
 * Write @nevents events spread over NPROV providers (switching sections
 * every few events), names drawn from @nnames and threads from
 * @nthreads, then read the file both ways.
 */
static struct naive *write_and_read(unsigned int nevents, unsigned int nnames,
				    unsigned int nthreads)
{
	struct naive *n = calloc(1, sizeof(*n));
	struct fxt_writer *w;
	struct fxt_reader *r;
	struct fxt_record rec;
	char path[] = "/tmp/test-fxt-shared-XXXXXX";
	char name[32], cat[16];
	unsigned int i, p;
	int fd, ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	w = fxt_writer_create_fd(fd, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (p = 1; p <= NPROV; p++) {
		snprintf(name, sizeof(name), "prov%u", p);
		CU_ASSERT_EQUAL(fxt_write_provider_info(w, p, name,
							strlen(name)), 0);
		CU_ASSERT_EQUAL(fxt_write_init(w, 1000000000), 0);
	}
	for (i = 0; i < nevents; i++) {
		/* providers take turns; each names events of its own too */
		unsigned int k = (i * 2654435761u) % nnames;
		struct fxt_event ev = { .type = FXT_EVENT_INSTANT, .ts = i };

		if (i % 5 == 0) {
			p = i / 5 % NPROV + 1;
			CU_ASSERT_EQUAL(fxt_write_provider_section(w, p), 0);
		}
		ev.thread.tid = 2000 + (k * 7 + p) % nthreads;
		ev.thread.pid = 1000 + ev.thread.tid % 7;
		snprintf(cat, sizeof(cat), "cat%u", p);
		snprintf(name, sizeof(name), "ev%u-%u", k, k % 3 ? 0 : p);
		ev.category = fxt_str_make(cat, strlen(cat));
		ev.name = fxt_str_make(name, strlen(name));
		CU_ASSERT_EQUAL_FATAL(fxt_write_event(w, &ev), 0);
	}
	CU_ASSERT_EQUAL(fxt_writer_close(w), 0);
	close(fd);

	r = fxt_reader_open(path, FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type == FXT_REC_STRING)
			naive_string(n, rec.raw);
		else if (rec.type == FXT_REC_THREAD)
			naive_thread(n, rec.raw);
		else if (rec.type == FXT_REC_EVENT)
			naive_event(n, &rec);
	}
	CU_ASSERT_EQUAL(ret, 0);
	if (ret)
		printf("\n    %s\n", fxt_reader_error(r));
	fxt_reader_close(r);
	unlink(path);
	printf("\n    %u events, %u names, %u threads: %lu checked, %lu "
	       "resolve wrongly in one table, %u index redefinitions",
	       nevents, nnames, nthreads, n->checked, n->wrong, n->redefined);
	return n;
}

static void test_within_limits_disjoint(void)
{
	/* fewer strings and threads than indexes: no index changes value */
	struct naive *n = write_and_read(20000, 3000, 200);

	CU_ASSERT_EQUAL(n->checked, 20000);
	CU_ASSERT_EQUAL(n->wrong, 0);
	CU_ASSERT_EQUAL(n->redefined, 0);
	naive_free(n);
}

static void test_past_limits_still_resolve(void)
{
	/* more names and threads than indexes: replaced, never misread */
	struct naive *n = write_and_read(120000, 50000, 600);

	CU_ASSERT_EQUAL(n->checked, 120000);
	CU_ASSERT_EQUAL(n->wrong, 0);
	CU_ASSERT(n->redefined > 0);
	naive_free(n);
}

static CU_TestInfo tests[] = {
	{ "three providers within the index limits: indexes never reused",
	  test_within_limits_disjoint },
	{ "past the limits: a single-table reader still resolves every ref",
	  test_past_limits_still_resolve },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "writer indexes shared by providers", .pTests = tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
