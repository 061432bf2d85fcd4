#!/bin/sh
# stage.sh: unpack a board's packages and lay out the rootfs and initramfs
# folders the images are made from.
#
# Inputs (environment):
#   MANIFEST      list of .deb files (from fetch.sh)
#   FILESYSTEMS   the filesystem table (`fsbench config --filesystems`, one
#                 line per filesystem, tab-separated: name, mkfs program,
#                 package, modules, files mkfs and the tools read, the tools
#                 the runner runs (freespace, checker, cleaner), `default`
#                 or `optional`; lists comma-separated)
#   FSBENCH       the static runner binary (installed as /usr/bin/fsbench,
#                 stripped: its debug information stays in the build; a
#                 file that is not ELF, a test's stand-in, is copied)
#   STRIP         strip for the board's architecture (default strip)
#   FIO           fio, static (image/fio.sh), installed as /usr/bin/fio
#   BOARD_DIR     board folder (fsbench.conf is copied into /etc as a default)
#   BOARD_KERNEL_GZIP  yes: the kernel is stored gzipped
#   BOARD_MODULES, BOARD_BOOT_MODULES, BOARD_INIT_MODULES  kernel modules
#                 (names), see board/common/arch-*.mk; the rootfs gets the
#                 filesystems' modules too; BOARD_ROOTFS_TYPES (ext4 f2fs)
#   FILES         image/files (init scripts)
#   KERNEL        (optional) a kernel of your own (make image KERNEL=PATH):
#                 its image and modules replace the kernel package's
#                 (image/kernel.sh stage); the modules OUT/kernel-absent.txt
#                 names (optional ones it lacks) are left out
#   OUT           output folder for this board
#   UNPACK        (optional) a folder that keeps each package unpacked
#                 once (UNPACK/NAME, NAME the .deb's file name); pkgroot
#                 is then hard links to those; and each gzipped kernel
#                 (UNPACK/gzip/SHA256.gz)
# Outputs:
#   $OUT/pkgroot/   every package unpacked (modules.dep regenerated)
#   $OUT/rootfs/    the rootfs tree: BusyBox in /bin, the mkfs tools and
#                   the freespace record's tools (e4defrag) in
#                   /usr/sbin (mkfs.NAME links to one named otherwise) with
#                   exactly the libraries their ELF NEEDED entries name and
#                   the files they read, the filesystems' and the board's
#                   modules + depmod, fsbench, fio, init
#   $OUT/initramfs/ the initramfs tree: BusyBox, boot modules, init
#   $OUT/kernel     the kernel image, gzipped (gzip -n -9) with
#                   BOARD_KERNEL_GZIP=yes (arm64's Image: QEMU's -kernel and
#                   U-Boot unpack it, image/uki.sh for the EFI stub), else as
#                   packaged; $OUT/kernel.version its version
#   $OUT/dtbs/      the kernel package's device trees (BOARD_FDTDIR set)
#   $OUT/efi.stub   the EFI stub (BOARD_EFI_STUB, a path in the packages)
# Runs without root: owners and timestamps are set by the image writers.
# Exit status: 0; 2 FSBENCH or FIO is built for another machine than the
#   board's (CROSS_COMPILE=...); 4 a package, tool, module or library is
#   missing or a step failed (image/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"

: "${MANIFEST:?}" "${FILESYSTEMS:?}" "${FSBENCH:?}" "${FIO:?}" "${BOARD_DIR:?}" "${BOARD_MODULES:?}"
: "${BOARD_BOOT_MODULES:?}" "${BOARD_INIT_MODULES:?}" "${FILES:?}" "${OUT:?}"
BOARD_KERNEL_FILE=${BOARD_KERNEL_FILE:-vmlinuz}

pk=$OUT/pkgroot
root=$OUT/rootfs
ird=$OUT/initramfs

