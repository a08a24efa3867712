// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-map-table.c - map-ftrace.table (trace-cmd-plugin/trace-fxt-input/),
 * the kernel events the mapping writes as Perfetto's own ftrace events,
 * against what is not the table, whether or not a fixture fires the
 * event:
 *  - Perfetto's schema (perfetto-ftrace.schema, copied from its .proto
 *    files): each row's FtraceEvent field and message, and the number
 *    and type of each field it writes;
 *  - the kernel's formats (those samples/syscalls.dat carries, a 6.18
 *    kernel's tracefs, and tests/e2e/kernel-formats/ for events that
 *    kernel lacks): every field any row of map_specials[] names;
 *  - map_specials[] as compiled: each row of the table is the row that
 *    takes its event there, fields and message as the table says;
 *  - the rows only the way back reads (pft2dat), from the table's text:
 *    Perfetto's schema and the kernel's formats as above.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "map-dispatch.h"
#include "map-ftrace.h"
#include "map-ftrace-table.h"
#include "map-special.h"
#include "unit.h"

/* A row of the table, as the build compiled it (map-ftrace-table.h). */
struct trow {
	const char		*system, *name, *message;
	const char		*field[MAP_SPECIAL_FIELDS];
	/* the types they are written as, NULL for one not written */
	const char		*type[MAP_SPECIAL_FIELDS];
	struct map_pkt_def	pkt;
};

#define TROW(sys, ev, msg) {						\
	.system = #sys, .name = #ev, .message = #msg,			\
	.field = { MAP_TABLE_FIELDS_##sys##_##ev },			\
	.type = { MAP_TABLE_TYPES_##sys##_##ev },			\
	.pkt = { MAP_TABLE_PKT_##sys##_##ev },				\
},

static const struct trow trows[] = { MAP_TABLE_ALL(TROW) };
#define NR_TROWS	(sizeof(trows) / sizeof(trows[0]))

/* A message of perfetto-ftrace.schema. */
#define SCHEMA_FIELDS	32
struct smsg {
	unsigned int	num;		/* its field of FtraceEvent */
	char		event[64], message[64];
	unsigned int	nf;
	struct {
		char		name[48], type[16];
		unsigned int	num;
	} f[SCHEMA_FIELDS];
};

static struct smsg schema[256];
static unsigned int nr_schema;

static int schema_load(void)
{
	size_t len;
	char *text = unit_slurp("tests/unit/perfetto-ftrace.schema", &len);
	char *line, *save = NULL, *tok, *tsave;
	struct smsg *m = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		if (line[0] != ' ' && line[0] != '\t') {
			if (nr_schema == sizeof(schema) / sizeof(schema[0]))
				return -1;
			m = &schema[nr_schema++];
			if (sscanf(line, "%u %63s %63s", &m->num, m->event,
				   m->message) != 3)
				return -1;
			continue;
		}
		for (tok = strtok_r(line, " \t", &tsave); tok && m;
		     tok = strtok_r(NULL, " \t", &tsave)) {
			if (m->nf == SCHEMA_FIELDS ||
			    sscanf(tok, "%47[^=]=%u:%15s", m->f[m->nf].name,
				   &m->f[m->nf].num, m->f[m->nf].type) != 3)
				return -1;
			m->nf++;
		}
	}
	free(text);
	return nr_schema ? 0 : -1;
}

static const struct smsg *schema_find(unsigned int num)
{
	unsigned int i;

	for (i = 0; i < nr_schema; i++)
		if (schema[i].num == num)
			return &schema[i];
	return NULL;
}

/* Whether two of a row's fields are the same name, or both none. */
static bool same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Each row of the table is the one row of map_specials[] that takes its
 * event, with the table's fields and message (a row map-dispatch.c
 * writes itself may add handlers, not change those); no other row
 * writes a Perfetto event by the table's writers.
 */
