// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-set.c - a set of non-zero 64-bit values: which kernel symbols and
 * printk strings the FXT already carries (map-formats.c), which symbols
 * the Perfetto packets already interned and under which number
 * (map-packet.c).  Each value maps to its number in the u64-map.h table.
 */
#include <stdlib.h>

#include "map-set.h"

bool map_set_add(struct map_set *set, uint64_t x)
{
	bool added;

	return map_set_id(set, x, &added) && added;
}

uint32_t map_set_id(struct map_set *set, uint64_t x, bool *added)
{
	uint64_t *id;

	*added = false;
	if (!x)
		return 0;
	id = u64_map_put(&set->at, x);
	if (!id)
		return 0;
	if (!*id) {
		*id = set->at.nr;	/* numbered in the order they came */
		*added = true;
	}
	return (uint32_t)*id;
}

void map_set_free(struct map_set *set)
{
	u64_map_free(&set->at);
}
