# SPDX-License-Identifier: GPL-2.0-only
# libpft2dat.a: Perfetto's own recordings (.pftrace) to trace-cmd .dat
# (pft2dat.h).  Reads packets with libperfetto-pkt.a's pb.h (gzip'd or
# zstd'd input inflated by libfxt.a's fxt-zio.h, plain input mapped by
# libutil.a's file-map.h), writes records with libfxt-tep.a's builder and
# output (fxt2dat.h), and takes
# the kernel events' message fields from map-ftrace.table inverted
# (pft-ftrace-table.h, generated into the build folder by
# map-ftrace-table.awk -v inverse=1).

PFT2DAT_SRCS	:= $(wildcard common/pft2dat/*.c)
PFT2DAT_OBJS	:= $(PFT2DAT_SRCS:%.c=$(O)/%.o)
PFT2DAT_LIB	:= $(O)/common/pft2dat/libpft2dat.a
PFT2DAT_LINK	 = $(PFT2DAT_LIB) $(FXT_TEP_LINK) $(FXT_LINK) $(UTIL_LINK) \
		   $(PERFETTO_LINK)
PFT2DAT_CFLAGS	 = -Icommon/pft2dat

PFT_TABLE_H	:= $(O)/common/pft2dat/pft-ftrace-table.h
$(PFT_TABLE_H): trace-cmd-plugin/trace-fxt-input/map-ftrace.table \
		trace-cmd-plugin/trace-fxt-input/map-ftrace-table.awk
	@mkdir -p $(@D)
	awk -v inverse=1 -f trace-cmd-plugin/trace-fxt-input/map-ftrace-table.awk \
		trace-cmd-plugin/trace-fxt-input/map-ftrace.table > $@.tmp && \
		mv $@.tmp $@
$(PFT2DAT_OBJS): | $(PFT_TABLE_H)

EXTRA_CFLAGS_common/pft2dat = $(TEP_CFLAGS) -Icommon/fxt-tep \
			      -I$(O)/common/pft2dat

$(PFT2DAT_LIB): $(PFT2DAT_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(PFT2DAT_LIB)
