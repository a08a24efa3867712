// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-residue.c - a `convert --once` FXT's residue (tcfxt-residue.h):
 * each bundle's decls and entries, read as its events are, so that
 * pft_record_write() makes each .dat record again from its packet event
 * and its entry's bytes.  A residue is input like the rest: an entry
 * that does not parse ends the bundle's residue, said as damage, and
 * the events go on as their packets say.
 */
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft2dat-intern.h"

static int res_bad(struct pft_ctx *c, const char *what)
{
	c->res.on = false;
	c->res.cur = NULL;
	c->st->damaged++;
	if (!c->st->damage[0])
		snprintf(c->st->damage, sizeof(c->st->damage),
			 "a bundle's residue: %s", what);
	return -EBADMSG;
}

/*
 * The index of the .dat buffer a decl names (@len bytes at @p), added
 * if new, as a Perfetto trace's instance names one (any text without a
 * NUL); -EINVAL, -ENOSPC, -ENOMEM.
 */
static int buffer_named(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	char name[256];

	if (!len || len >= sizeof(name) || memchr(p, 0, len))
		return -EINVAL;
	memcpy(name, p, len);
	name[len] = '\0';
	return f2d_buffer_named(&c->f2d, name, PFT_MAX_BUFFERS);
}

int pft_res_bundle(struct pft_ctx *c, const struct pb_field *f)
{
	struct pft_res *r = &c->res;
	struct pb_reader rd;
	struct pb_field x;
	int ret, k;

	r->on = false;
	r->running = -1;
	r->cur = NULL;
	r->skip = false;
	r->nr_decls = 0;
	for (k = 0; k < TCFXT_RES_NR_KINDS; k++)
		r->p[k] = r->end[k] = NULL;
	if (!f)
		return 0;
	pb_reader_init(&rd, f->p, f->len);
	while ((ret = pb_next(&rd, &x)) > 0) {
		if (x.id == TCFXT_RES_RUNNING && x.wt == PB_VARINT &&
		    x.v && x.v - 1 <= INT32_MAX)
			r->running = (int32_t)(x.v - 1);
		if (x.wt != PB_LEN)
			continue;
		if (x.id == TCFXT_RES_DECL) {
			if (r->nr_decls == r->cap_decls) {
				unsigned int cap = r->cap_decls ?
						   2 * r->cap_decls : 16;
				void *p = realloc(r->decls,
						  cap * sizeof(*r->decls));

				if (!p)
					return -ENOMEM;
				r->decls = p;
				r->cap_decls = cap;
			}
			memset(&r->decls[r->nr_decls], 0, sizeof(*r->decls));
			r->decls[r->nr_decls].msg = x.p;
			r->decls[r->nr_decls++].len = x.len;
		} else if (x.id >= TCFXT_RES_EVENTS &&
			   x.id < TCFXT_RES_EVENTS + TCFXT_RES_NR_KINDS) {
			k = x.id - TCFXT_RES_EVENTS;
			r->p[k] = x.p;
			r->end[k] = x.p + x.len;
		}
	}
	if (ret < 0)
		return res_bad(c, "does not parse");
	r->on = true;
	return 0;
}

/*
 * What a viewer draws scheduling by (pft2dat-view.c), which a copy's row
 * gives from its record: d->drawn[] in this order.
 */
static const char *const drawn[] = { "next_pid", "prev_state", "pid" };

static int decl_find(struct pft_ctx *c, struct pft_res_decl *d);

/*
 * @d's format and fields found, once per bundle: as a decl of the same
 * bytes was before, else afresh (and kept for the next bundles).
 */
static int decl_resolve(struct pft_ctx *c, struct pft_res_decl *d)
{
	struct pft_res *r = &c->res;
	uint64_t h = u64_map_key(U64_MAP_KEY_FIRST, d->msg, d->len);
	uint64_t at = u64_map_get(&r->known_at, h), *slot;
	struct pft_res_decl *k;
	int ret;

	k = at ? &r->known[at - 1] : NULL;
	if (k && k->len == d->len && !memcmp(k->msg, d->msg, d->len)) {
		const uint8_t *msg = d->msg;

		*d = *k;
		d->msg = msg;
		return k->pf ? 0 : -EBADMSG;
	}
	ret = decl_find(c, d);
	/* kept: its verdict too; another of the same hash is not */
	if (ret == -ENOMEM || at)
		return ret;
	if (r->nr_known == r->cap_known) {
		size_t cap = r->cap_known ? 2 * r->cap_known : 64;

		k = realloc(r->known, cap * sizeof(*k));
		if (!k)
			return ret;
		r->known = k;
		r->cap_known = cap;
	}
	k = &r->known[r->nr_known];
	*k = *d;
	if (ret < 0)
		k->pf = NULL;
	k->msg = malloc(d->len ? d->len : 1);
	slot = k->msg ? u64_map_put(&r->known_at, h) : NULL;
	if (!slot) {
		free((void *)k->msg);
		return ret;
	}
	memcpy((void *)k->msg, d->msg, d->len);
	*slot = ++r->nr_known;
	return ret;
}

