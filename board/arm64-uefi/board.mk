# board.mk: arm64-uefi, SystemReady-style arm64 machines (servers, workstations,
# boards with UEFI firmware such as EDK2 or U-Boot's EFI) booting the disk
# image from a USB stick, SD card or disk: EFI/BOOT/BOOTAA64.EFI on the ESP.
# Read through board/common/load.mk: the arm64 defaults
# (board/common/arch-arm64.mk: cross compiler, kernel, EFI stub, and the
# QEMU values to try the image under qemu-system-aarch64 with make run
# BOARD=arm64-uefi QEMU_ARGS=--uefi) and the shared ones (defaults.mk) fill
# in what this board does not set.

BOARD_ARCH        := arm64
# Console: none on the command line. The kernel then takes the serial port
# the firmware names (ACPI SPCR table, or the device tree's stdout-path) and
# falls back to the screen (EFI framebuffer) when there is none. Every
# record also goes to the log partition, so a machine without a console
# still leaves the results on the stick.
BOARD_CONSOLE     :=
# No panic= : after a kernel panic the machine stops (no reboot that would
# start the run again).
BOARD_CMDLINE     := loglevel=4 oops=panic softlockup_panic=1

# Kernel modules in the rootfs (besides the filesystems'): the ESP, and the
# disks and buses a boot stick or a target may sit on: NVMe, SATA (AHCI on
# PCI and platform), USB storage (xHCI on PCI and platform, DWC3, DWC2,
# EHCI), SD/eMMC (SDHCI on ACPI, PCI and the common SoC controllers;
# mmc_block is built in), virtio (QEMU, cloud machines: virtio-blk and
# virtio-scsi).
BOARD_STORAGE_MODULES := nvme ahci ahci_platform sd_mod usb_storage uas \
                     xhci_pci xhci_plat_hcd ehci_pci ehci_platform dwc3 dwc3_pci dwc2 \
                     sdhci_acpi sdhci_pci sdhci_of_dwcmshc sdhci_of_arasan sdhci_iproc \
                     sdhci_tegra sdhci_msm dw_mmc_rockchip \
                     virtio_pci virtio_blk virtio_scsi
BOARD_MODULES     := vfat nls_cp437 nls_ascii nls_utf8 $(BOARD_STORAGE_MODULES)
# Loaded by the initramfs to find the rootfs disk (the stick): every storage
# driver; the partition named fsbench-root is waited for (rootwait, 20 s).
BOARD_BOOT_MODULES := $(BOARD_STORAGE_MODULES)
# Loaded by the rootfs init before the run: the target disk's drivers (most
# are in already), the ESP, the checksum drivers.
BOARD_INIT_MODULES := nvme ahci sd_mod usb_storage uas vfat nls_cp437 nls_ascii \
                     crc32c_generic crc32_generic

# Disk image: the ESP holds the gzipped Image, the initramfs and the UKI, and
# results/; a larger log.
BOARD_ESP_SIZE    := 128M
BOARD_LOG_SIZE    := 32M
# Fixed UUIDs (reproducible images).
BOARD_ROOT_UUID   := 8b5f2d17-6c4e-4a39-b0d8-5e1f7a2c9d04
BOARD_DISK_UUID   := 5d8e1a3c-7b2f-4c6d-a9e4-3f1b7c5d2e01
