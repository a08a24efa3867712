// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-residue.c - the residue of `convert --once` (map-residue.h,
 * tcfxt-residue.h): per CPU, the entries of the bundle being made and
 * the decls they use; each decl made once per event and form.
 *
 * What a packet carries of its record, by the form of its event:
 *  - a typed event (its row of map_specials[]: map-ftrace.table's or
 *    map-sched.c's full switch and waking) the row's fields;
 *  - a generic event the fields Perfetto's recorder would describe
 *    (map_field.in_generic, set by map-ftrace.c);
 *  - a compact switch the row's but prev_prio, which Perfetto's importer
 *    takes from the CPU's last switch, as it does prev_pid and prev_comm
 *    (map-sched.c writes a switch first where those would be wrong);
 *  - a compact waking the row's;
 *  - a print event nothing (its packet holds the text as atrace reads
 *    it, map-marker.c);
 *  - in none a byte array that is no C string;
 *  - a copy (map_res_copy()) has no packet: its entry holds the record
 *    whole.
 * The residue holds the rest, and the common fields but common_type and
 * common_pid, which the packet event has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-ctx.h"
#include "map-field.h"
#include "map-residue.h"
#include "tcfxt.h"
#include "pb.h"
#include "perfetto-proto.h"

struct map_res_decl {
	struct pb_buf		msg;	/* its Decl message, made once */
	struct tep_format_field	**f;
	unsigned int		nr;
};

struct map_res_cpu {
	struct pb_buf	kind[TCFXT_RES_NR_KINDS];
	struct pb_buf	decls;
	/* the decls of the bundle: global number, in bundle order */
	uint32_t	*ids;
	unsigned int	nr_ids, cap_ids;
	/*
	 * events lost before and after the CPU's next record of buffer
	 * lost_buf[] (map_res_lost()), each count + 1, 0 unknown
	 */
	bool		lost[2];
	uint64_t	lost_count[2];
	struct map_buffer *lost_buf[2];
};

struct map_res {
	struct map_res_decl	*decls;
	unsigned int		nr_decls, cap_decls;
	struct map_res_cpu	*cpus;
	unsigned int		nr_cpus;
	/* the record being mapped, until its packet event is noted */
	struct map_buffer	*buf;
	struct map_event	*me;
	struct tep_record	*rec;
	bool			pending;
	unsigned int		inferred;
};

static struct map_res_cpu *cpu_get(struct map_res *r, unsigned int cpu);

bool map_res_on(const struct map_ctx *ctx)
{
	return ctx->once;
}

bool map_res_fits(const struct map_ctx *ctx, char *why, size_t len)
{
	struct tep_event **ev;
	int i, cpus;

	for (i = 0; i < ctx->nr_bufs; i++) {
		const struct map_buffer *b = &ctx->bufs[i];

		cpus = tracecmd_cpus(b->handle);
		if (cpus > PFT_MAX_CPU) {
			snprintf(why, len, "buffer %s has %d CPUs, Perfetto's "
				 "packets %d", b->name, cpus, PFT_MAX_CPU);
			return false;
		}
		/*
		 * more fields than a decl names may be left to one; which
		 * a packet carries is known only at the event's first record
		 * (decl_make()), so any such event counts
		 */
		ev = tep_list_events(b->tep, TEP_EVENT_SORT_ID);
		for (; ev && *ev; ev++) {
			if ((*ev)->format.nr_fields <= TCFXT_RES_MAX_FIELDS)
				continue;
			snprintf(why, len, "the %s event has %d fields, more "
				 "than the packets' residue may have to hold "
				 "(%d; --once converts it when its packet "
				 "carries enough of them)", (*ev)->name,
				 (*ev)->format.nr_fields,
				 TCFXT_RES_MAX_FIELDS);
			return false;
		}
	}
	return true;
}

static struct map_res *res_get(struct map_ctx *ctx)
{
	if (!ctx->res)
		ctx->res = calloc(1, sizeof(*ctx->res));
	return ctx->res;
}

int map_res_begin(struct map_ctx *ctx, struct map_buffer *buf,
		  struct map_event *me, struct tep_record *rec)
{
	struct map_res *r = res_get(ctx);

	if (!r)
		return -ENOMEM;
	r->buf = buf;
	r->me = me;
	r->rec = rec;
	r->pending = true;
	return 0;
}

int map_res_lost(struct map_ctx *ctx, struct map_buffer *buf,
		 unsigned int cpu, int64_t count, bool after)
{
	struct map_res *r = res_get(ctx);
	struct map_res_cpu *c = r ? cpu_get(r, cpu) : NULL;

	if (!c)
		return -ENOMEM;
	c->lost[after] = true;
	c->lost_count[after] = count > 0 ? (uint64_t)count + 1 : 0;
	c->lost_buf[after] = buf;
	return 0;
}

void map_res_inferred(struct map_ctx *ctx, bool on)
{
	struct map_res *r = ctx->res;

	if (!r)
		return;
	if (on)
		r->inferred++;
	else if (r->inferred)
		r->inferred--;
}

bool map_res_pending(const struct map_ctx *ctx)
{
	return ctx->res && ctx->res->pending;
}

/* Whether @fl is one of @fields (@n of them, NULLs among them). */
static bool field_among(struct tep_format_field *fl,
			struct tep_format_field *const *fields, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fields[i] == fl)
			return true;
	return false;
}

