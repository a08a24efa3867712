// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-set.c - a set of non-zero 64-bit values: which kernel symbols and
 * printk strings the FXT already carries (map-formats.c), which symbols
 * the Perfetto packets already interned and under which number
 * (map-packet.c).
 */
#include <stdlib.h>

#include "map-set.h"

/* @x's slot in @set, added when new (*@added); -1: 0 or out of memory. */
static long map_set_slot(struct map_set *set, uint64_t x, bool *added)
{
	size_t i, mask;

	*added = false;
	if (!x)
		return -1;
	if (2 * (set->nr + 1) > set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 1024, j;
		uint64_t *n = calloc(cap, sizeof(*n));
		uint32_t *id = calloc(cap, sizeof(*id));

		if (!n || !id) {
			free(n);
			free(id);
			return -1;
		}
		for (j = 0; j < set->cap; j++) {
			if (!set->v[j])
				continue;
			for (i = set->v[j] * 0x9e3779b97f4a7c15ULL & (cap - 1);
			     n[i]; i = (i + 1) & (cap - 1))
				;
			n[i] = set->v[j];
			id[i] = set->id[j];
		}
		free(set->v);
		free(set->id);
		set->v = n;
		set->id = id;
		set->cap = cap;
	}
	mask = set->cap - 1;
	for (i = x * 0x9e3779b97f4a7c15ULL & mask; set->v[i];
	     i = (i + 1) & mask)
		if (set->v[i] == x)
			return (long)i;
	set->v[i] = x;
	set->id[i] = (uint32_t)++set->nr;
	*added = true;
	return (long)i;
}

bool map_set_add(struct map_set *set, uint64_t x)
{
	bool added;

	return map_set_slot(set, x, &added) >= 0 && added;
}

uint32_t map_set_id(struct map_set *set, uint64_t x, bool *added)
{
	long i = map_set_slot(set, x, added);

	return i < 0 ? 0 : set->id[i];
}

void map_set_free(struct map_set *set)
{
	free(set->v);
	free(set->id);
	set->v = NULL;
	set->id = NULL;
	set->nr = set->cap = 0;
}
