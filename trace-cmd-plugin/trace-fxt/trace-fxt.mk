# SPDX-License-Identifier: GPL-2.0-only
# trace-fxt, the command: trace-fxt.c dispatches to one cmd-*.c per
# subcommand; out-file.c is how every output is written.  It hosts the
# input plugin (found at run time, never linked) and links the .dat check
# (libdatcheck.a), libfxt-tep.a and the core.

EXTRA_CFLAGS_trace-cmd-plugin/trace-fxt = $(JSON_CFLAGS) $(TC_CFLAGS) \
		   $(FXT_TEP_CFLAGS) $(DATCHECK_CFLAGS) \
		   -DTRACE_FXT_PLUGIN_DIR='"$(TRACECMD_PLUGIN_INSTALL_DIR)"'

TRACE_FXT	:= trace-cmd-plugin/trace-fxt/trace-fxt
TRACE_FXT_SRCS	:= $(wildcard trace-cmd-plugin/trace-fxt/*.c)
TRACE_FXT_OBJS	:= $(TRACE_FXT_SRCS:.c=.o)

$(TRACE_FXT): $(TRACE_FXT_OBJS) $(DATCHECK_LIB) $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(TRACE_FXT_OBJS) $(DATCHECK_LIB) \
		$(FXT_TEP_LIB) $(CORE_LIB) $(JSON_LIBS) $(TC_LIBS) \
		$(CORE_LIBS) -ldl -lm

ALL_TARGETS	+= $(TRACE_FXT)
CLEAN_FILES	+= $(TRACE_FXT)

.PHONY: install-trace-fxt
install: install-trace-fxt
install-trace-fxt: $(TRACE_FXT)
	install -D -m 755 $(TRACE_FXT) $(DESTDIR)$(BINDIR)/trace-fxt
