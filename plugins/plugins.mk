# SPDX-License-Identifier: GPL-2.0-only
# libtraceevent plugins (plugin_*.so): event handlers that trace-cmd
# report, KernelShark and perf load from libtraceevent's own directory,
# $TRACEEVENT_PLUGIN_DIR or ~/.local/lib/traceevent/plugins.

EXTRA_CFLAGS_plugins = $(FXT_TEP_CFLAGS)

# Where libtraceevent looks: its built-in directory (its libdir's
# traceevent/plugins; Debian's /usr/lib/<multiarch>/traceevent/plugins),
# $TRACEEVENT_PLUGIN_DIR, ~/.local/lib/traceevent/plugins - no other.
# So `make install` puts its plugins:
#  - for a system prefix (/usr, /usr/local), in the built-in directory,
#    the one place every user's libtraceevent looks: for /usr/local
#    outside the prefix (make install says so), since libtraceevent
#    never looks in /usr/local/lib/traceevent/plugins;
#  - for any other, in $(LIBDIR)/traceevent/plugins: for the default
#    PREFIX the per-user directory, elsewhere one libtraceevent does not
#    look in, and make install says so and what to do.
# TEP_PLUGIN_DIR= chooses another.  The libdir is config.mk's, or
# pkg-config's when no build left one (make uninstall after make clean).
TEP_LIBDIR	?= $(shell $(PKG_CONFIG) --variable=libdir libtraceevent 2>/dev/null)
TEP_SYSTEM_PLUGIN_DIR = $(TEP_LIBDIR)/traceevent/plugins
TEP_USER_PLUGIN_DIR = $(HOME)/.local/lib/traceevent/plugins
ifneq ($(filter /usr /usr/local,$(PREFIX)),)
TEP_PLUGIN_DIR	?= $(TEP_SYSTEM_PLUGIN_DIR)
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
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -Wl,--as-needed \
		-o $@ $(EH_PLUGIN_OBJS) $(FXT_TEP_LINK) -lm

# plugin_fxt.mk (plugin_fxt.so) is included after this file: it builds,
# installs and uninstalls its plugin beside these, in TEP_PLUGIN_DIR.
TEP_PLUGINS	:= $(EH_PLUGIN)
ALL_TARGETS	+= $(TEP_PLUGINS)

# What make install says of the folder it chose when it is outside
# PREFIX, or one libtraceevent does not look in.
TEP_PLUGIN_NOTE	 = $(if $(filter $(TEP_PLUGIN_DIR),$(TEP_SYSTEM_PLUGIN_DIR) \
		   $(TEP_USER_PLUGIN_DIR)),$(if $(filter $(PREFIX)/%, \
		   $(TEP_PLUGIN_DIR)),,@echo "trace-fxt: the libtraceevent \
		   plugins go to $(TEP_PLUGIN_DIR), libtraceevent's own \
		   folder, outside $(PREFIX): libtraceevent never looks in \
		   $(LIBDIR)/traceevent/plugins"),@echo "trace-fxt: note: \
		   libtraceevent does not look in $(TEP_PLUGIN_DIR) (only in \
		   $(TEP_SYSTEM_PLUGIN_DIR), \$$TRACEEVENT_PLUGIN_DIR and \
		   ~/.local/lib/traceevent/plugins): trace-cmd report decodes \
		   EventHeader events and converted files with \
		   TRACEEVENT_PLUGIN_DIR=$(TEP_PLUGIN_DIR) set, or once they \
		   are installed with TEP_PLUGIN_DIR=$(TEP_SYSTEM_PLUGIN_DIR)")

.PHONY: install-plugins install-check-plugins uninstall-plugins
install: install-plugins
install-check: install-check-plugins
install-check-plugins: | $(INSTALL_AFTER)
	$(call need_built,$(TEP_PLUGINS))
install-plugins: | install-check-plugins $(INSTALL_CHECK)
	install -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	install -m 0644 $(TEP_PLUGINS) $(DESTDIR)$(TEP_PLUGIN_DIR)/
	$(TEP_PLUGIN_NOTE)

uninstall: uninstall-plugins
uninstall-plugins:
	rm -f $(addprefix $(DESTDIR)$(TEP_PLUGIN_DIR)/,$(notdir $(TEP_PLUGINS)))
	$(call rmdir_empty,$(TEP_PLUGIN_DIR))
