/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eh-tep.h - which libtraceevent events are EventHeader tracepoints, and
 * where the EventHeader bytes of their records are.
 *
 * An EventHeader tracepoint is a user_event registered with the command
 *
 *	Provider_L<level>K<keyword>[options] u8 eventheader_flags;
 *		u8 version; u16 id; u16 tag; u8 opcode; u8 level
 *
 * so its format lists those six fields right after the common ones; the
 * extension blocks and field data that follow them are undeclared bytes
 * at the end of the record.
 */
#ifndef _PLUGINS_EH_TEP_H
#define _PLUGINS_EH_TEP_H

#include <stddef.h>

#include <event-parse.h>

/*
 * Offset of the eventheader in @event's records if its fields follow the
 * EventHeader command and its name the EventHeader grammar; -ENOENT if not.
 * *@name_len gets the length of the tracepoint name to decode with.
 */
int eh_tep_header_offset(const struct tep_event *event, size_t *name_len);

#endif /* _PLUGINS_EH_TEP_H */
