// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-table-rows.c - the rows of map_specials[] that write a Perfetto
 * ftrace event, as the mapping compiled them, one line each:
 *
 *   system:event NUMBER field=N:KIND ...
 *
 * NUMBER the event's field of FtraceEvent, then each field the row
 * writes, its number in the message and how map-ftrace.c writes it
 * (int, uint, string, sym, kstr).  map-table.sh hands it to
 * perfetto-model.py table-check, which reads the packets by
 * map-ftrace.table: the model and the C rows must agree.
 */
#include <stdio.h>

#include "map-dispatch.h"
#include "map-special.h"

static const char *const kinds[] = {
	[MAP_PKT_UINT] = "uint", [MAP_PKT_INT] = "int",
	[MAP_PKT_STR] = "string", [MAP_PKT_SYM] = "sym",
	[MAP_PKT_KSTR] = "kstr", [MAP_PKT_UINTS] = "uints",
};

int main(void)
{
	unsigned int i, j;

	for (i = 0; i < map_nr_specials; i++) {
		const struct map_special *s = &map_specials[i];

		if (!s->pkt.event)
			continue;
		printf("%s:%s %u", s->system, s->name, s->pkt.event);
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++) {
			const struct map_pkt_field *f = &s->pkt.f[j];

			if (f->kind == MAP_PKT_NONE)
				continue;
			if (f->kind >= sizeof(kinds) / sizeof(kinds[0]) ||
			    !kinds[f->kind] || !s->field[j])
				return 1;
			printf(" %s=%u:%s", s->field[j], f->proto,
			       kinds[f->kind]);
		}
		printf("\n");
	}
	return 0;
}
