#!/bin/sh
# kernel.sh: a kernel of your own (make image KERNEL=PATH) in place of the
# Debian package's: find it, say what the board needs that it lacks, stage it.
#
# Usage: image/kernel.sh check PATH OUT     (before the build: exit 2 when
#                                           something the board needs is missing)
#        image/kernel.sh stage PATH PKGROOT (the kernel and its modules into
#                                           the unpacked packages' tree)
# PATH is one of:
#   - a kernel build tree: arch/x86/boot/bzImage (amd64) or
#     arch/arm64/boot/Image[.gz] (arm64), include/config/kernel.release,
#     .config; its modules from `make modules_install INSTALL_MOD_PATH=PATH`
#     (PATH/lib/modules/VERSION), else the build tree's own (modules.order,
#     modules.builtin and the .ko files next to their sources);
#   - a folder with a kernel image (vmlinuz-VERSION, vmlinuz, bzImage, Image,
#     Image.gz; also under boot/) and lib/modules/VERSION, its config as
#     .config, config-VERSION or boot/config-VERSION (optional).
# Inputs (environment): BOARD_ARCH; BOARD_MODULES, BOARD_BOOT_MODULES,
#   BOARD_INIT_MODULES, BOARD_ROOTFS_TYPES (board/common/arch-*.mk);
#   FILESYSTEMS (the filesystem table, `fsbench config --filesystems`: its
#   modules column; an `optional` filesystem's modules, nilfs2's, are
#   optional like the checksum drivers), BOARD_KERNEL_FILE (stage: the name the image gets in
#   PKGROOT/boot, default vmlinuz).
# Outputs: check: OUT/kernel-src.txt (the kernel found: image, version,
#   config, module tree, and every file's size and time, rewritten only when
#   it changes, so an unchanged kernel does not restage the image) and
#   OUT/kernel-absent.txt (optional modules the kernel does not have: the
#   checksum drivers with the CPU's instructions, the generic ones doing the
#   work; an optional filesystem's, whose column is then skipped). Every module the board needs that is neither built in
#   (modules.builtin, or =y in the config) nor a module in the tree is said
#   on stderr, one line each, with what it is needed for; then exit 2.
#   stage: PKGROOT/boot/BOARD_KERNEL_FILE-VERSION and
#   PKGROOT/lib/modules/VERSION (modules.builtin gets the modules the
#   config builds in and modules.builtin leaves out; compressed modules,
#   .ko.xz, .ko.gz, .ko.zst, are unpacked to .ko).
# Exit status: 0; 2 PATH is not a kernel the board can use (misuse: KERNEL=
#   names it), or a bad argument (image/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: kernel.sh check|stage PATH OUT} src=${2:?PATH} out=${3:?OUT}
: "${BOARD_ARCH:?}"
[ -d "$src" ] || die $EX_USAGE "$src: not a folder (KERNEL= a kernel build tree, or a folder with a kernel image and lib/modules/VERSION)"
src=$(cd "$src" && pwd)

# --- where everything is ---------------------------------------------------
case $BOARD_ARCH in
amd64) tree_image=arch/x86/boot/bzImage ;;
arm64) tree_image="arch/arm64/boot/Image arch/arm64/boot/Image.gz" ;;
*) tree_image= ;;
esac
kver= image= config= moddir= buildtree=0
[ ! -f "$src/include/config/kernel.release" ] || kver=$(cat "$src/include/config/kernel.release")
if [ -z "$kver" ] && [ -d "$src/lib/modules" ]; then
	n=$(ls "$src/lib/modules" | wc -l)
	[ "$n" -eq 1 ] || die $EX_USAGE "$src: lib/modules holds $n versions, one is needed: $(ls "$src/lib/modules" | paste -sd' ')"
	kver=$(ls "$src/lib/modules")
fi
[ -n "$kver" ] || die $EX_USAGE "$src: no kernel version: neither include/config/kernel.release (a build tree) nor lib/modules/VERSION"
for f in $tree_image vmlinuz-$kver vmlinuz bzImage Image Image.gz boot/vmlinuz-$kver boot/vmlinuz; do
	if [ -f "$src/$f" ]; then image=$src/$f; break; fi
done
[ -n "$image" ] || die $EX_USAGE "$src: no kernel image for $BOARD_ARCH (looked for ${tree_image:+$tree_image, }vmlinuz-$kver, vmlinuz, bzImage, Image, Image.gz, boot/vmlinuz-$kver)"
for f in .config config-$kver boot/config-$kver; do
	if [ -f "$src/$f" ]; then config=$src/$f; break; fi
done
if [ -d "$src/lib/modules/$kver" ]; then
	moddir=$src/lib/modules/$kver
elif [ -f "$src/modules.order" ]; then
	moddir=$src buildtree=1
elif [ -d "$src/lib/modules" ]; then
	die $EX_USAGE "$src: lib/modules has no $kver (the kernel's version): $(ls "$src/lib/modules" | paste -sd' ')"
