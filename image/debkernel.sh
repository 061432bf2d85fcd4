#!/bin/sh
# debkernel.sh: a Debian kernel package, downloaded and unpacked as a kernel
# of your own (make image KERNEL=OUT, qemu/run.sh --kernel OUT, an A/B's
# B_KERNEL=OUT): a second real kernel beside the board's, without a compile.
#
# Usage: image/debkernel.sh WHAT OUT
#   WHAT  a kernel version or its start (6.12, 6.12.118, 6.1.0-37), or a
#         package name (linux-image-6.12-amd64, linux-image-amd64,
#         linux-image-6.12.118+deb12-amd64[-unsigned]). A version is the
#         meta package linux-image-WHAT-FLAVOUR when there is one, else the
#         newest linux-image-WHAT[.N...][+debN|-N]-FLAVOUR (the signed one
#         before -unsigned); a meta package is followed to the exact
#         linux-image-VERSION it depends on.
#   OUT   the folder to make; one this script made before is replaced (or
#         left as it is when it holds the same package), any other existing
#         OUT is refused.
# Inputs (environment): ARCH (Debian architecture, default amd64); FLAVOUR
#   (Debian's kernel flavour, default ARCH's: amd64, arm64, armmp);
#   CACHE (the private apt state and downloads of ARCH, shared with the
#   image build; default ${O:-out}/cache/ARCH); APT_UPDATE=1 (refresh the
#   package lists first; they are also refreshed when there are none, and
#   once when a download fails); APT_SOURCES (a sources list used instead
#   of the host's: tests/image/debkernel.sh's local repository).
# Outputs: CACHE/apt (the private apt state, image/apt.sh: the host's
#   sources, no root), CACHE/debs/PACKAGE_VERSION_ARCH.deb (kept: a second
#   run downloads nothing);
#   OUT/boot/vmlinuz-V, OUT/boot/config-V, OUT/boot/System.map-V and
#   OUT/lib/modules/V: the package's files as image/kernel.sh takes a
#   folder (modules as packaged: 6.12's are .ko.xz, which the image build
#   unpacks); OUT/debkernel.txt: what it is (request, package, version,
#   meta package, .deb, SHA-256, kernel version). The last line on stdout
#   names OUT and the kernel.
# Exit status: 0; 2 misuse: a bad argument, no package of that name or
#   version in the apt state (the message names what was looked for, the
#   apt state, its sources and the kernels it has), OUT exists and was not
#   made here; 4 a system failure: apt-get update or the download failed,
#   the package is not a kernel image (no boot/vmlinuz-V, no
#   lib/modules/V), dpkg-deb failed, OUT cannot be written (image/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/apt.sh"

usage="usage: debkernel.sh VERSION|PACKAGE OUT (e.g. debkernel.sh 6.12 out/kernels/debian-6.12)"
[ $# -eq 2 ] || die $EX_USAGE "$usage"
what=$1 out=$2
case $what in
'' | -*) die $EX_USAGE "'$what': not a kernel version or package name; $usage" ;;
*[!A-Za-z0-9.+~-]*) die $EX_USAGE "'$what': not a kernel version or package name (letters, digits and . + ~ - only); $usage" ;;
esac
[ -n "$out" ] || die $EX_USAGE "OUT is empty; $usage"
ARCH=${ARCH:-amd64}
case $ARCH in
amd64) FLAVOUR=${FLAVOUR:-amd64} ;;
arm64) FLAVOUR=${FLAVOUR:-arm64} ;;
armhf) FLAVOUR=${FLAVOUR:-armmp} ;;
*) [ -n "${FLAVOUR:-}" ] || die $EX_USAGE "ARCH=$ARCH: no default kernel flavour (FLAVOUR=...)" ;;
esac
CACHE=${CACHE:-${O:-out}/cache/$ARCH}
if [ -e "$out" ] && [ ! -f "$out/debkernel.txt" ]; then
	die $EX_USAGE "$out: exists and was not made by debkernel.sh (no debkernel.txt): remove it or name another folder"
fi

mkdir -p "$CACHE/debs" || die $EX_SYSTEM "cannot make $CACHE/debs"
CACHE=$(cd "$CACHE" && pwd)
apt=$CACHE/apt debs=$CACHE/debs
apt_state "$apt" "$ARCH"
conf=$apt/apt.conf
mkdir -p "$apt/empty"
if [ "${APT_UPDATE:-0}" = 1 ] || ! apt_lists "$apt"; then
	apt_update "$apt" "$ARCH"
fi

# A package apt can download (it has a candidate version).
known() { apt-cache -c "$conf" show --no-all-versions "$1" >/dev/null 2>&1; }
# The kernels the apt state has: the VERSION of each linux-image-VERSION-FLAVOUR.
kernels() {
	apt-cache -c "$conf" pkgnames linux-image- 2>/dev/null |
		grep -E "^linux-image-[0-9][0-9.]*(\+deb[0-9]+|-[0-9]+)?-$FLAVOUR\$" |
		sed "s/^linux-image-//; s/-$FLAVOUR\$//" | sort -uV | paste -sd' '
}
notfound() {
	have=$(kernels)
	die $EX_USAGE "$1 not found in the apt state $apt ($ARCH; sources: $(apt_sources "$apt"); lists of $(date -r "$apt/state/lists" '+%F %R' 2>/dev/null || echo never);" \
		"its $FLAVOUR kernels: ${have:-none}; APT_UPDATE=1 refreshes the lists)"
}

