// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-formats.c - carry what rebuilding the .dat needs, as FXT records.
 *
 * The per-event instants hold every field's value; to turn them back into
 * ftrace records a reader also needs each event's format (field offsets
 * and sizes, the print format that trace-cmd report follows), the ring
 * buffer's header_page/header_event, and the symbols and printk strings
 * that report shows for pointer fields.  All of it goes into ordinary
 * instant events of category "trace-cmd" on the kernel thread (0, 0):
 *
 *   headers       header_page, header_event (strings), once, at the start
 *   event_format  system, name, id (uint32), format (string: the file's
 *                 text), before the first event of that id in the file
 *   kallsyms      text: /proc/kallsyms lines of the functions that the
 *                 next event's fields point into (and of the symbol after
 *                 each, which bounds it), before that event
 *   printk        text: printk_formats lines of the strings the next
 *                 event's fields point to, before that event
 *
 * A text too long for one record continues in "<name>.cont" instants
 * right after, whose "text"/"format" argument is appended.  Only what the
 * converted events use is carried: a recording's kallsyms is megabytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "dat-meta.h"
#include "fxt-input.h"
#include "map-field.h"
#include "map-formats.h"
#include "map-options.h"
#include "map-set.h"
#include "tcfxt.h"

/* Room left for a text argument in one record, well under 32 KiB. */
#define FMT_CHUNK	16000

struct printk_line {
	uint64_t	addr;
	const char	*line;		/* into meta.printk, with its '\n' */
	size_t		len;
};

struct map_formats {
	struct dat_meta		meta;
	bool			have_meta;
	uint8_t			*sent;		/* formats sent, by id */
	struct printk_line	*printk;
	size_t			nr_printk;
	struct map_set		syms;		/* symbol starts sent */
	/* field values already handled: each is looked up once */
	struct map_set		sym_vals, printk_vals;
	/* where symbols are, once one was found: first and last start */
	uint64_t		sym_lo, sym_hi;
	struct trace_seq	text;
};

static int cmp_printk(const void *a, const void *b)
{
	const struct printk_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int fmts_index_printk(struct map_formats *f)
{
	char *p = f->meta.printk.text, *end, *nl;
	size_t cap = 0;

	/* no printk section: NULL + 0 is undefined too */
	if (!p)
		return 0;
	end = p + f->meta.printk.len;

	while (p && p < end) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl + 1 : end;
		if (f->nr_printk == cap) {
			struct printk_line *n;

			cap = cap ? 2 * cap : 256;
			n = realloc(f->printk, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			f->printk = n;
		}
		f->printk[f->nr_printk].addr = strtoull(p, NULL, 16);
		f->printk[f->nr_printk].line = p;
		f->printk[f->nr_printk++].len = nl - p;
		p = nl;
	}
	/* qsort(NULL, 0, ...) is undefined: a .dat may have no printk */
	if (f->nr_printk)
		qsort(f->printk, f->nr_printk, sizeof(*f->printk),
		      cmp_printk);
	return 0;
}

static bool fmts_sym_add(struct map_formats *f, uint64_t addr)
{
	return map_set_add(&f->syms, addr);
}

/* One instant (plus ".cont"s) whose last argument is a long text. */
static int fmts_write_text(struct map_ctx *ctx, uint64_t ts, const char *name,
			   struct fxt_arg *args, unsigned int nargs,
			   const char *text_name, const char *text, size_t len)
{
	char cont[64];
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = ts,
		.category = fxt_writer_str(ctx->w, TCFXT_CAT),
		.name = fxt_writer_str(ctx->w, name),
		.args = args,
	};
	size_t off = 0, n;
	int ret;

	ret = map_meta_thread(ctx, &ev.thread);
	if (ret < 0)
		return ret;
	snprintf(cont, sizeof(cont), "%s%s", name, TCFXT_CONT_SUFFIX);
	fxt_writer_keep_together(ctx->iw, true);
	do {
		n = len - off > FMT_CHUNK ? FMT_CHUNK : len - off;
		args[nargs].type = FXT_ARG_STRING;
		args[nargs].name = fxt_writer_str(ctx->w, text_name);
		args[nargs].str = fxt_str_make(text + off, n);
		args[nargs].str.id = FXT_STR_INLINE;
		ev.nargs = nargs + 1;
		ret = fxt_write_event(ctx->iw, &ev);
		if (ret < 0)
			return ret;
		off += n;
		/* the rest: only the text, in continuation events */
		args[0] = args[nargs];
		nargs = 0;
		ev.name = fxt_writer_str(ctx->w, cont);
	} while (off < len);
	fxt_writer_keep_together(ctx->iw, false);
	return 0;
}

