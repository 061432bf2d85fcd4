/* keys.c: the keys of a criteria file, one row each (rules.h), and the
 * table as docs: `fsbench help criteria [--markdown|--scdoc]`. */
#include "report/verdict/rules.h"

#include <stdio.h>

const char *const vd_rounds_name[3] = { "all", "fresh", "aged" };
const char *const vd_rounds_text[3] = { "all rounds", "fresh, round 1", "aged, rounds 2+" };

/* A phase key, NAME.[FS.]PHASE[.ROUNDS]: the worst round taken against a
 * floor (floor 1) or a ceiling. */
#define PHASE_KEY(measure_, what_, unit_, floor_) \
	.phase = 1, .value = "a number > 0", .parse = vd_parse_phase, .eval = vd_eval_phase, \
	.measure = measure_, .what = what_, .unit = unit_, .floor = floor_

/* The order is the docs'. A criteria file written from a run has its
 * keys in the order of rank[VD_TO_FILE], a baseline's rules in the order
 * of rank[VD_TO_BASELINE]. */
const struct vd_key vd_keys[] = {
	{ "min_files_per_s", PHASE_KEY(vd_files_per_s, "files/s", "files/s", 1),
	  .help = "floor of files per second: every round taken (the worst) must reach it",
	  .derive = vd_derive_floors, .rank = { 7, 0 } },
	{ "max_seconds", PHASE_KEY(vd_seconds, "seconds", "s", 0),
	  .help = "ceiling of a phase's seconds: every round taken (the worst) must stay under it" },
	{ "max_p99_us", PHASE_KEY(vd_p99_us, "p99 latency", "us", 0),
	  .help = "ceiling of the 99th percentile of the per-file latency, microseconds, in every round taken" },
	{ "verify", .value = "all",
	  .help = "every phase that reads checked every byte (`verified`) and found no mismatch",
	  .parse = vd_parse_all, .eval = vd_eval_verify, .derive = vd_derive_verify, .rank = { 2, 3 } },
	{ "errors", .value = "an integer >= 0",
	  .help = "most `error` records (failed syscalls, dead workers) the run may hold",
	  .parse = vd_parse_count, .eval = vd_eval_errors, .derive = vd_derive_zero, .rank = { 3, 2 } },
	{ "kmsg", .value = "an integer >= 0",
	  .help = "most kernel messages at warning level or worse (`kmsg` records, and the count "
		"of `kmsg_dropped` ones) the run may hold, not counting the ignored ones",
	  .parse = vd_parse_count, .eval = vd_eval_kmsg, .derive = vd_derive_kmsg, .rank = { 4, 4 } },
	{ "kmsg_ignore", .value = "patterns, comma-separated",
	  .help = "a kernel message whose text holds PATTERN is not counted (`*` matches any text); the key may repeat",
	  .parse = vd_parse_ignore },
	{ "health_new_errors", .value = "an integer >= 0",
	  .help = "most new disk errors between the `health` records before and after the run: "
		"media and data integrity errors, error log entries and newly set critical warning "
		"bits (NVMe); the increase of reallocated, reported uncorrectable, current pending "
		"and offline uncorrectable sectors, UDMA CRC errors and the error log count (ATA)",
	  .parse = vd_parse_count, .eval = vd_eval_health, .derive = vd_derive_health, .rank = { 5, 5 } },
	{ "temperature_max", .value = "a number (degrees Celsius)",
	  .help = "highest disk temperature any `health` record may show",
	  .parse = vd_parse_positive, .eval = vd_eval_temperature },
	{ "pcie_link", .value = "max, or SPEED xWIDTH (16GT/s x4)",
	  .help = "the disk's PCIe link: `max` is the device's maximum speed and width, or at "
		"least the speed and width given",
	  .parse = vd_parse_link, .eval = vd_eval_pcie },
	{ "fs_ok", .value = "filesystems, comma-separated",
	  .help = "each of these filesystems (or variants, FS:NAME) ran to the end (`fs_end` `ok`)",
	  .parse = vd_parse_fs_list, .eval = vd_eval_fs_ok, .derive = vd_derive_fs_ok, .rank = { 1, 1 } },
	{ "powercut_lost", .value = "an integer >= 0",
	  .help = "most files lost after power cuts per filesystem, over all its cycles "
		"(`powercut` records): an acknowledged file missing or shorter, an acknowledged "
		"delete undone; the check names them",
	  .parse = vd_parse_count, .eval = vd_eval_pc_lost, .derive = vd_derive_pc_none, .rank = { 8, 0 } },
	{ "powercut_torn", .value = "an integer >= 0",
	  .help = "most files torn after power cuts per filesystem: neither what was acknowledged "
		"nor what an operation in flight may leave (a replaced file mixed of old and new, "
		"garbage); the check names them",
	  .parse = vd_parse_count, .eval = vd_eval_pc_torn, .derive = vd_derive_pc_none, .rank = { 9, 0 } },
	{ "powercut_fsck", .value = "clean",
	  .help = "after every power cut the filesystem's checker found it clean (read-only, "
		"before the mount, or after the journal's replay) and it mounted",
	  .parse = vd_parse_clean, .eval = vd_eval_pc_fsck, .derive = vd_derive_pc_fsck, .rank = { 10, 0 } },
	{ "powercut_cycles", .value = "an integer >= 0",
	  .help = "at least this many power-cut cycles checked per filesystem of the run (`powercut` records)",
	  .parse = vd_parse_count, .eval = vd_eval_pc_cycles, .derive = vd_derive_pc_cycles, .rank = { 11, 0 } },
	{ "capacity", .value = "honest",
	  .help = "the target holds what it claims: the capacity check (setting `capacity`) read "
		"back every signature it wrote, none naming another offset; a failure names the "
		"real size and the first offset that aliases an earlier one",
	  .parse = vd_parse_honest, .eval = vd_eval_capacity, .derive = vd_derive_capacity, .rank = { 6, 7 } },
	{ "sustain_level", .value = "a percentage, 1 to 100",
	  .help = "per sustained write (`sustain` records: filesystem or raw, seq or rand), the "
		"throughput after its cliff must be at least this share of its first seconds' "
		"median; a write without a cliff passes (it held), 100 asks for no cliff at all; a "
		"write too short to judge, or failed, is not measured (runner/SUSTAIN.md)",
	  .parse = vd_parse_pct, .eval = vd_eval_sustain },
	{ "min_fileserver_ops_per_s", .value = "a number > 0",
	  .help = "floor of the file-server workload's operations per second (`fileserver` "
		"records: each filesystem, fresh and aged, must reach it); a failed run is not "
		"measured (runner/FILESERVER.md)",
	  .parse = vd_parse_positive, .eval = vd_eval_fsv_ops },
	{ "max_fileserver_append_p99_ms", .value = "a number > 0",
	  .help = "ceiling of the file-server workload's random append latency, its 99th "
		"percentile in milliseconds (`fileserver` records: each filesystem, fresh and aged)",
	  .parse = vd_parse_positive, .eval = vd_eval_fsv_append },
	{ "flash_pre_eol", .value = "normal, warning or urgent",
	  .help = "a ceiling on the flash's pre-EOL information (an eMMC's EXT_CSD PRE_EOL_INFO, a "
		"UFS device's bPreEOLInfo: the share of reserved blocks used; `warning` at 80 %, "
		"`urgent` at 90 %), the worst of the `health` records; a device that leaves it "
		"undefined (0x00) is not measured",
	  .parse = vd_parse_pre_eol, .eval = vd_eval_pre_eol, .derive = vd_derive_pre_eol, .rank = { 16, 0 } },
	{ "flash_life_used_max", .value = "a percentage (80%)",
	  .help = "a ceiling on the flash's life time used, over its estimations A and B (eMMC "
		"EXT_CSD DEVICE_LIFE_TIME_EST_TYP_A and B, UFS bDeviceLifeTimeEstA and B): the "
		"upper bound of the worst 10 % band (a band of 70-80 % passes 80%); beyond the "
		"estimated life fails any ceiling",
	  .parse = vd_parse_life, .eval = vd_eval_life },
	{ "target_model", .value = "a pattern (`*` matches any text)",
	  .help = "the target's model (run_start's target, else an eMMC's or SD card's name) "
		"matches the pattern; not derived from a run, as boards of one kind often carry "
		"disks of several makers",
	  .parse = vd_parse_pattern, .eval = vd_eval_model },
	{ "target_bus", .value = "nvme, sata, usb, mmc, scsi or virtio; several: any of them (`usb|scsi`)",
	  .help = "the bus the target hangs on (the `health` record's `bus`, else its `transport`)",
	  .parse = vd_parse_bus, .eval = vd_eval_bus, .derive = vd_derive_bus, .rank = { 12, 0 } },
	{ "usb_speed", .value = "a number > 0 (Mb/s)",
	  .help = "a floor on the USB speed the target came up at (`usb.speed_mbps` of the "
		"`health` records: 480 for USB 2 high speed, 5000 for SuperSpeed)",
	  .parse = vd_parse_usb_speed, .eval = vd_eval_usb_speed, .derive = vd_derive_usb_speed, .rank = { 13, 0 } },
	{ "mmc_timing", .value = "legacy, SDR12, SDR25, DDR50, SDR50, HS, DDR52, SDR104, HS200, HS400 or HS400ES",
	  .help = "a floor on the SD/eMMC bus timing the target came up in (`mmc.timing` of the "
		"`health` records, else an eMMC's EXT_CSD HS_TIMING), in the order of the list "
		"(their nominal rates; SD high speed counts as SDR25)",
	  .parse = vd_parse_timing, .eval = vd_eval_timing, .derive = vd_derive_timing, .rank = { 14, 0 } },
	{ "sata_link", .value = "a number > 0 (Gb/s)",
	  .help = "a floor on the SATA link speed the target came up at (`sata_link.speed_gbps` of "
		"the `health` records: 1.5, 3 or 6)",
	  .parse = vd_parse_sata_link, .eval = vd_eval_sata_link, .derive = vd_derive_sata_link, .rank = { 15, 0 } },
	{ "discard_zeroes", .value = "ok",
	  .help = "a range of the target written, discarded (BLKDISCARD) and read back (O_DIRECT) "
		"after the last filesystem held only zeroes: the `discard_check` record (setting "
		"`fstrim`), made where the disk promises zeroes after a deallocate (NVMe DLFEAT); "
		"a disk that does not promise it is not measured",
	  .parse = vd_parse_ok, .eval = vd_eval_discard },
	/* --baseline RUN: per filesystem and summary row, the baseline's
	 * median seconds and the spread between its rounds */
	{ "baseline", .eval = vd_eval_baseline, .derive = vd_derive_baseline, .rank = { 0, 6 } },
};
const size_t vd_nkeys = sizeof(vd_keys) / sizeof(vd_keys[0]);

