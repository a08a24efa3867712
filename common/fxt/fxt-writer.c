// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-writer.c - encode FXT records into a buffer and hand full buffers to
 * a file descriptor or a FILE.
 *
 * Every record is built in two steps: first its strings and threads are
 * resolved to refs (which may emit string and thread records ahead of
 * it), then its size is known and it is written in one go.  A record
 * sequence number pins the table slots the record refers to, so that a
 * later ref of the same record cannot take them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd-io.h"
#include "fxt-strtab.h"
#include "fxt-writer.h"
#include "fxt-zio.h"
#include "u64-map.h"
#include "worker.h"

#include <zstd.h>

#define BUF_SIZE		(256u * 1024)
#define NR_THREAD_SLOTS		(FXT_MAX_THREAD_INDEX + 1)	/* 0 unused */
/* Four buckets a thread slot keeps hash chains short. */
#define THR_HASH_BITS		10
#define MAX_LOG_BYTES		((FXT_MAX_RECORD_WORDS - 4) * 8)
#define MAX_STREAM_LEN		0x7fffu

/*
 * Thread indexes are allocated for the whole file, not per provider, as
 * string indexes are (fxt-strtab.h says why), and replaced in the same
 * least-recently-used order when all are taken.  They are made on the
 * first thread.
 */
struct wthreads {
	struct {
		uint64_t	pid;
		uint64_t	tid;
		uint32_t	pin;
		uint32_t	gen;
		uint8_t		ref;
		uint8_t		next;	/* hash chain, 0 ends it */
	} slot[NR_THREAD_SLOTS];
	uint8_t		bucket[1u << THR_HASH_BITS];
	uint32_t	used;
	uint32_t	hand;
};

/*
 * What one provider wrote of the file's indexes.  Everything grows with
 * what the provider uses, so that many small providers stay small.
 */
struct wprov {
	uint32_t	id;
	uint32_t	thr_last;	/* the thread of the previous record */
	struct fxt_strtab_prov strs;	/* its string indexes */
	uint32_t	*thr_gen;	/* by thread index, 0 never written */
};

/*
 * A plain descriptor's output, written on a thread of its own: the
 * writer fills one buffer while the other is being written, so that the
 * producer (the converter's mapping thread, say) does not spend its own
 * time in write(2) - about a sixth of it on a 185 MB conversion.  The
 * buffers change hands only after worker_wait(); the bytes and their
 * order are the same as written inline.
 */
struct wout {
	struct worker	worker;
	int		fd;
	int		err;	/* the thread's; read after waiting for it */
	uint8_t		*buf;	/* being written */
	size_t		len;
};

/*
 * A nested writer's compression, on a thread of its own: the producer
 * hands it a copy of each full buffer and, at the next, writes the frame
 * it made into the parent (so frames reach the parent one buffer late,
 * in order; a flush waits for them).  No thread (it could not start):
 * the same, inline.
 */
struct nzip {
	struct worker	worker;
	bool		threaded;
	ZSTD_CCtx	*zc;
	uint8_t		*in;		/* BUF_SIZE */
	size_t		in_len;
	uint8_t		*out;
	size_t		out_cap;
	size_t		out_len;	/* the job's result, 0 none */
	int		err;		/* the job's */
};

struct fxt_writer {
	int			fd;
	FILE			*fp;
	struct fxt_zout		*zout;		/* gzip or zstd output */
	struct wout		*wout;		/* plain fd output, threaded */
	unsigned int		flags;
	bool			be;
	int			err;
	uint64_t		flushed;
	uint8_t			*buf;
	size_t			len;
	uint32_t		seq;		/* record number, for pins */
	struct fxt_strtab	strs;
	struct fxt_strtab	*st;		/* &strs, or the parent's */
	/*
	 * fxt_writer_create_nested(): full buffers of whole records go to
	 * @parent, at most @cap bytes each, as blobs named @nest_name,
	 * compressed by @zc if there is one, into @zbuf
	 */
	struct fxt_writer	*parent;
	struct fxt_str		nest_name;
	struct nzip		*zip;		/* compressed: its thread */
	size_t			cap;
	uint32_t		max_words;
	/* fxt_writer_keep_together(): where the records kept begin, or -1 */
	ssize_t			group;
	struct wprov		**provs;
	size_t			nprovs;
	size_t			provs_cap;
	struct u64_map		prov_at;	/* id -> index + 1 */
	struct wprov		*cur;
	struct wthreads		*thr;
	/*
	 * The length of the last name Tracy's importer read (emit_string()
	 * says why): of the last string record, event name or kernel
	 * object name written.
	 */
	uint32_t		tracy_len;
};

struct tref {
	uint8_t		ref;
	uint64_t	pid;
	uint64_t	tid;
};

struct rargs {
	struct fxt_sref	name[FXT_MAX_ARGS];
	struct fxt_sref	val[FXT_MAX_ARGS];
	uint32_t	words[FXT_MAX_ARGS];
	uint32_t	total;
};

static inline uint32_t stream_words(size_t len)
{
	return (uint32_t)fxt_words(len);
}

/* ---- output ---------------------------------------------------------- */

/*
 * zstd's level for nested records: docs/BENCHMARKS.md ("Each event
 * once") measures what it costs and saves
 */
#define NEST_ZSTD_LEVEL	1

static void nzip_job(void *arg)
{
	struct nzip *z = arg;
	size_t n = ZSTD_compress2(z->zc, z->out, z->out_cap, z->in,
				  z->in_len);

	z->err = ZSTD_isError(n) ? -EIO : 0;
	z->out_len = ZSTD_isError(n) ? 0 : n;
}

/* The frame the compression made last, written into the parent. */
static int nest_drain(struct fxt_writer *w)
{
	struct nzip *z = w->zip;
	int ret;

	if (z->threaded)
		worker_wait(&z->worker);
	if (z->err)
		return z->err;
	if (!z->out_len)
		return 0;
	ret = fxt_write_blob(w->parent, w->nest_name, FXT_BLOB_RECORDS_ZSTD,
			     z->out, z->out_len);
	z->out_len = 0;
	return ret;
}

/* A nested writer's buffer of records, as blob records of its parent. */
static int nest_out(struct fxt_writer *w, const void *p, size_t n)
{
	struct nzip *z = w->zip;
	int ret;

	if (!z)
		return fxt_write_blob(w->parent, w->nest_name,
				      FXT_BLOB_RECORDS, p, n);
	ret = nest_drain(w);
	if (ret)
		return ret;
	memcpy(z->in, p, n);
	z->in_len = n;
	if (!z->threaded) {
		nzip_job(z);
		return 0;
	}
	worker_hand(&z->worker);
	return 0;
}

