# image.mk: the bootable image and the QEMU run (included by the Makefile).
# Targets: image, fio, debian-kernel, run, powercut, check-image (check-image-x86, check-image-arm), check-qemu (check-qemu-x86), check-qemu-buses, check-qemu-arm64, check-qemu-uboot, check-qemu-armhf, check-qemu-sustain, check-qemu-zoned, check-qemu-variants, check-qemu-ab, check-ab-aa, check-lava, ab, soak, image-clean.
# Variables: BOARD, PROFILE, O, RESULTS (from the Makefile), ROOTFS=ext4|f2fs,
# SOURCE_DATE_EPOCH, FSBENCH_IMAGE (runner binary put in the image),
# KERNEL (a kernel of your own: a build tree or a folder with a kernel
# image and lib/modules/VERSION, image/kernel.sh), DEB_KERNEL and
# DEB_KERNEL_DIR (make debian-kernel: a Debian kernel package unpacked
# for KERNEL=, image/debkernel.sh), QEMU_SMP and QEMU_MEM
# (the guest's vCPUs and memory, qemu/run.sh), QEMU_ARGS (extra arguments for qemu/run.sh), CRITERIA (run: the criteria
# file of the verdict, default the board's criteria.conf), A_KERNEL A_IMAGE A_APPEND A_QEMU_ARGS, CONTROL, B_KERNEL B_IMAGE B_APPEND
# B_QEMU_ARGS, RUNS, RUNS_MIN, RUNS_MAX, SEED, DRY_RUN (make ab), TRIALS, AA_RUNS (make
# check-ab-aa), SOAK_BOOTS (make
# soak), DEB_CACHE (where downloaded packages are kept, per architecture;
# default $(O)/cache; fio's sources and builds too), FIO_MIRROR (image/fio.sh). Its lines of
# make help are the help-* rules at the end.

BOARD_DIR := board/$(BOARD)
# The board: its board.mk, then the defaults of its architecture and the
# shared ones (board/common/).
ifneq ($(wildcard $(BOARD_DIR)/board.mk),)
board_mk := $(BOARD_DIR)/board.mk
include board/common/load.mk
endif
IMG_BOARD_MK := $(BOARD_DIR)/board.mk board/common/load.mk \
	board/common/arch-$(BOARD_ARCH).mk board/common/defaults.mk
# The disk layout: the board's own genimage.cfg, else the common template.
IMG_GENIMAGE := $(or $(wildcard $(BOARD_DIR)/genimage.cfg),board/common/genimage.cfg.in)
ROOTFS ?= ext4
# Every timestamp in the images: the time of the last commit, else fixed.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 1700000000)
# A board of another architecture names its cross compiler
# (BOARD_CROSS_COMPILE): its runner is built by a sub-make with that prefix.
BOARD_RUNNER := $(if $(BOARD_CROSS_COMPILE),$(O)/runner/$(call cross_arch,$(BOARD_CROSS_COMPILE))/fsbench,$(FSBENCH))
FSBENCH_IMAGE ?= $(BOARD_RUNNER)
ifneq ($(BOARD_RUNNER),$(FSBENCH))
.PHONY: board-runner
$(BOARD_RUNNER): board-runner
board-runner:
	$(Q)$(MAKE) --no-print-directory runner CROSS_COMPILE=$(BOARD_CROSS_COMPILE)
endif

IMG_DIR   := $(O)/image/$(BOARD)
# A kernel of your own (KERNEL=PATH): its own image folder, one per PATH,
# and no kernel package. It is checked on every build (image/kernel.sh
# check: what the board needs that it lacks stops the build, before
# anything boots); kernel-src.txt changes, and the image is restaged, only
# when the kernel's files do.
KERNEL ?=
ifneq ($(strip $(KERNEL)),)
KERNEL_SRC := $(abspath $(KERNEL))
IMG_DIR   := $(O)/image/$(BOARD)-kernel-$(shell printf '%s' '$(KERNEL_SRC)' | cksum | cut -d' ' -f1)
IMG_KERNEL_SRC := $(IMG_DIR)/kernel-src.txt
.PHONY: kernel-check
kernel-check: $(IMG_FSTABLE) | board-check
	@mkdir -p $(IMG_DIR)
	$(Q)BOARD=$(BOARD) FILESYSTEMS=$(IMG_FSTABLE) sh image/kernel.sh check $(KERNEL_SRC) $(IMG_DIR)
$(IMG_KERNEL_SRC): kernel-check
endif

