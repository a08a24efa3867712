// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt2dat-format.c - the event formats the .dat will hold, and the
 * record builder that lays payloads out by them.
 *
 * Every format is parsed here by libtraceevent, so payloads are laid out
 * by the format's own offsets and sizes, whoever wrote it: the kernel
 * (formats that trace-fxt carried in trace-cmd:event_format instants) or
 * fxt2dat-fxt.c / fxt2dat-sched.c (made on first use, ids from
 * F2D_FIRST_ID up).  A record is begun with its common fields set
 * (f2d_rec_begin) and filled field by field (f2d_put_*).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "dat-writer.h"
#include "fxt2dat.h"

/* tcfxt.h's TCFXT_ARG_TRAILING: the record's bytes past its fields */

static unsigned int fmt_hash(const char *s, size_t slen, const char *n,
			     size_t nlen)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < slen; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	for (i = 0; i < nlen; i++)
		h = (h ^ (uint8_t)n[i]) * 16777619u;
	return h & 255;
}

struct f2d_format *f2d_format_find(struct f2d_ctx *ctx, const char *system,
				   size_t slen, const char *name, size_t nlen)
{
	struct f2d_format *f;

	for (f = ctx->fmt_hash[fmt_hash(system, slen, name, nlen)]; f;
	     f = f->next)
		if (!strncmp(f->system, system, slen) && !f->system[slen] &&
		    !strncmp(f->name, name, nlen) && !f->name[nlen])
			return f;
	return NULL;
}

static void fmt_free(struct f2d_format *f)
{
	free(f->system);
	free(f->name);
	free(f->text);
	free(f->fields);
	free(f);
}

void f2d_formats_free(struct f2d_ctx *ctx)
{
	unsigned int i;

	f2d_probe_stop(ctx);
	for (i = 0; i < ctx->nr_fmts; i++)
		fmt_free(ctx->fmt_list[i]);
	free(ctx->fmt_list);
	ctx->fmt_list = NULL;
	ctx->nr_fmts = 0;
	memset(ctx->fmt_hash, 0, sizeof(ctx->fmt_hash));
}

/*
 * Grow @fixed to the end of the last field.  A format comes from the
 * input, and libtraceevent takes any offset and size: fields must lie in
 * what a record can address (a __data_loc offset has 16 bits).
 */
static int fixed_part(struct tep_format_field **fl, unsigned int *fixed)
{
	long long end;

	for (; fl && *fl; fl++) {
		end = (long long)(*fl)->offset + (*fl)->size;
		if ((*fl)->offset < 0 || (*fl)->size < 0 || end > 0xffff)
			return -EINVAL;
		if (end > *fixed)
			*fixed = end;
	}
	return 0;
}

/*
 * Hand a format to libtraceevent.  libtraceevent 1.7.1 crashes on some
 * broken formats: print formats (a NULL dereference,
 * regress-tep-print-fmt.fxt) and field lists alike (an array size broken
 * by a newline, "char prev_comm[\n]", regress-tep-fields.fxt), so every
 * text is parsed only once a child process survived parsing it
 * (f2d_probe_survives()).  Converting needs the fields only: the print
 * format it parses is an empty one, the .dat keeps the text as it came.
 * A caller's own tep (ctx->sink: printing, not converting) parses the
 * whole text, or the fields alone when the whole text crashed the child.
 * Returns 1 when the print format parsed is not the file's (and the
 * caller printing should not print with it), 0, -EINVAL for a text
 * libtraceevent refuses or dies on, or another negative errno.
 */
static const char empty_print[] = "\nprint fmt: \"\"\n";

/* @text up to @pf, its print format, with an empty one after: malloc'd. */
static char *fields_only(const char *text, const char *pf, size_t *n)
{
	size_t head = (size_t)(pf - text);
	char *copy;

	*n = head + sizeof(empty_print) - 1;
	copy = malloc(*n + 1);
	if (copy) {
		memcpy(copy, text, head);
		memcpy(copy + head, empty_print, sizeof(empty_print));
	}
	return copy;
}

static int parse_fields(struct f2d_ctx *ctx, const char *system,
			const char *text, size_t len, bool trusted)
{
	const char *pf = strstr(text, "\nprint fmt:");
	size_t n;
	char *copy;
	int ret;

	/* the whole text: all there is, or what a printing caller wants */
	if (!pf || ctx->sink) {
		if (trusted || f2d_probe_survives(ctx, system, text, len))
			return tep_parse_event(ctx->tep, text, len, system) ?
			       -EINVAL : 0;
		if (!pf)
			return -EINVAL;
	}
	copy = fields_only(text, pf, &n);
	if (!copy)
		return -ENOMEM;
	if (trusted || f2d_probe_survives(ctx, system, copy, n))
		ret = tep_parse_event(ctx->tep, copy, n, system) ? -EINVAL : 1;
	else
		ret = -EINVAL;
	free(copy);
	return ret;
}

