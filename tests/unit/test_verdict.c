/* test_verdict.c: criteria files (report/verdict/criteria.h) and their
 * errors, each kind of check passing and failing, a baseline with its
 * spread, criteria written from a run and read back, the JUnit writer's
 * structure, and the key table (report/verdict/rules.h): every key parsed,
 * in the docs, derived in one place of each order.
 *
 * The run (RUN below): ext4 x 3 rounds (create 1.0, 1.1, 1.2 s for 1000
 * files: spread 18 % around the median 1.1; read 0.5 s fresh, 2.0 and 2.2
 * s aged; create p99 5 ms), xfs x 1 round then failed (an error record),
 * health records before and after (media errors 0 -> 1, error log entries
 * 2 -> 2, temperature 40 and 55 C, link 8 GT/s x4 of 16 GT/s x4) and two
 * kernel messages at warning level (an NVMe timeout in ext4 round 2 read,
 * an ACPI warning between phases) and one at info level (not counted). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/output.h"
#include "report/verdict/rules.h"
#include "records.h"
#include "unit.h"
#include "verdicts.h"

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"aa11\"," rest "}\n"
#define PH(fs, rd, ph, s, fps, p99, ver) REC("phase", "\"fs\":\"" fs "\",\"round\":" #rd \
	",\"phase\":\"" ph "\",\"seconds\":" #s ",\"files\":1000,\"files_per_s\":" #fps \
	",\"lat_ns\":{\"p99\":" #p99 "},\"errors\":0,\"verify_errors\":0,\"verified\":" #ver)

static const char RUN[] =
	REC("run_start", "\"host\":{\"hostname\":\"b1\"},\"target\":{\"model\":\"T\","
	    "\"pcie_link_speed\":\"8.0 GT/s PCIe\",\"pcie_link_width\":\"4\"},"
	    "\"config\":{\"profile\":\"smoke\"}")
	REC("health", "\"when\":\"before\",\"temperature\":{\"celsius\":40},\"nvme_smart\":{\"media_errors\":0,"
	    "\"error_log_entries\":2},\"pcie_link\":{\"speed\":\"8.0 GT/s PCIe\","
	    "\"max_speed\":\"16.0 GT/s PCIe\",\"width\":\"4\",\"max_width\":\"4\"}")
	REC("fs_start", "\"fs\":\"ext4\"")
	PH("ext4", 1, "create", 1.0, 1000, 5000000, false)
	PH("ext4", 1, "read", 0.5, 2000, 900000, true)
	REC("kmsg", "\"fs\":\"ext4\",\"round\":1,\"phase\":\"between\",\"ts_usec\":5000000,"
	    "\"level\":4,\"text\":\"ACPI Warning: SystemIO range conflicts\"")
	REC("kmsg", "\"phase\":\"between\",\"ts_usec\":5000001,\"level\":6,"
	    "\"text\":\"below warning: not counted\"")
	PH("ext4", 2, "create", 1.1, 909.1, 4000000, false)
	PH("ext4", 2, "read", 2.0, 500, 800000, true)
	REC("kmsg", "\"fs\":\"ext4\",\"round\":2,\"phase\":\"read\",\"ts_usec\":9000000,"
	    "\"level\":4,\"text\":\"nvme nvme0: I/O 12 QID 1 timeout, aborting\"")
	PH("ext4", 3, "create", 1.2, 833.3, 3000000, false)
	PH("ext4", 3, "read", 2.2, 454.5, 700000, true)
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\"")
	REC("fs_start", "\"fs\":\"xfs\"")
	PH("xfs", 1, "create", 3.0, 333.3, 9000000, false)
	REC("error", "\"fs\":\"xfs\",\"round\":1,\"phase\":\"read\",\"op\":\"read\",\"errno\":5,"
	    "\"msg\":\"Input/output error\",\"fatal\":true")
	REC("fs_end", "\"fs\":\"xfs\",\"status\":\"failed\",\"reason\":\"read: Input/output error\"")
	REC("health", "\"when\":\"after\",\"temperature\":{\"celsius\":55},\"nvme_smart\":{\"media_errors\":1,"
	    "\"error_log_entries\":2},\"pcie_link\":{\"speed\":\"8.0 GT/s PCIe\","
	    "\"max_speed\":\"16.0 GT/s PCIe\",\"width\":\"4\",\"max_width\":\"4\"}")
	REC("run_end", "\"status\":\"failed\",\"exit_code\":1");

/* A run without kernel message or health records. */
static const char BARE[] =
	REC("fs_start", "\"fs\":\"ext4\"")
	PH("ext4", 1, "create", 1.0, 1000, 5000000, false)
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\"");

