/* model.h: a run as the report sees it, loaded from its result records
 * (JSON lines), and the loading (load.c).
 *
 * Input is a run folder (DIR/records.jsonl) or a .jsonl file, "-" for stdin.
 * A line may carry a console prefix ("FSB: {...}"): everything before the
 * first '{' is ignored, and a line without '{' is skipped. Records are
 * grouped by run_id; one file may hold several runs.
 *
 * Loading parses everything first and fails on the first malformed line, so
 * a caller prints either a whole report or nothing.
 */
#ifndef FSB_REPORT_MODEL_H
#define FSB_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REP_MAX_LINE (1024u * 1024u)	/* longer lines are malformed */
#define REP_MAX_EVENTS 100		/* error records kept per run for listing */
#define REP_MAX_DISKS 64		/* disks of a refusal kept for listing */
#define REP_LAYOUT_FIRST 8		/* first_blocks kept per layout record */
#define REP_LAYOUT_PICTURE 1024		/* name_blocks, inode_blocks kept per record */
#define REP_CMP_TOLERANCE 0.10		/* a comparison's tolerance unless told (compare's
					 * --tolerance; a variant against its base), a fraction */

/* Latency percentiles of a phase, nanoseconds, in this order. */
enum { LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_MAX, LAT_MEAN, LAT_N };

struct rep_phase {
	const char *fs;		/* points at the run's rep_fs name */
	unsigned round;
	char *phase;		/* create, stat, read, read_inode, delete, ... */
	char *order;		/* may be NULL */
	int cold;		/* 1, 0, or -1 when absent */
	double seconds;
	uint64_t files, bytes;
	double files_per_s;	/* from the record, or files / seconds */
	int have_lat;
	double lat_ns[LAT_N];	/* negative when a percentile is absent */
	uint64_t errors, verify_errors;
	int verified;		/* "verified": 1, 0, or -1 when absent */
	unsigned workers;
	double sync_seconds;	/* negative when absent */
	char *trim;		/* fstrim: "ok" or "not supported: ..."; NULL for the others */
	size_t line;		/* line number in the input, for messages */
	unsigned rep;		/* the record's repetition (`rep`, 1 when absent) */
	unsigned nrep;		/* the repetitions this row is the median of (1: a run
				 * without repetitions; report/load/load_reps.c) */
	int after_aging;	/* a round run again after the file server's aging */
};

struct rep_fs {
	char *name;		/* the column: a filesystem, or a variant FS:NAME */
	char *status;		/* from fs_end; NULL when there was none */
	char *reason;
	size_t nphases;
	/* fs_start: the base filesystem (its variant.base, else the name
	 * up to ':'), and for a variant its row; each may be NULL */
	char *base;
	int variant;		/* fs_start has a variant object */
	char *v_mkfs, *v_mount, *v_source;	/* the variant's mkfs arguments, mount options, where defined */
	char *v_unsafe;		/* a built-in variant marked unsafe: why; NULL for the others */
	char *mkfs_argv;	/* mkfs.argv: the command as run */
	char *mount_opts;	/* the mount options as given to mount */
	char *mi_opts, *mi_super;	/* mountinfo: as the kernel reports them */
	char *device;		/* fs_start: the device made and mounted */
	char *zoned_mode;	/* fs_start on a zoned target: native, metadata on ... */
	char *zoned_device;	/* fs_start: the zoned target beside device (f2fs) */
};

/* An `error` or `verify_error` record, kept for listing. */
struct rep_event {
	int verify;		/* 1 for verify_error */
	char *fs, *phase, *file, *msg;	/* each may be NULL */
	char *op;		/* error: "op"; verify_error: "what" (verify, size) */
	long round;		/* 0 when absent */
	long err_no;		/* 0 when absent */
	int fatal;
	uint64_t offset, count;	/* verify_error: the first wrong byte and how many
				 * are wrong; for "size", the size found and expected */
};

/* A disk the runner saw, from the "disks" list of a refusal (an error
 * record with "refused": true): what the user can name as the target. */
struct rep_disk {
	char *path, *model, *serial, *transport, *partlabel;	/* each may be NULL */
	uint64_t size;
};

/* A `layout` record: where one directory's files sit on the disk (FIEMAP),
 * in file-name order and in inode order. */
struct rep_layout_order {
	double forward;		/* fraction of steps to a higher disk offset, 0..1 */
	double near;		/* fraction of steps within 64 KiB after the previous end */
	uint64_t median_jump;	/* median distance between consecutive files, 4 KiB blocks */
};

