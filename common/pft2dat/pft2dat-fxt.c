// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-fxt.c - the Perfetto trace an FXT file carries: the payloads of
 * its blob records of type FXT_BLOB_PERFETTO, in file order, which are
 * Trace.packet fields as a .pftrace holds them (Perfetto's FXT importer
 * reads them so: fuchsia_trace_tokenizer.cc, ParseRecord, case kBlob).
 * The packets of a trace.dat converted by trace-fxt are every kernel
 * event as Perfetto reads it; made into a .dat they show what the packets
 * keep of each event.  Records of nested streams are no packets.
 *
 * The converter's metadata instants (tcfxt.h: the recording's own event
 * formats, the kernel symbols and printk strings its events use) are kept
 * too: the events are then written by the formats the trace.dat had, and
 * a kernel address Perfetto's packets symbolize is that symbol's.  They
 * are input: a format goes through the child that survives what its text
 * does to libtraceevent (fxt2dat-format.c), a system name must be an
 * identifier, and only kallsyms and printk lines of the form the kernel
 * writes are used or passed on.
 */
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fxt-format.h"
#include "fxt-reader.h"
#include "perfetto-proto.h"
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

/* The metadata instant being read, and its .cont records. */
struct meta_run {
	enum { META_NONE, META_FORMAT, META_KALLSYMS, META_PRINTK } kind;
	size_t	start;		/* formats: where its run began */
	size_t	text;		/* formats: where its text begins */
	bool	bad;		/* formats: dropped whole */
};

/*
 * A format's run ends: "SYSTEM\0TEXT\0" kept, or, without a text or
 * after a fault, nothing of it (the runs stay in step).
 */
static void meta_end(struct pft_fxt_meta *m, struct meta_run *run)
{
	if (run->kind == META_FORMAT &&
	    (run->bad || m->formats.len == run->text ||
	     f2d_text_add(&m->formats, "", 1)))
		m->formats.len = run->start;
	run->kind = META_NONE;
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
 * A text of file_info (@name), or CPUSTAT's (@name NULL: its last
 * string), the first time one is given: the .dat's own.  A NUL in it
 * would cut it short in the .dat; out of memory: the packets' is kept.
 */
static void info_text(struct f2d_text *t, const struct fxt_event *ev,
		      const char *name)
{
	const struct fxt_arg *a = name ? fxt_args_find(ev->args, ev->nargs,
						       name) : meta_text(ev);

	if (!t->len && a && a->type == FXT_ARG_STRING && a->str.len &&
	    !memchr(a->str.ptr, '\0', a->str.len))
		f2d_text_set(t, a->str);
}

/* Whether file_info @ev says its file's events are its packets alone. */
static bool info_once(const struct fxt_event *ev)
{
	const struct fxt_arg *a = fxt_args_find(ev->args, ev->nargs,
						TCFXT_INFO_EVENTS);

	return a && a->type == FXT_ARG_STRING &&
	       fxt_str_eq(a->str, TCFXT_EVENTS_PACKETS);
}

/*
 * file_info (each buffer's: the first text of each kind, the most CPUs)
 * and CPUSTAT: the FXT is a converted trace.dat's.
 */
static void info_take(struct pft_fxt_meta *m, struct fxt_reader *r,
		      struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	int64_t cpus;

	if (fxt_reader_args(r, rec) < 0)
		return;
	if (fxt_str_eq(ev->name, TCFXT_CPUSTATS)) {
		info_text(&m->cpustats, ev, NULL);
		return;
	}
	m->converted = true;
	m->once |= info_once(ev);
	if (fxt_arg_int(fxt_args_find(ev->args, ev->nargs,
				      TCFXT_INFO_BIG_ENDIAN), &cpus) && cpus)
		m->big = true;
	if (fxt_arg_int(fxt_args_find(ev->args, ev->nargs, TCFXT_INFO_CPUS),
			&cpus) && cpus > m->cpus && cpus <= PFT_MAX_CPU)
		m->cpus = (unsigned int)cpus;
	info_text(&m->clock, ev, TCFXT_INFO_CLOCK);
	info_text(&m->uname, ev, TCFXT_INFO_UNAME);
	info_text(&m->version, ev, TCFXT_INFO_VERSION);
}

