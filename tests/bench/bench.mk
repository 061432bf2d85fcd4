# tests/bench/bench.mk: `make bench`, the runner's create phase against a bare
# C loop and fs_mark on the same files (ext4 on a loop device, and tmpfs).
# Included by the top Makefile. Needs root. tests/bench/bench.sh says more.
#
# The BENCH_* variables below: `make help` says each (help-vars at the end).

BENCH_DIRS   ?= 4
BENCH_FILES  ?= 20000
BENCH_SIZE   ?= 4096
BENCH_REPEAT ?= 3
BENCH_CASES  ?= ext4 tmpfs
BENCH_WAIT   ?= 0
BENCH_NICE   ?= -20

BENCH_BARE := $(O)/bench/bare

$(BENCH_BARE): tests/bench/bare.c
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) -O2 -o $@ $<

bench: runner $(BENCH_BARE)
	$(Q)FSBENCH=$(FSBENCH) BARE=$(BENCH_BARE) BENCH_DIRS='$(BENCH_DIRS)' \
		BENCH_FILES='$(BENCH_FILES)' BENCH_SIZE='$(BENCH_SIZE)' \
		BENCH_REPEAT='$(BENCH_REPEAT)' BENCH_CASES='$(BENCH_CASES)' \
		BENCH_WAIT='$(BENCH_WAIT)' nice -n '$(BENCH_NICE)' sh tests/bench/bench.sh

help-bench::
	@echo '  bench              - the runner'"'"'s create phase against a bare C loop and fs_mark (ext4 on a'
	@echo '                       loop device, and tmpfs; needs root): tests/bench/bench.sh'
help-vars::
	@echo '  BENCH_DIRS=4       - bench: directories, one worker process each'
	@echo '  BENCH_FILES=20000  - bench: files per directory'
	@echo '  BENCH_SIZE=4096    - bench: bytes per file'
	@echo '  BENCH_REPEAT=3     - bench: measurements per tool and case (medians are reported)'
	@echo '  BENCH_CASES="ext4 tmpfs" - bench: the cases'
	@echo '  BENCH_WAIT=0       - bench: seconds to wait for idle CPUs before each measurement'
	@echo '  BENCH_NICE=-20     - bench: nice adjustment for the whole bench (0: none)'
