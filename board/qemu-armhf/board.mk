# board.mk: qemu-armhf, QEMU's 32-bit ARM virt machine (qemu-system-arm,
# Cortex-A15, TCG) booting the disk image through U-Boot (Debian's
# u-boot-qemu, qemu_arm) as its firmware: U-Boot's distro boot finds
# extlinux/extlinux.conf on the ESP and boots Debian armhf's kernel
# (linux-image-armmp, a zImage: bootz), the initramfs and the command line
# it names. The way a 32-bit U-Boot board (i.MX6, AM335x, STM32MP1) boots,
# tried under QEMU. Read through board/common/load.mk: the armhf defaults
# (arch-armhf.mk: the cross compiler, kernel, extlinux.conf, PL011 console,
# virt machine, U-Boot) and the shared ones (defaults.mk) fill in what this
# board does not set.

BOARD_ARCH        := armhf
# QEMU passes its own device tree to U-Boot, which hands it on: no fdtdir.
BOARD_FDTDIR      :=

# Fixed UUIDs (reproducible images): the rootfs filesystem and the GPT disk.
BOARD_ROOT_UUID   := 0d4b7e21-93a6-4c58-b1f2-6e8a3c5d9f04
BOARD_DISK_UUID   := c9a1e5f3-7b2d-4c8e-a6f1-5d3b7e9a2c01