static void test_parse_errors(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "errors = 0\nbogus = 1\n", "bad.conf:2: bogus: unknown key" },
		{ "max_seconds.ext4.create = abc\n", "bad.conf:1: max_seconds.ext4.create: bad value 'abc'" },
		{ "# c\n\nmin_files_per_s.ext5.create = 1\n", "bad.conf:3: min_files_per_s.ext5.create: unknown filesystem 'ext5'" },
		{ "max_seconds.ext4.read.old = 1\n", "bad.conf:1: max_seconds.ext4.read.old: unknown rounds 'old'" },
		{ "max_p99_us.reed = 1\n", "bad.conf:1: max_p99_us.reed: unknown phase 'reed'" },
		{ "max_seconds = 1\n", "bad.conf:1: max_seconds: unknown key" },
		{ "max_seconds.ext4.create = -1\n", "bad value '-1'" },
		{ "errors = 0.5\n", "bad.conf:1: errors: bad value '0.5'; allowed: an integer >= 0" },
		{ "verify = some\n", "bad.conf:1: verify: bad value 'some'; allowed: all" },
		{ "pcie_link = 16 x4\n", "bad.conf:1: pcie_link: bad value '16 x4'" },
		{ "fs_ok = ext4,zfs\n", "bad.conf:1: fs_ok: unknown filesystem 'zfs'" },
		{ "kmsg = 0\nkmsg_ignore =\n", "bad.conf:2: kmsg_ignore: an empty pattern" },
		{ "kmsg_ignore = , ,\n", "bad.conf:1: kmsg_ignore: an empty pattern" },
		{ "errors 0\n", "bad.conf:1: expected key = value" },
	};
	char path[] = "/tmp/fsb-verdict-XXXXXX", file[64], err[512];

	CHECK(mkdtemp(path) != NULL);
	snprintf(file, sizeof(file), "%s/bad.conf", path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vd_criteria c;
		FILE *f = fopen(file, "w");
		CHECK(f != NULL);
		if (!f)
			continue;
		fputs(cases[i].text, f);
		fclose(f);
		vd_suite_init(&c);
		err[0] = 0;
		CHECK(vd_criteria_file(&c, file, err, sizeof(err)) == -EINVAL);
		CHECK_CONTAINS(err, cases[i].want);
		vd_criteria_free(&c);
	}
	/* a good file: comments, quotes, a repeated and a listed kmsg_ignore */
	FILE *f = fopen(file, "w");
	if (f) {
		fputs("# the board's criteria\nmin_files_per_s.*.create.fresh = 500\n"
		      "max_seconds.ext4.read.aged = \"12\"\n; a comment\nkmsg_ignore = ACPI, EDAC\n"
		      "kmsg_ignore = usb*reset\npcie_link = 16GT/s x4\nfs_ok = ext4,xfs\n", f);
		fclose(f);
	}
	struct vd_criteria c;
	vd_suite_init(&c);
	CHECK(vd_criteria_file(&c, file, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.n, 4);
	CHECK_EQ_U(c.nignore, 3);
	CHECK_STR(c.ignore[1], "EDAC");
	CHECK_STR(c.rule[0].fs, "*");
	CHECK_STR(c.rule[0].phase, "create");
	CHECK(c.rule[0].rounds == VD_FRESH);
	CHECK(c.rule[1].rounds == VD_AGED && c.rule[1].limit == 12);
	CHECK(c.rule[2].limit == 16 && c.rule[2].width == 4);
	CHECK_STR(c.rule[1].where, "bad.conf:3");
	vd_criteria_free(&c);
	/* a missing file is not a bad value */
	vd_suite_init(&c);
	CHECK(vd_criteria_file(&c, "/nonexistent/criteria.conf", err, sizeof(err)) == -ENOENT);
	CHECK_CONTAINS(err, "criteria /nonexistent/criteria.conf: No such file");
	vd_criteria_free(&c);
	unlink(file);
	rmdir(path);
}

