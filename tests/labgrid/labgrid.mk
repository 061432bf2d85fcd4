# labgrid.mk: the labgrid tests (included by the Makefile).
# Target: check-labgrid (part of check, after check-qemu).
# Variables: O, PYTEST (the pytest with labgrid's plugin, default pytest-3),
# LABGRID_TEST_ONLY (cases of tests/labgrid/run.sh: env helpers pass floor fault uefi
# powercut ab), AB_SEED (the ab case's seed).

PYTEST ?= pytest-3
export PYTEST

.PHONY: check-labgrid

# labgrid's QEMUDriver boots the qemu-x86_64 image (board/qemu-x86_64/labgrid/);
# SKIP with the reason where pytest, labgrid or QEMU is missing.
check-labgrid: deps
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/labgrid/run.sh

help-test::
	@echo '  check-labgrid      - labgrid (pytest --lg-env) boots the image in QEMU: the shipped environments'
	@echo '                       load, a smoke run passes its verdict, a broken one fails, a power-cut'
	@echo '                       campaign cut by the QEMUDriver passes, an A/B of 2 blocks (a throttled'
	@echo '                       target as side B) in a seed'"'"'s order is compared (part of check)'
help-vars::
	@echo '  PYTEST=pytest-3    - check-labgrid: the pytest with labgrid'"'"'s plugin (Debian python3-labgrid)'
	@echo '  LABGRID_TEST_ONLY=... - check-labgrid: only these cases of tests/labgrid/run.sh (env helpers pass floor fault uefi powercut ab)'
	@echo '  AB_SEED=S          - check-labgrid: the seed of the ab case'"'"'s order (default: drawn, printed)'
