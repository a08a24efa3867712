// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-ks-sched-draw.cpp - the boxes plugin-fxt.so draws on the task plots
 * of an FXT stream, as KernelShark's sched_events draws them on a trace.dat
 * stream's: green from a task's wakeup to its switch in (wakeup latency),
 * red from its switch out while still running (preempted) to its switch
 * back in.  A double click on a box puts marker B on its end and marker A
 * on its start.
 *
 * C++ because KernelShark hands draw handlers C++ objects (the graph's
 * geometry and the list of shapes, KsPlugins.hpp); the boxes are made by
 * KernelShark's own eventFieldIntervalPlot() and makeLatencyBox() from the
 * containers fxt-ks-sched.c fills.
 */
#include "libkshark.h"
#include "libkshark-plugin.h"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"

#include "fxt-ks-sched.h"

/*
 * Marking entries is libkshark-gui's (KsPluginsGUI.hpp), there when the
 * plugin is loaded by the kernelshark program: weak, so that programs that
 * load plugin-fxt.so through libkshark alone need no Qt.
 */
void markEntryA(void *ks_ptr, const kshark_entry *e) __attribute__((weak));
void markEntryB(void *ks_ptr, const kshark_entry *e) __attribute__((weak));

/* KernelShark's main window, given to the menu initializer. */
static void *gui_ptr;

void fxt_ks_sched_set_gui(void *gui)
{
	gui_ptr = gui;
}

namespace {

class FxtSchedBox : public LatencyBox {
	void _doubleClick() const override
	{
		if (!gui_ptr || !markEntryA || !markEntryB || _data.size() < 2)
			return;
		markEntryB(gui_ptr, _data[1]->entry);
		markEntryA(gui_ptr, _data[0]->entry);
	}
};

} /* namespace */

void fxt_ks_sched_draw(kshark_cpp_argv *argv_c, int sd, int pid,
		       int draw_action)
{
	struct fxt_ks_sched *s;

	if (!(draw_action & KSHARK_TASK_DRAW) || pid == 0)
		return;
	s = fxt_ks_sched_get(sd);
	if (!s)
		return;
	fxt_ks_sched_second_pass(s);

	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	IsApplicableFunc woken = [pid] (kshark_data_container *c, ssize_t i) {
		return c->data[i]->field == pid;
	};
	IsApplicableFunc preempted = [pid] (kshark_data_container *c,
					    ssize_t i) {
		int64_t f = c->data[i]->field;

		return fxt_ks_sched_preempted(f) &&
		       fxt_ks_sched_prev_pid(f) == pid;
	};
	IsApplicableFunc switched_in = [pid] (kshark_data_container *c,
					      ssize_t i) {
		return c->data[i]->entry->pid == pid;
	};

	eventFieldIntervalPlot(argv, s->wakeups, woken, s->switches,
			       switched_in, makeLatencyBox<FxtSchedBox>,
			       {0, 255, 0}, -1);
	eventFieldIntervalPlot(argv, s->switches, preempted, s->switches,
			       switched_in, makeLatencyBox<FxtSchedBox>,
			       {255, 0, 0}, -1);
}
