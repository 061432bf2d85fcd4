#!/bin/sh
# fio.sh: the image's fio, built from Debian's source: bookworm's fio
# 3.33-3 with Debian's patches, linked statically with musl and with
# Debian's libaio 0.3.113-4 (built as a static library), for one
# architecture. Debian's fio binary is not used: it links librbd,
# librados, libgfapi, libibverbs, libpmem and their libraries (84 MB),
# more than the whole image budget.
#
# Inputs (environment):
#   ARCH           Debian architecture (amd64, arm64, armhf)
#   CROSS_COMPILE  prefix of the cross gcc (aarch64-linux-gnu-,
#                  arm-linux-gnueabihf-), used with MUSL_SPECS: the runner's
#                  cross toolchain (the musl sysroot of image/musl-sysroot.sh);
#                  empty: the host's MUSL_CC (default musl-gcc), as the
#                  runner's own build
#   HEADERS        the kernel headers: Debian's linux-libc-dev .deb of ARCH
#   SOURCES        where the source archives are kept (shared by the
#                  architectures); what is there with the right SHA-256 is
#                  not downloaded again
#   OUT            output folder of this architecture
#   FIO_MIRROR     the Debian mirror (default http://deb.debian.org/debian)
#   FIO_JOBS       make -j of fio's build (default 2)
# Output: OUT/fio (static, stripped) and OUT/fio.txt (what it is built
#   from, the configure options, its size and build time); work files in
#   OUT/build (removed after a good build).
# The source archives are pinned below (version and SHA-256, as bookworm's
# Sources index gives them): a download that fails or does not match stops
# the build. No root.
# Exit status: 0; 2 a bad input (ARCH, HEADERS, MUSL_SPECS); 4 a download,
#   a checksum or a build step failed (image/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"

: "${ARCH:?}" "${HEADERS:?}" "${SOURCES:?}" "${OUT:?}"
CROSS_COMPILE=${CROSS_COMPILE:-}
MUSL_CC=${MUSL_CC:-musl-gcc}
FIO_MIRROR=${FIO_MIRROR:-http://deb.debian.org/debian}

# file  SHA-256  pool folder
PINS="
fio_3.33.orig.tar.gz d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc pool/main/f/fio
fio_3.33-3.debian.tar.xz 796ef40f7f1de5b4d3698024b4c56eb1b7b86fb1fef58ec41c966deebbafd515 pool/main/f/fio
libaio_0.3.113.orig.tar.gz 2c44d1c5fd0d43752287c9ae1eb9c023f04ef848ea8d4aafa46e9aedb678200b pool/main/liba/libaio
libaio_0.3.113-4.debian.tar.xz 0080eb530b80a5520cd7835bfac7532dfd5997f29c0c4ca567c257563ad784b9 pool/main/liba/libaio
"
FIO_VERSION=3.33
LIBAIO_VERSION=0.3.113

# fio's configure: a static build for the board (not -march=native), the
# engines the benchmark uses (psync, libaio, io_uring: fio's own, by raw
# system calls) and the JSON output; every optional library left out, also
# when the build host happens to have it.
FIO_CONFIGURE="--build-static --disable-native --prefix=/usr
	--disable-numa --disable-rdma --disable-rados --disable-rbd --disable-http
	--disable-gfapi --disable-libnfs --disable-pmem --disable-xnvme
	--disable-libzbc --disable-tcmalloc --disable-dfs --disable-lex"

case $ARCH in
amd64) multiarch=x86_64-linux-gnu ;;
arm64) multiarch=aarch64-linux-gnu ;;
armhf) multiarch=arm-linux-gnueabihf ;;
*) die $EX_USAGE "architecture '$ARCH' not supported (amd64, arm64, armhf)" ;;
esac
[ -f "$HEADERS" ] || die $EX_USAGE "kernel headers $HEADERS: no such file"

# --- sources: download, check -------------------------------------------------
mkdir -p "$SOURCES" "$OUT"
echo "$PINS" | while read -r f sum dir; do
	[ -n "$f" ] || continue
	if [ -f "$SOURCES/$f" ] && [ "$(sha256sum <"$SOURCES/$f" | cut -d' ' -f1)" = "$sum" ]; then
		continue
	fi
	url=$FIO_MIRROR/$dir/$f
	say "downloading $url"
	rm -f "$SOURCES/$f.part"
	curl -fsSL --retry 2 -o "$SOURCES/$f.part" "$url" ||
		{ rm -f "$SOURCES/$f.part"; die $EX_SYSTEM "download of $url failed"; }
	got=$(sha256sum <"$SOURCES/$f.part" | cut -d' ' -f1)
	[ "$got" = "$sum" ] ||
		{ rm -f "$SOURCES/$f.part"; die $EX_SYSTEM "$url: SHA-256 $got, the pinned one is $sum (image/fio.sh): not used"; }
	mv "$SOURCES/$f.part" "$SOURCES/$f"
done

