/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * eventheader-enc.h - writer of EventHeader events, the other direction of
 * eventheader.h: the test fixtures and the .dat samples make their events
 * with it, since this machine's kernel cannot record user_events.
 *
 * An event is built in three interleaved streams that the writer keeps
 * apart and joins at the end:
 *
 *	struct eh_enc *e = eh_enc_new();
 *	eh_enc_begin(e, &header, "Event;attr=1");
 *	eh_enc_activity(e, id, related);		(optional)
 *	eh_enc_field(e, "count", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0, 0);
 *	eh_enc_uint(e, 4, 0x2a);
 *	...
 *	eh_enc_finish(e, &data, &len);
 *
 * eh_enc_field() appends a field definition to the metadata extension;
 * eh_enc_count(), eh_enc_uint(), eh_enc_bytes() and eh_enc_string() append
 * values to the payload.  The writer does not check that the values match
 * the definitions: it writes what it is told, so that tests can also make
 * events that lie.  Multi-byte numbers are written in the event's byte
 * order; eh_enc_bytes() writes bytes as given (network-order values, UUIDs,
 * 128-bit values).
 *
 * Errors are negative errno values and stick until the next
 * eh_enc_begin(): -EINVAL for bad arguments, -E2BIG when an extension or
 * the metadata outgrows the 16-bit sizes of the format, -ENOMEM.
 */
#ifndef _TRACE_FXT_EVENTHEADER_ENC_H
#define _TRACE_FXT_EVENTHEADER_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fixed header of an event, in host order. */
struct eh_enc_header {
	uint8_t		version;
	uint16_t	id;
	uint16_t	tag;
	uint8_t		opcode;
	uint8_t		level;
	bool		big_endian;	/* of every multi-byte number */
	bool		pointer32;	/* leave EH_FLAG_POINTER64 clear */
};

struct eh_enc;

/**
 * eh_enc_new() - allocate an event writer
 *
 * Return: the writer, or NULL when out of memory.
 */
struct eh_enc *eh_enc_new(void);

/**
 * eh_enc_free() - release a writer and the last event it finished
 * @e: the writer, or NULL
 */
void eh_enc_free(struct eh_enc *e);

/**
 * eh_enc_begin() - start a new event
 * @e: the writer
 * @h: the header's values
 * @name: the event name, attributes included ("Name;a=b"), NUL-terminated
 *
 * Forgets the previous event and any error.
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_begin(struct eh_enc *e, const struct eh_enc_header *h,
		 const char *name);

/**
 * eh_enc_activity() - add the activity id extension
 * @e: the writer
 * @id: the 16-byte activity id
 * @related: the 16-byte related activity id, or NULL for none
 *
 * Extensions are written in the order they are added; the metadata goes
 * last unless eh_enc_extension() placed it.
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_activity(struct eh_enc *e, const uint8_t *id,
		    const uint8_t *related);

/**
 * eh_enc_extension() - add an extension block of any kind
 * @e: the writer
 * @kind: the kind, without the chain flag; EH_EXT_METADATA places the
 *	  metadata block here (@data is then ignored)
 * @data: the block's bytes
 * @len: their number, at most 65535
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_extension(struct eh_enc *e, uint16_t kind, const void *data,
		     size_t len);

/**
 * eh_enc_field() - append a field definition to the metadata
 * @e: the writer
 * @name: field name, attributes included, NUL-terminated
 * @encoding: enum eh_encoding value, with EH_ENC_CARRAY or EH_ENC_VARRAY
 *	      (no EH_ENC_CHAIN: it is set when a format byte follows)
 * @format: enum eh_format value (no EH_FMT_CHAIN); for a struct, its
 *	    number of fields, whose definitions follow
 * @tag: field tag, 0 for none
 * @carray_count: element count of a constant-length array
 *
 * The format byte is written when @format or @tag is not zero, the tag
 * when it is not zero.
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_field(struct eh_enc *e, const char *name, uint8_t encoding,
		 uint8_t format, uint16_t tag, uint16_t carray_count);

/**
 * eh_enc_count() - append the element count of a variable-length array
 * @e: the writer
 * @count: the count
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_count(struct eh_enc *e, uint16_t count);

/**
 * eh_enc_uint() - append a number in the event's byte order
 * @e: the writer
 * @size: 1, 2, 4 or 8 bytes
 * @value: the number (its low @size bytes)
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_uint(struct eh_enc *e, unsigned int size, uint64_t value);

/**
 * eh_enc_bytes() - append bytes as they are
 * @e: the writer
 * @data: the bytes
 * @len: their number
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_bytes(struct eh_enc *e, const void *data, size_t len);

/**
 * eh_enc_string() - append a string or binary value
 * @e: the writer
 * @encoding: a string encoding (EH_ENC_ZSTRING_* add a NUL code unit,
 *	      EH_ENC_STRING_LENGTH16_* and EH_ENC_BINARY_LENGTH16_CHAR8 a
 *	      16-bit count before the units)
 * @units: the code units: uint8_t, uint16_t or uint32_t as the encoding's
 *	   unit size, in host order
 * @count: the number of code units (at most 65535 for counted strings)
 *
 * Return: 0 or a negative errno.
 */
int eh_enc_string(struct eh_enc *e, uint8_t encoding, const void *units,
		  size_t count);

/**
 * eh_enc_finish() - join header, extensions and payload
 * @e: the writer
 * @data: set to the event's bytes, valid until the next eh_enc_begin()
 * @len: set to their number
 *
 * Return: 0 or the first error met since eh_enc_begin().
 */
int eh_enc_finish(struct eh_enc *e, const uint8_t **data, size_t *len);

/**
 * eh_enc_tracepoint_name() - "Provider_L<level>K<keyword><options>"
 * @buf: where to write the name, NUL-terminated
 * @size: room in @buf
 * @provider: the provider name
 * @level: the event level
 * @keyword: the keyword bits
 * @options: options such as "Gmygroup", or "" for none
 *
 * Return: the name's length, or -ENAMETOOLONG when it does not fit @buf
 * or the EventHeader limit (EH_NAME_MAX).
 */
int eh_enc_tracepoint_name(char *buf, size_t size, const char *provider,
			   uint8_t level, uint64_t keyword,
			   const char *options);

#endif /* _TRACE_FXT_EVENTHEADER_ENC_H */
