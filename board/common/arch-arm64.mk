# arch-arm64.mk: defaults of an arm64 board (BOARD_ARCH := arm64), set with
# ?= so that the board's board.mk, read before, overrides any of them.

# The runner is cross-compiled with this prefix against a musl sysroot
# ($(O)/runner/aarch64/fsbench) unless FSBENCH_IMAGE names a binary.
BOARD_CROSS_COMPILE ?= aarch64-linux-gnu-
# Kernel: a Debian meta package; the exact image it depends on is fetched.
# arm64's vmlinuz is a plain Image (~31 MiB): stored gzipped (~11 MiB;
# QEMU's -kernel and U-Boot unpack it), plain only inside the UKI (the EFI
# stub does not unpack it).
BOARD_KERNEL_PKG  ?= linux-image-arm64
BOARD_KERNEL_GZIP ?= yes
# mkimage's architecture for a legacy U-Boot image (BOARD_UIMAGE_LOAD).
BOARD_UIMAGE_ARCH ?= arm64
# UEFI boot: kernel + initramfs + command line in systemd's EFI stub,
# EFI/BOOT/BOOTAA64.EFI on the ESP (set the three to nothing for no UKI).
BOARD_EFI_STUB_PKG ?= systemd-boot-efi
BOARD_EFI_STUB    ?= /usr/lib/systemd/boot/efi/linuxaa64.efi.stub
BOARD_EFI_BOOT    ?= BOOTAA64.EFI
# Serial console: the PL011 UART of QEMU's virt machine.
BOARD_CONSOLE     ?= ttyAMA0,115200

# Kernel modules in the rootfs, besides the filesystems' own (the modules
# column of `fsbench config --filesystems`): the ESP (vfat), the disks (an
# emulated NVMe target, the virtio boot disk), and the other buses a target
# may sit on (qemu/run.sh --target-bus): SATA on AHCI, USB storage
# (bulk-only and UAS) on xHCI, SD on SDHCI (mmc_block is built in),
# virtio-scsi.
BOARD_BUS_MODULES ?= ahci sd_mod xhci_pci usb_storage uas sdhci_pci virtio_scsi
BOARD_MODULES     ?= vfat nls_cp437 nls_ascii nls_utf8 nvme virtio_pci virtio_blk \
                     $(BOARD_BUS_MODULES)
# Loaded by the initramfs to find the rootfs disk (virtio-blk on PCI).
BOARD_BOOT_MODULES ?= virtio_pci virtio_blk
# Loaded by the rootfs init before the run: the target disk (the buses'
# drivers in BOARD_BUS_MODULES are loaded by init for the controllers the
# machine has: PCI coldplug), the ESP and the checksum drivers (BusyBox
# modprobe does not follow softdeps).
BOARD_INIT_MODULES ?= nvme vfat nls_cp437 nls_ascii crc32c_generic crc32_generic

# Disk image: the ESP holds the gzipped Image (~10 MiB), the initramfs and
# the UKI (the plain Image, ~30 MiB, and the initramfs again).
BOARD_ESP_SIZE    ?= 80M

# QEMU: virt with AAVMF (qemu-efi-aarch64) for booting the disk image
# (qemu/run.sh --uefi); the virt machine's flash banks are 64 MiB each, the
# launcher pads copies of smaller firmware files to that size. No KVM for
# arm64 guests on an x86_64 host: TCG, where -cpu max with the cheap
# pointer authentication (pauth-impdef) runs faster than the default QARMA.
BOARD_QEMU        ?= qemu-system-aarch64
BOARD_QEMU_MACHINE ?= virt
BOARD_QEMU_CPU_TCG ?= max,pauth-impdef=on
BOARD_QEMU_FIRMWARE ?= /usr/share/AAVMF/AAVMF_CODE.fd
BOARD_QEMU_FIRMWARE_VARS ?= /usr/share/AAVMF/AAVMF_VARS.fd
BOARD_QEMU_PFLASH_SIZE ?= 64M
