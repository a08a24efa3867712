/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eh-print.h - an EventHeader event as one line of trace-cmd report text:
 *
 *	Provider:EventName field=value ... level=N keyword=0xK
 *		[opcode=N] [id=N] [version=N] [tag=0xN]
 *		[activity=UUID] [related=UUID]
 *
 * Values are written as LinuxTracepoints writes them (eh_format_value):
 * decimal, 0x hex, true/false, ENOENT(2), 2024-01-31T12:00:00, UUIDs and
 * IP addresses in their usual notation, strings as UTF-8.  Arrays are
 * [v,v,...], structs {name=value ...}.  A name or value that would make
 * the line ambiguous (empty, or holding a space, a control character or
 * one of "\=,[]{}) is written as a JSON string instead, so the line can
 * always be split back into fields.  Field tags are not shown; the
 * event's zero opcode, id, version and tag are left out.
 */
#ifndef _PLUGINS_EH_PRINT_H
#define _PLUGINS_EH_PRINT_H

#include <trace-seq.h>

struct eh_decoder;

/*
 * Append the event that eh_decoder_start() accepted to @s.  Returns 0, or
 * the decoder's negative errno if the payload is malformed; @s then holds
 * a partial line.
 */
int eh_print_event(struct trace_seq *s, struct eh_decoder *d);

#endif /* _PLUGINS_EH_PRINT_H */
