#!/bin/sh
# tests/qemu/diskmodel.sh: the target's disk models (qemu/diskmodel.py, an
# nbdkit plugin; qemu/run.sh --target-model). First without a guest: nbdkit
# over a sparse file of this test, driven by qemu-io over its unix socket
# (write -P, flush, write -f (FUA), read -P), the power cut a SIGKILL of
# nbdkit while qemu-io is still connected; what is on the medium (the file)
# is then read on the host.
#   options  the launcher's misuse (exit 2) and cmdline.sh's target over
#            the NBD socket (raw over nbd; under blkdebug with TFAULT)
#   cache    written and flushed survives the cut, written and not flushed
#            does not (though it read back before the cut); a FUA write
#            survives without a flush; a killed client (QEMU killed) drops
#            the unflushed writes too; cache:64K writes its oldest blocks
#            back when full; write zeroes and discard (whole and partial
#            blocks) read back as zeroes, in the file too, and keep the rest
#   lying    trigger file: flushed before the trigger kept, flushed (and a
#            FUA write) after it lost at the cut; lying:SECONDS: the same
#            from SECONDS after the start; the plugin says when it starts
#            lying
#   wrap     wrap:1M on a 4 MiB file: the claimed length is 4 MiB, a
#            pattern written at X reads back at X + 1M, X + 2M and X + 3M,
#            one written at 3M + X reads at X, the file holds no data at
#            or past 1 MiB
#   boot     the image with --target-model cache, smoke brief (ext4, one
#            round, 100 files): exit 0, the records clean, run.txt names
#            the model, nbdkit gone after the run, the target file holds
#            the ext4 the run left (blkid); the guest sends its NVMe FUA
#            (run_start's target.fua) and no write with FUA reaches the
#            model (QEMU 7.2's NVMe drops the bit)
#   bootlie  the same boot with --target-model lying:0 (lying from the
#            start) on a 1 GiB target: the guest sees nothing (exit 0, the
#            records clean: the lie does not show while the power is on),
#            every flush was a lie, and the target file afterwards holds
#            no filesystem: nothing the guest flushed reached it
#   bootlate the same with --target-model lying --lie-after-records 4 (the
#            launcher creates the trigger file once 4 records are out): the
#            launcher says so, the plugin starts lying then, some flushes
#            before were kept and those after were lies; the guest's FUA
#            dropped, as in boot
#   cut      the same boot, QEMU SIGKILLed from outside (WORK/qemu.pid)
#            once 4 records are on the console: the launcher exits 4 (no
#            run_end), nbdkit is gone, the plugin dropped what QEMU had
#            not flushed (its diskmodel.log says so)
#   bootwrap the image with --target-model wrap:1G on a 2 GiB target: the
#            run_start record's target.size_bytes is 2 GiB, the plugin
#            wrapped writes, and afterwards the target file has no data at
#            or past 1 GiB and at most 1 GiB of blocks
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board: the boots are a SKIP), DISKMODEL_TEST_ONLY (the cases to
# run; by default options cache lying wrap bootlie bootlate: boot, cut and
# bootwrap boot what tests/qemu/powercut.sh boots too, with its checks of
# the records, and run when named here),
# DISKMODEL_DISK (a built disk image to boot instead of `make image`'s; it
# is copied, never written).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-diskmodel/.
set -eu

O=${O:?run through make check-qemu}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-diskmodel
only=${DISKMODEL_TEST_ONLY:-options cache lying wrap bootlie bootlate}
. tests/qemu/lib.sh

rm -rf "$T"
test_init 'qemu disk model tests' "$T"
T=$(cd "$T" && pwd)

# --- the plugin alone ---------------------------------------------------
npid= qpid=
stop() {
	for p in $qpid $npid; do kill -KILL "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	qpid= npid=
}
trap stop EXIT
trap 'exit 130' INT TERM
# start NAME MODEL [SIZE]: a fresh sparse file $T/NAME.img (default 64M)
# under nbdkit with MODEL (trigger $T/NAME.lie); its socket $T/NAME.sock.
start() {
	f=$T/$1.img s=$T/$1.sock
	rm -f "$f" "$s" "$T/$1.lie"
	truncate -s "${3:-64M}" "$f"
	nbdkit --foreground --exit-with-parent --unix "$s" python qemu/diskmodel.py \
		file="$f" model="$2" trigger="$T/$1.lie" >"$T/$1.log" 2>&1 </dev/null &
	npid=$!
	_n=0
	while [ ! -S "$s" ] && kill -0 "$npid" 2>/dev/null && [ "$_n" -lt 100 ]; do sleep 0.1; _n=$((_n + 1)); done
	[ -S "$s" ]
}
# qio NAME CMD...: qemu-io over NAME's socket, each CMD one -c, then exits
# (qemu-io flushes at its end; killed after 60 s); output in $T/NAME.qio.
qio() {
	_s=$T/$1.sock _o=$T/$1.qio; shift
	_k=$#
	for c in "$@"; do set -- "$@" -c "$c"; done
	shift "$_k"
	timeout -s KILL 60 qemu-io -t writeback -f raw "nbd+unix:///?socket=$_s" "$@" >"$_o" 2>&1 || true
}
# hold NAME CMD...: qemu-io runs the CMDs and stays connected (no flush at
# its end); returns once each write and read has said its result (line
# buffered), or after 30 s; status 1 unless each said it was done.
hold() {
	_s=$T/$1.sock _o=$T/$1.qio; shift
	_k=$# _w=0
	for c in "$@" 'sleep 600000'; do
		case $c in write*|read*) _w=$((_w + 1)) ;; esac
		set -- "$@" -c "$c"
	done
	shift "$_k"
	: >"$_o"
	stdbuf -oL qemu-io -t writeback -f raw "nbd+unix:///?socket=$_s" "$@" >"$_o" 2>&1 &
	qpid=$!
	_n=0
	while [ "$(grep -c '^wrote \|^read \|failed\|invalid' "$_o" || true)" -lt "$_w" ] && [ "$_n" -lt 300 ]; do
		sleep 0.1; _n=$((_n + 1))
	done
	cat "$_o"
	[ "$(grep -c '^wrote \|^read ' "$_o" || true)" -eq "$_w" ]
}
# cut: the power cut: nbdkit SIGKILLed while qemu-io is connected.
cut() {
	kill -KILL "$npid" 2>/dev/null || true; wait "$npid" 2>/dev/null || true; npid=
	kill -KILL "$qpid" 2>/dev/null || true; wait "$qpid" 2>/dev/null || true; qpid=
}
# holds FILE OFFSET LEN BYTE: the file holds LEN bytes of BYTE (octal, as
# tr takes it: 253 for 0xab, 0 for zeroes) at OFFSET (multiples of 4 KiB).
holds() {
	[ "$(dd if="$1" bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) 2>/dev/null |
		tr -d "\\$4" | wc -c)" -eq 0 ]
}
# verified NAME: every read -P of NAME's last qemu-io matched.
verified() { grep -q '^read ' "$T/$1.qio" && ! grep -q 'Pattern verification failed\|failed' "$T/$1.qio"; }

