// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-convert.c - pft2dat_convert(): the input whole in memory
 * (mapped, or inflated when gzip'd or zstd'd), its packets walked twice:
 * first for what the .dat must know before its first event (the CPU
 * count, system info, kernel symbols, the ftrace stats, which instance's
 * buffer each sequence's events go to), then for the
 * events, kept by libfxt-tep.a's output (fxt2dat-out.c) and sorted per
 * CPU when the .dat is written.
 *
 * A packet is a Trace.packet field (tag 0x0a, a length, a TracePacket).
 * Bytes that are no such field (damage, a cut) are skipped to the next
 * offset where a packet whose fields all parse starts: what comes before
 * and after is converted, the stretch counted and the first one named.
 */
#include <errno.h>
#include <event-parse.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "file-map.h"
#include "fxt-zio.h"
#include "perfetto-proto.h"
#include "perfetto-zip.h"
#include "pft2dat-intern.h"

bool pft2dat_sniff(const void *data, size_t n)
{
	const uint8_t *p = data, *end = p + n, *pkt;
	/* fewer bytes than asked for: the file ends there */
	bool more = n >= PFT2DAT_SNIFF_LEN;
	struct pb_reader r;
	struct pb_field f;
	uint64_t len, tag;
	int ret;

	if (n < 2 || p[0] != (PFT_TRACE_PACKET << 3 | PB_LEN))
		return false;
	p++;
	if (pb_read_varint(&p, end, &len) || !len)
		return false;
	/* the first packet's fields, as far as @n goes */
	pkt = len < (uint64_t)(end - p) ? p + len : end;
	pb_reader_init(&r, p, (size_t)(pkt - p));
	while ((ret = pb_next(&r, &f)) > 0)
		;
	if (!ret)	/* a whole packet: what follows it is another */
		return pkt == end || *pkt == (PFT_TRACE_PACKET << 3 | PB_LEN);
	/* a field that does not parse: cut by @n, or no protobuf at all */
	p = r.p;
	if (pb_read_varint(&p, pkt, &tag))
		return pkt == end && more;
	if (!(tag >> 3))
		return false;
	switch (tag & 7) {
	case PB_VARINT:
	case PB_FIXED64:
	case PB_LEN:
	case PB_FIXED32:
		return pkt == end && more;
	default:
		return false;	/* groups, or no wire type */
	}
}

const char *pft2dat_formats(void)
{
	static const char *const tracefs[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	const char *env = getenv(PFT2DAT_FORMATS_ENV);
	unsigned int i;

	if (env)
		return env;
	for (i = 0; i < sizeof(tracefs) / sizeof(*tracefs); i++)
		if (!access(tracefs[i], R_OK | X_OK))
			return tracefs[i];
	return NULL;
}

/* Whether every field of @p parses (a packet to resume at). */
static bool whole_message(const uint8_t *p, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	int ret;

	pb_reader_init(&r, p, len);
	while ((ret = pb_next(&r, &f)) > 0)
		;
	return !ret && len;
}

static void say_damage(struct pft_ctx *c, size_t at, size_t upto,
		       bool zipped)
{
	if (!c->st->damaged++ && c->pass == 1)
		snprintf(c->st->damage, sizeof(c->st->damage),
			 "%s bytes %zu..%zu are no packet: skipped",
			 zipped ? "inflated" : "file", at, upto);
}

/*
 * The input ends within a packet (a compressed one: @part, the packets
 * its bytes there inflate to are read).  One place, said once: not again
 * as the end of those inflated packets, nor after an FXT input's damage,
 * where its packets stop.
 */
static void say_cut(struct pft_ctx *c, size_t at, uint64_t missing,
		    bool part)
{
	if (c->in_cut || (c->fxt_damaged && !c->in_zip))
		return;
	if (!c->st->damaged++ && c->pass == 1)
		snprintf(c->st->damage, sizeof(c->st->damage),
			 "the %s ends within the %spacket at byte %zu, %llu "
			 "bytes short: cut there%s", c->in_zip ?
			 "inflated packets" : "file", part ? "compressed " : "",
			 at, (unsigned long long)missing, part ? ", the whole "
			 "packets it inflates to read" : "");
}

static int walk(struct pft_ctx *c, const uint8_t *data, size_t len);

/*
 * The most inflated bytes the first pass keeps for the second, so that
 * a compressed field is inflated once, not twice (zlib was a third of
 * listing a deflated trace): no more than a plain trace that large
 * keeps mapped all along.  Past it, fields are inflated again.
 */
#define PFT_UNZIP_KEEP		(512u << 20)

/* The compressed field @p, @len: its packets into c->unzip. */
static int unzip_field(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	size_t i = c->zip_seen++;

	if (c->pass == 2 && i < c->nr_zips && c->zips[i].p) {
		pb_free(&c->unzip);
		c->unzip = c->zips[i];
		memset(&c->zips[i], 0, sizeof(c->zips[i]));
		return 0;
	}
	return pft_unzip(p, len, &c->unzip);
}

/*
 * After the first pass read c->unzip's packets: kept for the second,
 * while there is room; else nothing.
 */
static void unzip_keep(struct pft_ctx *c)
{
	struct pb_buf *z;

	if (c->pass != 1 || c->zips_bytes + c->unzip.len > PFT_UNZIP_KEEP)
		return;
	/* an entry per field met, kept or not: this one's is its place */
	if (c->zip_seen > c->cap_zips) {
		size_t cap = c->cap_zips ? 2 * c->cap_zips : 64;

		if (cap < c->zip_seen)
			cap = c->zip_seen;
		z = realloc(c->zips, cap * sizeof(*z));
		if (!z)
			return;
		c->zips = z;
		c->cap_zips = cap;
	}
	while (c->nr_zips < c->zip_seen - 1)
		memset(&c->zips[c->nr_zips++], 0, sizeof(*z));
	c->zips[c->nr_zips++] = c->unzip;
	c->zips_bytes += c->unzip.len;
	memset(&c->unzip, 0, sizeof(c->unzip));
}

/* What the first pass kept and the second did not take, freed. */
static void unzip_forget(struct pft_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_zips; i++)
		pb_free(&c->zips[i]);
	free(c->zips);
	c->zips = NULL;
	c->nr_zips = c->cap_zips = c->zips_bytes = 0;
}

/*
 * The compressed packets field @p, @len: its packets walked.  A stream
 * cut short gives the packets before the cut, exact: read, and the cut
 * said (@cut: already, the input ending within the field: the end of
 * its packets is that cut); damage gives none.
 */
static int zipped(struct pft_ctx *c, const uint8_t *p, size_t len, bool cut)
{
	int ret;

	ret = unzip_field(c, p, len);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0 && ret != -ENODATA) {
		say_damage(c, 0, len, true);
		return 0;
	}
	if (ret == -ENODATA && !cut && !c->st->damaged++ && c->pass == 1)
		snprintf(c->st->damage, sizeof(c->st->damage),
			 "a compressed packets field of %zu bytes ends within "
			 "its stream: the %zu bytes inflated read", len,
			 c->unzip.len);
	c->in_zip = true;
	c->in_cut = cut;
	c->zip_p = p;
	c->zip_len = len;
	/* its packets count, not it (one_packet() counted it; a cut one not) */
	c->st->packets -= c->pass == 2 && !cut;
	ret = walk(c, c->unzip.p, c->unzip.len);
	c->in_zip = c->in_cut = false;
	if (ret < 0)
		return ret;
	unzip_keep(c);
	return 0;
}

