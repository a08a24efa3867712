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

/*
 * The first capacity of the names' table: the .dat's cmdlines are written
 * in its slot order (fxt2dat-out.c), which this keeps as it always was.
 */
#define F2D_NAMES_FIRST	256

int f2d_name_set(struct f2d_ctx *ctx, uint64_t koid, struct fxt_str s)
{
	char *name = strndup(s.ptr, s.len);
	uint64_t *v;

	if (!ctx->names.cap)
		ctx->names.first = F2D_NAMES_FIRST;
	v = name ? u64_map_put(&ctx->names, koid) : NULL;
	if (!v) {
		free(name);
		return -ENOMEM;
	}
	free((char *)(uintptr_t)*v);
	*v = (uintptr_t)name;
	return 0;
}

const char *f2d_name_of(struct f2d_ctx *ctx, uint64_t koid)
{
	return (const char *)(uintptr_t)u64_map_get(&ctx->names, koid);
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

/* Out of memory, @cpu is not noted: the thread keeps the CPU it had. */
void f2d_cpu_set(struct f2d_ctx *ctx, uint64_t tid, unsigned int cpu)
{
	u64_map_set(&ctx->cpu_of, tid, (uint64_t)cpu + 1);
}

unsigned int f2d_cpu_of(struct f2d_ctx *ctx, uint64_t tid)
{
	uint64_t v = u64_map_get(&ctx->cpu_of, tid);

	return v ? (unsigned int)(v - 1) : 0;
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

int f2d_buffer_named(struct f2d_ctx *ctx, const char *name,
		     unsigned int max)
{
	unsigned int i;
	char **names;

	for (i = 0; i < ctx->nr_bufs; i++)
		if (!strcmp(ctx->buf_names[i], name))
			return (int)i;
	if (ctx->nr_bufs + (!ctx->nr_bufs && *name) >= max)
		return -ENOSPC;
	/* the top buffer first, whatever comes */
	if (!ctx->nr_bufs && *name && f2d_buffer_named(ctx, "", max) < 0)
		return -ENOMEM;
	names = realloc(ctx->buf_names, (ctx->nr_bufs + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	ctx->buf_names = names;
	names[ctx->nr_bufs] = strdup(name);
	if (!names[ctx->nr_bufs])
		return -ENOMEM;
	return (int)ctx->nr_bufs++;
}

void f2d_tables_free(struct f2d_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_bufs; i++)
		free(ctx->buf_names[i]);
	free(ctx->buf_names);
	free(ctx->provs);
	for (i = 0; i < ctx->names.cap; i++)
		free((char *)(uintptr_t)ctx->names.slot[i].val);
	u64_map_free(&ctx->names);
	u64_map_free(&ctx->cpu_of);
}