struct rep_layout {
	const char *fs;		/* points at the run's rep_fs name */
	unsigned round;
	char *error;		/* the error variant ("no FIEMAP on this filesystem"):
				 * the numbers below are absent; NULL otherwise */
	uint64_t files;
	struct rep_layout_order name, inode;
	uint64_t first[REP_LAYOUT_FIRST];	/* name order, 4 KiB block numbers */
	size_t nfirst;
	/* name_blocks and inode_blocks: the picture's 4 KiB block numbers of
	 * files sampled evenly in name order [0] and inode order [1]; NULL
	 * when the record has none (an older runner) */
	uint64_t *pic[2];
	size_t npic[2];
	size_t line;
};

/* A `freespace` record: the evidence on fragmentation of one filesystem
 * after a round's reads. Each part is there (have_*), or has the reason it
 * is missing (*_error), or neither (not this filesystem's). */
struct rep_freespace {
	char *fs;
	unsigned round;
	int have_statfs;
	uint64_t size_bytes, statfs_free;
	int have_extents;	/* free_extents: GETFSMAP */
	uint64_t extents, free_bytes, largest_bytes;
	int have_score;		/* defrag: e4defrag -c */
	uint64_t score;
	int have_btrfs;		/* btrfs: btrfs filesystem usage -b */
	uint64_t b_size, b_allocated, b_used, b_free;
	uint64_t b_data_size, b_data_used;	/* the Data chunks, every profile */
	int have_f2fs;		/* f2fs: segment_info, sysfs */
	uint64_t f_segments, f_empty, f_full, f_partial, f_partial_valid, f_bps;
	uint64_t f_dirty;	/* sysfs dirty_segments; UINT64_MAX when absent */
	char *error;		/* the parts' reasons, "part: reason; ..." or NULL */
	size_t line;
};

/* A `kmsg` record: a kernel message at warning level or above during the
 * run, tagged with the phase it appeared in; or a `kmsg_dropped` record:
 * how many more there were than the runner records per phase. */
struct rep_kmsg {
	char *fs;		/* NULL outside a filesystem */
	unsigned round;		/* 0 outside a round */
	char *phase;		/* a phase, or "between" */
	char *text;		/* NULL for a kmsg_dropped record */
	int cut;		/* the runner kept only the start of the text */
	uint64_t ts_usec;	/* the kernel's timestamp, microseconds */
	int level;		/* 0 emerg .. 4 warning */
	int facility;		/* 0 kern, 1 user, ...; -1 when absent */
	uint64_t dropped;	/* kmsg_dropped: messages not recorded */
	size_t line;
};

/* A number of a health record: a whole number (neg: below zero, n its
 * size), the digits of one too large for 64 bits, or absent. */
struct rep_hnum {
	int have, neg;
	uint64_t n;
	char *digits;	/* NULL unless the record wrote the number as digits */
};

/* The SMART / health log fields the report keeps, in the order it shows
 * them. */
enum rep_smart_field {
	REP_SM_CRITICAL_WARNING, REP_SM_TEMPERATURE_K, REP_SM_AVAILABLE_SPARE,
	REP_SM_PERCENTAGE_USED, REP_SM_DATA_UNITS_READ, REP_SM_BYTES_READ,
	REP_SM_DATA_UNITS_WRITTEN, REP_SM_BYTES_WRITTEN, REP_SM_HOST_READ_COMMANDS,
	REP_SM_HOST_WRITE_COMMANDS, REP_SM_MEDIA_ERRORS, REP_SM_ERROR_LOG_ENTRIES,
	REP_SM_UNSAFE_SHUTDOWNS, REP_SM_POWER_CYCLES, REP_SM_POWER_ON_HOURS, REP_SM_N
};
/* Each field's name in the record's nvme_smart, and in its delta.nvme_smart
 * (NULL: no difference recorded). */
extern const char *const rep_smart_key[REP_SM_N];
extern const char *const rep_smart_delta_key[REP_SM_N];

/* The ATA SMART fields the report keeps: the error counters (the ones the
 * delta holds) first, REP_ATA_DN of them, then the others. */
enum { REP_ATA_DN = 6, REP_ATA_N = 9 };
extern const char *const rep_ata_key[REP_ATA_N];
/* The ATA error counters of a health record's delta.ata_smart (the first
 * REP_ATA_DN of rep_ata_key). */
extern const char *const rep_ata_delta_key[REP_ATA_DN];

enum { REP_HEALTH_BEFORE, REP_HEALTH_AFTER, REP_HEALTH_N };

