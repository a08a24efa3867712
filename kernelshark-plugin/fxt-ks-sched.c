// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-sched.c - a stream's context switches and wakeups, gathered by
 * event handlers as KernelShark loads the stream (the plot part of
 * plugin-fxt.so; fxt-ks-sched-draw.cpp draws from them).
 *
 * This does for FXT streams what KernelShark's sched_events plugin does
 * for trace.dat streams alone, through the plugin API any stream offers
 * (kshark_register_event_handler(), data containers):
 *
 *  - each context switch entry is kept with the pid it switched out and
 *    whether that task was preempted (prev_state R), then drawn as the
 *    task it switched in (its pid becomes next_pid: the CPU plots show
 *    who runs after the switch, the task plots where each task runs);
 *  - each wakeup entry is kept with the pid it woke.
 *
 * Which events those are, per file (every stream of a file has the same
 * event ids):
 *
 *   context switches  every event the loader took for one (is_switch): a
 *                     converted file's sched/sched_switch, another
 *                     producer's FXT context switches
 *   wakeups           of a converted file's, the one sched_events picks
 *                     (sched_waking, else sched_wakeup_new, else
 *                     sched_wakeup: wakeup_rank); every FXT thread wakeup
 *
 * The handlers read no field: the loader kept what they need in each
 * row as it read the record (fxt-ks.h, fxt_ks_row.sched_pid and
 * .preempted; an FXT context switch's outgoing state read as the
 * prev_state the converter would write for it, fxt2dat_prev_state(), so
 * a file and the .dat made of it draw alike).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark-plugin.h"

#include "fxt-ks.h"
#include "fxt-ks-sched.h"

/* A stream's gathering, and which of the file's events feed it. */
struct sched_ctx {
	struct fxt_ks_sched	pub;
	const struct fxt_ks_data *d;
};

static struct sched_ctx **ctxs;
static int nctxs;

struct fxt_ks_sched *fxt_ks_sched_get(int sd)
{
	return sd >= 0 && sd < nctxs && ctxs[sd] ? &ctxs[sd]->pub : NULL;
}

static struct sched_ctx *ctx_of(struct kshark_data_stream *stream)
{
	int sd = stream->stream_id;

	return sd >= 0 && sd < nctxs ? ctxs[sd] : NULL;
}

/*
 * The row (@rec, plugin-fxt.c) says what to keep: the loader read its
 * record's next_pid and prev_state (fxt_ks_row.sched_pid, .preempted)
 * as sched_events reads a trace.dat entry's.
 */
static void on_switch(struct kshark_data_stream *stream, void *rec,
		      struct kshark_entry *entry)
{
	const struct fxt_ks_row *row = rec;
	struct sched_ctx *c = ctx_of(stream);
	int64_t field;

	if (!c || row->sched_pid == FXT_KS_NO_PID)
		return;
	field = (uint32_t)entry->pid;
	if (row->preempted)
		field |= FXT_KS_SCHED_PREEMPTED;
	if (kshark_data_container_append(c->pub.switches, entry, field) < 0)
		return;
	entry->pid = row->sched_pid;
}

/* Its woken pid, read by the loader likewise. */
static void on_wakeup(struct kshark_data_stream *stream, void *rec,
		      struct kshark_entry *entry)
{
	const struct fxt_ks_row *row = rec;
	struct sched_ctx *c = ctx_of(stream);

	if (c && row->sched_pid != FXT_KS_NO_PID)
		kshark_data_container_append(c->pub.wakeups, entry,
					     row->sched_pid);
}

static bool is_wakeup(const struct fxt_ks_data *d, int chosen,
		      unsigned int i)
{
	return (int)i == chosen || !d->events[i].wakeup_rank;
}

/* The handler each of @d's events gets, or NULL. */
static kshark_plugin_event_handler_func handler_of(const struct fxt_ks_data *d,
						   int chosen, unsigned int i)
{
	if (d->events[i].is_switch)
		return on_switch;
	return is_wakeup(d, chosen, i) ? on_wakeup : NULL;
}

/* The converted wakeup sched_events picks: the first the file has. */
static int chosen_wakeup(const struct fxt_ks_data *d)
{
	unsigned int i;
	int id = -1;

	for (i = 0; i < d->nevents; i++)
		if (d->events[i].wakeup_rank > 0 &&
		    (id < 0 ||
		     d->events[i].wakeup_rank < d->events[id].wakeup_rank))
			id = (int)i;
	return id;
}

