#!/bin/sh
# sqlite.sh: the SQLite amalgamation (sqlite3.c, sqlite3.h) of the runner's
# packing phases, generated from Debian's source package.
#
# Inputs (environment, pinned in runner/sqlite.mk):
#   SQLITE_MIRROR   Debian mirror (http://deb.debian.org/debian)
#   SQLITE_POOL     the package's pool folder (pool/main/s/sqlite3)
#   SQLITE_DSC, SQLITE_ORIG, SQLITE_DEBIAN
#                   file names of the .dsc, the .orig.tar.xz (the canonical
#                   source tree) and the .debian.tar.xz (Debian's patches)
#   SQLITE_DSC_SHA256, SQLITE_ORIG_SHA256, SQLITE_DEBIAN_SHA256
#                   their SHA-256; the two tarballs' sums must also be the
#                   ones the .dsc lists
#   CACHE           where the downloads are kept (not fetched again)
#   OUT             output folder
# Output: $OUT/sqlite3.c and $OUT/sqlite3.h: the orig tree with the patches
# of debian/patches/series applied, configured (--disable-tcl) and
# `make sqlite3.c` (tclsh runs SQLite's mksqlite3c.tcl). Needs no root;
# writes under $CACHE and $OUT only.
# Exit status: 0; 4 a tool is missing, a download, a checksum, a patch or the
#   build failed (image/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"

: "${SQLITE_MIRROR:?}" "${SQLITE_POOL:?}" "${SQLITE_DSC:?}" "${SQLITE_ORIG:?}" "${SQLITE_DEBIAN:?}"
: "${SQLITE_DSC_SHA256:?}" "${SQLITE_ORIG_SHA256:?}" "${SQLITE_DEBIAN_SHA256:?}" "${CACHE:?}" "${OUT:?}"

command -v tclsh >/dev/null || die $EX_SYSTEM "tclsh not found (Debian package tcl; make deps)"

mkdir -p "$CACHE"
# fetch NAME SHA256: download into the cache unless it is there with the sum
fetch() {
	f=$CACHE/$1
	if [ -f "$f" ] && [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$2" ]; then
		return 0
	fi
	say "fetch $SQLITE_MIRROR/$SQLITE_POOL/$1"
	curl -fsSL --retry 3 -o "$f.part" "$SQLITE_MIRROR/$SQLITE_POOL/$1" ||
		die $EX_SYSTEM "download of $SQLITE_MIRROR/$SQLITE_POOL/$1 failed"
	got=$(sha256sum "$f.part" | cut -d' ' -f1)
	[ "$got" = "$2" ] || { rm -f "$f.part"; die $EX_SYSTEM "$1: SHA-256 $got, expected $2 (runner/sqlite.mk)"; }
	mv "$f.part" "$f"
}
fetch "$SQLITE_DSC" "$SQLITE_DSC_SHA256"
fetch "$SQLITE_ORIG" "$SQLITE_ORIG_SHA256"
fetch "$SQLITE_DEBIAN" "$SQLITE_DEBIAN_SHA256"
# the tarballs are the ones the (pinned) .dsc names
for p in "$SQLITE_ORIG $SQLITE_ORIG_SHA256" "$SQLITE_DEBIAN $SQLITE_DEBIAN_SHA256"; do
	set -- $p
	grep -q "^ $2 [0-9]* $1\$" "$CACHE/$SQLITE_DSC" || die $EX_SYSTEM "$1: $2 is not the sum $SQLITE_DSC lists"
done

work=$OUT/work
rm -rf "$work"
mkdir -p "$work/build"
tar -xJf "$CACHE/$SQLITE_ORIG" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d ! -name build)
[ -f "$src/configure" ] || die $EX_SYSTEM "$SQLITE_ORIG: no configure in its top folder"
tar -xJf "$CACHE/$SQLITE_DEBIAN" -C "$src"
while read -r p _; do
	case "$p" in '' | '#'*) continue ;; esac
	patch -d "$src" -p1 -s --no-backup-if-mismatch <"$src/debian/patches/$p" ||
		die $EX_SYSTEM "debian/patches/$p does not apply"
done <"$src/debian/patches/series"
say "configure and make sqlite3.c (the amalgamation)"
(cd "$work/build" && "$src/configure" --disable-tcl >configure.log 2>&1) ||
	die $EX_SYSTEM "configure failed: $work/build/configure.log"
(cd "$work/build" && make sqlite3.c >make.log 2>&1) || die $EX_SYSTEM "make sqlite3.c failed: $work/build/make.log"
cp "$work/build/sqlite3.c" "$work/build/sqlite3.h" "$OUT/"
rm -rf "$work"
