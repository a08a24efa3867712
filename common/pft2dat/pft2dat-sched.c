// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-sched.c - a bundle's compact sched (FtraceEventBundle.
 * CompactSched) as sched_switch and sched_waking events.
 *
 * The recorder keeps only what changes: a switch's previous task is the
 * one the CPU's switch before it switched to (its pid, prio and comm),
 * so it is unknown for a CPU's first switch of the trace (pid 0, no
 * comm); a waking's common_pid is the task running on its CPU then.
 * Timestamps are deltas, each column's from its previous entry, the
 * first absolute.  Columns of unequal lengths end at the shortest; a
 * comm index past the intern table is an empty comm.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto-proto.h"
#include "pft2dat-intern.h"

enum { SW_TS, SW_STATE, SW_PID, SW_PRIO, SW_COMM, WK_TS, WK_PID,
       WK_CPU, WK_PRIO, WK_COMM, WK_FLAGS, NR_COLS };

static const uint32_t col_field[NR_COLS] = {
	PFT_COMPACT_SWITCH_TIMESTAMP, PFT_COMPACT_SWITCH_PREV_STATE,
	PFT_COMPACT_SWITCH_NEXT_PID, PFT_COMPACT_SWITCH_NEXT_PRIO,
	PFT_COMPACT_SWITCH_NEXT_COMM, PFT_COMPACT_WAKING_TIMESTAMP,
	PFT_COMPACT_WAKING_PID, PFT_COMPACT_WAKING_TARGET_CPU,
	PFT_COMPACT_WAKING_PRIO, PFT_COMPACT_WAKING_COMM,
	PFT_COMPACT_WAKING_FLAGS,
};

struct col {
	uint64_t	*v;
	size_t		n, cap;
};

struct strs {
	const uint8_t	**p;
	size_t		*len;
	size_t		n, cap;
};

struct pft_cpu *pft_sched_cpu(struct pft_ctx *c, unsigned int cpu)
{
	/* each .dat buffer (ftrace instance) its own CPUs' tasks */
	cpu += (unsigned int)c->buffer * PFT_MAX_CPU;
	if (cpu >= c->nr_cpus) {
		unsigned int n = cpu + 1;
		struct pft_cpu *p = realloc(c->cpus, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + c->nr_cpus, 0, (n - c->nr_cpus) * sizeof(*p));
		c->cpus = p;
		c->nr_cpus = n;
	}
	return &c->cpus[cpu];
}

