// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-plugin-fxt - plugins/plugin_fxt.so called the way libtraceevent
 * calls it: dlopen()ed, its loader and unloader looked up by name and
 * called through libtraceevent's own function types.  (What it prints is
 * tests/e2e/plugin-fxt-report.sh's business: that needs a .dat.)
 */
#include <dlfcn.h>
#include <stdio.h>

#include <event-parse.h>

#include "unit.h"

static void *handle;
static tep_plugin_load_func loader;
static tep_plugin_unload_func unloader;

static int suite_init(void)
{
	handle = dlopen(unit_build_path("plugins/plugin_fxt.so"),
			RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	loader = (tep_plugin_load_func)dlsym(handle, TEP_PLUGIN_LOADER_NAME);
	unloader = (tep_plugin_unload_func)dlsym(handle,
						 TEP_PLUGIN_UNLOADER_NAME);
	return loader && unloader ? 0 : -1;
}

static int suite_clean(void)
{
	return handle ? dlclose(handle) : 0;
}

/*
 * libtraceevent reads the unloader's return value: it must be a real
 * one, also when there is nothing to unregister.
 */
static void test_unload_returns_zero(void)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_FATAL(tep != NULL);
	CU_ASSERT_EQUAL(unloader(tep), 0);
	CU_ASSERT_EQUAL(loader(tep), 0);
	CU_ASSERT_EQUAL(unloader(tep), 0);
	CU_ASSERT_EQUAL(unloader(tep), 0);
	tep_free(tep);
}

/* Replacing its own handlers (a second load) is no failure. */
static void test_load_twice(void)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_FATAL(tep != NULL);
	CU_ASSERT_EQUAL(loader(tep), 0);
	CU_ASSERT_EQUAL(loader(tep), 0);
	CU_ASSERT_EQUAL(unloader(tep), 0);
	tep_free(tep);
}

static CU_TestInfo plugin_tests[] = {
	{ "unloader returns 0, loaded or not", test_unload_returns_zero },
	{ "loading twice succeeds", test_load_twice },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "plugin_fxt.so entry points", suite_init, suite_clean, NULL, NULL,
	  plugin_tests },
	CU_SUITE_INFO_NULL,
};

UNIT_MAIN(suites)
