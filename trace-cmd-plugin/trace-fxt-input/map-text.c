// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-text.c - "<field>.text" renderings, remembered by value.
 *
 * A field that -R prints through the print format as text (a %ps symbol,
 * a %s kernel string, hex without "0x") is a number whose rendering
 * depends on its value alone: map-event.c marks only fields that the
 * print format prints directly, and the symbols and printk strings
 * behind them are the file's.  libtraceevent's tep_print_field_content()
 * costs thousands of instructions a call, and kmem events repeat the
 * same call sites over and over; so renderings are kept in a small
 * direct-mapped cache keyed by (field, value).  A rendering found there a
 * second time is interned in the writer, so that later uses are string
 * refs by id, the writer's fast path: strings indexed whenever they
 * repeat.  The bytes written are the same as without the cache (the
 * writer indexes a text from its second use either way).
 */
#include <stdlib.h>
#include <string.h>

#include "map-ctx.h"
#include "map-text.h"

#define MAP_TEXT_SLOTS	4096		/* power of two */
#define MAP_TEXT_MAX	72		/* longer ones are not kept */

struct map_text_slot {
	const struct map_field	*mf;	/* NULL: empty */
	uint64_t		value;
	uint64_t		stamp;	/* the record last using it */
	uint32_t		id;	/* writer's id, 0 until seen twice */
	uint32_t		len;
	char			text[MAP_TEXT_MAX];
};

struct map_text {
	struct map_text_slot	slots[MAP_TEXT_SLOTS];
	struct map_text_slot	*miss;	/* map_text_store()'s slot */
};

static struct map_text_slot *map_text_slot(struct map_text *t,
					   const struct map_field *mf,
					   uint64_t value)
{
	uint64_t h = value ^ ((uintptr_t)mf >> 4);

	h *= 0x9e3779b97f4a7c15ULL;
	return &t->slots[h >> (64 - 12)];
}

bool map_text_lookup(struct map_ctx *ctx, const struct map_field *mf,
		     uint64_t value, struct fxt_str *out)
{
	struct map_text *t = ctx->text;
	struct map_text_slot *s;
	int64_t id;

	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return false;
		ctx->text = t;
	}
	s = map_text_slot(t, mf, value);
	t->miss = NULL;
	if (s->mf != mf || s->value != value) {
		/*
		 * A slot another field of this record already uses stays:
		 * its text is still to be written.
		 */
		if (!s->mf || s->stamp != ctx->records_in)
			t->miss = s;
		return false;
	}
	if (!s->id) {
		id = fxt_writer_intern(ctx->w, s->text, s->len);
		if (id > 0)
			s->id = (uint32_t)id;
	}
	s->stamp = ctx->records_in;
	*out = fxt_str_make(s->text, s->len);
	out->id = s->id;
	return true;
}

void map_text_store(struct map_ctx *ctx, const struct map_field *mf,
		    uint64_t value, const char *text, size_t len)
{
	struct map_text *t = ctx->text;
	struct map_text_slot *s = t ? t->miss : NULL;

	if (!s)
		return;
	t->miss = NULL;
	if (len > MAP_TEXT_MAX) {
		s->mf = NULL;
		return;
	}
	s->mf = mf;
	s->value = value;
	s->stamp = ctx->records_in;
	s->id = 0;
	s->len = len;
	memcpy(s->text, text, len);
}

void map_text_free(struct map_ctx *ctx)
{
	free(ctx->text);
	ctx->text = NULL;
}
