// SPDX-License-Identifier: GPL-2.0-only
/*
 * eh-print.c - render a decoded EventHeader event for trace-cmd report
 * (layout in eh-print.h).
 *
 * Names are the ones LinuxTracepoints' JSON uses: the event name up to
 * its ';' attributes, field names whole.  That keeps every line
 * comparable, name for name and value for value, with the reference
 * decodings of the test vectors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"
#include "eh-print.h"

/* Struct nesting plus one array level per struct level, plus the top. */
#define EH_PRINT_LEVELS		(2 * EH_MAX_DEPTH + 2)

struct eh_print_level {
	bool	array;		/* elements, not named fields */
	bool	first;		/* nothing written at this level */
};

static bool eh_print_needs_json(const char *p, size_t len)
{
	size_t i;

	if (!len)
		return true;
	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c <= ' ' || c == 0x7f || strchr("\"\\=,[]{}", c))
			return true;
	}
	return false;
}

/*
 * Format a value (@it) or a string (@p, @len, when @it is NULL) with
 * @flags into @small, or into a malloc()ed buffer if it does not fit.
 * Returns the buffer and its length in *@n, or NULL and -errno in *@n.
 */
static char *eh_print_format(const struct eh_item *it, const char *p,
			     size_t len, unsigned int flags, char *small,
			     size_t size, ssize_t *n)
{
	char *buf = small;

	for (;;) {
		if (it)
			*n = eh_format_value(buf, size, it, flags);
		else
			*n = eh_format_value_raw(buf, size, p, len,
						 EH_ENC_STRING_LENGTH16_CHAR8,
						 EH_FMT_STRING_UTF, false,
						 flags);
		if (*n < 0 || *n < (ssize_t)size)
			break;
		if (buf != small)
			free(buf);
		size = *n + 1;
		buf = malloc(size);
		if (!buf) {
			*n = -ENOMEM;
			return NULL;
		}
	}
	if (*n < 0 && buf != small)
		free(buf);
	return *n < 0 ? NULL : buf;
}

/* A value, or a name, as text - or as JSON if the text is ambiguous. */
static int eh_print_item(struct trace_seq *s, const struct eh_item *it,
			 const char *p, size_t len)
{
	char small[256], *text;
	ssize_t n = len;

	if (it) {
		text = eh_print_format(it, NULL, 0, 0, small, sizeof(small),
				       &n);
	} else {
		text = (char *)p;
	}
	if (text && eh_print_needs_json(text, n)) {
		if (text != small && text != p)
			free(text);
		text = eh_print_format(it, p, len, EH_TEXT_JSON, small,
				       sizeof(small), &n);
	}
	if (!text)
		return (int)n;
	trace_seq_printf(s, "%.*s", (int)n, text);
	if (text != small && text != p)
		free(text);
	return 0;
}

/* Separator and name of the next thing at level @l. */
static int eh_print_member(struct trace_seq *s, struct eh_print_level *l,
			   const struct eh_item *it)
{
	if (l->array) {
		if (!l->first)
			trace_seq_putc(s, ',');
		l->first = false;
		return 0;
	}
	if (!l->first)
		trace_seq_putc(s, ' ');
	l->first = false;
	if (eh_print_item(s, NULL, it->name, strlen(it->name)) < 0)
		return -ENOMEM;
	trace_seq_putc(s, '=');
	return 0;
}

static void eh_print_meta(struct trace_seq *s, const struct eh_event_info *ev)
{
	char uuid[48];

	trace_seq_printf(s, " level=%u keyword=0x%" PRIX64, ev->level,
			 ev->tp.keyword);
	if (ev->opcode)
		trace_seq_printf(s, " opcode=%u", ev->opcode);
	if (ev->id)
		trace_seq_printf(s, " id=%u", ev->id);
	if (ev->version)
		trace_seq_printf(s, " version=%u", ev->version);
	if (ev->tag)
		trace_seq_printf(s, " tag=0x%X", ev->tag);
	if (ev->activity_id &&
	    eh_format_value_raw(uuid, sizeof(uuid), ev->activity_id, 16,
				EH_ENC_VALUE128, EH_FMT_UUID, true, 0) > 0)
		trace_seq_printf(s, " activity=%s", uuid);
	if (ev->related_id &&
	    eh_format_value_raw(uuid, sizeof(uuid), ev->related_id, 16,
				EH_ENC_VALUE128, EH_FMT_UUID, true, 0) > 0)
		trace_seq_printf(s, " related=%s", uuid);
}

static int eh_print_name(struct trace_seq *s, const struct eh_event_info *ev)
{
	size_t plen = ev->tp.provider_len, len = plen + 1 + ev->name_len;
	char small[EH_NAME_MAX * 2], *buf = small;
	int ret;

	if (len > sizeof(small)) {
		buf = malloc(len);
		if (!buf)
			return -ENOMEM;
	}
	memcpy(buf, ev->tp.name, plen);
	buf[plen] = ':';
	memcpy(buf + plen + 1, ev->name, ev->name_len);
	ret = eh_print_item(s, NULL, buf, len);
	if (buf != small)
		free(buf);
	return ret;
}

int eh_print_event(struct trace_seq *s, struct eh_decoder *d)
{
	const struct eh_event_info *ev = eh_decoder_event(d);
	struct eh_print_level lv[EH_PRINT_LEVELS];
	unsigned int top = 0;
	struct eh_item it;
	int ret;

	if (!ev)
		return -EINVAL;
	lv[0].array = false;
	lv[0].first = false;	/* the event name comes first */
	while ((ret = eh_decoder_next(d, &it)) > 0) {
		switch (it.kind) {
		case EH_ITEM_EVENT_BEGIN:
			ret = eh_print_name(s, ev);
			break;
		case EH_ITEM_VALUE:
			ret = eh_print_member(s, &lv[top], &it);
			if (!ret)
				ret = eh_print_item(s, &it, NULL, 0);
			break;
		case EH_ITEM_ARRAY_BEGIN:
		case EH_ITEM_STRUCT_BEGIN:
			if (top + 1 >= EH_PRINT_LEVELS)
				return -EMLINK;
			ret = eh_print_member(s, &lv[top], &it);
			top++;
			lv[top].array = it.kind == EH_ITEM_ARRAY_BEGIN;
			lv[top].first = true;
			trace_seq_putc(s, lv[top].array ? '[' : '{');
			break;
		case EH_ITEM_ARRAY_END:
		case EH_ITEM_STRUCT_END:
			if (!top)
				return -EBADMSG;
			trace_seq_putc(s, lv[top].array ? ']' : '}');
			top--;
			break;
		case EH_ITEM_EVENT_END:
			eh_print_meta(s, ev);
			break;
		default:
			break;
		}
		if (ret < 0)
			return ret;
	}
	return ret;
}
