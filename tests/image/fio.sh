#!/bin/sh
# tests/image/fio.sh: the image's fio (image/fio.sh: Debian's fio 3.33-3
# source with its patches, static with musl and Debian's libaio), built for
# each architecture (make fio BOARD=...) and run on this host: natively
# (x86_64) or under qemu-user (arm64, armhf). Each build is static, says
# fio-3.33, lists the psync, libaio and io_uring engines and prints JSON
# with I/O done: a direct libaio job on a file (x86_64; qemu-user does not
# implement io_setup, so the ARM builds run the same job with psync and
# their libaio engine is seen calling io_setup) and, as root, on a loop
# device of its own; then the staged /usr/bin/fio of each board runs a
# libaio job in a QEMU guest (TCG) booted from the board's kernel and
# initramfs with an /init of this test.
# Inputs (environment): O (build output, absolute), FIO_BOARDS (default
# qemu-x86_64 qemu-aarch64 qemu-armhf: one board of each architecture),
# FIO_TAG (work files under $O/tests/fio-TAG/ instead: two runs at once,
# as make check's lanes do, keep theirs apart).
# Output: one line per check (tests/lib.sh), a summary line; exit 1 on a
# failure. Work files under $O/tests/fio/.
set -eu

O=${O:?run through make check-image}
T=$O/tests/fio${FIO_TAG:+-$FIO_TAG}
rm -rf "$T"
mkdir -p "$T"
. tests/host/lib.sh
test_init "fio tests" "$T"
trap cleanup EXIT INT TERM

have jq || { skip "fio tests: jq not installed (its JSON is read with jq)"; summary; exit $?; }
# A file that takes O_DIRECT: the work folder's filesystem must support it.
direct_ok=yes
dd if=/dev/zero of="$T/direct.probe" bs=4096 count=1 oflag=direct 2>/dev/null || direct_ok=no
rm -f "$T/direct.probe"

# json_ok FILE RW: FILE is fio's JSON (one document, nothing else) of one
# job without error, with I/O done in each direction RW names (read, write)
json_ok() {
	jq -e -s --arg rw "$2" 'length == 1 and (.[0] as $r | $r["fio version"] == "fio-3.33"
		and ($r.jobs | length) == 1 and $r.jobs[0].error == 0
		and all($rw | split(" ")[]; $r.jobs[0][.].iops > 0 and $r.jobs[0][.].io_bytes > 0))' "$1" >/dev/null
}
# job NAME RUN... : fio's JSON on stdout into $T/NAME.json, stderr $T/NAME.err
job() {
	_n=$1; shift
	"$@" --output-format=json >"$T/$_n.json" 2>"$T/$_n.err" || true
}
iops() { jq -r '[.jobs[0].read.iops, .jobs[0].write.iops] | map(floor) | "read \(.[0]) IOPS, write \(.[1]) IOPS"' "$1" 2>/dev/null || echo '?'; }

# bvar BOARD NAME: a variable of the board (image/boardenv.sh)
bvar() { sh image/boardenv.sh "board/$1/board.mk" | sed -n "s/^export $2='\(.*\)'\$/\1/p"; }