/*
 * A packet the input ends within, @p up to @end: where the bytes of its
 * compressed packets field that are there begin, when the cut falls in
 * one (a deflated trace cut short, or a converted FXT's last chunk);
 * else NULL.
 */
static const uint8_t *cut_zip(struct pft_ctx *c, const uint8_t *p,
			      const uint8_t *end)
{
	struct pb_reader r;
	struct pb_field f;
	const uint8_t *q;
	uint64_t tag, n;

	if (c->in_zip)
		return NULL;	/* one level: packets inside are not compressed */
	pb_reader_init(&r, p, (size_t)(end - p));
	while (pb_next(&r, &f) > 0)
		;
	q = r.p;
	if (pb_read_varint(&q, end, &tag) ||
	    tag != pb_tag(PFT_PACKET_COMPRESSED_PACKETS, PB_LEN) ||
	    pb_read_varint(&q, end, &n) || n <= (uint64_t)(end - q) ||
	    q == end)
		return NULL;
	return q;
}

static int one_packet(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	int ret;

	uint64_t seq = 0, flags = 0;

	c->st->packets += c->pass == 2;
	/* the sequence first: interned symbols are numbered per sequence */
	pb_reader_init(&r, p, len);
	while (pb_next(&r, &f) > 0) {
		if (f.id == PFT_PACKET_SEQUENCE_ID && f.wt == PB_VARINT)
			seq = f.v;
		else if (f.id == PFT_PACKET_SEQUENCE_FLAGS && f.wt == PB_VARINT)
			flags = f.v;
	}
	pft_meta_sequence(c, seq, flags);
	/* its symbols before its events (the recorder writes them after) */
	pb_reader_init(&r, p, len);
	while (c->pass == 2 && pb_next(&r, &f) > 0)
		if (f.id == PFT_PACKET_INTERNED_DATA && f.wt == PB_LEN &&
		    pft_meta_packet(c, f.id, &f) == -ENOMEM)
			return -ENOMEM;
	pb_reader_init(&r, p, len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_PACKET_INTERNED_DATA)
			continue;
		if (f.id == PFT_PACKET_COMPRESSED_PACKETS && f.wt == PB_LEN) {
			/* one level: packets inside are not compressed */
			if (c->in_zip)
				continue;
			ret = zipped(c, f.p, f.len, false);
			if (ret < 0)
				return ret;
			continue;
		}
		if (f.id == PFT_PACKET_FTRACE_EVENTS && f.wt == PB_LEN) {
			/* several instances: which is whose, by the events */
			if (c->pass == 1 && pft_inst_bundle(c, f.p, f.len))
				return -ENOMEM;
			ret = pft_event_bundle(c, f.p, f.len);
		} else if (f.id != PFT_PACKET_TIMESTAMP &&
			 f.id != PFT_PACKET_SEQUENCE_ID &&
			 f.id != PFT_PACKET_SEQUENCE_FLAGS &&
			 f.id != PFT_PACKET_CLOCK_ID)
			ret = pft_meta_packet(c, f.id, &f);
		if (ret == -ENOMEM)
			return ret;
	}
	return 0;
}

