# SPDX-License-Identifier: GPL-2.0-only
# trace-fxt, the command: trace-fxt.c dispatches to one cmd-*.c per
# subcommand; out-file.c is how every output is written, in-file.c what
# an input is (and a pipe made seekable), serve.c how
# `open` hands a trace to Perfetto's UI (libmicrohttpd), kallsyms.c
# a recording's kallsyms parsed on a thread of its own and served through
# libtraceevent's function resolver, view.c libtracecmd's handle on a
# checked .dat's view (no formats, no kallsyms to parse).  It hosts the
# input plugin (found at run time, never linked) and links the .dat check
# (libdatcheck.a), libfxt-tep.a and the core.  Its man pages
# (Documentation/) and bash completion (trace-fxt.bash) are built and
# installed here too.

EXTRA_CFLAGS_trace-cmd-plugin/trace-fxt = $(JSON_CFLAGS) $(TC_CFLAGS) \
		   $(FXT_TEP_CFLAGS) $(PFT2DAT_CFLAGS) $(DATCHECK_CFLAGS) \
		   $(FXT_INPUT_CFLAGS) \
		   $(MHD_CFLAGS) \
		   -DTRACE_FXT_PLUGIN_DIR='"$(TRACECMD_PLUGIN_INSTALL_DIR)"' \
		   -DTRACE_FXT_KS_PLUGIN='"$(KS_PLUGIN_DIR)/plugin-fxt.so"' \
		   -DTRACE_FXT_VERSION='"$(VERSION)"' \
		   -DTRACE_FXT_TC_VERSION='"$(TC_VERSION)"' \
		   -DTRACE_FXT_TEP_VERSION='"$(TEP_VERSION)"'

