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
#include "report-tep.h"
#include "tcfxt.h"

/*
 * One row of KernelShark's table per entry: control characters are
 * escaped, and a trailing newline (trace_marker text has one) dropped as
 * trace.dat streams drop it.
 */
static void print_text(FILE *f, const char *s, size_t len)
{
	size_t i, run = 0;

	if (len && s[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c != 0x7f)
			continue;
		fwrite(s + run, 1, i - run, f);
		run = i + 1;
		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else
			fprintf(f, "\\x%02x", c);
	}
	fwrite(s + run, 1, len - run, f);
}

static void print_arg(FILE *f, const struct fxt_ks_data *d,
		      const struct fxt_ks_event *ev,
		      const struct fxt_ks_arg *a)
{
	const char *name = ev->fields[a->field].name;
	const char *s;

	switch (a->type) {
	case FXT_ARG_NULL:
		fputs(name, f);
		break;
	case FXT_ARG_INT32:
	case FXT_ARG_INT64:
		fprintf(f, "%s=%" PRId64, name, a->v.i);
		break;
	case FXT_ARG_UINT32:
	case FXT_ARG_UINT64:
	case FXT_ARG_KOID:
		fprintf(f, "%s=%" PRIu64, name, a->v.u);
		break;
	case FXT_ARG_POINTER:
		fprintf(f, "%s=0x%" PRIx64, name, a->v.u);
		break;
	case FXT_ARG_DOUBLE:
		fprintf(f, "%s=%g", name, a->v.d);
		break;
	case FXT_ARG_BOOL:
		fprintf(f, "%s=%s", name, a->v.u ? "true" : "false");
		break;
	case FXT_ARG_STRING:
		s = fxt_ks_arg_str(d, a);
		fprintf(f, "%s=", name);
		if (s)
			print_text(f, s, a->len);
		break;
	case FXT_KS_ARG_STATE:
		s = fxt_thread_state_name((unsigned int)a->v.u);
		if (s)
			fprintf(f, "%s=%s", name, s);
		else
			fprintf(f, "%s=%" PRIu64, name, a->v.u);
		break;
	default:
		fputs(name, f);
		break;
	}
}

char *fxt_ks_info(const struct fxt_ks_data *d, const struct fxt_ks_row *row)
{
	const struct fxt_ks_event *ev = &d->events[row->event];
	const struct fxt_ks_arg *a = d->args + row->arg;
	bool first = true;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (ev->missed) {
		/* As trace.dat streams say it; -1: the count is unknown. */
		int field = fxt_ks_field_find(d, row->event, "count");
		const struct fxt_ks_arg *n = fxt_ks_row_arg(d, row, field);

		fprintf(f, "missed_events=%" PRId64, n ? n->v.i : -1);
		row = NULL;
	}
	for (i = 0; row && i < row->nargs; i++) {
		/* The CPU column already says it. */
		if (a[i].type != FXT_ARG_STRING &&
		    !strcmp(ev->fields[a[i].field].name, TCFXT_ARG_CPU))
			continue;
		if (!first)
			fputc(' ', f);
		print_arg(f, d, ev, &a[i]);
		first = false;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

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

int fxt_ks_tep_text(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		    char **info, char **latency)
{
	const struct fxt_ks_event *ev = &d->events[row->event];
	const struct fxt_ks_arg *a = d->args + row->arg;
	struct fxt_event fe = { .type = FXT_EVENT_INSTANT };
	struct fxt_arg *args;
	unsigned int i;
	int ret;

	*info = *latency = NULL;
	if (!d->tep || ev->missed || ev->kind != FXT_EVENT_INSTANT ||
	    row->provider >= d->nproviders ||
	    !d->providers[row->provider].from_trace_fxt || !row->nargs)
		return -ENOENT;
	args = malloc(row->nargs * sizeof(*args));
	if (!args)
		return -ENOMEM;
	for (i = 0; i < row->nargs; i++)
		arg_restore(d, ev, &a[i], &args[i]);
	fe.category = fxt_str_make(ev->category, ev->cat_len);
	fe.name = fxt_str_make(ev->name, ev->name_len);
	fe.thread.tid = (uint64_t)row->pid;
	fe.args = args;
	fe.nargs = row->nargs;
	ret = report_tep_event_text(d->tep, &fe, (uint64_t)row->ts, info,
				    latency);
	free(args);
	return ret;
}
