#!/bin/sh
# tests/lava/server-check.sh (make check-lava-server): the qemu-x86_64 job
# through a real LAVA server on this machine (tests/lava/server.sh up:
# PostgreSQL, lava-server's gunicorn, scheduler and publisher, a
# lava-worker, a device of LAVA's stock qemu device type).
#   1. the job: board/qemu-x86_64/lava/job.yaml as make check-lava makes it
#      (tests/lava/lava.py render: its images the launcher's, fetched with
#      file://, short timeouts), the smoke profile on ext4, brief (BRIEF
#      of tests/lib.sh), the board's criteria for ext4 alone on the disk
#      copy's ESP, the target a sparse file of the work folder; the server
#      validates it (lavacli jobs validate).
#   2. lavacli jobs submit; the scheduler gives it to the device, the
#      worker runs it (lava-run, QEMU under TCG without /dev/kvm); lavacli
#      jobs wait.
#   3. read back through lavacli: the job finished, Complete, on the
#      device; QEMU started as the stock device type and the job's context
#      say; LAVA's job and monitors test passed; every FSBENCH-RESULT
#      line of the console (lavacli jobs logs) is a case of the suite
#      fsbench with its result, measurement and units (lavacli results),
#      and there is no other; each fs x round x phase passed with its
#      seconds; each check of the verdict the host's `fsbench verdict
#      --lava` gives on the console's records is a case, the same;
#      fsbench-run passed.
# The server is left as found: stopped at the end (tests/lava/server.sh
# down) when it was not running before, and then no process of its
# services' groups is left, nothing listens on their ports. SKIP with the reason without root
# or the packages (sh image/deps.sh lavaserver). Figures (INFO): the
# setup's time, the job's (submitted to finished), its cases by result.
# Inputs (environment): O (build output, absolute), FSBENCH_HOST, LAVA_PORT,
#   LAVA_DEVICE (see server.sh).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work
#   files under $O/tests/lava-server/.
set -eu