TRACE_FXT	:= $(O)/trace-cmd-plugin/trace-fxt/trace-fxt
TRACE_FXT_SRCS	:= $(wildcard trace-cmd-plugin/trace-fxt/*.c)
TRACE_FXT_OBJS	:= $(TRACE_FXT_SRCS:%.c=$(O)/%.o)

# The install directories and versions compiled in above, as last used:
# the objects are made again when they change (make install PREFIX=...
# after make), or the installed command would look for its plugins
# where the first build meant to put them.
TRACE_FXT_STAMP	:= $(O)/trace-cmd-plugin/trace-fxt/defines.stamp
TRACE_FXT_DEFS	= $(TRACECMD_PLUGIN_INSTALL_DIR) $(KS_PLUGIN_DIR) \
		   $(VERSION) $(TC_VERSION) $(TEP_VERSION)
$(TRACE_FXT_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(TRACE_FXT_DEFS)' | cmp -s - $@ || \
		echo '$(TRACE_FXT_DEFS)' > $@
$(TRACE_FXT_OBJS): $(TRACE_FXT_STAMP)

$(TRACE_FXT): $(TRACE_FXT_OBJS) $(DATCHECK_LIB) $(PFT2DAT_LIB) $(FXT_TEP_LIB) \
	      $(FXT_LIB) \
	      $(DAT_LIB) $(EVENTHEADER_LIB) $(PERFETTO_LIB) $(UTIL_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TRACE_FXT_OBJS) $(DATCHECK_LINK) \
		$(PFT2DAT_LINK) $(PERFETTO_LINK) $(JSON_LIBS) $(TC_LIBS) \
		$(MHD_LIBS) -ldl -lm

ALL_TARGETS	+= $(TRACE_FXT)

# The man pages: AsciiDoc in Documentation/, one page a command
# (trace-fxt-COMMAND.1.txt), trace-fxt.1 and trace-fxt-plugins.7, made
# as trace-cmd makes its own (asciidoc to DocBook, validated; xmlto to
# roff).  What a command's table holds (synopsis, options, examples, exit
# statuses) the built command writes (trace-fxt __doc) into gen/, which
# the pages include; the plugins' page takes the install directories
# from here.  All of it is made in $(O)'s Documentation/.
TRACE_FXT_DOC_SRC := trace-cmd-plugin/trace-fxt/Documentation
TRACE_FXT_DOC	:= $(O)/$(TRACE_FXT_DOC_SRC)
MAN_SRCS	:= $(wildcard $(TRACE_FXT_DOC_SRC)/*.[1-9].txt)
MAN_PAGES	:= $(MAN_SRCS:%.txt=$(O)/%)
MAN_COMMANDS	:= trace-fxt $(patsubst $(TRACE_FXT_DOC_SRC)/trace-fxt-%.1.txt,%, \
		     $(filter $(TRACE_FXT_DOC_SRC)/trace-fxt-%.1.txt,$(MAN_SRCS)))
MAN_GEN		:= $(foreach c,$(MAN_COMMANDS), \
		     $(TRACE_FXT_DOC)/gen/$(c).synopsis \
		     $(TRACE_FXT_DOC)/gen/$(c).body)
# Debian's asciidoc is a module of Debian's python3 (/usr/bin/asciidoc
# runs whichever python3 comes first in PATH, which may not have it).
ASCIIDOC	?= /usr/bin/python3 -m asciidoc
XMLTO		?= xmlto
# The pages' date: SOURCE_DATE_EPOCH's when it is set (a package build:
# debian/changelog's), else the last commit's, else today's.
MAN_DATE	:= $(shell if [ -n "$$SOURCE_DATE_EPOCH" ]; then \
			date -u -d "@$$SOURCE_DATE_EPOCH" +%F; \
		   else git log -1 --format=%cs 2>/dev/null | grep . || \
			date +%F; fi)
# The install directories the pages name (make install checks that the
# pages were made for its own).
MAN_DIR_ATTRS	= -a tracecmd_plugin_dir=$(TRACECMD_PLUGIN_INSTALL_DIR) \
		  -a ks_plugin_dir=$(KS_PLUGIN_DIR) \
		  -a tep_plugin_dir=$(TEP_PLUGIN_DIR) \
		  -a tep_libdir=$(TEP_LIBDIR)
MAN_ATTRS	= -a mansource=trace-fxt -a manversion=$(VERSION) \
		  -a manmanual='trace-fxt Manual' $(MAN_DIR_ATTRS) \
		  -a revdate=$(MAN_DATE)

$(TRACE_FXT_DOC)/gen/%.synopsis: $(TRACE_FXT)
	@mkdir -p $(@D)
	$(TRACE_FXT) __doc synopsis $(filter-out trace-fxt,$*) > $@.tmp
	@mv $@.tmp $@

$(TRACE_FXT_DOC)/gen/%.body: $(TRACE_FXT)
	@mkdir -p $(@D)
	$(TRACE_FXT) __doc body $(filter-out trace-fxt,$*) > $@.tmp
	@mv $@.tmp $@

# The attributes as last used: a page is made again when they change
# (make install PREFIX=... after make).
MAN_STAMP	:= $(TRACE_FXT_DOC)/gen/attributes
.PHONY: FORCE
$(MAN_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(MAN_ATTRS)' | cmp -s - $@ || echo '$(MAN_ATTRS)' > $@

# The pages include gen/ relative to themselves: asciidoc reads them in
# the build folder, beside it.
$(TRACE_FXT_DOC)/%.txt: $(TRACE_FXT_DOC_SRC)/%.txt
	@mkdir -p $(@D)
	cp $< $@
$(TRACE_FXT_DOC)/%.xml: $(TRACE_FXT_DOC)/%.txt $(MAN_GEN) $(MAN_STAMP)
	$(ASCIIDOC) -b docbook -d manpage $(MAN_ATTRS) -o $@.tmp $<
	@mv $@.tmp $@

# xmlto names the page after its NAME line: it must be the file's name
$(MAN_PAGES): %: %.xml
	$(XMLTO) --stringparam man.output.quietly=1 \
		--stringparam refentry.meta.get.quietly=1 -o $(@D) man $<

.PHONY: doc
doc: $(MAN_PAGES)
# The man pages are products, built by make and installed.
ALL_TARGETS	+= $(MAN_PAGES)

# The bash completion, where bash-completion looks for it:
# $(DATADIR)/bash-completion/completions/trace-fxt (for PREFIX
# ~/.local, ~/.local/share is its per-user XDG_DATA_HOME).
TRACE_FXT_BASH		:= trace-cmd-plugin/trace-fxt/trace-fxt.bash
BASH_COMPLETION_DIR	?= $(DATADIR)/bash-completion/completions

# The command and its pages name the plugins' install directories: they
# are installed only as built for this install's.
MAN_PLUGINS_PAGE	:= $(TRACE_FXT_DOC)/trace-fxt-plugins.7
.PHONY: install-trace-fxt install-check-trace-fxt uninstall-trace-fxt
install: install-trace-fxt
install-check: install-check-trace-fxt
install-check-trace-fxt: | $(INSTALL_AFTER)
	$(call need_built,$(TRACE_FXT) $(MAN_PAGES))
	$(call need_built_for,$(TRACE_FXT_STAMP),$(TRACE_FXT_DEFS),$(TRACE_FXT))
	$(call need_built_for,$(MAN_STAMP),$(MAN_DIR_ATTRS) -a revdate=,$(MAN_PLUGINS_PAGE))
install-trace-fxt: | install-check-trace-fxt $(INSTALL_CHECK)
	install -D -m 755 $(TRACE_FXT) $(DESTDIR)$(BINDIR)/trace-fxt
	install -D -m 644 $(TRACE_FXT_BASH) \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/trace-fxt
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; \
		install -D -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/$${p##*/} || \
			exit 1; \
	done

uninstall: uninstall-trace-fxt
uninstall-trace-fxt:
	rm -f $(DESTDIR)$(BINDIR)/trace-fxt \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/trace-fxt \
		$(foreach p,$(notdir $(MAN_PAGES)), \
		  $(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(p))
