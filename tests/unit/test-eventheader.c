// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-eventheader.c - the EventHeader decoder against the project's own
 * catalogue of events (samples/eventheader-cases.c, written with the
 * core's encoder), LinuxTracepoints' test vectors when they stand beside
 * the clone, hand-made events (big endian, nesting, formats) and
 * malformed input.
 *
 * The catalogue: every event is built in both byte orders and decoded;
 * its items are compared one by one with what the encoder was told
 * (names, encodings, formats, tags, array counts, depths, the values'
 * bytes), its header with the catalogue's header values, and its JSON
 * with the text written by hand in the catalogue.
 *
 * The vectors (optional): ../shared/samples/eventheader/
 * EventHeaderInterceptorLE64.dat (records "u32 size | tracepoint name NUL
 * | event bytes") and the .linux.json next to it, LinuxTracepoints' own
 * decoding of each record.  Every record is decoded and its JSON compared
 * with the oracle twice: as text, byte for byte, and as values, both
 * sides parsed by json-c with member order kept.  The text comparison is
 * the one that sees repeated keys (json-c keeps only the last) and number
 * spelling.  $SHARED_SAMPLES overrides where they are looked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "eventheader.h"
#include "eventheader-enc.h"
#include "eventheader-cases.h"
#include "unit.h"

#define DAT_NAME	"EventHeaderInterceptorLE64.dat"
#define JSON_NAME	DAT_NAME ".linux.json"
#define VECTOR_COUNT	374
#define ORACLE_FLAGS	(EH_JSON_SPACE | EH_JSON_FIELD_TAG)
/* Report at most this many mismatches per test, then just count. */
#define MAX_REPORTS	5
/* The catalogue in both byte orders. */
#define FIXTURE_MAX	128

struct record {
	const char		*name;
	size_t			name_len;
	const uint8_t		*data;
	size_t			size;
	char			*line;		/* the oracle's JSON text */
	struct json_object	*json;		/* and its value */
};

static struct {
	char			*dat;
	size_t			dat_len;
	char			*json_text;
	struct json_object	*json_root;
	struct record		rec[VECTOR_COUNT + 1];
	size_t			count;
	bool			loaded;
	struct eh_decoder	*d;
} g;

/* The catalogue's events, built; fx.rec[i] is ehc_events[i % n]. */
static struct {
	struct record		rec[FIXTURE_MAX];
	const struct ehc_event	*ev[FIXTURE_MAX];
	bool			be[FIXTURE_MAX];
	char			tp[FIXTURE_MAX][EH_NAME_MAX];
	size_t			count;
	bool			loaded;
} fx;

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

/* Where the optional vectors are: $SHARED_SAMPLES or ../shared/samples. */
static const char *vectors_path(const char *file)
{
	static char rel[1024];

	snprintf(rel, sizeof(rel), "eventheader/%s", file);
	return unit_shared_path(rel);
}

static char *read_sample(const char *file, size_t *len)
{
	return read_file(vectors_path(file), len);
}

static int load_records(void)
{
	size_t pos = 0;
	uint32_t size;

	g.dat = read_sample(DAT_NAME, &g.dat_len);
	if (!g.dat)
		return -1;
	while (g.dat_len - pos >= 4 && g.count <= VECTOR_COUNT) {
		struct record *r = &g.rec[g.count];
		const uint8_t *p = (const uint8_t *)g.dat + pos;

		size = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		if (size <= 4 || size > g.dat_len - pos)
			return -1;
		r->name = (const char *)p + 4;
		r->name_len = strnlen(r->name, size - 4);
		if (r->name_len == size - 4)
			return -1;
		r->data = p + 4 + r->name_len + 1;
		r->size = size - 4 - r->name_len - 1;
		g.count++;
		pos += size;
	}
	return pos == g.dat_len ? 0 : -1;
}

/*
 * The oracle is a BOM, a line '"file": [', then one event per line
 * ("  {...}," and "  {...} ]" last).
 */
static int load_oracle(void)
{
	struct json_object *arr;
	char *text, *p, *wrapped;
	size_t len, i;

	text = read_sample(JSON_NAME, &len);
	if (!text)
		return -1;
	g.json_text = text;

	wrapped = malloc(len + 3);
	if (!wrapped)
		return -1;
	p = text;
	if (!strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	snprintf(wrapped, len + 3, "{%s}", p);
	g.json_root = json_tokener_parse(wrapped);
	free(wrapped);
	if (!g.json_root ||
	    !json_object_object_get_ex(g.json_root, DAT_NAME, &arr) ||
	    json_object_array_length(arr) != VECTOR_COUNT)
		return -1;

	/* Cut the text into lines, in place. */
	p = strchr(p, '\n');	/* after the BOM line */
	p = p ? strchr(p + 1, '\n') : NULL;	/* after '"file": [' */
	for (i = 0; p && i < VECTOR_COUNT; i++) {
		char *line = p + 1, *end;

		p = strchr(line, '\n');
		if (p)
			*p = '\0';
		end = line + strlen(line);
		if (end > line && end[-1] == '\r')
			*--end = '\0';
		if (end - line >= 2 && !strcmp(end - 2, " ]"))
			end[-2] = '\0';
		else if (end > line && end[-1] == ',')
			end[-1] = '\0';
		while (*line == ' ')
			line++;
		g.rec[i].line = line;
		g.rec[i].json = json_object_array_get_idx(arr, i);
	}
	return i == VECTOR_COUNT ? 0 : -1;
}

/* Build every catalogue event in both byte orders, with its JSON line. */
static int load_fixture(void)
{
	struct eh_enc *e = eh_enc_new();
	const uint8_t *data;
	size_t i, len;
	int order, ret = 0;

	if (!e || 2 * ehc_event_count > FIXTURE_MAX)
		ret = -1;
	for (order = 0; !ret && order < 2; order++) {
		for (i = 0; !ret && i < ehc_event_count; i++) {
			struct record *r = &fx.rec[fx.count];
			uint8_t *copy;

			fx.ev[fx.count] = &ehc_events[i];
			fx.be[fx.count] = order;
			ret = ehc_build(e, &ehc_events[i], order,
					fx.tp[fx.count], &data, &len);
			copy = ret ? NULL : malloc(len);
			r->line = ret ? NULL : ehc_json(&ehc_events[i], order);
			if (!copy || !r->line) {
				free(copy);
				ret = -1;
				break;
			}
			memcpy(copy, data, len);
			r->name = fx.tp[fx.count];
			r->name_len = strlen(r->name);
			r->data = copy;
			r->size = len;
			r->json = json_tokener_parse(r->line);
			fx.count++;
		}
	}
	eh_enc_free(e);
	return ret;
}

static int suite_init(void)
{
	g.d = eh_decoder_new();
	g.loaded = g.d && !load_records() && g.count == VECTOR_COUNT &&
		   !load_oracle();
	fx.loaded = g.d && !load_fixture();
	/* Tests fail by themselves when the data is missing. */
	return 0;
}

static int suite_clean(void)
{
	size_t i;

	if (g.json_root)
		json_object_put(g.json_root);
	eh_decoder_free(g.d);
	free(g.dat);
	free(g.json_text);
	memset(&g, 0, sizeof(g));
	for (i = 0; i < fx.count; i++) {
		free((void *)fx.rec[i].data);
		free(fx.rec[i].line);
		json_object_put(fx.rec[i].json);
	}
	memset(&fx, 0, sizeof(fx));
	return 0;
}

/* Every record the malformed-input tests cut and mutate. */
static size_t all_count(void)
{
	return (g.loaded ? g.count : 0) + fx.count;
}

static const struct record *all_record(size_t i)
{
	size_t nv = g.loaded ? g.count : 0;

	return i < nv ? &g.rec[i] : &fx.rec[i - nv];
}

static int start(const struct record *r)
{
	return eh_decoder_start(g.d, r->name, r->name_len, r->data, r->size);
}

/* Walk the whole started event; returns the final code of the walk. */
static int walk(struct eh_decoder *d, unsigned int *items)
{
	struct eh_item it;
	unsigned int n = 0;
	int ret;

	while ((ret = eh_decoder_next(d, &it)) > 0)
		n++;
	if (items)
		*items = n;
	return ret;
}

/* --- comparing JSON values ------------------------------------------- */

static bool json_same(struct json_object *a, struct json_object *b,
		      char *why, size_t why_len, const char *path);

static bool json_same_object(struct json_object *a, struct json_object *b,
			     char *why, size_t why_len, const char *path)
{
	struct json_object_iterator ia = json_object_iter_begin(a);
	struct json_object_iterator ea = json_object_iter_end(a);
	struct json_object_iterator ib = json_object_iter_begin(b);
	struct json_object_iterator eb = json_object_iter_end(b);
	char sub[512];

	/* Same keys in the same order, same values. */
	while (!json_object_iter_equal(&ia, &ea) &&
	       !json_object_iter_equal(&ib, &eb)) {
		const char *ka = json_object_iter_peek_name(&ia);
		const char *kb = json_object_iter_peek_name(&ib);

		snprintf(sub, sizeof(sub), "%s.\"%s\"", path, ka);
		if (strcmp(ka, kb)) {
			snprintf(why, why_len, "%s: key \"%s\" where \"%s\" expected",
				 path, ka, kb);
			return false;
		}
		if (!json_same(json_object_iter_peek_value(&ia),
			       json_object_iter_peek_value(&ib), why, why_len,
			       sub))
			return false;
		json_object_iter_next(&ia);
		json_object_iter_next(&ib);
	}
	if (!json_object_iter_equal(&ia, &ea) ||
	    !json_object_iter_equal(&ib, &eb)) {
		snprintf(why, why_len, "%s: %s members", path,
			 json_object_iter_equal(&ia, &ea) ? "missing" :
							   "extra");
		return false;
	}
	return true;
}

static bool json_same(struct json_object *a, struct json_object *b,
		      char *why, size_t why_len, const char *path)
{
	enum json_type ta = json_object_get_type(a);
	enum json_type tb = json_object_get_type(b);
	char sub[512];
	size_t i, n;

	if (ta != tb) {
		snprintf(why, why_len, "%s: %s where %s expected", path,
			 json_type_to_name(ta), json_type_to_name(tb));
		return false;
	}
	switch (ta) {
	case json_type_null:
		return true;
	case json_type_boolean:
		if (json_object_get_boolean(a) == json_object_get_boolean(b))
			return true;
		break;
	case json_type_int:
		/* Both views, as values past INT64_MAX are kept unsigned. */
		if (json_object_get_int64(a) == json_object_get_int64(b) &&
		    json_object_get_uint64(a) == json_object_get_uint64(b))
			return true;
		break;
	case json_type_double:
		if (json_object_get_double(a) == json_object_get_double(b))
			return true;
		break;
	case json_type_string:
		if (json_object_get_string_len(a) ==
		    json_object_get_string_len(b) &&
		    !memcmp(json_object_get_string(a),
			    json_object_get_string(b),
			    (size_t)json_object_get_string_len(a)))
			return true;
		break;
	case json_type_array:
		n = json_object_array_length(a);
		if (n != json_object_array_length(b)) {
			snprintf(why, why_len, "%s: %zu elements, %zu expected",
				 path, n, json_object_array_length(b));
			return false;
		}
		for (i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (!json_same(json_object_array_get_idx(a, i),
				       json_object_array_get_idx(b, i), why,
				       why_len, sub))
				return false;
		}
		return true;
	case json_type_object:
		return json_same_object(a, b, why, why_len, path);
	}
	snprintf(why, why_len, "%s: %s where %s expected", path,
		 json_object_to_json_string(a), json_object_to_json_string(b));
	return false;
}

static void report(unsigned int *bad, size_t i, const char *what,
		   const char *detail)
{
	if ((*bad)++ < MAX_REPORTS)
		fprintf(stderr, "\n  record %zu (%s): %s: %s", i,
			json_object_get_string(json_object_object_get(
				g.rec[i].json, "n")), what, detail);
}

/* --- the vectors ----------------------------------------------------- */

static void test_vectors_load(void)
{
	size_t i;

	CU_ASSERT_FATAL(g.loaded);
	CU_ASSERT_EQUAL(g.count, VECTOR_COUNT);
	for (i = 0; i < g.count; i++)
		CU_ASSERT_EQUAL(start(&g.rec[i]), 0);
}

static void test_vectors_json_text(void)
{
	unsigned int bad = 0;
	size_t i;
	char *s;
	int err;

	CU_ASSERT_FATAL(g.loaded);
	for (i = 0; i < g.count; i++) {
		if (start(&g.rec[i]) < 0) {
			report(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		s = eh_format_event_json_alloc(g.d, ORACLE_FLAGS, &err);
		if (!s)
			report(&bad, i, "json", eh_decoder_strerror(g.d));
		else if (strcmp(s, g.rec[i].line))
			report(&bad, i, "text differs", s);
		free(s);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_vectors_json_values(void)
{
	struct json_object *mine;
	unsigned int bad = 0;
	char why[1024];
	size_t i;
	char *s;
	int err;

	CU_ASSERT_FATAL(g.loaded);
	for (i = 0; i < g.count; i++) {
		if (start(&g.rec[i]) < 0) {
			report(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		s = eh_format_event_json_alloc(g.d, ORACLE_FLAGS, &err);
		mine = s ? json_tokener_parse(s) : NULL;
		if (!mine)
			report(&bad, i, "not JSON", s ? s : "(null)");
		else if (!json_same(mine, g.rec[i].json, why, sizeof(why), ""))
			report(&bad, i, "value differs", why);
		json_object_put(mine);
		free(s);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static bool meta_int(struct json_object *meta, const char *key,
		     uint64_t have)
{
	struct json_object *v;

	if (!json_object_object_get_ex(meta, key, &v))
		return have == 0;	/* zero values are left out */
	return json_object_get_uint64(v) == have;
}

static bool meta_text(struct json_object *meta, const char *key,
		      const char *have)
{
	struct json_object *v;

	if (!json_object_object_get_ex(meta, key, &v))
		return !have;
	return have && !strcmp(json_object_get_string(v), have);
}

static void uuid_text(char *buf, const uint8_t *id)
{
	if (id)
		eh_format_value_raw(buf, 40, id, 16, EH_ENC_VALUE128,
				    EH_FMT_UUID, false, 0);
}

/* The event-level API (not the JSON writer) against "n" and "meta". */
static void test_vectors_event_info(void)
{
	const struct eh_event_info *ev;
	struct json_object *meta;
	char n[512], kw[32], tag[16], act[40], rel[40];
	unsigned int bad = 0, groups = 0;
	const char *group;
	size_t i, glen;

	CU_ASSERT_FATAL(g.loaded);
	for (i = 0; i < g.count; i++) {
		if (start(&g.rec[i]) < 0) {
			report(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		ev = eh_decoder_event(g.d);
		snprintf(n, sizeof(n), "%.*s:%.*s", (int)ev->tp.provider_len,
			 ev->tp.name, (int)ev->name_len, ev->name);
		snprintf(kw, sizeof(kw), "0x%llX",
			 (unsigned long long)ev->tp.keyword);
		snprintf(tag, sizeof(tag), "0x%X", ev->tag);
		uuid_text(act, ev->activity_id);
		uuid_text(rel, ev->related_id);
		meta = json_object_object_get(g.rec[i].json, "meta");
		if (strcmp(n, json_object_get_string(
				json_object_object_get(g.rec[i].json, "n"))))
			report(&bad, i, "provider:name", n);
		if (!meta_int(meta, "level", ev->level) ||
		    ev->level != ev->tp.level ||
		    !meta_int(meta, "id", ev->id) ||
		    !meta_int(meta, "version", ev->version) ||
		    !meta_int(meta, "opcode", ev->opcode))
			report(&bad, i, "level/id/version/opcode", n);
		if (!meta_text(meta, "keyword", ev->tp.keyword ? kw : NULL) ||
		    !meta_text(meta, "tag", ev->tag ? tag : NULL) ||
		    !meta_text(meta, "activity",
			       ev->activity_id ? act : NULL) ||
		    !meta_text(meta, "relatedActivity",
			       ev->related_id ? rel : NULL))
			report(&bad, i, "keyword/tag/activity ids", n);
		if (ev->big_endian || !(ev->flags & EH_FLAG_POINTER64))
			report(&bad, i, "flags", "not LE64");

		/* The group option, where the name has one. */
		if (!eh_tracepoint_option(&ev->tp, 'G', &group, &glen)) {
			groups++;
			if (!(glen == 4 && (!memcmp(group, "msft", 4) ||
					    !memcmp(group, "asdf", 4))))
				report(&bad, i, "group", group);
			if (ev->tp.options_off + 1 + glen != ev->tp.name_len)
				report(&bad, i, "options", ev->tp.name);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* Long_Provider_..._L5K0Gasdf and the four EventCG/EventCppG. */
	CU_ASSERT_EQUAL(groups, 5);
}

/*
 * The item API against the oracle without the JSON writer: top-level
 * names in order, and each top-level scalar's text (eh_format_value
 * without EH_TEXT_JSON) against the oracle's value.
 */
static void test_vectors_items(void)
{
	struct json_object_iterator ji, je;
	struct json_object *want;
	unsigned int bad = 0, values = 0;
	char name[512], text[4096];
	struct eh_item it;
	ssize_t len;
	size_t i;
	int ret;

	CU_ASSERT_FATAL(g.loaded);
	for (i = 0; i < g.count; i++) {
		if (start(&g.rec[i]) < 0) {
			report(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		ji = json_object_iter_begin(g.rec[i].json);
		je = json_object_iter_end(g.rec[i].json);
		json_object_iter_next(&ji);	/* "n" */
		while ((ret = eh_decoder_next(g.d, &it)) > 0) {
			bool member = it.depth == 0 &&
				(it.kind == EH_ITEM_ARRAY_BEGIN ||
				 ((it.kind == EH_ITEM_VALUE ||
				   it.kind == EH_ITEM_STRUCT_BEGIN) &&
				  !it.array_flags));

			if (!member)
				continue;
			if (it.tag)
				snprintf(name, sizeof(name), "%s;tag=0x%X",
					 it.name, it.tag);
			else
				snprintf(name, sizeof(name), "%s", it.name);
			/* json-c keeps a repeated key once, in first place. */
			if (!json_object_iter_equal(&ji, &je) &&
			    !strcmp(json_object_iter_peek_name(&ji), name))
				json_object_iter_next(&ji);
			else if (!json_object_object_get_ex(g.rec[i].json,
							    name, NULL))
				report(&bad, i, "unexpected field", name);
			if (it.kind != EH_ITEM_VALUE)
				continue;

			want = json_object_object_get(g.rec[i].json, name);
			len = eh_format_value(text, sizeof(text), &it, 0);
			if (len < 0 || len >= (ssize_t)sizeof(text)) {
				report(&bad, i, "format", name);
				continue;
			}
			values++;
			/* Strings may hold NULs: compare lengths too. */
			if (json_object_is_type(want, json_type_string) ?
			    (json_object_get_string_len(want) != len ||
			     memcmp(text, json_object_get_string(want),
				    (size_t)len)) :
			    strcmp(text, json_object_to_json_string_ext(want,
					JSON_C_TO_STRING_PLAIN)))
				report(&bad, i, name, text);
		}
		if (ret < 0)
			report(&bad, i, "walk", eh_decoder_strerror(g.d));
		if (json_object_iter_equal(&ji, &je) ||
		    strcmp(json_object_iter_peek_name(&ji), "meta"))
			report(&bad, i, "missing field or meta",
			       json_object_iter_equal(&ji, &je) ? "meta" :
			       json_object_iter_peek_name(&ji));
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(values > 500);
}

/* --- the project's own events ---------------------------------------- */

static void report_fx(unsigned int *bad, size_t i, const char *what,
		      const char *detail)
{
	if ((*bad)++ < MAX_REPORTS)
		fprintf(stderr, "\n  %s %s (%s): %s: %s", fx.ev[i]->name,
			fx.be[i] ? "BE" : "LE", fx.rec[i].name, what, detail);
}

static int start_fx(size_t i)
{
	return eh_decoder_start(g.d, fx.rec[i].name, fx.rec[i].name_len,
				fx.rec[i].data, fx.rec[i].size);
}

static void test_fixture_load(void)
{
	size_t i;

	CU_ASSERT_FATAL(fx.loaded);
	CU_ASSERT_EQUAL(fx.count, 2 * ehc_event_count);
	for (i = 0; i < fx.count; i++) {
		CU_ASSERT_EQUAL(start_fx(i), 0);
		CU_ASSERT_EQUAL(walk(g.d, NULL), 0);
		CU_ASSERT_PTR_NOT_NULL(fx.rec[i].json);
	}
}

static void test_fixture_json_text(void)
{
	unsigned int bad = 0;
	size_t i;
	char *s;
	int err;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < fx.count; i++) {
		if (start_fx(i) < 0) {
			report_fx(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		s = eh_format_event_json_alloc(g.d, ORACLE_FLAGS, &err);
		if (!s)
			report_fx(&bad, i, "json", eh_decoder_strerror(g.d));
		else if (strcmp(s, fx.rec[i].line))
			report_fx(&bad, i, "text differs",
				  fx.rec[i].line);
		if (s && strcmp(s, fx.rec[i].line) && bad <= MAX_REPORTS)
			fprintf(stderr, "\n    decoded  %s", s);
		CU_ASSERT(s && !strcmp(s, fx.rec[i].line));
		free(s);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_fixture_json_values(void)
{
	struct json_object *mine;
	unsigned int bad = 0;
	char why[1024];
	size_t i;
	char *s;
	int err;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < fx.count; i++) {
		if (start_fx(i) < 0) {
			report_fx(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		s = eh_format_event_json_alloc(g.d, ORACLE_FLAGS, &err);
		mine = s ? json_tokener_parse(s) : NULL;
		if (!mine)
			report_fx(&bad, i, "not JSON", s ? s : "(null)");
		else if (!json_same(mine, fx.rec[i].json, why, sizeof(why),
				    ""))
			report_fx(&bad, i, "value differs", why);
		json_object_put(mine);
		free(s);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* The header, name and extensions against the catalogue's inputs. */
static void test_fixture_event_info(void)
{
	const struct eh_event_info *ev;
	unsigned int bad = 0;
	const char *opt;
	size_t i, len;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < fx.count; i++) {
		const struct ehc_event *c = fx.ev[i];

		if (start_fx(i) < 0) {
			report_fx(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		ev = eh_decoder_event(g.d);
		CU_ASSERT_EQUAL(ev->big_endian, fx.be[i]);
		CU_ASSERT_EQUAL(!(ev->flags & EH_FLAG_POINTER64),
				c->h.pointer32);
		CU_ASSERT_EQUAL(ev->version, c->h.version);
		CU_ASSERT_EQUAL(ev->id, c->h.id);
		CU_ASSERT_EQUAL(ev->tag, c->h.tag);
		CU_ASSERT_EQUAL(ev->opcode, c->h.opcode);
		CU_ASSERT_EQUAL(ev->level, c->h.level);
		CU_ASSERT_EQUAL(ev->tp.level, c->h.level);
		CU_ASSERT_EQUAL(ev->tp.keyword, c->keyword);
		CU_ASSERT(ev->tp.provider_len == strlen(c->provider) &&
			  !memcmp(ev->tp.name, c->provider,
				  ev->tp.provider_len));
		CU_ASSERT_STRING_EQUAL(ev->name, c->name);
		CU_ASSERT_EQUAL(ev->name_len, strcspn(c->name, ";"));
		if (c->options[0]) {
			CU_ASSERT(!eh_tracepoint_option(&ev->tp,
							c->options[0], &opt,
							&len) &&
				  len == strlen(c->options) - 1 &&
				  !memcmp(opt, c->options + 1, len));
		} else {
			CU_ASSERT_EQUAL(ev->tp.options_off, ev->tp.name_len);
		}
		CU_ASSERT(c->activity ? ev->activity_id &&
			  !memcmp(ev->activity_id, c->activity, 16) :
			  !ev->activity_id);
		CU_ASSERT(c->related ? ev->related_id &&
			  !memcmp(ev->related_id, c->related, 16) :
			  !ev->related_id);
		if (ev->big_endian != fx.be[i] || ev->id != c->h.id ||
		    ev->tp.keyword != c->keyword ||
		    strcmp(ev->name, c->name))
			report_fx(&bad, i, "header", ev->name);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static uint64_t get_num(const uint8_t *p, unsigned int n, bool be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Does decoded VALUE @it carry catalogue value @v (in its encoding)? */
static bool same_value(const struct eh_item *it, const struct ehc_value *v)
{
	unsigned int enc = it->encoding, unit = ehc_unit_size(enc), k;
	unsigned int size;

	switch (enc) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
		size = 1u << (enc - EH_ENC_VALUE8);
		if (it->size != size)
			return false;
		if (v->p)
			return v->n == size && !memcmp(it->data, v->p, size);
		return get_num(it->data, size, it->big_endian) ==
		       (size == 8 ? v->u :
			v->u & ((1ull << (8 * size)) - 1));
	case EH_ENC_VALUE128:
		return it->size == 16 && v->n == 16 &&
		       !memcmp(it->data, v->p, 16);
	}
	if (!unit || it->size != (uint32_t)v->n * unit)
		return false;
	for (k = 0; k < v->n; k++) {
		uint64_t want = unit == 1 ? ((const uint8_t *)v->p)[k] :
				unit == 2 ? ((const uint16_t *)v->p)[k] :
					    ((const uint32_t *)v->p)[k];

		if (get_num(it->data + k * unit, unit, it->big_endian) != want)
			return false;
	}
	return true;
}

struct expect {
	const struct ehc_item	*items;
	size_t			n;
	size_t			cap;
};

static int collect(void *ctx, const struct ehc_item *it)
{
	struct expect *x = ctx;

	if (x->n == x->cap)
		return -ENOSPC;
	((struct ehc_item *)x->items)[x->n++] = *it;
	return 0;
}

/* One decoded item against the catalogue's; NULL if they agree. */
static const char *item_differs(const struct eh_item *it,
				const struct ehc_item *want, bool be)
{
	const struct ehc_field *f = want->f;

	if (it->kind != want->kind)
		return "kind";
	if (!f)
		return NULL;
	if (it->name_len != strcspn(f->name, ";") ||
	    memcmp(it->name, f->name, it->name_len))
		return "name";
	if (it->encoding != (f->enc & EH_ENC_VALUE_MASK))
		return "encoding";
	/* a struct's items carry its field count as their format */
	if (it->format != f->fmt)
		return "format";
	if (it->tag != f->tag)
		return "tag";
	if (it->array_flags != (f->enc & (EH_ENC_CARRAY | EH_ENC_VARRAY)))
		return "array flags";
	if (it->depth != want->depth)
		return "depth";
	if (it->big_endian != be)
		return "byte order";
	if (it->kind == EH_ITEM_ARRAY_BEGIN || it->kind == EH_ITEM_VALUE ||
	    it->kind == EH_ITEM_STRUCT_BEGIN) {
		if (it->array_count != want->count)
			return "array count";
		if (it->kind != EH_ITEM_ARRAY_BEGIN &&
		    it->array_index != want->index)
			return "array index";
	}
	if (it->kind == EH_ITEM_VALUE && !same_value(it, want->v))
		return "value";
	return NULL;
}

/*
 * Every item of every event, in order, against the catalogue's walk:
 * kinds, names, encodings, formats, tags, array flags, counts and
 * indexes, depths, and each value's bytes read back in the event's byte
 * order against the number or code units the encoder was given.
 */
static void test_fixture_items(void)
{
	static struct ehc_item want[512];
	struct expect x = { want, 0, 512 };
	unsigned int bad = 0, values = 0;
	struct eh_item it;
	const char *why;
	size_t i, n;
	int ret;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < fx.count; i++) {
		x.n = 0;
		CU_ASSERT_EQUAL_FATAL(ehc_walk(fx.ev[i], collect, &x), 0);
		if (start_fx(i) < 0) {
			report_fx(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		for (n = 0; (ret = eh_decoder_next(g.d, &it)) > 0; n++) {
			if (n >= x.n) {
				report_fx(&bad, i, "extra item", it.name);
				break;
			}
			why = item_differs(&it, &want[n], fx.be[i]);
			CU_ASSERT_PTR_NULL(why);
			if (why) {
				report_fx(&bad, i, why, want[n].f ?
					  want[n].f->name : "(event)");
				break;
			}
			values += it.kind == EH_ITEM_VALUE;
		}
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_EQUAL(n, x.n);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(values > 150);
}

/* eh_format_value() of each top-level scalar against its hand text. */
static void test_fixture_value_text(void)
{
	unsigned int bad = 0, values = 0;
	struct eh_item it;
	char text[512];
	const char *want;
	size_t i, j;
	ssize_t len;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < fx.count; i++) {
		if (start_fx(i) < 0) {
			report_fx(&bad, i, "start", eh_decoder_strerror(g.d));
			continue;
		}
		while (eh_decoder_next(g.d, &it) > 0) {
			if (it.kind != EH_ITEM_VALUE || it.depth ||
			    it.array_flags)
				continue;
			want = NULL;
			for (j = 0; fx.ev[i]->fields[j].name; j++)
				if (strlen(fx.ev[i]->fields[j].name) ==
				    it.name_len &&
				    !memcmp(fx.ev[i]->fields[j].name, it.name,
					    it.name_len))
					want = fx.be[i] &&
					       fx.ev[i]->fields[j].json_be ?
					       fx.ev[i]->fields[j].json_be :
					       fx.ev[i]->fields[j].json;
			len = eh_format_value(text, sizeof(text), &it,
					      EH_TEXT_JSON);
			values++;
			CU_ASSERT(want && len >= 0 && !strcmp(text, want));
			if (!want || len < 0 || strcmp(text, want))
				report_fx(&bad, i, it.name, text);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(values > 100);
}

/* --- hand-made events ------------------------------------------------ */

struct buf {
	uint8_t		b[70000];
	size_t		n;
	bool		be;
};

static void put8(struct buf *b, unsigned int v)
{
	if (b->n < sizeof(b->b))
		b->b[b->n++] = (uint8_t)v;
}

static void put16(struct buf *b, unsigned int v)
{
	put8(b, b->be ? v >> 8 : v);
	put8(b, b->be ? v : v >> 8);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, b->be ? v >> 16 : v & 0xffff);
	put16(b, b->be ? v & 0xffff : v >> 16);
}

static void putmem(struct buf *b, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (n--)
		put8(b, *s++);
}

static void putstr(struct buf *b, const char *s)
{
	putmem(b, s, strlen(s) + 1);
}

/* Event = header + one metadata extension (@meta) + @payload. */
static void make_event(struct buf *ev, bool be, const struct buf *meta,
		       const struct buf *payload, uint8_t level)
{
	ev->n = 0;
	ev->be = be;
	put8(ev, EH_FLAG_POINTER64 | EH_FLAG_EXTENSION |
	     (be ? 0 : EH_FLAG_LITTLE_ENDIAN));
	put8(ev, 3);		/* version */
	put16(ev, 0x1234);	/* id */
	put16(ev, 0xbeef);	/* tag */
	put8(ev, 1);		/* opcode */
	put8(ev, level);
	put16(ev, (unsigned int)meta->n);
	put16(ev, EH_EXT_METADATA);
	putmem(ev, meta->b, meta->n);
	putmem(ev, payload->b, payload->n);
}

static struct buf meta_buf, pay_buf, ev_buf;

static char *json_of(const char *tp, const struct buf *ev, int *ret)
{
	char *s;

	*ret = eh_decoder_start(g.d, tp, strlen(tp), ev->b, ev->n);
	if (*ret < 0)
		return NULL;
	s = eh_format_event_json_alloc(g.d, EH_JSON_FIELD_TAG, ret);
	return s;
}

static void check_json(const char *tp, const struct buf *ev,
		       const char *want)
{
	char *s;
	int ret;

	s = json_of(tp, ev, &ret);
	CU_ASSERT_PTR_NOT_NULL(s);
	if (s && strcmp(s, want))
		fprintf(stderr, "\n  got  %s\n  want %s\n", s, want);
	CU_ASSERT(s && !strcmp(s, want));
	free(s);
}

/* The same event in either byte order must read the same. */
static void build_mixed(bool be)
{
	struct buf *m = &meta_buf, *p = &pay_buf;

	m->n = p->n = 0;
	m->be = p->be = be;
	putstr(m, "Mixed;a=b");
	putstr(m, "u16");
	put8(m, EH_ENC_VALUE16);
	put16(p, 0x1234);
	putstr(m, "i32");
	put8(m, EH_ENC_VALUE32 | EH_ENC_CHAIN);
	put8(m, EH_FMT_SIGNED_INT);
	put32(p, 0xfffffffe);
	putstr(m, "tagged");
	put8(m, EH_ENC_VALUE16 | EH_ENC_CHAIN);
	put8(m, EH_FMT_HEX_INT | EH_FMT_CHAIN);
	put16(m, 0x42);
	put16(p, 0xabc);
	putstr(m, "carr");
	put8(m, EH_ENC_VALUE16 | EH_ENC_CARRAY);
	put16(m, 2);
	put16(p, 1);
	put16(p, 2);
	putstr(m, "varr");
	put8(m, EH_ENC_VALUE8 | EH_ENC_VARRAY);
	put16(p, 3);
	putmem(p, "\x07\x08\x09", 3);
	putstr(m, "s16");
	put8(m, EH_ENC_ZSTRING_CHAR16);
	put16(p, 'h');
	put16(p, 0xe9);
	put16(p, 0xd83d);	/* U+1F600 as a surrogate pair */
	put16(p, 0xde00);
	put16(p, 0);
	putstr(m, "port");
	put8(m, EH_ENC_VALUE16 | EH_ENC_CHAIN);
	put8(m, EH_FMT_PORT);
	putmem(p, "\x00\x50", 2);	/* network order either way */
	putstr(m, "st");
	put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN);
	put8(m, 2);
	putstr(m, "a");
	put8(m, EH_ENC_VALUE8 | EH_ENC_CHAIN);
	put8(m, EH_FMT_BOOLEAN);
	put8(p, 1);
	putstr(m, "b");
	put8(m, EH_ENC_STRING_LENGTH16_CHAR8);
	put16(p, 4);
	putmem(p, "q\"\n\xff", 4);
	putstr(m, "sarr");
	put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN | EH_ENC_VARRAY);
	put8(m, 1);
	put16(p, 2);
	putstr(m, "x");
	put8(m, EH_ENC_VALUE32 | EH_ENC_CHAIN);
	put8(m, EH_FMT_FLOAT);
	put32(p, 0x3fc00000);	/* 1.5f */
	put32(p, 0xc0200000);	/* -2.5f */
	putstr(m, "last");
	put8(m, EH_ENC_BINARY_LENGTH16_CHAR8 | EH_ENC_CHAIN);
	put8(m, EH_FMT_UNSIGNED_INT);
	put16(p, 0);		/* empty: null */
	make_event(&ev_buf, be, m, p, 4);
}

static const char mixed_json[] =
	"{\"n\":\"Prov_Ider:Mixed\",\"u16\":4660,\"i32\":-2,"
	"\"tagged;tag=0x42\":\"0xABC\",\"carr\":[1,2],\"varr\":[7,8,9],"
	"\"s16\":\"h\xc3\xa9\xf0\x9f\x98\x80\",\"port\":80,"
	"\"st\":{\"a\":true,\"b\":\"q\\\"\\n\xc3\xbf\"},"
	"\"sarr\":[{\"x\":1.5},{\"x\":-2.5}],\"last\":null,"
	"\"meta\":{\"id\":4660,\"version\":3,\"level\":4,"
	"\"keyword\":\"0x2A\",\"opcode\":1,\"tag\":\"0xBEEF\"}}";

static void test_event_big_endian(void)
{
	const struct eh_event_info *ev;

	build_mixed(true);
	check_json("Prov_Ider_L4K2aGabc", &ev_buf, mixed_json);
	ev = eh_decoder_event(g.d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	CU_ASSERT(ev->big_endian);
	CU_ASSERT_EQUAL(ev->id, 0x1234);
	CU_ASSERT_EQUAL(ev->tag, 0xbeef);
	CU_ASSERT_EQUAL(ev->name_len, 5);
	CU_ASSERT_STRING_EQUAL(ev->name, "Mixed;a=b");
}

static void test_event_little_endian(void)
{
	build_mixed(false);
	check_json("Prov_Ider_L4K2aGabc", &ev_buf, mixed_json);
}

/* Item details a plugin relies on: kinds, depth, sizes, array skipping. */
static void test_event_items(void)
{
	static const enum eh_item_kind want[] = {
		EH_ITEM_EVENT_BEGIN, EH_ITEM_VALUE, EH_ITEM_VALUE,
		EH_ITEM_VALUE, EH_ITEM_ARRAY_BEGIN, EH_ITEM_ARRAY_END,
		EH_ITEM_ARRAY_BEGIN, EH_ITEM_VALUE, EH_ITEM_VALUE,
		EH_ITEM_VALUE, EH_ITEM_ARRAY_END, EH_ITEM_VALUE,
		EH_ITEM_VALUE, EH_ITEM_STRUCT_BEGIN, EH_ITEM_VALUE,
		EH_ITEM_VALUE, EH_ITEM_STRUCT_END, EH_ITEM_ARRAY_BEGIN,
		EH_ITEM_STRUCT_BEGIN, EH_ITEM_VALUE, EH_ITEM_STRUCT_END,
		EH_ITEM_STRUCT_BEGIN, EH_ITEM_VALUE, EH_ITEM_STRUCT_END,
		EH_ITEM_ARRAY_END, EH_ITEM_VALUE, EH_ITEM_EVENT_END,
	};
	struct eh_item it;
	size_t n = 0;
	int ret;

	build_mixed(false);
	CU_ASSERT_EQUAL_FATAL(eh_decoder_start(g.d, "P_L4K2a", 7, ev_buf.b,
					       ev_buf.n), 0);
	while ((ret = eh_decoder_next(g.d, &it)) > 0) {
		CU_ASSERT_FATAL(n < sizeof(want) / sizeof(want[0]));
		CU_ASSERT_EQUAL(it.kind, want[n]);
		if (n == 4) {	/* carr: taken whole, then skipped */
			CU_ASSERT_STRING_EQUAL(it.name, "carr");
			CU_ASSERT_EQUAL(it.array_flags, EH_ENC_CARRAY);
			CU_ASSERT_EQUAL(it.array_count, 2);
			CU_ASSERT_EQUAL(it.elem_size, 2);
			CU_ASSERT_EQUAL(it.size, 4);
			CU_ASSERT_EQUAL(eh_decoder_skip_array(g.d), 0);
		}
		if (n == 3) {
			CU_ASSERT_EQUAL(it.tag, 0x42);
			CU_ASSERT_EQUAL(it.format, EH_FMT_HEX_INT);
			CU_ASSERT_EQUAL(eh_decoder_skip_array(g.d), -EINVAL);
		}
		if (n == 9) {
			CU_ASSERT_EQUAL(it.array_index, 2);
			CU_ASSERT_EQUAL(it.array_flags, EH_ENC_VARRAY);
		}
		if (n == 11) {	/* s16: cooked size, no terminator */
			CU_ASSERT_EQUAL(it.encoding, EH_ENC_ZSTRING_CHAR16);
			CU_ASSERT_EQUAL(it.size, 8);
		}
		if (n == 14 || n == 19)
			CU_ASSERT_EQUAL(it.depth, 1);
		n++;
	}
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL(n, sizeof(want) / sizeof(want[0]));
	/* Finished walks stay finished; rewinding walks again. */
	CU_ASSERT_EQUAL(eh_decoder_next(g.d, &it), 0);
	CU_ASSERT_EQUAL(eh_decoder_rewind(g.d), 0);
	CU_ASSERT_EQUAL(walk(g.d, NULL), 0);
}

static void test_tracepoint_names(void)
{
	struct eh_tracepoint tp;
	char longname[300];
	const char *v;
	size_t len;

	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "My_Prov_L3K2aGmy-x", 18),
			-ENOTSUP);	/* '-' in an option value */
	/* An uppercase letter starts the next option. */
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "My_Prov_L3K2aGmyGroupx", 22),
			0);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "My_Prov_L3K2aGgroupHx1",
					    22), 0);
	CU_ASSERT_EQUAL(tp.provider_len, 7);
	CU_ASSERT_EQUAL(tp.level, 3);
	CU_ASSERT_EQUAL(tp.keyword, 0x2a);
	CU_ASSERT_EQUAL(eh_tracepoint_option(&tp, 'G', &v, &len), 0);
	CU_ASSERT(len == 5 && !memcmp(v, "group", 5));
	CU_ASSERT_EQUAL(eh_tracepoint_option(&tp, 'H', &v, &len), 0);
	CU_ASSERT(len == 2 && !memcmp(v, "x1", 2));
	CU_ASSERT_EQUAL(eh_tracepoint_option(&tp, 'A', &v, &len), -ENOENT);

	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5K0", 6), 0);
	CU_ASSERT_EQUAL(tp.options_off, 6);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5Kffffffffffffffff", 21),
			0);
	CU_ASSERT_EQUAL(tp.keyword, UINT64_MAX);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "PL5K0", 5), -ENOTSUP);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_5K0", 5), -ENOTSUP);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5", 4), -ENOTSUP);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5K0g", 7), -ENOTSUP);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5K0\0G", 8), -ENOTSUP);
	/* L and K values are lowercase hex; 'A' starts an option. */
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_L5KA", 6), 0);
	CU_ASSERT_EQUAL(tp.keyword, 0);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, "P_LAK0", 6), -ENOTSUP);

	memset(longname, 'x', sizeof(longname));
	memcpy(longname + 250, "_L5K0", 5);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, longname, 255), 0);
	memcpy(longname + 251, "_L5K0", 5);
	CU_ASSERT_EQUAL(eh_tracepoint_parse(&tp, longname, 256), -ENOTSUP);

	/* The name's level must be the header's. */
	build_mixed(false);
	CU_ASSERT_EQUAL(eh_decoder_start(g.d, "P_L5K0", 6, ev_buf.b,
					 ev_buf.n), -ENOTSUP);
	CU_ASSERT_PTR_NULL(eh_decoder_event(g.d));
	CU_ASSERT(strlen(eh_decoder_strerror(g.d)) > 0);
}

static const char *fmt(const void *p, size_t n, unsigned int enc,
		       unsigned int format, bool be, unsigned int flags)
{
	static char out[256];

	if (eh_format_value_raw(out, sizeof(out), p, n, enc, format, be,
				flags) < 0)
		return "(error)";
	return out;
}

static const char *fmt_f64(double v)
{
	uint8_t b[8];
	uint64_t u;
	int i;

	memcpy(&u, &v, 8);
	for (i = 0; i < 8; i++)		/* little endian */
		b[i] = (uint8_t)(u >> (8 * i));
	return fmt(b, 8, EH_ENC_VALUE64, EH_FMT_FLOAT, false, 0);
}

static void test_format_values(void)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t be_u32[4] = { 0, 0, 0, 2 };
	static const uint8_t t64[8] = { 0x00, 0xf1, 0x53, 0x65 };
	char small[6];

	CU_ASSERT_STRING_EQUAL(fmt_f64(100), "100");
	CU_ASSERT_STRING_EQUAL(fmt_f64(1e16), "1e+16");
	CU_ASSERT_STRING_EQUAL(fmt_f64(123456.0), "123456");
	CU_ASSERT_STRING_EQUAL(fmt_f64(0.1), "0.1");
	CU_ASSERT_STRING_EQUAL(fmt_f64(1e-7), "1e-07");
	CU_ASSERT_STRING_EQUAL(fmt_f64(0.001), "0.001");
	CU_ASSERT_STRING_EQUAL(fmt_f64(-0.0), "-0");
	CU_ASSERT_STRING_EQUAL(fmt_f64(5e-324), "5e-324");
	CU_ASSERT_STRING_EQUAL(fmt_f64(1.7976931348623157e308),
			       "1.7976931348623157e+308");
	CU_ASSERT_STRING_EQUAL(fmt_f64(2.0 / 3), "0.6666666666666666");

	CU_ASSERT_STRING_EQUAL(fmt(v6, 16, EH_ENC_VALUE128,
				   EH_FMT_IP_ADDRESS, false, EH_TEXT_JSON),
			       "\"2001:db8::1\"");
	CU_ASSERT_STRING_EQUAL(fmt(be_u32, 4, EH_ENC_VALUE32, EH_FMT_ERRNO,
				   true, 0), "ENOENT(2)");
	CU_ASSERT_STRING_EQUAL(fmt(be_u32, 4, EH_ENC_VALUE32, EH_FMT_TIME,
				   true, 0), "1970-01-01T00:00:02");
	/* 1700000000 = 2023-11-14T22:13:20 */
	CU_ASSERT_STRING_EQUAL(fmt(t64, 8, EH_ENC_VALUE64, EH_FMT_TIME,
				   false, 0), "2023-11-14T22:13:20");
	CU_ASSERT_STRING_EQUAL(fmt("\x02", 1, EH_ENC_VALUE8, EH_FMT_BOOLEAN,
				   false, EH_TEXT_JSON), "2");
	CU_ASSERT_STRING_EQUAL(fmt("a\x01", 2, EH_ENC_ZSTRING_CHAR8,
				   EH_FMT_DEFAULT, false, EH_TEXT_JSON),
			       "\"a\\u0001\"");
	CU_ASSERT_STRING_EQUAL(fmt("\xef\xbb\xbfz", 4, EH_ENC_ZSTRING_CHAR8,
				   EH_FMT_STRING_XML, false, 0), "z");
	CU_ASSERT_STRING_EQUAL(fmt("\xfe\xff\x00z", 4,
				   EH_ENC_STRING_LENGTH16_CHAR16,
				   EH_FMT_STRING_JSON, false, 0), "z");
	CU_ASSERT_STRING_EQUAL(fmt("\xe9", 1, EH_ENC_ZSTRING_CHAR8,
				   EH_FMT_STRING8, false, 0), "\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(fmt("abc", 3, EH_ENC_BINARY_LENGTH16_CHAR8,
				   EH_FMT_DEFAULT, false, 0), "61 62 63");

	/* Wrong sizes and encodings are errors, not guesses. */
	CU_ASSERT_STRING_EQUAL(fmt("ab", 2, EH_ENC_VALUE32, 0, false, 0),
			       "(error)");
	CU_ASSERT_STRING_EQUAL(fmt("abc", 3, EH_ENC_ZSTRING_CHAR16, 0, false,
				   0), "(error)");
	CU_ASSERT_EQUAL(eh_format_value_raw(small, sizeof(small), "", 0,
					    EH_ENC_STRUCT, 0, false, 0),
			-EINVAL);
	CU_ASSERT_EQUAL(eh_format_value_raw(small, sizeof(small), "", 0, 20,
					    0, false, 0), -ENOTSUP);

	/* snprintf rules: the whole length, a cut but terminated text. */
	CU_ASSERT_EQUAL(eh_format_value_raw(small, sizeof(small),
					    "hello world", 11,
					    EH_ENC_ZSTRING_CHAR8, 0, false,
					    0), 11);
	CU_ASSERT_STRING_EQUAL(small, "hello");
	CU_ASSERT_EQUAL(eh_format_value_raw(NULL, 0, "hi", 2,
					    EH_ENC_ZSTRING_CHAR8, 0, false,
					    EH_TEXT_JSON), 4);

	CU_ASSERT_STRING_EQUAL(eh_encoding_name(EH_ENC_VALUE32), "value32");
	CU_ASSERT_STRING_EQUAL(eh_format_name(EH_FMT_IP_ADDRESS),
			       "ip_address");
	CU_ASSERT_PTR_NULL(eh_encoding_name(EH_ENC_MAX));
}

/* --- the encoder ----------------------------------------------------- */

/* The encoder's bytes against an event laid out by hand from the spec. */
static void test_encoder_bytes(void)
{
	static const uint8_t id[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint8_t want_be[] = {
		0x05, 2, 0x01, 0x02, 0x03, 0x04, 1, 4,	/* BE, ext, ptr64 */
		0, 16, 0x80, 0x02,			/* activity, chain */
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0, 13, 0x00, 0x01,			/* metadata, last */
		'E', 0,
		'a', 0, 0x80 | 0x20 | 0x03, 0x80 | 0x03, 0x00, 0x42,
		0x00, 0x02,				/* u16[2] hex #42 */
		's', 0, 0x07,				/* zstring8 */
		0x12, 0x34, 0xab, 0xcd,			/* a */
		'h', 'i', 0,				/* s */
	};
	struct eh_enc_header h = {
		.version = 2, .id = 0x0102, .tag = 0x0304, .opcode = 1,
		.level = 4, .big_endian = true,
	};
	struct eh_enc *e = eh_enc_new();
	const uint8_t *data;
	size_t len, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_activity(e, id, NULL), 0);
	CU_ASSERT_EQUAL(eh_enc_field(e, "a", EH_ENC_VALUE16 | EH_ENC_CARRAY,
				     EH_FMT_HEX_INT, 0x42, 2), 0);
	CU_ASSERT_EQUAL(eh_enc_field(e, "s", EH_ENC_ZSTRING_CHAR8, 0, 0, 0),
			0);
	CU_ASSERT_EQUAL(eh_enc_uint(e, 2, 0x1234), 0);
	CU_ASSERT_EQUAL(eh_enc_uint(e, 2, 0xabcd), 0);
	CU_ASSERT_EQUAL(eh_enc_string(e, EH_ENC_ZSTRING_CHAR8, "hi", 2), 0);
	CU_ASSERT_EQUAL_FATAL(eh_enc_finish(e, &data, &len), 0);
	CU_ASSERT_EQUAL(len, sizeof(want_be));
	CU_ASSERT(len == sizeof(want_be) && !memcmp(data, want_be, len));

	/* Little endian: every 16-bit number swaps, nothing else moves. */
	h.big_endian = false;
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	eh_enc_activity(e, id, NULL);
	eh_enc_field(e, "a", EH_ENC_VALUE16 | EH_ENC_CARRAY, EH_FMT_HEX_INT,
		     0x42, 2);
	eh_enc_field(e, "s", EH_ENC_ZSTRING_CHAR8, 0, 0, 0);
	eh_enc_uint(e, 2, 0x1234);
	eh_enc_uint(e, 2, 0xabcd);
	eh_enc_string(e, EH_ENC_ZSTRING_CHAR8, "hi", 2);
	CU_ASSERT_EQUAL_FATAL(eh_enc_finish(e, &data, &len), 0);
	CU_ASSERT_EQUAL_FATAL(len, sizeof(want_be));
	CU_ASSERT_EQUAL(data[0], 0x07);
	for (i = 2; i < len; i++) {
		/* id, tag, 2 x (size, kind), field tag, count, values */
		static const size_t pairs[] = { 2, 4, 8, 10, 28, 30, 38, 40,
						45, 47 };
		size_t k, at = i;

		for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
			if (i == pairs[k] || i == pairs[k] + 1)
				at = i == pairs[k] ? i + 1 : i - 1;
		CU_ASSERT_EQUAL(data[i], want_be[at]);
	}
	eh_enc_free(e);
}

static void test_encoder_errors(void)
{
	struct eh_enc_header h = { .level = 5 };
	static uint8_t big[70000];
	struct eh_enc *e = eh_enc_new();
	const uint8_t *data;
	char tp[EH_NAME_MAX], name[300], longtp[400];
	size_t len;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(eh_enc_begin(e, NULL, "E"), -EINVAL);
	/* Flags the writer sets itself, bad sizes and encodings. */
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_field(e, "f", EH_ENC_VALUE8 | EH_ENC_CHAIN, 0,
				     0, 0), -EINVAL);
	CU_ASSERT_EQUAL(eh_enc_finish(e, &data, &len), -EINVAL);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_uint(e, 3, 1), -EINVAL);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_string(e, EH_ENC_VALUE32, "x", 1), -EINVAL);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_string(e, EH_ENC_STRING_LENGTH16_CHAR8, big,
				      sizeof(big)), -EINVAL);
	/* Blocks past 16 bits, a second metadata block. */
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_extension(e, 0x33, big, sizeof(big)), -EINVAL);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_extension(e, EH_EXT_METADATA, NULL, 0), 0);
	CU_ASSERT_EQUAL(eh_enc_extension(e, EH_EXT_METADATA, NULL, 0), -E2BIG);
	memset(name, 'f', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	for (i = 0; i < 300; i++)
		eh_enc_field(e, name, EH_ENC_VALUE8, 0, 0, 0);
	CU_ASSERT_EQUAL(eh_enc_finish(e, &data, &len), -E2BIG);
	/* The error sticks until the next event; then all is well. */
	CU_ASSERT_EQUAL(eh_enc_uint(e, 1, 1), -E2BIG);
	CU_ASSERT_EQUAL(eh_enc_begin(e, &h, "E"), 0);
	CU_ASSERT_EQUAL(eh_enc_finish(e, &data, &len), 0);
	CU_ASSERT_EQUAL(len, 8 + 4 + 2);

	CU_ASSERT_EQUAL(eh_enc_tracepoint_name(tp, sizeof(tp), "P", 5, 0x2a,
					       "Gx"), 9);
	CU_ASSERT_STRING_EQUAL(tp, "P_L5K2aGx");
	name[250] = '\0';	/* 255 bytes and a NUL: the longest */
	CU_ASSERT_EQUAL(eh_enc_tracepoint_name(tp, sizeof(tp), name, 5, 0,
					       ""), 255);
	name[250] = 'f';
	name[251] = '\0';
	/* room in the buffer, but past the EventHeader limit */
	CU_ASSERT_EQUAL(eh_enc_tracepoint_name(longtp, sizeof(longtp), name,
					       5, 0, ""), -ENAMETOOLONG);
	CU_ASSERT_EQUAL(eh_enc_tracepoint_name(tp, 4, "P", 5, 0, ""),
			-ENAMETOOLONG);
	eh_enc_free(e);
}

/* --- malformed input ------------------------------------------------- */

/* Decode and format everything; returns the first error, 0 if none. */
static int decode_all(const char *tp, size_t tp_len, const uint8_t *p,
		      size_t n)
{
	char text[256];
	struct eh_item it;
	ssize_t len;
	int ret;

	ret = eh_decoder_start(g.d, tp, tp_len, p, n);
	if (ret < 0)
		return ret;
	while ((ret = eh_decoder_next(g.d, &it)) > 0)
		if (it.kind == EH_ITEM_VALUE)
			eh_format_value(text, sizeof(text), &it, EH_TEXT_JSON);
	if (ret < 0)
		return ret;
	len = eh_format_event_json(g.d, NULL, 0, ORACLE_FLAGS);
	return len < 0 ? (int)len : 0;
}

static bool is_decode_error(int ret)
{
	return ret == -EINVAL || ret == -ENOTSUP || ret == -EBADMSG ||
	       ret == -E2BIG || ret == -EMLINK;
}

/* Every strict prefix of every vector is an error (with a message). */
static void report_rec(unsigned int *bad, const struct record *r,
		       const char *what, const char *detail)
{
	if ((*bad)++ < MAX_REPORTS)
		fprintf(stderr, "\n  %.*s: %s: %s", (int)r->name_len, r->name,
			what, detail);
}

/*
 * Every strict prefix of every event (the catalogue's, and the vectors
 * when present) is an error (with a message).
 */
static void test_malformed_truncated(void)
{
	unsigned int bad = 0, cuts = 0, bytes = 0;
	const struct record *r;
	char why[64];
	size_t i, n;
	uint8_t *copy;
	int ret;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < all_count(); i++) {
		r = all_record(i);
		bytes += r->size;
		/* A copy of exactly n bytes, for valgrind/ASan to see. */
		for (n = 0; n < r->size; n++) {
			copy = malloc(n ? n : 1);
			CU_ASSERT_FATAL(copy != NULL);
			memcpy(copy, r->data, n);
			ret = decode_all(r->name, r->name_len, copy, n);
			free(copy);
			cuts++;
			CU_ASSERT(is_decode_error(ret) &&
				  *eh_decoder_strerror(g.d));
			if (!is_decode_error(ret) ||
			    !*eh_decoder_strerror(g.d)) {
				snprintf(why, sizeof(why), "cut at %zu: %d", n,
					 ret);
				report_rec(&bad, r, "truncation", why);
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	printf("# %u truncations of %zu events\n", cuts, all_count());
	CU_ASSERT_EQUAL(cuts, bytes);
	/* The catalogue alone is over 3000 bytes, the vectors 25000. */
	CU_ASSERT(cuts > (g.loaded ? 26000u : 3000u));
}

/* Every byte of every event set to a few values: no crash, no hang. */
static void test_malformed_mutated(void)
{
	static const uint8_t values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	unsigned int ok = 0, failed = 0, odd = 0;
	const struct record *r;
	uint8_t copy[4096];
	size_t i, j, k;
	int ret;

	CU_ASSERT_FATAL(fx.loaded);
	for (i = 0; i < all_count(); i++) {
		r = all_record(i);
		CU_ASSERT_FATAL(r->size <= sizeof(copy));
		for (j = 0; j < r->size; j++) {
			for (k = 0; k < sizeof(values); k++) {
				memcpy(copy, r->data, r->size);
				copy[j] = values[k];
				ret = decode_all(r->name, r->name_len, copy,
						 r->size);
				/* decoded, or refused with a known error */
				CU_ASSERT(!ret || is_decode_error(ret));
				if (!ret)
					ok++;
				else if (is_decode_error(ret))
					failed++;
				else
					odd++;
			}
		}
	}
	CU_ASSERT_EQUAL(odd, 0);
	CU_ASSERT(ok > 0 && failed > 0);
}

static int decode_built(const char *tp)
{
	return decode_all(tp, strlen(tp), ev_buf.b, ev_buf.n);
}

static void test_malformed_headers(void)
{
	struct buf *e = &ev_buf;

	build_mixed(false);
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), 0);

	/* Shorter than a header, unknown flags. */
	CU_ASSERT_EQUAL(decode_all("P_L4K0", 6, e->b, 7), -EINVAL);
	e->b[0] |= 0x08;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -ENOTSUP);

	/* No extension at all: nothing says what the fields are. */
	build_mixed(false);
	e->b[0] &= (uint8_t)~EH_FLAG_EXTENSION;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -ENOTSUP);

	/* Extension sizes too big and too small. */
	build_mixed(false);
	e->b[8] = 0xff;
	e->b[9] = 0x7f;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -EBADMSG);
	build_mixed(false);
	e->b[8] = 3;	/* the event name loses its NUL */
	e->b[9] = 0;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -EBADMSG);
	build_mixed(false);
	e->b[8] -= 1;	/* the last definition is cut */
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -EBADMSG);

	/* Kind 0 is invalid; an unknown kind is skipped. */
	build_mixed(false);
	e->b[10] = 0;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -EBADMSG);
	build_mixed(false);
	e->b[10] = 0x33;
	CU_ASSERT_EQUAL(decode_built("P_L4K0"), -ENOTSUP);	/* no meta */
}

