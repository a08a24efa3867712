// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-reader.c - decode FXT records from a mapped buffer or a stream.
 *
 * All decoding goes through a cursor bounded by the record's own size, so
 * a field can never be read past the record, and the record is known to
 * be wholly inside the input before decoding starts.  Strict mode adds
 * the checks `trace-fxt check` needs on the same paths; it never changes
 * what a well-formed record decodes to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "file-map.h"
#include "fxt-reader.h"
#include "fxt-zio.h"
#include "u64-map.h"
#include "worker.h"

#define STR_CHUNK_BITS	4
#define STR_CHUNK	(1u << STR_CHUNK_BITS)
#define STR_CHUNKS	((FXT_MAX_STRING_INDEX + 1) / STR_CHUNK)
#define STREAM_STEP	(1u << 20)
/* Table memory allowed beyond this is proportional to the input read. */
#define MEM_BASE	(64u << 20)
#define MEM_PER_BYTE	8

struct rstr {
	const char	*ptr;	/* NULL: not set */
	uint32_t	len;
	char		*own;	/* stream input: the reader's copy */
};

struct rprov {
	uint32_t		id;
	size_t			mem;	/* table bytes charged, freed on reset */
	char			*name;
	uint64_t		ticks;
	/* Both grow with the highest index used, so small providers stay small. */
	struct rstr		**str;	/* str_cap chunks, made on demand */
	uint32_t		str_cap;
	uint32_t		thr_cap;
	struct fxt_thread	*thr;	/* 256, made on demand */
	uint8_t			thr_set[32];
};

/*
 * Mapped input: the compressed frame after the one being read, inflated
 * on a thread of its own meanwhile (a converted file is mostly frames:
 * KernelShark's load of one waits half as long).  Its result is taken
 * only whole; anything else, the reader inflates the frame again itself
 * and says what is wrong with it.
 */
struct rpre {
	struct worker	worker;
	bool		handed;		/* a job given, not taken back */
	ZSTD_DCtx	*zd;
	const uint8_t	*data;
	size_t		size;
	bool		swap;
	uint64_t	at;		/* the frame's first blob record */
	uint8_t		*buf;		/* FXT_NEST_MAX */
	size_t		len;
	uint64_t	resume;		/* after its last blob record */
	bool		whole;
};

struct fxt_reader {
	char			*name;
	bool			strict;
	bool			pedantic;
	/* FXT_READER_CUT_BLOB, and whether the cut blob was given */
	bool			cut_blob, cut_given;
	bool			swap;	/* file byte order differs from host */
	bool			be;
	bool			started;
	bool			have_provider;

	/*
	 * mapped or memory input: data/size is all of it (inside a frame,
	 * the frame's: file.data/size the input's)
	 */
	const uint8_t		*data;
	size_t			size;
	const void		*map;		/* to unmap at close, map_len */
	size_t			map_len;

	/*
	 * Changes whenever memory a record's strings may point into is
	 * reused (fxt_reader_text_epoch()); never 0.
	 */
	uint64_t		text_epoch;

	/* stream input: buf holds [base, base + len) of the input */
	bool			stream;
	int			fd;
	bool			own_fd;
	bool			eof;
	bool			sniffed;	/* compression looked for */
	struct fxt_zin		*zin;		/* gzip or zstd input */
	uint8_t			*buf;
	size_t			cap;
	size_t			len;
	uint64_t		base;

	uint64_t		off;	/* next record */
	struct rprov		**provs;
	size_t			nprovs;
	size_t			provs_cap;
	struct u64_map		prov_at;	/* id -> index + 1 */
	struct rprov		*cur;
	size_t			mem;

	int			err;
	char			errmsg[512];

	fxt_reader_warn_fn	warn_fn;
	void			*warn_priv;
	uint64_t		warned;		/* records with a warning */
	uint64_t		warn_off;	/* the last one's offset + 1 */
	char			*warnmsg;	/* the first warning */
	/* the same, by enum fxt_warn_kind */
	uint64_t		kind_n[FXT_WARN_KINDS];
	uint64_t		kind_off[FXT_WARN_KINDS];
	char			*kind_msg[FXT_WARN_KINDS];
	/*
	 * An initialization record before any provider: its offset + 1 and
	 * rate, said (FXT_WARN_NOTE) only if a provider record follows it.
	 */
	uint64_t		init_off;
	uint64_t		init_tps;

	/*
	 * fxt_reader_set_lazy(): the event last read, and where its
	 * arguments left undecoded are (words [lazy_i, lazy_n) of lazy_p).
	 */
	bool			lazy;
	uint64_t		lazy_off;	/* as fxt_record.offset says it */
	uint64_t		lazy_at;	/* r->off then */
	const uint8_t		*lazy_p;
	uint32_t		lazy_i;
	uint32_t		lazy_n;

	struct fxt_arg		args[FXT_MAX_ARGS];
	struct fxt_arg		args2[FXT_MAX_ARGS];

	/*
	 * Nested streams (FXT_BLOB_RECORDS, FXT_BLOB_RECORDS_ZSTD): @alt
	 * holds the tables of the stream not being read (the nested one's
	 * while the file's are in use, and the other way round).  Inside a
	 * frame (one blob of records, or the chunks of one compressed one)
	 * the input is the frame's bytes, @file the file's, saved; reading
	 * goes on at @nest_resume after it.  @nest_pending: the blob record
	 * just returned opens a frame, loaded at the next call.
	 */
	struct rtabs {
		struct rprov	**provs;
		size_t		nprovs;
		size_t		provs_cap;
		struct u64_map	prov_at;
		struct rprov	*cur;
		bool		have_provider;
		uint64_t	init_off;
		uint64_t	init_tps;
	}			alt;
	struct rsrc {
		const uint8_t	*data;
		size_t		size;
		bool		stream;
		uint64_t	off;
	}			file;
	bool			in_nest;
	bool			nest_pending;
	bool			nest_valid;	/* @nest_* describe a frame */
	uint64_t		nest_base;	/* its first blob's offset */
	uint64_t		nest_resume;
	const uint8_t		*nest_data;
	size_t			nest_len;
	uint8_t			*nbuf;		/* inflated or copied frames */
	size_t			ncap;
	ZSTD_DCtx		*zd;
	struct rpre		*pre;		/* the next frame, inflating */
};

/* A record being decoded: words [i, n) of p are left. */
struct cursor {
	const uint8_t	*p;
	uint32_t	i;
	uint32_t	n;
	const char	*what;	/* record kind, for messages */
};

/* ---- errors ---------------------------------------------------------- */

static int fail(struct fxt_reader *r, int err, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * "offset 0x...": in a nested frame, the frame's first blob record's and
 * the byte of the records inflated from it.
 */
static int where_text(const struct fxt_reader *r, uint64_t off, char *buf,
		      size_t n)
{
	if (r->in_nest)
		return snprintf(buf, n, "offset 0x%llx, byte 0x%llx of its records",
				(unsigned long long)r->nest_base,
				(unsigned long long)off);
	return snprintf(buf, n, "offset 0x%llx", (unsigned long long)off);
}

static int fail(struct fxt_reader *r, int err, uint64_t off,
		const char *fmt, ...)
{
	char at[96];
	va_list ap;
	int n;

	where_text(r, off, at, sizeof(at));
	n = snprintf(r->errmsg, sizeof(r->errmsg), "%s: %s: ", r->name, at);
	if (n < 0 || (size_t)n >= sizeof(r->errmsg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(r->errmsg + n, sizeof(r->errmsg) - n, fmt, ap);
	va_end(ap);
	r->off = off;
	return r->err = err;
}

#define BAD(r, c, ...) \
	fail(r, -EBADMSG, (r)->off, __VA_ARGS__)

/*
 * Count @full (a "FILE: offset 0x...: ..." message, taken over) against
 * the record at @off, once per record and kind; keep it if it is the first
 * of its kind or at all; show it to the callback.
 */
static void note_warning(struct fxt_reader *r, enum fxt_warn_kind kind,
			 uint64_t off, char *full)
{
	if (r->warn_off != off + 1) {
		r->warned++;
		r->warn_off = off + 1;
	}
	if (r->kind_off[kind] != off + 1) {
		r->kind_n[kind]++;
		r->kind_off[kind] = off + 1;
	}
	if (r->warn_fn)
		r->warn_fn(r->warn_priv, full);
	if (!r->kind_msg[kind])
		r->kind_msg[kind] = strdup(full);
	if (!r->warnmsg)
		r->warnmsg = full;
	else
		free(full);
}

static int warn_kind(struct fxt_reader *r, enum fxt_warn_kind kind,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A deviation readers tolerate: counted once per record, kept if it is
 * the first, shown to the callback; a fault only when pedantic.  Never on
 * the path of a well-formed record, so it may take its time.
 */
static __attribute__((noinline)) int warn_kind(struct fxt_reader *r,
					       enum fxt_warn_kind kind,
					       const char *fmt, ...)
{
	char msg[512], at[96], *full;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->pedantic)
		return fail(r, -EBADMSG, r->off, "%s", msg);
	where_text(r, r->off, at, sizeof(at));
	if (asprintf(&full, "%s: %s: %s", r->name, at, msg) < 0)
		return 0;
	/* records told apart by their offsets as fxt_record.offset says */
	note_warning(r, kind, r->in_nest ? (FXT_OFFSET_NESTED |
		     r->nest_base << FXT_NEST_BITS | r->off) : r->off, full);
	return 0;
}

/* What the reader skipped or could not read in full: FXT_WARN_PARTIAL. */
#define warn(r, ...)	warn_kind(r, FXT_WARN_PARTIAL, __VA_ARGS__)

/*
 * A lenient reader met a record whose size is sound and whose contents
 * are not (r->errmsg says how): as Perfetto, which parses each record
 * within the size its header gives, it costs that record only.  Whatever
 * else was said of the record is forgotten: it counts as skipped, once.
 */
static void skip_malformed(struct fxt_reader *r, uint64_t off)
{
	char *full = strdup(r->errmsg);

	if (r->kind_off[FXT_WARN_PARTIAL] == off + 1) {
		r->kind_off[FXT_WARN_PARTIAL] = 0;
		/* the first kept is this record's when it was the only one */
		if (!--r->kind_n[FXT_WARN_PARTIAL]) {
			free(r->kind_msg[FXT_WARN_PARTIAL]);
			r->kind_msg[FXT_WARN_PARTIAL] = NULL;
		}
	}
	r->err = 0;
	r->errmsg[0] = '\0';
	if (full)
		note_warning(r, FXT_WARN_MALFORMED, off, full);
}

#define WARN(r, ...) do {						\
		int __ret = warn(r, __VA_ARGS__);			\
		if (__ret)						\
			return __ret;					\
	} while (0)

#define WARN_KIND(r, kind, ...) do {					\
		int __ret = warn_kind(r, kind, __VA_ARGS__);		\
		if (__ret)						\
			return __ret;					\
	} while (0)

void fxt_reader_set_warn(struct fxt_reader *r, fxt_reader_warn_fn fn,
			 void *priv)
{
	r->warn_fn = fn;
	r->warn_priv = priv;
}

uint64_t fxt_reader_warned_records(const struct fxt_reader *r)
{
	return r->warned;
}

uint64_t fxt_reader_warned(const struct fxt_reader *r,
			   enum fxt_warn_kind kind)
{
	return kind < FXT_WARN_KINDS ? r->kind_n[kind] : 0;
}

const char *fxt_reader_warning(const struct fxt_reader *r,
			       enum fxt_warn_kind kind)
{
	return kind < FXT_WARN_KINDS ? r->kind_msg[kind] : NULL;
}

int fxt_reader_tally(const struct fxt_reader *r, const char *prefix,
		     char *buf, size_t size)
{
	static const char *const what[FXT_WARN_KINDS] = {
		[FXT_WARN_PARTIAL] = "skipped or not read in full",
		[FXT_WARN_MALFORMED] = "malformed, skipped",
		[FXT_WARN_NOTE] = "read as Perfetto reads it, which its writer may not have meant",
		[FXT_WARN_VIEWER] = "within the format, past a viewer's limit",
	};
	static const enum fxt_warn_kind order[] = {
		FXT_WARN_MALFORMED, FXT_WARN_PARTIAL, FXT_WARN_NOTE,
		FXT_WARN_VIEWER,
	};
	size_t len = 0, i;
	int n;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint64_t k = r->kind_n[order[i]];

		if (!k)
			continue;
		n = snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0,
			     "%s%llu record%s %s; the first: %s\n", prefix,
			     (unsigned long long)k, k == 1 ? "" : "s",
			     what[order[i]], r->kind_msg[order[i]] ?
			     r->kind_msg[order[i]] : "(no memory)");
		if (n > 0)
			len += (size_t)n;
	}
	return (int)len;
}

