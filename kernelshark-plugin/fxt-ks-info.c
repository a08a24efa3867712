// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-info.c - the info column: a row's arguments as "name=value"
 * pairs, made only when KernelShark shows or searches that row; for the
 * ftrace events of a converted provider, what libtraceevent prints of
 * the record rebuilt from them (info and latency), as for the .dat.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-ks.h"
#include "fxt-print.h"
#include "fxt-tep.h"
#include "tcfxt.h"

/* A stored argument back as the FXT argument it was. */
static void arg_restore(const struct fxt_ks_data *d,
			const struct fxt_ks_event *ev,
			const struct fxt_ks_arg *a, struct fxt_arg *out)
{
	const struct fxt_ks_field *f = &ev->fields[a->field];

	memset(out, 0, sizeof(*out));
	out->type = a->type;
	out->name = fxt_str_make(f->name, f->len);
	switch (a->type) {
	case FXT_ARG_INT32:	out->i32 = (int32_t)a->v.i; break;
	case FXT_ARG_UINT32:	out->u32 = (uint32_t)a->v.u; break;
	case FXT_ARG_DOUBLE:	out->d = a->v.d; break;
	case FXT_ARG_BOOL:	out->b = a->v.u != 0; break;
	case FXT_ARG_STRING:
		out->str = fxt_str_make(fxt_ks_arg_str(d, a), a->len);
		break;
	default:		out->u64 = a->v.u; break;
	}
}

/*
 * "name=value" as trace-fxt report and plugin_fxt.so print the arguments
 * of other producers' events: the core's rendering of each value (FXT
 * arguments as they were, pointers in hex), text in quotes only where
 * one row of the table could not show it.
 */
static void print_arg(FILE *f, const struct fxt_ks_data *d,
		      const struct fxt_ks_event *ev,
		      const struct fxt_ks_arg *a)
{
	char small[128], *buf = small;
	struct fxt_arg arg;
	const char *s;
	int n;

	if (a->type == FXT_KS_ARG_STATE) {
		s = fxt_thread_state_name((unsigned int)a->v.u);
		if (s)
			fprintf(f, "%s=%s", ev->fields[a->field].name, s);
		else
			fprintf(f, "%s=%" PRIu64, ev->fields[a->field].name,
				a->v.u);
		return;
	}
	arg_restore(d, ev, a, &arg);
	fprintf(f, "%s=", ev->fields[a->field].name);
	n = fxt_print_arg_value(small, sizeof(small), &arg,
				FXT_PRINT_QUOTE_NEEDED);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf)
			return;
		fxt_print_arg_value(buf, (size_t)n + 1, &arg,
				    FXT_PRINT_QUOTE_NEEDED);
	}
	fwrite(buf, 1, (size_t)n, f);
	if (buf != small)
		free(buf);
}

char *fxt_ks_info(struct fxt_ks_data *d, const struct fxt_ks_row *row)
{
	const struct fxt_ks_event *ev = &d->events[row->event];
	const struct fxt_ks_arg *a;
	unsigned int i, nargs;
	bool first = true;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	nargs = fxt_ks_row_args_get(d, row, &a);
	if (ev->missed) {
		/* As trace.dat streams say it; -1: the count is unknown. */
		int field = fxt_ks_field_find(d, row->event, "count");
		const struct fxt_ks_arg *n = fxt_ks_args_field(a, nargs, field);
		int64_t count = n ? n->v.i : -1;

		if (row->arg & FXT_KS_ROW_PFT_LOST)
			count = (int64_t)(row->arg & ~FXT_KS_ROW_PFT_LOST) - 1;
		fprintf(f, "missed_events=%" PRId64, count);
		nargs = 0;
	}
	for (i = 0; i < nargs; i++) {
		/* The CPU column already says it. */
		if (a[i].type != FXT_ARG_STRING &&
		    !strcmp(ev->fields[a[i].field].name, TCFXT_ARG_CPU))
			continue;
		if (!first)
			fputc(' ', f);
		print_arg(f, d, ev, &a[i]);
		first = false;
	}
	fxt_ks_row_args_put(d);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int fxt_ks_tep_text(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		    char **info, char **latency)
{
	const struct fxt_ks_event *ev = &d->events[row->event];
	struct fxt_event fe = { .type = FXT_EVENT_INSTANT };
	const struct fxt_ks_arg *a;
	struct fxt_arg *args;
	unsigned int i, n;
	int ret = -ENOENT;

	*info = *latency = NULL;
	if (d->pft)
		return fxt_ks_pft_text(d, row, info, latency);
	if (!d->tep || ev->missed || ev->kind != FXT_EVENT_INSTANT ||
	    row->provider >= d->nproviders ||
	    !d->providers[row->provider].from_trace_fxt)
		return -ENOENT;
	n = fxt_ks_row_args_get(d, row, &a);
	args = n ? malloc(n * sizeof(*args)) : NULL;
	if (n && !args)
		ret = -ENOMEM;
	if (args) {
		for (i = 0; i < n; i++)
			arg_restore(d, ev, &a[i], &args[i]);
		fe.category = fxt_str_make(ev->category, ev->cat_len);
		fe.name = fxt_str_make(ev->name, ev->name_len);
		fe.thread.tid = (uint64_t)row->pid;
		fe.args = args;
		fe.nargs = n;
		ret = report_tep_event_text(d->tep, &fe, (uint64_t)row->ts,
					    info, latency);
	}
	fxt_ks_row_args_put(d);
	free(args);
	return ret;
}