fi

# The modules as paths under $moddir: an installed tree's every .ko, a build
# tree's modules.order (its .o names are the .ko next to them; kernels
# before 5.x wrote kernel/DIR/NAME.ko there).
modules() {
	if [ "$buildtree" = 1 ]; then
		sed 's|^kernel/||; s/\.o$/.ko/' "$moddir/modules.order" | while read -r m; do
			[ ! -f "$moddir/$m" ] || echo "$m"
		done
	elif [ -n "$moddir" ]; then
		(cd "$moddir" && find . -name '*.ko' -o -name '*.ko.[gx]z' -o -name '*.ko.zst') | sed 's|^\./||'
	fi
}
# Module names as the kernel spells them: no suffix, - is _.
names() { sed 's|.*/||; s/\.ko.*//; s/-/_/g'; }

# What a board module is for, and the config symbol that builds it.
purpose() {
	case " $(echo $BOARD_BOOT_MODULES | tr - _) " in *" $1 "*) echo "the rootfs cannot be found"; return ;; esac
	case $1 in
	nvme) echo "the target disk cannot be found" ;;
	vfat|nls_*) echo "the ESP (settings, results) cannot be mounted" ;;
	*) echo "neither built in nor a module" ;;
	esac
}
symbol() {
	case $1 in
	ext4) echo EXT4_FS ;; xfs) echo XFS_FS ;; btrfs) echo BTRFS_FS ;; f2fs) echo F2FS_FS ;;
	nilfs2) echo NILFS2_FS ;;
	virtio_blk) echo VIRTIO_BLK ;; virtio_pci) echo VIRTIO_PCI ;; nvme) echo BLK_DEV_NVME ;;
	vfat) echo VFAT_FS ;; nls_cp437) echo NLS_CODEPAGE_437 ;; nls_ascii) echo NLS_ASCII ;;
	nls_utf8) echo NLS_UTF8 ;; crc32c_generic) echo CRYPTO_CRC32C ;;
	crc32c_intel) echo CRYPTO_CRC32C_INTEL ;; crc32_generic) echo CRYPTO_CRC32 ;;
	esac
}
# The config's value of a module's symbol (y, m, or nothing).
cfgval() {
	s=$(symbol "$1")
	[ -n "$s" ] && [ -n "$config" ] || return 0
	sed -n "s/^CONFIG_$s=\([ym]\)$/\1/p" "$config"
}

# --- check: what the board needs ---------------------------------------------
check() {
	where=${moddir:-"$src (no lib/modules/$kver, no modules.order)"}
	tmp=$out/kernel-check.tmp
	mkdir -p "$out"
	modules | names | sort -u >"$tmp.have"
	{ [ -z "$moddir" ] || [ ! -f "$moddir/modules.builtin" ] || names <"$moddir/modules.builtin"; } |
		sort -u >"$tmp.builtin"
	fsmods=$(cut -f4 "${FILESYSTEMS:?}" | tr ',' ' ')
	# the modules only an optional filesystem needs (nilfs2: column 7 of
	# the table says `optional`): left out when the kernel lacks them
	optmods=$(awk -F'\t' '{ n = split($4, m, ","); for (i = 1; i <= n; i++) if ($7 == "optional") opt[m[i]] = 1; else def[m[i]] = 1 }
		END { for (k in opt) if (!(k in def)) print k }' "$FILESYSTEMS" | tr - _ | sort | paste -sd' ')
	# shellcheck disable=SC2086
	need=$(printf '%s\n' $fsmods ${BOARD_ROOTFS_TYPES:-} $BOARD_BOOT_MODULES $BOARD_MODULES $BOARD_INIT_MODULES |
		awk 'NF && !seen[$0]++')
	bad=0
	: >"$tmp.absent"
	: >"$tmp.cfgbuiltin"
	for m in $need; do
		n=$(echo "$m" | tr - _)
		grep -qx -F "$n" "$tmp.have" && continue
		grep -qx -F "$n" "$tmp.builtin" && continue
		v=$(cfgval "$n")
		if [ "$v" = y ]; then
			echo "$n" >>"$tmp.cfgbuiltin"
			continue
		fi
		case $n in
		crc32c_intel|crc32*_generic)
			# A checksum driver: optional (another one does the work).
			echo "$m" >>"$tmp.absent"
			continue ;;
		esac
		case " $optmods " in
		*" $n "*)
			# An optional filesystem's (nilfs2): its column is skipped.
			echo "$m" >>"$tmp.absent"
			continue ;;
		esac
		case " $(echo "${BOARD_BUS_MODULES:-}" | tr - _) " in
		*" $n "*)
			# A bus other than NVMe (qemu/run.sh --target-bus): optional,
			# the image is made without it.
			echo "$m" >>"$tmp.absent"
			continue ;;
		esac
		p=$(purpose "$n")
		case $p in
		"neither built in"*) msg="$m: neither built in nor a module in $where" ;;
		*) msg="$m: missing: $p" ;;
		esac
		case $v in
		m) msg="$msg (the config has CONFIG_$(symbol "$n")=m: make modules_install INSTALL_MOD_PATH=$src)" ;;
		*) [ -z "$(symbol "$n")" ] || [ -z "$config" ] ||
			msg="$msg (CONFIG_$(symbol "$n") is not set in ${config#"$src"/})" ;;
		esac
		warn "$msg"
		bad=$((bad + 1))
	done
	if [ "$bad" -gt 0 ]; then
		rm -f "$tmp".*
		die $EX_USAGE "$src: $bad module(s) the board ${BOARD:-} needs are missing (kernel $kver, modules ${moddir:-none}${config:+, config ${config#"$src"/}})"
	fi
	{
		echo "kernel $kver"
		echo "image $image"
		echo "config ${config:-none}"
		echo "modules ${moddir:-none}"
		echo "built in by the config: $(paste -sd' ' "$tmp.cfgbuiltin")"
		# every file's size and time: a rebuilt kernel restages the image
		{ echo "$image"; [ -z "$config" ] || echo "$config"; modules | sed "s|^|$moddir/|"; } |
			xargs -r stat -L -c '%n %s %Y'
	} >"$tmp.txt"
	if cmp -s "$tmp.txt" "$out/kernel-src.txt"; then rm -f "$tmp.txt"; else mv -f "$tmp.txt" "$out/kernel-src.txt"; fi
	mv -f "$tmp.absent" "$out/kernel-absent.txt"
	nmod=$(wc -l <"$tmp.have")
	rm -f "$tmp".*
	say "$src: $kver ($nmod modules), everything the board ${BOARD:-} needs is there${config:+ (config ${config#"$src"/})}"
}

