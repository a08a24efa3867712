# SPDX-License-Identifier: GPL-2.0-only
# The trace-fxt command and the trace-cmd input plugin it hosts.
#
#  - trace-fxt: trace-fxt.c, every cmd-*.c (one subcommand each),
#    report-*.c (report's libtraceevent printing), fxt2dat-*.c
#    (FXT -> .dat through the core's .dat writer), out-*.c (how outputs
#    are written) and datcheck-*.c (a .dat checked before libtracecmd);
#  - trace-fxt-input.so: plugin-*.c and map-*.c (the ftrace-to-FXT
#    mapping), the core linked in, only the libtracecmd plugin entry
#    points exported.

EXTRA_CFLAGS_trace-cmd-plugin = $(JSON_CFLAGS) \
		   $(TC_CFLAGS) -Iplugins \
		   -DTRACE_FXT_PLUGIN_DIR='"$(TRACECMD_PLUGIN_INSTALL_DIR)"'

# Where `make install` puts the plugin: libtracecmd's per-user directory
# by default; trace-fxt also looks there when libtracecmd found nothing.
TRACECMD_PLUGIN_INSTALL_DIR ?= $(LIBDIR)/trace-cmd/plugins

TRACE_FXT	:= trace-cmd-plugin/trace-fxt
TRACE_FXT_SRCS	:= trace-cmd-plugin/trace-fxt.c \
		   $(wildcard trace-cmd-plugin/cmd-*.c) \
		   $(wildcard trace-cmd-plugin/report-*.c) \
		   $(wildcard trace-cmd-plugin/fxt2dat-*.c) \
		   $(wildcard trace-cmd-plugin/out-*.c) \
		   $(wildcard trace-cmd-plugin/datcheck-*.c)
TRACE_FXT_OBJS	:= $(TRACE_FXT_SRCS:.c=.o)

TC_PLUGIN	:= trace-cmd-plugin/trace-fxt-input.so
# plugins/eh-tep.c: EventHeader user_events are recognised exactly as
# plugin_eventheader.so recognises them.
TC_PLUGIN_SRCS	:= $(wildcard trace-cmd-plugin/plugin-*.c) \
		   $(wildcard trace-cmd-plugin/map-*.c)
TC_PLUGIN_OBJS	:= $(TC_PLUGIN_SRCS:.c=.o) plugins/eh-tep.o

$(TRACE_FXT): $(TRACE_FXT_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(JSON_LIBS) \
		$(TC_LIBS) $(CORE_LIBS) -ldl -lm

$(TC_PLUGIN): $(TC_PLUGIN_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -o $@ $(TC_PLUGIN_OBJS) \
		$(CORE_LIB) $(CORE_LIBS) $(TC_LIBS) -ldl -lm

ALL_TARGETS	+= $(TRACE_FXT) $(TC_PLUGIN)
CLEAN_FILES	+= $(TRACE_FXT) $(TC_PLUGIN)

.PHONY: install-trace-fxt
install: install-trace-fxt
install-trace-fxt: $(TRACE_FXT) $(TC_PLUGIN)
	install -D -m 755 $(TRACE_FXT) $(DESTDIR)$(BINDIR)/trace-fxt
	install -D -m 644 $(TC_PLUGIN) \
		$(DESTDIR)$(TRACECMD_PLUGIN_INSTALL_DIR)/trace-fxt-input.so
