# SPDX-License-Identifier: GPL-2.0-only
# Unit tests (one CUnit program per tests/unit/test-*.c), end-to-end
# scripts (tests/e2e/*.sh), fuzz targets (tests/fuzz/fuzz-*.c, clang's
# libFuzzer) and benchmarks (tests/bench/).

UNIT_SRCS	:= $(wildcard tests/unit/test-*.c)
UNIT_PROGS	:= $(UNIT_SRCS:.c=)
UNIT_LIBS	:= $(CORE_LIB) $(CORE_LIBS) -lcunit $(JSON_LIBS)
EXTRA_CFLAGS_tests/unit = $(JSON_CFLAGS) $(TC_CFLAGS) $(FXT_TEP_CFLAGS) \
			   $(DATCHECK_CFLAGS) $(FXT_INPUT_CFLAGS)

tests/unit/test-%: tests/unit/test-%.o tests/unit/unit.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) -lm

# The EventHeader tests decode the project's own catalogue of events.
EXTRA_CFLAGS_tests/unit += -Isamples
tests/unit/test-eventheader: tests/unit/test-eventheader.o tests/unit/unit.o \
		$(EH_CASES_OBJ) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(EH_CASES_OBJ) \
		$(UNIT_LIBS) -lm

# The .dat writer's tests read their files back with the real libtracecmd;
# the e2e script's helpers write files for trace-cmd to judge.
TRACECMD_LIBS	= $(TC_LIBS)
tests/unit/test-dat-%: tests/unit/test-dat-%.o tests/unit/unit.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) \
		$(TRACECMD_LIBS) -lm

# Unit tests that drive the real libkshark with the built plugin.
tests/unit/test-kshark-%.o: tests/unit/test-kshark-%.c
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -MMD -MP -c -o $@ $<

tests/unit/test-kshark-%: tests/unit/test-kshark-%.o tests/unit/unit.o \
			  $(CORE_LIB) $(KS_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(CORE_LIB) \
		$(CORE_LIBS) -lcunit $(KS_LIBS) -ldl -lm

# The .dat-vs-.fxt comparison also draws task plots headless: KernelShark's
# plot API is C++ (ks-draw.cpp), in libkshark-plot.
tests/unit/ks-draw.o: tests/unit/ks-draw.cpp
	$(CXX) $(KS_CXXFLAGS) -MMD -MP -c -o $@ $<
tests/unit/test-kshark-dat: tests/unit/test-kshark-dat.o tests/unit/unit.o \
			    tests/unit/ks-draw.o $(CORE_LIB) $(KS_PLUGIN)
	$(CXX) $(CFLAGS) -o $@ $< tests/unit/unit.o tests/unit/ks-draw.o \
		$(CORE_LIB) $(CORE_LIBS) -lcunit $(KS_PLOT_LIBS) $(KS_LIBS) \
		-ldl -lm

# plugin_fxt.so's test dlopen()s the plugin and calls it as
# libtraceevent does.
tests/unit/test-plugin-fxt: tests/unit/test-plugin-fxt.o tests/unit/unit.o \
			    $(CORE_LIB) $(FXT_TEP_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) \
		$(TEP_LIBS) -ldl -lm

# FXT -> .dat's pieces (libfxt-tep.a's internals, fxt2dat.h); the fuzz
# target below builds the same sources with sanitizers.
tests/unit/test-fxt2dat: tests/unit/test-fxt2dat.o tests/unit/unit.o \
			 $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(FXT_TEP_LIB) \
		$(UNIT_LIBS) $(FXT_TEP_LIBS) -lm

# The mapping's pieces, one program each, linked with the whole mapping
# (trace-fxt-input.mk's MAP_OBJS) as the plugin links it.
MAP_TEST_OBJS	= tests/unit/unit.o tests/unit/map-run.o tests/unit/pkt-read.o \
		  tests/e2e/dat-fixture.o
tests/unit/test-map-%: tests/unit/test-map-%.o $(MAP_TEST_OBJS) \
		       $(MAP_OBJS) $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_TEST_OBJS) $(MAP_OBJS) \
		$(FXT_TEP_LIB) $(UNIT_LIBS) $(TC_LIBS) -ldl -lm

# Thread groups from the records the .dat check kept, against the pass.
tests/unit/test-map-tgid: tests/unit/test-map-tgid.o $(MAP_TEST_OBJS) \
		       $(MAP_OBJS) $(DATCHECK_LIB) $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_TEST_OBJS) $(MAP_OBJS) \
		$(DATCHECK_LIB) $(FXT_TEP_LIB) $(UNIT_LIBS) $(TC_LIBS) -ldl -lm