static void test_rows_compiled(void)
{
	unsigned int i, j, k, n, own = 0;

	for (i = 0; i < NR_TROWS; i++) {
		const struct trow *t = &trows[i];
		const struct map_special *s = NULL;

		for (n = 0, k = 0; k < map_nr_specials; k++)
			if (map_specials[k].name &&
			    !strcmp(map_specials[k].system, t->system) &&
			    !strcmp(map_specials[k].name, t->name)) {
				s = &map_specials[k];
				n++;
			}
		if (n != 1) {
			printf("\n    %s:%s: %u rows in map_specials[]",
			       t->system, t->name, n);
			CU_FAIL("a row of the table not one of map_specials[]");
			continue;
		}
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++) {
			CU_ASSERT(same_name(s->field[j], t->field[j]));
			CU_ASSERT_EQUAL(s->pkt.f[j].kind, t->pkt.f[j].kind);
			CU_ASSERT_EQUAL(s->pkt.f[j].proto, t->pkt.f[j].proto);
		}
		CU_ASSERT_EQUAL(s->pkt.event, t->pkt.event);
		CU_ASSERT_PTR_NOT_NULL(s->pkt_write);
		if (s->write || s->pkt_write != map_ftrace_write ||
		    s->need != 1 || s->pkt.instead || s->pkt.below)
			own++;
	}
	/* every Perfetto event a row names is the table's */
	for (k = 0; k < map_nr_specials; k++) {
		const struct map_special *s = &map_specials[k];

		if (!s->pkt.event)
			continue;
		for (i = 0; i < NR_TROWS; i++)
			if (!strcmp(s->name, trows[i].name) &&
			    !strcmp(s->system, trows[i].system))
				break;
		CU_ASSERT(i < NR_TROWS);
	}
	printf("\n    %zu rows of the table, each its event's one row in "
	       "map_specials[], fields and message the table's (%u with "
	       "handlers or options of map-dispatch.c's)\n", NR_TROWS, own);
}

/*
 * The type a row writes a field as, as the message declares it: a
 * kernel symbol's id is a uint64, a kernel string's text a string.
 */
static const char *declared(const char *type)
{
	if (!strcmp(type, "sym"))
		return "uint64";
	if (!strcmp(type, "kstr"))
		return "string";
	return type;
}

/* The kind map-ftrace.c writes a field of that type as. */
static bool kind_fits(uint8_t kind, const char *type)
{
	switch (kind) {
	case MAP_PKT_INT:
		return !strcmp(type, "int32") || !strcmp(type, "int64");
	case MAP_PKT_UINT:
		return !strcmp(type, "uint32") || !strcmp(type, "uint64");
	case MAP_PKT_STR:
		return !strcmp(type, "string");
	case MAP_PKT_SYM:
		return !strcmp(type, "sym");
	case MAP_PKT_KSTR:
		return !strcmp(type, "kstr");
	case MAP_PKT_UINTS:
		return !strcmp(type, "uint64s");
	}
	return false;
}

/*
 * Each row's event is FtraceEvent's field of that name and message in
 * Perfetto's schema, and each field it writes is the message's field of
 * the kernel field's name (Perfetto's messages are generated from the
 * kernel's formats, field names and all), of that number and type.
 */
static void test_rows_schema(void)
{
	unsigned int i, j, k, fields = 0;

	CU_ASSERT_EQUAL_FATAL(schema_load(), 0);
	for (i = 0; i < NR_TROWS; i++) {
		const struct trow *t = &trows[i];
		const struct smsg *m = schema_find(t->pkt.event);

		if (!m || strcmp(m->event, t->name) ||
		    strcmp(m->message, t->message)) {
			printf("\n    %s:%s: FtraceEvent field %u is %s %s in "
			       "Perfetto's schema, not %s", t->system,
			       t->name, t->pkt.event, m ? m->message : "no",
			       m ? m->event : "event", t->message);
			CU_FAIL("an event's number or message not Perfetto's");
			continue;
		}
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++) {
			const struct map_pkt_field *pf = &t->pkt.f[j];

			if (!t->type[j]) {
				CU_ASSERT_EQUAL(pf->kind, MAP_PKT_NONE);
				continue;
			}
			fields++;
			CU_ASSERT(kind_fits(pf->kind, t->type[j]));
			for (k = 0; k < m->nf; k++)
				if (!strcmp(m->f[k].name, t->field[j]))
					break;
			if (k < m->nf && m->f[k].num == pf->proto &&
			    !strcmp(m->f[k].type, declared(t->type[j])))
				continue;
			if (k < m->nf)
				printf("\n    %s:%s: %s is field %u (%s) "
				       "of %s, not %u (%s)", t->system, t->name,
				       t->field[j], m->f[k].num, m->f[k].type,
				       m->message, pf->proto, t->type[j]);
			else
				printf("\n    %s:%s: %s has no field %s",
				       t->system, t->name, m->message,
				       t->field[j]);
			CU_FAIL("a field's number or type is not Perfetto's");
		}
	}
	printf("\n    %zu rows, %u fields written: each event's FtraceEvent "
	       "field and message, each field's number and type Perfetto's "
	       "(perfetto-ftrace.schema, %u messages)\n", NR_TROWS, fields,
	       nr_schema);
}

