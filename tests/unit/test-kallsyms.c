// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-kallsyms.c - trace-fxt's own kallsyms parse (kallsyms.c) against
 * libtraceevent's tep_parse_kallsyms() on the same texts: the functions
 * each registers, as tep_print_funcs() lists them (address, name,
 * module), must be the same; and the look-ups of a handle served by it
 * through libtraceevent's resolver, printing included.
 *
 * The texts: lines of the kernel's shape (types, '$' names and absolute
 * symbols libtraceevent skips, modules, 16 and fewer hex digits, empty
 * lines), lines of other shapes that must send the whole text to
 * libtraceevent's parser (extra spaces, a tab before the type, text
 * after the module, a bracket with nothing in it, 17 digits), and this
 * machine's /proc/kallsyms when it can be read.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "kallsyms.h"
#include "unit.h"

/*
 * What tep_print_funcs() prints of @text (malloc'ed): parsed by
 * libtraceevent, or by kallsyms.c with @ours.
 */
static char *funcs_of(bool ours, const char *text, size_t *len)
{
	struct kallsyms *ks = NULL;
	struct tep_handle *tep;
	char *out = NULL;
	FILE *f = tmpfile();
	int saved;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	if (ours) {
		ks = kallsyms_start(text, strlen(text));
		CU_ASSERT_PTR_NOT_NULL_FATAL(ks);
		tep = kallsyms_functions(ks);
	} else {
		tep = tep_alloc();
		CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
		tep_parse_kallsyms(tep, text);
	}
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	tep_print_funcs(tep);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	*len = (size_t)ftell(f);
	out = malloc(*len + 1);
	rewind(f);
	CU_ASSERT_FATAL(out && fread(out, 1, *len, f) == *len);
	out[*len] = '\0';
	fclose(f);
	if (ks)
		kallsyms_free(ks);
	else
		tep_free(tep);
	return out;
}

/* Both parsers on @text: the same functions; how many lines listed. */
static size_t compare(const char *what, const char *text)
{
	size_t la, lb, lines = 0, i;
	char *a, *b;

	a = funcs_of(true, text, &la);
	b = funcs_of(false, text, &lb);
	for (i = 0; i < lb; i++)
		lines += b[i] == '\n';
	printf("\n    %s: %zu functions listed by libtraceevent's parse, "
	       "%s by ours", what, lines,
	       la == lb && !memcmp(a, b, la) ? "the same" : "OTHERS");
	CU_ASSERT_EQUAL(la, lb);
	CU_ASSERT(la == lb && !memcmp(a, b, la));
	free(a);
	free(b);
	return lines;
}

static void test_kernel_shape(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 t early_idt_handler\n"
		"\n"
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 a absolute_lower\n"
		"ffffffff81000020 T $x_arm_mapping\n"
		"ffffffff81000030 W weak_one\n"
		"ffffffff81000040 D data_one\n"
		"ffffffffc0a01000 t mod_init\t[nf_tables]\n"
		"ffffffffc0a01010 T mod_func.cold\t[xfs]\n"
		"ffffffffc0a01020 T mod_bracket\t[a]b]\n"
		"abc T short_address\n"
		"FFFFFFFF81000050 T upper_hex\n";

	CU_ASSERT_EQUAL(compare("the kernel's shapes", text), 9);
}

static void test_other_shapes(void)
{
	static const char *const texts[] = {
		"ffffffff81000000 T a\nffffffff81000010  T two_spaces\n",
		"ffffffff81000000 T a\nffffffff81000010\tT tab\n",
		"ffffffff81000000 T a\nffffffff81000010 T b\t[mod] more\n",
		"ffffffff81000000 T a\nffffffff81000010 T b\t[\n",
		"ffffffff81000000 T a\nffffffff81000010 T b \n",
		"ffffffff81000000 T a\n1ffffffff81000010 T seventeen\n",
		"ffffffff81000000 T a\n0xffffffff81000010 T prefixed\n",
		"ffffffff81000000 T a\nnot a line at all\nffff T c\n",
		"ffffffff81000000 T a\r\nffffffff81000010 T b\r\n",
	};
	char what[32];
	unsigned int i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		snprintf(what, sizeof(what), "other shape %u", i + 1);
		compare(what, texts[i]);
	}
}

