/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxt-args.h - decode the argument list of fxt events in a .dat.
 *
 * trace-fxt convert IN.fxt -o OUT.dat stores an FXT event's arguments in
 * the __data_loc u8[] field "args" (layout in
 * trace-cmd-plugin/fxt2dat-fxt.c and MAPPING.md).  This turns those
 * bytes back into struct fxt_arg, pointing into them.
 */
#ifndef _FXT_ARGS_H
#define _FXT_ARGS_H

#include <stddef.h>

#include "fxt-format.h"

/*
 * Decode at most @max arguments from @p/@len into @args.  Returns how
 * many, or -1 when the bytes are not a well-formed list (then the first
 * ones decoded are still in @args and *@ndone says how many).
 */
int fxt_args_decode(const void *p, size_t len, struct fxt_arg *args,
		    unsigned int max, unsigned int *ndone);

#endif /* _FXT_ARGS_H */
