/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plugin-fxt.h - the entry points KernelShark looks up (dlsym) in a plugin:
 * a data readout plugin's, a plot plugin's and the menu hook (one .so can
 * be all three: kshark_register_plugin()); everything else in
 * plugin-fxt.so is hidden.
 */
#ifndef _PLUGIN_FXT_H
#define _PLUGIN_FXT_H

#include <stdbool.h>

#include "libkshark.h"

#define PLUGIN_FXT_EXPORT	__attribute__((visibility("default")))

/* KernelShark's name for the data format of FXT streams. */
#define PLUGIN_FXT_FORMAT	"fxt"

PLUGIN_FXT_EXPORT const char *kshark_input_format(void);
/* libkshark 2.x passes the file only; @format is never touched. */
PLUGIN_FXT_EXPORT bool kshark_input_check(const char *file, char **format);
PLUGIN_FXT_EXPORT int kshark_input_initializer(struct kshark_data_stream *s);
PLUGIN_FXT_EXPORT int kshark_input_deinitializer(struct kshark_data_stream *s);

/*
 * The plot part, per stream: > 0 when on (or off by its own choice), 0
 * when it cannot be on (a stream not of this plugin's).
 */
PLUGIN_FXT_EXPORT int kshark_data_plugin_initializer(struct kshark_data_stream *s);
PLUGIN_FXT_EXPORT int kshark_data_plugin_deinitializer(struct kshark_data_stream *s);
/* Called once with KernelShark's main window (for the double click). */
PLUGIN_FXT_EXPORT void *kshark_plugin_menu_initializer(void *gui);

#endif /* _PLUGIN_FXT_H */