# --- stage: into the packages' tree --------------------------------------------
stage() {
	pk=$out
	kf=${BOARD_KERNEL_FILE:-vmlinuz}
	rm -rf "$pk/lib/modules" "$pk/usr/lib/modules"
	rm -f "$pk/boot/$kf"-* "$pk/boot/config-"* "$pk/boot/System.map-"*
	mkdir -p "$pk/boot" "$pk/lib/modules/$kver"
	cp "$image" "$pk/boot/$kf-$kver"
	[ -z "$config" ] || cp "$config" "$pk/boot/config-$kver"
	d=$pk/lib/modules/$kver
	if [ -n "$moddir" ]; then
		# every module in one tar pipe (thousands of them: no process each);
		# a build tree's go under kernel/, as modules_install puts them
		xf=
		[ "$buildtree" = 0 ] || xf='--transform=s|^|kernel/|'
		modules | tar -C "$moddir" -cf - --no-recursion -T - |
			tar -C "$d" -xf - ${xf:+"$xf"} || die $EX_SYSTEM "cannot copy the modules of $moddir"
		for f in modules.builtin modules.builtin.modinfo modules.order; do
			[ ! -f "$moddir/$f" ] || cp "$moddir/$f" "$d/$f"
		done
		# Compressed modules (Debian's 6.12: .ko.xz) unpacked to plain .ko:
		# BusyBox's modprobe and insmod hand the kernel the file as it is
		# and unpack one only after finit_module has refused it, with an
		# error in the kernel log ("Invalid ELF header magic"); depmod
		# then lists the .ko (the rootfs's squashfs compresses them).
		for z in xz gz zst; do
			find "$d" -name "*.ko.$z" | grep -q . || continue
			case $z in xz) t=xz ;; gz) t=gzip ;; zst) t="zstd --rm" ;; esac
			command -v "${t%% *}" >/dev/null ||
				die $EX_SYSTEM "${t%% *} not found: the modules of $moddir are .ko.$z"
			# shellcheck disable=SC2086
			find "$d" -name "*.ko.$z" -print0 | xargs -0 -r -n 200 -P 2 $t -d -q ||
				die $EX_SYSTEM "cannot unpack the .ko.$z modules of $moddir"
		done
		if [ "$buildtree" = 1 ]; then
			sed 's|^kernel/||; s/\.o$/.ko/; s|^|kernel/|' "$moddir/modules.order" >"$d/modules.order"
			[ ! -f "$moddir/modules.builtin" ] ||
				sed 's|^kernel/||; s|^|kernel/|' "$moddir/modules.builtin" >"$d/modules.builtin"
		fi
	fi
	# Built in by the config but not in modules.builtin: said there, so
	# that modprobe takes it as built in.
	sed -n 's/^built in by the config: //p' "$(dirname "$pk")/kernel-src.txt" 2>/dev/null |
		tr ' ' '\n' | sed '/^$/d; s|.*|kernel/builtin/&.ko|' >>"$d/modules.builtin"
	say "$kver from $src"
}

case $mode in
check) check ;;
stage) stage ;;
*) die $EX_USAGE "check or stage, not '$mode'" ;;
esac
