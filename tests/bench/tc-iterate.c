// SPDX-License-Identifier: GPL-2.0-only
/*
 * tc-iterate.c - the benchmark's floor: open a .dat with libtracecmd and
 * walk every record of every buffer with tracecmd_iterate_events_multi(),
 * in time order, doing nothing with them.  Prints the record count.
 *   usage: tc-iterate FILE.dat
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace-cmd.h>

static int count_record(struct tracecmd_input *handle,
			struct tep_record *rec, int cpu, void *data)
{
	(*(unsigned long long *)data)++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input **handles, *top;
	unsigned long long n = 0;
	int nr, i;

	if (argc != 2) {
		fprintf(stderr, "usage: tc-iterate FILE.dat\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_CRITICAL);
	top = tracecmd_open(argv[1], 0);
	if (!top) {
		fprintf(stderr, "tc-iterate: cannot open %s\n", argv[1]);
		return 1;
	}
	nr = tracecmd_buffer_instances(top);
	handles = calloc(nr + 1, sizeof(*handles));
	if (!handles)
		return 1;
	handles[0] = top;
	for (i = 0; i < nr; i++)
		handles[i + 1] = tracecmd_buffer_instance_handle(top, i);
	tracecmd_iterate_events_multi(handles, nr + 1, count_record, &n);
	printf("%llu\n", n);
	for (i = 1; i <= nr; i++)
		tracecmd_close(handles[i]);
	tracecmd_close(top);
	free(handles);
	return 0;
}
