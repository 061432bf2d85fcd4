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
# Output: $OUTPUT (sparse), partitions fsbench-esp (FAT: vmlinuz,
# initrd.img, fsbench.conf, criteria.conf, readme.txt,
# EFI/BOOT/$BOARD_EFI_BOOT),
# fsbench-root, fsbench-log (zeros); $OUTPUT.bmap, the block map of its
# data for `bmaptool copy` (which then writes only the data, and checks it).
set -eu

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
touch -h -d "@$t" "$work/in"/*

sed -e "s|@ESP_SIZE@|$BOARD_ESP_SIZE|g" -e "s|@ROOT_SIZE@|$BOARD_ROOT_SIZE|g" \
	-e "s|@LOG_SIZE@|$BOARD_LOG_SIZE|g" -e "s|@ROOTFS_IMAGE@|rootfs.$ROOTFS|g" \
	-e "s|@ESP_VOLUME_ID@|$BOARD_ESP_VOLUME_ID|g" -e "s|@DISK_UUID@|$BOARD_DISK_UUID|g" \
	-e "s|@PART_UUID_PREFIX@|${BOARD_DISK_UUID%??}|g" \
	-e "$efiexpr" \
	"$GENIMAGE_CFG" >"$work/genimage.cfg"
left=$(grep -v '^[[:space:]]*#' "$work/genimage.cfg" | grep -o '@[A-Z_]*@' | head -n 1 || true)
[ -z "$left" ] || { echo "disk: $GENIMAGE_CFG: unknown placeholder $left" >&2; exit 2; }

# mtools reads SOURCE_DATE_EPOCH for the times it makes up itself.
SOURCE_DATE_EPOCH=$t genimage --config "$work/genimage.cfg" \
	--rootpath "$work/root" --tmppath "$work/tmp" \
	--inputpath "$work/in" --outputpath "$work/out" >"$work/genimage.log" 2>&1 || {
	cat "$work/genimage.log" >&2
	echo "disk: genimage failed" >&2
	exit 1
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
		echo "disk: bmaptool create failed" >&2
		exit 1
	}
	rm -f "$OUTPUT.bmap.err"
else
	echo "disk: bmaptool not installed (package bmap-tools): no $OUTPUT.bmap" >&2
fi