const char *fxt_reader_first_warning(const struct fxt_reader *r)
{
	return r->warnmsg;
}

const char *fxt_reader_error(const struct fxt_reader *r)
{
	return r->err ? r->errmsg : NULL;
}

/* The offset of the next record, as fxt_record.offset and seeks say it. */
static inline uint64_t where(const struct fxt_reader *r)
{
	if (!r->in_nest)
		return r->off;
	return FXT_OFFSET_NESTED | r->nest_base << FXT_NEST_BITS | r->off;
}

uint64_t fxt_reader_offset(const struct fxt_reader *r)
{
	return where(r);
}

bool fxt_reader_big_endian(const struct fxt_reader *r)
{
	return r->be;
}

/* ---- words and streams ----------------------------------------------- */

static inline uint64_t rd64(const struct fxt_reader *r, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

static inline bool cur_word(const struct fxt_reader *r, struct cursor *c,
			    uint64_t *v)
{
	if (c->i >= c->n)
		return false;
	*v = rd64(r, c->p + 8 * (size_t)c->i++);
	return true;
}

static bool utf8_valid(const uint8_t *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = fxt_utf8_len(s + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* @len bytes of stream at the cursor, padded to a word. */
static int cur_stream(struct fxt_reader *r, struct cursor *c, size_t len,
		      bool text, const uint8_t **out, const char *field)
{
	size_t words = fxt_words(len);
	const uint8_t *p = c->p + 8 * (size_t)c->i;
	size_t k;

	if (words > c->n - c->i)
		return BAD(r, c, "%s record: %s (%zu bytes) runs past the record",
			   c->what, field, len);
	if (r->strict) {
		for (k = len; k < words * 8; k++)
			if (p[k])
				return BAD(r, c, "%s record: %s padding is not zero",
					   c->what, field);
		if (text && !utf8_valid(p, len))
			return BAD(r, c, "%s record: %s is not valid UTF-8",
				   c->what, field);
	}
	c->i += (uint32_t)words;
	*out = p;
	return 0;
}

static int reserved(struct fxt_reader *r, struct cursor *c, uint64_t word,
		    unsigned int lo, unsigned int hi, const char *field)
{
	uint64_t mask = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
			~((1ULL << lo) - 1);

	if (r->strict && (word & mask))
		return BAD(r, c, "%s record: reserved bits [%u..%u] of the %s are not zero",
			   c->what, lo, hi, field);
	return 0;
}

#define RESERVED(r, c, w, lo, hi, f) do {				\
		int __ret = reserved(r, c, w, lo, hi, f);		\
		if (__ret)						\
			return __ret;					\
	} while (0)

static inline uint64_t bits(uint64_t w, unsigned int lo, unsigned int hi)
{
	return (w >> lo) & (hi - lo == 63 ? ~0ULL : (1ULL << (hi - lo + 1)) - 1);
}

/* ---- providers and tables -------------------------------------------- */

/*
 * Whether the bytes being read are gone once read past: a stream's
 * buffer slides, and a frame of records inflated (or copied from a
 * stream) is overwritten by the next.
 */
static inline bool data_moves(const struct fxt_reader *r)
{
	return r->stream || (r->in_nest && r->nest_data == r->nbuf);
}

/*
 * Table memory is charged to the provider that holds it, so that a
 * provider info record restating a provider gives it back.
 */
static int mem_charge(struct fxt_reader *r, struct rprov *p, size_t n)
{
	bool stream = r->in_nest ? r->file.stream : r->stream;
	uint64_t input = stream ? r->base + r->len :
			 r->in_nest ? r->file.size : r->size;

	r->mem += n;
	if (p)
		p->mem += n;
	if (r->mem > MEM_BASE + MEM_PER_BYTE * input)
		return fail(r, -ENOMEM, r->off,
			    "tables need more memory than the input justifies");
	return 0;
}

static void mem_release(struct fxt_reader *r, struct rprov *p, size_t n)
{
	r->mem -= n;
	p->mem -= n;
}

static struct rprov *prov_find(const struct fxt_reader *r, uint32_t id)
{
	uint64_t at;

	if (r->cur && r->cur->id == id)
		return r->cur;
	at = u64_map_get(&r->prov_at, id);
	return at ? r->provs[at - 1] : NULL;
}

static void prov_clear(struct fxt_reader *r, struct rprov *p)
{
	size_t i, k;

	if (p->str) {
		for (i = 0; i < p->str_cap; i++) {
			if (!p->str[i])
				continue;
			for (k = 0; k < STR_CHUNK; k++)
				free(p->str[i][k].own);
			free(p->str[i]);
		}
		free(p->str);
	}
	free(p->thr);
	free(p->name);
	p->str = NULL;
	p->thr = NULL;
	p->str_cap = 0;
	p->thr_cap = 0;
	p->name = NULL;
	memset(p->thr_set, 0, sizeof(p->thr_set));
	p->ticks = 1000000000ULL;
	mem_release(r, p, p->mem);
}

/* The provider @id, made (fresh tables) if new or if @reset. */
static struct rprov *prov_get(struct fxt_reader *r, uint32_t id, bool reset)
{
	struct rprov *p = prov_find(r, id), **np;

	if (p) {
		if (reset)
			prov_clear(r, p);
		return p;
	}
	if (mem_charge(r, NULL, sizeof(*p) + 3 * sizeof(p)))
		return NULL;
	if (r->nprovs == r->provs_cap) {
		size_t cap = r->provs_cap ? 2 * r->provs_cap : 8;

		np = realloc(r->provs, cap * sizeof(*np));
		if (!np)
			return NULL;
		r->provs = np;
		r->provs_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->id = id;
	p->ticks = 1000000000ULL;
	r->provs[r->nprovs] = p;
	if (u64_map_set(&r->prov_at, id, r->nprovs + 1)) {
		free(p);
		return NULL;
	}
	r->nprovs++;
	return p;
}

/* ---- nested streams ------------------------------------------------- */

static inline const uint8_t *input_at(struct fxt_reader *r, uint64_t need,
				      uint64_t *have);

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

/* The other stream's tables in use: the nested one's, or the file's. */
static void tabs_swap(struct fxt_reader *r)
{
	struct rtabs *t = &r->alt;

	SWAP(r->provs, t->provs);
	SWAP(r->nprovs, t->nprovs);
	SWAP(r->provs_cap, t->provs_cap);
	SWAP(r->prov_at, t->prov_at);
	SWAP(r->cur, t->cur);
	SWAP(r->have_provider, t->have_provider);
	SWAP(r->init_off, t->init_off);
	SWAP(r->init_tps, t->init_tps);
}

/*
 * A nested stream's magic number record: its frame begins afresh (its
 * writer restates what it uses), whatever the frames before held.
 */
static void nest_tables_reset(struct fxt_reader *r)
{
	size_t i, c, k;

	/*
	 * Unset, not freed: the record before may still be in its reader's
	 * hands (an event waiting for its continuations), its strings with
	 * it; a copy goes when its index is set again, or with the reader.
	 */
	for (i = 0; i < r->nprovs; i++) {
		struct rprov *p = r->provs[i];

		for (c = 0; p->str && c < p->str_cap; c++)
			for (k = 0; p->str[c] && k < STR_CHUNK; k++)
				p->str[c][k].ptr = NULL;
		memset(p->thr_set, 0, sizeof(p->thr_set));
	}
	r->cur = prov_get(r, 0, false);
}

/* Read the frame loaded (nest_load()) from its byte @at on. */
static void nest_enter(struct fxt_reader *r, uint64_t at)
{
	if (!r->in_nest) {
		r->file = (struct rsrc){ r->data, r->size, r->stream, r->off };
		tabs_swap(r);
		r->in_nest = true;
	}
	r->data = r->nest_data;
	r->size = r->nest_len;
	r->stream = false;
	r->off = at;
}

/* Back to the file's records, at @off. */
static void nest_leave(struct fxt_reader *r, uint64_t off)
{
	if (r->in_nest) {
		r->data = r->file.data;
		r->size = r->file.size;
		r->stream = r->file.stream;
		tabs_swap(r);
		r->in_nest = false;
	}
	r->off = off;
}

/* Room for @n bytes of frame in r->nbuf. */
static int nest_room(struct fxt_reader *r, size_t n)
{
	uint8_t *nb;

	if (n <= r->ncap)
		return 0;
	if (n > FXT_NEST_MAX)
		return -EFBIG;
	nb = realloc(r->nbuf, FXT_NEST_MAX);
	if (!nb)
		return -ENOMEM;
	r->nbuf = nb;
	r->ncap = FXT_NEST_MAX;
	return 0;
}

/*
 * The blob record of records at file offset @at, read from the file's
 * input: its type, payload and size (0 when it is no such record).
 */
static unsigned int nest_chunk(struct fxt_reader *r, uint64_t at,
			       const uint8_t **payload, size_t *size,
			       uint64_t *next)
{
	const uint8_t *p;
	uint64_t h, have, words, name, skip;
	unsigned int type;

	r->off = at;
	p = input_at(r, 8, &have);
	if (!p)
		return 0;
	h = rd64(r, p);
	words = bits(h, 4, 15);
	type = bits(h, 48, 55);
	if ((h & 0xf) != FXT_REC_BLOB || !words ||
	    (type != FXT_BLOB_RECORDS && type != FXT_BLOB_RECORDS_ZSTD))
		return 0;
	p = input_at(r, words * 8, &have);
	if (!p)
		return 0;
	name = bits(h, 16, 31);
	skip = name & 0x8000 ? ((name & 0x7fff) + 7) / 8 : 0;
	*size = bits(h, 32, 46);
	if (1 + skip + (*size + 7) / 8 > words)
		return 0;
	*payload = p + 8 + skip * 8;
	*next = at + words * 8;
	return type;
}

/*
 * Of mapped input @d: the blob record of compressed records at @at, its
 * payload and the offset after it; false when it is none.
 */
static bool map_chunk(const uint8_t *d, size_t size, bool swap, uint64_t at,
		      const uint8_t **payload, size_t *n, uint64_t *next)
{
	uint64_t h, words, name, skip;

	if (at + 8 > size || at % 8)
		return false;
	memcpy(&h, d + at, 8);
	if (swap)
		h = __builtin_bswap64(h);
	words = bits(h, 4, 15);
	if ((h & 0xf) != FXT_REC_BLOB || !words ||
	    bits(h, 48, 55) != FXT_BLOB_RECORDS_ZSTD ||
	    words * 8 > size - at)
		return false;
	name = bits(h, 16, 31);
	skip = name & 0x8000 ? ((name & 0x7fff) + 7) / 8 : 0;
	*n = bits(h, 32, 46);
	if (1 + skip + (*n + 7) / 8 > words)
		return false;
	*payload = d + at + 8 + skip * 8;
	*next = at + words * 8;
	return true;
}

static void pre_job(void *arg)
{
	struct rpre *p = arg;
	const uint8_t *in;
	uint64_t next = p->at;
	size_t n, zret = 1;

	p->len = 0;
	p->whole = false;
	ZSTD_DCtx_reset(p->zd, ZSTD_reset_session_only);
	while (map_chunk(p->data, p->size, p->swap, next, &in, &n, &next)) {
		ZSTD_inBuffer ib = { in, n, 0 };
		ZSTD_outBuffer ob = { p->buf, FXT_NEST_MAX, p->len };

		p->resume = next;
		zret = ZSTD_decompressStream(p->zd, &ob, &ib);
		p->len = ob.pos;
		if (ZSTD_isError(zret) || !zret || p->len == FXT_NEST_MAX)
			break;
	}
	p->whole = !zret && !(p->len % 8);
}

/*
 * After the frame just loaded: the next compressed one, within a few
 * records of it, handed to the thread.
 */
static void pre_start(struct fxt_reader *r)
{
	struct rpre *p = r->pre;
	uint64_t at = r->nest_resume, h, words;
	unsigned int k;

	if (r->stream || !r->data)
		return;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return;
		p->zd = ZSTD_createDCtx();
		p->buf = malloc(FXT_NEST_MAX);
		if (!p->zd || !p->buf || worker_start(&p->worker, pre_job, p)) {
			ZSTD_freeDCtx(p->zd);
			free(p->buf);
			free(p);
			return;
		}
		r->pre = p;
	}
	if (p->handed)
		return;
	for (k = 0; k < 64 && at + 8 <= r->size; k++, at += words * 8) {
		h = rd64(r, r->data + at);
		words = (h & 0xf) == FXT_REC_LARGE ? bits(h, 4, 35) :
						       bits(h, 4, 15);
		if (!words || words * 8 > r->size - at)
			return;
		if ((h & 0xf) == FXT_REC_BLOB &&
		    bits(h, 48, 55) == FXT_BLOB_RECORDS_ZSTD)
			break;
	}
	if (k == 64 || at + 8 > r->size)
		return;
	p->data = r->data;
	p->size = r->size;
	p->swap = r->swap;
	p->at = at;
	p->handed = true;
	worker_hand(&p->worker);
}

/* The frame at @at from the thread, if it inflated that one whole. */
static bool pre_take(struct fxt_reader *r, uint64_t at)
{
	struct rpre *p = r->pre;
	uint8_t *t;

	if (!p || !p->handed || p->at != at || r->stream)
		return false;
	worker_wait(&p->worker);
	p->handed = false;
	if (!p->whole || nest_room(r, FXT_NEST_MAX))
		return false;
	t = r->nbuf;
	r->nbuf = p->buf;
	p->buf = t;
	r->nest_data = r->nbuf;
	r->nest_len = p->len;
	r->nest_resume = p->resume;
	return true;
}

/*
 * Load the frame whose first blob record is at file offset @at into
 * nest_data/nest_len: a blob of records as it is (in the mapped input,
 * or copied from a stream), a compressed one inflated from its chunks.
 * Returns 0, or a warning's result: the frame is then skipped.
 */
static int nest_load(struct fxt_reader *r, uint64_t at)
{
	const uint8_t *p;
	size_t n, len = 0;
	uint64_t next = at;
	unsigned int type;
	size_t zret = 1;

	if (r->nest_valid && r->nest_base == at) {
		r->off = at;
		return 0;
	}
	r->nest_valid = false;
	/* the frame's buffer (or the one it is swapped with) is new text */
	r->text_epoch++;
	if (pre_take(r, at)) {
		len = r->nest_len;
		goto done;
	}
	type = nest_chunk(r, at, &p, &n, &next);
	if (type == FXT_BLOB_RECORDS) {
		r->nest_resume = next;
		if (n % 8)
			return warn_kind(r, FXT_WARN_NOTE, "blob of records of %zu bytes, not whole words: skipped", n);
		/* an empty blob is no record: no buffer to copy it to */
		if (r->stream && n) {
			if (nest_room(r, n))
				goto big;
			memcpy(r->nbuf, p, n);
			p = r->nbuf;
		}
		r->nest_data = p;
		len = n;
		goto done;
	}
	if (!r->zd)
		r->zd = ZSTD_createDCtx();
	if (!r->zd || nest_room(r, FXT_NEST_MAX))
		return fail(r, -ENOMEM, at, "out of memory");
	ZSTD_DCtx_reset(r->zd, ZSTD_reset_session_only);
	while (type == FXT_BLOB_RECORDS_ZSTD) {
		ZSTD_inBuffer in = { p, n, 0 };
		ZSTD_outBuffer out = { r->nbuf, FXT_NEST_MAX, len };

		r->nest_resume = next;
		zret = ZSTD_decompressStream(r->zd, &out, &in);
		len = out.pos;
		if (ZSTD_isError(zret))
			return warn(r, "compressed records do not inflate (%s): skipped",
				    ZSTD_getErrorName(zret));
		if (!zret)
			break;
		if (len == FXT_NEST_MAX)
			goto big;
		type = nest_chunk(r, next, &p, &n, &next);
	}
	if (zret)
		return warn(r, "compressed records cut short: skipped");
	if (len % 8)
		return warn(r, "compressed records of %zu bytes, not whole words: skipped", len);
	r->nest_data = r->nbuf;
done:
	r->nest_len = len;
	r->nest_base = at;
	r->nest_valid = true;
	r->off = at;
	if (r->nest_data == r->nbuf)
		pre_start(r);
	return 0;
big:
	return warn(r, "blob of records larger than %u bytes: skipped",
		    FXT_NEST_MAX);
}

/*
 * The blob of records at r->off, returned last call: its frame read
 * next, or skipped with a warning.
 */
static int nest_open(struct fxt_reader *r)
{
	uint64_t at = r->off;
	int ret;

	r->nest_pending = false;
	ret = nest_load(r, at);
	if (r->err)
		return r->err;
	if (ret || !r->nest_valid) {
		if (ret)
			return ret;
		nest_leave(r, r->nest_resume);
		return 0;
	}
	nest_enter(r, 0);
	return 0;
}

/*
 * Records of the frame loaded read up to byte @inner, so that its tables
 * are what they were there: from where reading is, when that is in the
 * frame before @inner, else from the frame's start (its own tables, if
 * it begins with a magic number record).
 */
static int nest_scan(struct fxt_reader *r, uint64_t at, uint64_t inner)
{
	struct fxt_record rec;
	int ret;

	if (!r->in_nest || r->nest_base != at || r->off > inner)
		nest_enter(r, 0);
	r->nest_pending = false;
	while (r->off < inner) {
		ret = fxt_reader_next(r, &rec);
		if (ret <= 0 || !r->in_nest || r->nest_base != at)
			break;
	}
	if (!r->in_nest || r->nest_base != at || r->off != inner) {
		r->err = 0;
		r->errmsg[0] = '\0';
		nest_leave(r, 0);
		return -EINVAL;
	}
	return 0;
}

int fxt_reader_seek(struct fxt_reader *r, uint64_t offset,
		    uint32_t provider_id)
{
	struct rprov *p;
	uint64_t at, inner;
	int ret;

	/* in the frame sought, at or before the record: read on from there */
	if (r->in_nest && (offset & FXT_OFFSET_NESTED) &&
	    (offset & ~FXT_OFFSET_NESTED) >> FXT_NEST_BITS == r->nest_base &&
	    r->off <= (offset & (FXT_NEST_MAX - 1)) && !r->err) {
		ret = nest_scan(r, r->nest_base, offset & (FXT_NEST_MAX - 1));
		if (ret)
			return ret;
		goto found;
	}
	if (r->in_nest)
		nest_leave(r, r->file.off);
	r->nest_pending = false;
	if (r->stream || !r->started)
		return -EINVAL;
	if (offset & FXT_OFFSET_NESTED) {
		at = (offset & ~FXT_OFFSET_NESTED) >> FXT_NEST_BITS;
		inner = offset & (FXT_NEST_MAX - 1);
		if (at >= r->size || nest_load(r, at) || !r->nest_valid ||
		    inner >= r->nest_len || inner % 8) {
			r->err = 0;
			nest_leave(r, 0);
			return -EINVAL;
		}
		ret = nest_scan(r, at, inner);
		if (ret)
			return ret;
	} else if (offset >= r->size || offset % 8) {
		return -EINVAL;
	} else {
		r->off = offset;
	}
found:
	p = prov_find(r, provider_id);
	if (!p)
		return -EINVAL;
	r->cur = p;
	r->lazy_p = NULL;
	r->err = 0;
	r->errmsg[0] = '\0';
	return 0;
}

const char *fxt_reader_provider_name(const struct fxt_reader *r, uint32_t id)
{
	const struct rprov *p = prov_find(r, id);
	const struct rtabs *t = &r->alt;
	uint64_t at;

	/* a nested stream names its providers in the file's records */
	if ((!p || !p->name) && (at = u64_map_get(&t->prov_at, id)) &&
	    t->provs[at - 1]->name)
		p = t->provs[at - 1];
	return p ? (p->name ? p->name : "") : NULL;
}

uint64_t fxt_reader_text_epoch(const struct fxt_reader *r)
{
	return r->text_epoch;
}

uint64_t fxt_reader_ticks_per_second(const struct fxt_reader *r)
{
	return r->cur ? r->cur->ticks : 1000000000ULL;
}

static inline const struct rstr *str_entry(const struct rprov *p, uint32_t i)
{
	const struct rstr *chunk;

	if ((i >> STR_CHUNK_BITS) >= p->str_cap)
		return NULL;
	chunk = p->str[i >> STR_CHUNK_BITS];
	return chunk && chunk[i & (STR_CHUNK - 1)].ptr ?
		&chunk[i & (STR_CHUNK - 1)] : NULL;
}

static int str_set(struct fxt_reader *r, uint32_t index, const uint8_t *s,
		   uint32_t len)
{
	struct rprov *p = r->cur;
	struct rstr *e;
	size_t ci = index >> STR_CHUNK_BITS;

	if (ci >= p->str_cap) {
		uint32_t cap = p->str_cap ? 2 * p->str_cap : 4;
		struct rstr **n;

		while (cap <= ci)
			cap *= 2;
		if (cap > STR_CHUNKS)
			cap = STR_CHUNKS;
		if (mem_charge(r, p, (cap - p->str_cap) * sizeof(*n)))
			return r->err;
		n = realloc(p->str, cap * sizeof(*n));
		if (!n)
			return fail(r, -ENOMEM, r->off, "out of memory");
		memset(n + p->str_cap, 0, (cap - p->str_cap) * sizeof(*n));
		p->str = n;
		p->str_cap = cap;
	}
	if (!p->str[ci]) {
		if (mem_charge(r, p, STR_CHUNK * sizeof(struct rstr)))
			return r->err;
		p->str[ci] = calloc(STR_CHUNK, sizeof(struct rstr));
		if (!p->str[ci])
			return fail(r, -ENOMEM, r->off, "out of memory");
	}
	e = &p->str[ci][index & (STR_CHUNK - 1)];
	if (e->own) {
		mem_release(r, p, e->len + 1);
		free(e->own);
		e->own = NULL;
	}
	e->len = len;
	if (!data_moves(r)) {
		e->ptr = len ? (const char *)s : "";
		return 0;
	}
	/* Stream buffers move, frames are inflated over: keep a copy. */
	if (mem_charge(r, p, len + 1))
		return r->err;
	/* (where a freed copy was, another text may be now) */
	r->text_epoch++;
	e->own = malloc(len + 1);
	if (!e->own)
		return fail(r, -ENOMEM, r->off, "out of memory");
	memcpy(e->own, s, len);
	e->own[len] = '\0';
	e->ptr = e->own;
	return 0;
}

static __attribute__((noinline)) int str_inline(struct fxt_reader *r,
						struct cursor *c, uint32_t ref,
						struct fxt_str *out,
						const char *field)
{
	const uint8_t *p;
	int ret;

	out->len = ref & 0x7fff;
	ret = cur_stream(r, c, out->len, true, &p, field);
	if (ret)
		return ret;
	out->ptr = (const char *)p;
	return 0;
}

static __attribute__((noinline)) int str_unset(struct fxt_reader *r,
					       struct cursor *c, uint32_t ref,
					       struct fxt_str *out,
					       const char *field)
{
	if (r->strict)
		return BAD(r, c, "%s record: %s refers to string index %u, which is not set",
			   c->what, field, ref);
	WARN(r, "%s record: %s refers to string index %u, which is not set: read as empty",
	     c->what, field, ref);
	out->ptr = "";
	out->len = 0;
	return 0;
}

/* Resolve a string ref; inline text comes from the cursor. */
static inline int get_str(struct fxt_reader *r, struct cursor *c, uint32_t ref,
			  struct fxt_str *out, const char *field)
{
	const struct rstr *e;

	out->id = 0;
	if (!ref) {
		out->ptr = "";
		out->len = 0;
		return 0;
	}
	if (ref & 0x8000)
		return str_inline(r, c, ref, out, field);
	e = str_entry(r->cur, ref);
	if (!e)
		return str_unset(r, c, ref, out, field);
	out->ptr = e->ptr;
	out->len = e->len;
	return 0;
}

/*
 * Check's word on a koid (a pid or a tid) past 32 bits: the format holds
 * 64, Perfetto keeps the low 32 (FXT_PERFETTO_MAX_KOID).
 */
static __attribute__((noinline)) int koid_wide(struct fxt_reader *r,
					       struct cursor *c,
					       const char *field,
					       uint64_t koid)
{
	return warn_kind(r, FXT_WARN_VIEWER, "%s record: %s %llu is past 32 bits: Perfetto's importer keeps its low 32 bits (%llu)",
			 c->what, field, (unsigned long long)koid,
			 (unsigned long long)(koid & FXT_PERFETTO_MAX_KOID));
}

#define KOID_CHECK(r, c, field, koid) do {				\
		if ((r)->strict && (koid) > FXT_PERFETTO_MAX_KOID) {	\
			int __ret = koid_wide(r, c, field, koid);	\
			if (__ret)					\
				return __ret;				\
		}							\
	} while (0)

static int get_thread(struct fxt_reader *r, struct cursor *c, uint32_t ref,
		      struct fxt_thread *out, const char *field)
{
	const struct rprov *p = r->cur;

	if (!ref) {
		if (!cur_word(r, c, &out->pid) || !cur_word(r, c, &out->tid))
			return BAD(r, c, "%s record: inline %s runs past the record",
				   c->what, field);
		KOID_CHECK(r, c, "inline thread's pid", out->pid);
		KOID_CHECK(r, c, "inline thread's tid", out->tid);
		return 0;
	}
	if (ref >= p->thr_cap || !(p->thr_set[ref / 8] & (1u << (ref % 8)))) {
		if (r->strict)
			return BAD(r, c, "%s record: %s refers to thread index %u, which is not set",
				   c->what, field, ref);
		WARN(r, "%s record: %s refers to thread index %u, which is not set: read as 0.0",
		     c->what, field, ref);
		out->pid = 0;
		out->tid = 0;
		return 0;
	}
	*out = p->thr[ref];
	return 0;
}

/* ---- arguments ------------------------------------------------------- */

static int get_args(struct fxt_reader *r, struct cursor *c, unsigned int n,
		    struct fxt_arg *args)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		struct fxt_arg *a = &args[i];
		struct cursor ac;
		uint64_t h, size;
		unsigned int want;

		if (!cur_word(r, c, &h))
			return BAD(r, c, "%s record: argument %u of %u runs past the record",
				   c->what, i + 1, n);
		size = bits(h, 4, 15);
		if (!size)
			return BAD(r, c, "%s record: argument %u has size 0",
				   c->what, i + 1);
		if (size - 1 > c->n - c->i)
			return BAD(r, c, "%s record: argument %u (%llu words) runs past the record",
				   c->what, i + 1, (unsigned long long)size);
		ac.p = c->p;
		ac.i = c->i;
		ac.n = c->i + (uint32_t)size - 1;
		ac.what = c->what;
		c->i = ac.n;
		a->type = h & 0xf;
		ret = get_str(r, &ac, bits(h, 16, 31), &a->name, "argument name");
		if (ret)
			return ret;
		want = 0;
		switch (a->type) {
		case FXT_ARG_NULL:
			RESERVED(r, c, h, 32, 63, "null argument");
			break;
		case FXT_ARG_INT32:
			a->i32 = (int32_t)(uint32_t)(h >> 32);
			break;
		case FXT_ARG_UINT32:
			a->u32 = (uint32_t)(h >> 32);
			break;
		case FXT_ARG_BOOL:
			RESERVED(r, c, h, 33, 63, "bool argument");
			a->b = h >> 32 & 1;
			break;
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
		case FXT_ARG_DOUBLE:
		case FXT_ARG_POINTER:
		case FXT_ARG_KOID:
			RESERVED(r, c, h, 32, 63, "argument header");
			if (!cur_word(r, &ac, &a->u64))
				return BAD(r, c, "%s record: argument %u has no value word",
					   c->what, i + 1);
			if (a->type == FXT_ARG_DOUBLE) {
				uint64_t v = a->u64;

				memcpy(&a->d, &v, 8);
			}
			break;
		case FXT_ARG_STRING:
			RESERVED(r, c, h, 48, 63, "string argument");
			ret = get_str(r, &ac, bits(h, 32, 47), &a->str,
				      "string argument value");
			if (ret)
				return ret;
			break;
		default:
			WARN(r, "%s record: argument %u has reserved type %u, skipped",
			     c->what, i + 1, a->type);
			a->raw = ac.p + 8 * (size_t)ac.i;
			a->raw_words = ac.n - ac.i;
			want = 1;
			break;
		}
		if (!want && ac.i != ac.n)
			WARN(r, "%s record: argument %u is %u words, its type needs %u; the rest is skipped",
			     c->what, i + 1, (unsigned int)size,
			     (unsigned int)size - (ac.n - ac.i));
	}
	return 0;
}

