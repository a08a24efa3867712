/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-format.h - the Fuchsia Trace Format's numbers, shared by the writer,
 * the reader and everything that prints records.
 *
 * Record layouts follow the FXT specification (shared/seeds/003) plus the
 * scheduling records that came after it (type 8 with a subtype in bits
 * [60..63]).  Values decoded by the reader and accepted by the writer use
 * the structures at the end of this file, so a record read from one file
 * can be handed straight to a writer.
 */
#ifndef _FXT_FORMAT_H
#define _FXT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The magic number record as one 64-bit word in the writer's byte order. */
#define FXT_MAGIC_RECORD	0x0016547846040010ULL
#define FXT_MAGIC		0x16547846U

/* Limits the format puts on a single record. */
#define FXT_MAX_RECORD_WORDS	0xfffU		/* 12-bit size field */
#define FXT_MAX_LARGE_WORDS	0xffffffffULL	/* 32-bit size field */
#define FXT_MAX_ARGS		15
#define FXT_MAX_STRING_INDEX	0x7fffU
#define FXT_MAX_THREAD_INDEX	0xffU
#define FXT_MAX_STRING_LEN	32000U	/* the spec's conservative limit */
#define FXT_MAX_PROVIDER_ID	0xffffffffU
#define FXT_MAX_PROVIDER_NAME	0xffU	/* 8-bit length field */
/*
 * Perfetto's importer (v58.2, cpu_tracker.h's kMaxCpusPerMachine) stops
 * on a scheduling record whose CPU is this or more: a CPU number the
 * 16-bit field of the newer scheduling records can hold, so a limit of
 * that viewer's, not a fault of the file.
 */
#define FXT_PERFETTO_MAX_CPUS	4096U
/*
 * Perfetto's tables hold pids and tids in 32 bits: its importer
 * (fuchsia_trace_tokenizer.cc and fuchsia_trace_parser.cc, v58.2) keeps
 * the low 32 bits of a thread's or a process's koid.
 */
#define FXT_PERFETTO_MAX_KOID	0xffffffffULL

enum fxt_record_type {
	FXT_REC_METADATA	= 0,
	FXT_REC_INIT		= 1,
	FXT_REC_STRING		= 2,
	FXT_REC_THREAD		= 3,
	FXT_REC_EVENT		= 4,
	FXT_REC_BLOB		= 5,
	FXT_REC_USERSPACE_OBJ	= 6,
	FXT_REC_KERNEL_OBJ	= 7,
	FXT_REC_SCHED		= 8,
	FXT_REC_LOG		= 9,
	FXT_REC_LARGE		= 15,
};

enum fxt_metadata_type {
	FXT_META_PROVIDER_INFO		= 1,
	FXT_META_PROVIDER_SECTION	= 2,
	FXT_META_PROVIDER_EVENT		= 3,
	FXT_META_TRACE_INFO		= 4,
};

enum fxt_trace_info_type {
	FXT_TRACE_INFO_MAGIC	= 0,
};

enum fxt_provider_event {
	FXT_PROVIDER_EVENT_BUFFER_FULL	= 0,
};

enum fxt_event_type {
	FXT_EVENT_INSTANT		= 0,
	FXT_EVENT_COUNTER		= 1,
	FXT_EVENT_DURATION_BEGIN	= 2,
	FXT_EVENT_DURATION_END		= 3,
	FXT_EVENT_DURATION_COMPLETE	= 4,
	FXT_EVENT_ASYNC_BEGIN		= 5,
	FXT_EVENT_ASYNC_INSTANT		= 6,
	FXT_EVENT_ASYNC_END		= 7,
	FXT_EVENT_FLOW_BEGIN		= 8,
	FXT_EVENT_FLOW_STEP		= 9,
	FXT_EVENT_FLOW_END		= 10,
	FXT_EVENT_TYPE_COUNT
};

enum fxt_blob_type {
	FXT_BLOB_DATA		= 1,
	FXT_BLOB_LAST_BRANCH	= 2,
	FXT_BLOB_PERFETTO	= 3,
	/*
	 * Not the specification's: a payload that is itself FXT records,
	 * a stream of its own continued blob after blob (its own magic
	 * number record first, its own string and thread tables).  Readers
	 * that do not know the type skip the payload, as Perfetto's and
	 * Tracy's importers skip every type they do not know; this
	 * project's reader reads the records in it where the blob is.
	 */
	FXT_BLOB_RECORDS	= 0x80,
	/*
	 * The same records as one zstd frame, cut into as many blob records
	 * (all of this type, one after the other) as its size needs.
	 */
	FXT_BLOB_RECORDS_ZSTD	= 0x81,
};

