/* cfg.h: one run's settings, merged (struct fsb_config), and the limits of
 * their fields: what every room of run/ reads. The settings' table, layers
 * and parsing are run/settings.h's. */
#ifndef FSB_CFG_H
#define FSB_CFG_H

#include <stddef.h>
#include <stdint.h>

#define FSB_MAX_FS 8
#define FSB_PATH_MAX 512
#define FSB_MAX_COLUMNS 32	/* items of `fs` */
#define FSB_MAX_VARIANTS 16	/* variant.FS:NAME settings */

struct fsb_config {
	char profile[32];
	char fs[256];		/* comma-separated columns: FS or a variant FS:NAME */
	uint32_t dirs;
	uint32_t files;		/* files per directory */
	uint64_t file_size;
	uint32_t workers;
	uint32_t rounds;
	uint32_t phase_timeout;	/* seconds, 0 = none */
	char target[FSB_PATH_MAX];
	char dir[FSB_PATH_MAX];
	char log[FSB_PATH_MAX];
	uint64_t log_size;	/* max bytes for a log file, 0 = unlimited */
	char mnt[FSB_PATH_MAX];
	char prefix[32];	/* printed before each record on stdout */
	int yes;
	int capacity;		/* the capacity check before the filesystems (run/target/capacity.h) */
	int verify;
	int progress;
	int layout;		/* FIEMAP diagnosis after each round's reads */
	int freespace;		/* free-space evidence after each round's reads */
	int rewrite;		/* the rewrite remedy in aged rounds (run/engine/phase.c) */
	char create_order[16];	/* "name" (runner/SUITE.md) or "shuffled" */
	int create_lockstep;	/* creates take turns file by file (run/core/lockstep.h) */
	char create_cpu[16];	/* the create workers' CPUs: "free", "pinned" or "migrate" */
	char on_finish[16];	/* read by the boot image's init */
	int lava;		/* LAVA monitors lines on stdout (run/engine/lava.h) */
	char fault[64];		/* self-test: DIR/FILE:OFFSET to corrupt after create */
	int smallfile;		/* the rounds x phases of runner/SUITE.md */
	char fio[64];		/* fio workloads (run/stores/fio.h), comma-separated */
	uint32_t fio_runtime;	/* seconds per workload */
	uint64_t fio_size;	/* bytes per workload's file (or raw region) */
	int fio_raw;		/* the workloads on the raw target too */
	int fill;		/* the fill test (run/stores/fill.h) */
	uint32_t fill_pct, fill_delete_pct;
	int pack;		/* the packing phases: SQLite and a pack file (run/stores/pack.h) */
	uint32_t powercut;	/* power-cut cycles per filesystem, 0 = off (run/engine/powercut.h) */
	uint32_t powercut_window;	/* seconds the durability workload runs */
	uint32_t powercut_seed;	/* 0 = pick one (printed) */
	uint32_t powercut_workers;	/* worker processes of the durability workload */
	uint32_t powercut_files;	/* file slots per worker */
	uint32_t powercut_batch;	/* ms between batches of acknowledgements */
	char sustain[8];	/* the sustained write (run/stores/sustain.h): off, raw, fs, both */
	uint32_t sustain_seconds;	/* each write's time */
	uint32_t sustain_share, sustain_base, sustain_hold, sustain_rise;	/* the cliff (report/sections/cliff.h) */
	int fstrim;		/* the fstrim phase after delete, the discard read-back (run/engine/fstrim.h) */
	uint32_t target_wait;	/* seconds to wait for the target to appear */
	char zoned_conv[FSB_PATH_MAX];	/* a conventional disk beside a zoned target (f2fs's metadata) */
	uint32_t repeat;	/* repetitions of each column's rounds; 0 = auto (run/engine/repeat.h) */
	uint32_t repeat_width;	/* auto: the 95 % interval of each phase's median, percent of it */
	uint32_t repeat_max;	/* auto: the most repetitions */
	int control;		/* the run's conditions measured before the filesystems (run/engine/control.h) */
	int fileserver;		/* the file-server workload (run/engine/fileserver.h) */
	int fileserver_aged;	/* and again after the fill's aging */
	uint32_t fileserver_files, fileserver_dirwidth, fileserver_workers, fileserver_seconds;
	uint32_t fileserver_seed;
	uint64_t fileserver_size, fileserver_iosize, fileserver_append;
	char mkfs_opts[FSB_MAX_FS][256];	/* indexed like fs_table */
	char mount_opts[FSB_MAX_FS][256];
	/* variant.FS:NAME settings (run/fs/variant.h), each with its source */
	struct fsb_uvariant {
		char name[32];
		char mkfs[128], mount[128];
		char sysfs[128];	/* KEY=VALUE,... written after each mount (run/fs/knobs.h) */
		unsigned char src;
		char origin[FSB_PATH_MAX / 2];
	} variant[FSB_MAX_VARIANTS];
	size_t nvariant;

	/* bookkeeping: source of every key, and its origin text (file:line) */
	unsigned char src[96];
	char origin[96][FSB_PATH_MAX / 2];
};

#endif