/* The Trace message in @data: its packets, damage skipped. */
static int walk(struct pft_ctx *c, const uint8_t *data, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	const uint8_t *bad, *q, *z, *end = data + len;
	uint64_t n;
	int ret;

	pb_reader_init(&r, data, len);
	for (;;) {
		ret = pb_next(&r, &f);
		if (!ret)
			return 0;
		if (ret > 0 && f.id == PFT_TRACE_PACKET && f.wt == PB_LEN) {
			ret = one_packet(c, f.p, f.len);
			if (ret < 0)
				return ret;
			continue;
		}
		if (ret > 0)
			continue;	/* another field of Trace */
		bad = r.p;
		/* a packet running past the end: the input was cut there */
		q = bad + 1;
		if (*bad == (PFT_TRACE_PACKET << 3 | PB_LEN) &&
		    !pb_read_varint(&q, end, &n) && n > (uint64_t)(end - q)) {
			z = cut_zip(c, q, end);
			say_cut(c, (size_t)(bad - data),
				n - (uint64_t)(end - q), z);
			if (!z)
				return 0;
			return zipped(c, z, (size_t)(end - z), true);
		}
		/* damage: the next offset a whole packet starts at */
		for (q = bad + 1; q < end; q++) {
			const uint8_t *b = q + 1;

			if (*q != (PFT_TRACE_PACKET << 3 | PB_LEN) ||
			    pb_read_varint(&b, end, &n) ||
			    n > (uint64_t)(end - b) || !whole_message(b, n))
				continue;
			break;
		}
		say_damage(c, (size_t)(bad - data), (size_t)(q - data),
			   c->in_zip);
		if (q >= end)
			return 0;
		r.p = q;
	}
}

