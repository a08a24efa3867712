// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-fxt.c - the Perfetto trace an FXT file carries: the payloads of
 * its blob records of type FXT_BLOB_PERFETTO, in file order, which are
 * Trace.packet fields as a .pftrace holds them (Perfetto's FXT importer
 * reads them so: fuchsia_trace_tokenizer.cc, ParseRecord, case kBlob).
 * The packets of a trace.dat converted by trace-fxt are every kernel
 * event as Perfetto reads it; made into a .dat they show what the packets
 * keep of each event.  Records of nested streams are no packets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fxt-format.h"
#include "fxt-reader.h"
#include "pft2dat-intern.h"
#include "tcfxt.h"

static bool fxt_sniff(const void *p, size_t len)
{
	uint64_t magic;

	if (len < sizeof(magic))
		return false;
	memcpy(&magic, p, sizeof(magic));
	return magic == FXT_MAGIC_RECORD;
}

/* Anonymous memory grown by doubling: pft_input_free() unmaps it. */
static int grow(uint8_t **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 1 << 20;
	void *p;

	while (n < need)
		n *= 2;
	if (n == *cap)
		return 0;
	p = *buf ? mremap(*buf, *cap, n, MREMAP_MAYMOVE) :
		   mmap(NULL, n, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* The metadata instant a .cont continues, if any. */
enum { META_NONE, META_FORMAT, META_KALLSYMS, META_PRINTK };

static void meta_done(struct pft_ctx *c, int kind)
{
	struct pft_fxt_meta *m = &c->fxt;

	if (kind == META_FORMAT && m->formats.len &&
	    m->formats.s[m->formats.len - 1] != '\0')
		f2d_text_add(&m->formats, "", 1);
}

/* The text of a metadata instant, or of its .cont: its last string. */
static const struct fxt_arg *meta_text(const struct fxt_event *ev)
{
	int i;

	for (i = (int)ev->nargs - 1; i >= 0; i--)
		if (ev->args[i].type == FXT_ARG_STRING)
			return &ev->args[i];
	return NULL;
}

/*
 * One of the converter's instants: its formats kept as "SYSTEM\0TEXT\0"
 * runs, its kallsyms and printk lines as they are.  Out of memory: left
 * out, the packets' own forms used.
 */
static void meta_take(struct pft_ctx *c, struct fxt_reader *r,
		      struct fxt_record *rec, int *kind)
{
	const struct fxt_event *ev = &rec->event;
	struct pft_fxt_meta *m = &c->fxt;
	const struct fxt_arg *t, *sys;
	struct f2d_text *dst;
	bool cont = tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX);

	if (!cont) {
		meta_done(c, *kind);
		*kind = META_NONE;
		if (fxt_str_eq(ev->name, TCFXT_EVENT_FORMAT))
			*kind = META_FORMAT;
		else if (fxt_str_eq(ev->name, TCFXT_KALLSYMS))
			*kind = META_KALLSYMS;
		else if (fxt_str_eq(ev->name, TCFXT_PRINTK))
			*kind = META_PRINTK;
	}
	if (*kind == META_NONE || fxt_reader_args(r, rec) < 0)
		return;
	t = meta_text(ev);
	dst = *kind == META_FORMAT ? &m->formats :
	      *kind == META_KALLSYMS ? &m->kallsyms : &m->printk;
	if (*kind == META_FORMAT && !cont) {
		sys = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_SYSTEM);
		if (!sys || sys->type != FXT_ARG_STRING || !t ||
		    memchr(sys->str.ptr, '\0', sys->str.len) ||
		    f2d_text_add(dst, sys->str.ptr, sys->str.len) ||
		    f2d_text_add(dst, "", 1)) {
			*kind = META_NONE;
			return;
		}
	}
	if (t && !memchr(t->str.ptr, '\0', t->str.len))
		f2d_text_add(dst, t->str.ptr, t->str.len);
}

/* What a damaged FXT leaves: its packets before the damage, said. */
static void say_fxt_damage(struct pft_ctx *c, struct fxt_reader *r)
{
	c->fxt_damaged = 1;
	c->st->damaged = 1;
	snprintf(c->st->damage, sizeof(c->st->damage), "%s; the packets "
		 "before it are read", fxt_reader_error(r));
}

int pft_fxt_packets(struct pft_ctx *c, const char *in, const void *fxt,
		    size_t fxt_len, const void **p, size_t *len, char *err,
		    size_t errlen)
{
	struct fxt_reader *r;
	struct fxt_record rec;
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, keep;
	int ret, kind = META_NONE;

	if (!fxt_sniff(fxt, fxt_len))
		return 0;
	r = fxt_reader_open_mem(fxt, fxt_len, in, 0);
	if (!r)
		return -ENOMEM;
	fxt_reader_set_lazy(r, true);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type == FXT_REC_EVENT &&
		    fxt_str_eq(rec.event.category, TCFXT_CAT))
			meta_take(c, r, &rec, &kind);
		if (rec.nested || rec.type != FXT_REC_BLOB ||
		    rec.blob.type != FXT_BLOB_PERFETTO || !rec.blob.size)
			continue;
		ret = grow(&buf, &cap, n + rec.blob.size);
		if (ret < 0)
			break;
		memcpy(buf + n, rec.blob.data, rec.blob.size);
		n += rec.blob.size;
	}
	meta_done(c, kind);
	if (ret < 0 && ret != -ENOMEM && fxt_reader_error(r))
		say_fxt_damage(c, r);
	fxt_reader_close(r);
	if (ret == -ENOMEM || !n) {
		if (buf)
			munmap(buf, cap);
		if (ret == -ENOMEM)
			return ret;
		snprintf(err, errlen, "%s carries no Perfetto packets (FXT "
			 "blob records of type %d)%s%s", in, FXT_BLOB_PERFETTO,
			 c->fxt_damaged ? ": " : "",
			 c->fxt_damaged ? c->st->damage : "");
		return -EINVAL;
	}
	/* pft_input_free() unmaps the length it is given */
	keep = (n + 4095) & ~(size_t)4095;
	if (keep < cap && mremap(buf, cap, keep, 0) != MAP_FAILED)
		cap = keep;
	else if (keep < cap)
		munmap(buf + keep, cap - keep);
	*p = buf;
	*len = n;
	return 1;
}