void vd_keys_doc(FILE *f, enum fsb_doc_fmt fmt)
{
	char key[64];

	if (fmt == DOC_MARKDOWN)
		fputs("| key | value | check |\n|---|---|---|\n", f);
	for (size_t i = 0; i < vd_nkeys; i++) {
		const struct vd_key *k = &vd_keys[i];
		if (!k->value)
			continue;	/* not a key of a criteria file */
		snprintf(key, sizeof(key), "%s%s", k->name, k->phase ? ".[FS.]PHASE[.ROUNDS]" : "");
		switch (fmt) {
		case DOC_TEXT:
			fprintf(f, "  %s = %s\n      ", key, k->value);
			fsb_doc_put(f, fmt, k->help);
			fputc('\n', f);
			break;
		case DOC_MARKDOWN:
			fprintf(f, "| `%s` | ", key);
			fsb_doc_put(f, fmt, k->value);
			fputs(" | ", f);
			fsb_doc_put(f, fmt, k->help);
			fputs(" |\n", f);
			break;
		case DOC_SCDOC:
			fputc('*', f);
			fsb_doc_put(f, fmt, key);
			fputs("* = ", f);
			fsb_doc_put(f, fmt, k->value);
			fputs("\n\t", f);
			fsb_doc_put(f, fmt, k->help);
			fputs("\n\n", f);
			break;
		}
	}
	if (fmt == DOC_TEXT)
		fprintf(f, "  FS is a filesystem, a variant FS:NAME (a column of its own) or *\n"
			   "  (every one of the run), PHASE a phase or *,\n"
			   "  ROUNDS one of %s (round 1), %s (rounds 2 and later) or %s (the default).\n",
			vd_rounds_name[VD_FRESH], vd_rounds_name[VD_AGED], vd_rounds_name[VD_ALL]);
}
