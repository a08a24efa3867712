// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-tgid.c - which process each thread belongs to.
 *
 * ftrace records carry the thread (common_pid) but not its thread group,
 * and Perfetto groups threads into processes only by what the FXT says:
 * the thread objects' "process" koid and the process koid of every
 * event's thread.  Both must say the same from the first record on, or
 * Perfetto makes a second thread of that tid in another process; so the
 * groups are settled before anything is written, from what the recording
 * says, most trusted first:
 *  - the kernel: task_newtask's clone_flags (CLONE_THREAD: the new task
 *    joins its creator's group, else it leads its own), and
 *    sched_process_exec (the task that execs leads its group);
 *  - a --tgids file, in the kernel's saved_tgids format ("pid tgid"
 *    lines), for recordings made with the record-tgid option, and
 *    before it the file's saved tgids option (DAT_OPTION_SAVED_TGIDS:
 *    what trace-fxt convert wrote of a Perfetto trace's process trees
 *    and task events);
 *  - atrace markers: the pid field of "B|pid|...", "C|pid|...",
 *    "S|pid|..." and "F|pid|..." is the writer's tgid;
 *  - sched_process_fork, with what the above say of the child: a child
 *    in another task's group is a thread, and a thread is created by a
 *    member of its group, so the parent is in that group too.  Of a
 *    child nothing else speaks, fork alone does not tell thread from
 *    process (the kernel fires it for both): it stays its own process;
 *  - trace-cmd's PROCMAPS options (record --proc-map): the pid of each
 *    leads its group, unless anything above says otherwise, since
 *    record -F also saves the maps of traced threads when they exit.
 * A thread nothing speaks of is its own process.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "dat-meta.h"
#include "fxt-input.h"
#include "map-atrace.h"
#include "map-field.h"
#include "map-options.h"
#include "map-task.h"
#include "map-tgid.h"

#define CLONE_THREAD	0x00010000	/* include/uapi/linux/sched.h */

enum map_tgid_src {
	MAP_TGID_NONE,
	MAP_TGID_PROCMAPS,
	MAP_TGID_FORK,
	MAP_TGID_MARKER,
	MAP_TGID_FILE,
	MAP_TGID_KERNEL,
};

/*
 * Set @pid's group to @tgid (or, negative, to the group of -@tgid) if
 * nothing more trusted said otherwise.
 */
static int map_tgid_set(struct map_ctx *ctx, int pid, int tgid,
			unsigned int rank)
{
	struct map_task *t;

	if (pid <= 0 || !tgid)
		return 0;
	t = map_task_get(ctx, pid);
	if (!t)
		return -ENOMEM;
	if (rank < t->tgid_rank)
		return 0;
	t->tgid = tgid;
	t->tgid_rank = rank;
	return 0;
}

/*
 * One "pid tgid" line (@n of @where) into the groups; a blank one is
 * none, anything else an error that names it.
 */
static int map_tgid_line(struct map_ctx *ctx, const char *line,
			 const char *where, unsigned int n)
{
	int pid, tgid;
	char extra;

	if (line[strspn(line, " \t\r\n")] == '\0')
		return 0;
	if (sscanf(line, "%d %d %c", &pid, &tgid, &extra) != 2 ||
	    pid < 0 || tgid < 0) {
		map_set_error(ctx, -EINVAL, "%s:%u: not a \"pid tgid\" line",
			      where, n);
		return ctx->err;
	}
	return map_tgid_set(ctx, pid, tgid, MAP_TGID_FILE);
}

/* A --tgids file. */
static int map_tgid_file(struct map_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	unsigned int n = 0;
	int ret = 0;

	if (!f) {
		map_set_error(ctx, -errno, "cannot read %s: %s", path,
			      strerror(errno));
		return ctx->err;
	}
	while (ret >= 0 && fgets(line, sizeof(line), f))
		ret = map_tgid_line(ctx, line, path, ++n);
	if (ret >= 0 && ferror(f)) {
		map_set_error(ctx, -EIO, "cannot read %s", path);
		ret = ctx->err;
	}
	fclose(f);
	return ret;
}

/*
 * The file's saved tgids option (a converted Perfetto trace's, or a
 * recorder's that saved the kernel's saved_tgids there).
 */