static int out_write(struct fxt_writer *w, const void *p, size_t n)
{
	const uint8_t *b = p;

	if (w->parent)
		return nest_out(w, p, n);
	if (w->zout)
		return fxt_zout_write(w->zout, p, n);
	if (w->fp) {
		if (fwrite(b, 1, n, w->fp) != n)
			return -(errno ? errno : EIO);
		return 0;
	}
	return fd_write_all(w->fd, b, n);
}

static void wout_job(void *arg)
{
	struct wout *o = arg;

	if (!o->err)
		o->err = fd_write_all(o->fd, o->buf, o->len);
}

/* The thread for a plain descriptor's output, or none (write inline). */
static void wout_start(struct fxt_writer *w)
{
	struct wout *o = calloc(1, sizeof(*o));

	if (!o)
		return;
	o->fd = w->fd;
	o->buf = malloc(BUF_SIZE);
	if (!o->buf || worker_start(&o->worker, wout_job, o)) {
		free(o->buf);
		free(o);
		return;
	}
	w->wout = o;
}

/* The thread's last write waited for; its error, or 0. */
static int wout_stop(struct fxt_writer *w)
{
	struct wout *o = w->wout;
	int ret;

	if (!o)
		return 0;
	worker_stop(&o->worker);
	ret = o->err;
	free(o->buf);
	free(o);
	w->wout = NULL;
	return ret;
}

/*
 * The buffer's bytes out: handed to the thread, which the caller waits
 * for when @sync (a flush), or written here when there is no thread.
 */
static int out_buf(struct fxt_writer *w, bool sync)
{
	struct wout *o = w->wout;
	uint8_t *t;

	if (!o)
		return out_write(w, w->buf, w->len);
	worker_wait(&o->worker);
	if (o->err)
		return o->err;
	t = o->buf;
	o->buf = w->buf;
	o->len = w->len;
	w->buf = t;
	worker_hand(&o->worker);
	if (!sync)
		return 0;
	worker_wait(&o->worker);
	return o->err;
}

static inline int nest_record(struct fxt_writer *w);

void fxt_writer_keep_together(struct fxt_writer *w, bool on)
{
	if (!w->parent)
		return;
	w->group = -1;
	if (!on)
		return;
	/* past half the frame: a new one, where the group most likely fits */
	if (w->len > w->cap / 2 && !w->err) {
		int ret = out_write(w, w->buf, w->len);

		if (ret) {
			w->err = ret;
			return;
		}
		w->flushed += w->len;
		w->len = 0;
	}
	nest_record(w);
	w->group = (ssize_t)w->len;
}

int fxt_writer_flush(struct fxt_writer *w)
{
	int ret;

	if (w->err)
		return w->err;
	if (w->len) {
		ret = out_buf(w, true);
		if (ret) {
			w->err = ret;
			return ret;
		}
		w->flushed += w->len;
		w->len = 0;
	}
	/* a nested writer's last frame in its parent */
	if (w->zip) {
		ret = nest_drain(w);
		if (ret)
			w->err = ret;
	}
	if (w->fp && fflush(w->fp))
		w->err = -(errno ? errno : EIO);
	return w->err;
}

/*
 * A nested writer's records before those kept together out, the kept
 * ones moved to the buffer's start: they go to the parent in one piece.
 */
static int group_carry(struct fxt_writer *w)
{
	size_t g = (size_t)w->group;
	int ret = out_write(w, w->buf, g);

	if (ret)
		return w->err = ret;
	memmove(w->buf, w->buf + g, w->len - g);
	w->flushed += g;
	w->len -= g;
	w->group = 0;
	return 0;
}

/* Room for @n more bytes in the buffer (n <= w->cap). */
static inline int ensure(struct fxt_writer *w, size_t n)
{
	if (w->len + n <= w->cap)
		return w->err;
	if (w->err)
		return w->err;
	if (w->group > 0) {
		int ret = group_carry(w);

		if (ret || w->len + n <= w->cap)
			return ret;
	}
	w->group = -1;
	if (w->len) {
		int ret = out_buf(w, false);

		if (ret)
			return w->err = ret;
		w->flushed += w->len;
		w->len = 0;
	}
	return 0;
}

static inline void put_word(struct fxt_writer *w, uint64_t v)
{
	if (w->be)
		v = __builtin_bswap64(v);
	memcpy(w->buf + w->len, &v, 8);
	w->len += 8;
}

static inline void put_stream(struct fxt_writer *w, const void *p, size_t n)
{
	size_t pad = (8 - (n & 7)) & 7;

	if (n)
		memcpy(w->buf + w->len, p, n);
	memset(w->buf + w->len + n, 0, pad);
	w->len += n + pad;
}

static inline void put_sref(struct fxt_writer *w, const struct fxt_sref *s)
{
	if (s->ref & FXT_SREF_INLINE)
		put_stream(w, s->ptr, s->len);
}

/* A stream of any size, through the buffer in pieces. */
static int put_big_stream(struct fxt_writer *w, const void *p, uint64_t n)
{
	const uint8_t *b = p;
	static const uint8_t zeros[8];
	size_t pad = (8 - (n & 7)) & 7;

	while (n) {
		size_t room, chunk;

		if (ensure(w, 8))
			return w->err;
		room = w->cap - w->len;
		chunk = n < room ? (size_t)n : room;
		memcpy(w->buf + w->len, b, chunk);
		w->len += chunk;
		b += chunk;
		n -= chunk;
	}
	/*
	 * The padding ends on a word boundary, which BUF_SIZE is: it always
	 * fits, and the buffer is never flushed in mid-word (the writer's
	 * one-pass path stores whole words at w->len).
	 */
	if (pad && ensure(w, pad))
		return w->err;
	memcpy(w->buf + w->len, zeros, pad);
	w->len += pad;
	return 0;
}

/* ---- providers ------------------------------------------------------- */

/* Start @p's tables afresh, keeping what was allocated. */
static void prov_reset(struct wprov *p, uint32_t id)
{
	fxt_strtab_prov_reset(&p->strs);
	if (p->thr_gen)
		memset(p->thr_gen, 0, NR_THREAD_SLOTS * sizeof(*p->thr_gen));
	p->id = id;
	p->thr_last = 0;
}

static void prov_free(struct wprov *p)
{
	fxt_strtab_prov_release(&p->strs);
	free(p->thr_gen);
	free(p);
}

static struct wprov *prov_get(struct fxt_writer *w, uint32_t id, bool reset)
{
	uint64_t at = u64_map_get(&w->prov_at, id);
	struct wprov *p, **np;