# --- unpack ---------------------------------------------------------------
# With UNPACK, each package is unpacked once, in UNPACK/NAME (NAME the
# .deb's file name: package, version, architecture), and pkgroot is hard
# links to those: what follows only adds, removes or renames files in
# pkgroot (depmod writes its files anew), never writes one in place.
rm -rf "$pk" "$root" "$ird"
mkdir -p "$pk"
while read -r deb; do
	if [ -n "${UNPACK:-}" ]; then
		d=$UNPACK/$(basename "$deb" .deb)
		if [ ! -d "$d" ]; then
			mkdir -p "$UNPACK"
			tmp=$(mktemp -d "$UNPACK/.unpack.XXXXXX") || die $EX_SYSTEM "cannot make a folder in $UNPACK"
			chmod 755 "$tmp"
			dpkg-deb -x "$deb" "$tmp" || { rm -rf "$tmp"; die $EX_SYSTEM "cannot unpack $deb"; }
			# another build may have got there first: then its copy is taken
			mv -T "$tmp" "$d" 2>/dev/null || rm -rf "$tmp"
		fi
		# UNPACK on another filesystem (no hard links): unpacked here
		cp -al --remove-destination "$d/." "$pk/" 2>/dev/null && continue
	fi
	dpkg-deb -x "$deb" "$pk" || die $EX_SYSTEM "cannot unpack $deb"
done <"$MANIFEST"
# the modules of a list that a kernel of your own lacks and may lack
# (OUT/kernel-absent.txt) left out
drop() { for m in "$@"; do grep -qx -F "$m" "$OUT/kernel-absent.txt" || printf '%s ' "$m"; done; }
if [ -n "${KERNEL:-}" ]; then
	sh "$(dirname "$0")/kernel.sh" stage "$KERNEL" "$pk" || die $EX_SYSTEM "cannot stage the kernel $KERNEL"
	if [ -s "$OUT/kernel-absent.txt" ]; then
		# shellcheck disable=SC2086
		BOARD_MODULES=$(drop $BOARD_MODULES) BOARD_BOOT_MODULES=$(drop $BOARD_BOOT_MODULES)
		# shellcheck disable=SC2086
		BOARD_INIT_MODULES=$(drop $BOARD_INIT_MODULES)
	fi
fi

kver=$(ls "$pk/lib/modules" | head -n 1)
[ -n "$kver" ] || die $EX_SYSTEM "no kernel modules in the packages"
kernel=$(ls "$pk/boot/$BOARD_KERNEL_FILE-$kver" 2>/dev/null) ||
	die $EX_SYSTEM "no $BOARD_KERNEL_FILE-$kver in the kernel package"
if [ "${BOARD_KERNEL_GZIP:-}" = yes ] && [ "$(od -An -tx1 -N 2 "$kernel" | tr -d ' ')" != 1f8b ]; then
	if [ -n "${UNPACK:-}" ]; then
		# gzip -n -9 of the same kernel gives the same bytes: once per kernel
		gz=$UNPACK/gzip/$(sha256sum <"$kernel" | cut -c1-32).gz
		if [ ! -s "$gz" ]; then
			mkdir -p "$UNPACK/gzip"
			gzip -n -9 -c "$kernel" >"$gz.$$" && mv "$gz.$$" "$gz" ||
				{ rm -f "$gz.$$"; die $EX_SYSTEM "cannot compress $kernel"; }
		fi
		cp "$gz" "$OUT/kernel"
	else
		gzip -n -9 -c "$kernel" >"$OUT/kernel" || die $EX_SYSTEM "cannot compress $kernel"
	fi
else
	cp "$kernel" "$OUT/kernel"
fi
echo "$kver" >"$OUT/kernel.version"
depmod -b "$pk" "$kver" || die $EX_SYSTEM "depmod failed"
rm -rf "$OUT/dtbs"
if [ -n "${BOARD_FDTDIR:-}" ]; then
	[ -d "$pk/usr/lib/linux-image-$kver" ] || die $EX_SYSTEM "BOARD_FDTDIR: no device trees (/usr/lib/linux-image-$kver) in the kernel package"
	cp -R "$pk/usr/lib/linux-image-$kver" "$OUT/dtbs"