/*
 * A thread object: its thread group, and, when no event revealed it, its
 * name a saved cmdline of the .dat (tcfxt.h says which, as for fxt2dat).
 * A name a cmdlines line could not hold (a NUL, a newline) is none.
 */
static int thread_take(struct pft_fxt_meta *m, const struct fxt_record *rec)
{
	const struct fxt_str *name = &rec->kobj.name;
	const struct fxt_arg *args = rec->kobj.args;
	struct pft_fxt_thread *t;

	if (rec->kobj.obj_type != FXT_OBJ_THREAD || !rec->kobj.koid ||
	    rec->kobj.koid > INT32_MAX)
		return 0;
	if (!tcfxt_thread_saved(args, rec->kobj.nargs) || !name->len ||
	    memchr(name->ptr, '\0', name->len) ||
	    memchr(name->ptr, '\n', name->len))
		name = NULL;
	if (m->nr_threads == m->cap_threads) {
		size_t cap = m->cap_threads ? 2 * m->cap_threads : 256;

		t = realloc(m->threads, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		m->threads = t;
		m->cap_threads = cap;
	}
	t = &m->threads[m->nr_threads];
	*t = (struct pft_fxt_thread){
		.pid = rec->kobj.koid,
		.tgid = tcfxt_thread_group(rec->kobj.koid, args,
					   rec->kobj.nargs),
		.off = m->names.len,
		.len = name ? name->len : 0,
	};
	if (name && f2d_text_add(&m->names, name->ptr, name->len))
		return -ENOMEM;
	m->nr_threads++;
	return 0;
}

/*
 * One of the converter's instants: its formats kept as "SYSTEM\0TEXT\0"
 * runs, its kallsyms and printk text as it is (pft_fxt_lines() takes the
 * lines that parse).  Out of memory: left out, the packets' own forms
 * used.
 */
static void meta_take(struct pft_fxt_meta *m, struct fxt_reader *r,
		      struct fxt_record *rec, struct meta_run *run)
{
	const struct fxt_event *ev = &rec->event;
	const struct fxt_arg *t, *sys;
	struct f2d_text *dst;
	bool cont = tcfxt_has_suffix(ev->name, TCFXT_CONT_SUFFIX);

	if (!cont) {
		meta_end(m, run);
		if (fxt_str_eq(ev->name, TCFXT_FILE_INFO) ||
		    fxt_str_eq(ev->name, TCFXT_CPUSTATS)) {
			info_take(m, r, rec);
			return;
		}
		if (fxt_str_eq(ev->name, TCFXT_EVENT_FORMAT))
			*run = (struct meta_run){ META_FORMAT,
						  m->formats.len,
						  m->formats.len, false };
		else if (fxt_str_eq(ev->name, TCFXT_KALLSYMS))
			run->kind = META_KALLSYMS;
		else if (fxt_str_eq(ev->name, TCFXT_PRINTK))
			run->kind = META_PRINTK;
	}
	if (run->kind == META_NONE || run->bad)
		return;
	if (fxt_reader_args(r, rec) < 0) {
		run->bad = true;
		return;
	}
	t = meta_text(ev);
	if (t && memchr(t->str.ptr, '\0', t->str.len))
		t = NULL;
	if (run->kind != META_FORMAT) {
		dst = run->kind == META_KALLSYMS ? &m->kallsyms : &m->printk;
		/* a piece lost breaks a line, which then does not parse */
		if (t)
			f2d_text_add(dst, t->str.ptr, t->str.len);
		return;
	}
	if (!cont) {
		sys = fxt_args_find(ev->args, ev->nargs, TCFXT_ARG_SYSTEM);
		if (!sys || sys->type != FXT_ARG_STRING ||
		    !pft_event_ident(sys->str.ptr, sys->str.len) ||
		    f2d_text_add(&m->formats, sys->str.ptr, sys->str.len) ||
		    f2d_text_add(&m->formats, "", 1)) {
			run->bad = true;
			return;
		}
		run->text = m->formats.len;
	}
	if (!t || f2d_text_add(&m->formats, t->str.ptr, t->str.len))
		run->bad = true;
}

/* What a damaged FXT leaves: its packets before the damage, said. */
static void say_fxt_damage(struct pft_ctx *c, struct fxt_reader *r)
{
	if (c->fxt_damaged)
		return;		/* the stream it was in was cut: said */
	c->fxt_damaged = 1;
	c->st->damaged = 1;
	snprintf(c->st->damage, sizeof(c->st->damage), "%s; the packets "
		 "before it are read", fxt_reader_error(r));
}

int pft_fxt_packets(struct pft_ctx *c, const char *in, const void *fxt,
		    size_t fxt_len, const void **p, size_t *len, char *err,
		    size_t errlen)
{
	struct meta_run run = { .kind = META_NONE };
	size_t cap = 0, n = 0, keep, page = (size_t)sysconf(_SC_PAGESIZE);
	struct fxt_reader *r;
	struct fxt_record rec;
	uint8_t *buf = NULL;
	int ret;

	if (!fxt_sniff(fxt, fxt_len))
		return 0;
	r = fxt_reader_open_mem(fxt, fxt_len, in, FXT_READER_CUT_BLOB);
	if (!r)
		return -ENOMEM;
	fxt_reader_set_lazy(r, true);
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (rec.type == FXT_REC_EVENT &&
		    fxt_str_eq(rec.event.category, TCFXT_CAT))
			meta_take(&c->fxt, r, &rec, &run);
		if (rec.type == FXT_REC_KERNEL_OBJ &&
		    (ret = thread_take(&c->fxt, &rec)) < 0)
			break;
		if (rec.nested || rec.type != FXT_REC_BLOB ||
		    rec.blob.type != FXT_BLOB_PERFETTO || !rec.blob.size)
			continue;
		ret = grow(&buf, &cap, n + rec.blob.size);
		if (ret < 0)
			break;
		memcpy(buf + n, rec.blob.data, rec.blob.size);
		n += rec.blob.size;
	}
	meta_end(&c->fxt, &run);
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
	if (page < 4096 || (page & (page - 1)))
		page = 4096;
	keep = (n + page - 1) & ~(page - 1);
	if (keep < cap && mremap(buf, cap, keep, 0) == MAP_FAILED)
		munmap(buf + keep, cap - keep);
	*p = buf;
	*len = n;
	return 1;
}

