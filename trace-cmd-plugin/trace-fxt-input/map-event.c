// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-event.c - any ftrace event as an FXT instant event.
 *
 * category = system, name = event name, arguments: the record's CPU
 * first, common_flags and common_preempt_count when not zero, then one
 * argument per field in format order.  Integers keep their size and sign
 * (s8..s32 -> int32, u8..u32 -> uint32, 64-bit -> int64/uint64), pointer
 * fields are pointers, strings are strings, small integer arrays are an
 * argument an element (map-array.c), and any other array is kept
 * byte for byte as the text "ARRAY[xx, yy, ...]" that trace-cmd report -R
 * prints for it.  A field that -R shows through the event's print format
 * as something other than its number (%ps symbols, %s of a kernel
 * string) is followed by "<field>.text" holding that rendering, so the
 * FXT alone reproduces -R (hex or octal without a "0x" counts as such a
 * rendering: "1200000" cannot be read back as a number without it); the
 * renderings are made once per field and value (map-text.c).
 * Bytes the record holds past its fields (an EventHeader payload after
 * its six header fields; for kernel events only runs longer than an
 * entry's alignment padding) follow as one last argument,
 * TCFXT_ARG_TRAILING, in the same "ARRAY[..]" text, so that fxt2dat
 * restores the record whole.
 * Arguments beyond the format's 15 go to "<name>.cont" events right
 * after, on the same thread and timestamp.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-array.h"
#include "map-event.h"
#include "map-field.h"
#include "map-name.h"
#include "map-text.h"
#include "perfetto-dev.h"

/* One item of libtraceevent's parse of a print format, as -R walks it. */
struct pf_item {
	struct tep_format_field	*field;	/* NULL: literal or non-field arg */
	bool			text;	/* rendered as text, not a number */
	bool			ptr;	/* printed through %p */
};

static struct tep_print_arg *pf_strip_casts(struct tep_print_arg *arg)
{
	while (arg && arg->type == TEP_PRINT_TYPE)
		arg = arg->typecast.item;
	return arg;
}

/*
 * Split the print format the way libtraceevent builds its print cache:
 * literal runs and conversions, each conversion taking the next argument
 * (two with a '*' width).  Unknown conversions are literals that take
 * no argument.  Returns the number of items, or -1.
 */
static int pf_parse(struct tep_event *event, struct pf_item *items, int max)
{
	struct tep_print_arg *arg = event->print_fmt.args;
	const char *f = event->print_fmt.format;
	struct tep_print_arg *a;
	bool has_0x = false;
	const char *lit;
	int n = 0;

	if (!f)
		return 0;
	while (*f) {
		if (n == max)
			return -1;
		items[n].field = NULL;
		items[n].text = false;
		items[n].ptr = false;
		if (*f != '%' || f[1] == '%') {
			/* a literal run, "%%" included */
			lit = f;
			while (*f && !(*f == '%' && f[1] != '%'))
				f += (*f == '%') ? 2 : 1;
			has_0x = f - lit >= 2 && f[-2] == '0' && f[-1] == 'x';
			n++;
			continue;
		}
		for (f++; *f; f++) {
			if (strchr("#hlLzZ.-0123456789", *f))
				continue;
			if (*f == '*') {
				if (arg)
					arg = arg->next;
				continue;
			}
			break;
		}
		if (!*f) {
			n++;
			break;
		}
		if (!strchr("pduixXos", *f)) {
			f++;
			n++;
			continue;
		}
		a = pf_strip_casts(arg);
		if (a && a->type == TEP_PRINT_FIELD)
			items[n].field = a->field.field;
		/*
		 * Text: strings, and numbers in a base a reader cannot
		 * guess (hex or octal without a "0x" before them).
		 */
		if (*f == 's' || (strchr("xXo", *f) && !has_0x))
			items[n].text = true;
		has_0x = false;
		items[n].ptr = *f == 'p';
		if (*f == 'p' && f[1] && strchr("FSfs", f[1])) {
			items[n].text = true;
			f++;
		}
		if (arg)
			arg = arg->next;
		f++;
		n++;
	}
	return n;
}

/*
 * Decide which fields -R prints through the print format as text: walk
 * the fields as tep_print_fields() does, each search starting where the
 * previous match left off and wrapping once.
 */
static void pf_mark_text(struct map_event *me)
{
	struct tep_event *event = me->event;
	struct pf_item items[256];
	int n, pos = 0, i, start;
	unsigned int k;

	if (event->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT))
		return;
	n = pf_parse(event, items, 256);
	if (n <= 0)
		return;
	for (k = 0; k < me->nr_fields; k++) {
		struct map_field *mf = &me->fields[k];

		if (pos < 0 || mf->field->flags &
		    (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))
			continue;
		i = start = pos;
		do {
			if (items[i].field == mf->field) {
				mf->has_text = items[i].text;
				mf->ptr_like = items[i].ptr;
				pos = i + 1 < n ? i + 1 : -1;
				break;
			}
			i = i + 1 < n ? i + 1 : 0;
		} while (i != start);
	}
}

