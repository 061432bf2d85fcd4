# server.mk: a LAVA server on this machine (included by the Makefile).
# Targets: lava-server, lava-server-stop, check-lava-server, check-lava-ab
# (none part of check: the setup takes minutes, the jobs a few more).
# Variables: O, LAVA_PORT (gunicorn's port on 127.0.0.1, default 8000; its
# websocket on the next one), LAVA_DEVICES (lava-server: the devices, default
# fsbench-qemu-01), LAVA_AB_SEED (check-lava-ab: the order's seed).

.PHONY: lava-server lava-server-stop check-lava-server check-lava-ab

# Debian's lava-server, lava-dispatcher, lavacli and PostgreSQL installed
# (image/deps.sh lavaserver), then tests/lava/server.sh up: PostgreSQL,
# the database, gunicorn, the scheduler, the publisher, a worker and the
# devices of LAVA's stock qemu device type (on KVM only where the KVM probe
# runs a guest: it boots the image's kernel, so make image first; TCG
# without it), all on localhost.
lava-server:
	$(Q)sh image/deps.sh lavaserver
	$(Q)sh tests/lava/server.sh up

# Stops what lava-server started (its recorded process ids).
lava-server-stop:
	$(Q)sh tests/lava/server.sh down

# The qemu-x86_64 job submitted with lavacli, scheduled, run by the worker,
# its results read back with lavacli (tests/lava/server-check.sh); the
# server is stopped again if it was not running before.
check-lava-server:
	$(Q)sh image/deps.sh lavaserver image
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/lava/server-check.sh job

# An A/B through that server (tests/lava/ab.sh): side A the job, side B it
# with its target throttled, 2 blocks in a seed's order on two devices (a
# block's A and B on one), compared (tests/lava/server-check.sh ab).
check-lava-ab:
	$(Q)sh image/deps.sh lavaserver image
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/lava/server-check.sh ab

help-run::
	@echo '  lava-server        - a LAVA server on this machine, on localhost: PostgreSQL, lava-server'"'"'s'
	@echo '                       gunicorn, scheduler, publisher, a lava-worker, QEMU devices of LAVA'"'"'s stock'
	@echo '                       qemu type, on KVM only where the KVM probe runs a guest (tests/lava/server.sh;'
	@echo '                       board/README.md, "A LAVA server")'
	@echo '  lava-server-stop   - stop what lava-server started'
help-test::
	@echo '  check-lava-server  - the qemu-x86_64 job (smoke, ext4) submitted to that server with lavacli,'
	@echo '                       run by its worker, every fsbench case read back with lavacli (not part of check)'
	@echo '  check-lava-ab      - an A/B through that server (tests/lava/ab.sh): 2 blocks of the job and of it'
	@echo '                       with a throttled target, in a seed'"'"'s order, a block per device, compared'
	@echo '                       (not part of check)'
help-vars::
	@echo '  LAVA_PORT=8000     - lava-server: gunicorn'"'"'s port on 127.0.0.1 (the publisher'"'"'s websocket on the next)'
	@echo '  LAVA_DEVICES=...   - lava-server: its QEMU devices (default fsbench-qemu-01)'
	@echo '  LAVA_AB_SEED=S     - check-lava-ab: the seed of the boots'"'"' order (default: drawn, printed)'
