// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-reader.c - libFuzzer target for the FXT reader.
 *
 * The input is decoded from memory twice, leniently and strictly, to the
 * end or the first error.  Every byte of every string and payload the
 * reader hands out is read, so that a pointer or a length running past
 * the input (or past a string table entry) is caught by ASan here rather
 * than by some consumer later.  The record count is bounded by the input
 * size, each record being at least a word: more is a loop.
 *
 * The lenient read skips a malformed record of sound size and goes on:
 * it delivers every record the strict read delivered before its fault,
 * at the same offsets; its records and the ones it skipped tile the input
 * (a gap between two delivered records only where it skipped, each skip
 * counted once and the first kept); it stops no earlier than the strict
 * read; and its tally names what it counted, once per kind.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fxt-reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint8_t sink;

static void touch(const void *p, uint64_t n)
{
	const volatile uint8_t *b = p;
	uint8_t acc = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		acc ^= b[i];
	sink ^= acc;
}

static void touch_str(struct fxt_str s)
{
	touch(s.ptr, s.len);
}

static void touch_cstr(const char *s)
{
	if (s)
		touch(s, strlen(s) + 1);
}

static void touch_args(const struct fxt_arg *a, unsigned int n)
{
	unsigned int i;

	if (n > 15)
		abort();
	for (i = 0; i < n; i++) {
		touch_str(a[i].name);
		touch_cstr(fxt_arg_type_name(a[i].type));
		if (a[i].type == FXT_ARG_STRING)
			touch_str(a[i].str);
		else if (a[i].type >= FXT_ARG_TYPE_COUNT)
			touch(a[i].raw, (uint64_t)a[i].raw_words * 8);
	}
}

static void touch_record(const struct fxt_record *rec)
{
	touch_cstr(fxt_record_type_name(rec->type));
	switch (rec->type) {
	case FXT_REC_METADATA:
		if (rec->meta.type == FXT_META_PROVIDER_INFO)
			touch_str(rec->meta.name);
		break;
	case FXT_REC_STRING:
		touch_str(rec->string.str);
		break;
	case FXT_REC_EVENT:
		touch_cstr(fxt_event_type_name(rec->event.type));
		touch_str(rec->event.category);
		touch_str(rec->event.name);
		touch_args(rec->event.args, rec->event.nargs);
		break;
	case FXT_REC_BLOB:
		touch_str(rec->blob.name);
		touch(rec->blob.data, rec->blob.size);
		break;
	case FXT_REC_USERSPACE_OBJ:
		touch_str(rec->uobj.name);
		touch_args(rec->uobj.args, rec->uobj.nargs);
		break;
	case FXT_REC_KERNEL_OBJ:
		touch_str(rec->kobj.name);
		touch_args(rec->kobj.args, rec->kobj.nargs);
		break;
	case FXT_REC_SCHED:
		touch_cstr(fxt_thread_state_name(rec->sched.out_state));
		if (rec->sched.subtype != FXT_SCHED_LEGACY_SWITCH)
			touch_args(rec->sched.args, rec->sched.nargs);
		break;
	case FXT_REC_LOG:
		touch_str(rec->log.msg);
		break;
	case FXT_REC_LARGE:
		touch_str(rec->large.category);
		touch_str(rec->large.name);
		if (rec->large.format == FXT_LARGE_BLOB_METADATA)
			touch_args(rec->large.args, rec->large.nargs);
		touch(rec->large.data, rec->large.size);
		break;
	case FXT_REC_INIT:
	case FXT_REC_THREAD:
		break;
	default:
		touch(rec->raw, rec->size);
		break;
	}
}

/* Every warning is a whole, named message. */
static void touch_warning(void *priv, const char *msg)
{
	(void)priv;
	if (!msg || strncmp(msg, "fuzz: offset 0x", 15))
		abort();
	touch_cstr(msg);
}

/* What one read delivered: the first records' offsets, where it ended. */
struct outcome {
	uint64_t	off[256];
	size_t		n;
	int		ret;
	uint64_t	stop;		/* the fault's offset, or the size */
	uint64_t	gaps;		/* runs of bytes between records */
	uint64_t	malformed;	/* FXT_WARN_MALFORMED records */
};

static uint64_t offset_of(const char *msg)
{
	const char *p = msg ? strstr(msg, "offset 0x") : NULL;

	return p ? strtoull(p + 9, NULL, 16) : UINT64_MAX;
}