nbd_ok=1
for t in nbdkit qemu-io stdbuf; do
	have "$t" || { nbd_ok=0; skip "disk models: $t not installed (sh image/deps.sh image)"; }
done
if [ "$nbd_ok" = 1 ] && ! nbdkit python --version >/dev/null 2>&1; then
	nbd_ok=0; skip "disk models: nbdkit's python plugin not installed (nbdkit-plugin-python; sh image/deps.sh image)"
fi

if wanted options; then
	expect_rc 2 "options: --target-model bogus is misuse" sh qemu/run.sh --target-model bogus
	expect_err "--target-model 'bogus': cache[:SIZE], lying[:SECONDS] or wrap:SIZE"
	expect_rc 2 "options: --target-model lying:soon is misuse" sh qemu/run.sh --target-model lying:soon
	expect_err "lying:SECONDS, a number of seconds"
	expect_rc 2 "options: --lie-after-records without the lying model is misuse" \
		sh qemu/run.sh --target-model cache --lie-after-records 3
	expect_err "--lie-after-records: only with --target-model lying"
	eval "$(sh image/boardenv.sh "board/$BOARD/board.mk")"
	mkdir -p "$T/argv"
	: >"$T/argv/target.img"
	env WORK="$T/argv" ACCEL=tcg CPU=max SERIAL="$T/argv/serial.log" KERNEL=k INITRD=i \
		ROOTFS=ext4 PROFILE=smoke TCACHE=none TSOCK=/s/target.sock sh qemu/cmdline.sh "$T/argv/model.argv"
	check "options: TSOCK: the target is raw over QEMU's nbd driver on the socket" grep -qxF \
		"driver=raw,file.driver=nbd,file.server.type=unix,file.server.path=/s/target.sock,if=none,id=target,cache=none,discard=unmap" \
		"$T/argv/model.argv"
	env WORK="$T/argv" ACCEL=tcg CPU=max SERIAL="$T/argv/serial.log" KERNEL=k INITRD=i \
		ROOTFS=ext4 PROFILE=smoke TCACHE=none TSOCK=/s/target.sock TFAULT=/x/rules \
		sh qemu/cmdline.sh "$T/argv/fault.argv"
	check "options: TSOCK and TFAULT: blkdebug between raw and the nbd driver" grep -qxF \
		"driver=raw,file.driver=blkdebug,file.config=/x/rules,file.image.driver=nbd,file.image.server.type=unix,file.image.server.path=/s/target.sock,if=none,id=target,cache=none,discard=unmap" \
		"$T/argv/fault.argv"