enum fxt_sched_type {
	FXT_SCHED_LEGACY_SWITCH	= 0,
	FXT_SCHED_SWITCH	= 1,
	FXT_SCHED_WAKEUP	= 2,
};

enum fxt_large_type {
	FXT_LARGE_BLOB		= 0,
};

enum fxt_large_blob_format {
	FXT_LARGE_BLOB_METADATA	= 0,
	FXT_LARGE_BLOB_NO_META	= 1,
};

/* ZX_THREAD_STATE_* values used in context switch records. */
enum fxt_thread_state {
	FXT_THREAD_NEW		= 0,
	FXT_THREAD_RUNNING	= 1,
	FXT_THREAD_SUSPENDED	= 2,
	FXT_THREAD_BLOCKED	= 3,
	FXT_THREAD_DYING	= 4,
	FXT_THREAD_DEAD		= 5,
};

/* ZX_OBJ_TYPE_* values that trace consumers give meaning to. */
enum fxt_koid_type {
	FXT_OBJ_PROCESS		= 1,
	FXT_OBJ_THREAD		= 2,
};

/*
 * The argument of a thread object that names its process (a koid):
 * readers find it by this name.
 */
#define FXT_ARG_NAME_PROCESS	"process"

enum fxt_arg_type {
	FXT_ARG_NULL	= 0,
	FXT_ARG_INT32	= 1,
	FXT_ARG_UINT32	= 2,
	FXT_ARG_INT64	= 3,
	FXT_ARG_UINT64	= 4,
	FXT_ARG_DOUBLE	= 5,
	FXT_ARG_STRING	= 6,
	FXT_ARG_POINTER	= 7,
	FXT_ARG_KOID	= 8,
	FXT_ARG_BOOL	= 9,
	FXT_ARG_TYPE_COUNT
};

/*
 * A string as records carry it.  The reader fills @ptr/@len (never NUL
 * terminated: @ptr points into the input or into a string table) and
 * leaves @id zero.  The writer takes either an @id from
 * fxt_writer_intern() or, with @id zero, @ptr/@len to be placed inline or
 * interned as the writer sees fit (FXT_STR_INLINE forces inline).
 */
struct fxt_str {
	const char	*ptr;
	uint32_t	len;
	uint32_t	id;
};

#define FXT_STR_INLINE	UINT32_MAX

/* A process and thread koid pair, as thread refs resolve to. */
struct fxt_thread {
	uint64_t	pid;
	uint64_t	tid;
};

/*
 * One argument.  @type beyond FXT_ARG_BOOL is an argument type this code
 * does not know; the reader then leaves the payload in @raw/@raw_words.
 */
struct fxt_arg {
	unsigned int		type;
	struct fxt_str		name;
	union {
		int32_t		i32;
		uint32_t	u32;
		int64_t		i64;
		uint64_t	u64;
		double		d;
		struct fxt_str	str;
		uint64_t	ptr;
		uint64_t	koid;
		bool		b;
		struct {
			const void	*raw;
			uint32_t	raw_words;
		};
	};
};

/* Events (record type 4). */
struct fxt_event {
	unsigned int		type;		/* enum fxt_event_type */
	uint64_t		ts;
	struct fxt_thread	thread;
	struct fxt_str		category;
	struct fxt_str		name;
	uint64_t		id;	/* counter, async or flow correlation id */
	uint64_t		end_ts;	/* duration complete only */
	unsigned int		nargs;
	const struct fxt_arg	*args;
};

/* Helpers to build arguments without repeating the union dance. */
#define FXT_ARG_STR_NAME(n)	{ .ptr = (n), .len = sizeof(n) - 1 }

/**
 * fxt_str_make() - a string that points at @len bytes of @s
 * @s: the bytes, not necessarily NUL-terminated
 * @len: how many
 */
static inline struct fxt_str fxt_str_make(const char *s, size_t len)
{
	struct fxt_str str = { .ptr = s, .len = (uint32_t)len, .id = 0 };

	return str;
}

/**
 * fxt_str_eq() - whether a record's string equals a C string
 * @s: the string as read (@ptr/@len)
 * @lit: NUL-terminated
 */
static inline bool fxt_str_eq(struct fxt_str s, const char *lit)
{
	size_t i;

	for (i = 0; i < s.len; i++)
		if (lit[i] != s.ptr[i] || !lit[i])
			return false;
	return lit[i] == '\0';
}

