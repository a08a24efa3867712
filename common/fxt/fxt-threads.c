// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-threads.c - threads by (process koid, thread koid), their names,
 * and the task ids tools that count by pid show them under.
 *
 * Every thread is an entry, in the order first seen; one hash finds an
 * entry by (pid, tid, tid alone), another the names given by tid alone
 * and by process.  fxt_threads_assign() resolves each tid alone to the
 * thread it stands for and numbers the tasks, in entry order, so that
 * the same file gives the same ids in every tool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-print.h"
#include "fxt-threads.h"
#include "tcfxt.h"
#include "u64-map.h"

/* Renumbered tasks start at a power of ten above every tid kept. */
#define FIRST_RENUMBERED	1000

struct tentry {
	uint64_t	pid;
	uint64_t	tid;
	bool		any;		/* named by tid alone */
	bool		obj_named;	/* by an object with a process */
	bool		renumbered;
	int32_t		task;
	int		alias;		/* a tid alone: the thread it is */
	char		*name;
	uint32_t	name_len;
};

/* A name by key: tid (objects without a process) or process koid. */
struct kname {
	char		*name;
	uint32_t	len;
};

struct knames {
	struct u64_map	at;		/* key -> index + 1 into v */
	struct kname	*v;
	size_t		cap;		/* v's; at.nr of them are used */
};

struct fxt_threads {
	struct tentry		*e;
	size_t			n, cap;
	uint32_t		*slots;	/* index + 1, 0 free */
	size_t			nslots;	/* a power of two or 0 */
	struct knames		by_tid, by_pid;
	bool			assigned;
	size_t			renumbered;
	struct fxt_thread_info	scratch;
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	return k ^ (k >> 33);
}

static size_t key_hash(uint64_t pid, uint64_t tid, bool any)
{
	return (size_t)mix(pid * 31 + mix(tid) + any);
}

struct fxt_threads *fxt_threads_new(void)
{
	return calloc(1, sizeof(struct fxt_threads));
}

static void knames_free(struct knames *k)
{
	size_t i;

	for (i = 0; i < k->at.nr; i++)
		free(k->v[i].name);
	free(k->v);
	u64_map_free(&k->at);
}

void fxt_threads_free(struct fxt_threads *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->e[i].name);
	free(t->e);
	free(t->slots);
	knames_free(&t->by_tid);
	knames_free(&t->by_pid);
	free(t);
}

static const struct kname *kname_find(const struct knames *k, uint64_t key)
{
	uint64_t i = u64_map_get(&k->at, key);

	return i ? &k->v[i - 1] : NULL;
}

static char *copy_name(const char *s, uint32_t len)
{
	char *c = malloc((size_t)len + 1);

	if (c) {
		memcpy(c, s, len);
		c[len] = '\0';
	}
	return c;
}

static int kname_set(struct knames *k, uint64_t key, const char *name,
		     uint32_t len)
{
	uint64_t *at;
	char *copy;

	if (k->at.nr == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;
		struct kname *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		k->v = v;
		k->cap = cap;
	}
	copy = copy_name(name, len);
	at = copy ? u64_map_put(&k->at, key) : NULL;
	if (!at) {
		free(copy);
		return -ENOMEM;
	}
	if (*at)
		free(k->v[*at - 1].name);
	else
		*at = k->at.nr;		/* the next in v */
	k->v[*at - 1] = (struct kname){ .name = copy, .len = len };
	return 0;
}

/* Slot of (@pid, @tid, @any): where it is, or the free slot for it. */
static size_t entry_slot(const struct fxt_threads *t, uint64_t pid,
			 uint64_t tid, bool any)
{
	size_t i, mask = t->nslots - 1;

	for (i = key_hash(pid, tid, any) & mask; t->slots[i];
	     i = (i + 1) & mask) {
		const struct tentry *e = &t->e[t->slots[i] - 1];

		if (e->pid == pid && e->tid == tid && e->any == any)
			break;
	}
	return i;
}