/*
 * Fields a row names that the kernels whose formats are here lack: an
 * older kernel's.  The row reads them where they are (only the first
 * field is needed).
 */
static const char *const older_fields[][3] = {
	/* 6.18 has order and gfp_flags only */
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", "may_writepage" },
	/* read rows': 6.18 has comm, pid, prio, orig_cpu, dest_cpu */
	{ "sched", "sched_migrate_task", "running" },
	{ "sched", "sched_migrate_task", "load" },
	/* success: always 1, gone since 5.x; exit's tgid: Android's */
	{ "sched", "sched_wakeup", "success" },
	{ "sched", "sched_waking", "success" },
	{ "sched", "sched_wakeup_new", "success" },
	{ "sched", "sched_process_exit", "tgid" },
};

/* Read rows of events no kernel whose formats are here has (arm64's). */
static const char *const formatless[][2] = {
	{ "ipi", "ipi_entry" },
	{ "ipi", "ipi_exit" },
};

static bool is_formatless(const char *system, const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(formatless) / sizeof(formatless[0]); i++)
		if (!strcmp(formatless[i][0], system) &&
		    !strcmp(formatless[i][1], name))
			return true;
	return false;
}

static bool older_named(const char *system, const char *name,
			const char *field)
{
	unsigned int i;

	for (i = 0; i < sizeof(older_fields) / sizeof(older_fields[0]); i++)
		if (!strcmp(older_fields[i][0], system) &&
		    !strcmp(older_fields[i][1], name) &&
		    !strcmp(older_fields[i][2], field))
			return true;
	return false;
}

static bool older_field(const struct map_special *s, const char *field)
{
	return older_named(s->system, s->name, field);
}

/*
 * tests/e2e/kernel-formats/@name.format parsed as an event of @system
 * into @tep (an ID line added to the formats written without one), or
 * NULL when there is no such file.
 */
