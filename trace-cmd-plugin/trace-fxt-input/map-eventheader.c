// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-eventheader.c - user_events that follow EventHeader, decoded.
 *
 * The user_events instant that map-event.c writes holds only the six
 * declared header fields; the extension blocks and field data are bytes
 * past the format's end.  Next to that instant (same time, same thread)
 * this writes the event the EventHeader metadata describes:
 *
 *  - category = provider, name = "Provider:EventName";
 *  - arguments: level, keyword, then opcode, id, version, tag when not
 *    zero, activity / related_activity (UUID text) when present, then one
 *    per field: structs flattened as "outer.inner", an array as one
 *    string holding its JSON text, scalars typed (integers by size and
 *    sign, hex as unsigned, errno and pid int32, time int64 seconds,
 *    boolean bool (int32 past 1), float double, port uint32, empty
 *    counted values null, anything else its text);
 *  - record type: an activity start with an activity id is an async
 *    begin, a stop an async end, any other event with an activity id an
 *    async instant, all with the id's correlation (map_eh_correlation());
 *    an event without one is a duration-complete event of zero length.
 *    Not an instant: readers of converted files take instants for the
 *    .dat's own events (trace-fxt report --raw, KernelShark's folding);
 *    Perfetto draws a zero-length slice as it draws an instant.
 *  - an activity start also begins a flow with its correlation id, and a
 *    start naming a related (parent) activity adds a flow step to the
 *    parent's flow: parent -> child arrows, in the children's order.
 *
 * Records that are not EventHeader events or whose header is broken get
 * nothing more than their instant; a payload that breaks mid-walk keeps
 * the arguments decoded so far plus an "error" argument.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-tep.h"
#include "eventheader.h"
#include "map-ctx.h"
#include "map-eventheader.h"
#include "u64-map.h"

/* Bytes a string argument may take: one FXT record must hold the event. */
#define MAP_EH_STR_MAX		16000
/* A record's size limit, with room for the header, thread and names. */
#define MAP_EH_RECORD_ROOM	(FXT_MAX_RECORD_WORDS * 8 - 1024)

struct map_eh_buf {
	char	*p;
	size_t	len, cap;
};

struct map_eh {
	struct eh_decoder	*dec;
	struct fxt_arg		*args;
	uint32_t		*name_off;	/* into text */
	uint32_t		*str_off;	/* into text, string args */
	unsigned int		nargs, max_args;
	struct map_eh_buf	text;		/* names and string values */
	struct map_eh_buf	tmp;		/* one formatted value */
	struct map_eh_buf	path;		/* "outer.inner." of structs */
	size_t			path_at[EH_MAX_DEPTH + 2];
	unsigned int		depth;
	/* the array being written as JSON, outermost first */
	struct map_eh_buf	json;
	struct map_eh_buf	json_name;	/* path + the array's name */
	unsigned int		json_depth;
	bool			json_obj[EH_MAX_DEPTH * 2 + 4];
	bool			json_first[EH_MAX_DEPTH * 2 + 4];
	bool			oom;
	/* activity id -> the name its start had ("Provider:Event", a char *) */
	struct u64_map		acts;
	char			cont[512];	/* begin name + ".cont" */
};

