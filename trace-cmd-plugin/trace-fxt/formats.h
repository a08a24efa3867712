/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * formats.h - a .dat's event formats parsed only for the events its
 * records have (formats.c).
 */
#ifndef _TRACE_FXT_FORMATS_H
#define _TRACE_FXT_FORMATS_H

#include <stdint.h>

/*
 * From now on, an event format libtracecmd hands libtraceevent (but the
 * ftrace system's) is kept instead of parsed, until formats_parse_used().
 */
void formats_defer(void);

/*
 * Parse the formats kept since formats_defer() whose event ID has its bit
 * set in @ids (65536 bits; NULL: every one), in the order they came, and
 * stop keeping them.  Call it before anything looks an event up.
 * Returns how many were parsed.
 */
unsigned int formats_parse_used(const uint8_t *ids);

#endif /* _TRACE_FXT_FORMATS_H */
