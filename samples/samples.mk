# SPDX-License-Identifier: GPL-2.0-only
# Small sample producers used by the README's demo and the tests, all
# written through the core:
#  - fxt-sample: every FXT record and argument type (the reader's and
#    the tools' tests);
#  - fxt-ks-sample: every kind of record KernelShark shows, at any size
#    (the KernelShark plugin's GUI test and benchmark);
#  - fxt-sched-sample: a machine's scheduling as a Fuchsia-style producer
#    writes it (the KernelShark plugin's fixture for other producers'
#    context switches and wakeups);
#  - eventheader-dat: the EventHeader test vectors as user_events in a
#    .dat (plugin_eventheader.so's and the converter's fixture).

SAMPLE_GEN	:= $(O)/samples/fxt-sample
$(SAMPLE_GEN): $(O)/samples/fxt-sample.o $(FXT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(FXT_LINK)

# The project's own EventHeader events (a catalogue built with the core's
# encoder), as a vectors file with its reference decoding: the fixture of
# the EventHeader tests when LinuxTracepoints' vectors are not beside the
# clone.  tests/unit/test-eventheader links the catalogue itself.
EH_CASES_OBJ	:= $(O)/samples/eventheader-cases.o
EH_VEC_GEN	:= $(O)/samples/eventheader-vectors
$(EH_VEC_GEN): $(O)/samples/eventheader-vectors.o $(EH_CASES_OBJ) \
	       $(EVENTHEADER_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(EVENTHEADER_LINK)

# Their output file and writer (sample-write.c).
KS_SAMPLE	:= $(O)/samples/fxt-ks-sample
$(KS_SAMPLE): $(O)/samples/fxt-ks-sample.o $(O)/samples/sample-write.o \
	      $(FXT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(FXT_LINK) -lm

SCHED_SAMPLE	:= $(O)/samples/fxt-sched-sample
$(SCHED_SAMPLE): $(O)/samples/fxt-sched-sample.o $(O)/samples/sample-write.o \
		 $(FXT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(FXT_LINK)

# The plugin's fixture: EventHeader vectors (samples/eventheader-vectors'
# or LinuxTracepoints') as user_events in a .dat, by the core's .dat writer.
EH_DAT_GEN	:= $(O)/samples/eventheader-dat
$(EH_DAT_GEN): $(O)/samples/eventheader-dat.o $(DAT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(DAT_LINK) -lm

TEST_TOOLS	+= $(SAMPLE_GEN) $(KS_SAMPLE) $(SCHED_SAMPLE) $(EH_DAT_GEN) \
		   $(EH_VEC_GEN)
CLEAN_FILES	+= demo

# The uncompressed v7 and the v6 form of the sched recording, made by
# trace-cmd itself (samples/record.sh records the zstd original), in the
# build folder's samples/.
SAMPLE_DATS	:= $(O)/samples/sched.dat $(O)/samples/sched-v6.dat
$(O)/samples/sched.dat: samples/sched-zstd.dat
	@mkdir -p $(@D)
	@trace-cmd convert -i $< -o $@.tmp --compression none > $@.log 2>&1 \
		|| { cat $@.log; rm -f $@.log; exit 1; }
	@rm -f $@.log; mv $@.tmp $@
$(O)/samples/sched-v6.dat: samples/sched-zstd.dat
	@mkdir -p $(@D)
	@trace-cmd convert -i $< -o $@.tmp --file-version 6 > $@.log 2>&1 \
		|| { cat $@.log; rm -f $@.log; exit 1; }
	@rm -f $@.log; mv $@.tmp $@

TEST_TOOLS	+= $(SAMPLE_DATS)

# make demo, one of the README's two commands: the main job on a
# bundled sample - a real recording (sched, irq, timer events and
# atrace-style trace_marker writes) converted to FXT, checked, and shown
# as trace-cmd would.
DEMO_DAT	:= samples/atrace-markers.dat
# Its outputs go to demo/, away from the samples the tests take.
DEMO_FXT	:= demo/atrace-markers.fxt
DEMO_BACK	:= demo/atrace-markers.back.dat
demo: all
	@mkdir -p demo
	@echo "== trace-fxt convert $(DEMO_DAT) -o $(DEMO_FXT)"
	@$(TRACE_FXT) convert $(DEMO_DAT) -o $(DEMO_FXT)
	@echo "== trace-fxt check $(DEMO_FXT)"
	@$(TRACE_FXT) check $(DEMO_FXT)
	@echo "== trace-fxt report $(DEMO_FXT) (first 10 lines: what trace-cmd report prints for the .dat)"
	@$(TRACE_FXT) report $(DEMO_FXT) | head -10
	@echo "== trace-fxt dump $(DEMO_FXT) (records 20 to 26)"
	@$(TRACE_FXT) dump $(DEMO_FXT) | sed -n 20,26p | cut -c1-160
	@echo "== trace-fxt convert $(DEMO_FXT) -o $(DEMO_BACK), then trace-cmd report -R of both"
	@$(TRACE_FXT) convert $(DEMO_FXT) -o $(DEMO_BACK)
	@trace-cmd report -R $(DEMO_DAT) > $(DEMO_BACK).orig.txt 2>/dev/null
	@trace-cmd report -R $(DEMO_BACK) > $(DEMO_BACK).back.txt 2>/dev/null
	@if cmp -s $(DEMO_BACK).orig.txt $(DEMO_BACK).back.txt; then \
		echo "   identical: $$(wc -l < $(DEMO_BACK).orig.txt) lines"; \
	else echo "   they differ"; exit 1; fi
	@rm -f $(DEMO_BACK).orig.txt $(DEMO_BACK).back.txt
	@echo "== look at it in Perfetto's UI or KernelShark:"
	@echo "   $(TRACE_FXT) open $(DEMO_FXT)"
	@echo "   $(TRACE_FXT) open --kernelshark $(DEMO_FXT)"
