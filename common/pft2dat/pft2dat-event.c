// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-event.c - a bundle's FtraceEvents read into values: typed
 * events by map-ftrace.table inverted, GenericFtraceEvent by the names
 * it carries, an event of a bundle's generic_event_descriptors by its
 * descriptor.  Every field is read with pb.h's bounded reader: damage is
 * an event skipped, never a read past the packet.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto-proto.h"
#include "pft-ftrace-table.h"
#include "pft2dat-intern.h"

#define PFT_ROW(n, s, e, ...) \
	{ n, s, sizeof(s) - 1, e, sizeof(e) - 1, \
	  (const struct pft_field_def[]) __VA_ARGS__, \
	  sizeof((const struct pft_field_def[]) __VA_ARGS__) / \
	  sizeof(struct pft_field_def) },

const struct pft_event_def pft_events[] = { PFT_TABLE_ROWS(PFT_ROW) };
const unsigned int pft_nr_events = sizeof(pft_events) / sizeof(pft_events[0]);
_Static_assert(sizeof(pft_events) / sizeof(pft_events[0]) < UINT16_MAX,
	       "row_of()'s index holds a row in 16 bits");

/* FtraceEvent's field this file reads beyond perfetto-proto.h's. */
enum {
	EVENT_COMMON_FLAGS	= 5,	/* FtraceEvent.common_flags */
};

static const struct pft_event_def *row_of(const struct pft_ctx *c,
					   uint32_t num, unsigned int *idx)
{
	if (num >= c->row_at_len || !c->row_at[num])
		return NULL;
	*idx = c->row_at[num] - 1u;
	return &pft_events[*idx];
}

/* row_of()'s index of the table's rows (they are a few hundred). */
static int rows_index(struct pft_ctx *c)
{
	uint32_t n = 0;
	unsigned int i;

	for (i = 0; i < pft_nr_events; i++)
		if (pft_events[i].num >= n)
			n = pft_events[i].num + 1;
	c->row_at = calloc(n, sizeof(*c->row_at));
	if (!c->row_at)
		return -ENOMEM;
	c->row_at_len = n;
	/* of two rows of one field (none now), the first */
	for (i = pft_nr_events; i-- > 0;)
		c->row_at[pft_events[i].num] = (uint16_t)(i + 1);
	return 0;
}

static struct pft_val *val_add(struct pft_ev *ev, const char *name,
			       size_t nlen)
{
	struct pft_val *v;

	if (ev->n == PFT_MAX_VALS)
		return NULL;
	v = &ev->vals[ev->n++];
	/*
	 * all but the array, whose first narr are the ones read: each
	 * member, not a memset, which compiles to a rep stos that was a
	 * tenth of listing a trace for a viewer
	 */
	v->name = name;
	v->nlen = nlen;
	v->named_by_table = false;
	v->kind = PFT_V_INT;
	v->bits = 0;
	v->v = 0;
	v->p = NULL;
	v->len = 0;
	v->narr = 0;
	return v;
}

static void val_set(struct pft_val *v, const struct pb_field *f, bool sgn,
		    unsigned int bits)
{
	v->bits = bits;
	if (f->wt == PB_LEN) {
		v->kind = PFT_V_STR;
		v->p = f->p;
		v->len = f->len;
		/* a string field keeps no NUL; one inside ends it */
		if (memchr(f->p, '\0', f->len))
			v->len = strnlen((const char *)f->p, f->len);
		return;
	}
	v->kind = sgn ? PFT_V_INT : PFT_V_UINT;
	v->v = f->v;
	if (sgn && bits == 32)
		v->v = (uint64_t)(int64_t)(int32_t)f->v;
}

/* A repeated uint64, packed or one by one. */
static void arr_add(struct pft_val *v, const struct pb_field *f)
{
	const uint8_t *p, *end;
	uint64_t x;

	v->kind = PFT_V_ARR;
	v->bits = 64;
	if (f->wt != PB_LEN) {
		if (v->narr < PFT_MAX_ARR)
			v->arr[v->narr++] = f->v;
		return;
	}
	p = f->p;
	end = p + f->len;
	while (p < end && v->narr < PFT_MAX_ARR &&
	       !pb_read_varint(&p, end, &x))
		v->arr[v->narr++] = x;
}