/*
 * Skip @n arguments of a record without decoding them: no string table is
 * looked at, nothing is stored.  False when one may have what stops
 * get_args() (an argument past the record or of size 0, inline text or a
 * value word that does not fit in its argument), told from the header
 * words alone: get_args() then reads them, to say which fault it is.
 * What get_args() only warns about is left to it.
 */
static bool skim_args(struct fxt_reader *r, struct cursor *c, unsigned int n)
{
	uint32_t i = c->i;
	unsigned int k;

	for (k = 0; k < n; k++) {
		uint64_t h, size, need = 1;
		uint32_t ref;

		if (i >= c->n)
			return false;
		h = rd64(r, c->p + 8 * (size_t)i);
		size = bits(h, 4, 15);
		ref = (uint32_t)bits(h, 16, 31);
		if (ref & 0x8000)
			need += fxt_words(ref & 0x7fff);
		if (fxt_arg_value_words(h & 0xf) == 1) {
			need++;
		} else if ((h & 0xf) == FXT_ARG_STRING) {
			ref = (uint32_t)bits(h, 32, 47);
			if (ref & 0x8000)
				need += fxt_words(ref & 0x7fff);
		}
		if (!size || need > size || size > c->n - i)
			return false;
		i += (uint32_t)size;
	}
	c->i = i;
	return true;
}

