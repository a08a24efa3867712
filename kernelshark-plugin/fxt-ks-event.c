// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-event.c - event ids: one per (record kind, category, name), each
 * with the field names its records carried, and the label KernelShark
 * shows for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-ks.h"
#include "tcfxt.h"

/*
 * sched_events' wakeup event: the first of these the file has
 * (fxt-ks-sched.c picks it by wakeup_rank, 1 for the first).
 */
static const char *const wakeup_names[] = {
	"sched_waking", "sched_wakeup_new", "sched_wakeup",
};

static int wakeup_rank(unsigned int kind, const char *cat, const char *name)
{
	unsigned int i;

	if (kind == FXT_KS_WAKEUP)
		return 0;
	if (kind != FXT_EVENT_INSTANT || strcmp(cat, "sched"))
		return -1;
	for (i = 0; i < sizeof(wakeup_names) / sizeof(*wakeup_names); i++)
		if (!strcmp(name, wakeup_names[i]))
			return (int)i + 1;
	return -1;
}

static uint32_t hash_bytes(uint32_t h, const char *s, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619U;
	return h;
}

static uint32_t event_hash(unsigned int kind, struct fxt_str cat,
			   struct fxt_str name)
{
	uint32_t h = 2166136261U ^ kind;

	h = hash_bytes(h, cat.ptr, cat.len);
	h = (h ^ '/') * 16777619U;
	return hash_bytes(h, name.ptr, name.len);
}

static char *dup_str(struct fxt_str s)
{
	char *p = malloc(s.len + 1);

	if (!p)
		return NULL;
	memcpy(p, s.ptr, s.len);
	p[s.len] = '\0';
	return p;
}

static bool event_is(const struct fxt_ks_event *ev, unsigned int kind,
		     struct fxt_str cat, struct fxt_str name)
{
	return ev->kind == kind && ev->cat_len == cat.len &&
	       ev->name_len == name.len &&
	       !memcmp(ev->category, cat.ptr, cat.len) &&
	       !memcmp(ev->name, name.ptr, name.len);
}

static int event_find(const struct fxt_ks_data *d, uint32_t h,
		      unsigned int kind, struct fxt_str cat,
		      struct fxt_str name)
{
	int i;

	for (i = d->buckets[h % FXT_KS_EVENT_BUCKETS]; i >= 0;
	     i = d->events[i].chain)
		if (d->events[i].hash == h &&
		    event_is(&d->events[i], kind, cat, name))
			return i;
	return -1;
}

static int event_add(struct fxt_ks_data *d, uint32_t h, unsigned int kind,
		     struct fxt_str cat, struct fxt_str name)
{
	struct fxt_ks_event *ev;

	if (d->nevents == d->events_cap) {
		unsigned int cap = d->events_cap ? d->events_cap * 2 : 64;

		ev = realloc(d->events, cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		d->events = ev;
		d->events_cap = cap;
	}
	ev = &d->events[d->nevents];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->category = dup_str(cat);
	ev->name = dup_str(name);
	if (!ev->category || !ev->name) {
		free(ev->category);
		free(ev->name);
		return -ENOMEM;
	}
	ev->cat_len = cat.len;
	ev->name_len = name.len;
	ev->is_switch = kind == FXT_KS_SWITCH ||
			(kind == FXT_EVENT_INSTANT &&
			 !strcmp(ev->category, "sched") &&
			 !strcmp(ev->name, "sched_switch"));
	ev->wakeup_rank = (int8_t)wakeup_rank(kind, ev->category, ev->name);
	ev->hash = h;
	ev->chain = d->buckets[h % FXT_KS_EVENT_BUCKETS];
	d->buckets[h % FXT_KS_EVENT_BUCKETS] = (int)d->nevents;
	return (int)d->nevents++;
}

int fxt_ks_event_get(struct fxt_ks_data *d, unsigned int kind,
		     struct fxt_str cat, struct fxt_str name)
{
	struct fxt_ks_cache_slot *slot;
	uint32_t h;
	int id;