static int typed_event(struct pft_ctx *c, struct pft_ev *ev,
		       const struct pft_event_def *d, unsigned int idx,
		       const struct pb_field *msg)
{
	/* of each of the row's fields, its value's index + 1, or 0 */
	uint8_t got[PFT_TABLE_MAX_FIELDS] = { 0 };
	unsigned int i, k, next = 0;
	struct pb_reader r;
	struct pb_field f;
	int ret;

	ev->system = d->system;
	ev->slen = d->slen;
	ev->name = d->name;
	ev->nlen = d->nlen;
	ev->slot = &c->typed[idx];
	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		const struct pft_field_def *fd = NULL;
		struct pft_val *v = NULL;
		bool added;

		/* writers put them in the row's order: from the last one on */
		for (k = 0; k < d->nr_fields; k++) {
			i = next + k;
			if (i >= d->nr_fields)
				i -= d->nr_fields;
			if (d->fields[i].num == f.id) {
				fd = &d->fields[i];
				next = i + 1;
				break;
			}
		}
		if (!fd)
			continue;
		/* a repeated field's later elements join its first */
		added = !got[i];
		if (added) {
			v = val_add(ev, fd->name, fd->nlen);
			if (!v)
				break;
			v->named_by_table = true;
			got[i] = (uint8_t)ev->n;
		} else {
			v = &ev->vals[got[i] - 1];
		}
		switch (fd->type) {
		case PFT_T_UINT64S:
			arr_add(v, &f);
			break;
		case PFT_T_STRING:
		case PFT_T_KSTR:
			if (f.wt != PB_LEN)
				goto wrong;
			val_set(v, &f, false, 0);
			break;
		default:
			if (f.wt == PB_LEN)
				goto wrong;
			val_set(v, &f, fd->type == PFT_T_INT32 ||
				       fd->type == PFT_T_INT64,
				fd->type == PFT_T_INT32 ||
				fd->type == PFT_T_UINT32 ? 32 : 64);
		}
		continue;
wrong:
		/* not the type the schema says: left out */
		if (added) {
			got[i] = 0;
			ev->n--;
		}
	}
	return ret < 0 ? -EBADMSG : 0;
}

static int legacy_generic(struct pft_ev *ev, const struct pb_field *msg)
{
	struct pb_reader r, fr;
	struct pb_field f, g;
	int ret;

	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		struct pft_val tmp = { 0 }, *v;
		bool have = false;

		if (f.id == PFT_GENERIC_EVENT_NAME && f.wt == PB_LEN) {
			ev->name = (const char *)f.p;
			ev->nlen = strnlen((const char *)f.p, f.len);
			continue;
		}
		if (f.id != PFT_GENERIC_FIELD || f.wt != PB_LEN)
			continue;
		pb_reader_init(&fr, f.p, f.len);
		while ((ret = pb_next(&fr, &g)) > 0) {
			if (g.id == PFT_GENERIC_FIELD_NAME && g.wt == PB_LEN) {
				tmp.name = (const char *)g.p;
				tmp.nlen = strnlen((const char *)g.p, g.len);
			} else if (g.id == PFT_GENERIC_FIELD_STR &&
				   g.wt == PB_LEN) {
				val_set(&tmp, &g, false, 0);
				have = true;
			} else if ((g.id == PFT_GENERIC_FIELD_INT ||
				    g.id == PFT_GENERIC_FIELD_UINT) &&
				   g.wt == PB_VARINT) {
				val_set(&tmp, &g, g.id == PFT_GENERIC_FIELD_INT,
					64);
				have = true;
			}
		}
		if (ret < 0)
			return -EBADMSG;
		if (!have || !tmp.nlen)
			continue;
		v = val_add(ev, tmp.name, tmp.nlen);
		if (v)
			*v = tmp;
	}
	return ret < 0 || !ev->nlen ? -EBADMSG : 0;
}

static struct pft_desc *desc_find(struct pft_ctx *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->nr_descs; i++)
		if (c->descs[i].id == id)
			return &c->descs[i];
	return NULL;
}

static void desc_clear(struct pft_desc *d)
{
	unsigned int i;

	for (i = 0; i < d->nr; i++)
		free(d->fields[i].name);
	free(d->fields);
	free(d->system);
	free(d->name);
	d->fields = NULL;
	d->nr = 0;
	d->system = d->name = NULL;
}