int pft_input_load(struct pft_ctx *c, const char *in, const void **p,
		   size_t *len, bool *mapped, char *err, size_t errlen)
{
	const void *fxt;
	size_t fxt_len;
	unsigned char head[FXT_ZIP_MAGIC_LEN];
	enum fxt_zip kind;
	bool cut = false;
	void *map;
	ssize_t n;
	int fd, ret;

	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot read %s: %s", in, strerror(-ret));
		return ret;
	}
	n = pread(fd, head, sizeof(head), 0);
	kind = n > 0 ? fxt_zip_detect(head, (size_t)n) : FXT_ZIP_NONE;
	if (kind != FXT_ZIP_NONE) {
		ret = fxt_zip_map(fd, kind, &map, len, &cut);
		*p = map;
		*mapped = true;
		/* read as far as it goes, said first */
		if (!ret && cut) {
			c->fxt_damaged = 1;
			c->st->damaged = 1;
			snprintf(c->st->damage, sizeof(c->st->damage), "its %s "
				 "stream is cut short: the %zu bytes it holds "
				 "are read", kind == FXT_ZIP_GZIP ? "gzip" :
				 "zstd", *len);
		}
	} else {
		ret = file_map_fd(fd, FILE_MAP_SEQUENTIAL, p, len);
		*mapped = false;
	}
	close(fd);
	if (ret < 0) {
		snprintf(err, errlen, "cannot read %s: %s", in,
			 ret == -EBADMSG ? "its compressed stream is damaged" :
			 strerror(-ret));
		return ret;
	}
	/* an FXT file: the Perfetto packets it carries */
	fxt = *p;
	fxt_len = *len;
	ret = pft_fxt_packets(c, in, fxt, fxt_len, p, len, err, errlen);
	if (ret) {
		pft_input_free(fxt, fxt_len, *mapped);
		*mapped = true;
	}
	if (ret < 0) {
		*p = NULL;
		pft_fxt_free(c);
	}
	return ret < 0 ? ret : 0;
}

/* FtraceEventBundle.ftrace_clock (FtraceClock) as tracefs names it. */
static const char *clock_name(uint64_t v)
{
	static const char *const names[] = {
		[0] = "boot", [2] = "global", [3] = "local", [4] = "mono_raw",
	};

	return v < 5 && names[v] ? names[v] : "boot";
}

void pft_input_free(const void *p, size_t len, bool mapped)
{
	if (mapped)
		munmap((void *)p, len);
	else
		file_unmap(p, len);
}

void pft_ctx_free(struct pft_ctx *c)
{
	struct f2d_ctx *x = &c->f2d;

	pft_record_free(c);
	pft_res_free(c);
	pft_event_free(c);
	pft_fxt_free(c);
	pft_meta_free(c);
	pft_inst_free(c);
	f2d_out_free(x);
	f2d_formats_free(x);
	if (x->tep)
		tep_free(x->tep);
	f2d_tables_free(x);
	free(x->rec.data);
	free(x->scratch);
	f2d_text_free(&x->clock);
	f2d_text_free(&x->uname);
	f2d_text_free(&x->version);
	f2d_text_free(&x->cpustats);
	f2d_text_free(&x->tgids);
	f2d_text_free(&x->kallsyms);
	f2d_text_free(&x->printk);
	f2d_text_free(&x->arena_args);
	free(c->cpus);
	pb_free(&c->unzip);
	unzip_forget(c);
}

