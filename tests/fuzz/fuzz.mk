# tests/fuzz/fuzz.mk: the parsers of untrusted input under sanitizers and
# libFuzzer. Included by the top Makefile.
#
#   make check-asan     the runner objects and every unit test built with gcc
#                       -fsanitize=address,undefined (objects in
#                       $(O)/obj/asan, programs in $(O)/tests/asan); runs the
#                       unit tests and replays each fuzz target's corpus and
#                       regression inputs (tests/fuzz/corpus/) through it
#   make fuzz           the libFuzzer targets (clang): jsonr (jsonr_parse),
#                       report (rep_load_stream + rep_print), log
#                       (fsb_log_read), each for FUZZ_SECONDS
#   make check-fuzz     the short run of `make check`: FUZZ_SMOKE_SECONDS per
#                       target; SKIP (with the reason) without clang/libFuzzer
#
#   The FUZZ_* and ASAN_CC variables below: `make help` says each
#   (help-vars at the end).
#
# Work files of the fuzzer (corpus it grew, crashes, logs) are under
# $(O)/fuzz; a crash is fixed in runner/ and its reproducer committed as
# tests/fuzz/corpus/TARGET/regress-NAME, which check-asan then replays.

FUZZ_TARGETS       ?= jsonr report log
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_CC            ?= clang
ASAN_CC            ?= $(HOST_CC)

SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_CFLAGS  := -O1 -g

ASAN_DIR    := $(O)/tests/asan
ASAN_LIB    := $(RUNNER_LIB:%.c=$(O)/obj/asan/%.o)
ASAN_UNIT   := $(UNIT_SRCS:tests/unit/%.c=$(ASAN_DIR)/%)
ASAN_REPLAY := $(FUZZ_TARGETS:%=$(ASAN_DIR)/replay_%)

FUZZ_DIR    := $(O)/fuzz
FUZZ_LIB    := $(RUNNER_LIB:%.c=$(O)/obj/fuzz/%.o)
FUZZ_BINS   := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/bin/fuzz_%)
SEED_LOG    := $(FUZZ_DIR)/bin/seed_log
LOG_SEEDS   := $(FUZZ_DIR)/seed/log
LOG_STAMP   := $(FUZZ_DIR)/seed/log.stamp

.PHONY: check-asan fuzz fuzz-build check-fuzz
# objects reached only through pattern rules: keep them between runs
.SECONDARY: $(ASAN_LIB) $(FUZZ_LIB)

# ---- check-asan: gcc, ASan + UBSan ----

$(O)/obj/asan/%.o: %.c
	@mkdir -p $(@D)
	@echo '  ASANCC  $@'
	$(Q)$(ASAN_CC) $(CSTD) $(WARN) $(SAN_CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(ASAN_DIR)/test_%: tests/unit/test_%.c $(ASAN_LIB) $(UNIT_HDRS)
	@mkdir -p $(@D)
	@echo '  ASANCC  $@'
	$(Q)$(ASAN_CC) $(CSTD) $(WARN) $(SAN_CFLAGS) $(SAN_FLAGS) $(UNIT_DEFS) -Irunner -Itests/unit -o $@ $< $(ASAN_LIB) $(HOST_LDLIBS)

$(ASAN_DIR)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(ASAN_LIB)
	@mkdir -p $(@D)
	@echo '  ASANCC  $@'
	$(Q)$(ASAN_CC) $(CSTD) $(WARN) $(SAN_CFLAGS) $(SAN_FLAGS) -Irunner -Itests/fuzz -o $@ \
		$< tests/fuzz/replay.c $(ASAN_LIB) $(HOST_LDLIBS)

$(ASAN_DIR)/lsan_probe: tests/fuzz/lsan_probe.c
	@mkdir -p $(@D)
	@echo '  ASANCC  $@'
	$(Q)$(ASAN_CC) $(CSTD) $(WARN) -O0 $(SAN_FLAGS) -o $@ $<

# The log target's seeds, written by the runner's own log writer.
$(SEED_LOG): tests/fuzz/seed_log.c $(HOST_LIB)
	@mkdir -p $(@D)
	@echo '  HOSTCC  $@'
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CFLAGS) -Irunner -o $@ $< $(HOST_LIB) $(HOST_LDLIBS)

