# SPDX-License-Identifier: GPL-2.0-only
# libdatcheck.a: a trace.dat checked against its own size before
# libtracecmd reads it (datcheck.h), and the records the input plugin's
# thread groups need kept on the way.  One file per part of the check
# (datcheck-intern.h is what they share; README.md lists them).  The
# trace-fxt command links it; it calls libtraceevent (event formats are
# parsed in a child to name the one that crashes the parser) and
# libutil.a (file-map.h: the file mapped), and takes the .dat's constants
# from libdat.a's dat-format.h and the types it hands over (the records
# kept, the pages' layout) from libdat.a's dat-layout.h, headers only: it
# knows nothing of the plugin's ABI.

DATCHECK_SRCS	:= $(wildcard trace-cmd-plugin/dat-check/datcheck-*.c)
DATCHECK_HDRS	:= $(wildcard trace-cmd-plugin/dat-check/*.h)
DATCHECK_OBJS	:= $(DATCHECK_SRCS:%.c=$(O)/%.o)
DATCHECK_LIB	:= $(O)/trace-cmd-plugin/dat-check/libdatcheck.a
DATCHECK_CFLAGS	 = -Itrace-cmd-plugin/dat-check
DATCHECK_LINK	 = $(DATCHECK_LIB) $(UTIL_LINK) $(TEP_LIBS)

EXTRA_CFLAGS_trace-cmd-plugin/dat-check = $(TEP_CFLAGS)

$(DATCHECK_LIB): $(DATCHECK_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(DATCHECK_LIB)
