// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-check.c - `trace-fxt check [--pedantic] FILE.fxt`: decode the whole
 * file with the reader's strict mode and name the first fault.
 * `trace-fxt check FILE.dat`: the .dat check convert makes (datcheck.h),
 * its format probe included: the first fault of the headers, formats and
 * options, or each damaged stretch of the CPU data, which convert skips.
 *
 * Faults are what would make a reader misread the file or stop (they end
 * the check, non-zero exit); warnings are deviations every reader
 * tolerates, which the specification tells readers to skip, and values
 * the specification allows that a viewer does not take whole (they are
 * listed, the exit stays 0 unless --pedantic makes them faults).  The
 * Perfetto packets that blob records of blob type 3 carry are one
 * stream, checked as Perfetto would read it (perfetto-read.h): a packet
 * it would refuse or lose is a fault too.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anon-file.h"
#include "datcheck.h"
#include "file-map.h"
#include "fxt-reader.h"
#include "in-file.h"
#include "pft2dat.h"
#include "perfetto-read.h"
#include "trace-fxt.h"

/* Warnings listed one by one; the rest are counted. */
#define CHECK_LIST_MAX	20

struct check_warn {
	unsigned long long	n;
};

static void check_warn(void *priv, const char *msg)
{
	struct check_warn *w = priv;

	if (w->n++ < CHECK_LIST_MAX)
		fprintf(stderr, "%s (warning)\n", msg);
}

/*
 * The .dat at @path checked as convert checks it, its formats parsed in
 * a child too: 0 when all of it is good; 1 with the first fault said
 * when anything but the CPU data is bad, or each damaged stretch of the
 * CPU data said (as convert says it) and a summary.
 */
static int check_dat(const char *path)
{
	struct dat_pages pages = { 0 };
	unsigned long long bytes = 0;
	struct datcheck *dc;
	const void *p;
	char err[512];
	size_t len, i;
	int ret;

	ret = file_map(path, 0, &p, &len);
	if (ret) {
		trace_fxt_err("%s: %s", path, strerror(-ret));
		return 1;
	}
	ret = datcheck_head(p, len, NULL, DATCHECK_SALVAGE, err, sizeof(err),
			    &dc);
	if (!ret) {
		datcheck_pages(dc);
		ret = datcheck_layout(dc, &pages);
		ret = datcheck_end(dc) ?: ret;
	}
	file_unmap(p, len);
	if (ret) {
		if (ret == -EBADMSG)
			fprintf(stderr, "%s: %s\n%s: FAILED (trace.dat)\n",
				path, err, path);
		else
			trace_fxt_err("%s: %s", path, strerror(-ret));
		datcheck_layout_free(&pages);
		return 1;
	}
	if (!pages.nr_damage) {
		printf("%s: ok (trace.dat): its headers, options, formats and "
		       "every page and event of its CPU data\n", path);
		datcheck_layout_free(&pages);
		return 0;
	}
	trace_fxt_say_damage(path, &pages);
	for (i = 0; i < pages.nr_damage; i++)
		bytes += pages.damage[i].inflated ? pages.damage[i].in_len :
						    pages.damage[i].len;
	fprintf(stderr, "%s: DAMAGED (trace.dat): %zu stretch%s of the CPU "
		"data (%llu bytes); convert skips %s and converts the rest, "
		"convert --strict refuses the file\n", path, pages.nr_damage,
		pages.nr_damage == 1 ? "" : "es", bytes,
		pages.nr_damage == 1 ? "it" : "them");
	datcheck_layout_free(&pages);
	return 1;
}

/*
 * A Perfetto trace at @path (@what: "Perfetto trace", or what of an FXT
 * file holds its events): its packets read as convert reads them, the
 * .dat written to an unnamed file that is dropped.  Faults: damage (bytes
 * that are no packet, a cut), a trace that does not convert.  Warnings:
 * ftrace events with no .dat form (typed events no row of
 * map-ftrace.table reads, events too damaged to read).  The kernel's
 * formats are looked for as convert looks for them.
 */
