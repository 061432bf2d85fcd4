#!/bin/sh
# fetch.sh: download the Debian packages a board's image is made of.
#
# Inputs (environment):
#   ARCH        Debian architecture (amd64, arm64)
#   KERNEL_PKG  kernel meta package (linux-image-amd64); the exact image it
#               depends on is fetched too; empty: no kernel (make image
#               KERNEL=PATH brings its own)
#   CACHE       cache folder for this architecture (apt state + .deb files)
#   MANIFEST    output: one .deb file name per line (absolute paths)
#   EXTRA_PKGS  more packages taken as they are (e.g. systemd-boot-efi)
#   FILESYSTEMS the filesystem table (`fsbench config --filesystems`): the
#               package of each filesystem's mkfs (third column) is fetched
#   APT_UPDATE  1 to refresh the package lists even if they exist
# Output: $CACHE/apt (private apt state), $CACHE/debs/*.deb, $MANIFEST.
# Needs no root and leaves the host's apt configuration untouched: apt runs
# with its own state, cache, status file and source list (a copy of the
# host's; image/apt.sh). Files already in the cache are not downloaded again.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/apt.sh"

: "${ARCH:?}" "${KERNEL_PKG?}" "${CACHE:?}" "${MANIFEST:?}" "${FILESYSTEMS:?}"
APT_UPDATE=${APT_UPDATE:-0}

# Packages holding the userland: BusyBox and the filesystems' mkfs tools.
# Their shared libraries come from the dependency closure of these packages.
fspkgs=$(cut -f3 "$FILESYSTEMS" | paste -sd' ')
[ -n "$fspkgs" ] || die $EX_SYSTEM "$FILESYSTEMS: no filesystems"
USER_PKGS="busybox-static $fspkgs"

apt=$CACHE/apt
debs=$CACHE/debs
apt_state "$apt" "$ARCH"
mkdir -p "$debs"
set -- -c "$apt/apt.conf"
update() { apt_update "$apt" "$ARCH"; }

if [ "$APT_UPDATE" = 1 ] || ! apt_lists "$apt"; then
	update
fi

# The exact kernel image the meta package depends on.
kimg=
if [ -n "$KERNEL_PKG" ]; then
	kimg=$(apt-cache "$@" depends "$KERNEL_PKG" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	[ -n "$kimg" ] || die $EX_SYSTEM "$KERNEL_PKG: no linux-image dependency found"
fi

# Libraries of the userland packages: walk Depends and Pre-Depends, but
# only through library packages (Debian's shlibs put every library a binary
# needs in its package's direct Depends). Tools such as python3 or perl that
# a package depends on for its scripts are not followed.
closure=$USER_PKGS
todo=$USER_PKGS
while [ -n "$todo" ]; do
	# shellcheck disable=SC2086
	next=$(apt-cache "$@" depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $todo 2>/dev/null |
		sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \([^< ]*\).*/\2/p' |
		grep -E '^(lib|zlib1g)' | sort -u)
	todo=
	for p in $next; do
		case " $closure " in *" $p "*) ;; *) closure="$closure $p"; todo="$todo $p" ;; esac
	done
done

pkgs="$KERNEL_PKG $kimg $closure ${EXTRA_PKGS:-}"

# What to download: apt prints URI, file name, size and checksum (run in an
# empty folder: apt leaves out files already present in the current one).
# A cached file counts when its size and checksum match.
mkdir -p "$apt/empty"
fetch() {
	# shellcheck disable=SC2086
	list=$(cd "$apt/empty" && apt-get -q "$@" download --print-uris $pkgs 2>"$apt/uris.err") ||
		{ cat "$apt/uris.err" >&2; return 1; }
	: >"$MANIFEST.tmp"
	need=
	nl='
'
	IFS=$nl
	for l in $list; do
		IFS=' '
		set -- $l
		f=${2#\'}; f=${f%\'}
		echo "$debs/$f" >>"$MANIFEST.tmp"
		sum=${4#*:}
		case $4 in SHA256:*) tool=sha256sum ;; SHA512:*) tool=sha512sum ;; *) tool= ;; esac
		if [ -s "$debs/$f" ] && [ "$(stat -c %s "$debs/$f")" = "$3" ] &&
			{ [ -z "$tool" ] || [ "$($tool <"$debs/$f" | cut -d' ' -f1)" = "$sum" ]; }; then
			continue
		fi
		rm -f "$debs/$f"
		need="$need $f"
	done
	IFS=' 	
'
	if [ -z "$need" ]; then
		say "all $(wc -l <"$MANIFEST.tmp") packages cached ($ARCH)"
		return 0
	fi
	say "downloading$(echo $need | wc -w | sed 's/^/ /') packages ($ARCH) into $debs:"
	printf '  %s\n' $need
	names=$(printf '%s\n' $need | sed 's/_.*//')
	return 2
}
download() {
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get -q "$@" download $names >"$apt/download.log" 2>&1)
}

rc=0
fetch "$@" || rc=$?
if [ $rc -eq 2 ] && ! download "$@"; then
	# The lists are stale (the mirror moved on): refresh them once, retry.
	update
	rc=0
	fetch "$@" || rc=$?
	[ $rc -ne 2 ] || download "$@" || {
		cat "$apt/download.log" >&2
		die $EX_SYSTEM "apt-get download failed"
	}
elif [ $rc -eq 1 ]; then
	exit $EX_SYSTEM
fi
sort "$MANIFEST.tmp" >"$MANIFEST"
rm -f "$MANIFEST.tmp"
