#!/bin/sh
# lockstep.sh: the aging study's settings on a loop device (runner/SUITE.md):
# create_lockstep and create_cpu = migrate said by the create records
# (lockstep, cpu_policy, cpus_used) and by the config record; a variant's
# sysfs knob (variant.ext4:s0 = sysfs:mb_stream_req=0) in its fs_start and
# really set on the mounted filesystem; a knob the filesystem lacks fails
# that column with an error record naming the file, the run going on.
# Run alone: O=out sh tests/host/lockstep.sh (root, jq).
# Inputs: $O/host/fsbench; the kernel's ext4 and mke2fs.
# Outputs: scratch files under $O/tests/host-lockstep (the loop device's
# file is sparse). Touches only the loop device it makes.
set -eu
. "$(dirname "$0")/lib.sh"
host_init host-lockstep
if [ "$(id -u)" != 0 ]; then skip "lockstep: need root for loop devices and mount"; summary; exit $?; fi
have jq || { fail "lockstep: jq not found, it reads the records"; summary; exit 1; }
H=${FSBENCH:-$HFSB}
[ -x "$H" ] || { fail "lockstep: $H missing (make host)"; summary; exit 1; }
L=$S/lockstep
mkdir -p "$L"
lcount() { count "$L/records.jsonl" "$1"; }

# ---- misuse, nothing run ----
expect_rc 2 "lockstep: create_cpu of no policy" "$H" run --target /dev/null --create_cpu spread
expect_err "create_cpu=spread"
expect_rc 2 "lockstep: a sysfs knob that is not KEY=VALUE" "$H" run --target /dev/null \
	--fs ext4:x --variant.ext4:x sysfs:mb_stream_req
expect_err "bad at 'mb_stream_req'"

# ---- ext4 and ext4:s0 in lockstep, moved across the CPUs; ext4:bad's
# knob does not exist ----
new_loop LD "$L/lockstep.img" 1G
mnt=$L/mnt
"$H" run --target "$LD" --yes --mnt "$mnt" --fs ext4,ext4:s0,ext4:bad \
	--variant.ext4:s0 sysfs:mb_stream_req=0 --variant.ext4:bad sysfs:no_such_knob=1 \
	--dirs 4 --workers 4 --files 100 --rounds 2 --create_lockstep 1 --create_cpu migrate \
	--capacity 0 --control 0 --progress 0 >"$L/records.jsonl" 2>"$L/stderr" || true
check "lockstep: every create record says lockstep and migrate" \
	[ "$(lcount '.type == "phase" and .phase == "create" and .lockstep == true and .cpu_policy == "migrate" and .cpus_used >= 1')" -eq 4 ]
check "lockstep: no other phase says it" \
	[ "$(lcount '.type == "phase" and .phase != "create" and (has("lockstep") or has("cpu_policy"))')" -eq 0 ]
check "lockstep: the config record holds both settings" \
	[ "$(lcount '.type == "run_start" and .config.create_lockstep == 1 and .config.create_cpu == "migrate"')" -eq 1 ]
check "lockstep: every file made (4 x 100 a round)" \
	[ "$(lcount '.type == "phase" and .phase == "create" and .files == 400 and .errors == 0')" -eq 4 ]
check "lockstep: ext4:s0's fs_start has its knob" \
	[ "$(lcount '.type == "fs_start" and .fs == "ext4:s0" and .variant.sysfs == "mb_stream_req=0"')" -eq 1 ]
check "lockstep: ext4 and ext4:s0 ok" \
	[ "$(lcount '.type == "fs_end" and (.fs == "ext4" or .fs == "ext4:s0") and .status == "ok"')" -eq 2 ]
dev=$(basename "$(readlink -f "$LD")")
check "lockstep: ext4:bad failed on its knob, the file named" \
	[ "$(lcount ".type == \"error\" and .fs == \"ext4:bad\" and .op == \"sysfs\" and (.msg | contains(\"/sys/fs/ext4/$dev/no_such_knob\"))")" -eq 1 ]
check "lockstep: ext4:bad's fs_end failed" \
	[ "$(lcount '.type == "fs_end" and .fs == "ext4:bad" and .status == "failed"')" -eq 1 ]
# the knob as the kernel holds it while the variant is mounted: the
# runner (a session of its own) stopped as soon as its records say the
# create phase starts (after the mount and the knob), the sysfs file read,
# the runner let go on. 20,000 files keep the filesystem mounted far
# longer than the test takes to see the record and stop it.
fifo=$L/records.fifo
rm -f "$fifo"; mkfifo "$fifo"
setsid "$H" run --target "$LD" --yes --mnt "$mnt" --fs ext4:s0 --variant.ext4:s0 sysfs:mb_stream_req=0 \
	--dirs 1 --workers 1 --files 20000 --rounds 1 --capacity 0 --control 0 --progress 0 \
	>"$fifo" 2>"$L/knob.err" &
pid=$!
seen=""
while IFS= read -r line; do
	case $line in *'"phase_start"'*'"phase":"create"'*) ;; *) continue ;; esac
	[ -z "$seen" ] || continue
	kill -STOP -$pid 2>/dev/null || { seen="(the runner had ended)"; continue; }
	seen=$(cat "/sys/fs/ext4/$dev/mb_stream_req" 2>/dev/null || echo "(no file)")
	kill -CONT -$pid 2>/dev/null || true
done <"$fifo"
wait $pid || true
check "lockstep: the mounted ext4:s0 reads mb_stream_req 0 ($seen)" sh -c \
	'case " $1 " in *" 0 "*) exit 0 ;; esac; exit 1' - "$seen"
summary