# A Debian kernel package as a kernel of your own (image/debkernel.sh):
# DEB_KERNEL=6.12 is linux-image-6.12-FLAVOUR's exact image, FLAVOUR the
# board's (BOARD_KERNEL_PKG: linux-image-amd64), downloaded through the
# board architecture's private apt state and unpacked into
# DEB_KERNEL_DIR: the folder to pass as KERNEL= (make image, make run)
# or B_KERNEL= (make ab).
DEB_KERNEL ?=
DEB_KERNEL_DIR ?= $(O)/kernels/debian-$(DEB_KERNEL)
.PHONY: debian-kernel
debian-kernel: board-check
	@test -n '$(DEB_KERNEL)' || { echo "fsbench: debian-kernel: DEB_KERNEL= is not set: a Debian kernel version or package (DEB_KERNEL=6.12, DEB_KERNEL=linux-image-6.12-amd64)" >&2; exit 2; }
	$(Q)ARCH=$(BOARD_ARCH) FLAVOUR=$(patsubst linux-image-%,%,$(BOARD_KERNEL_PKG)) CACHE=$(IMG_CACHE) \
		sh image/debkernel.sh '$(DEB_KERNEL)' '$(DEB_KERNEL_DIR)'
	@echo 'debian-kernel: KERNEL=$(DEB_KERNEL_DIR)'
DEB_CACHE ?= $(O)/cache
IMG_CACHE := $(DEB_CACHE)/$(BOARD_ARCH)
IMG_DISK  := $(IMG_DIR)/disk-$(ROOTFS).img
IMG_STAGE := $(IMG_DIR)/stage.stamp

export SOURCE_DATE_EPOCH ROOTFS
export $(filter BOARD_%,$(.VARIABLES))

.PHONY: powercut image image-fstable fio run ab check-qemu-ab check-ab-aa check-image check-image-x86 check-image-arm check-qemu check-qemu-x86 check-qemu-buses check-faults check-qemu-arm64 check-qemu-uboot check-qemu-armhf check-qemu-sustain check-qemu-zoned check-qemu-variants check-lava soak image-clean board-check

board-check:
	@test -f $(BOARD_DIR)/board.mk || { echo "fsbench: board '$(BOARD)': no $(BOARD_DIR)/board.mk (boards: $(notdir $(patsubst %/board.mk,%,$(wildcard board/*/board.mk))))" >&2; exit 2; }

# The filesystem table (`fsbench config --filesystems`, one line per
# filesystem: name, mkfs, Debian package, modules, files): what fetch.sh
# downloads and stage.sh puts in the image for the filesystems. Printed by
# the host build (FSBENCH_TABLE_TOOL); rewritten only when it changes, so
# a runner rebuild does not remake the images. The scratch file is the
# make's own (PID).
FSBENCH_TABLE_TOOL ?= $(FSBENCH_HOST)
IMG_FSTABLE := $(O)/image/filesystems.txt
$(IMG_FSTABLE): $(FSBENCH_TABLE_TOOL)
	@mkdir -p $(@D)
	$(Q)t=$@.$$$$.tmp; $(FSBENCH_TABLE_TOOL) config --filesystems >$$t && \
		if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@; fi

# The table alone: make check makes it before its lanes, whose image
# builds both read it.
image-fstable: $(IMG_FSTABLE)

# Downloads (cached per architecture; nothing is fetched when all is there).
$(IMG_DIR)/packages.txt: $(IMG_BOARD_MK) $(IMG_FSTABLE) image/fetch.sh | board-check
	@mkdir -p $(@D)
	@echo '  FETCH   $(BOARD_ARCH) packages'
	$(Q)ARCH=$(BOARD_ARCH) KERNEL_PKG=$(if $(KERNEL_SRC),,$(BOARD_KERNEL_PKG)) CACHE=$(IMG_CACHE) \
		EXTRA_PKGS="$(BOARD_EFI_STUB_PKG) linux-libc-dev" FILESYSTEMS=$(IMG_FSTABLE) \
		MANIFEST=$@ sh image/fetch.sh

