// SPDX-License-Identifier: GPL-2.0-only
/*
 * pft2dat-instances.c - which ftrace instance each sequence's bundles
 * came from, and so the .dat buffer they go to (pft2dat-meta.c reads
 * what the trace says of it: the config's data sources, the trace
 * buffer each sequence writes).  No field of a bundle names its
 * instance; a sequence is one data source's writer, but no packet names
 * the data source.  When several data sources write one trace buffer
 * (or no stats say which buffer a sequence writes, the trace cut short)
 * what tells them apart is what each was asked to record: the first
 * pass notes, for each sequence, the data sources whose ftrace_events
 * name each of its events (the kernel writes an instance's events only
 * where enabled), and a sequence whose events one instance alone names
 * all of is that instance's.  Events no data source names (enabled by
 * Perfetto for its own needs) tell nothing; two instances asked for the
 * same events stay untold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto-proto.h"
#include "pft2dat-intern.h"

/*
 * What a hostile trace may make this cost: the data sources told apart
 * (their first PFT_DS_MAX_EVENTS ftrace_events each), and the events
 * looked up by name (each (sequence, event) once, a legacy generic event
 * each time); past that, events tell nothing more.  A real trace has a
 * few instances and a few hundred events.
 */
#define INST_MAX_DS		16
#define INST_MAX_LOOKUPS	16384
/* a sequence's mask: some event was named (bit 63) */
#define INST_SEEN	(1ULL << 63)
/* compact sched's events, as FtraceEvent fields no message has */
#define INST_SWITCH	(1u << 31)
#define INST_WAKING	(INST_SWITCH + 1)

/* Whether @pat, a spelling of ftrace_events, names @sys/@name. */
static bool pattern_names(const char *pat, const char *sys, size_t slen,
			  const char *name, size_t nlen)
{
	const char *slash = strchr(pat, '/');

	if (!slash)
		return strlen(pat) == nlen && !memcmp(pat, name, nlen);
	/* an event of no group (a legacy generic one): by its name */
	if (sys && ((size_t)(slash - pat) != slen || memcmp(pat, sys, slen)))
		return false;
	return !strcmp(slash + 1, "*") ||
	       (strlen(slash + 1) == nlen && !memcmp(slash + 1, name, nlen));
}

/* The data sources whose ftrace_events name @sys/@name, a bit each. */
static uint64_t named_by(const struct pft_ctx *c, const char *sys,
			 size_t slen, const char *name, size_t nlen)
{
	uint64_t mask = 0;
	unsigned int d, e;

	for (d = 0; d < c->nr_dss && d < INST_MAX_DS; d++)
		for (e = 0; e < c->dss[d].nr_events; e++)
			if (pattern_names(c->dss[d].events[e], sys, slen,
					  name, nlen)) {
				mask |= 1ULL << d;
				break;
			}
	return mask;
}

/* The current sequence has an event named by @mask's data sources. */
static int seq_note(struct pft_ctx *c, uint64_t mask)
{
	uint64_t *v;

	if (!mask)
		return 0;
	v = u64_map_put(&c->inst_seq, c->cur_seq);
	if (!v)
		return -ENOMEM;
	*v = *v ? *v & (mask | INST_SEEN) : mask | INST_SEEN;
	return 0;
}

/* The data sources naming event @id of a bundle (@p, @len); -ENOMEM. */
static int64_t event_named_by(struct pft_ctx *c, uint32_t id,
			      const uint8_t *p, size_t len,
			      const struct pb_field *body)
{
	const char *sys = "sched", *name;
	size_t slen, nlen;
	int ret;

	if (c->inst_lookups >= INST_MAX_LOOKUPS)
		return 0;
	c->inst_lookups++;
	if (id == INST_SWITCH || id == INST_WAKING) {
		name = id == INST_SWITCH ? "sched_switch" : "sched_waking";
		slen = strlen(sys);
		nlen = strlen(name);
	} else {
		ret = pft_event_name(c, id, p, len, body, &sys, &slen, &name,
				     &nlen);
		if (ret)
			return ret == -ENOMEM ? ret : 0;
	}
	return (int64_t)named_by(c, sys, slen, name, nlen);
}

/* Event @id of the current sequence: its data sources, found once. */
static int event_note(struct pft_ctx *c, uint32_t id, const uint8_t *p,
		      size_t len, const struct pb_field *body)
{
	int64_t mask;
	uint64_t *v;

	/* a legacy generic event names itself, each its own */
	if (id == PFT_EV_GENERIC) {
		mask = event_named_by(c, id, p, len, body);
		return mask < 0 ? (int)mask : seq_note(c, (uint64_t)mask);
	}
	v = u64_map_put(&c->inst_named, c->cur_seq << 32 | id);
	if (!v)
		return -ENOMEM;
	/* seen before on this sequence: its data sources already noted */
	if (*v)
		return 0;
	mask = event_named_by(c, id, p, len, body);
	if (mask < 0)
		return (int)mask;
	*v = (uint64_t)mask + 1;
	return seq_note(c, (uint64_t)mask);
}