int pft_read(struct pft_ctx *c, const void *data, size_t len)
{
	static const char version[] = "trace-fxt: converted from a Perfetto "
				      "trace";
	int ret;

	c->pass = 1;
	c->zip_seen = 0;
	ret = walk(c, data, len);
	if (ret < 0)
		return ret;
	ret = pft_inst_assign(c);
	if (ret < 0)
		return ret;
	c->f2d.cpus = c->max_cpu + 1;
	if (c->sys_cpus > c->f2d.cpus)
		c->f2d.cpus = c->sys_cpus;
	/* a converted trace.dat's FXT: the .dat's own clock, names... */
	ret = pft_fxt_apply(c);
	/* ...and its formats, tried while the second pass begins */
	if (!ret)
		ret = pft_res_foresee(c);
	/* Perfetto's ftrace clock is the boot clock unless a bundle says */
	if (!ret && !c->f2d.clock.len)
		ret = f2d_text_add(&c->f2d.clock, clock_name(c->ftrace_clock),
				   strlen(clock_name(c->ftrace_clock)));
	/* a converted trace.dat's says none when the .dat had none */
	if (!ret && !c->f2d.version.len && !c->fxt.converted)
		ret = f2d_text_add(&c->f2d.version, version,
				   sizeof(version) - 1);
	if (ret < 0)
		return ret;
	c->pass = 2;
	c->st->damaged = c->fxt_damaged;
	c->zip_seen = 0;
	ret = walk(c, data, len);
	unzip_forget(c);
	return ret < 0 ? ret : pft_meta_finish(c);
}

int pft2dat_convert(const char *in, int fd, const struct pft2dat_opts *o,
		    struct pft2dat_stats *st, char *err, size_t errlen)
{
	struct fxt2dat_opts fo = { .compression = o->compression };
	struct fxt2dat_stats fst;
	struct pft_ctx c = { .o = o, .st = st };
	const void *data = NULL;
	size_t len = 0;
	bool mapped = false;
	int ret;

	memset(st, 0, sizeof(*st));
	memset(&fst, 0, sizeof(fst));
	ret = pft_input_load(&c, in, &data, &len, &mapped, err, errlen);
	if (ret < 0)
		return ret;
	if (!pft2dat_sniff(data, len < PFT2DAT_SNIFF_LEN ? len :
			   PFT2DAT_SNIFF_LEN)) {
		snprintf(err, errlen, "%s is no Perfetto trace (no packet at "
			 "its start)", in);
		ret = -EINVAL;
		goto unmap;
	}
	c.f2d.fd = fd;
	c.f2d.opts = &fo;
	c.f2d.st = &fst;
	c.f2d.errbuf = err;
	c.f2d.errlen = errlen;
	c.f2d.next_id = F2D_FIRST_ID;
	c.f2d.sorted = true;
	c.f2d.page_size = 4096;
	c.f2d.info_long_size = 8;
	c.f2d.tep = tep_alloc();
	if (!c.f2d.tep) {
		ret = -ENOMEM;
		goto out;
	}
	tep_set_long_size(c.f2d.tep, 8);
	ret = pft_read(&c, data, len);
	if (!ret)
		ret = f2d_out_finish(&c.f2d);
	st->events_out = fst.events_out;
	st->cpus = c.f2d.cpus;
out:
	if (ret < 0 && !err[0])
		snprintf(err, errlen, "converting %s failed: %s", in,
			 strerror(-ret));
	pft_ctx_free(&c);
unmap:
	/* what an FXT input said of its recording (freed once: cleared) */
	pft_fxt_free(&c);
	pft_input_free(data, len, mapped);
	return ret;
}