O=${O:?run through make check-lava-server}
T=$O/tests/lava-server
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
DEVICE=${LAVA_DEVICE:-fsbench-qemu-01}
. tests/lib.sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH
py=/usr/bin/python3
lava() { "$py" tests/lava/lava.py "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

rm -rf "$T"
test_init 'lava server tests' "$T"

why=
if [ "$(id -u)" != 0 ]; then why="not root (lava-worker and lava-run run as root)"
else
	for t in lava-server lava-worker lava-run lavacli pg_ctlcluster qemu-system-x86_64; do
		have "$t" || { why="no $t (sh image/deps.sh lavaserver image)"; break; }
	done
fi
[ -n "$why" ] || "$py" -c 'import yaml' 2>/dev/null || why="no PyYAML in $py (Debian python3-yaml)"
if [ -n "$why" ]; then
	skip "lava server: $why"
	summary
	exit $?
fi
[ -x "$FSBENCH_HOST" ] || { fail "no $FSBENCH_HOST (make host)"; summary; exit 1; }

# ---- the server ------------------------------------------------------
was_up=0
sh tests/lava/server.sh status >/dev/null 2>&1 && was_up=1
stop_server() { [ "$was_up" = 1 ] || sh tests/lava/server.sh down >"$T/down.log" 2>&1 || :; }
trap stop_server EXIT
trap 'exit 1' INT TERM
t0=$(now)
if ! sh tests/lava/server.sh up >"$T/up.log" 2>&1; then
	fail "tests/lava/server.sh up"; tail -n 15 "$T/up.log"; summary; exit 1
fi
pass "server up: PostgreSQL, gunicorn, scheduler, publisher, worker online, $DEVICE idle"
info "server up: $(secs "$t0" "$(now)") s$( [ "$was_up" = 1 ] && echo ' (running already)')"
uri=$(cat "$O/lava-server/lavacli.uri")
cli() { nice -n 19 lavacli --uri "$uri" "$@"; }
check "every service listens on 127.0.0.1 only" sh -c \
	"pids=\$(cat '$O'/lava-server/*.pid | tr '\n' '|'); ! ss -Hltnp | grep -E \"pid=(\${pids%|}),\" | awk '{ print \$4 }' | grep -v '^127\.0\.0\.1:'"
check "the device is LAVA's stock qemu type (lavacli devices show)" sh -c \
	"lavacli --uri '$uri' devices show '$DEVICE' --yaml | grep -qx 'device_type: qemu'"

# ---- 1. the job --------------------------------------------------------
img=$O/image/qemu-x86_64
make -s --no-print-directory BOARD=qemu-x86_64 image ROOTFS=ext4 >"$T/build.log" 2>&1 || {
	fail "make BOARD=qemu-x86_64 image"; tail -n 20 "$T/build.log"; summary; exit 1
}
imgs=$T/images
mkdir -p "$imgs" "$T/work"
ln -sf "$img/vmlinux" "$imgs/vmlinux"
ln -sf "$img/initramfs.cpio.gz" "$imgs/initramfs.cpio.gz"
cp --sparse=always "$img/disk-ext4.img" "$imgs/disk-ext4.img"
# the board's criteria for a run of ext4 alone: fs_ok ext4, ext4's floors
sed -e 's/^fs_ok = .*/fs_ok = ext4/' -e '/^min_files_per_s\.\(xfs\|btrfs\|f2fs\)\./d' \
	board/qemu-x86_64/criteria.conf >"$T/criteria.conf"
check "the criteria for ext4 alone: the board's, fs_ok = ext4, ext4's floors" sh -c \
	"grep -qx 'fs_ok = ext4' '$T/criteria.conf' && grep -q '^min_files_per_s\.ext4\.' '$T/criteria.conf' &&
	 ! grep -q '^min_files_per_s\.\(xfs\|btrfs\|f2fs\)' '$T/criteria.conf'"
check "the disk copy's ESP holds the criteria (qemu/esp.sh --criteria)" \
	sh qemu/esp.sh --criteria "$imgs/disk-ext4.img" "$T/criteria.conf"
lava monitors board/README.md board/qemu-x86_64/lava/job.yaml >"$T/monitors.yaml"
# qemu/cmdline.sh's argv, as make check-lava gets it, for render's check of
# the images
(
	eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
	# shellcheck disable=SC2046
	export $(set | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p')
	env WORK="$T/work" SERIAL=- UEFI=0 KERNEL='{kernel}' INITRD='{initrd}' ROOTFS=ext4 \
		PROFILE= APPEND=' fsbench.lava=1' ACCEL=tcg CPU="$BOARD_QEMU_CPU_TCG" TCACHE=none \
		sh qemu/cmdline.sh "$T/job.argv"
) >"$T/cmdline.log" 2>&1 || { fail "qemu/cmdline.sh"; tail -n 5 "$T/cmdline.log"; summary; exit 1; }
check "the job's images are the launcher's (lava.py render)" \
	lava render "$T/job.argv" "$T/work" board/qemu-x86_64/lava/job.yaml "$imgs" \
	"fsbench.profile=smoke fsbench.fs=ext4 $BRIEF" "$T/rendered.yaml" "$T/lava-run-device.yaml"
# the target: a sparse file here instead of the lab's
# /var/lib/lava/fsbench/target.img; cache=none needs O_DIRECT
truncate -s "$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_TARGET_SIZE")" "$T/work/target.img"
cache=none
dd if=/dev/zero of="$T/work/target.img" bs=4096 count=1 conv=notrunc oflag=direct 2>/dev/null || cache=writeback
sed -e "s#file=/var/lib/lava/fsbench/target.img,\(.*\)cache=none#file=$T/work/target.img,\1cache=$cache#" \
	-e "s#^job_name: .*#job_name: fsbench qemu-x86_64 smoke (make check-lava-server)#" \
	"$T/rendered.yaml" >"$T/job.yaml"
check "the job's target is the work folder's sparse file (cache=$cache)" \
	grep -q "file=$T/work/target.img,.*cache=$cache" "$T/job.yaml"
check "the server validates the job (lavacli jobs validate)" sh -c \
	"lavacli --uri '$uri' jobs validate '$T/job.yaml' >'$T/validate.out' 2>&1 && ! grep -qi 'error\|invalid' '$T/validate.out'"

# ---- 2. submitted, scheduled, run ---------------------------------------
t1=$(now)
id=$(cli jobs submit "$T/job.yaml" 2>"$T/submit.err") || id=
case "$id" in
'' | *[!0-9]*) fail "lavacli jobs submit: ${id:-}$(cat "$T/submit.err")"; summary; exit 1 ;;
esac
pass "lavacli jobs submit: job $id"
set +e
timeout -k 10 1800 nice -n 19 lavacli --uri "$uri" jobs wait "$id" --polling 5 >"$T/wait.out" 2>&1
wrc=$?
set -e
took=$(secs "$t1" "$(now)")
check "lavacli jobs wait: the job finished in 30 min" [ "$wrc" -eq 0 ]
cli jobs show "$id" --yaml >"$T/show.yaml" 2>&1 || :
cli jobs logs "$id" --raw >"$T/job.log" 2>&1 || :
cli results "$id" --json >"$T/results.json" 2>"$T/results.err" || :