# fio, built from Debian's source (image/fio.sh: fio and libaio pinned,
# static, musl), once per architecture and kept with the downloads: every
# board of the architecture, and another output folder with the same
# DEB_CACHE, takes that binary. Built against the kernel headers of the
# board's packages (linux-libc-dev, fetched with them, not staged).
# A cross board's fio is compiled like its runner (the musl sysroot the
# runner's sub-make fetches: the runner is made first).
IMG_FIO := $(IMG_CACHE)/fio/fio
IMG_FIO_SPECS := $(if $(BOARD_CROSS_COMPILE),$(O)/cache/musl-$(BOARD_ARCH)/musl-gcc.specs)
$(IMG_FIO): image/fio.sh | $(IMG_DIR)/packages.txt $(if $(BOARD_CROSS_COMPILE),$(BOARD_RUNNER))
	@echo '  FIO     $(BOARD_ARCH): fio from Debian'"'"'s source, static (musl)'
	$(Q)ARCH=$(BOARD_ARCH) CROSS_COMPILE=$(BOARD_CROSS_COMPILE) MUSL_CC=$(MUSL_CC) MUSL_SPECS=$(IMG_FIO_SPECS) \
		HEADERS="$$(grep '/linux-libc-dev_[^/]*\.deb$$' $(IMG_DIR)/packages.txt)" \
		SOURCES=$(DEB_CACHE)/source OUT=$(@D) $(if $(FIO_MIRROR),FIO_MIRROR=$(FIO_MIRROR)) sh image/fio.sh

$(IMG_STAGE): $(IMG_DIR)/packages.txt $(IMG_FSTABLE) $(FSBENCH_IMAGE) $(IMG_FIO) image/stage.sh \
		image/files/init image/files/initramfs-init $(BOARD_DIR)/fsbench.conf $(IMG_KERNEL_SRC)
	@echo '  STAGE   $(IMG_DIR)/rootfs'
	$(Q)KERNEL=$(KERNEL_SRC) MANIFEST=$< FILESYSTEMS=$(IMG_FSTABLE) FSBENCH=$(FSBENCH_IMAGE) STRIP=$(BOARD_CROSS_COMPILE)strip FIO=$(IMG_FIO) BOARD_DIR=$(BOARD_DIR) \
		FILES=image/files OUT=$(IMG_DIR) UNPACK=$(IMG_CACHE)/unpacked sh image/stage.sh >$(IMG_DIR)/stage.log
	$(Q)touch $@

$(IMG_DIR)/kernel: $(IMG_STAGE)

# Uncompressed kernel for QEMU's PVH direct boot (x86), when the kernel has it.
$(IMG_DIR)/vmlinux.stamp: $(IMG_STAGE) image/vmlinux.sh
	$(Q)sh image/vmlinux.sh $(IMG_DIR)/kernel $(IMG_DIR)/vmlinux
	$(Q)touch $@

$(IMG_DIR)/initramfs.cpio.gz: $(IMG_STAGE) image/cpio.sh
	@echo '  CPIO    $@'
	$(Q)sh image/cpio.sh $(IMG_DIR)/initramfs $@

$(IMG_DIR)/rootfs.$(ROOTFS): $(IMG_STAGE) image/mkrootfs.sh
	@echo '  ROOTFS  $@'
	$(Q)SIZE=$(BOARD_ROOT_SIZE) UUID=$(BOARD_ROOT_UUID) \
		sh image/mkrootfs.sh $(IMG_DIR)/rootfs $@ $(ROOTFS)

# Unified kernel image for UEFI boot (boards with BOARD_EFI_STUB).
IMG_UKI := $(if $(BOARD_EFI_STUB),$(IMG_DIR)/uki-$(ROOTFS).efi)
IMG_CMDLINE = $(if $(BOARD_CONSOLE),console=$(BOARD_CONSOLE) )$(BOARD_CMDLINE) root=PARTLABEL=fsbench-root rootfstype=$(ROOTFS)

$(IMG_DIR)/uki-$(ROOTFS).efi: $(IMG_DIR)/initramfs.cpio.gz $(IMG_STAGE) image/uki.sh $(IMG_BOARD_MK)
	@echo '  UKI     $@'
	$(Q)OBJCOPY=$(BOARD_CROSS_COMPILE)objcopy STUB=$(IMG_DIR)/efi.stub KERNEL=$(IMG_DIR)/kernel INITRD=$(IMG_DIR)/initramfs.cpio.gz \
		CMDLINE="$(IMG_CMDLINE)" OUTPUT=$@ sh image/uki.sh

