/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-threads.h - which thread a record is on, told apart as Perfetto
 * tells threads apart: by (process koid, thread koid); and the 32-bit
 * task id each thread gets where a tool counts tasks by a Linux pid (a
 * .dat's common_pid and cmdlines, KernelShark's pid column, `trace-fxt
 * report`'s comm-pid).
 *
 * Records name their thread by (pid, tid) (events, logs, legacy context
 * switches, large blobs: fxt_threads_pair()) or by tid alone (context
 * switch and wakeup records of subtypes 1 and 2: fxt_threads_tid()).  A
 * tid alone stands for the thread of that tid that a kernel object with a
 * `process` argument named, else for the first thread of that tid that a
 * record named by (pid, tid), else for a thread of its own; tid 0 alone
 * is the idle thread.  Thread kernel objects name threads: the one of
 * their `process` argument, or, without one, every thread of that tid
 * that no object names in its own process.  The last name given wins, as
 * in Perfetto.
 *
 * Task ids are given once every thread is known (fxt_threads_assign(),
 * after a first pass over the file): a thread keeps its tid where that is
 * a pid and no thread seen before it has it (0 < tid <= INT32_MAX);
 * the unnamed thread 0 of process 0 (or tid 0 alone) is task 0, the idle
 * task; every other thread is renumbered, from the first power of ten
 * (at least 1000) above every tid kept.  Threads first seen after that
 * keep their tid's low 31 bits.
 *
 * Files that trace-fxt converted from a .dat do not come here: their
 * threads are the .dat's pids, tid 0 the idle task; their metadata
 * records (tcfxt.h), which may come before the file_info that tells the
 * provider for a converted one, are passed over.
 */
#ifndef _FXT_THREADS_H
#define _FXT_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt-reader.h"

struct fxt_threads;

/* What is known of one thread. */
struct fxt_thread_info {
	uint64_t	pid;		/* 0 when @any_process */
	uint64_t	tid;
	bool		any_process;	/* named by tid alone so far */
	/* fxt_threads_assign()'s: the task id, and whether it is not @tid */
	int32_t		task;
	bool		renumbered;
	/*
	 * the thread kernel object's name, else for a process's main
	 * thread (tid = pid) the process object's (NULL: none), @name_len
	 * bytes: the one naming rule of every tool
	 */
	const char	*name;
	uint32_t	name_len;
	/* the index of the thread this is: itself, or the one a tid alone
	 * stands for */
	int		resolved;
};

/**
 * fxt_threads_new() - an empty thread table
 *
 * Return: the table, or NULL when out of memory.
 */
struct fxt_threads *fxt_threads_new(void);

/**
 * fxt_threads_free() - free a thread table
 * @t: the table, or NULL
 */
void fxt_threads_free(struct fxt_threads *t);

/**
 * fxt_threads_pair() - the thread a record names by (pid, tid)
 * @t: the table
 * @pid: its process koid
 * @tid: its thread koid
 *
 * Return: the thread's index (made on first sight), or -ENOMEM.
 */
int fxt_threads_pair(struct fxt_threads *t, uint64_t pid, uint64_t tid);

/**
 * fxt_threads_tid() - the thread a record names by its tid alone
 * @t: the table
 * @tid: its thread koid
 *
 * Return: an index (made on first sight) whose task, once assigned, is
 * the one that tid stands for; or -ENOMEM.
 */
int fxt_threads_tid(struct fxt_threads *t, uint64_t tid);

/**
 * fxt_threads_note() - learn the threads and names a record gives
 * @t: the table
 * @rec: any record (events, logs, large blobs, scheduling records and
 *	 thread and process kernel objects say something)
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_threads_note(struct fxt_threads *t, const struct fxt_record *rec);

/**
 * fxt_threads_assign() - give every thread known so far its task id
 * @t: the table
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_threads_assign(struct fxt_threads *t);

/**
 * fxt_threads_count() - how many threads the table has
 * @t: the table
 */
size_t fxt_threads_count(const struct fxt_threads *t);

/**
 * fxt_threads_info() - what is known of thread @idx
 * @t: the table
 * @idx: an index the table gave
 *
 * Return: the thread (a tid alone resolved to the thread it stands for,
 * once assigned), valid until the table next changes; NULL for a bad
 * index.
 */
const struct fxt_thread_info *fxt_threads_info(const struct fxt_threads *t,
					       int idx);

/**
 * fxt_threads_task() - thread @idx's task id
 * @t: the table
 * @idx: an index the table gave (a bad one: -1)
 *
 * Return: the assigned task id, or the tid's low 31 bits when the thread
 * came after fxt_threads_assign() (or it was never called).
 */
int32_t fxt_threads_task(const struct fxt_threads *t, int idx);

/**
 * fxt_threads_process_name() - what a process kernel object named @pid
 * @t: the table
 * @pid: the process koid
 * @len: set to the name's length
 *
 * Return: the name, or NULL when no object named it.
 */
const char *fxt_threads_process_name(const struct fxt_threads *t,
				     uint64_t pid, uint32_t *len);

/**
 * fxt_threads_renumbered() - how many threads fxt_threads_assign() gave an
 *	id other than their tid
 * @t: the table
 */
size_t fxt_threads_renumbered(const struct fxt_threads *t);

/* Why a thread is renumbered, as the tools say it. */
#define FXT_THREADS_WHY \
	"a tid an earlier thread of another process has, tid 0, " \
	"or a tid past 2^31 - 1"

struct fxt_list;

/**
 * fxt_threads_mapping() - the renumbered threads, as text
 * @t: the table, assigned
 * @l: the list (fxt-print.h) they are added to, each as
 *	"pid P tid T -> N", N its task id
 */
void fxt_threads_mapping(const struct fxt_threads *t, struct fxt_list *l);

/**
 * fxt_threads_assigned() - whether fxt_threads_assign() was called
 * @t: the table
 */
bool fxt_threads_assigned(const struct fxt_threads *t);

#endif /* _FXT_THREADS_H */
