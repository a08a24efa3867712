# SPDX-License-Identifier: GPL-2.0-only
# Small sample producers used by the README's demo and the tests.

SAMPLE_GEN	:= samples/fxt-sample
$(SAMPLE_GEN): samples/fxt-sample.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^

ALL_TARGETS	+= $(SAMPLE_GEN)
CLEAN_FILES	+= $(SAMPLE_GEN) samples/*.fxt

# The README's first command: the main job on a bundled sample - a real
# recording (sched, irq, timer events and atrace-style trace_marker
# writes) converted to FXT, checked, and shown as trace-cmd would.
DEMO_DAT	:= samples/atrace-markers.dat
DEMO_FXT	:= samples/atrace-markers.fxt
demo: all
	@echo "== trace-fxt convert $(DEMO_DAT) -o $(DEMO_FXT)"
	@$(TRACE_FXT) convert $(DEMO_DAT) -o $(DEMO_FXT)
	@echo "== trace-fxt check $(DEMO_FXT)"
	@$(TRACE_FXT) check $(DEMO_FXT)
	@echo "== trace-fxt report --raw $(DEMO_FXT) (first 12 lines)"
	@$(TRACE_FXT) report --raw $(DEMO_FXT) | head -12
	@echo "== trace-fxt dump $(DEMO_FXT) (records 20 to 32)"
	@$(TRACE_FXT) dump $(DEMO_FXT) | sed -n 20,32p
	@echo "== open $(DEMO_FXT) in Perfetto (ui.perfetto.dev) or with:"
	@echo "   kernelshark -p $(KS_PLUGIN) $(DEMO_FXT)"