static char *dup_field(const struct pb_field *f)
{
	return strndup((const char *)f->p, f->len);
}

/* One GenericEventDescriptor: kept by its field id (a later one wins). */
static int desc_read(struct pft_ctx *c, const struct pb_field *msg)
{
	struct pb_field f, g, h;
	struct pb_reader r, dr, fr;
	struct pft_desc nd = { 0 }, *d;
	const struct pb_field *proto = NULL;
	struct pb_field proto_f;
	unsigned int i;
	int ret;

	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_DESC_FIELD_ID && f.wt == PB_VARINT)
			nd.id = (uint32_t)f.v;
		else if (f.id == PFT_DESC_GROUP && f.wt == PB_LEN && !nd.system)
			nd.system = dup_field(&f);
		else if (f.id == PFT_DESC_DESCRIPTOR && f.wt == PB_LEN) {
			proto_f = f;
			proto = &proto_f;
		}
	}
	if (ret < 0 || nd.id < PFT_DESCRIBED_FIRST || !proto)
		goto bad;
	pb_reader_init(&dr, proto->p, proto->len);
	while ((ret = pb_next(&dr, &g)) > 0) {
		void *n;

		if (g.id == PFT_DPROTO_NAME && g.wt == PB_LEN && !nd.name) {
			nd.name = dup_field(&g);
			continue;
		}
		if (g.id != PFT_DPROTO_FIELD || g.wt != PB_LEN ||
		    nd.nr == PFT_MAX_VALS)
			continue;
		n = realloc(nd.fields, (nd.nr + 1) * sizeof(*nd.fields));
		if (!n)
			goto bad;
		nd.fields = n;
		memset(&nd.fields[nd.nr], 0, sizeof(nd.fields[0]));
		pb_reader_init(&fr, g.p, g.len);
		while ((ret = pb_next(&fr, &h)) > 0) {
			if (h.id == PFT_FDPROTO_NAME && h.wt == PB_LEN &&
			    !nd.fields[nd.nr].name)
				nd.fields[nd.nr].name = dup_field(&h);
			else if (h.id == PFT_FDPROTO_NUMBER && h.wt == PB_VARINT)
				nd.fields[nd.nr].num = (uint32_t)h.v;
			else if (h.id == PFT_FDPROTO_TYPE && h.wt == PB_VARINT)
				nd.fields[nd.nr].type = (uint32_t)h.v;
		}
		nd.nr++;
		if (ret < 0 || !nd.fields[nd.nr - 1].name)
			goto bad;
	}
	if (ret < 0 || !nd.name)
		goto bad;
	/* measured once, not at each event */
	nd.slen = nd.system ? strlen(nd.system) : 0;
	nd.nlen = strlen(nd.name);
	for (i = 0; i < nd.nr; i++)
		nd.fields[i].nlen = strlen(nd.fields[i].name);
	d = desc_find(c, nd.id);
	if (d) {
		/* the same again (every bundle repeats it): keep the first */
		if (d->name && !strcmp(d->name, nd.name) && d->nr == nd.nr) {
			desc_clear(&nd);
			return 0;
		}
		desc_clear(d);
		nd.fmt = NULL;
		*d = nd;
		return 0;
	}
	d = realloc(c->descs, (c->nr_descs + 1) * sizeof(*d));
	if (!d)
		goto bad;
	c->descs = d;
	c->descs[c->nr_descs++] = nd;
	return 0;
bad:
	desc_clear(&nd);
	return ret < 0 ? -EBADMSG : 0;
}

static int described(struct pft_ctx *c, struct pft_ev *ev,
		     struct pft_desc *d, const struct pb_field *msg)
{
	struct pb_reader r;
	struct pb_field f;
	unsigned int i;
	int ret;

	ev->system = d->system;
	ev->slen = d->slen;
	ev->name = d->name;
	ev->nlen = d->nlen;
	ev->slot = &d->fmt;
	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		struct pft_val *v;

