// SPDX-License-Identifier: GPL-2.0-only
/*
 * ks-draw.cpp - a stream's task plot drawn headless for the tests
 * (ks-draw.h says what).  The graph's geometry is KernelShark's own
 * (KsPlot::Graph: bin i at x = i plus its offset); its height and base
 * are any fixed numbers, the same for both sides of a comparison.
 */
#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

#include "libkshark.h"
#include "libkshark-model.h"
#include "libkshark-plugin.h"
#include "KsPlugins.hpp"

#include "ks-draw.h"

#define GRAPH_HEIGHT	30
#define GRAPH_BASE	100

struct ks_model {
	kshark_trace_histo	histo;
};

struct ks_model *ks_model_new(struct kshark_entry **rows, size_t n,
			      int64_t min, int64_t max, int bins)
{
	ks_model *m = new (std::nothrow) ks_model;

	if (!m)
		return nullptr;
	ksmodel_init(&m->histo);
	ksmodel_set_bining(&m->histo, bins, min, max);
	ksmodel_fill(&m->histo, rows, n);
	return m;
}

void ks_model_free(struct ks_model *m)
{
	if (!m)
		return;
	ksmodel_clear(&m->histo);
	delete m;
}

static bool box_less(const ks_box &a, const ks_box &b)
{
	if (a.x0 != b.x0)
		return a.x0 < b.x0;
	if (a.x1 != b.x1)
		return a.x1 < b.x1;
	if (a.rgb != b.rgb)
		return a.rgb < b.rgb;
	if (a.ts_a != b.ts_a)
		return a.ts_a < b.ts_a;
	return a.ts_b < b.ts_b;
}

int ks_model_task_boxes(struct ks_model *m, int sd, int pid,
			struct ks_box **boxes, int *others)
{
	kshark_context *ctx = nullptr;
	kshark_data_stream *stream;
	kshark_draw_handler *h;
	std::vector<ks_box> got;
	KsPlot::PlotObjList shapes;
	KsCppArgV argv;

	*boxes = nullptr;
	*others = 0;
	if (!kshark_instance(&ctx))
		return -1;
	stream = kshark_get_data_stream(ctx, sd);
	if (!stream)
		return 0;

	KsPlot::Graph graph(&m->histo, nullptr, nullptr);

	graph.setHeight(GRAPH_HEIGHT);
	graph.setBase(GRAPH_BASE);
	argv._histo = &m->histo;
	argv._graph = &graph;
	argv._shapes = &shapes;
	for (h = stream->draw_handlers; h; h = h->next)
		h->draw_func(argv.toC(), sd, pid, KSHARK_TASK_DRAW);

	for (KsPlot::PlotObject *s: shapes) {
		LatencyBox *b = dynamic_cast<LatencyBox *>(s);

		if (!b || b->_data.size() < 2) {
			(*others)++;
		} else {
			got.push_back({
				(uint32_t)(b->_color.r() << 16 |
					   b->_color.g() << 8 |
					   b->_color.b()),
				b->pointX(0), b->pointY(0),
				b->pointX(2), b->pointY(2),
				b->_data[0]->entry->ts,
				b->_data[1]->entry->ts,
			});
		}
		delete s;
	}
	std::sort(got.begin(), got.end(), box_less);
	if (got.empty())
		return 0;
	*boxes = (ks_box *)malloc(got.size() * sizeof(**boxes));
	if (!*boxes)
		return -1;
	std::copy(got.begin(), got.end(), *boxes);
	return (int)got.size();
}