/* The id a format text says, or -1: none, or not one a .dat holds. */
static int format_id(const char *text, size_t len)
{
	const char *id_line;
	int id;

	/* libtraceevent reads a C string: a NUL would hide the rest */
	if (memchr(text, '\0', len))
		return -1;
	id_line = strstr(text, "\nID: ");
	id = id_line ? atoi(id_line + 5) : -1;
	return id < 0 || id > 65535 ? -1 : id;
}

int f2d_format_foresee(struct f2d_ctx *ctx, const char *system,
		       const char *text, size_t len)
{
	const char *pf;
	size_t n;
	char *copy;
	int id = format_id(text, len), ret;

	if (id < 0 || tep_find_event(ctx->tep, id))
		return 0;
	/* the text parse_fields() asks of first */
	pf = strstr(text, "\nprint fmt:");
	if (!pf || ctx->sink)
		return f2d_probe_ahead(ctx, system, text, len);
	copy = fields_only(text, pf, &n);
	if (!copy)
		return -ENOMEM;
	ret = f2d_probe_ahead(ctx, system, copy, n);
	free(copy);
	return ret;
}

/*
 * Parse and keep a format text; hand it to the writer if there is one
 * (otherwise the driver does when it creates the writer).
 */
int f2d_format_add(struct f2d_ctx *ctx, const char *system, const char *text,
		   size_t len, unsigned int flags, struct f2d_format **out)
{
	struct tep_format_field **common;
	struct f2d_format *f, **list;
	struct tep_event *event;
	unsigned int n;
	int id = format_id(text, len), ret;
	bool no_print;

	if (id < 0)
		return -EINVAL;
	event = tep_find_event(ctx->tep, id);
	if (event) {
		/* the same format sent twice (several providers): fine */
		f = f2d_format_find(ctx, event->system, strlen(event->system),
				    event->name, strlen(event->name));
		if (out)
			*out = f;
		return f && f->id == id ? 0 : -EEXIST;
	}
	ret = parse_fields(ctx, system, text, len,
			   flags & F2D_FORMAT_TRUSTED);
	if (ret < 0)
		return ret;
	no_print = ret == 1;
	event = tep_find_event(ctx->tep, id);
	if (!event)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	list = realloc(ctx->fmt_list, (ctx->nr_fmts + 1) * sizeof(*list));
	if (!f || !list) {
		free(f);
		return -ENOMEM;
	}
	ctx->fmt_list = list;
	f->event = event;
	f->id = id;
	f->restored = flags & F2D_FORMAT_RESTORED;
	f->no_print = no_print;
	f->system = strdup(system);
	f->name = strdup(event->name);
	f->text = malloc(len + 1);
	f->fields = tep_event_fields(event);
	if (!f->system || !f->name || !f->text || !f->fields) {
		fmt_free(f);
		return -ENOMEM;
	}
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	f->len = len;
	for (n = 0; f->fields[n]; n++)
		;
	f->nr_fields = n;
	f->c_type = tep_find_common_field(event, "common_type");
	f->c_flags = tep_find_common_field(event, "common_flags");
	f->c_preempt = tep_find_common_field(event, "common_preempt_count");
	f->c_pid = tep_find_common_field(event, "common_pid");
	common = tep_event_common_fields(event);
	ret = fixed_part(common, &f->fixed);
	free(common);
	if (!ret)
		ret = fixed_part(f->fields, &f->fixed);
	if (ret < 0) {
		/* libtraceevent keeps it; its events stay fxt events */
		fmt_free(f);
		return ret;
	}
	list[ctx->nr_fmts++] = f;
	n = fmt_hash(f->system, strlen(f->system), f->name, strlen(f->name));
	f->next = ctx->fmt_hash[n];
	ctx->fmt_hash[n] = f;
	if (ctx->w) {
		ret = dat_writer_add_event_format(ctx->w, system, text, len);
		if (ret < 0)
			return ret;
	}
	if (out)
		*out = f;
	return 0;
}

struct f2d_format *f2d_format_make(struct f2d_ctx *ctx, const char *system,
				   const char *name, const char *body)
{
	struct f2d_format *f;
	char *text;
	int len;

	f = f2d_format_find(ctx, system, strlen(system), name, strlen(name));
	if (f)
		return f;
	while (ctx->next_id <= 65535 && tep_find_event(ctx->tep, ctx->next_id))
		ctx->next_id++;
	len = asprintf(&text, "name: %s\nID: %d\n%s", name, ctx->next_id,
		       body);
	if (len < 0)
		return NULL;
	if (f2d_format_add(ctx, system, text, len, F2D_FORMAT_TRUSTED, &f) < 0)
		f = NULL;
	free(text);
	return f;
}

