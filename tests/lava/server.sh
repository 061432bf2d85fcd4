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
#       type and its devices on the worker (LAVA_DEVICES, each tagged with
#       its own name, so that a job can ask for it: `tags: [NAME]`), each
#       dictionary on the accelerator the project's KVM probe finds
#       (qemu/kvm-probe.sh on the board's kernel: KVM only where a KVM guest
#       runs, TCG otherwise); then lava-worker; waits until the worker is
#       online and every device idle. Idempotent: what is there already is
#       kept (a dictionary rewritten when the probe's answer changed), what
#       runs already is left alone.
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
# Inputs (environment): O (build output, absolute; the KVM probe boots
#   $O/image/qemu-x86_64/kernel, make image: without it, TCG), LAVA_PORT,
#   LAVA_WORKER (worker name, default fsbench-worker), LAVA_DEVICES (the
#   devices' names, default LAVA_DEVICE, default fsbench-qemu-01; an A/B
#   on two: "fsbench-qemu-01 fsbench-qemu-02").
# Output: $O/lava-server/: pid files, each service's stdout and stderr
#   (*.out), lavacli.uri (the RPC URI with the user's token, mode 600), the
#   worker's token, accel.txt (the dictionaries' accelerator and the
#   probe's answer: "tcg: KVM probe failed, ..."); LAVA's own logs stay
#   where the units put them (/var/log/lava-server/, /var/log/lava-dispatcher/).
# Exit status: 0, 2 on misuse, 4 when a step failed (said on stderr).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/image/lib.sh"

O=${O:?set O (the build output folder, absolute)}
S=$O/lava-server
PORT=${LAVA_PORT:-8000}
WS_PORT=$((PORT + 1))
WORKER=${LAVA_WORKER:-fsbench-worker}
DEVICES=${LAVA_DEVICES:-${LAVA_DEVICE:-fsbench-qemu-01}}
USER_NAME=fsbench
URL=http://127.0.0.1:$PORT/
# Debian's python3 and tools, whatever python an environment puts first
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
DICTS=/etc/lava-server/dispatcher-config/devices
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

# accel: the accelerator of the devices' QEMU, as the launcher picks it
# (qemu/kvm-probe.sh on the board's kernel, its answer kept where the
# launcher keeps it): "kvm: WHY" only when a KVM guest of the board runs
# here, else "tcg: WHY". A /dev/kvm is not enough: a nested KVM can abort
# the guest ("failed to set MSR 0x10a"). Without the board's kernel there
# is nothing to probe with: TCG, which runs everywhere.
accel() {
	k=$O/image/qemu-x86_64/kernel
	if [ ! -f "$k" ]; then
		echo "tcg: no $k to probe KVM with (make image, then server.sh up again)"
		return 0
	fi
	mkdir -p "$O/run"
	# shellcheck disable=SC2046
	if why=$(cd "$ROOT" && eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)" &&
		export $(set | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p') &&
		nice -n 19 sh qemu/kvm-probe.sh "$k" "$S" "$O/run/kvm-probe-qemu-x86_64.txt"); then
		echo "kvm: $why"
	else
		echo "tcg: ${why:-the KVM probe did not run}"
	fi
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
	# each device's dictionary: LAVA's stock qemu device type, no_kvm
	# unless the KVM probe ran a guest, a MAC of its own; the job's context
	# gives arch, memory and extra_options
	accel >"$S/accel.txt"
	say "devices: $(cat "$S/accel.txt")"
	i=0
	for d in $DEVICES; do
		{
			echo "{% extends 'qemu.jinja2' %}"
			grep -q '^kvm:' "$S/accel.txt" || echo "{% set no_kvm = True %}"
			printf "{%% set mac_addr = '52:54:00:12:34:%02x' %%}\n" $((0x59 + i))
		} >"$S/device-$d.jinja2"
		if ! cmp -s "$S/device-$d.jinja2" "$DICTS/$d.jinja2"; then
			cp "$S/device-$d.jinja2" "$DICTS/$d.jinja2"
			chown lavaserver:lavaserver "$DICTS/$d.jinja2"
			say "$DICTS/$d.jinja2: written"
		fi
		manage devices details "$d" >/dev/null 2>&1 ||
			manage devices add "$d" --device-type qemu --worker "$WORKER" --tags "$d" \
				--description "fsbench: QEMU from LAVA's stock qemu device type" ||
			die "$EX_SYSTEM" "up: lava-server manage devices add $d"
		# a device made before it had its tag
		nice -n 19 lavacli --uri "$(cat "$S/lavacli.uri")" devices tags list "$d" | grep -qx "\* $d" ||
			nice -n 19 lavacli --uri "$(cat "$S/lavacli.uri")" devices tags add "$d" "$d" ||
			die "$EX_SYSTEM" "up: lavacli devices tags add $d $d"
		i=$((i + 1))
	done

	# 6. lava-worker.service (URL on localhost, the worker's name and token)
	start worker lava-worker --level DEBUG --url "$URL" --ws-url "http://127.0.0.1:$WS_PORT/ws/" \
		--name "$WORKER" --token-file "$S/worker.token"
	uri=$(cat "$S/lavacli.uri")
	wait_for "worker $WORKER: online" 120 sh -c \
		"lavacli --uri '$uri' workers show '$WORKER' --yaml | grep -q '^state: Online'" ||
		die "$EX_SYSTEM" "up: the worker $WORKER is not online ($S/worker.out, /var/log/lava-dispatcher/lava-worker.log)"
	for d in $DEVICES; do
		wait_for "device $d: idle" 60 sh -c \
			"lavacli --uri '$uri' devices show '$d' --yaml | grep -q '^state: Idle'" ||
			die "$EX_SYSTEM" "up: the device $d is not idle (lavacli devices show $d)"
	done
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
