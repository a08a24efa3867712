# SPDX-License-Identifier: GPL-2.0-only
# libfxt-tep.a: an FXT seen through libtraceevent (fxt-tep.h), the layer
# that the trace-fxt command, the KernelShark plugin, the trace-cmd input
# plugin and plugin_eventheader.so share.  Depends on the codec core and
# libtraceevent only; position independent, as the core, so that the
# plugins can carry it.

FXT_TEP_SRCS	:= $(wildcard common/fxt-tep/*.c)
FXT_TEP_OBJS	:= $(FXT_TEP_SRCS:.c=.o)
FXT_TEP_LIB	:= common/fxt-tep/libfxt-tep.a
# What a program linking $(FXT_TEP_LIB) adds after it (then the core).
FXT_TEP_LIBS	 = $(TEP_LIBS)
# What a file using fxt-tep.h compiles with.
FXT_TEP_CFLAGS	 = -Icommon/fxt-tep $(TEP_CFLAGS)

EXTRA_CFLAGS_common/fxt-tep = $(TEP_CFLAGS)

$(FXT_TEP_LIB): $(FXT_TEP_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(FXT_TEP_LIB)
CLEAN_FILES	+= $(FXT_TEP_LIB)