static int check_perfetto(const char *path, bool pedantic,
			  const char *what)
{
	struct pft2dat_opts o = { .formats = pft2dat_formats() };
	const char *tmp = getenv("TMPDIR");
	struct pft2dat_stats st;
	char err[512] = "";
	int fd, ret;

	fd = anon_file_open(tmp && *tmp ? tmp : "/tmp");
	if (fd < 0) {
		trace_fxt_err("%s: no temporary file: %s", path,
			      strerror(errno));
		return 1;
	}
	ret = pft2dat_convert(path, fd, &o, &st, err, sizeof(err));
	close(fd);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n%s: FAILED (%s)\n", path,
			err[0] ? err : strerror(-ret), path, what);
		return 1;
	}
	if (st.damaged) {
		fprintf(stderr, "%s: %s\n%s: DAMAGED (%s) in %llu "
			"place%s; convert converts every whole packet\n", path,
			st.damage, path, what, (unsigned long long)st.damaged,
			st.damaged == 1 ? "" : "s");
		return 1;
	}
	if (st.dropped)
		fprintf(stderr, "%s: %llu ftrace event%s with no .dat form%s%s "
			"(warning)\n", path, (unsigned long long)st.dropped,
			st.dropped == 1 ? "" : "s",
			st.unknown[0] ? "; typed events no row of "
			"map-ftrace.table reads (FtraceEvent's field x events): " :
			"", st.unknown);
	if (st.dropped && pedantic) {
		fprintf(stderr, "%s: FAILED (%s): a warning, with "
			"--pedantic\n", path, what);
		return 1;
	}
	printf("%s: ok (%s): %llu packet%s, %llu ftrace events, "
	       "%llu of them with a .dat form, %u CPU%s%s\n", path, what,
	       (unsigned long long)st.packets, st.packets == 1 ? "" : "s",
	       (unsigned long long)st.events_in,
	       (unsigned long long)st.events_out, st.cpus,
	       st.cpus == 1 ? "" : "s", st.dropped ? "; 1 warning" : "");
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	unsigned long long counts[16] = { 0 }, total = 0;
	unsigned int flags = FXT_READER_STRICT;
	struct check_warn w = { 0 };
	const struct pft_totals *pt;
	struct pft_stream *pkts;
	struct fxt_record rec;
	struct fxt_reader *r;
	const char *path;
	int ret, i, c;

	while ((c = trace_fxt_getopt(&trace_fxt_check, argc, argv)) != -1) {
		switch (c) {
		case 'p':
			flags |= FXT_READER_PEDANTIC;
			break;
		default:
			return trace_fxt_opt_exit(&trace_fxt_check, c);
		}
	}
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_check, optind == argc ?
				       "no input file" : "one input file only");
	path = argv[optind];
	if (in_file_is_dat(path))
		return check_dat(path);
	if (in_file_is_perfetto(path))
		return check_perfetto(path, flags & FXT_READER_PEDANTIC,
				      "Perfetto trace");
	r = fxt_reader_open(path, flags);
	if (!r) {
		trace_fxt_err("%s: %s", path, strerror(errno));
		return 1;
	}
	fxt_reader_set_warn(r, check_warn, &w);
	pkts = pft_stream_new();
	if (!pkts) {
		trace_fxt_err("%s: %s", path, strerror(ENOMEM));
		fxt_reader_close(r);
		return 1;
	}
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type == FXT_REC_BLOB &&
		    rec.blob.type == FXT_BLOB_PERFETTO &&
		    pft_stream_feed(pkts, rec.blob.data, rec.blob.size) < 0)
			break;
		counts[rec.type & 0xf]++;
		total++;
	}
	if (ret == 0 && pft_stream_end(pkts) < 0)
		ret = 1;
	if (w.n > CHECK_LIST_MAX)
		fprintf(stderr, "%s: %llu more warnings\n", path,
			w.n - CHECK_LIST_MAX);
	if (ret != 0) {
		if (ret > 0)
			fprintf(stderr, "%s: offset 0x%llx: %s\n", path,
				(unsigned long long)rec.offset,
				pft_stream_error(pkts) ?: "out of memory");
		else
			fprintf(stderr, "%s\n", fxt_reader_error(r));
		fprintf(stderr, "%s: FAILED after %llu good records\n", path,
			total);
		pft_stream_free(pkts);
		fxt_reader_close(r);
		return 1;
	}
	printf("%s: ok, %llu records (%s byte order):", path, total,
	       fxt_reader_big_endian(r) ? "big" : "little");
	for (i = 0; i < 16; i++)
		if (counts[i] && fxt_record_type_name(i))
			printf(" %s %llu", fxt_record_type_name(i), counts[i]);
		else if (counts[i])
			printf(" reserved_%d %llu", i, counts[i]);
	pt = pft_stream_totals(pkts);
	if (pt->packets)
		printf("; perfetto packets %llu (ftrace bundles %llu, events "
		       "%llu, compact switches %llu, wakings %llu; %llu "
		       "compressed packets)",
		       (unsigned long long)pt->packets,
		       (unsigned long long)pt->bundles,
		       (unsigned long long)pt->events,
		       (unsigned long long)pt->switches,
		       (unsigned long long)pt->wakings,
		       (unsigned long long)pt->zipped);
	pft_stream_free(pkts);
	if (w.n)
		printf("; %llu warning%s in %llu record%s", w.n,
		       w.n == 1 ? "" : "s",
		       (unsigned long long)fxt_reader_warned_records(r),
		       fxt_reader_warned_records(r) == 1 ? "" : "s");
	printf("\n");
	fxt_reader_close(r);
	/* a --once file's events: its packets, read as convert reads them */
	if (pft2dat_fxt_once(path))
		return check_perfetto(path, flags & FXT_READER_PEDANTIC,
				      "its events, in its packets");
	return 0;
}

