#!/bin/sh
# cross.sh: a cross-built runner, run on this host with qemu-user.
# Inputs: $1, the fsbench binary; $2, its architecture: aarch64 (default)
# or armhf (32-bit ARM). Output: one line per check.
# Needs qemu-user-static (package qemu-user-static) and root for the tmpfs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bin=${1:?cross-built fsbench}
arch=${2:-aarch64}
case "$arch" in
aarch64) qemu=qemu-aarch64; elf='ARM aarch64'; machine=aarch64 ;;
armhf) qemu=qemu-arm; elf='32-bit LSB executable, ARM, EABI5'; machine=armv7l ;;
*) echo "cross.sh: architecture '$arch' not known (aarch64, armhf)" >&2; exit 2 ;;
esac
O=${O:-$(pwd)/out}
name=cross; [ "$arch" = aarch64 ] || name=cross-$arch
S=$O/tests/$name
rm -rf "$S"; mkdir -p "$S"
trap cleanup EXIT INT TERM
test_init "$name" "$S"
Q=$(command -v $qemu-static || command -v $qemu || true)

check "$arch binary is static" sh -c "file '$bin' | grep -q '$elf.*statically linked'"
if [ -z "$Q" ]; then
	skip "$arch runner under qemu-user: $qemu-static not found (package qemu-user-static)"
	summary; exit $?
fi
expect_rc 0 "$arch: fsbench --help" "$Q" "$bin" --help
check "$arch: help lists the commands" contains "$OUT" "compare"
expect_rc 2 "$arch: bad value is misuse" "$Q" "$bin" run --target /dev/null --dirs x
expect_err "dirs=x: not a number"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$S/tmpfs"; mount -t tmpfs -o size=128m fsbench-test "$S/tmpfs"; remember_mount "$S/tmpfs"
	d=$S/tmpfs
else
	d=$S/dir; mkdir -p "$d"
fi
expect_rc 0 "$arch: --dir smoke run" "$Q" "$bin" run --dir "$d" --profile smoke --rounds 2 --log "$S/run.log" --progress 0
cp "$S/out" "$S/run.stdout"
check "$arch: 10 phase records, no errors" sh -c "[ \$(grep '\"type\":\"phase\"' '$S/run.stdout' | grep -c '\"files\":2000,.*\"errors\":0,\"verify_errors\":0') -eq 10 ]"
check "$arch: run_start says $machine" grep -q "\"machine\":\"$machine\"" "$S/run.stdout"
expect_rc 0 "host tool reads the $arch log" "$O/host/fsbench" log extract "$S/run.log" -o "$S/x"
check "$arch log extract equals its stdout" cmp -s "$S/run.stdout" "$S/x/records.jsonl"
expect_rc 0 "$arch tool reads its own log" "$Q" "$bin" log extract "$S/run.log" -o "$S/y"
check "$arch log extract equals the host's" cmp -s "$S/x/records.jsonl" "$S/y/records.jsonl"
expect_rc 0 "$arch: report of its run" "$Q" "$bin" report "$S/y/records.jsonl" --format csv
check "$arch report equals the host's" sh -c "'$O/host/fsbench' report '$S/y/records.jsonl' --format csv | cmp -s - '$S/out'"
summary
