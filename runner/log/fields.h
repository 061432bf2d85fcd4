/* fields.h: every record type and every field name a record may hold, as
 * identifiers. An emitter starts a record of type FSB_REC_phase and writes
 * rec_u64(&r, K(files), n): a type or a field name that is not in these
 * lists does not compile (`'FSB_K_filez' undeclared`). K(name) is the
 * string "name", a constant fit for a static initializer.
 *
 * The lists are the union of log/schema.c's rows, sorted; a name here that
 * no row uses fails tests/unit/test_schema.c. Which fields a record of a
 * type may hold is log/schema.c's; `fsbench log check` and the tests check
 * the records of real runs against it. */
#ifndef FSB_FIELDS_H
#define FSB_FIELDS_H

#define FSB_REC_TYPES(X) \
	X(run_start) X(note) X(fs_start) X(phase_start) X(phase) X(verify_error) \
	X(error) X(layout) X(freespace) X(kmsg) X(kmsg_dropped) X(health) X(space) \
	X(mkfs) X(fio) X(fill) X(capacity) X(powercut_arm) X(powercut_ack) X(powercut) X(fs_end) X(run_end) \
	X(discard_check) X(sustain) X(sustain_series) X(verdict) \
	X(repeat) \
	X(fileserver) \
	X(control) \

#define FSB_REC_ENUM_(n) FSB_REC_##n,
enum fsb_rec_type { FSB_REC_TYPES(FSB_REC_ENUM_) FSB_REC_N };

/* The name of a record type, a string constant. */
#define FSB_REC_NAME(n) (&#n[0 * FSB_REC_##n])

