# board.mk: the qemu-x86_64 board, an x86_64 PC emulated by QEMU (q35).
# Read through board/common/load.mk: the amd64 defaults
# (board/common/arch-amd64.mk) and the shared ones (defaults.mk) fill in
# everything this board does not set; every BOARD_* variable is exported to
# the scripts in image/ and qemu/.

BOARD_ARCH        := amd64
# Fixed UUIDs (reproducible images): the rootfs filesystem and the GPT disk.
BOARD_ROOT_UUID   := 9d6c6a39-1f4e-4b8e-a1f2-4a6f3c2b7e01
BOARD_DISK_UUID   := 2f1b4d0e-6a3c-4c59-9e0b-5f73b1c2d401
# no_timer_check: under TCG on a busy host the kernel's early check that the
# PIT timer reaches the IO-APIC (10 ticks in a short TSC delay) sometimes
# sees too few ticks and panics ("IO-APIC + timer doesn't work!", 0.004 s
# into the boot); 1 boot in 30 failed so on a loaded 2-core host
# (results/MEASUREMENTS-BOOT.md#soak). The emulated timer works; KVM guests skip
# the check by themselves.
BOARD_CMDLINE     := quiet loglevel=4 panic=1 oops=panic softlockup_panic=1 no_timer_check