/*
 * The records pft2dat_fxt_once() reads at most before the first event: a
 * converted file's are its metadata and strings, a few dozen.
 */
#define ONCE_LOOK	4096

bool pft2dat_fxt_once(const char *path)
{
	struct fxt_reader *r = fxt_reader_open(path, 0);
	const struct fxt_event *ev = NULL;
	struct fxt_record rec;
	unsigned int n;
	bool once = false;

	if (!r)
		return false;
	fxt_reader_set_lazy(r, true);
	for (n = 0; n < ONCE_LOOK && fxt_reader_next(r, &rec) > 0; n++) {
		if (rec.type != FXT_REC_EVENT)
			continue;
		ev = &rec.event;
		break;
	}
	if (ev && fxt_str_eq(ev->category, TCFXT_CAT) &&
	    fxt_str_eq(ev->name, TCFXT_FILE_INFO) && !fxt_reader_args(r, &rec))
		once = info_once(ev);
	fxt_reader_close(r);
	return once;
}

/* @text's "name: " line, its first, equals @name. */
static bool format_named(const char *text, const char *name, size_t nlen)
{
	if (strncmp(text, "name: ", 6))
		return false;
	text += 6;
	return !strncmp(text, name, nlen) &&
	       (text[nlen] == '\n' || !text[nlen]);
}

