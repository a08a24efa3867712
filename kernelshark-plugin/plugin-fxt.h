/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plugin-fxt.h - the entry points KernelShark looks up (dlsym) in a data
 * readout plugin; everything else in plugin-fxt.so is hidden.
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

#endif /* _PLUGIN_FXT_H */
