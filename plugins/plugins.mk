# SPDX-License-Identifier: GPL-2.0-only
# libtraceevent plugins (plugin_*.so): event handlers that trace-cmd
# report, KernelShark and perf load from $TRACEEVENT_PLUGIN_DIR or
# ~/.local/lib/traceevent/plugins.

EXTRA_CFLAGS_plugins = $(FXT_TEP_CFLAGS)

# Where libtraceevent looks: ~/.local/lib/traceevent/plugins for the
# default PREFIX; its built-in directory (<its libdir>/traceevent/plugins)
# when PREFIX is its own prefix, e.g. PREFIX=/usr on Debian.
ifeq ($(abspath $(PREFIX)),$(abspath $(TEP_PREFIX)))
TEP_PLUGIN_DIR	?= $(TEP_LIBDIR)/traceevent/plugins
else
TEP_PLUGIN_DIR	?= $(LIBDIR)/traceevent/plugins
endif

EH_PLUGIN	:= $(O)/plugins/plugin_eventheader.so
EH_PLUGIN_OBJS	:= $(addprefix $(O)/plugins/, \
		     plugin_eventheader.o eh-attach.o eh-print.o)

# Only tep_plugin_loader/unloader are exported; the core stays hidden so
# that plugins carrying their own copy of it do not meet (libtraceevent
# dlopens plugins RTLD_GLOBAL).
# EventHeader events are recognised by libfxt-tep.a's eh_tep_header_offset(),
# as the input plugin recognises them.
$(EH_PLUGIN): $(EH_PLUGIN_OBJS) $(FXT_TEP_LIB) $(FXT_LIB) $(DAT_LIB) \
	      $(EVENTHEADER_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -Wl,--as-needed -o $@ \
		$(EH_PLUGIN_OBJS) $(FXT_TEP_LINK) -lm

# plugin_fxt.mk (plugin_fxt.so) is included after this file: it adds its
# plugin to TEP_PLUGINS and as a prerequisite of install-plugins.
TEP_PLUGINS	:= $(EH_PLUGIN)
ALL_TARGETS	+= $(TEP_PLUGINS)

.PHONY: install-plugins
install: install-plugins
install-plugins: $(TEP_PLUGINS)
	install -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	install -m 0644 $(TEP_PLUGINS) $(DESTDIR)$(TEP_PLUGIN_DIR)/
