/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kallsyms.h - a recording's kallsyms, parsed on a thread of its own into
 * a tep_handle that holds nothing else, and served to the tep_handle that
 * reads the recording through libtraceevent's function resolver
 * (kallsyms.c).
 *
 * libtracecmd would parse the kallsyms with tep_parse_kallsyms(): a
 * sscanf() a line, a third of the time tracecmd_open_head() takes on a
 * real recording.  trace-fxt hands libtracecmd a view of the file
 * without them (datcheck_view(), view.h) and parses the text itself,
 * while libtracecmd reads the headers and the check walks the pages.
 */
#ifndef _TRACE_FXT_KALLSYMS_H
#define _TRACE_FXT_KALLSYMS_H

#include <stddef.h>

struct tep_handle;
struct kallsyms;

/**
 * kallsyms_start() - parse a kallsyms text on a thread of its own
 * @text: the text, as the kernel's /proc/kallsyms writes it (copied)
 * @len: its length in bytes
 *
 * Every line is registered as tep_parse_kallsyms() registers it, in the
 * same order, so that look-ups find what libtraceevent's would.  When no
 * thread can be started the parse is done before the call returns.
 *
 * Return: the parse, or NULL when memory ran out.
 */
struct kallsyms *kallsyms_start(const char *text, size_t len);

/**
 * kallsyms_functions() - the tep_handle holding the parsed functions
 * @ks: a parse from kallsyms_start()
 *
 * Waits for the parse.  Any thread may ask, any number of times; the
 * handle is read-only from then on and may be looked up from several
 * threads at once.  Unlike a resolver's answers, its
 * tep_find_function_info() gives each function's size.
 *
 * Return: the handle, owned by @ks.
 */
struct tep_handle *kallsyms_functions(struct kallsyms *ks);

/**
 * kallsyms_attach() - serve @tep's function look-ups from @ks
 * @ks: a parse from kallsyms_start()
 * @tep: the handle that reads the recording
 *
 * Sets libtraceevent's function resolver of @tep, which every look-up
 * goes through (tep_find_function*() and the printing of %pS and the
 * like).  The first look-up waits for the parse.  A resolver answers with
 * a function's name and start; libtraceevent then reports its size as 0
 * and its module as none: ask kallsyms_functions() for those.  One
 * thread at a time may look @tep's functions up (libtraceevent keeps the
 * resolver's answer in @tep).
 *
 * Return: 0, or -ENOMEM.
 */
int kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep);

/**
 * kallsyms_free() - wait for the parse and free it
 * @ks: a parse from kallsyms_start(), or NULL
 *
 * Detach it from every tep_handle first (tep_reset_function_resolver()),
 * or free those before.
 */
void kallsyms_free(struct kallsyms *ks);

#endif /* _TRACE_FXT_KALLSYMS_H */
