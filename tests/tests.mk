# SPDX-License-Identifier: GPL-2.0-only
# Unit tests (one CUnit program per tests/unit/test-*.c), end-to-end
# scripts (tests/e2e/*.sh), fuzz targets (tests/fuzz/fuzz-*.c, clang's
# libFuzzer) and benchmarks (tests/bench/).

UNIT_SRCS	:= $(wildcard tests/unit/test-*.c)
UNIT_PROGS	:= $(UNIT_SRCS:%.c=$(O)/%)
# zlib: the tests' own gzip and zlib streams, another implementation than
# the ISA-L the core reads and writes them with
UNIT_LIBS	 = $(CORE_LINK) -lcunit $(JSON_LIBS) -lz
UNIT_OBJ	:= $(O)/tests/unit/unit.o
EXTRA_CFLAGS_tests/unit = $(JSON_CFLAGS) $(TC_CFLAGS) $(FXT_TEP_CFLAGS) \
			   $(DATCHECK_CFLAGS) $(FXT_INPUT_CFLAGS) \
			   $(MAP_TABLE_CFLAGS)
# the mapping's tests read its generated table (trace-fxt-input.mk)
$(UNIT_SRCS:%.c=$(O)/%.o): | $(MAP_TABLE_H)

$(O)/tests/unit/test-%: $(O)/tests/unit/test-%.o $(UNIT_OBJ) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(UNIT_LIBS) -lm

# The EventHeader tests decode the project's own catalogue of events.
EXTRA_CFLAGS_tests/unit += -Isamples
$(O)/tests/unit/test-eventheader: $(O)/tests/unit/test-eventheader.o $(UNIT_OBJ) \
		$(EH_CASES_OBJ) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(EH_CASES_OBJ) \
		$(UNIT_LIBS) -lm

# The .dat writer's tests read their files back with the real libtracecmd;
# the e2e script's helpers write files for trace-cmd to judge.
TRACECMD_LIBS	= $(TC_LIBS)
$(O)/tests/unit/test-dat-%: $(O)/tests/unit/test-dat-%.o $(UNIT_OBJ) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(UNIT_LIBS) \
		$(TRACECMD_LIBS) -lm

# Unit tests that drive the real libkshark with the built plugin.
$(O)/tests/unit/test-kshark-%.o: tests/unit/test-kshark-%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/unit/test-kshark-%: $(O)/tests/unit/test-kshark-%.o $(UNIT_OBJ) \
			  $(CORE_ARCHIVES) $(KS_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(CORE_LINK) \
		-lcunit $(KS_LIBS) -ldl -lm

# The .dat-vs-.fxt comparison also draws task plots headless: KernelShark's
# plot API is C++ (ks-draw.cpp), in libkshark-plot.
$(O)/tests/unit/ks-draw.o: tests/unit/ks-draw.cpp
	@mkdir -p $(@D)
	$(CXX) $(KS_CXXFLAGS) -MMD -MP -c -o $@ $<
$(O)/tests/unit/test-kshark-dat: $(O)/tests/unit/test-kshark-dat.o $(UNIT_OBJ) \
			    $(O)/tests/unit/ks-draw.o $(CORE_ARCHIVES) $(KS_PLUGIN)
	$(CXX) $(CFLAGS) -o $@ $< $(UNIT_OBJ) $(O)/tests/unit/ks-draw.o \
		$(CORE_LINK) -lcunit $(KS_PLOT_LIBS) $(KS_LIBS) \
		-ldl -lm

# plugin-fxt.so's decoding on its own, as the fuzzer builds it (no
# libkshark): its objects, as the plugin links them.
$(O)/tests/unit/test-fxt-ks-load.o: EXTRA_CFLAGS_tests/unit += -Ikernelshark-plugin
$(O)/tests/unit/test-fxt-ks-load: $(O)/tests/unit/test-fxt-ks-load.o \
			  $(UNIT_OBJ) $(KS_LOAD_SRCS:%.c=$(O)/%.o) \
			  $(PFT2DAT_LIB) $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(KS_LOAD_SRCS:%.c=$(O)/%.o) \
		$(PFT2DAT_LINK) -lcunit -lpthread -lm

# plugin_fxt.so's test dlopen()s the plugin and calls it as
# libtraceevent does.
$(O)/tests/unit/test-plugin-fxt: $(O)/tests/unit/test-plugin-fxt.o $(UNIT_OBJ) \
			    $(CORE_ARCHIVES) $(FXT_TEP_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(UNIT_LIBS) \
		$(TEP_LIBS) -ldl -lm

# FXT -> .dat's pieces (libfxt-tep.a's internals, fxt2dat.h); the fuzz
# target below builds the same sources with sanitizers.
$(O)/tests/unit/test-fxt2dat: $(O)/tests/unit/test-fxt2dat.o $(UNIT_OBJ) \
			 $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(FXT_TEP_LINK) \
		$(UNIT_LIBS) -lm

# The mapping's pieces, one program each, linked with the whole mapping
# (trace-fxt-input.mk's MAP_OBJS) as the plugin links it.
MAP_TEST_OBJS	= $(addprefix $(O)/tests/, unit/unit.o unit/map-run.o \
		  unit/pkt-read.o e2e/dat-fixture.o)
$(O)/tests/unit/test-map-%: $(O)/tests/unit/test-map-%.o $(MAP_TEST_OBJS) \
		       $(MAP_OBJS) $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_TEST_OBJS) $(MAP_OBJS) \
		$(MAP_LINK) $(UNIT_LIBS) -ldl -lm

# Thread groups from the records the .dat check kept, against the pass.
$(O)/tests/unit/test-map-tgid: $(O)/tests/unit/test-map-tgid.o $(MAP_TEST_OBJS) \
		       $(MAP_OBJS) $(DATCHECK_LIB) $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_TEST_OBJS) $(MAP_OBJS) \
		$(DATCHECK_LINK) $(MAP_LINK) $(UNIT_LIBS) -ldl -lm