int fxt_reader_set_lazy(struct fxt_reader *r, bool lazy)
{
	if (lazy && r->strict)
		return -EINVAL;
	r->lazy = lazy;
	return 0;
}

int fxt_reader_args(struct fxt_reader *r, struct fxt_record *rec)
{
	struct fxt_event *ev = &rec->event;
	struct cursor c;
	uint64_t next;
	int ret;

	if (!rec->args_left)
		return 0;
	if (r->err)
		return r->err;
	if (rec->type != FXT_REC_EVENT || rec->offset != r->lazy_off ||
	    !r->lazy_p)
		return -EINVAL;
	c.p = r->lazy_p;
	c.i = r->lazy_i;
	c.n = r->lazy_n;
	c.what = "event";
	/* what it says is said of that record */
	next = r->off;
	r->off = r->lazy_at;
	/* the first again too: get_args() numbers arguments from it */
	ret = get_args(r, &c, ev->nargs + rec->args_left, r->args);
	if (ret)
		return ret;
	r->off = next;
	ev->nargs += rec->args_left;
	ev->args = r->args;
	rec->args_left = 0;
	return 0;
}

/* ---- records --------------------------------------------------------- */

/*
 * Records before any provider belong to provider 0, as Perfetto's
 * tokenizer registers it when it starts: the specification does not ask
 * for a provider record, and most small producers write none.  An
 * initialization record there set provider 0's rate; a provider record
 * after it starts at 1 tick = 1 ns, which is said then (a writer that put
 * its rate first most likely meant it for its provider).
 */
