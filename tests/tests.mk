# SPDX-License-Identifier: GPL-2.0-only
# Unit tests (one CUnit program per tests/unit/test-*.c), end-to-end
# scripts (tests/e2e/*.sh), fuzz targets (tests/fuzz/fuzz-*.c, clang's
# libFuzzer) and benchmarks (tests/bench/).

UNIT_SRCS	:= $(wildcard tests/unit/test-*.c)
UNIT_PROGS	:= $(UNIT_SRCS:.c=)
UNIT_LIBS	:= $(CORE_LIB) $(CORE_LIBS) -lcunit $(JSON_LIBS)
EXTRA_CFLAGS_tests/unit = $(JSON_CFLAGS) $(TC_CFLAGS)

tests/unit/test-%: tests/unit/test-%.o tests/unit/unit.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) -lm

# The .dat writer's tests read their files back with the real libtracecmd;
# the e2e script's helpers write files for trace-cmd to judge.
TRACECMD_LIBS	= $(TC_LIBS)
tests/unit/test-dat-%: tests/unit/test-dat-%.o tests/unit/unit.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) \
		$(TRACECMD_LIBS) -lm

# The .dat check (trace-cmd-plugin/datcheck-file.c) against libtracecmd.
tests/unit/test-dat-check: tests/unit/test-dat-check.o tests/unit/unit.o \
		trace-cmd-plugin/datcheck-file.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(UNIT_LIBS) $(TRACECMD_LIBS) -lm

DAT_TOOLS	:= tests/unit/dat-gen tests/unit/dat-rewrite
tests/unit/dat-gen: tests/unit/dat-gen.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS)
tests/unit/dat-rewrite: tests/unit/dat-rewrite.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS) $(TRACECMD_LIBS)

FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_PROGS	:= $(FUZZ_SRCS:.c=)
FUZZ_CFLAGS	:= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined -Icommon -D_GNU_SOURCE
FUZZ_SECONDS	?= 300

# The fuzzers build the core from source with sanitizers, not from libfxt.a.
tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(CORE_SRCS)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRCS) $(CORE_LIBS) -lm

# fxt2dat lives in trace-cmd-plugin/ and parses formats with libtraceevent.
FXT2DAT_SRCS	:= $(wildcard trace-cmd-plugin/fxt2dat-*.c)
tests/fuzz/fuzz-fxt2dat: tests/fuzz/fuzz-fxt2dat.c $(CORE_SRCS) $(FXT2DAT_SRCS) \
		trace-cmd-plugin/fxt2dat.h
	$(CLANG) $(FUZZ_CFLAGS) -Itrace-cmd-plugin \
		$(TEP_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(FXT2DAT_SRCS) $(CORE_LIBS) \
		$(TEP_LIBS) -lm

# The .dat input path whole: the check, libtracecmd, the plugin's mapping.
DAT_FUZZ_SRCS	:= trace-cmd-plugin/datcheck-file.c \
		   $(wildcard trace-cmd-plugin/map-*.c) plugins/eh-tep.c
tests/fuzz/fuzz-dat: tests/fuzz/fuzz-dat.c $(CORE_SRCS) $(DAT_FUZZ_SRCS) \
		trace-cmd-plugin/datcheck.h
	$(CLANG) $(FUZZ_CFLAGS) -Itrace-cmd-plugin -Iplugins \
		$(TC_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(DAT_FUZZ_SRCS) $(CORE_LIBS) \
		$(TC_LIBS) -ldl -lm

BENCH_SRCS	:= $(wildcard tests/bench/bench-*.c)
BENCH_PROGS	:= $(BENCH_SRCS:.c=)
tests/bench/bench-%: tests/bench/bench-%.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CORE_LIBS) -lm

TEST_PROGS	+= $(UNIT_PROGS) $(FUZZ_PROGS) $(DAT_TOOLS)
CLEAN_FILES	+= $(UNIT_PROGS) $(FUZZ_PROGS) $(BENCH_PROGS) $(DAT_TOOLS)

test: all $(TEST_PROGS)
	@tests/run-tests.sh

fuzz: $(FUZZ_PROGS)
	@for f in $(FUZZ_PROGS); do \
		n=$${f##*/fuzz-}; mkdir -p /tmp/trace-fxt-fuzz-$$n; \
		echo "fuzz: $$f for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		    /tmp/trace-fxt-fuzz-$$n tests/fuzz/corpus-$$n || exit 1; \
	done

bench: all $(BENCH_PROGS)
	@tests/bench/run-bench.sh
