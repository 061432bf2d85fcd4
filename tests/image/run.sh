#!/bin/sh
# tests/image/run.sh: build the board's images and check them without
# mounting anything: the partition table (sfdisk --dump), the ESP (mtools),
# the rootfs (e2fsck -fn, debugfs rdump / fsck.f2fs --dry-run; fsbench and
# fio static, fio Debian's 3.33), the
# initramfs (cpio listing), the image budget, cached downloads, make-level
# no-op rebuilds, and reproducibility (two builds in separate output
# folders, the second one as an unprivileged user when run as root, must be
# byte-identical).
# Inputs (environment): O (build output, absolute), BOARD, FSBENCH_IMAGE
# (runner binary to put in the image, default the `make runner` one); the
# host build $O/host/fsbench (`make host`) gives the filesystem table.
# Needs no root.
# Output: one line per check (tests/lib.sh), a summary line; exit 1 on a
# failure. Work files under $O/tests/image/.
set -eu

O=${O:?run through make check-image}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/image
IMG=$O/image/$BOARD
rm -rf "$T"
mkdir -p "$T"
. tests/lib.sh
test_init "image tests" "$T"
eval "$(sh image/boardenv.sh "board/$BOARD/board.mk")"
# The filesystem table (name, mkfs, package, modules, files, the freespace
# record's tools), one place for the runner, the image and these checks.
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
"$FSBENCH_HOST" config --filesystems >"$T/filesystems.txt" || {
	fail "$FSBENCH_HOST config --filesystems (make host)"
	summary; exit 1
}
fscol() { cut -f"$1" "$T/filesystems.txt" | tr ',\n' '  '; }
FS_NAMES=$(fscol 1)
FS_TOOLS=$(fscol 2)
# the freespace record's tools: staged, searched and resolved as mkfs is
FS_TOOLS="$FS_TOOLS $(awk -F '\t' '{ n = split($6, f, ","); for (i = 1; i <= n; i++) if (f[i] != "-") printf "%s ", f[i] }' "$T/filesystems.txt")"
FS_MODULES=$(fscol 4)
FS_FILES=$(awk -F '\t' '{ n = split($5, f, ","); for (i = 1; i <= n; i++) if (f[i] != "-") printf "%s ", f[i] }' "$T/filesystems.txt")
# Each tool under its own name and as mkfs.NAME.
FS_LINKS=$(awk -F '\t' '$2 != "mkfs." $1 { printf "mkfs.%s ", $1 }' "$T/filesystems.txt")

# --- the filesystem table ---------------------------------------------------
check "filesystem table: one line of seven fields per filesystem, the last default or optional" \
	awk -F '\t' 'NF != 7 || $1 == "" || $2 == "" || $3 == "" || $4 == "" || ($7 != "default" && $7 != "optional") { bad = 1 } END { exit bad || NR < 1 }' "$T/filesystems.txt"
check "filesystem table: its default rows are the default fs setting ($("$FSBENCH_HOST" config --get fs)), the optional ones staged too ($(awk -F '\t' '$7 == "optional" { printf "%s ", $1 }' "$T/filesystems.txt"))" \
	test "$(awk -F '\t' '$7 == "default" { print $1 }' "$T/filesystems.txt" | paste -sd,)" = "$("$FSBENCH_HOST" config --get fs)"
missing=
for p in $(fscol 3); do
	sed -n 's/^pkgs_test="\(.*\)"/ \1 /p' image/deps.sh | grep -q " $p " || missing="$missing $p"
done
[ -z "$missing" ] && pass "filesystem table: deps.sh installs every mkfs package for the host tests" ||
	fail "filesystem table: image/deps.sh pkgs_test lacks:$missing"

# size NAME-with-suffix -> bytes
bytes() {
	case $1 in
	*G) echo $((${1%G} * 1073741824)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*K|*k) echo $((${1%?} * 1024)) ;;
	*) echo "$1" ;;
	esac
}

# --- build both rootfs types ----------------------------------------------
for r in ext4 f2fs; do
	if make -s --no-print-directory image ROOTFS=$r >"$T/build-$r.log" 2>&1; then
		pass "make image ROOTFS=$r"
	else
		fail "make image ROOTFS=$r"; tail -n 20 "$T/build-$r.log"
	fi
