// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin_eventheader.c - plugin_eventheader.so, a libtraceevent plugin that
 * prints user_events following the EventHeader convention as decoded
 * events (layout: eh-print.h), in trace-cmd report, KernelShark and any
 * other libtraceevent host:
 *
 *	Provider_L5K1: Provider:EventName field=value ... level=5 keyword=0x1
 *
 * Every other event prints exactly as it does without the plugin.
 *
 * libtraceevent loads plugins before it parses any format, and user_events
 * are named by the processes that register them; eh-attach.h explains how
 * the handler still reaches every user_events event, and its limits.
 *
 * The handler checks the event's fields (eh_tep_header_offset(), fxt-tep.h) and returns 1 - "print
 * it the usual way" - for user_events that are not EventHeader and for
 * records that are not EventHeader events, so libtraceevent prints those
 * as it would without the plugin.  A record that claims to be EventHeader
 * but is malformed prints the usual way followed by the decoder's
 * complaint in brackets.  The handler is not reentrant across threads,
 * like libtraceevent's printing itself.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "eventheader.h"
#include "eh-attach.h"
#include "eh-print.h"
#include "fxt-tep.h"

#define EH_EXPORT	__attribute__((visibility("default")))

struct eh_plugin {
	struct tep_handle	*tep;
	struct eh_attach	attach;
	struct eh_decoder	*dec;
	struct trace_seq	line;
	bool			in_default;	/* printing as usual */
};

int tep_plugin_loader(struct tep_handle *tep) EH_EXPORT;
int tep_plugin_unloader(struct tep_handle *tep) EH_EXPORT;

/*
 * One state per tep handle, since a host may open several files; the
 * unloader is given the tep only.
 */
static struct eh_plugin **eh_plugins;
static size_t eh_nr_plugins;

static struct eh_plugin *eh_plugin_find(struct tep_handle *tep, size_t *idx)
{
	size_t i;

	for (i = 0; i < eh_nr_plugins; i++) {
		if (eh_plugins[i]->tep == tep) {
			if (idx)
				*idx = i;
			return eh_plugins[i];
		}
	}
	return NULL;
}

/* The record as libtraceevent prints it without the plugin. */
static void eh_print_default(struct eh_plugin *p, struct trace_seq *s,
			     struct tep_record *record)
{
	p->in_default = true;
	tep_print_event(p->tep, s, record, "%s", TEP_PRINT_INFO);
	p->in_default = false;
}

static int eh_handler(struct trace_seq *s, struct tep_record *record,
		      struct tep_event *event, void *context)
{
	struct eh_plugin *p = context;
	size_t name_len;
	int off, ret;

	if (p->in_default)
		return 1;
	eh_attach_update(&p->attach);

	off = eh_tep_header_offset(event, &name_len);
	if (off < 0 || off > record->size)
		return 1;
	ret = eh_decoder_start(p->dec, event->name, name_len,
			       (const char *)record->data + off,
			       record->size - off);
	if (ret == -EINVAL || ret == -ENOTSUP)
		return 1;
	if (!ret) {
		/* Into a line of our own: a malformed event prints nothing. */
		trace_seq_reset(&p->line);
		ret = eh_print_event(&p->line, p->dec);
		if (!ret) {
			trace_seq_terminate(&p->line);
			trace_seq_puts(s, p->line.buffer);
			return 0;
		}
	}
	eh_print_default(p, s, record);
	trace_seq_printf(s, " [EventHeader: %s]",
			 *eh_decoder_strerror(p->dec) ?
			 eh_decoder_strerror(p->dec) : strerror(-ret));
	return 0;
}

static void eh_plugin_free(struct eh_plugin *p)
{
	if (p->dec)
		eh_decoder_free(p->dec);
	trace_seq_destroy(&p->line);
	free(p);
}

int tep_plugin_loader(struct tep_handle *tep)
{
	struct eh_plugin *p, **list;

	if (eh_plugin_find(tep, NULL))
		return 0;
	list = realloc(eh_plugins, (eh_nr_plugins + 1) * sizeof(*list));
	if (!list)
		return -1;
	eh_plugins = list;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -1;
	p->tep = tep;
	trace_seq_init(&p->line);
	p->dec = eh_decoder_new();
	if (!p->dec || eh_attach_start(&p->attach, tep, eh_handler, p) < 0) {
		eh_plugin_free(p);
		return -1;
	}
	eh_plugins[eh_nr_plugins++] = p;
	return 0;
}

int tep_plugin_unloader(struct tep_handle *tep)
{
	struct eh_plugin *p;
	size_t idx;

	p = eh_plugin_find(tep, &idx);
	if (!p)
		return 0;
	eh_attach_stop(&p->attach);
	eh_plugins[idx] = eh_plugins[--eh_nr_plugins];
	if (!eh_nr_plugins) {
		free(eh_plugins);
		eh_plugins = NULL;
	}
	eh_plugin_free(p);
	return 0;
}