fi

if [ "$nbd_ok" = 1 ] && wanted cache; then
	if start cache cache; then
		check "cache: qemu-io did each write and read" hold cache 'write -P 0xab 0 64k' 'flush' 'write -P 0xcd 1M 64k' 'write -f -P 0xef 2M 64k' \
			'read -P 0xcd 1M 64k'
		check "cache: the unflushed write reads back before the cut" verified cache
		cut
		check "cache: written and flushed survives the cut" holds "$T/cache.img" 0 65536 253
		check "cache: written and not flushed is gone after the cut" holds "$T/cache.img" 1048576 65536 0
		check "cache: a FUA write survives the cut without a flush" holds "$T/cache.img" 2097152 65536 357
	else
		fail "cache: nbdkit did not start"; sed 's/^/     | /' "$T/cache.log"
	fi
	# QEMU killed, the plugin alive: the client's unflushed writes drop.
	if start client cache; then
		check "client: qemu-io did each write and read" hold client 'write -P 0x11 0 64k'
		kill -KILL "$qpid"; wait "$qpid" 2>/dev/null || true; qpid=
		qio client 'read -P 0 0 64k'
		check "cache: a killed client's unflushed writes are gone (read back zeroes)" verified client
		check "cache: the plugin says it dropped them" grep -q 'unflushed blocks dropped' "$T/client.log"
		stop
	else
		fail "cache: nbdkit did not start (client)"
	fi
	# A 64 KiB cache: the oldest 64 KiB go to the medium when 128 KiB wait.
	if start small cache:64K; then
		check "small: qemu-io did each write and read" hold small 'write -P 0x22 0 64k' 'write -P 0x33 1M 64k'
		cut
		check "cache:64K: the oldest blocks are written back when the cache is full" holds "$T/small.img" 0 65536 42
		check "cache:64K: the newest are not" holds "$T/small.img" 1048576 65536 0
	else
		fail "cache:64K: nbdkit did not start"
	fi
	# Write zeroes and discard: whole blocks punched in the file, a partial
	# one through the cache; the bytes around them kept.
	if start zero cache; then
		qio zero 'write -P 0x77 0 64k' 'flush' 'write -z 4k 8k' 'write -z 512 1024' 'discard 32k 4k' \
			'read -P 0x77 0 512' 'read -P 0 512 1024' 'read -P 0x77 1536 2560' 'read -P 0 4k 8k' \
			'read -P 0x77 12k 20k' 'read -P 0 32k 4k' 'read -P 0x77 36k 28k'
		check "cache: write zeroes and discard read back as zeroes, the rest kept" verified zero
		stop
		check "cache: the zeroed blocks are zeroes in the file" holds "$T/zero.img" 4096 8192 0
		check "cache: the discarded block is zeroes in the file" holds "$T/zero.img" 32768 4096 0
		check "cache: the blocks after them kept in the file" holds "$T/zero.img" 36864 28672 167
	else
		fail "cache: nbdkit did not start (zero)"
	fi
	expect_rc 1 "cache: nbdkit refuses model=cache:lots" \
		nbdkit --exit-with-parent -U - python qemu/diskmodel.py file="$T/cache.img" model=cache:lots --run true
	expect_err "a size > 0"
fi

