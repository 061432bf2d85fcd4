#!/bin/sh
# tests/lava/server.sh (make lava-server, lava-server-stop): a LAVA lab on
# this machine from Debian's packages, its services started the way their
# systemd units start them (the same commands), for hosts whose PID 1 is
# not systemd (containers, build VMs); with systemd, `systemctl start` the
# units instead.
#
#   server.sh up       PostgreSQL's cluster (pg_ctlcluster), the database
#       (lava-server's own postinst.py: roles, database, migrations), then
#       lava-server-gunicorn, lava-scheduler, lava-publisher; a superuser
#       and its token for lavacli, the worker, LAVA's stock qemu device
#       type and one device of it on the worker; then lava-worker; waits
#       until the worker is online and the device idle. Idempotent: what is
#       there already is kept, what runs already is left alone.
#   server.sh down     stops what `up` started, by the process ids it
#       recorded (each a process group: gunicorn's workers, lava-worker's
#       lava-run and QEMU), and the PostgreSQL cluster if `up` started it.
#   server.sh status   one line per service: running (pid) or stopped;
#       exit 0 when all run.
#
# Every service listens on 127.0.0.1 only: gunicorn on LAVA_PORT (default
# 8000, the port Debian's Apache site proxies to), the publisher's
# websocket on LAVA_PORT+1 and its event socket on 5500 (a file of
# /etc/lava-server/settings.d/, written once), PostgreSQL on its
# configured localhost:5432. Every process runs under nice -n 19.
# Inputs (environment): O (build output, absolute), LAVA_PORT,
#   LAVA_WORKER (worker name, default fsbench-worker), LAVA_DEVICE (device
#   name, default fsbench-qemu-01).
# Output: $O/lava-server/: pid files, each service's stdout and stderr
#   (*.out), lavacli.uri (the RPC URI with the user's token, mode 600), the
#   worker's token; LAVA's own logs stay where the units put them
#   (/var/log/lava-server/, /var/log/lava-dispatcher/).
# Exit status: 0, 2 on misuse, 4 when a step failed (said on stderr).
set -eu
. "$(dirname "$0")/../../image/lib.sh"

O=${O:?set O (the build output folder, absolute)}
S=$O/lava-server
PORT=${LAVA_PORT:-8000}
WS_PORT=$((PORT + 1))
WORKER=${LAVA_WORKER:-fsbench-worker}
DEVICE=${LAVA_DEVICE:-fsbench-qemu-01}
USER_NAME=fsbench
URL=http://127.0.0.1:$PORT/
# Debian's python3 and tools, whatever python an environment puts first
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
DICT=/etc/lava-server/dispatcher-config/devices/$DEVICE.jinja2
LOCAL_SETTINGS=/etc/lava-server/settings.d/50-fsbench-localhost.yaml
# the services, in starting order
SERVICES="gunicorn scheduler publisher worker"

manage() { nice -n 19 lava-server manage "$@"; }
# alive NAME: the recorded process runs and leads its process group (not
# another process that got the id since)
alive() {
	[ -f "$S/$1.pid" ] || return 1
	_p=$(cat "$S/$1.pid")
	kill -0 "$_p" 2>/dev/null && [ "$(ps -o pgid= -p "$_p" | tr -d ' ')" = "$_p" ]
}
port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

# start NAME CMD...: CMD in a session of its own (its process group id is
# its pid), under nice -n 19, output in $S/NAME.out, pid in $S/NAME.pid.
start() {
	name=$1; shift
	if alive "$name"; then say "$name: running already (pid $(cat "$S/$name.pid"))"; return 0; fi
	setsid nice -n 19 "$@" </dev/null >"$S/$name.out" 2>&1 &
	echo $! >"$S/$name.pid"
	say "$name: started (pid $!): $*"
}

# wait_for WHAT SECONDS CMD...: CMD until it succeeds, at most SECONDS.
wait_for() {
	what=$1 n=$2; shift 2
	while ! "$@" >/dev/null 2>&1; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 1
	done
	say "$what"
}

# the PostgreSQL cluster the database settings name (port 5432)
cluster() { pg_lsclusters -h | awk '$3 == 5432 { print $1, $2, $4; exit }'; }

