// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-reread.c - the arguments of a row, when KernelShark asks for
 * them: stored ones as they are, those of a converted file's ftrace event
 * decoded again from the mapped file.
 *
 * Storing every argument of every row made loading a converted file
 * cost more than its arguments are ever used for: KernelShark shows a
 * screenful of rows and its plugins read a few fields of a few events.
 * A reread row keeps the offset of its record instead; the reader that
 * loaded the file seeks back to it, and the TCFXT_CONT_SUFFIX records
 * that followed it are read with it, as loading folded them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "fxt-ks.h"
#include "fxt-reader.h"
#include "tcfxt.h"

/* Records looked past for a row's continuations before giving up. */
#define REREAD_MAX_SKIP	64

/* @args of a record of @row onto d->scratch from *@n on. */
static int scratch_add(struct fxt_ks_data *d, const struct fxt_ks_row *row,
		       const struct fxt_arg *args, unsigned int nargs,
		       size_t *n)
{
	unsigned int i;
	int field;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg *src = &args[i];
		struct fxt_ks_arg *a;

		if (src->type >= FXT_ARG_TYPE_COUNT ||
		    tcfxt_has_suffix(src->name, TCFXT_TEXT_SUFFIX))
			continue;
		if (*n == UINT16_MAX)
			return 0;
		field = fxt_ks_event_field(d, row->event, src->name,
					   src->type, (unsigned int)*n);
		if (field == -E2BIG)
			continue;
		if (field < 0)
			return field;
		if (*n == d->scratch_cap) {
			size_t cap = d->scratch_cap ? 2 * d->scratch_cap : 64;

			a = realloc(d->scratch, cap * sizeof(*a));
			if (!a)
				return -ENOMEM;
			d->scratch = a;
			d->scratch_cap = cap;
		}
		a = &d->scratch[(*n)++];
		a->field = (uint16_t)field;
		a->type = (uint8_t)src->type;
		a->where = FXT_KS_VALUE;
		a->len = 0;
		a->v.u = 0;
		fxt_ks_arg_set(d, a, src, false);
	}
	return 0;
}

/* Would loading have made a row of this record (and ended the folding)? */
static bool makes_row(const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;

	return rec->type == FXT_REC_EVENT && ev->type == FXT_EVENT_INSTANT &&
	       (tcfxt_is_meta(ev->category) || tcfxt_is_ftrace(ev));
}

static int reread(struct fxt_ks_data *d, const struct fxt_ks_row *row)
{
	struct fxt_reader *r = d->reread;
	unsigned int conts = 0, skipped = 0;
	struct fxt_record rec;
	size_t n = 0;
	int ret;

	if (!r || row->provider >= d->nproviders ||
	    fxt_reader_seek(r, row->arg & ~FXT_KS_ROW_REREAD,
			    d->providers[row->provider].id))
		return -EINVAL;
	if (fxt_reader_next(r, &rec) <= 0 || rec.type != FXT_REC_EVENT)
		return -EBADMSG;
	ret = scratch_add(d, row, rec.event.args, rec.event.nargs, &n);
	while (!ret && conts < row->nargs && skipped < REREAD_MAX_SKIP) {
		if (fxt_reader_next(r, &rec) <= 0 || makes_row(&rec))
			break;
		if (rec.type != FXT_REC_EVENT ||
		    rec.event.type != FXT_EVENT_INSTANT ||
		    !tcfxt_has_suffix(rec.event.name, TCFXT_CONT_SUFFIX)) {
			skipped++;
			continue;
		}
		ret = scratch_add(d, row, rec.event.args, rec.event.nargs, &n);
		conts++;
	}
	return ret < 0 ? ret : (int)n;
}

unsigned int fxt_ks_row_args_get(struct fxt_ks_data *d,
				 const struct fxt_ks_row *row,
				 const struct fxt_ks_arg **args)
{
	int n;

	pthread_mutex_lock(&d->lock);
	if (d->pft) {
		n = fxt_ks_pft_args(d, row);
		*args = n > 0 ? d->scratch : NULL;
		return n > 0 ? (unsigned int)n : 0;
	}
	if (!fxt_ks_row_reread(row)) {
		*args = d->args + row->arg;
		return row->nargs;
	}
	n = reread(d, row);
	if (n <= 0) {
		*args = NULL;
		return 0;
	}
	*args = d->scratch;
	return (unsigned int)n;
}

void fxt_ks_row_args_put(struct fxt_ks_data *d)
{
	pthread_mutex_unlock(&d->lock);
}

const struct fxt_ks_arg *fxt_ks_args_field(const struct fxt_ks_arg *args,
					   unsigned int n, int field)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (args[i].field == field)
			return &args[i];
	return NULL;
}
