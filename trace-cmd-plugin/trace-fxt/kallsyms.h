/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kallsyms.h - libtraceevent's parse of a .dat's kallsyms, run on a
 * thread of its own while libtracecmd goes on reading the headers
 * (kallsyms.c).
 */
#ifndef _TRACE_FXT_KALLSYMS_H
#define _TRACE_FXT_KALLSYMS_H

/*
 * From now on, a kallsyms section libtracecmd hands libtraceevent is
 * parsed on a second thread; until then, and once kallsyms_join() has
 * run, it is parsed where libtracecmd asks, as always.
 */
void kallsyms_defer(void);

/*
 * Wait for the parse started since kallsyms_defer(), if any, and stop
 * deferring: the tep handle's functions are all registered on return.
 * Call it before anything looks a function up, or frees the handle.
 */
void kallsyms_join(void);

#endif /* _TRACE_FXT_KALLSYMS_H */
