# board.mk: TEMPLATE for a new board. Copy board/example/ to board/<name>/,
# edit the values below, fsbench.conf and readme.txt, then:
#   make image BOARD=<name>      (and make run BOARD=<name> for a QEMU board)
# Only BOARD_ARCH and the two UUIDs are required. Everything else has a
# default in board/common/arch-$(BOARD_ARCH).mk (kernel package, EFI stub,
# console, kernel modules, ESP size, QEMU machine and firmware) and
# board/common/defaults.mk (command line, partition sizes, QEMU memory),
# where each variable is explained; set one here to override it (an empty
# value counts). The disk layout is board/common/genimage.cfg.in; a board
# that needs another one ships its own genimage.cfg. Every BOARD_* variable
# is exported to the scripts in image/ and qemu/; nothing else in the tree
# needs to change.

# Debian architecture of the userland and kernel packages: amd64 or arm64
# (one board/common/arch-*.mk each).
BOARD_ARCH        := arm64
# Fixed UUIDs (reproducible images), new ones per board (uuidgen): the
# rootfs filesystem, and the GPT disk (its partitions are this UUID with
# the last two digits 11, 12, 13).
BOARD_ROOT_UUID   := 5b0e8a52-3c1d-4f7e-9a21-7d4e2b9c1f02
BOARD_DISK_UUID   := 7c3e9b21-4d5a-4e6f-8a7b-1c2d3e4f5001

# Overrides. This example is an arm64 machine emulated by QEMU (virt)
# booted with -kernel/-initrd: no UKI (the ESP still holds vmlinuz and
# initrd.img for a boot loader), a smaller ESP.
BOARD_EFI_STUB_PKG :=
BOARD_EFI_STUB    :=
BOARD_EFI_BOOT    :=
BOARD_ESP_SIZE    := 64M
# A board whose firmware is U-Boot: extlinux/extlinux.conf on the ESP, the
# device trees of the kernel in dtbs/ (board/uboot-arm64 is one):
#BOARD_EXTLINUX    := yes
#BOARD_FDTDIR      := dtbs
