/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * eventheader.h - decoder for the EventHeader convention of Linux
 * user_events / tracepoints.
 *
 * An EventHeader event is one tracepoint record whose payload is
 *
 *	eventheader (8 bytes) [extension blocks] field data
 *
 * and whose tracepoint name is "Provider_L<level>K<keyword>[options]".
 * The metadata extension names the event and describes every field
 * (encoding = how big the value is, format = how to show it, optional
 * 16-bit tag, constant or variable array counts, nested structs); the
 * activity-id extension correlates events.  The rules decoded here are
 * those of microsoft/LinuxTracepoints (eventheader.h and its C++ decoder).
 *
 * Use:
 *
 *	struct eh_decoder *d = eh_decoder_new();
 *	struct eh_item it;
 *	int ret = eh_decoder_start(d, tp_name, tp_len, data, size);
 *	if (ret < 0)
 *		... not EventHeader, or broken: eh_decoder_strerror(d)
 *	while ((ret = eh_decoder_next(d, &it)) > 0)
 *		... EVENT_BEGIN, VALUE, ARRAY_BEGIN/END, STRUCT_BEGIN/END,
 *		    EVENT_END
 *	if (ret < 0)
 *		... malformed payload: eh_decoder_strerror(d)
 *	eh_decoder_free(d);
 *
 * The decoder never copies: names and values point into the buffers given
 * to eh_decoder_start(), which must stay unchanged while it is in use.  It
 * never reads outside them and every loop is bounded by the input size or
 * by an item limit, whatever the input.
 *
 * Errors are negative errno values:
 *	-EINVAL		bad arguments, or the event is shorter than its header
 *	-ENOTSUP	not an EventHeader event (name grammar, unknown header
 *			flags, no metadata) or a reserved encoding
 *	-EBADMSG	the event claims to be EventHeader but its bytes are
 *			malformed (truncated, bad sizes, bad metadata)
 *	-E2BIG		more items than the decoder's item limit
 *	-EMLINK		structs nested deeper than EH_MAX_DEPTH
 */
#ifndef _TRACE_FXT_EVENTHEADER_H
#define _TRACE_FXT_EVENTHEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Longest tracepoint name, NUL included, that EventHeader allows. */
#define EH_NAME_MAX		256
/* Size of the fixed header at the start of every event. */
#define EH_HEADER_SIZE		8
/* Deepest struct nesting decoded (the reference decoder's limit). */
#define EH_MAX_DEPTH		8
/* Default bound on eh_decoder_next() calls per event. */
#define EH_ITEM_LIMIT_DEFAULT	(1u << 17)

/* eventheader.flags */
enum eh_flags {
	EH_FLAG_POINTER64	= 0x01,
	EH_FLAG_LITTLE_ENDIAN	= 0x02,
	EH_FLAG_EXTENSION	= 0x04,
};

/* eventheader_extension.kind */
enum eh_ext_kind {
	EH_EXT_INVALID		= 0,
	EH_EXT_METADATA		= 1,
	EH_EXT_ACTIVITY_ID	= 2,
	EH_EXT_KIND_MASK	= 0x7fff,
	EH_EXT_CHAIN		= 0x8000,	/* another extension follows */
};

/* eventheader.opcode values with a meaning of their own */
enum eh_opcode {
	EH_OPCODE_INFO			= 0,
	EH_OPCODE_ACTIVITY_START	= 1,
	EH_OPCODE_ACTIVITY_STOP		= 2,
	EH_OPCODE_COLLECTION_START	= 3,
	EH_OPCODE_COLLECTION_STOP	= 4,
	EH_OPCODE_EXTENSION		= 5,
	EH_OPCODE_REPLY			= 6,
	EH_OPCODE_RESUME		= 7,
	EH_OPCODE_SUSPEND		= 8,
	EH_OPCODE_SEND			= 9,
	EH_OPCODE_RECEIVE		= 0xf0,
};