if [ "$nbd_ok" = 1 ] && wanted lying; then
	if start lying lying; then
		qio lying 'write -P 0xab 0 64k' 'flush'
		touch "$T/lying.lie"
		check "lying: qemu-io did each write and read" hold lying 'write -P 0xcd 1M 64k' 'flush' 'write -f -P 0xef 2M 64k' 'read -P 0xcd 1M 64k'
		check "lying: after the trigger, a flushed write still reads back before the cut" verified lying
		cut
		check "lying: flushed before the trigger survives the cut" holds "$T/lying.img" 0 65536 253
		check "lying: flushed after the trigger is lost at the cut" holds "$T/lying.img" 1048576 65536 0
		check "lying: a FUA write after the trigger is lost at the cut" holds "$T/lying.img" 2097152 65536 0
		check "lying: the plugin says when it starts lying" grep -q 'lying from now on' "$T/lying.log"
	else
		fail "lying: nbdkit did not start"; sed 's/^/     | /' "$T/lying.log"
	fi
	if start timed lying:4; then
		qio timed 'write -P 0xab 0 64k' 'flush'
		sleep 4
		check "timed: qemu-io did each write and read" hold timed 'write -P 0xcd 1M 64k' 'flush'
		cut
		check "lying:4: flushed in the first seconds survives the cut" holds "$T/timed.img" 0 65536 253
		check "lying:4: flushed after 4 s is lost at the cut" holds "$T/timed.img" 1048576 65536 0
	else
		fail "lying:4: nbdkit did not start"
	fi
fi

if [ "$nbd_ok" = 1 ] && wanted wrap; then
	if start wrap wrap:1M 4M; then
		qio wrap 'length' 'write -P 0x5a 256k 64k' 'write -P 0x66 3584k 64k' \
			'read -P 0x5a 1280k 64k' 'read -P 0x5a 2304k 64k' 'read -P 0x5a 3328k 64k' 'read -P 0x66 512k 64k'
		check "wrap:1M: the claimed length is the file's, 4 MiB" grep -qx '4 MiB' "$T/wrap.qio"
		check "wrap:1M: written at X reads back at X + 1, 2 and 3 MiB; at 3.5 MiB, at 0.5 MiB" verified wrap
		stop
		check "wrap:1M: 0x5a at 256 KiB of the file" holds "$T/wrap.img" 262144 65536 132
		check "wrap:1M: 0x66 at 512 KiB of the file" holds "$T/wrap.img" 524288 65536 146
		check "wrap:1M: nothing at or past 1 MiB of the file" holds "$T/wrap.img" 1048576 3145728 0
	else
		fail "wrap: nbdkit did not start"; sed 's/^/     | /' "$T/wrap.log"
	fi
	expect_rc 1 "wrap: nbdkit refuses wrap:8M on a 4 MiB file" \
		nbdkit -U - python qemu/diskmodel.py file="$T/wrap.img" model=wrap:8M --run true
	expect_err "not below the file's size"
fi

