// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-format.c - names of the format's numbers, for printing, and the
 * argument lookups every consumer of decoded records needs.
 */
#include "fxt-format.h"

#define NAME_OF(table, i) \
	((i) < sizeof(table) / sizeof(table[0]) && table[i] ? table[i] : NULL)

const char *fxt_record_type_name(unsigned int type)
{
	static const char *const names[] = {
		[FXT_REC_METADATA]	= "metadata",
		[FXT_REC_INIT]		= "initialization",
		[FXT_REC_STRING]	= "string",
		[FXT_REC_THREAD]	= "thread",
		[FXT_REC_EVENT]		= "event",
		[FXT_REC_BLOB]		= "blob",
		[FXT_REC_USERSPACE_OBJ]	= "userspace_object",
		[FXT_REC_KERNEL_OBJ]	= "kernel_object",
		[FXT_REC_SCHED]		= "scheduling",
		[FXT_REC_LOG]		= "log",
		[FXT_REC_LARGE]		= "large",
	};

	return NAME_OF(names, type);
}

const char *fxt_event_type_name(unsigned int type)
{
	static const char *const names[] = {
		[FXT_EVENT_INSTANT]		= "instant",
		[FXT_EVENT_COUNTER]		= "counter",
		[FXT_EVENT_DURATION_BEGIN]	= "duration_begin",
		[FXT_EVENT_DURATION_END]	= "duration_end",
		[FXT_EVENT_DURATION_COMPLETE]	= "duration_complete",
		[FXT_EVENT_ASYNC_BEGIN]		= "async_begin",
		[FXT_EVENT_ASYNC_INSTANT]	= "async_instant",
		[FXT_EVENT_ASYNC_END]		= "async_end",
		[FXT_EVENT_FLOW_BEGIN]		= "flow_begin",
		[FXT_EVENT_FLOW_STEP]		= "flow_step",
		[FXT_EVENT_FLOW_END]		= "flow_end",
	};

	return NAME_OF(names, type);
}

const char *fxt_arg_type_name(unsigned int type)
{
	static const char *const names[] = {
		[FXT_ARG_NULL]		= "null",
		[FXT_ARG_INT32]		= "int32",
		[FXT_ARG_UINT32]	= "uint32",
		[FXT_ARG_INT64]		= "int64",
		[FXT_ARG_UINT64]	= "uint64",
		[FXT_ARG_DOUBLE]	= "double",
		[FXT_ARG_STRING]	= "string",
		[FXT_ARG_POINTER]	= "pointer",
		[FXT_ARG_KOID]		= "koid",
		[FXT_ARG_BOOL]		= "bool",
	};

	return NAME_OF(names, type);
}

const char *fxt_thread_state_name(unsigned int state)
{
	static const char *const names[] = {
		[FXT_THREAD_NEW]	= "new",
		[FXT_THREAD_RUNNING]	= "running",
		[FXT_THREAD_SUSPENDED]	= "suspended",
		[FXT_THREAD_BLOCKED]	= "blocked",
		[FXT_THREAD_DYING]	= "dying",
		[FXT_THREAD_DEAD]	= "dead",
	};

	return NAME_OF(names, state);
}

const struct fxt_arg *fxt_args_find(const struct fxt_arg *args,
				    unsigned int nargs, const char *name)
{
	unsigned int i;

	for (i = 0; i < nargs; i++)
		if (fxt_str_eq(args[i].name, name))
			return &args[i];
	return NULL;
}

bool fxt_arg_int(const struct fxt_arg *a, int64_t *v)
{
	switch (a ? a->type : FXT_ARG_NULL) {
	case FXT_ARG_INT32:
		*v = a->i32;
		return true;
	case FXT_ARG_UINT32:
		*v = a->u32;
		return true;
	case FXT_ARG_INT64:
		*v = a->i64;
		return true;
	case FXT_ARG_UINT64:
		*v = a->u64 > INT64_MAX ? INT64_MAX : (int64_t)a->u64;
		return true;
	}
	return false;
}

uint64_t fxt_arg_bits(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
		return (uint64_t)(int64_t)a->i32;
	case FXT_ARG_UINT32:
		return a->u32;
	case FXT_ARG_BOOL:
		return a->b;
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return a->u64;
	}
	return 0;
}
