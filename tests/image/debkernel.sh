#!/bin/sh
# tests/image/debkernel.sh: image/debkernel.sh (make debian-kernel), without
# the network: a local apt repository (file:, flat, trusted) of small
# stand-in kernel packages made here with dpkg-deb, given through
# APT_SOURCES, in a private apt state of its own.
#   1. misuse (exit 2): no argument, three, an option, a version with a
#      shell character, an OUT that exists and was not made by the script,
#      make debian-kernel without DEB_KERNEL; nothing downloaded.
#   2. not found (exit 2): a package name and a version the repository
#      does not have, and a version only another flavour has (cloud): the
#      message names what was looked for, the apt state, its sources and
#      the kernels it has.
#   3. found: a version (9.9) through its meta package to the exact signed
#      image (not -unsigned, not the older 9.9.0); OUT laid out as
#      image/kernel.sh takes it (boot/vmlinuz-V, config, lib/modules/V,
#      the .ko.xz as packaged) with debkernel.txt; a second run keeps it
#      (same inodes); another version replaces it; a version without a
#      meta package (9.9.1: the signed image before -unsigned); a package
#      name (-unsigned); a merged-/usr package's modules moved to
#      lib/modules.
#   4. system failures (exit 4): a package without boot/vmlinuz-V (OUT not
#      made, no work folder left), a package the index lists but the
#      repository lost (the lists refreshed once, then the failure said).
#   5. image/kernel.sh stage of that OUT: the .ko.xz unpacked to .ko, the
#      same bytes as the module before compression.
# Inputs (environment): O (build output, absolute).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work
# files under $O/tests/debkernel/. Needs no root and no network; a few
# seconds.
set -eu

O=${O:?run through make check-image}
T=$O/tests/debkernel
rm -rf "$T"
mkdir -p "$T"
. tests/lib.sh
test_init "debkernel tests" "$T"
for t in dpkg-deb apt-get xz; do
	have "$t" || { skip "$t not installed (make deps)"; summary; exit 0; }
done

# --- the stand-in repository ---------------------------------------------------
R=$T/repo
mkdir -p "$R"
# deb NAME VERSION KVER LAYOUT [DEPENDS]: a package in the repository.
# LAYOUT: kernel (boot/vmlinuz-KVER, config, lib/modules/KVER with one
# .ko.xz), usr (the modules under usr/lib/modules), nokernel (modules
# only), meta (no files, DEPENDS names the image).
deb() {
	d=$T/build/$1
	mkdir -p "$d/DEBIAN"
	case $4 in
	kernel | usr | nokernel)
		m=lib/modules/$3
		[ "$4" != usr ] || m=usr/lib/modules/$3
		mkdir -p "$d/$m/kernel/fs/foo"
		printf 'foo module of %s\n' "$3" >"$d/$m/kernel/fs/foo/foo.ko"
		xz "$d/$m/kernel/fs/foo/foo.ko"
		echo kernel/fs/foo/foo.ko >"$d/$m/modules.order"
		: >"$d/$m/modules.builtin"
		if [ "$4" != nokernel ]; then
			mkdir -p "$d/boot"
			printf 'kernel image %s\n' "$3" >"$d/boot/vmlinuz-$3"
			echo "CONFIG_FOO_FS=m" >"$d/boot/config-$3"
		fi ;;
	esac
	{
		echo "Package: $1"
		echo "Version: $2"
		echo "Architecture: amd64"
		echo "Maintainer: fsbench tests <tests@localhost>"
		[ -z "${5:-}" ] || echo "Depends: $5"
		echo "Description: stand-in kernel package"
	} >"$d/DEBIAN/control"
	dpkg-deb -Zgzip --root-owner-group -b "$d" "$R/${1}_${2}_amd64.deb" >/dev/null
}
deb linux-image-9.9.0+deb99-amd64 9.9.0-1 9.9.0+deb99-amd64 kernel
deb linux-image-9.9.1+deb99-amd64 9.9.1-1 9.9.1+deb99-amd64 kernel
deb linux-image-9.9.1+deb99-amd64-unsigned 9.9.1-1 9.9.1+deb99-amd64 kernel
deb linux-image-9.9-amd64 9.9.1-1 - meta 'linux-image-9.9.1+deb99-amd64 (= 9.9.1-1)'
deb linux-image-9.9.2+deb99-cloud-amd64 9.9.2-1 9.9.2+deb99-cloud-amd64 kernel
deb linux-image-7.7.7-1-amd64 7.7.7-1 7.7.7-1-amd64 usr
deb linux-image-8.8.8-1-amd64 8.8.8-1 8.8.8-1-amd64 nokernel
deb linux-image-6.6.6-1-amd64 6.6.6-1 6.6.6-1-amd64 kernel
(cd "$R" && dpkg-scanpackages -m . /dev/null >Packages 2>/dev/null) ||
	{ fail "dpkg-scanpackages (the stand-in repository's index)"; summary; exit 1; }
