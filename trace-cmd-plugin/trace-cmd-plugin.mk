# SPDX-License-Identifier: GPL-2.0-only
# The trace-fxt command (and, later, the trace-cmd input plugin it hosts).

TRACE_FXT	:= trace-cmd-plugin/trace-fxt
# The command's own sources; the plugin's sources are listed separately.
TRACE_FXT_SRCS	:= trace-cmd-plugin/trace-fxt.c trace-cmd-plugin/cmd-dump.c \
		   trace-cmd-plugin/cmd-check.c
TRACE_FXT_OBJS	:= $(TRACE_FXT_SRCS:.c=.o)
EXTRA_CFLAGS_trace-cmd-plugin = $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)

$(TRACE_FXT): $(TRACE_FXT_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs json-c)

ALL_TARGETS	+= $(TRACE_FXT)
CLEAN_FILES	+= $(TRACE_FXT)