fi
rm -f "$OUT/efi.stub"
if [ -n "${BOARD_EFI_STUB:-}" ]; then
	[ -f "$pk$BOARD_EFI_STUB" ] || die $EX_SYSTEM "no $BOARD_EFI_STUB in the packages"
	cp "$pk$BOARD_EFI_STUB" "$OUT/efi.stub"
fi

# Resolve a path inside pkgroot, following symlinks (absolute ones point
# into pkgroot, not the host).
resolve() {
	p=$1 n=0
	while [ -L "$pk$p" ]; do
		t=$(readlink "$pk$p")
		case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
		n=$((n + 1))
		[ $n -lt 20 ] || die $EX_SYSTEM "symlink loop at $1"
	done
	[ -e "$pk$p" ] || return 1
	echo "$p"
}

# --- BusyBox ----------------------------------------------------------------
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
	"$root/etc" "$root/proc" "$root/sys" "$root/dev" "$root/run" \
	"$root/tmp" "$root/mnt" "$root/root" "$root/esp" "$root/var"
bb=$(resolve /bin/busybox) || die $EX_SYSTEM "busybox-static not unpacked"
cp "$pk$bb" "$root/bin/busybox"
# The applet list comes from the binary itself: run it directly when the
# host can, or through qemu-user.
applets=
for runner in "" "qemu-$(uname -m)-static" "qemu-aarch64-static" "qemu-arm-static"; do
	if applets=$($runner "$root/bin/busybox" --list 2>/dev/null) && [ -n "$applets" ]; then
		break
	fi
	applets=
done
[ -n "$applets" ] || applets="sh ash cat cp echo ls mkdir mount umount insmod modprobe
	poweroff reboot sleep switch_root sed grep awk tee cut tr dd date uname
	mountpoint sync kill ps dmesg stat head tail wc"

# --- mkfs and evidence tools and the libraries they need --------------------
# The filesystem table's columns, one word per filesystem.
col() { cut -f"$1" "$FILESYSTEMS" | paste -sd' '; }
TOOLS=$(col 2)
# the freespace record's tools, from the same packages as mkfs
for t in $(col 6 | tr ',' ' '); do
	[ "$t" = - ] || TOOLS="$TOOLS $t"
done
FS_MODULES=$(col 4 | tr ',' ' ')
# an optional filesystem's modules (nilfs2) a kernel of your own lacks
# shellcheck disable=SC2086
[ -z "${KERNEL:-}" ] || [ ! -s "$OUT/kernel-absent.txt" ] || FS_MODULES=$(drop $FS_MODULES)
[ -n "$TOOLS" ] || die $EX_SYSTEM "$FILESYSTEMS: no filesystems"
libdirs="/lib/$(ls "$pk/lib" | grep -- '-linux-gnu' | head -n 1) /usr/lib/$(ls "$pk/usr/lib" 2>/dev/null | grep -- '-linux-gnu' | head -n 1) /lib /usr/lib"

needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
interp() { readelf -l "$1" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p'; }

done_libs=" "
add_lib() {	# soname
	case $done_libs in *" $1 "*) return 0 ;; esac
	done_libs="$done_libs$1 "
	for d in $libdirs; do
		if rp=$(resolve "$d/$1"); then
			mkdir -p "$root$d"
			cp "$pk$rp" "$root$d/$1"
			for n in $(needed "$root$d/$1"); do add_lib "$n"; done
			return 0
		fi
	done
	die $EX_SYSTEM "library $1 not found in the packages"
}

for t in $TOOLS; do
	src=
	for d in /sbin /usr/sbin /bin /usr/bin; do
		if src=$(resolve "$d/$t"); then break; fi
		src=
	done
	[ -n "$src" ] || die $EX_SYSTEM "$t not found in the packages"
	cp "$pk$src" "$root/usr/sbin/$t"
	for n in $(needed "$root/usr/sbin/$t"); do add_lib "$n"; done
	ip=$(interp "$root/usr/sbin/$t")
	if [ -n "$ip" ] && [ ! -e "$root$ip" ] && [ ! -L "$root$ip" ]; then
		rp=$(resolve "$ip") || die $EX_SYSTEM "interpreter $ip not found"
		mkdir -p "$root$(dirname "$ip")"
		if [ -e "$root$rp" ]; then
			ln -s "$rp" "$root$ip"
		else
			cp "$pk$rp" "$root$ip"
		fi
	fi