static int provider_starts(struct fxt_reader *r)
{
	uint64_t off = r->init_off - 1;

	r->have_provider = true;
	if (!r->init_off)
		return 0;
	r->init_off = 0;
	return warn_kind(r, FXT_WARN_NOTE,
			 "provider record after an initialization record that came before any provider (offset 0x%llx, %llu ticks per second): as Perfetto reads it, that rate applied to the records before this one, and this provider's start at 1 tick = 1 ns",
			 (unsigned long long)off,
			 (unsigned long long)r->init_tps);
}

static inline int end_of_record(struct fxt_reader *r, struct cursor *c)
{
	if (c->i != c->n)
		return warn(r, "%s record has %u words, its fields need %u; the rest is skipped",
			    c->what, c->n, c->i);
	return 0;
}

static int do_metadata(struct fxt_reader *r, struct cursor *c, uint64_t h,
		       struct fxt_record *rec)
{
	const uint8_t *p;
	struct rprov *prov;
	uint32_t id = (uint32_t)bits(h, 20, 51);
	int ret;

	rec->meta.type = bits(h, 16, 19);
	rec->meta.provider_id = id;
	/* Metadata records are rare: clear what a subtype may not set. */
	rec->meta.name = (struct fxt_str){ .ptr = "" };
	rec->meta.event = 0;
	rec->meta.info_type = 0;
	rec->meta.magic = 0;
	switch (rec->meta.type) {
	case FXT_META_PROVIDER_INFO:
		c->what = "provider info";
		RESERVED(r, c, h, 60, 63, "header");
		rec->meta.name.len = bits(h, 52, 59);
		rec->meta.name.id = 0;
		ret = cur_stream(r, c, rec->meta.name.len, true, &p,
				 "provider name");
		if (ret)
			return ret;
		rec->meta.name.ptr = (const char *)p;
		prov = prov_get(r, id, true);
		if (!prov)
			return r->err ? r->err : fail(r, -ENOMEM, r->off, "out of memory");
		prov->name = strndup((const char *)p, rec->meta.name.len);
		if (!prov->name)
			return fail(r, -ENOMEM, r->off, "out of memory");
		r->cur = prov;
		ret = provider_starts(r);
		if (ret)
			return ret;
		break;
	case FXT_META_PROVIDER_SECTION:
		c->what = "provider section";
		RESERVED(r, c, h, 52, 63, "header");
		prov = prov_get(r, id, false);
		if (!prov)
			return r->err ? r->err : fail(r, -ENOMEM, r->off, "out of memory");
		r->cur = prov;
		ret = provider_starts(r);
		if (ret)
			return ret;
		break;
	case FXT_META_PROVIDER_EVENT:
		c->what = "provider event";
		RESERVED(r, c, h, 56, 63, "header");
		rec->meta.event = bits(h, 52, 55);
		break;
	case FXT_META_TRACE_INFO:
		c->what = "trace info";
		rec->meta.info_type = bits(h, 20, 23);
		if (rec->meta.info_type == FXT_TRACE_INFO_MAGIC) {
			rec->meta.magic = (uint32_t)bits(h, 24, 55);
			/* a nested frame that reads on its own */
			if (r->in_nest)
				nest_tables_reset(r);
			if (r->strict && (rec->meta.magic != FXT_MAGIC ||
					  bits(h, 56, 63) || c->n != 1))
				return BAD(r, c, "magic number record is not 0x%016llx",
					   FXT_MAGIC_RECORD);
			c->i = c->n;
		} else {
			WARN(r, "trace info record of reserved type %u, skipped",
			     rec->meta.info_type);
			c->i = c->n;
		}
		break;
	default:
		c->what = "metadata";
		WARN(r, "metadata record of reserved type %u, skipped",
		     rec->meta.type);
		/* Nothing of it is decoded: leave no field from before. */
		memset(&rec->meta, 0, sizeof(rec->meta));
		rec->meta.type = bits(h, 16, 19);
		rec->meta.provider_id = id;
		rec->meta.name.ptr = "";
		c->i = c->n;
		return 0;
	}
	return end_of_record(r, c);
}

static int do_init(struct fxt_reader *r, struct cursor *c, uint64_t h,
		   struct fxt_record *rec)
{
	c->what = "initialization";
	RESERVED(r, c, h, 16, 63, "header");
	if (!cur_word(r, c, &rec->init.ticks_per_second))
		return BAD(r, c, "initialization record has no tick rate");
	if (!rec->init.ticks_per_second && r->strict)
		return BAD(r, c, "initialization record: zero ticks per second");
	/*
	 * As Perfetto: the rate is the current provider's, before any
	 * provider record provider 0's (provider_starts()).
	 */
	if (!r->have_provider) {
		r->init_off = r->off + 1;
		r->init_tps = rec->init.ticks_per_second;
	}
	if (rec->init.ticks_per_second)
		r->cur->ticks = rec->init.ticks_per_second;
	return end_of_record(r, c);
}

static int do_string(struct fxt_reader *r, struct cursor *c, uint64_t h,
		     struct fxt_record *rec)
{
	const uint8_t *p;
	int ret;