/* @d's format and fields found from its bytes. */
static int decl_find(struct pft_ctx *c, struct pft_res_decl *d)
{
	const uint8_t *sys = NULL, *name = NULL, *buf = NULL;
	size_t slen = 0, nlen = 0, blen = 0;
	struct pb_reader rd;
	struct pb_field x;
	struct tep_event *e;
	char fname[64];
	unsigned int i;
	int ret;

	d->resolved = true;
	d->buffer = 0;
	pb_reader_init(&rd, d->msg, d->len);
	while ((ret = pb_next(&rd, &x)) > 0)
		if (x.wt == PB_LEN && x.id == TCFXT_DECL_SYSTEM) {
			sys = x.p;
			slen = x.len;
		} else if (x.wt == PB_LEN && x.id == TCFXT_DECL_NAME) {
			name = x.p;
			nlen = x.len;
		} else if (x.wt == PB_LEN && x.id == TCFXT_DECL_BUFFER) {
			buf = x.p;
			blen = x.len;
		}
	if (ret < 0 || !sys || !name)
		return -EBADMSG;
	d->pf = pft_record_fmt(c, (const char *)sys, slen,
			       (const char *)name, nlen);
	if (!d->pf || !d->pf->f)
		return -EBADMSG;
	e = d->pf->f->event;
	for (i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++) {
		d->drawn[i] = tep_find_field(e, drawn[i]);
		if (d->drawn[i] && (d->drawn[i]->size > 8 ||
				    d->drawn[i]->flags & TEP_FIELD_IS_ARRAY))
			d->drawn[i] = NULL;
	}
	if (blen) {
		/* named in the first pass (pft_res_buffers()) */
		ret = buffer_named(c, buf, blen);
		if (ret < 0)
			return ret == -ENOMEM ? ret : -EBADMSG;
		d->buffer = ret;
	}
	pb_reader_init(&rd, d->msg, d->len);
	d->nr = 0;
	while ((ret = pb_next(&rd, &x)) > 0) {
		if (x.wt != PB_LEN || x.id != TCFXT_DECL_FIELD)
			continue;
		if (d->nr == TCFXT_RES_MAX_FIELDS || x.len >= sizeof(fname))
			return -EBADMSG;
		memcpy(fname, x.p, x.len);
		fname[x.len] = 0;
		d->f[d->nr] = tep_find_any_field(e, fname);
		if (!d->f[d->nr])
			return -EBADMSG;
		d->idx[d->nr] = -1;
		for (i = 0; i < d->pf->f->nr_fields; i++)
			if (d->pf->f->fields[i] == d->f[d->nr])
				d->idx[d->nr] = (int)i;
		d->nr++;
	}
	return ret < 0 ? -EBADMSG : 0;
}

/*
 * An entry's header at *@p: its decl, resolved, in *@d (NULL: no .dat
 * event), the events lost around its record in c->res.lost; *@p moved
 * past it.  -EBADMSG (said) for one that does not parse, -ENOMEM.
 */
static int entry_head(struct pft_ctx *c, const uint8_t **p,
		      const uint8_t *end, struct pft_res_decl **d)
{
	struct pft_res *r = &c->res;
	uint64_t v, n;
	int i, ret;

	*d = NULL;
	r->lost[0] = r->lost[1] = 0;
	if (*p >= end)
		return res_bad(c, "fewer entries than events");
	if (pb_read_varint(p, end, &v) < 0 ||
	    v >> TCFXT_RES_DECL_SHIFT > r->nr_decls ||
	    (v && !(v >> TCFXT_RES_DECL_SHIFT)))
		return res_bad(c, "an entry that names no decl");
	if (!v)
		return 0;
	for (i = 0; i < 2; i++) {
		if (!(v & (TCFXT_RES_LOST_BEFORE << i)))
			continue;
		if (pb_read_varint(p, end, &n) < 0)
			return res_bad(c, "a lost count past its end");
		r->lost[i] = n && n <= INT64_MAX ? (int64_t)n - 1 : -1;
	}
	*d = &r->decls[(v >> TCFXT_RES_DECL_SHIFT) - 1];
	if (!(*d)->resolved) {
		ret = decl_resolve(c, *d);
		if (ret == -ENOMEM)
			return ret;
		if (ret < 0)
			(*d)->pf = NULL;
	}
	if (!(*d)->pf)
		return res_bad(c, "a decl of no known format");
	return 0;
}

