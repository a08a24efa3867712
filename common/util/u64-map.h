/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * u64-map.h - a hash table from 64-bit keys to non-zero 64-bit values.
 *
 * Open addressing with linear probing in a power-of-two array of
 * key/value pairs, kept at most half full, doubled (and rehashed) before
 * a new key would fill more.  A value of 0 marks a free slot, so every
 * key may be stored, 0 included, and a user whose values may be 0 stores
 * something else: an index + 1 into an array of its own, a pointer.
 *
 * The lookups are inline: the tables behind every record of a conversion
 * (thread names and CPUs by koid, providers by id, symbols by address)
 * probe without a call.  A zeroed struct u64_map is an empty one.
 *
 * The slots may be walked (m->slot[0 .. m->cap), those whose val is not
 * 0).  Their order depends only on the keys added, their order, and the
 * first capacity: the same calls make the same walk, which outputs
 * written in slot order rely on.
 */
#ifndef _U64_MAP_H
#define _U64_MAP_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* The first capacity when struct u64_map's first is 0. */
#define U64_MAP_FIRST	16

struct u64_map_slot {
	uint64_t	key;
	uint64_t	val;		/* 0: the slot is free */
};

struct u64_map {
	struct u64_map_slot	*slot;
	size_t			cap;	/* a power of two, or 0 */
	size_t			nr;	/* keys stored */
	size_t			first;	/* first capacity (a power of two) */
};

/**
 * u64_map_hash() - the slot a key's probe starts at
 * @key: the key
 * @mask: the table's capacity - 1
 *
 * Fibonacci hashing, the product's bits from 40 up taken first: they mix
 * every bit of the key, and tables of up to 2^24 slots start where the
 * tables this one replaced started (their walks, and what was written in
 * their order, stay the same).
 *
 * Return: the slot, at most @mask.
 */
static inline size_t u64_map_hash(uint64_t key, size_t mask)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 40 | h << 24) & mask;
}

/* What u64_map_key() starts from. */
#define U64_MAP_KEY_FIRST	14695981039346656037ULL

/**
 * u64_map_key() - a key for a run of bytes (FNV-1a, 64 bits)
 * @h: U64_MAP_KEY_FIRST, or a key this made, to go on from (a key of
 *     several runs)
 * @p: the bytes
 * @n: how many
 *
 * Two runs may share a key: a map keyed so compares what it finds with
 * the bytes themselves before it trusts it.
 *
 * Return: the key.
 */
static inline uint64_t u64_map_key(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/**
 * u64_map_probe() - where a key is, or where it would go
 * @m: a map whose capacity is not 0
 * @key: the key
 *
 * Return: @key's slot, or the free slot (val 0) a probe for it ends at.
 */
static inline struct u64_map_slot *u64_map_probe(const struct u64_map *m,
						 uint64_t key)
{
	size_t mask = m->cap - 1, i;

	for (i = u64_map_hash(key, mask);
	     m->slot[i].val && m->slot[i].key != key; i = (i + 1) & mask)
		;
	return &m->slot[i];
}

/**
 * u64_map_get() - a key's value
 * @m: the map
 * @key: the key
 *
 * Return: the value stored for @key, 0 when there is none.
 */
static inline uint64_t u64_map_get(const struct u64_map *m, uint64_t key)
{
	return m->cap ? u64_map_probe(m, key)->val : 0;
}

/**
 * u64_map_grow() - double the capacity (the first: m->first or
 * U64_MAP_FIRST) and move every key to its slot there
 * @m: the map
 *
 * The old slots are walked in order, so the new order depends only on
 * the old one.  u64_map_put() calls it; a caller need not.
 *
 * Return: 0, or -ENOMEM with @m as it was.
 */
int u64_map_grow(struct u64_map *m);

/**
 * u64_map_put() - a key's value, found or made room for
 * @m: the map
 * @key: the key
 *
 * Grows the map first when one more key would fill more than half of it
 * (whether or not @key is new: growth depends on the count alone).
 *
 * Return: where @key's value is kept: 0 there when @key is new, and the
 * caller then stores a non-zero value before its next call on @m; NULL
 * when out of memory (@m unchanged).
 */
static inline uint64_t *u64_map_put(struct u64_map *m, uint64_t key)
{
	struct u64_map_slot *s;

	if (2 * (m->nr + 1) > m->cap && u64_map_grow(m))
		return NULL;
	s = u64_map_probe(m, key);
	if (!s->val) {
		s->key = key;
		m->nr++;
	}
	return &s->val;
}

/**
 * u64_map_set() - store a key's value
 * @m: the map
 * @key: the key
 * @val: its value, not 0
 *
 * Return: 0, or -ENOMEM (@m unchanged).
 */
static inline int u64_map_set(struct u64_map *m, uint64_t key, uint64_t val)
{
	uint64_t *v = u64_map_put(m, key);

	if (!v)
		return -ENOMEM;
	*v = val;
	return 0;
}

/**
 * u64_map_keys() - the map's keys, in ascending order
 * @m: the map
 * @n: how many, set
 *
 * For what must come out in the same order from the same input (a map's
 * slots follow its calls' history).
 *
 * Return: a malloc'd array of *@n keys (NULL when the map is empty), or
 * NULL with *@n 0 and errno ENOMEM.
 */
uint64_t *u64_map_keys(const struct u64_map *m, size_t *n);

/**
 * u64_map_free() - free the slots; the map is empty (and zeroed but for
 * its first capacity) again
 * @m: the map
 */
void u64_map_free(struct u64_map *m);

#endif /* _U64_MAP_H */
