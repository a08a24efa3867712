// SPDX-License-Identifier: GPL-2.0-only
/*
 * unit.c - run a program's CUnit suites with the verbose basic runner.
 *
 * CUnit counts a test whose suite set-up failed as neither run nor
 * failed: such tests would vanish from the totals.  The exit status and
 * the closing "# unit:" line count them as failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "unit.h"

const char *unit_path(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("TOP_SRCDIR");

	snprintf(buf, sizeof(buf), "%s/%s", top ? top : ".", rel);
	return buf;
}

const char *unit_build_path(const char *rel)
{
	static char buf[4096];
	const char *build = getenv("BUILD_DIR");
	const char *top = getenv("TOP_SRCDIR");

	if (build && *build)
		snprintf(buf, sizeof(buf), "%s/%s", build, rel);
	else
		snprintf(buf, sizeof(buf), "%s/build/%s", top ? top : ".", rel);
	return buf;
}

const char *unit_sample_path(const char *name)
{
	static char buf[4096];
	char rel[1024];

	snprintf(rel, sizeof(rel), "samples/%s", name);
	snprintf(buf, sizeof(buf), "%s", unit_path(rel));
	if (access(buf, R_OK))
		snprintf(buf, sizeof(buf), "%s", unit_build_path(rel));
	return buf;
}

const char *unit_shared_path(const char *rel)
{
	static char buf[4096];
	const char *shared = getenv("SHARED_SAMPLES");

	if (shared && *shared)
		snprintf(buf, sizeof(buf), "%s/%s", shared, rel);
	else
		snprintf(buf, sizeof(buf), "%s/../shared/samples/%s",
			 getenv("TOP_SRCDIR") ? getenv("TOP_SRCDIR") : ".",
			 rel);
	return buf;
}

char *unit_slurp(const char *rel, size_t *len)
{
	FILE *f = fopen(unit_path(rel), "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	do {
		if (n + 1 >= cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 8192);

			CU_ASSERT_PTR_NOT_NULL_FATAL(b);
			buf = b;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int unit_run(const char *program, CU_SuiteInfo *suites)
{
	unsigned int total, ran, failed, bad_suites, not_run;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "%s: %s\n", program, CU_get_error_msg());
		CU_cleanup_registry();
		return 99;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	total = CU_get_registry()->uiNumberOfTests;
	ran = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	bad_suites = CU_get_number_of_suites_failed();
	not_run = total > ran ? total - ran : 0;
	/* tests/run-tests.sh reads this line; keep its words. */
	printf("\n# unit: %s: %u of %u tests ran, %u failed, %u suites failed to set up or clean up\n",
	       program, ran, total, failed, bad_suites);
	CU_cleanup_registry();
	failed += not_run + bad_suites;
	return failed > 98 ? 98 : (int)failed;
}