/* Field encoding byte: low 5 bits say how big a value is. */
enum eh_encoding {
	EH_ENC_INVALID			= 0,
	EH_ENC_STRUCT			= 1,	/* format = field count */
	EH_ENC_VALUE8			= 2,
	EH_ENC_VALUE16			= 3,
	EH_ENC_VALUE32			= 4,
	EH_ENC_VALUE64			= 5,
	EH_ENC_VALUE128			= 6,
	EH_ENC_ZSTRING_CHAR8		= 7,
	EH_ENC_ZSTRING_CHAR16		= 8,
	EH_ENC_ZSTRING_CHAR32		= 9,
	EH_ENC_STRING_LENGTH16_CHAR8	= 10,
	EH_ENC_STRING_LENGTH16_CHAR16	= 11,
	EH_ENC_STRING_LENGTH16_CHAR32	= 12,
	EH_ENC_BINARY_LENGTH16_CHAR8	= 13,
	EH_ENC_MAX			= 14,	/* first unknown encoding */

	EH_ENC_VALUE_MASK		= 0x1f,
	EH_ENC_CARRAY			= 0x20,	/* count in the metadata */
	EH_ENC_VARRAY			= 0x40,	/* count in the payload */
	EH_ENC_CHAIN			= 0x80,	/* a format byte follows */
};

/* Field format byte: low 7 bits say how to show a value. */
enum eh_format {
	EH_FMT_DEFAULT			= 0,
	EH_FMT_UNSIGNED_INT		= 1,
	EH_FMT_SIGNED_INT		= 2,
	EH_FMT_HEX_INT			= 3,
	EH_FMT_ERRNO			= 4,
	EH_FMT_PID			= 5,
	EH_FMT_TIME			= 6,	/* seconds since 1970 */
	EH_FMT_BOOLEAN			= 7,
	EH_FMT_FLOAT			= 8,
	EH_FMT_HEX_BYTES		= 9,
	EH_FMT_STRING8			= 10,	/* Latin-1 */
	EH_FMT_STRING_UTF		= 11,
	EH_FMT_STRING_UTF_BOM		= 12,
	EH_FMT_STRING_XML		= 13,
	EH_FMT_STRING_JSON		= 14,
	EH_FMT_UUID			= 15,
	EH_FMT_PORT			= 16,	/* network byte order */
	EH_FMT_IP_ADDRESS		= 17,	/* IPv4 (4 bytes), IPv6 (16) */
	EH_FMT_IP_ADDRESS_OBSOLETE	= 18,	/* decoded as IP_ADDRESS */

	EH_FMT_VALUE_MASK		= 0x7f,
	EH_FMT_CHAIN			= 0x80,	/* a 16-bit tag follows */
};

/*
 * A parsed tracepoint name.  The provider is name[0, provider_len); the
 * options ("G<group>" etc.) are name[options_off, name_len).  name is the
 * caller's buffer and need not be NUL-terminated.
 */
struct eh_tracepoint {
	const char	*name;
	size_t		name_len;
	size_t		provider_len;
	size_t		options_off;
	uint64_t	keyword;
	uint8_t		level;
};

/**
 * eh_tracepoint_parse() - split an EventHeader tracepoint name
 * @tp: filled with the parts
 * @name: "Provider_L<hex level>K<hex keyword>{<A-Z>[0-9a-z]*}", not
 *	  necessarily NUL-terminated; must outlive @tp
 * @len: its length
 *
 * Return: 0, or -ENOTSUP if the name does not follow the grammar.
 */
int eh_tracepoint_parse(struct eh_tracepoint *tp, const char *name,
			size_t len);

/**
 * eh_tracepoint_option() - one option of a parsed name
 * @tp: the parsed name
 * @letter: the option, e.g. 'G' for the provider group
 * @value: set to the option's text (possibly empty, not NUL-terminated)
 * @len: set to its length
 *
 * Return: 0, or -ENOENT if the name has no such option.
 */
int eh_tracepoint_option(const struct eh_tracepoint *tp, char letter,
			 const char **value, size_t *len);

/* What eh_decoder_start() learnt about the event as a whole. */
struct eh_event_info {
	struct eh_tracepoint	tp;
	uint8_t			flags;		/* enum eh_flags */
	uint8_t			version;
	uint16_t		id;		/* host order */
	uint16_t		tag;		/* host order */
	uint8_t			opcode;
	uint8_t			level;
	bool			big_endian;	/* of the event's values */
	/* NUL-terminated inside the metadata; attributes follow a ';' */
	const char		*name;
	size_t			name_len;	/* bytes before ';' or NUL */
	const uint8_t		*activity_id;	/* 16 bytes, or NULL */
	const uint8_t		*related_id;	/* 16 bytes, or NULL */
	const uint8_t		*meta;		/* metadata extension */
	size_t			meta_len;
	const uint8_t		*payload;	/* field data */
	size_t			payload_len;
};