	c->what = "string";
	RESERVED(r, c, h, 31, 31, "header");
	RESERVED(r, c, h, 47, 63, "header");
	rec->string.index = bits(h, 16, 30);
	rec->string.str.len = bits(h, 32, 46);
	rec->string.str.id = 0;
	ret = cur_stream(r, c, rec->string.str.len, true, &p, "string");
	if (ret)
		return ret;
	rec->string.str.ptr = (const char *)p;
	/* Index 0 is the empty string: such records are ignored. */
	if (rec->string.index) {
		ret = str_set(r, rec->string.index, p, rec->string.str.len);
		if (ret)
			return ret;
	}
	return end_of_record(r, c);
}

static int do_thread(struct fxt_reader *r, struct cursor *c, uint64_t h,
		     struct fxt_record *rec)
{
	struct rprov *p = r->cur;
	unsigned int i;

	c->what = "thread";
	RESERVED(r, c, h, 24, 63, "header");
	i = bits(h, 16, 23);
	rec->thread.index = (uint8_t)i;
	if (!cur_word(r, c, &rec->thread.thread.pid) ||
	    !cur_word(r, c, &rec->thread.thread.tid))
		return BAD(r, c, "thread record is shorter than 3 words");
	KOID_CHECK(r, c, "pid", rec->thread.thread.pid);
	KOID_CHECK(r, c, "tid", rec->thread.thread.tid);
	if (i) {
		if (i >= p->thr_cap) {
			uint32_t cap = p->thr_cap ? 2 * p->thr_cap : 8;
			struct fxt_thread *n;

			while (cap <= i)
				cap *= 2;
			if (mem_charge(r, p, (cap - p->thr_cap) * sizeof(*n)))
				return r->err;
			n = realloc(p->thr, cap * sizeof(*n));
			if (!n)
				return fail(r, -ENOMEM, r->off, "out of memory");
			p->thr = n;
			p->thr_cap = cap;
		}
		p->thr[i] = rec->thread.thread;
		p->thr_set[i / 8] |= 1u << (i % 8);
	}
	return end_of_record(r, c);
}

/*
 * A lazy read of an event's arguments: the first decoded, the others
 * skimmed and left to fxt_reader_args().  A fault anywhere in them: all
 * are read, to stop where and as a full read stops.
 */
/*
 * What get_args() makes of one argument, for the kind a lazily read event
 * most often starts with (a converted file's TCFXT_ARG_CPU): a 32-bit
 * integer in its header word alone, named by a set string index.  False,
 * the cursor untouched, for any other: get_args() reads it then.
 */
static inline bool arg_int32_fast(struct fxt_reader *r, struct cursor *c,
				  struct fxt_arg *a)
{
	const struct rstr *e;
	unsigned int type;
	uint32_t ref;
	uint64_t h;

	if (c->i >= c->n)
		return false;
	h = rd64(r, c->p + 8 * (size_t)c->i);
	type = h & 0xf;
	ref = (uint32_t)bits(h, 16, 31);
	if ((type != FXT_ARG_INT32 && type != FXT_ARG_UINT32) ||
	    bits(h, 4, 15) != 1 || !ref || (ref & 0x8000))
		return false;
	e = str_entry(r->cur, ref);
	if (!e)
		return false;
	a->type = type;
	a->name.ptr = e->ptr;
	a->name.len = e->len;
	a->name.id = 0;
	/* i32 or u32: the same bits */
	a->u32 = (uint32_t)(h >> 32);
	c->i++;
	return true;
}

static int event_args_lazy(struct fxt_reader *r, struct cursor *c,
			   struct fxt_record *rec)
{
	struct fxt_event *ev = &rec->event;
	uint32_t start = c->i;

	if (ev->nargs < 2)
		return get_args(r, c, ev->nargs, r->args);
	if ((arg_int32_fast(r, c, r->args) || !get_args(r, c, 1, r->args)) &&
	    skim_args(r, c, ev->nargs - 1)) {
		r->lazy_off = where(r);
		r->lazy_at = r->off;
		r->lazy_p = c->p;
		r->lazy_i = start;
		r->lazy_n = c->i;
		rec->args_left = ev->nargs - 1;
		ev->nargs = 1;
		return 0;
	}
	r->err = 0;
	c->i = start;
	return get_args(r, c, ev->nargs, r->args);
}

static int do_event(struct fxt_reader *r, struct cursor *c, uint64_t h,
		    struct fxt_record *rec)
{
	struct fxt_event *ev = &rec->event;
	int ret;

	c->what = "event";
	ev->type = bits(h, 16, 19);
	ev->nargs = bits(h, 20, 23);
	ev->args = r->args;
	if (ev->type >= FXT_EVENT_TYPE_COUNT)
		WARN(r, "event record of reserved event type %u, skipped",
		     ev->type);
	if (!cur_word(r, c, &ev->ts))
		return BAD(r, c, "event record has no timestamp");
	ret = get_thread(r, c, bits(h, 24, 31), &ev->thread, "thread");
	if (!ret)
		ret = get_str(r, c, bits(h, 32, 47), &ev->category, "category");
	if (!ret)
		ret = get_str(r, c, bits(h, 48, 63), &ev->name, "name");
	if (!ret)
		ret = r->lazy ? event_args_lazy(r, c, rec) :
				get_args(r, c, ev->nargs, r->args);
	if (ret)
		return ret;
	ev->id = 0;
	ev->end_ts = 0;
	switch (ev->type) {
	case FXT_EVENT_INSTANT:
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		break;
	case FXT_EVENT_DURATION_COMPLETE:
		if (!cur_word(r, c, &ev->end_ts))
			return BAD(r, c, "duration complete event has no end time");
		break;
	default:
		if (ev->type >= FXT_EVENT_TYPE_COUNT) {
			/* its fields past the arguments are unknown */
			c->i = c->n;
			break;
		}
		if (!cur_word(r, c, &ev->id))
			return BAD(r, c, "%s event has no id word",
				   fxt_event_type_name(ev->type));
		break;
	}
	return end_of_record(r, c);
}

/*
 * @cut: the file ends within the record (FXT_READER_CUT_BLOB), @c its
 * whole words there: the payload as far as they go.
 */
static int do_blob(struct fxt_reader *r, struct cursor *c, uint64_t h,
		   struct fxt_record *rec, bool cut)
{
	const uint8_t *p;
	int ret;

	c->what = "blob";
	RESERVED(r, c, h, 47, 47, "header");
	RESERVED(r, c, h, 56, 63, "header");
	ret = get_str(r, c, bits(h, 16, 31), &rec->blob.name, "blob name");
	if (ret)
		return ret;
	rec->blob.size = bits(h, 32, 46);
	rec->blob.type = bits(h, 48, 55);
	rec->blob.cut = cut;
	if (cut && rec->blob.size > 8ULL * (c->n - c->i))
		rec->blob.size = 8 * (c->n - c->i);
	ret = cur_stream(r, c, rec->blob.size, false, &p, "payload");
	if (ret)
		return ret;
	rec->blob.data = p;
	return end_of_record(r, c);
}

static int do_object(struct fxt_reader *r, struct cursor *c, uint64_t h,
		     struct fxt_record *rec)
{
	unsigned int nargs = bits(h, 40, 43);
	struct fxt_str *name;
	int ret;

	RESERVED(r, c, h, 44, 63, "header");
	if ((h & 0xf) == FXT_REC_USERSPACE_OBJ) {
		struct fxt_thread t;
		uint32_t ref = bits(h, 16, 23);

		c->what = "userspace object";
		if (!cur_word(r, c, &rec->uobj.pointer))
			return BAD(r, c, "userspace object record has no pointer word");
		/* The process ref is a thread ref of which only pid is used. */
		if (!ref) {
			if (!cur_word(r, c, &rec->uobj.pid))
				return BAD(r, c, "userspace object record has no process word");
		} else {
			ret = get_thread(r, c, ref, &t, "process");
			if (ret)
				return ret;
			rec->uobj.pid = t.pid;
		}
		name = &rec->uobj.name;
		rec->uobj.nargs = nargs;
		rec->uobj.args = r->args;
	} else {
		c->what = "kernel object";
		rec->kobj.obj_type = bits(h, 16, 23);
		if (!cur_word(r, c, &rec->kobj.koid))
			return BAD(r, c, "kernel object record has no koid word");
		name = &rec->kobj.name;
		rec->kobj.nargs = nargs;
		rec->kobj.args = r->args;
	}
	ret = get_str(r, c, bits(h, 24, 39), name, "name");
	if (!ret)
		ret = get_args(r, c, nargs, r->args);
	if (ret)
		return ret;
	/* the objects Perfetto reads: processes, threads and their process */
	if ((h & 0xf) == FXT_REC_KERNEL_OBJ &&
	    (rec->kobj.obj_type == FXT_OBJ_PROCESS ||
	     rec->kobj.obj_type == FXT_OBJ_THREAD)) {
		unsigned int i;

		KOID_CHECK(r, c, "koid", rec->kobj.koid);
		for (i = 0; i < nargs; i++)
			if (r->args[i].type == FXT_ARG_KOID &&
			    rec->kobj.obj_type == FXT_OBJ_THREAD &&
			    fxt_str_eq(r->args[i].name, FXT_ARG_NAME_PROCESS))
				KOID_CHECK(r, c, "process koid",
					   r->args[i].u64);
	}
	return end_of_record(r, c);
}

static int do_sched(struct fxt_reader *r, struct cursor *c, uint64_t h,
		    struct fxt_record *rec)
{
	int ret;

