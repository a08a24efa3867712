/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt-ks-sched.h - what plugin-fxt.so's plot part knows of a stream's
 * scheduling, gathered as KernelShark loads its entries: the part of
 * KernelShark's sched_events plugin that trace.dat streams alone get,
 * done for FXT streams.
 *
 * While a stream loads, every context switch entry is kept with the task
 * it switched out (and whether that task was preempted) and is then drawn
 * as the task it switched in; every wakeup entry is kept with the task it
 * woke.  fxt-ks-sched-draw.cpp draws the task plots' boxes from them.
 */
#ifndef _FXT_KS_SCHED_H
#define _FXT_KS_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "libkshark.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fxt_ks_data;

/*
 * The field kept with a context switch: the pid switched out, with
 * FXT_KS_SCHED_PREEMPTED when it left running (prev_state R: sched_events'
 * red box begins there).
 */
#define FXT_KS_SCHED_PREEMPTED	(INT64_C(1) << 62)
#define FXT_KS_SCHED_PID_MASK	UINT32_MAX

static inline int fxt_ks_sched_prev_pid(int64_t field)
{
	return (int32_t)(uint32_t)(field & FXT_KS_SCHED_PID_MASK);
}

static inline bool fxt_ks_sched_preempted(int64_t field)
{
	return field & FXT_KS_SCHED_PREEMPTED;
}

/* One stream's scheduling, while the plot part is on for it. */
struct fxt_ks_sched {
	/* context switches: field as above, entry drawn as next_pid */
	struct kshark_data_container	*switches;
	/* wakeups: field the woken pid */
	struct kshark_data_container	*wakeups;
	/* Trailing entries of switched-out tasks moved (once, at draw). */
	bool				second_pass_done;
};

/*
 * Turn the plot part on for @stream, whose rows are @d's: handlers on its
 * context switch and wakeup events.  Returns how many handlers (> 0), 0
 * when the file has no context switch, or a negative errno.
 */
int fxt_ks_sched_init(struct kshark_data_stream *stream,
		      const struct fxt_ks_data *d);

/*
 * Turn it off for @stream (its handlers, what was gathered); a stream id
 * of KS_PLUGIN_CONTEXT_FREE frees everything.  Returns whether it was on.
 */
bool fxt_ks_sched_close(struct kshark_data_stream *stream);

/* Stream @sd's scheduling, NULL while the plot part is off for it. */
struct fxt_ks_sched *fxt_ks_sched_get(int sd);

/*
 * Move the last trailing entry of each switched-out task to the task
 * switched in, once (what sched_events does before its first task plot).
 */
void fxt_ks_sched_second_pass(struct fxt_ks_sched *s);

/* The draw handler (fxt-ks-sched-draw.cpp) and its double click's GUI. */
void fxt_ks_sched_draw(struct kshark_cpp_argv *argv, int sd, int pid,
		       int draw_action);
void fxt_ks_sched_set_gui(void *gui);

#ifdef __cplusplus
}
#endif

#endif /* _FXT_KS_SCHED_H */