static int buf_room(struct map_eh *m, struct map_eh_buf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->len + more <= b->cap)
		return 0;
	cap = (b->len + more) * 2 + 256;
	p = realloc(b->p, cap);
	if (!p) {
		m->oom = true;
		return -ENOMEM;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

static void buf_add(struct map_eh *m, struct map_eh_buf *b, const void *s,
		    size_t n)
{
	/* memcpy with NULL is undefined even for 0 bytes; b->p starts NULL */
	if (!n || buf_room(m, b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void buf_str(struct map_eh *m, struct map_eh_buf *b, const char *s)
{
	buf_add(m, b, s, strlen(s));
}

/*
 * Append @s as valid UTF-8, each byte that starts no valid sequence
 * becoming U+FFFD: FXT readers refuse anything else, and the decoder
 * writes code points past U+10FFFF and surrogates in their long forms.
 * At most @max bytes, cut at a character.
 */
static void buf_utf8(struct map_eh *m, struct map_eh_buf *b, const char *s,
		     size_t n, size_t max)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0, k, start = b->len;

	while (i < n) {
		k = fxt_utf8_len(p + i, n - i);
		if (b->len - start + (k ? k : 3) > max)
			break;
		if (k) {
			buf_add(m, b, p + i, k);
			i += k;
		} else {
			buf_add(m, b, "\xef\xbf\xbd", 3);
			i++;
		}
	}
}

/* JSON string text, escaped; left as bytes for buf_utf8() to clean. */
static void buf_json_str(struct map_eh *m, struct map_eh_buf *b,
			 const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char esc[7] = "\\u00";
	size_t i;

	buf_add(m, b, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			esc[1] = c;
			buf_add(m, b, esc, 2);
			esc[1] = 'u';
		} else if (c < 0x20) {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			buf_add(m, b, esc, 6);
		} else {
			buf_add(m, b, s + i, 1);
		}
	}
	buf_add(m, b, "\"", 1);
}

/* One VALUE item's text (JSON or plain) into m->tmp. */
static int format_value(struct map_eh *m, const struct eh_item *it,
			unsigned int flags)
{
	ssize_t n;

	m->tmp.len = 0;
	n = eh_format_value(m->tmp.p, m->tmp.cap, it, flags);
	if (n >= 0 && (size_t)n >= m->tmp.cap) {
		if (buf_room(m, &m->tmp, n + 1))
			return -ENOMEM;
		n = eh_format_value(m->tmp.p, m->tmp.cap, it, flags);
	}
	if (n < 0)
		return (int)n;
	m->tmp.len = n;
	return 0;
}

/*
 * The 64-bit id of a 16-byte activity id, for async and flow records:
 * FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over
 * the bytes in the order the UUID text shows them.  Stable across files
 * and runs, and spreads ids that differ in few bytes (folding the two
 * halves would map 01020304-0506-0708-0102-030405060708 to 0).
 */
static uint64_t map_eh_correlation(const uint8_t *id)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < 16; i++)
		h = (h ^ id[i]) * 0x100000001b3ULL;
	return h;
}

/* A new argument named @prefix + @name; NULL when out of memory. */
static struct fxt_arg *arg_new_named(struct map_eh *m, const char *prefix,
				     size_t plen, const char *name,
				     size_t len, unsigned int type)
{
	struct fxt_arg *a;
	size_t at;

	if (m->nargs == m->max_args) {
		unsigned int n = m->max_args * 2 + 32;
		struct fxt_arg *na = realloc(m->args, n * sizeof(*na));
		uint32_t *no, *so;

		if (na)
			m->args = na;
		no = realloc(m->name_off, n * sizeof(*no));
		if (no)
			m->name_off = no;
		so = realloc(m->str_off, n * sizeof(*so));
		if (so)
			m->str_off = so;
		if (!na || !no || !so) {
			m->oom = true;
			return NULL;
		}
		m->max_args = n;
	}
	at = m->text.len;
	buf_utf8(m, &m->text, prefix, plen, MAP_EH_STR_MAX);
	buf_utf8(m, &m->text, name, len, MAP_EH_STR_MAX);
	a = &m->args[m->nargs];
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->name.len = m->text.len - at;
	m->name_off[m->nargs] = at;
	m->str_off[m->nargs] = 0;
	m->nargs++;
	return a;
}

/* A new argument named path + @name: a field, flattened. */
static struct fxt_arg *arg_new(struct map_eh *m, const char *name,
			       size_t len, unsigned int type)
{
	return arg_new_named(m, m->path.p, m->path.len, name, len, type);
}

/* A string argument whose value is @s, made valid UTF-8. */
static void arg_text(struct map_eh *m, const char *name, size_t len,
		     const char *s, size_t n)
{
	struct fxt_arg *a = arg_new(m, name, len, FXT_ARG_STRING);
	size_t at = m->text.len;

	if (!a)
		return;
	buf_utf8(m, &m->text, s, n, MAP_EH_STR_MAX);
	a->str.len = m->text.len - at;
	m->str_off[m->nargs - 1] = at;
}

static void arg_uuid(struct map_eh *m, const char *name, const uint8_t *id)
{
	char s[40];
	ssize_t n;

	n = eh_format_value_raw(s, sizeof(s), id, 16, EH_ENC_VALUE128,
				EH_FMT_UUID, true, 0);
	if (n > 0 && (size_t)n < sizeof(s))
		arg_text(m, name, strlen(name), s, n);
}