$(IMG_DISK): $(IMG_DIR)/initramfs.cpio.gz $(IMG_DIR)/rootfs.$(ROOTFS) $(IMG_UKI) \
		$(IMG_DIR)/kernel image/disk.sh $(IMG_GENIMAGE) $(IMG_BOARD_MK) \
		$(BOARD_DIR)/fsbench.conf $(BOARD_DIR)/criteria.conf $(BOARD_DIR)/readme.txt
	@echo '  DISK    $@'
	$(Q)IN=$(IMG_DIR) BOARD_DIR=$(BOARD_DIR) GENIMAGE_CFG=$(IMG_GENIMAGE) CMDLINE="$(IMG_CMDLINE)" \
		OUTPUT=$@ sh image/disk.sh
	$(Q)sh image/sizes.sh $(IMG_DIR) $(ROOTFS) >$(IMG_DIR)/sizes-$(ROOTFS).txt
	$(Q)cat $(IMG_DIR)/sizes-$(ROOTFS).txt

image: board-check $(IMG_DISK) $(IMG_DIR)/vmlinux.stamp
	@echo 'image: $(IMG_DISK)'

fio: board-check $(IMG_FIO)
	@echo 'fio: $(IMG_FIO)'

# The suite in QEMU; results in $(RESULTS)/<date>-<board>-<profile>/.
# deps first, then the builds (also under make -j). CRITERIA: the verdict's
# criteria (on the ESP of the run's disk copy and for the host's verdict).
run: deps
	$(Q)$(MAKE) --no-print-directory image host
	$(Q)sh qemu/run.sh --disk $(IMG_DISK)$(if $(QEMU_SMP), --smp $(QEMU_SMP))$(if $(QEMU_MEM), --mem $(QEMU_MEM)) --profile $(PROFILE) $(if $(CRITERIA),--criteria $(CRITERIA)) $(QEMU_ARGS)

# An A/B experiment in QEMU (qemu/ab.sh): side A against side B, each a
# kernel of your own (X_KERNEL: its image built as make image KERNEL=
# builds it), a disk image (X_IMAGE) or the board's image, with more
# kernel command line words (X_APPEND) and launcher options (X_QEMU_ARGS);
# RUNS boots a side (auto: RUNS_MIN blocks, then one more at a time while
# a row is undecided, at most RUNS_MAX) in blocks drawn from SEED; the
# profile smoke unless PROFILE is given. Results in
# $(RESULTS)/<date>-<board>-ab/. The values reach ab.sh as they are
# (ab_q quotes them for the shell).
RUNS ?= 8
RUNS_MIN ?= 4
RUNS_MAX ?= 20
ab_q = '$(subst ','\'',$(1))'
AB_PROFILE = $(if $(filter file default,$(origin PROFILE)),smoke,$(PROFILE))
ab: deps
	$(Q)$(MAKE) --no-print-directory host $(if $(filter-out 0,$(DRY_RUN))$(and $(A_KERNEL)$(A_IMAGE),$(B_KERNEL)$(B_IMAGE)),,image)
	$(Q)sh qemu/ab.sh --runs $(call ab_q,$(RUNS)) --runs-min $(call ab_q,$(RUNS_MIN)) --runs-max $(call ab_q,$(RUNS_MAX)) \
		--profile $(call ab_q,$(AB_PROFILE)) $(if $(SEED),--seed $(call ab_q,$(SEED))) \
		$(if $(A_KERNEL),--a-kernel $(call ab_q,$(A_KERNEL))) $(if $(A_IMAGE),--a-image $(call ab_q,$(A_IMAGE))) \
		$(if $(A_APPEND),--a-append $(call ab_q,$(A_APPEND))) $(if $(A_QEMU_ARGS),--a-qemu-args $(call ab_q,$(A_QEMU_ARGS))) \
		$(if $(B_KERNEL),--b-kernel $(call ab_q,$(B_KERNEL))) $(if $(B_IMAGE),--b-image $(call ab_q,$(B_IMAGE))) \
		$(if $(B_APPEND),--b-append $(call ab_q,$(B_APPEND))) $(if $(B_QEMU_ARGS),--b-qemu-args $(call ab_q,$(B_QEMU_ARGS))) \
		--qemu-args $(call ab_q,$(if $(QEMU_SMP),--smp $(QEMU_SMP) )$(if $(QEMU_MEM),--mem $(QEMU_MEM) )$(QEMU_ARGS)) \
		$(if $(CRITERIA),--criteria $(call ab_q,$(CRITERIA))) $(if $(CONTROL),--control $(call ab_q,$(CONTROL))) \
		$(if $(filter-out 0,$(DRY_RUN)),--dry-run)

check-image: deps
	+$(Q)$(MAKE) --no-print-directory check-image-x86
	+$(Q)$(MAKE) --no-print-directory check-image-arm