done
if [ "$T_FAIL" -gt 0 ]; then
	info "no image to check"
	summary; exit 1
fi

check "the build's filesystem table is the host fsbench's" cmp "$T/filesystems.txt" "$O/image/filesystems.txt"
missing=
for p in $(fscol 3); do
	grep -q "/${p}_[^/]*\.deb\$" "$IMG/packages.txt" || missing="$missing $p"
done
[ -z "$missing" ] && pass "every filesystem's mkfs package was fetched ($(fscol 3 | wc -w))" ||
	fail "mkfs packages not fetched:$missing"

# --- no-op rebuild: nothing is remade (its time a figure: make bench) -----------
before=$(stat -c %Y "$IMG/disk-ext4.img" "$IMG/rootfs.ext4" "$IMG/initramfs.cpio.gz" | tr '\n' ' ')
t0=$(date +%s%N)
make -s --no-print-directory image ROOTFS=ext4 >"$T/noop.log" 2>&1 || true
t1=$(date +%s%N)
after=$(stat -c %Y "$IMG/disk-ext4.img" "$IMG/rootfs.ext4" "$IMG/initramfs.cpio.gz" | tr '\n' ' ')
ms=$(((t1 - t0) / 1000000))
if [ "$before" = "$after" ]; then
	pass "rebuild with nothing changed remakes nothing (${ms} ms)"
else
	fail "rebuild with nothing changed remade the image (${ms} ms)"
fi