# The plugin's page reader on the check's layout, against libtracecmd.
$(O)/tests/unit/test-map-pages: $(O)/tests/unit/test-map-pages.o $(MAP_TEST_OBJS) \
		       $(MAP_OBJS) $(DATCHECK_LIB) $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_TEST_OBJS) $(MAP_OBJS) \
		$(DATCHECK_LINK) $(MAP_LINK) $(UNIT_LIBS) -ldl -lm

# trace-fxt's kallsyms parse (kallsyms.c) against libtraceevent's, and its
# resolver.
$(O)/tests/unit/test-kallsyms.o: EXTRA_CFLAGS_tests/unit += \
		-Itrace-cmd-plugin/trace-fxt
$(O)/tests/unit/test-kallsyms: $(O)/tests/unit/test-kallsyms.o $(UNIT_OBJ) \
		$(O)/trace-cmd-plugin/trace-fxt/kallsyms.o
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) \
		$(O)/trace-cmd-plugin/trace-fxt/kallsyms.o $(UNIT_LIBS) \
		$(TC_LIBS) -lpthread

# The .dat check (libdatcheck.a) against libtracecmd.
$(O)/tests/unit/test-dat-check: $(O)/tests/unit/test-dat-check.o $(UNIT_OBJ) \
		$(DATCHECK_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_OBJ) $(DATCHECK_LINK) \
		$(UNIT_LIBS) $(TRACECMD_LIBS) -lm

DAT_TOOLS	:= $(O)/tests/unit/dat-gen $(O)/tests/unit/dat-rewrite
$(O)/tests/unit/dat-gen: $(O)/tests/unit/dat-gen.o \
		$(O)/tests/e2e/dat-fixture.o $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/tests/e2e/dat-fixture.o $(CORE_LINK)
$(O)/tests/unit/dat-rewrite: $(O)/tests/unit/dat-rewrite.o $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LINK) $(TRACECMD_LIBS)

# End-to-end helpers.  The FXT -> .dat edge cases' fixture
# (plugin-fxt-report.sh), written by the core's FXT writer; what
# KernelShark shows for a .dat, headless (libkshark: its headers do not
# build warning-free with ours, hence KS_CFLAGS' -isystem).
FXT2DAT_EDGE_GEN	:= $(O)/tests/e2e/fxt2dat-edge-gen
$(FXT2DAT_EDGE_GEN): $(O)/tests/e2e/fxt2dat-edge-gen.o $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_LINK) -lm

# Other producers' shapes (producers.sh), written by the core's writer and,
# where it refuses them, as raw words.
PRODUCERS_GEN	:= $(O)/tests/e2e/producers-gen
$(PRODUCERS_GEN): $(O)/tests/e2e/producers-gen.o $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_LINK) -lm

# Big-endian recordings of the samples (byte-order.sh), through fxt2dat.
DAT_BE_GEN	:= $(O)/tests/e2e/dat-be-gen
EXTRA_CFLAGS_tests/e2e = $(FXT_TEP_CFLAGS)
$(DAT_BE_GEN): $(O)/tests/e2e/dat-be-gen.o $(FXT_TEP_LIB) $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_TEP_LINK) -lm

EH_KS_INFO	:= $(O)/tests/e2e/eventheader-kshark-info
$(EH_KS_INFO): tests/e2e/eventheader-kshark-info.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -o $@ $< $(KS_LIBS)