/* What a `health` record says of the target's bus and its flash, for the
 * verdict's inventory and flash keys (report/load/load_inventory.c). A
 * text is NULL when the record lacks it; a part that is a string
 * ("not available: ...") has it in its *_na. Numbers absent are NaN, or
 * -1 for the raw bytes. */
struct rep_inventory {
	char *bus;			/* `bus`: nvme, sata, usb, mmc, scsi, virtio, other */
	int have_sata, have_usb, have_mmc;	/* the part is an object */
	char *sata_na, *sata_speed, *sata_limit;
	double sata_gbps;
	char *usb_na, *usb_version, *usb_transport;
	double usb_mbps;
	char *mmc_na, *mmc_type, *mmc_name, *mmc_timing;
	int have_flash;			/* `flash` is an object */
	char *flash_na, *flash_kind, *flash_product, *flash_timing;
	char *life[2];			/* life_a, life_b: the band, or the reason */
	int life_raw[2], life_pct[2];	/* -1 when absent */
	char *pre_eol;			/* the text, or the reason */
	int pre_eol_raw;		/* -1 when absent */
	/* the after record's delta.flash: an object (what changed: life_a,
	 * life_b, pre_eol, each "BEFORE -> AFTER" or NULL), or the reason */
	int have_flash_delta;
	char *flash_delta[3], *flash_delta_na;
};

/* A `health` record: the target disk before the first filesystem or after
 * the last. A part the runner could not read has its reason
 * ("not available: ...") instead of values. The report's health table and
 * the verdict's disk checks (report/verdict/judge.c) both read it. */
struct rep_health {
	int have;
	char *device, *transport;
	char *bus_summary;	/* the bus parts in one line (NULL in older records) */
	char *smart_na, *ata_na, *pcie_na, *temp_na;	/* each NULL, or the reason */
	struct rep_hnum smart[REP_SM_N];
	int have_ata;		/* ata_smart is an object */
	char *ata_overall, *ata_error_na;	/* "passed"/"failing"; the error log's reason */
	struct rep_hnum ata[REP_ATA_N];
	char *pcie_speed, *pcie_width, *pcie_max_speed, *pcie_max_width;
	int pcie_at_max;	/* 1, 0, or -1 when absent */
	int have_temp;
	double temp_c;
	char *temp_source;
	/* the after record: the difference */
	int have_delta;
	char *delta_smart_na;	/* the reason there is no SMART difference */
	struct rep_hnum delta[REP_SM_N];
	char *went_backwards;	/* counters that went backwards, or NULL */
	char *delta_ata_na;	/* the reason there is no ATA difference, or NULL */
	int have_ata_delta;
	struct rep_hnum delta_ata[REP_ATA_DN];
	int have_temp_delta;
	double temp_delta;
	int pcie_changed;	/* 1, 0, or -1 when absent */
	size_t line;
	struct rep_inventory inv;	/* the bus and the flash */
};

/* One check of a `verdict` record. */
struct rep_check {
	char *what, *measured, *limit, *where;	/* each may be NULL */
	int pass;
	/* "pass", "fail", "error", "skip" (NULL in older records: pass says),
	 * why an error or skip, the known issue that matched */
	char *result, *why, *known, *known_where, *known_until;
	int known_expired;
};

/* A `fio` record: one fio workload on a filesystem or on the raw target
 * (fs "raw"); [0] read, [1] write. Numbers absent are negative. */
struct rep_fio {
	char *fs, *workload, *status, *msg;	/* msg may be NULL */
	double iops[2], mib_s[2];
	double p99_ns[2];	/* completion latency */
	uint64_t errors;
	size_t line;
};

/* A `fill` record: the 4 KiB random write before [0] and after [1] the
 * fill, delete and fill again. Numbers absent are negative. */
struct rep_fill {
	char *fs, *status, *msg;	/* msg may be NULL */
	double level;		/* fraction, as df shows it */
	double iops[2], p99_ns[2];
	uint64_t files;		/* written in all */
	size_t line;
};

/* A `space` record: the bytes a store (files, sqlite, pack) took on disk
 * after its write phase. */
struct rep_space {
	char *fs, *store;
	unsigned round;
	uint64_t files, bytes;	/* the files stored and their bytes */
	int have_disk;
	uint64_t disk_bytes;
	size_t line;
};

/* A `powercut` record: one power-cut cycle's check (run/engine/pccheck.c). */
struct rep_powercut {
	char *fs, *fsck, *mount;
	char *bad;		/* "w01/s017 lost, ..." or NULL */
	char *lost_files;	/* the lost files' names, "w01/s017, w02/s003", or NULL */
	char *torn_files;	/* the torn ones, the same way */
	unsigned cycle, cycles;
	double cut_s, ops_per_s, seconds;
	uint64_t acked, files, verified, in_flight, lost, torn;
	size_t line;
};

