// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fxt-format.c - names of the format's numbers, for printing.
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
