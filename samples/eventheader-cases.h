/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eventheader-cases.h - the project's own EventHeader test events: a
 * catalogue of events, each field with the values it carries and the
 * JSON text LinuxTracepoints' decoder prints for them (written by hand
 * from its rules and test vectors), built with common/eventheader-enc.
 *
 * The catalogue covers every encoding, every format, constant and
 * variable arrays (empty ones too), structs, nested structs and arrays of
 * structs, field tags, event attributes, header values, activity and
 * related activity ids, unknown extensions and extension orders, 32-bit
 * pointer events, in either byte order.  tests/unit/test-eventheader.c
 * decodes each event and compares it, item by item, with the catalogue;
 * samples/eventheader-vectors writes the events as a vectors file with
 * its reference JSON, for the plugin and converter tests.
 */
#ifndef _EVENTHEADER_CASES_H
#define _EVENTHEADER_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eventheader.h"
#include "eventheader-enc.h"

/* One value: a number (host order), or bytes / code units. */
struct ehc_value {
	uint64_t	u;
	const void	*p;	/* if set: raw bytes of a fixed-size value,
				   or the units of a string */
	uint16_t	n;	/* bytes, or code units */
};

/*
 * A field definition and its values in payload order.  A struct's
 * fields follow it in the table; an array (of structs too) has @count
 * elements wherever it occurs, and a field inside an array of structs
 * has one value (or array) per element.
 */
struct ehc_field {
	const char		*name;
	uint8_t			enc;	/* with CARRAY/VARRAY */
	uint8_t			fmt;	/* a struct: field count */
	uint16_t		tag;
	uint16_t		count;
	const struct ehc_value	*v;
	const char		*json;	/* of a top-level field */
	const char		*json_be; /* if big endian differs */
};

struct ehc_event {
	const char		*provider;
	const char		*options;
	uint64_t		keyword;
	const char		*name;	/* attributes included */
	struct eh_enc_header	h;	/* big_endian: see build */
	const uint8_t		*activity;
	const uint8_t		*related;
	uint16_t		unknown_ext; /* an extra block's kind */
	bool			meta_first;
	const struct ehc_field	*fields; /* end: a NULL name */
	const char		*meta;	/* JSON "meta" members */
};

/* One step of the walk, as eh_decoder_next() should produce it. */
struct ehc_item {
	enum eh_item_kind	kind;
	const struct ehc_field	*f;	/* NULL for EVENT_BEGIN/END */
	const struct ehc_value	*v;	/* VALUE items */
	unsigned int		depth;
	uint16_t		index;
	uint16_t		count;
};

typedef int (*ehc_visit_fn)(void *ctx, const struct ehc_item *it);

extern const struct ehc_event ehc_events[];
extern const size_t ehc_event_count;

/* Walk @ev's items in payload order; stops at @fn's first non-zero. */
int ehc_walk(const struct ehc_event *ev, ehc_visit_fn fn, void *ctx);

/* Size in bytes of one code unit of a string encoding, 0 if none. */
unsigned int ehc_unit_size(unsigned int encoding);

/*
 * Build @ev in the given byte order with @e; @tp gets the tracepoint
 * name (EH_NAME_MAX bytes).  Returns 0 or a negative errno.
 */
int ehc_build(struct eh_enc *e, const struct ehc_event *ev, bool big_endian,
	      char *tp, const uint8_t **data, size_t *len);

/*
 * The JSON line LinuxTracepoints writes for @ev (space and field-tag
 * flags), into a malloc()ed string; NULL when out of memory.
 */
char *ehc_json(const struct ehc_event *ev, bool big_endian);

#endif /* _EVENTHEADER_CASES_H */