/* The `capacity` record: the check of the target's size before the
 * filesystems (the last record of the run wins). */
struct rep_capacity {
	int have;
	char *device;
	char *found;		/* not honest: what the first bad offset held; else NULL */
	uint64_t claimed, verified;
	int honest;
	int have_alias;
	uint64_t alias_offset, alias_of;
	uint64_t written, read, ios;
	double seconds;
	size_t line;
};

/* A `sustain` record and the per-second series of its `sustain_series`
 * records (run/stores/sustain.c). */
struct rep_sustain {
	char *fs, *workload, *status;
	char *msg;		/* a failed one's reason, or NULL */
	char *temp_source;	/* the temperature's source, or "not available: ..." */
	double mib_per_s;	/* fio's mean; NaN when absent */
	double first_s;		/* the end of sample 0, seconds after the start */
	unsigned runtime, share_pct, base_s, hold_s, rise_c;
	uint64_t samples;	/* as the record says */
	double *mib, *celsius;	/* the series, n samples (NaN: not there) */
	size_t n, cap;
	size_t line;
};

/* A `fileserver` record (run/engine/fileserver.c): the file-server
 * workload on one filesystem, fresh or aged. Numbers absent are NaN. */
enum { REP_FSV_CREATE, REP_FSV_APPEND, REP_FSV_READ, REP_FSV_DELETE, REP_FSV_STAT, REP_FSV_NOPS };
extern const char *const rep_fsv_op_name[REP_FSV_NOPS];	/* "create", ... (load/load_fileserver.c) */
struct rep_fsv_op {
	uint64_t ops, bytes;
	double ops_per_s;
	double p50, p90, p99, max;	/* ns */
};
struct rep_fileserver {
	char *fs, *state, *status;
	char *msg;		/* a failed one's reason, or NULL */
	double ops_per_s, mib_per_s, seconds, level;
	double aging_level;	/* aged: the level the aging left; NaN otherwise */
	uint64_t files, mean_size, workers, runtime, ops, errors, verify_errors;
	struct rep_fsv_op op[REP_FSV_NOPS];
	size_t line;
};

/* A `repeat` record: where a column's repetitions ended (`repeat = auto`),
 * each phase's interval. Numbers absent are NaN. */
struct rep_repeat_phase {
	unsigned round;
	char *phase;
	unsigned n, converged_at;	/* converged_at: 0 when absent */
	double median, lo, hi, ci_pct;
	int converged;
};

struct rep_repeat {
	char *fs;
	unsigned reps, max, width_pct;
	int converged;
	struct rep_repeat_phase *ph;
	size_t nph;
	size_t line;
};

/* The `discard_check` record: a discarded range of the target read back
 * (the last record of the run wins). */
struct rep_discard {
	int have;
	char *device, *status;	/* status: ok, not zero, not run: ..., failed: ... */
	uint64_t nonzero;	/* bytes that were not 0 */
	size_t line;
};

/* The `control` record: the run's conditions (run/engine/control.h), the
 * samples of each item, seconds; n 0 for an item the record lacks. */
enum { REP_CTL_CPU, REP_CTL_COPY, REP_CTL_TMPFS, REP_CTL_N };
struct rep_control {
	int have;
	double *v[REP_CTL_N];
	size_t n[REP_CTL_N];
	uint64_t size[REP_CTL_N];	/* each item's work: cpu_iterations,
					 * copy_bytes, tmpfs_files (0: not said) */
	size_t line;			/* the first control record's */
	size_t records;			/* control records pooled: the start's,
					 * one after each filesystem */
};

/* One setting of run_start's config: "sustain_seconds" = "120". */
struct rep_setting {
	char *key, *value;
};

struct rep_run {
	char *run_id;
	int have_start, have_end;
	/* run_start: host, target and config summary (each may be NULL) */
	char *hostname, *kernel, *machine, *cpu_model, *cpus, *mem_bytes;
	char *kernel_build;	/* run_start host.kernel_build: uname -v */
	char *target_path, *target_model, *target_serial, *target_size;
	char *target_spec;	/* config "target": how the user named it */
	char *profile, *cfg_fs, *dirs, *files, *file_size, *workers, *rounds;
	/* run_start config: every setting with a scalar value, as the record
	 * has it (numbers as written), in its order: the settings table's
	 * (report/measures.c reads them); a later run_start replaces them */
	struct rep_setting *cfg;
	size_t ncfg;
	char *mode, *version;
	char *time_unix;	/* run_start: the wall clock at the start, seconds */
	char *dt_model, *dmi_product;	/* host: devicetree model, DMI product name */
	char *kmsg_source;	/* run_start "kmsg": the kernel log read, or
				 * "not available: ..."; NULL when not said */
	/* run_end */
	char *status;
	long exit_code;
	double seconds;
	long long kmsg_lost;	/* run_end: messages overwritten before they
				 * were read; -1 when absent */