up() {
	[ "$(id -u)" = 0 ] || die "$EX_SYSTEM" "up: not root (the services drop to their users themselves)"
	for t in lava-server lava-worker lavacli gunicorn3 pg_ctlcluster; do
		command -v "$t" >/dev/null 2>&1 ||
			die "$EX_SYSTEM" "up: no $t (sh image/deps.sh lavaserver: Debian lava-server, lava-dispatcher, lavacli, postgresql)"
	done
	mkdir -p "$S"
	chmod 700 "$S"

	# 1. PostgreSQL (postgresql@.service runs pg_ctlcluster VERSION-CLUSTER start)
	# shellcheck disable=SC2046
	set -- $(cluster)
	[ $# -eq 3 ] || die "$EX_SYSTEM" "up: no PostgreSQL cluster on port 5432 (pg_lsclusters; pg_createcluster 15 main)"
	if [ "$3" = online ]; then
		say "postgresql $1/$2: online already"
	else
		nice -n 19 pg_ctlcluster "$1" "$2" start ||
			die "$EX_SYSTEM" "up: pg_ctlcluster $1 $2 start (/var/log/postgresql/postgresql-$1-$2.log)"
		echo "$1 $2" >"$S/postgres.started"
		say "postgresql $1/$2: started"
	fi
	wait_for "postgresql: accepting connections" 30 pg_isready -q -h localhost -p 5432 ||
		die "$EX_SYSTEM" "up: PostgreSQL does not accept connections on localhost:5432"

	# 2. the publisher's event socket on localhost (LAVA's default: tcp://*:5500)
	if [ ! -f "$LOCAL_SETTINGS" ]; then
		cat >"$LOCAL_SETTINGS" <<-'EOF'
		# Written by fsbench's tests/lava/server.sh: lava-publisher's event
		# socket on localhost only (LAVA's default binds every interface).
		EVENT_SOCKET: "tcp://127.0.0.1:5500"
		EOF
		say "$LOCAL_SETTINGS: the event socket on 127.0.0.1:5500"
	fi

	# 3. the database: lava-server's postinst (run at install time, it skips
	# the database while PostgreSQL is down), once
	if [ -f /etc/lava-server/settings.d/00-database.yaml ] &&
		manage migrate --check >/dev/null 2>&1; then
		say "database: there, migrated"
	else
		say "database: lava-server's postinst (roles, database, migrations; minutes)"
		nice -n 19 python3 /usr/share/lava-server/postinst.py >"$S/postinst.out" 2>&1 ||
			die "$EX_SYSTEM" "up: /usr/share/lava-server/postinst.py failed ($S/postinst.out)"
	fi

	# 4. the server's services, as their units run them
	for p in "$PORT" "$WS_PORT" 5500; do
		if port_busy "$p" && ! alive gunicorn && ! alive publisher; then
			die "$EX_SYSTEM" "up: port $p is taken on this machine (LAVA_PORT=N for gunicorn on N, its websocket on N+1)"
		fi
	done
	# lava-server-gunicorn.service (WORKERS 2, not 4: a small lab; BIND on localhost)
	start gunicorn gunicorn3 lava_server.wsgi --log-level DEBUG --log-file /var/log/lava-server/gunicorn.log \
		-u lavaserver -g lavaserver --worker-class eventlet --workers 2 --bind "127.0.0.1:$PORT"
	# lava-scheduler.service
	start scheduler lava-server manage lava-scheduler --level DEBUG \
		--log-file /var/log/lava-server/lava-scheduler.log
	# lava-publisher.service (HOST on localhost)
	start publisher lava-server manage lava-publisher --level DEBUG \
		--log-file /var/log/lava-server/lava-publisher.log --host 127.0.0.1 --port "$WS_PORT"
	wait_for "gunicorn: answering on $URL" 120 curl -sf "${URL}api/v0.2/system/version/" ||
		die "$EX_SYSTEM" "up: gunicorn does not answer on $URL ($S/gunicorn.out, /var/log/lava-server/gunicorn.log)"

	# 5. what the lab holds: a user for lavacli, the worker, the device
	manage users details "$USER_NAME" >/dev/null 2>&1 ||
		manage users add "$USER_NAME" --superuser --staff >/dev/null ||
		die "$EX_SYSTEM" "up: lava-server manage users add $USER_NAME"
	tok=$(manage tokens list --user "$USER_NAME" --csv | awk -F, 'NR == 2 { print $2 }')
	[ -n "$tok" ] || tok=$(manage tokens add --user "$USER_NAME" --description fsbench) ||
		die "$EX_SYSTEM" "up: lava-server manage tokens add --user $USER_NAME"
	(umask 077; echo "http://$USER_NAME:$tok@127.0.0.1:$PORT/RPC2" >"$S/lavacli.uri")
	manage workers details "$WORKER" >/dev/null 2>&1 ||
		manage workers add "$WORKER" --description "fsbench's worker on this machine" >/dev/null ||
		die "$EX_SYSTEM" "up: lava-server manage workers add $WORKER"
	wtok=$(manage workers details "$WORKER" | sed -n 's/^token *: //p')
	(umask 077; printf '%s\n' "$wtok" >"$S/worker.token")
	manage device-types list | grep -q '^ *\* qemu ' || manage device-types add qemu ||
		die "$EX_SYSTEM" "up: lava-server manage device-types add qemu"
	# the device dictionary: LAVA's stock qemu device type; without /dev/kvm
	# TCG (no_kvm); the job's context gives arch, memory and extra_options
	{
		echo "{% extends 'qemu.jinja2' %}"
		[ -c /dev/kvm ] || echo "{% set no_kvm = True %}"
		echo "{% set mac_addr = '52:54:00:12:34:59' %}"
	} >"$S/device.jinja2"
	if ! cmp -s "$S/device.jinja2" "$DICT"; then
		cp "$S/device.jinja2" "$DICT"
		chown lavaserver:lavaserver "$DICT"
		say "$DICT: written"
	fi
	manage devices details "$DEVICE" >/dev/null 2>&1 ||
		manage devices add "$DEVICE" --device-type qemu --worker "$WORKER" \
			--description "fsbench: QEMU from LAVA's stock qemu device type" ||
		die "$EX_SYSTEM" "up: lava-server manage devices add $DEVICE"

	# 6. lava-worker.service (URL on localhost, the worker's name and token)
	start worker lava-worker --level DEBUG --url "$URL" --ws-url "http://127.0.0.1:$WS_PORT/ws/" \
		--name "$WORKER" --token-file "$S/worker.token"
	uri=$(cat "$S/lavacli.uri")
	wait_for "worker $WORKER: online" 120 sh -c \
		"lavacli --uri '$uri' workers show '$WORKER' --yaml | grep -q '^state: Online'" ||
		die "$EX_SYSTEM" "up: the worker $WORKER is not online ($S/worker.out, /var/log/lava-dispatcher/lava-worker.log)"
	wait_for "device $DEVICE: idle" 60 sh -c \
		"lavacli --uri '$uri' devices show '$DEVICE' --yaml | grep -q '^state: Idle'" ||
		die "$EX_SYSTEM" "up: the device $DEVICE is not idle (lavacli devices show $DEVICE)"
	say "up: lavacli --uri \"\$(cat $S/lavacli.uri)\" ..."
}

down() {
	rc=0
	for name in worker publisher scheduler gunicorn; do
		[ -f "$S/$name.pid" ] || continue
		pid=$(cat "$S/$name.pid")
		if alive "$name"; then
			# the process group the session started (setsid: its id is pid)
			kill -TERM "-$pid" 2>/dev/null || :
			n=30
			while kill -0 "$pid" 2>/dev/null && [ "$n" -gt 0 ]; do sleep 1; n=$((n - 1)); done
			if kill -0 "$pid" 2>/dev/null; then
				kill -KILL "-$pid" 2>/dev/null || :
				warn "$name: killed (pid $pid did not stop in 30 s)"
			fi
			say "$name: stopped (pid $pid)"
		fi
		rm -f "$S/$name.pid"
	done
	if [ -f "$S/postgres.started" ]; then
		# shellcheck disable=SC2046
		set -- $(cat "$S/postgres.started")
		if nice -n 19 pg_ctlcluster "$1" "$2" stop; then
			say "postgresql $1/$2: stopped"
			rm -f "$S/postgres.started"
		else
			warn "postgresql $1/$2: pg_ctlcluster stop failed"; rc=$EX_SYSTEM
		fi
	fi
	return "$rc"
}

status() {
	rc=0
	for name in $SERVICES; do
		if alive "$name"; then say "$name: running (pid $(cat "$S/$name.pid"))"
		else say "$name: stopped"; rc=1
		fi
	done
	return "$rc"
}

case "${1:-}" in
up) up ;;
down) down ;;
status) status ;;
*) die "$EX_USAGE" "usage: server.sh up|down|status" ;;
esac
