// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-counter.c - events that sample a value become FXT counter events.
 *
 * Perfetto's FXT import makes one counter track per process, event name,
 * argument and id ("name:argument:id", in the process of the event's
 * thread; fuchsia_trace_parser.cc, kCounter), and a series of every
 * numeric argument.  So each counter event here holds only the value, in
 * the process the value describes:
 *  - per-CPU values (cpu_frequency, cpu_idle, cpu_frequency_limits) are
 *    one series per CPU, named for it ("cpufreq.cpu2"), in process 0
 *    (the kernel's);
 *  - kmem:rss_stat is the memory of one process: the current task's
 *    (curr = 1) or the one whose mm_id was last seen current; a value
 *    of an mm no event tied to a process is not drawn (the instant
 *    keeps it).  One series per member, named as Perfetto names its own
 *    ("mem.rss.file", ...), in bytes;
 *  - pm_qos_update_target is one system-wide series.
 * Values are signed as the kernel means them: cpu_idle's exit state is
 * -1, not 4294967295; one that fits 32 bits is a 32-bit argument.  Which
 * events are counters, their fields and series: map-dispatch.c's table.
 */
#include <errno.h>
#include <stdio.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-counter.h"
#include "map-field.h"
#include "map-name.h"
#include "map-special.h"
#include "map-task.h"

/* Perfetto's names of the rss_stat members (MM_FILEPAGES, ...). */
static const char *const rss_names[] = {
	"mem.rss.file", "mem.rss.anon", "mem.swap", "mem.rss.shmem",
};

/*
 * The process an rss_stat value belongs to, in @thread: the current
 * task's when curr says so (and its mm_id is remembered), else the
 * process last seen with that mm_id.  False when none is known.
 */
static bool rss_owner(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec,
		      const struct fxt_thread *cur, struct fxt_thread *thread)
{
	uint64_t mm = 0, curr = 0;
	size_t i;

	if (!map_field_u64(buf, rec, me->sf[2], &mm))
		return false;
	map_field_u64(buf, rec, me->sf[3], &curr);
	if (curr && cur->pid > 0) {
		*thread = *cur;
		for (i = 0; i < ctx->nr_mms; i++)
			if (ctx->mms[i].mm_id == mm)
				break;
		if (i == ctx->nr_mms) {
			if (ctx->nr_mms == MAP_MM_SLOTS)
				i = mm % MAP_MM_SLOTS;	/* forget one */
			else
				ctx->nr_mms++;
		}
		ctx->mms[i].mm_id = mm;
		ctx->mms[i].tgid = cur->pid;
		return true;
	}
	for (i = 0; i < ctx->nr_mms; i++)
		if (ctx->mms[i].mm_id == mm)
			return map_task_thread(ctx, buf, ctx->mms[i].tgid,
					       thread) >= 0;
	return false;
}

int map_counter_write(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec,
		      const struct fxt_thread *thread)
{
	const struct map_counter_def *c = &me->special->counter;
	struct tep_format_field *vf = me->sf[0];
	struct fxt_arg arg;
	struct fxt_event ev = {
		.type = FXT_EVENT_COUNTER,
		.ts = rec->ts,
		.category = map_name(ctx, TCFXT_CAT_COUNTER),
		.nargs = 1,
		.args = &arg,
	};
	uint64_t v = 0, id = 0;
	char name[64];

	if (!map_field_u64(buf, rec, vf, &v))
		return 0;
	if (me->sf[1] && !map_field_u64(buf, rec, me->sf[1], &id))
		return 0;
	switch (c->owner) {
	case MAP_COUNTER_CPU:
		snprintf(name, sizeof(name), "%s%llu", c->series,
			 (unsigned long long)id);
		ev.name = fxt_writer_str(ctx->w, name);
		break;
	case MAP_COUNTER_SYSTEM:
		ev.name = map_name(ctx, c->series);
		break;
	case MAP_COUNTER_RSS:
		if (id >= sizeof(rss_names) / sizeof(rss_names[0]) ||
		    !rss_owner(ctx, buf, me, rec, thread, &ev.thread))
			return 0;
		ev.name = map_name(ctx, rss_names[id]);
		break;
	}
	/*
	 * Perfetto takes only the process from a counter's thread; the tid
	 * stays the instant's, which lets KernelShark's reader fold the
	 * counter into it.
	 */
	ev.thread.tid = thread->tid;
	arg.name = map_name(ctx, c->arg);
	if (c->s32 && vf->size == 4) {
		arg.type = FXT_ARG_INT64;
		v = (uint64_t)(int64_t)(int32_t)v;
	} else if (vf->flags & TEP_FIELD_IS_SIGNED) {
		int shift = 64 - 8 * (vf->size ? vf->size : 8);

		arg.type = FXT_ARG_INT64;
		v = (uint64_t)((int64_t)(v << shift) >> shift);
	} else {
		arg.type = FXT_ARG_UINT64;
	}
	/* Perfetto draws a counter of any integer type: one word if it fits */
	map_arg_set_64(&arg, v);
	return fxt_write_event(map_w(ctx), &ev);
}