done
# mkfs.NAME for a tool named otherwise (mkfs.ext4 -> mke2fs), then the
# files the tools read (mke2fs.conf).
while IFS='	' read -r name tool _ _ _; do
	[ "$tool" = "mkfs.$name" ] || ln -s "$tool" "$root/usr/sbin/mkfs.$name"
done <"$FILESYSTEMS"
for f in $(col 5 | tr ',' ' '); do
	[ "$f" != - ] || continue
	rp=$(resolve "$f") || die $EX_SYSTEM "$f not found in the packages"
	mkdir -p "$root$(dirname "$f")"
	cp "$pk$rp" "$root$f"
done

# BusyBox applets in /bin, except those a real tool provides.
for a in $applets; do
	[ "$a" = busybox ] && continue
	[ -e "$root/usr/sbin/$a" ] && continue
	ln -s busybox "$root/bin/$a"
done
# The kernel runs /sbin/modprobe (module autoload) and /sbin/poweroff.
for a in modprobe poweroff; do
	[ -e "$root/bin/$a" ] && ln -s ../bin/busybox "$root/sbin/$a"
done

# --- kernel modules -----------------------------------------------------------
# Load order with dependencies and softdeps, as kmod's modprobe resolves them.
modlist() {
	for m in "$@"; do
		modprobe -d "$pk" -S "$kver" --show-depends "$m" ||
			die $EX_SYSTEM "module $m not found for $kver"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
		sed "s|^$pk/lib/modules/$kver/||"
}
copy_mods() {	# dest-root list-file [depmod]
	mkdir -p "$1/lib/modules/$kver"
	while read -r m; do
		mkdir -p "$1/lib/modules/$kver/$(dirname "$m")"
		cp "$pk/lib/modules/$kver/$m" "$1/lib/modules/$kver/$m"
	done <"$2"
	cp "$2" "$1/lib/modules/$kver/load.list"
	[ "${3:-}" = depmod ] || return 0
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$pk/lib/modules/$kver/$f" ] && cp "$pk/lib/modules/$kver/$f" "$1/lib/modules/$kver/"
	done
	depmod -b "$1" "$kver" || die $EX_SYSTEM "depmod failed"
}
# shellcheck disable=SC2086
modlist $FS_MODULES $BOARD_MODULES >"$OUT/modules.list"
# shellcheck disable=SC2086
modlist $BOARD_BOOT_MODULES >"$OUT/boot-modules.list"
# shellcheck disable=SC2086
modlist $BOARD_INIT_MODULES >"$OUT/init-modules.list"
copy_mods "$root" "$OUT/modules.list" depmod
cp "$OUT/init-modules.list" "$root/lib/modules/$kver/load.list"

# The rootfs's modules in one squashfs image (zstd, about a fifth of their
# size): the kernel unpacks a module's pages when it is loaded, and
# modprobe and insmod see plain files. (BusyBox's insmod does read a
# .ko.gz, but only after the kernel's finit_module has refused it with an
# error line in the kernel log, the log the runner's evidence reads.)
# init mounts the image over /lib/modules/KVER, loading loop and squashfs
# from squashfs-KVER/ first (its mount.list). A kernel without squashfs
# or loop keeps the plain tree.
if modprobe -d "$pk" -S "$kver" --show-depends squashfs >/dev/null 2>&1 &&
	modprobe -d "$pk" -S "$kver" --show-depends loop >/dev/null 2>&1; then
	command -v mksquashfs >/dev/null || die $EX_SYSTEM "mksquashfs not installed (squashfs-tools: make deps)"
	sq=$root/lib/modules/squashfs-$kver
	modlist loop squashfs >"$OUT/mount-modules.list"
	copy_mods "$sq" "$OUT/mount-modules.list"
	mv "$sq/lib/modules/$kver/load.list" "$sq/mount.list"
	while read -r m; do mv "$sq/lib/modules/$kver/$m" "$sq/"; done <"$OUT/mount-modules.list"
	rm -rf "$sq/lib"
	sed -i 's|.*/||' "$sq/mount.list"
	# every timestamp SOURCE_DATE_EPOCH (mksquashfs refuses it beside
	# the options that set the same)
	env -u SOURCE_DATE_EPOCH mksquashfs "$root/lib/modules/$kver" "$root/lib/modules/$kver.squashfs" \
		-comp zstd -reproducible -all-root -no-xattrs -noappend -quiet -no-progress \
		-all-time "${SOURCE_DATE_EPOCH:-0}" -mkfs-time "${SOURCE_DATE_EPOCH:-0}" >/dev/null ||
		die $EX_SYSTEM "mksquashfs of the modules failed"
	rm -rf "$root/lib/modules/$kver"
	mkdir "$root/lib/modules/$kver"
