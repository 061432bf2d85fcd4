#!/bin/sh
# tests/qemu/kernel.sh: a kernel of your own (make image KERNEL=PATH,
# qemu/run.sh --kernel PATH), with no kernel compile: a build tree laid out
# as `make modules_install INSTALL_MOD_PATH=TREE` leaves it
# (arch/x86/boot/bzImage, .config, include/config/kernel.release,
# lib/modules/VERSION), made from the files of the Debian kernel package
# the qemu-x86_64 image is built from.
#   1. boot: qemu/run.sh --kernel TREE, a brief smoke run (BRIEF) on ext4: the image
#      is built in its own folder from the tree (kernel-src.txt names it,
#      the package's kernel is not fetched), the run ends with status 0,
#      ext4's fs_end ok with every phase of every round and no error,
#      run_start's host.kernel is the tree's version and host.kernel_build
#      the build string of its image (in the bzImage's header, as file(1)
#      reads it), run.txt's boot line names the tree and its guest line
#      the vCPUs that run_start's host.cpus counted. About 2 min here, the
#      image build included (the boot: 10-28 s under TCG).
#   2. nof2fs: the tree without f2fs (its module and its modules.builtin
#      line gone): make image KERNEL=... stops with exit 2 and
#      `kernel: f2fs: neither built in nor a module in TREE/lib/modules/V`,
#      and qemu/run.sh --kernel exits 2 with the same line before QEMU
#      starts (no results folder).
#   3. novirtio: the tree without virtio_blk: refused, `virtio_blk:
#      missing: the rootfs cannot be found`.
# Inputs (environment): O (build output, absolute), KERNEL_TEST_ONLY (cases:
# boot nof2fs novirtio).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work files
# and results under $O/tests/qemu-kernel/.
set -eu

O=${O:?run through make check-qemu}
T=$O/tests/qemu-kernel
only=${KERNEL_TEST_ONLY:-boot nof2fs novirtio}
. tests/qemu/lib.sh

rm -rf "$T"
test_init 'qemu kernel-of-your-own tests' "$T"
qemu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU")
command -v "$qemu" >/dev/null || { skip "$qemu not installed"; summary; exit 0; }

# The Debian kernel package of the qemu-x86_64 image (fetched by its build).
make -s --no-print-directory image ROOTFS=ext4 >"$T/build.log" 2>&1 ||
	{ fail "make image (the Debian kernel package)"; tail -n 20 "$T/build.log"; summary; exit 1; }
deb=$(grep '/linux-image-[0-9][^/]*\.deb$' "$O/image/qemu-x86_64/packages.txt" | head -n 1)
[ -f "$deb" ] || { fail "no linux-image package in $O/image/qemu-x86_64/packages.txt"; summary; exit 1; }
# the image build's unpacked copy when there is one (hard links), else unpacked here
u=${DEB_CACHE:-$O/cache}/amd64/unpacked/$(basename "$deb" .deb)
if [ ! -d "$u" ] || ! cp -al "$u" "$T/deb" 2>/dev/null; then
	rm -rf "$T/deb"
	dpkg-deb -x "$deb" "$T/deb"
fi
V=$(ls "$T/deb/lib/modules")
TREE=$T/tree
mkdir -p "$TREE/arch/x86/boot" "$TREE/include/config" "$TREE/lib/modules"
cp "$T/deb/boot/vmlinuz-$V" "$TREE/arch/x86/boot/bzImage"
cp "$T/deb/boot/config-$V" "$TREE/.config"
echo "$V" >"$TREE/include/config/kernel.release"
mv "$T/deb/lib/modules/$V" "$TREE/lib/modules/"
rm -rf "$T/deb"
info "tree: $TREE, kernel $V from $(basename "$deb")"

