/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * perfetto-dev.h - a kernel dev_t as Perfetto's recorder writes it.
 *
 * The kernel keeps a device number as MKDEV(major, minor), the major
 * above bit 20; userspace's makedev() (glibc's layout, what stat()
 * returns) splits both numbers around each other.  Perfetto's ftrace
 * reader translates every field the kernel declares "dev_t" of 4 or 8
 * bytes into makedev()'s layout, in typed and generic events alike
 * (src/traced/probes/ftrace: proto_translation_table.cc's
 * InferFtraceType, kFtraceDevId32/64; cpu_reader.h's
 * TranslateBlockDeviceIDToUserspace), so the trace processor shows
 * 65024 for 254,0.  The mapping writes dev_t fields so
 * (map-ftrace.c), the way back turns them into the kernel's again
 * (pft2dat-record.c).
 */
#ifndef _PERFETTO_DEV_H
#define _PERFETTO_DEV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/**
 * pft_dev_field() - whether Perfetto's recorder translates a field
 * @type: the field's type as the kernel's format declares it
 *	  (libtraceevent's tep_format_field.type)
 * @size: its size in bytes
 *
 * Return: true for a dev_t of 4 or 8 bytes.
 */
static inline bool pft_dev_field(const char *type, int size)
{
	return type && !strcmp(type, "dev_t") && (size == 4 || size == 8);
}

/**
 * pft_dev_user() - a kernel device number in makedev()'s layout
 * @kdev: MKDEV(major, minor): the major above bit 20
 *
 * Return: the number as Perfetto's recorder writes it.
 */
static inline uint64_t pft_dev_user(uint64_t kdev)
{
	uint64_t maj = kdev >> 20, min = kdev & 0xfffff;

	return (maj & 0xfffff000ULL) << 32 | (maj & 0xfff) << 8 |
	       (min & 0xffffff00ULL) << 12 | (min & 0xff);
}

/**
 * pft_dev_kernel() - a device number of makedev()'s layout as the
 * kernel's
 * @udev: the number as Perfetto's recorder wrote it
 *
 * Return: MKDEV(major, minor), in 32 bits as the kernel's dev_t.
 */
static inline uint64_t pft_dev_kernel(uint64_t udev)
{
	uint64_t maj = ((udev >> 8) & 0xfff) | ((udev >> 32) & ~0xfffULL);
	uint64_t min = (udev & 0xff) | ((udev >> 12) & ~0xffULL);

	return (maj << 20 | (min & 0xfffff)) & 0xffffffff;
}

#endif /* _PERFETTO_DEV_H */
