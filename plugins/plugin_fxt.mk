# SPDX-License-Identifier: GPL-2.0-only
# plugin_fxt.so: prints the fxt/* events of .dat files that trace-fxt
# converted from FXT.  Built and installed like plugins.mk's plugins:
# only tep_plugin_loader/unloader exported, the core linked in hidden.

FXT_TEP_PLUGIN		:= plugins/plugin_fxt.so
FXT_TEP_PLUGIN_OBJS	:= plugins/plugin_fxt.o

$(FXT_TEP_PLUGIN): $(FXT_TEP_PLUGIN_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -Wl,--as-needed -o $@ \
		$(FXT_TEP_PLUGIN_OBJS) $(CORE_LIB) $(CORE_LIBS) $(TEP_LIBS) -lm

ALL_TARGETS	+= $(FXT_TEP_PLUGIN)
CLEAN_FILES	+= $(FXT_TEP_PLUGIN)

.PHONY: install-plugin-fxt
install: install-plugin-fxt
install-plugin-fxt: $(FXT_TEP_PLUGIN)
	install -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	install -m 0644 $(FXT_TEP_PLUGIN) $(DESTDIR)$(TEP_PLUGIN_DIR)/

# The FXT -> .dat edge cases' fixture (tests/e2e/plugin-fxt-report.sh),
# written by the core's FXT writer.
FXT2DAT_EDGE_GEN	:= tests/e2e/fxt2dat-edge-gen
$(FXT2DAT_EDGE_GEN): tests/e2e/fxt2dat-edge-gen.o $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CORE_LIB) $(CORE_LIBS) -lm

ALL_TARGETS	+= $(FXT2DAT_EDGE_GEN)
CLEAN_FILES	+= $(FXT2DAT_EDGE_GEN)

# Its unit test dlopen()s the plugin and calls it as libtraceevent does.
tests/unit/test-plugin-fxt: tests/unit/test-plugin-fxt.o tests/unit/unit.o \
			    $(CORE_LIB) $(FXT_TEP_PLUGIN)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/unit/unit.o $(UNIT_LIBS) \
		$(TEP_LIBS) -ldl -lm
