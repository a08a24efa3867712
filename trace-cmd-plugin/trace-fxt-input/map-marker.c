// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-marker.c - trace_marker writes (ftrace/print).
 *
 * Every write becomes a log record with its text (in the nested records,
 * as its instant, unless --fxt-records); a write that is not atrace's
 * also becomes an ftrace event "print" in the Perfetto packets
 * (map-ftrace.c), whose text Perfetto lists with the ftrace events.  A
 * write that follows the atrace convention is, by default, Perfetto's own
 * print event (map_ftrace_atrace()), which Perfetto's systrace import
 * reads as it reads its own recording's; with --fxt-records it becomes
 * what that import makes of it, as FXT records:
 *   B|pid|name          duration begin on the writer's thread
 *   E|pid  or  E        duration end
 *   C|pid|name|value    counter "name" of process pid, argument "value"
 *   S|pid|name|cookie   async begin, id (writer's tgid << 32 | cookie)
 *   F|pid|name|cookie   async end
 * in category "atrace".
 *
 * With --fxt-records the packets have no syscall events (their rows are
 * "instead" of FXT records that flavor keeps), so no syscall slice is
 * there to nest the markers' slices in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-atrace.h"
#include "map-field.h"
#include "map-ftrace.h"
#include "map-marker.h"
#include "map-name.h"
#include "map-task.h"

static int atrace_write(struct map_ctx *ctx, struct tep_record *rec,
			const struct fxt_thread *writer, struct map_atrace *at)
{
	struct fxt_event ev = {
		.ts = rec->ts,
		.thread = *writer,
		.category = map_name(ctx, TCFXT_CAT_ATRACE),
		.name = fxt_str_make(at->name ? at->name : "",
				     at->name_len),
	};
	struct fxt_arg arg;
	uint64_t v;
	char buf[64], *end;

	/*
	 * The thread stays the writer's (tgid, tid), as every other record
	 * of that thread has it: the pid field already told map-tgid.c
	 * the writer's group, and a pid that disagrees with what the
	 * kernel said must not make Perfetto a second thread of the tid.
	 */
	switch (at->kind) {
	case 'B':
		ev.type = FXT_EVENT_DURATION_BEGIN;
		break;
	case 'E':
		ev.type = FXT_EVENT_DURATION_END;
		break;
	case 'C':
		ev.type = FXT_EVENT_COUNTER;
		arg.name = map_name(ctx, "value");
		if (at->value_len >= sizeof(buf))
			return 0;
		memcpy(buf, at->value, at->value_len);
		buf[at->value_len] = '\0';
		arg.type = FXT_ARG_INT64;
		arg.i64 = strtoll(buf, &end, 10);
		if (*end) {
			arg.type = FXT_ARG_DOUBLE;
			arg.d = strtod(buf, &end);
			if (*end)
				return 0;
		}
		ev.nargs = 1;
		ev.args = &arg;
		break;
	case 'S':
	case 'F':
		if (!map_atrace_number(at->value, at->value_len, &v))
			return 0;
		ev.type = at->kind == 'S' ? FXT_EVENT_ASYNC_BEGIN :
					    FXT_EVENT_ASYNC_END;
		/*
		 * Cookies are the writing process's own; Perfetto keys FXT
		 * async slices by id alone, so the id is (tgid, cookie).
		 */
		ev.id = (uint64_t)(uint32_t)writer->pid << 32 | (uint32_t)v;
		break;
	}
	return fxt_write_event(map_w(ctx), &ev);
}

int map_marker_write(struct map_ctx *ctx, struct map_buffer *buf,
		     struct map_event *me, struct tep_record *rec,
		     const struct fxt_thread *thread)
{
	struct tep_format_field *f = me->sf[0];	/* buf */
	struct map_atrace at;
	const char *s;
	int len, text, ret;

	me->pkt_text_only = true;
	len = map_field_str(rec, f, &s);
	if (len < 0)
		return 0;
	text = len && s[len - 1] == '\n' ? len - 1 : len;
	ret = fxt_write_log(ctx->iw, rec->ts, thread, s, text);
	if (ret < 0)
		return ret;
	if (!map_atrace_parse(s, len, &at))
		return map_ftrace_print(ctx, me, rec, s, text);
	if (!ctx->opts->fxt_records)
		return map_ftrace_atrace(ctx, rec, s, len);
	return atrace_write(ctx, rec, thread, &at);
}
