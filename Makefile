# SPDX-License-Identifier: GPL-2.0-only
#
# One build for the whole tree.  Each folder describes itself in a *.mk
# fragment included below.  Everything the build makes goes to one build
# folder, $(O) (default build/), in the source tree's shape: the source
# folders hold sources only, and `rm -rf build` resets a build.
#
#   make            build everything (installs missing Debian packages as root)
#   make O=DIR      the same, with every output under DIR (default build)
#   make test       run every unit and end-to-end test
#   make demo       the main job on a bundled sample
#   make bench      print speed figures against the real tools
#   make fuzz       run the fuzzers at length (FUZZ_SECONDS=, default 300)
#   make doc        the man pages
#   make perfetto-compare TRACE_PROCESSOR=/path/to/trace_processor_shell
#                   what Perfetto shows of each sample, converted and as text
#   make install    trace-fxt, its man pages and completion, the plugins
#                   where each tool looks (PREFIX=, default ~/.local)

CC		?= gcc
CLANG		?= clang
PKG_CONFIG	?= pkg-config
CFLAGS		?= -O2 -g
WARNINGS	:= -Wall -Wextra -Wno-unused-parameter -Wshadow \
		   -Wmissing-prototypes -Wstrict-prototypes -Wformat=2
ALL_CFLAGS	 = -std=gnu11 -fPIC -fvisibility=hidden $(WARNINGS) \
		   -D_GNU_SOURCE $(CORE_CFLAGS) $(CFLAGS)

# trace-fxt's version: trace-fxt --version and the man pages say it.
VERSION		:= 0.1

PREFIX		?= $(HOME)/.local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
MANDIR		?= $(PREFIX)/share/man

# Everything the build or the tests need from Debian: scripts/deps.sh
# installs what is missing (as root) or prints the apt-get line and fails;
# scripts/config.sh then writes the packages' flags to config.mk.  make
# remakes an included file first and starts over, so nothing is compiled
# before the packages are in and their flags are known.
O		?= build
override O	:= $(patsubst %/,%,$(O))
export O
CONFIG_MK	:= $(O)/config.mk

ALL_TARGETS	:=
TEST_PROGS	:=
CLEAN_FILES	:=

.PHONY: all deps test demo bench fuzz doc install clean
all: real-all

# Each *.mk hangs its own install-FOLDER target on "install".
install: all

deps: $(CONFIG_MK)
$(CONFIG_MK): scripts/deps.sh scripts/config.sh
	@mkdir -p $(@D)
	@scripts/deps.sh
	@PKG_CONFIG="$(PKG_CONFIG)" scripts/config.sh > $@.tmp && mv $@.tmp $@

ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
include $(CONFIG_MK)
endif

# An object's extra flags are its source folder's (EXTRA_CFLAGS_folder).
src_dir		 = $(patsubst $(O)/%,%,$(@D))
$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS_$(src_dir)) -MMD -MP -c -o $@ $<

# Objects made on the way to a test or tool are kept (make would delete
# them as intermediates), so the next run relinks only what changed.
.SECONDARY:

# Libraries before the products that link them.
include common/common.mk
include common/fxt-tep/fxt-tep.mk
include trace-cmd-plugin/trace-fxt-input/trace-fxt-input.mk
include trace-cmd-plugin/dat-check/dat-check.mk
include trace-cmd-plugin/trace-fxt/trace-fxt.mk
include kernelshark-plugin/kernelshark-plugin.mk
include plugins/plugins.mk
-include plugins/plugin_fxt.mk
include samples/samples.mk
include tests/tests.mk

real-all: $(ALL_TARGETS)

# Everything the build made is in $(O); what else a run leaves (the
# demo's outputs) is listed in CLEAN_FILES.
clean:
	rm -rf $(O) $(CLEAN_FILES)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
