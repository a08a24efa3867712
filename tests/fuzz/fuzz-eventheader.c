// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-eventheader.c - libFuzzer target for the EventHeader decoder.
 *
 * Input: "tracepoint name" NUL "event bytes", as the corpus records are
 * (tests/fuzz/corpus-eventheader/: events of samples/eventheader-cases.c,
 * written by samples/eventheader-vectors, both byte orders).
 * Without a NUL the whole input is the event.  The event is also decoded
 * under a name made from its header's level, so that mutations of the
 * level byte do not just end at the name check.  Every item is formatted
 * as text and as JSON, into a roomy and a tiny buffer, and the whole
 * event as JSON.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_one(struct eh_decoder *d, const char *name, size_t name_len,
		     const uint8_t *ev, size_t ev_len, bool skip)
{
	static char big[1 << 20];
	char tiny[3];
	struct eh_item it;
	ssize_t len;
	char *json;
	int ret, err;

	if (eh_decoder_start(d, name, name_len, ev, ev_len) < 0) {
		if (!*eh_decoder_strerror(d) || eh_decoder_event(d))
			abort();
		return;
	}
	while ((ret = eh_decoder_next(d, &it)) > 0) {
		if (it.kind == EH_ITEM_VALUE) {
			len = eh_format_value(big, sizeof(big), &it, 0);
			if (len >= 0 && (size_t)len < sizeof(big) &&
			    strlen(big) > (size_t)len)
				abort();
			eh_format_value(big, sizeof(big), &it, EH_TEXT_JSON);
			eh_format_value(tiny, sizeof(tiny), &it,
					EH_TEXT_JSON);
		} else if (it.kind == EH_ITEM_ARRAY_BEGIN && it.elem_size &&
			   skip) {
			if (eh_decoder_skip_array(d))
				abort();
		}
	}
	if (ret < 0 && (it.kind != EH_ITEM_ERROR || !it.name[0]))
		abort();

	len = eh_format_event_json(d, tiny, sizeof(tiny), EH_JSON_SPACE);
	json = eh_format_event_json_alloc(d, EH_JSON_SPACE | EH_JSON_FIELD_TAG |
					  EH_JSON_META_EXTRA, &err);
	/* Formatting fails exactly when the walk does. */
	if ((len < 0) != (ret < 0) || (!json) != (ret < 0))
		abort();
	free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eh_decoder *d;
	const uint8_t *nul = memchr(data, 0, size);
	const char *name = "Fuzz_L5K1";
	size_t name_len = strlen(name);
	const uint8_t *ev = data;
	size_t ev_len = size;
	char made[32];

	if (!d) {
		d = eh_decoder_new();
		if (!d)
			abort();
		/* Small enough that a pathological input stays quick. */
		eh_decoder_set_item_limit(d, 1u << 14);
	}
	if (nul) {
		name = (const char *)data;
		name_len = (size_t)(nul - data);
		ev = nul + 1;
		ev_len = size - name_len - 1;
	}
	fuzz_one(d, name, name_len, ev, ev_len, size & 1);

	if (ev_len >= EH_HEADER_SIZE) {
		snprintf(made, sizeof(made), "Fz_L%xK1Gfuzz", ev[7]);
		fuzz_one(d, made, strlen(made), ev, ev_len, !(size & 1));
	}
	return 0;
}