static void ctx_free(struct sched_ctx *c)
{
	if (!c)
		return;
	kshark_free_data_container(c->pub.switches);
	kshark_free_data_container(c->pub.wakeups);
	free(c);
}

/* Register (@on) or unregister @c's handlers on @stream; how many. */
static int handlers_set(struct kshark_data_stream *stream,
			const struct sched_ctx *c, bool on)
{
	const struct fxt_ks_data *d = c->d;
	kshark_plugin_event_handler_func fn;
	int chosen = chosen_wakeup(d), n = 0;
	unsigned int i;

	for (i = 0; i < d->nevents; i++) {
		fn = handler_of(d, chosen, i);
		if (!fn)
			continue;
		if (on && kshark_register_event_handler(stream, (int)i, fn) < 0)
			return -ENOMEM;
		if (!on)
			kshark_unregister_event_handler(stream, (int)i, fn);
		n++;
	}
	return n;
}

/* Room for stream @sd's context. */
static int ctxs_grow(int sd)
{
	struct sched_ctx **p;
	int n = nctxs ? nctxs : 8;

	while (n <= sd)
		n *= 2;
	if (n == nctxs)
		return 0;
	p = realloc(ctxs, (size_t)n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + nctxs, 0, (size_t)(n - nctxs) * sizeof(*p));
	ctxs = p;
	nctxs = n;
	return 0;
}

int fxt_ks_sched_init(struct kshark_data_stream *stream,
		      const struct fxt_ks_data *d)
{
	int sd = stream->stream_id, ret;
	struct sched_ctx *c;
	unsigned int i;

	for (i = 0; i < d->nevents && !d->events[i].is_switch; i++)
		;
	if (i == d->nevents || sd < 0)
		return 0;
	fxt_ks_sched_close(stream);
	if (ctxs_grow(sd))
		return -ENOMEM;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->d = d;
	c->pub.switches = kshark_init_data_container();
	c->pub.wakeups = kshark_init_data_container();
	if (!c->pub.switches || !c->pub.wakeups) {
		ctx_free(c);
		return -ENOMEM;
	}
	ret = handlers_set(stream, c, true);
	if (ret < 0) {
		handlers_set(stream, c, false);
		ctx_free(c);
		return ret;
	}
	ctxs[sd] = c;
	return ret;
}

bool fxt_ks_sched_close(struct kshark_data_stream *stream)
{
	int sd = stream->stream_id, i;
	struct sched_ctx *c;

	if (sd == KS_PLUGIN_CONTEXT_FREE) {
		for (i = 0; i < nctxs; i++)
			ctx_free(ctxs[i]);
		free(ctxs);
		ctxs = NULL;
		nctxs = 0;
		return false;
	}
	c = ctx_of(stream);
	if (!c)
		return false;
	handlers_set(stream, c, false);
	ctx_free(c);
	ctxs[sd] = NULL;
	return true;
}

/*
 * A context switch is meant to be its task's last entry on the CPU, but
 * the task may log a few more (a printk, an irq exit) before it is gone:
 * the last of those is drawn as the task switched in, as sched_events
 * does, so the switched-out task's plot ends at the switch.  Entries are
 * followed along next, their CPU's order.
 */
void fxt_ks_sched_second_pass(struct fxt_ks_sched *s)
{
	struct kshark_data_container *sw = s->switches;
	struct kshark_entry *e, *sched;
	ssize_t i;
	int prev;

	if (s->second_pass_done)
		return;
	s->second_pass_done = true;
	for (i = 0; i < sw->size; i++) {
		sched = sw->data[i]->entry;
		prev = fxt_ks_sched_prev_pid(sw->data[i]->field);
		if (!sched->next || sched->pid == 0 ||
		    sched->next->event_id == sched->event_id ||
		    sched->next->pid != prev)
			continue;
		for (e = sched; e->next; e = e->next) {
			if (e->next->pid != prev) {
				e->pid = sched->pid;
				e->visible &= ~KS_PLUGIN_UNTOUCHED_MASK;
				break;
			}
		}
	}
}
