// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-table.c - what the conversion looks up: the providers (one
 * buffer each) and their buffer names, task names by thread koid, the
 * CPU each thread last ran on, and the growable texts everything keeps.
 *
 * Nothing here writes a record or calls another fxt2dat file: the record
 * builders and the output ask these tables, never the other way round.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt2dat.h"

char *f2d_text_room(struct f2d_text *t, size_t len)
{
	char *p;

	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;

		while (cap < t->len + len + 1)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p)
			return NULL;
		t->s = p;
		t->cap = cap;
	}
	p = t->s + t->len;
	t->len += len;
	t->s[t->len] = '\0';
	return p;
}

int f2d_text_add(struct f2d_text *t, const char *s, size_t len)
{
	char *p = f2d_text_room(t, len);

	if (!p)
		return -ENOMEM;
	memcpy(p, s, len);
	return 0;
}

int f2d_text_set(struct f2d_text *t, struct fxt_str s)
{
	t->len = 0;
	return f2d_text_add(t, s.ptr, s.len);
}

void f2d_text_free(struct f2d_text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

uint64_t f2d_ns(struct f2d_ctx *ctx, uint64_t ticks)
{
	return fxt_ticks_to_ns(ticks, fxt_reader_ticks_per_second(ctx->r));
}

/* koid -> name, open addressing (koid 0 is a valid key: slot flag) */
static struct f2d_name *name_slot(struct f2d_ctx *ctx, uint64_t koid)
{
	size_t i, mask = ctx->cap_names - 1;

	for (i = (koid * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	     ctx->names[i].name; i = (i + 1) & mask)
		if (ctx->names[i].koid == koid)
			return &ctx->names[i];
	return &ctx->names[i];
}

int f2d_name_set(struct f2d_ctx *ctx, uint64_t koid, struct fxt_str s)
{
	struct f2d_name *n, *old = ctx->names, *grown;
	size_t i, cap = ctx->cap_names;
	char *name;

	if (2 * (ctx->nr_names + 1) > cap) {
		/* the old table stays whole until the new one exists */
		grown = calloc(cap ? 2 * cap : 256, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		ctx->names = grown;
		ctx->cap_names = cap ? 2 * cap : 256;
		for (i = 0; i < cap; i++)
			if (old[i].name)
				*name_slot(ctx, old[i].koid) = old[i];
		free(old);
	}
	name = strndup(s.ptr, s.len);
	if (!name)
		return -ENOMEM;
	n = name_slot(ctx, koid);
	if (!n->name)
		ctx->nr_names++;
	free(n->name);
	n->koid = koid;
	n->name = name;
	return 0;
}

const char *f2d_name_of(struct f2d_ctx *ctx, uint64_t koid)
{
	struct f2d_name *n;

	if (!ctx->cap_names)
		return NULL;
	n = name_slot(ctx, koid);
	return n->name;
}

struct f2d_task f2d_task_of(struct f2d_ctx *ctx, uint64_t pid, uint64_t tid,
			    bool by_tid)
{
	struct f2d_task t = { .pid = (int32_t)tid };
	const struct fxt_thread_info *ti;
	int idx;

	if ((ctx->cur && ctx->cur->ftrace) || !ctx->threads) {
		t.name = f2d_name_of(ctx, tid);
		return t;
	}
	idx = by_tid ? fxt_threads_tid(ctx->threads, tid) :
		       fxt_threads_pair(ctx->threads, pid, tid);
	ti = fxt_threads_info(ctx->threads, idx);
	if (ti) {
		t.pid = ti->task;
		t.name = ti->name;
	}
	return t;
}

unsigned int f2d_dat_cpu(struct f2d_ctx *ctx, unsigned int cpu)
{
	if (cpu > 0xffff)
		return cpu;	/* f2d_emit() refuses it */
	if (ctx->cpu_used)
		ctx->cpu_used[cpu / 64] |= 1ULL << (cpu % 64);
	return ctx->cpu_map ? ctx->cpu_map[cpu] : cpu;
}

/* tid -> last CPU; slot value 0 = free, else cpu + 1 */
static size_t cpu_slot(struct f2d_ctx *ctx, uint64_t tid)
{
	size_t i, mask = ctx->cap_cpu - 1;

	for (i = (tid * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	     ctx->cpu_of[i] && ctx->cpu_tid[i] != tid; i = (i + 1) & mask)
		;
	return i;
}

void f2d_cpu_set(struct f2d_ctx *ctx, uint64_t tid, unsigned int cpu)
{
	size_t i, cap = ctx->cap_cpu;
	uint64_t *ot = ctx->cpu_tid;
	unsigned int *oc = ctx->cpu_of;

	if (2 * (ctx->nr_cpu + 1) > cap) {
		ctx->cap_cpu = cap ? 2 * cap : 256;
		ctx->cpu_tid = calloc(ctx->cap_cpu, sizeof(*ctx->cpu_tid));
		ctx->cpu_of = calloc(ctx->cap_cpu, sizeof(*ctx->cpu_of));
		if (!ctx->cpu_tid || !ctx->cpu_of) {
			free(ctx->cpu_tid);
			free(ctx->cpu_of);
			ctx->cpu_tid = ot;
			ctx->cpu_of = oc;
			ctx->cap_cpu = cap;
			return;
		}
		for (i = 0; i < cap; i++) {
			size_t j;

			if (!oc[i])
				continue;
			j = cpu_slot(ctx, ot[i]);
			ctx->cpu_tid[j] = ot[i];
			ctx->cpu_of[j] = oc[i];
		}
		free(ot);
		free(oc);
	}
	i = cpu_slot(ctx, tid);
	if (!ctx->cpu_of[i])
		ctx->nr_cpu++;
	ctx->cpu_tid[i] = tid;
	ctx->cpu_of[i] = cpu + 1;
}

unsigned int f2d_cpu_of(struct f2d_ctx *ctx, uint64_t tid)
{
	size_t i;

	if (!ctx->cap_cpu)
		return 0;
	i = cpu_slot(ctx, tid);
	return ctx->cpu_of[i] ? ctx->cpu_of[i] - 1 : 0;
}

struct f2d_prov *f2d_prov_get(struct f2d_ctx *ctx, uint32_t id)
{
	const char *name = fxt_reader_provider_name(ctx->r, id);
	struct f2d_prov *p;
	ptrdiff_t cur;
	char buf[64];
	unsigned int i;
	char **names;

	if (ctx->cur && ctx->cur->id == id)
		return ctx->cur;
	for (i = 0; i < ctx->nr_provs; i++)
		if (ctx->provs[i].id == id)
			return &ctx->provs[i];
	/* ctx->cur points into the array that may move */
	cur = ctx->cur ? ctx->cur - ctx->provs : -1;
	p = realloc(ctx->provs, (ctx->nr_provs + 1) * sizeof(*p));
	names = realloc(ctx->buf_names, (ctx->nr_bufs + 1) * sizeof(*names));
	if (p) {
		ctx->provs = p;
		if (cur >= 0)
			ctx->cur = &p[cur];
	}
	if (names)
		ctx->buf_names = names;
	if (!p || !names)
		return NULL;
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "provider-%u", id);
		name = buf;
	}
	/* a name already taken gets the provider id */
	for (i = 1; i < ctx->nr_bufs; i++)
		if (!strcmp(ctx->buf_names[i], name)) {
			snprintf(buf, sizeof(buf), "%.40s-%u", name, id);
			name = buf;
		}
	p = &ctx->provs[ctx->nr_provs++];
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->buffer = ctx->nr_bufs;
	names[ctx->nr_bufs] = strdup(ctx->nr_bufs ? name : "");
	if (!names[ctx->nr_bufs])
		return NULL;
	ctx->nr_bufs++;
	return p;
}

void f2d_tables_free(struct f2d_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_bufs; i++)
		free(ctx->buf_names[i]);
	free(ctx->buf_names);
	free(ctx->provs);
	for (i = 0; i < ctx->cap_names; i++)
		free(ctx->names[i].name);
	free(ctx->names);
	free(ctx->cpu_tid);
	free(ctx->cpu_of);
}
