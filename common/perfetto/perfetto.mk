# SPDX-License-Identifier: GPL-2.0-only
# libperfetto-pkt.a: Perfetto's packets without Perfetto - the protobuf
# wire format (pb.h), Perfetto's field numbers (perfetto-proto.h, their
# one owner) and the packet reader `check` and `dump` use
# (perfetto-read.h), and packets compressed (perfetto-zip.h: written and
# read by ISA-L).

PERFETTO_SRCS	:= $(wildcard common/perfetto/*.c)
PERFETTO_OBJS	:= $(PERFETTO_SRCS:%.c=$(O)/%.o)
PERFETTO_LIB	:= $(O)/common/perfetto/libperfetto-pkt.a
PERFETTO_LINK	 = $(PERFETTO_LIB) -lisal

$(PERFETTO_LIB): $(PERFETTO_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(PERFETTO_LIB)