# --- partition table ------------------------------------------------------------
for r in ext4 f2fs; do
	disk=$IMG/disk-$r.img
	[ -f "$disk" ] || { fail "$r: no disk image"; continue; }
	sfdisk --dump "$disk" >"$T/sfdisk-$r.txt"
	# Filtered copy (no UUIDs, no paths) for the checks and the log.
	sed -e 's/uuid=[0-9A-F-]*, //' -e 's/^label-id:.*//' -e 's|^.*\.img\([0-9]\) :|part\1 :|' \
		-e 's/^device:.*//' "$T/sfdisk-$r.txt" >"$T/sfdisk-$r.filtered"
	check "$r: GPT label" grep -q '^label: gpt' "$T/sfdisk-$r.txt"
	n=0
	for p in "fsbench-esp C12A7328-F81F-11D2-BA4B-00A0C93EC93B $BOARD_ESP_SIZE" \
		"fsbench-root 0FC63DAF-8483-4772-8E79-3D69D8477DE4 $BOARD_ROOT_SIZE" \
		"fsbench-log 0FC63DAF-8483-4772-8E79-3D69D8477DE4 $BOARD_LOG_SIZE"; do
		set -- $p
		n=$((n + 1))
		line=$(grep "name=\"$1\"" "$T/sfdisk-$r.txt" || true)
		start=$(echo "$line" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p')
		size=$(echo "$line" | sed -n 's/.*size= *\([0-9]*\),.*/\1/p')
		want=$(($(bytes "$3") / 512))
		if [ -n "$line" ] && echo "$line" | grep -q "type=$2" &&
			[ "$size" = "$want" ] && [ $((start % 2048)) -eq 0 ] &&
			echo "$line" | grep -q "img$n :"; then
			pass "$r: partition $n named $1, type, $3, 1 MiB aligned"
		else
			fail "$r: partition $1 (want #$n type $2 size $want sectors, aligned): $line"
		fi
		eval "start_$n=$start size_$n=$size"
	done
	# Cut the partitions out (no loop device, no mount).
	dd if="$disk" of="$T/esp-$r.img" bs=512 skip="$start_1" count="$size_1" 2>/dev/null
	dd if="$disk" of="$T/root-$r.img" bs=512 skip="$start_2" count="$size_2" conv=sparse 2>/dev/null
	dd if="$disk" of="$T/log-$r.img" bs=512 skip="$start_3" count="$size_3" 2>/dev/null
	check "$r: log partition is all zeros (a fresh log)" cmp -n $((size_3 * 512)) "$T/log-$r.img" /dev/zero
done

# --- ESP ------------------------------------------------------------------------------
if have mdir; then
	esp=$T/esp-ext4.img
	mdir -i "$esp" -b :: >"$T/esp.list" 2>&1 || true
	for f in vmlinuz initrd.img fsbench.conf criteria.conf readme.txt; do
		check "ESP holds $f" grep -qi "^::/$f\$" "$T/esp.list"
	done
	if [ -n "${BOARD_EFI_BOOT:-}" ]; then
		mdir -i "$esp" -b ::EFI/BOOT >"$T/esp-efi.list" 2>&1 || true
		check "ESP holds EFI/BOOT/$BOARD_EFI_BOOT (UKI)" grep -qi "^::/EFI/BOOT/$BOARD_EFI_BOOT\$" "$T/esp-efi.list"
		mcopy -i "$esp" "::EFI/BOOT/$BOARD_EFI_BOOT" "$T/esp-uki.efi" 2>/dev/null || true
		check "UKI carries the kernel, initramfs and command line" sh -c \
			"objdump -h '$T/esp-uki.efi' | grep -q ' .linux ' && objdump -h '$T/esp-uki.efi' | grep -q ' .initrd ' && objdump -h '$T/esp-uki.efi' | grep -q ' .cmdline '"
	fi
	mtype -i "$esp" ::fsbench.conf >"$T/esp-fsbench.conf" 2>/dev/null || true
	check "ESP fsbench.conf is the board's" cmp "$T/esp-fsbench.conf" "board/$BOARD/fsbench.conf"
	mtype -i "$esp" ::criteria.conf >"$T/esp-criteria.conf" 2>/dev/null || true
	check "ESP criteria.conf is the board's" cmp "$T/esp-criteria.conf" "board/$BOARD/criteria.conf"
	mcopy -i "$esp" ::vmlinuz "$T/esp-vmlinuz" 2>/dev/null || true
	check "ESP vmlinuz is the kernel" cmp "$T/esp-vmlinuz" "$IMG/kernel"
	check "ESP volume label FSBENCH" sh -c "minfo -i '$esp' :: | grep -q 'label=\"FSBENCH'"
	check "ESP is a clean FAT (fsck.fat -n)" fsck.fat -n "$esp"
else
	skip "ESP checks: mdir (mtools) not installed"
fi

# --- rootfs (ext4) ----------------------------------------------------------------------
root=$T/root-ext4.img
check "ext4 rootfs: e2fsck -fn" e2fsck -fn "$root"
check "ext4 rootfs: label fsbench-root" sh -c "dumpe2fs -h '$root' 2>/dev/null | grep -q 'volume name: *fsbench-root'"
rm -rf "$T/rootfs"
mkdir -p "$T/rootfs"
debugfs -R "rdump / $T/rootfs" "$root" >/dev/null 2>&1 || true
R=$T/rootfs
kver=$(cat "$IMG/kernel.version")
# The modules: a squashfs image (zstd) mounted by init over
# /lib/modules/KVER, loop and squashfs beside it; unpacked here to look in.
M=$T/modules
rm -rf "$M"
check "rootfs: the modules are a squashfs image, its mount point empty, loop and squashfs beside it" sh -c "
	unsquashfs -n -d '$M' '$R/lib/modules/$kver.squashfs' >/dev/null &&
	[ -z \"\$(ls -A '$R/lib/modules/$kver')\" ] &&
	grep -qx loop.ko '$R/lib/modules/squashfs-$kver/mount.list' &&
	grep -qx squashfs.ko '$R/lib/modules/squashfs-$kver/mount.list' &&
	[ -f '$R/lib/modules/squashfs-$kver/loop.ko' ] && [ -f '$R/lib/modules/squashfs-$kver/squashfs.ko' ]"
check "rootfs: the squashfs image is zstd-compressed and under a third of the modules it holds" sh -c "
	unsquashfs -s '$R/lib/modules/$kver.squashfs' | grep -q 'Compression zstd' &&
	[ \$(stat -c %s '$R/lib/modules/$kver.squashfs') -lt \$((\$(du -sb '$M' | cut -f1) / 3)) ]"
missing=
for f in sbin/init bin/busybox bin/sh bin/modprobe bin/insmod usr/bin/fsbench \
	$(for t in $FS_TOOLS $FS_LINKS; do echo "usr/sbin/$t"; done) etc/fsbench.conf etc/mtab \
	$(for f in $FS_FILES; do echo "${f#/}"; done) \
	"lib/modules/$kver.squashfs"; do
	[ -e "$R/$f" ] || [ -L "$R/$f" ] || missing="$missing $f"
done
for f in modules.dep modules.dep.bin modules.alias load.list; do
	[ -e "$M/$f" ] || missing="$missing (modules image)/$f"
done
[ -z "$missing" ] && pass "rootfs holds init, BusyBox, fsbench, the mkfs tools ($FS_TOOLS$FS_LINKS) and their files, the modules with modules.dep" ||
	fail "rootfs is missing:$missing"
for m in $(printf '%s\n' $FS_MODULES | awk '!seen[$0]++') nvme vfat virtio_blk; do
	check "rootfs module $m in modules.dep" grep -q "/$m.ko:" "$M/modules.dep"
done
# The other buses a target may sit on (qemu/run.sh --target-bus): in the
# rootfs, the controllers' drivers found by their PCI or virtio aliases
# (init loads them by the modalias of the devices the machine has).
for m in ahci sd_mod xhci-pci usb-storage uas sdhci-pci mmc_block virtio_scsi; do
	check "rootfs bus module $m in modules.dep" grep -q "/$m.ko:" "$M/modules.dep"
done
for m in ahci:pci xhci_pci:pci sdhci_pci:pci virtio_scsi:virtio; do
	check "rootfs: ${m%:*} has ${m#*:} aliases in modules.alias" \
		grep -q "^alias ${m#*:}:.* ${m%:*}\$" "$M/modules.alias"
done
# The mkfs tools are found before any BusyBox applet of the same name.
shadow=
for t in $FS_TOOLS $FS_LINKS; do
	for d in usr/local/sbin; do [ -e "$R/$d/$t" ] && shadow="$shadow $d/$t"; done
	[ -f "$R/usr/sbin/$t" ] || [ -L "$R/usr/sbin/$t" ] || shadow="$shadow usr/sbin/$t(missing)"
done
[ -z "$shadow" ] && pass "mkfs tools are in /usr/sbin, first in the runner's search path" ||
	fail "mkfs tools shadowed or missing:$shadow"
# Every NEEDED library (recursively) and the interpreter are in the rootfs.
libdirs="lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib"
unresolved=
todo=$(for t in $FS_TOOLS; do echo "usr/sbin/$t"; done)
seen=" "
while [ -n "$todo" ]; do
	next=
	for f in $todo; do
		ip=$(readelf -l "$R/$f" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
		[ -z "$ip" ] || [ -e "$R$ip" ] || [ -L "$R$ip" ] || unresolved="$unresolved $ip"
		for n in $(readelf -d "$R/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $seen in *" $n "*) continue ;; esac
			seen="$seen$n "
			found=
			for d in $libdirs; do
				if [ -f "$R/$d/$n" ]; then found=$d/$n; break; fi
			done
			if [ -n "$found" ]; then next="$next $found"; else unresolved="$unresolved $n"; fi
		done
	done
	todo=$next
done
[ -z "$unresolved" ] && pass "every NEEDED library of the mkfs tools is in the rootfs ($(echo $seen | wc -w) libraries)" ||
	fail "libraries missing from the rootfs:$unresolved"
check "fsbench in the rootfs is static" sh -c "file '$R/usr/bin/fsbench' | grep -q 'statically linked'"
check "fsbench in the rootfs is stripped (the debug information stays in the build)" sh -c "file '$R/usr/bin/fsbench' | grep -q ', stripped'"
# fio (image/fio.sh; tests/image/fio.sh runs it): static, Debian's 3.33,
# in /usr/bin, the runner's search path.
check "fio in the rootfs (/usr/bin/fio) is static" sh -c "file '$R/usr/bin/fio' | grep -q 'statically linked'"
check "fio in the rootfs is the build's (DEB_CACHE/$BOARD_ARCH/fio/fio)" cmp "$R/usr/bin/fio" "${DEB_CACHE:-$O/cache}/$BOARD_ARCH/fio/fio"
case $BOARD_ARCH in
amd64) fioq= ;; arm64) fioq=qemu-aarch64-static ;; armhf) fioq=qemu-arm-static ;; *) fioq=none ;;
esac
if [ -z "$fioq" ] || have "$fioq"; then
	check "fio in the rootfs says fio-3.33 (Debian's version)" sh -c "[ \"\$($fioq '$R/usr/bin/fio' --version)\" = fio-3.33 ]"