		for (i = 0; i < d->nr; i++)
			if (d->fields[i].num == f.id)
				break;
		if (i == d->nr)
			continue;
		switch (d->fields[i].type) {
		case PFT_FD_STRING:
		case PFT_FD_BYTES:
			if (f.wt != PB_LEN)
				continue;
			v = val_add(ev, d->fields[i].name,
				    d->fields[i].nlen);
			if (v)
				val_set(v, &f, false, 0);
			continue;
		case PFT_FD_SINT32:
		case PFT_FD_SINT64:
			/* zigzag */
			f.v = (f.v >> 1) ^ -(f.v & 1);
			/* fall through */
		case PFT_FD_INT32:
		case PFT_FD_INT64:
			if (f.wt == PB_LEN)
				continue;
			v = val_add(ev, d->fields[i].name,
				    d->fields[i].nlen);
			if (v)
				val_set(v, &f, true,
					d->fields[i].type == PFT_FD_INT32 ||
					d->fields[i].type == PFT_FD_SINT32 ?
					32 : 64);
			continue;
		default:
			if (f.wt == PB_LEN)
				continue;
			v = val_add(ev, d->fields[i].name,
				    d->fields[i].nlen);
			if (v)
				val_set(v, &f, false,
					d->fields[i].type == PFT_FD_UINT32 ||
					d->fields[i].type == PFT_FD_FIXED32 ||
					d->fields[i].type == PFT_FD_BOOL ?
					32 : 64);
		}
	}
	return ret < 0 ? -EBADMSG : 0;
}

/* In a GenericEventDescriptor @msg: its field id @id's group, name. */
static bool desc_names(const struct pb_field *msg, uint32_t id,
		       struct pb_field *group, struct pb_field *name)
{
	struct pb_reader r, dr;
	struct pb_field f, g, proto = { 0 };
	bool ours = false;

	group->id = name->id = 0;
	pb_reader_init(&r, msg->p, msg->len);
	while (pb_next(&r, &f) > 0) {
		if (f.id == PFT_DESC_FIELD_ID && f.wt == PB_VARINT)
			ours = f.v == id;
		else if (f.id == PFT_DESC_GROUP && f.wt == PB_LEN)
			*group = f;
		else if (f.id == PFT_DESC_DESCRIPTOR && f.wt == PB_LEN)
			proto = f;
	}
	pb_reader_init(&dr, proto.p, proto.len);
	while (ours && proto.id && pb_next(&dr, &g) > 0)
		if (g.id == PFT_DPROTO_NAME && g.wt == PB_LEN) {
			*name = g;
			return true;
		}
	return false;
}

int pft_event_name(struct pft_ctx *c, uint32_t id, const uint8_t *bundle,
		   size_t len, const struct pb_field *body, const char **sys,
		   size_t *slen, const char **name, size_t *nlen)
{
	const struct pft_event_def *d;
	struct pb_field f, group = { 0 }, dname = { 0 };
	struct pb_reader r;
	unsigned int idx;

	*sys = NULL;
	*slen = 0;
	if (!c->row_at && rows_index(c))
		return -ENOMEM;
	if (id == PFT_EV_GENERIC) {
		pb_reader_init(&r, body->p, body->len);
		while (pb_next(&r, &f) > 0)
			if (f.id == PFT_GENERIC_EVENT_NAME && f.wt == PB_LEN) {
				*name = (const char *)f.p;
				*nlen = strnlen(*name, f.len);
				return 0;
			}
		return -ENOENT;
	}
	if ((d = row_of(c, id, &idx))) {
		*sys = d->system;
		*slen = d->slen;
		*name = d->name;
		*nlen = d->nlen;
		return 0;
	}
	if (id < PFT_DESCRIBED_FIRST)
		return -ENOENT;
	/* described by its own bundle (each bundle repeats its own) */
	pb_reader_init(&r, bundle, len);
	while (pb_next(&r, &f) > 0) {
		if (f.id != PFT_BUNDLE_DESCRIPTORS || f.wt != PB_LEN ||
		    !desc_names(&f, id, &group, &dname))
			continue;
		if (group.id) {
			*sys = (const char *)group.p;
			*slen = group.len;
		}
		*name = (const char *)dname.p;
		*nlen = dname.len;
		return 0;
	}
	return -ENOENT;
}

/* A typed event no row names: counted for the summary. */
static int unknown_event(struct pft_ctx *c, uint32_t num)
{
	uint64_t *n = u64_map_put(&c->unknown, num);

	if (!n)
		return -ENOMEM;
	++*n;
	return -ENOENT;
}

