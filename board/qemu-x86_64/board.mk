# board.mk: the qemu-x86_64 board, an x86_64 PC emulated by QEMU (q35).
# Read by image/image.mk; every BOARD_* variable is exported to the scripts.

# Debian architecture of the userland and kernel packages.
BOARD_ARCH        := amd64
# Kernel: a Debian meta package; the exact image it depends on is fetched.
BOARD_KERNEL_PKG  := linux-image-amd64
# File name of the kernel inside the package's /boot (prefix, version follows).
BOARD_KERNEL_FILE := vmlinuz
# UEFI boot: systemd's EFI stub makes kernel + initramfs + command line one
# executable, EFI/BOOT/$(BOARD_EFI_BOOT) on the ESP (leave empty: no UKI).
BOARD_EFI_STUB_PKG := systemd-boot-efi
BOARD_EFI_STUB    := /usr/lib/systemd/boot/efi/linuxx64.efi.stub
BOARD_EFI_BOOT    := BOOTX64.EFI
# Serial console the kernel and init write to.
BOARD_CONSOLE     := ttyS0,115200
# Extra kernel command line words.
BOARD_CMDLINE     := quiet loglevel=4 panic=1 oops=panic softlockup_panic=1

# Kernel modules in the rootfs (with their dependencies and softdeps, as
# kmod resolves them; depmod makes modules.dep for BusyBox modprobe).
# Filesystems under test, the rootfs and ESP filesystems, and the disks.
BOARD_MODULES     := ext4 xfs btrfs f2fs vfat nls_cp437 nls_ascii nls_utf8 \
                     crc32c_generic crc32_generic crc32c-intel \
                     nvme virtio_pci virtio_blk
# Loaded by the initramfs to find the rootfs disk; the rootfs filesystem's
# module (ext4 or f2fs, from rootfstype=) is loaded with its dependencies.
BOARD_BOOT_MODULES := virtio_pci virtio_blk
BOARD_ROOTFS_TYPES := ext4 f2fs
# Loaded by the rootfs init before the run: the target disk, the ESP, and
# the checksum drivers the filesystems load as softdeps (BusyBox modprobe
# does not follow softdeps: ext4 needs crc32c, f2fs crc32). The filesystems
# themselves are loaded on demand by the runner (BusyBox modprobe).
BOARD_INIT_MODULES := nvme vfat nls_cp437 nls_ascii crc32c_generic crc32c-intel crc32_generic

# Disk image layout (genimage): ESP, rootfs, log partition.
BOARD_ESP_SIZE    := 48M
BOARD_ROOT_SIZE   := 96M
BOARD_LOG_SIZE    := 16M
# Target disk emulated by QEMU (sparse raw file behind an NVMe controller).
BOARD_TARGET_SIZE := 10G
# Target path as the guest sees it (written to fsbench.conf).
BOARD_TARGET_DEV  := /dev/nvme0n1

# QEMU.
BOARD_QEMU        := qemu-system-x86_64
BOARD_QEMU_MACHINE := q35
BOARD_QEMU_CPU_TCG := max
BOARD_QEMU_CPU_KVM := host
BOARD_QEMU_SMP    := 2
BOARD_QEMU_MEM    := 2048
# How the boot disk (the image) is attached: virtio (direct kernel boot).
BOARD_QEMU_DISK_IF := virtio
# UEFI firmware for booting the disk image itself (qemu/run.sh --uefi).
BOARD_QEMU_FIRMWARE := /usr/share/OVMF/OVMF_CODE_4M.fd
BOARD_QEMU_FIRMWARE_VARS := /usr/share/OVMF/OVMF_VARS_4M.fd

# Fixed filesystem UUID of the rootfs (reproducible images).
BOARD_ROOT_UUID   := 9d6c6a39-1f4e-4b8e-a1f2-4a6f3c2b7e01
