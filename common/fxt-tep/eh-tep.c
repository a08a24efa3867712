// SPDX-License-Identifier: GPL-2.0-only
/*
 * eh-tep.c - recognise EventHeader tracepoints among libtraceevent events.
 *
 * The test is the one LinuxTracepoints' decoders apply: the six header
 * fields, by name and size, packed right after the common fields, and a
 * tracepoint name that parses as Provider_L<level>K<keyword>.  Types are
 * not compared, because the kernel keeps the spelling the registering
 * process used ("u8", "unsigned char", ...).
 */
#include <errno.h>
#include <string.h>

#include <event-parse.h>

#include "eventheader.h"
#include "fxt-tep.h"

static const struct {
	const char	*name;
	int		size;
} eh_tep_fields[] = {
	{ "eventheader_flags",	1 },
	{ "version",		1 },
	{ "id",			2 },
	{ "tag",		2 },
	{ "opcode",		1 },
	{ "level",		1 },
};

int eh_tep_header_offset(const struct tep_event *event, size_t *name_len)
{
	const struct tep_format_field *f = event->format.fields;
	struct eh_tracepoint tp;
	size_t i, len;
	int start, at;

	if (!f || !event->name)
		return -ENOENT;
	start = at = f->offset;
	for (i = 0; i < sizeof(eh_tep_fields) / sizeof(eh_tep_fields[0]); i++) {
		if (!f || strcmp(f->name, eh_tep_fields[i].name) ||
		    f->size != eh_tep_fields[i].size ||
		    f->offset != at ||
		    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			return -ENOENT;
		at += f->size;
		f = f->next;
	}

	len = strlen(event->name);
	if (eh_tracepoint_parse(&tp, event->name, len) < 0)
		return -ENOENT;
	*name_len = len;
	return start;
}
