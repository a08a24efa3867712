/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map-damage.h - where the damage the host's check skipped in a .dat's
 * CPU data (dat_damage) is said among the records (map-damage.c).
 */
#ifndef _MAP_DAMAGE_H
#define _MAP_DAMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "map-ctx.h"

struct tep_record;

/*
 * The damaged bytes a record of a CPU is the first good one after, and
 * the last good one before when no good one follows them.
 */
struct map_damage_due {
	uint64_t	before, after;
};

/*
 * The damage of each buffer's CPUs from the host's @pages, for
 * map_damage_due(); ctx->damaged says whether there is any.  0 or
 * -ENOMEM.
 */
int map_damage_open(struct map_ctx *ctx, const struct dat_pages *pages);

/*
 * Record @rec of @buf counted among its CPU's, and what it is due: the
 * damage just before it (it is the first good record after it) and the
 * damage just after it that no good record of the CPU follows.  Every
 * record of the CPU counts, whatever the selection keeps.
 */
void map_damage_due(struct map_buffer *buf, const struct tep_record *rec,
		    struct map_damage_due *due);

/*
 * Damage no record came before or after (a CPU whose every page is
 * damaged), one CPU of @buf at a time: its CPU and bytes; false when
 * none is left.
 */
bool map_damage_left(struct map_buffer *buf, uint32_t *cpu,
		     uint64_t *bytes);

void map_damage_free(struct map_ctx *ctx);

#endif /* _MAP_DAMAGE_H */
