/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pkt-read.h - the Perfetto packets of an FXT in memory, read back field
 * by field with the core's protobuf reader, for the test-map-* programs
 * that check what the mapping writes into blob records of type 3.
 */
#ifndef _PKT_READ_H
#define _PKT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb.h"

/*
 * The payloads of the FXT's blob records of type 3 at @fxt, joined as
 * Perfetto joins them, each compressed packet's packets inflated in its
 * place (every packet the mapping writes is in one), into @stream: the
 * packets Perfetto's tokenizer hands on.  How many blob records into
 * *@blobs, how many FXT scheduling records into *@sched.  The test stops
 * if the FXT does not read or a packet is not compressed.
 */
void pkt_join(const void *fxt, size_t len, struct pb_buf *stream,
	      unsigned int *blobs, unsigned int *sched);

struct map_ctx;

/*
 * The end of a test's conversion into memory: the packets finished and
 * freed, the writer closed, @fp (an open_memstream() of *@out, *@len)
 * closed, and the stream joined as pkt_join() does.
 */
void pkt_finish(struct map_ctx *ctx, FILE *fp, char **out, size_t *len,
		struct pb_buf *stream, unsigned int *blobs,
		unsigned int *sched);

/* The @k-th field @id of message @m (0 the first): false if none. */
bool pkt_get(const struct pb_field *m, uint32_t id, int k,
	     struct pb_field *out);

/* The varint field @id of @m; the test stops if it has none. */
int64_t pkt_num(const struct pb_field *m, uint32_t id);

/* Whether the LEN field @id of @m holds the text @s. */
bool pkt_text_is(const struct pb_field *m, uint32_t id, const char *s);

/* The values of packed field @id of @m, up to @max, into @v: how many. */
size_t pkt_column(const struct pb_field *m, uint32_t id, int64_t *v,
		  size_t max);

/* The stream @s's @k-th packet: false if none. */
bool pkt_packet(const struct pb_buf *s, int k, struct pb_field *out);

#endif
