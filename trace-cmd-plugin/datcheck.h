/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datcheck.h - walk a trace.dat (file versions 6 and 7) against its own
 * size before libtracecmd and libtraceevent are handed it.
 *
 * libtracecmd 3.1.6 trusts what it reads: a header cut short makes it
 * free twice, a ring-buffer page whose commit field exceeds the page makes
 * libtraceevent's kbuffer read past it, an option without its terminating
 * NUL is strdup'ed off the end.  The check follows every size, offset and
 * count those libraries will follow - the initial header, header_page and
 * header_event, the event formats, kallsyms, printk, cmdlines, the options
 * (chained option sections in v7), every section and its compression
 * header, the CPU data of every buffer page by page (zstd chunks
 * decompressed), and each event header inside the pages - and refuses the
 * first thing that lies outside the file or outside its container.
 * Latency traces (text instead of pages) are refused too: libtracecmd
 * opens them, but its per-CPU calls crash on them.  Last, the event
 * formats are parsed by libtraceevent in a child process first: one its
 * parser crashes or hangs on is refused (about 0.1 s for the ~2300
 * formats of a real recording).
 */
#ifndef _DATCHECK_H
#define _DATCHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * Check the @len bytes at @p.  0 when libtracecmd may read them; -EBADMSG
 * with "offset 0x...: what is wrong" in @err otherwise (-ENOMEM when
 * memory ran out).
 */
int datcheck_buf(const uint8_t *p, size_t len, char *err, size_t errlen);
/* The same on the file at @path (mapped); -errno when it cannot be read. */
int datcheck_file(const char *path, char *err, size_t errlen);

#endif /* _DATCHECK_H */
