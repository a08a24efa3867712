/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ks-draw.h - a stream's task plot drawn headless, as KernelShark's
 * graph widget draws it: a model of the entries over a time range, a
 * graph of one pixel per bin, then every draw handler of the stream's
 * plugins (KsGLWidget::_makePluginShapes()).  What the tests read back
 * are the latency boxes the plugins made (sched_events' green and red
 * boxes, plugin-fxt.so's): their colour, corners and the two entries each
 * joins.  C++ inside (KernelShark's plot API), C outside.
 */
#ifndef _KS_DRAW_H
#define _KS_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "libkshark.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ks_box {
	uint32_t	rgb;		/* 0xRRGGBB */
	int		x0, y0, x1, y1;	/* corners */
	int64_t		ts_a, ts_b;	/* the entries it joins */
};

struct ks_model;

/*
 * A model of @rows (@n entries) over [@min, @max] in @bins bins, or NULL;
 * the rows must outlive it.
 */
struct ks_model *ks_model_new(struct kshark_entry **rows, size_t n,
			      int64_t min, int64_t max, int bins);
void ks_model_free(struct ks_model *m);

/*
 * Stream @sd's task plot of @pid drawn over @m: its latency boxes in
 * *@boxes (malloc'ed, sorted), how many returned; shapes of other kinds
 * counted in *@others.  -1 when out of memory.
 */
int ks_model_task_boxes(struct ks_model *m, int sd, int pid,
			struct ks_box **boxes, int *others);

#ifdef __cplusplus
}
#endif

#endif /* _KS_DRAW_H */
