// SPDX-License-Identifier: GPL-2.0-only
/*
 * eh-attach.c - one handler on every user_events event of a tep, whenever
 * the formats are parsed (the strategy and its limits: eh-attach.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "eh-attach.h"

/* Single-format user_events; eh-attach.h says why not the multi-format. */
#define EH_ATTACH_SYSTEM	"user_events"

static bool eh_attach_ours(const struct eh_attach *a,
			   const struct tep_event *event)
{
	return event && event->handler == a->func &&
	       event->context == a->context;
}

void eh_attach_update(struct eh_attach *a)
{
	int i, n = tep_get_events_count(a->tep);
	struct tep_event *event;

	if (n == a->seen)
		return;
	for (i = 0; i < n; i++) {
		event = tep_get_event(a->tep, i);
		if (!event || event->handler || !event->system ||
		    strcmp(event->system, EH_ATTACH_SYSTEM))
			continue;
		/* By id: the lookup by name would compare a NULL. */
		if (tep_register_event_handler(a->tep, event->id,
					       event->system, event->name,
					       a->func, a->context) >= 0)
			a->direct++;
	}
	a->seen = n;
}

int eh_attach_start(struct eh_attach *a, struct tep_handle *tep,
		    tep_event_handler_func func, void *context)
{
	memset(a, 0, sizeof(*a));
	a->tep = tep;
	a->func = func;
	a->context = context;
	a->seen = -1;

	/* Pending handlers by a NULL name only while no event exists. */
	if (tep_get_events_count(tep)) {
		eh_attach_update(a);
		return 0;
	}
	for (; a->pending < EH_ATTACH_PENDING; a->pending++) {
		if (tep_register_event_handler(tep, -1, EH_ATTACH_SYSTEM, NULL,
					       func, context) < 0) {
			eh_attach_stop(a);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Events that have the handler; the highest event id. */
static int eh_attach_count(const struct eh_attach *a, int *max_id)
{
	int i, n = tep_get_events_count(a->tep), count = 0;
	struct tep_event *event;

	*max_id = 0;
	for (i = 0; i < n; i++) {
		event = tep_get_event(a->tep, i);
		if (event && event->id > *max_id)
			*max_id = event->id;
		count += eh_attach_ours(a, event);
	}
	return count;
}

/* Have libtraceevent take the pending handlers that no format took. */
static void eh_attach_drain(struct eh_attach *a)
{
	struct tep_event *event;
	int left, id, len;
	char fmt[256];

	if (!tep_get_events_count(a->tep)) {
		while (!tep_unregister_event_handler(a->tep, -1,
						     EH_ATTACH_SYSTEM, NULL,
						     a->func, a->context))
			;
		return;
	}
	left = a->pending - (eh_attach_count(a, &id) - a->direct);
	while (left-- > 0 && id < INT_MAX) {
		len = snprintf(fmt, sizeof(fmt),
			       "name: eventheader_plugin_pending\n"
			       "ID: %d\n"
			       "format:\n"
			       "\tfield:unsigned short common_type;\toffset:0;"
			       "\tsize:2;\tsigned:0;\n\n"
			       "\tfield:u8 unused;\toffset:2;"
			       "\tsize:1;\tsigned:0;\n\n"
			       "print fmt: \"unused=%%u\", REC->unused\n",
			       ++id);
		event = NULL;
		/* One that does not take ours means none is left. */
		if (tep_parse_format(a->tep, &event, fmt, len,
				     EH_ATTACH_SYSTEM) ||
		    !eh_attach_ours(a, event))
			break;
	}
}

void eh_attach_stop(struct eh_attach *a)
{
	struct tep_event *event;
	int i, n;

	if (!a->tep)
		return;
	eh_attach_drain(a);
	n = tep_get_events_count(a->tep);
	for (i = 0; i < n; i++) {
		event = tep_get_event(a->tep, i);
		if (eh_attach_ours(a, event))
			tep_unregister_event_handler(a->tep, event->id,
						     event->system,
						     event->name, a->func,
						     a->context);
	}
	a->tep = NULL;
}
