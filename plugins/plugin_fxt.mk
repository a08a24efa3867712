# SPDX-License-Identifier: GPL-2.0-only
# plugin_fxt.so: prints the fxt/* events of .dat files that trace-fxt
# converted from FXT.  Built and installed like plugins.mk's plugins:
# only tep_plugin_loader/unloader exported, the core linked in hidden.

FXT_TEP_PLUGIN		:= $(O)/plugins/plugin_fxt.so
FXT_TEP_PLUGIN_OBJS	:= $(O)/plugins/plugin_fxt.o

$(FXT_TEP_PLUGIN): $(FXT_TEP_PLUGIN_OBJS) $(FXT_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -Wl,--as-needed \
		-o $@ $(FXT_TEP_PLUGIN_OBJS) $(FXT_LINK) $(TEP_LIBS) -lm

ALL_TARGETS	+= $(FXT_TEP_PLUGIN)

.PHONY: install-plugin-fxt install-check-plugin-fxt uninstall-plugin-fxt
install: install-plugin-fxt
install-check: install-check-plugin-fxt
install-check-plugin-fxt: | $(INSTALL_AFTER)
	$(call need_built,$(FXT_TEP_PLUGIN))
install-plugin-fxt: | install-check-plugin-fxt $(INSTALL_CHECK)
	install -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	install -m 0644 $(FXT_TEP_PLUGIN) $(DESTDIR)$(TEP_PLUGIN_DIR)/

uninstall: uninstall-plugin-fxt
uninstall-plugin-fxt:
	rm -f $(DESTDIR)$(TEP_PLUGIN_DIR)/$(notdir $(FXT_TEP_PLUGIN))
	$(call rmdir_empty,$(TEP_PLUGIN_DIR))