# check-image in two: the board's image and its fio (x86_64) and make
# debian-kernel's script (a local repository, no network), then fio
# for arm64 and armhf and every arm64 board's image (make check runs
# them in its two lanes).
check-image-x86: deps
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/image/run.sh
	+$(Q)FIO_BOARDS=qemu-x86_64 FIO_TAG=x86 sh tests/image/fio.sh
	+$(Q)sh tests/image/debkernel.sh

check-image-arm: deps
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)FIO_BOARDS='qemu-aarch64 qemu-armhf' FIO_TAG=arm sh tests/image/fio.sh
	+$(Q)sh tests/image/budget.sh

check-qemu: deps
	+$(Q)$(MAKE) --no-print-directory check-qemu-x86
	$(Q)$(MAKE) --no-print-directory check-qemu-arm64
	$(Q)$(MAKE) --no-print-directory check-qemu-uboot
	$(Q)$(MAKE) --no-print-directory check-qemu-armhf

# The x86_64 part of check-qemu: the launcher, then the boots of the
# board's image.
check-qemu-x86: deps
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/qemu/launcher.sh
	+$(Q)sh tests/qemu/run.sh
	+$(Q)sh tests/qemu/targets.sh
	+$(Q)sh tests/qemu/faults.sh
	+$(Q)sh tests/qemu/diskmodel.sh
	+$(Q)sh tests/qemu/powercut.sh
	+$(Q)sh tests/qemu/uefi.sh
	+$(Q)sh tests/qemu/kernel.sh
	+$(Q)sh tests/qemu/verdict.sh

# The QEMU tests whose recipe is the host build, then tests/qemu/SCRIPT.sh:
# a TARGET:SCRIPT word each in qemu_tests, what it does above it; the
# rules are made from the list below it (qemu_test).

# The target on every bus but NVMe (tests/qemu/buses.sh): AHCI, USB
# (bulk-only and UAS), SD, virtio-scsi; one brief ext4 boot each.
qemu_tests := check-qemu-buses:buses

# The fault cases of check-qemu alone (tests/qemu/faults.sh).
qemu_tests += check-faults:faults

# The sustained write's cliff in QEMU: the target's throttle tightened
# through QMP mid-run, and a run without the change (tests/qemu/sustain.sh).
qemu_tests += check-qemu-sustain:sustain

# The A/B experiment in QEMU (tests/qemu/ab.sh): the order replayed and
# misuse without a boot; B's target throttled against A, 5 brief ext4
# boots a side, FAIL with every read row slower; a side that does not
# boot, ERROR.
qemu_tests += check-qemu-ab:ab

# A/A trials of the A/B (tests/qemu/ab-aa.sh): the same image on both
# sides, AA_RUNS brief ext4 boots a side (default 4), TRIALS times
# (default 10); passes when at least 9 in 10 flag no row. Not part of
# check (about 80 boots).
TRIALS ?= 10
AA_RUNS ?= 4
check-ab-aa: deps
	$(Q)$(MAKE) --no-print-directory host image
	+$(Q)TRIALS=$(TRIALS) AA_RUNS=$(AA_RUNS) sh tests/qemu/ab-aa.sh

# A zoned target in QEMU (tests/qemu/zoned.sh): the launcher's
# --target-zoned (misuse, QEMU's argv), then one brief boot: btrfs and f2fs
# on the zoned namespace, ext4 and XFS refused. A stage of check's pool.
qemu_tests += check-qemu-zoned:zoned

# Every built-in variant of ext4 and f2fs made and mounted once in QEMU
# (tests/qemu/variants.sh): one brief boot, each variant's mkfs arguments
# and mount options seen in its records. A stage of check's pool.
qemu_tests += check-qemu-variants:variants

# The U-Boot boards: qemu-aarch64-uboot booted by U-Boot from its
# extlinux.conf (smoke on four filesystems), uboot-arm64 built and checked.
qemu_tests += check-qemu-uboot:uboot

# The arm64 image (qemu-aarch64) booted through AAVMF: smoke on four filesystems.
qemu_tests += check-qemu-arm64:arm64

# The 32-bit ARM image (qemu-armhf) booted through U-Boot (qemu_arm) from
# its extlinux.conf: smoke on four filesystems, records read on the host.
qemu_tests += check-qemu-armhf:armhf

# qemu_test TARGET,SCRIPT: the rule of one test of qemu_tests
define qemu_test
$(1): deps
	$$(Q)$$(MAKE) --no-print-directory host
	+$$(Q)sh tests/qemu/$(2).sh
endef
$(foreach t,$(qemu_tests),$(eval $(call qemu_test,$(word 1,$(subst :, ,$(t))),$(word 2,$(subst :, ,$(t))))))