else
	say "kernel $kver has no squashfs or loop module: the rootfs keeps its modules unpacked"
fi

# --- fsbench, init, config ----------------------------------------------------------
# The runner must be built for the board (CROSS_COMPILE): compare its ELF
# machine with BusyBox's (a script stand-in is taken as it is).
machine() { readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
want=$(machine "$root/bin/busybox")
have=$(machine "$FSBENCH")
if [ -n "$have" ] && [ "$have" != "$want" ]; then
	die $EX_USAGE "$FSBENCH is built for $have, the board ($BOARD_ARCH) needs $want (CROSS_COMPILE=...)"
fi
# an ELF binary is stripped; anything else (a stand-in script) is copied
if [ "$(head -c 4 "$FSBENCH" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	"${STRIP:-strip}" -o "$root/usr/bin/fsbench" "$FSBENCH"
else
	cp "$FSBENCH" "$root/usr/bin/fsbench"
fi
# fio (the extended workloads): static, for the board's machine too.
have=$(machine "$FIO")
[ "$have" = "$want" ] || die $EX_USAGE "$FIO is built for ${have:-no machine}, the board ($BOARD_ARCH) needs $want"
cp "$FIO" "$root/usr/bin/fio"
chmod 755 "$root/usr/bin/fio"
cp "$FILES/init" "$root/sbin/init"
chmod 755 "$root/sbin/init" "$root/usr/bin/fsbench"
cp "$BOARD_DIR/fsbench.conf" "$root/etc/fsbench.conf"
# e4defrag (the freespace record) finds a directory's mount in /etc/mtab
ln -s /proc/self/mounts "$root/etc/mtab"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
echo "$kver" >"$root/etc/kernel-version"

# --- initramfs ------------------------------------------------------------------
mkdir -p "$ird/bin" "$ird/dev" "$ird/proc" "$ird/sys" "$ird/newroot"
cp "$root/bin/busybox" "$ird/bin/busybox"
for a in sh mount umount insmod switch_root sleep cat echo mkdir ls grep sed poweroff; do
	ln -s busybox "$ird/bin/$a"
done
cp "$FILES/initramfs-init" "$ird/init"
chmod 755 "$ird/init"
# Boot modules, then one list per rootfs type (loaded when that type is asked for).
all=$OUT/boot-modules.list
cp "$all" "$OUT/initramfs-modules.list"
for t in ${BOARD_ROOTFS_TYPES:-ext4 f2fs}; do
	modlist "$t" | grep -v -x -F -f "$all" >"$OUT/rootfs-$t.list" || true
	cat "$OUT/rootfs-$t.list" >>"$OUT/initramfs-modules.list"
done
copy_mods "$ird" "$OUT/initramfs-modules.list"
cp "$all" "$ird/lib/modules/$kver/load.list"
for t in ${BOARD_ROOTFS_TYPES:-ext4 f2fs}; do
	cp "$OUT/rootfs-$t.list" "$ird/lib/modules/$kver/load-$t.list"
done

say "kernel $kver, $(wc -l <"$OUT/modules.list") modules ($(wc -l <"$OUT/boot-modules.list") in the initramfs), libraries:$done_libs"