# A libtracecmd that fails where a test says (open-failures.sh), preloaded.
TC_FAIL_SO	:= $(O)/tests/e2e/tc-fail.so
$(TC_FAIL_SO): tests/e2e/tc-fail.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TC_CFLAGS) -shared -o $@ $< -ldl

# The mapping's rows as compiled, for the model to agree with
# (map-table.sh): linked with the whole mapping, as the plugin links it.
MAP_TABLE_ROWS	:= $(O)/tests/e2e/map-table-rows
$(MAP_TABLE_ROWS).o: EXTRA_CFLAGS_tests/e2e += $(TC_CFLAGS) \
		$(FXT_INPUT_CFLAGS) $(MAP_TABLE_CFLAGS)
$(MAP_TABLE_ROWS).o: | $(MAP_TABLE_H)
$(MAP_TABLE_ROWS): $(MAP_TABLE_ROWS).o $(MAP_OBJS) $(FXT_TEP_LIB) \
		   $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(MAP_OBJS) $(MAP_LINK) -ldl -lm

E2E_TOOLS	:= $(FXT2DAT_EDGE_GEN) $(PRODUCERS_GEN) $(EH_KS_INFO) $(DAT_BE_GEN) \
		   $(TC_FAIL_SO) $(MAP_TABLE_ROWS)

FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_PROGS	:= $(FUZZ_SRCS:%.c=$(O)/%)
FUZZ_CFLAGS	:= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined $(CORE_CFLAGS) -D_GNU_SOURCE
FUZZ_SECONDS	?= 300

# The fuzzers build the core from source with sanitizers, not from its
# archives.
$(FUZZ_PROGS): tests/fuzz/fuzz-lsan.h
$(O)/tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(CORE_SRCS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRCS) $(CORE_SYS_LIBS) -lm

# FXT -> .dat (libfxt-tep.a's sources) parses formats with libtraceevent.
$(O)/tests/fuzz/fuzz-fxt2dat: tests/fuzz/fuzz-fxt2dat.c $(CORE_SRCS) \
		$(FXT_TEP_SRCS) common/fxt-tep/fxt2dat.h
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) $(FXT_TEP_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(FXT_TEP_SRCS) $(CORE_SYS_LIBS) \
		$(TEP_LIBS) -lm

# Perfetto -> .dat (libpft2dat.a's sources, on libfxt-tep.a's), with the
# table's inverse header the build generates.
$(O)/tests/fuzz/fuzz-pft2dat: tests/fuzz/fuzz-pft2dat.c $(CORE_SRCS) \
		$(FXT_TEP_SRCS) $(PFT2DAT_SRCS) common/fxt-tep/fxt2dat.h \
		common/pft2dat/pft2dat-intern.h $(PFT_TABLE_H)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) $(FXT_TEP_CFLAGS) $(PFT2DAT_CFLAGS) \
		-I$(O)/common/pft2dat -o $@ $< \
		$(CORE_SRCS) $(FXT_TEP_SRCS) $(PFT2DAT_SRCS) $(CORE_SYS_LIBS) \
		$(TEP_LIBS) -lm

# plugin-fxt.so's decoding and text, without libkshark (plugin-fxt.c).
$(O)/tests/fuzz/fuzz-kshark: tests/fuzz/fuzz-kshark.c $(CORE_SRCS) \
		$(FXT_TEP_SRCS) $(PFT2DAT_SRCS) $(KS_LOAD_SRCS) \
		kernelshark-plugin/fxt-ks.h | $(PFT_TABLE_H)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -Ikernelshark-plugin $(FXT_TEP_CFLAGS) \
		$(PFT2DAT_CFLAGS) -I$(O)/common/pft2dat -o $@ $< \
		$(CORE_SRCS) $(FXT_TEP_SRCS) $(PFT2DAT_SRCS) $(KS_LOAD_SRCS) \
		$(CORE_SYS_LIBS) $(TEP_LIBS) -lm

# The .dat input path whole: the check, libtracecmd, the plugin's mapping.
DAT_FUZZ_SRCS	= $(DATCHECK_SRCS) $(MAP_SRCS) $(FXT_TEP_SRCS)
$(O)/tests/fuzz/fuzz-dat: tests/fuzz/fuzz-dat.c $(CORE_SRCS) $(DAT_FUZZ_SRCS) \
		$(DATCHECK_HDRS) $(MAP_TABLE_H)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) $(DATCHECK_CFLAGS) $(FXT_INPUT_CFLAGS) \
		$(FXT_TEP_CFLAGS) \
		$(TC_CFLAGS) $(MAP_TABLE_CFLAGS) -o $@ $< \
		$(CORE_SRCS) $(DAT_FUZZ_SRCS) $(CORE_SYS_LIBS) \
		$(TC_LIBS) -ldl -lm

