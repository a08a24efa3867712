// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-dump.c - `trace-fxt dump [--json] FILE.fxt`: every record, decoded.
 *
 * One walk over a record's fields feeds either a text line
 * ("0x0028 event instant ts=... key=value ...") or a JSON object per line
 * (json-c), so both outputs always say the same thing.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "fxt-print.h"
#include "fxt-reader.h"
#include "perfetto-read.h"
#include "trace-fxt.h"

struct emit {
	bool		json;
	json_object	*obj;
	char		*buf;	/* scratch for text values */
	size_t		size;
	struct pft_stream *pkts;	/* the Perfetto packets' stream */
};

static void emit_u64(struct emit *e, const char *key, uint64_t v)
{
	if (e->json)
		json_object_object_add(e->obj, key, json_object_new_uint64(v));
	else
		printf(" %s=%" PRIu64, key, v);
}

static void emit_hex(struct emit *e, const char *key, uint64_t v)
{
	if (e->json)
		json_object_object_add(e->obj, key, json_object_new_uint64(v));
	else
		printf(" %s=0x%" PRIx64, key, v);
}

static void emit_name(struct emit *e, const char *key, const char *v)
{
	if (e->json)
		json_object_object_add(e->obj, key, json_object_new_string(v));
	else if (!strcmp(key, "kind") || !strcmp(key, "event"))
		printf(" %s", v);	/* the record's subtype reads bare */
	else
		printf(" %s=%s", key, v);
}

static void emit_str(struct emit *e, const char *key, struct fxt_str s)
{
	if (e->json) {
		json_object_object_add(e->obj, key,
			json_object_new_string_len(s.ptr, (int)s.len));
		return;
	}
	fxt_print_str(e->buf, e->size, s, FXT_PRINT_QUOTE);
	printf(" %s=%s", key, e->buf);
}

static void emit_bytes(struct emit *e, const char *key, const void *data,
		       uint64_t size)
{
	const uint8_t *p = data;
	uint64_t i, shown = size < 64 ? size : 64;

	if (!e->json) {
		printf(" %s=", key);
		for (i = 0; i < shown; i++)
			printf("%02x", p[i]);
		if (shown < size)
			printf("...");
		return;
	}
	{
		char *hex = e->buf;

		if (size * 2 + 1 > e->size)
			shown = (e->size - 1) / 2;
		else
			shown = size;
		for (i = 0; i < shown; i++)
			sprintf(hex + 2 * i, "%02x", p[i]);
		hex[2 * shown] = '\0';
		json_object_object_add(e->obj, key, json_object_new_string(hex));
	}
}

static void emit_thread(struct emit *e, const char *prefix,
			const struct fxt_thread *t)
{
	char key[32];

	snprintf(key, sizeof(key), "%spid", prefix);
	emit_u64(e, key, t->pid);
	snprintf(key, sizeof(key), "%stid", prefix);
	emit_u64(e, key, t->tid);
}

static json_object *arg_json(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_NULL:
		return NULL;
	case FXT_ARG_INT32:
		return json_object_new_int(a->i32);
	case FXT_ARG_UINT32:
		return json_object_new_int64(a->u32);
	case FXT_ARG_INT64:
		return json_object_new_int64(a->i64);
	case FXT_ARG_UINT64:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return json_object_new_uint64(a->u64);
	case FXT_ARG_DOUBLE:
		return json_object_new_double(a->d);
	case FXT_ARG_STRING:
		return json_object_new_string_len(a->str.ptr, (int)a->str.len);
	case FXT_ARG_BOOL:
		return json_object_new_boolean(a->b);
	default:
		return json_object_new_int64(a->raw_words);
	}
}

static void emit_args(struct emit *e, const struct fxt_arg *args,
		      unsigned int n)
{
	json_object *arr;
	unsigned int i;

	if (!n)
		return;
	if (!e->json) {
		fxt_print_args(e->buf, e->size, args, n,
			       FXT_PRINT_QUOTE | FXT_PRINT_TYPED);
		printf(" args: %s", e->buf);
		return;
	}
	/* An array, not an object: argument names may repeat. */
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		const char *type = fxt_arg_type_name(args[i].type);

		json_object_object_add(o, "name",
			json_object_new_string_len(args[i].name.ptr,
						   (int)args[i].name.len));
		json_object_object_add(o, "type",
			json_object_new_string(type ? type : "unknown"));
		json_object_object_add(o, "value", arg_json(&args[i]));
		json_object_array_add(arr, o);
	}
	json_object_object_add(e->obj, "args", arr);
}