	if (at) {
		p = w->provs[at - 1];
		if (reset)
			prov_reset(p, id);
		return p;
	}
	if (w->nprovs == w->provs_cap) {
		size_t cap = w->provs_cap ? 2 * w->provs_cap : 8;

		np = realloc(w->provs, cap * sizeof(*np));
		if (!np)
			return NULL;
		w->provs = np;
		w->provs_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	prov_reset(p, id);
	w->provs[w->nprovs] = p;
	if (u64_map_set(&w->prov_at, id, w->nprovs + 1)) {
		free(p);
		return NULL;
	}
	w->nprovs++;
	return p;
}

/* ---- string and thread tables ---------------------------------------- */

/*
 * A string record; first, when it is shorter than the last name Tracy's
 * importer read, an empty one at index 0 (fxt-writer.h says why).
 */
static int emit_string(struct fxt_writer *w, uint32_t slot, const char *s,
		       uint32_t len)
{
	uint32_t words = 1 + stream_words(len);
	bool reset = len < w->tracy_len;

	if (ensure(w, (reset + words) * 8))
		return w->err;
	if (reset)
		put_word(w, FXT_REC_STRING | 1 << 4);
	put_word(w, FXT_REC_STRING | (uint64_t)words << 4 |
		    (uint64_t)slot << 16 | (uint64_t)len << 32);
	put_stream(w, s, len);
	w->tracy_len = len;
	return 0;
}

/* The length of the text a resolved ref stands for. */
static inline uint32_t sref_len(const struct fxt_writer *w,
				const struct fxt_sref *s)
{
	if (s->ref & FXT_SREF_INLINE)
		return s->len;
	return fxt_strtab_slot_len(w->st, s->ref);
}

/*
 * How the current record refers to @s, the string record it needs first
 * written now.
 */
static inline int resolve_str(struct fxt_writer *w, const struct fxt_str *s,
			      struct fxt_sref *out)
{
	struct fxt_strdef def;
	int ret;

	ret = fxt_strtab_resolve(w->st, &w->cur->strs, s, w->seq, out,
				 &def);
	if (ret || !def.len)
		return ret;
	return emit_string(w, def.slot, def.text, def.len);
}

/* ---- sizing before writing ------------------------------------------ */

static int measure(struct fxt_writer *w, uint64_t fixed,
		   const struct fxt_str *const *strs, unsigned int nstrs,
		   const struct fxt_arg *a, unsigned int nargs, bool exact,
		   uint64_t *words)
{
	unsigned int i;
	int ret;

	if (nargs > FXT_MAX_ARGS || (nargs && !a))
		return -EINVAL;
	*words = fixed;
	for (i = 0; i < nstrs; i++) {
		ret = fxt_strtab_words(w->st, strs[i], exact, words);
		if (ret)
			return ret;
	}
	for (i = 0; i < nargs; i++) {
		uint64_t aw = 1;
		int vw;

		ret = fxt_strtab_words(w->st, &a[i].name, exact, &aw);
		if (ret)
			return ret;
		vw = fxt_arg_value_words(a[i].type);
		if (vw < 0)
			return -EINVAL;
		aw += vw;
		if (a[i].type == FXT_ARG_STRING) {
			ret = fxt_strtab_words(w->st, &a[i].str, exact, &aw);
			if (ret)
				return ret;
		}
		if (aw > w->max_words)
			return -E2BIG;
		*words += aw;
	}
	return 0;
}

/*
 * Refuse a record that the format cannot hold before any string or
 * thread record it needs is written, so that a refusal writes nothing.
 * The cheap bound settles almost every record; the exact size is only
 * worked out near the limit.
 */
static __attribute__((noinline)) int check_fits(struct fxt_writer *w, uint64_t fixed, uint64_t limit,
		      const struct fxt_str *const *strs, unsigned int nstrs,
		      const struct fxt_arg *a, unsigned int nargs)
{
	uint64_t words;
	int ret;

	ret = measure(w, fixed, strs, nstrs, a, nargs, false, &words);
	if (!ret && words <= limit)
		return 0;
	if (ret && ret != -E2BIG)
		return ret;
	ret = measure(w, fixed, strs, nstrs, a, nargs, true, &words);
	if (ret)
		return ret;
	return words <= limit ? 0 : -E2BIG;
}

/* Inline-bound words of a string; past any limit if it is too long. */
static inline uint64_t text_bound(const struct fxt_str *s)
{
	if (s->id && s->id != FXT_STR_INLINE)
		return 0;
	return s->len > FXT_MAX_STRING_LEN ? 1u << 20 : (s->len + 7) / 8;
}

/*
 * The common case without a call: a bound on the record's size from the
 * text lengths alone.  Anything unusual goes to check_fits().
 */
static inline int fits_fast(struct fxt_writer *w, uint64_t fixed,
			    const struct fxt_str *const *strs,
			    unsigned int nstrs, const struct fxt_arg *a,
			    unsigned int nargs)
{
	uint64_t words = fixed + 2 * (uint64_t)nargs;
	unsigned int i;

	if (nargs <= FXT_MAX_ARGS && (a || !nargs)) {
		for (i = 0; i < nstrs; i++)
			words += text_bound(strs[i]);
		for (i = 0; i < nargs; i++) {
			words += text_bound(&a[i].name);
			if (a[i].type == FXT_ARG_STRING)
				words += text_bound(&a[i].str);
			else if (a[i].type >= FXT_ARG_TYPE_COUNT)
				words += 1u << 20;
		}
		if (words <= w->max_words)
			return 0;
	}
	return check_fits(w, fixed, w->max_words, strs, nstrs, a,
			  nargs);
}

static inline uint32_t thread_words(const struct fxt_writer *w)
{
	return (w->flags & FXT_WRITER_INLINE_THREADS) ? 2 : 0;
}

static inline uint32_t thr_hash(uint64_t pid, uint64_t tid)
{
	uint64_t h = (tid ^ (pid << 29 | pid >> 35)) * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 31;
	h *= 0xff51afd7ed558ccdULL;
	return (uint32_t)(h >> (64 - THR_HASH_BITS));
}

static inline uint32_t thr_find(struct wthreads *t, uint64_t pid,
				uint64_t tid)
{
	uint32_t s = t->bucket[thr_hash(pid, tid)];

	for (; s; s = t->slot[s].next)
		if (t->slot[s].pid == pid && t->slot[s].tid == tid)
			return s;
	return 0;
}

static void thr_unlink(struct wthreads *t, uint32_t slot)
{
	uint8_t *link = &t->bucket[thr_hash(t->slot[slot].pid,
					    t->slot[slot].tid)];

	while (*link && *link != slot)
		link = &t->slot[*link].next;
	if (*link)
		*link = t->slot[slot].next;
}

static uint32_t thr_victim(struct wthreads *t, uint32_t seq)
{
	if (t->used < FXT_MAX_THREAD_INDEX)
		return ++t->used;
	for (;;) {
		uint32_t s = t->hand;

		t->hand = s % FXT_MAX_THREAD_INDEX + 1;
		if (t->slot[s].pin == seq)
			continue;
		if (t->slot[s].ref) {
			t->slot[s].ref = 0;
			continue;
		}
		thr_unlink(t, s);
		return s;
	}
}

/*
 * The provider has not written the thread at its current index: restate
 * it there, or give it an index if the file has none for it.
 */
static __attribute__((noinline)) int thr_miss(struct fxt_writer *w,
					       const struct fxt_thread *th,
					       struct tref *out)
{
	struct wprov *p = w->cur;
	struct wthreads *t = w->thr;
	uint32_t s, h = thr_hash(th->pid, th->tid);