static void arg_int(struct map_eh *m, const char *name, unsigned int type,
		    uint64_t v)
{
	struct fxt_arg *a = arg_new(m, name, strlen(name), type);

	if (a)
		a->u64 = v;
}

static uint64_t item_uint(const struct eh_item *it, bool big_endian)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < it->size; i++)
		v |= (uint64_t)it->data[big_endian ? it->size - 1 - i : i]
		     << (8 * i);
	return v;
}

/* How a value item becomes an argument. */
enum eh_arg_kind {
	EH_ARG_TEXT,		/* the decoder's text of it */
	EH_ARG_NULL,		/* an empty counted value of a number format */
	EH_ARG_SIGNED,		/* int32, int64 when 8 bytes */
	EH_ARG_UNSIGNED,	/* uint32, uint64 when 8 bytes */
	EH_ARG_TIME,		/* int64 */
	EH_ARG_BOOL,		/* bool, int32 past 1 */
	EH_ARG_FLOAT,		/* double */
	EH_ARG_PORT,		/* uint32, read big-endian */
};

/*
 * Whether @it holds a number of 1 to 8 bytes: a fixed-size value, or a
 * counted one of a size its format takes (EH_ARG_SIGNED stands for any
 * number, eh_number_kind() says which).
 */
static enum eh_arg_kind eh_value_kind(const struct eh_item *it)
{
	uint32_t n = it->size;
	unsigned int sizes;

	switch (it->encoding) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
		break;
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		sizes = eh_format_counted_sizes(it->format);
		if (!n && sizes)
			return EH_ARG_NULL;
		if (n > 8 || !(sizes & (1u << n)))
			return EH_ARG_TEXT;
		break;
	default:
		return EH_ARG_TEXT;
	}
	return n && n <= 8 ? EH_ARG_SIGNED : EH_ARG_TEXT;
}

/*
 * What a number of @n bytes in format @fmt becomes: the format's type
 * when it applies to that size, else unsigned (as the decoder's default).
 */
static enum eh_arg_kind eh_number_kind(unsigned int fmt, uint32_t n)
{
	switch (fmt) {
	case EH_FMT_SIGNED_INT:
		return EH_ARG_SIGNED;
	case EH_FMT_PID:
	case EH_FMT_ERRNO:
		return n == 4 ? EH_ARG_SIGNED : EH_ARG_UNSIGNED;
	case EH_FMT_TIME:
		return n == 4 || n == 8 ? EH_ARG_TIME : EH_ARG_UNSIGNED;
	case EH_FMT_BOOLEAN:
		return n <= 4 ? EH_ARG_BOOL : EH_ARG_UNSIGNED;
	case EH_FMT_FLOAT:
		return n == 4 || n == 8 ? EH_ARG_FLOAT : EH_ARG_UNSIGNED;
	case EH_FMT_PORT:
		return n == 2 ? EH_ARG_PORT : EH_ARG_UNSIGNED;
	case EH_FMT_HEX_BYTES:
		return EH_ARG_TEXT;
	case EH_FMT_STRING8:
		return n == 1 ? EH_ARG_TEXT : EH_ARG_UNSIGNED;
	case EH_FMT_STRING_UTF:
		return n == 2 || n == 4 ? EH_ARG_TEXT : EH_ARG_UNSIGNED;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IP_ADDRESS_OBSOLETE:
		return n == 4 ? EH_ARG_TEXT : EH_ARG_UNSIGNED;
	default:
		return EH_ARG_UNSIGNED;
	}
}

/* The FXT type of a number of kind @k, value @u, 8 bytes if @wide. */
static enum fxt_arg_type eh_number_type(enum eh_arg_kind k, uint64_t u,
					bool wide)
{
	switch (k) {
	case EH_ARG_SIGNED:
		return wide ? FXT_ARG_INT64 : FXT_ARG_INT32;
	case EH_ARG_TIME:
		return FXT_ARG_INT64;
	case EH_ARG_BOOL:
		/* past 1 the decoder shows the number, as int32 */
		return u > 1 ? FXT_ARG_INT32 : FXT_ARG_BOOL;
	case EH_ARG_FLOAT:
		return FXT_ARG_DOUBLE;
	case EH_ARG_PORT:
		return FXT_ARG_UINT32;
	default:
		return wide ? FXT_ARG_UINT64 : FXT_ARG_UINT32;
	}
}

