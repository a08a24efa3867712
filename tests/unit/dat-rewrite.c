// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-rewrite.c - re-encode a real .dat recording with the core's writer.
 *
 *   dat-rewrite IN.dat FORMATS.txt OUT.dat [none|zstd [KALLSYMS [PRINTK]]]
 *
 * The records come from libtracecmd, record by record, CPU by CPU, buffer
 * by buffer, and go back out through dat_writer_write_raw(); the task
 * names come from the tep handle.  libtracecmd keeps no copy of the event
 * format texts, so they come from FORMATS.txt: what `trace-cmd dump
 * --ftrace-events --events IN.dat` prints (blocks from "name:" to
 * "print fmt:"), each block's system looked up by its ID in the tep
 * handle.  Function names in raw fields need kallsyms (and trace_printk
 * formats the printk strings): KALLSYMS and PRINTK are what `trace-cmd
 * dump --kallsyms` and `--printk` print, their "\t[...]" header lines
 * skipped.  If `trace-cmd report -R` prints the same for IN and OUT, the
 * writer has reproduced what the reader needs of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "dat-writer.h"

#define PID_MAX_LIMIT	(1 << 22)	/* the kernel's upper bound */

static int fail(const char *what, int err)
{
	fprintf(stderr, "dat-rewrite: %s: %s\n", what, strerror(-err));
	return 1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap + 1);

	if (!f || !buf)
		return NULL;
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				return NULL;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A dump of one section: the text after its "\t[...]" header lines. */
static char *dump_body(char *text, size_t *len)
{
	char *p = text, *nl;

	while (p[0] == '\t' && p[1] == '[' && (nl = strchr(p, '\n')))
		p = nl + 1;
	*len -= p - text;
	return p;
}

static int set_dump(struct dat_writer *w, const char *path,
		    int (*set)(struct dat_writer *, const char *, size_t))
{
	char *text, *body;
	size_t len;
	int r;

	text = slurp(path, &len);
	if (!text)
		return -errno;
	body = dump_body(text, &len);
	r = set(w, body, len);
	free(text);
	return r;
}

/* Register every "name: ... print fmt: ...\n" block of the dump. */
static int add_formats(struct dat_writer *w, struct tep_handle *tep,
		       char *text)
{
	char *p = text, *start, *end;
	struct tep_event *e;
	int n = 0, id, r;

	while ((start = strstr(p, "name: "))) {
		if (start != text && start[-1] != '\n') {
			p = start + 6;
			continue;
		}
		end = strstr(start, "\nprint fmt: ");
		if (!end)
			break;
		end = strchr(end + 1, '\n');
		end = end ? end + 1 : start + strlen(start);
		p = strstr(start, "\nID: ");
		id = p && p < end ? atoi(p + 5) : -1;
		e = id >= 0 ? tep_find_event(tep, id) : NULL;
		/* a format the reader could not parse stays unparsable */
		r = dat_writer_add_event_format(w, e ? e->system : "unknown",
						start, end - start);
		if (r < 0 && r != -EEXIST)
			return r;
		n += r >= 0;
		p = end;
	}
	return n;
}

static int add_cmdlines(struct dat_writer *w, struct tep_handle *tep)
{
	int pid, r;

	for (pid = 0; pid < PID_MAX_LIMIT; pid++) {
		if (!tep_is_pid_registered(tep, pid))
			continue;
		r = dat_writer_add_cmdline(w, pid,
					   tep_data_comm_from_pid(tep, pid));
		if (r)
			return r;
	}
	return 0;
}

static long copy_records(struct dat_writer *w, int buffer,
			 struct tracecmd_input *h, int cpus)
{
	struct tep_record *rec;
	long n = 0;
	int cpu, r;

	for (cpu = 0; cpu < cpus; cpu++) {
		while ((rec = tracecmd_read_data(h, cpu))) {
			r = dat_writer_write_raw(w, buffer, cpu, rec->ts,
						 rec->data, rec->size);
			tracecmd_free_record(rec);
			if (r)
				return r;
			n++;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct dat_writer_opts o = { 0 };
	struct tracecmd_input *h, *ih;
	struct tep_handle *tep;
	struct dat_writer *w;
	char *formats;
	long n, total;
	size_t len;
	int fd, i, b, r;

	if (argc < 4) {
		fprintf(stderr,
			"usage: dat-rewrite IN.dat FORMATS.txt OUT.dat"
			" [none|zstd [KALLSYMS [PRINTK]]]\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return fail(argv[1], -EINVAL);
	tep = tracecmd_get_tep(h);
	formats = slurp(argv[2], &len);
	if (!formats)
		return fail(argv[2], -errno);

	o.compression = argc > 4 ? argv[4] : "none";
	o.cpus = tep_get_cpus(tep);
	o.page_size = tep_get_page_size(tep);
	o.long_size = tep_get_long_size(tep);
	fd = open(argv[3], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail(argv[3], -errno);
	w = dat_writer_create(fd, &o);
	if (!w)
		return fail("dat_writer_create", -errno);

	r = add_formats(w, tep, formats);
	if (r < 0)
		return fail("formats", r);
	fprintf(stderr, "dat-rewrite: %d formats\n", r);
	r = add_cmdlines(w, tep);
	if (r)
		return fail("cmdlines", r);
	r = argc > 5 ? set_dump(w, argv[5], dat_writer_set_kallsyms) : 0;
	if (!r && argc > 6)
		r = set_dump(w, argv[6], dat_writer_set_printk);
	if (r)
		return fail("kallsyms/printk", r);

	total = copy_records(w, 0, h, o.cpus);
	if (total < 0)
		return fail("records", total);
	for (i = 0; i < tracecmd_buffer_instances(h); i++) {
		b = dat_writer_add_buffer(w, tracecmd_buffer_instance_name(h, i));
		ih = tracecmd_buffer_instance_handle(h, i);
		if (b < 0 || !ih)
			return fail("buffer", b < 0 ? b : -EINVAL);
		n = copy_records(w, b, ih, o.cpus);
		tracecmd_close(ih);
		if (n < 0)
			return fail("records", n);
		total += n;
	}
	r = dat_writer_close(w);
	if (r)
		return fail(argv[3], r);
	close(fd);
	tracecmd_close(h);
	free(formats);
	printf("%ld\n", total);
	return 0;
}