t0=$(date +%s)
b=$OUT/build
rm -rf "$b"
mkdir -p "$b/headers" "$b/libaio-inst/include" "$b/libaio-inst/lib"

# --- toolchain ------------------------------------------------------------------
if [ -n "$CROSS_COMPILE" ]; then
	[ -f "${MUSL_SPECS:-}" ] || die $EX_USAGE "CROSS_COMPILE=$CROSS_COMPILE: no musl specs file '${MUSL_SPECS:-}' (image/musl-sysroot.sh)"
	cc="${CROSS_COMPILE}gcc -specs $MUSL_SPECS"
else
	cc=$MUSL_CC
fi
# The kernel's headers after musl's own (linux/, asm/: fio and libaio
# need them; musl does not ship them).
dpkg-deb -x "$HEADERS" "$b/headers" || die $EX_SYSTEM "cannot unpack $HEADERS"
inc="-idirafter $b/headers/usr/include -idirafter $b/headers/usr/include/$multiarch"
[ -d "$b/headers/usr/include/$multiarch/asm" ] || die $EX_SYSTEM "$HEADERS: no usr/include/$multiarch/asm"
# Paths of the build folder do not reach the binary.
map="-ffile-prefix-map=$b=."

# --- unpack, Debian's patches ---------------------------------------------------
unpack() {	# name version
	mkdir -p "$b/$1"
	tar -xzf "$SOURCES/${1}_$2.orig.tar.gz" -C "$b/$1" --strip-components=1
	tar -xJf "$SOURCES/$(echo "$PINS" | awk -v p="${1}_$2-" 'index($1, p) == 1 { print $1 }')" -C "$b/$1"
	grep -v -e '^#' -e '^[[:space:]]*$' "$b/$1/debian/patches/series" | while read -r p _; do
		patch -s -p1 -d "$b/$1" <"$b/$1/debian/patches/$p" || die $EX_SYSTEM "$1: Debian's patch $p does not apply"
	done
}
unpack libaio "$LIBAIO_VERSION"
unpack fio "$FIO_VERSION"

# --- libaio: the static library only --------------------------------------------
# shellcheck disable=SC2086
make -s -C "$b/libaio/src" libaio.a ENABLE_SHARED=0 CC="$cc" AR="${CROSS_COMPILE}ar" \
	RANLIB="${CROSS_COMPILE}ranlib" CFLAGS="-O2 $inc $map" >"$b/libaio.log" 2>&1 ||
	{ tail -n 20 "$b/libaio.log" >&2; die $EX_SYSTEM "libaio: build failed ($b/libaio.log)"; }
cp "$b/libaio/src/libaio.h" "$b/libaio-inst/include/"
cp "$b/libaio/src/libaio.a" "$b/libaio-inst/lib/"

# --- fio ---------------------------------------------------------------------------
# shellcheck disable=SC2086
(cd "$b/fio" && LDFLAGS="-L$b/libaio-inst/lib" ./configure --cc="$cc" \
	--extra-cflags="$inc -I$b/libaio-inst/include $map" $FIO_CONFIGURE) >"$b/configure.log" 2>&1 ||
	{ tail -n 20 "$b/configure.log" >&2; die $EX_SYSTEM "configure failed ($b/configure.log)"; }
for want in 'Static build *yes' 'Linux AIO support *yes'; do
	grep -q "^$want\$" "$b/configure.log" || die $EX_SYSTEM "configure did not say '$want' ($b/configure.log)"
done
# fio's own OPTFLAGS without -g: the binary is stripped, and the debug
# information took a seventh of the compile time.
make -s -C "$b/fio" -j"${FIO_JOBS:-2}" OPTFLAGS=-ffast-math fio >"$b/make.log" 2>&1 ||
	{ tail -n 20 "$b/make.log" >&2; die $EX_SYSTEM "build failed ($b/make.log)"; }
"${CROSS_COMPILE}strip" -o "$OUT/fio.tmp" "$b/fio/fio"
file "$OUT/fio.tmp" | grep -q 'statically linked' || die $EX_SYSTEM "$OUT/fio.tmp is not static"
t1=$(date +%s)

{
	echo "fio $FIO_VERSION-3 (Debian bookworm source, Debian's patches), static, musl"
	echo "libaio $LIBAIO_VERSION-4 (Debian bookworm source, Debian's patches), static"
	echo "$PINS" | awk 'NF { print "source " $1 " sha256 " $2 }'
	echo "compiler $cc ($($cc -dumpversion))"
	echo "configure $(echo $FIO_CONFIGURE)"
	echo "architecture $ARCH"
	echo "size $(stat -c %s "$OUT/fio.tmp")"
	echo "build seconds $((t1 - t0))"
} >"$OUT/fio.txt"
times >"$b/times"
sed -n '2s/^/build cpu (user, system) /p' "$b/times" >>"$OUT/fio.txt"
mv "$OUT/fio.tmp" "$OUT/fio"
rm -rf "$b"
say "$OUT/fio ($ARCH, $(stat -c %s "$OUT/fio") bytes, built in $((t1 - t0)) s)"