/* A float or double's bits @u of @n bytes as a double. */
static double eh_float(uint64_t u, uint32_t n)
{
	uint32_t bits = u;
	double d;
	float f;

	if (n == 4) {
		memcpy(&f, &bits, sizeof(f));
		return f;
	}
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* A number item of kind @k as a typed argument. */
static void arg_number(struct map_eh *m, const struct eh_item *it,
		       enum eh_arg_kind k)
{
	uint32_t n = it->size;
	uint64_t u = item_uint(it, it->big_endian);
	int64_t s = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u :
		    n == 4 ? (int32_t)u : (int64_t)u;
	bool wide = n == 8;
	struct fxt_arg *a;

	a = arg_new(m, it->name, it->name_len, eh_number_type(k, u, wide));
	if (!a)
		return;
	switch (k) {
	case EH_ARG_SIGNED:
		if (wide)
			a->i64 = s;
		else
			a->i32 = (int32_t)s;
		break;
	case EH_ARG_TIME:
		a->i64 = s;
		break;
	case EH_ARG_BOOL:
		if (u > 1)
			a->i32 = (int32_t)(uint32_t)u;
		else
			a->b = u;
		break;
	case EH_ARG_FLOAT:
		a->d = eh_float(u, n);
		break;
	case EH_ARG_PORT:
		a->u32 = item_uint(it, true);
		break;
	default:
		if (wide)
			a->u64 = u;
		else
			a->u32 = (uint32_t)u;
		break;
	}
}

/* A value item as the decoder's text of it ("" if it has none). */
static void arg_value_text(struct map_eh *m, const struct eh_item *it)
{
	if (format_value(m, it, 0) < 0) {
		arg_text(m, it->name, it->name_len, "", 0);
		return;
	}
	arg_text(m, it->name, it->name_len, m->tmp.p, m->tmp.len);
}

/* One scalar field as a typed argument, else as its text. */
static void arg_value(struct map_eh *m, const struct eh_item *it)
{
	enum eh_arg_kind k = eh_value_kind(it);

	if (k == EH_ARG_SIGNED)
		k = eh_number_kind(it->format, it->size);
	if (k == EH_ARG_NULL)
		arg_new(m, it->name, it->name_len, FXT_ARG_NULL);
	else if (k == EH_ARG_TEXT)
		arg_value_text(m, it);
	else
		arg_number(m, it, k);
}

/* Before a member of the array's JSON: separator, and its name if any. */
static void json_member(struct map_eh *m, const struct eh_item *it)
{
	unsigned int d = m->json_depth - 1;

	if (!m->json_first[d])
		buf_add(m, &m->json, ", ", 2);
	m->json_first[d] = false;
	if (m->json_obj[d]) {
		buf_json_str(m, &m->json, it->name, it->name_len);
		buf_add(m, &m->json, ": ", 2);
	}
}

static void json_open(struct map_eh *m, bool obj)
{
	if (m->json_depth >= sizeof(m->json_obj)) {
		m->oom = true;		/* cannot happen: the decoder bounds it */
		return;
	}
	buf_add(m, &m->json, obj ? "{" : "[", 1);
	m->json_obj[m->json_depth] = obj;
	m->json_first[m->json_depth] = true;
	m->json_depth++;
}

/* Close the innermost JSON container; the outermost ends the argument. */
static void json_close(struct map_eh *m)
{
	struct fxt_arg *a;
	size_t at;

	if (!m->json_depth)
		return;
	m->json_depth--;
	buf_add(m, &m->json, m->json_obj[m->json_depth] ? "}" : "]", 1);
	if (m->json_depth)
		return;
	a = arg_new_named(m, m->json_name.p, m->json_name.len, "", 0,
			  FXT_ARG_STRING);
	if (!a)
		return;
	at = m->text.len;
	buf_utf8(m, &m->text, m->json.p, m->json.len, MAP_EH_STR_MAX);
	a->str.len = m->text.len - at;
	m->str_off[m->nargs - 1] = at;
}

static void path_push(struct map_eh *m, const struct eh_item *it)
{
	if (m->depth < EH_MAX_DEPTH + 2)
		m->path_at[m->depth] = m->path.len;
	m->depth++;
	buf_add(m, &m->path, it->name, it->name_len);
	buf_add(m, &m->path, ".", 1);
}

static void path_pop(struct map_eh *m)
{
	if (!m->depth)
		return;
	m->depth--;
	if (m->depth < EH_MAX_DEPTH + 2)
		m->path.len = m->path_at[m->depth];
}

static void item_add(struct map_eh *m, const struct eh_item *it)
{
	switch (it->kind) {
	case EH_ITEM_STRUCT_BEGIN:
		if (m->json_depth) {
			json_member(m, it);
			json_open(m, true);
		} else {
			path_push(m, it);
		}
		break;
	case EH_ITEM_STRUCT_END:
		if (m->json_depth)
			json_close(m);
		else
			path_pop(m);
		break;
	case EH_ITEM_ARRAY_BEGIN:
		if (m->json_depth) {
			json_member(m, it);
		} else {
			/* the argument's name, kept until the array ends */
			m->json.len = m->json_name.len = 0;
			buf_add(m, &m->json_name, m->path.p, m->path.len);
			buf_add(m, &m->json_name, it->name, it->name_len);
		}
		json_open(m, false);
		break;
	case EH_ITEM_ARRAY_END:
		json_close(m);
		break;
	case EH_ITEM_VALUE:
		if (!m->json_depth) {
			arg_value(m, it);
			break;
		}
		json_member(m, it);
		if (format_value(m, it, EH_TEXT_JSON) < 0)
			buf_str(m, &m->json, "null");
		else
			buf_add(m, &m->json, m->tmp.p, m->tmp.len);
		break;
	default:
		break;
	}
}

/*
 * Remember the name activity @id started with; -ENOMEM on failure (the
 * name it had, if any, stays).
 */
static int act_begin(struct map_eh *m, uint64_t id, const char *name,
		     size_t len)
{
	char *copy = strndup(name, len);
	uint64_t *v = copy ? u64_map_put(&m->acts, id) : NULL;

	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	free((char *)(uintptr_t)*v);
	*v = (uintptr_t)copy;
	return 0;
}

/* The name activity @id started with, or NULL. */
static const char *act_name(struct map_eh *m, uint64_t id)
{
	return (const char *)(uintptr_t)u64_map_get(&m->acts, id);
}

/* Upper bound of the bytes @a takes in a record, strings inline. */
static size_t arg_size(const struct fxt_arg *a)
{
	size_t n = 8 + ((a->name.len + 7) & ~7u);

	if (a->type == FXT_ARG_STRING)
		n += (a->str.len + 7) & ~7u;
	else if (a->type != FXT_ARG_INT32 && a->type != FXT_ARG_UINT32 &&
		 a->type != FXT_ARG_BOOL && a->type != FXT_ARG_NULL)
		n += 8;
	return n;
}

/*
 * The event, then "<name>.cont" records for what one record cannot hold
 * (15 arguments, or 32 KiB): zero-length complete events, or async
 * instants of the same id for activity events.
 */
static int map_eh_emit(struct map_ctx *ctx, struct map_eh *m,
		       struct fxt_event *ev, struct fxt_str cont_name)
{
	unsigned int i = 0, k;
	size_t room;
	int ret;

	do {
		room = MAP_EH_RECORD_ROOM - ev->name.len - ev->category.len;
		for (k = 0; i + k < m->nargs && k < FXT_MAX_ARGS; k++) {
			size_t sz = arg_size(&m->args[i + k]);

			if (k && sz > room)
				break;
			room -= sz < room ? sz : room;
		}
		ev->args = m->args + i;
		ev->nargs = k;
		ret = fxt_write_event(map_w(ctx), ev);
		if (ret < 0)
			return ret;
		i += k;
		ev->name = cont_name;
		if (ev->type == FXT_EVENT_ASYNC_BEGIN ||
		    ev->type == FXT_EVENT_ASYNC_END)
			ev->type = FXT_EVENT_ASYNC_INSTANT;
	} while (i < m->nargs);
	return 0;
}

bool map_eventheader_classify(struct map_event *me)
{
	struct tep_format_field *f;
	size_t len;
	int off;

	off = eh_tep_header_offset(me->event, &len);
	if (off < 0)
		return false;
	for (f = me->event->format.fields; f; f = f->next)
		if (f->offset == off)
			break;
	me->sf[0] = f;
	return f != NULL;
}

static struct map_eh *map_eh_get(struct map_ctx *ctx)
{
	struct map_eh *m = ctx->eh;

	if (m)
		return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->dec = eh_decoder_new();
	if (!m->dec) {
		free(m);
		return NULL;
	}
	ctx->eh = m;
	return m;
}

void map_eventheader_free(struct map_ctx *ctx)
{
	struct map_eh *m = ctx->eh;
	size_t i;

	if (!m)
		return;
	eh_decoder_free(m->dec);
	for (i = 0; i < m->acts.cap; i++)
		free((char *)(uintptr_t)m->acts.slot[i].val);
	u64_map_free(&m->acts);
	free(m->args);
	free(m->name_off);
	free(m->str_off);
	free(m->text.p);
	free(m->tmp.p);
	free(m->path.p);
	free(m->json.p);
	free(m->json_name.p);
	free(m);
	ctx->eh = NULL;
}

/*
 * The decoder started on @rec's EventHeader and the event's state reset;
 * NULL when the record is no EventHeader event after all, or a broken
 * one: the instant only.
 */
static const struct eh_event_info *map_eh_start(struct map_eh *m,
						 struct map_event *me,
						 struct tep_record *rec)
{
	int off;

	if (!me->sf[0])
		return NULL;
	off = me->sf[0]->offset;
	if (off > rec->size)
		return NULL;
	if (eh_decoder_start(m->dec, me->event->name, strlen(me->event->name),
			     (const char *)rec->data + off, rec->size - off) < 0)
		return NULL;
	m->nargs = 0;
	m->text.len = m->path.len = m->json.len = 0;
	m->depth = m->json_depth = 0;
	m->oom = false;
	return eh_decoder_event(m->dec);
}

/*
 * "Provider:EventName.cont" at the start of the text buffer: the
 * category and the name are its prefixes, of *@cat_len and *@name_len.
 */
static void map_eh_names(struct map_eh *m, const struct eh_event_info *info,
			 uint32_t *cat_len, uint32_t *name_len)
{
	buf_utf8(m, &m->text, info->tp.name, info->tp.provider_len,
		 MAP_EH_STR_MAX);
	*cat_len = m->text.len;
	buf_add(m, &m->text, ":", 1);
	buf_utf8(m, &m->text, info->name, info->name_len, MAP_EH_STR_MAX);
	*name_len = m->text.len;
	buf_str(m, &m->text, TCFXT_CONT_SUFFIX);
}

/* The header's values as the first arguments, those not zero. */
static void map_eh_header_args(struct map_eh *m,
			       const struct eh_event_info *info)
{
	arg_int(m, "level", FXT_ARG_UINT32, info->level);
	arg_int(m, "keyword", FXT_ARG_UINT64, info->tp.keyword);
	if (info->opcode)
		arg_int(m, "opcode", FXT_ARG_UINT32, info->opcode);
	if (info->id)
		arg_int(m, "id", FXT_ARG_UINT32, info->id);
	if (info->version)
		arg_int(m, "version", FXT_ARG_UINT32, info->version);
	if (info->tag)
		arg_int(m, "tag", FXT_ARG_UINT32, info->tag);
	if (info->activity_id)
		arg_uuid(m, "activity", info->activity_id);
	if (info->related_id)
		arg_uuid(m, "related_activity", info->related_id);
}

/* The fields as arguments; what stopped the decoder as "error". */
static void map_eh_fields(struct map_eh *m)
{
	struct eh_item it;
	const char *e;
	int ret;

	while ((ret = eh_decoder_next(m->dec, &it)) > 0)
		item_add(m, &it);
	if (ret >= 0)
		return;
	e = eh_decoder_strerror(m->dec);
	while (m->json_depth)
		json_close(m);
	m->path.len = 0;
	arg_text(m, "error", 5, e, strlen(e));
}

/* The text buffer is final: point the arguments' names and strings in. */
static void map_eh_point_args(struct map_eh *m)
{
	unsigned int i;

	for (i = 0; i < m->nargs; i++) {
		m->args[i].name.ptr = m->text.p + m->name_off[i];
		if (m->args[i].type == FXT_ARG_STRING)
			m->args[i].str.ptr = m->text.p + m->str_off[i];
	}
}

/*
 * An activity stop named otherwise than its start: Perfetto ends an
 * async slice only by an end of the same id and name, so @ev ends it
 * under the start's name and keeps its own in an "event" argument.
 */
static int map_eh_end_as_begun(struct map_ctx *ctx, struct map_eh *m,
			       struct fxt_event *ev, struct fxt_str *cont_name,
			       uint32_t cat_len)
{
	const char *begin = act_name(m, ev->id);

	if (!begin || (strlen(begin) == ev->name.len &&
		       !memcmp(begin, ev->name.ptr, ev->name.len)))
		return 0;
	/* the text buffer may move: copy the name first */
	snprintf(m->cont, sizeof(m->cont), "%.*s", (int)ev->name.len,
		 ev->name.ptr);
	arg_text(m, "event", 5, m->cont, strlen(m->cont));
	if (m->oom)
		return -ENOMEM;
	map_eh_point_args(m);
	ev->category = fxt_str_make(m->text.p, cat_len);
	ev->name = fxt_writer_str(ctx->w, begin);
	snprintf(m->cont, sizeof(m->cont), "%s%s", begin, TCFXT_CONT_SUFFIX);
	*cont_name = fxt_writer_str(ctx->w, m->cont);
	return 0;
}

/* An activity's start: the parent's flow gets a step, its own begins. */
static int map_eh_flows(struct map_ctx *ctx, struct fxt_event *ev,
			const struct eh_event_info *info, struct fxt_str name)
{
	int ret;

	ev->name = name;
	ev->nargs = 0;
	ev->args = NULL;
	if (info->related_id) {
		ev->type = FXT_EVENT_FLOW_STEP;
		ev->id = map_eh_correlation(info->related_id);
		ret = fxt_write_event(map_w(ctx), ev);
		if (ret < 0)
			return ret;
	}
	ev->type = FXT_EVENT_FLOW_BEGIN;
	ev->id = map_eh_correlation(info->activity_id);
	return fxt_write_event(map_w(ctx), ev);
}

int map_eventheader_write(struct map_ctx *ctx, struct map_buffer *buf,
			  struct map_event *me, struct tep_record *rec,
			  const struct fxt_thread *thread)
{
	struct map_eh *m = map_eh_get(ctx);
	const struct eh_event_info *info;
	struct fxt_event ev = {
		.type = FXT_EVENT_DURATION_COMPLETE,
		.ts = rec->ts,
		.end_ts = rec->ts,
		.thread = *thread,
	};
	struct fxt_str cont_name;
	uint32_t name_len, cat_len;
	int ret;

	if (!m)
		return -ENOMEM;
	info = map_eh_start(m, me, rec);
	if (!info)
		return 0;
	map_eh_names(m, info, &cat_len, &name_len);
	map_eh_header_args(m, info);
	map_eh_fields(m);
	if (m->oom)
		return -ENOMEM;
	ev.category = fxt_str_make(m->text.p, cat_len);
	ev.name = fxt_str_make(m->text.p, name_len);
	cont_name = fxt_str_make(m->text.p,
				 name_len + sizeof(TCFXT_CONT_SUFFIX) - 1);
	map_eh_point_args(m);
	if (info->activity_id) {
		ev.id = map_eh_correlation(info->activity_id);
		ev.type = info->opcode == EH_OPCODE_ACTIVITY_START ?
			  FXT_EVENT_ASYNC_BEGIN :
			  info->opcode == EH_OPCODE_ACTIVITY_STOP ?
			  FXT_EVENT_ASYNC_END : FXT_EVENT_ASYNC_INSTANT;
	}
	if (ev.type == FXT_EVENT_ASYNC_BEGIN &&
	    act_begin(m, ev.id, ev.name.ptr, ev.name.len) < 0)
		return -ENOMEM;
	if (ev.type == FXT_EVENT_ASYNC_END) {
		ret = map_eh_end_as_begun(ctx, m, &ev, &cont_name, cat_len);
		if (ret < 0)
			return ret;
	}
	ret = map_eh_emit(ctx, m, &ev, cont_name);
	if (ret < 0 || !info->activity_id ||
	    info->opcode != EH_OPCODE_ACTIVITY_START)
		return ret;
	return map_eh_flows(ctx, &ev, info, fxt_str_make(m->text.p, name_len));
}