$(LOG_STAMP): $(SEED_LOG)
	@echo '  SEEDS   $(LOG_SEEDS)'
	$(Q)mkdir -p $(LOG_SEEDS)
	$(Q)$(SEED_LOG) $(LOG_SEEDS)
	$(Q)touch $@

check-asan: $(ASAN_UNIT) $(ASAN_REPLAY) $(ASAN_DIR)/lsan_probe $(LOG_STAMP)
	$(Q)ASAN_DIR=$(ASAN_DIR) LOG_SEEDS=$(LOG_SEEDS) FUZZ_TARGETS='$(FUZZ_TARGETS)' \
		sh tests/fuzz/asan.sh $(ASAN_UNIT)

# ---- libFuzzer: clang ----

$(O)/obj/fuzz/%.o: %.c
	@mkdir -p $(@D)
	@echo '  FUZZCC  $@'
	$(Q)$(FUZZ_CC) $(CSTD) $(WARN) $(SAN_CFLAGS) -fsanitize=fuzzer-no-link $(SAN_FLAGS) \
		$(DEPFLAGS) -c -o $@ $<

$(FUZZ_DIR)/bin/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB)
	@mkdir -p $(@D)
	@echo '  FUZZCC  $@'
	$(Q)$(FUZZ_CC) $(CSTD) $(WARN) $(SAN_CFLAGS) -fsanitize=fuzzer $(SAN_FLAGS) \
		-Irunner -Itests/fuzz -o $@ $< $(FUZZ_LIB) $(HOST_LDLIBS)

fuzz-build: $(FUZZ_BINS) $(LOG_STAMP)
	@:

fuzz:
	$(Q)why=$$(sh tests/fuzz/run.sh probe '$(FUZZ_CC)' $(FUZZ_DIR)/probe) || \
		{ echo "fuzz: cannot build the libFuzzer targets: $$why" >&2; exit 1; }
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)FUZZ_BIN=$(FUZZ_DIR)/bin FUZZ_OUT=$(FUZZ_DIR) FUZZ_SEEDS=$(FUZZ_DIR)/seed \
		sh tests/fuzz/run.sh run '$(FUZZ_SECONDS)' $(FUZZ_TARGETS)

check-fuzz:
	$(Q)if why=$$(sh tests/fuzz/run.sh probe '$(FUZZ_CC)' $(FUZZ_DIR)/probe); then \
		$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS); \
	else \
		echo "SKIP check-fuzz: $$why"; \
	fi

help-test::
	@echo '  check-asan         - unit tests and fuzz corpora under ASan+UBSan (gcc; $$(O)/tests/asan)'
	@echo '  fuzz               - libFuzzer targets $(FUZZ_TARGETS) (clang), FUZZ_SECONDS each'
	@echo '  check-fuzz         - corpus replay + FUZZ_SMOKE_SECONDS each (part of check; SKIP without clang)'
help-vars::
	@echo '  FUZZ_SECONDS=60    - fuzz: seconds per target (0: replay the corpus only)'
	@echo '  FUZZ_SMOKE_SECONDS=5 - check-fuzz: seconds per target'
	@echo '  FUZZ_TARGETS="$(FUZZ_TARGETS)" - fuzz, check-fuzz, check-asan: the targets'
	@echo '  FUZZ_CC=clang      - compiler of the libFuzzer build'
	@echo '  ASAN_CC=cc         - compiler of check-asan (default HOST_CC)'

-include $(ASAN_LIB:.o=.d) $(FUZZ_LIB:.o=.d)
