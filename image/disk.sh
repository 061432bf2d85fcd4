#!/bin/sh
# disk.sh: assemble the board's GPT disk image with genimage, no root.
#
# Inputs (environment):
#   IN          folder with kernel, initramfs.cpio.gz and rootfs.$ROOTFS
#   ROOTFS      rootfs type (ext4, f2fs)
#   BOARD_DIR   board folder: fsbench.conf, criteria.conf, readme.txt
#   GENIMAGE_CFG  the genimage config with @NAME@ placeholders (the board's
#               genimage.cfg, else board/common/genimage.cfg.in)
#   BOARD_ESP_SIZE BOARD_ROOT_SIZE BOARD_LOG_SIZE  partition sizes
#   BOARD_DISK_UUID  GPT disk UUID (the partitions' end in 11, 12, 13 instead)
#   BOARD_ESP_VOLUME_ID  FAT volume id of the ESP (8 hex digits)
#   SOURCE_DATE_EPOCH  timestamp of the files on the ESP
#   OUTPUT      the disk image to write
#   BOARD_EFI_BOOT  file name of the UEFI executable (BOOTX64.EFI), used when
#               $IN/uki-$ROOTFS.efi exists
#   BOARD_EXTLINUX  yes: U-Boot standard boot (distro boot) on the ESP:
#               extlinux/extlinux.conf (kernel /vmlinuz, initrd /initrd.img,
#               fdtdir, append CMDLINE) and the partition's legacy BIOS
#               bootable flag, which U-Boot's scan looks at first
#   BOARD_FDTDIR    with BOARD_EXTLINUX: folder on the ESP for $IN/dtbs (the
#               kernel's device trees), named by the fdtdir line; U-Boot
#               loads $fdtfile from it (empty: no fdtdir, U-Boot passes its
#               own device tree)
#   BOARD_UIMAGE_ARCH BOARD_UIMAGE_LOAD  with BOARD_EXTLINUX: when the load
#               address is set, the ESP's vmlinuz is the gzipped kernel in a
#               legacy U-Boot image (mkimage -C gzip) that bootm unpacks to
#               that address, for a U-Boot whose environment has no
#               kernel_comp_addr_r (booti then cannot take a gzipped Image)
#   CMDLINE     with BOARD_EXTLINUX: the kernel command line (append)
# Output: $OUTPUT (sparse), partitions fsbench-esp (FAT: vmlinuz,
# initrd.img, fsbench.conf, criteria.conf, readme.txt,
# EFI/BOOT/$BOARD_EFI_BOOT, extlinux/extlinux.conf and $BOARD_FDTDIR/),
# fsbench-root, fsbench-log (zeros); $OUTPUT.bmap, the block map of its
# data for `bmaptool copy` (which then writes only the data, and checks it).
set -eu
. "$(dirname "$0")/lib.sh"

: "${IN:?}" "${ROOTFS:?}" "${BOARD_DIR:?}" "${GENIMAGE_CFG:?}" "${OUTPUT:?}"
: "${BOARD_ESP_SIZE:?}" "${BOARD_ROOT_SIZE:?}" "${BOARD_LOG_SIZE:?}"
: "${BOARD_DISK_UUID:?}" "${BOARD_ESP_VOLUME_ID:?}"
t=${SOURCE_DATE_EPOCH:-0}

work=$OUTPUT.d
rm -rf "$work"
mkdir -p "$work/in" "$work/tmp" "$work/out" "$work/root"

# Inputs with fixed timestamps (mtools copies them onto the FAT).
cp "$IN/kernel" "$work/in/kernel"
cp "$IN/initramfs.cpio.gz" "$work/in/initramfs.cpio.gz"
cp "$BOARD_DIR/fsbench.conf" "$work/in/fsbench.conf"
cp "$BOARD_DIR/criteria.conf" "$work/in/criteria.conf"
cp "$BOARD_DIR/readme.txt" "$work/in/readme.txt"
ln -s "$(cd "$IN" && pwd)/rootfs.$ROOTFS" "$work/in/rootfs.$ROOTFS"
truncate -s "$BOARD_LOG_SIZE" "$work/in/log.raw"
efi=${BOARD_EFI_BOOT:-}
if [ -n "$efi" ] && [ -f "$IN/uki-$ROOTFS.efi" ]; then
	cp "$IN/uki-$ROOTFS.efi" "$work/in/uki.efi"
	efiexpr="s|@EFI_BOOT@|$efi|g"
else
	efiexpr="/@EFI_BOOT@/d"