	struct rep_fs *fs;	/* in order of first appearance */
	size_t nfs, capfs;
	struct rep_phase *ph;	/* in input order */
	size_t nph, capph;
	struct rep_event *ev;	/* the first REP_MAX_EVENTS */
	size_t nev, capev, nev_total;
	struct rep_disk *disk;	/* the first refusal's disk list */
	size_t ndisk;
	struct rep_layout *lay;	/* in input order; the same fs and round twice:
				 * the later record replaces the earlier */
	size_t nlay, caplay;
	struct rep_freespace *fsp;	/* freespace records, in input order; the
					 * same fs and round twice: the later wins */
	size_t nfsp, capfsp;
	struct rep_kmsg *km;	/* kmsg and kmsg_dropped records, in input order */
	size_t nkm, capkm;
	uint64_t kmsg_recorded;	/* kmsg records */
	uint64_t kmsg_dropped;	/* the counts of the kmsg_dropped records */
	uint64_t kmsg_max;	/* their "max": records kept per phase; 0 when none */
	struct rep_health health[REP_HEALTH_N];	/* the later record of each wins */
	size_t nerrors, nverify_errors;	/* error and verify_error records */
	char *target_pcie_speed, *target_pcie_width;	/* run_start target */
	char *target_write_cache, *target_fua;	/* run_start target: "write back", "true" */
	/* run_start target.zoned (a zoned block device) and zoned_conv; each
	 * may be NULL */
	char *zone_model, *zone_bytes, *zone_count, *zone_max_open, *zone_max_active;
	char *zone_cap_min, *zone_conventional, *zoned_conv_path;
	struct rep_fio *fio;	/* fio records, in input order */
	size_t nfio, capfio;
	struct rep_fill *fill;	/* fill records, in input order */
	size_t nfill, capfill;
	struct rep_space *sp;	/* space records, in input order */
	size_t nsp, capsp;
	struct rep_powercut *pc;	/* powercut records, in input order */
	size_t npc, cappc;
	struct rep_capacity cap;	/* the capacity check, when the run made one */
	struct rep_sustain *sus;	/* sustain records, in input order */
	size_t nsus, capsus;
	struct rep_fileserver *fsv;	/* fileserver records, in input order */
	size_t nfsv, capfsv;
	struct rep_discard dc;		/* the discard read-back, when the run made one */
	/* repetitions (setting repeat; report/load/load_reps.c): with any
	 * record's rep above 1, ph holds one row per fs, round and phase, the
	 * median of its repetitions, and raw every phase record as loaded */
	unsigned reps;		/* the highest rep of a phase record (0: none) */
	struct rep_phase *raw;	/* NULL for a run without repetitions */
	size_t nraw;
	struct rep_repeat *rpt;	/* repeat records, in input order */
	size_t nrpt, caprpt;
	struct rep_control ctl;		/* the run's conditions; the last record wins */
	/* the last `verdict` record: its checks */
	int have_verdict;
	int verdict_strict;	/* its "strict": known failures counted */
	struct rep_check *chk;
	size_t nchk;
};

struct rep_set {
	char *path;		/* the file actually read */
	struct rep_run **runs;	/* in order of first appearance */
	size_t nruns, capruns;
	size_t lines, records;
};

/* Resolve RUN (folder -> folder/records.jsonl) and load it. Returns 0,
 * -errno when the input cannot be opened or read, -EBADMSG for a malformed
 * line, -ENOMEM. On error, err holds "PATH: reason" or "PATH:LINE: reason". */
int rep_load(struct rep_set *set, const char *run, char *err, size_t errlen);
/* Load from an open stream; name is used in messages. */
int rep_load_stream(struct rep_set *set, FILE *f, const char *name,
		    char *err, size_t errlen);
void rep_free(struct rep_set *set);
/* A run by id (exact, or a unique prefix); id NULL = the last run. NULL when
 * there is no such run, or the prefix is ambiguous. */
const struct rep_run *rep_find(const struct rep_set *set, const char *id);

#endif