	if (!t) {
		t = w->thr = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->hand = 1;
	}
	if (!p->thr_gen) {
		p->thr_gen = calloc(NR_THREAD_SLOTS, sizeof(*p->thr_gen));
		if (!p->thr_gen)
			return -ENOMEM;
	}
	s = thr_find(t, th->pid, th->tid);
	if (!s) {
		s = thr_victim(t, w->seq);
		t->slot[s].pid = th->pid;
		t->slot[s].tid = th->tid;
		t->slot[s].next = t->bucket[h];
		t->slot[s].gen++;
		t->bucket[h] = (uint8_t)s;
	}
	t->slot[s].ref = 1;
	t->slot[s].pin = w->seq;
	p->thr_gen[s] = t->slot[s].gen;
	p->thr_last = s;
	out->ref = (uint8_t)s;
	if (ensure(w, 24))
		return w->err;
	put_word(w, FXT_REC_THREAD | 3u << 4 | (uint64_t)s << 16);
	put_word(w, th->pid);
	put_word(w, th->tid);
	return 0;
}

/*
 * The index of thread @th if the current provider has written it and it
 * still holds it; 0 when writing it would take a thread record first.
 * Not marked used (thr_mark() does that).
 */
static inline uint32_t thr_hit(struct fxt_writer *w,
			       const struct fxt_thread *th)
{
	struct wprov *p = w->cur;
	struct wthreads *t = w->thr;
	uint32_t s = p->thr_last;

	if (!s || t->slot[s].pid != th->pid || t->slot[s].tid != th->tid ||
	    p->thr_gen[s] != t->slot[s].gen) {
		s = t && p->thr_gen ? thr_find(t, th->pid, th->tid) : 0;
		if (!s || p->thr_gen[s] != t->slot[s].gen)
			return 0;
	}
	return s;
}

/* Thread index @s is used by the record being written. */
static inline void thr_mark(struct fxt_writer *w, uint32_t s)
{
	w->thr->slot[s].ref = 1;
	w->thr->slot[s].pin = w->seq;
	w->cur->thr_last = s;
}

static inline int resolve_thread(struct fxt_writer *w,
				 const struct fxt_thread *th, struct tref *out)
{
	uint32_t s;

	out->pid = th->pid;
	out->tid = th->tid;
	if (w->flags & FXT_WRITER_INLINE_THREADS) {
		out->ref = 0;
		return 0;
	}
	s = thr_hit(w, th);
	if (!s)
		return thr_miss(w, th, out);
	thr_mark(w, s);
	out->ref = (uint8_t)s;
	return 0;
}

static inline uint32_t tref_words(const struct tref *t)
{
	return t->ref ? 0 : 2;
}

static inline void put_tref(struct fxt_writer *w, const struct tref *t)
{
	if (!t->ref) {
		put_word(w, t->pid);
		put_word(w, t->tid);
	}
}

/* ---- arguments ------------------------------------------------------- */

static int resolve_args(struct fxt_writer *w, const struct fxt_arg *a,
			unsigned int n, struct rargs *ra)
{
	unsigned int i;
	int ret;

	if (n > FXT_MAX_ARGS || (n && !a))
		return -EINVAL;
	ra->total = 0;
	for (i = 0; i < n; i++) {
		uint32_t words = 1;
		int vw;

		ret = resolve_str(w, &a[i].name, &ra->name[i]);
		if (ret)
			return ret;
		words += fxt_sref_words(&ra->name[i]);
		vw = fxt_arg_value_words(a[i].type);
		if (vw < 0)
			return -EINVAL;
		words += vw;
		if (a[i].type == FXT_ARG_STRING) {
			ret = resolve_str(w, &a[i].str, &ra->val[i]);
			if (ret)
				return ret;
			words += fxt_sref_words(&ra->val[i]);
		}
		if (words > w->max_words)
			return -E2BIG;
		ra->words[i] = words;
		ra->total += words;
	}
	return 0;
}

/*
 * An argument's first word: its type, size in words, name, and the value
 * it carries in its upper half (32-bit integers, bool, a string's ref).
 */
static inline __attribute__((always_inline))
uint64_t arg_header(const struct fxt_arg *a, uint32_t words,
				  uint32_t name_ref, uint32_t str_ref)
{
	uint64_t h = a->type | (uint64_t)words << 4 | (uint64_t)name_ref << 16;

	switch (a->type) {
	case FXT_ARG_INT32:
		h |= (uint64_t)(uint32_t)a->i32 << 32;
		break;
	case FXT_ARG_UINT32:
		h |= (uint64_t)a->u32 << 32;
		break;
	case FXT_ARG_BOOL:
		h |= (uint64_t)(a->b ? 1 : 0) << 32;
		break;
	case FXT_ARG_STRING:
		h |= (uint64_t)str_ref << 32;
		break;
	}
	return h;
}

/* The word after the header of the types fxt_arg_value_words() gives 1. */
static inline uint64_t arg_value_word(const struct fxt_arg *a)
{
	uint64_t v;

	if (a->type != FXT_ARG_DOUBLE)
		return a->u64;
	memcpy(&v, &a->d, 8);
	return v;
}

static void put_args(struct fxt_writer *w, const struct fxt_arg *a,
		     unsigned int n, const struct rargs *ra)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		put_word(w, arg_header(&a[i], ra->words[i], ra->name[i].ref,
				       a[i].type == FXT_ARG_STRING ?
				       ra->val[i].ref : 0));
		put_sref(w, &ra->name[i]);
		switch (a[i].type) {
		case FXT_ARG_INT64:
		case FXT_ARG_UINT64:
		case FXT_ARG_POINTER:
		case FXT_ARG_KOID:
		case FXT_ARG_DOUBLE:
			put_word(w, arg_value_word(&a[i]));
			break;
		case FXT_ARG_STRING:
			put_sref(w, &ra->val[i]);
			break;
		}
	}
}