fi
ext=${BOARD_EXTLINUX:-}
case $ext in
yes)
	: "${CMDLINE:?}"
	{
		echo "# extlinux.conf: read by U-Boot's standard boot (distro boot), which"
		echo "# scans each disk's partitions for /extlinux/extlinux.conf."
		echo "default fsbench"
		echo "label fsbench"
		echo "	menu label fsbench ($ROOTFS rootfs)"
		echo "	linux /vmlinuz"
		echo "	initrd /initrd.img"
		[ -z "${BOARD_FDTDIR:-}" ] || echo "	fdtdir /$BOARD_FDTDIR/"
		echo "	append $CMDLINE"
	} >"$work/in/extlinux.conf"
	extexpr="s|@EXTLINUX_CONF@|extlinux.conf|g;s|@ESP_BOOTABLE@|true|g"
	if [ -n "${BOARD_FDTDIR:-}" ]; then
		[ -d "$IN/dtbs" ] || die $EX_USAGE "BOARD_FDTDIR: no $IN/dtbs"
		cp -R "$IN/dtbs" "$work/in/dtbs"
		find "$work/in/dtbs" -exec touch -h -d "@$t" {} +
		extexpr="$extexpr;s|@FDTDIR@|$BOARD_FDTDIR|g"
	else
		extexpr="$extexpr;/@FDTDIR@/d"
	fi
	if [ -n "${BOARD_UIMAGE_LOAD:-}" ]; then
		: "${BOARD_UIMAGE_ARCH:?}"
		z=$work/in/kernel.gz
		if [ "$(od -An -tx1 -N 2 "$IN/kernel" | tr -d ' ')" = 1f8b ]; then
			cp "$IN/kernel" "$z"
		else
			gzip -n -9 -c "$IN/kernel" >"$z"
		fi
		# mkimage writes the current time in the header unless told.
		SOURCE_DATE_EPOCH=$t mkimage -A "$BOARD_UIMAGE_ARCH" -O linux -T kernel -C gzip \
			-a "$BOARD_UIMAGE_LOAD" -e "$BOARD_UIMAGE_LOAD" -n fsbench \
			-d "$z" "$work/in/kernel" >/dev/null || die $EX_SYSTEM "mkimage failed"
		rm -f "$z"
	fi
	;;
'') extexpr="/@EXTLINUX_CONF@/d;/@ESP_BOOTABLE@/d;/@FDTDIR@/d" ;;
*) die $EX_USAGE "BOARD_EXTLINUX: '$ext' is neither yes nor empty" ;;
esac
touch -h -d "@$t" "$work/in"/*

sed -e "s|@ESP_SIZE@|$BOARD_ESP_SIZE|g" -e "s|@ROOT_SIZE@|$BOARD_ROOT_SIZE|g" \
	-e "s|@LOG_SIZE@|$BOARD_LOG_SIZE|g" -e "s|@ROOTFS_IMAGE@|rootfs.$ROOTFS|g" \
	-e "s|@ESP_VOLUME_ID@|$BOARD_ESP_VOLUME_ID|g" -e "s|@DISK_UUID@|$BOARD_DISK_UUID|g" \
	-e "s|@PART_UUID_PREFIX@|${BOARD_DISK_UUID%??}|g" \
	-e "$efiexpr" -e "$extexpr" \
	"$GENIMAGE_CFG" >"$work/genimage.cfg"
left=$(grep -v '^[[:space:]]*#' "$work/genimage.cfg" | grep -o '@[A-Z_]*@' | head -n 1 || true)
[ -z "$left" ] || die $EX_USAGE "$GENIMAGE_CFG: unknown placeholder $left"

# mtools reads SOURCE_DATE_EPOCH for the times it makes up itself.
SOURCE_DATE_EPOCH=$t genimage --config "$work/genimage.cfg" \
	--rootpath "$work/root" --tmppath "$work/tmp" \
	--inputpath "$work/in" --outputpath "$work/out" >"$work/genimage.log" 2>&1 || {
	cat "$work/genimage.log" >&2
	die $EX_SYSTEM "genimage failed"
}
mv "$work/out/disk.img" "$OUTPUT"
mv "$work/out/esp.vfat" "$(dirname "$OUTPUT")/esp.vfat"
rm -rf "$work"
# The block map: the image's mapped ranges (holes are never written) with
# their SHA-256. bmaptool finds DISK.img.bmap next to DISK.img by itself.
rm -f "$OUTPUT.bmap"
if command -v bmaptool >/dev/null; then
	bmaptool create -o "$OUTPUT.bmap" "$OUTPUT" 2>"$OUTPUT.bmap.err" || {
		cat "$OUTPUT.bmap.err" >&2
		die $EX_SYSTEM "bmaptool create failed"
	}
	rm -f "$OUTPUT.bmap.err"
else
	warn "bmaptool not installed (package bmap-tools): no $OUTPUT.bmap"
fi