/*
 * @a followed by @suffix, as an indexed string.  The text is built on the
 * stack, so only its index may be kept: one the writer could not index
 * (out of memory) clears *@ok and the event is given up.
 */
static struct fxt_str map_intern(struct map_ctx *ctx, const char *a,
				 const char *suffix, bool *ok)
{
	char buf[512];
	struct fxt_str s;

	snprintf(buf, sizeof(buf), "%s%s", a, suffix);
	s = fxt_writer_str(ctx->w, buf);
	if (!s.id)
		*ok = false;
	return s;
}

static bool map_event_selected(const struct fxt_input_opts *o,
			       struct tep_event *event)
{
	unsigned int i;

	if (!o->nr_events)
		return true;
	for (i = 0; i < o->nr_events; i++) {
		const char *sel = o->events[i];
		const char *colon = strchr(sel, ':');

		if (!colon) {
			if (!strcmp(sel, event->name) ||
			    !strcmp(sel, event->system))
				return true;
			continue;
		}
		if (strncmp(sel, event->system, colon - sel) ||
		    event->system[colon - sel])
			continue;
		if (!strcmp(colon + 1, "*") || !strcmp(colon + 1, event->name))
			return true;
	}
	return false;
}

/* Where the fixed fields end, the part fxt2dat rebuilds as zeroes. */
static void map_event_extent(struct map_event *me,
			     struct tep_format_field **fl)
{
	for (; fl && *fl; fl++) {
		struct tep_format_field *f = *fl;

		if (f->offset < 0 || f->size < 0)
			continue;
		if ((unsigned int)(f->offset + f->size) > me->fixed_end)
			me->fixed_end = f->offset + f->size;
	}
}

/*
 * What the mapping makes of @event: its names interned, each field's
 * argument type, which fields -R shows as text.  Special events are
 * map-dispatch.c's concern.
 */
struct map_event *map_event_new(struct map_ctx *ctx, struct tep_event *event)
{
	struct map_event *me;
	struct tep_format_field **fields;
	unsigned int i;
	bool ok = true;