BENCH_SRCS	:= $(wildcard tests/bench/bench-*.c)
BENCH_PROGS	:= $(BENCH_SRCS:%.c=$(O)/%)
$(O)/tests/bench/bench-%: $(O)/tests/bench/bench-%.o $(CORE_ARCHIVES)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_LINK) -lm

# The KernelShark loader times kshark_open + kshark_load_entries; it
# needs libkshark, so it has its own rule (the shorter stem wins).
KS_BENCH	:= $(O)/tests/bench/bench-kshark-load
$(O)/tests/bench/bench-kshark-%: tests/bench/bench-kshark-%.c $(KS_PLUGIN)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KS_CFLAGS) -o $@ $< $(KS_LIBS)

# The convert benchmark's floor: a bare tracecmd_iterate_events pass.
TC_ITERATE	:= $(O)/tests/bench/tc-iterate
$(TC_ITERATE): tests/bench/tc-iterate.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TC_CFLAGS) -o $@ $< $(TC_LIBS)

TEST_TOOLS	+= $(E2E_TOOLS) $(KS_BENCH) $(TC_ITERATE)
TEST_PROGS	+= $(TEST_TOOLS) $(UNIT_PROGS) $(FUZZ_PROGS) $(DAT_TOOLS)

# Everything the tests run, whichever .mk adds it and wherever: the list
# is expanded again once all of them are read.
.PHONY: test-progs mutate
.SECONDEXPANSION:
test-progs: all $$(TEST_PROGS)

# The scripts find what the build made in $BUILD_DIR.
export BUILD_DIR = $(abspath $(O))
test: test-progs
	@tests/run-tests.sh

# The unit tests alone, with what they run (the products, the samples'
# producers and recordings): no display, no network, nothing installed.
# The Debian package build runs them (debian/rules).
test-unit: all $(UNIT_PROGS) $$(TEST_TOOLS)
	@TESTS='tests/unit/*' tests/run-tests.sh

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

bench: all $$(TEST_TOOLS) $(BENCH_PROGS)
	@tests/bench/run-bench.sh

# What a real Perfetto trace processor shows of every sample, converted
# and as `trace-cmd report -N -t` text: by hand, no test needs it.
TRACE_PROCESSOR	?=
.PHONY: perfetto-compare
perfetto-compare: all $$(TEST_TOOLS)
	@scripts/perfetto-compare.sh "$(TRACE_PROCESSOR)"

# Fixtures written by the core's .dat writer (dat-fixture.c their shared
# steps): perfetto-samples.sh's multi-threaded recording and function_graph
# calls, convert-arrays.sh's events with integer arrays, convert-samples.sh's
# event of 33 fields.
THREADS_DAT_GEN	:= $(O)/tests/e2e/threads-dat-gen
FUNCGRAPH_DAT_GEN := $(O)/tests/e2e/funcgraph-dat-gen
ARRAYS_DAT_GEN	:= $(O)/tests/e2e/arrays-dat-gen
WIDE_DAT_GEN	:= $(O)/tests/e2e/wide-event-dat-gen
# convert-once.sh's events of one time around compact ones
TIES_DAT_GEN	:= $(O)/tests/e2e/ties-dat-gen
$(THREADS_DAT_GEN) $(FUNCGRAPH_DAT_GEN) $(ARRAYS_DAT_GEN) $(WIDE_DAT_GEN) \
$(TIES_DAT_GEN): %: %.o $(O)/tests/e2e/dat-fixture.o $(DAT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/tests/e2e/dat-fixture.o $(DAT_LINK)
TEST_PROGS	+= $(THREADS_DAT_GEN) $(FUNCGRAPH_DAT_GEN) $(ARRAYS_DAT_GEN) \
		   $(WIDE_DAT_GEN) $(TIES_DAT_GEN)
# perfetto-samples.sh's kernel events this machine cannot fire (formats in
# tests/e2e/kernel-formats/)
KERNEL_EVENTS_DAT_GEN := $(O)/tests/e2e/kernel-events-dat-gen
$(KERNEL_EVENTS_DAT_GEN): %: %.o $(O)/tests/e2e/dat-fixture.o $(DAT_LIB) \
		$(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/tests/e2e/dat-fixture.o $(DAT_LINK)
TEST_PROGS	+= $(KERNEL_EVENTS_DAT_GEN)

# trace-fxt open's server (serve.c) on libmicrohttpd, fed a client's
# bytes through a socketpair.
$(O)/tests/fuzz/fuzz-serve: tests/fuzz/fuzz-serve.c \
		trace-cmd-plugin/trace-fxt/serve.c trace-cmd-plugin/trace-fxt/serve.h
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -Itrace-cmd-plugin/trace-fxt $(MHD_CFLAGS) \
		-o $@ $< trace-cmd-plugin/trace-fxt/serve.c $(MHD_LIBS)
