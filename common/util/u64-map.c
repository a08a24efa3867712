// SPDX-License-Identifier: LGPL-2.1-only
/*
 * u64-map.c - the out-of-line half of u64-map.h: growing and freeing.
 */
#include <errno.h>
#include <stdlib.h>

#include "u64-map.h"

int u64_map_grow(struct u64_map *m)
{
	struct u64_map grown = *m;
	size_t i;

	grown.cap = m->cap ? 2 * m->cap : m->first ? m->first : U64_MAP_FIRST;
	grown.slot = calloc(grown.cap, sizeof(*grown.slot));
	if (!grown.slot)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i].val)
			*u64_map_probe(&grown, m->slot[i].key) = m->slot[i];
	free(m->slot);
	*m = grown;
	return 0;
}

void u64_map_free(struct u64_map *m)
{
	free(m->slot);
	*m = (struct u64_map){ .first = m->first };
}
