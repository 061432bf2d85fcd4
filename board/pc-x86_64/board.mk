# board.mk: pc-x86_64, any x86_64 PC or server with UEFI firmware and a SATA
# or NVMe disk to measure, booting the disk image from a USB stick (or any
# disk): EFI/BOOT/BOOTX64.EFI on the ESP, no boot loader.
# Read by image/image.mk; every BOARD_* variable is exported to the scripts.
# The QEMU values at the end only serve to try the image in QEMU through
# OVMF (make run BOARD=pc-x86_64 QEMU_ARGS=--uefi).

BOARD_ARCH        := amd64
BOARD_KERNEL_PKG  := linux-image-amd64
BOARD_KERNEL_FILE := vmlinuz
BOARD_EFI_STUB_PKG := systemd-boot-efi
BOARD_EFI_STUB    := /usr/lib/systemd/boot/efi/linuxx64.efi.stub
BOARD_EFI_BOOT    := BOOTX64.EFI
# Consoles: the screen (tty0, the last console= word) is /dev/console; the
# serial port ttyS0 (servers, IPMI serial-over-LAN) gets the kernel's
# messages, and init mirrors its lines, the runner's and the records to it.
BOARD_CONSOLE     := ttyS0,115200
# No panic= : after a kernel panic the machine stops (no reboot that would
# start the run again). rootwait: USB sticks can take a while to appear.
BOARD_CMDLINE     := console=tty0 loglevel=4 oops=panic softlockup_panic=1 rootwait=30

# Kernel modules in the rootfs: filesystems, checksums, and the disks and
# buses a boot stick or a target may sit on: NVMe, SATA (AHCI), USB storage
# (UAS and bulk-only on xHCI, EHCI, OHCI, UHCI), virtio (virtual machines),
# and a USB keyboard for on_finish = shell.
BOARD_MODULES     := ext4 xfs btrfs f2fs vfat nls_cp437 nls_ascii nls_utf8 \
                     crc32c_generic crc32_generic crc32c-intel \
                     nvme ahci sd_mod usb_storage uas xhci_pci ehci_pci ohci_pci uhci_hcd \
                     virtio_pci virtio_blk virtio_scsi usbhid hid_generic
# Loaded by the initramfs to find the rootfs disk (the stick, wherever it
# sits); the partition named fsbench-root is waited for (rootwait).
BOARD_BOOT_MODULES := nvme ahci sd_mod usb_storage uas xhci_pci ehci_pci ohci_pci uhci_hcd \
                     virtio_pci virtio_blk virtio_scsi
BOARD_ROOTFS_TYPES := ext4 f2fs
# Loaded by the rootfs init before the run: the target's drivers (most are
# in already), the ESP, the checksum drivers, the keyboard.
BOARD_INIT_MODULES := nvme ahci sd_mod usb_storage uas vfat nls_cp437 nls_ascii \
                     crc32c_generic crc32c-intel crc32_generic usbhid hid_generic

# Disk image layout (genimage): ESP (with room for results/), rootfs, log.
BOARD_ESP_SIZE    := 64M
BOARD_ROOT_SIZE   := 96M
BOARD_LOG_SIZE    := 32M
BOARD_ROOT_UUID   := 5e0c7b42-3d91-4f6a-8c27-1b9e4d6a0f03

# Target as fsbench.conf names it until the user sets it (matches nothing:
# the first boot lists the machine's disks on the stick).
BOARD_TARGET_DEV  := serial:SET-ME
BOARD_TARGET_SIZE := 10G

# QEMU, to try the image (q35 + OVMF).
BOARD_QEMU        := qemu-system-x86_64
BOARD_QEMU_MACHINE := q35
BOARD_QEMU_CPU_TCG := max
BOARD_QEMU_CPU_KVM := host
BOARD_QEMU_SMP    := 2
BOARD_QEMU_MEM    := 2048
BOARD_QEMU_DISK_IF := virtio
BOARD_QEMU_FIRMWARE := /usr/share/OVMF/OVMF_CODE_4M.fd
BOARD_QEMU_FIRMWARE_VARS := /usr/share/OVMF/OVMF_VARS_4M.fd
