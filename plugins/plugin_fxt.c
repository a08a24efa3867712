// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin_fxt.c - libtraceevent plugin: print the fxt events of a .dat
 * that trace-fxt converted from FXT the way trace-fxt report prints the
 * FXT after its event column: "category:name (duration N ns) key=value
 * ..." for a complete duration, "(id N)" for counters, async and flow
 * events, each value as its FXT type prints (integers in decimal, doubles
 * in full, pointers and koids as such, strings as they are), and fxt/log
 * as its message.  A string holding a NUL or another control character
 * is the exception: printed raw it would end the text early or break
 * trace-cmd report's one line per event, so it is printed quoted with C
 * escapes, as trace-fxt report and dump print it.  What report says that
 * one record cannot (docs/READERS.md): an instant's event column, and a
 * duration end's length (report pairs it with its begin).
 *
 * The events' names are fixed, so one pending handler per name does:
 * libtraceevent attaches it when the .dat's fxt formats are parsed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "fxt-args.h"
#include "fxt-print.h"
#include "tcfxt.h"

#define FXT_EXPORT __attribute__((visibility("default")))

FXT_EXPORT int tep_plugin_loader(struct tep_handle *tep);
FXT_EXPORT int tep_plugin_unloader(struct tep_handle *tep);

/* More than one FXT record holds, for lists a producer stitched. */
#define MAX_ARGS	256

static const void *field_bytes(struct trace_seq *s, struct tep_event *event,
			       struct tep_record *record, const char *name,
			       int *len)
{
	return tep_get_field_raw(s, event, name, record, len, 0);
}

/* A __data_loc char[] field's text, its final NUL left out. */
static const char *field_text(struct trace_seq *s, struct tep_event *event,
			      struct tep_record *record, const char *name,
			      size_t *len)
{
	int n = 0;
	const char *p = field_bytes(s, event, record, name, &n);

	*len = p && n > 0 ? (size_t)n : 0;
	if (*len && !p[*len - 1])
		(*len)--;
	return p;
}

/*
 * @p/@len by its length, never as a C string: a NUL is text here.  Text
 * that trace-cmd report could not show on one line goes through the
 * core's quoting escaper.
 */
static void put_text(struct trace_seq *s, const char *p, size_t len)
{
	char small[256], *buf = small;
	struct fxt_str str = fxt_str_make(p, len);
	int n;

	if (!fxt_str_needs_quote(str)) {
		trace_seq_printf(s, "%.*s", (int)len, p);
		return;
	}
	n = fxt_print_str(small, sizeof(small), str, FXT_PRINT_QUOTE);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			trace_seq_puts(s, "[no memory]");
			return;
		}
		fxt_print_str(buf, (size_t)n + 1, str, FXT_PRINT_QUOTE);
	}
	trace_seq_printf(s, "%.*s", n, buf);
	if (buf != small)
		free(buf);
}

static void put_arg(struct trace_seq *s, const struct fxt_arg *a)
{
	char buf[64];
	int n;

	trace_seq_putc(s, ' ');
	put_text(s, a->name.ptr, a->name.len);
	trace_seq_putc(s, '=');
	if (a->type == FXT_ARG_STRING) {
		put_text(s, a->str.ptr, a->str.len);
		return;
	}
	/* Any other value is a number or a word: 64 bytes hold it. */
	n = fxt_print_arg_value(buf, sizeof(buf), a, 0);
	trace_seq_printf(s, "%.*s", n < (int)sizeof(buf) ? n :
			 (int)sizeof(buf) - 1, buf);
}

/*
 * What report prints after the name: a duration, or an id.  @type is the
 * FXT event type the handler was registered for (its context).
 */
static void put_extra(struct trace_seq *s, struct tep_event *event,
		      struct tep_record *record, unsigned int type)
{
	unsigned long long v;

	switch (type) {
	case FXT_EVENT_INSTANT:
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		return;
	case FXT_EVENT_DURATION_COMPLETE:
		if (!tep_get_field_val(NULL, event, "end_ts", record, &v, 0))
			trace_seq_printf(s, " (duration %lld ns)",
					 (long long)(v - record->ts));
		return;
	default:
		if (!tep_get_field_val(NULL, event, "id", record, &v, 0))
			trace_seq_printf(s, " (id %llu)", v);
		return;
	}
}

static int fxt_event_handler(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	struct fxt_arg args[MAX_ARGS];
	const char *cat, *name;
	const void *raw;
	size_t clen, nlen;
	int alen = 0, n;
	unsigned int done, i;

	cat = field_text(s, event, record, "category", &clen);
	name = field_text(s, event, record, "name", &nlen);
	if (!cat || !name)
		return 1;	/* not our layout: libtraceevent prints it */
	put_text(s, cat, clen);
	trace_seq_putc(s, ':');
	put_text(s, name, nlen);
	put_extra(s, event, record, (unsigned int)(uintptr_t)context);
	raw = field_bytes(s, event, record, "args", &alen);
	if (!raw || alen <= 0)
		return 0;
	n = fxt_args_decode(raw, alen, args, MAX_ARGS, &done);
	for (i = 0; i < done; i++)
		put_arg(s, &args[i]);
	if (n < 0)
		trace_seq_puts(s, " [bad argument list]");
	return 0;
}

/* fxt/log: the message, as report prints it. */
static int fxt_log_handler(struct trace_seq *s, struct tep_record *record,
			   struct tep_event *event, void *context)
{
	size_t len;
	const char *msg = field_text(s, event, record, "msg", &len);

	if (!msg)
		return 1;
	put_text(s, msg, len);
	return 0;
}

/*
 * The fxt/<type> events, named as trace-fxt names them: by the core's
 * name of each FXT event type; then fxt/log.  Handler i is registered
 * with i as its context: fxt_event_handler() learns its type from it.
 */
#define NR_FXT_EVENTS	(FXT_EVENT_TYPE_COUNT + 1)

static const char *handled_name(unsigned int i)
{
	return i < FXT_EVENT_TYPE_COUNT ? fxt_event_type_name(i) : TCFXT_FXT_LOG;
}

static tep_event_handler_func handled_fn(unsigned int i)
{
	return i < FXT_EVENT_TYPE_COUNT ? fxt_event_handler : fxt_log_handler;
}

static void unregister_first(struct tep_handle *tep, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tep_unregister_event_handler(tep, -1, TCFXT_SYSTEM_FXT,
					     handled_name(i), handled_fn(i),
					     (void *)(uintptr_t)i);
}

FXT_EXPORT int tep_plugin_loader(struct tep_handle *tep)
{
	unsigned int i;

	/* A positive return only says that an earlier handler was replaced. */
	for (i = 0; i < NR_FXT_EVENTS; i++) {
		if (tep_register_event_handler(tep, -1, TCFXT_SYSTEM_FXT,
					       handled_name(i), handled_fn(i),
					       (void *)(uintptr_t)i) < 0) {
			/* No half-installed plugin: events print one way. */
			unregister_first(tep, i);
			return -1;
		}
	}
	return 0;
}

FXT_EXPORT int tep_plugin_unloader(struct tep_handle *tep)
{
	/* Handlers already gone (never loaded, unloaded twice) are fine. */
	unregister_first(tep, NR_FXT_EVENTS);
	return 0;
}