	me = calloc(1, sizeof(*me));
	if (!me)
		return NULL;
	me->event = event;
	me->keep = map_event_selected(ctx->opts, event);
	/* libtraceevent's names live as long as the conversion */
	me->category = fxt_writer_str(ctx->w, event->system);
	me->name = fxt_writer_str(ctx->w, event->name);
	me->cont_name = map_intern(ctx, event->name, TCFXT_CONT_SUFFIX, &ok);
	me->trailing_name = fxt_writer_str(ctx->w, TCFXT_ARG_TRAILING);
	me->user_data = !strcmp(event->system, "user_events");
	fields = tep_event_common_fields(event);
	map_event_extent(me, fields);
	free(fields);
	fields = tep_event_fields(event);
	map_event_extent(me, fields);
	for (i = 0; fields && fields[i]; i++)
		;
	me->nr_fields = i;
	me->fields = calloc(i + 1, sizeof(*me->fields));
	me->var_idx = calloc(i + 1, sizeof(*me->var_idx));
	if (!me->fields || !me->var_idx) {
		free(fields);
		map_event_free(me);
		return NULL;
	}
	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];
		struct tep_format_field *f = fields[i];

		/* where map_field_trailing() looks for the record's end */
		if (f->flags & TEP_FIELD_IS_DYNAMIC || map_field_flexible(f))
			me->var_idx[me->nr_var++] = i;
		mf->field = f;
		mf->name = fxt_writer_str(ctx->w, f->name);
		if (f->flags & TEP_FIELD_IS_ARRAY) {
			mf->kind = f->flags & TEP_FIELD_IS_STRING ?
				   MAP_FIELD_STRING : MAP_FIELD_ARRAY;
			mf->arg_type = FXT_ARG_STRING;
		} else if (f->flags & TEP_FIELD_IS_POINTER) {
			mf->kind = MAP_FIELD_POINTER;
			mf->arg_type = FXT_ARG_POINTER;
		} else {
			mf->kind = MAP_FIELD_INT;
			mf->dev = pft_dev_field(f->type, f->size);
			if (f->size > 4)
				mf->arg_type = f->flags & TEP_FIELD_IS_SIGNED ?
					       FXT_ARG_INT64 : FXT_ARG_UINT64;
			else
				mf->arg_type = f->flags & TEP_FIELD_IS_SIGNED ?
					       FXT_ARG_INT32 : FXT_ARG_UINT32;
		}
	}
	free(fields);
	pf_mark_text(me);
	/*
	 * Kernel addresses in unsigned long fields (call_site, ptr, what
	 * the print format shows through %p) are pointers: as uint64 a
	 * viewer shows them as huge or negative numbers.
	 */
	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];
		struct tep_format_field *f = mf->field;

		if (mf->kind == MAP_FIELD_INT && f->size == 8 &&
		    !(f->flags & TEP_FIELD_IS_SIGNED) &&
		    (mf->ptr_like || !strcmp(f->name, "call_site") ||
		     !strcmp(f->name, "ptr"))) {
			mf->kind = MAP_FIELD_POINTER;
			mf->arg_type = FXT_ARG_POINTER;
		}
	}
	for (i = 0; i < me->nr_fields; i++)
		if (me->fields[i].has_text ||
		    me->fields[i].kind == MAP_FIELD_STRING)
			me->fields[i].text_name =
				map_intern(ctx, me->fields[i].field->name,
					   TCFXT_TEXT_SUFFIX, &ok);
	if (!ok || map_array_classify(ctx, me) < 0) {
		map_event_free(me);
		return NULL;
	}
	return me;
}

void map_event_free(struct map_event *me)
{
	unsigned int i;

	if (!me)
		return;
	for (i = 0; me->fields && i < me->nr_fields; i++)
		free(me->fields[i].elem_names);
	free(me->fields);
	free(me->pkt_desc);
	free(me->fmts_idx);
	free(me->var_idx);
	free(me);
}

/*
 * Text arguments point into ctx->seq; it only grows while one event is
 * built, so remember offsets and fix the pointers up at the end.
 */
struct map_text_ref {
	unsigned int	arg;
	unsigned int	off;
	unsigned int	len;
};

struct map_texts {
	struct map_text_ref	*ref;		/* room for every argument */
	unsigned int		n;
};

/* Room for @n arguments, and for as many text references. */
static struct fxt_arg *map_args_room(struct map_ctx *ctx, unsigned int n)
{
	struct map_text_ref *r;
	struct fxt_arg *a;

	if (n <= ctx->nr_args_max)
		return ctx->args;
	a = realloc(ctx->args, n * sizeof(*a));
	if (!a)
		return NULL;
	ctx->args = a;
	r = realloc(ctx->text_refs, n * sizeof(*r));
	if (!r)
		return NULL;
	ctx->text_refs = r;
	ctx->nr_args_max = n;
	return a;
}

/* Argument @arg holds what ctx->seq gained since @start. */
static void map_text_add(struct map_ctx *ctx, struct map_texts *t,
			 unsigned int arg, unsigned int start)
{
	t->ref[t->n++] = (struct map_text_ref){
		arg, start, ctx->seq.len - start };
}

/* The record's CPU, its common flags and preempt count when not zero. */
static unsigned int map_event_common_args(struct map_ctx *ctx,
					  struct map_buffer *buf,
					  struct tep_record *rec,
					  struct fxt_arg *args)
{
	unsigned int n = 0;
	uint64_t v;

	args[n].type = FXT_ARG_UINT32;
	args[n].name = map_name(ctx, TCFXT_ARG_CPU);
	args[n++].u32 = rec->cpu;
	if (map_field_u64(buf, rec, ctx->common_flags, &v) && v) {
		args[n].type = FXT_ARG_UINT32;
		args[n].name = map_name(ctx, TCFXT_ARG_FLAGS);
		args[n++].u32 = v;
	}
	if (map_field_u64(buf, rec, ctx->common_preempt, &v) && v) {
		args[n].type = FXT_ARG_UINT32;
		args[n].name = map_name(ctx, TCFXT_ARG_PREEMPT);
		args[n++].u32 = v;
	}
	return n;
}