# guest BOARD ARCH FIO-OPTIONS...: the board's kernel and initramfs
# (make stages them) booted in QEMU (TCG) with one more cpio appended: an
# /init that loads the boot modules and runs the staged /usr/bin/fio, a
# libaio direct job on a virtio disk, printing its JSON between two marker
# lines, then powers off. The libaio engine in a real kernel of the
# board's architecture (qemu-user lacks io_setup).
guest() {
	_b=$1 _a=$2; shift 2
	_qemu=$(bvar "$_b" BOARD_QEMU)
	have "$_qemu" || { skip "$_a: fio in a guest: ${_qemu:-BOARD_QEMU} not found"; return 0; }
	have cpio || { skip "$_a: fio in a guest: cpio not found"; return 0; }
	_img=$O/image/$_b
	if ! make -s --no-print-directory BOARD="$_b" "$_img/initramfs.cpio.gz" >"$T/stage-$_b.log" 2>&1; then
		fail "$_a: make BOARD=$_b $_img/initramfs.cpio.gz"; tail -n 20 "$T/stage-$_b.log"; return 0
	fi
	_g=$T/guest-$_a
	mkdir -p "$_g/root"
	cp "$_img/rootfs/usr/bin/fio" "$_g/root/fio"
	cat >"$_g/root/init" <<-EOF
	#!/bin/sh
	export PATH=/bin
	mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
	exec </dev/console >/dev/console 2>&1
	k=\$(cat /proc/sys/kernel/osrelease)
	while read -r m; do insmod "/lib/modules/\$k/\$m" 2>/dev/null; done <"/lib/modules/\$k/load.list"
	n=0; while [ ! -b /dev/vda ] && [ \$n -lt 200 ]; do sleep 0.1; n=\$((n + 1)); done
	echo FIO-GUEST-BEGIN
	/fio $* --filename=/dev/vda --ioengine=libaio --iodepth=8 --output-format=json
	echo FIO-GUEST-END rc=\$?
	poweroff -f
	EOF
	chmod 755 "$_g/root/init" "$_g/root/fio"
	(cd "$_g/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -n) >"$_g/fio.cpio.gz"
	cat "$_img/initramfs.cpio.gz" "$_g/fio.cpio.gz" >"$_g/initrd.gz"
	truncate -s 64M "$_g/disk.img"
	_t0=$(date +%s)
	_con=$(bvar "$_b" BOARD_CONSOLE)
	timeout 300 "$_qemu" -M "$(bvar "$_b" BOARD_QEMU_MACHINE)" -cpu "$(bvar "$_b" BOARD_QEMU_CPU_TCG)" -m 1024 -smp 1 \
		-kernel "$_img/kernel" -initrd "$_g/initrd.gz" -nographic -no-reboot \
		-append "console=${_con%%,*} panic=1 quiet loglevel=1" \
		-drive "file=$_g/disk.img,if=none,id=t,format=raw" -device virtio-blk-pci,drive=t \
		</dev/null >"$_g/console.log" 2>&1 || true
	tr -d '\r' <"$_g/console.log" | sed -n '/FIO-GUEST-BEGIN$/,/^FIO-GUEST-END/p' | sed '1d;$d' >"$T/$_a-guest.json"
	check "$_a: in a guest ($_qemu, $(($(date +%s) - _t0)) s): fio exits 0" grep -q '^FIO-GUEST-END rc=0' "$_g/console.log"
	check "$_a: in a guest: libaio direct randrw on a virtio disk: JSON, no error, reads and writes ($(iops "$T/$_a-guest.json"))" \
		json_ok "$T/$_a-guest.json" "read write"
}

for b in ${FIO_BOARDS:-qemu-x86_64 qemu-aarch64 qemu-armhf}; do
	arch=$(bvar "$b" BOARD_ARCH)
	case $arch in
	amd64) q=; elf='x86-64'; [ "$(uname -m)" = x86_64 ] || q=qemu-x86_64-static ;;
	arm64) q=qemu-aarch64-static; elf='ARM aarch64' ;;
	armhf) q=qemu-arm-static; elf='32-bit LSB executable, ARM, EABI5' ;;
	*) fail "$b: architecture '$arch' not known"; continue ;;
	esac
	t0=$(date +%s)
	if ! make -s --no-print-directory fio BOARD="$b" >"$T/build-$b.log" 2>&1; then
		fail "$arch: make fio BOARD=$b"; tail -n 20 "$T/build-$b.log"; continue
	fi
	fio=$O/cache/$arch/fio/fio
	info "$arch: $fio, $(stat -c %s "$fio") bytes ($(sed -n 's/^build seconds //p' "$(dirname "$fio")/fio.txt") s to build; make fio now $(($(date +%s) - t0)) s)"
	check "$arch: fio is static, for $elf" sh -c "file '$fio' | grep -q '$elf.*statically linked'"
	if [ -n "$q" ] && ! have "$q"; then
		skip "$arch: fio not run: $q not found (package qemu-user-static)"
		continue
	fi
	expect_rc 0 "$arch: fio --version" $q "$fio" --version
	check "$arch: fio --version says Debian's fio-3.33" test "$OUT" = fio-3.33
	expect_rc 0 "$arch: fio --enghelp" $q "$fio" --enghelp
	missing=
	for e in psync libaio io_uring; do
		printf '%s\n' "$OUT" | grep -q "^[[:space:]]*$e\$" || missing="$missing $e"
	done
	[ -z "$missing" ] && pass "$arch: engines psync, libaio, io_uring built in" ||
		fail "$arch: engines missing:$missing"

	set -- --name=check --size=16M --bs=4k --direct=1 --rw=randrw --runtime=1 --time_based
	if [ $direct_ok = no ]; then
		skip "$arch: jobs on a file: $T's filesystem does not take O_DIRECT"
	elif [ -z "$q" ]; then
		job "$arch-file" "$fio" "$@" --filename="$T/file-$arch" --ioengine=libaio --iodepth=8
		check "$arch: libaio direct randrw on a file: JSON, no error, reads and writes ($(iops "$T/$arch-file.json"))" \
			json_ok "$T/$arch-file.json" "read write"
	else
		job "$arch-file" $q "$fio" "$@" --filename="$T/file-$arch" --ioengine=psync
		check "$arch: psync direct randrw on a file under $q: JSON, no error, reads and writes ($(iops "$T/$arch-file.json"))" \
			json_ok "$T/$arch-file.json" "read write"
		# qemu-user has no io_setup: the libaio engine's call must reach it
		# and come back ENOSYS (a fio without libaio would not call it).
		# fio says a job's error on stdout, before the JSON.
		job "$arch-libaio" $q "$fio" "$@" --filename="$T/file-$arch" --ioengine=libaio --iodepth=8
		check "$arch: libaio engine calls io_setup (qemu-user: Function not implemented)" \
			grep -q 'func=io_queue_init, error=Function not implemented' "$T/$arch-libaio.json"
	fi
	guest "$b" "$arch" "$@"
	if [ "$(id -u)" != 0 ]; then
		skip "$arch: job on a loop device: not root"
		continue
	fi
	dev=
	new_loop dev "$T/loop-$arch.img" 64M
	if [ -z "$q" ]; then
		job "$arch-loop" "$fio" "$@" --filename="$dev" --ioengine=libaio --iodepth=8
		check "$arch: libaio direct randrw on a loop device: JSON, no error, reads and writes ($(iops "$T/$arch-loop.json"))" \
			json_ok "$T/$arch-loop.json" "read write"
		# fio's io_uring engine: its own system calls, no library
		job "$arch-uring" "$fio" "$@" --filename="$dev" --ioengine=io_uring --iodepth=8
		if grep -q 'error=\(Function not implemented\|Operation not permitted\)' "$T/$arch-uring.json"; then
			skip "$arch: io_uring job: the host kernel refuses io_uring ($(grep -o 'error=.*' "$T/$arch-uring.json" | head -n 1))"
		else
			check "$arch: io_uring direct randrw on a loop device: JSON, no error, reads and writes ($(iops "$T/$arch-uring.json"))" \
				json_ok "$T/$arch-uring.json" "read write"
		fi
	else
		job "$arch-loop" $q "$fio" "$@" --filename="$dev" --ioengine=psync
		check "$arch: psync direct randrw on a loop device under $q: JSON, no error, reads and writes ($(iops "$T/$arch-loop.json"))" \
			json_ok "$T/$arch-loop.json" "read write"
	fi
done

summary
