# SPDX-License-Identifier: GPL-2.0-only
# KernelShark data-readout and plot plugin (plugin-fxt.so).  Its sample
# producer is in samples.mk, its tests' and benchmark's rules in tests.mk.

EXTRA_CFLAGS_kernelshark-plugin = $(KS_CFLAGS) $(FXT_TEP_CFLAGS) $(PFT2DAT_CFLAGS)

KS_PLUGIN	:= $(O)/kernelshark-plugin/plugin-fxt.so
# Its sources apart from the libkshark entry points (plugin-fxt.c) and the
# plot part: the KernelShark fuzzer builds them without libkshark.
KS_LOAD_SRCS	:= $(addprefix kernelshark-plugin/, fxt-ks-load.c \
		     fxt-ks-event.c fxt-ks-reread.c fxt-ks-table.c fxt-ks-info.c \
		     fxt-ks-pft.c)
# The plot part: KernelShark's drawing API is C++ (KsPlugins.hpp), and
# libkshark-plot holds it.
KS_PLOT_OBJS	:= $(O)/kernelshark-plugin/fxt-ks-sched.o \
		   $(O)/kernelshark-plugin/fxt-ks-sched-draw.o
KS_PLOT_LIBS	:= -lkshark-plot
KS_PLUGIN_OBJS	:= $(O)/kernelshark-plugin/plugin-fxt.o \
		   $(KS_LOAD_SRCS:%.c=$(O)/%.o) \
		   $(KS_PLOT_OBJS)
# A converted file's info and latency columns are printed by the code
# that prints `trace-fxt report`: libfxt-tep.a's report_tep.  A Perfetto
# trace is read by libpft2dat.a, as `trace-fxt convert` reads it.

# make's own CXX (g++, build-essential's).
KS_CXXFLAGS	 = -std=gnu++17 -fPIC -fvisibility=hidden -Wall -Wextra \
		   -Wno-unused-parameter -Wshadow -D_GNU_SOURCE $(CORE_CFLAGS) \
		   $(CPPFLAGS) $(CXXFLAGS) $(KS_CFLAGS)
$(O)/kernelshark-plugin/%.o: kernelshark-plugin/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(KS_CXXFLAGS) -MMD -MP -c -o $@ $<

# Where `make install` puts it: $(LIBDIR)/kernelshark/plugins, which for
# PREFIX=/usr (LIBDIR /usr/lib/<multiarch>) is KernelShark's own plugin
# folder.  KernelShark 2.2 loads only its own list of plugins from there
# by itself; this one it loads when told, `kernelshark -p PATH` (or, from
# its own folder, `-p fxt`): trace-fxt open --kernelshark and the desktop
# entry (desktop/) tell it.
KS_PLUGIN_DIR	?= $(LIBDIR)/kernelshark/plugins

# Only KernelShark's entry points are exported (plugin-fxt.h); the core
# and everything else stay hidden.  Linked as C++ for the plot part.
# KernelShark dlopen()s every plugin RTLD_GLOBAL and its own export the
# same entry point names: -Bsymbolic binds the plugin's uses of its own
# (kshark_input_initializer() failing calls its deinitializer, the plot
# part finds itself in a stream's list by its initializer) to its own.
# Relinked when this file (its flags) changes.
$(KS_PLUGIN): $(KS_PLUGIN_OBJS) $(PFT2DAT_LIB) $(FXT_TEP_LIB) $(FXT_LIB) \
	      $(DAT_LIB) $(EVENTHEADER_LIB) $(UTIL_LIB) $(PERFETTO_LIB) \
	      kernelshark-plugin/kernelshark-plugin.mk
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -Wl,-Bsymbolic \
		-o $@ $(KS_PLUGIN_OBJS) \
		$(PFT2DAT_LINK) $(KS_PLOT_LIBS) $(KS_LIBS) -lm

ALL_TARGETS	+= $(KS_PLUGIN)

.PHONY: install-kshark install-check-kshark uninstall-kshark
install: install-kshark
install-check: install-check-kshark
install-check-kshark: | $(INSTALL_AFTER)
	$(call need_built,$(KS_PLUGIN))
install-kshark: | install-check-kshark $(INSTALL_CHECK)
	install -d $(DESTDIR)$(KS_PLUGIN_DIR)
	install -m 0644 $(KS_PLUGIN) $(DESTDIR)$(KS_PLUGIN_DIR)/

uninstall: uninstall-kshark
uninstall-kshark:
	rm -f $(DESTDIR)$(KS_PLUGIN_DIR)/$(notdir $(KS_PLUGIN))
	$(call rmdir_empty,$(KS_PLUGIN_DIR))