int pft_res_take(struct pft_ctx *c, unsigned int kind)
{
	struct pft_res *r = &c->res;
	struct pft_res_decl *d;
	const uint8_t *p, *end;
	unsigned int i;
	int ret;

	r->cur = NULL;
	r->skip = false;
	r->lost[0] = r->lost[1] = 0;
	if (!r->on || kind >= TCFXT_RES_KIND_COPY)
		return 0;
	p = r->p[kind];
	end = r->end[kind];
	ret = p ? entry_head(c, &p, end, &d) :
		  res_bad(c, "fewer entries than events");
	if (ret < 0)
		return ret;
	if (!d) {
		r->p[kind] = p;
		r->skip = true;
		return 0;
	}
	for (i = 0; i < d->nr; i++) {
		struct tep_format_field *fl = d->f[i];
		uint64_t len = fl->size;

		if ((fl->flags & TEP_FIELD_IS_DYNAMIC || !fl->size) &&
		    pb_read_varint(&p, end, &len) < 0)
			return res_bad(c, "a length past its end");
		if (len > (uint64_t)(end - p))
			return res_bad(c, "an entry past its end");
		r->val[i] = p;
		r->val_len[i] = (uint32_t)len;
		p += len;
	}
	r->p[kind] = p;
	r->cur = d;
	return 0;
}

/*
 * A copy (its record built in c->f2d.rec) as a viewer's row: its pid, and
 * the fields a viewer draws scheduling by, as an event read gives them.
 */
static int copy_row(struct pft_ctx *c, const struct pft_res_decl *d,
		    unsigned int cpu, uint64_t ts)
{
	const struct f2d_rec *rec = &c->f2d.rec;
	struct f2d_format *f = d->pf->f;
	struct tep_format_field *fl;
	struct pft_ev *ev = c->ev;
	struct pft_val *v;
	unsigned int i;

	if (!ev)
		return -ENOMEM;
	pft_ev_clear(ev);
	ev->ts = ts;
	ev->cpu = cpu;
	ev->name = f->name;
	ev->nlen = strlen(f->name);
	if (f->c_pid && f->c_pid->offset + f->c_pid->size <= (int)rec->len)
		ev->pid = (int32_t)tep_read_number(f->event->tep, rec->data +
						   f->c_pid->offset, 4);
	for (i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++) {
		fl = d->drawn[i];
		if (!fl || fl->offset + fl->size > (int)rec->len)
			continue;
		v = &ev->vals[ev->n++];
		memset(v, 0, offsetof(struct pft_val, arr));
		v->name = drawn[i];
		v->nlen = strlen(drawn[i]);
		v->kind = PFT_V_INT;
		v->v = tep_read_number(f->event->tep, rec->data + fl->offset,
				       fl->size);
		/* a signed field of fewer bytes, its sign kept */
		if (fl->flags & TEP_FIELD_IS_SIGNED && fl->size < 8 &&
		    v->v >> (fl->size * 8 - 1) & 1)
			v->v |= ~0ULL << (fl->size * 8);
	}
	return c->viewer->row(c, ev, f, d->buffer);
}

/*
 * Copy @raw (@len bytes) of @d's event into the .dat at @ts: its bytes
 * as they were, its event's id the .dat's, a dynamic field that points
 * past the record made empty (a reader of the .dat would read there).
 */
