# SPDX-License-Identifier: GPL-2.0-only
# libfxt.a: the FXT codec - the writer (fxt-writer.h, its string table
# fxt-strtab.[ch] below it), the reader (fxt-reader.h), typed arguments,
# printing, compressed streams (fxt-zio.h), the thread table readers
# share (fxt-threads.h) and the trace-cmd-in-FXT vocabulary (tcfxt.h).
# Uses libutil.a (fd-io.h), libzstd and ISA-L (gzip, both ways).
# Position independent, as every library of the core, so that the
# plugins can carry it.

FXT_SRCS	:= $(wildcard common/fxt/*.c)
FXT_OBJS	:= $(FXT_SRCS:%.c=$(O)/%.o)
FXT_LIB		:= $(O)/common/fxt/libfxt.a
FXT_LINK	 = $(FXT_LIB) $(UTIL_LINK) -lzstd -lisal

$(FXT_LIB): $(FXT_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(FXT_LIB)
