# fsbench: filesystem small-file benchmark runner and test image builder.
# `make help` lists targets and variables.

O        ?= out
BOARD    ?= qemu-x86_64
PROFILE  ?= seed
RESULTS  ?= results
V        ?= 0
CROSS_COMPILE ?=
HOST_CC  ?= cc
MUSL_CC  ?= musl-gcc

ifeq ($(V),1)
Q :=
else
Q := @
endif

override O := $(abspath $(O))
export O BOARD PROFILE RESULTS V

CSTD     := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Irunner -I$(O)/gen
WARN     := -Wall -Wextra -Werror -Wformat=2
CFLAGS   ?= -O2 -g
DEPFLAGS  = -MMD -MP

RUNNER_SRCS := $(sort $(wildcard runner/*.c runner/*/*.c runner/*/*/*.c))
RUNNER_LIB  := $(filter-out runner/main.c,$(RUNNER_SRCS))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_HDRS   := $(wildcard tests/unit/*.h)

# The runner folder of a cross prefix ($(O)/runner/NAME/fsbench): the
# triple's first word (aarch64), except 32-bit ARM hard-float, which is
# armhf (Debian's name; "arm" would not tell it from armel).
cross_arch = $(if $(filter arm-linux-gnueabihf,$(patsubst %-,%,$(notdir $(1)))),armhf,$(firstword $(subst -, ,$(patsubst %-,%,$(notdir $(1))))))

# The device build: musl, static. With CROSS_COMPILE (e.g. aarch64-linux-gnu-)
# the cross gcc is pointed at a musl sysroot fetched from Debian.
ifeq ($(CROSS_COMPILE),)
DEV_NAME  := dev
DEV_SPECS :=
DEV_CC     = $(MUSL_CC)
FSBENCH   := $(O)/runner/fsbench
else
CROSS_TRIPLE := $(patsubst %-,%,$(notdir $(CROSS_COMPILE)))
CROSS_ARCH := $(call cross_arch,$(CROSS_COMPILE))
DEBARCH_aarch64 := arm64
DEBARCH_x86_64  := amd64
DEBARCH_armhf   := armhf
CROSS_DEB  := $(DEBARCH_$(CROSS_ARCH))
ifeq ($(CROSS_DEB),)
$(error CROSS_COMPILE=$(CROSS_COMPILE): no musl sysroot for $(CROSS_TRIPLE) (supported: aarch64-linux-gnu-, arm-linux-gnueabihf-, x86_64-linux-gnu-))
endif
DEV_NAME  := dev-$(CROSS_ARCH)
DEV_SPECS := $(O)/cache/musl-$(CROSS_DEB)/musl-gcc.specs
DEV_CC     = $(CROSS_COMPILE)gcc -specs $(DEV_SPECS)
FSBENCH   := $(O)/runner/$(CROSS_ARCH)/fsbench
endif
DEV_OBJS   := $(RUNNER_SRCS:%.c=$(O)/obj/$(DEV_NAME)/%.o)
HOST_OBJS  := $(RUNNER_SRCS:%.c=$(O)/obj/host/%.o)
HOST_LIB   := $(RUNNER_LIB:%.c=$(O)/obj/host/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/unit/%)
# The unit tests' fixtures, for a test binary started outside the tree.
UNIT_DEFS  := -DUNIT_DATA='"$(CURDIR)/tests/unit/data"'

FSBENCH_HOST := $(O)/host/fsbench

include runner/sqlite.mk

# What a host link of the runner's objects needs: SQLite's library and the
# maths library (lib/stats.c).
HOST_LDLIBS := $(SQLITE_HOST_LIBS) -lm

.PHONY: all help deps runner host unit unit-cross check check-full check-host check-aa check-verdict check-html check-cross clean bench

all: runner host

# make help: one section each, Buildroot's way; each .mk adds its own lines
# to a section with a double-colon rule (help-build::, help-vars::, ...).
HELP_SECTIONS := build run test bench clean vars
HELP_TITLE_build := Build
HELP_TITLE_run   := Run
HELP_TITLE_test  := Test
HELP_TITLE_bench := Benchmark
HELP_TITLE_clean := Cleaning
HELP_TITLE_vars  := Variables (make VAR=value ...)

.PHONY: help $(HELP_SECTIONS:%=help-%)
help:
	@echo 'fsbench: filesystem small-file benchmark runner and test image builder'
	$(Q)$(foreach s,$(HELP_SECTIONS),echo; echo '$(HELP_TITLE_$(s)):'; \
		$(MAKE) -s --no-print-directory help-$(s);)

help-build::
	@echo '  all                - runner and host (the default)'
	@echo '  deps               - install missing Debian packages (apt-get, needs root)'
	@echo '  runner             - the static musl runner: $$(O)/runner/fsbench'
	@echo '  host               - the runner built with the host compiler: $$(O)/host/fsbench'
help-test::
	@echo '  check              - deps and every test (unit, html, asan, fuzz smoke, host, cross, docs, verdict, install, image, qemu, lava, labgrid)'
	@echo '  check-full         - check, then every test outside it one after another (check-aa, check-ab-aa, soak,'
	@echo '                       check-lava-server, check-lava-ab), the table of their times (about an hour)'
	@echo '  unit               - build and run the unit tests'
	@echo '  check-host         - host integration tests (loop devices, needs root)'
	@echo '  check-aa           - the A/A test of repetitions: 20 trials of a variant identical to its base,'
	@echo '                       at least 19 flag no row (loop device, root; minutes, not part of check)'
	@echo '  check-cross        - the aarch64 and armhf runners (CROSS_COMPILE=aarch64-linux-gnu-,'
	@echo '                       arm-linux-gnueabihf-) under qemu-user, the armhf unit tests under qemu-arm'
	@echo '  unit-cross         - the unit tests built with CROSS_COMPILE=, run under qemu-user'
help-build::
	@echo '  man                - render the man page runner/fsbench.1.scd: $$(O)/doc/fsbench.1 (scdoc)'
	@echo '  docs               - rewrite the GENERATED regions of the docs from $$(O)/host/fsbench'
	@echo '  install            - the static runner and fsbench(1) into $$(DESTDIR)$$(PREFIX)'
help-test::
	@echo '  check-docs         - fail when a committed GENERATED region differs from the binary; check-tree'
	@echo '  check-tree         - the top level holds only the fixed layout, no file name in two rooms of'
	@echo '                       runner/, no source file over 900 lines'
	@echo '  check-verdict      - fsbench verdict, report --format junit and ktap on recorded runs (xmllint'
	@echo '                       --schema, a strict KTAP parser); history --changes on runs made from one'
	@echo '  check-html         - report --format html in headless Chromium: no console error, every chart'
	@echo '                       drawn (gnuplot), a screenshot; the page without gnuplot; xmllint'
	@echo '  check-install      - install into a scratch DESTDIR, run --version, render the man page'
	@echo '  check-lanes        - make check'"'"'s lanes and pool of stages (tests/stages.sh) with a stand-in make'
help-clean::
	@echo '  clean              - remove $$(O)'
help-vars::
	@echo '  O=dir              - every output goes there (default out/)'
	@echo '  BOARD=name         - board folder under board/ (default qemu-x86_64; boards: $(notdir $(patsubst %/board.mk,%,$(wildcard board/*/board.mk))))'
	@echo '  PROFILE=name       - seed (the reference workload, hours under TCG) or smoke (a minute); default seed'
	@echo '  RESULTS=dir        - where make run puts each run, one folder each (default results/); earlier runs'
	@echo '                       there of the same board, profile and accelerator give the time estimate'
	@echo '  V=1                - show the commands'
	@echo '  CROSS_COMPILE=pfx  - cross compiler prefix for the runner, against a musl sysroot from Debian:'
	@echo '                       aarch64-linux-gnu- gives $$(O)/runner/aarch64/fsbench,'
	@echo '                       arm-linux-gnueabihf- gives $$(O)/runner/armhf/fsbench (32-bit ARM)'
	@echo '  HOST_CC=cc         - compiler of the host build and the tests (default cc)'
	@echo '  MUSL_CC=musl-gcc   - compiler of the static runner (default musl-gcc)'
	@echo '  CFLAGS=...         - optimisation and debug flags (default -O2 -g; warnings are always on)'
	@echo '  PREFIX=dir         - install prefix (default /usr/local)'
	@echo '  CHECK_JOBS=2       - make check: the -j of each stage (its compiles at once; default 2)'
	@echo '  DESTDIR=dir        - staging root prepended to PREFIX by make install'

