# SPDX-License-Identifier: GPL-2.0-only
# Small sample producers used by the README's demo and the tests.

SAMPLE_GEN	:= samples/fxt-sample
$(SAMPLE_GEN): samples/fxt-sample.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^

ALL_TARGETS	+= $(SAMPLE_GEN)
CLEAN_FILES	+= $(SAMPLE_GEN) samples/sample.fxt
