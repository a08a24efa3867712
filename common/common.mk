# SPDX-License-Identifier: GPL-2.0-only
# The codec core: a static library, position independent so that the
# plugins can carry it.  Depends on libc only (zstd, ISA-L and zlib where a
# format needs them).

CORE_SRCS	:= $(wildcard common/*.c)
CORE_OBJS	:= $(CORE_SRCS:.c=.o)
CORE_LIB	:= common/libfxt.a
# What a program linking $(CORE_LIB) adds after it: the .dat writer
# compresses with libzstd; FXT streams use libzstd, ISA-L (writing gzip)
# and zlib (reading it).
CORE_LIBS	:= -lzstd -lisal -lz

$(CORE_LIB): $(CORE_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(CORE_LIB)
CLEAN_FILES	+= $(CORE_LIB)
