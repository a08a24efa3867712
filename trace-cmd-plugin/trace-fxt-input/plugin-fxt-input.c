// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin-fxt-input.c - trace-fxt-input.so, a libtracecmd plugin
 * (TRACECMD_INPUT context) that converts the handle it is given to FXT.
 *
 * libtracecmd calls the loader of every plugin it finds with the same
 * context, so the loader only acts on a handle that carries a trace-fxt
 * request (see fxt-input.h) and only once per request: a second copy
 * found in another plugin directory leaves the request to the first.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fxt-input.h"
#include "map-convert.h"

#define FXT_EXPORT __attribute__((visibility("default")))

FXT_EXPORT const char tracecmd_plugin_alias[] = "fxt-input";

FXT_EXPORT int tracecmd_plugin_loader(struct trace_plugin_context *ctx);
FXT_EXPORT int tracecmd_plugin_unloader(struct trace_plugin_context *ctx);

static void plugin_name_self(char *buf, size_t len)
{
	char path[PATH_MAX];
	Dl_info info;

	/* libtracecmd's paths can hold "//": say the canonical one */
	if (dladdr((void *)plugin_name_self, &info) && info.dli_fname)
		snprintf(buf, len, "%s", realpath(info.dli_fname, path) ?
			 path : info.dli_fname);
	else
		snprintf(buf, len, "%s", FXT_INPUT_PLUGIN_NAME);
}

FXT_EXPORT int tracecmd_plugin_loader(struct trace_plugin_context *ctx)
{
	struct tracecmd_input *handle = tracecmd_plugin_context_input(ctx);
	struct fxt_input_req *req;

	if (!handle)
		return 0;
	req = tracecmd_get_private(handle);
	if (!req || req->magic != FXT_INPUT_MAGIC)
		return 0;
	if (req->res.done)
		return 0;
	req->res.done = true;
	plugin_name_self(req->res.plugin, sizeof(req->res.plugin));
	if (req->abi != FXT_INPUT_ABI) {
		req->res.status = -EPROTO;
		snprintf(req->res.error, sizeof(req->res.error),
			 "plugin speaks ABI %d, host %u", FXT_INPUT_ABI,
			 req->abi);
		return 0;
	}
	req->res.status = map_convert(handle, req->out_fd, &req->opts,
				      &req->tgid_recs, &req->pages,
				      &req->res);
	return 0;
}

FXT_EXPORT int tracecmd_plugin_unloader(struct trace_plugin_context *ctx)
{
	return 0;
}
