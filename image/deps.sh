#!/bin/sh
# deps.sh: install the Debian packages fsbench needs on the build host.
# Inputs: package groups as arguments (runner, test, bench, image, fio,
# arm64, armhf, farm, html, lavaserver; default: all but lavaserver).
# Output: missing packages installed with apt-get; prints what it installs.
# Needs root only when something is missing.
set -eu
. "$(dirname "$0")/lib.sh"

# The runner's SQLite (runner/sqlite.mk): tclsh generates the amalgamation
# from the fetched source (curl, xz-utils, patch); the host build links
# libsqlite3-dev.
pkgs_runner="gcc make musl-tools libc6-dev scdoc tcl libsqlite3-dev curl xz-utils patch"
pkgs_test="jq util-linux e2fsprogs xfsprogs btrfs-progs f2fs-tools nilfs-tools clang libclang-rt-dev libxml2-utils fio sqlite3"
pkgs_bench="fsmark"
pkgs_image="qemu-system-x86 qemu-utils nbdkit nbdkit-plugin-python jq genimage mtools dosfstools fdisk cpio libarchive-tools kmod squashfs-tools binutils zstd xz-utils ovmf systemd-boot-efi e2fsprogs f2fs-tools file bmap-tools"
pkgs_arm64="qemu-system-arm qemu-efi-aarch64 u-boot-qemu u-boot-tools gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user-static"
# 32-bit ARM: the runner cross-built (musl sysroot from Debian armhf), run
# under qemu-arm-static, and the qemu-armhf board booted through U-Boot.
pkgs_armhf="gcc-arm-linux-gnueabihf binutils-arm-linux-gnueabihf qemu-user-static qemu-system-arm u-boot-qemu u-boot-tools"
# The image's fio, built from Debian's source (image/fio.sh): the
# download, Debian's patches, the host's musl-gcc for x86_64.
pkgs_fio="curl patch musl-tools"
# Board farms (LAVA's dispatcher, labgrid and its pytest plugin) and the
# HTML report (gnuplot draws the charts, chromium tests the page).
pkgs_farm="lava-dispatcher python3-labgrid python3-pytest procps"
pkgs_html="gnuplot-nox chromium"
# A LAVA server on this machine (make lava-server, check-lava-server; not
# in the default groups): the server, its database, a worker, lavacli.
pkgs_lavaserver="lava-server lava-dispatcher lavacli postgresql"

groups=${*:-runner test bench image fio arm64 armhf farm html}
want=
for g in $groups; do
	eval "list=\${pkgs_$g:-}"
	[ -n "$list" ] || die $EX_USAGE "unknown package group '$g'"
	want="$want $list"
done

missing=
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done

if [ -z "$missing" ]; then
	say "all packages present ($groups)"
	exit 0
fi
say "installing:$missing"
if [ "$(id -u)" != 0 ]; then
	die $EX_SYSTEM "not root: run 'sudo $0 $groups' or install the packages above"
fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists when they are missing or older than a day.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
	apt-get update -q
fi
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
