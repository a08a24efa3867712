# SPDX-License-Identifier: GPL-2.0-only
# What makes a double click on an FXT file open it: FXT's MIME types for
# shared-mime-info (trace-fxt.xml: application/x-fxt by its magic record
# or *.fxt; gzip'd and zstd'd FXT by *.fxt.gz and *.fxt.zst) and a desktop
# entry for them (trace-fxt.desktop.in) that runs `trace-fxt open
# --kernelshark FILE`: trace-fxt starts KernelShark with the plugin where
# this install put it, whatever PREFIX was (KernelShark finds no plugin
# of its own accord).  Sources only: make install writes the entry with
# BINDIR in it.

DESKTOP_MIME	:= desktop/trace-fxt.xml
DESKTOP_ENTRY	:= desktop/trace-fxt.desktop.in
MIME_DIR	?= $(DATADIR)/mime
APPLICATIONS_DIR ?= $(DATADIR)/applications

# Installed into the live system (no DESTDIR), the MIME database and the
# desktop entries' MIME cache are made again with the tools that read
# those folders (shared-mime-info's, desktop-file-utils'), when they are
# there; a package's triggers do it for a DESTDIR install.
DESKTOP_UPDATE	 = $(if $(DESTDIR),,@if command -v update-mime-database \
		   >/dev/null && [ -d $(MIME_DIR)/packages ]; then \
		   update-mime-database $(MIME_DIR); fi; \
		   if command -v update-desktop-database >/dev/null && \
		   [ -d $(APPLICATIONS_DIR) ]; then \
		   update-desktop-database -q $(APPLICATIONS_DIR); fi)

.PHONY: install-desktop uninstall-desktop
install: install-desktop
install-desktop: | $(INSTALL_CHECK)
	install -D -m 644 $(DESKTOP_MIME) \
		$(DESTDIR)$(MIME_DIR)/packages/trace-fxt.xml
	install -d $(DESTDIR)$(APPLICATIONS_DIR)
	sed 's|@BINDIR@|$(BINDIR)|g' $(DESKTOP_ENTRY) > \
		$(DESTDIR)$(APPLICATIONS_DIR)/trace-fxt.desktop
	chmod 644 $(DESTDIR)$(APPLICATIONS_DIR)/trace-fxt.desktop
	$(DESKTOP_UPDATE)

uninstall: uninstall-desktop
uninstall-desktop:
	rm -f $(DESTDIR)$(MIME_DIR)/packages/trace-fxt.xml \
		$(DESTDIR)$(APPLICATIONS_DIR)/trace-fxt.desktop
	$(DESKTOP_UPDATE)