/* ---- nested frames ---------------------------------------------------- */

/*
 * A nested writer's frames read on their own: one that begins at a
 * record begins with a magic number record, after which the reader
 * starts its tables afresh (fxt-reader.c), and restates every string
 * and thread it uses.  A frame is ended before a record once it is
 * within a quarter of its capacity of full, so that a record and the
 * string and thread records it needs fall in one frame; only a record
 * larger than that quarter, or records kept together past the end,
 * continue a frame into the next, which then begins without the magic
 * number and reads with the tables of the one before.
 */
static int nest_record_slow(struct fxt_writer *w)
{
	size_t i;
	int ret;

	if (w->len && w->len + w->cap / 4 > w->cap && w->group < 0) {
		ret = out_write(w, w->buf, w->len);
		if (ret)
			return w->err = ret;
		w->flushed += w->len;
		w->len = 0;
	}
	if (w->len || w->group >= 0)
		return 0;
	for (i = 0; i < w->nprovs; i++)
		prov_reset(w->provs[i], w->provs[i]->id);
	put_word(w, FXT_MAGIC_RECORD);
	if (w->cur->id)
		put_word(w, FXT_REC_METADATA | 1u << 4 |
			    (uint64_t)FXT_META_PROVIDER_SECTION << 16 |
			    (uint64_t)w->cur->id << 20);
	return 0;
}

/* Before each record of a nested writer: nest_record_slow(). */
static inline int nest_record(struct fxt_writer *w)
{
	if (!w->parent || w->err)
		return w->err;
	return nest_record_slow(w);
}

/* ---- writer life ----------------------------------------------------- */

static struct fxt_writer *writer_create(int fd, FILE *fp, unsigned int flags)
{
	struct fxt_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = fd;
	w->fp = fp;
	w->flags = flags;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w->be = true;
#else
	w->be = !!(flags & FXT_WRITER_BIG_ENDIAN);
#endif
	w->buf = malloc(BUF_SIZE);
	w->cap = BUF_SIZE;
	w->max_words = FXT_MAX_RECORD_WORDS;
	w->group = -1;
	w->st = &w->strs;
	if (fxt_strtab_init(&w->strs, flags & FXT_WRITER_INLINE_STRINGS)) {
		fxt_writer_close(w);
		errno = ENOMEM;
		return NULL;
	}
	if (flags & (FXT_WRITER_GZIP | FXT_WRITER_ZSTD)) {
		if (fd < 0 || (flags & FXT_WRITER_GZIP && flags & FXT_WRITER_ZSTD)) {
			fxt_writer_close(w);
			errno = EINVAL;
			return NULL;
		}
		w->zout = fxt_zout_create(fd, flags & FXT_WRITER_GZIP ?
					  FXT_ZIP_GZIP : FXT_ZIP_ZSTD);
		if (!w->zout) {
			fxt_writer_close(w);
			errno = ENOMEM;
			return NULL;
		}
	} else if (fd >= 0 && w->buf) {
		wout_start(w);
	}
	/* Records before any provider go to an anonymous one, id 0. */
	w->cur = w->buf ? prov_get(w, 0, false) : NULL;
	if (!w->cur) {
		fxt_writer_close(w);
		errno = ENOMEM;
		return NULL;
	}
	put_word(w, FXT_MAGIC_RECORD);
	return w;
}

struct fxt_writer *fxt_writer_create_fd(int fd, unsigned int flags)
{
	return writer_create(fd, NULL, flags);
}

struct fxt_writer *fxt_writer_create_fp(FILE *fp, unsigned int flags)
{
	return writer_create(-1, fp, flags);
}

struct fxt_writer *fxt_writer_create_nested(struct fxt_writer *parent,
					    const char *name, bool compress)
{
	unsigned int flags = parent->flags & ~(FXT_WRITER_GZIP |
					       FXT_WRITER_ZSTD);
	struct fxt_writer *w = writer_create(-1, NULL, flags);

	if (!w)
		return NULL;
	/* its texts are the parent's: ids from either writer are valid */
	fxt_strtab_release(&w->strs);
	w->st = parent->st;
	w->parent = parent;
	w->nest_name = fxt_writer_str(parent, name);
	if (compress) {
		struct nzip *z = calloc(1, sizeof(*z));

		w->zip = z;
		if (z) {
			z->out_cap = ZSTD_compressBound(BUF_SIZE);
			z->zc = ZSTD_createCCtx();
			z->in = malloc(BUF_SIZE);
			z->out = malloc(z->out_cap);
		}
		/* a damaged frame is found whole, not read as other records */
		if (!z || !z->zc || !z->in || !z->out ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(z->zc,
				ZSTD_c_compressionLevel, NEST_ZSTD_LEVEL)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(z->zc,
				ZSTD_c_checksumFlag, 1))) {
			fxt_writer_close(w);
			errno = ENOMEM;
			return NULL;
		}
		z->threaded = !worker_start(&z->worker, nzip_job, z);
	} else {
		w->cap = FXT_WRITER_NESTED_CAP;
		w->max_words = FXT_WRITER_NESTED_CAP / 8;
	}
	return w;
}

int fxt_writer_close(struct fxt_writer *w)
{
	size_t i;
	int ret;

	if (!w)
		return 0;
	ret = w->buf ? fxt_writer_flush(w) : 0;
	if (w->wout) {
		int tret = wout_stop(w);

		if (!ret)
			ret = tret;
	}
	if (w->zout) {
		int zret = fxt_zout_close(w->zout);

		if (!ret)
			ret = zret;
	}
	for (i = 0; i < w->nprovs; i++)
		prov_free(w->provs[i]);
	free(w->provs);
	u64_map_free(&w->prov_at);
	free(w->thr);
	if (w->st == &w->strs)
		fxt_strtab_release(&w->strs);
	if (w->zip) {
		if (w->zip->threaded)
			worker_stop(&w->zip->worker);
		ZSTD_freeCCtx(w->zip->zc);
		free(w->zip->in);
		free(w->zip->out);
		free(w->zip);
	}
	free(w->buf);
	free(w);
	return ret;
}

uint64_t fxt_writer_offset(const struct fxt_writer *w)
{
	return w->flushed + w->len;
}

int64_t fxt_writer_intern(struct fxt_writer *w, const char *s, size_t len)
{
	return fxt_strtab_intern(w->st, s, len);
}

