#!/bin/sh
# musl-sysroot.sh: a musl sysroot and gcc specs file for cross-building the
# static runner (aarch64 with gcc-aarch64-linux-gnu, armhf with
# gcc-arm-linux-gnueabihf).
# Inputs: $1 Debian architecture (arm64, armhf, amd64), $2 output folder (under $O/cache).
# Output: $2/sysroot (musl-dev of that architecture, extracted) and
#         $2/musl-gcc.specs (use: ${CROSS_COMPILE}gcc -specs $2/musl-gcc.specs).
# No root: apt runs with a private state folder inside $2; the host's apt
# configuration is not touched. Downloads are cached.
set -eu
. "$(dirname "$0")/lib.sh"

arch=${1:?Debian architecture}; out=${2:?output folder}
case "$arch" in
arm64) triple=aarch64-linux-musl; ld=ld-musl-aarch64.so.1 ;;
amd64) triple=x86_64-linux-musl; ld=ld-musl-x86_64.so.1 ;;
armhf) triple=arm-linux-musleabihf; ld=ld-musl-armhf.so.1 ;;
*) die $EX_USAGE "architecture '$arch' not supported" ;;
esac
apt=$out/apt
mkdir -p "$apt/state/lists/partial" "$apt/cache/archives/partial" "$apt/etc/sources.list.d" \
	"$apt/etc/preferences.d" "$out/debs"
: >"$apt/state/status"
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$apt/etc/sources.list" || : >"$apt/etc/sources.list"
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] && cp "$f" "$apt/etc/sources.list.d/"
done
set -- -o "APT::Architecture=$arch" -o "APT::Architectures=$arch" \
	-o "Dir::State=$apt/state" -o "Dir::State::status=$apt/state/status" \
	-o "Dir::Cache=$apt/cache" -o "Dir::Etc::SourceList=$apt/etc/sources.list" \
	-o "Dir::Etc::SourceParts=$apt/etc/sources.list.d" \
	-o "Dir::Etc::Preferences=$apt/etc/preferences" \
	-o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d" \
	-o "Debug::NoLocking=1" -o "APT::Sandbox::User=$(id -un)" -o "Acquire::Languages=none"

if ! ls "$out/debs"/musl-dev_*.deb >/dev/null 2>&1; then
	if ! ls "$apt/state/lists/" | grep -q '_Packages'; then
		say "apt-get update ($arch, private state in $apt)"
		# An index that fails while the main one arrived (a mirror in the
		# middle of a sync: "Some index files failed to download") is
		# said and passed over; the download below fails if it mattered.
		if ! apt-get -q "$@" update >"$apt/update.log" 2>&1; then
			ls "$apt/state/lists/" | grep -q '_Packages' || { cat "$apt/update.log" >&2; die $EX_SYSTEM "apt-get update ($arch) failed"; }
			warn "apt-get update ($arch): some indexes failed, going on with the others:"
			grep '^E: Failed to fetch' "$apt/update.log" | cut -c1-200 >&2 || :
		fi
	fi
	say "downloading musl-dev:$arch"
	(cd "$out/debs" && apt-get -q "$@" download musl-dev musl >/dev/null)
fi
rm -rf "$out/sysroot"; mkdir -p "$out/sysroot"
for d in "$out/debs"/musl-dev_*.deb "$out/debs"/musl_*.deb; do
	dpkg-deb -x "$d" "$out/sysroot"
done
inc=$out/sysroot/usr/include/$triple
lib=$out/sysroot/usr/lib/$triple
[ -f "$lib/libc.a" ] && [ -d "$inc" ] || die $EX_SYSTEM "$lib/libc.a or $inc missing"
cat >"$out/musl-gcc.specs" <<SPECS
%rename cpp_options old_cpp_options

*cpp_options:
-nostdinc -isystem $inc -isystem include%s %(old_cpp_options)

*cc1:
%(cc1_cpu) -nostdinc -isystem $inc -isystem include%s

*link_libgcc:
-L$lib -L .%s

*libgcc:
libgcc.a%s %:if-exists(libgcc_eh.a%s)

*startfile:
%{!shared: $lib/Scrt1.o} $lib/crti.o crtbeginS.o%s

*endfile:
crtendS.o%s $lib/crtn.o

*link:
-dynamic-linker /lib/$ld -nostdlib %{shared:-shared} %{static:-static} %{rdynamic:-export-dynamic}

SPECS
say "$out/musl-gcc.specs"