# The .dat check (libdatcheck.a) against libtracecmd.
tests/unit/test-dat-check: tests/unit/test-dat-check.o tests/unit/unit.o \
		$(DATCHECK_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(DATCHECK_LIB) \
		$(UNIT_LIBS) $(TRACECMD_LIBS) -lm

DAT_TOOLS	:= tests/unit/dat-gen tests/unit/dat-rewrite
tests/unit/dat-gen: tests/unit/dat-gen.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS)
tests/unit/dat-rewrite: tests/unit/dat-rewrite.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS) $(TRACECMD_LIBS)

# End-to-end helpers.  The FXT -> .dat edge cases' fixture
# (plugin-fxt-report.sh), written by the core's FXT writer; what
# KernelShark shows for a .dat, headless (libkshark: its headers do not
# build warning-free with ours, hence KS_CFLAGS' -isystem).
FXT2DAT_EDGE_GEN	:= tests/e2e/fxt2dat-edge-gen
$(FXT2DAT_EDGE_GEN): tests/e2e/fxt2dat-edge-gen.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS) -lm

# Other producers' shapes (producers.sh), written by the core's writer and,
# where it refuses them, as raw words.
PRODUCERS_GEN	:= tests/e2e/producers-gen
$(PRODUCERS_GEN): tests/e2e/producers-gen.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS) -lm

# Big-endian recordings of the samples (byte-order.sh), through fxt2dat.
DAT_BE_GEN	:= tests/e2e/dat-be-gen
EXTRA_CFLAGS_tests/e2e = $(FXT_TEP_CFLAGS)
$(DAT_BE_GEN): tests/e2e/dat-be-gen.o $(FXT_TEP_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_TEP_LIB) $(CORE_LIB) \
		$(CORE_LIBS) $(FXT_TEP_LIBS) -lm

EH_KS_INFO	:= tests/e2e/eventheader-kshark-info
$(EH_KS_INFO): $(EH_KS_INFO).c
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -o $@ $< $(KS_LIBS)

E2E_TOOLS	:= $(FXT2DAT_EDGE_GEN) $(PRODUCERS_GEN) $(EH_KS_INFO) $(DAT_BE_GEN)

FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_PROGS	:= $(FUZZ_SRCS:.c=)
FUZZ_CFLAGS	:= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined -Icommon -D_GNU_SOURCE
FUZZ_SECONDS	?= 300

# The fuzzers build the core from source with sanitizers, not from libfxt.a.
tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(CORE_SRCS)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRCS) $(CORE_LIBS) -lm

