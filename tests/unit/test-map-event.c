// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-event.c - any ftrace event as an FXT instant
 * (trace-cmd-plugin/trace-fxt-input/map-event.c), without a .dat: the format is parsed by
 * libtraceevent, the record laid out by hand at the format's offsets, and
 * the FXT written is read back with the core's reader.
 *
 * An array field that is not a string becomes the text trace-cmd report
 * -R prints for it, "ARRAY[xx, yy]" (MAPPING.md); every such field of an
 * event, however many it has, must hold its own bytes (the first 64 only
 * did: the others' text pointers were left from earlier use).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fxt-reader.h"
#include "map-event.h"
#include "unit.h"

#define NR_ARRAYS	80

/* A format of NR_ARRAYS "unsigned char aNN[2]" fields after the common. */
static size_t array_format(char *text, size_t size)
{
	size_t n;
	int i;

	n = snprintf(text, size, "name: many_arrays\nID: 900\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\t"
		     "size:2;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\t"
		     "signed:1;\n\n");
	for (i = 0; i < NR_ARRAYS; i++)
		n += snprintf(text + n, size - n,
			      "\tfield:unsigned char a%02d[2];\toffset:%d;\t"
			      "size:2;\tsigned:0;\n", i, 8 + 2 * i);
	n += snprintf(text + n, size - n, "\nprint fmt: \"x\"\n");
	return n;
}

static void test_many_arrays(void)
{
	static const struct fxt_input_opts opts;
	uint8_t data[8 + 2 * NR_ARRAYS] = { 0 };
	struct tep_record rec = { .ts = 5, .data = data, .size = sizeof(data) };
	const struct fxt_thread th = { .pid = 1, .tid = 1 };
	struct map_buffer buf = { .native = true };
	struct map_ctx ctx = { .opts = &opts };
	struct fxt_record got;
	struct fxt_reader *r;
	struct map_event *me;
	struct tep_handle *tep;
	char text[16384], want[32], name[8];
	unsigned int seen = 0, right = 0, i;
	size_t len, n;
	FILE *fp;
	char *out;

	n = array_format(text, sizeof(text));
	CU_ASSERT_FATAL(n < sizeof(text));
	tep = tep_alloc();
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, text, n, "test"), 0);
	buf.tep = tep;
	trace_seq_init(&ctx.seq);
	fp = open_memstream(&out, &len);
	ctx.w = fxt_writer_create_fp(fp, 0);
	ctx.iw = ctx.w;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx.w);
	CU_ASSERT_EQUAL(fxt_write_provider_info(ctx.w, 1, "top", 3), 0);
	me = map_event_new(&ctx, tep_find_event(tep, 900));
	CU_ASSERT_PTR_NOT_NULL_FATAL(me);
	for (i = 0; i < NR_ARRAYS; i++) {
		/* no NUL first, nothing printable: never a string */
		data[8 + 2 * i] = 0x80 | i;
		data[9 + 2 * i] = 0xa0 | (i & 15);
	}
	CU_ASSERT_EQUAL(map_event_write(&ctx, &buf, me, &rec, &th), 0);
	CU_ASSERT_EQUAL(fxt_writer_close(ctx.w), 0);
	fclose(fp);
	r = fxt_reader_open_mem(out, len, "mem", FXT_READER_STRICT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (fxt_reader_next(r, &got) > 0) {
		if (got.type != FXT_REC_EVENT)
			continue;
		for (n = 0; n < got.event.nargs; n++) {
			const struct fxt_arg *a = &got.event.args[n];

			if (a->name.len != 3 || a->name.ptr[0] != 'a')
				continue;
			memcpy(name, a->name.ptr, 3);
			name[3] = '\0';
			i = atoi(name + 1);
			snprintf(want, sizeof(want), "ARRAY[%02x, %02x]",
				 0x80 | i, 0xa0 | (i & 15));
			seen++;
			if (a->type == FXT_ARG_STRING &&
			    a->str.len == strlen(want) &&
			    !memcmp(a->str.ptr, want, a->str.len))
				right++;
			else
				printf("\n    %s: \"%.*s\", not \"%s\"", name,
				       (int)a->str.len,
				       a->type == FXT_ARG_STRING ?
				       a->str.ptr : "", want);
		}
	}
	CU_ASSERT_EQUAL(seen, NR_ARRAYS);
	CU_ASSERT_EQUAL(right, NR_ARRAYS);
	printf("\n    an event of %d byte arrays: %u of them read back, %u "
	       "with their own ARRAY[..] text\n", NR_ARRAYS, seen, right);
	fxt_reader_close(r);
	free(out);
	map_event_free(me);
	free(ctx.args);
	free(ctx.text_refs);
	trace_seq_destroy(&ctx.seq);
	tep_free(tep);
}

static CU_TestInfo event_tests[] = {
	{ "every byte array of an event with 80 holds its own ARRAY[..] text",
	  test_many_arrays },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-event: any event as an instant", NULL, NULL, NULL, NULL,
	  event_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
