// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-info.c - the info column: a row's arguments as "name=value"
 * pairs, made only when KernelShark shows or searches that row.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-ks.h"
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