struct fxt_str fxt_writer_str(struct fxt_writer *w, const char *s)
{
	size_t len = strlen(s);
	int64_t id = fxt_writer_intern(w, s, len);
	struct fxt_str str = { .ptr = s, .len = (uint32_t)len };

	str.id = id > 0 ? (uint32_t)id : 0;
	return str;
}

/* ---- metadata -------------------------------------------------------- */

int fxt_write_provider_info(struct fxt_writer *w, uint32_t id,
			    const char *name, size_t len)
{
	uint32_t words = 1 + stream_words(len);
	struct wprov *p;

	if (len > FXT_MAX_PROVIDER_NAME)
		return -E2BIG;
	if (ensure(w, words * 8))
		return w->err;
	p = prov_get(w, id, true);
	if (!p)
		return -ENOMEM;
	w->cur = p;
	put_word(w, FXT_REC_METADATA | (uint64_t)words << 4 |
		    (uint64_t)FXT_META_PROVIDER_INFO << 16 |
		    (uint64_t)id << 20 | (uint64_t)len << 52);
	put_stream(w, name, len);
	return 0;
}

int fxt_write_provider_section(struct fxt_writer *w, uint32_t id)
{
	struct wprov *p;

	if (nest_record(w) || ensure(w, 8))
		return w->err;
	p = prov_get(w, id, false);
	if (!p)
		return -ENOMEM;
	w->cur = p;
	put_word(w, FXT_REC_METADATA | 1u << 4 |
		    (uint64_t)FXT_META_PROVIDER_SECTION << 16 |
		    (uint64_t)id << 20);
	return 0;
}

int fxt_write_provider_event(struct fxt_writer *w, uint32_t id,
			     unsigned int event)
{
	if (event > 0xf)
		return -EINVAL;
	if (nest_record(w) || ensure(w, 8))
		return w->err;
	put_word(w, FXT_REC_METADATA | 1u << 4 |
		    (uint64_t)FXT_META_PROVIDER_EVENT << 16 |
		    (uint64_t)id << 20 | (uint64_t)event << 52);
	return 0;
}

int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second)
{
	if (ensure(w, 16))
		return w->err;
	put_word(w, FXT_REC_INIT | 2u << 4);
	put_word(w, ticks_per_second);
	return 0;
}

/* ---- events ---------------------------------------------------------- */

static bool event_has_id(unsigned int type)
{
	return type == FXT_EVENT_COUNTER || type == FXT_EVENT_DURATION_COMPLETE ||
	       type >= FXT_EVENT_ASYNC_BEGIN;
}

static inline uint32_t ref_hit(struct fxt_writer *w, const struct fxt_str *s)
{
	return fxt_strtab_hit(w->st, &w->cur->strs, s);
}

/*
 * Most events: every string one the provider has at an index, the thread
 * too, no argument of an unusual type.  Written in one pass straight into
 * the buffer, the header last; the same bytes and the same table updates
 * as the general path.  False, with nothing written, for any other event:
 * the general path then takes it from the start.  The indexes used are
 * marked used (as ref_for_id() marks them) only once the event is
 * written, so that giving up leaves the tables as they were, for the
 * general path to refuse or write the event as if this had not run.
 */
static bool write_event_fast(struct fxt_writer *w, const struct fxt_event *ev)
{
	const struct fxt_arg *a = ev->args;
	unsigned int i, n = ev->nargs, nused = 0;
	uint16_t used[2 + 2 * FXT_MAX_ARGS];
	uint32_t cat, name, t, ref;
	uint64_t *q, *rec;

	if (n > FXT_MAX_ARGS || (n && !a) || w->be || (w->len & 7) ||
	    (w->flags & FXT_WRITER_INLINE_THREADS) ||
	    ensure(w, (3 + 2 * FXT_MAX_ARGS) * 8))
		return false;
	t = thr_hit(w, &ev->thread);
	if (!t)
		return false;
	cat = ref_hit(w, &ev->category);
	name = cat ? ref_hit(w, &ev->name) : 0;
	if (!name)
		return false;
	used[nused++] = cat;
	used[nused++] = name;
	/* malloc'ed, and w->len a whole number of words (tested above) */
	rec = (uint64_t *)(void *)(w->buf + w->len);
	q = rec + 2;
	for (i = 0; i < n; i++, a++) {
		uint32_t val = 0;
		int vw;

		ref = ref_hit(w, &a->name);
		if (!ref)
			return false;
		used[nused++] = ref;
		if (a->type == FXT_ARG_STRING) {
			val = ref_hit(w, &a->str);
			/* index 0 is the empty text; an id's text may be too */
			if (!val && (a->str.len || (a->str.id &&
						    a->str.id != FXT_STR_INLINE)))
				return false;
			if (val)
				used[nused++] = val;
			*q++ = arg_header(a, 1, ref, val);
			continue;
		}
		vw = fxt_arg_value_words(a->type);
		if (vw < 0)
			return false;
		*q++ = arg_header(a, 1 + vw, ref, 0);
		if (vw)
			*q++ = arg_value_word(a);
	}
	if (ev->type == FXT_EVENT_DURATION_COMPLETE)
		*q++ = ev->end_ts;
	else if (event_has_id(ev->type))
		*q++ = ev->id;
	for (i = 0; i < nused; i++)
		fxt_strtab_mark(w->st, used[i], w->seq);
	thr_mark(w, t);
	rec[0] = FXT_REC_EVENT | (uint64_t)(q - rec) << 4 |
		 (uint64_t)ev->type << 16 | (uint64_t)n << 20 |
		 (uint64_t)t << 24 | (uint64_t)cat << 32 | (uint64_t)name << 48;
	rec[1] = ev->ts;
	w->len += (q - rec) * 8;
	w->tracy_len = fxt_strtab_slot_len(w->st, name);
	return true;
}

