# SPDX-License-Identifier: GPL-2.0-only
# trace-fxt-input.so, the trace-cmd input plugin: plugin-fxt-input.c (the
# libtracecmd entry points) and map-*.c (the ftrace-to-FXT mapping), with
# libfxt-tep.a and the core libraries it uses linked in; only the
# libtracecmd plugin entry points are exported.

# The plugin's contract with its host (fxt-input.h), for the host.
FXT_INPUT_CFLAGS = -Itrace-cmd-plugin/trace-fxt-input

# The kernel events written as Perfetto's own ftrace events, one row an
# event (map-ftrace.table), as the header their rows and numbers compile
# from: generated into the build folder, never the source tree.  Every
# object of the mapping waits for it; the dependency files tell which
# to rebuild when the table changes.
MAP_TABLE	:= trace-cmd-plugin/trace-fxt-input/map-ftrace.table
MAP_TABLE_AWK	:= trace-cmd-plugin/trace-fxt-input/map-ftrace-table.awk
MAP_TABLE_H	:= $(O)/trace-cmd-plugin/trace-fxt-input/map-ftrace-table.h
MAP_TABLE_CFLAGS = -I$(O)/trace-cmd-plugin/trace-fxt-input
$(MAP_TABLE_H): $(MAP_TABLE) $(MAP_TABLE_AWK)
	@mkdir -p $(@D)
	awk -f $(MAP_TABLE_AWK) $(MAP_TABLE) > $@.tmp && mv $@.tmp $@

EXTRA_CFLAGS_trace-cmd-plugin/trace-fxt-input = $(TC_CFLAGS) -Icommon/fxt-tep \
	$(MAP_TABLE_CFLAGS)

TC_PLUGIN	:= $(O)/trace-cmd-plugin/trace-fxt-input/trace-fxt-input.so
# The mapping, apart from the entry points: the unit tests link it too,
# the .dat fuzzer builds it from source.
MAP_SRCS	:= $(wildcard trace-cmd-plugin/trace-fxt-input/map-*.c)
MAP_OBJS	:= $(MAP_SRCS:%.c=$(O)/%.o)
TC_PLUGIN_OBJS	:= $(O)/trace-cmd-plugin/trace-fxt-input/plugin-fxt-input.o \
		   $(MAP_OBJS)
$(MAP_OBJS): | $(MAP_TABLE_H)

# Where `make install` puts the plugin: $(LIBDIR)/trace-cmd/plugins,
# libtracecmd's per-user directory for the default PREFIX, and the
# directory a libtracecmd built with a system one has for PREFIX=/usr
# (Debian's has none: it looks in $TRACECMD_PLUGIN_DIR and
# ~/.local/lib/trace-cmd/plugins only).  trace-fxt, the plugin's only
# host, looks there itself when libtracecmd found nothing.
TRACECMD_PLUGIN_INSTALL_DIR ?= $(LIBDIR)/trace-cmd/plugins

# The libraries the mapping uses (the unit tests link the same).
MAP_LINK	 = $(FXT_TEP_LINK) $(PERFETTO_LINK) $(TC_LIBS)
$(TC_PLUGIN): $(TC_PLUGIN_OBJS) $(FXT_TEP_LIB) $(FXT_LIB) $(DAT_LIB) \
	      $(EVENTHEADER_LIB) $(PERFETTO_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -o $@ \
		$(TC_PLUGIN_OBJS) $(MAP_LINK) -ldl -lm

ALL_TARGETS	+= $(TC_PLUGIN)

.PHONY: install-trace-fxt-input install-check-trace-fxt-input uninstall-trace-fxt-input
install: install-trace-fxt-input
install-check: install-check-trace-fxt-input
install-check-trace-fxt-input: | $(INSTALL_AFTER)
	$(call need_built,$(TC_PLUGIN))
install-trace-fxt-input: | install-check-trace-fxt-input $(INSTALL_CHECK)
	install -D -m 644 $(TC_PLUGIN) \
		$(DESTDIR)$(TRACECMD_PLUGIN_INSTALL_DIR)/trace-fxt-input.so

uninstall: uninstall-trace-fxt-input
uninstall-trace-fxt-input:
	rm -f $(DESTDIR)$(TRACECMD_PLUGIN_INSTALL_DIR)/trace-fxt-input.so
	$(call rmdir_empty,$(TRACECMD_PLUGIN_INSTALL_DIR))