/* An event with @links extensions of one kind, then maybe metadata. */
static void build_chain(size_t links, unsigned int size, unsigned int kind,
			bool end_with_meta)
{
	struct buf *e = &ev_buf;
	size_t i, k;

	e->n = 0;
	e->be = false;
	putmem(e, "\x07\x00\x00\x00\x00\x00\x00\x05", 8);
	for (i = 0; i < links; i++) {
		put16(e, size);
		put16(e, kind | EH_EXT_CHAIN);
		for (k = 0; k < size; k++)
			put8(e, 0xaa);
	}
	if (end_with_meta) {
		put16(e, 2);
		put16(e, EH_EXT_METADATA);
		putmem(e, "E", 2);
	}
}

static void test_malformed_extension_chains(void)
{
	/* 10000 empty unknown extensions, then metadata: fine. */
	build_chain(10000, 0, 0x77, true);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), 0);
	/* A chain that never ends runs into the end of the event. */
	build_chain(10000, 0, 0x77, false);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	build_chain(1, 0, EH_EXT_METADATA, false);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	/* Two metadata blocks, a bad activity id, a duplicate one. */
	build_chain(1, 2, EH_EXT_METADATA, true);
	ev_buf.b[12] = 'X';
	ev_buf.b[13] = 0;
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	build_chain(1, 20, EH_EXT_ACTIVITY_ID, true);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	build_chain(2, 0, EH_EXT_ACTIVITY_ID, true);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
}

