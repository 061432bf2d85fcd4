# board.mk: the qemu-aarch64 board, an arm64 machine emulated by QEMU (virt)
# with AAVMF UEFI firmware. Read by image/image.mk; every BOARD_* variable is
# exported to the scripts. Builds on an x86_64 host (arm64 packages through a
# private apt state, the runner cross-compiled with musl).

# Debian architecture of the userland and kernel packages.
BOARD_ARCH        := arm64
# The runner for this board: built with this cross compiler prefix
# ($(O)/runner/aarch64/fsbench) unless FSBENCH_IMAGE names a binary.
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
# Kernel: a Debian meta package; the exact image it depends on is fetched.
BOARD_KERNEL_PKG  := linux-image-arm64
# Kernel file in the package's /boot (gzip-compressed Image; the build
# decompresses it: the EFI stub and QEMU get the plain Image with its PE header).
BOARD_KERNEL_FILE := vmlinuz
# UEFI boot: kernel + initramfs + command line in systemd's EFI stub,
# EFI/BOOT/BOOTAA64.EFI on the ESP.
BOARD_EFI_STUB_PKG := systemd-boot-efi
BOARD_EFI_STUB    := /usr/lib/systemd/boot/efi/linuxaa64.efi.stub
BOARD_EFI_BOOT    := BOOTAA64.EFI
# Serial console: the PL011 UART of the virt machine.
BOARD_CONSOLE     := ttyAMA0,115200
# Extra kernel command line words.
BOARD_CMDLINE     := quiet loglevel=4 panic=1 oops=panic softlockup_panic=1

# Kernel modules in the rootfs (with dependencies and softdeps).
BOARD_MODULES     := ext4 xfs btrfs f2fs vfat nls_cp437 nls_ascii nls_utf8 \
                     crc32c_generic crc32_generic \
                     nvme virtio_pci virtio_blk
# Loaded by the initramfs to find the rootfs disk (virtio-blk on PCI).
BOARD_BOOT_MODULES := virtio_pci virtio_blk
BOARD_ROOTFS_TYPES := ext4 f2fs
# Loaded by the rootfs init before the run: the target disk, the ESP and the
# checksum drivers (BusyBox modprobe does not follow softdeps).
BOARD_INIT_MODULES := nvme vfat nls_cp437 nls_ascii crc32c_generic crc32_generic

# Disk image layout (genimage): the ESP holds the Image (plain, ~30 MiB), the
# initramfs and the UKI (both again).
BOARD_ESP_SIZE    := 112M
BOARD_ROOT_SIZE   := 96M
BOARD_LOG_SIZE    := 16M
# Target disk emulated by QEMU (sparse raw file behind an NVMe controller).
BOARD_TARGET_SIZE := 10G
BOARD_TARGET_DEV  := /dev/nvme0n1

# QEMU. No KVM for arm64 guests on an x86_64 host: TCG. -cpu max with the
# cheap pointer authentication (pauth-impdef) runs faster than the default
# QARMA algorithm under TCG.
BOARD_QEMU        := qemu-system-aarch64
BOARD_QEMU_MACHINE := virt
BOARD_QEMU_CPU_TCG := max,pauth-impdef=on
BOARD_QEMU_CPU_KVM := host
BOARD_QEMU_SMP    := 2
BOARD_QEMU_MEM    := 2048
BOARD_QEMU_DISK_IF := virtio
# UEFI firmware (qemu-efi-aarch64) for booting the disk image itself
# (qemu/run.sh --uefi). The virt machine's flash banks are 64 MiB each:
# the launcher pads copies of smaller firmware files to that size.
BOARD_QEMU_FIRMWARE := /usr/share/AAVMF/AAVMF_CODE.fd
BOARD_QEMU_FIRMWARE_VARS := /usr/share/AAVMF/AAVMF_VARS.fd
BOARD_QEMU_PFLASH_SIZE := 64M

# Fixed filesystem UUID of the rootfs (reproducible images).
BOARD_ROOT_UUID   := 3e7a1c94-58b2-4d0f-b6a3-91c2e8d4f703
