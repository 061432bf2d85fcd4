#!/bin/sh
# cross.sh: the cross-built (aarch64) runner, run on this host with qemu-user.
# Input: $1, the aarch64 fsbench binary. Output: one line per check.
# Needs qemu-user-static (package qemu-user-static) and root for the tmpfs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bin=${1:?aarch64 fsbench}
O=${O:-$(pwd)/out}
S=$O/tests/cross
rm -rf "$S"; mkdir -p "$S"
trap cleanup EXIT INT TERM
test_init cross "$S"
Q=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)

check "aarch64 binary is static" sh -c "file '$bin' | grep -q 'ARM aarch64.*statically linked'"
if [ -z "$Q" ]; then
	skip "aarch64 runner under qemu-user: qemu-aarch64-static not found (package qemu-user-static)"
	summary; exit $?
fi
expect_rc 0 "aarch64: fsbench --help" "$Q" "$bin" --help
check "aarch64: help lists the commands" contains "$OUT" "compare"
expect_rc 2 "aarch64: bad value is misuse" "$Q" "$bin" run --target /dev/null --dirs x
expect_err "dirs=x: not a number"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$S/tmpfs"; mount -t tmpfs -o size=128m fsbench-test "$S/tmpfs"; remember_mount "$S/tmpfs"
	d=$S/tmpfs
else
	d=$S/dir; mkdir -p "$d"
fi
expect_rc 0 "aarch64: --dir smoke run" "$Q" "$bin" run --dir "$d" --profile smoke --rounds 2 --log "$S/run.log" --progress 0
cp "$S/out" "$S/run.stdout"
check "aarch64: 10 phase records, no errors" sh -c "[ \$(grep '\"type\":\"phase\"' '$S/run.stdout' | grep -c '\"files\":2000,.*\"errors\":0,\"verify_errors\":0') -eq 10 ]"
check "aarch64: run_start says aarch64" grep -q '"machine":"aarch64"' "$S/run.stdout"
expect_rc 0 "host tool reads the aarch64 log" "$O/host/fsbench" log extract "$S/run.log" -o "$S/x"
check "aarch64 log extract equals its stdout" cmp -s "$S/run.stdout" "$S/x/records.jsonl"
summary