enum eh_item_kind {
	EH_ITEM_NONE,
	EH_ITEM_EVENT_BEGIN,	/* name = event name */
	EH_ITEM_VALUE,		/* one scalar or one array element */
	EH_ITEM_ARRAY_BEGIN,
	EH_ITEM_ARRAY_END,
	EH_ITEM_STRUCT_BEGIN,	/* format = number of fields */
	EH_ITEM_STRUCT_END,
	EH_ITEM_EVENT_END,
	EH_ITEM_ERROR,		/* name = error message */
};

/*
 * One step of the walk over an event.  For VALUE items, data/size are the
 * value's bytes without the NUL terminator or length prefix of a string;
 * for an ARRAY_BEGIN of fixed-size elements (elem_size != 0) they cover
 * every element, so the array can be taken whole (then call
 * eh_decoder_skip_array()).  Multi-byte values are in the event's byte
 * order (big_endian), except PORT, IP and UUID which are network order.
 */
struct eh_item {
	enum eh_item_kind	kind;
	/* NUL-terminated "name;attr=value..." inside the metadata */
	const char		*name;
	size_t			name_len;	/* bytes before ';' or NUL */
	uint8_t			encoding;	/* enum eh_encoding, no flags */
	uint8_t			format;		/* enum eh_format, no flag */
	uint16_t		tag;		/* host order, 0 if none */
	uint8_t			array_flags;	/* EH_ENC_CARRAY/VARRAY, or 0 */
	uint8_t			elem_size;	/* 1..16, 0 if variable */
	uint8_t			depth;		/* struct nesting, 0 = top */
	bool			big_endian;
	uint16_t		array_index;
	uint16_t		array_count;	/* 1 if not an array */
	const uint8_t		*data;
	uint32_t		size;
};

struct eh_decoder;

/**
 * eh_decoder_new() - a decoder, reused from event to event
 *
 * Return: the decoder, or NULL when out of memory.
 */
struct eh_decoder *eh_decoder_new(void);

/**
 * eh_decoder_free() - free a decoder
 * @d: the decoder, or NULL
 */
void eh_decoder_free(struct eh_decoder *d);

/**
 * eh_decoder_set_item_limit() - bound the items of one event
 * @d: the decoder
 * @limit: eh_decoder_next() calls allowed per event (0: the default)
 */
void eh_decoder_set_item_limit(struct eh_decoder *d, uint32_t limit);

/**
 * eh_decoder_start() - begin decoding one event
 * @d: the decoder
 * @name: the tracepoint name, no NUL needed; must outlive the walk
 * @name_len: its length
 * @data: the event's bytes from the EventHeader on (after the
 *	  tracepoint's common fields); must outlive the walk
 * @size: its length
 *
 * Checks the event header, tracepoint name and extension chain, and gets
 * ready to walk the fields.
 *
 * Return: 0 or a negative errno (eh_decoder_strerror() says why).
 */
int eh_decoder_start(struct eh_decoder *d, const char *name, size_t name_len,
		     const void *data, size_t size);

/**
 * eh_decoder_rewind() - go back to before the first item
 * @d: the decoder, with an event started
 *
 * Return: 0, or a negative errno if no event was started.
 */
int eh_decoder_rewind(struct eh_decoder *d);

/**
 * eh_decoder_event() - what eh_decoder_start() learnt about the event
 * @d: the decoder
 *
 * Return: the event, or NULL if eh_decoder_start() failed.
 */
const struct eh_event_info *eh_decoder_event(const struct eh_decoder *d);

/**
 * eh_decoder_next() - the next item of the walk
 * @d: the decoder
 * @item: filled with the item
 *
 * Once failed, the walk stays failed (eh_decoder_rewind() retries).
 *
 * Return: 1 with @item filled, 0 after EVENT_END, or a negative errno
 * with @item->kind = EH_ITEM_ERROR.
 */
int eh_decoder_next(struct eh_decoder *d, struct eh_item *item);

/**
 * eh_decoder_skip_array() - move past an array taken whole
 * @d: the decoder, right after an ARRAY_BEGIN with elem_size != 0
 *
 * The next item is then the ARRAY_END.
 *
 * Return: 0, or -EINVAL when not right after such an ARRAY_BEGIN.
 */
int eh_decoder_skip_array(struct eh_decoder *d);