static void test_checks(const struct rep_run *r, const struct rep_run *bare)
{
	char m[512];

	/* floors in files/s: worst of the rounds taken */
	const struct vd_case phases[] = {
		{ r, "min_files_per_s.ext4.create", "800", 1, .has = "833.3 files/s, worst of 3 rounds (round 3)" },
		{ r, "min_files_per_s.ext4.create", "900", 0, .has = ">= 900 files/s" },
		{ r, "min_files_per_s.ext4.create.fresh", "900", 1, .has = "1000 files/s, round 1" },
		/* ceilings in seconds, aged vs fresh */
		{ r, "max_seconds.ext4.read.fresh", "1", .pass = 1 },
		{ r, "max_seconds.ext4.read.aged", "2.1", 0, .has = "2.2 s, worst of 2 rounds (round 3) | <= 2.1 s" },
		{ r, "max_seconds.ext4.read", "3", .pass = 1 },
	};
	VD_CASES(phases);
	/* p99 per phase: every filesystem of the run */
	struct vd_result res;
	CHECK(vd_judge(r, "max_p99_us.create", "6000", &res) == 0);
	CHECK_EQ_U(res.n, 2);	/* ext4 and xfs */
	CHECK(res.n == 2 && res.check[0].pass && !res.check[1].pass);
	CHECK(res.n == 2 && res.check[1].value == 9000);
	vd_result_free(&res);
	/* no such records: not measured, a failure */
	const struct vd_case unmeasured[] = {
		{ r, "max_seconds.btrfs.create", "1", 0, .has = "not measured" },
		{ r, "max_seconds.ext4.stat", "1", .pass = 0 },
		/* verification */
		{ r, "verify", "all", 1, .has = "3 of 3 reading phases verified, 0 verify errors" },
		/* errors */
		{ r, "errors", "0", .pass = 0 },
		{ r, "errors", "1", .pass = 1 },
		{ bare, "errors", "0", .pass = 1 },
		/* kernel messages, ignorable, and their absence */
		{ r, "kmsg", "0", 0, .has = "2, first in ext4, between phases: ACPI Warning" },
	};
	VD_CASES(unmeasured);
	{
		struct vd_criteria c;
		char err[256];
		vd_suite_init(&c);
		CHECK(vd_criteria_add(&c, "kmsg_ignore", "ACPI", "t:1", err, sizeof(err)) == 0);
		CHECK(vd_criteria_add(&c, "kmsg", "0", "t:2", err, sizeof(err)) == 0);
		CHECK(vd_evaluate(&c, r, &res) == 0);
		CHECK(res.n == 1 && !res.check[0].pass);
		if (res.n == 1)
			CHECK_CONTAINS(res.check[0].measured, "1 (1 ignored), first in ext4 round 2 read: nvme nvme0: I/O 12 QID 1 timeout");
		vd_result_free(&res);
		CHECK(vd_criteria_add(&c, "kmsg_ignore", "QID*timeout", "t:3", err, sizeof(err)) == 0);
		CHECK(vd_evaluate(&c, r, &res) == 0);
		CHECK(res.n == 1 && res.check[0].pass);
		vd_result_free(&res);
		vd_criteria_free(&c);
	}
	{
		/* the kernel log read and quiet: 0; unreadable: not measured;
		 * messages beyond the per-phase cap count, ignorable or not */
		static const char QUIET[] =
			REC("run_start", "\"kmsg\":\"/dev/kmsg\"")
			REC("run_end", "\"status\":\"ok\",\"kmsg_recorded\":0");
		static const char DENIED[] =
			REC("run_start", "\"kmsg\":\"not available: /dev/kmsg: Operation not permitted\"");
		static const char BURST[] =
			REC("run_start", "\"kmsg\":\"/dev/kmsg\"")
			REC("kmsg", "\"fs\":\"ext4\",\"round\":1,\"phase\":\"read\",\"ts_usec\":1,"
			    "\"level\":3,\"text\":\"EDAC: one\"")
			REC("kmsg_dropped", "\"fs\":\"ext4\",\"round\":1,\"phase\":\"read\","
			    "\"count\":40,\"max\":32");
		struct rep_set q;
		if (unit_load_text(&q, QUIET) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "kmsg", "0", m, sizeof(m)) == 1);
			CHECK_CONTAINS(m, "0 | <= 0");
		}
		rep_free(&q);
		if (unit_load_text(&q, DENIED) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "kmsg", "0", m, sizeof(m)) == 0);
			CHECK_CONTAINS(m, "not measured (not available: /dev/kmsg: Operation not permitted)");
		}
		rep_free(&q);
		if (unit_load_text(&q, BURST) == 0 && q.nruns == 1) {
			struct vd_criteria c;
			char err[128];
			vd_suite_init(&c);
			CHECK(vd_criteria_add(&c, "kmsg_ignore", "EDAC", "t:1", err, sizeof(err)) == 0);
			CHECK(vd_criteria_add(&c, "kmsg", "39", "t:2", err, sizeof(err)) == 0);
			CHECK(vd_evaluate(&c, q.runs[0], &res) == 0);
			CHECK(res.n == 1 && !res.check[0].pass);
			if (res.n == 1)
				CHECK_STR(res.check[0].measured, "40 (40 not recorded) (1 ignored)");
			vd_result_free(&res);
			vd_criteria_free(&c);
		}
		rep_free(&q);
	}
	CHECK(verdict1(bare, "kmsg", "0", m, sizeof(m)) == 0);
	CHECK_CONTAINS(m, "not measured (the run did not read the kernel log)");
	/* disk health */
	CHECK(verdict1(r, "health_new_errors", "0", m, sizeof(m)) == 0);
	CHECK_CONTAINS(m, "1 (media errors +1, error log entries +0, new critical warning bits 0)");
	{
		/* the after record's delta wins over the counters */
		static const char DELTA[] =
			REC("health", "\"when\":\"before\",\"nvme_smart\":\"not available: loop\"")
			REC("health", "\"when\":\"after\",\"nvme_smart\":{\"media_errors\":9},"
			    "\"delta\":{\"nvme_smart\":{\"media_errors\":0,\"error_log_entries\":3,"
			    "\"new_critical_warning\":5}}");
		static const char NA[] =
			REC("health", "\"when\":\"before\",\"nvme_smart\":\"not available: loop\"")
			REC("health", "\"when\":\"after\",\"nvme_smart\":\"not available: loop\","
			    "\"delta\":{\"nvme_smart\":\"not available: loop\"}");
		struct rep_set q;
		if (unit_load_text(&q, DELTA) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "4", m, sizeof(m)) == 0);
			CHECK_CONTAINS(m, "5 (media errors +0, error log entries +3, new critical warning bits 2)");
		}
		rep_free(&q);
		if (unit_load_text(&q, NA) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "0", m, sizeof(m)) == 0);
			CHECK_CONTAINS(m, "not measured");
		}
		rep_free(&q);
	}
	{
		/* a SATA disk: the ATA SMART error counters of the delta; a
		 * decrease (a pending sector reallocated) is no new error */
#define ATA_BEFORE REC("health", "\"when\":\"before\",\"transport\":\"sata\"," \
		       "\"nvme_smart\":\"not available: not an NVMe disk (transport sata)\"," \
		       "\"ata_smart\":{\"revision\":16,\"reallocated_sectors\":8,\"error_count\":4}")