rm "$R/linux-image-6.6.6-1-amd64_6.6.6-1_amd64.deb"	# listed, then lost
echo "deb [trusted=yes] file:$R ./" >"$T/sources.list"

C=$T/cache
K=$T/kernels
dk() { env APT_SOURCES="$T/sources.list" CACHE="$C" ARCH=amd64 sh image/debkernel.sh "$@"; }

# --- 1. misuse ------------------------------------------------------------------
expect_rc 2 "no argument: misuse" dk
expect_err "debkernel: usage: debkernel.sh VERSION|PACKAGE OUT"
expect_rc 2 "three arguments: misuse" dk 9.9 "$K/a" extra
expect_rc 2 "an option: misuse" dk -v "$K/a"
expect_err "debkernel: '-v': not a kernel version or package name"
expect_rc 2 "a version with a shell character: misuse" dk '9.9;true' "$K/a"
expect_err "(letters, digits and . + ~ - only)"
mkdir -p "$T/mine"
expect_rc 2 "an OUT the script did not make: refused" dk 9.9 "$T/mine"
expect_err "debkernel: $T/mine: exists and was not made by debkernel.sh (no debkernel.txt): remove it or name another folder"
check "misuse: nothing fetched, no apt state made" [ ! -e "$C" ]
expect_rc 2 "make debian-kernel without DEB_KERNEL: misuse" make -s --no-print-directory debian-kernel
expect_err "debian-kernel: DEB_KERNEL= is not set"

# --- 2. not found ------------------------------------------------------------------
expect_rc 2 "a package the repository does not have: misuse" dk linux-image-nonesuch "$K/a"
expect_err "debkernel: package linux-image-nonesuch not found in the apt state $C/apt (amd64; sources: file:$R/ ./;"
expect_err "its amd64 kernels: 6.6.6-1 7.7.7-1 8.8.8-1 9.9 9.9.0+deb99 9.9.1+deb99;"
expect_rc 2 "a version the repository does not have: misuse" dk 9.8 "$K/a"
expect_err "debkernel: kernel 9.8 (neither linux-image-9.8-amd64 nor linux-image-9.8[.N][+debN|-N]-amd64[-unsigned]) not found in the apt state $C/apt"
expect_rc 2 "a version only the cloud flavour has: not found for amd64" dk 9.9.2 "$K/a"
expect_err "debkernel: kernel 9.9.2 (neither"
check "not found: OUT not made" [ ! -e "$K/a" ]

# --- 3. found ------------------------------------------------------------------------
V=9.9.1+deb99-amd64
expect_rc 0 "9.9: through the meta package" dk 9.9 "$K/a"
check "9.9: says the kernel, the package and the meta package" contains "$OUT" \
	"debkernel: $K/a: kernel $V from linux-image-$V 9.9.1-1 (through linux-image-9.9-amd64), 1 modules"
check "9.9: the signed image, not -unsigned, downloaded into CACHE/debs" sh -c \
	"[ -f '$C/debs/linux-image-${V}_9.9.1-1_amd64.deb' ] && [ ! -e '$C/debs/linux-image-$V-unsigned_9.9.1-1_amd64.deb' ]"