# without NAME MODULE: a copy of the tree (hard links) without the module.
without() {
	cp -al "$TREE" "$T/$1"
	find "$T/$1/lib/modules/$V" -name "$2.ko*" -delete
	sed -i "/\/$2\.ko/d" "$T/$1/lib/modules/$V/modules.builtin"
	[ -z "$(find "$T/$1/lib/modules/$V" -name "$2.ko*")" ] || fail "$1: $2 still in the tree"
}
# refused NAME MESSAGE: make image and run.sh --kernel stop before a boot.
refused() {
	expect_rc 2 "$1: make image KERNEL=... refuses the tree" \
		make -s --no-print-directory image ROOTFS=ext4 KERNEL="$T/$1"
	check "$1: the build says what is missing" contains "$ERR" "$2"
	expect_rc 2 "$1: qemu/run.sh --kernel refuses it" \
		env -u BOARD_QEMU sh qemu/run.sh --kernel "$T/$1" --profile smoke --results "$T/$1-results" --quiet
	check "$1: the launcher says what is missing" contains "$ERR" "$2"
	check "$1: the launcher names the tree" contains "$ERR" "qemu: --kernel $T/$1: no image"
	check "$1: nothing booted (no results folder)" [ ! -e "$T/$1-results" ]
}

if wanted boot; then
	res=$T/boot
	set +e
	env -u BOARD_QEMU sh qemu/run.sh --kernel "$TREE" --profile smoke --append "fsbench.fs=ext4 $BRIEF" \
		--results "$res" --quiet >"$T/boot.out" 2>&1
	rc=$?
	set -e
	info "boot: $(grep 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
	check "boot: the run ended with status 0" [ "$rc" -eq 0 ]
	img=$(sed -n 's/^image: //p' "$O/kernel-image.log" | tail -n 1)
	imgdir=$(dirname "$img")
	check "boot: the image in its own folder, built from the tree" sh -c \
		"case '$imgdir' in '$O/image/qemu-x86_64-kernel-'*) ;; *) exit 1 ;; esac &&
		 grep -qxF 'image $TREE/arch/x86/boot/bzImage' '$imgdir/kernel-src.txt' &&
		 [ \"\$(ls '$imgdir/pkgroot/lib/modules')\" = '$V' ] &&
		 cmp '$imgdir/pkgroot/boot/vmlinuz-$V' '$TREE/arch/x86/boot/bzImage'"
	check "boot: the kernel package was not fetched for it" sh -c "! grep -q '/linux-image-' '$imgdir/packages.txt'"
	check "boot: ext4 fs_end ok" has "$res" fs_end fs=ext4 status=ok
	check "boot: the six phases of each round (fstrim the sixth), errors 0 and verify_errors 0" sh -c \
		"[ \"\$(sh qemu/records.sh '$res/records.jsonl' phase fs errors verify_errors | grep -cxF 'ext4	0	0')\" -eq \$((6 * \$(sh qemu/records.sh '$res/records.jsonl' run_start config.rounds))) ] &&
		 [ \"\$(sh qemu/records.sh '$res/records.jsonl' phase fs | sort -u)\" = ext4 ]"
	check "boot: run_start's host.kernel is the tree's version" has "$res" run_start host.kernel="$V"
	build=$(sh qemu/records.sh "$res/records.jsonl" run_start host.kernel_build)
	check "boot: host.kernel_build is the build string of the tree's image" sh -c \
		"[ -n '$build' ] && file -b '$TREE/arch/x86/boot/bzImage' | grep -qF 'version $V ' &&
		 file -b '$TREE/arch/x86/boot/bzImage' | grep -qF '$build'"
	check "boot: run.txt's boot line names the tree" grep -qF \
		"kernel $V from $TREE/arch/x86/boot/bzImage" "$res/run.txt"
	n=$(sed -n 's/^  guest: *\([0-9]*\) vCPUs*, [0-9]* MiB (.*)$/\1/p' "$res/run.txt")
	check "boot: run.txt's guest line and run_start's host.cpus agree" sh -c \
		"[ -n '$n' ] && [ \"\$(sh qemu/records.sh '$res/records.jsonl' run_start host.cpus)\" = '$n' ]"
fi

if wanted nof2fs; then
	without nof2fs f2fs
	refused nof2fs "kernel: f2fs: neither built in nor a module in $T/nof2fs/lib/modules/$V"
fi
if wanted novirtio; then
	without novirtio virtio_blk
	refused novirtio "kernel: virtio_blk: missing: the rootfs cannot be found"
fi

summary
