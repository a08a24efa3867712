// SPDX-License-Identifier: LGPL-2.1-only
/*
 * worker.c - one job at a time on a thread of its own (worker.h).
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "worker.h"

/* How far below its producer a worker runs (nice levels). */
#define WORKER_NICE	4

static void *worker_thread(void *arg)
{
	struct worker *w = arg;

	/*
	 * Behind the producer when the two share a core: the producer (the
	 * converter's mapping thread) is the one the whole run waits for.
	 * Four nice levels: a weight of about 40% of the producer's.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid),
		    getpriority(PRIO_PROCESS, 0) + WORKER_NICE);
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->busy && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->lock);
		w->run(w->arg);
		pthread_mutex_lock(&w->lock);
		w->busy = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int worker_start(struct worker *w, void (*run)(void *arg), void *arg)
{
	int ret;

	w->run = run;
	w->arg = arg;
	w->busy = false;
	w->quit = false;
	ret = pthread_mutex_init(&w->lock, NULL);
	if (ret)
		return -ret;
	ret = pthread_cond_init(&w->cond, NULL);
	if (!ret) {
		ret = pthread_create(&w->thread, NULL, worker_thread, w);
		if (!ret)
			return 0;
		pthread_cond_destroy(&w->cond);
	}
	pthread_mutex_destroy(&w->lock);
	return -ret;
}

void worker_wait(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void worker_hand(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->busy = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void worker_stop(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}
