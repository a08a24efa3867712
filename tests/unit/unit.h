/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unit.h - the few lines every CUnit test program shares.
 *
 * A test program lists its suites in a CU_SuiteInfo array and calls
 * unit_run() from main(); the verbose runner prints every test's name and
 * result, and the exit status is the number of failed tests plus the
 * tests that did not run and the suites whose set-up failed (capped).
 */
#ifndef _UNIT_H
#define _UNIT_H

#include <stddef.h>

#include <CUnit/CUnit.h>

int unit_run(const char *program, CU_SuiteInfo *suites);

/* Path to a file under the source tree (corpora, samples, scripts). */
const char *unit_path(const char *rel);

/*
 * Path to a file the build made: under $BUILD_DIR (make test passes
 * make's O), else the source tree's build/.
 */
const char *unit_build_path(const char *rel);

/*
 * Path to one of the project's recordings: samples/@name, or the build's
 * samples/@name for those the build derives (sched.dat, sched-v6.dat).
 */
const char *unit_sample_path(const char *name);

/*
 * Path to @rel under the optional data beside the clone: $SHARED_SAMPLES,
 * or ../shared/samples (as tests/e2e/lib.sh looks for it).
 */
const char *unit_shared_path(const char *rel);

/*
 * The whole of the file unit_path(@rel) names, NUL-terminated, its size
 * in *@len; the test stops if it cannot be read.  free() it.
 */
char *unit_slurp(const char *rel, size_t *len);

#define UNIT_MAIN(suites)					\
	int main(int argc, char **argv)				\
	{							\
		(void)argc;					\
		return unit_run(argv[0], suites);		\
	}

#endif /* _UNIT_H */
