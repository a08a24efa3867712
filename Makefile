# SPDX-License-Identifier: GPL-2.0-only
#
# One build for the whole tree.  Each folder describes itself in a *.mk
# fragment included below.  Everything the build makes goes to one build
# folder, $(O) (default build/), in the source tree's shape: the source
# folders hold sources only, and `rm -rf build` resets a build.
#
#   make            the products: trace-fxt, its man pages, the plugins
#                   (installs the missing build packages as root)
#   make O=DIR      the same, with every output under DIR (default build)
#   make test       run every unit and end-to-end test (installs the
#                   missing test packages as root)
#   make test-unit  the unit tests alone (no display; what the Debian
#                   package build runs)
#   make demo       the main job on a bundled sample
#   make bench      print speed figures against the real tools
#   make fuzz       run the fuzzers at length (FUZZ_SECONDS=, default 300)
#   make doc        the man pages
#   make deps       which Debian packages make needs and which make test
#                   needs, and what is missing of each
#   make perfetto-compare TRACE_PROCESSOR=/path/to/trace_processor_shell
#                   what Perfetto shows of each sample, converted and as text
#   make install    what make built: trace-fxt, its man pages and
#                   completion, the plugins where each tool looks, FXT's
#                   MIME type and desktop entry (PREFIX=, default ~/.local;
#                   DESTDIR=, LIBDIR=...); it compiles nothing
#   make uninstall  removes what make install put down (same variables)
#   make dist       $(O)/trace-fxt-VERSION.tar.gz, the source the Debian
#                   package (debian/) builds from
#   make package-test  as root, with the network, minutes: the package
#                   built in a minimal Debian 12 chroot with only its
#                   Build-Depends, lintian, installed in a fresh one, used,
#                   purged (tests/package/chroot-build.sh; not in make test)
#
# DEPS=no checks no Debian package at all (a package build: dpkg-buildpackage
# has checked debian/control's Build-Depends).

CC		?= gcc
CLANG		?= clang
PKG_CONFIG	?= pkg-config
# The user's (or dpkg-buildflags') CFLAGS, CXXFLAGS, CPPFLAGS and LDFLAGS
# are used as given, after the build's own.
CFLAGS		?= -O2 -g
CXXFLAGS	?= $(CFLAGS)
WARNINGS	:= -Wall -Wextra -Wno-unused-parameter -Wshadow \
		   -Wmissing-prototypes -Wstrict-prototypes -Wformat=2
ALL_CFLAGS	 = -std=gnu11 -fPIC -fvisibility=hidden $(WARNINGS) \
		   -D_GNU_SOURCE $(CORE_CFLAGS) $(CPPFLAGS) $(CFLAGS)

# trace-fxt's version: trace-fxt --version and the man pages say it.
VERSION		:= 0.1

# The install directories, as the GNU conventions name them: make builds
# for them (trace-fxt and its man pages name where the plugins are), make
# install copies there, below DESTDIR when it is set.  PREFIX=/usr takes
# Debian's multiarch library directory, as Debian's own packages do.
PREFIX		?= $(HOME)/.local
override PREFIX	:= $(patsubst %/,%,$(PREFIX))
BINDIR		?= $(PREFIX)/bin
MULTIARCH	:= $(shell $(CC) -print-multiarch 2>/dev/null)
ifeq ($(PREFIX),/usr)
LIBDIR		?= /usr/lib$(if $(MULTIARCH),/$(MULTIARCH))
endif
LIBDIR		?= $(PREFIX)/lib
DATADIR		?= $(PREFIX)/share
MANDIR		?= $(DATADIR)/man

# The Debian packages the build needs (scripts/deps.sh's build set) and
# those the tests need on top (its test set): deps.sh installs what is
# missing (as root) or prints the apt-get line and fails; scripts/config.sh
# then writes the packages' flags to config.mk.  make remakes an included
# file first and starts over, so nothing is compiled before the packages
# are in and their flags are known.
O		?= build
override O	:= $(patsubst %/,%,$(O))
export O
CONFIG_MK	:= $(O)/config.mk
TEST_DEPS_MK	:= $(O)/test-deps.mk
DEPS		?= install
deps_sh		 = $(if $(filter no,$(DEPS)),:,scripts/deps.sh $(1))

# What make builds (the products), what the tests run besides the
# products (TEST_TOOLS: sample producers, recordings, helpers - built by
# make test, test-unit, bench and the like, never by make) and the tests.
ALL_TARGETS	:=
TEST_TOOLS	:=
TEST_PROGS	:=
CLEAN_FILES	:=

.PHONY: all deps test test-unit demo bench fuzz doc install uninstall \
	dist package-test clean
all: real-all

deps:
	@scripts/deps.sh --list
	@scripts/deps.sh build

# The goals that build nothing: they never remake config.mk (install may
# run as root in a tree a user built, and writes nothing into it), and
# read it when a build left one.
NO_BUILD_GOALS	:= clean deps dist package-test install uninstall install-% \
		   uninstall-%
BUILD_GOALS	:= $(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all))
# The goals that run tests, and so need the test set.
TEST_GOALS	:= test test-progs test-unit demo bench fuzz mutate \
		   perfetto-compare

ifneq ($(BUILD_GOALS),)
$(CONFIG_MK): scripts/deps.sh scripts/config.sh
	@mkdir -p $(@D)
	@$(call deps_sh,build)
	@PKG_CONFIG="$(PKG_CONFIG)" scripts/config.sh > $@.tmp && mv $@.tmp $@
