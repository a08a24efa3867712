// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-dispatch.c - the table of special events
 * (trace-cmd-plugin/trace-fxt-input/map-dispatch.c): each event it names goes to exactly
 * one handler, with the fields that handler reads found in the format;
 * any other event, and a listed one whose format lacks what its handler
 * needs, to the generic instant writer alone.
 *
 * Formats are parsed by libtraceevent: the kernel's sched_switch and
 * sched_wakeup (tests/unit/dat-formats/, from a 6.x kernel's tracefs),
 * and for each row of the table one written here with the fields the row
 * names, in the kernel's layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "map-dispatch.h"
#include "map-ftrace.h"
#include "map-sched.h"
#include "map-special.h"
#include "unit.h"

/* @text parsed as an event of @system; what the table makes of it. */
static const struct map_special *classify_text(const char *system,
					       const char *text, size_t len,
					       int id, struct map_event *me)
{
	struct tep_handle *tep = tep_alloc();
	const struct map_special *s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, text, len, system), 0);
	memset(me, 0, sizeof(*me));
	me->event = tep_find_event(tep, id);
	CU_ASSERT_PTR_NOT_NULL_FATAL(me->event);
	s = map_dispatch_classify(me);
	CU_ASSERT_PTR_EQUAL(s, me->special);
	/* the fields found point into @tep: only their presence is kept */
	for (id = 0; id < MAP_SPECIAL_FIELDS; id++)
		me->sf[id] = me->sf[id] ? (void *)1 : NULL;
	tep_free(tep);
	return s;
}

/*
 * A format for @system:@name with the common fields and @fields (NULL
 * ended), each an int, or a char[16] for a comm.
 */
static const struct map_special *classify_fields(const char *system,
						 const char *name,
						 const char *const *fields,
						 struct map_event *me)
{
	char text[2048];
	int n, off = 8;

	n = snprintf(text, sizeof(text), "name: %s\nID: 100\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\t"
		     "size:2;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\t"
		     "signed:1;\n\n", name);
	for (; fields && *fields; fields++) {
		bool comm = strstr(*fields, "comm") != NULL;

		n += snprintf(text + n, sizeof(text) - n,
			      comm ? "\tfield:char %s[16];\toffset:%d;\t"
				     "size:16;\tsigned:0;\n" :
				     "\tfield:int %s;\toffset:%d;\tsize:4;\t"
				     "signed:1;\n", *fields, off);
		off += comm ? 16 : 4;
	}
	n += snprintf(text + n, sizeof(text) - n, "\nprint fmt: \"x\"\n");
	CU_ASSERT_FATAL(n > 0 && (size_t)n < sizeof(text));
	return classify_text(system, text, n, 100, me);
}

/*
 * Every row writes (FXT records, Perfetto packets or both; a packet
 * "instead" of FXT records has both, for --fxt-sched, or packets alone
 * when --fxt-sched wants nothing but the instant: syscalls); a
 * table-driven packet names its event and a row field for each of its
 * fields; a named event has one row; catch-alls come last.
 */
static void test_table_shape(void)
{
	unsigned int i, j, named = 0, pkts = 0;

	CU_ASSERT_FATAL(map_nr_specials > 0);
	for (i = 0; i < map_nr_specials; i++) {
		const struct map_special *s = &map_specials[i];

		CU_ASSERT(s->write || s->pkt_write);
		if (s->pkt.instead)
			CU_ASSERT(s->pkt_write != NULL);
		if (s->pkt_write == map_ftrace_write ||
		    s->pkt_write == map_ftrace_syscall_write ||
		    s->pkt_write == map_ftrace_newtask_write) {
			pkts++;
			CU_ASSERT(s->pkt.event != 0);
			for (j = 0; j < MAP_SPECIAL_FIELDS; j++)
				if (s->pkt.f[j].kind != MAP_PKT_NONE)
					CU_ASSERT(s->field[j] &&
						  s->pkt.f[j].proto);
		}
		CU_ASSERT(s->need <= MAP_SPECIAL_FIELDS);
		for (j = 0; j < s->need; j++)
			CU_ASSERT_PTR_NOT_NULL(s->field[j]);
		if (!s->name) {
			/* a catch-all decides by the format */
			CU_ASSERT_PTR_NOT_NULL(s->classify);
			continue;
		}
		named++;
		CU_ASSERT_PTR_NOT_NULL(s->system);
		/* no catch-all before a named row: it would shadow it */
		for (j = 0; j < i; j++)
			CU_ASSERT_PTR_NOT_NULL(map_specials[j].name);
		for (j = i + 1; j < map_nr_specials; j++) {
			const struct map_special *o = &map_specials[j];

			if (o->name)
				CU_ASSERT(strcmp(s->system, o->system) ||
					  strcmp(s->name, o->name));
		}
	}
	printf("\n    %u rows, %u of them named events, each once; %u "
	       "written as Perfetto ftrace events by the table\n",
	       map_nr_specials, named, pkts);
}