check "9.9: OUT as kernel.sh takes a folder (boot/vmlinuz-V, config, lib/modules/V, the .ko.xz as packaged)" sh -c \
	"[ \"\$(cat '$K/a/boot/vmlinuz-$V')\" = 'kernel image $V' ] && [ -f '$K/a/boot/config-$V' ] &&
	 [ \"\$(ls '$K/a/lib/modules')\" = '$V' ] && [ -f '$K/a/lib/modules/$V/kernel/fs/foo/foo.ko.xz' ] &&
	 [ \"\$(ls '$K/a')\" = \"\$(printf 'boot\ndebkernel.txt\nlib')\" ]"
check "9.9: debkernel.txt says what it is" sh -c \
	"grep -qx 'request 9.9' '$K/a/debkernel.txt' && grep -qx 'package linux-image-$V' '$K/a/debkernel.txt' &&
	 grep -qx 'version 9.9.1-1' '$K/a/debkernel.txt' && grep -qx 'meta linux-image-9.9-amd64' '$K/a/debkernel.txt' &&
	 grep -qx 'kernel $V' '$K/a/debkernel.txt' &&
	 grep -qx \"sha256 \$(sha256sum <'$C/debs/linux-image-${V}_9.9.1-1_amd64.deb' | cut -d' ' -f1)\" '$K/a/debkernel.txt'"
ino=$(stat -c %i "$K/a/boot/vmlinuz-$V")
expect_rc 0 "9.9 again" dk 9.9 "$K/a"
check "9.9 again: kept as it was (as before, same inode)" sh -c \
	"contains() { case \"\$1\" in *\"\$2\"*) ;; *) exit 1 ;; esac; }; contains '$OUT' 'as before' &&
	 [ \"\$(stat -c %i '$K/a/boot/vmlinuz-$V')\" = '$ino' ]"
expect_rc 0 "9.9.0 into the same OUT" dk 9.9.0 "$K/a"
check "9.9.0: replaces it (the older image, no meta package, the 9.9.1 modules gone)" sh -c \
	"[ \"\$(ls '$K/a/lib/modules')\" = 9.9.0+deb99-amd64 ] && [ -f '$K/a/boot/vmlinuz-9.9.0+deb99-amd64' ] &&
	 [ ! -e '$K/a/boot/vmlinuz-$V' ] && grep -qx 'meta none' '$K/a/debkernel.txt'"
expect_rc 0 "9.9.1: a version without a meta package" dk 9.9.1 "$K/s"
check "9.9.1: the signed image before its -unsigned twin" grep -qx "package linux-image-$V" "$K/s/debkernel.txt"
expect_rc 0 "a package name (-unsigned)" dk "linux-image-$V-unsigned" "$K/u"
check "-unsigned: that package" grep -qx "package linux-image-$V-unsigned" "$K/u/debkernel.txt"
expect_rc 0 "7.7: a package with its modules under usr/lib/modules" dk 7.7 "$K/usr"
check "7.7: the modules moved to lib/modules" sh -c \
	"[ -f '$K/usr/lib/modules/7.7.7-1-amd64/kernel/fs/foo/foo.ko.xz' ] && [ -f '$K/usr/boot/vmlinuz-7.7.7-1-amd64' ]"

# --- 4. system failures -----------------------------------------------------------
expect_rc 4 "a package without a kernel image: system failure" dk 8.8.8 "$K/nok"
expect_err "debkernel: linux-image-8.8.8-1-amd64 ($C/debs/linux-image-8.8.8-1-amd64_8.8.8-1_amd64.deb): no boot/vmlinuz-8.8.8-1-amd64: not a kernel image package"
check "no kernel image: OUT not made, no work folder left" sh -c \
	"[ ! -e '$K/nok' ] && [ -z \"\$(find '$K' -maxdepth 1 -name '.debkernel.*')\" ]"
expect_rc 4 "a package the repository lost: system failure" dk 6.6.6 "$K/lost"
check "lost: the lists refreshed once, then the download's failure said" sh -c \
	"contains() { case \"\$1\" in *\"\$2\"*) ;; *) exit 1 ;; esac; }; contains '$OUT' 'apt-get update (amd64' &&
	 contains '$ERR' 'debkernel: apt-get download linux-image-6.6.6-1-amd64 ($C/apt) failed'"

# --- 5. image/kernel.sh stage: compressed modules unpacked --------------------------
P=$T/pkgroot
mkdir -p "$P"
expect_rc 0 "kernel.sh stage of a folder with .ko.xz modules" env BOARD_ARCH=amd64 sh image/kernel.sh stage "$K/u" "$P"
check "kernel.sh stage: foo.ko.xz unpacked to foo.ko, the module's bytes" sh -c \
	"[ -z \"\$(find '$P/lib/modules' -name '*.ko.xz')\" ] &&
	 [ \"\$(cat '$P/lib/modules/$V/kernel/fs/foo/foo.ko')\" = 'foo module of $V' ] &&
	 cmp '$P/boot/vmlinuz-$V' '$K/u/boot/vmlinuz-$V'"

summary