/*
 * The summary's list of them, by field number; what does not fit is
 * said to be there (", ...").
 */
static void unknown_said(struct pft_ctx *c)
{
	char *out = c->st->unknown, one[48];
	size_t len = 0, size = sizeof(c->st->unknown), i, nk, n;
	uint64_t *keys = u64_map_keys(&c->unknown, &nk);

	for (i = 0; i < nk; i++) {
		n = (size_t)snprintf(one, sizeof(one), "%s%llu x%llu",
				     len ? ", " : "",
				     (unsigned long long)keys[i],
				     (unsigned long long)
				     u64_map_get(&c->unknown, keys[i]));
		/* room for this one and a ", ..." after it */
		if (len + n + 6 > size) {
			snprintf(out + len, size - len, ", ...");
			break;
		}
		memcpy(out + len, one, n + 1);
		len += n;
	}
	free(keys);
}

/* One FtraceEvent of a bundle of CPU @cpu. */
static int one_event(struct pft_ctx *c, unsigned int cpu,
		     const struct pb_field *msg)
{
	struct pft_ev *ev;
	struct pb_reader r;
	struct pb_field f, body = { 0 };
	const struct pft_event_def *d;
	struct pft_desc *desc;
	unsigned int idx;
	bool have_ts = false;
	int ret;

	ev = c->ev;
	pft_ev_clear(ev);
	ev->cpu = cpu;
	ev->flags = -1;
	ret = pft_res_take(c, TCFXT_RES_KIND_EVENT);
	if (ret == -ENOMEM)
		return ret;
	pb_reader_init(&r, msg->p, msg->len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_EVENT_TIMESTAMP && f.wt == PB_VARINT) {
			ev->ts = f.v;
			have_ts = true;
		} else if (f.id == PFT_EVENT_PID && f.wt == PB_VARINT) {
			ev->pid = (int32_t)f.v;
		} else if (f.id == EVENT_COMMON_FLAGS && f.wt == PB_VARINT) {
			ev->flags = (int)(f.v & 0xff);
		} else if (f.wt == PB_LEN && f.id > 2) {
			body = f;
		}
	}
	c->st->events_in++;
	ret = ret < 0 || !have_ts || !body.id ? -EBADMSG : 0;
	if (!ret) {
		if (body.id == PFT_EV_GENERIC)
			ret = legacy_generic(ev, &body);
		else if ((d = row_of(c, body.id, &idx))) {
			/*
			 * a viewer's rows: listed, its values not read (not
			 * an inference of the converter's)
			 */
			ret = c->listing && !c->res.skip ?
			      c->viewer->listed(c, ev, idx, &body) : 0;
			if (ret > 0)
				return 0;
			if (!ret)
				ret = typed_event(c, ev, d, idx, &body);
		} else if ((desc = desc_find(c, body.id)))
			ret = described(c, ev, desc, &body);
		else
			ret = unknown_event(c, body.id);
	}
	if (!ret)
		ret = pft_record_write(c, ev);
	else if (ret != -ENOMEM)
		c->st->dropped++;
	return ret == -ENOMEM ? ret : 0;
}

/* compact sched fields a bundle's first walk keeps (Perfetto writes one) */
#define PFT_COMPACT_KEPT	4

