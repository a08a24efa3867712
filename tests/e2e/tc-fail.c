// SPDX-License-Identifier: GPL-2.0-only
/*
 * tc-fail.c - a libtracecmd that fails where the test says: preloaded
 * into trace-fxt (LD_PRELOAD) by open-failures.sh, it makes the call that
 * $TC_FAIL names return its failure, so that trace-fxt's paths after a
 * failed open are walked under valgrind:
 *   read_headers  tracecmd_read_headers() fails once it read them all,
 *                 inside tracecmd_open_head(), which then closes the
 *                 handle and its tep_handle (the path that once freed
 *                 the tep under the conversion);
 *   open_head     tracecmd_open_head() returns no handle;
 *   init_data     tracecmd_init_data() fails.
 * Test code only: the products define no name of libtracecmd's.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#define TC_FAIL_EXPORT __attribute__((visibility("default")))

/* Whether $TC_FAIL names @what. */
static int tc_fail(const char *what)
{
	const char *f = getenv("TC_FAIL");

	return f && !strcmp(f, what);
}

int tracecmd_read_headers(struct tracecmd_input *handle, int state);

TC_FAIL_EXPORT int tracecmd_read_headers(struct tracecmd_input *handle,
					 int state)
{
	int (*real)(struct tracecmd_input *, int) =
		(int (*)(struct tracecmd_input *, int))
		dlsym(RTLD_NEXT, "tracecmd_read_headers");

	int ret = real(handle, state);

	/* after the headers were read, as when the last of them is bad */
	return tc_fail("read_headers") ? -1 : ret;
}

TC_FAIL_EXPORT struct tracecmd_input *tracecmd_open_head(const char *file,
							 int flags)
{
	struct tracecmd_input *(*real)(const char *, int) =
		(struct tracecmd_input *(*)(const char *, int))
		dlsym(RTLD_NEXT, "tracecmd_open_head");

	if (tc_fail("open_head"))
		return NULL;
	return real(file, flags);
}

TC_FAIL_EXPORT int tracecmd_init_data(struct tracecmd_input *handle)
{
	int (*real)(struct tracecmd_input *) =
		(int (*)(struct tracecmd_input *))
		dlsym(RTLD_NEXT, "tracecmd_init_data");

	if (tc_fail("init_data"))
		return -1;
	return real(handle);
}