/* An integer or pointer field's value, in @a typed by @mf. */
static void map_event_int_arg(struct map_buffer *buf, struct tep_record *rec,
			      struct map_field *mf, struct fxt_arg *a)
{
	struct tep_format_field *f = mf->field;
	uint64_t v = 0;

	map_field_u64(buf, rec, f, &v);
	if (mf->arg_type == FXT_ARG_INT32) {
		/* sign-extend from the field's own width */
		int shift = 64 - 8 * (f->size ? f->size : 4);

		a->i32 = (int64_t)(v << shift) >> shift;
	} else if (mf->arg_type == FXT_ARG_UINT32) {
		a->u32 = v;
	} else {
		/* the format says the field's width to whoever rebuilds it */
		map_arg_set_64(a, v);
	}
}

/*
 * A string or array field in @args[@arg]: the string itself if it
 * prints, else its bytes as "ARRAY[..]" text in ctx->seq.  Returns the
 * arguments written: 2 for an empty string with bytes after its NUL (a
 * u8 array libtraceevent calls a string, such as an IPv6 address that
 * begins with 0): its bytes, then as "<field>.text" the "" -R prints.
 */
static unsigned int map_event_array_arg(struct map_ctx *ctx,
					struct tep_record *rec,
					struct map_field *mf,
					struct fxt_arg *args, unsigned int arg,
					struct map_texts *t)
{
	unsigned int off = 0, len = 0, start = ctx->seq.len;
	const char *p;

	map_field_span(rec, mf->field, &off, &len);
	p = (const char *)rec->data + off;
	if (mf->kind == MAP_FIELD_STRING && map_field_printable(p, len)) {
		size_t n = strnlen(p, len);

		/* past a text's NUL, bytes are left (a comm's stale tail) */
		if (n || !map_field_nonzero(p, len)) {
			args[arg].str = fxt_str_make(p, n);
			return 1;
		}
		map_field_array_text(ctx, (const unsigned char *)p, len);
		map_text_add(ctx, t, arg, start);
		args[arg + 1].name = mf->text_name;
		args[arg + 1].type = FXT_ARG_STRING;
		args[arg + 1].str = fxt_str_make("", 0);
		return 2;
	}
	/*
	 * -R stops treating a char array as a string once it met one that
	 * does not print; so do we.
	 */
	mf->kind = MAP_FIELD_ARRAY;
	map_field_array_text(ctx, (const unsigned char *)p, len);
	map_text_add(ctx, t, arg, start);
	return 1;
}

/*
 * What -R shows of @mf through the print format, in @args[@arg]: from
 * map-text.c's cache when this value of the field was rendered before
 * (has_text fields are numbers: the rendering depends on the value).
 */
static void map_event_text_arg(struct map_ctx *ctx, struct map_buffer *buf,
			       struct tep_record *rec, struct map_field *mf,
			       struct fxt_arg *args, unsigned int arg,
			       struct map_texts *t)
{
	unsigned int start = ctx->seq.len;
	bool keyed = false;
	uint64_t v = 0;

	args[arg].name = mf->text_name;
	args[arg].type = FXT_ARG_STRING;
	if (map_field_u64(buf, rec, mf->field, &v)) {
		keyed = true;
		if (map_text_lookup(ctx, mf, v, &args[arg].str))
			return;
	}
	tep_print_field_content(&ctx->seq, rec->data, rec->size, mf->field);
	if (keyed)
		map_text_store(ctx, mf, v, ctx->seq.buffer + start,
			       ctx->seq.len - start);
	map_text_add(ctx, t, arg, start);
}

/* One argument per field, and its .text; returns the arguments' end. */
static unsigned int map_event_field_args(struct map_ctx *ctx,
					 struct map_buffer *buf,
					 struct map_event *me,
					 struct tep_record *rec,
					 struct fxt_arg *args, unsigned int n,
					 struct map_texts *t)
{
	unsigned int i;

	for (i = 0; i < me->nr_fields; i++) {
		struct map_field *mf = &me->fields[i];
		struct fxt_arg *a = &args[n];

		a->name = mf->name;
		a->type = mf->arg_type;
		if (mf->kind == MAP_FIELD_ELEMS) {
			n += map_array_args(mf, rec, a);
			continue;
		}
		if (mf->kind == MAP_FIELD_INT || mf->kind == MAP_FIELD_POINTER) {
			map_event_int_arg(buf, rec, mf, a);
			n++;
		} else {
			n += map_event_array_arg(ctx, rec, mf, args, n, t);
		}
		if (mf->has_text)
			map_event_text_arg(ctx, buf, rec, mf, args, n++, t);
	}
	return n;
}

