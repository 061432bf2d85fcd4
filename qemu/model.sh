# model.sh: the target's disk model (--target-model), for qemu/run.sh
# (sourced): its option, nbdkit started over the target file with
# qemu/diskmodel.py, and stopped when QEMU has ended or the launcher is.
# Options (qemu/run.sh --help lists them with its own):
#   --target-model MODEL  the target is a disk model: nbdkit runs
#                     qemu/diskmodel.py over the target file (its socket
#                     WORK/target.sock, its messages WORK/nbdkit.log) and
#                     QEMU's NVMe target reads and writes it through QEMU's
#                     nbd driver. MODEL: cache[:SIZE] (a volatile write
#                     cache of SIZE, default 64M: what was not flushed is
#                     gone when QEMU or the plugin is killed), lying[:S]
#                     (the same cache; flushes are acknowledged and not
#                     persisted once WORK/target.lie exists, or S seconds
#                     after the start), wrap:SIZE (the target's size is
#                     claimed, SIZE bytes are there: offset X is X % SIZE).
#                     nbdkit is killed when QEMU ends, or when the launcher
#                     is killed or interrupted
# Inputs (qemu/run.sh's variables): tmodel (--target-model), work (the
#   work folder: target.img), tsize, here (qemu/).
# Gives: model_opt OPT ARG (nargs: how many words it took, 0 when OPT is
#   not its own), model_start (nbdkit in the foreground, --exit-with-parent:
#   its socket in tsock, WORK/target.sock; its pid in npid and
#   WORK/nbdkit.pid, its messages in WORK/nbdkit.log; what the console
#   says of the model in tmodel_text), model_stop SIG (nbdkit stopped).
# Exit status: through ../image/lib.sh's die, 2 on misuse, 4 when nbdkit
#   is missing or does not start.

. "$here/../image/lib.sh"
prog=qemu

tmodel= tsock= tmodel_text= npid=

model_opt() {
	nargs=0
	case $1 in
	--target-model)
		case $2 in
		cache|cache:?*|lying|lying:?*|wrap:?*) ;;
		*) die $EX_USAGE "--target-model '$2': cache[:SIZE], lying[:SECONDS] or wrap:SIZE" ;;
		esac
		case $2 in lying:*[!0-9]*) die $EX_USAGE "--target-model '$2': lying:SECONDS, a number of seconds" ;; esac
		tmodel=$2 nargs=2 ;;
	*) return 1 ;;
	esac
}

model_start() {
	[ -n "$tmodel" ] || return 0
	command -v nbdkit >/dev/null 2>&1 ||
		die $EX_SYSTEM "--target-model: no nbdkit (sh image/deps.sh image installs nbdkit and nbdkit-plugin-python)"
	tsock=$work/target.sock
	rm -f "$tsock"	# a cut nbdkit (--work) leaves its socket behind
	[ "${#tsock}" -le 100 ] ||
		die $EX_USAGE "--target-model: the socket path $tsock is too long for a unix socket (a shorter O)"
	set -- file="$work/target.img" model="$tmodel"
	# the lie fires in this boot or not at all (--work keeps the folder)
	rm -f "$work/target.lie"
	case $tmodel in lying|lying:*) set -- "$@" trigger="$work/target.lie" ;; esac
	# Foreground, so $! is nbdkit itself; --exit-with-parent: gone with the
	# launcher even when the launcher is killed outright.
	nbdkit --foreground --exit-with-parent --unix "$tsock" \
		python "$here/diskmodel.py" "$@" >"$work/nbdkit.log" 2>&1 </dev/null &
	npid=$!
	echo "$npid" >"$work/nbdkit.pid"
	_n=0
	while [ ! -S "$tsock" ]; do
		if ! kill -0 "$npid" 2>/dev/null || [ "$_n" -ge 100 ]; then
			sed 's/^/  /' "$work/nbdkit.log" >&2
			model_stop KILL
			die $EX_SYSTEM "--target-model $tmodel: nbdkit did not start (above: what it said)"
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	case $tmodel in
	cache) tmodel_text="cache (volatile write cache of 64M: only flushed writes survive a kill)" ;;
	cache:*) tmodel_text="$tmodel (volatile write cache of ${tmodel#cache:}: only flushed writes survive a kill)" ;;
	lying:*) tmodel_text="$tmodel (write cache whose flushes lie from ${tmodel#lying:} s after the start)" ;;
	lying) tmodel_text="lying (write cache whose flushes lie once $work/target.lie exists)" ;;
	wrap:*) tmodel_text="$tmodel ($tsize claimed, ${tmodel#wrap:} there: offsets wrap around)" ;;
	esac
	tmodel_text="$tmodel_text, nbdkit pid $npid on $tsock, qemu/diskmodel.py"
}

# The disk model's nbdkit never outlives the run. model_stop SIG: SIGTERM
# once QEMU has ended (the plugin persists nothing on its way out: what
# QEMU did not flush is gone either way; 5 s, then SIGKILL), SIGKILL when
# the launcher itself is interrupted.
model_stop() {
	[ -n "$npid" ] || return 0
	kill -"$1" "$npid" 2>/dev/null || true
	_n=0
	while kill -0 "$npid" 2>/dev/null && [ "$_n" -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	kill -KILL "$npid" 2>/dev/null || true
	wait "$npid" 2>/dev/null || true
	npid=
}