# deps: the stages of make check each depend on it; check runs it once
# and tells the stages' makes so (CHECK_DEPS_DONE=1 in their environment).
deps:
	$(Q)$(if $(CHECK_DEPS_DONE),:,sh image/deps.sh)

runner: $(FSBENCH)
host: $(FSBENCH_HOST)

# SQLite first: its one long compile starts while the other jobs of a
# make -j build the runner's objects, not after them.
$(FSBENCH): $(SQLITE_DEV_OBJ) $(DEV_OBJS)
	@mkdir -p $(@D)
	@echo '  LD      $@'
	$(Q)$(DEV_CC) -static -o $@ $^
	$(Q)file $@ | grep -q 'statically linked' || { echo 'fsbench: $@ is not static' >&2; exit 1; }

$(FSBENCH_HOST): $(HOST_OBJS)
	@mkdir -p $(@D)
	@echo '  LD      $@'
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LDLIBS)

$(O)/obj/$(DEV_NAME)/%.o: %.c | $(DEV_SPECS)
	@mkdir -p $(@D)
	@echo '  CC      $@'
	$(Q)$(DEV_CC) $(CSTD) $(WARN) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

ifneq ($(DEV_SPECS),)
$(DEV_SPECS): image/musl-sysroot.sh
	@echo '  SYSROOT musl $(CROSS_DEB)'
	$(Q)sh image/musl-sysroot.sh $(CROSS_DEB) $(@D)
