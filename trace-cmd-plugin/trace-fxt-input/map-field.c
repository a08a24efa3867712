// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-field.c - a record's fields read as the mapping writes them.
 *
 * The bytes of an array or string field (fixed, __data_loc or
 * __rel_loc, or a flexible array running to the record's end), a
 * string's text, libtraceevent's test for printing a char array as a
 * string, an array as the "ARRAY[xx, yy, ...]" text trace-cmd report -R
 * prints, and the bytes a record holds past its fields.  Integers are
 * read by map_field_u64() in map-field.h, inline: every event reads some.
 */
#include <ctype.h>
#include <string.h>

#include <trace-cmd.h>

#include "map-ctx.h"
#include "map-field.h"

/* Bounds of an array field's bytes in the record (dynamic or fixed). */
bool map_field_span(struct tep_record *rec, struct tep_format_field *f,
		    unsigned int *off, unsigned int *len)
{
	unsigned long long v;

	if (f->offset + f->size > rec->size)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*off = f->offset;
		/* a flexible array ("char buf[]") runs to the record's end */
		*len = f->size ? f->size : rec->size - f->offset;
		return true;
	}
	v = tep_read_number(f->event->tep, (char *)rec->data + f->offset,
			    f->size);
	*off = v & 0xffff;
	*len = (v >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += f->offset + f->size;
	if (*off > (unsigned int)rec->size)
		*off = rec->size;
	if (*off + *len > (unsigned int)rec->size)
		*len = rec->size - *off;
	return true;
}

/* A string field's text (up to its NUL); returns its length or -1. */
int map_field_str(struct tep_record *rec, struct tep_format_field *f,
		  const char **s)
{
	unsigned int off, len;
	const char *p;

	if (!f || !map_field_span(rec, f, &off, &len))
		return -1;
	p = (const char *)rec->data + off;
	*s = p;
	return strnlen(p, len);
}

/*
 * libtraceevent's test for printing a char array as a string: every
 * character before the NUL isprint() or isspace().  The two are asked
 * once per byte value, not per character of every record.
 */
bool map_field_printable(const char *p, unsigned int len)
{
	static bool shows[256];
	static bool ready;
	unsigned int i;

	if (!ready) {
		for (i = 0; i < 256; i++)
			shows[i] = isprint(i) || isspace(i);
		ready = true;
	}
	for (i = 0; i < len && p[i]; i++)
		if (!shows[(unsigned char)p[i]])
			return false;
	return true;
}

bool map_field_nonzero(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return true;
	return false;
}

static const char map_hex[] = "0123456789abcdef";

/*
 * "ARRAY[xx, xx, ...]", as trace-cmd report -R prints an array field.
 * Built in a local buffer and handed over in pieces: trace_seq's per-
 * character calls were the conversion's largest cost on syscall events.
 */
void map_field_array_text(struct map_ctx *ctx, const unsigned char *p,
			  unsigned int len)
{
	char buf[1024];
	unsigned int i, n = 6;

	memcpy(buf, "ARRAY[", 6);
	for (i = 0; i < len; i++) {
		if (n > sizeof(buf) - 6) {
			buf[n] = 0;
			trace_seq_puts(&ctx->seq, buf);
			n = 0;
		}
		if (i) {
			buf[n++] = ',';
			buf[n++] = ' ';
		}
		buf[n++] = map_hex[p[i] >> 4];
		buf[n++] = map_hex[p[i] & 15];
	}
	buf[n++] = ']';
	buf[n] = 0;
	trace_seq_puts(&ctx->seq, buf);
}

/*
 * Where what @rec's fields cover ends: past the fixed fields, the data
 * of every __data_loc one and a flexible string's NUL; the record's size
 * when a flexible array of another kind runs to its end.
 */
static inline unsigned int field_data_end(struct map_event *me,
					  struct tep_record *rec)
{
	unsigned int end = me->fixed_end, size = rec->size, i, off, len;
	const unsigned char *p = rec->data;

	if (rec->size <= 0 || end >= size)
		return size > 0 ? size : 0;
	for (i = 0; i < me->nr_var; i++) {
		struct map_field *mf = &me->fields[me->var_idx[i]];
		struct tep_format_field *f = mf->field;
		bool flex = map_field_flexible(f);

		if (!map_field_span(rec, f, &off, &len))
			continue;
		/*
		 * A flexible array runs to the record's end, but written as
		 * a string it ends at its NUL: what a trace_marker write
		 * left after that is trailing.
		 */
		if (flex && mf->kind == MAP_FIELD_STRING)
			len = strnlen((char *)p + off, len) + 1;
		else if (flex)
			return size;
		if (off + len > end)
			end = off + len;
	}
	return end < size ? end : size;
}

unsigned int map_field_data_end(struct map_event *me, struct tep_record *rec)
{
	return field_data_end(me, rec);
}

/*
 * Bytes of @rec past what its fields cover (map_field_data_end()).  The
 * .dat writer pads a record to 4 bytes with zeroes itself, so such
 * padding alone is not carried; anything else is (EventHeader payloads
 * follow a format of six fields), so that fxt2dat restores the record's
 * length and bytes.
 * Returns the number of bytes, their start in *@start.
 */
unsigned int map_field_trailing(struct map_event *me, struct tep_record *rec,
				unsigned int *start)
{
	/* inline: on every record */
	unsigned int end = field_data_end(me, rec), size = rec->size, i;
	const unsigned char *p = rec->data;

	if (end >= size)
		return 0;
	/*
	 * Fewer than 8 bytes past the fields of a kernel event are the
	 * alignment padding of its entry (whatever the ring buffer held
	 * there): no meaning, not carried.  user_events carry what the
	 * writer put past the declared fields (EventHeader payloads).
	 */
	if (size - end < 8 && !me->user_data)
		return 0;
	if (size <= ((end + 3) & ~3u)) {
		for (i = end; i < size && !p[i]; i++)
			;
		if (i == size)
			return 0;
	}
	*start = end;
	return size - end;
}