static int map_tgid_option(struct map_ctx *ctx)
{
	char *s = ctx->saved_tgids, *eol;
	unsigned int n = 0;
	int ret = 0;

	while (s && *s && ret >= 0) {
		eol = strchr(s, '\n');
		if (eol)
			*eol = '\0';
		ret = map_tgid_line(ctx, s, "the saved tgids option", ++n);
		if (eol)
			*eol = '\n';
		s = eol ? eol + 1 : NULL;
	}
	return ret;
}

/*
 * PROCMAPS options: "pid nr_libs exe" (numbers in hex), then one
 * "start end file" line per mapping; only the first line's pid is used
 * here.
 */
static int map_tgid_procmaps(struct map_ctx *ctx)
{
	unsigned int pid, nr;
	int i, ret;

	ret = map_options_procmaps(ctx);
	for (i = 0; i < ctx->nr_procmaps && ret >= 0; i++)
		if (sscanf(ctx->procmaps[i].text, "%x %x", &pid, &nr) == 2 &&
		    pid <= INT_MAX)
			ret = map_tgid_set(ctx, pid, pid, MAP_TGID_PROCMAPS);
	return ret;
}

/* The events read: fxt_input_tgid_events[], which the host collects. */
enum map_tgid_event {
	MAP_TGID_EV_NEWTASK, MAP_TGID_EV_EXEC, MAP_TGID_EV_FORK,
	MAP_TGID_EV_PRINT, MAP_TGID_NR_EVENTS
};
_Static_assert(FXT_INPUT_NR_TGID_EVENTS == MAP_TGID_NR_EVENTS,
	       "fxt_input_tgid_events[] as listed here");

/* The event ids of one buffer that speak of thread groups. */
struct map_tgid_ids {
	struct tracecmd_input	*handle;
	struct map_buffer	*buf;
	struct tep_event	*newtask, *exec, *print, *fork;
	/* their fields, found once */
	struct tep_format_field	*newtask_pid, *newtask_flags, *exec_pid;
	struct tep_format_field	*fork_parent, *fork_child, *print_buf;
};

/* sched_process_fork: parent_pid made child_pid */
struct map_tgid_fork {
	int32_t			parent, child;
};

struct map_tgid_scan {
	struct map_ctx		*ctx;
	struct map_tgid_ids	*ids;
	int			nr;
	int			err;
	struct map_tgid_fork	*forks;
	size_t			nr_forks, max_forks;
};

static int map_tgid_add_fork(struct map_tgid_scan *s, uint64_t parent,
			     uint64_t child)
{
	struct map_tgid_fork *f;

	if (!parent || !child || parent > INT_MAX || child > INT_MAX ||
	    parent == child)
		return 0;
	if (s->nr_forks == s->max_forks) {
		size_t n = s->max_forks ? 2 * s->max_forks : 256;

		f = realloc(s->forks, n * sizeof(*f));
		if (!f)
			return -ENOMEM;
		s->forks = f;
		s->max_forks = n;
	}
	s->forks[s->nr_forks++] = (struct map_tgid_fork){ parent, child };
	return 0;
}

/* What @rec, a record of @ids' buffer, says of thread groups. */
static int map_tgid_record(struct map_tgid_scan *s, struct map_tgid_ids *ids,
			   struct tep_record *rec)
{
	struct map_buffer *buf = ids->buf;
	struct map_atrace at;
	uint64_t type, pid, v;
	int me, len, ret = 0;
	const char *text;

	if (!map_field_u64(buf, rec, s->ctx->common_type, &type) ||
	    !map_field_u64(buf, rec, s->ctx->common_pid, &v))
		return 0;
	me = (int32_t)v;
	if (ids->newtask && (int)type == ids->newtask->id) {
		if (!map_field_u64(buf, rec, ids->newtask_pid, &pid) ||
		    !map_field_u64(buf, rec, ids->newtask_flags, &v) ||
		    pid > INT_MAX)
			return 0;
		ret = map_tgid_set(s->ctx, pid, v & CLONE_THREAD ? -me :
					(int)pid, MAP_TGID_KERNEL);
	} else if (ids->exec && (int)type == ids->exec->id) {
		if (map_field_u64(buf, rec, ids->exec_pid, &pid) &&
		    pid <= INT_MAX)
			ret = map_tgid_set(s->ctx, pid, pid, MAP_TGID_KERNEL);
	} else if (ids->fork && (int)type == ids->fork->id) {
		if (map_field_u64(buf, rec, ids->fork_parent, &pid) &&
		    map_field_u64(buf, rec, ids->fork_child, &v))
			ret = map_tgid_add_fork(s, pid, v);
	} else if (ids->print && (int)type == ids->print->id) {
		len = map_field_str(rec, ids->print_buf, &text);
		/* "B|1234|...": the writer's tgid (a bare "E" names none) */
		if (len > 0 && map_atrace_parse(text, len, &at) &&
		    at.kind != 'E' && at.pid > 0 && at.pid <= INT_MAX)
			ret = map_tgid_set(s->ctx, me, at.pid,
					   MAP_TGID_MARKER);
	}
	if (ret < 0) {
		s->err = ret;
		return -1;
	}
	return 0;
}