else
	skip "fio --version of the $BOARD_ARCH rootfs: $fioq not found (package qemu-user-static)"
fi
check "rootfs files are owned by root" sh -c "debugfs -R 'stat /usr/bin/fsbench' '$root' 2>/dev/null | grep -q 'User: *0 *Group: *0'"

# --- rootfs (f2fs) ---------------------------------------------------------------------
if have fsck.f2fs; then
	check "f2fs rootfs: fsck.f2fs --dry-run" sh -c "fsck.f2fs --dry-run '$T/root-f2fs.img' >'$T/fsck-f2fs.log' 2>&1 && ! grep -q 'Fail' '$T/fsck-f2fs.log'"
	check "f2fs rootfs: label fsbench-root" sh -c "dump.f2fs -d 1 '$T/root-f2fs.img' 2>/dev/null | grep -q 'volum_name.*fsbench-root'"
else
	skip "f2fs rootfs: fsck.f2fs not installed"
fi
skip "f2fs rootfs file list: no tool lists f2fs files without mounting (the QEMU boot test covers it)"

# --- initramfs -----------------------------------------------------------------------------
ird=$IMG/initramfs.cpio.gz
zcat "$ird" | cpio -it --quiet >"$T/initramfs.names" 2>/dev/null
zcat "$ird" | cpio -itv --quiet >"$T/initramfs.list" 2>/dev/null
check "initramfs entries are sorted" sh -c "LC_ALL=C sort -c '$T/initramfs.names'"
check "initramfs entries are owned by root" sh -c "! awk '\$3 != \"root\" || \$4 != \"root\"' '$T/initramfs.list' | grep -q ."
check "initramfs dev/console is a character device 5,1 owned by root, 0600" sh -c \
	"grep -q '^crw------- .* root *root *5, *1 .* dev/console\$' '$T/initramfs.list'"
