# board.mk: TEMPLATE for a new board. Copy board/example/ to board/<name>/,
# edit the values below, genimage.cfg, fsbench.conf and readme.txt, then:
#   make image BOARD=<name>      (and make run BOARD=<name> for a QEMU board)
# The values here describe an arm64 machine emulated by QEMU (virt), as an
# example of a second architecture; nothing else in the tree needs to change.
# Every BOARD_* variable is exported to the scripts in image/ and qemu/.

# Debian architecture of the userland and kernel packages (apt-get download
# with APT::Architecture set to this; no host configuration is touched).
BOARD_ARCH        := arm64
# Cross compiler prefix for the runner of a board whose architecture is not
# the host's: $(O)/runner/<arch>/fsbench is built and put in the image (leave
# empty for a board of the host's architecture).
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
# Kernel: a Debian meta package; the exact linux-image-<version> it depends on
# is fetched with it. A board may name its own kernel package here.
BOARD_KERNEL_PKG  := linux-image-arm64
# Kernel file in the package's /boot, without the -<version> suffix.
BOARD_KERNEL_FILE := vmlinuz
# UEFI boot from the ESP: systemd's EFI stub package and file, and the name
# the firmware looks for. Empty: no UKI (the ESP still holds vmlinuz and
# initrd.img for a boot loader). For x86_64 (see qemu-x86_64): systemd-boot-efi,
# /usr/lib/systemd/boot/efi/linuxx64.efi.stub, BOOTX64.EFI; for arm64 (see
# qemu-aarch64): systemd-boot-efi, .../linuxaa64.efi.stub, BOOTAA64.EFI.
BOARD_EFI_STUB_PKG :=
BOARD_EFI_STUB    :=
BOARD_EFI_BOOT    :=
# Serial console (kernel console= argument; init writes records there).
BOARD_CONSOLE     := ttyAMA0,115200
# Extra kernel command line words.
BOARD_CMDLINE     := quiet loglevel=4 panic=1 oops=panic softlockup_panic=1

# Kernel modules in the rootfs, with their dependencies and softdeps (kmod
# resolves them, depmod writes modules.dep). Built-in ones are skipped.
BOARD_MODULES     := ext4 xfs btrfs f2fs vfat nls_cp437 nls_ascii nls_utf8 \
                     crc32c_generic crc32_generic \
                     nvme virtio_pci virtio_blk
# Loaded by the initramfs to reach the rootfs disk.
BOARD_BOOT_MODULES := virtio_pci virtio_blk
# Rootfs filesystems the initramfs can mount (one module list each).
BOARD_ROOTFS_TYPES := ext4 f2fs
# Loaded by the rootfs init before the run: the target disk, the ESP, and
# the checksum drivers the filesystems load as softdeps (BusyBox modprobe
# does not follow softdeps: ext4 needs crc32c, f2fs crc32). The filesystems
# themselves are loaded on demand by the runner (BusyBox modprobe).
BOARD_INIT_MODULES := nvme vfat nls_cp437 nls_ascii crc32c_generic crc32_generic

# Disk image (genimage.cfg): partition sizes.
BOARD_ESP_SIZE    := 64M
BOARD_ROOT_SIZE   := 96M
BOARD_LOG_SIZE    := 16M
# Fixed rootfs UUID: pick a new one per board (uuidgen), keep it fixed.
BOARD_ROOT_UUID   := 5b0e8a52-3c1d-4f7e-9a21-7d4e2b9c1f02

# Target disk. For QEMU: size of the sparse file behind -device nvme.
BOARD_TARGET_SIZE := 10G
BOARD_TARGET_DEV  := /dev/nvme0n1

# QEMU (leave out for a hardware-only board; `make image` does not need it).
BOARD_QEMU        := qemu-system-aarch64
BOARD_QEMU_MACHINE := virt
BOARD_QEMU_CPU_TCG := max
BOARD_QEMU_CPU_KVM := host
BOARD_QEMU_SMP    := 2
BOARD_QEMU_MEM    := 2048
BOARD_QEMU_DISK_IF := virtio
BOARD_QEMU_FIRMWARE := /usr/share/AAVMF/AAVMF_CODE.fd
BOARD_QEMU_FIRMWARE_VARS := /usr/share/AAVMF/AAVMF_VARS.fd
