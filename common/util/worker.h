/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * worker.h - one job at a time on a thread of its own.
 *
 * A producer fills the next batch while the worker runs the job on the
 * one before: the writer's output (a plain descriptor's writes, gzip and
 * zstd streams: fxt-writer.c, fxt-zio.c) and the converter's compressed
 * Perfetto packets (map-zip.c) take the second core this way.  The
 * producer hands a job over only when the worker is idle (worker_wait()),
 * so the job's data needs no lock of its own: the hand-over and the wait
 * pass it across under the worker's.  The worker runs a few nice levels
 * below the thread that started it: where the two share a core, the
 * producer, which the whole run waits for, goes first.
 */
#ifndef _WORKER_H
#define _WORKER_H

#include <pthread.h>
#include <stdbool.h>

struct worker {
	void		(*run)(void *arg);	/* the job */
	void		*arg;
	pthread_t	thread;
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	bool		busy;		/* the thread holds a job */
	bool		quit;
};

/**
 * worker_start() - start the thread, idle
 * @w: the worker
 * @run: the job, run once per worker_hand()
 * @arg: its argument
 *
 * Return: 0, or a negative errno (nothing is left to stop).
 */
int worker_start(struct worker *w, void (*run)(void *arg), void *arg);

/**
 * worker_wait() - return once the job handed over last has run
 * @w: the worker
 */
void worker_wait(struct worker *w);

/**
 * worker_hand() - run the job once more; the worker must be idle
 * @w: the worker, after worker_wait()
 */
void worker_hand(struct worker *w);

/**
 * worker_stop() - wait for the job, then end the thread
 * @w: the worker, started
 */
void worker_stop(struct worker *w);

#endif /* _WORKER_H */
