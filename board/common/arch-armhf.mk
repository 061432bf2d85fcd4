# arch-armhf.mk: defaults of a 32-bit ARM board (BOARD_ARCH := armhf, Debian
# armhf: ARMv7 hard-float), set with ?= so that the board's board.mk, read
# before, overrides any of them.

# The runner is cross-compiled with this prefix against a musl sysroot
# ($(O)/runner/armhf/fsbench) unless FSBENCH_IMAGE names a binary.
BOARD_CROSS_COMPILE ?= arm-linux-gnueabihf-
# Kernel: Debian's multiplatform ARMv7 kernel (a meta package; the exact
# image it depends on is fetched). Its vmlinuz is a zImage, which unpacks
# itself: stored as packaged (~5 MiB), booted by U-Boot's bootz.
BOARD_KERNEL_PKG  ?= linux-image-armmp
BOARD_KERNEL_GZIP ?=
# mkimage's architecture for a legacy U-Boot image (BOARD_UIMAGE_LOAD).
BOARD_UIMAGE_ARCH ?= arm
# No UEFI stub for 32-bit ARM here: U-Boot standard boot (extlinux.conf).
BOARD_EFI_STUB_PKG ?=
BOARD_EFI_STUB    ?=
BOARD_EFI_BOOT    ?=
BOARD_EXTLINUX    ?= yes
# Serial console: the PL011 UART of QEMU's virt machine.
BOARD_CONSOLE     ?= ttyAMA0,115200

# Kernel modules in the rootfs, besides the filesystems' own (the modules
# column of `fsbench config --filesystems`): the ESP (vfat), the disks (an
# emulated NVMe target, the virtio boot disk).
BOARD_MODULES     ?= vfat nls_cp437 nls_ascii nls_utf8 nvme virtio_pci virtio_blk
# Loaded by the initramfs to find the rootfs disk (virtio-blk on PCI).
BOARD_BOOT_MODULES ?= virtio_pci virtio_blk
# Loaded by the rootfs init before the run: the target disk, the ESP and the
# checksum drivers (BusyBox modprobe does not follow softdeps).
BOARD_INIT_MODULES ?= nvme vfat nls_cp437 nls_ascii crc32c_generic crc32_generic

# Disk image: the ESP holds the zImage and the initramfs.
BOARD_ESP_SIZE    ?= 32M

# QEMU: virt with U-Boot (u-boot-qemu's qemu_arm) as the firmware (-bios);
# TCG (no KVM for ARM guests on an x86_64 host) on a Cortex-A15, which the
# armmp kernel and U-Boot both support. highmem=off: the PCIe ECAM and
# memory windows below 4 GiB, where the armmp kernel (no LPAE) reaches them
# (with highmem, a direct -kernel boot finds no PCI disk: "can't claim ECAM
# area").
BOARD_QEMU        ?= qemu-system-arm
BOARD_QEMU_MACHINE ?= virt,highmem=off
BOARD_QEMU_CPU_TCG ?= cortex-a15
BOARD_QEMU_FIRMWARE ?= /usr/lib/u-boot/qemu_arm/u-boot.bin
BOARD_QEMU_FIRMWARE_VARS ?=
BOARD_QEMU_PFLASH_SIZE ?=