#define FSB_FIELD_NAMES(X) \
	X(acknowledged) X(after) X(alias_of) X(alias_offset) X(allocated) X(argv) \
	X(at) X(at_max) X(ata_smart) X(attributes) X(avail_bytes) X(available_spare) \
	X(available_spare_threshold) X(bad) X(bad_blocks) X(base) X(base_s) \
	X(batch_ms) X(before) X(bios_date) X(bios_vendor) X(bios_version) X(bkops) \
	X(block_size) X(blocks_per_segment) X(board_name) X(board_vendor) \
	X(boot_kib) X(boot_partition) X(bs) X(btrfs) X(bw_bytes) X(bytes) \
	X(bytes_read) X(bytes_written) X(cache_kib) X(cache_on) X(card_modes) \
	X(celsius) X(changed) X(check) \
	X(checkpoints) X(checks) X(claimed_bytes) X(clean_segments) X(cleaner) X(class) X(clat_ns) X(cold) X(config) \
	X(controller_busy_time_min) X(count) X(cpu_model) X(cpus) \
	X(critical_warning) X(current) X(current_pending_sectors) X(cut) X(cut_s) \
	X(cycle) X(cycle_seed) X(cycles) X(data_units_read) X(data_units_written) \
	X(defrag) X(delete) X(delete_pct) X(delta) X(dev) X(device) X(device_size) \
	X(device_version) X(dir) X(dirty_segments) X(discard) X(disk_bytes) X(disks) \
	X(dlfeat) X(dmi) X(dt_model) \
	X(empty_segments) X(enospc) X(errno) X(error) X(error_count) \
	X(error_log_entries) X(errors) X(exit_code) X(exit_status) X(expected_size) \
	X(ext_csd_rev) X(extents_best) X(extents_max) X(extents_mean) X(extents_now) X(f2fs) \
	X(facility) X(failed) X(fatal) X(file) X(file_disk_bytes) X(file_size) \
	X(filename) X(files) X(files_per_s) X(fill) X(fill_pct) X(final) \
	X(fio_version) X(firmware) X(first_bad) X(first_blocks) X(first_nonzero) \
	X(first_s) X(flash) X(for) X(forward) X(found) X(free_bytes) \
	X(free_estimated) X(free_extents) X(free_segments) X(from) X(fs) X(fs_bytes) \
	X(fs_failed) X(fs_ok) X(fsck) X(full_segments) X(gc_background_calls) \
	X(gc_foreground_calls) X(granularity) X(guard_crc) X(hold_s) X(honest) \
	X(host) X(host_read_commands) X(host_write_commands) X(hostname) \
	X(hs_timing) X(id) X(in_flight) X(index) X(inline) X(inode) X(inode_blocks) \
	X(inode_order) X(io_bytes) X(iodepth) X(iops) X(iops_ratio) X(ios) X(kernel) \
	X(kernel_build) X(kernel_seq) X(kind) X(kmsg) X(kmsg_clock) \
	X(kmsg_clock_offset_us) X(kmsg_dropped) X(kmsg_lost) X(kmsg_recorded) \
	X(largest_bytes) X(lat_ns) X(lead) X(length) X(level) X(life_a) \
	X(life_a_pct_max) X(life_a_raw) X(life_b) X(life_b_pct_max) X(life_b_raw) \
	X(limit) X(limits) X(log) X(logical_block) X(loop_backing_file) \
	X(loop_direct_io) X(lost) X(machine) X(manufacturer) X(manufacturer_id) \
	X(mapped) X(max) X(max_bytes) X(max_hw_bytes) X(max_speed) X(max_width) \
	X(mean) \
	X(mean_bytes) X(measured) X(media_errors) X(median_jump_blocks) X(mem_bytes) \
	X(mib_per_s) X(mkfs) X(mnt) X(mnt_id) X(mnt_id_unique) X(mode) X(model) \
	X(mount) X(mount_opts) X(mountinfo) X(moved_blocks_background) \
	X(moved_blocks_foreground) X(msg) X(name) X(name_blocks) X(name_order) \
	X(near) X(new_critical_warning) X(nonzero_bytes) X(numjobs) X(nvme_smart) \
	X(offline_uncorrectable) X(offset) X(op) X(ops) X(ops_per_s) X(opts) \
	X(order) X(overall) X(ovp_segments) X(p50) X(p90) X(p99) X(p999) \
	X(partial_segments) X(partial_valid_blocks) X(partition) X(partlabel) \
	X(pass) X(path) X(pcie_link) X(pcie_link_changed) X(pcie_link_speed) \
	X(pcie_link_width) X(percentage_used) X(phase) X(physical_block) \
	X(power_cycles) X(power_on_hours) X(pre_eol) X(pre_eol_raw) X(probe_size) X(product) X(product_name) X(profile) \
	X(profiles) X(raw) X(read) X(reallocated_sectors) X(reason) X(refused) \
	X(reported_uncorrectable) X(reserved_blocks) X(result) X(revision) \
	X(rewrite) X(rise_c) X(rotational) X(round) X(rpmb_kib) X(run_id) X(runtime) \
	X(runtime_s) X(rw) X(rwmixread) X(samples) X(schema) X(score) X(seconds) \
	X(seed) X(segments) X(seq) X(serial) X(share_pct) X(signal) \
	X(signatures_read) X(signatures_written) X(size) X(size_bytes) X(source) \
	X(span_seconds) X(spec) X(speed) X(statfs) X(status) X(steps) X(store) \
	X(stride_bytes) X(strobe_support) X(super_opts) X(support) X(sync_seconds) \
	X(sys_vendor) X(t) X(target) X(temp_source) X(temperature) \
	X(temperature_celsius) \
	X(temperature_k) X(text) X(time_unix) X(timed_out) X(tool) X(torn) \
	X(transport) X(trim) X(ts_usec) X(type) X(udma_crc_errors) X(unallocated) \
	X(unsafe_shutdowns) X(unusable) X(used) X(used_after) X(used_before) \
	X(unsafe) X(used_delta) X(variant) X(verified) X(verified_bytes) X(verify_errors) \
	X(version) X(walk) X(went_backwards) X(what) X(when) X(where) X(width) \
	X(window) X(worker) X(worker_seconds) X(workers) X(workload) X(worst) \
	X(bus) X(cid) X(csd) X(date) X(manfid) X(mmc) X(oemid) X(port) X(rev) \
	X(sata_link) X(scsi) X(speed_gbps) X(speed_mbps) X(timing) X(timing_why) \
	X(usb) X(vendor) X(write) X(write_zeroes_dealloc) X(write_zeroes_max_bytes) \
	X(written) X(wwn) \
	X(known) X(known_expired) X(known_until) X(known_where) X(skipped) X(strict) X(why) \
	X(ci_pct) X(converged) X(converged_at) X(hi) X(lo) X(median) X(n) X(nilfs2) X(phases) \
	X(rep) X(reps) X(width_pct) \
	X(copy_bytes) X(copy_s) X(cpu_iterations) X(cpu_s) X(tmpfs) X(tmpfs_files) X(tmpfs_s) \
	X(quiet) X(quiet_wait_s) X(target_ios) \
	X(after_aging) X(aging) X(append) X(append_mean) X(create) X(deleted) X(dirs) X(dirwidth) \
	X(fileset_bytes) X(iosize) X(mean_size) X(peak) X(prealloc_bytes) X(prealloc_files) \
	X(prealloc_s) X(shape) X(stat) X(state) \
	X(capacity_max_bytes) X(capacity_min_bytes) X(cond_closed) X(cond_empty) X(cond_full) \
	X(cond_offline) X(cond_open) X(cond_readonly) X(conventional) X(fs_refused) X(max_active_zones) \
	X(max_open_zones) X(report) X(seq_preferred) X(seq_required) X(written_bytes) X(zone_bytes) \
	X(zoned) X(zoned_conv) X(zoned_device) X(zoned_mode) X(zones) \
	X(fua) X(write_cache) \
	X(cpu_policy) X(cpus_used) X(lockstep) X(sysfs) \

#define FSB_KEY_ENUM_(n) FSB_K_##n,
enum fsb_key { FSB_FIELD_NAMES(FSB_KEY_ENUM_) FSB_K_N };

/* A field name: K(files) is "files", and K(filez) does not compile. */
#define K(n) (&#n[0 * FSB_K_##n])

#endif
