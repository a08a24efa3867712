/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eh-attach.h - put one event handler on every user_events event of a tep
 * handle, with libtraceevent 1.7's API, from a plugin loader that runs
 * before any format is parsed.
 *
 * The problem
 * -----------
 * libtraceevent runs plugin loaders when the tep handle is created, before
 * any format is parsed (libtracecmd's tracecmd_alloc_fd(); KernelShark
 * opens .dat files through libtracecmd too).  A handler registered then for
 * an unknown event is kept pending; when a format is parsed, the first
 * pending handler whose (id, system, name) matches it - -1 and NULL match
 * anything - is attached to that event and dropped from the list.  The
 * names of user_events are chosen by the processes that register them, so
 * the only key known in advance is the system, "user_events", and one
 * pending handler serves one event.  Nothing else a plugin can register
 * runs once the formats are parsed (print functions are only called from
 * print formats that name them; user_events' never do).
 *
 * The strategy
 * ------------
 *  1. eh_attach_start() registers EH_ATTACH_PENDING pending handlers for
 *     ("user_events", any name, any id): the first EH_ATTACH_PENDING
 *     user_events formats of a file get the handler as they are parsed.
 *  2. The handler calls eh_attach_update() first thing; when the tep has
 *     events not looked at yet, it attaches the handler directly to every
 *     user_events event still without one.  So a file with more
 *     user_events formats than that is covered as soon as one record of
 *     an event that has the handler is printed.
 *  3. A loader that runs after formats were parsed (a host loading
 *     plugins late) attaches directly, as in 2.
 *  4. eh_attach_stop(), for the unloader, gets rid of the pending handlers
 *     no format took.  They must not outlive the plugin: libtraceevent
 *     compares the name of every pending handler it walks past when
 *     another plugin unregisters one of its own (handle_matches()), and
 *     ours have none - trace-cmd report crashes in Debian's plugin_kmem.so
 *     unloader if they are left.  Nor can they be unregistered once
 *     events exist: tep_unregister_event_handler() with id -1 looks the
 *     event up by name first, comparing the NULL (tep_find_event_by_name).
 *     So eh_attach_stop() lets libtraceevent take them as it takes any
 *     pending handler: it parses one placeholder user_events format
 *     ("eventheader_plugin_pending") per leftover, then detaches the
 *     handler from every event.
 *
 * Limits: records of user_events formats parsed after the first
 * EH_ATTACH_PENDING print undecoded until a record of an event that has
 * the handler is printed.  The placeholders stay in the tep until
 * tep_free(), which hosts call right after unloading the plugins; they
 * cost one small format parse per unused pending handler.  Other plugins'
 * user_events handlers keep their events: only events without a handler
 * are taken.  Multi-format user_events (Linux 6.10+: system
 * user_events_multi, tracepoints "<name>.<hex id>") are not handled:
 * libtraceevent up to 1.8.4 cannot parse their formats at all, the '.'
 * ending the name token (trace-cmd shows them as [UNKNOWN EVENT]).
 */
#ifndef _PLUGINS_EH_ATTACH_H
#define _PLUGINS_EH_ATTACH_H

#include <event-parse.h>

/*
 * Far more EventHeader tracepoints than a trace usually holds (a process
 * registers one per provider, level and keyword it uses).
 */
#define EH_ATTACH_PENDING	512

struct eh_attach {
	struct tep_handle	*tep;
	tep_event_handler_func	func;
	void			*context;
	int			seen;		/* events at last update */
	int			pending;	/* pending ones registered */
	int			direct;		/* attached by updates */
};

/* Steps 1 and 3.  Returns 0 or -ENOMEM. */
int eh_attach_start(struct eh_attach *a, struct tep_handle *tep,
		    tep_event_handler_func func, void *context);

/* Step 2: cheap when no event was added since the last call. */
void eh_attach_update(struct eh_attach *a);

/* Step 4: no pending handler left, the handler off every event. */
void eh_attach_stop(struct eh_attach *a);

#endif /* _PLUGINS_EH_ATTACH_H */
