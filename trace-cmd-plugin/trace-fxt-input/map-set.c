// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-set.c - a set of non-zero 64-bit values: which kernel symbols and
 * printk strings the FXT already carries (map-formats.c), which symbols
 * the Perfetto packets already interned (map-packet.c).
 */
#include <stdlib.h>

#include "map-set.h"

bool map_set_add(struct map_set *set, uint64_t x)
{
	size_t i, mask;

	if (!x)
		return false;
	if (2 * (set->nr + 1) > set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 1024, j;
		uint64_t *n = calloc(cap, sizeof(*n));

		if (!n)
			return false;
		for (j = 0; j < set->cap; j++) {
			if (!set->v[j])
				continue;
			for (i = set->v[j] * 0x9e3779b97f4a7c15ULL & (cap - 1);
			     n[i]; i = (i + 1) & (cap - 1))
				;
			n[i] = set->v[j];
		}
		free(set->v);
		set->v = n;
		set->cap = cap;
	}
	mask = set->cap - 1;
	for (i = x * 0x9e3779b97f4a7c15ULL & mask; set->v[i];
	     i = (i + 1) & mask)
		if (set->v[i] == x)
			return false;
	set->v[i] = x;
	set->nr++;
	return true;
}

void map_set_free(struct map_set *set)
{
	free(set->v);
	set->v = NULL;
	set->nr = set->cap = 0;
}
