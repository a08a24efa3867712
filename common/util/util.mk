# SPDX-License-Identifier: GPL-2.0-only
# libutil.a: what every other library of the core leans on and nothing
# FXT- or .dat-specific: whole writes to a descriptor (fd-io.h), unnamed
# scratch files (anon-file.h), the first error of a long job with its
# message (errmsg.h), one job at a time on a thread of its own
# (worker.h), a hash table from 64-bit keys (u64-map.h), a whole file
# mapped read-only (file-map.h).  Depends on libc only.  Linked by path,
# never as -lutil (glibc's library of that name is another).

UTIL_SRCS	:= $(wildcard common/util/*.c)
UTIL_OBJS	:= $(UTIL_SRCS:%.c=$(O)/%.o)
UTIL_LIB	:= $(O)/common/util/libutil.a
# What a program that uses libutil.a links: the archive and what it needs.
UTIL_LINK	 = $(UTIL_LIB)

$(UTIL_LIB): $(UTIL_OBJS)
	$(AR) rcs $@ $^

ALL_TARGETS	+= $(UTIL_LIB)
