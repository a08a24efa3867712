// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventheader-dat.c - a trace-cmd .dat holding EventHeader user_events,
 * which this machine's kernel cannot record, for plugin_eventheader.so's
 * tests:
 *
 *   eventheader-dat [-f FILLERS] [-b] [-E] VECTORS.dat FORMATS_DIR OUT.dat
 *
 * VECTORS.dat is a vectors file (u32 size, tracepoint name, event bytes):
 * the one samples/eventheader-vectors writes, or LinuxTracepoints'
 * EventHeaderInterceptorLE64.dat beside the clone.  Every record
 * becomes one user_events record, in file order, of a tracepoint
 * registered the way libeventheader-tracepoint registers it:
 *
 *	<name> u8 eventheader_flags; u8 version; u16 id; u16 tag;
 *		u8 opcode; u8 level
 *
 * so its format holds the six header fields and the record's remaining
 * bytes (extensions, field data) are undeclared, as the kernel stores
 * them.  Format texts are what trace_events_user.c writes for such
 * commands.  Between the vectors go ordinary events: real kernel formats
 * from FORMATS_DIR (sched_switch, sched_waking, irq_handler_entry), a
 * user_event that is not EventHeader, one with an EventHeader name but
 * other fields, and records of an EventHeader tracepoint that are not
 * EventHeader events (unknown header flags) or are malformed (truncated
 * extension).
 *
 * -f FILLERS registers that many more EventHeader tracepoints before the
 * vectors' ones and records one event of the first filler before
 * everything else: a file with more user_events formats than the plugin
 * registers pending handlers for.
 *
 * -b records every third vector in a buffer instance "apps" instead of
 * the top buffer (trace-cmd record -B apps -e user_events).
 *
 * -E writes the file as a big-endian machine records it: the .dat's own
 * numbers and the ordinary events' fields big endian.  The vectors' bytes
 * go in as they are, whatever order their EventHeader flags name (a
 * process writes its events in its own order).
 *
 * Prints the number of events written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat-writer.h"

#define MAX_TRACEPOINTS	64
#define FIRST_USER_ID	2000	/* dynamic event ids, as the kernel's */
#define VECTOR_PID	4242
#define OTHER_PID	77

struct user_field {
	const char	*type;
	const char	*name;
	unsigned int	size;
};

static const struct user_field eh_fields[] = {
	{ "u8",  "eventheader_flags", 1 },
	{ "u8",  "version", 1 },
	{ "u16", "id", 2 },
	{ "u16", "tag", 2 },
	{ "u8",  "opcode", 1 },
	{ "u8",  "level", 1 },
	{ NULL, NULL, 0 }
};

static const struct user_field plain_fields[] = {
	{ "u32", "count", 4 },
	{ "__rel_loc char[]", "msg", 4 },
	{ NULL, NULL, 0 }
};

static const struct user_field fake_fields[] = {
	{ "u32", "value", 4 },
	{ NULL, NULL, 0 }
};

struct gen {
	struct dat_writer	*w;
	int			next_id;
	uint64_t		ts;
	long			written;
	int			apps;		/* instance, or -1 */
	const char		*formats_dir;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "eventheader-dat: %s: %s\n", what, strerror(-err));
	exit(1);
}

/* the .dat's byte order (-E): the ordinary events' fields follow it */
static bool big;

static void put16(uint8_t *p, uint16_t v)
{
	p[big] = v;
	p[!big] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p + 2 * big, v);
	put16(p + 2 * !big, v >> 16);
}

/* The printf conversion trace_events_user.c gives a field type. */
static const char *user_field_conv(const char *type)
{
	if (!strcmp(type, "u64"))
		return "%llu";
	if (!strcmp(type, "s64"))
		return "%lld";
	if (!strcmp(type, "s32") || !strcmp(type, "int") ||
	    !strcmp(type, "s16") || !strcmp(type, "s8"))
		return "%d";
	if (strstr(type, "char["))
		return "%s";
	return "%u";
}