	c->what = "context switch";
	rec->sched.subtype = bits(h, 60, 63);
	rec->sched.nargs = 0;
	rec->sched.args = r->args;
	rec->sched.out_prio = rec->sched.in_prio = 0;
	rec->sched.out_state = 0;
	memset(&rec->sched.out, 0, sizeof(rec->sched.out));
	memset(&rec->sched.in, 0, sizeof(rec->sched.in));
	switch (rec->sched.subtype) {
	case FXT_SCHED_LEGACY_SWITCH:
		rec->sched.cpu = bits(h, 16, 23);
		rec->sched.out_state = bits(h, 24, 27);
		rec->sched.out_prio = bits(h, 44, 51);
		rec->sched.in_prio = bits(h, 52, 59);
		if (!cur_word(r, c, &rec->sched.ts))
			return BAD(r, c, "context switch record has no timestamp");
		ret = get_thread(r, c, bits(h, 28, 35), &rec->sched.out,
				 "outgoing thread");
		if (!ret)
			ret = get_thread(r, c, bits(h, 36, 43), &rec->sched.in,
					 "incoming thread");
		if (ret)
			return ret;
		break;
	case FXT_SCHED_SWITCH:
	case FXT_SCHED_WAKEUP:
		if (rec->sched.subtype == FXT_SCHED_SWITCH) {
			RESERVED(r, c, h, 40, 59, "header");
			rec->sched.out_state = bits(h, 36, 39);
		} else {
			c->what = "thread wakeup";
			RESERVED(r, c, h, 36, 59, "header");
		}
		rec->sched.nargs = bits(h, 16, 19);
		rec->sched.cpu = bits(h, 20, 35);
		/* the format's 16 bits allow it; a viewer does not */
		if (r->strict && rec->sched.cpu >= FXT_PERFETTO_MAX_CPUS)
			WARN_KIND(r, FXT_WARN_VIEWER, "%s record: CPU %u: Perfetto's importer stops on CPUs of %u or more",
				  c->what, rec->sched.cpu,
				  FXT_PERFETTO_MAX_CPUS);
		if (!cur_word(r, c, &rec->sched.ts))
			return BAD(r, c, "%s record has no timestamp", c->what);
		if ((rec->sched.subtype == FXT_SCHED_SWITCH &&
		     !cur_word(r, c, &rec->sched.out.tid)) ||
		    !cur_word(r, c, &rec->sched.in.tid))
			return BAD(r, c, "%s record has no thread id word",
				   c->what);
		if (rec->sched.subtype == FXT_SCHED_SWITCH)
			KOID_CHECK(r, c, "outgoing tid", rec->sched.out.tid);
		KOID_CHECK(r, c, rec->sched.subtype == FXT_SCHED_SWITCH ?
			   "incoming tid" : "tid", rec->sched.in.tid);
		ret = get_args(r, c, rec->sched.nargs, r->args);
		if (ret)
			return ret;
		break;
	default:
		WARN(r, "scheduling record of reserved type %u, skipped",
		     rec->sched.subtype);
		rec->sched.ts = 0;
		rec->sched.cpu = 0;
		c->i = c->n;
		return 0;
	}
	/*
	 * The seed specification's record allows any state but running;
	 * the newer context switch says nothing of it, and producers write
	 * 1 for a preempted thread, which readers take as runnable (as
	 * convert does): for it, a warning of check's only.
	 */
	if (r->strict && rec->sched.subtype != FXT_SCHED_WAKEUP &&
	    (rec->sched.out_state > FXT_THREAD_DEAD ||
	     rec->sched.out_state == FXT_THREAD_RUNNING)) {
		if (rec->sched.subtype == FXT_SCHED_LEGACY_SWITCH)
			return BAD(r, c, "context switch record: outgoing thread state %u is not one of new, suspended, blocked, dying, dead",
				   rec->sched.out_state);
		WARN_KIND(r, FXT_WARN_NOTE, "context switch record: outgoing thread state %u (%s), read as runnable",
			  rec->sched.out_state,
			  fxt_thread_state_name(rec->sched.out_state) ?:
			  "not a state the format names");
	}
	return end_of_record(r, c);
}

static int do_log(struct fxt_reader *r, struct cursor *c, uint64_t h,
		  struct fxt_record *rec)
{
	const uint8_t *p;
	int ret;

	c->what = "log";
	RESERVED(r, c, h, 31, 31, "header");
	RESERVED(r, c, h, 40, 63, "header");
	if (!cur_word(r, c, &rec->log.ts))
		return BAD(r, c, "log record has no timestamp");
	ret = get_thread(r, c, bits(h, 32, 39), &rec->log.thread, "thread");
	if (ret)
		return ret;
	rec->log.msg.len = bits(h, 16, 30);
	rec->log.msg.id = 0;
	ret = cur_stream(r, c, rec->log.msg.len, true, &p, "message");
	if (ret)
		return ret;
	rec->log.msg.ptr = (const char *)p;
	return end_of_record(r, c);
}

static int do_large(struct fxt_reader *r, struct cursor *c, uint64_t h,
		    struct fxt_record *rec)
{
	uint64_t fh;
	const uint8_t *p;
	int ret;

	c->what = "large blob";
	rec->large.large_type = bits(h, 36, 39);
	rec->large.format = bits(h, 40, 43);
	if (rec->large.large_type != FXT_LARGE_BLOB ||
	    rec->large.format > FXT_LARGE_BLOB_NO_META) {
		unsigned int type = rec->large.large_type;
		unsigned int format = rec->large.format;

		WARN(r, "large record of reserved type %u format %u, skipped",
		     type, format);
		/* Nothing of it is decoded: leave no field from before. */
		memset(&rec->large, 0, sizeof(rec->large));
		rec->large.large_type = type;
		rec->large.format = format;
		c->i = c->n;
		return 0;
	}
	RESERVED(r, c, h, 44, 63, "header");
	if (!cur_word(r, c, &fh))
		return BAD(r, c, "large blob record has no format header");
	rec->large.nargs = 0;
	rec->large.args = r->args;
	rec->large.ts = 0;
	memset(&rec->large.thread, 0, sizeof(rec->large.thread));
	if (rec->large.format == FXT_LARGE_BLOB_METADATA) {
		RESERVED(r, c, fh, 44, 63, "format header");
		rec->large.nargs = bits(fh, 32, 35);
	} else {
		RESERVED(r, c, fh, 32, 63, "format header");
	}
	ret = get_str(r, c, bits(fh, 0, 15), &rec->large.category, "category");
	if (!ret)
		ret = get_str(r, c, bits(fh, 16, 31), &rec->large.name, "name");
	if (ret)
		return ret;
	if (rec->large.format == FXT_LARGE_BLOB_METADATA) {
		if (!cur_word(r, c, &rec->large.ts))
			return BAD(r, c, "large blob record has no timestamp");
		ret = get_thread(r, c, bits(fh, 36, 43), &rec->large.thread,
				 "thread");
		if (!ret)
			ret = get_args(r, c, rec->large.nargs, r->args);
		if (ret)
			return ret;
	}
	if (!cur_word(r, c, &rec->large.size))
		return BAD(r, c, "large blob record has no size word");
	if (rec->large.size > (uint64_t)(c->n - c->i) * 8)
		return BAD(r, c, "large blob payload (%llu bytes) runs past the record",
			   (unsigned long long)rec->large.size);
	ret = cur_stream(r, c, rec->large.size, false, &p, "payload");
	if (ret)
		return ret;
	rec->large.data = p;
	return end_of_record(r, c);
}

/* ---- input ----------------------------------------------------------- */

/*
 * The stream's next bytes: the file's own, or what a gzip or zstd input
 * decompresses to (told by its first bytes, whatever its name).
 */
static ssize_t src_read(struct fxt_reader *r, void *buf, size_t n)
{
	ssize_t got;

	if (r->zin)
		return fxt_zin_read(r->zin, buf, n);
	/*
	 * the first read, which may be compressed bytes the decompressor
	 * then takes as its first: no more than it holds
	 */
	if (!r->sniffed && n > FXT_ZIN_HEAD_MAX)
		n = FXT_ZIN_HEAD_MAX;
	got = read(r->fd, buf, n);
	if (got < 0)
		return -errno;
	if (!r->sniffed) {
		enum fxt_zip kind;

		/* a pipe may deliver the magic in pieces */
		while (got < FXT_ZIP_MAGIC_LEN && (size_t)got < n) {
			ssize_t more = read(r->fd, (uint8_t *)buf + got,
					    n - (size_t)got);

			if (more < 0 && errno == EINTR)
				continue;
			if (more <= 0)
				break;
			got += more;
		}
		r->sniffed = true;
		kind = fxt_zip_detect(buf, (size_t)got);
		if (kind != FXT_ZIP_NONE) {
			r->zin = fxt_zin_create(r->fd, kind, buf, (size_t)got);
			if (!r->zin)
				return -ENOMEM;
			return fxt_zin_read(r->zin, buf, n);
		}
	}
	return got;
}

/*
 * Make @need bytes from offset r->off addressable; returns a pointer to
 * them, or NULL with *have set to what the input still holds.
 */
static __attribute__((noinline)) const uint8_t *
stream_at(struct fxt_reader *r, uint64_t need, uint64_t *have)
{
	size_t start = (size_t)(r->off - r->base);

	while (r->len - start < need && !r->eof) {
		ssize_t n;

		if (start) {
			/* Slide the unread tail (less than a record) down. */
			memmove(r->buf, r->buf + start, r->len - start);
			r->len -= start;
			r->base += start;
			start = 0;
		}
		if (r->len == r->cap) {
			/* Grow only when full: memory follows what was read. */
			size_t ncap = r->cap ? r->cap * 2 : STREAM_STEP;
			uint8_t *nb = realloc(r->buf, ncap);

			if (!nb) {
				fail(r, -ENOMEM, r->off, "out of memory");
				*have = 0;
				return NULL;
			}
			r->buf = nb;
			r->cap = ncap;
		}
		n = src_read(r, r->buf + r->len, r->cap - r->len);
		if (n == -EINTR)
			continue;
		if (n < 0) {
			if (n == -EBADMSG)
				fail(r, -EBADMSG, r->off, "%s",
				     fxt_zin_error(r->zin));
			else
				fail(r, -EIO, r->off, "read error: %s",
				     strerror((int)-n));
			*have = 0;
			return NULL;
		}
		if (!n)
			r->eof = true;
		r->len += (size_t)n;
	}
	*have = r->len - start;
	return need <= *have ? r->buf + start : NULL;
}