# FXT -> .dat (libfxt-tep.a's sources) parses formats with libtraceevent.
tests/fuzz/fuzz-fxt2dat: tests/fuzz/fuzz-fxt2dat.c $(CORE_SRCS) $(FXT_TEP_SRCS) \
		common/fxt-tep/fxt2dat.h
	$(CLANG) $(FUZZ_CFLAGS) $(FXT_TEP_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(FXT_TEP_SRCS) $(CORE_LIBS) \
		$(FXT_TEP_LIBS) -lm

# plugin-fxt.so's decoding and text, without libkshark (plugin-fxt.c).
tests/fuzz/fuzz-kshark: tests/fuzz/fuzz-kshark.c $(CORE_SRCS) $(FXT_TEP_SRCS) \
		$(KS_LOAD_SRCS) kernelshark-plugin/fxt-ks.h
	$(CLANG) $(FUZZ_CFLAGS) -Ikernelshark-plugin $(FXT_TEP_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(FXT_TEP_SRCS) $(KS_LOAD_SRCS) $(CORE_LIBS) \
		$(FXT_TEP_LIBS) -lm

# The .dat input path whole: the check, libtracecmd, the plugin's mapping.
DAT_FUZZ_SRCS	= $(DATCHECK_SRCS) $(MAP_SRCS) $(FXT_TEP_SRCS)
tests/fuzz/fuzz-dat: tests/fuzz/fuzz-dat.c $(CORE_SRCS) $(DAT_FUZZ_SRCS) \
		trace-cmd-plugin/dat-check/datcheck.h
	$(CLANG) $(FUZZ_CFLAGS) $(DATCHECK_CFLAGS) $(FXT_TEP_CFLAGS) \
		$(TC_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(DAT_FUZZ_SRCS) $(CORE_LIBS) \
		$(TC_LIBS) -ldl -lm

BENCH_SRCS	:= $(wildcard tests/bench/bench-*.c)
BENCH_PROGS	:= $(BENCH_SRCS:.c=)
tests/bench/bench-%: tests/bench/bench-%.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CORE_LIBS) -lm

# The KernelShark loader times kshark_open + kshark_load_entries; it
# needs libkshark, so it has its own rule (the shorter stem wins).
KS_BENCH	:= tests/bench/bench-kshark-load
tests/bench/bench-kshark-%: tests/bench/bench-kshark-%.c $(KS_PLUGIN)
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -o $@ $< $(KS_LIBS)

# The convert benchmark's floor: a bare tracecmd_iterate_events pass.
TC_ITERATE	:= tests/bench/tc-iterate
$(TC_ITERATE): tests/bench/tc-iterate.c
	$(CC) $(ALL_CFLAGS) $(TC_CFLAGS) -o $@ $< $(TC_LIBS)

# Built by "make" already: the scripts that use them run from it.
ALL_TARGETS	+= $(E2E_TOOLS) $(KS_BENCH) $(TC_ITERATE)
TEST_PROGS	+= $(UNIT_PROGS) $(FUZZ_PROGS) $(DAT_TOOLS)
CLEAN_FILES	+= $(UNIT_PROGS) $(FUZZ_PROGS) $(BENCH_PROGS) $(DAT_TOOLS) \
		   $(E2E_TOOLS) $(TC_ITERATE)

# Everything the tests run, whichever .mk adds it and wherever: the list
# is expanded again once all of them are read.
.PHONY: test-progs mutate
.SECONDEXPANSION:
test-progs: all $$(TEST_PROGS)

test: test-progs
	@tests/run-tests.sh

# Deliberate breakages (tests/mutations/*.patch) the suite must catch.
mutate: test-progs
	@tests/mutate.sh

fuzz: $(FUZZ_PROGS)
	@for f in $(FUZZ_PROGS); do \
		n=$${f##*/fuzz-}; mkdir -p /tmp/trace-fxt-fuzz-$$n; \
		echo "fuzz: $$f for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		    /tmp/trace-fxt-fuzz-$$n tests/fuzz/corpus-$$n || exit 1; \
	done

bench: all $(BENCH_PROGS)
	@tests/bench/run-bench.sh

# What a real Perfetto trace processor shows of every sample, converted
# and as `trace-cmd report -N -t` text: by hand, no test needs it.
TRACE_PROCESSOR	?=
.PHONY: perfetto-compare
perfetto-compare: all
	@scripts/perfetto-compare.sh "$(TRACE_PROCESSOR)"

# Fixtures written by the core's .dat writer (dat-fixture.c their shared
# steps): perfetto-samples.sh's multi-threaded recording, convert-arrays.sh's
# events with integer arrays.
THREADS_DAT_GEN	:= tests/e2e/threads-dat-gen
ARRAYS_DAT_GEN	:= tests/e2e/arrays-dat-gen
$(THREADS_DAT_GEN) $(ARRAYS_DAT_GEN): %: %.o tests/e2e/dat-fixture.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/e2e/dat-fixture.o $(CORE_LIB) \
		$(CORE_LIBS)
TEST_PROGS	+= $(THREADS_DAT_GEN) $(ARRAYS_DAT_GEN)
CLEAN_FILES	+= $(THREADS_DAT_GEN) $(ARRAYS_DAT_GEN)
# perfetto-samples.sh's kernel events this machine cannot fire (formats in
# tests/e2e/kernel-formats/)
KERNEL_EVENTS_DAT_GEN := tests/e2e/kernel-events-dat-gen
$(KERNEL_EVENTS_DAT_GEN): %: %.o tests/e2e/dat-fixture.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/e2e/dat-fixture.o $(CORE_LIB) \
		$(CORE_LIBS)
TEST_PROGS	+= $(KERNEL_EVENTS_DAT_GEN)
CLEAN_FILES	+= $(KERNEL_EVENTS_DAT_GEN)

# trace-fxt open's server (serve.c) on libmicrohttpd, fed a client's
# bytes through a socketpair.
tests/fuzz/fuzz-serve: tests/fuzz/fuzz-serve.c trace-cmd-plugin/trace-fxt/serve.c \
		trace-cmd-plugin/trace-fxt/serve.h
	$(CLANG) $(FUZZ_CFLAGS) -Itrace-cmd-plugin/trace-fxt $(MHD_CFLAGS) \
		-o $@ $< trace-cmd-plugin/trace-fxt/serve.c $(MHD_LIBS)