int fxt_write_event(struct fxt_writer *w, const struct fxt_event *ev)
{
	struct fxt_sref cat, name;
	struct tref thr;
	struct rargs ra;
	uint32_t words;
	int ret;

	const struct fxt_str *strs[2] = { &ev->category, &ev->name };

	if (nest_record(w))
		return w->err;
	if (ev->type >= FXT_EVENT_TYPE_COUNT)
		return -EINVAL;
	/*
	 * A record number only ever compared with the current one: one
	 * skipped by a refused event changes nothing.
	 */
	w->seq++;
	if (write_event_fast(w, ev))
		return 0;
	/* refused before anything is marked used: the tables stay as they were */
	ret = fits_fast(w, 2 + thread_words(w) + event_has_id(ev->type),
			strs, 2, ev->args, ev->nargs);
	if (ret)
		return ret;
	ret = resolve_thread(w, &ev->thread, &thr);
	if (!ret)
		ret = resolve_str(w, &ev->category, &cat);
	if (!ret)
		ret = resolve_str(w, &ev->name, &name);
	if (!ret)
		ret = resolve_args(w, ev->args, ev->nargs, &ra);
	if (ret)
		return ret;
	words = 2 + tref_words(&thr) + fxt_sref_words(&cat) + fxt_sref_words(&name) +
		ra.total + event_has_id(ev->type);
	if (words > w->max_words)
		return -E2BIG;
	if (ensure(w, words * 8))
		return w->err;
	put_word(w, FXT_REC_EVENT | (uint64_t)words << 4 |
		    (uint64_t)ev->type << 16 | (uint64_t)ev->nargs << 20 |
		    (uint64_t)thr.ref << 24 | (uint64_t)cat.ref << 32 |
		    (uint64_t)name.ref << 48);
	w->tracy_len = sref_len(w, &name);
	put_word(w, ev->ts);
	put_tref(w, &thr);
	put_sref(w, &cat);
	put_sref(w, &name);
	put_args(w, ev->args, ev->nargs, &ra);
	if (ev->type == FXT_EVENT_DURATION_COMPLETE)
		put_word(w, ev->end_ts);
	else if (event_has_id(ev->type))
		put_word(w, ev->id);
	return 0;
}

/* ---- blobs and objects ----------------------------------------------- */

int fxt_write_blob(struct fxt_writer *w, struct fxt_str name,
		   unsigned int type, const void *data, size_t size)
{
	const uint8_t *p = data;
	struct fxt_sref nref;
	int ret;

	const struct fxt_str *strs[1] = { &name };

	if (type > 0xff || (size && !data))
		return -EINVAL;
	ret = check_fits(w, 1, w->max_words, strs, 1, NULL, 0);
	if (ret)
		return ret;
	/* Chunks share the name: the spec has consumers append them. */
	do {
		uint32_t room, chunk, words;

		w->seq++;
		ret = resolve_str(w, &name, &nref);
		if (ret)
			return ret;
		room = (w->max_words - 1 - fxt_sref_words(&nref)) * 8;
		if (room > MAX_STREAM_LEN)
			room = MAX_STREAM_LEN & ~7u;
		chunk = size < room ? (uint32_t)size : room;
		words = 1 + fxt_sref_words(&nref) + stream_words(chunk);
		if (ensure(w, words * 8))
			return w->err;
		put_word(w, FXT_REC_BLOB | (uint64_t)words << 4 |
			    (uint64_t)nref.ref << 16 | (uint64_t)chunk << 32 |
			    (uint64_t)type << 48);
		put_sref(w, &nref);
		put_stream(w, p, chunk);
		p += chunk;
		size -= chunk;
	} while (size);
	return 0;
}

/*
 * Userspace and kernel object records share a shape: a header with a
 * type-specific byte at [16..23], name ref at [24..39] and argument count
 * at [40..43], then id words, the name and the arguments.
 */
static int write_object(struct fxt_writer *w, unsigned int type,
			unsigned int byte16, const uint64_t *ids,
			unsigned int nids, const struct fxt_str *name,
			const struct fxt_arg *args, unsigned int nargs)
{
	const struct fxt_str *strs[1] = { name };
	struct fxt_sref nref;
	struct rargs ra;
	uint32_t words, i;
	int ret;

	if (nest_record(w))
		return w->err;
	if (byte16 > 0xff)
		return -EINVAL;
	ret = check_fits(w, 1 + nids, w->max_words, strs, 1, args,
			 nargs);
	if (ret)
		return ret;
	w->seq++;
	ret = resolve_str(w, name, &nref);
	if (!ret)
		ret = resolve_args(w, args, nargs, &ra);
	if (ret)
		return ret;
	words = 1 + nids + fxt_sref_words(&nref) + ra.total;
	if (ensure(w, words * 8))
		return w->err;
	put_word(w, type | (uint64_t)words << 4 | (uint64_t)byte16 << 16 |
		    (uint64_t)nref.ref << 24 | (uint64_t)nargs << 40);
	if (type == FXT_REC_KERNEL_OBJ)
		w->tracy_len = sref_len(w, &nref);
	for (i = 0; i < nids; i++)
		put_word(w, ids[i]);
	put_sref(w, &nref);
	put_args(w, args, nargs, &ra);
	return 0;
}

int fxt_write_userspace_object(struct fxt_writer *w, uint64_t pointer,
			       uint64_t pid, struct fxt_str name,
			       const struct fxt_arg *args, unsigned int nargs)
{
	/* The process ref is inline (0): a thread slot would need a tid. */
	uint64_t ids[2] = { pointer, pid };

	return write_object(w, FXT_REC_USERSPACE_OBJ, 0, ids, 2, &name, args,
			    nargs);
}

int fxt_write_kernel_object(struct fxt_writer *w, uint64_t koid,
			    unsigned int obj_type, struct fxt_str name,
			    const struct fxt_arg *args, unsigned int nargs)
{
	return write_object(w, FXT_REC_KERNEL_OBJ, obj_type, &koid, 1, &name,
			    args, nargs);
}

/* ---- scheduling ------------------------------------------------------ */

int fxt_write_legacy_switch(struct fxt_writer *w,
			    const struct fxt_legacy_switch *cs)
{
	struct tref out, in;
	uint32_t words;
	int ret;

	if (nest_record(w))
		return w->err;
	if (cs->cpu > 0xff || cs->out_state > 0xf || cs->out_prio > 0xff ||
	    cs->in_prio > 0xff)
		return -EINVAL;
	w->seq++;
	ret = resolve_thread(w, &cs->out, &out);
	if (!ret)
		ret = resolve_thread(w, &cs->in, &in);
	if (ret)
		return ret;
	words = 2 + tref_words(&out) + tref_words(&in);
	if (ensure(w, words * 8))
		return w->err;
	put_word(w, FXT_REC_SCHED | (uint64_t)words << 4 |
		    (uint64_t)cs->cpu << 16 | (uint64_t)cs->out_state << 24 |
		    (uint64_t)out.ref << 28 | (uint64_t)in.ref << 36 |
		    (uint64_t)cs->out_prio << 44 | (uint64_t)cs->in_prio << 52);
	put_word(w, cs->ts);
	put_tref(w, &out);
	put_tref(w, &in);
	return 0;
}