static int entry_get(struct fxt_threads *t, uint64_t pid, uint64_t tid,
		     bool any)
{
	struct tentry *e;
	size_t i;

	if (t->nslots) {
		i = entry_slot(t, pid, tid, any);
		if (t->slots[i])
			return (int)t->slots[i] - 1;
	}
	if (t->n >= INT32_MAX)
		return -ENOMEM;
	if (2 * (t->n + 1) > t->nslots) {
		size_t n = t->nslots ? 2 * t->nslots : 256, k;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		free(t->slots);
		t->slots = slots;
		t->nslots = n;
		for (k = 0; k < t->n; k++)
			slots[entry_slot(t, t->e[k].pid, t->e[k].tid,
					 t->e[k].any)] = (uint32_t)k + 1;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;

		e = realloc(t->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	e = &t->e[t->n];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->tid = tid;
	e->any = any;
	e->alias = -1;
	e->task = (int32_t)(tid & INT32_MAX);
	t->slots[entry_slot(t, pid, tid, any)] = (uint32_t)t->n + 1;
	return (int)t->n++;
}

int fxt_threads_pair(struct fxt_threads *t, uint64_t pid, uint64_t tid)
{
	return entry_get(t, pid, tid, false);
}

int fxt_threads_tid(struct fxt_threads *t, uint64_t tid)
{
	return entry_get(t, 0, tid, true);
}

/* The koid a thread object's `process` argument names, 0 if none. */
static uint64_t object_process(const struct fxt_record *rec)
{
	unsigned int i;

	for (i = 0; i < rec->kobj.nargs; i++) {
		const struct fxt_arg *a = &rec->kobj.args[i];

		if (fxt_str_eq(a->name, FXT_ARG_NAME_PROCESS) &&
		    (a->type == FXT_ARG_KOID || a->type == FXT_ARG_UINT64))
			return a->u64;
	}
	return 0;
}

static int note_object(struct fxt_threads *t, const struct fxt_record *rec)
{
	const struct fxt_str *name = &rec->kobj.name;
	uint64_t pid;
	struct tentry *e;
	char *copy;
	int i;

	if (rec->kobj.obj_type == FXT_OBJ_PROCESS)
		return kname_set(&t->by_pid, rec->kobj.koid, name->ptr,
				 name->len);
	if (rec->kobj.obj_type != FXT_OBJ_THREAD)
		return 0;
	pid = object_process(rec);
	if (!pid)
		return kname_set(&t->by_tid, rec->kobj.koid, name->ptr,
				 name->len);
	i = fxt_threads_pair(t, pid, rec->kobj.koid);
	if (i < 0)
		return i;
	copy = copy_name(name->ptr, name->len);
	if (!copy)
		return -ENOMEM;
	e = &t->e[i];
	free(e->name);
	e->name = copy;
	e->name_len = name->len;
	e->obj_named = true;
	return 0;
}

/* A wakeup's waking thread, by tid alone, as Perfetto reads it. */
static int note_waker(struct fxt_threads *t, const struct fxt_record *rec)
{
	uint64_t koid;

	if (!tcfxt_waker(rec->sched.args, rec->sched.nargs, &koid))
		return 0;
	return fxt_threads_tid(t, koid);
}

/*
 * trace-fxt's own metadata (tcfxt.h) names no thread of a producer: its
 * instants, and thread objects that are no saved cmdline, which can come
 * before the file_info that makes their provider a converted one.
 */
static bool is_converter_meta(const struct fxt_record *rec)
{
	if (rec->type == FXT_REC_EVENT)
		return tcfxt_is_meta(rec->event.category);
	return rec->type == FXT_REC_KERNEL_OBJ &&
	       fxt_args_find(rec->kobj.args, rec->kobj.nargs,
			     TCFXT_ARG_SOURCE);
}

int fxt_threads_note(struct fxt_threads *t, const struct fxt_record *rec)
{
	int ret = 0;

	if (is_converter_meta(rec))
		return 0;
	switch (rec->type) {
	case FXT_REC_EVENT:
		ret = fxt_threads_pair(t, rec->event.thread.pid,
				       rec->event.thread.tid);
		break;
	case FXT_REC_LOG:
		ret = fxt_threads_pair(t, rec->log.thread.pid,
				       rec->log.thread.tid);
		break;
	case FXT_REC_LARGE:
		if (rec->large.large_type == FXT_LARGE_BLOB &&
		    rec->large.format == FXT_LARGE_BLOB_METADATA)
			ret = fxt_threads_pair(t, rec->large.thread.pid,
					       rec->large.thread.tid);
		break;
	case FXT_REC_SCHED:
		switch (rec->sched.subtype) {
		case FXT_SCHED_LEGACY_SWITCH:
			ret = fxt_threads_pair(t, rec->sched.out.pid,
					       rec->sched.out.tid);
			if (ret >= 0)
				ret = fxt_threads_pair(t, rec->sched.in.pid,
						       rec->sched.in.tid);
			break;
		case FXT_SCHED_SWITCH:
			ret = fxt_threads_tid(t, rec->sched.out.tid);
			/* fall through */
		case FXT_SCHED_WAKEUP:
			if (ret >= 0)
				ret = fxt_threads_tid(t, rec->sched.in.tid);
			if (ret >= 0)
				ret = note_waker(t, rec);
			break;
		}
		break;
	case FXT_REC_KERNEL_OBJ:
		ret = note_object(t, rec);
		break;
	}
	return ret < 0 ? ret : 0;
}

/* What fxt_threads_assign() knows of one tid. */
struct tidslot {
	int		first;		/* the first thread with it, -1 */
	int		named;		/* the first an object named, -1 */
	bool		kept;		/* a thread's task id already */
};

/* The tids of the threads: room for all of them, made up front. */
struct tids {
	struct u64_map	at;		/* tid -> index + 1 into v */
	struct tidslot	*v;
};

static struct tidslot *tid_slot(struct tids *ts, uint64_t tid)
{
	/* never NULL: the map was made big enough for every tid */
	uint64_t *at = u64_map_put(&ts->at, tid);

	if (!*at) {
		*at = ts->at.nr;
		ts->v[*at - 1] = (struct tidslot){ .first = -1, .named = -1 };
	}
	return &ts->v[*at - 1];
}

static bool is_idle(const struct fxt_threads *t, const struct tentry *e)
{
	return !e->tid && (e->any || !e->pid) && !e->name &&
	       !kname_find(&t->by_tid, 0);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Is @v among the @n sorted @kept? */
static bool kept_has(const int32_t *kept, size_t n, int32_t v)
{
	return bsearch(&v, kept, n, sizeof(*kept), cmp_i32) != NULL;
}

/*
 * The next free id from *@next: above every kept id while there is room
 * there, else the first gap among them (2^31 threads do not fit).
 */
static int32_t next_free(const int32_t *kept, size_t n, int64_t *next)
{
	while (*next <= INT32_MAX && kept_has(kept, n, (int32_t)*next))
		(*next)++;
	if (*next > INT32_MAX) {
		*next = 1;
		while (kept_has(kept, n, (int32_t)*next))
			(*next)++;
	}
	return (int32_t)(*next)++;
}

/*
 * Which thread each tid alone stands for (tid 0 alone: none, the idle
 * thread): the first thread of that tid an object named in its process,
 * else the first seen by (pid, tid).
 */
static void resolve_tids(struct fxt_threads *t, struct tids *ts)
{
	struct tidslot *s;
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct tentry *e = &t->e[i];

		s = tid_slot(ts, e->tid);
		if (e->any)
			continue;
		if (s->first < 0)
			s->first = (int)i;
		if (e->obj_named && s->named < 0)
			s->named = (int)i;
	}
	for (i = 0; i < t->n; i++) {
		struct tentry *e = &t->e[i];

		e->alias = -1;
		if (!e->any || !e->tid)
			continue;
		s = tid_slot(ts, e->tid);
		e->alias = s->named >= 0 ? s->named : s->first;
	}
}

int fxt_threads_assign(struct fxt_threads *t)
{
	size_t i, nkept = 0;
	int64_t next = FIRST_RENUMBERED;
	struct tids ts = { .at.first = 64 };
	struct tidslot *s;
	int32_t *kept;

	/* more than twice the tids: tid_slot() never grows the map */
	while (ts.at.first < 2 * t->n + 2)
		ts.at.first *= 2;
	ts.v = malloc((t->n + 1) * sizeof(*ts.v));
	kept = malloc((t->n + 1) * sizeof(*kept));
	if (!ts.v || !kept || u64_map_grow(&ts.at)) {
		free(ts.v);
		free(kept);
		return -ENOMEM;
	}
	resolve_tids(t, &ts);
	/* who keeps its tid: the first thread of each tid, in entry order */
	for (i = 0; i < t->n; i++) {
		struct tentry *e = &t->e[i];

		e->renumbered = false;
		if (e->alias >= 0)
			continue;
		if (is_idle(t, e)) {
			e->task = 0;
			continue;
		}
		e->task = -1;
		s = tid_slot(&ts, e->tid);
		if (e->tid && e->tid <= INT32_MAX && !s->kept) {
			s->kept = true;
			e->task = (int32_t)e->tid;
			kept[nkept++] = e->task;
		}
	}
	free(ts.v);
	u64_map_free(&ts.at);
	qsort(kept, nkept, sizeof(*kept), cmp_i32);
	while (nkept && next <= kept[nkept - 1] && next <= INT32_MAX / 10)
		next *= 10;
	t->renumbered = 0;
	for (i = 0; i < t->n; i++) {
		struct tentry *e = &t->e[i];

		if (e->alias >= 0 || e->task >= 0)
			continue;
		e->task = next_free(kept, nkept, &next);
		e->renumbered = true;
		t->renumbered++;
	}
	free(kept);
	t->assigned = true;
	return 0;
}

size_t fxt_threads_count(const struct fxt_threads *t)
{
	return t->n;
}

const struct fxt_thread_info *fxt_threads_info(const struct fxt_threads *t,
					       int idx)
{
	struct fxt_thread_info *s = (struct fxt_thread_info *)&t->scratch;
	const struct tentry *e;
	const struct kname *k;

	if (idx < 0 || (size_t)idx >= t->n)
		return NULL;
	e = &t->e[idx];
	s->resolved = idx;
	if (e->alias >= 0) {
		s->resolved = e->alias;
		e = &t->e[e->alias];
	}
	s->pid = e->pid;
	s->tid = e->tid;
	s->any_process = e->any;
	s->task = fxt_threads_task(t, idx);
	s->renumbered = e->renumbered;
	s->name = e->name;
	s->name_len = e->name_len;
	k = e->name ? NULL : kname_find(&t->by_tid, e->tid);
	if (!k && !e->name && e->tid == e->pid)
		k = kname_find(&t->by_pid, e->pid);
	if (k) {
		s->name = k->name;
		s->name_len = k->len;
	}
	return s;
}

int32_t fxt_threads_task(const struct fxt_threads *t, int idx)
{
	const struct tentry *e;

	if (idx < 0 || (size_t)idx >= t->n)
		return -1;
	e = &t->e[idx];
	if (e->alias >= 0)
		e = &t->e[e->alias];
	return e->task;
}

const char *fxt_threads_process_name(const struct fxt_threads *t,
				     uint64_t pid, uint32_t *len)
{
	const struct kname *k = kname_find(&t->by_pid, pid);

	if (!k)
		return NULL;
	*len = k->len;
	return k->name;
}

void fxt_threads_mapping(const struct fxt_threads *t, struct fxt_list *l)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct tentry *e = &t->e[i];

		if (e->renumbered && e->alias < 0 &&
		    !fxt_list_add(l, "pid %llu tid %llu -> %d",
				  (unsigned long long)e->pid,
				  (unsigned long long)e->tid, e->task))
			break;
	}
}

size_t fxt_threads_renumbered(const struct fxt_threads *t)
{
	return t->renumbered;
}

bool fxt_threads_assigned(const struct fxt_threads *t)
{
	return t->assigned;
}