/* events/user_events/<name>/format as the kernel writes it. */
static int add_user_event(struct gen *g, const char *system,
			  const char *name, const struct user_field *fields)
{
	char text[4096];
	size_t len = 0, off = 8;
	const struct user_field *f;
	int id;

#define OUT(...) (len += snprintf(text + len, sizeof(text) - len, __VA_ARGS__))
	OUT("name: %s\nID: %d\nformat:\n", name, g->next_id);
	OUT("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (f = fields; f->name; f++) {
		OUT("\tfield:%s %s;\toffset:%zu;\tsize:%u;\tsigned:%d;\n",
		    f->type, f->name, off, f->size, f->type[0] != 'u');
		off += f->size;
	}
	OUT("\nprint fmt: \"");
	for (f = fields; f->name; f++)
		OUT("%s%s=%s", f == fields ? "" : " ", f->name,
		    user_field_conv(f->type));
	OUT("\"");
	for (f = fields; f->name; f++) {
		if (!strncmp(f->type, "__rel_loc ", 10) && strstr(f->type, "char"))
			OUT(", __get_rel_str(%s)", f->name);
		else
			OUT(", REC->%s", f->name);
	}
	OUT("\n");
#undef OUT
	if (len >= sizeof(text))
		die(name, -E2BIG);
	id = dat_writer_add_event_format(g->w, system, text, len);
	if (id < 0)
		die(name, id);
	g->next_id++;
	return id;
}

static int add_file_event(struct gen *g, const char *sys, const char *name)
{
	char path[4096], text[8192];
	size_t n;
	FILE *f;
	int id;

	snprintf(path, sizeof(path), "%s/%s.format", g->formats_dir, name);
	f = fopen(path, "r");
	if (!f)
		die(path, -errno);
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	id = dat_writer_add_event_format(g->w, sys, text, n);
	if (id < 0)
		die(name, id);
	return id;
}

static void emit_to(struct gen *g, int buffer, int id, int pid,
		    const void *payload, size_t len)
{
	struct dat_event ev = {
		.id = id, .flags = 1, .pid = pid,
		.payload = payload, .payload_len = len,
	};
	int ret;

	g->ts += 1000 + g->written % 7;
	ret = dat_writer_write_event(g->w, buffer, g->written % 2, g->ts, &ev);
	if (ret)
		die("write", ret);
	g->written++;
}

static void emit(struct gen *g, int id, int pid, const void *payload,
		 size_t len)
{
	emit_to(g, 0, id, pid, payload, len);
}

/* The ordinary events that go between the vectors, @k-th round. */
static void emit_ordinary(struct gen *g, const int *ids, int k)
{
	static const char *irqs[] = { "eth0", "ahci[0000:00:1f.2]", "i8042" };
	uint8_t p[64];
	size_t n;

	memset(p, 0, sizeof(p));
	switch (k % 6) {
	case 0:		/* sched_switch */
		strcpy((char *)p, "swapper/1");
		put32(p + 20, 120);
		strcpy((char *)p + 32, "eh-vectors");
		put32(p + 48, VECTOR_PID);
		put32(p + 52, 120);
		emit(g, ids[0], 0, p, 56);
		break;
	case 1:		/* sched_waking */
		strcpy((char *)p, "kworker/1:2");
		put32(p + 16, OTHER_PID);
		put32(p + 20, 120);
		put32(p + 24, k % 2);
		emit(g, ids[1], VECTOR_PID, p, 28);
		break;
	case 2:		/* irq_handler_entry: irq, __data_loc name */
		n = strlen(irqs[k % 3]) + 1;
		put32(p, 16 + k % 3);
		put32(p + 4, (uint32_t)n << 16 | 16);
		memcpy(p + 8, irqs[k % 3], n);
		emit(g, ids[2], 0, p, 8 + n);
		break;
	case 3:		/* plain user_event: count, __rel_loc msg */
		n = snprintf((char *)p + 8, 40, "round %d, no EventHeader", k) + 1;
		put32(p, k);
		put32(p + 4, (uint32_t)n << 16);
		emit(g, ids[3], OTHER_PID, p, 8 + n);
		break;
	case 4:		/* EventHeader name, other fields */
		put32(p, 0xE4E4 + k);
		emit(g, ids[4], OTHER_PID, p, 4);
		break;
	case 5:		/* EventHeader fields, bytes that are not / broken */
		p[0] = k / 6 % 2 ? 0x07 : 0x80;	/* extension; unknown flag */
		p[7] = 5;
		emit(g, ids[5], OTHER_PID, p, 8);
		break;
	}
}