int pft_event_bundle(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	struct pb_field first = { 0 }, residue = { 0 };
	/* the bundle's compact sched, as found by the first walk */
	struct pb_field compact[PFT_COMPACT_KEPT];
	unsigned int cpu = 0, nr_compact = 0, i;
	bool have_cpu = false, lost = false;
	size_t from;
	int ret;

	if (!c->typed) {
		c->typed = calloc(pft_nr_events, sizeof(*c->typed));
		if (!c->typed)
			return -ENOMEM;
	}
	if (!c->row_at && rows_index(c))
		return -ENOMEM;
	if (!c->ev) {
		c->ev = malloc(sizeof(*c->ev));
		if (!c->ev)
			return -ENOMEM;
	}
	/* the CPU and the descriptors first: the events need them */
	pb_reader_init(&r, p, len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_BUNDLE_CPU && f.wt == PB_VARINT) {
			cpu = (unsigned int)f.v;
			have_cpu = true;
		} else if (f.id == PFT_BUNDLE_LOST_EVENTS &&
			   f.wt == PB_VARINT) {
			lost = f.v;
		} else if (f.id == PFT_BUNDLE_FTRACE_CLOCK &&
			   f.wt == PB_VARINT && c->pass == 1) {
			c->ftrace_clock = f.v;
		} else if (f.id == PFT_BUNDLE_DESCRIPTORS && f.wt == PB_LEN &&
			   c->pass == 2) {
			ret = desc_read(c, &f);
			if (ret == -ENOMEM)
				return ret;
		} else if (f.id == PFT_BUNDLE_EVENT && f.wt == PB_LEN &&
			   !first.id) {
			first = f;
		} else if (f.id == PFT_BUNDLE_COMPACT_SCHED &&
			   f.wt == PB_LEN) {
			if (nr_compact < PFT_COMPACT_KEPT)
				compact[nr_compact] = f;
			nr_compact++;
		} else if (f.id == TCFXT_BUNDLE_RESIDUE && f.wt == PB_LEN &&
			   !c->o->packets_only) {
			/* Perfetto's reading (packets_only) skips it */
			residue = f;
		}
	}
	if (ret < 0 || !have_cpu || cpu >= PFT_MAX_CPU)
		return -EBADMSG;
	if (c->pass == 1) {
		if (cpu > c->max_cpu)
			c->max_cpu = cpu;
		return residue.id ? pft_res_buffers(c, &residue) : 0;
	}
	ret = pft_res_bundle(c, residue.id ? &residue : NULL);
	if (ret == -ENOMEM)
		return ret;
	if (c->res.running >= 0 && pft_sched_running(c, cpu, c->res.running))
		return -ENOMEM;
	if (c->viewer) {
		ret = c->viewer->bundle(c, p, len, cpu);
		if (ret < 0)
			return ret;
	}
	/* a residue says where and how many, record by record */
	if (lost && !residue.id) {
		uint64_t ts = 0;
		struct pb_reader er;
		struct pb_field ef;

		/* before the bundle's first event */
		if (first.id) {
			pb_reader_init(&er, first.p, first.len);
			while (pb_next(&er, &ef) > 0)
				if (ef.id == PFT_EVENT_TIMESTAMP)
					ts = ef.v;
		}
		ret = c->listing ? c->viewer->lost(c, c->buffer, cpu, ts, -1) :
		      f2d_lost(&c->f2d, c->buffer, cpu, ts, -1);
		if (ret < 0 && ret != -EAGAIN)
			return ret;
	}
	/* the events, then compact sched, which their renames change */
	from = c->f2d.nr_keep;
	c->nr_renames = 0;
	c->renames_done = 0;
	c->renames_sorted = true;
	pb_reader_init(&r, p, len);
	while ((ret = pb_next(&r, &f)) > 0)
		if (f.id == PFT_BUNDLE_EVENT && f.wt == PB_LEN &&
		    (ret = one_event(c, cpu, &f)) < 0)
			return ret;
	if (nr_compact <= PFT_COMPACT_KEPT) {
		for (i = 0; i < nr_compact; i++)
			if ((ret = pft_sched_compact(c, cpu, compact[i].p,
						     compact[i].len)) < 0)
				return ret;
	} else {
		/* more than were kept: found by a walk again */
		pb_reader_init(&r, p, len);
		while ((ret = pb_next(&r, &f)) > 0)
			if (f.id == PFT_BUNDLE_COMPACT_SCHED &&
			    f.wt == PB_LEN &&
			    (ret = pft_sched_compact(c, cpu, f.p,
						     f.len)) < 0)
				return ret;
	}
	/* who runs at the bundle's end, for the next one's compact sched */
	pft_sched_renames(c, cpu, UINT64_MAX);
	ret = pft_res_copies(c, cpu);
	if (ret < 0)
		return ret;
	/* two runs of time, as the bundle's CPU ran: one */
	f2d_kept_sort(&c->f2d, from);
	return 0;
}

void pft_event_free(struct pft_ctx *c)
{
	unsigned int i;

	unknown_said(c);
	u64_map_free(&c->unknown);

	for (i = 0; i < c->nr_descs; i++)
		desc_clear(&c->descs[i]);
	free(c->descs);
	free(c->typed);
	free(c->row_at);
	free(c->ev);
}
