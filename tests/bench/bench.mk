# tests/bench/bench.mk: `make bench`, every phase of the runner (create, stat,
# read with verification off and on, delete) against bare C loops making the
# same system calls, fs_mark (create) and fio (stat, delete) on the same files
# (ext4 on a loop device, and tmpfs).
# Included by the top Makefile. Needs root. tests/bench/bench.sh says more.
#
# The BENCH_* variables below: `make help` says each (help-vars at the end).

BENCH_DIRS   ?= 4
BENCH_FILES  ?= 20000
BENCH_SIZE   ?= 4096
BENCH_REPEAT ?= 5
BENCH_CASES  ?= ext4 tmpfs
BENCH_WAIT   ?= 0
BENCH_NICE   ?= -20

BENCH_FSV    ?= 2000 16384 2 3

BENCH_BARE := $(O)/bench/bare
BENCH_MINREAD := $(O)/bench/minread
BENCH_READMIN ?= 2 20000 4096 11
BENCH_FSLOOP := $(O)/bench/fsloop

$(BENCH_FSLOOP): tests/bench/fsloop.c runner/run/core/pattern.c runner/run/engine/fileset.c \
		runner/run/core/pattern.h runner/run/engine/fileset.h
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) -O2 -Irunner -o $@ tests/bench/fsloop.c runner/run/core/pattern.c \
		runner/run/engine/fileset.c -lm

$(BENCH_MINREAD): tests/bench/minread.c
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) -O2 -o $@ tests/bench/minread.c

$(BENCH_BARE): tests/bench/bare.c runner/run/core/pattern.c runner/run/core/pattern.h
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) -O2 -o $@ tests/bench/bare.c runner/run/core/pattern.c

bench: runner $(BENCH_BARE) $(BENCH_FSLOOP)
	$(Q)FSBENCH=$(FSBENCH) BARE=$(BENCH_BARE) BENCH_DIRS='$(BENCH_DIRS)' \
		BENCH_FILES='$(BENCH_FILES)' BENCH_SIZE='$(BENCH_SIZE)' \
		BENCH_REPEAT='$(BENCH_REPEAT)' BENCH_CASES='$(BENCH_CASES)' \
		BENCH_WAIT='$(BENCH_WAIT)' nice -n '$(BENCH_NICE)' sh tests/bench/bench.sh
	$(Q)$(MAKE) --no-print-directory bench-fileserver
	$(Q)$(MAKE) --no-print-directory bench-readmin
	$(Q)$(MAKE) --no-print-directory bench-boot

.PHONY: bench-fileserver
bench-fileserver: runner $(BENCH_FSLOOP)
	$(Q)O=$(abspath $(O)) FSBENCH=$(abspath $(FSBENCH)) FSLOOP=$(abspath $(BENCH_FSLOOP)) \
		BENCH_REPEAT='$(BENCH_REPEAT)' BENCH_FSV='$(BENCH_FSV)' \
		nice -n '$(BENCH_NICE)' sh tests/bench/fileserver.sh

.PHONY: bench-readmin
bench-readmin: runner $(BENCH_MINREAD)
	$(Q)O=$(abspath $(O)) FSBENCH=$(abspath $(FSBENCH)) MINREAD=$(abspath $(BENCH_MINREAD)) \
		BENCH_READMIN='$(BENCH_READMIN)' nice -n '$(BENCH_NICE)' sh tests/bench/readmin.sh

.PHONY: bench-boot
BENCH_BOOTS ?= 3
bench-boot: deps
	$(Q)$(MAKE) --no-print-directory image host
	$(Q)O=$(abspath $(O)) BENCH_BOOTS='$(BENCH_BOOTS)' sh tests/bench/boot.sh

help-bench::
	@echo '  bench              - every phase of the runner against bare C loops making the same system'
	@echo '                       calls, fs_mark and fio (ext4 on a loop device, and tmpfs; needs root):'
	@echo '                       tests/bench/bench.sh; then bench-fileserver, bench-readmin, bench-boot'
	@echo '  bench-fileserver   - the file-server workload against a bare C loop making the same system'
	@echo '                       calls on the same fileset (tmpfs; needs root): tests/bench/fileserver.sh'
	@echo '  bench-readmin      - the read phase against the least a program does to read files by name,'
	@echo '                       written without the runner'"'"'s code (tmpfs; needs root): tests/bench/readmin.sh'
	@echo '  bench-boot         - the smoke run in QEMU BENCH_BOOTS times: QEMU start to the first record'
	@echo '                       (at most 5.0 s) and the run against its estimate from qemu/figures.txt (within'
	@echo '                       10 %): tests/bench/boot.sh'
help-vars::
	@echo '  BENCH_DIRS=4       - bench: directories, one worker process each'
	@echo '  BENCH_FILES=20000  - bench: files per directory'
	@echo '  BENCH_SIZE=4096    - bench: bytes per file'
	@echo '  BENCH_REPEAT=5     - bench: measurements per tool and case (medians are reported)'
	@echo '  BENCH_CASES="ext4 tmpfs" - bench: the cases'
	@echo '  BENCH_WAIT=0       - bench: seconds to wait for idle CPUs before each measurement'
	@echo '  BENCH_NICE=-20     - bench: nice adjustment for the whole bench (0: none)'
	@echo '  BENCH_FSV="2000 16384 2 3" - bench-fileserver: files, mean size, workers, seconds'
	@echo '  BENCH_READMIN="2 20000 4096 11" - bench-readmin: folders, files each, bytes a file, measurements'
	@echo '  BENCH_BOOTS=3      - bench-boot: smoke runs in QEMU'
