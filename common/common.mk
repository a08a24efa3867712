# SPDX-License-Identifier: GPL-2.0-only
# The codec core: one folder and one archive per library, lowest first
# (a library uses only those above it in this list), then libfxt-tep.a,
# the tier that sees FXT through libtraceevent.  Every folder's headers
# are on the include path (CORE_CFLAGS); what a program links it names
# by each library's *_LINK.

CORE_DIRS	:= util fxt dat eventheader perfetto
CORE_CFLAGS	:= $(addprefix -Icommon/,$(CORE_DIRS))
include $(foreach d,$(CORE_DIRS),common/$(d)/$(d).mk)
# Every source of the core libraries (the fuzzers build them from source).
CORE_SRCS	:= $(UTIL_SRCS) $(FXT_SRCS) $(DAT_SRCS) $(EVENTHEADER_SRCS) \
		   $(PERFETTO_SRCS)
# All of them, for what links the whole core (the unit tests): the
# archives, the link line, and the system libraries a build of the core
# from source needs (the fuzzers).
CORE_ARCHIVES	:= $(UTIL_LIB) $(FXT_LIB) $(DAT_LIB) $(EVENTHEADER_LIB) \
		   $(PERFETTO_LIB)
CORE_LINK	 = $(FXT_LINK) $(DAT_LINK) $(EVENTHEADER_LINK) $(PERFETTO_LINK)
CORE_SYS_LIBS	:= -lzstd -lisal