/* Each named event, with the fields its row lists, takes that row. */
static void test_each_row(void)
{
	struct map_event me;
	unsigned int i, j, n = 0;

	for (i = 0; i < map_nr_specials; i++) {
		const struct map_special *s = &map_specials[i];
		const char *fields[MAP_SPECIAL_FIELDS + 1] = { NULL };
		unsigned int k = 0;

		if (!s->name)
			continue;
		/* the listed fields, a row's unused slots left out */
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++)
			if (s->field[j])
				fields[k++] = s->field[j];
		CU_ASSERT_PTR_EQUAL(classify_fields(s->system, s->name,
						    fields, &me), s);
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++)
			CU_ASSERT_EQUAL(!!me.sf[j], !!s->field[j]);
		n++;
	}
	printf("\n    %u named events, each classified to its own row with "
	       "every field it lists\n", n);
}

/* Others are written as their instant alone. */
static void test_generic(void)
{
	static const char *const pid_comm[] = { "pid", "comm", NULL };
	static const char *const other[] = { "other", NULL };
	struct map_event me;

	/* a sched event that names no task, an unlisted system */
	CU_ASSERT_PTR_NULL(classify_fields("sched", "sched_stat_sleep",
					   pid_comm, &me));
	CU_ASSERT_PTR_NULL(classify_fields("irq", "irq_handler_entry",
					   other, &me));
	/* a listed name in another system */
	CU_ASSERT_PTR_NULL(classify_fields("power", "sched_switch",
					   pid_comm, &me));
	/* a counter whose value field is missing */
	CU_ASSERT_PTR_NULL(classify_fields("power", "cpu_idle", other, &me));
	CU_ASSERT_PTR_NULL(me.sf[0]);
	printf("\n    sched_stat_sleep, irq_handler_entry, power:sched_switch "
	       "and a cpu_idle without state: no handler\n");
}

/* The kernel's own formats. */
static void test_kernel_formats(void)
{
	struct map_event me;
	const struct map_special *s;
	size_t len;
	char *text;
	int i;

	text = unit_slurp("tests/unit/dat-formats/sched_switch.format", &len);
	s = classify_text("sched", text, len, 372, &me);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_EQUAL(s->write, map_sched_switch_write);
	for (i = 0; i < 7; i++)
		CU_ASSERT_PTR_NOT_NULL(me.sf[i]);
	free(text);
	text = unit_slurp("tests/unit/dat-formats/sched_wakeup.format", &len);
	CU_ASSERT_FATAL(strstr(text, "ID: ") != NULL);
	s = classify_text("sched", text, len, atoi(strstr(text, "ID: ") + 4),
			  &me);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_EQUAL(s->write, map_sched_wakeup_write);
	CU_ASSERT_EQUAL(s->wake, MAP_WAKE_UP);
	for (i = 0; i < 4; i++)
		CU_ASSERT_PTR_NOT_NULL(me.sf[i]);
	free(text);
	printf("\n    the kernel's sched_switch: context switch, 7 fields; "
	       "sched_wakeup: wakeup (dropped after sched_waking), 4 fields\n");
}

static CU_TestInfo dispatch_tests[] = {
	{ "the table: every row writes, every named event once",
	  test_table_shape },
	{ "each named event takes its own row, with its fields",
	  test_each_row },
	{ "other events, and listed ones without their value, have no handler",
	  test_generic },
	{ "the kernel's sched_switch and sched_wakeup formats",
	  test_kernel_formats },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-dispatch: the table of special events", NULL, NULL, NULL,
	  NULL, dispatch_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