static int col_add(struct col *cl, uint64_t v)
{
	if (cl->n == cl->cap) {
		size_t cap = cl->cap ? 2 * cl->cap : 64;
		uint64_t *p = realloc(cl->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		cl->v = p;
		cl->cap = cap;
	}
	cl->v[cl->n++] = v;
	return 0;
}

/* A column's elements: packed, or one by one. */
static int col_read(struct col *cl, const struct pb_field *f)
{
	const uint8_t *p, *end;
	uint64_t x;
	int ret;

	if (f->wt == PB_VARINT)
		return col_add(cl, f->v);
	if (f->wt != PB_LEN)
		return 0;
	p = f->p;
	end = p + f->len;
	while (p < end) {
		if (pb_read_varint(&p, end, &x))
			return -EBADMSG;
		ret = col_add(cl, x);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int strs_add(struct strs *s, const uint8_t *p, size_t len)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		const uint8_t **np = realloc(s->p, cap * sizeof(*np));
		size_t *nl;

		if (!np)
			return -ENOMEM;
		s->p = np;
		nl = realloc(s->len, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		s->len = nl;
		s->cap = cap;
	}
	s->p[s->n] = p;
	s->len[s->n++] = strnlen((const char *)p, len);
	return 0;
}

static void put_int(struct pft_ev *ev, const char *name, int64_t v)
{
	struct pft_val *x = &ev->vals[ev->n++];

	memset(x, 0, sizeof(*x));
	x->name = name;
	x->nlen = strlen(name);
	x->kind = PFT_V_INT;
	x->bits = 32;
	x->v = (uint64_t)v;
}

static void put_str(struct pft_ev *ev, const char *name, const void *p,
		    size_t len)
{
	struct pft_val *x = &ev->vals[ev->n++];

	memset(x, 0, sizeof(*x));
	x->name = name;
	x->nlen = strlen(name);
	x->kind = PFT_V_STR;
	x->p = p;
	x->len = len;
}

static void comm_of(const struct strs *s, uint64_t i, const uint8_t **p,
		    size_t *len)
{
	if (i < s->n) {
		*p = s->p[i];
		*len = s->len[i];
	} else {
		*p = (const uint8_t *)"";
		*len = 0;
	}
}

/*
 * The same task as the bundles before left the CPU running, unless they
 * were lost (damage): its name and priority are then unknown too.
 */
int pft_sched_running(struct pft_ctx *c, unsigned int cpu, int32_t pid)
{
	struct pft_cpu *cur = pft_sched_cpu(c, cpu);

	if (!cur)
		return -ENOMEM;
	if (cur->known && cur->pid == pid)
		return 0;
	memset(cur, 0, sizeof(*cur));
	cur->pid = pid;
	cur->known = true;
	return 0;
}

static int one_switch(struct pft_ctx *c, struct pft_ev *ev, unsigned int cpu,
		      struct col *cols, const struct strs *s, size_t i,
		      uint64_t ts)
{
	struct pft_cpu *cur = pft_sched_cpu(c, cpu);
	const uint8_t *comm;
	size_t len;
	int ret;

	if (!cur)
		return -ENOMEM;
	pft_ev_clear(ev);
	ev->system = "sched";
	ev->slen = 5;
	ev->name = "sched_switch";
	ev->nlen = 12;
	ev->ts = ts;
	ev->cpu = cpu;
	ev->flags = -1;
	ev->pid = cur->pid;
	ev->slot = &c->fmts_switch;
	comm_of(s, cols[SW_COMM].v[i], &comm, &len);
	put_str(ev, "prev_comm", cur->comm, strnlen(cur->comm, 16));
	put_int(ev, "prev_pid", cur->pid);
	put_int(ev, "prev_prio", cur->prio);
	put_int(ev, "prev_state", (int64_t)cols[SW_STATE].v[i]);
	ev->vals[ev->n - 1].bits = 64;
	put_str(ev, "next_comm", comm, len);
	put_int(ev, "next_pid", (int32_t)cols[SW_PID].v[i]);
	put_int(ev, "next_prio", (int32_t)cols[SW_PRIO].v[i]);
	c->st->events_in++;
	ret = pft_res_take(c, TCFXT_RES_KIND_SWITCH);
	if (ret != -ENOMEM)
		ret = pft_record_write(c, ev);
	/* the CPU runs the next task now */
	cur->pid = (int32_t)cols[SW_PID].v[i];
	cur->prio = (int32_t)cols[SW_PRIO].v[i];
	if (len > sizeof(cur->comm) - 1)
		len = sizeof(cur->comm) - 1;
	memcpy(cur->comm, comm, len);
	cur->comm[len] = '\0';
	cur->known = true;
	pft_meta_name(c, cur->pid, comm, len, ts);
	return ret;
}

static int one_waking(struct pft_ctx *c, struct pft_ev *ev, unsigned int cpu,
		      struct col *cols, const struct strs *s, size_t j,
		      uint64_t ts)
{
	struct pft_cpu *cur = pft_sched_cpu(c, cpu);
	const uint8_t *comm;
	size_t len;
	int ret;

	if (!cur)
		return -ENOMEM;
	pft_ev_clear(ev);
	ev->system = "sched";
	ev->slen = 5;
	ev->name = "sched_waking";
	ev->nlen = 12;
	ev->ts = ts;
	ev->cpu = cpu;
	ev->pid = cur->pid;
	ev->flags = j < cols[WK_FLAGS].n ? (int)(cols[WK_FLAGS].v[j] & 0xff) :
		    -1;
	ev->slot = &c->fmts_waking;
	comm_of(s, cols[WK_COMM].v[j], &comm, &len);
	put_str(ev, "comm", comm, len);
	put_int(ev, "pid", (int32_t)cols[WK_PID].v[j]);
	put_int(ev, "prio", (int32_t)cols[WK_PRIO].v[j]);
	put_int(ev, "target_cpu", (int32_t)cols[WK_CPU].v[j]);
	c->st->events_in++;
	pft_meta_name(c, (int32_t)cols[WK_PID].v[j], comm, len, ts);
	ret = pft_res_take(c, TCFXT_RES_KIND_WAKING);
	return ret == -ENOMEM ? ret : pft_record_write(c, ev);
}

static int rename_cmp(const void *a, const void *b)
{
	const struct pft_rename *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pft_sched_renames(struct pft_ctx *c, unsigned int cpu, uint64_t ts)
{
	struct pft_cpu *cur = pft_sched_cpu(c, cpu);
	const struct pft_rename *r;

	if (!cur)
		return;
	/* once a bundle: its events are all read before */
	if (!c->renames_sorted && c->nr_renames > c->renames_done) {
		qsort(c->renames + c->renames_done,
		      c->nr_renames - c->renames_done, sizeof(*c->renames),
		      rename_cmp);
		c->renames_sorted = true;
	}
	for (; c->renames_done < c->nr_renames; c->renames_done++) {
		r = &c->renames[c->renames_done];
		if (r->ts > ts)
			break;
		if (r->runs) {
			cur->pid = r->pid;
			cur->prio = r->prio;
			cur->known = true;
		} else if (!cur->known || cur->pid != r->pid) {
			continue;
		}
		memcpy(cur->comm, r->comm, sizeof(cur->comm));
	}
}

static size_t shortest(const struct col *cols, int from, int to)
{
	size_t n = cols[from].n;
	int k;

	for (k = from + 1; k <= to; k++)
		if (cols[k].n < n)
			n = cols[k].n;
	return n;
}

int pft_sched_compact(struct pft_ctx *c, unsigned int cpu, const uint8_t *p,
		      size_t len)
{
	struct col cols[NR_COLS] = { 0 };
	struct strs s = { 0 };
	struct pb_reader r;
	struct pb_field f;
	struct pft_ev *ev;
	size_t i = 0, j = 0, nsw, nwk;
	uint64_t tsw = 0, twk = 0;
	int k, ret;

	pb_reader_init(&r, p, len);
	while ((ret = pb_next(&r, &f)) > 0) {
		if (f.id == PFT_COMPACT_INTERN_TABLE) {
			ret = f.wt == PB_LEN ? strs_add(&s, f.p, f.len) : 0;
		} else {
			for (k = 0; k < NR_COLS; k++)
				if (col_field[k] == f.id)
					break;
			ret = k < NR_COLS ? col_read(&cols[k], &f) : 0;
		}
		if (ret < 0)
			break;
	}
	if (ret < 0)
		goto out;
	/* waking's flags may be missing (older recorders) */
	nsw = shortest(cols, SW_TS, SW_COMM);
	nwk = shortest(cols, WK_TS, WK_COMM);
	ev = c->ev;
	if (i < nsw)
		tsw = cols[SW_TS].v[0];
	if (j < nwk)
		twk = cols[WK_TS].v[0];
	/* in time order: a waking's waker is who runs at its time */
	c->in_compact = true;
	while (i < nsw || j < nwk) {
		if (i < nsw && (j >= nwk || tsw <= twk)) {
			pft_sched_renames(c, cpu, tsw);
			ret = one_switch(c, ev, cpu, cols, &s, i, tsw);
			if (++i < nsw)
				tsw += cols[SW_TS].v[i];
		} else {
			pft_sched_renames(c, cpu, twk);
			ret = one_waking(c, ev, cpu, cols, &s, j, twk);
			if (++j < nwk)
				twk += cols[WK_TS].v[j];
		}
		if (ret < 0)
			break;
	}
	c->in_compact = false;
out:
	for (k = 0; k < NR_COLS; k++)
		free(cols[k].v);
	free(s.p);
	free(s.len);
	return ret == -ENOMEM ? ret : 0;
}