# --- boots ----------------------------------------------------------------
bootable() {
	[ "$nbd_ok" = 1 ] || { skip "$1: no nbdkit (above)"; return 1; }
	[ "$BOARD" = qemu-x86_64 ] || { skip "$1: the boots are qemu-x86_64's"; return 1; }
	eval "$(sh image/boardenv.sh "board/$BOARD/board.mk")"
	export BOARD
	have "$BOARD_QEMU" || { skip "$1: $BOARD_QEMU not installed"; return 1; }
	have jq || { skip "$1: jq not installed"; return 1; }
	disk=${DISKMODEL_DISK:-}
	if [ -z "$disk" ]; then
		disk=$O/image/$BOARD/disk-ext4.img
		make -s --no-print-directory image ROOTFS=ext4 >"$T/build.log" 2>&1 ||
			{ fail "$1: make image ROOTFS=ext4"; tail -n 20 "$T/build.log"; return 1; }
	fi
	return 0
}
# boot NAME [launcher options...]: the smoke brief on ext4, status in $rc.
boot() {
	name=$1; shift
	set +e
	RESULTS=$T sh qemu/run.sh --disk "$disk" --results "$T/$name" --quiet --keep \
		--profile smoke --append "fsbench.fs=ext4 fsbench.rounds=1 fsbench.files=100" \
		--criteria none "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	work=$(sed -n 's/^ *work folder: *//p' "$T/$name/run.txt" 2>/dev/null)
	info "$name: $(grep -E 'total run time' "$T/$name/run.txt" 2>/dev/null | sed 's/^ *//')"
	for ph in create read; do
		v=$(rec "$T/$name" phase fs phase files_per_s 2>/dev/null | awk -F'\t' -v p="$ph" '$2 == p { print $3 }')
		[ -z "$v" ] || info "$name: ext4 $ph $v files/s"
	done
}
# nvme_fua NAME: the FUA claim of qemu/README.md ("What reaches the disk"):
# the guest's kernel sends the NVMe target its writes that must be durable
# with FUA (run_start's target.fua), and QEMU 7.2's NVMe drops the bit: not
# one reaches the model. A QEMU that passes it on fails this check, and the
# README must then say so.
nvme_fua() {
	info "$1: $(grep 'client gone' "$T/$1/diskmodel.log" 2>/dev/null); the guest's target: $(flat "$T/$1" run_start | grep '^target\.\(write_cache\|fua\)=' | tr '\n' ' ')"
	check "$1: the guest sends FUA to its NVMe (run_start target.fua)" has "$T/$1" run_start target.fua=true
	check "$1: no write with FUA reached the model (QEMU's NVMe drops the bit)" \
		grep -q 'client gone: [1-9][0-9]* writes, 0 of them FUA' "$T/$1/diskmodel.log"
}
if wanted boot && bootable boot; then
	boot boot --target-model cache
	check "boot: launcher exit status 0 (the runner's)" [ "$rc" -eq 0 ] || tail -n 30 "$T/boot.out"
	check "boot: run_end ok, exit_code 0" has "$T/boot" run_end status=ok exit_code=0
	check "boot: ext4 fs_end ok" has "$T/boot" fs_end fs=ext4 status=ok
	check "boot: every phase has errors 0 and verify_errors 0" \
		[ "$(rec "$T/boot" phase errors verify_errors | grep -cvxF '0	0' || true)" -eq 0 ]
	check "boot: the six phases ran (fstrim the sixth)" [ "$(recs "$T/boot" phase | wc -l)" -eq 6 ]
	check "boot: no error or verify_error records" \
		[ "$(($(recs "$T/boot" verify_error | wc -l) + $(recs "$T/boot" error | wc -l)))" -eq 0 ]
	check "boot: run.txt names the model" grep -q '^  target model: *cache (volatile write cache' "$T/boot/run.txt"
	check "boot: the plugin's messages are in the results (diskmodel.log)" grep -q 'model cache over' "$T/boot/diskmodel.log"
	check "boot: the guest flushed through the plugin" grep -q 'client gone: .*; [1-9][0-9]* flushes' "$T/boot/diskmodel.log"
	nvme_fua boot
	if [ -n "$work" ] && [ -f "$work/nbdkit.pid" ]; then
		check "boot: nbdkit is gone after the run" sh -c "! kill -0 $(cat "$work/nbdkit.pid") 2>/dev/null"
		check "boot: the target file holds the run's ext4" sh -c \
			"blkid -p -o value -s TYPE '$work/target.img' | grep -qx ext4"
	else
		fail "boot: no nbdkit.pid in the kept work folder ($work)"
	fi
	[ -z "$work" ] || rm -rf "$work"
fi
if wanted bootlie && bootable bootlie; then
	boot bootlie --target-model lying:0 --target-size 1G
	check "bootlie: launcher exit status 0: the guest cannot see the lie" [ "$rc" -eq 0 ] || tail -n 30 "$T/bootlie.out"
	check "bootlie: run_end ok, exit_code 0" has "$T/bootlie" run_end status=ok exit_code=0
	check "bootlie: every phase has errors 0 and verify_errors 0" \
		[ "$(rec "$T/bootlie" phase errors verify_errors | grep -cvxF '0	0' || true)" -eq 0 ]
	check "bootlie: the plugin lied from the start" grep -q 'lying from now on' "$T/bootlie/diskmodel.log"
	check "bootlie: every flush was a lie" \
		grep -q 'client gone: .*; \([1-9][0-9]*\) flushes, \1 of them lies' "$T/bootlie/diskmodel.log"
	info "bootlie: $(grep 'client gone' "$T/bootlie/diskmodel.log" 2>/dev/null)"
	if [ -n "$work" ] && [ -f "$work/target.img" ]; then
		check "bootlie: the target file holds no filesystem afterwards" sh -c \
			"! blkid -p '$work/target.img'"
		rm -rf "$work"
	else
		fail "bootlie: no target file in the kept work folder ($work)"
	fi
