// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin_fxt.c - libtraceevent plugin: print the fxt events of a .dat
 * that trace-fxt converted from FXT the way trace-fxt report prints the
 * FXT, "category:name key=value ...", each value as its FXT type prints
 * (integers in decimal, doubles in full, pointers and koids as such,
 * strings as they are).
 *
 * The events' names are fixed, so one pending handler per name does:
 * libtraceevent attaches it when the .dat's fxt formats are parsed.
 */
#include <stdlib.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "fxt-args.h"
#include "fxt-print.h"

#define FXT_EXPORT __attribute__((visibility("default")))

FXT_EXPORT int tep_plugin_loader(struct tep_handle *tep);
FXT_EXPORT void tep_plugin_unloader(struct tep_handle *tep);

/* More than one FXT record holds, for lists a producer stitched. */
#define MAX_ARGS	256

static const char *const fxt_events[] = {
	"instant", "counter", "duration_begin", "duration_end",
	"duration_complete", "async_begin", "async_instant", "async_end",
	"flow_begin", "flow_step", "flow_end",
};

static const void *field_bytes(struct trace_seq *s, struct tep_event *event,
			       struct tep_record *record, const char *name,
			       int *len)
{
	return tep_get_field_raw(s, event, name, record, len, 0);
}

static int fxt_event_handler(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	struct fxt_arg args[MAX_ARGS];
	const char *cat, *name;
	const void *raw;
	int clen = 0, nlen = 0, alen = 0, n;
	unsigned int done;
	char small[512], *buf = small;

	cat = field_bytes(s, event, record, "category", &clen);
	name = field_bytes(s, event, record, "name", &nlen);
	if (!cat || !name)
		return 1;	/* not our layout: libtraceevent prints it */
	trace_seq_printf(s, "%.*s:%.*s", (int)strnlen(cat, clen), cat,
			 (int)strnlen(name, nlen), name);
	raw = field_bytes(s, event, record, "args", &alen);
	if (!raw || alen <= 0)
		return 0;
	n = fxt_args_decode(raw, alen, args, MAX_ARGS, &done);
	if (done) {
		int need = fxt_print_args(buf, sizeof(small), args, done, 0);

		if (need >= (int)sizeof(small)) {
			buf = malloc(need + 1);
			if (buf)
				fxt_print_args(buf, need + 1, args, done, 0);
		}
		if (buf)
			trace_seq_printf(s, " %s", buf);
		if (buf != small)
			free(buf);
	}
	if (n < 0)
		trace_seq_puts(s, " [bad argument list]");
	return 0;
}

FXT_EXPORT int tep_plugin_loader(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(fxt_events) / sizeof(fxt_events[0]); i++)
		tep_register_event_handler(tep, -1, "fxt", fxt_events[i],
					   fxt_event_handler, NULL);
	return 0;
}

FXT_EXPORT void tep_plugin_unloader(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(fxt_events) / sizeof(fxt_events[0]); i++)
		tep_unregister_event_handler(tep, -1, "fxt", fxt_events[i],
					     fxt_event_handler, NULL);
}