static const struct trace_fxt_opt check_opts[] = {
	{ .key = 'p', .name = "pedantic",
	  .help = "warnings are faults too: the exit status is 1 if there is "
		  "any" },
	{ 0 }
};

static const struct trace_fxt_example check_examples[] = {
	{ "check trace.fxt",
	  "faults end the check (exit status 1), warnings are listed" },
	{ "check --pedantic trace.fxt.gz", "no warning allowed either" },
	{ "check trace.dat",
	  "the .dat's first fault, or the damaged stretches of its CPU data "
	  "that convert skips" },
	{ "check converted.fxt",
	  "of a file trace-fxt converted (each event once), also its events "
	  "as convert reads them from its packets" },
	{ "check trace.pftrace",
	  "a Perfetto trace's packets as convert reads them: damage, and the "
	  "ftrace events with no .dat form" },
	{ NULL }
};

static const struct trace_fxt_exit check_exits[] = {
	{ 0, "no fault (warnings, if any, are listed on standard error)" },
	{ 1, "a fault, named with its offset; with --pedantic, a warning; a "
	     "trace.dat whose CPU data is damaged" },
	{ 2, "a usage error" },
	{ 0, NULL }
};

const struct trace_fxt_cmd trace_fxt_check = {
	.name = "check",
	.run = cmd_check,
	.summary = "strict validation of an FXT file, a trace.dat or a "
		   "Perfetto trace: faults and warnings",
	.synopsis = { "[--pedantic] FILE.fxt", "FILE.dat",
		      "[--pedantic] FILE.pftrace" },
	.about = "Decodes the whole file strictly.  Faults are what would "
		 "make a reader misread the file or stop (truncation, sizes "
		 "that do not fit, unset references, bad UTF-8...): the first "
		 "one ends the check.  Warnings are deviations the "
		 "specification tells readers to skip, and what it allows "
		 "but a viewer does not take whole (a CPU of 4096 or more "
		 "stops Perfetto's import, a koid past 32 bits is cut by "
		 "it); they are listed.  "
		 "FILE.fxt may be gzip'd or zstd'd, and may "
		 "be a pipe (/dev/stdin).  A trace.dat is checked as convert "
		 "checks it, its event formats parsed too: the first fault "
		 "of its headers, options and formats, or each damaged "
		 "stretch of its CPU data, which convert skips.  A Perfetto "
		 "trace (a regular file) is read as convert reads it: damage "
		 "is a fault, an ftrace event with no .dat form a warning.",
	.opts = check_opts,
	.operand = TRACE_FXT_ARG_FILE,
	.files = "fxt fxt.gz fxt.zst dat pftrace pftrace.gz perfetto-trace",
	.examples = check_examples,
	.exits = check_exits,
};
