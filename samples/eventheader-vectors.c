// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventheader-vectors.c - the project's own EventHeader vectors file:
 *
 *   eventheader-vectors OUT.vec
 *
 * writes every event of samples/eventheader-cases.c, little endian then
 * big endian, as a vectors file (records "u32 size (little endian, whole
 * record) | tracepoint name NUL | event bytes", the layout of
 * LinuxTracepoints' EventHeaderInterceptorLE64.dat), and OUT.vec.linux.json
 * beside it: the decoding LinuxTracepoints writes for such a file (a
 * UTF-8 BOM, then "OUT.vec": [ one event a line ]), from the catalogue's
 * hand-written texts.  samples/eventheader-dat and the e2e scripts take
 * either file pair alike.  Prints the number of events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader-cases.h"

static int write_record(FILE *f, const char *tp, const uint8_t *ev,
			size_t len)
{
	size_t size = 4 + strlen(tp) + 1 + len;
	uint8_t hdr[4] = {
		(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16),
		(uint8_t)(size >> 24),
	};

	if (fwrite(hdr, 1, 4, f) != 4 ||
	    fwrite(tp, 1, strlen(tp) + 1, f) != strlen(tp) + 1 ||
	    fwrite(ev, 1, len, f) != len)
		return -EIO;
	return 0;
}

int main(int argc, char **argv)
{
	char tp[EH_NAME_MAX], json_path[4096];
	const char *base;
	struct eh_enc *e;
	const uint8_t *ev;
	FILE *vf, *jf;
	size_t len, i, n = 0;
	int order, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: eventheader-vectors OUT.vec\n");
		return 2;
	}
	base = strrchr(argv[1], '/');
	base = base ? base + 1 : argv[1];
	snprintf(json_path, sizeof(json_path), "%s.linux.json", argv[1]);
	e = eh_enc_new();
	vf = fopen(argv[1], "wb");
	jf = fopen(json_path, "wb");
	if (!e || !vf || !jf) {
		perror("eventheader-vectors");
		return 1;
	}
	fprintf(jf, "\xef\xbb\xbf\n\"%s\": [\n", base);
	for (order = 0; order < 2; order++) {
		for (i = 0; i < ehc_event_count; i++) {
			const struct ehc_event *c = &ehc_events[i];
			char *line;

			ret = ehc_build(e, c, order, tp, &ev, &len);
			if (!ret)
				ret = write_record(vf, tp, ev, len);
			line = ehc_json(c, order);
			if (ret || !line) {
				fprintf(stderr, "eventheader-vectors: %s: %s\n",
					c->name, strerror(ret ? -ret : ENOMEM));
				return 1;
			}
			fprintf(jf, "%s  %s", n ? ",\n" : "", line);
			free(line);
			n++;
		}
	}
	fprintf(jf, " ]\n");
	eh_enc_free(e);
	if (fclose(vf) || fclose(jf)) {
		perror("eventheader-vectors");
		return 1;
	}
	printf("%zu\n", n);
	return 0;
}
