#!/bin/sh
# tests/lava/server-check.sh [job|ab]: the qemu-x86_64 job through a real
# LAVA server on this machine (tests/lava/server.sh up: PostgreSQL,
# lava-server's gunicorn, scheduler and publisher, a lava-worker, devices
# of LAVA's stock qemu device type, their dictionaries on the accelerator
# the project's KVM probe finds: TCG where a KVM guest does not run).
# First the image (make image: the probe boots its kernel), then the
# server; each device's dictionary checked against the probe's answer
# (no_kvm unless KVM ran a guest).
# Part job (make check-lava-server; $O/tests/lava-server/):
#   1. the job: board/qemu-x86_64/lava/job.yaml as make check-lava makes it
#      (tests/lava/lava.py render: its images the launcher's, fetched with
#      file://, short timeouts), the smoke profile on ext4, brief (BRIEF
#      of tests/lib.sh), the board's criteria for ext4 alone on the disk
#      copy's ESP, the target a sparse file of the work folder, asking for
#      the device LAVA_DEVICE by its tag; the server validates it (lavacli
#      jobs validate).
#   2. lavacli jobs submit; the scheduler gives it to the device, the
#      worker runs it (lava-run, QEMU under TCG where the probe found no
#      KVM); lavacli jobs wait.
#   3. read back through lavacli: the job finished, Complete, on the
#      device; QEMU started as the stock device type, the dictionary's
#      accelerator and the job's context say; LAVA's job and monitors
#      test passed; every FSBENCH-RESULT
#      line of the console (lavacli jobs logs) is a case of the suite
#      fsbench with its result, measurement and units (lavacli results),
#      and there is no other; each fs x round x phase passed with its
#      seconds; each check of the verdict the host's `fsbench verdict
#      --lava` gives on the console's records is a case, the same;
#      fsbench-run passed.
# Part ab (make check-lava-ab; $O/tests/lava-ab/): an A/B through the
#   server with tests/lava/ab.sh on two devices (LAVA_AB_DEVICES, default
#   fsbench-qemu-01 fsbench-qemu-02): side A the job of part 1 (ext4,
#   brief, no capacity check), side B the same with its target throttled
#   (throttling.iops-total=200 on the target's -drive); 2 blocks in the
#   order of a seed (LAVA_AB_SEED, or drawn and printed), block K on the
#   K-th device, each job on a fresh target file of its own. Checked:
#   order.txt is qemu/aborder.sh's; each block's A and B ran on its
#   device, Complete, one after another in the order (their start and end
#   times); each job's QEMU on its own target file, B's throttled and A's
#   not; compare got 2 runs a side, which cannot decide a row (ab.sh and
#   compare exit 5, every row undecided with the runs a side it needs);
#   the throttle shows (B/A of ext4's cold read above 2).
# The server is left as found: stopped at the end (tests/lava/server.sh
# down) when it was not running before, and then no process of its
# services' groups is left, nothing listens on their ports. SKIP with the reason without root
# or the packages (sh image/deps.sh lavaserver). Figures (INFO): the
# setup's time, the job's (submitted to finished), its cases by result;
# the A/B's time and each boot's.
# Inputs (environment): O (build output, absolute), FSBENCH_HOST, LAVA_PORT,
#   LAVA_DEVICE (part job's device, see server.sh), LAVA_AB_DEVICES,
#   LAVA_AB_SEED.
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work
#   files under $O/tests/lava-server/ (job) or $O/tests/lava-ab/ (ab).
set -eu

O=${O:?run through make check-lava-server or check-lava-ab}
part=${1:-job}
case $part in
job) T=$O/tests/lava-server ;;
ab) T=$O/tests/lava-ab ;;
*) echo "server-check.sh: part '$part': job or ab" >&2; exit 2 ;;
esac
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
DEVICE=${LAVA_DEVICE:-fsbench-qemu-01}
if [ "$part" = ab ]; then
	LAVA_DEVICES=${LAVA_AB_DEVICES:-fsbench-qemu-01 fsbench-qemu-02}
else
	LAVA_DEVICES=$DEVICE