int map_formats_start(struct map_ctx *ctx, uint64_t ts)
{
	struct map_formats *f;
	struct fxt_arg a[2];

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ctx->fmts = f;
	trace_seq_init(&f->text);
	if (!ctx->opts->path || dat_meta_read(ctx->opts->path, &f->meta))
		return 0;	/* an FXT that cannot be turned back, still */
	f->have_meta = true;
	f->sent = calloc(f->meta.nr_formats + 1, 1);
	if (!f->sent || fmts_index_printk(f))
		return -ENOMEM;
	if (!f->meta.header_page.text || !f->meta.header_event.text)
		return 0;
	a[0].type = FXT_ARG_STRING;
	a[0].name = fxt_writer_str(ctx->w, TCFXT_ARG_HEADER_PAGE);
	a[0].str = fxt_str_make(f->meta.header_page.text,
				f->meta.header_page.len);
	return fmts_write_text(ctx, ts, TCFXT_HEADERS, a, 1,
			       TCFXT_ARG_HEADER_EVENT, f->meta.header_event.text,
			       f->meta.header_event.len);
}

void map_formats_free(struct map_ctx *ctx)
{
	struct map_formats *f = ctx->fmts;

	if (!f)
		return;
	dat_meta_free(&f->meta);
	free(f->sent);
	free(f->printk);
	map_set_free(&f->syms);
	map_set_free(&f->sym_vals);
	map_set_free(&f->printk_vals);
	trace_seq_destroy(&f->text);
	free(f);
	ctx->fmts = NULL;
}

static int fmts_send_format(struct map_ctx *ctx, struct map_event *me,
			    uint64_t ts)
{
	struct map_formats *f = ctx->fmts;
	struct dat_meta_format *mf;
	int id = me->event->id;
	struct fxt_arg a[4];

	if (id < 0 || id >= f->meta.nr_formats || f->sent[id])
		return 0;
	f->sent[id] = 1;
	mf = &f->meta.formats[id];
	if (!mf->text)
		return 0;
	a[0].type = FXT_ARG_STRING;
	a[0].name = fxt_writer_str(ctx->w, TCFXT_ARG_SYSTEM);
	a[0].str = fxt_str_make(mf->system, strlen(mf->system));
	a[1].type = FXT_ARG_STRING;
	a[1].name = fxt_writer_str(ctx->w, "name");
	a[1].str = fxt_str_make(me->event->name, strlen(me->event->name));
	a[2].type = FXT_ARG_UINT32;
	a[2].name = fxt_writer_str(ctx->w, "id");
	a[2].u32 = id;
	return fmts_write_text(ctx, ts, TCFXT_EVENT_FORMAT, a, 3, "format",
			       mf->text, mf->len);
}

static const struct printk_line *fmts_printk_find(struct map_formats *f,
						  uint64_t addr)
{
	struct printk_line key = { .addr = addr };

	if (!f->nr_printk)
		return NULL;
	return bsearch(&key, f->printk, f->nr_printk, sizeof(key),
		       cmp_printk);
}

/*
 * libtraceevent finds a function for every address from the first
 * symbol to the last one's start and for none outside: from one address
 * inside, both ends are found by bisection.  Most pointer-sized values
 * (data pointers, user addresses) then miss without a search.
 */
static void fmts_sym_range(struct map_formats *f, struct tep_handle *tep,
			   uint64_t inside)
{
	uint64_t lo = 0, hi = inside, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tep_find_function(tep, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	f->sym_lo = lo;
	lo = inside;
	hi = UINT64_MAX;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (tep_find_function(tep, mid))
			lo = mid;
		else
			hi = mid - 1;
	}
	f->sym_hi = lo;
}