/* Whether @me's packet of @form carries field @fl. */
static bool form_carries(struct map_event *me, enum map_res_form form,
			 struct tep_format_field *fl)
{
	unsigned int i;

	if (form == MAP_RES_COPY)
		return true;
	if (me->pkt_text_only)
		return false;
	/*
	 * a byte array that is no C string (an address, "__u8 saddr[4]",
	 * which libtraceevent flags a string too), or an array whose length
	 * the format does not number: a packet holds it up to its first
	 * NUL, or in part in an integer
	 */
	if (fl->flags & TEP_FIELD_IS_ARRAY && !strstr(fl->type, "char") &&
	    (!fl->arraylen || fl->size / fl->arraylen == 1))
		return false;
	switch (form) {
	case MAP_RES_GENERIC:
		for (i = 0; i < me->nr_fields; i++)
			if (me->fields[i].field == fl)
				return me->fields[i].in_generic;
		return false;
	case MAP_RES_COMPACT_SWITCH:
		if (fl == me->sf[2])	/* prev_prio: see above */
			return false;
		/* fall through */
	default:
		return field_among(fl, me->sf, MAP_SPECIAL_FIELDS);
	}
}

static int decl_add_field(struct map_res_decl *d, struct tep_format_field *fl)
{
	struct tep_format_field **f;

	if (d->nr == TCFXT_RES_MAX_FIELDS)
		return -E2BIG;
	f = realloc(d->f, (d->nr + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	d->f = f;
	d->f[d->nr++] = fl;
	pb_bytes(&d->msg, TCFXT_DECL_FIELD, fl->name, strlen(fl->name));
	return 0;
}

/* Decl @d of @me in @buf, @form. */
static int decl_make(struct map_res_decl *d, struct map_buffer *buf,
		     struct map_event *me, enum map_res_form form)
{
	struct tep_event *e = me->event;
	const char *bname = strcmp(buf->name, TCFXT_TOP_BUFFER) ? buf->name : "";
	struct tep_format_field *fl;
	int ret = 0;

	pb_bytes(&d->msg, TCFXT_DECL_SYSTEM, e->system, strlen(e->system));
	pb_bytes(&d->msg, TCFXT_DECL_NAME, e->name, strlen(e->name));
	pb_bytes(&d->msg, TCFXT_DECL_BUFFER, bname, strlen(bname));
	for (fl = e->format.common_fields; fl && ret >= 0; fl = fl->next)
		if (form != MAP_RES_COPY && strcmp(fl->name, "common_type") &&
		    strcmp(fl->name, "common_pid"))
			ret = decl_add_field(d, fl);
	for (fl = e->format.fields; fl && ret >= 0; fl = fl->next)
		if (!form_carries(me, form, fl))
			ret = decl_add_field(d, fl);
	return ret < 0 ? ret : d->msg.err;
}

/* The global number of the decl of the record being mapped, @form. */
static int decl_of(struct map_ctx *ctx, enum map_res_form form, uint32_t *id)
{
	struct map_res *r = ctx->res;
	uint32_t *memo = &r->me->res_decl[form];

	if (!*memo) {
		struct map_res_decl *d;
		int ret;

		if (r->nr_decls == r->cap_decls) {
			unsigned int cap = r->cap_decls ? 2 * r->cap_decls : 64;
			void *p = realloc(r->decls, cap * sizeof(*r->decls));

			if (!p)
				return -ENOMEM;
			r->decls = p;
			r->cap_decls = cap;
		}
		d = &r->decls[r->nr_decls];
		memset(d, 0, sizeof(*d));
		ret = decl_make(d, r->buf, r->me, form);
		if (ret == -E2BIG)
			map_set_error(ctx, ret, "--once: the %s event has more "
				      "than %d fields its packet does not carry: "
				      "convert with --instants",
				      r->me->event->name, TCFXT_RES_MAX_FIELDS);
		if (ret < 0) {
			pb_free(&d->msg);
			free(d->f);
			return ret;
		}
		*memo = ++r->nr_decls;
	}
	*id = *memo - 1;
	return 0;
}

static struct map_res_cpu *cpu_get(struct map_res *r, unsigned int cpu)
{
	if (cpu >= r->nr_cpus) {
		unsigned int n = cpu + 1 > 2 * r->nr_cpus ? cpu + 1 :
							    2 * r->nr_cpus;
		struct map_res_cpu *c = realloc(r->cpus, n * sizeof(*c));

		if (!c)
			return NULL;
		memset(c + r->nr_cpus, 0, (n - r->nr_cpus) * sizeof(*c));
		r->cpus = c;
		r->nr_cpus = n;
	}
	return &r->cpus[cpu];
}

/* The bundle's number of decl @id, declared in it the first time. */
static int bundle_decl(struct map_res *r, struct map_res_cpu *c, uint32_t id,
		       uint32_t *local)
{
	unsigned int i;

	/* the last ones first: a CPU's events come in runs */
	for (i = c->nr_ids; i-- > 0;)
		if (c->ids[i] == id) {
			*local = i;
			return 0;
		}
	if (c->nr_ids == c->cap_ids) {
		unsigned int cap = c->cap_ids ? 2 * c->cap_ids : 16;
		uint32_t *p = realloc(c->ids, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->ids = p;
		c->cap_ids = cap;
	}
	c->ids[c->nr_ids] = id;
	*local = c->nr_ids++;
	pb_bytes(&c->decls, TCFXT_RES_DECL, r->decls[id].msg.p,
		 r->decls[id].msg.len);
	return c->decls.err;
}

/* @fl's bytes in @rec into @out, as an entry holds them. */
static void entry_field(struct pb_buf *out, struct tep_record *rec,
			struct tep_format_field *fl)
{
	unsigned int off, len;

	if (fl->flags & TEP_FIELD_IS_DYNAMIC || !fl->size) {
		/* a flexible array too: to the record's end */
		if (!map_field_span(rec, fl, &off, &len))
			off = len = 0;
		pb_varint(out, len);
	} else {
		off = fl->offset;
		len = fl->size;
		if (off + len > (unsigned int)rec->size) {
			/* a short record: what it holds, zeros past it */
			if (!pb_room(out, len))
				return;
			memset(out->p + out->len, 0, len);
			if (off < (unsigned int)rec->size)
				memcpy(out->p + out->len,
				       (const char *)rec->data + off,
				       rec->size - off);
			out->len += len;
			return;
		}
	}
	if (len && pb_room(out, len)) {
		memcpy(out->p + out->len, (const char *)rec->data + off, len);
		out->len += len;
	}
}

/*
 * An entry's header into @out: decl @local of @c's bundle, and the
 * events its CPU lost before and after the record, if of its buffer.
 * The record has its entry now.
 */
static void entry_head(struct map_res *r, struct map_res_cpu *c,
		       struct pb_buf *out, uint32_t local)
{
	bool lost[2];
	int i;

	for (i = 0; i < 2; i++)
		lost[i] = c->lost[i] && c->lost_buf[i] == r->buf;
	pb_varint(out, ((uint64_t)local + 1) << TCFXT_RES_DECL_SHIFT |
		  (lost[0] ? TCFXT_RES_LOST_BEFORE : 0) |
		  (lost[1] ? TCFXT_RES_LOST_AFTER : 0));
	for (i = 0; i < 2; i++)
		if (lost[i]) {
			pb_varint(out, c->lost_count[i]);
			c->lost[i] = false;
		}
	r->pending = false;
}

int map_res_note(struct map_ctx *ctx, unsigned int cpu,
		 enum tcfxt_res_kind kind, uint32_t event)
{
	struct map_res *r;
	struct map_res_cpu *c;
	enum map_res_form form;
	struct map_res_decl *d;
	struct pb_buf *out;
	uint32_t id, local;
	unsigned int i;
	int ret;

	if (!map_res_on(ctx))
		return 0;
	/* every packet event has its entry, a record being mapped or not */
	r = res_get(ctx);
	c = r ? cpu_get(r, cpu) : NULL;
	if (!c)
		return -ENOMEM;
	out = &c->kind[kind];
	if (!r->pending || r->inferred) {
		pb_varint(out, 0);
		return out->err;
	}
	if (kind == TCFXT_RES_KIND_SWITCH)
		form = MAP_RES_COMPACT_SWITCH;
	else if (kind == TCFXT_RES_KIND_EVENT &&
		 (event == r->me->pkt_id || event == PFT_EV_GENERIC))
		form = MAP_RES_GENERIC;
	else
		form = MAP_RES_ROW;
	ret = decl_of(ctx, form, &id);
	if (ret >= 0)
		ret = bundle_decl(r, c, id, &local);
	if (ret < 0)
		return ret;
	ctx->events_out++;
	entry_head(r, c, out, local);
	d = &r->decls[id];
	for (i = 0; i < d->nr; i++)
		entry_field(out, r->rec, d->f[i]);
	return out->err;
}

int map_res_copy(struct map_ctx *ctx)
{
	struct map_res *r = ctx->res;
	struct tep_record *rec = r ? r->rec : NULL;
	struct map_res_cpu *c;
	struct pb_buf *out;
	uint32_t id, local;
	int ret;

	if (!rec)
		return -ENOMEM;
	/* in the bundles of its CPU, which Perfetto's limit bounds */
	if (rec->cpu >= PFT_MAX_CPU) {
		map_set_error(ctx, -ERANGE, "--once: the %s event at %llu is "
			      "on CPU %d, past Perfetto's %d: convert with "
			      "--instants", r->me->event->name,
			      (unsigned long long)rec->ts, rec->cpu,
			      PFT_MAX_CPU);
		return -ERANGE;
	}
	c = cpu_get(r, rec->cpu);
	if (!c)
		return -ENOMEM;
	ret = decl_of(ctx, MAP_RES_COPY, &id);
	if (ret >= 0)
		ret = bundle_decl(r, c, id, &local);
	if (ret < 0)
		return ret;
	ctx->events_out++;
	out = &c->kind[TCFXT_RES_KIND_COPY];
	entry_head(r, c, out, local);
	pb_varint(out, rec->ts);
	pb_varint(out, (uint64_t)rec->size);
	if (rec->size > 0 && pb_room(out, rec->size)) {
		memcpy(out->p + out->len, rec->data, rec->size);
		out->len += rec->size;
	}
	return out->err;
}

bool map_res_held(const struct map_ctx *ctx, unsigned int cpu)
{
	const struct map_res *r = ctx->res;

	return r && cpu < r->nr_cpus &&
	       r->cpus[cpu].kind[TCFXT_RES_KIND_COPY].len;
}

size_t map_res_bytes(const struct map_ctx *ctx, unsigned int cpu)
{
	const struct map_res *r = ctx->res;
	const struct map_res_cpu *c;
	size_t n;
	int k;

	if (!r || cpu >= r->nr_cpus)
		return 0;
	c = &r->cpus[cpu];
	n = c->decls.len;
	for (k = 0; k < TCFXT_RES_NR_KINDS; k++)
		n += c->kind[k].len;
	return n;
}

int map_res_flush(struct map_ctx *ctx, unsigned int cpu, struct pb_buf *out,
		  uint32_t running)
{
	struct map_res *r = ctx->res;
	struct map_res_cpu *c;
	size_t m;
	int k;

	if (!r || !map_res_on(ctx) || cpu >= r->nr_cpus)
		return 0;
	c = &r->cpus[cpu];
	m = pb_open(out, TCFXT_BUNDLE_RESIDUE);
	if (c->decls.len && pb_room(out, c->decls.len)) {
		memcpy(out->p + out->len, c->decls.p, c->decls.len);
		out->len += c->decls.len;
	}
	for (k = 0; k < TCFXT_RES_NR_KINDS; k++) {
		if (c->kind[k].err)
			return c->kind[k].err;
		if (c->kind[k].len)
			pb_bytes(out, TCFXT_RES_EVENTS + k, c->kind[k].p,
				 c->kind[k].len);
		c->kind[k].len = 0;
	}
	if (running)
		pb_uint(out, TCFXT_RES_RUNNING, running);
	pb_close(out, m);
	if (c->decls.err)
		return c->decls.err;
	c->decls.len = 0;
	c->nr_ids = 0;
	return out->err;
}

void map_res_free(struct map_ctx *ctx)
{
	struct map_res *r = ctx->res;
	unsigned int i;
	int k;

	if (!r)
		return;
	for (i = 0; i < r->nr_decls; i++) {
		pb_free(&r->decls[i].msg);
		free(r->decls[i].f);
	}
	for (i = 0; i < r->nr_cpus; i++) {
		for (k = 0; k < TCFXT_RES_NR_KINDS; k++)
			pb_free(&r->cpus[i].kind[k]);
		pb_free(&r->cpus[i].decls);
		free(r->cpus[i].ids);
	}
	free(r->decls);
	free(r->cpus);
	free(r);
	ctx->res = NULL;
}
