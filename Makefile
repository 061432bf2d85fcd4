# fsbench: filesystem small-file benchmark runner and test image builder.
# `make help` lists targets and variables.

O        ?= out
BOARD    ?= qemu-x86_64
PROFILE  ?= seed
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
export O BOARD PROFILE V

CSTD     := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Irunner
WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
DEPFLAGS  = -MMD -MP

RUNNER_SRCS := $(sort $(wildcard runner/*.c runner/*/*.c))
RUNNER_LIB  := $(filter-out runner/main.c,$(RUNNER_SRCS))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))

# The device build: musl, static. With CROSS_COMPILE (e.g. aarch64-linux-gnu-)
# the cross gcc is pointed at a musl sysroot fetched from Debian.
ifeq ($(CROSS_COMPILE),)
DEV_NAME  := dev
DEV_SPECS :=
DEV_CC     = $(MUSL_CC)
FSBENCH   := $(O)/runner/fsbench
else
CROSS_ARCH := $(firstword $(subst -, ,$(CROSS_COMPILE)))
DEBARCH_aarch64 := arm64
DEBARCH_x86_64  := amd64
CROSS_DEB  := $(DEBARCH_$(CROSS_ARCH))
DEV_NAME  := dev-$(CROSS_ARCH)
DEV_SPECS := $(O)/cache/musl-$(CROSS_DEB)/musl-gcc.specs
DEV_CC     = $(CROSS_COMPILE)gcc -specs $(DEV_SPECS)
FSBENCH   := $(O)/runner/$(CROSS_ARCH)/fsbench
endif
DEV_OBJS   := $(RUNNER_SRCS:%.c=$(O)/obj/$(DEV_NAME)/%.o)
HOST_OBJS  := $(RUNNER_SRCS:%.c=$(O)/obj/host/%.o)
HOST_LIB   := $(RUNNER_LIB:%.c=$(O)/obj/host/%.o)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/unit/%)

FSBENCH_HOST := $(O)/host/fsbench

.PHONY: all help deps runner host unit check check-host check-cross clean bench

all: runner host

help:
	@echo 'fsbench make targets:'
	@echo '  make deps          install missing Debian packages (apt-get, needs root)'
	@echo '  make runner        build the static musl runner: $$(O)/runner/fsbench'
	@echo '  make host          build the runner with the host compiler: $$(O)/host/fsbench'
	@echo '  make unit          build and run the unit tests'
	@echo '  make check-asan    unit tests and fuzz corpora under ASan+UBSan (gcc; $$(O)/tests/asan)'
	@echo '  make fuzz          libFuzzer targets jsonr, report, log (clang), FUZZ_SECONDS each'
	@echo '  make check-fuzz    corpus replay + FUZZ_SMOKE_SECONDS each (part of check; SKIP without clang)'
	@echo '  make check-host    host integration tests (loop devices, needs root)'
	@echo '  make check-cross   the aarch64 runner (CROSS_COMPILE=aarch64-linux-gnu-) under qemu-user'
	@echo '  make check         deps + every test (unit, asan, fuzz smoke, host, image, qemu)'
	@echo '  make bench         runner create phase vs a bare C loop vs fs_mark'
	@echo '  make check-image   image checks without mounting (partitions, fsck, ESP, block map, reproducibility)'
	@echo '  make check-qemu    boot tests under TCG (x86 smoke, killed run, targets, UEFI, arm64)'
	@echo '  make check-qemu-arm64  the arm64 image through AAVMF (part of check-qemu)'
	@echo '  make image         build the bootable image for BOARD'
	@echo '  make run           build the image and run the suite in QEMU'
	@echo '  make clean         remove $$(O)'
	@echo 'Variables:'
	@echo '  O=dir              output folder (default out/)'
	@echo '  BOARD=name         board folder under board/ (default qemu-x86_64)'
	@echo '  PROFILE=name       seed (the reference workload) or smoke (default seed)'
	@echo '  ROOTFS=ext4|f2fs   rootfs type of the image (default ext4)'
	@echo '  QEMU_ARGS=...      extra qemu/run.sh options (--uefi, --append fsbench.KEY=VALUE, ...)'
	@echo '  boards: $(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk))'
	@echo '  CROSS_COMPILE=pfx  cross compiler prefix for the runner (aarch64-linux-gnu-:'
	@echo '                     $$(O)/runner/aarch64/fsbench, against a musl sysroot from Debian)'
	@echo '  FUZZ_SECONDS=n     seconds per fuzz target for make fuzz (default 60; 0: replay the corpus)'
	@echo '  FUZZ_SMOKE_SECONDS=n  the same for check-fuzz (default 10)'
	@echo '  V=1                show the commands'

deps:
	$(Q)sh image/deps.sh

runner: $(FSBENCH)
host: $(FSBENCH_HOST)

$(FSBENCH): $(DEV_OBJS)
	@mkdir -p $(@D)
	@echo '  LD      $@'
	$(Q)$(DEV_CC) -static -o $@ $^
	$(Q)file $@ | grep -q 'statically linked' || { echo 'fsbench: $@ is not static' >&2; exit 1; }

$(FSBENCH_HOST): $(HOST_OBJS)
	@mkdir -p $(@D)
	@echo '  LD      $@'
	$(Q)$(HOST_CC) -o $@ $^

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

$(O)/tests/unit/%: tests/unit/%.c $(HOST_LIB) tests/unit/unit.h
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CFLAGS) -Irunner -Itests/unit -o $@ $< $(HOST_LIB)

unit: $(UNIT_BINS)
	$(Q)sh tests/unit/run.sh $(UNIT_BINS)

check-host: runner host
	$(Q)sh tests/host/run.sh

# The runner cross-built for aarch64 (musl, static), run with qemu-user.
check-cross: host
	$(Q)$(MAKE) --no-print-directory runner CROSS_COMPILE=aarch64-linux-gnu-
	$(Q)sh tests/host/cross.sh $(O)/runner/aarch64/fsbench

check: deps
	$(Q)$(MAKE) --no-print-directory unit
	$(Q)$(MAKE) --no-print-directory check-asan
	$(Q)$(MAKE) --no-print-directory check-fuzz
	$(Q)$(MAKE) --no-print-directory check-host
	$(Q)$(MAKE) --no-print-directory check-cross
	$(Q)$(MAKE) --no-print-directory check-image
	$(Q)$(MAKE) --no-print-directory check-qemu

clean:
	rm -rf $(O)

-include image/image.mk
-include tests/bench/bench.mk
-include tests/fuzz/fuzz.mk
-include $(DEV_OBJS:.o=.d) $(HOST_OBJS:.o=.d)