static void build_fields(const struct buf *m, const struct buf *p)
{
	make_event(&ev_buf, false, m, p, 5);
}

static void test_malformed_fields(void)
{
	struct buf *m = &meta_buf, *p = &pay_buf;
	unsigned int enc;

	/* Unknown and invalid encodings, scalar and array. */
	for (enc = 0; enc < 32; enc++) {
		int want = enc >= EH_ENC_MAX ? -ENOTSUP :
			   enc == EH_ENC_INVALID ? -EBADMSG : 0;

		m->n = p->n = 0;
		m->be = p->be = false;
		putstr(m, "E");
		putstr(m, "f");
		if (enc == EH_ENC_STRUCT)
			continue;
		put8(m, enc);
		putmem(p, "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			  "\x00\x00\x00\x00\x00\x00", 18);
		build_fields(m, p);
		CU_ASSERT_EQUAL(decode_built("P_L5K0"), want);
		m->b[m->n - 1] = (uint8_t)(enc | EH_ENC_VARRAY);
		build_fields(m, p);
		CU_ASSERT_EQUAL(decode_built("P_L5K0"), want);
	}

	/* Both array flags: reserved. */
	m->n = p->n = 0;
	putstr(m, "E");
	putstr(m, "f");
	put8(m, EH_ENC_VALUE8 | EH_ENC_CARRAY | EH_ENC_VARRAY);
	put16(m, 1);
	put8(p, 1);
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -ENOTSUP);

	/* A constant array of 0, a variable array longer than the data. */
	m->b[m->n - 3] = EH_ENC_VALUE8 | EH_ENC_CARRAY;
	m->b[m->n - 2] = 0;
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	m->n -= 2;
	m->b[m->n - 1] = EH_ENC_VALUE32 | EH_ENC_VARRAY;
	p->n = 0;
	put16(p, 60000);
	putmem(p, "abcd", 4);
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);

	/* A counted string longer than the data, a string with no NUL. */
	m->b[m->n - 1] = EH_ENC_STRING_LENGTH16_CHAR32;
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	m->b[m->n - 1] = EH_ENC_ZSTRING_CHAR16;
	p->n = 0;
	putmem(p, "abcde", 5);
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);

	/* Format and tag bytes promised but missing. */
	m->b[m->n - 1] = EH_ENC_VALUE8 | EH_ENC_CHAIN;
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
	put8(m, EH_FMT_CHAIN);
	put8(m, 0);
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);

	/* A struct of 0 fields. */
	m->n = 0;
	putstr(m, "E");
	putstr(m, "s");
	put8(m, EH_ENC_STRUCT);
	build_fields(m, p);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -EBADMSG);
}

