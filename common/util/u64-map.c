// SPDX-License-Identifier: LGPL-2.1-only
/*
 * u64-map.c - the out-of-line half of u64-map.h: growing, the keys in
 * order, freeing.
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

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t *u64_map_keys(const struct u64_map *m, size_t *n)
{
	uint64_t *keys;
	size_t i, k = 0;

	*n = 0;
	if (!m->nr)
		return NULL;
	keys = malloc(m->nr * sizeof(*keys));
	if (!keys)
		return NULL;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i].val)
			keys[k++] = m->slot[i].key;
	qsort(keys, k, sizeof(*keys), key_cmp);
	*n = k;
	return keys;
}

void u64_map_free(struct u64_map *m)
{
	free(m->slot);
	*m = (struct u64_map){ .first = m->first };
}