const char *pft_fxt_format(struct pft_ctx *c, const char *system,
			   size_t slen, const char *name, size_t nlen,
			   const char **sys)
{
	const struct pft_fxt_meta *m = &c->fxt;
	const char *p = m->formats.s, *end, *text, *next;

	if (!p)
		return NULL;
	/* meta_end() keeps whole runs only; bounded all the same */
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

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* 1 to 16 hex digits at *@p, before @end: their value; NULL if none. */
static const char *hex(const char *p, const char *end, uint64_t *v)
{
	const char *q = p;

	*v = 0;
	while (q < end && q - p < 16 && hexval(*q) >= 0)
		*v = *v << 4 | (uint64_t)hexval(*q++);
	return q == p ? NULL : q;
}

/*
 * A line [@p, @end) of the form the kernel writes: kallsyms' "ADDR T NAME"
 * (a "\t[MODULE]" after it), printk_formats' "0xADDR : \"TEXT\"".  Its name
 * or text in @name, @len.
 */
static bool line_parse(const char *p, const char *end, bool printk,
		       const char **name, size_t *len, uint64_t *addr)
{
	const char *q;

	if (printk) {
		if (end - p < 2 || p[0] != '0' || p[1] != 'x')
			return false;
		q = hex(p + 2, end, addr);
		if (!q || end - q < 5 || memcmp(q, " : \"", 4) ||
		    end[-1] != '"')
			return false;
		*name = q + 4;
		*len = (size_t)(end - 1 - *name);
		return *len > 0;
	}
	q = hex(p, end, addr);
	if (!q || end - q < 4 || q[0] != ' ' || q[2] != ' ' ||
	    !((q[1] >= 'a' && q[1] <= 'z') || (q[1] >= 'A' && q[1] <= 'Z')))
		return false;
	*name = q += 3;
	while (q < end && *q != ' ' && *q != '\t' && *q != '\n')
		q++;
	*len = (size_t)(q - *name);
	if (!*len)
		return false;
	/* the module: "\t[NAME]" to the end */
	if (q == end)
		return true;
	return *q == '\t' && end - q >= 3 && q[1] == '[' && end[-1] == ']' &&
	       !memchr(q + 1, ' ', (size_t)(end - q - 1));
}

/* Each line of @text that parses, to @fn. */
static int lines_each(const struct f2d_text *text, bool printk,
		      int (*fn)(void *priv, const char *line, size_t n,
				const char *name, size_t len, uint64_t addr),
		      void *priv)
{
	const char *p = text->s, *end, *nl, *name;
	uint64_t addr;
	size_t len;
	int ret;

	if (!p)
		return 0;
	for (end = p + text->len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!line_parse(p, nl, printk, &name, &len, &addr))
			continue;
		ret = fn(priv, p, (size_t)(nl - p), name, len, addr);
		if (ret)
			return ret;
	}
	return 0;
}

struct addrs {
	struct pft_fxt_addr	*a;
	size_t			n, cap;
};

