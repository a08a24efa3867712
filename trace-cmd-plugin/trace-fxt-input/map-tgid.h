/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-tgid.h - every thread's group, settled before the conversion writes
 * (map-tgid.c).
 */
#ifndef _MAP_TGID_H
#define _MAP_TGID_H

#include "map-ctx.h"

int map_tgid_read(struct map_ctx *ctx, struct tracecmd_input **handles,
		  int nr);

#endif /* _MAP_TGID_H */