fi
if wanted bootlate && bootable bootlate; then
	boot bootlate --target-model lying --lie-after-records 4 --target-size 1G
	check "bootlate: launcher exit status 0" [ "$rc" -eq 0 ] || tail -n 30 "$T/bootlate.out"
	check "bootlate: the launcher fired the trigger after 4 records" \
		grep -q '^qemu: the target lies from now on, after 4 records (.*/target.lie)$' "$T/bootlate.out"
	check "bootlate: the plugin started lying" grep -q 'lying from now on' "$T/bootlate/diskmodel.log"
	check "bootlate: flushes before the trigger kept, those after lies" awk '
		/client gone:/ { for (i = 1; i <= NF; i++) { if ($(i + 1) == "flushes,") f = $i; if ($(i + 1) == "of") l = $i } }
		END { exit !(l > 0 && l < f) }' "$T/bootlate/diskmodel.log"
	nvme_fua bootlate
	[ -z "$work" ] || rm -rf "$work"
fi
if wanted cut && bootable cut; then
	RESULTS=$T sh qemu/run.sh --disk "$disk" --results "$T/cut" --quiet --keep \
		--profile smoke --append "fsbench.fs=ext4 fsbench.rounds=1 fsbench.files=100" \
		--criteria none --target-model cache >"$T/cut.out" 2>&1 &
	lpid=$!
	# The work folder from the launcher's line; QEMU's pid from watch.sh.
	_n=0 work=
	while [ "$_n" -lt 1800 ] && kill -0 "$lpid" 2>/dev/null; do
		work=$(sed -n 's/^qemu: target model: .* on \(.*\)\/target.sock, .*/\1/p' "$T/cut.out")
		[ -z "$work" ] || [ ! -s "$work/qemu.pid" ] ||
			[ "$(grep -c "$PREFIX{" "$T/cut/serial.log" 2>/dev/null || true)" -lt 4 ] || break
		sleep 0.2; _n=$((_n + 1))
	done
	if [ -n "$work" ] && [ -s "$work/qemu.pid" ]; then
		kill -KILL "$(cat "$work/qemu.pid")" 2>/dev/null || true
	fi
	rc=0
	wait "$lpid" || rc=$?
	check "cut: QEMU SIGKILLed, the launcher exits 4 (no run_end)" [ "$rc" -eq 4 ] || tail -n 20 "$T/cut.out"
	if [ -n "$work" ] && [ -f "$work/nbdkit.pid" ]; then
		check "cut: nbdkit is gone after the run" sh -c "! kill -0 $(cat "$work/nbdkit.pid") 2>/dev/null"
	else
		fail "cut: no nbdkit.pid in the work folder ($work)"
	fi
	check "cut: the plugin saw QEMU go and dropped its cache" \
		grep -q 'client gone: .* unflushed blocks dropped' "$T/cut/diskmodel.log"
	info "cut: $(grep 'client gone' "$T/cut/diskmodel.log" 2>/dev/null)"
	[ -z "$work" ] || rm -rf "$work"
fi
if wanted bootwrap && bootable bootwrap; then
	boot bootwrap --target-model wrap:1G --target-size 2G
	info "bootwrap: launcher exit status $rc (ext4 on a disk that wraps: a failure is expected)"
	check "bootwrap: run_start's target.size_bytes is the claimed 2 GiB" \
		has "$T/bootwrap" run_start target.size_bytes=2147483648
	check "bootwrap: run.txt names the model" grep -q '^  target model: *wrap:1G (2G claimed, 1G there' "$T/bootwrap/run.txt"
	check "bootwrap: the plugin wrapped writes at or above 1 GiB" \
		grep -q 'client gone: [1-9][0-9]* writes at or above 1073741824 bytes wrapped' "$T/bootwrap/diskmodel.log"
	if [ -n "$work" ] && [ -f "$work/target.img" ]; then
		check "bootwrap: the target file has no data at or past 1 GiB" \
			python3 -c 'import os,sys; fd=os.open(sys.argv[1],os.O_RDONLY)
try: os.lseek(fd,1<<30,os.SEEK_DATA); sys.exit("data past 1 GiB")
except OSError: pass' "$work/target.img"
		used=$(($(stat -c '%b * %B' "$work/target.img")))
		info "bootwrap: the target file holds $used bytes of blocks"
		check "bootwrap: the target file holds at most 1 GiB" [ "$used" -le 1073741824 ]
		rm -rf "$work"
	else
		fail "bootwrap: no target file in the kept work folder ($work)"
	fi
fi

summary