static int map_tgid_iterated(struct tracecmd_input *h, struct tep_record *rec,
			     int cpu, void *data)
{
	struct map_tgid_scan *s = data;
	int i;

	for (i = 0; i < s->nr; i++)
		if (s->ids[i].handle == h)
			return map_tgid_record(s, &s->ids[i], rec);
	return 0;
}

/*
 * A record the host kept (fxt-input.h), in the place the iteration over
 * every buffer would give it: by time, then buffer, then CPU, each CPU's
 * records in their order.
 */
struct map_tgid_kept {
	const struct dat_rec		*rec;
	struct map_tgid_ids		*ids;
	size_t				seq;
	int				buf;
};

static int map_tgid_kept_cmp(const void *a, const void *b)
{
	const struct map_tgid_kept *x = a, *y = b;

	if (x->rec->ts != y->rec->ts)
		return x->rec->ts < y->rec->ts ? -1 : 1;
	if (x->buf != y->buf)
		return x->buf < y->buf ? -1 : 1;
	if (x->rec->cpu != y->rec->cpu)
		return x->rec->cpu < y->rec->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Which of @s->ids is the buffer the host calls @name ("" the top), or -1. */
static int map_tgid_buffer(struct map_tgid_scan *s, const char *name)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		struct map_buffer *b = s->ids[i].buf;

		if (*name ? b->handle != s->ctx->top && !strcmp(b->name, name) :
			    b->handle == s->ctx->top)
			return i;
	}
	return -1;
}

/* The records the host kept, instead of a pass over the file. */
static int map_tgid_kept(struct map_tgid_scan *s,
			 const struct dat_recs *kept)
{
	struct map_tgid_kept *k;
	const char *last = NULL;
	size_t i, n = 0;
	int b = -1;

	k = malloc((kept->nr ? kept->nr : 1) * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (i = 0; i < kept->nr; i++) {
		const struct dat_rec *r = &kept->recs[i];

		if (r->buffer != last) {
			last = r->buffer;
			b = map_tgid_buffer(s, last);
		}
		if (b >= 0)
			k[n++] = (struct map_tgid_kept){
				.rec = r, .ids = &s->ids[b], .seq = i, .buf = b,
			};
	}
	qsort(k, n, sizeof(*k), map_tgid_kept_cmp);
	for (i = 0; i < n && !s->err; i++) {
		struct tep_record rec = {
			.ts = k[i].rec->ts, .cpu = k[i].rec->cpu,
			.size = k[i].rec->len, .data = (void *)k[i].rec->data,
		};

		map_tgid_record(s, k[i].ids, &rec);
	}
	free(k);
	return s->err;
}

/*
 * CLONE_THREAD children were set to "the group of their creator": follow
 * those links (a creator nothing else speaks of leads its own group).
 */
static void map_tgid_resolve(struct map_ctx *ctx)
{
	int pid, tgid, up, hops;

	for (pid = 0; pid < ctx->nr_tasks; pid++) {
		tgid = ctx->tasks[pid].tgid;
		for (hops = 0; tgid < 0 && hops < 64; hops++) {
			up = -tgid;
			if (up >= ctx->nr_tasks || !ctx->tasks[up].tgid ||
			    ctx->tasks[up].tgid == tgid)
				tgid = up;
			else
				tgid = ctx->tasks[up].tgid;
		}
		ctx->tasks[pid].tgid = tgid < 0 ? -tgid : tgid;
	}
}

/*
 * A child in another task's group is a thread, made by a member of that
 * group: its parent is in the group too.  Latest forks first, so that a
 * chain of threads making threads settles in one pass; repeated while
 * that teaches something.
 */
static void map_tgid_forks(struct map_ctx *ctx, struct map_tgid_scan *s)
{
	struct map_task *parent, *child;
	bool changed = true;
	int pass;
	size_t i;

	for (pass = 0; changed && pass < 8; pass++) {
		changed = false;
		for (i = s->nr_forks; i-- > 0;) {
			const struct map_tgid_fork *f = &s->forks[i];

			if (f->child >= ctx->nr_tasks ||
			    f->parent >= ctx->nr_tasks)
				continue;
			child = &ctx->tasks[f->child];
			parent = &ctx->tasks[f->parent];
			if (child->tgid <= 0 || child->tgid == f->child ||
			    parent->tgid == child->tgid ||
			    parent->tgid_rank > MAP_TGID_FORK)
				continue;
			parent->tgid = child->tgid;
			parent->tgid_rank = MAP_TGID_FORK;
			changed = true;
		}
	}
}

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	return e ? tep_find_field(e, name) : NULL;
}