# resolve: WHAT to the exact image package ($pkg) and the meta package
# it came through ($meta, or none).
resolve() {
	meta=none
	case $what in
	linux-image-*)
		pkg=$what
		known "$pkg" || notfound "package $pkg"
		;;
	*)
		esc=$(printf '%s' "$what" | sed 's/[.+~]/\\&/g')
		re="^linux-image-$esc(\\.[0-9]+)*(\\+deb[0-9]+|-[0-9]+)?-$FLAVOUR"
		if known "linux-image-$what-$FLAVOUR"; then
			pkg=linux-image-$what-$FLAVOUR
		else
			names=$(apt-cache -c "$conf" pkgnames "linux-image-$what" 2>/dev/null || :)
			pkg=$(printf '%s\n' "$names" | grep -E "$re\$" | sort -V | tail -n 1)
			[ -n "$pkg" ] || pkg=$(printf '%s\n' "$names" | grep -E "$re-unsigned\$" | sort -V | tail -n 1)
			if [ -z "$pkg" ] || ! known "$pkg"; then
				notfound "kernel $what (neither linux-image-$what-$FLAVOUR nor linux-image-${what}[.N][+debN|-N]-${FLAVOUR}[-unsigned])"
			fi
		fi
		;;
	esac
	# a meta package: the exact image it depends on
	dep=$(apt-cache -c "$conf" depends "$pkg" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	if [ -n "$dep" ]; then
		meta=$pkg pkg=$dep
		known "$pkg" || notfound "package $pkg (the dependency of $meta)"
	fi
	version=$(apt-cache -c "$conf" show --no-all-versions "$pkg" | sed -n 's/^Version: //p' | head -n 1)
}

# uri: the .deb's file name, size and checksum ($file $size $sum, $tool).
uri() {
	l=$(cd "$apt/empty" && apt-get -q -c "$conf" download --print-uris "$pkg" 2>"$apt/uris.err") ||
		{ cat "$apt/uris.err" >&2; die $EX_SYSTEM "apt-get download --print-uris $pkg failed"; }
	set -- $l
	[ $# -ge 3 ] || die $EX_SYSTEM "apt-get download --print-uris $pkg: no file"
	file=${2#\'} file=${file%\'} size=$3 sum=${4:-} tool=
	case $sum in SHA256:*) tool=sha256sum ;; SHA512:*) tool=sha512sum ;; esac
	sum=${sum#*:}
}
cached() {
	[ -s "$debs/$file" ] && [ "$(stat -c %s "$debs/$file")" = "$size" ] &&
		{ [ -z "$tool" ] || [ "$($tool <"$debs/$file" | cut -d' ' -f1)" = "$sum" ]; }
}
download() {
	rm -f "$debs/$file"
	say "downloading $pkg $version ($((size / 1048576)) MiB) into $debs"
	(cd "$debs" && apt-get -q -c "$conf" download "$pkg" >"$apt/download.log" 2>&1) && cached
}

resolve
uri
if ! cached && ! download; then
	# The lists are stale (the archive moved on): refresh them once, retry.
	apt_update "$apt" "$ARCH"
	resolve
	uri
	cached || download || { cat "$apt/download.log" >&2; die $EX_SYSTEM "apt-get download $pkg ($apt) failed"; }
fi
deb=$debs/$file
sha=$(sha256sum <"$deb" | cut -d' ' -f1)

if [ -f "$out/debkernel.txt" ] && grep -qxF "sha256 $sha" "$out/debkernel.txt" &&
	kver=$(sed -n 's/^kernel //p' "$out/debkernel.txt") && [ -d "$out/lib/modules/$kver" ]; then
	say "$out: kernel $kver from $pkg $version, as before"
	exit 0
fi

# Unpack beside OUT, then put it in place whole.
parent=$(dirname "$out")
mkdir -p "$parent" || die $EX_SYSTEM "cannot make $parent"
tmp=$(mktemp -d "$parent/.debkernel.XXXXXX") || die $EX_SYSTEM "cannot make a folder in $parent"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
dpkg-deb -x "$deb" "$tmp/x" || die $EX_SYSTEM "cannot unpack $deb"
# the modules under /usr/lib (a merged-/usr package): where kernel.sh looks
if [ ! -d "$tmp/x/lib/modules" ] && [ -d "$tmp/x/usr/lib/modules" ]; then
	mkdir -p "$tmp/x/lib"
	mv "$tmp/x/usr/lib/modules" "$tmp/x/lib/modules"
fi
n=$(ls "$tmp/x/lib/modules" 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || die $EX_SYSTEM "$pkg ($deb): $n kernel versions in lib/modules, not one: not a kernel image package"
kver=$(ls "$tmp/x/lib/modules")
[ -f "$tmp/x/boot/vmlinuz-$kver" ] || die $EX_SYSTEM "$pkg ($deb): no boot/vmlinuz-$kver: not a kernel image package"
mkdir -p "$tmp/k/lib"
mv "$tmp/x/boot" "$tmp/k/boot"
mv "$tmp/x/lib/modules" "$tmp/k/lib/modules"
{
	echo "request $what"
	echo "package $pkg"
	echo "version $version"
	echo "meta $meta"
	echo "deb $deb"
	echo "sha256 $sha"
	echo "kernel $kver"
} >"$tmp/k/debkernel.txt"
rm -rf "$out"
mv "$tmp/k" "$out" || die $EX_SYSTEM "cannot move the kernel to $out"
say "$out: kernel $kver from $pkg $version$([ "$meta" = none ] || echo " (through $meta)"), $(find "$out/lib/modules/$kver" -name '*.ko*' | wc -l) modules"
