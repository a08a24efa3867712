// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-counter.c - events that sample a value become FXT counter events.
 *
 * Perfetto names a counter track "name:argument:id", so each event below
 * becomes counter <event> with one argument named after the value field
 * and the id taken from the field that tells the series apart (the CPU
 * for cpu_idle), on the kernel's pseudo-thread (0, 0).  cpu_frequency
 * follows the contract Perfetto's FXT import puts on its per-CPU
 * frequency tracks instead: category "power", arguments "cpu" and
 * "value" (kHz).
 */
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map.h"

static const struct {
	const char	*system, *name, *value, *id;
} counters[] = {
	{ "power", "cpu_frequency", "state", "cpu_id" },
	{ "power", "cpu_idle", "state", "cpu_id" },
	{ "power", "cpu_frequency_limits", "max_freq", "cpu_id" },
	{ "power", "pm_qos_update_target", "curr_value", NULL },
	{ "kmem", "rss_stat", "size", "member" },
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static int counter_index(struct tep_event *e)
{
	size_t i;

	for (i = 0; i < NR_COUNTERS; i++)
		if (!strcmp(e->system, counters[i].system) &&
		    !strcmp(e->name, counters[i].name))
			return i;
	return -1;
}

bool map_counter_classify(struct map_event *me)
{
	int i = counter_index(me->event);

	return i >= 0 && tep_find_field(me->event, counters[i].value);
}

int map_counter_write(struct map_ctx *ctx, struct map_buffer *buf,
		      struct map_event *me, struct tep_record *rec)
{
	int i = counter_index(me->event);
	struct tep_format_field *vf, *idf;
	struct fxt_arg arg;
	struct fxt_event ev = {
		.type = FXT_EVENT_COUNTER,
		.ts = rec->ts,
		.category = fxt_writer_str(ctx->w, TCFXT_CAT_COUNTER),
		.name = me->name,
		.nargs = 1,
		.args = &arg,
	};
	uint64_t v = 0, id = 0;

	if (i < 0)
		return 0;
	vf = tep_find_field(me->event, counters[i].value);
	idf = counters[i].id ? tep_find_field(me->event, counters[i].id) :
			       NULL;
	if (!map_field_u64(buf, rec, vf, &v))
		return 0;
	if (idf)
		map_field_u64(buf, rec, idf, &id);
	ev.id = id;
	if (!strcmp(me->event->name, "cpu_frequency")) {
		struct fxt_arg fa[2] = {
			{ .type = FXT_ARG_UINT32,
			  .name = fxt_writer_str(ctx->w, TCFXT_ARG_CPU), .u32 = id },
			{ .type = FXT_ARG_UINT64,
			  .name = fxt_writer_str(ctx->w, "value"), .u64 = v },
		};

		ev.category = fxt_writer_str(ctx->w, "power");
		ev.nargs = 2;
		ev.args = fa;
		return fxt_write_event(ctx->w, &ev);
	}
	arg.name = fxt_writer_str(ctx->w, counters[i].value);
	if (vf->flags & TEP_FIELD_IS_SIGNED) {
		int shift = 64 - 8 * (vf->size ? vf->size : 8);

		arg.type = FXT_ARG_INT64;
		arg.i64 = (int64_t)(v << shift) >> shift;
	} else {
		arg.type = FXT_ARG_UINT64;
		arg.u64 = v;
	}
	return fxt_write_event(ctx->w, &ev);
}