/**
 * eh_decoder_strerror() - why the last call failed
 * @d: the decoder
 *
 * Return: the message, "" if none.
 */
const char *eh_decoder_strerror(const struct eh_decoder *d);

/**
 * eh_encoding_name() - an encoding's name ("value32"...)
 * @encoding: enum eh_encoding, no flags
 *
 * Return: the name, or NULL if unknown.
 */
const char *eh_encoding_name(unsigned int encoding);

/**
 * eh_format_name() - a format's name ("hex_int"...)
 * @format: enum eh_format, no flag
 *
 * Return: the name, or NULL if unknown.
 */
const char *eh_format_name(unsigned int format);

/**
 * eh_format_counted_sizes() - sizes at which a counted field is a value
 * @format: enum eh_format of a counted (length16) char8 or binary
 *	    field
 *
 * Such a field stands for a fixed-size value of @format when its length
 * is one of these; empty is null, any other length is bytes or text.
 *
 * Return: bit n set for n bytes; 0 for string-like formats.
 */
uint32_t eh_format_counted_sizes(unsigned int format);

/* Flags for eh_format_value*() */
enum eh_text_flags {
	EH_TEXT_JSON	= 0x1,	/* a JSON value: quoted, escaped strings */
};

/**
 * eh_format_value() - one VALUE item as text, as LinuxTracepoints prints it
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @item: the item
 * @flags: enum eh_text_flags
 *
 * Integers in decimal, "0x%X" for hex, errno as "ENOENT(2)", time as
 * "2024-01-31T12:00:00", booleans as true/false, floats in shortest
 * round-trip form, hex bytes as "01 02", strings as UTF-8 (invalid UTF-8
 * bytes read as Latin-1), UUIDs and IP addresses in their usual notation.
 *
 * Return: the length the whole text needs (snprintf rules), or a negative
 * errno: -EINVAL for a size that does not fit the encoding, -ENOTSUP for
 * an unknown encoding.
 */
ssize_t eh_format_value(char *buf, size_t size, const struct eh_item *item,
			unsigned int flags);

/**
 * eh_format_value_raw() - the bytes of one value as text
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @data: the value's bytes
 * @len: their number
 * @encoding: enum eh_encoding of the value
 * @format: enum eh_format of the value
 * @big_endian: the value's byte order
 * @flags: enum eh_text_flags
 *
 * As eh_format_value(), for a value that is not an item of a walk.
 *
 * Return: as eh_format_value().
 */
ssize_t eh_format_value_raw(char *buf, size_t size, const void *data,
			    size_t len, unsigned int encoding,
			    unsigned int format, bool big_endian,
			    unsigned int flags);

/* Flags for eh_format_event_json() */
enum eh_json_flags {
	EH_JSON_SPACE		= 0x01,	/* a space after ',' ':' '{' '[' */
	EH_JSON_FIELD_TAG	= 0x02,	/* "name;tag=0xN" for tagged fields */
	EH_JSON_NO_META		= 0x04,	/* leave out the "meta" object */
	EH_JSON_META_EXTRA	= 0x08,	/* "meta" also has provider, event,
					   options and flags */
};

/**
 * eh_format_event_json() - the started event as one JSON object
 * @d: the decoder, with an event started
 * @buf: where the text goes
 * @size: room at @buf, NUL included
 * @flags: enum eh_json_flags
 *
 * The object is
 *	{ "n": "Provider:event", "field": value, ..., "meta": { "id": ..,
 *	  "version": .., "level": .., "keyword": "0x..", "opcode": ..,
 *	  "tag": "0x..", "activity": "uuid", "relatedActivity": "uuid" } }
 * (zero meta values left out), as LinuxTracepoints' EventFormatter writes
 * it.  Rewinds the decoder and walks the whole event.
 *
 * Return: the length the whole text needs (snprintf rules), or the
 * walk's negative errno.
 */
ssize_t eh_format_event_json(struct eh_decoder *d, char *buf, size_t size,
			     unsigned int flags);

/**
 * eh_format_event_json_alloc() - the same, in memory of its own
 * @d: the decoder, with an event started
 * @flags: enum eh_json_flags
 * @err: set to the negative errno on failure
 *
 * Return: a malloc()ed string that the caller frees, or NULL on error.
 */
char *eh_format_event_json_alloc(struct eh_decoder *d, unsigned int flags,
				 int *err);

#endif /* _TRACE_FXT_EVENTHEADER_H */
