// SPDX-License-Identifier: GPL-2.0-only
/*
 * unit.c - run a program's CUnit suites with the verbose basic runner.
 */
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "unit.h"

const char *unit_path(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("TOP_SRCDIR");

	snprintf(buf, sizeof(buf), "%s/%s", top ? top : ".", rel);
	return buf;
}

int unit_run(const char *program, CU_SuiteInfo *suites)
{
	unsigned int failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "%s: %s\n", program, CU_get_error_msg());
		CU_cleanup_registry();
		return 99;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed > 98 ? 98 : (int)failed;
}