/* The tally: one line per kind counted, each naming the input. */
static void check_tally(const struct fxt_reader *r)
{
	char buf[4096];
	unsigned int kinds = 0, lines = 0, k;
	int n = fxt_reader_tally(r, "t: ", buf, sizeof(buf));
	char *p;

	for (k = 0; k < FXT_WARN_KINDS; k++) {
		kinds += fxt_reader_warned(r, k) != 0;
		/* a first warning exactly when the kind counted one */
		if (!fxt_reader_warned(r, k) != !fxt_reader_warning(r, k))
			abort();
		touch_cstr(fxt_reader_warning(r, k));
	}
	if (n < 0 || (size_t)n >= sizeof(buf) || !n != !kinds)
		abort();
	for (p = buf; (p = strchr(p, '\n')); p++)
		lines++;
	if (lines != kinds || (n && strncmp(buf, "t: ", 3)))
		abort();
}

/* Whether [from, to) of @data is blob records of compressed records. */
static bool chunks_to(const uint8_t *data, size_t size, uint64_t from,
		      uint64_t to)
{
	while (from < to && from + 8 <= size) {
		uint64_t h, words;

		memcpy(&h, data + from, 8);
		words = h >> 4 & 0xfff;
		if ((h & 0xf) != FXT_REC_BLOB || !words ||
		    (h >> 48 & 0xff) != FXT_BLOB_RECORDS_ZSTD)
			return false;
		from += words * 8;
	}
	return from == to;
}

static void run(const uint8_t *data, size_t size, unsigned int flags,
		struct outcome *o)
{
	struct fxt_reader *r = fxt_reader_open_mem(data, size, "fuzz", flags);
	struct fxt_record rec;
	uint64_t end = 0;
	bool nest_end = false;
	size_t n = 0;
	int ret;

	memset(o, 0, sizeof(*o));
	if (!r)
		return;
	fxt_reader_set_warn(r, touch_warning, NULL);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.nested) {
			/* a frame's record: in a frame of the input */
			uint64_t at = (rec.offset & ~FXT_OFFSET_NESTED) >>
				      FXT_NEST_BITS;

			if (!(rec.offset & FXT_OFFSET_NESTED) || at >= size ||
			    (rec.offset & (FXT_NEST_MAX - 1)) + rec.size >
			    FXT_NEST_MAX || rec.size < 8 || ++n > 64 * size)
				abort();
			if (o->n < 256)
				o->off[o->n++] = rec.offset;
			touch_record(&rec);
			continue;
		}
		/* records lie in the input, in order, each at least a word */
		if (rec.offset < end || rec.size < 8 ||
		    rec.offset + rec.size > size || ++n > 64 * size)
			abort();
		/* what a frame took besides its first blob record: its chunks */
		if (rec.offset > end && nest_end &&
		    chunks_to(data, size, end, rec.offset))
			end = rec.offset;
		if (rec.offset > end)
			o->gaps++;
		if (o->n < 256)
			o->off[o->n++] = rec.offset;
		end = rec.offset + rec.size;
		nest_end = rec.type == FXT_REC_BLOB &&
			   (rec.blob.type == FXT_BLOB_RECORDS ||
			    rec.blob.type == FXT_BLOB_RECORDS_ZSTD);
		touch_record(&rec);
		touch_cstr(fxt_reader_provider_name(r, rec.provider_id));
	}
	if (ret < 0 && !fxt_reader_error(r))
		abort();
	touch_cstr(fxt_reader_error(r));
	o->ret = ret;
	o->stop = ret < 0 ? offset_of(fxt_reader_error(r)) : size;
	/* (a frame cut short at the end of the input: its chunks) */
	if (ret == 0 && end < size &&
	    !(nest_end && chunks_to(data, size, end, size)))
		o->gaps++;
	o->malformed = fxt_reader_warned(r, FXT_WARN_MALFORMED);
	/* a first warning exactly when some record had one */
	if (!fxt_reader_warned_records(r) != !fxt_reader_first_warning(r))
		abort();
	touch_cstr(fxt_reader_first_warning(r));
	check_tally(r);
	/* only a lenient read skips a record whole */
	if ((flags & FXT_READER_STRICT) && o->malformed)
		abort();
	/* every gap is skipped records, each counted once */
	if (o->gaps > o->malformed)
		abort();
	fxt_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome lenient, strict, pedantic;
	size_t i;

	run(data, size, 0, &lenient);
	run(data, size, FXT_READER_STRICT, &strict);
	run(data, size, FXT_READER_STRICT | FXT_READER_PEDANTIC, &pedantic);
	/*
	 * What strict delivered before its fault, lenient delivered too,
	 * at the same offsets; lenient read at least as far.
	 */
	for (i = 0; i < strict.n && i < lenient.n; i++)
		if (strict.off[i] != lenient.off[i])
			abort();
	if (lenient.n < strict.n && lenient.n < 256)
		abort();
	if (strict.ret < 0 && lenient.ret < 0 && lenient.stop < strict.stop &&
	    strict.stop != UINT64_MAX)
		abort();
	return 0;
}