endif

$(O)/obj/host/%.o: %.c
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(O)/tests/unit/%: tests/unit/%.c $(HOST_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CFLAGS) $(UNIT_DEFS) -Irunner -Itests/unit -o $@ $< $(HOST_LIB) $(HOST_LDLIBS)

unit: $(UNIT_BINS)
	$(Q)sh tests/unit/run.sh $(UNIT_BINS)

# The unit tests cross-built like the runner (CROSS_COMPILE=..., musl, static)
# and run under qemu-user: what the 32-bit build does differently (off_t,
# time_t, size_t, long) is exercised by the same tests.
ifneq ($(CROSS_COMPILE),)
QEMU_USER_aarch64 := qemu-aarch64-static
QEMU_USER_armhf   := qemu-arm-static
QEMU_USER_x86_64  := qemu-x86_64-static
DEV_LIB    := $(RUNNER_LIB:%.c=$(O)/obj/$(DEV_NAME)/%.o)
UNIT_CROSS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/unit-$(CROSS_ARCH)/%)

$(O)/tests/unit-$(CROSS_ARCH)/%: tests/unit/%.c $(DEV_LIB) $(SQLITE_DEV_OBJ) $(UNIT_HDRS)
	@mkdir -p $(@D)
	@echo '  CC      $@'
	$(Q)$(DEV_CC) $(CSTD) $(WARN) $(CFLAGS) $(UNIT_DEFS) -Irunner -Itests/unit -static -o $@ $< $(DEV_LIB) $(SQLITE_DEV_OBJ)

unit-cross: $(UNIT_CROSS)
	$(Q)UNIT_EXEC=$(QEMU_USER_$(CROSS_ARCH)) UNIT_SCRATCH=$(O)/tests/unit-$(CROSS_ARCH)/scratch \
		sh tests/unit/run.sh $(UNIT_CROSS)