# LAVA: every board's job keeps board/README.md's monitors block, the jobs
# pass lava-run --validate, and Debian's lava-run (no server) runs the
# qemu-x86_64 job on the smoke profile, healthy and with a flipped bit,
# checked against LAVA's own results. SKIP with the reason without lava-run.
check-lava: deps
	$(Q)$(MAKE) --no-print-directory host
	+$(Q)sh tests/lava/run.sh

# A power-cut campaign in QEMU (qemu/powercut.sh): CYCLES cycles on each
# filesystem of POWERCUT_FS, each cut at a random moment of its window
# (SEED: the same campaign again), then its report and verdict in
# $(RESULTS)/<date>-<board>-powercut/. POWERCUT_MODEL=cache|lying: the
# target through a disk model. Its own target, not part of check (make
# check runs a short one).
CYCLES ?= 3
POWERCUT_FS ?= ext4,xfs,btrfs,f2fs
POWERCUT_WINDOW ?= 10
powercut: deps
	$(Q)$(MAKE) --no-print-directory image host
	$(Q)sh qemu/powercut.sh --disk $(IMG_DISK) --cycles $(CYCLES) --fs $(POWERCUT_FS) --window $(POWERCUT_WINDOW) \
		$(if $(SEED),--seed $(SEED)) $(if $(POWERCUT_MODEL),--target-model $(POWERCUT_MODEL)) -- $(QEMU_ARGS)

# The smoke image booted SOAK_BOOTS times (ext4, one round): how many
# reached run_end. A measurement, not part of check.
SOAK_BOOTS ?= 30
soak: deps
	$(Q)$(MAKE) --no-print-directory image host
	+$(Q)SOAK_BOOTS=$(SOAK_BOOTS) sh tests/qemu/soak.sh

image-clean:
	rm -rf $(IMG_DIR)

help-build::
	@echo '  image              - the bootable disk image for BOARD: $$(O)/image/BOARD/disk-ROOTFS.img'
	@echo '  fio                - the image'"'"'s fio for BOARD'"'"'s architecture, from Debian'"'"'s source, static:'
	@echo '                       $$(DEB_CACHE)/ARCH/fio/fio (image/fio.sh)'
	@echo '  debian-kernel      - a Debian kernel package (DEB_KERNEL=6.12) downloaded and unpacked into'
	@echo '                       DEB_KERNEL_DIR, printed as KERNEL=DIR: the folder for KERNEL= or B_KERNEL= (image/debkernel.sh)'
help-run::
	@echo '  run                - build the image and run the suite in QEMU (PROFILE, default seed: hours'
	@echo '                       under TCG; PROFILE=smoke: a minute); says first what it will take here,'
	@echo '                       then one progress line; results in $$(RESULTS)/<date>-<board>-<profile>/'
	@echo '  powercut           - a power-cut campaign in QEMU: CYCLES (3) cycles on each of POWERCUT_FS, each'
	@echo '                       cut (SIGKILL) at a random moment of its window, the next boot checks every'
	@echo '                       acknowledged operation; SEED= replays one; report and verdict in'
	@echo '                       $$(RESULTS)/<date>-<board>-powercut/ (qemu/powercut.sh)'
	@echo '  ab                 - an A/B experiment in QEMU: did this kernel or setting make my storage worse?'
	@echo '                       A_*, B_* (each side a kernel, an image, command line words, launcher options; the'
	@echo '                       board'"'"'s image by default), RUNS boots a side in blocks of one A and one B drawn from'
	@echo '                       SEED, PROFILE smoke by default; says its time first; fsbench compare of the sides,'
	@echo '                       FSBENCH-AB: PASS, FAIL or ERROR (exit 0, 1, 5); results in $$(RESULTS)/<date>-<board>-ab/'
