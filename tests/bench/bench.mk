# tests/bench/bench.mk: `make bench`, the runner's create phase against a bare
# C loop and fs_mark on the same files (ext4 on a loop device, and tmpfs).
# Included by the top Makefile. Needs root.

BENCH_DIRS   ?= 4
BENCH_FILES  ?= 20000
BENCH_SIZE   ?= 4096
BENCH_REPEAT ?= 3
BENCH_CASES  ?= ext4 tmpfs

BENCH_BARE := $(O)/bench/bare

$(BENCH_BARE): tests/bench/bare.c
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) -O2 -o $@ $<

bench: runner $(BENCH_BARE)
	$(Q)FSBENCH=$(FSBENCH) BARE=$(BENCH_BARE) BENCH_DIRS='$(BENCH_DIRS)' \
		BENCH_FILES='$(BENCH_FILES)' BENCH_SIZE='$(BENCH_SIZE)' \
		BENCH_REPEAT='$(BENCH_REPEAT)' BENCH_CASES='$(BENCH_CASES)' \
		sh tests/bench/bench.sh