static void emit_metadata(struct emit *e, const struct fxt_record *rec)
{
	static const char *const kinds[] = {
		[FXT_META_PROVIDER_INFO] = "provider_info",
		[FXT_META_PROVIDER_SECTION] = "provider_section",
		[FXT_META_PROVIDER_EVENT] = "provider_event",
		[FXT_META_TRACE_INFO] = "trace_info",
	};
	unsigned int t = rec->meta.type;

	if (t == FXT_META_TRACE_INFO &&
	    rec->meta.info_type == FXT_TRACE_INFO_MAGIC) {
		emit_name(e, "kind", "magic");
		return;
	}
	emit_name(e, "kind", t < 5 && kinds[t] ? kinds[t] : "unknown");
	switch (t) {
	case FXT_META_PROVIDER_INFO:
		emit_u64(e, "provider_id", rec->meta.provider_id);
		emit_str(e, "name", rec->meta.name);
		break;
	case FXT_META_PROVIDER_SECTION:
		emit_u64(e, "provider_id", rec->meta.provider_id);
		break;
	case FXT_META_PROVIDER_EVENT:
		emit_u64(e, "provider_id", rec->meta.provider_id);
		emit_name(e, "event", rec->meta.event ==
			  FXT_PROVIDER_EVENT_BUFFER_FULL ? "buffer_full" :
			  "unknown");
		emit_u64(e, "event_id", rec->meta.event);
		break;
	case FXT_META_TRACE_INFO:
		emit_u64(e, "info_type", rec->meta.info_type);
		break;
	default:
		emit_u64(e, "metadata_type", t);
	}
}

static void emit_sched(struct emit *e, const struct fxt_record *rec)
{
	static const char *const kinds[] = {
		"legacy_context_switch", "context_switch", "thread_wakeup",
	};
	const char *state = fxt_thread_state_name(rec->sched.out_state);
	unsigned int st = rec->sched.subtype;

	emit_name(e, "kind", st < 3 ? kinds[st] : "unknown");
	if (st > FXT_SCHED_WAKEUP) {
		emit_u64(e, "subtype", st);
		return;
	}
	emit_u64(e, "ts", rec->sched.ts);
	emit_u64(e, "cpu", rec->sched.cpu);
	if (st == FXT_SCHED_WAKEUP) {
		emit_u64(e, "tid", rec->sched.in.tid);
	} else {
		emit_name(e, "out_state", state ? state : "unknown");
		if (st == FXT_SCHED_LEGACY_SWITCH) {
			emit_thread(e, "out_", &rec->sched.out);
			emit_thread(e, "in_", &rec->sched.in);
			emit_u64(e, "out_prio", rec->sched.out_prio);
			emit_u64(e, "in_prio", rec->sched.in_prio);
		} else {
			emit_u64(e, "out_tid", rec->sched.out.tid);
			emit_u64(e, "in_tid", rec->sched.in.tid);
		}
	}
	emit_args(e, rec->sched.args, rec->sched.nargs);
}

static void emit_record(struct emit *e, const struct fxt_record *rec)
{
	const struct fxt_event *ev = &rec->event;
	const char *type = fxt_record_type_name(rec->type);

	if (e->json) {
		emit_u64(e, "offset", rec->offset);
		emit_u64(e, "size", rec->size);
		emit_name(e, "record", type ? type : "unknown");
		emit_u64(e, "provider", rec->provider_id);
		/* read from a blob of records (fxt-reader.h) */
		if (rec->nested)
			json_object_object_add(e->obj, "nested",
					       json_object_new_boolean(1));
	} else {
		printf("0x%08" PRIx64 " %s", rec->offset,
		       type ? type : "unknown");
	}
	switch (rec->type) {
	case FXT_REC_METADATA:
		emit_metadata(e, rec);
		break;
	case FXT_REC_INIT:
		emit_u64(e, "ticks_per_second", rec->init.ticks_per_second);
		break;
	case FXT_REC_STRING:
		emit_u64(e, "index", rec->string.index);
		emit_str(e, "value", rec->string.str);
		break;
	case FXT_REC_THREAD:
		emit_u64(e, "index", rec->thread.index);
		emit_thread(e, "", &rec->thread.thread);
		break;
	case FXT_REC_EVENT:
		type = fxt_event_type_name(ev->type);
		emit_name(e, "event", type ? type : "unknown");
		emit_u64(e, "ts", ev->ts);
		emit_thread(e, "", &ev->thread);
		emit_str(e, "category", ev->category);
		emit_str(e, "name", ev->name);
		if (ev->type == FXT_EVENT_DURATION_COMPLETE)
			emit_u64(e, "end_ts", ev->end_ts);
		else if (ev->type == FXT_EVENT_COUNTER ||
			 (ev->type >= FXT_EVENT_ASYNC_BEGIN &&
			  ev->type < FXT_EVENT_TYPE_COUNT))
			emit_u64(e, "id", ev->id);
		emit_args(e, ev->args, ev->nargs);
		break;
	case FXT_REC_BLOB:
		emit_str(e, "name", rec->blob.name);
		emit_u64(e, "blob_type", rec->blob.type);
		emit_u64(e, "bytes", rec->blob.size);
		/* Perfetto packets: the ones this blob completes, described */
		if (rec->blob.type == FXT_BLOB_PERFETTO && e->pkts)
			emit_name(e, "perfetto",
				  pft_stream_feed(e->pkts, rec->blob.data,
						  rec->blob.size) < 0 ?
				  pft_stream_error(e->pkts) :
				  *pft_stream_text(e->pkts) ?
				  pft_stream_text(e->pkts) :
				  "(the middle of a packet)");
		emit_bytes(e, "data", rec->blob.data, rec->blob.size);
		break;
	case FXT_REC_USERSPACE_OBJ:
		emit_hex(e, "pointer", rec->uobj.pointer);
		emit_u64(e, "pid", rec->uobj.pid);
		emit_str(e, "name", rec->uobj.name);
		emit_args(e, rec->uobj.args, rec->uobj.nargs);
		break;
	case FXT_REC_KERNEL_OBJ:
		emit_u64(e, "koid", rec->kobj.koid);
		emit_u64(e, "obj_type", rec->kobj.obj_type);
		emit_str(e, "name", rec->kobj.name);
		emit_args(e, rec->kobj.args, rec->kobj.nargs);
		break;
	case FXT_REC_SCHED:
		emit_sched(e, rec);
		break;
	case FXT_REC_LOG:
		emit_u64(e, "ts", rec->log.ts);
		emit_thread(e, "", &rec->log.thread);
		emit_str(e, "message", rec->log.msg);
		break;
	case FXT_REC_LARGE:
		if (!rec->large.data && rec->large.size == 0 &&
		    (rec->large.large_type || rec->large.format > 1)) {
			emit_u64(e, "large_type", rec->large.large_type);
			emit_u64(e, "format", rec->large.format);
			break;
		}
		emit_name(e, "kind", "large_blob");
		emit_u64(e, "format", rec->large.format);
		emit_str(e, "category", rec->large.category);
		emit_str(e, "name", rec->large.name);
		if (rec->large.format == FXT_LARGE_BLOB_METADATA) {
			emit_u64(e, "ts", rec->large.ts);
			emit_thread(e, "", &rec->large.thread);
			emit_args(e, rec->large.args, rec->large.nargs);
		}
		emit_u64(e, "bytes", rec->large.size);
		emit_bytes(e, "data", rec->large.data, rec->large.size);
		break;
	default:
		emit_u64(e, "type", rec->type);
		break;
	}
}