#define ATA_AFTER(d) REC("health", "\"when\":\"after\",\"transport\":\"sata\"," \
		       "\"nvme_smart\":\"not available: not an NVMe disk (transport sata)\"," \
		       "\"ata_smart\":{\"revision\":16},\"delta\":{\"nvme_smart\":" \
		       "\"not available: not an NVMe disk (transport sata)\",\"ata_smart\":" d "}")
		static const char CLEAN[] = ATA_BEFORE ATA_AFTER(
			"{\"reallocated_sectors\":0,\"reported_uncorrectable\":0,"
			"\"current_pending_sectors\":-2,\"offline_uncorrectable\":0,"
			"\"udma_crc_errors\":0,\"error_count\":0}");
		static const char BAD[] = ATA_BEFORE ATA_AFTER(
			"{\"reallocated_sectors\":2,\"current_pending_sectors\":-2,"
			"\"offline_uncorrectable\":0,\"udma_crc_errors\":3,\"error_count\":1}");
		static const char NOLOG[] = ATA_BEFORE ATA_AFTER(
			"{\"reallocated_sectors\":0,\"error_count\":\"not available: SMART READ LOG 0x01: x\"}");
		static const char REFUSED[] = ATA_BEFORE ATA_AFTER(
			"\"not available: ATA PASS-THROUGH (SG_IO) on /dev/sda: Operation not permitted\"");
		struct rep_set q;
		if (unit_load_text(&q, CLEAN) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "0", m, sizeof(m)) == 1);
			CHECK_CONTAINS(m, "0 (ATA SMART: reallocated sectors +0, reported uncorrectable +0, "
				       "current pending sectors +0, offline uncorrectable +0, UDMA CRC "
				       "errors +0, error log count +0)");
		}
		rep_free(&q);
		if (unit_load_text(&q, BAD) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "0", m, sizeof(m)) == 0);
			CHECK_CONTAINS(m, "6 (ATA SMART: reallocated sectors +2, reported uncorrectable "
				       "absent, current pending sectors +0, offline uncorrectable +0, "
				       "UDMA CRC errors +3, error log count +1)");
			CHECK(verdict1(q.runs[0], "health_new_errors", "6", NULL, 0) == 1);
		}
		rep_free(&q);
		if (unit_load_text(&q, NOLOG) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "0", m, sizeof(m)) == 1);
			CHECK_CONTAINS(m, "error log count absent");
		}
		rep_free(&q);
		if (unit_load_text(&q, REFUSED) == 0 && q.nruns == 1) {
			CHECK(verdict1(q.runs[0], "health_new_errors", "0", m, sizeof(m)) == 0);
			CHECK_CONTAINS(m, "not measured");
		}
		rep_free(&q);
		/* --write-criteria offers the check for an ATA run too */
		if (unit_load_text(&q, CLEAN) == 0 && q.nruns == 1) {
			char *w = NULL;
			size_t wl = 0;
			FILE *f = open_memstream(&w, &wl);
			CHECK(f != NULL);
			if (f) {
				CHECK(vd_write_criteria(f, q.runs[0], "mem.jsonl", 1.0) == 0);
				fclose(f);
				CHECK_CONTAINS(w, "\nhealth_new_errors = 0\n");
				free(w);
			}
		}
		rep_free(&q);
