# arch-amd64.mk: defaults of an x86_64 board (BOARD_ARCH := amd64), set with
# ?= so that the board's board.mk, read before, overrides any of them.

# Kernel: a Debian meta package; the exact linux-image-<version> it depends
# on is fetched with it.
BOARD_KERNEL_PKG  ?= linux-image-amd64
# UEFI boot: systemd's EFI stub makes kernel + initramfs + command line one
# executable, EFI/BOOT/$(BOARD_EFI_BOOT) on the ESP (set the three to
# nothing for no UKI; the ESP still holds vmlinuz and initrd.img).
BOARD_EFI_STUB_PKG ?= systemd-boot-efi
BOARD_EFI_STUB    ?= /usr/lib/systemd/boot/efi/linuxx64.efi.stub
BOARD_EFI_BOOT    ?= BOOTX64.EFI
# Serial console the kernel and init write to.
BOARD_CONSOLE     ?= ttyS0,115200

# Kernel modules in the rootfs, besides the filesystems' own (the modules
# column of `fsbench config --filesystems`), with their dependencies and
# softdeps: the ESP (vfat), the checksum driver with the CPU's instructions,
# the disks (an emulated NVMe target, the virtio boot disk), and the other
# buses a target may sit on (qemu/run.sh --target-bus): SATA on AHCI, USB
# storage (bulk-only and UAS) on xHCI, SD on SDHCI, virtio-scsi.
BOARD_BUS_MODULES ?= ahci sd_mod xhci_pci usb_storage uas sdhci_pci mmc_block virtio_scsi
BOARD_MODULES     ?= vfat nls_cp437 nls_ascii nls_utf8 crc32c-intel \
                     nvme virtio_pci virtio_blk $(BOARD_BUS_MODULES)
# Loaded by the initramfs to find the rootfs disk; the rootfs filesystem's
# module (from rootfstype=) is loaded with its dependencies.
BOARD_BOOT_MODULES ?= virtio_pci virtio_blk
# Loaded by the rootfs init before the run: the target disk (the buses'
# drivers in BOARD_BUS_MODULES are loaded by init for the controllers the
# machine has: PCI coldplug), the ESP, and
# the checksum drivers the filesystems load as softdeps (BusyBox modprobe
# does not follow softdeps: ext4 needs crc32c, f2fs crc32). The filesystems
# themselves are loaded on demand by the runner.
BOARD_INIT_MODULES ?= nvme vfat nls_cp437 nls_ascii crc32c_generic crc32c-intel crc32_generic

# Disk image: the ESP holds the kernel, the initramfs and the UKI.
BOARD_ESP_SIZE    ?= 48M

# QEMU (q35; OVMF for booting the disk image itself, qemu/run.sh --uefi).
BOARD_QEMU        ?= qemu-system-x86_64
BOARD_QEMU_MACHINE ?= q35
BOARD_QEMU_CPU_TCG ?= max
BOARD_QEMU_FIRMWARE ?= /usr/share/OVMF/OVMF_CODE_4M.fd
BOARD_QEMU_FIRMWARE_VARS ?= /usr/share/OVMF/OVMF_VARS_4M.fd
