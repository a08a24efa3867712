// SPDX-License-Identifier: GPL-2.0-only
/*
 * map-atrace.c - the atrace convention of trace_marker writes
 * ("K|pid|name|value") read in one place: map-marker.c draws what a
 * marker says, map-tgid.c learns the writer's thread group from it.
 */
#include <stdlib.h>
#include <string.h>

#include "map-atrace.h"

bool map_atrace_number(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*v = strtoull(buf, &end, 10);
	return *end == '\0';
}

/* Split "K|pid|name|value"; false if the text is no atrace marker. */
bool map_atrace_parse(const char *s, size_t len, struct map_atrace *at)
{
	const char *f[4];
	size_t flen[4];
	int n = 0;
	size_t i, start = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if (len < 1 || !strchr("BECSF", s[0]) || (len > 1 && s[1] != '|'))
		return false;
	for (i = 0; i <= len && n < 4; i++) {
		/* the name may hold '|' only as the last field's part */
		if (i == len || (s[i] == '|' && n < 3)) {
			f[n] = s + start;
			flen[n++] = i - start;
			start = i + 1;
		}
	}
	memset(at, 0, sizeof(*at));
	at->kind = s[0];
	if (n >= 2 && !map_atrace_number(f[1], flen[1], &at->pid))
		return false;
	if (n >= 3) {
		at->name = f[2];
		at->name_len = flen[2];
	}
	if (n >= 4) {
		at->value = f[3];
		at->value_len = flen[3];
	}
	switch (at->kind) {
	case 'B':
		return n >= 3;
	case 'E':
		return true;
	case 'C':
	case 'S':
	case 'F':
		return n >= 4;
	}
	return false;
}