	/*
	 * Producers name events through the string table, so the same event
	 * comes back with the same pointers: into the (immutable) map, or
	 * the reader's copy of a nested frame's string, which may be freed
	 * and its memory given to another text later; compare those before
	 * hashing any text, and a copy's text with the event's too.
	 */
	slot = &d->cache[(((uintptr_t)cat.ptr >> 3) * 31 +
			  ((uintptr_t)name.ptr >> 3) + kind) % FXT_KS_CACHE_SIZE];
	if (slot->cat == cat.ptr && slot->name == name.ptr &&
	    slot->cat_len == cat.len && slot->name_len == name.len &&
	    slot->kind == kind &&
	    ((fxt_ks_in_map(d, cat.ptr) && fxt_ks_in_map(d, name.ptr)) ||
	     event_is(&d->events[slot->event], kind, cat, name)))
		return slot->event;

	h = event_hash(kind, cat, name);
	id = event_find(d, h, kind, cat, name);
	if (id < 0) {
		if (d->nevents >= FXT_KS_MAX_EVENTS - 1) {
			static const struct fxt_str other = { "other", 5, 0 };
			static const struct fxt_str fxt = { "fxt", 3, 0 };

			kind = FXT_KS_OTHER;
			h = event_hash(kind, fxt, other);
			id = event_find(d, h, kind, fxt, other);
			if (id < 0)
				id = event_add(d, h, kind, fxt, other);
			return id;
		}
		id = event_add(d, h, kind, cat, name);
		if (id < 0)
			return id;
	}
	slot->cat = cat.ptr;
	slot->name = name.ptr;
	slot->cat_len = cat.len;
	slot->name_len = name.len;
	slot->kind = kind;
	slot->event = id;
	return id;
}

/*
 * Fields past this are dropped by the loader (-E2BIG): indexes must fit a
 * uint16_t, and past a few thousand names the "fields" are data anyway.
 */
#define FXT_KS_MAX_FIELDS	4096

int fxt_ks_event_field(struct fxt_ks_data *d, int event,
		       struct fxt_str name, unsigned int type,
		       unsigned int hint)
{
	struct fxt_ks_event *ev = &d->events[event];
	bool in_map = fxt_ks_in_map(d, name.ptr);
	struct fxt_ks_field *f;
	unsigned int i;

	/* Records of one event list their arguments in the same order. */
	if (in_map && hint < ev->nfields && ev->fields[hint].seen == name.ptr &&
	    ev->fields[hint].len == name.len)
		return (int)hint;
	for (i = 0; i < ev->nfields; i++) {
		f = &ev->fields[i];
		if (f->len != name.len)
			continue;
		if (in_map && f->seen == name.ptr)
			return (int)i;
		if (!memcmp(f->name, name.ptr, name.len)) {
			if (in_map)
				f->seen = name.ptr;
			return (int)i;
		}
	}
	if (ev->nfields >= FXT_KS_MAX_FIELDS)
		return -E2BIG;
	if (ev->nfields == ev->fields_cap) {
		unsigned int cap = ev->fields_cap ? ev->fields_cap * 2 : 8;

		f = realloc(ev->fields, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		ev->fields = f;
		ev->fields_cap = cap;
	}
	f = &ev->fields[ev->nfields];
	f->name = dup_str(name);
	if (!f->name)
		return -ENOMEM;
	f->len = name.len;
	f->type = (uint8_t)type;
	f->seen = in_map ? name.ptr : NULL;
	return (int)ev->nfields++;
}

bool fxt_ks_layout_same(const struct fxt_ks_data *d, int event,
			const struct fxt_arg *args, unsigned int nargs)
{
	const struct fxt_ks_event *ev = &d->events[event];

	return nargs && ev->layout_n == nargs &&
	       ev->layout_name == args[0].name.ptr;
}

int fxt_ks_fields_note(struct fxt_ks_data *d, int event,
		       const struct fxt_arg *args, unsigned int nargs,
		       bool same_layout)
{
	struct fxt_ks_event *ev = &d->events[event];
	unsigned int i, pos = 0;
	int ret;

	if (same_layout && fxt_ks_layout_same(d, event, args, nargs))
		return 0;
	for (i = 0; i < nargs; i++) {
		/* as the loader stores them: renderings are libtraceevent's */
		if (args[i].type >= FXT_ARG_TYPE_COUNT ||
		    tcfxt_has_suffix(args[i].name, TCFXT_TEXT_SUFFIX))
			continue;
		ret = fxt_ks_event_field(d, event, args[i].name,
					 args[i].type, pos++);
		if (ret == -ENOMEM)
			return ret;
	}
	if (same_layout && nargs) {
		ev->layout_n = nargs;
		ev->layout_name = args[0].name.ptr;
	}
	return 0;
}

int fxt_ks_field_find(const struct fxt_ks_data *d, int event,
		      const char *name)
{
	const struct fxt_ks_event *ev;
	unsigned int i;

	if (event < 0 || (unsigned int)event >= d->nevents || !name)
		return -1;
	ev = &d->events[event];
	for (i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return (int)i;
	return -1;
}

static const char *const kind_suffix[FXT_KS_KIND_COUNT] = {
	[FXT_EVENT_INSTANT]		= "",
	[FXT_EVENT_COUNTER]		= " (counter)",
	[FXT_EVENT_DURATION_BEGIN]	= " (begin)",
	[FXT_EVENT_DURATION_END]	= " (end)",
	[FXT_EVENT_DURATION_COMPLETE]	= " (complete)",
	[FXT_EVENT_ASYNC_BEGIN]		= " (async begin)",
	[FXT_EVENT_ASYNC_INSTANT]	= " (async instant)",
	[FXT_EVENT_ASYNC_END]		= " (async end)",
	[FXT_EVENT_FLOW_BEGIN]		= " (flow begin)",
	[FXT_EVENT_FLOW_STEP]		= " (flow step)",
	[FXT_EVENT_FLOW_END]		= " (flow end)",
	[FXT_KS_SWITCH]			= "",
	[FXT_KS_WAKEUP]			= "",
	[FXT_KS_LOG]			= "",
	[FXT_KS_LARGE_BLOB]		= " (blob)",
	[FXT_KS_OTHER]			= "",
};

/*
 * Instants are the common case (every ftrace event the converter keeps)
 * and are labelled "category/name" as trace.dat streams label them.  A
 * counter carries a counter-like ftrace event, so it keeps the bare name
 * too unless an instant already uses it; the other kinds say what they are.
 */
int fxt_ks_events_label(struct fxt_ks_data *d)
{
	unsigned int i;

	for (i = 0; i < d->nevents; i++) {
		struct fxt_ks_event *ev = &d->events[i];
		const char *suffix = kind_suffix[ev->kind];

		if (ev->kind == FXT_EVENT_COUNTER) {
			struct fxt_str c = fxt_str_make(ev->category,
							ev->cat_len);
			struct fxt_str n = fxt_str_make(ev->name,
							ev->name_len);

			if (event_find(d, event_hash(FXT_EVENT_INSTANT, c, n),
				       FXT_EVENT_INSTANT, c, n) < 0)
				suffix = "";
		}
		ev->missed = ev->kind == FXT_EVENT_INSTANT &&
			     !strcmp(ev->category, TCFXT_CAT) &&
			     !strcmp(ev->name, TCFXT_LOST_EVENTS);
		free(ev->label);
		if (asprintf(&ev->label, "%s/%s%s", ev->category, ev->name,
			     suffix) < 0) {
			ev->label = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void fxt_ks_events_free(struct fxt_ks_data *d)
{
	unsigned int i, j;

	for (i = 0; i < d->nevents; i++) {
		struct fxt_ks_event *ev = &d->events[i];

		for (j = 0; j < ev->nfields; j++)
			free(ev->fields[j].name);
		free(ev->fields);
		free(ev->category);
		free(ev->name);
		free(ev->label);
	}
	free(d->events);
	d->events = NULL;
	d->nevents = d->events_cap = 0;
}
