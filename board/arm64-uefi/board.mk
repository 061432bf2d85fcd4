# board.mk: arm64-uefi, SystemReady-style arm64 machines (servers, workstations,
# boards with UEFI firmware such as EDK2 or U-Boot's EFI) booting the disk
# image from a USB stick, SD card or disk: EFI/BOOT/BOOTAA64.EFI on the ESP.
# Read by image/image.mk; every BOARD_* variable is exported to the scripts.
# Builds on an x86_64 host (arm64 packages through a private apt state, the
# runner cross-compiled with musl). The QEMU values at the end only serve to
# try the image under qemu-system-aarch64 (make run BOARD=arm64-uefi
# QEMU_ARGS=--uefi).

BOARD_ARCH        := arm64
BOARD_CROSS_COMPILE := aarch64-linux-gnu-
BOARD_KERNEL_PKG  := linux-image-arm64
BOARD_KERNEL_FILE := vmlinuz
BOARD_EFI_STUB_PKG := systemd-boot-efi
BOARD_EFI_STUB    := /usr/lib/systemd/boot/efi/linuxaa64.efi.stub
BOARD_EFI_BOOT    := BOOTAA64.EFI
# Console: none on the command line. The kernel then takes the serial port
# the firmware names (ACPI SPCR table, or the device tree's stdout-path) and
# falls back to the screen (EFI framebuffer) when there is none. Every
# record also goes to the log partition, so a machine without a console
# still leaves the results on the stick.
BOARD_CONSOLE     :=
# No panic= : after a kernel panic the machine stops (no reboot that would
# start the run again).
BOARD_CMDLINE     := loglevel=4 oops=panic softlockup_panic=1

# Kernel modules in the rootfs: filesystems, checksums, and the disks and
# buses a boot stick or a target may sit on: NVMe, SATA (AHCI on PCI and
# platform), USB storage (xHCI on PCI and platform, DWC3, DWC2, EHCI), SD/eMMC
# (SDHCI on ACPI, PCI and the common SoC controllers; mmc_block is built in),
# virtio (QEMU, cloud machines).
BOARD_STORAGE_MODULES := nvme ahci ahci_platform sd_mod usb_storage uas \
                     xhci_pci xhci_plat_hcd ehci_pci ehci_platform dwc3 dwc3_pci dwc2 \
                     sdhci_acpi sdhci_pci sdhci_of_dwcmshc sdhci_of_arasan sdhci_iproc \
                     sdhci_tegra sdhci_msm dw_mmc_rockchip \
                     virtio_pci virtio_blk
BOARD_MODULES     := ext4 xfs btrfs f2fs vfat nls_cp437 nls_ascii nls_utf8 \
                     crc32c_generic crc32_generic $(BOARD_STORAGE_MODULES)
# Loaded by the initramfs to find the rootfs disk (the stick): every storage
# driver; the partition named fsbench-root is waited for (rootwait, 20 s).
BOARD_BOOT_MODULES := $(BOARD_STORAGE_MODULES)
BOARD_ROOTFS_TYPES := ext4 f2fs
# Loaded by the rootfs init before the run: the target disk's drivers (most
# are in already), the ESP, the checksum drivers.
BOARD_INIT_MODULES := nvme ahci sd_mod usb_storage uas vfat nls_cp437 nls_ascii \
                     crc32c_generic crc32_generic

# Disk image layout: the ESP holds the plain Image, the initramfs and the UKI.
BOARD_ESP_SIZE    := 128M
BOARD_ROOT_SIZE   := 96M
BOARD_LOG_SIZE    := 32M
BOARD_ROOT_UUID   := 8b5f2d17-6c4e-4a39-b0d8-5e1f7a2c9d04

# Target as fsbench.conf names it by default (edit it there).
BOARD_TARGET_DEV  := /dev/nvme0n1
BOARD_TARGET_SIZE := 10G

# QEMU, to try the image (virt + AAVMF, TCG on an x86_64 host).
BOARD_QEMU        := qemu-system-aarch64
BOARD_QEMU_MACHINE := virt
BOARD_QEMU_CPU_TCG := max,pauth-impdef=on
BOARD_QEMU_CPU_KVM := host
BOARD_QEMU_SMP    := 2
BOARD_QEMU_MEM    := 2048
BOARD_QEMU_DISK_IF := virtio
BOARD_QEMU_FIRMWARE := /usr/share/AAVMF/AAVMF_CODE.fd
BOARD_QEMU_FIRMWARE_VARS := /usr/share/AAVMF/AAVMF_VARS.fd
BOARD_QEMU_PFLASH_SIZE := 64M
