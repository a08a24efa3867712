# SPDX-License-Identifier: GPL-2.0-only
# Small sample producers used by the README's demo and the tests.

SAMPLE_GEN	:= samples/fxt-sample
$(SAMPLE_GEN): samples/fxt-sample.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^

ALL_TARGETS	+= $(SAMPLE_GEN)
CLEAN_FILES	+= $(SAMPLE_GEN) samples/sample.fxt

# The README's first command: the main job on a bundled sample.
demo: all
	@$(SAMPLE_GEN) samples/sample.fxt
	@echo "== trace-fxt check samples/sample.fxt"
	@$(TRACE_FXT) check samples/sample.fxt
	@echo "== trace-fxt dump samples/sample.fxt (first 30 records)"
	@$(TRACE_FXT) dump samples/sample.fxt | head -30