check "initramfs: no entry claims a hard link (link count below 2)" sh -c \
	"! awk '\$2 >= 2' '$T/initramfs.list' | grep -q ."
check "initramfs holds init, busybox, dev/console, boot modules" sh -c \
	"grep -qx init '$T/initramfs.names' && grep -qx bin/busybox '$T/initramfs.names' && grep -qx dev/console '$T/initramfs.names' && grep -q 'ext4.ko' '$T/initramfs.names' && grep -q 'virtio_blk.ko' '$T/initramfs.names'"
zcat "$ird" | cpio -i --quiet --to-stdout init >"$T/initramfs-init" 2>/dev/null || true
check "initramfs /init finds the rootfs by PARTNAME" grep -q 'PARTNAME=' "$T/initramfs-init"
# mtime of the entries: SOURCE_DATE_EPOCH of the build (all equal).
check "initramfs timestamps are all the same" sh -c "[ \$(grep -o '[A-Z][a-z][a-z] [ 0-9][0-9] [ 0-9:][0-9:]*' '$T/initramfs.list' | sort -u | wc -l) -eq 1 ]"

# --- block map (bmaptool) ------------------------------------------------------------
# DISK.img.bmap lists the image's data ranges with their SHA-256: `bmaptool
# copy` writes only those and checks them; a damaged image is refused.
if have bmaptool; then
	disk=$IMG/disk-ext4.img
	check "bmap: disk-ext4.img.bmap and disk-f2fs.img.bmap exist" test -s "$disk.bmap" -a -s "$IMG/disk-f2fs.img.bmap"
	check "bmap: maps less than the whole image" sh -c \
		"m=\$(sed -n 's/.*<MappedBlocksCount> *\\([0-9]*\\).*/\\1/p' '$disk.bmap'); b=\$(sed -n 's/.*<BlocksCount> *\\([0-9]*\\).*/\\1/p' '$disk.bmap'); [ \"\$m\" -gt 0 ] && [ \"\$m\" -lt \"\$b\" ]"
	rm -f "$T/flashed.img"
	truncate -s "$(stat -c %s "$disk")" "$T/flashed.img"
	check "bmap: bmaptool copy (with the .bmap found next to the image) gives the image byte for byte" \
		sh -c "bmaptool -q copy '$disk' '$T/flashed.img' && cmp '$disk' '$T/flashed.img'"
	cp --sparse=always "$disk" "$T/damaged.img"
	# one byte inside the rootfs partition's first mapped block changes
	off=$(sfdisk --dump "$disk" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-root".*/\1/p')
	printf 'X' | dd of="$T/damaged.img" bs=1 seek=$((off * 512 + 1024 + 100)) conv=notrunc 2>/dev/null
	check "bmap: bmaptool copy refuses a damaged image (checksum mismatch)" sh -c \
		"! bmaptool -q copy --bmap '$disk.bmap' '$T/damaged.img' '$T/flashed.img' 2>'$T/bmap.err' &&
		 grep -q 'checksum mismatch' '$T/bmap.err'"
	rm -f "$T/flashed.img" "$T/damaged.img"
else
	skip "bmap: bmaptool not installed (package bmap-tools)"
fi

# --- budget --------------------------------------------------------------------------
total=$(awk '/^image total/ { print $3 }' "$IMG/sizes-ext4.txt")
if [ -n "$total" ] && [ "$total" -lt $((IMAGE_BUDGET_MIB * 1048576)) ]; then
	pass "image (kernel + initramfs + rootfs contents) $(awk -v b="$total" 'BEGIN{printf "%.1f", b/1048576}') MiB < $IMAGE_BUDGET_MIB MiB"
else
	fail "image total ${total:-?} bytes >= $IMAGE_BUDGET_MIB MiB"
fi

# --- reproducibility and the download cache ------------------------------------------------
# Same inputs as the images above (the same runner binary, filesystem
# table and SOURCE_DATE_EPOCH: image.mk's defaults, given here by name): a
# second build in an output folder of its own, compared with the first
# (the $O one). When run as root, the second build runs as an
# unprivileged user (nobody), with its own copy of the download cache
# (not of the unpacked packages: it unpacks its own): the build needs no
# root, and who builds does not change the bytes.
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 1700000000)
fsb=${FSBENCH_IMAGE:-$O/runner/fsbench}
case $fsb in /*) ;; *) fsb=$PWD/$fsb ;; esac
asuser= cache=$O/cache
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir -p "$T/rep2" "$T/nrcache/$BOARD_ARCH"
	# the downloads, not the unpacked packages: the second build unpacks its own
	for e in "$O/cache/$BOARD_ARCH"/*; do
		[ "$(basename "$e")" = unpacked ] || cp -a "$e" "$T/nrcache/$BOARD_ARCH/"
	done
	chown -R nobody: "$T/rep2" "$T/nrcache"
	asuser="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups env HOME=$T/rep2"
	cache=$T/nrcache
fi
set -- -s --no-print-directory O="$T/rep2" DEB_CACHE="$cache" \
	FSBENCH_IMAGE="$fsb" FSBENCH_TABLE_TOOL="$FSBENCH_HOST" SOURCE_DATE_EPOCH="$epoch" image
$asuser make "$@" ROOTFS=ext4 >"$T/rep2-ext4.log" 2>&1 &&
	$asuser make "$@" ROOTFS=f2fs >"$T/rep2-f2fs.log" 2>&1 ||
	{ fail "build 2 in $T/rep2${asuser:+ (as nobody)}"; tail -n 20 "$T/rep2-ext4.log" "$T/rep2-f2fs.log"; }
if [ -n "$asuser" ]; then
	check "the second build ran as nobody (no root)" sh -c "[ \"\$(stat -c %U '$T/rep2/image/$BOARD/disk-ext4.img')\" = nobody ]"
else
	skip "build as an unprivileged user: not root or no setpriv (both builds ran as $(id -un))"
fi
check "a build with a warm cache downloads nothing" grep -q 'fetch: all [0-9]* packages cached' "$T/rep2-ext4.log"
for f in initramfs.cpio.gz rootfs.ext4 rootfs.f2fs uki-ext4.efi disk-ext4.img disk-f2fs.img esp.vfat disk-ext4.img.bmap; do
	check "reproducible: $f (two builds, cmp)" cmp "$IMG/$f" "$T/rep2/image/$BOARD/$f"
done
rm -rf "$T/rep2" "$T/rootfs" "$T/nrcache" "$M"

summary