static void test_malformed_nesting(void)
{
	struct buf *m = &meta_buf, *p = &pay_buf;
	int depth, ret;

	/* struct { struct { ... { u8 } } }: fine to 8 levels, not 9. */
	for (depth = 1; depth <= 20; depth++) {
		int i;

		m->n = p->n = 0;
		putstr(m, "E");
		for (i = 0; i < depth; i++) {
			putstr(m, "s");
			put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN);
			put8(m, 1);
		}
		putstr(m, "v");
		put8(m, EH_ENC_VALUE8);
		put8(p, 9);
		build_fields(m, p);
		ret = decode_built("P_L5K0");
		CU_ASSERT_EQUAL(ret, depth <= EH_MAX_DEPTH ? 0 : -EMLINK);
	}

	/*
	 * Arrays of 65535 structs, 8 deep, whose fields the metadata never
	 * gets to: no data is consumed, so only the item limit stops it.
	 */
	m->n = p->n = 0;
	putstr(m, "E");
	for (depth = 0; depth < EH_MAX_DEPTH; depth++) {
		putstr(m, "a");
		put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN | EH_ENC_CARRAY);
		put8(m, 127);
		put16(m, 65535);
	}
	build_fields(m, p);
	eh_decoder_set_item_limit(g.d, 100000);
	CU_ASSERT_EQUAL(decode_built("P_L5K0"), -E2BIG);
	CU_ASSERT(strstr(eh_decoder_strerror(g.d), "items") != NULL);
	eh_decoder_set_item_limit(g.d, 0);

	/* An empty array of structs still skips the structs' definitions. */
	m->n = p->n = 0;
	putstr(m, "E");
	putstr(m, "a");
	put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN | EH_ENC_VARRAY);
	put8(m, 2);
	putstr(m, "in");
	put8(m, EH_ENC_STRUCT | EH_ENC_CHAIN);
	put8(m, 1);
	putstr(m, "x");
	put8(m, EH_ENC_VALUE8);
	putstr(m, "y");
	put8(m, EH_ENC_VALUE8);
	putstr(m, "after");
	put8(m, EH_ENC_VALUE8);
	put16(p, 0);
	put8(p, 42);
	build_fields(m, p);
	check_json("P_L5K0", &ev_buf,
		   "{\"n\":\"P:E\",\"a\":[],\"after\":42,"
		   "\"meta\":{\"id\":4660,\"version\":3,\"level\":5,"
		   "\"opcode\":1,\"tag\":\"0xBEEF\"}}");
}