/* The kallsyms line of the function @addr is in, if not sent yet. */
static void fmts_add_symbol(struct map_formats *f, struct tep_handle *tep,
			    uint64_t addr)
{
	unsigned long long start;
	unsigned long size = 0;
	const char *name;

	if (f->sym_hi && (addr < f->sym_lo || addr > f->sym_hi))
		return;
	/* what an address adds depends on it alone: once is enough */
	if (f->sym_hi && !map_set_add(&f->sym_vals, addr))
		return;
	if (!tep_find_function_info(tep, addr, &name, &start, &size))
		return;
	if (!f->sym_hi)
		fmts_sym_range(f, tep, addr);
	if (fmts_sym_add(f, start))
		trace_seq_printf(&f->text, "%016llx T %s\n", start, name);
	/* the next symbol ends this one's range, as in the full table */
	if (size && fmts_sym_add(f, start + size)) {
		name = tep_find_function(tep, start + size);
		if (name && tep_find_function_address(tep, start + size) ==
		    start + size)
			trace_seq_printf(&f->text, "%016llx T %s\n",
					 start + size, name);
	}
}

/*
 * Which fields of an event may point at what the FXT must carry, decided
 * once per event type rather than per record.  Not only the fields -R
 * shows as symbols: report's print formats and plugins (hrtimer's
 * function, kmem's call_site) resolve other pointer-sized ones.
 */
static int fmts_classify(struct map_event *me, int long_size)
{
	unsigned int i;

	me->fmts_idx = calloc(me->nr_fields ? me->nr_fields : 1,
			      sizeof(*me->fmts_idx));
	if (!me->fmts_idx)
		return -ENOMEM;
	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];
		bool number = mf->kind != MAP_FIELD_STRING &&
			      mf->kind != MAP_FIELD_ARRAY &&
			      mf->kind != MAP_FIELD_ELEMS &&
			      mf->field->size >= 4;

		mf->sym_field = number &&
			(mf->has_text ||
			 (mf->field->size == long_size &&
			  !(mf->field->flags & TEP_FIELD_IS_SIGNED)));
		mf->printk_field = number && mf->has_text;
		if (mf->sym_field || mf->printk_field)
			me->fmts_idx[me->nr_fmts++] = i;
	}
	me->fmts_ready = true;
	return 0;
}

int map_formats_event(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec)
{
	struct map_formats *f = ctx->fmts;
	const struct printk_line *pl;
	struct fxt_arg a[1];
	unsigned int i, kal_len;
	uint64_t v;
	int ret;

	if (!f || !f->have_meta)
		return 0;
	ret = fmts_send_format(ctx, me, rec->ts);
	if (ret < 0)
		return ret;
	if (!me->fmts_ready) {
		ret = fmts_classify(me, tep_get_long_size(buf->tep));
		if (ret < 0)
			return ret;
	}
	if (!me->nr_fmts)
		return 0;
	if (f->text.len)
		trace_seq_reset(&f->text);
	for (i = 0; i < me->nr_fmts; i++) {
		struct map_field *mf = &me->fields[me->fmts_idx[i]];

		if (mf->sym_field && map_field_u64(buf, rec, mf->field, &v) && v)
			fmts_add_symbol(f, map_functions(ctx, buf->tep), v);
	}
	kal_len = f->text.len;
	for (i = 0; i < me->nr_fmts; i++) {
		struct map_field *mf = &me->fields[me->fmts_idx[i]];

		if (!mf->printk_field || !map_field_u64(buf, rec, mf->field, &v) ||
		    !map_set_add(&f->printk_vals, v))
			continue;
		pl = fmts_printk_find(f, v);
		/* printk addresses share the set: ~addr keeps them apart */
		if (pl && fmts_sym_add(f, ~v))
			trace_seq_printf(&f->text, "%.*s%s", (int)pl->len,
					 pl->line,
					 pl->line[pl->len - 1] == '\n' ? "" :
					 "\n");
	}
	if (kal_len) {
		ret = fmts_write_text(ctx, rec->ts, TCFXT_KALLSYMS, a, 0,
				      TCFXT_ARG_TEXT, f->text.buffer, kal_len);
		if (ret < 0)
			return ret;
	}
	if (f->text.len > kal_len)
		ret = fmts_write_text(ctx, rec->ts, TCFXT_PRINTK, a, 0,
				      TCFXT_ARG_TEXT, f->text.buffer + kal_len,
				      f->text.len - kal_len);
	return ret < 0 ? ret : 0;
}