static struct tep_event *kernel_format(struct tep_handle *tep,
				       const char *system, const char *name)
{
	char rel[256], *text, *with_id, *nl;
	struct tep_event *e = NULL;
	size_t len;
	FILE *f;

	snprintf(rel, sizeof(rel), "tests/e2e/kernel-formats/%s.format",
		 name);
	f = fopen(unit_path(rel), "r");
	if (!f)
		return NULL;
	fclose(f);
	text = unit_slurp(rel, &len);
	nl = strchr(text, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
	with_id = malloc(len + 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(with_id);
	if (strstr(text, "\nID: "))
		memcpy(with_id, text, len + 1);
	else
		len = sprintf(with_id, "%.*sID: 9999\n%s",
			      (int)(nl + 1 - text), text, nl + 1);
	if (tep_parse_event(tep, with_id, len, system) == 0)
		e = tep_find_event_by_name(tep, system, name);
	free(with_id);
	free(text);
	return e;
}

/*
 * Every field a row of map_specials[] names is a field of its event in
 * the kernel's format: a row naming a field the event lacks would never
 * find it.
 */
static void test_rows_formats(void)
{
	struct tracecmd_input *h;
	struct tep_handle *tep, *own = tep_alloc();
	unsigned int i, j, events = 0, fields = 0, older = 0, files = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(own);
	h = tracecmd_open_head(unit_path("samples/syscalls.dat"), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	tep = tracecmd_get_tep(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	for (i = 0; i < map_nr_specials; i++) {
		const struct map_special *s = &map_specials[i];
		struct tep_event *e;

		if (!s->name)
			continue;
		e = tep_find_event_by_name(tep, s->system, s->name);
		if (!e && (e = kernel_format(own, s->system, s->name)))
			files++;
		if (!e) {
			printf("\n    %s:%s: no format to check its fields "
			       "against", s->system, s->name);
			CU_FAIL("a row's event has no format here");
			continue;
		}
		events++;
		for (j = 0; j < MAP_SPECIAL_FIELDS; j++) {
			if (!s->field[j])
				continue;
			if (tep_find_field(e, s->field[j])) {
				fields++;
			} else if (older_field(s, s->field[j])) {
				older++;
			} else {
				printf("\n    %s:%s has no field %s", s->system,
				       s->name, s->field[j]);
				CU_FAIL("a row names a field its event lacks");
			}
		}
	}
	tracecmd_close(h);
	tep_free(own);
	printf("\n    %u events, %u fields named by their rows, each in its "
	       "kernel format (%u of the events from "
	       "tests/e2e/kernel-formats/); %u field of older kernels\n",
	       events, fields, files, older);
}

/*
 * The rows only the way back reads ("read": Perfetto's recordings to
 * trace.dat, pft2dat-event.c, through pft-ftrace-table.h), which
 * map_specials[] does not hold: read from the table's text, each its
 * event's FtraceEvent field and message, each field the message's of
 * that name, number and type, and the kernel format's.
 */
static void test_read_rows(void)
{
	size_t len;
	char *text = unit_slurp("trace-cmd-plugin/trace-fxt-input/"
				"map-ftrace.table", &len);
	char *line, *save = NULL, *tok, *tsave, ev[96], msg[64], kind[16];
	struct tep_handle *tep, *own = tep_alloc();
	struct tracecmd_input *h;
	unsigned int rows = 0, fields = 0, formatless_rows = 0, num, fnum, k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(own);
	if (!nr_schema)
		CU_ASSERT_EQUAL_FATAL(schema_load(), 0);
	h = tracecmd_open_head(unit_path("samples/syscalls.dat"), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	tep = tracecmd_get_tep(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const struct smsg *m;
		struct tep_event *e;
		char *colon, fname[48], ftype[16];

		if (line[0] == '#' ||
		    sscanf(line, "%95s %63s %u %15s", ev, msg, &num,
			   kind) != 4 || strcmp(kind, "read"))
			continue;
		rows++;
		colon = strchr(ev, ':');
		CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
		*colon = 0;
		m = schema_find(num);
		if (!m || strcmp(m->event, colon + 1) ||
		    strcmp(m->message, msg)) {
			printf("\n    %s:%s: FtraceEvent field %u is not %s in "
			       "Perfetto's schema", ev, colon + 1, num, msg);
			CU_FAIL("a read row's event is not Perfetto's");
			continue;
		}
		e = tep_find_event_by_name(tep, ev, colon + 1);
		if (!e)
			e = kernel_format(own, ev, colon + 1);
		if (!e && is_formatless(ev, colon + 1)) {
			formatless_rows++;
			continue;
		}
		if (!e) {
			printf("\n    %s:%s: no kernel format", ev, colon + 1);
			CU_FAIL("a read row's event has no format here");
			continue;
		}
		/* the fields: after the four columns */
		tok = strtok_r(line, " \t", &tsave);
		for (k = 0; k < 3 && tok; k++)
			tok = strtok_r(NULL, " \t", &tsave);
		while ((tok = strtok_r(NULL, " \t", &tsave))) {
			if (sscanf(tok + (*tok == '+'), "%47[^=]=%u:%15s",
				   fname, &fnum, ftype) != 3)
				continue;
			fields++;
			for (k = 0; k < m->nf; k++)
				if (!strcmp(m->f[k].name, fname))
					break;
			if (k == m->nf || m->f[k].num != fnum ||
			    strcmp(m->f[k].type, declared(ftype))) {
				printf("\n    %s:%s: %s=%u:%s is not %s's", ev,
				       colon + 1, fname, fnum, ftype, msg);
				CU_FAIL("a read row's field is not Perfetto's");
			}
			if (!tep_find_field(e, fname) &&
			    !older_named(ev, colon + 1, fname)) {
				printf("\n    %s:%s has no field %s", ev,
				       colon + 1, fname);
				CU_FAIL("a read row names a field its event "
					"lacks");
			}
		}
	}
	tracecmd_close(h);
	tep_free(own);
	free(text);
	CU_ASSERT(rows > 0);
	printf("\n    %u rows read back only, %u fields: each in Perfetto's "
	       "schema and its kernel format (%u events of no format here)\n",
	       rows, fields, formatless_rows);
}

static CU_TestInfo table_tests[] = {
	{ "each row of the table is its event's row of map_specials[]",
	  test_rows_compiled },
	{ "each row's numbers and types are Perfetto's schema's",
	  test_rows_schema },
	{ "each field a row names is in its event's kernel format",
	  test_rows_formats },
	{ "each row only the way back reads: Perfetto's, the kernel's",
	  test_read_rows },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "map-ftrace.table against Perfetto's schema and the kernel's",
	  NULL, NULL, NULL, NULL, table_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