#undef ATA_BEFORE
#undef ATA_AFTER
	}
	const struct vd_case device[] = {
		{ r, "health_new_errors", "1", .pass = 1 },
		{ bare, "health_new_errors", "0", 0, .has = "not measured" },
		{ r, "temperature_max", "70", 1, .has = "55 C" },
		{ r, "temperature_max", "50", .pass = 0 },
		{ bare, "temperature_max", "70", 0, .has = "not measured" },
		/* the PCIe link */
		{ r, "pcie_link", "8GT/s x4", 1, .has = "8 GT/s x4" },
		{ r, "pcie_link", "max", 0, .has = ">= 16 GT/s x4 (the device's maximum)" },
		{ r, "pcie_link", "8GT/s x8", .pass = 0 },
		{ bare, "pcie_link", "8GT/s", 0, .has = "not measured" },
	};
	VD_CASES(device);
	/* filesystems that ran to the end: one check each */
	CHECK(vd_judge(r, "fs_ok", "ext4,xfs,f2fs", &res) == 0);
	CHECK_EQ_U(res.n, 3);
	CHECK_EQ_U(res.nfail, 2);
	if (res.n == 3) {
		CHECK(res.check[0].pass);
		CHECK_STR(res.check[1].measured, "failed: read: Input/output error");
		CHECK_STR(res.check[2].measured, "not in the run");
	}
	vd_result_free(&res);
}