/* The bytes past the fields, if any, as the last argument. */
static unsigned int map_event_trailing_arg(struct map_ctx *ctx,
					   struct map_event *me,
					   struct tep_record *rec,
					   struct fxt_arg *args, unsigned int n,
					   struct map_texts *t)
{
	unsigned int tr_start, tr_len, start = ctx->seq.len;

	tr_len = map_field_trailing(me, rec, &tr_start);
	if (!tr_len)
		return n;
	args[n].name = me->trailing_name;
	args[n].type = FXT_ARG_STRING;
	map_field_array_text(ctx, (const unsigned char *)rec->data + tr_start,
			     tr_len);
	map_text_add(ctx, t, n, start);
	return n + 1;
}

/* Whether @a is one of @me's "<field>.text" arguments. */
static bool map_event_is_text(const struct map_event *me,
			      const struct fxt_arg *a)
{
	unsigned int i;

	for (i = 0; i < me->nr_fields; i++)
		if (me->fields[i].text_name.id &&
		    me->fields[i].text_name.id == a->name.id)
			return true;
	return false;
}

/*
 * @ev with @n arguments: the first record takes 15, "<name>.cont"
 * records the rest; a field's "<field>.text" goes in its field's record
 * (readers pair them within a record).  A record too big for the format
 * sheds its texts.
 */
static int map_event_emit(struct map_ctx *ctx, struct map_event *me,
			  struct fxt_event *ev, struct fxt_arg *args,
			  unsigned int n)
{
	unsigned int i, j, k, take;
	int ret = 0;

	/* its continuations right after it, in one blob */
	if (n > FXT_MAX_ARGS)
		fxt_writer_keep_together(ctx->iw, true);
	for (i = 0; i < n || i == 0; i += take) {
		take = n - i < FXT_MAX_ARGS ? n - i : FXT_MAX_ARGS;
		if (i + take < n && take > 1 &&
		    map_event_is_text(me, &args[i + take]))
			take--;
		if (!take)
			take = FXT_MAX_ARGS;
		ev->args = args + i;
		ev->nargs = n - i < take ? n - i : take;
		if (i)
			ev->name = me->cont_name;
		ret = fxt_write_event(ctx->iw, ev);
		if (ret == -E2BIG) {
			for (j = 0, k = 0; j < ev->nargs; j++)
				if (ev->args[j].type != FXT_ARG_STRING)
					args[i + k++] = ev->args[j];
			ev->nargs = k;
			ret = fxt_write_event(ctx->iw, ev);
		}
		if (ret < 0)
			break;
	}
	fxt_writer_keep_together(ctx->iw, false);
	return ret < 0 ? ret : 0;
}

int map_event_write(struct map_ctx *ctx, struct map_buffer *buf,
		    struct map_event *me, struct tep_record *rec,
		    const struct fxt_thread *thread)
{
	struct fxt_event ev = {
		.type = FXT_EVENT_INSTANT,
		.ts = rec->ts,
		.thread = *thread,
		.category = me->category,
		.name = me->name,
	};
	struct fxt_arg *args = map_args_room(ctx, 4 + 2 * me->nr_fields +
					     me->extra_args);
	struct map_texts t = { .n = 0 };
	unsigned int n, i;
	int ret;

	if (!args)
		return -ENOMEM;
	t.ref = ctx->text_refs;
	/* most events render nothing: no call for an empty buffer */
	if (ctx->seq.len)
		trace_seq_reset(&ctx->seq);
	n = map_event_common_args(ctx, buf, rec, args);
	n = map_event_field_args(ctx, buf, me, rec, args, n, &t);
	n = map_event_trailing_arg(ctx, me, rec, args, n, &t);
	for (i = 0; i < t.n; i++)
		args[t.ref[i].arg].str = fxt_str_make(ctx->seq.buffer +
						      t.ref[i].off,
						      t.ref[i].len);
	ret = map_event_emit(ctx, me, &ev, args, n);
	if (ret < 0)
		return ret;
	ctx->events_out++;
	return 0;
}
