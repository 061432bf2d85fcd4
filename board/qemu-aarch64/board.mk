# board.mk: the qemu-aarch64 board, an arm64 machine emulated by QEMU (virt)
# with AAVMF UEFI firmware. Read through board/common/load.mk: the arm64
# defaults (board/common/arch-arm64.mk: the cross compiler, kernel, EFI
# stub, PL011 console, virt machine) and the shared ones (defaults.mk) fill
# in everything this board does not set. Builds on an x86_64 host (arm64
# packages through a private apt state, the runner cross-compiled with musl).

BOARD_ARCH        := arm64
# Fixed UUIDs (reproducible images): the rootfs filesystem and the GPT disk.
BOARD_ROOT_UUID   := 3e7a1c94-58b2-4d0f-b6a3-91c2e8d4f703
BOARD_DISK_UUID   := a4d2e6b8-1f3c-4a5e-9b7d-2c4e6f8a1b01