static void test_baseline(struct rep_run *r)
{
	struct vd_criteria c;
	struct vd_result res;
	const struct vd_check *create = NULL;

	vd_suite_init(&c);
	CHECK(vd_criteria_baseline(&c, r, 0.10) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	/* against itself every timing passes; xfs failed in the baseline, so
	 * fs_ok lists ext4 only; the baseline has an error record */
	for (size_t i = 0; i < res.n; i++) {
		if (strstr(res.check[i].what, "ext4 create"))
			create = &res.check[i];
		if (strstr(res.check[i].what, "seconds"))
			CHECK(res.check[i].pass);
	}
	CHECK(create != NULL);
	if (create) {
		CHECK_CONTAINS(create->limit, "baseline 1.1 s + 18% (tolerance 10%, spread between its 3 rounds 18%)");
		CHECK(fabs(create->bound - 1.1 * (1 + 0.2 / 1.1)) < 1e-9);
	}
	vd_result_free(&res);
	/* 15 % slower: beyond the tolerance, within the spread: PASS */
	for (size_t i = 0; i < r->nph; i++)
		if (!strcmp(r->ph[i].fs, "ext4") && !strcmp(r->ph[i].phase, "create"))
			r->ph[i].seconds *= 1.15;
	CHECK(vd_evaluate(&c, r, &res) == 0);
	for (size_t i = 0; i < res.n; i++)
		if (strstr(res.check[i].what, "ext4 create"))
			CHECK(res.check[i].pass);
	vd_result_free(&res);
	/* 30 % slower (1.15 * 1.13): beyond both: FAIL, and the line says so */
	for (size_t i = 0; i < r->nph; i++)
		if (!strcmp(r->ph[i].fs, "ext4") && !strcmp(r->ph[i].phase, "create"))
			r->ph[i].seconds *= 1.13;
	CHECK(vd_evaluate(&c, r, &res) == 0);
	create = NULL;
	for (size_t i = 0; i < res.n; i++)
		if (strstr(res.check[i].what, "ext4 create"))
			create = &res.check[i];
	CHECK(create && !create->pass);
	if (create)
		CHECK_CONTAINS(create->measured, "1.429 s (+30% vs baseline, 3 rounds)");
	vd_result_free(&res);
	for (size_t i = 0; i < r->nph; i++)
		if (!strcmp(r->ph[i].fs, "ext4") && !strcmp(r->ph[i].phase, "create"))
			r->ph[i].seconds /= 1.15 * 1.13;
	/* a phase with one baseline round has no spread: the tolerance rules */
	vd_criteria_free(&c);
	vd_suite_init(&c);
	CHECK(vd_criteria_baseline(&c, r, 0.10) == 0);
	for (size_t i = 0; i < c.n; i++)
		if (!strcmp(c.rule[i].key->name, "baseline") && !strcmp(c.rule[i].fs, "ext4") &&
		    c.rule[i].row == ROW_READ_FRESH)
			CHECK(c.rule[i].spread == 0 && fabs(c.rule[i].limit - 0.55) < 1e-9);
	vd_criteria_free(&c);
}

static void test_write_criteria(const struct rep_run *r)
{
	char *buf = NULL, path[] = "/tmp/fsb-verdict-w-XXXXXX";
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int fd = mkstemp(path);

	CHECK(m != NULL && fd >= 0);
	if (!m || fd < 0)
		return;
	CHECK(vd_write_criteria(m, r, "mem.jsonl", 1.0) == 0);
	fclose(m);
	CHECK_CONTAINS(buf, "fs_ok = ext4\n");
	CHECK_CONTAINS(buf, "verify = all\nerrors = 0\nkmsg = 0\nhealth_new_errors = 0\n");
	/* half the slowest round's rate, 2 digits rounded down: 833.3 / 2,
	 * 454.5 / 2, 333.3 / 2 */
	CHECK_CONTAINS(buf, "min_files_per_s.ext4.create = 410\n");
	CHECK_CONTAINS(buf, "min_files_per_s.ext4.read = 220\n");
	CHECK_CONTAINS(buf, "min_files_per_s.xfs.create = 160\n");
	/* read back: the same parser takes it */
	if (write(fd, buf, len) != (ssize_t)len)
		CHECK(0);
	close(fd);
	struct vd_criteria c;
	char err[256];
	vd_suite_init(&c);
	CHECK(vd_criteria_file(&c, path, err, sizeof(err)) == 0);
	CHECK(c.n >= 7);
	vd_criteria_free(&c);
	unlink(path);
	free(buf);
}

static void test_junit(const struct rep_run *r)
{
	const struct rep_writer *w = rep_writer_find("junit");
	struct vd_criteria c;
	struct vd_result res;
	char err[256], *buf = NULL;
	size_t len = 0;

	CHECK(w != NULL && w->doc != NULL);
	if (!w)
		return;
	vd_suite_init(&c);
	CHECK(vd_criteria_add(&c, "max_seconds.ext4.read.aged", "2.1", "c.conf:4", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "verify", "all", "c.conf:5", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	CHECK(rep_print_checks(m, r, w, &res) == 0);
	fclose(m);
	CHECK(strncmp(buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 51) == 0);
	/* 6 ext4 + 1 xfs phases, 2 "ran to the end", 2 checks */
	/* xfs failed on the disk's I/O error: a failure, not an error */
	CHECK_CONTAINS(buf, "tests=\"11\" failures=\"2\" errors=\"0\"");
	CHECK_CONTAINS(buf, "<testsuite name=\"ext4\" tests=\"7\" failures=\"0\" errors=\"0\"");
	CHECK_CONTAINS(buf, "<testsuite name=\"xfs\" tests=\"2\" failures=\"1\" errors=\"0\"");
	CHECK_CONTAINS(buf, "<testcase classname=\"fsbench.ext4\" name=\"round 2 read\" time=\"2.000000\">");
	CHECK_CONTAINS(buf, "<property name=\"files_per_s\" value=\"500.0\"/>");
	CHECK_CONTAINS(buf, "<property name=\"p99_us\" value=\"800.000\"/>");
	CHECK_CONTAINS(buf, "<property name=\"verified\" value=\"true\"/>");
	CHECK_CONTAINS(buf, "<failure type=\"failed\" message=\"failed: read: Input/output error\"/>");
	CHECK_CONTAINS(buf, "<testsuite name=\"verdict\" tests=\"2\" failures=\"1\"");
	CHECK_CONTAINS(buf, "<failure type=\"criteria\" message=\"2.2 s, worst of 2 rounds (round 3); limit &lt;= 2.1 s\"/>");
	CHECK_CONTAINS(buf, "<property name=\"criterion\" value=\"c.conf:4\"/>");
	/* the same checks as the last table of a Markdown report */
	{
		char *md = NULL;
		size_t mlen = 0;
		FILE *mm = open_memstream(&md, &mlen);
		if (mm) {
			CHECK(rep_print_checks(mm, r, rep_writer_find("md"), &res) == 0);
			fclose(mm);
			CHECK_CONTAINS(md, "## Verdict: FAIL (1 of 2 checks failed)\n");
			CHECK_CONTAINS(md, "| ext4 read seconds (aged, rounds 2+)    | 2.2 s, worst of 2 rounds (round 3) ");
			CHECK_CONTAINS(md, "| <= 2.1 s                      | FAIL   | c.conf:4  |\n");
			free(md);
		}
	}
	/* every element opened is closed */
	size_t open_ = 0, close_ = 0;
	for (const char *p = buf; (p = strstr(p, "<testcase ")); p++)
		open_++;
	for (const char *p = buf; (p = strstr(p, "</testcase>")); p++)
		close_++;
	CHECK_EQ_U(open_, 11);
	CHECK_EQ_U(close_, 10);	/* ext4 ran to the end: one empty element */
	free(buf);
	vd_result_free(&res);
	vd_criteria_free(&c);
}

/* The checks as a verdict record, read back with the run: the same checks,
 * and junit shows them without criteria. */
static void test_record(const struct rep_run *r)
{
	struct vd_criteria c;
	struct vd_result res, back;
	struct rep_set set;
	char err[256], *body = NULL, *text = NULL;
	size_t len = 0;

	vd_suite_init(&c);
	CHECK(vd_criteria_add(&c, "kmsg", "0", "c.conf:1", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "fs_ok", "ext4", "c.conf:2", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	FILE *m = open_memstream(&body, &len);
	if (!m)
		return;
	CHECK(vd_record_body(m, &res) == 0);
	fclose(m);
	CHECK_CONTAINS(body, "\"status\":\"fail\",\"checks\":2,\"failed\":1,\"check\":[{\"what\":"
		       "\"kernel messages (warning or worse)\"");
	CHECK_CONTAINS(body, "\"pass\":true,\"result\":\"pass\",\"where\":\"c.conf:2\"}]");
	CHECK(asprintf(&text, "%s{\"schema\":1,\"type\":\"verdict\",\"run_id\":\"aa11\",%s}\n",
		       RUN, body) > 0);
	CHECK(unit_load_text(&set, text) == 0);
	if (set.nruns == 1) {
		CHECK(set.runs[0]->have_verdict);
		CHECK(vd_result_of_run(set.runs[0], &back) == 1);
		CHECK_EQ_U(back.n, 2);
		CHECK_EQ_U(back.nfail, 1);
		if (back.n == 2) {
			CHECK_STR(back.check[0].what, res.check[0].what);
			CHECK_STR(back.check[0].measured, res.check[0].measured);
			CHECK_STR(back.check[0].limit, "<= 0");
			CHECK_STR(back.check[1].where, "c.conf:2");
		}
		vd_result_free(&back);
	}
	CHECK(vd_result_of_run(r, &back) == 0);	/* no verdict record */
	rep_free(&set);
	free(text);
	/* a verdict record without its checks is malformed */
	struct rep_set bad;
	char e2[256];
	static const char BAD[] = REC("verdict", "\"status\":\"pass\",\"check\":[1]");
	FILE *f = fmemopen((void *)BAD, strlen(BAD), "r");
	memset(&bad, 0, sizeof(bad));
	if (f) {
		CHECK(rep_load_stream(&bad, f, "bad.jsonl", e2, sizeof(e2)) == -EBADMSG);
		CHECK_CONTAINS(e2, "bad.jsonl:1: verdict record: check 0 is not an object");
		fclose(f);
	}
	rep_free(&bad);
	free(body);
	vd_result_free(&res);
	vd_criteria_free(&c);
}

/* The key table (rules.h): every key of a criteria file parses, is in the
 * docs, and what a row derives it derives in one place of each order; the
 * baseline's row is no key of a criteria file. */
static void test_keys(void)
{
	char *doc = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);
	struct vd_criteria c;

	CHECK(f != NULL);
	if (!f)
		return;
	vd_keys_doc(f, DOC_TEXT);
	fclose(f);
	for (size_t i = 0; i < vd_nkeys; i++) {
		const struct vd_key *k = &vd_keys[i];
		char line[96];
		if (k->value) {
			snprintf(line, sizeof(line), "  %s%s = ", k->name,
				 k->phase ? ".[FS.]PHASE[.ROUNDS]" : "");
			CHECK_CONTAINS(doc, line);
			CHECK(k->parse != NULL && k->help != NULL);
		} else {
			snprintf(line, sizeof(line), " %s", k->name);
			CHECK(strstr(doc, line) == NULL);
		}
		CHECK(!k->phase || (k->measure && k->what && k->unit));
		for (int to = 0; to < 2; to++) {
			CHECK(!k->rank[to] || k->derive);
			for (size_t j = 0; j < i; j++)
				CHECK(!k->rank[to] || vd_keys[j].rank[to] != k->rank[to]);
		}
	}
	vd_suite_init(&c);
	CHECK(vd_criteria_add(&c, "baseline", "1", "t.conf:1", err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "t.conf:1: baseline: unknown key");
	vd_criteria_free(&c);
	free(doc);
}

/* The disk's link: of the health records before and after, the later one
 * in the input that has a link speed. */
static void test_pcie_later(void)
{
	static const char LATE[] =
		REC("health", "\"when\":\"after\",\"pcie_link\":{\"speed\":\"8.0 GT/s PCIe\",\"width\":\"x2\"}")
		REC("health", "\"when\":\"before\",\"pcie_link\":{\"speed\":\"16.0 GT/s PCIe\",\"width\":\"x4\"}");
	static const char NOLINK[] =
		REC("health", "\"when\":\"before\",\"pcie_link\":{\"speed\":\"8.0 GT/s PCIe\",\"width\":\"x2\"}")
		REC("health", "\"when\":\"after\",\"pcie_link\":\"not available: x\"");
	struct rep_set q;
	char m[256];

	if (unit_load_text(&q, LATE) == 0 && q.nruns == 1) {
		CHECK(verdict1(q.runs[0], "pcie_link", "16GT/s x4", m, sizeof(m)) == 1);
		CHECK_STR(m, "16 GT/s x4 | >= 16 GT/s x4");
	}
	rep_free(&q);
	if (unit_load_text(&q, NOLINK) == 0 && q.nruns == 1) {
		CHECK(verdict1(q.runs[0], "pcie_link", "8GT/s", m, sizeof(m)) == 1);
		CHECK_STR(m, "8 GT/s x2 | >= 8 GT/s");
	}
	rep_free(&q);
}

int main(int argc, char **argv)
{
	struct rep_set set, bare;
	(void)argc;

	test_parse_errors();
	test_keys();
	test_pcie_later();
	CHECK(unit_load_text(&set, RUN) == 0);
	CHECK(unit_load_text(&bare, BARE) == 0);
	CHECK_EQ_U(set.nruns, 1);
	if (set.nruns == 1 && bare.nruns == 1) {
		struct rep_run *r = set.runs[0];
		CHECK_EQ_U(r->nkm, 3);
		CHECK(r->health[REP_HEALTH_BEFORE].have && r->health[REP_HEALTH_AFTER].have);
		CHECK_EQ_U(r->nerrors, 1);
		test_checks(r, bare.runs[0]);
		test_baseline(r);
		test_write_criteria(r);
		test_junit(r);
		test_record(r);
	}
	rep_free(&set);
	rep_free(&bare);
	return unit_done(argv[0]);
}
