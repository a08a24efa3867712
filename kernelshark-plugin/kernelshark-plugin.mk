# SPDX-License-Identifier: GPL-2.0-only
# KernelShark data-readout plugin (plugin-fxt.so).  Its sample producer
# is in samples.mk, its tests' and benchmark's rules in tests.mk.

EXTRA_CFLAGS_kernelshark-plugin = $(KS_CFLAGS) $(FXT_TEP_CFLAGS)

KS_PLUGIN	:= kernelshark-plugin/plugin-fxt.so
# Its sources apart from the libkshark entry points (plugin-fxt.c): the
# KernelShark fuzzer builds them without libkshark.
KS_LOAD_SRCS	:= $(addprefix kernelshark-plugin/, fxt-ks-load.c \
		     fxt-ks-event.c fxt-ks-reread.c fxt-ks-table.c fxt-ks-info.c)
KS_PLUGIN_OBJS	:= kernelshark-plugin/plugin-fxt.o $(KS_LOAD_SRCS:.c=.o)
# A converted file's info and latency columns are printed by the code
# that prints `trace-fxt report`: libfxt-tep.a's report_tep.

# KernelShark 2.x finds no plugin by itself; this is where `make install`
# puts it and where the README's `kernelshark -p` points.
KS_PLUGIN_DIR	?= $(LIBDIR)/kernelshark/plugins

# Only the kshark_input_* entry points are exported (plugin-fxt.h); the
# core and everything else stay hidden.
$(KS_PLUGIN): $(KS_PLUGIN_OBJS) $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -o $@ $(KS_PLUGIN_OBJS) \
		$(FXT_TEP_LIB) $(CORE_LIB) $(CORE_LIBS) $(KS_LIBS) -lm

ALL_TARGETS	+= $(KS_PLUGIN)
CLEAN_FILES	+= $(KS_PLUGIN) kernelshark-plugin/sample.fxt

.PHONY: install-kshark
install: install-kshark
install-kshark: $(KS_PLUGIN)
	install -d $(DESTDIR)$(KS_PLUGIN_DIR)
	install -m 0644 $(KS_PLUGIN) $(DESTDIR)$(KS_PLUGIN_DIR)/
