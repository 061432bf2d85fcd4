# board.mk: qemu-aarch64-uboot, QEMU's arm64 virt machine booting the disk
# image through U-Boot (Debian's u-boot-qemu, qemu_arm64) as its firmware:
# U-Boot's distro boot finds extlinux/extlinux.conf on the ESP and boots the
# kernel, initramfs and command line it names. The way a U-Boot board
# boots (board/uboot-arm64), tried under QEMU. Read through
# board/common/load.mk: the arm64 defaults (arch-arm64.mk) and the shared
# ones (defaults.mk) fill in what this board does not set.

BOARD_ARCH        := arm64
# No UKI: U-Boot reads extlinux.conf.
BOARD_EFI_STUB_PKG :=
BOARD_EFI_STUB    :=
BOARD_EFI_BOOT    :=
BOARD_EXTLINUX    := yes
# QEMU passes its own device tree to U-Boot, which hands it on: no fdtdir.
BOARD_FDTDIR      :=
# Debian's u-boot-qemu (v2023.01) sets no kernel_comp_addr_r, so its booti
# cannot unpack the gzipped Image: the kernel goes in a legacy U-Boot image
# (gzip) that bootm unpacks at 0x48000000 (virt's RAM starts at 0x40000000;
# U-Boot loads the file at kernel_addr_r 0x40400000 and the initramfs at
# ramdisk_addr_r 0x44000000, below it).
BOARD_UIMAGE_LOAD := 0x48000000
# ESP: the gzipped Image and the initramfs.
BOARD_ESP_SIZE    := 48M

# QEMU: U-Boot as the firmware (-bios, no pflash), the disk image on
# virtio-blk; qemu/run.sh --uefi (the firmware boot) is the only way this
# board boots the disk image (direct -kernel boot works too).
BOARD_QEMU_FIRMWARE := /usr/lib/u-boot/qemu_arm64/u-boot.bin
BOARD_QEMU_FIRMWARE_VARS :=
BOARD_QEMU_PFLASH_SIZE :=

# Fixed UUIDs (reproducible images): the rootfs filesystem and the GPT disk.
BOARD_ROOT_UUID   := 6c1e9a47-2b8d-4f35-a0c6-7d3e5b9f1a02
BOARD_DISK_UUID   := b7e3c1a5-9d2f-4e6b-8a1c-3f5d7e9b2c01
