# SPDX-License-Identifier: GPL-2.0-only
# libfxt-tep.a: an FXT seen through libtraceevent (fxt-tep.h), the layer
# that the trace-fxt command, the KernelShark plugin, the trace-cmd input
# plugin and plugin_eventheader.so share.  Uses libfxt.a (reading FXT),
# libdat.a (writing the .dat), libeventheader.a (recognising EventHeader
# events), libutil.a and libtraceevent; position independent, as the
# core, so that the plugins can carry it.

FXT_TEP_SRCS	:= $(wildcard common/fxt-tep/*.c)
FXT_TEP_OBJS	:= $(FXT_TEP_SRCS:%.c=$(O)/%.o)
FXT_TEP_LIB	:= $(O)/common/fxt-tep/libfxt-tep.a
FXT_TEP_LINK	 = $(FXT_TEP_LIB) $(FXT_LINK) $(DAT_LINK) $(EVENTHEADER_LINK) \
		   $(UTIL_LINK) $(TEP_LIBS)
# What a file using fxt-tep.h compiles with.
FXT_TEP_CFLAGS	 = -Icommon/fxt-tep $(TEP_CFLAGS)

EXTRA_CFLAGS_common/fxt-tep = $(TEP_CFLAGS)

$(FXT_TEP_LIB): $(FXT_TEP_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(FXT_TEP_LIB)
