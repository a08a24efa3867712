# SPDX-License-Identifier: GPL-2.0-only
# libdat.a: the trace.dat v7 writer (dat-writer.h; dat-meta.h for the
# metadata sections the input plugin copies, dat-format.h for the file's
# constants, dat-layout.h for what the .dat check hands the input plugin,
# headers only).  Uses libutil.a (fd-io.h, anon-file.h for its spool,
# file-map.h for the metadata reader) and libzstd; knows nothing of FXT.

DAT_SRCS	:= $(wildcard common/dat/*.c)
DAT_OBJS	:= $(DAT_SRCS:%.c=$(O)/%.o)
DAT_LIB		:= $(O)/common/dat/libdat.a
DAT_LINK	 = $(DAT_LIB) $(UTIL_LINK) -lzstd

$(DAT_LIB): $(DAT_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(DAT_LIB)