# ---- 3. read back --------------------------------------------------------
yget() { "$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]])' "$T/show.yaml" "$1" 2>/dev/null; }
check "job $id: Finished, Complete, on $DEVICE (lavacli jobs show)" \
	[ "$(yget state) $(yget health) $(yget device)" = "Finished Complete $DEVICE" ]
# the QEMU command: LAVA's stock qemu device type (its options, the
# dictionary's MAC), then the job's context (machine, CPUs, the target)
sed -n 's/.*"msg": "Boot command: \(.*\)"}$/\1/p' "$T/job.log" >"$T/boot.cmd"
check "the boot command: the stock qemu type's options, the dictionary's MAC, the job's q35 and NVMe target" grep -q \
	"^/usr/bin/qemu-system-x86_64 \(-cpu host -enable-kvm \)\?-nographic -net nic,model=virtio,macaddr=52:54:00:12:34:59 -net user -m 2048 -monitor none -machine q35 -smp 2 -no-reboot -drive file=$T/work/target.img,.* -device nvme,drive=target," \
	"$T/boot.cmd"
lava server-results "$T/results.json" >"$T/cases" 2>"$T/cases.err" || :
lava console "$T/job.log" | tr -d '\r' >"$T/console" 2>/dev/null || :
lava expect "$T/monitors.yaml" <"$T/console" >"$T/expected" 2>"$T/expected.err" || :
check "LAVA's job and monitors test passed (lavacli results)" sh -c \
	"grep -q '^lava	job	pass	' '$T/cases' && grep -q '^lava	lava-test-monitor	pass	' '$T/cases'"
grep '^fsbench	' "$T/cases" | sort >"$T/got.sorted" || :
sort "$T/expected" >"$T/expected.sorted"
n=$(wc -l <"$T/expected.sorted")
if [ "$n" -gt 0 ] && cmp -s "$T/expected.sorted" "$T/got.sorted"; then
	pass "the $n FSBENCH-RESULT lines of the console are the suite fsbench's cases: result, measurement, units, id"
else
	fail "the suite fsbench's cases differ from the console's FSBENCH-RESULT lines ($n):"
	diff "$T/expected.sorted" "$T/got.sorted" | head -n 20 || :
fi
# each fs x round x phase the run was given (its run_start record)
given=$(sed -n 's/^FSBENCH:\({.*"type":"run_start".*\)/\1/p' "$T/console" |
	jq -r '"\(.config.fs) \(.config.rounds)"' 2>/dev/null || :)
bad=
# shellcheck disable=SC2086
set -- $given
[ $# -eq 2 ] || bad=" (no run_start record on the console)"
if [ $# -eq 2 ]; then
	for fs in $(echo "$1" | tr , ' '); do
		r=1
		while [ "$r" -le "$2" ]; do
			for ph in create stat read read_inode delete fstrim; do
				c=$fs-r$r-$ph
				s=$(sed -n "s/^FSBENCH:{.*\"type\":\"phase\".*\"fs\":\"$fs\",\"round\":$r,\"phase\":\"$ph\".*\"seconds\":\([^,]*\),.*/\1/p" "$T/console")
				want=$(printf 'FSBENCH-RESULT: test_case_id=%s result=pass measurement=%s units=s\n' "$c" "$s" |
					lava expect "$T/monitors.yaml" 2>/dev/null | cut -f2-5)
				got=$(awk -F '\t' -v c="$c" '$1 == "fsbench" && $6 == c { print $2 "\t" $3 "\t" $4 "\t" $5 }' "$T/cases")
				[ -n "$s" ] && [ "$got" = "$want" ] || bad="$bad $c(${got:-missing}; record ${s:-missing})"
			done
			r=$((r + 1))
		done
	done
fi
if [ -z "$bad" ]; then
	pass "every fs x round x phase ($1, $2 round$( [ "$2" = 1 ] || echo s)) is a passed case with its record's seconds, units s"
else
	fail "fs x round x phase cases:$bad"
fi
# the verdict's checks, as the host's verdict --lava gives them
grep '^FSBENCH:{' "$T/console" >"$T/serial" || :
"$FSBENCH_HOST" verdict "$T/serial" --criteria "$T/criteria.conf" --lava >"$T/verdict.out" 2>&1 || :
lava expect "$T/monitors.yaml" <"$T/verdict.out" | grep -v '	fsbench-run$' | sort >"$T/verdict.want" 2>/dev/null || :
nv=$(wc -l <"$T/verdict.want")
check "the $nv checks of the verdict are cases, as the host's verdict --lava has them" sh -c \
	"[ '$nv' -gt 0 ] && grep -q '^fsbench	verdict_' '$T/verdict.want' && [ -z \"\$(comm -23 '$T/verdict.want' '$T/got.sorted')\" ]"
check "fsbench-run passed" grep -q '^fsbench	fsbench_run	pass		' "$T/cases"

np=$(grep -c '^fsbench	' "$T/cases" || :)
info "job $id: submitted to finished in $took s; $np cases in suite fsbench ($(grep '^fsbench	' "$T/cases" | cut -f3 | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')), $(wc -l <"$T/cases") in all"

# ---- the server as found -------------------------------------------------
if [ "$was_up" = 0 ]; then
	pids=$(cat "$O"/lava-server/*.pid 2>/dev/null | tr '\n' ' ')
	t2=$(now)
	check "server down (tests/lava/server.sh down)" sh -c "sh tests/lava/server.sh down >'$T/down.log' 2>&1"
	trap - EXIT
	left=
	# a process of the group, not a zombie its new parent has yet to reap
	for p in $pids; do
		[ -z "$(ps -e -o pgid=,stat= | awk -v g="$p" '$1 == g && $2 !~ /^Z/')" ] || left="$left $p"
	done
	check "no process of the services' groups is left (${pids% }), nothing listens on their ports" sh -c \
		"[ -z '$left' ] && ! ss -Hltn | awk '{ print \$4 }' | grep -qx '127\.0\.0\.1:\(${LAVA_PORT:-8000}\|$((${LAVA_PORT:-8000} + 1))\|5500\)'"
	info "server down: $(secs "$t2" "$(now)") s"
fi
summary