else
unit-cross:
	$(error unit-cross: give CROSS_COMPILE= (e.g. arm-linux-gnueabihf-))
endif

check-host: runner host
	$(Q)sh tests/host/run.sh

# The A/A test of repetitions: 20 trials of a variant identical to its base
# (tests/host/aa.sh; minutes, not part of check).
check-aa: runner host
	$(Q)sh tests/host/aa.sh

check-verdict: host
	$(Q)sh tests/verdict/run.sh $(FSBENCH_HOST)

check-html: host
	$(Q)sh tests/html/run.sh $(FSBENCH_HOST)

# The runner cross-built for aarch64 and armhf (musl, static), run with
# qemu-user; the unit tests cross-built for armhf (32-bit) under qemu-arm.
check-cross: host
	$(Q)$(MAKE) --no-print-directory runner CROSS_COMPILE=aarch64-linux-gnu-
	$(Q)sh tests/host/cross.sh $(O)/runner/aarch64/fsbench aarch64
	$(Q)$(MAKE) --no-print-directory runner CROSS_COMPILE=arm-linux-gnueabihf-
	$(Q)sh tests/host/cross.sh $(O)/runner/armhf/fsbench armhf
	$(Q)$(MAKE) --no-print-directory unit-cross CROSS_COMPILE=arm-linux-gnueabihf-

# The stages of make check (tests/stages.sh): first what both lanes use
# (the host and the image's runner, SQLite's amalgamation, the images'
# filesystem table), then two lanes side by side: the x86_64 image and
# its boots; beside them the unit, host, HTML, docs, verdict, install,
# sanitizer and fuzz tests, the cross builds and the ARM images. Then the
# pool: the other boots, each taken by the lane that is free first, once
# the image it boots (STAGE:NEED) is built, the longest first, so that
# the lanes end together on a machine slow at building as on one slow at
# emulating. Each stage is timed; the table of their lanes, starts, wall
# and processor times and the totals is printed at the end (and kept in
# $(O)/tests/stages.txt). Each stage is a make of its own with
# -j$(CHECK_JOBS).
CHECK_JOBS ?= 2
CHECK_FIRST  := runner+host+image-fstable
CHECK_LANE_1 := check-image-x86 check-qemu-x86
CHECK_LANE_2 := unit check-html check-docs check-verdict check-install check-lanes check-asan check-fuzz \
	check-host check-cross check-image-arm
CHECK_POOL   := check-qemu-ab:check-image-x86 check-labgrid:check-image-x86 check-qemu-arm64:check-image-arm check-qemu-buses:check-image-x86 \
	check-qemu-armhf:check-image-arm check-lava:check-image-x86 check-qemu-sustain:check-image-x86 \
	check-qemu-uboot:check-image-arm check-qemu-zoned:check-image-x86 check-qemu-variants:check-image-x86
CHECK_STAGES := $(CHECK_FIRST) --lane $(CHECK_LANE_1) --lane $(CHECK_LANE_2) --pool $(CHECK_POOL)

check: deps
	$(Q)CHECK_DEPS_DONE=1 MAKE="$(MAKE)" JOBS=$(CHECK_JOBS) sh tests/stages.sh $(CHECK_STAGES)

# Every test: make check, then each test that is not part of it, one after
# another (each its own make; one that fails does not stop the next), the
# table of their times at the end (tests/stages.sh with KEEP_GOING, its
# files in a folder of its own: check's are in $(O)/tests/stages). Its
# time on this machine kind: README.md.
CHECK_FULL := check check-aa check-ab-aa soak check-lava-server check-lava-ab
check-full: deps
	$(Q)env -u O KEEP_GOING=1 CHECK_DEPS_DONE=1 MAKE="$(MAKE) O=$(abspath $(O))" sh tests/stages.sh $(CHECK_FULL)

clean:
	rm -rf $(O)

