/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-set.h - a set of non-zero 64-bit values (addresses the mapping has
 * already handled), open addressing, 0 marking a free slot, each value
 * numbered in the order it came (map-set.c).
 */
#ifndef _MAP_SET_H
#define _MAP_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct map_set {
	uint64_t	*v;
	uint32_t	*id;		/* each value's number, below */
	size_t		nr, cap;
};

/* Add @x to @set: true when it was new (false for 0, or out of memory). */
bool map_set_add(struct map_set *set, uint64_t x);

/*
 * @x's number in @set, 1 for the first value added, 2 for the next...,
 * added if new (*@added then true); 0 for 0, or out of memory.
 */
uint32_t map_set_id(struct map_set *set, uint64_t x, bool *added);

void map_set_free(struct map_set *set);

#endif /* _MAP_SET_H */
