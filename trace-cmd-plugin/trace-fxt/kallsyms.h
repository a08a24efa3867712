/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kallsyms.h - libtraceevent's parse of a .dat's kallsyms, run on a
 * thread of its own while libtracecmd goes on reading the headers and
 * the conversion reads the records, up to the first function looked up
 * (kallsyms.c).
 */
#ifndef _TRACE_FXT_KALLSYMS_H
#define _TRACE_FXT_KALLSYMS_H

/*
 * From now on, a kallsyms section libtracecmd hands libtraceevent is
 * parsed on a second thread; the first look-up of a function
 * (tep_find_function(), tep_find_function_address(),
 * tep_find_function_info(), which trace-fxt defines to wait) waits for
 * that parse, from whichever thread it comes.  Until then, a kallsyms
 * section is parsed where libtracecmd asks, as always.
 */
void kallsyms_defer(void);

#endif /* _TRACE_FXT_KALLSYMS_H */