static int addr_put(void *priv, const char *line, size_t n,
		    const char *name, size_t len, uint64_t addr)
{
	struct addrs *x = priv;
	struct pft_fxt_addr *t;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 256;
		t = realloc(x->a, x->cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		x->a = t;
	}
	x->a[x->n++] = (struct pft_fxt_addr){ name, len, addr };
	return 0;
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

/* @text's lines by name, sorted, made once (none: an empty index). */
static void addr_index(const struct f2d_text *text, bool printk,
		       struct pft_fxt_index *ix)
{
	struct addrs x = { 0 };

	ix->made = true;
	if (lines_each(text, printk, addr_put, &x)) {
		free(x.a);
		return;
	}
	if (x.n)
		qsort(x.a, x.n, sizeof(*x.a), addr_cmp);
	ix->a = x.a;
	ix->n = x.n;
}

static uint64_t addr_find(const struct pft_fxt_index *ix, const char *name,
			  size_t len)
{
	struct pft_fxt_addr key = { name, len, 0 };
	size_t lo = 0, hi = ix->n, mid;

	/* the first entry not below @key: the name's lowest address */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr_cmp(&ix->a[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && ix->a[lo].len == len &&
	       !memcmp(ix->a[lo].name, name, len) ? ix->a[lo].addr : 0;
}

uint64_t pft_fxt_sym_addr(struct pft_ctx *c, const char *name, size_t len)
{
	struct pft_fxt_meta *m = &c->fxt;

	if (!m->syms.made)
		addr_index(&m->kallsyms, false, &m->syms);
	return addr_find(&m->syms, name, len);
}

uint64_t pft_fxt_str_addr(struct pft_ctx *c, const char *text, size_t len)
{
	struct pft_fxt_meta *m = &c->fxt;

	if (!m->strs.made)
		addr_index(&m->printk, true, &m->strs);
	return addr_find(&m->strs, text, len);
}

static int line_put(void *priv, const char *line, size_t n,
		    const char *name, size_t len, uint64_t addr)
{
	struct f2d_text *out = priv;

	return f2d_text_add(out, line, n) || f2d_text_add(out, "\n", 1) ?
	       -ENOMEM : 0;
}

int pft_fxt_lines(struct pft_ctx *c, struct f2d_text *kallsyms,
		  struct f2d_text *printk)
{
	if (lines_each(&c->fxt.kallsyms, false, line_put, kallsyms) ||
	    lines_each(&c->fxt.printk, true, line_put, printk))
		return -ENOMEM;
	return 0;
}

/* @from, when it holds a text, as @to's. */
static int text_replace(struct f2d_text *to, const struct f2d_text *from)
{
	if (!from->len)
		return 0;
	to->len = 0;
	return f2d_text_add(to, from->s, from->len) ? -ENOMEM : 0;
}

int pft_fxt_apply(struct pft_ctx *c)
{
	const struct pft_fxt_meta *m = &c->fxt;
	struct f2d_ctx *x = &c->f2d;
	size_t i;

	if (!m->converted)
		return 0;
	/* of one pid, the last object's name, as fxt2dat takes it */
	for (i = 0; i < m->nr_threads; i++) {
		const struct pft_fxt_thread *t = &m->threads[i];

		if ((t->len && f2d_name_set(x, t->pid,
					    fxt_str_make(m->names.s + t->off,
							 t->len))) ||
		    (t->tgid && u64_map_set(&x->groups, t->pid, t->tgid)))
			return -ENOMEM;
	}
	if (m->cpus > x->cpus)
		x->cpus = m->cpus;
	/* its records' bytes in the residue are in the .dat's order */
	if (m->big) {
		x->info_big = true;
		tep_set_file_bigendian(x->tep, TEP_BIG_ENDIAN);
	}
	if (text_replace(&x->clock, &m->clock) ||
	    text_replace(&x->uname, &m->uname) ||
	    text_replace(&x->version, &m->version) ||
	    text_replace(&x->cpustats, &m->cpustats))
		return -ENOMEM;
	return 0;
}

void pft_fxt_free(struct pft_ctx *c)
{
	free(c->fxt.syms.a);
	free(c->fxt.strs.a);
	free(c->fxt.threads);
	f2d_text_free(&c->fxt.formats);
	f2d_text_free(&c->fxt.kallsyms);
	f2d_text_free(&c->fxt.printk);
	f2d_text_free(&c->fxt.clock);
	f2d_text_free(&c->fxt.uname);
	f2d_text_free(&c->fxt.version);
	f2d_text_free(&c->fxt.cpustats);
	f2d_text_free(&c->fxt.names);
	memset(&c->fxt, 0, sizeof(c->fxt));
}
