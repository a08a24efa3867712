/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fxt-args.h - the argument list of fxt/<type> events in a .dat, both ways.
 *
 * trace-fxt convert IN.fxt -o OUT.dat stores an FXT event's arguments in
 * the __data_loc u8[] field "args" of its fxt/<type> event
 * (common/fxt-tep/fxt2dat-fxt.c); plugins/plugin_fxt.so and trace-fxt
 * report turn those bytes back into struct fxt_arg.  This is the one
 * place that knows the layout: little endian, unaligned, one entry per
 * argument:
 *
 *   u8 type (the FXT argument type), u8 0, u16 name length, name bytes,
 *   then the value: nothing for null; 4 bytes for int32 / uint32;
 *   8 for int64 / uint64 / double / pointer / koid; 1 for bool;
 *   u32 length + bytes for a string.
 *
 * Arguments of a type the format does not define have no entry.
 */
#ifndef _FXT_ARGS_H
#define _FXT_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "fxt-format.h"

/**
 * fxt_args_encode() - arguments as an fxt event's "args" field holds them
 * @args: the arguments
 * @nargs: how many
 * @buf: where the bytes go; may be NULL when @cap is 0
 * @cap: room at @buf
 *
 * Writes nothing unless everything fits, so a caller can ask for the
 * size with @cap 0, make room and call again.  A name longer than 65535
 * bytes keeps its first 65535.
 *
 * Return: the number of bytes the list takes.
 */
size_t fxt_args_encode(const struct fxt_arg *args, unsigned int nargs,
		       uint8_t *buf, size_t cap);

/**
 * fxt_args_decode() - the arguments of an fxt event's "args" field
 * @p: the field's bytes
 * @len: their number
 * @args: where the arguments go; their strings point into @p
 * @max: room in @args
 * @ndone: how many were decoded, also when the list turns out bad
 *
 * Every read is checked against @len: the bytes come from a file.
 *
 * Return: how many arguments (at most @max), or -1 when the bytes are not
 * a well-formed list (the first *@ndone are still in @args).
 */
int fxt_args_decode(const void *p, size_t len, struct fxt_arg *args,
		    unsigned int max, unsigned int *ndone);

#endif /* _FXT_ARGS_H */
