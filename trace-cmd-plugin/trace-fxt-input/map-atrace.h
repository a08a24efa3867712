/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-atrace.h - the atrace marker convention read (map-atrace.c).
 */
#ifndef _MAP_ATRACE_H
#define _MAP_ATRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * An atrace marker "K|pid|name|value" split (map-atrace.c): the one
 * reading of the convention, for the slices drawn and for the thread
 * groups map-tgid.c learns from the writer's pid.
 */
struct map_atrace {
	char		kind;
	uint64_t	pid;
	const char	*name;
	size_t		name_len;
	const char	*value;	/* C: the value; S/F: the cookie */
	size_t		value_len;
};
bool map_atrace_parse(const char *s, size_t len, struct map_atrace *at);
/* A decimal number of the marker (a pid, a cookie); false if it is none. */
bool map_atrace_number(const char *s, size_t len, uint64_t *v);

#endif /* _MAP_ATRACE_H */