/* The event fxt_input_tgid_events[@i] names, or NULL. */
static struct tep_event *event(struct tep_handle *tep, unsigned int i)
{
	return tep_find_event_by_name(tep, fxt_input_tgid_events[i].system,
				      fxt_input_tgid_events[i].name);
}

/*
 * Back to the first record of every CPU: what tracecmd_iterate_reset()
 * of later libtracecmd versions does (3.1 has none; setting a CPU to a
 * time once it was read to its end does not get it back).
 */
static void map_tgid_rewind(struct tracecmd_input *h)
{
	struct tep_record *rec;
	int cpu;

	for (cpu = 0; cpu < tracecmd_cpus(h); cpu++) {
		rec = tracecmd_read_cpu_first(h, cpu);
		if (!rec)
			continue;
		tracecmd_free_record(rec);
		/* on the first page now: back to its first record */
		tracecmd_set_cpu_to_timestamp(h, cpu, 0);
	}
}

/*
 * Settle every thread's group before the conversion writes anything:
 * the saved tgids option, the --tgids file, then the records of the
 * events above: those the host kept from its own pass when it did, else
 * one pass over the records of the buffers, after which the handles are
 * rewound for the conversion.
 */
int map_tgid_read(struct map_ctx *ctx, struct tracecmd_input **handles,
		  int nr)
{
	struct map_tgid_scan s = { .ctx = ctx, .nr = nr };
	int i, ret = 0;

	ret = map_tgid_procmaps(ctx);
	if (ret >= 0)
		ret = map_tgid_option(ctx);
	if (ret < 0)
		return ret;
	if (ctx->opts->tgids) {
		ret = map_tgid_file(ctx, ctx->opts->tgids);
		if (ret < 0)
			return ret;
	}
	if (!ctx->common_type || !ctx->common_pid)
		return 0;
	s.ids = calloc(nr, sizeof(*s.ids));
	if (!s.ids)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct map_tgid_ids *ids = &s.ids[i];
		struct tep_handle *tep = ctx->bufs[i].tep;

		ids->handle = handles[i];
		ids->buf = &ctx->bufs[i];
		ids->newtask = event(tep, MAP_TGID_EV_NEWTASK);
		ids->exec = event(tep, MAP_TGID_EV_EXEC);
		ids->print = event(tep, MAP_TGID_EV_PRINT);
		ids->fork = event(tep, MAP_TGID_EV_FORK);
		ids->newtask_pid = field(ids->newtask, "pid");
		ids->newtask_flags = field(ids->newtask, "clone_flags");
		ids->exec_pid = field(ids->exec, "pid");
		ids->fork_parent = field(ids->fork, "parent_pid");
		ids->fork_child = field(ids->fork, "child_pid");
		ids->print_buf = field(ids->print, "buf");
	}
	if (ctx->kept && ctx->kept->complete) {
		ret = map_tgid_kept(&s, ctx->kept);
	} else {
		tracecmd_iterate_events_multi(handles, nr, map_tgid_iterated,
					      &s);
		for (i = 0; i < nr; i++)
			map_tgid_rewind(handles[i]);
		/* a damaged tail is the conversion's to report */
		ret = s.err;
	}
	free(s.ids);
	if (ret >= 0) {
		map_tgid_resolve(ctx);
		map_tgid_forks(ctx, &s);
	}
	free(s.forks);
	return ret;
}
