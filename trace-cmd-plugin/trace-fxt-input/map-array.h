/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-array.h - small integer arrays, one argument an element
 * (map-array.c).
 */
#ifndef _MAP_ARRAY_H
#define _MAP_ARRAY_H

#include "map-ctx.h"

int map_array_classify(struct map_ctx *ctx, struct map_event *me);
unsigned int map_array_args(const struct map_field *mf,
			    const struct tep_record *rec, struct fxt_arg *args);

#endif /* _MAP_ARRAY_H */