int pft_inst_bundle(struct pft_ctx *c, const uint8_t *p, size_t len)
{
	struct pb_reader r, er;
	struct pb_field f, g, body;
	int ret = 0;

	if (!c->dss_several)
		return 0;
	pb_reader_init(&r, p, len);
	while (!ret && pb_next(&r, &f) > 0) {
		if (f.id == PFT_BUNDLE_COMPACT_SCHED && f.wt == PB_LEN) {
			ret = event_note(c, INST_SWITCH, p, len, NULL);
			if (!ret)
				ret = event_note(c, INST_WAKING, p, len, NULL);
			continue;
		}
		if (f.id != PFT_BUNDLE_EVENT || f.wt != PB_LEN)
			continue;
		/* the event's message: as one_event() finds it */
		body.id = 0;
		pb_reader_init(&er, f.p, f.len);
		while (pb_next(&er, &g) > 0)
			if (g.wt == PB_LEN && g.id > 2)
				body = g;
		if (body.id && body.id < INST_SWITCH)
			ret = event_note(c, body.id, p, len, &body);
	}
	return ret;
}

/*
 * The instance whose ftrace_events alone name every event of sequence
 * @seq that some data source names, of those writing trace buffer @tb
 * (UINT64_MAX: any); NULL when none or several.
 */
static const char *inst_told(const struct pft_ctx *c, uint64_t seq,
			     uint64_t tb)
{
	uint64_t mask = u64_map_get(&c->inst_seq, seq & PFT_SEQ_MASK);
	const char *name = NULL;
	unsigned int d;

	if (!mask)
		return NULL;
	for (d = 0; d < c->nr_dss && d < INST_MAX_DS; d++) {
		if (!(mask >> d & 1) ||
		    (tb != UINT64_MAX && c->dss[d].target != tb))
			continue;
		if (!name)
			name = c->dss[d].instance;
		else if (strcmp(name, c->dss[d].instance))
			return NULL;
	}
	return name;
}

/* "@what@more" into st->instances, once, "; " between. */
static void say_instance(struct pft_ctx *c, const char *what,
			 const char *more)
{
	size_t len = strlen(c->st->instances);
	char line[224];

	snprintf(line, sizeof(line), "%.100s%s", what, more);
	if (strstr(c->st->instances, line))
		return;
	snprintf(c->st->instances + len, sizeof(c->st->instances) - len,
		 "%s%s", len ? "; " : "", line);
}

/*
 * The instance whose events trace buffer @tb holds: NULL none, and
 * *@several when more than one write it (which sequence is whose is
 * then told by their events, inst_told()).
 */
static const char *buffer_instance(struct pft_ctx *c, uint64_t tb,
				   bool *several)
{
	const char *name = NULL;
	unsigned int d;

	*several = false;
	for (d = 0; d < c->nr_dss; d++) {
		if (c->dss[d].target != tb)
			continue;
		if (!name)
			name = c->dss[d].instance;
		else if (strcmp(name, c->dss[d].instance))
			*several = true;
	}
	return name;
}

/*
 * Sequence @seq's events to the .dat buffer of its instance's name: the
 * one instance its trace buffer holds, else the one its events tell;
 * the top buffer when neither says.
 */
static int seq_instance(struct pft_ctx *c, uint64_t seq)
{
	uint64_t tb = u64_map_get(&c->seq_tbuf, seq) - 1;
	const char *name, *how = "";
	char what[160];
	bool several;
	int idx;

	name = buffer_instance(c, tb, &several);
	if (several || !name) {
		name = inst_told(c, seq, several ? tb : UINT64_MAX);
		how = ", told by its events";
		if (!name && several) {
			snprintf(what, sizeof(what), "trace buffer %llu",
				 (unsigned long long)tb);
			say_instance(c, what, " holds several instances' "
				     "events: those no one instance's events "
				     "tell in the top buffer");
		}
	}
	if (!name || !*name) {
		if (name && *how)
			say_instance(c, "the top instance", ", told by its "
				     "events, as the top buffer");
		return 0;
	}
	/* the writer keeps a page per buffer and CPU open */
	idx = f2d_buffer_named(&c->f2d, name, PFT_MAX_BUFFERS);
	if (idx == -ENOSPC) {
		snprintf(what, sizeof(what), "more than %d",
			 PFT_MAX_BUFFERS - 1);
		say_instance(c, what, ": the others' events in the top buffer");
		return 0;
	}
	if (idx < 0 || u64_map_set(&c->seq_dat, seq, (uint64_t)idx + 1))
		return -ENOMEM;
	snprintf(what, sizeof(what), " as buffer %.100s%s", name, how);
	say_instance(c, name, what);
	return 0;
}

/*
 * One instance (Perfetto's recorder reads one of its own, "perfetto",
 * not to clash with tracefs's other users): the top buffer, as trace-cmd
 * records one.  Several: the top one in the top buffer, each other in
 * the buffer of its name.
 */
int pft_inst_assign(struct pft_ctx *c)
{
	uint64_t *seqs;
	size_t i, n = 0;
	int ret = 0;

	if (!c->dss_several) {
		if (c->nr_dss && *c->dss[0].instance)
			say_instance(c, c->dss[0].instance,
				     ", the only one, as the top buffer");
		return 0;
	}
	/* in sequence order: the same .dat from the same trace */
	seqs = u64_map_keys(&c->seq_tbuf, &n);
	if (!seqs && c->seq_tbuf.nr)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		ret = seq_instance(c, seqs[i]);
	free(seqs);
	/* then those no stats place in a trace buffer (a trace cut short) */
	seqs = u64_map_keys(&c->inst_seq, &n);
	if (!seqs && c->inst_seq.nr)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		if (!u64_map_get(&c->seq_tbuf, seqs[i]))
			ret = seq_instance(c, seqs[i]);
	free(seqs);
	return ret;
}

void pft_inst_free(struct pft_ctx *c)
{
	u64_map_free(&c->inst_named);
	u64_map_free(&c->inst_seq);
}
