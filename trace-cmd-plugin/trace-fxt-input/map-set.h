/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-set.h - a set of non-zero 64-bit values (addresses the mapping has
 * already handled), each value numbered in the order it came (map-set.c,
 * on a u64-map.h table).
 */
#ifndef _MAP_SET_H
#define _MAP_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u64-map.h"

/* A zeroed one is empty. */
struct map_set {
	struct u64_map	at;		/* value -> its number, below */
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
