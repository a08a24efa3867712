# SPDX-License-Identifier: GPL-2.0-only
# libeventheader.a: EventHeader user_events - the decoder (eventheader.h),
# its text and JSON renderings (eventheader-out.h) and the encoder the
# samples and tests build events with (eventheader-enc.h).  Depends on
# libc only.

EVENTHEADER_SRCS := $(wildcard common/eventheader/*.c)
EVENTHEADER_OBJS := $(EVENTHEADER_SRCS:%.c=$(O)/%.o)
EVENTHEADER_LIB	:= $(O)/common/eventheader/libeventheader.a
EVENTHEADER_LINK = $(EVENTHEADER_LIB)

$(EVENTHEADER_LIB): $(EVENTHEADER_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(EVENTHEADER_LIB)