# ---- version, install, generated docs ----
# fsbench --version names the build: `git describe` of the tree, or "unknown"
# without .git. The header is rewritten only when that changes, so the same
# tree always gives the same binary (the image test builds twice). Its
# scratch file is the make's own (PID): makes of two check lanes may
# run this at the same time.
BUILD_H := $(O)/gen/fsb_build.h
$(O)/obj/host/runner/main.o $(O)/obj/$(DEV_NAME)/runner/main.o: $(BUILD_H)
$(BUILD_H): FORCE
	@mkdir -p $(@D)
	$(Q)d=unknown; if [ -e .git ]; then d=$$(git describe --always --dirty --tags 2>/dev/null) || d=unknown; fi; \
	printf '#define FSB_BUILD "%s"\n' "$$d" > $@.$$$$.tmp; \
	if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; else mv $@.$$$$.tmp $@; fi

# The measured run times the settings' help quotes (run/settings.c) come
# from qemu/figures.txt, the file the launcher's estimate reads.
FIGURES_H := $(O)/gen/fsb_figures.h
$(foreach b,host $(DEV_NAME) asan fuzz,$(O)/obj/$(b)/runner/run/settings_keys.o): $(FIGURES_H)
$(FIGURES_H): qemu/figures.txt runner/figures.awk
	@mkdir -p $(@D)
	$(Q)awk -f runner/figures.awk qemu/figures.txt > $@.tmp && mv $@.tmp $@

PREFIX  ?= /usr/local
DESTDIR ?=
MAN1    := $(O)/doc/fsbench.1

# The man page: runner/fsbench.1.scd (its GENERATED regions kept current by
# make docs, checked by make check-docs), rendered with scdoc.
$(MAN1): runner/fsbench.1.scd
	@mkdir -p $(@D)
	@command -v scdoc >/dev/null || { echo 'fsbench: scdoc not found (Debian package scdoc; make deps)' >&2; exit 1; }
	@echo '  SCDOC   $@'
	$(Q)scdoc < $< > $@.tmp && mv $@.tmp $@

man: $(MAN1)

install: runner $(MAN1)
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	$(Q)install -m 0755 $(FSBENCH) $(DESTDIR)$(PREFIX)/bin/fsbench
	$(Q)install -m 0644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1/fsbench.1
	@echo '  INSTALL $(DESTDIR)$(PREFIX)/bin/fsbench $(DESTDIR)$(PREFIX)/share/man/man1/fsbench.1'

check-install: runner $(MAN1)
	+$(Q)sh tests/install/run.sh

# Every document of the tree that git knows (tracked or new, not ignored),
# else every *.md and *.scd outside $(O).
DOC_FILES = $(or $(shell git ls-files -co --exclude-standard -- '*.md' '*.scd' 2>/dev/null),\
	$(filter-out $(O)/%,$(abspath $(shell find . -path ./out -prune -o \( -name '*.md' -o -name '*.scd' \) -print))))

docs: host
	$(Q)sh tests/docs/regions.sh --update $(FSBENCH_HOST) $(DOC_FILES)

check-docs: host check-tree
	$(Q)sh tests/docs/run.sh $(FSBENCH_HOST)
	$(Q)sh tests/docs/regions.sh --check $(FSBENCH_HOST) $(DOC_FILES)

# The tree's shape: the top-level layout, one file name per room of runner/,
# no source file over 900 lines (tests/docs/tree.sh).
check-tree:
	$(Q)sh tests/docs/tree.sh

# make check's stages in lanes and a pool (tests/stages.sh), with a
# stand-in make (tests/lanes.sh).
check-lanes:
	$(Q)sh tests/lanes.sh

.PHONY: FORCE man install check-install docs check-docs check-tree check-lanes
FORCE:

-include image/image.mk
-include tests/bench/bench.mk
-include tests/fuzz/fuzz.mk
-include tests/labgrid/labgrid.mk
-include tests/lava/server.mk
-include $(DEV_OBJS:.o=.d) $(HOST_OBJS:.o=.d)