static CU_TestInfo fixture_tests[] = {
	{ "build and decode every event, both byte orders",
	  test_fixture_load },
	{ "JSON text equals the catalogue's", test_fixture_json_text },
	{ "JSON values equal the catalogue's", test_fixture_json_values },
	{ "event info equals the encoder's header", test_fixture_event_info },
	{ "every item and value as the encoder was told",
	  test_fixture_items },
	{ "value text of every scalar", test_fixture_value_text },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo vector_tests[] = {
	{ "load all 374 records", test_vectors_load },
	{ "JSON text equals LinuxTracepoints'", test_vectors_json_text },
	{ "JSON values equal LinuxTracepoints'", test_vectors_json_values },
	{ "event info equals n and meta", test_vectors_event_info },
	{ "items and value text", test_vectors_items },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo api_tests[] = {
	{ "big-endian event", test_event_big_endian },
	{ "little-endian event", test_event_little_endian },
	{ "item details and skipping", test_event_items },
	{ "tracepoint name grammar", test_tracepoint_names },
	{ "value formats", test_format_values },
	{ "encoder bytes as the spec lays them out", test_encoder_bytes },
	{ "encoder errors", test_encoder_errors },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo malformed_tests[] = {
	{ "every truncation of every event", test_malformed_truncated },
	{ "byte mutations of every event", test_malformed_mutated },
	{ "headers and extension sizes", test_malformed_headers },
	{ "extension chains", test_malformed_extension_chains },
	{ "field definitions and sizes", test_malformed_fields },
	{ "nesting and item limit", test_malformed_nesting },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "eventheader fixture", suite_init, suite_clean, NULL, NULL,
	  fixture_tests },
	{ "eventheader api", suite_init, suite_clean, NULL, NULL, api_tests },
	{ "eventheader malformed", suite_init, suite_clean, NULL, NULL,
	  malformed_tests },
	/* Only when LinuxTracepoints' vectors stand beside the clone. */
	{ "eventheader vectors", suite_init, suite_clean, NULL, NULL,
	  vector_tests },
	CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	const char *path = vectors_path(DAT_NAME);
	FILE *f = fopen(path, "rb");

	(void)argc;
	if (f) {
		fclose(f);
	} else {
		printf("# skip: no %s (optional data beside the clone): "
		       "the vector tests are left out\n", path);
		memset(&suites[3], 0, sizeof(suites[3]));
	}
	return unit_run(argv[0], suites);
}