static uint8_t *read_file(const char *path, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n;
	FILE *f = fopen(path, "rb");

	if (!f)
		die(path, -errno);
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				die(path, -ENOMEM);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

/* Id of tracepoint @name, registering it on first sight. */
static int vector_event(struct gen *g, const char *name)
{
	static char *names[MAX_TRACEPOINTS];
	static int ids[MAX_TRACEPOINTS];
	static int count;
	int i;

	for (i = 0; i < count; i++)
		if (!strcmp(names[i], name))
			return ids[i];
	if (count == MAX_TRACEPOINTS)
		die(name, -ENOSPC);
	names[count] = strdup(name);
	ids[count] = add_user_event(g, "user_events", name, eh_fields);
	return ids[count++];
}

/* The next record of the vectors file: 1, or 0 at its end. */
static int next_record(const uint8_t *buf, size_t len, size_t *pos,
		       const char **name, const uint8_t **ev, size_t *ev_len)
{
	uint32_t size;
	const uint8_t *nul;

	if (*pos + 4 > len)
		return 0;
	size = buf[*pos] | buf[*pos + 1] << 8 | buf[*pos + 2] << 16 |
	       (uint32_t)buf[*pos + 3] << 24;
	if (size < 5 || size > len - *pos)
		die("vectors: bad record size", -EINVAL);
	nul = memchr(buf + *pos + 4, 0, size - 4);
	if (!nul)
		die("vectors: name without NUL", -EINVAL);
	*name = (const char *)buf + *pos + 4;
	*ev = nul + 1;
	*ev_len = buf + *pos + size - *ev;
	*pos += size;
	return 1;
}

int main(int argc, char **argv)
{
	struct dat_writer_opts o = { .cpus = 2 };
	struct gen g = { .next_id = FIRST_USER_ID, .ts = 1000000000ull,
			 .apps = -1 };
	const uint8_t *ev;
	const char *name;
	int ids[6], filler0 = -1, fillers = 0, opt, fd, ret, i, k = 0;
	size_t len, pos, ev_len;
	uint8_t *buf, hdr[8] = { 0x03, 0, 0, 0, 0, 0, 0, 5 };
	char fname[64];

	while ((opt = getopt(argc, argv, "bEf:")) != -1) {
		if (opt == 'b')
			g.apps = 0;
		else if (opt == 'E')
			big = o.big_endian = true;
		else if (opt == 'f')
			fillers = atoi(optarg);
		else
			goto usage;
	}
	if (argc - optind != 3)
		goto usage;
	g.formats_dir = argv[optind + 1];
	buf = read_file(argv[optind], &len);

	fd = open(argv[optind + 2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(argv[optind + 2], -errno);
	g.w = dat_writer_create(fd, &o);
	if (!g.w)
		die("dat_writer_create", -errno);
	dat_writer_add_option_string(g.w, DAT_OPTION_UNAME,
				     "Linux eventheader-dat 6.18.0 x86_64");
	dat_writer_add_option_string(g.w, DAT_OPTION_VERSION, "trace-fxt");
	dat_writer_add_cmdline(g.w, VECTOR_PID, "eh-vectors");
	dat_writer_add_cmdline(g.w, OTHER_PID, "kworker/1:2");
	if (!g.apps) {
		g.apps = dat_writer_add_buffer(g.w, "apps");
		if (g.apps < 0)
			die("buffer apps", g.apps);
	}

	for (i = 0; i < fillers; i++) {
		snprintf(fname, sizeof(fname), "Filler_L5K1Gf%d", i);
		ret = add_user_event(&g, "user_events", fname, eh_fields);
		if (!i)
			filler0 = ret;
	}
	/* All formats first, as a recorder copies them from tracefs. */
	for (pos = 0; next_record(buf, len, &pos, &name, &ev, &ev_len); )
		vector_event(&g, name);
	ids[0] = add_file_event(&g, "sched", "sched_switch");
	ids[1] = add_file_event(&g, "sched", "sched_waking");
	ids[2] = add_file_event(&g, "irq", "irq_handler_entry");
	ids[3] = add_user_event(&g, "user_events", "plain_counter",
				plain_fields);
	ids[4] = add_user_event(&g, "user_events", "Fake_L5K1", fake_fields);
	ids[5] = add_user_event(&g, "user_events", "Broken_L5K1", eh_fields);

	if (filler0 >= 0)
		emit(&g, filler0, OTHER_PID, hdr, sizeof(hdr));
	for (pos = 0, i = 0;
	     next_record(buf, len, &pos, &name, &ev, &ev_len); i++) {
		if (i % 8 == 0)
			emit_ordinary(&g, ids, k++);
		emit_to(&g, g.apps > 0 && i % 3 == 2 ? g.apps : 0,
			vector_event(&g, name), VECTOR_PID, ev, ev_len);
	}
	while (k % 6)
		emit_ordinary(&g, ids, k++);

	ret = dat_writer_close(g.w);
	if (ret)
		die("dat_writer_close", ret);
	close(fd);
	free(buf);
	printf("%ld\n", g.written);
	return 0;
usage:
	fprintf(stderr,
		"usage: eventheader-dat [-f FILLERS] [-b] [-E] VECTORS.dat "
		"FORMATS_DIR OUT.dat\n");
	return 2;
}