static int copy_write(struct pft_ctx *c, const struct pft_res_decl *d,
		      unsigned int cpu, uint64_t ts, const uint8_t *raw,
		      size_t len)
{
	struct f2d_format *f = d->pf->f;
	struct f2d_rec *rec = &c->f2d.rec;
	struct tep_format_field *fl;
	unsigned long long v;
	size_t off, n;
	unsigned int i;
	int ret;

	ret = f2d_rec_begin(&c->f2d, f, 0);
	if (ret < 0)
		return ret;
	if (len > rec->len && !f2d_rec_room(rec, len - rec->len))
		return -ENOMEM;
	memcpy(rec->data, raw, len);
	/* a copy gives every field */
	d->pf->given = ~0ULL;
	f2d_put_field_int(rec, f->c_type, (uint64_t)f->id);
	for (i = 0; i < f->nr_fields; i++) {
		fl = f->fields[i];
		if (!(fl->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		v = tep_read_number(f->event->tep, rec->data + fl->offset,
				    fl->size);
		off = v & 0xffff;
		n = v >> 16 & 0xffff;
		if (fl->flags & TEP_FIELD_IS_RELATIVE)
			off += fl->offset + fl->size;
		if (off + n > rec->len)
			f2d_put_field_bytes(rec, fl, (const uint8_t *)"", 1);
	}
	ret = pft_record_lost(c, d->buffer, cpu, ts);
	if (ret < 0)
		return ret;
	if (c->viewer) {
		ret = copy_row(c, d, cpu, ts);
		/* a copy adds nothing to the metadata: listed, not built */
		if (ret < 0 || c->listing)
			return ret;
	}
	ret = f2d_emit(&c->f2d, d->buffer, cpu, ts, rec->data, rec->len);
	if (ret == -EAGAIN) {
		c->f2d.need_rerun = false;
		c->st->dropped++;
		return 0;
	}
	return ret;
}

int pft_res_copies(struct pft_ctx *c, unsigned int cpu)
{
	struct pft_res *r = &c->res;
	const uint8_t *p = r->p[TCFXT_RES_KIND_COPY];
	const uint8_t *end = r->end[TCFXT_RES_KIND_COPY];
	struct pft_res_decl *d;
	uint64_t ts, len;
	int ret;

	while (r->on && p && p < end) {
		ret = entry_head(c, &p, end, &d);
		if (ret < 0)
			return ret == -ENOMEM ? ret : 0;
		if (!d || pb_read_varint(&p, end, &ts) < 0 ||
		    pb_read_varint(&p, end, &len) < 0 ||
		    len > (uint64_t)(end - p))
			return res_bad(c, "a copy past its end") == -ENOMEM ?
			       -ENOMEM : 0;
		c->st->events_in++;
		ret = copy_write(c, d, cpu, ts, p, (size_t)len);
		if (ret < 0)
			return ret;
		p += len;
	}
	return 0;
}

/* A decl's format (@sys/@name), noted once for pft_res_foresee(). */
static int format_note(struct pft_ctx *c, const uint8_t *sys, size_t slen,
		       const uint8_t *name, size_t nlen)
{
	struct pft_res *r = &c->res;
	uint64_t h, *seen;

	if (!pft_event_ident((const char *)sys, slen) ||
	    !pft_event_ident((const char *)name, nlen))
		return 0;
	/* a '/' between them: no identifier has one */
	h = u64_map_key(u64_map_key(u64_map_key(U64_MAP_KEY_FIRST, sys, slen),
				    "/", 1), name, nlen);
	/* a hash two formats share: the second is tried when added */
	seen = u64_map_put(&r->named_seen, h);
	if (!seen)
		return -ENOMEM;
	if (*seen)
		return 0;
	*seen = 1;
	/* the first: the child that will try them forked now (not fatal) */
	if (!r->named.len)
		f2d_probe_start(&c->f2d);
	if (f2d_text_add(&r->named, (const char *)sys, slen) ||
	    f2d_text_add(&r->named, "", 1) ||
	    f2d_text_add(&r->named, (const char *)name, nlen) ||
	    f2d_text_add(&r->named, "", 1))
		return -ENOMEM;
	return 0;
}

int pft_res_buffers(struct pft_ctx *c, const struct pb_field *f)
{
	const uint8_t *sys, *name;
	size_t slen, nlen;
	struct pb_reader rd, rdd;
	struct pb_field x, y;

	pb_reader_init(&rd, f->p, f->len);
	while (pb_next(&rd, &x) > 0) {
		if (x.wt != PB_LEN || x.id != TCFXT_RES_DECL)
			continue;
		sys = name = NULL;
		slen = nlen = 0;
		pb_reader_init(&rdd, x.p, x.len);
		while (pb_next(&rdd, &y) > 0) {
			if (y.wt != PB_LEN)
				continue;
			if (y.id == TCFXT_DECL_BUFFER && y.len &&
			    buffer_named(c, y.p, y.len) == -ENOMEM)
				return -ENOMEM;
			if (y.id == TCFXT_DECL_SYSTEM) {
				sys = y.p;
				slen = y.len;
			} else if (y.id == TCFXT_DECL_NAME) {
				name = y.p;
				nlen = y.len;
			}
		}
		if (sys && name && format_note(c, sys, slen, name, nlen))
			return -ENOMEM;
	}
	return 0;
}

int pft_res_foresee(struct pft_ctx *c)
{
	const char *p = c->res.named.s, *end, *sys, *name, *text, *fsys;

	/* none noted: no text at all */
	if (!p)
		return 0;
	for (end = p + c->res.named.len; p < end;) {
		sys = p;
		name = sys + strlen(sys) + 1;
		p = name + strlen(name) + 1;
		text = pft_fxt_format(c, sys, strlen(sys), name, strlen(name),
				      &fsys);
		if (text && f2d_format_foresee(&c->f2d, sys, text,
					       strlen(text)) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

void pft_res_free(struct pft_ctx *c)
{
	size_t i;

	for (i = 0; i < c->res.nr_known; i++)
		free((void *)c->res.known[i].msg);
	free(c->res.known);
	u64_map_free(&c->res.known_at);
	free(c->res.decls);
	f2d_text_free(&c->res.named);
	u64_map_free(&c->res.named_seen);
	memset(&c->res, 0, sizeof(c->res));
}