/* @text's "name: " line equals @name. */
static bool format_named(const char *text, const char *name, size_t nlen)
{
	const char *p = strstr(text, "name: ");

	if (!p || (p != text && p[-1] != '\n'))
		return false;
	p += strlen("name: ");
	return !strncmp(p, name, nlen) && (p[nlen] == '\n' || !p[nlen]);
}

const char *pft_fxt_format(struct pft_ctx *c, const char *system,
			   size_t slen, const char *name, size_t nlen,
			   const char **sys)
{
	const struct pft_fxt_meta *m = &c->fxt;
	const char *p = m->formats.s, *end, *text, *next;

	if (!p)
		return NULL;
	/* runs whose NULs are there (one out of memory may lack its last) */
	for (end = p + m->formats.len; p < end;) {
		text = p + strnlen(p, (size_t)(end - p)) + 1;
		if (text >= end)
			break;
		next = text + strnlen(text, (size_t)(end - text));
		if (next >= end)
			break;
		if ((!system || ((size_t)(text - p) == slen + 1 &&
				 !memcmp(p, system, slen))) &&
		    format_named(text, name, nlen)) {
			*sys = p;
			return text;
		}
		p = next + 1;
	}
	return NULL;
}

void pft_fxt_free(struct pft_ctx *c)
{
	free(c->fxt.syms);
	free(c->fxt.strs);
	f2d_text_free(&c->fxt.formats);
	f2d_text_free(&c->fxt.kallsyms);
	f2d_text_free(&c->fxt.printk);
}

static int addr_cmp(const void *a, const void *b)
{
	const struct pft_fxt_addr *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int d = memcmp(x->name, y->name, n);

	if (d)
		return d;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	/* the lowest address of a name first, as a lookup takes it */
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * @text's lines as name -> address, sorted: kallsyms' "ADDR T NAME
 * [MODULE]" or printk's "0xADDR : \"TEXT\"".
 */
static int addr_index(const struct f2d_text *text, bool printk,
		      struct pft_fxt_addr **out, size_t *nr)
{
	const char *p = text->s, *end = p + text->len, *nl, *q, *e;
	struct pft_fxt_addr *a = NULL, *t;
	size_t n = 0, cap = 0;
	unsigned long long addr;
	char *after;

	for (; p && p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		addr = strtoull(p, &after, 16);
		if (after == p || after >= nl)
			continue;
		if (printk) {
			q = memchr(after, '"', (size_t)(nl - after));
			e = nl;
			while (e > q && e[-1] != '"')
				e--;
			if (!q || e <= q + 1)
				continue;
			q++;
			e--;
		} else {
			/* past the type letter */
			q = after;
			while (q < nl && *q == ' ')
				q++;
			while (q < nl && *q != ' ')
				q++;
			while (q < nl && *q == ' ')
				q++;
			for (e = q; e < nl && *e != ' ' && *e != '\t'; e++)
				;
			if (e == q)
				continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			t = realloc(a, cap * sizeof(*a));
			if (!t) {
				free(a);
				return -ENOMEM;
			}
			a = t;
		}
		a[n++] = (struct pft_fxt_addr){ q, (size_t)(e - q), addr };
	}
	if (n)
		qsort(a, n, sizeof(*a), addr_cmp);
	*out = a;
	*nr = n;
	return 0;
}

static uint64_t addr_find(const struct pft_fxt_addr *a, size_t n,
			  const char *name, size_t len)
{
	struct pft_fxt_addr key = { name, len, 0 };
	size_t lo = 0, hi = n, mid;

	/* the first entry not below @key: the name's lowest address */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr_cmp(&a[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo].len == len && !memcmp(a[lo].name, name, len) ?
	       a[lo].addr : 0;
}

uint64_t pft_fxt_sym_addr(struct pft_ctx *c, const char *name, size_t len)
{
	struct pft_fxt_meta *m = &c->fxt;

	if (!m->kallsyms.len)
		return 0;
	if (!m->syms && addr_index(&m->kallsyms, false, &m->syms,
				   &m->nr_syms))
		return 0;
	return addr_find(m->syms, m->nr_syms, name, len);
}

uint64_t pft_fxt_str_addr(struct pft_ctx *c, const char *text, size_t len)
{
	struct pft_fxt_meta *m = &c->fxt;

	if (!m->printk.len)
		return 0;
	if (!m->strs && addr_index(&m->printk, true, &m->strs, &m->nr_strs))
		return 0;
	return addr_find(m->strs, m->nr_strs, text, len);
}
