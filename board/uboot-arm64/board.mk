# board.mk: uboot-arm64, arm64 boards whose firmware is U-Boot (Rockchip,
# Allwinner, Amlogic, i.MX8, Raspberry Pi with U-Boot, ...) booting the disk
# image from an SD card, eMMC or USB disk through U-Boot's standard boot
# (distro boot): extlinux/extlinux.conf on the ESP names the kernel, the
# initramfs, the device tree folder (fdtdir) and the command line.
# readme.txt says how to write it and how to pick a device tree. Read
# through board/common/load.mk: the arm64 defaults (arch-arm64.mk) and the
# shared ones (defaults.mk) fill in what this board does not set.

BOARD_ARCH        := arm64
# No UKI: U-Boot reads extlinux.conf (a U-Boot with EFI boots arm64-uefi).
BOARD_EFI_STUB_PKG :=
BOARD_EFI_STUB    :=
BOARD_EFI_BOOT    :=
BOARD_EXTLINUX    := yes
# The Debian kernel's device trees (vendor/board.dtb) in dtbs/ on the ESP;
# U-Boot loads dtbs/$fdtfile (its environment names the board's).
BOARD_FDTDIR      := dtbs
# The kernel is Debian's gzipped Image: U-Boot's booti unpacks it when the
# environment has kernel_comp_addr_r and kernel_comp_size (the board
# configurations set them; readme.txt says what to do when not).
BOARD_UIMAGE_LOAD :=
# Console: none on the command line: the kernel takes the serial port the
# device tree's /chosen/stdout-path names (U-Boot's console).
BOARD_CONSOLE     :=
# No panic= : after a kernel panic the board stops (no reboot that would
# start the run again).
BOARD_CMDLINE     := loglevel=4 oops=panic softlockup_panic=1

# Kernel modules in the rootfs (besides the filesystems'): the ESP, and the
# disks a board boots from or tests: SD/eMMC (the SoC controllers; mmc_block
# is built in), NVMe (M.2 and PCIe slots), SATA, USB storage (xHCI, DWC3,
# DWC2, EHCI), virtio (QEMU: virtio-blk and virtio-scsi).
BOARD_STORAGE_MODULES := nvme ahci ahci_platform sd_mod usb_storage uas \
                     xhci_pci xhci_plat_hcd ehci_platform dwc3 dwc2 \
                     sdhci_of_dwcmshc sdhci_of_arasan sdhci_iproc sdhci_esdhc_imx \
                     sunxi_mmc meson_gx_mmc dw_mmc_rockchip \
                     virtio_pci virtio_blk virtio_scsi
BOARD_MODULES     := vfat nls_cp437 nls_ascii nls_utf8 $(BOARD_STORAGE_MODULES)
# Loaded by the initramfs to find the rootfs (the card): every storage
# driver; the partition named fsbench-root is waited for.
BOARD_BOOT_MODULES := $(BOARD_STORAGE_MODULES)
BOARD_INIT_MODULES := nvme ahci sd_mod usb_storage uas vfat nls_cp437 nls_ascii \
                     crc32c_generic crc32_generic

# Disk image: the ESP holds the gzipped Image, the initramfs, the device
# trees, and results/; a larger log.
BOARD_ESP_SIZE    := 96M
BOARD_LOG_SIZE    := 32M
BOARD_ROOT_UUID   := 1f4b8d2e-7a6c-4e93-b5d1-8c2a6e4f0b07
BOARD_DISK_UUID   := e2c6a8f4-3b1d-4f7a-9e5c-1d3b5f7a9c01
