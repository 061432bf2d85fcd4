# board.mk: pc-x86_64, any x86_64 PC or server with UEFI firmware and a SATA
# or NVMe disk to measure, booting the disk image from a USB stick (or any
# disk): EFI/BOOT/BOOTX64.EFI on the ESP, no boot loader.
# Read through board/common/load.mk: the amd64 defaults
# (board/common/arch-amd64.mk: kernel, EFI stub, ttyS0, the QEMU values to
# try the image through OVMF with make run BOARD=pc-x86_64 QEMU_ARGS=--uefi)
# and the shared ones (defaults.mk) fill in what this board does not set.

BOARD_ARCH        := amd64
# Consoles: the screen (tty0, the last console= word) is /dev/console; the
# serial port ttyS0 (BOARD_CONSOLE: servers, IPMI serial-over-LAN) gets the
# kernel's messages, and init mirrors its lines, the runner's and the
# records to it. No panic= : after a kernel panic the machine stops (no
# reboot that would start the run again). rootwait: USB sticks can take a
# while to appear.
BOARD_CMDLINE     := console=tty0 loglevel=4 oops=panic softlockup_panic=1 rootwait=30

# Kernel modules in the rootfs (besides the filesystems'): the ESP, the
# checksum driver, the disks and buses a boot stick or a target may sit on:
# NVMe, SATA (AHCI), USB storage (UAS and bulk-only on xHCI, EHCI, OHCI,
# UHCI), SD card readers (SDHCI on PCI and ACPI), virtio (virtual machines),
# and a USB keyboard for on_finish = shell.
BOARD_STORAGE_MODULES := nvme ahci sd_mod usb_storage uas xhci_pci ehci_pci ohci_pci uhci_hcd \
                     sdhci_pci sdhci_acpi mmc_block virtio_pci virtio_blk virtio_scsi
BOARD_MODULES     := vfat nls_cp437 nls_ascii nls_utf8 crc32c-intel \
                     $(BOARD_STORAGE_MODULES) usbhid hid_generic
# Loaded by the initramfs to find the rootfs disk (the stick, wherever it
# sits); the partition named fsbench-root is waited for (rootwait).
BOARD_BOOT_MODULES := $(BOARD_STORAGE_MODULES)
# Loaded by the rootfs init before the run: the target's drivers (most are
# in already), the ESP, the checksum drivers, the keyboard.
BOARD_INIT_MODULES := nvme ahci sd_mod usb_storage uas vfat nls_cp437 nls_ascii \
                     crc32c_generic crc32c-intel crc32_generic usbhid hid_generic

# Disk image: the ESP has room for results/; a larger log.
BOARD_ESP_SIZE    := 64M
BOARD_LOG_SIZE    := 32M
# Fixed UUIDs and FAT volume id (reproducible images).
BOARD_ROOT_UUID   := 5e0c7b42-3d91-4f6a-8c27-1b9e4d6a0f03
BOARD_DISK_UUID   := 6a4e1c93-2b7d-4e05-9f18-c3d5a7b2e601
BOARD_ESP_VOLUME_ID := 46534250