/* The low @size bytes of @v; a field wider than 8 gets zeroes above. */
static void put_num(uint8_t *p, unsigned int size, uint64_t v, bool big)
{
	unsigned int i;

	for (i = 0; i < size && i < 8; i++)
		p[big ? size - 1 - i : i] = v >> (8 * i);
}

void f2d_put_field_int(struct f2d_rec *r, struct tep_format_field *fl,
			uint64_t v)
{
	if (fl && fl->offset + fl->size <= (int)r->len)
		put_num(r->data + fl->offset, fl->size, v, r->big);
}

/* @n bytes of an array or string field: fixed, flexible or dynamic. */
void f2d_put_field_bytes(struct f2d_rec *r, struct tep_format_field *fl,
			  const uint8_t *p, size_t n)
{
	uint8_t *dst;
	size_t off;

	if (fl->flags & TEP_FIELD_IS_DYNAMIC) {
		if (n > 0xffff)
			n = 0xffff;
		off = r->len;
		dst = f2d_rec_room(r, n);
		if (!dst)
			return;
		if (n)
			memcpy(dst, p, n);
		if (fl->flags & TEP_FIELD_IS_RELATIVE)
			off -= fl->offset + fl->size;
		f2d_put_field_int(r, fl, (uint64_t)n << 16 | (off & 0xffff));
		return;
	}
	if (!fl->size) {
		/* flexible array: the rest of the record */
		if (r->len > (size_t)fl->offset)
			r->len = fl->offset;
		dst = f2d_rec_room(r, n);
		if (dst && n)
			memcpy(dst, p, n);
		return;
	}
	if (n)
		memcpy(r->data + fl->offset, p,
		       n < (size_t)fl->size ? n : (size_t)fl->size);
}

void f2d_put_int(struct f2d_rec *r, struct f2d_format *f, const char *field,
		 uint64_t v)
{
	f2d_put_field_int(r, tep_find_field(f->event, field), v);
}

void f2d_put_str(struct f2d_rec *r, struct f2d_format *f, const char *field,
		 const char *s, size_t len)
{
	struct tep_format_field *fl = tep_find_field(f->event, field);

	if (fl)
		f2d_put_field_str(r, fl, s, len);
}

void f2d_put_field_str(struct f2d_rec *r, struct tep_format_field *fl,
		       const char *s, size_t len)
{
	uint8_t *tmp;

	if (fl->flags & TEP_FIELD_IS_DYNAMIC || !fl->size) {
		/* the NUL belongs to the string's bytes */
		tmp = malloc(len + 1);
		if (!tmp)
			return;
		memcpy(tmp, s, len);
		tmp[len] = '\0';
		f2d_put_field_bytes(r, fl, tmp, len + 1);
		free(tmp);
		return;
	}
	f2d_put_field_bytes(r, fl, (const uint8_t *)s, len);
}

void f2d_put_bytes(struct f2d_rec *r, struct f2d_format *f,
		   const char *field, const void *p, size_t n)
{
	struct tep_format_field *fl = tep_find_field(f->event, field);

	if (fl)
		f2d_put_field_bytes(r, fl, p, n);
}

uint8_t *f2d_rec_room(struct f2d_rec *r, size_t len)
{
	uint8_t *p;

	/* room for nothing is still a place: a format may have no field */
	if (r->len + len > r->cap || !r->data) {
		size_t cap = r->cap ? r->cap : 256;

		while (cap < r->len + len)
			cap *= 2;
		p = realloc(r->data, cap);
		if (!p)
			return NULL;
		memset(p + r->cap, 0, cap - r->cap);
		r->data = p;
		r->cap = cap;
	}
	p = r->data + r->len;
	memset(p, 0, len);
	r->len += len;
	return p;
}

/* Start a record of format @f for @pid: zeroed fixed part, common set. */
int f2d_rec_begin(struct f2d_ctx *ctx, struct f2d_format *f, int pid)
{
	struct f2d_rec *r = &ctx->rec;

	r->len = 0;
	r->big = ctx->info_big;
	if (!f2d_rec_room(r, f->fixed))
		return -ENOMEM;
	f2d_put_field_int(r, f->c_type, f->id);
	f2d_put_field_int(r, f->c_pid, (uint32_t)pid);
	return 0;
}
