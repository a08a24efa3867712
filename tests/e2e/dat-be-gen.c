// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-be-gen - a big-endian recording of the events of a converted .dat,
 * which this little-endian machine cannot record:
 *
 *   dat-be-gen [-z] IN.fxt OUT.dat
 *
 * IN.fxt is what `trace-fxt convert` made of a .dat (formats, symbols
 * and task names carried).  OUT.dat holds its events as a big-endian
 * kernel records them: fxt2dat rebuilds each record with its fields big
 * endian, and the core's .dat writer writes the file big endian (-z:
 * zstd sections and pages).  Bytes no field describes are copied as
 * they are, so a source whose records carry such bytes in their own
 * order (EventHeader payloads) is no input for this: samples/
 * eventheader-dat -E writes those.  tests/e2e/byte-order.sh checks that
 * trace-cmd reads the result as it reads the source.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fxt-tep.h"

int main(int argc, char **argv)
{
	struct fxt2dat_opts o = { .big_endian = true };
	struct fxt2dat_stats st;
	char err[512] = "";
	int fd, ret, i = 1;

	if (argc == 4 && !strcmp(argv[1], "-z")) {
		o.compression = "zstd";
		i++;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: dat-be-gen [-z] IN.fxt OUT.dat\n");
		return 2;
	}
	fd = open(argv[i + 1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[i + 1]);
		return 1;
	}
	ret = fxt2dat_convert(argv[i], fd, &o, &st, err, sizeof(err));
	if (close(fd) && !ret)
		ret = -1;
	if (ret < 0) {
		fprintf(stderr, "dat-be-gen: %s: %s\n", argv[i],
			err[0] ? err : "failed");
		return 1;
	}
	printf("%llu events, %u buffers, %u CPUs\n",
	       (unsigned long long)st.events_out, st.buffers, st.cpus);
	return 0;
}
