// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-task.c - the conversion's tables of pids and CPUs, and task names.
 *
 * Task names become kernel object records: a thread object per pid in
 * its thread group's process (map-tgid.c), and the process object named
 * after the group's leader, named from the file's saved cmdlines, before
 * the pid's first record.  Names that only events reveal (a comm field of
 * a pid the cmdlines do not know, task_rename) are announced too, with a
 * "source" = "event" argument, because trace-cmd's report columns keep
 * using the cmdlines' name; so is the idle task's "swapper", with
 * "source" = "idle" (tcfxt.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-field.h"
#include "map-task.h"

/*
 * The conversion's record of @pid, growing the table as needed; NULL
 * for a pid outside [0, MAP_PID_LIMIT) or when out of memory.
 */
struct map_task *map_task_get(struct map_ctx *ctx, int pid)
{
	struct map_task *t;
	int n, i;

	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return NULL;
	if (pid < ctx->nr_tasks)
		return &ctx->tasks[pid];
	n = pid + 4096;
	t = realloc(ctx->tasks, n * sizeof(*t));
	if (!t)
		return NULL;
	for (i = ctx->nr_tasks; i < n; i++)
		t[i] = (struct map_task){ .cpu = -1 };
	ctx->tasks = t;
	ctx->nr_tasks = n;
	return &t[pid];
}

int map_task_tgid(struct map_ctx *ctx, int pid)
{
	struct map_task *t = pid < ctx->nr_tasks ? &ctx->tasks[pid] : NULL;

	return t && t->tgid > 0 ? t->tgid : pid;
}

const char *map_task_comm(struct map_buffer *buf, int pid)
{
	const char *comm = pid ? tep_data_comm_from_pid(buf->tep, pid) :
				 "swapper";

	return comm && strcmp(comm, "<...>") ? comm : NULL;
}

/*
 * A thread object (koid = pid, "process" = its tgid) named @name, and
 * the first time a thread group meets its process object, named after
 * the group leader (the name the leader's pid has, else this one).
 */
static int map_announce(struct map_ctx *ctx, struct map_buffer *buf,
			int pid, const char *name, size_t len,
			const char *source)
{
	struct fxt_arg args[2];
	unsigned int n = 0;
	int tgid = map_task_tgid(ctx, pid);
	struct map_task *leader;
	int ret;

	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return 0;	/* a damaged record's: never named */
	leader = map_task_get(ctx, tgid);
	if (!leader)
		return -ENOMEM;
	if (source) {
		args[n].type = FXT_ARG_STRING;
		args[n].name = fxt_writer_str(ctx->w, TCFXT_ARG_SOURCE);
		args[n++].str = fxt_writer_str(ctx->w, source);
	}
	if (tgid == pid || !leader->proc_named) {
		const char *lname = tgid == pid ? NULL :
				    map_task_comm(buf, tgid);

		ret = fxt_write_kernel_object(map_w(ctx), tgid, FXT_OBJ_PROCESS,
					      lname ? fxt_str_make(lname,
							strlen(lname)) :
					      fxt_str_make(name, len), args, n);
		if (ret < 0)
			return ret;
		leader->proc_named = tgid == pid || lname;
	}
	args[n].type = FXT_ARG_KOID;
	args[n].name = fxt_writer_str(ctx->w, FXT_ARG_NAME_PROCESS);
	args[n++].koid = tgid;
	return fxt_write_kernel_object(map_w(ctx), pid, FXT_OBJ_THREAD,
				       fxt_str_make(name, len), args, n);
}

/*
 * The FXT thread of @pid, (tgid, pid), announcing its name first if this
 * is the first time the conversion meets it.
 */
int map_task_thread(struct map_ctx *ctx, struct map_buffer *buf,
		     int pid, struct fxt_thread *thread)
{
	struct map_task *t;
	const char *comm;

	thread->pid = pid < 0 ? pid : map_task_tgid(ctx, pid);
	thread->tid = pid;
	/* beyond any real pid: the thread is used, never named */
	if (pid < 0 || pid >= MAP_PID_LIMIT)
		return 0;
	if (pid < ctx->nr_tasks && ctx->tasks[pid].named)
		return 0;
	t = map_task_get(ctx, pid);
	if (!t)
		return -ENOMEM;
	t->named = 1;
	comm = map_task_comm(buf, pid);
	if (!comm)
		return 0;
	t->named = 3;
	return map_announce(ctx, buf, pid, comm, strlen(comm),
			    pid ? NULL : TCFXT_SOURCE_IDLE);
}

/*
 * A name an event reveals in @comm_field for the pid in @pid_field, if
 * nothing named that pid yet or if the event renames (task_rename).
 */
int map_task_name(struct map_ctx *ctx, struct map_buffer *buf,
		  struct tep_record *rec, struct tep_format_field *pid_field,
		  struct tep_format_field *comm_field, bool rename)
{
	struct fxt_thread th;
	const char *comm;
	uint64_t pid;
	int len, ret;

	if (!pid_field || !comm_field ||
	    !map_field_u64(buf, rec, pid_field, &pid) ||
	    pid >= MAP_PID_LIMIT || !pid)
		return 0;
	ret = map_task_thread(ctx, buf, pid, &th);
	if (ret < 0)
		return ret;
	if (!rename && (ctx->tasks[pid].named & 2))
		return 0;
	len = map_field_str(rec, comm_field, &comm);
	if (len <= 0)
		return 0;
	ctx->tasks[pid].named |= 2;
	return map_announce(ctx, buf, pid, comm, len, TCFXT_SOURCE_EVENT);
}

/* The name a task last had in the Perfetto packets, as a hash. */
static uint32_t map_comm_hash(const char *s, int len)
{
	uint32_t h = 2166136261u;

	while (len-- > 0)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h | 1;
}

void map_task_comm_note(struct map_ctx *ctx, int pid, const char *comm,
			int len)
{
	struct map_task *t = map_task_get(ctx, pid);

	if (t)
		t->comm_hash = map_comm_hash(comm, len);
}

bool map_task_comm_is(struct map_ctx *ctx, int pid, const char *comm,
		      int len)
{
	struct map_task *t = map_task_get(ctx, pid);

	return t && t->comm_hash == map_comm_hash(comm, len);
}

struct map_cpu *map_cpu_get(struct map_ctx *ctx, unsigned int cpu)
{
	struct map_cpu *c;
	int n, i;

	if (cpu >= 65536)
		return NULL;
	if ((int)cpu < ctx->nr_cpus)
		return &ctx->cpus[cpu];
	n = cpu + 8;
	c = realloc(ctx->cpus, n * sizeof(*c));
	if (!c)
		return NULL;
	for (i = ctx->nr_cpus; i < n; i++)
		c[i] = (struct map_cpu){ .cur = -1, .seen = -1 };
	ctx->cpus = c;
	ctx->nr_cpus = n;
	return &c[cpu];
}
