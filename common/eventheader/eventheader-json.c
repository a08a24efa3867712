// SPDX-License-Identifier: LGPL-2.1-only
/*
 * eventheader-json.c - a whole EventHeader event as one JSON object, in
 * the shape LinuxTracepoints' EventFormatter gives it:
 *
 *	{ "n": "Provider:event", "field": value, ..., "meta": { ... } }
 *
 * Array elements and struct members follow the walk's items; values are
 * formatted by eventheader-text.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"
#include "eventheader-out.h"

struct eh_json {
	struct eh_out	o;
	bool		space;
	bool		comma;		/* a member or value came before */
};

static void json_value_begin(struct eh_json *j)
{
	if (j->comma)
		eh_out_putc(&j->o, ',');
	if (j->space)
		eh_out_putc(&j->o, ' ');
	j->comma = true;
}

static void json_member_begin(struct eh_json *j, const char *name,
			      size_t len, uint16_t tag)
{
	json_value_begin(j);
	eh_out_putc(&j->o, '"');
	eh_out_utf8(&j->o, (const uint8_t *)name, len, true);
	if (tag)
		eh_out_printf(&j->o, ";tag=0x%X", tag);
	eh_out_puts(&j->o, j->space ? "\": " : "\":");
}

static void json_open(struct eh_json *j, char c)
{
	eh_out_putc(&j->o, c);
	j->comma = false;
}

static void json_close(struct eh_json *j, char c)
{
	if (j->space)
		eh_out_putc(&j->o, ' ');
	eh_out_putc(&j->o, c);
	j->comma = true;
}

static void json_meta(struct eh_json *j, const struct eh_event_info *ev,
		      unsigned int flags)
{
	bool extra = flags & EH_JSON_META_EXTRA;
	struct eh_out *o = &j->o;

	json_member_begin(j, "meta", 4, 0);
	json_open(j, '{');
	if (extra) {
		json_member_begin(j, "provider", 8, 0);
		eh_out_quote(o, true);
		eh_out_utf8(o, (const uint8_t *)ev->tp.name, ev->tp.provider_len,
			    true);
		eh_out_quote(o, true);
		json_member_begin(j, "event", 5, 0);
		eh_out_quote(o, true);
		eh_out_utf8(o, (const uint8_t *)ev->name, strlen(ev->name), true);
		eh_out_quote(o, true);
	}
	if (ev->id) {
		json_member_begin(j, "id", 2, 0);
		eh_out_printf(o, "%u", ev->id);
	}
	if (ev->version) {
		json_member_begin(j, "version", 7, 0);
		eh_out_printf(o, "%u", ev->version);
	}
	if (ev->level) {
		json_member_begin(j, "level", 5, 0);
		eh_out_printf(o, "%u", ev->level);
	}
	if (ev->tp.keyword) {
		json_member_begin(j, "keyword", 7, 0);
		eh_out_printf(o, "\"0x%" PRIX64 "\"", ev->tp.keyword);
	}
	if (ev->opcode) {
		json_member_begin(j, "opcode", 6, 0);
		eh_out_printf(o, "%u", ev->opcode);
	}
	if (ev->tag) {
		json_member_begin(j, "tag", 3, 0);
		eh_out_printf(o, "\"0x%X\"", ev->tag);
	}
	if (ev->activity_id) {
		json_member_begin(j, "activity", 8, 0);
		eh_out_uuid(o, ev->activity_id, true);
	}
	if (ev->related_id) {
		json_member_begin(j, "relatedActivity", 15, 0);
		eh_out_uuid(o, ev->related_id, true);
	}
	if (extra && ev->tp.options_off < ev->tp.name_len) {
		json_member_begin(j, "options", 7, 0);
		eh_out_quote(o, true);
		eh_out_utf8(o, (const uint8_t *)ev->tp.name + ev->tp.options_off,
			    ev->tp.name_len - ev->tp.options_off, true);
		eh_out_quote(o, true);
	}
	if (extra) {
		json_member_begin(j, "flags", 5, 0);
		eh_out_printf(o, "\"0x%X\"", ev->flags);
	}
	json_close(j, '}');
}

ssize_t eh_format_event_json(struct eh_decoder *d, char *buf, size_t size,
			     unsigned int flags)
{
	struct eh_json j = { { buf, size, 0 }, flags & EH_JSON_SPACE, false };
	const struct eh_event_info *ev = eh_decoder_event(d);
	uint16_t tag;
	struct eh_item it;
	int ret;

	if (size)
		buf[0] = '\0';
	if (!ev || eh_decoder_rewind(d) < 0)
		return -EINVAL;
	while ((ret = eh_decoder_next(d, &it)) > 0) {
		tag = flags & EH_JSON_FIELD_TAG ? it.tag : 0;
		switch (it.kind) {
		case EH_ITEM_EVENT_BEGIN:
			json_open(&j, '{');
			json_member_begin(&j, "n", 1, 0);
			eh_out_quote(&j.o, true);
			eh_out_utf8(&j.o, (const uint8_t *)ev->tp.name,
				    ev->tp.provider_len, true);
			eh_out_putc(&j.o, ':');
			eh_out_utf8(&j.o, (const uint8_t *)ev->name, ev->name_len,
				    true);
			eh_out_quote(&j.o, true);
			break;
		case EH_ITEM_VALUE:
			if (it.array_flags)
				json_value_begin(&j);
			else
				json_member_begin(&j, it.name, strlen(it.name),
						  tag);
			ret = eh_out_value(&j.o, it.data, it.size, it.encoding,
					   it.format, it.big_endian, true);
			if (ret < 0)
				return ret;
			break;
		case EH_ITEM_ARRAY_BEGIN:
			json_member_begin(&j, it.name, strlen(it.name), tag);
			json_open(&j, '[');
			break;
		case EH_ITEM_STRUCT_BEGIN:
			if (it.array_flags)
				json_value_begin(&j);
			else
				json_member_begin(&j, it.name, strlen(it.name),
						  tag);
			json_open(&j, '{');
			break;
		case EH_ITEM_ARRAY_END:
			json_close(&j, ']');
			break;
		case EH_ITEM_STRUCT_END:
			json_close(&j, '}');
			break;
		case EH_ITEM_EVENT_END:
			if (!(flags & EH_JSON_NO_META))
				json_meta(&j, ev, flags);
			json_close(&j, '}');
			break;
		default:
			break;
		}
	}
	if (ret < 0)
		return ret;
	return eh_out_finish(&j.o);
}

char *eh_format_event_json_alloc(struct eh_decoder *d, unsigned int flags,
				 int *err)
{
	char small[512], *buf;
	ssize_t len, again;

	len = eh_format_event_json(d, small, sizeof(small), flags);
	if (len < 0)
		goto fail;
	buf = malloc((size_t)len + 1);
	if (!buf) {
		len = -ENOMEM;
		goto fail;
	}
	if ((size_t)len < sizeof(small)) {
		memcpy(buf, small, (size_t)len + 1);
	} else {
		again = eh_format_event_json(d, buf, (size_t)len + 1, flags);
		if (again != len) {
			free(buf);
			len = again < 0 ? again : -EIO;
			goto fail;
		}
	}
	if (err)
		*err = 0;
	return buf;
fail:
	if (err)
		*err = (int)len;
	return NULL;
}