static void test_proc_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *text = NULL;
	size_t len = 0, n;
	char buf[1 << 16];

	if (!f) {
		printf("\n    # skip: /proc/kallsyms cannot be read");
		return;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		text = realloc(text, len + n + 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		memcpy(text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!text) {
		printf("\n    # skip: /proc/kallsyms is empty");
		return;
	}
	text[len] = '\0';
	compare("this machine's /proc/kallsyms", text);
	free(text);
}

/* A format whose print shows a function: "%pS" of its ip field. */
static const char ip_format[] =
	"name: fn_event\n"
	"ID: 1\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"%pS\", (void *)REC->ip\n";

/*
 * The parse runs on a thread, and the first look-up through a handle it
 * serves, from any thread, waits for it (kallsyms.h).  200,000 symbols
 * take the thread milliseconds; a look-up that did not wait would find
 * the table half built, or none.  libtraceevent's printing of %pS finds
 * its function through the resolver too, and the handle of the functions
 * gives each one's size, which the resolver cannot.
 */
static void test_resolver(void)
{
	enum { NR = 200000 };
	unsigned long long start = 0, ip = 0xffffffff80000000ULL + 5 * 16 + 3;
	unsigned long size = 0;
	struct tep_handle *tep = tep_alloc();
	struct tep_record rec = { 0 };
	struct trace_seq seq;
	struct kallsyms *ks;
	const char *name = NULL;
	uint8_t data[16] = { 1, 0 };
	char *text, *p;
	int i, found;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	text = malloc((size_t)NR * 40);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (p = text, i = 0; i < NR; i++)
		p += sprintf(p, "ffffffff8%07x T func_%d\n", i * 16, i);
	ks = kallsyms_start(text, strlen(text));
	free(text);	/* the thread parses its own copy */
	CU_ASSERT_PTR_NOT_NULL_FATAL(ks);
	CU_ASSERT_EQUAL(kallsyms_attach(ks, tep), 0);
	found = tep_find_function_info(tep, 0xffffffff80000000ULL +
				       (NR - 2) * 16 + 3, &name, &start, &size);
	printf("\n    %d symbols, looked up at once through the resolver: %s "
	       "at %llx", NR, found ? name : "(none)", start);
	CU_ASSERT_EQUAL(found, 1);
	CU_ASSERT(name && !strcmp(name, "func_199998"));
	CU_ASSERT_EQUAL(start, 0xffffffff80000000ULL + (NR - 2) * 16);
	name = tep_find_function(tep, 0xffffffff80000000ULL + (NR - 1) * 16);
	CU_ASSERT(name && !strcmp(name, "func_199999"));
	CU_ASSERT_EQUAL(tep_find_function_address(tep, 0xffffffff80000005ULL),
			0xffffffff80000000ULL);
	CU_ASSERT_PTR_NULL(tep_find_function(tep, 0x1000));
	/* the size, from the functions' own handle */
	size = 0;
	found = tep_find_function_info(kallsyms_functions(ks),
				       0xffffffff80000013ULL, &name, &start,
				       &size);
	printf(", %s of %lu bytes", found ? name : "(none)", size);
	CU_ASSERT_EQUAL(size, 16);
	/* libtraceevent's printing of a function, through the resolver */
	CU_ASSERT_EQUAL(tep_parse_event(tep, ip_format, strlen(ip_format),
					"test"), 0);
	memcpy(data + 8, &ip, 8);
	rec.data = data;
	rec.size = sizeof(data);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	printf(", %%pS of 0x%llx printed \"%s\"", ip, seq.buffer);
	CU_ASSERT_STRING_EQUAL(seq.buffer, "func_5+0x3");
	trace_seq_destroy(&seq);
	tep_reset_function_resolver(tep);
	tep_free(tep);
	kallsyms_free(ks);
}

static CU_TestInfo kallsyms_tests[] = {
	{ "lines of the kernel's shape: the same functions", test_kernel_shape },
	{ "any other line: libtraceevent's parse of the whole text",
	  test_other_shapes },
	{ "/proc/kallsyms: the same functions", test_proc_kallsyms },
	{ "a handle served through the resolver: look-ups and %pS",
	  test_resolver },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "kallsyms", NULL, NULL, NULL, NULL, kallsyms_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
