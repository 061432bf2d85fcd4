# defaults.mk: the defaults every board shares, whatever its architecture.
# image/board.mk reads the board's board.mk first, then arch-$(BOARD_ARCH).mk,
# then this file; every value here is set with ?=, so a board.mk that sets
# the variable (even to nothing) keeps its own value.

# Kernel file in the kernel package's /boot, without the -<version> suffix.
BOARD_KERNEL_FILE ?= vmlinuz
# yes: the kernel is stored gzipped (the boot loader unpacks it; the UKI
# gets it plain).
BOARD_KERNEL_GZIP ?=
# Extra kernel command line words (console= comes from BOARD_CONSOLE).
# panic=1 with QEMU's -no-reboot ends a crashed run at once.
BOARD_CMDLINE     ?= quiet loglevel=4 panic=1 oops=panic softlockup_panic=1
# Rootfs filesystems the initramfs can mount (rootfstype=; one module list
# each in the initramfs).
BOARD_ROOTFS_TYPES ?= ext4 f2fs

# Disk image (board/common/genimage.cfg.in): rootfs and log partition
# sizes (the ESP's comes with the architecture: the kernel's size), the FAT
# volume id of the ESP (hex, fixed for reproducible images). The rootfs
# is 128M: with the buses' drivers the qemu-x86_64 rootfs holds 31.5 MiB,
# which sload.f2fs no longer fits in 96M (f2fs keeps about half of so
# small a volume for its metadata and reserve).
BOARD_ROOT_SIZE   ?= 128M
BOARD_LOG_SIZE    ?= 16M
BOARD_ESP_VOLUME_ID ?= 46534245
# U-Boot standard boot: yes puts extlinux/extlinux.conf on the ESP (kernel
# /vmlinuz, initrd /initrd.img, the command line) and sets the ESP's legacy
# BIOS bootable flag; BOARD_FDTDIR names the ESP folder with the kernel
# package's device trees (the fdtdir line; empty: U-Boot's own device
# tree); BOARD_UIMAGE_LOAD, when set, wraps the gzipped kernel in a legacy
# U-Boot image unpacked to that address (BOARD_UIMAGE_ARCH: mkimage -A),
# for a U-Boot without kernel_comp_addr_r. image/disk.sh says more.
BOARD_EXTLINUX    ?=
BOARD_FDTDIR      ?=
BOARD_UIMAGE_LOAD ?=

# QEMU: the target disk (a sparse file behind -device nvme), the machine.
BOARD_TARGET_SIZE ?= 10G
BOARD_QEMU_CPU_KVM ?= host
# The guest's vCPUs and MiB under TCG, and the least under KVM, where the
# launcher gives one vCPU per worker of the profile (qemu/cmdline.sh;
# QEMU_SMP= and QEMU_MEM= override).
BOARD_QEMU_SMP    ?= 2
BOARD_QEMU_MEM    ?= 2048