fi
export LAVA_DEVICES
. tests/lib.sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH
py=/usr/bin/python3
lava() { "$py" tests/lava/lava.py "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

rm -rf "$T"
test_init "lava server tests ($part)" "$T"

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

# ---- the image (the KVM probe boots its kernel), the server ------------
img=$O/image/qemu-x86_64
make -s --no-print-directory BOARD=qemu-x86_64 image ROOTFS=ext4 >"$T/build.log" 2>&1 || {
	fail "make BOARD=qemu-x86_64 image"; tail -n 20 "$T/build.log"; summary; exit 1
}
was_up=0
sh tests/lava/server.sh status >/dev/null 2>&1 && was_up=1
stop_server() { [ "$was_up" = 1 ] || sh tests/lava/server.sh down >"$T/down.log" 2>&1 || :; }
trap stop_server EXIT
trap 'exit 1' INT TERM
t0=$(now)
if ! sh tests/lava/server.sh up >"$T/up.log" 2>&1; then
	fail "tests/lava/server.sh up"; tail -n 15 "$T/up.log"; summary; exit 1
fi
pass "server up: PostgreSQL, gunicorn, scheduler, publisher, worker online, $LAVA_DEVICES idle"
info "server up: $(secs "$t0" "$(now)") s$( [ "$was_up" = 1 ] && echo ' (running already)')"
uri=$(cat "$O/lava-server/lavacli.uri")
cli() { nice -n 19 lavacli --uri "$uri" "$@"; }
check "every service listens on 127.0.0.1 only" sh -c \
	"pids=\$(cat '$O'/lava-server/*.pid | tr '\n' '|'); ! ss -Hltnp | grep -E \"pid=(\${pids%|}),\" | awk '{ print \$4 }' | grep -v '^127\.0\.0\.1:'"
# the accelerator: the KVM probe's answer, as the launcher has it
accel=$(sed -n 's/^\(kvm\|tcg\): .*/\1/p' "$O/lava-server/accel.txt" 2>/dev/null)
info "devices' accelerator: $(cat "$O/lava-server/accel.txt" 2>/dev/null)"
probe=tcg
(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
	# shellcheck disable=SC2046
	export $(set | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p')
	mkdir -p "$T/probe" "$O/run"
	sh qemu/kvm-probe.sh "$img/kernel" "$T/probe" "$O/run/kvm-probe-qemu-x86_64.txt") >"$T/probe.txt" 2>&1 && probe=kvm
check "the devices' accelerator is the KVM probe's ($probe: $(head -n 1 "$T/probe.txt"))" [ "$accel" = "$probe" ]
for d in $LAVA_DEVICES; do
	check "$d: LAVA's stock qemu type (lavacli devices show), tagged $d" sh -c \
		"lavacli --uri '$uri' devices show '$d' --yaml >'$T/$d.yaml' && grep -qx 'device_type: qemu' '$T/$d.yaml' &&
		 lavacli --uri '$uri' devices tags list '$d' | grep -qx '\* $d'"
	if [ "$accel" = kvm ]; then
		check "$d: its dictionary runs KVM (no no_kvm)" sh -c \
			"! grep -q no_kvm /etc/lava-server/dispatcher-config/devices/$d.jinja2"
	else
		check "$d: its dictionary runs TCG (no_kvm)" \
			grep -qx '{% set no_kvm = True %}' "/etc/lava-server/dispatcher-config/devices/$d.jinja2"
	fi
done
# what the stock type puts before -nographic: KVM's CPU and switch, or nothing
if [ "$accel" = kvm ]; then kvm_args='-cpu host -enable-kvm '; else kvm_args=; fi

# ---- 1. the job --------------------------------------------------------
# the board's criteria for a run of ext4 alone: fs_ok ext4, ext4's floors
sed -e 's/^fs_ok = .*/fs_ok = ext4/' -e '/^min_files_per_s\.\(xfs\|btrfs\|f2fs\)\./d' \
	board/qemu-x86_64/criteria.conf >"$T/criteria.conf"
check "the criteria for ext4 alone: the board's, fs_ok = ext4, ext4's floors" sh -c \
	"grep -qx 'fs_ok = ext4' '$T/criteria.conf' && grep -q '^min_files_per_s\.ext4\.' '$T/criteria.conf' &&
	 ! grep -q '^min_files_per_s\.\(xfs\|btrfs\|f2fs\)' '$T/criteria.conf'"
imgs=$T/images
mkdir -p "$imgs" "$T/work"
ln -sf "$img/vmlinux" "$imgs/vmlinux"
ln -sf "$img/initramfs.cpio.gz" "$imgs/initramfs.cpio.gz"
cp --sparse=always "$img/disk-ext4.img" "$imgs/disk-ext4.img"
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
# the target: a sparse file here instead of the lab's
# /var/lib/lava/fsbench/target.img; cache=none needs O_DIRECT
truncate -s "$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_TARGET_SIZE")" "$T/work/target.img"
cache=none
dd if=/dev/zero of="$T/work/target.img" bs=4096 count=1 conv=notrunc oflag=direct 2>/dev/null || cache=writeback
# render NAME WORDS TITLE [DEVICE]: the job with WORDS on the kernel
# command line, its target the work folder's file, named TITLE, asking for
# DEVICE by its tag, in $T/NAME.yaml
render() {
	check "$1: the job's images are the launcher's (lava.py render)" \
		lava render "$T/job.argv" "$T/work" board/qemu-x86_64/lava/job.yaml "$imgs" \
		"$2" "$T/$1.rendered.yaml" "$T/$1.lava-run-device.yaml"
	sed -e "s#file=/var/lib/lava/fsbench/target.img,\(.*\)cache=none#file=$T/work/target.img,\1cache=$cache#" \
		-e "s#^job_name: .*#job_name: $3#" \
		"$T/$1.rendered.yaml" >"$T/$1.yaml"
	[ -z "${4:-}" ] || printf 'tags:\n- %s\n' "$4" >>"$T/$1.yaml"
	check "$1: the job's target is the work folder's sparse file (cache=$cache)" \
		grep -q "file=$T/work/target.img,.*cache=$cache" "$T/$1.yaml"
	check "$1: the server validates the job (lavacli jobs validate)" sh -c \
		"lavacli --uri '$uri' jobs validate '$T/$1.yaml' >'$T/$1.validate.out' 2>&1 && ! grep -qi 'error\|invalid' '$T/$1.validate.out'"
}

if [ "$part" = job ]; then
render job "fsbench.profile=smoke fsbench.fs=ext4 $BRIEF" \
	"fsbench qemu-x86_64 smoke (make check-lava-server)" "$DEVICE"

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
check "the boot command: the stock qemu type's options ($accel), the dictionary's MAC, the job's q35 and NVMe target" grep -q \
	"^/usr/bin/qemu-system-x86_64 $kvm_args-nographic -net nic,model=virtio,macaddr=52:54:00:12:34:59 -net user -m 2048 -monitor none -machine q35 -smp 2 -no-reboot -drive file=$T/work/target.img,.* -device nvme,drive=target," \
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

fi

# ---- ab: an A/B through the server (tests/lava/ab.sh) ----------------------
if [ "$part" = ab ]; then
	words="fsbench.profile=smoke fsbench.fs=ext4 $BRIEF fsbench.capacity=0"
	render a "$words" "fsbench qemu-x86_64 A/B side A (make check-lava-ab)"
	render b "$words" "fsbench qemu-x86_64 A/B side B, target throttled (make check-lava-ab)"
	# side B: the target's -drive throttled
	sed -i '/^ *- -drive file=.*,id=target,/s/$/,throttling.iops-total=200/' "$T/b.yaml"
	check "b: side B's target -drive is throttled, side A's not" sh -c \
		"grep -q '^ *- -drive file=.*,id=target,.*,throttling.iops-total=200\$' '$T/b.yaml' && ! grep -q throttling '$T/a.yaml'"
	seed=${LAVA_AB_SEED:-$(sh qemu/aborder.sh --seed)}
	info "ab: seed $seed (again: LAVA_AB_SEED=$seed make check-lava-ab)"
	size=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_TARGET_SIZE")
	t1=$(now)
	set +e
	sh tests/lava/ab.sh --uri "$uri" --devices "$LAVA_DEVICES" --seed "$seed" --blocks 2 \
		--fresh-target "$size" --fsbench "$FSBENCH_HOST" --timeout 1800 \
		"$T/a.yaml" "$T/b.yaml" "$T/ab" >"$T/ab.out" 2>&1
	arc=$?
	set -e
	took=$(secs "$t1" "$(now)")
	sed 's/^/  /' "$T/ab.out"
	check "ab.sh ran the A/B to compare's answer: exit 5 (2 runs a side cannot decide a row), not 4 (not whole) or 2" [ "$arc" -eq 5 ]
	sh qemu/aborder.sh "$seed" 2 >"$T/order.want"
	check "order.txt is qemu/aborder.sh $seed 2's; boots.txt follows it" sh -c \
		"grep -v '^#' '$T/ab/order.txt' | cmp -s - '$T/order.want' &&
		 awk '{ print \$2, \$3 }' '$T/ab/boots.txt' | cmp -s - '$T/order.want'"
	set -- $LAVA_DEVICES
	check "each block's A and B on its own device (block 1 on $1, block 2 on ${2:-$1}), Complete" \
		awk -v d1="$1" -v d2="${2:-$1}" '{ n++; if ($4 != ($2 == 1 ? d1 : d2) || $8 != "Complete") exit 1 } END { exit n != 4 }' \
		"$T/ab/boots.txt"
	check "on each device, its block's two jobs one after another in the order (start after the other's end)" \
		awk '($4 in e) && $6 < e[$4] { exit 1 } { e[$4] = $7 }' "$T/ab/boots.txt"
	# each job's QEMU: its boot command in its log
	for d in "$T/ab"/*-*-*/; do
		sed -n 's/.*"msg": "Boot command: \(.*\)"}$/\1/p' "$d/job.log" >"$d/boot.cmd"
	done
	check "each job's QEMU on a target file of its own (target-K-BLOCK-SIDE.img), removed after; B's throttled, A's not" sh -c \
		"for d in '$T/ab'/*-*-*/; do k=\$(basename \$d); grep -q \"file=$T/work/target-\$k.img,\" \$d/boot.cmd || exit 1
			case \$k in *-B) grep -q 'id=target,[^ ]*throttling.iops-total=200' \$d/boot.cmd ;; *) ! grep -q throttling \$d/boot.cmd ;; esac || exit 1
		 done; ! ls '$T/work'/target-*.img >/dev/null 2>&1"
	set --
	for f in "$T/ab"/*-A/records.jsonl; do set -- "$@" "$f"; done
	set -- "$@" --
	for f in "$T/ab"/*-B/records.jsonl; do set -- "$@" "$f"; done
	"$FSBENCH_HOST" compare "$@" --format csv >"$T/compare.csv" 2>/dev/null || :
	awk -F, '$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "compare" { print $2 "\t" $3 "\t" $(c["a_runs"]) "\t" $(c["b_runs"]) "\t" $(c["b_over_a"]) "\t" $(c["b_flag"]) "\t" $(c["b_runs_needed"]) }' \
		"$T/compare.csv" >"$T/rows.tsv"
	check "compare got 2 runs a side; 2 cannot decide a row: exit 5, every row undecided with the runs a side it needs, stderr names them" sh -c \
		"[ \"\$(cat '$T/ab/compare.status')\" = 5 ] && [ -s '$T/rows.tsv' ] &&
		 awk -F '\t' '\$3 != 2 || \$4 != 2 || \$6 != \"undecided\" || \$7 !~ /^[0-9]+\$/ || \$7 <= 2 { exit 1 }' '$T/rows.tsv' &&
		 grep -q 'ext4 read cold' '$T/ab/compare.err'"
	check "the throttle shows: B/A of ext4's cold read above 2 (the sides are not swapped)" \
		awk -F '\t' '$1 == "ext4" && $2 ~ /^read cold/ { found = 1; if ($5 + 0 <= 2) exit 1 } END { exit !found }' "$T/rows.tsv"
	info "ab: 4 jobs on 2 devices in $took s: $(awk '{ printf "%s%s%s on %s job %s %s-%s", s, $2, $3, $4, $5, substr($6, 10), substr($7, 10); s = ", " }' "$T/ab/boots.txt")"
fi

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