/**
 * fxt_utf8_len() - length of the valid UTF-8 sequence at @s
 * @s: the first byte of a sequence
 * @n: bytes available from @s on (at least 1)
 *
 * The rule the strict reader checks strings by and the converter cleans
 * text by: overlong forms, surrogates and code points past U+10FFFF are
 * not valid.
 *
 * Return: 1 to 4, or 0 when no valid sequence starts at @s.
 */
static inline size_t fxt_utf8_len(const uint8_t *s, size_t n)
{
	uint32_t cp;
	size_t need, k;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		need = 1, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		need = 2, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		need = 3, cp = s[0] & 0x07;
	else
		return 0;
	if (n <= need)
		return 0;
	for (k = 1; k <= need; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
	    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

/**
 * fxt_words() - the 8-byte words @len bytes take, padded
 * @len: bytes of a string or blob in a record
 *
 * Return: @len rounded up to words.
 */
static inline uint64_t fxt_words(uint64_t len)
{
	return (len + 7) / 8;
}

/**
 * fxt_arg_value_words() - words an argument's value takes after its header
 * @type: enum fxt_arg_type
 *
 * 32-bit values, bools and string refs live in the header; a string's
 * inline text is counted with the string.  Writer and reader size
 * arguments by this one rule.
 *
 * Return: 0 or 1, or -1 for a type the format does not define.
 */
static inline int fxt_arg_value_words(unsigned int type)
{
	switch (type) {
	case FXT_ARG_NULL:
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
	case FXT_ARG_BOOL:
	case FXT_ARG_STRING:
		return 0;
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return 1;
	default:
		return -1;
	}
}

/**
 * fxt_ticks_to_ns() - a timestamp in nanoseconds
 * @ticks: the timestamp, in ticks of its provider's clock
 * @tps: the provider's ticks per second (its initialization record; the
 *	 format's default, 1e9, when 0)
 *
 * Rounded down, exactly (no floating point), and saturating at
 * UINT64_MAX: report, the .dat rebuilt from FXT and KernelShark place an
 * event at the same nanosecond.
 *
 * Return: @ticks * 1e9 / @tps.
 */
static inline uint64_t fxt_ticks_to_ns(uint64_t ticks, uint64_t tps)
{
	unsigned __int128 ns;

	if (!tps || tps == 1000000000ULL)
		return ticks;
	ns = (unsigned __int128)ticks * 1000000000ULL / tps;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/**
 * fxt_args_find() - the first argument called @name
 * @args: the arguments
 * @nargs: how many
 * @name: NUL-terminated
 *
 * Return: the argument, or NULL when none has that name.
 */
const struct fxt_arg *fxt_args_find(const struct fxt_arg *args,
				    unsigned int nargs, const char *name);

/**
 * fxt_arg_int() - an integer argument's value
 * @a: the argument (NULL: none)
 * @v: the value, signed; a uint64 beyond INT64_MAX is INT64_MAX
 *
 * Return: true if @a is an int32, uint32, int64 or uint64, else false
 * and @v untouched.
 */
bool fxt_arg_int(const struct fxt_arg *a, int64_t *v);

/**
 * fxt_arg_bits() - the value an argument puts in an integer field
 * @a: the argument
 *
 * Return: integers sign- or zero-extended to 64 bits, a bool as 0 or 1,
 * a pointer or koid as is; 0 for every other type.
 */
uint64_t fxt_arg_bits(const struct fxt_arg *a);

/**
 * fxt_record_type_name() - a record type's name, for printing
 * @type: enum fxt_record_type
 *
 * Return: the name, or NULL for a type the format does not define.
 */
const char *fxt_record_type_name(unsigned int type);

/**
 * fxt_event_type_name() - an event type's name ("instant", "counter"...)
 * @type: enum fxt_event_type
 *
 * Return: the name, or NULL for an unknown type.
 */
const char *fxt_event_type_name(unsigned int type);

/**
 * fxt_arg_type_name() - an argument type's name ("int32", "string"...)
 * @type: enum fxt_arg_type
 *
 * Return: the name, or NULL for an unknown type.
 */
const char *fxt_arg_type_name(unsigned int type);

/**
 * fxt_thread_state_name() - a thread state's name ("running"...)
 * @state: enum fxt_thread_state
 *
 * Return: the name, or NULL for an unknown state.
 */
const char *fxt_thread_state_name(unsigned int state);

#endif /* _FXT_FORMAT_H */
