# SPDX-License-Identifier: GPL-2.0-only
# KernelShark data-readout plugin (plugin-fxt.so), the sample producer its
# tests and benchmark use, and the rules of its tests (they link libkshark,
# which the generic unit-test rule does not).

EXTRA_CFLAGS_kernelshark-plugin = $(KS_CFLAGS) -Itrace-cmd-plugin

KS_PLUGIN	:= kernelshark-plugin/plugin-fxt.so
KS_PLUGIN_OBJS	:= $(addprefix kernelshark-plugin/, \
		     plugin-fxt.o fxt-ks-load.o fxt-ks-event.o \
		     fxt-ks-table.o fxt-ks-info.o)
# A converted file's info and latency columns are printed by the code
# that prints `trace-fxt report`: report-tep.c and the fxt2dat rebuilding
# it drives, linked in from trace-cmd-plugin/.
KS_PLUGIN_OBJS	+= trace-cmd-plugin/report-tep.o \
		   $(patsubst %.c,%.o,$(wildcard trace-cmd-plugin/fxt2dat-*.c))
KS_SAMPLE	:= kernelshark-plugin/fxt-ks-sample
KS_SAMPLE_OBJS	:= kernelshark-plugin/fxt-ks-sample.o
# KernelShark 2.x finds no plugin by itself; this is where `make install`
# puts it and where the README's `kernelshark -p` points.
KS_PLUGIN_DIR	?= $(LIBDIR)/kernelshark/plugins

# Only the kshark_input_* entry points are exported (plugin-fxt.h); the
# core and everything else stay hidden.
$(KS_PLUGIN): $(KS_PLUGIN_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -o $@ $(KS_PLUGIN_OBJS) \
		$(CORE_LIB) $(KS_LIBS) $(CORE_LIBS) -lm

$(KS_SAMPLE): $(KS_SAMPLE_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

# Unit tests that drive the real libkshark with the built plugin.
tests/unit/test-kshark-%.o: tests/unit/test-kshark-%.c
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -MMD -MP -c -o $@ $<

tests/unit/test-kshark-%: tests/unit/test-kshark-%.o tests/unit/unit.o \
			  $(CORE_LIB) $(KS_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(CORE_LIB) \
		-lcunit $(KS_LIBS) -ldl -lm

# The benchmark's loader times kshark_open + kshark_load_entries; it
# needs libkshark, so it has its own rule (the shorter stem wins).
KS_BENCH	:= tests/bench/bench-kshark-load
tests/bench/bench-kshark-%: tests/bench/bench-kshark-%.c $(KS_PLUGIN)
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -o $@ $< $(KS_LIBS)

ALL_TARGETS	+= $(KS_PLUGIN) $(KS_SAMPLE) $(KS_BENCH)
CLEAN_FILES	+= $(KS_PLUGIN) $(KS_SAMPLE) $(KS_BENCH) \
		   kernelshark-plugin/sample.fxt

.PHONY: install-kshark
install: install-kshark
install-kshark: $(KS_PLUGIN)
	install -d $(DESTDIR)$(KS_PLUGIN_DIR)
	install -m 0644 $(KS_PLUGIN) $(DESTDIR)$(KS_PLUGIN_DIR)/