include $(CONFIG_MK)
else ifneq ($(filter-out clean deps dist package-test,$(MAKECMDGOALS)),)
-include $(CONFIG_MK)
endif

ifneq ($(filter $(TEST_GOALS),$(MAKECMDGOALS)),)
ifneq ($(DEPS),no)
$(TEST_DEPS_MK): scripts/deps.sh $(CONFIG_MK)
	@mkdir -p $(@D)
	@$(call deps_sh,test)
	@echo '# scripts/deps.sh test found every package the tests use' > $@
include $(TEST_DEPS_MK)
endif
endif

# An object's extra flags are its source folder's (EXTRA_CFLAGS_folder).
src_dir		 = $(patsubst $(O)/%,%,$(@D))
$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS_$(src_dir)) -MMD -MP -c -o $@ $<

# Objects made on the way to a test or tool are kept (make would delete
# them as intermediates), so the next run relinks only what changed.
.SECONDARY:

# make install copies what make built and compiles nothing: it may run as
# root in a tree a user built, and writes nothing there.  Each *.mk hangs
# its own install-FOLDER and uninstall-FOLDER targets on "install" and
# "uninstall", and install-check-FOLDER, what install-FOLDER checks first,
# on install-check: need_built (the files are built) and, for what names
# the install directories, need_built_for.  make install runs every check
# before it copies anything (INSTALL_CHECK); with "make all install" the
# checks wait for the build (INSTALL_AFTER).
INSTALL_AFTER	:= $(filter all,$(MAKECMDGOALS))
INSTALL_CHECK	:= $(if $(filter install,$(MAKECMDGOALS)),install-check)
# The make line that builds what this install wants: its variables.
BUILD_LINE	 = make$(foreach v,$(filter-out DESTDIR=%,$(MAKEOVERRIDES)), $(v))
# need_built FILE...: stop, saying so, unless every FILE was built
need_built	 = @for f in $(1); do [ -e "$$f" ] || { \
		   echo "trace-fxt: $$f is not built: run '$(BUILD_LINE)' first (make install copies what make built, and compiles nothing)" >&2; \
		   exit 1; }; done
# need_built_for STAMP,TEXT,FILE: stop unless FILE was built for TEXT
# (the install directories it names, which its STAMP records) and after
# the STAMP was last written
need_built_for	 = @grep -qF -e '$(2)' $(1) 2>/dev/null && [ ! $(1) -nt $(3) ] || { \
		   echo "trace-fxt: $(3) was built for other install directories than this install's:" >&2; \
		   echo "  built for:    $$(cat $(1) 2>/dev/null)" >&2; \
		   echo "  this install: $(2)" >&2; \
		   echo "  run '$(BUILD_LINE)' first, as the user who builds, then make install again" >&2; \
		   exit 1; }

# rmdir_empty DIR: after an uninstall, DIR and its parent (a plugin
# folder and the tool's folder above it) removed when nothing else is in
# them
rmdir_empty	 = @rmdir --ignore-fail-on-non-empty $(DESTDIR)$(1) \
		   $(DESTDIR)$(patsubst %/,%,$(dir $(1))) 2>/dev/null || true

.PHONY: install uninstall install-check
install:
uninstall:

# Libraries before the products that link them.
include common/common.mk
include common/fxt-tep/fxt-tep.mk
include common/pft2dat/pft2dat.mk
include trace-cmd-plugin/trace-fxt-input/trace-fxt-input.mk
include trace-cmd-plugin/dat-check/dat-check.mk
include trace-cmd-plugin/trace-fxt/trace-fxt.mk
include kernelshark-plugin/kernelshark-plugin.mk
include plugins/plugins.mk
-include plugins/plugin_fxt.mk
include desktop/desktop.mk
include samples/samples.mk
include tests/tests.mk

real-all: $(ALL_TARGETS)

# Everything the build made is in $(O); what else a run leaves (the
# demo's outputs) is listed in CLEAN_FILES.
clean:
	rm -rf $(O) $(CLEAN_FILES)

# The source tarball: every file git tracks, as the working tree holds it,
# under trace-fxt-VERSION/ (debian/ with it: the package builds from it),
# made reproducible (files sorted, owner root, times those of the last
# commit or SOURCE_DATE_EPOCH).  Its version is debian/changelog's too.
DIST_NAME	:= trace-fxt-$(VERSION)
DIST		:= $(O)/$(DIST_NAME).tar.gz
dist:
	@v=$$(sed -n '1s/^trace-fxt (\([^)]*\)).*/\1/p' debian/changelog); \
	[ "$$v" = "$(VERSION)" ] || { echo "trace-fxt: debian/changelog says $$v, the Makefile's VERSION $(VERSION)" >&2; exit 1; }
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { \
		echo "trace-fxt: make dist lists the files git tracks: run it in a git checkout" >&2; exit 1; }
	@[ -z "$$(git status --porcelain --untracked-files=no)" ] || \
		echo "trace-fxt: note: $(DIST) holds changes not committed" >&2
	@mkdir -p $(O)
	git ls-files -z | tar --null -T - --transform 's,^,$(DIST_NAME)/,' \
		--sort=name --owner=0 --group=0 --numeric-owner --format=gnu \
		--mtime=@$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct)} \
		-cf - | gzip -9n > $(DIST).tmp
	@mv $(DIST).tmp $(DIST)
	@echo "$(DIST)"

# The package built, judged, installed and removed on a minimal Debian 12
# chroot (make dist's tarball; its header says what it checks and how
# long it takes).  Root and the network; never part of make test.
package-test:
	tests/package/chroot-build.sh

-include $(shell find $(O) -name '*.d' 2>/dev/null)