static int cmd_dump(int argc, char **argv)
{
	static char buf[1 << 18];
	struct emit e = { .buf = buf, .size = sizeof(buf) };
	struct fxt_record rec;
	struct fxt_reader *r;
	const char *path;
	int ret, c;

	while ((c = trace_fxt_getopt(&trace_fxt_dump, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			e.json = true;
			break;
		default:
			return trace_fxt_opt_exit(&trace_fxt_dump, c);
		}
	}
	if (optind != argc - 1)
		return trace_fxt_usage(&trace_fxt_dump, optind == argc ?
				       "no input file" : "one input file only");
	path = argv[optind];
	r = fxt_reader_open(path, 0);
	if (!r) {
		trace_fxt_err("%s: %s", path, strerror(errno));
		return 1;
	}
	e.pkts = pft_stream_new();
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		if (e.json)
			e.obj = json_object_new_object();
		emit_record(&e, &rec);
		if (e.json) {
			puts(json_object_to_json_string_ext(e.obj,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(e.obj);
		} else {
			putchar('\n');
		}
	}
	fflush(stdout);
	if (ret < 0)
		fprintf(stderr, "%s\n", fxt_reader_error(r));
	else if (e.pkts && pft_stream_end(e.pkts) < 0)
		fprintf(stderr, "%s: %s\n", path, pft_stream_error(e.pkts));
	pft_stream_free(e.pkts);
	trace_fxt_say_skipped(r);
	fxt_reader_close(r);
	return ret < 0 ? 1 : 0;
}

static const struct trace_fxt_opt dump_opts[] = {
	{ .key = 'j', .name = "json",
	  .help = "one JSON object per record instead of a line of text" },
	{ 0 }
};

static const struct trace_fxt_example dump_examples[] = {
	{ "dump trace.fxt | less", "every record, decoded" },
	{ "dump --json trace.fxt.gz | jq -c 'select(.record == \"event\")'",
	  "the event records, for a script" },
	{ NULL }
};

static const struct trace_fxt_exit dump_exits[] = {
	{ 0, "dumped" },
	{ 1, "the file could not be read (the records before the fault are "
	     "printed)" },
	{ 2, "a usage error" },
	{ 0, NULL }
};

const struct trace_fxt_cmd trace_fxt_dump = {
	.name = "dump",
	.run = cmd_dump,
	.summary = "print every record of an FXT file, decoded",
	.synopsis = { "[--json] FILE.fxt" },
	.about = "Prints every record of the file as it is: its type, "
		 "offset, header fields and arguments, strings and threads "
		 "resolved.  FILE.fxt may be gzip'd or zstd'd, and may be a "
		 "pipe (/dev/stdin).",
	.opts = dump_opts,
	.operand = TRACE_FXT_ARG_FILE,
	.files = "fxt fxt.gz fxt.zst",
	.examples = dump_examples,
	.exits = dump_exits,
};