help-test::
	@echo '  check-image        - image checks without mounting (partitions, fsck, ESP, block map, reproducibility);'
	@echo '                       the image'"'"'s fio built for x86_64, arm64, armhf, run on the host (qemu-user) and in guests;'
	@echo '                       every arm64 board built and held to the 40 MiB image budget'
	@echo '  check-image-x86    - check-image'"'"'s first half: the board'"'"'s image and its fio (x86_64); image/debkernel.sh'
	@echo '                       against a local repository of stand-in kernel packages (no network)'
	@echo '  check-image-arm    - check-image'"'"'s second half: fio for arm64 and armhf, every arm64 board'"'"'s image'
	@echo '  check-qemu         - the launcher (progress, estimate, guest size, kernel checks), then boot tests'
	@echo '                       under TCG: smoke, killed run, targets, faults (EIO, unplug, slow), UEFI, a kernel of'
	@echo '                       your own (KERNEL=), the verdict at boot, arm64, U-Boot, armhf'
	@echo '  check-qemu-x86     - check-qemu without its arm64, U-Boot and armhf parts'
	@echo '  check-qemu-buses   - the target on AHCI, USB (bulk-only, UAS), SD and virtio-scsi: one brief'
	@echo '                       ext4 boot each, the bus and its facts in the health record'
	@echo '  check-faults       - the QEMU fault cases alone: EIO on writes and reads, unplug, slow, healthy'
	@echo '                       (part of check-qemu)'
	@echo '  check-qemu-arm64   - the arm64 image through AAVMF (part of check-qemu)'
	@echo '  check-qemu-sustain - the sustained write in QEMU: the target'"'"'s throttle tightened through QMP 6 s'
	@echo '                       into the sequential write, the report'"'"'s cliff within 2 s of it; the same run'
	@echo '                       without the change has no cliff (two boots at once, about 1 min under TCG)'
	@echo '  check-qemu-ab      - make ab'"'"'s experiment: the order replayed and misuse (no boot); B'"'"'s target throttled,'
	@echo '                       5 brief ext4 boots a side, FAIL with every read row slower; a side that does not'
	@echo '                       boot, ERROR (about 2 min under TCG)'
	@echo '  check-ab-aa        - A/A trials of make ab: the same image on both sides, 4 brief ext4 boots a side,'
	@echo '                       TRIALS times (10); passes when at least 9 in 10 flag no row (not part of check)'
	@echo '  check-qemu-zoned   - a zoned NVMe namespace in QEMU (--target-zoned): one brief boot, btrfs (-O zoned)'
	@echo '                       and f2fs (-m, metadata on the conventional namespace) run, ext4 and XFS refused;'
	@echo '                       the launcher'"'"'s misuse and argv (a stage of check'"'"'s pool)'
	@echo '  check-qemu-variants - every built-in ext4 and f2fs variant made and mounted once in QEMU: one brief'
	@echo '                       boot, each variant'"'"'s mkfs arguments and mount options in its records (check'"'"'s pool)'
	@echo '  check-qemu-uboot   - qemu-aarch64-uboot booted by U-Boot from extlinux.conf, smoke; uboot-arm64'
	@echo '                       built and checked (part of check-qemu)'
	@echo '  check-qemu-armhf   - the 32-bit ARM image through U-Boot, extlinux.conf (part of check-qemu)'
	@echo '  check-lava         - the LAVA jobs of the boards (one monitors block, lava-run --validate), then'
	@echo '                       the qemu-x86_64 job under lava-run: smoke, healthy and with a flipped bit'
	@echo '  soak               - boot the smoke image SOAK_BOOTS times (ext4, 1 round; default 30) and'
	@echo '                       count the boots that reach run_end (not part of check)'
help-clean::
	@echo '  image-clean        - remove the image of BOARD ($$(O)/image/BOARD)'
