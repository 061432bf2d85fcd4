# server.mk: a LAVA server on this machine (included by the Makefile).
# Targets: lava-server, lava-server-stop, check-lava-server (none part of
# check: the setup takes minutes, the job a few more).
# Variables: O, LAVA_PORT (gunicorn's port on 127.0.0.1, default 8000; its
# websocket on the next one).

.PHONY: lava-server lava-server-stop check-lava-server

# Debian's lava-server, lava-dispatcher, lavacli and PostgreSQL installed
# (image/deps.sh lavaserver), then tests/lava/server.sh up: PostgreSQL,
# the database, gunicorn, the scheduler, the publisher, a worker and a
# device of LAVA's stock qemu device type, all on localhost.
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
	+$(Q)sh tests/lava/server-check.sh

help-run::
	@echo '  lava-server        - a LAVA server on this machine, on localhost: PostgreSQL, lava-server'"'"'s'
	@echo '                       gunicorn, scheduler, publisher, a lava-worker, a QEMU device of LAVA'"'"'s stock'
	@echo '                       qemu type (tests/lava/server.sh; board/README.md, "A LAVA server")'
	@echo '  lava-server-stop   - stop what lava-server started'
help-test::
	@echo '  check-lava-server  - the qemu-x86_64 job (smoke, ext4) submitted to that server with lavacli,'
	@echo '                       run by its worker, every fsbench case read back with lavacli (not part of check)'
help-vars::
	@echo '  LAVA_PORT=8000     - lava-server: gunicorn'"'"'s port on 127.0.0.1 (the publisher'"'"'s websocket on the next)'