/*
 * How far ahead of the record being decoded a mapped input is asked into
 * the cache.  Where the next record starts is known only once this one's
 * header is read: walking a mapped file record by record is a chain of
 * loads, each waiting for memory unless asked for early.  About thirty
 * records of a converted file (a hint: nothing is read past the input).
 */
#define FXT_READ_AHEAD	2048

static inline const uint8_t *input_at(struct fxt_reader *r, uint64_t need,
				      uint64_t *have)
{
	if (r->stream)
		return stream_at(r, need, have);
	*have = r->size - r->off;
	if (*have > FXT_READ_AHEAD)
		__builtin_prefetch(r->data + r->off + FXT_READ_AHEAD);
	return need <= *have ? r->data + r->off : NULL;
}

static int start(struct fxt_reader *r)
{
	const uint8_t *p;
	uint64_t have, w;

	r->started = true;
	p = input_at(r, 8, &have);
	if (r->err)
		return r->err;
	if (!p)
		return 0;
	memcpy(&w, p, 8);
	if (w == FXT_MAGIC_RECORD) {
		r->swap = false;
	} else if (w == __builtin_bswap64(FXT_MAGIC_RECORD)) {
		r->swap = true;
	} else if (r->strict) {
		return fail(r, -EBADMSG, 0,
			    "not an FXT file: no magic number record at the start");
	}
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	r->be = !r->swap;
#else
	r->be = r->swap;
#endif
	return 0;
}

int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec)
{
	const uint8_t *p;
	struct cursor c;
	uint64_t h, words, have;
	bool cut;
	int ret;

again:
	/* the last record's arguments are no more to be read */
	r->lazy_p = NULL;
	/* a stream's buffer slides under what it returned */
	if (r->stream)
		r->text_epoch++;
	if (r->err)
		return r->err;
	if (r->nest_pending) {
		ret = nest_open(r);
		if (ret)
			return ret;
	}
	/* a frame's end, or words short of a record: the file's next */
	if (r->in_nest && r->size - r->off < 8)
		nest_leave(r, r->nest_resume);
	if (!r->started) {
		ret = start(r);
		if (ret)
			return ret;
	}
	p = input_at(r, 8, &have);
	if (!p) {
		if (r->err)
			return r->err;
		if (!have) {
			if (r->strict && !r->off)
				return fail(r, -EBADMSG, 0, "empty file");
			return 0;
		}
		return fail(r, -EBADMSG, r->off,
			    "truncated: %llu trailing bytes, less than a record header",
			    (unsigned long long)have);
	}
	h = rd64(r, p);
	rec->type = h & 0xf;
	words = rec->type == FXT_REC_LARGE ? bits(h, 4, 35) : bits(h, 4, 15);
	if (!words)
		return fail(r, -EBADMSG, r->off, "%s record has size 0",
			    fxt_record_type_name(rec->type) ?: "unknown");
	if (r->in_nest && words * 8 > r->size - r->off) {
		uint64_t off = r->off;

		nest_leave(r, r->nest_resume);
		ret = warn(r, "%s record of %llu bytes at byte %llu of a blob of records runs past its end; the rest of the blob is skipped",
			   fxt_record_type_name(rec->type) ?: "unknown",
			   (unsigned long long)words * 8,
			   (unsigned long long)off);
		if (ret)
			return ret;
		goto again;
	}
	p = input_at(r, words * 8, &have);
	/* FXT_READER_CUT_BLOB: the blob the file ends within, once */
	cut = !p && !r->err && r->cut_blob && !r->cut_given &&
	      rec->type == FXT_REC_BLOB && !r->in_nest && have >= 16;
	if (cut) {
		r->cut_given = true;
		words = have / 8;
		p = input_at(r, words * 8, &have);
	}
	if (!p) {
		if (r->err)
			return r->err;
		return fail(r, -EBADMSG, r->off,
			    "truncated: %s record of %llu bytes, only %llu left in the file",
			    fxt_record_type_name(rec->type) ?: "unknown",
			    (unsigned long long)words * 8,
			    (unsigned long long)have);
	}
	rec->offset = where(r);
	rec->nested = r->in_nest;
	rec->args_left = 0;
	rec->size = words * 8;
	rec->raw = p;
	c.p = p;
	c.i = 1;
	c.n = (uint32_t)words;
	c.what = fxt_record_type_name(rec->type);
	if (!r->cur) {
		/* Records before any provider belong to an anonymous one. */
		r->cur = prov_get(r, 0, false);
		if (!r->cur)
			return r->err ? r->err : fail(r, -ENOMEM, r->off, "out of memory");
	}
	if (r->strict && !r->off && !r->in_nest && (h != FXT_MAGIC_RECORD || words != 1))
		return fail(r, -EBADMSG, 0,
			    "not an FXT file: no magic number record at the start");

	switch (rec->type) {
	case FXT_REC_METADATA:
		ret = do_metadata(r, &c, h, rec);
		break;
	case FXT_REC_INIT:
		ret = do_init(r, &c, h, rec);
		break;
	case FXT_REC_STRING:
		ret = do_string(r, &c, h, rec);
		break;
	case FXT_REC_THREAD:
		ret = do_thread(r, &c, h, rec);
		break;
	case FXT_REC_EVENT:
		ret = do_event(r, &c, h, rec);
		break;
	case FXT_REC_BLOB:
		ret = do_blob(r, &c, h, rec, cut);
		break;
	case FXT_REC_USERSPACE_OBJ:
	case FXT_REC_KERNEL_OBJ:
		ret = do_object(r, &c, h, rec);
		break;
	case FXT_REC_SCHED:
		ret = do_sched(r, &c, h, rec);
		break;
	case FXT_REC_LOG:
		ret = do_log(r, &c, h, rec);
		break;
	case FXT_REC_LARGE:
		ret = do_large(r, &c, h, rec);
		break;
	default:
		ret = warn(r, "record of reserved type %u, skipped",
			   rec->type);
		break;
	}
	if (ret == -EBADMSG && !r->strict) {
		/* its size is sound, its contents are not: the next one */
		skip_malformed(r, where(r));
		/* (a cut one: the truncation, read again, is said next) */
		if (!cut)
			r->off += words * 8;
		goto again;
	}
	if (ret)
		return ret;
	rec->provider_id = r->cur ? r->cur->id : 0;
	/* a cut blob: where it began, whose truncation the next call says */
	if (cut)
		return 1;
	if (rec->type == FXT_REC_BLOB && !r->in_nest &&
	    (rec->blob.type == FXT_BLOB_RECORDS ||
	     rec->blob.type == FXT_BLOB_RECORDS_ZSTD)) {
		/* its records next: loading it may move a stream's buffer */
		r->nest_pending = true;
		return 1;
	}
	r->off += words * 8;
	return 1;
}

/* ---- life ------------------------------------------------------------ */

static struct fxt_reader *reader_new(const char *name, unsigned int flags)
{
	struct fxt_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->name = strdup(name ? name : "<memory>");
	if (!r->name) {
		free(r);
		return NULL;
	}
	r->strict = flags & FXT_READER_STRICT;
	r->pedantic = r->strict && (flags & FXT_READER_PEDANTIC);
	r->cut_blob = flags & FXT_READER_CUT_BLOB;
	r->fd = -1;
	r->text_epoch = 1;
	return r;
}

struct fxt_reader *fxt_reader_open_mem(const void *buf, size_t len,
				       const char *name, unsigned int flags)
{
	struct fxt_reader *r = reader_new(name, flags);

	if (!r)
		return NULL;
	r->data = buf;
	r->size = len;
	return r;
}

struct fxt_reader *fxt_reader_open_fd(int fd, const char *name,
				      unsigned int flags)
{
	struct fxt_reader *r = reader_new(name, flags);

	if (!r)
		return NULL;
	r->stream = true;
	r->fd = fd;
	return r;
}

struct fxt_reader *fxt_reader_open(const char *path, unsigned int flags)
{
	struct fxt_reader *r;
	const void *map;
	size_t len;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/*
	 * A regular file is mapped; what cannot be (a pipe, an empty or
	 * unmappable file) is read as a stream, and so is a compressed one:
	 * decompressed as it goes, never whole.
	 */
	if (!(flags & FXT_READER_STREAM) &&
	    !file_map_fd(fd, FILE_MAP_SEQUENTIAL, &map, &len) && len) {
		if (fxt_zip_detect(map, len) == FXT_ZIP_NONE) {
			close(fd);
			r = fxt_reader_open_mem(map, len, path, flags);
			if (!r) {
				file_unmap(map, len);
				errno = ENOMEM;
				return NULL;
			}
			r->map = map;
			r->map_len = len;
			return r;
		}
		file_unmap(map, len);
	}
	r = fxt_reader_open_fd(fd, path, flags);
	if (!r) {
		errno = ENOMEM;
		goto fail;
	}
	r->own_fd = true;
	return r;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return NULL;
}

void fxt_reader_close(struct fxt_reader *r)
{
	size_t i;
	int k;

	if (!r)
		return;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < r->nprovs; i++) {
			prov_clear(r, r->provs[i]);
			free(r->provs[i]);
		}
		free(r->provs);
		u64_map_free(&r->prov_at);
		tabs_swap(r);
	}
	if (r->pre) {
		worker_stop(&r->pre->worker);
		ZSTD_freeDCtx(r->pre->zd);
		free(r->pre->buf);
		free(r->pre);
	}
	free(r->nbuf);
	ZSTD_freeDCtx(r->zd);
	free(r->warnmsg);
	for (i = 0; i < FXT_WARN_KINDS; i++)
		free(r->kind_msg[i]);
	/* not r->size: a reader closed inside a frame has the frame's */
	if (r->map)
		file_unmap(r->map, r->map_len);
	fxt_zin_destroy(r->zin);
	if (r->own_fd)
		close(r->fd);
	free(r->buf);
	free(r->name);
	free(r);
}