help-vars::
	@echo '  ROOTFS=ext4|f2fs   - rootfs type of the image (default ext4)'
	@echo '  KERNEL=PATH        - image, run: a kernel of your own instead of the board'"'"'s Debian package: a build'
	@echo '                       tree (arch/x86/boot/bzImage or arch/arm64/boot/Image, modules from modules_install'
	@echo '                       INSTALL_MOD_PATH=PATH or the tree) or a folder with a kernel image and'
	@echo '                       lib/modules/VERSION; what the board needs that it lacks stops the build'
	@echo '                       (image folder $$(O)/image/BOARD-kernel-N)'
	@echo '  DEB_KERNEL=V|PKG   - make debian-kernel: a kernel version or its start (6.12: the meta package'
	@echo '                       linux-image-6.12-amd64, followed to its image) or a package name, of the board'"'"'s flavour'
	@echo '  DEB_KERNEL_DIR=dir - make debian-kernel: where it is unpacked (default $$(O)/kernels/debian-DEB_KERNEL)'
	@echo '  QEMU_SMP=N         - run: the guest'"'"'s vCPUs (default: under KVM the profile'"'"'s workers, at most the'
	@echo '                       host'"'"'s cores; under TCG BOARD_QEMU_SMP, 2)'
	@echo '  QEMU_MEM=MiB       - run: the guest'"'"'s memory (default: under KVM 1024 + 256 per vCPU, at least'
	@echo '                       BOARD_QEMU_MEM; under TCG BOARD_QEMU_MEM, 2048)'
	@echo '  QEMU_ARGS=...      - more qemu/run.sh options (--uefi, --append fsbench.KEY=VALUE, --accel tcg, ...;'
	@echo '                       sh qemu/run.sh --help lists them)'
	@echo '  CRITERIA=file      - run: the verdict'"'"'s criteria, put on the ESP of the run'"'"'s disk copy and checked'
	@echo '                       on the host too (default board/BOARD/criteria.conf, as on the image'"'"'s ESP);'
	@echo '                       verdict.txt and report.junit.xml in the run folder; the exit status stays the runner'"'"'s'
	@echo '  DEB_CACHE=dir      - where downloaded Debian packages are kept, per architecture (default $$(O)/cache);'
	@echo '                       also fio'"'"'s source archives (source/) and the fio built for each architecture (ARCH/fio/)'
	@echo '  FIO_MIRROR=url     - the Debian mirror fio'"'"'s and libaio'"'"'s source come from (default http://deb.debian.org/debian)'
	@echo '  FSBENCH_IMAGE=file - the runner binary put in the image (default the make runner one)'
	@echo '  FSBENCH_TABLE_TOOL=file - the fsbench that prints the filesystem table for the image (default $$(O)/host/fsbench)'
	@echo '  SOURCE_DATE_EPOCH=s - every timestamp in the images (default the last commit'"'"'s time)'
	@echo '  CYCLES=N SEED=S    - make powercut: cycles per filesystem (default 3), the campaign'"'"'s seed'
	@echo '                       (default: random, printed)'
	@echo '  POWERCUT_FS=LIST   - make powercut: the filesystems (default ext4,xfs,btrfs,f2fs; also variants and nilfs2: ext4,ext4:nobarrier,nilfs2)'
	@echo '  POWERCUT_WINDOW=S  - make powercut: each cycle'"'"'s window in seconds (default 10)'
	@echo '  POWERCUT_MODEL=M   - make powercut: the target through a disk model (cache, lying)'
	@echo '  A_KERNEL=PATH      - make ab: side A boots a kernel of your own (as KERNEL=: its image built first)'
	@echo '  A_IMAGE=IMG        - make ab: side A boots IMG, a disk-*.img of make image (not with A_KERNEL);'
	@echo '                       a side given neither boots the board'"'"'s image'
	@echo '  A_APPEND=WORDS     - make ab: more kernel command line words for A (fsbench.mount_opts.ext4=noatime)'
	@echo '  A_QEMU_ARGS=...    - make ab: more qemu/run.sh options for A'"'"'s boots (--target-throttle 500)'
	@echo '  B_KERNEL=PATH      - make ab: side B'"'"'s, as A_KERNEL'
	@echo '  B_IMAGE=IMG        - make ab: side B'"'"'s, as A_IMAGE'
	@echo '  B_APPEND=WORDS     - make ab: side B'"'"'s, as A_APPEND'
	@echo '  B_QEMU_ARGS=...    - make ab: side B'"'"'s, as A_QEMU_ARGS (QEMU_ARGS: every boot of both sides)'
	@echo '  CONTROL=auto       - make ab: the compare'"'"'s --control: judge, report (the rows on their own seconds),'
	@echo '                       auto: report when the sides boot other kernels or images, else judge'
	@echo '  RUNS=N|auto        - make ab: boots a side (default 8: the fewest that can flag one row of the full'
	@echo '                       suite'"'"'s 28, qemu/README.md); auto: RUNS_MIN blocks, then one more at a time'
	@echo '                       while a row is undecided'
	@echo '  RUNS_MIN=N         - make ab RUNS=auto: the blocks to begin with (default 4)'
	@echo '  RUNS_MAX=N         - make ab RUNS=auto: the most blocks (default 20)'
	@echo '  SEED=N             - make ab: the order'"'"'s seed (default: drawn and printed first; SEED= replays it)'
	@echo '  DRY_RUN=1          - make ab: print the seed, the order and the estimate; build and boot nothing'
	@echo '  TRIALS=N           - make check-ab-aa: A/A trials (default 10)'
	@echo '  AA_RUNS=N          - make check-ab-aa: boots a side in each trial (default 4; 8 can flag one row alone)'
	@echo '  SOAK_BOOTS=N       - make soak: how many boots (default 30); SOAK_ARGS=... more qemu/run.sh options'
	@echo '  QEMU_TEST_ONLY=... - check-qemu: only these cases of tests/qemu/run.sh (ext4 f2fs fake kill)'