static int write_sched(struct fxt_writer *w, unsigned int subtype,
		       uint64_t ts, unsigned int cpu, unsigned int state,
		       const uint64_t *tids, unsigned int ntids,
		       const struct fxt_arg *args, unsigned int nargs)
{
	struct rargs ra;
	uint32_t words, i;
	int ret;

	if (nest_record(w))
		return w->err;
	if (cpu > 0xffff || state > 0xf)
		return -EINVAL;
	ret = fits_fast(w, 2 + ntids, NULL, 0, args, nargs);
	if (ret)
		return ret;
	w->seq++;
	ret = resolve_args(w, args, nargs, &ra);
	if (ret)
		return ret;
	words = 2 + ntids + ra.total;
	if (words > w->max_words)
		return -E2BIG;
	if (ensure(w, words * 8))
		return w->err;
	put_word(w, FXT_REC_SCHED | (uint64_t)words << 4 |
		    (uint64_t)nargs << 16 | (uint64_t)cpu << 20 |
		    (uint64_t)state << 36 | (uint64_t)subtype << 60);
	put_word(w, ts);
	for (i = 0; i < ntids; i++)
		put_word(w, tids[i]);
	put_args(w, args, nargs, &ra);
	return 0;
}

int fxt_write_sched_switch(struct fxt_writer *w,
			   const struct fxt_sched_switch *cs)
{
	uint64_t tids[2] = { cs->out_tid, cs->in_tid };

	return write_sched(w, FXT_SCHED_SWITCH, cs->ts, cs->cpu, cs->out_state,
			   tids, 2, cs->args, cs->nargs);
}

int fxt_write_sched_wakeup(struct fxt_writer *w,
			   const struct fxt_sched_wakeup *wk)
{
	return write_sched(w, FXT_SCHED_WAKEUP, wk->ts, wk->cpu, 0, &wk->tid, 1,
			   wk->args, wk->nargs);
}

/* ---- logs ------------------------------------------------------------ */

/*
 * Cut at a UTF-8 character boundary: a character has at most three
 * continuation bytes, so the boundary is at most three bytes back (text
 * that is not UTF-8 is cut where it is full).
 */
static size_t utf8_cut(const char *s, size_t len, size_t max)
{
	size_t cut = max;

	if (len <= max)
		return len;
	while (cut > max - 3 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	return ((unsigned char)s[cut] & 0xc0) == 0x80 ? max : cut;
}

int fxt_write_log(struct fxt_writer *w, uint64_t ts,
		  const struct fxt_thread *thread, const char *msg, size_t len)
{
	struct tref thr;
	int ret;

	if (nest_record(w))
		return w->err;
	if (len && !msg)
		return -EINVAL;
	do {
		size_t chunk = utf8_cut(msg, len, MAX_LOG_BYTES);
		uint32_t words;

		w->seq++;
		ret = resolve_thread(w, thread, &thr);
		if (ret)
			return ret;
		words = 2 + tref_words(&thr) + stream_words(chunk);
		if (ensure(w, words * 8))
			return w->err;
		put_word(w, FXT_REC_LOG | (uint64_t)words << 4 |
			    (uint64_t)chunk << 16 | (uint64_t)thr.ref << 32);
		put_word(w, ts);
		put_tref(w, &thr);
		put_stream(w, msg, chunk);
		msg += chunk;
		len -= chunk;
	} while (len);
	return 0;
}

/* ---- large records --------------------------------------------------- */

int fxt_write_large_blob(struct fxt_writer *w, const struct fxt_large_blob *lb)
{
	const struct fxt_str *strs[2] = { &lb->category, &lb->name };
	bool meta;
	struct fxt_sref cat, name;
	struct tref thr = { 0 };
	struct rargs ra = { .total = 0 };
	unsigned int nargs = 0;
	uint64_t words, fmt;
	int ret;

	if (w->err)
		return w->err;
	if (lb->format > FXT_LARGE_BLOB_NO_META || (lb->size && !lb->data) ||
	    w->parent)
		return -EINVAL;
	/* Everything but the payload must fit the buffer in one piece. */
	meta = lb->format == FXT_LARGE_BLOB_METADATA;
	ret = check_fits(w, 3 + (meta ? 1 + thread_words(w) : 0), BUF_SIZE / 8,
			 strs, 2, meta ? lb->args : NULL, meta ? lb->nargs : 0);
	if (ret)
		return ret;
	if (lb->size > (FXT_MAX_LARGE_WORDS - BUF_SIZE / 8) * 8)
		return -E2BIG;
	w->seq++;
	ret = resolve_str(w, &lb->category, &cat);
	if (!ret)
		ret = resolve_str(w, &lb->name, &name);
	if (!ret && lb->format == FXT_LARGE_BLOB_METADATA) {
		nargs = lb->nargs;
		ret = resolve_thread(w, &lb->thread, &thr);
		if (!ret)
			ret = resolve_args(w, lb->args, nargs, &ra);
	}
	if (ret)
		return ret;
	words = 3 + (uint64_t)fxt_sref_words(&cat) + fxt_sref_words(&name) +
		stream_words(lb->size);
	fmt = cat.ref | (uint64_t)name.ref << 16;
	if (lb->format == FXT_LARGE_BLOB_METADATA) {
		words += 1 + tref_words(&thr) + ra.total;
		fmt |= (uint64_t)nargs << 32 | (uint64_t)thr.ref << 36;
	}
	if (words > FXT_MAX_LARGE_WORDS || lb->size > (UINT64_MAX >> 4) ||
	    (words - stream_words(lb->size)) * 8 > BUF_SIZE)
		return -E2BIG;
	/* Everything but the payload fits the buffer: write it, then stream. */
	if (ensure(w, (words - stream_words(lb->size)) * 8))
		return w->err;
	put_word(w, FXT_REC_LARGE | words << 4 |
		    (uint64_t)FXT_LARGE_BLOB << 36 | (uint64_t)lb->format << 40);
	put_word(w, fmt);
	put_sref(w, &cat);
	put_sref(w, &name);
	if (lb->format == FXT_LARGE_BLOB_METADATA) {
		put_word(w, lb->ts);
		put_tref(w, &thr);
		put_args(w, lb->args, nargs, &ra);
	}
	put_word(w, lb->size);
	return put_big_stream(w, lb->data, lb->size);
}

int fxt_write_raw(struct fxt_writer *w, const uint64_t *words, size_t nwords)
{
	uint64_t size;
	size_t i;

	if (w->err)
		return w->err;
	if (!nwords || !words)
		return -EINVAL;
	if ((words[0] & 0xf) == FXT_REC_LARGE)
		size = (words[0] >> 4) & 0xffffffffULL;
	else
		size = (words[0] >> 4) & 0xfff;
	if (size != nwords)
		return -EINVAL;
	for (i = 0; i < nwords; i++) {
		if (ensure(w, 8))
			return w->err;
		put_word(w, words[i]);
	}
	return 0;
}
