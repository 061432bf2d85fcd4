/* test_known.c: ERROR apart from FAIL and known issues
 * (report/verdict/kinds.h, infra.c, known.h): the table of result kinds
 * and what each becomes; each condition that makes a check ERROR (no
 * record, no run_end, refused, a column skipped, a mount the kernel cannot
 * do, error records that are not the disk's) and those that stay FAIL (an
 * I/O error, a mkfs that ran and failed); SKIP; the verdict line of each
 * mix; known issues matched, expired and --strict, kernel messages known,
 * and bad entries named by file, line and reason. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "report/verdict/criteria.h"
#include "report/verdict/kinds.h"
#include "report/verdict/known.h"
#include "records.h"
#include "unit.h"
#include "verdicts.h"

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"bb22\"," rest "}\n"
#define PH(fs, rd, ph, s) REC("phase", "\"fs\":\"" fs "\",\"round\":" #rd ",\"phase\":\"" ph \
	"\",\"seconds\":" #s ",\"files\":1000,\"files_per_s\":1000,\"errors\":0,\"verify_errors\":0")

#define START REC("run_start", "\"host\":{\"hostname\":\"b1\"},\"kmsg\":\"/dev/kmsg\"")
#define EXT4 REC("fs_start", "\"fs\":\"ext4\"") PH("ext4", 1, "create", 1.0) \
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\",\"reason\":\"\"")
#define END(st) REC("run_end", "\"status\":\"" st "\",\"exit_code\":1")

/* ext4 ran; xfs's mount: the kernel has no xfs (ENODEV); btrfs skipped (no
 * mkfs.btrfs); f2fs's mkfs ran and failed (its status, the disk's or the
 * options'); two kernel messages at warning level. */
static const char INFRA[] =
	START EXT4
	REC("kmsg", "\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"ts_usec\":1000,\"level\":4,"
	    "\"text\":\"nvme nvme0: I/O 12 QID 1 timeout, aborting\"")
	REC("kmsg", "\"phase\":\"between\",\"ts_usec\":2000,\"level\":4,\"text\":\"ACPI Warning: SystemIO range conflicts\"")
	REC("fs_start", "\"fs\":\"xfs\"")
	REC("error", "\"fs\":\"xfs\",\"op\":\"mount\",\"file\":\"/dev/vdb\",\"errno\":19,"
	    "\"msg\":\"mount /dev/vdb (xfs) on /mnt: No such device\",\"fatal\":true")
	REC("fs_end", "\"fs\":\"xfs\",\"status\":\"failed\",\"reason\":\"mount /dev/vdb (xfs) on /mnt: No such device\"")
	REC("fs_end", "\"fs\":\"btrfs\",\"status\":\"skipped\",\"reason\":\"mkfs.btrfs not found in /sbin\"")
	REC("fs_start", "\"fs\":\"f2fs\"")
	REC("error", "\"fs\":\"f2fs\",\"op\":\"mkfs\",\"file\":\"/dev/vdb\",\"errno\":0,"
	    "\"msg\":\"mkfs.f2fs /dev/vdb failed (status 1): write failed\",\"fatal\":true")
	REC("fs_end", "\"fs\":\"f2fs\",\"status\":\"failed\",\"reason\":\"mkfs.f2fs failed\"")
	END("failed");

/* a disk error: the mount's EIO, the disk's */
static const char DISK[] =
	START
	REC("fs_start", "\"fs\":\"xfs\"")
	REC("error", "\"fs\":\"xfs\",\"op\":\"mount\",\"file\":\"/dev/vdb\",\"errno\":5,"
	    "\"msg\":\"mount /dev/vdb (xfs) on /mnt: Input/output error\",\"fatal\":true")
	REC("fs_end", "\"fs\":\"xfs\",\"status\":\"failed\",\"reason\":\"mount: Input/output error\"")
	END("failed");

static const char BROKE[] = START EXT4 REC("fs_start", "\"fs\":\"xfs\"") PH("xfs", 1, "create", 2.0);

static const char REFUSED[] =
	START
	REC("error", "\"op\":\"target\",\"file\":\"serial:NOPE\",\"errno\":0,"
	    "\"msg\":\"target serial:NOPE: no disk has serial 'NOPE'\",\"fatal\":true,\"refused\":true")
	REC("run_end", "\"status\":\"refused\",\"exit_code\":3");

static const char OK[] = START EXT4 END("ok");

/* The checks of criteria (key=value;key=value) against r, the run check
 * too, as "KIND what|" each, the verdict line in verdict. */
static char *judge(const struct rep_run *r, const char *criteria, struct vd_result *res,
		   char *verdict, size_t vlen)
{
	struct vd_criteria c;
	char err[512], buf[512], *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *m;

	vd_suite_init(&c);
	snprintf(buf, sizeof(buf), "%s", criteria);
	for (char *kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(kv, '=');
		*eq = 0;
		if (vd_criteria_add(&c, kv, eq + 1, "t.conf:1", err, sizeof(err)))
			fprintf(stderr, "test_known: %s\n", err);
	}
	memset(res, 0, sizeof(*res));
	if (vd_evaluate(&c, r, res) || vd_check_run(res, r)) {
		vd_criteria_free(&c);
		return NULL;
	}
	vd_criteria_free(&c);
	if (!(m = open_memstream(&out, &len)))
		return NULL;
	for (size_t i = 0; i < res->n; i++)
		fprintf(m, "%s %s|", vd_kinds[res->check[i].kind].name, res->check[i].what);
	fclose(m);
	snprintf(verdict, vlen, "%s", res->verdict);
	return out;
}

static void test_kinds(void)
{
	/* what each kind becomes in JUnit, LAVA and the exit code */
	CHECK(vd_kinds[VD_PASS].junit == NULL);
	CHECK_STR(vd_kinds[VD_FAIL].junit, "failure");
	CHECK_STR(vd_kinds[VD_ERROR].junit, "error");
	CHECK_STR(vd_kinds[VD_SKIP].junit, "skipped");
	CHECK_STR(vd_kinds[VD_PASS].lava, "pass");
	CHECK_STR(vd_kinds[VD_FAIL].lava, "fail");
	CHECK_STR(vd_kinds[VD_ERROR].lava, "unknown");
	CHECK_STR(vd_kinds[VD_SKIP].lava, "skip");
	CHECK(vd_kinds[VD_PASS].exit == EXIT_OK && vd_kinds[VD_FAIL].exit == EXIT_FAIL &&
	      vd_kinds[VD_ERROR].exit == EXIT_ERROR && vd_kinds[VD_SKIP].exit == EXIT_OK);
	CHECK(EXIT_ERROR != EXIT_FAIL && EXIT_ERROR != EXIT_SYSTEM && EXIT_ERROR != EXIT_USAGE &&
	      EXIT_ERROR != EXIT_REFUSED);
	for (int i = 0; i < VD_NKINDS; i++)
		CHECK(vd_kind_of_word(vd_kinds[i].word) == i);
	CHECK(vd_kind_of_word("known") == -1 && vd_kind_of_word(NULL) == -1);
}

static void test_infra(void)
{
	struct rep_set set;
	struct vd_result res;
	static const struct rep_run none;
	char why[256], v[256], *s;

	/* no record at all: the boot never reached the runner */
	CHECK(vd_run_broken(&none, why, sizeof(why)) == 1);
	CHECK_STR(why, "no record of the run: the boot never reached the runner");
	s = judge(&none, "fs_ok=ext4;errors=0", &res, v, sizeof(v));
	CHECK_STR(s, "ERROR ext4 ran to the end|PASS error records (failed syscalls, workers)|"
		  "ERROR fsbench run ran to its end|");
	CHECK_STR(v, "ERROR (2 of 3 checks could not judge)");
	CHECK(res.kind == VD_ERROR);
	free(s);
	vd_result_free(&res);

	if (unit_load_text(&set, INFRA) == 0 && set.nruns == 1) {
		const struct rep_run *r = set.runs[0];
		CHECK(vd_run_broken(r, why, sizeof(why)) == 0);
		CHECK(vd_fs_broken(r, "ext4", why, sizeof(why)) == 0);
		CHECK(vd_fs_broken(r, "xfs", why, sizeof(why)) == 1);
		CHECK_CONTAINS(why, "No such device (the kernel does not know the filesystem type: not the disk's)");
		CHECK(vd_fs_broken(r, "btrfs", why, sizeof(why)) == 1);
		CHECK_STR(why, "btrfs was skipped: mkfs.btrfs not found in /sbin");
		CHECK(vd_fs_broken(r, "f2fs", why, sizeof(why)) == 0);	/* mkfs ran: status 1 */
		s = judge(r, "fs_ok=ext4,xfs,btrfs,f2fs;min_files_per_s.xfs.create=10;errors=0", &res, v, sizeof(v));
		CHECK_STR(s, "PASS ext4 ran to the end|ERROR xfs ran to the end|ERROR btrfs ran to the end|"
			  "FAIL f2fs ran to the end|ERROR xfs create files/s (all rounds)|"
			  "FAIL error records (failed syscalls, workers)|");
		CHECK_STR(v, "FAIL (2 of 6 checks failed, 3 errors)");
		CHECK(res.kind == VD_FAIL && res.nerror == 3 && res.nfail == 2);
		CHECK_STR(res.check[1].why, "xfs: mount /dev/vdb (xfs) on /mnt: No such device (the kernel does "
			  "not know the filesystem type: not the disk's)");
		free(s);
		vd_result_free(&res);
	}
	rep_free(&set);

	/* the disk's EIO stays FAIL */
	if (unit_load_text(&set, DISK) == 0 && set.nruns == 1) {
		CHECK(vd_fs_broken(set.runs[0], "xfs", why, sizeof(why)) == 0);
		s = judge(set.runs[0], "fs_ok=xfs;errors=0", &res, v, sizeof(v));
		CHECK_STR(s, "FAIL xfs ran to the end|FAIL error records (failed syscalls, workers)|");
		CHECK_STR(v, "FAIL (2 of 2 checks failed)");
		free(s);
		vd_result_free(&res);
	}
	rep_free(&set);

	/* no run_end: what was measured holds, what is absent could not judge */
	if (unit_load_text(&set, BROKE) == 0 && set.nruns == 1) {
		const struct rep_run *r = set.runs[0];
		CHECK(vd_run_broken(r, why, sizeof(why)) == 1);
		CHECK_STR(why, "no run_end record: the run broke off after xfs round 1 create");
		s = judge(r, "max_seconds.*.create=1.5;fs_ok=ext4,xfs;min_files_per_s.xfs.stat=1", &res, v, sizeof(v));
		CHECK_STR(s, "PASS ext4 create seconds (all rounds)|FAIL xfs create seconds (all rounds)|"
			  "PASS ext4 ran to the end|ERROR xfs ran to the end|ERROR xfs stat files/s (all rounds)|"
			  "ERROR fsbench run ran to its end|");
		CHECK_STR(v, "FAIL (1 of 6 checks failed, 3 errors)");
		CHECK_STR(res.check[res.n - 1].measured, "no run_end record");
		free(s);
		vd_result_free(&res);
	}
	rep_free(&set);

	/* refused: every check that needs the run's evidence, and errors */
	if (unit_load_text(&set, REFUSED) == 0 && set.nruns == 1) {
		const struct rep_run *r = set.runs[0];
		CHECK(vd_run_broken(r, why, sizeof(why)) == 1);
		CHECK_STR(why, "the runner refused the target: target serial:NOPE: no disk has serial 'NOPE'");
		s = judge(r, "fs_ok=ext4;errors=0", &res, v, sizeof(v));
		CHECK_STR(s, "ERROR ext4 ran to the end|ERROR error records (failed syscalls, workers)|"
			  "ERROR fsbench run ran to its end|");
		CHECK_CONTAINS(res.check[1].why, "not the disk's: target: target serial:NOPE");
		CHECK(res.kind == VD_ERROR);
		free(s);
		vd_result_free(&res);
	}
	rep_free(&set);

	/* a run that ran to its end: nothing added, not measured still fails */
	if (unit_load_text(&set, OK) == 0 && set.nruns == 1) {
		s = judge(set.runs[0], "fs_ok=ext4,xfs;health_new_errors=0", &res, v, sizeof(v));
		CHECK_STR(s, "PASS ext4 ran to the end|FAIL xfs ran to the end|FAIL new disk errors (media, "
			  "error log entries, critical warnings)|");
		CHECK_STR(v, "FAIL (2 of 3 checks failed)");
		free(s);
		vd_result_free(&res);
	}
	rep_free(&set);
}

/* The verdict line of each mix of kinds. */
static void test_done(void)
{
	struct vd_check k[4];
	struct vd_result res;

	memset(k, 0, sizeof(k));
	memset(&res, 0, sizeof(res));
	res.check = k;
	res.n = 4;
	vd_result_done(&res);
	CHECK_STR(res.verdict, "PASS");
	CHECK_STR(res.title, "Verdict: PASS (4 checks)");
	k[3].kind = VD_SKIP;
	vd_result_done(&res);
	CHECK_STR(res.verdict, "PASS (1 skipped)");
	CHECK_STR(res.title, "Verdict: PASS (4 checks, 1 skipped)");
	CHECK(res.kind == VD_PASS);
	k[2].kind = VD_ERROR;
	vd_result_done(&res);
	CHECK_STR(res.verdict, "ERROR (1 of 4 checks could not judge, 1 skipped)");
	CHECK(res.kind == VD_ERROR);
	k[1].kind = VD_FAIL;
	snprintf(k[1].known, sizeof(k[1].known), "https://x/1");
	vd_result_done(&res);
	CHECK_STR(res.verdict, "ERROR (1 of 4 checks could not judge, 1 known failure, 1 skipped)");
	res.strict = 1;
	vd_result_done(&res);
	CHECK_STR(res.verdict, "FAIL (1 of 4 checks failed, 1 of them known (--strict), 1 error, 1 skipped)");
	CHECK(res.kind == VD_FAIL);
	res.strict = 0;
	k[1].known_expired = 1;		/* an expired entry: the failure counts */
	vd_result_done(&res);
	CHECK_STR(res.verdict, "FAIL (1 of 4 checks failed, 1 error, 1 skipped)");
}

static void test_file(void)
{
	struct vd_known kn = { 0 };
	char err[600];
	FILE *f;

	CHECK(vd_known_date_ok("2024-02-29") && vd_known_date_ok("2000-02-29") && vd_known_date_ok("2027-12-31"));
	CHECK(!vd_known_date_ok("2023-02-29") && !vd_known_date_ok("2100-02-29") &&
	      !vd_known_date_ok("2027-04-31") && !vd_known_date_ok("2027-1-01") &&
	      !vd_known_date_ok("2027-01-011") && !vd_known_date_ok("27-01-01xx") && !vd_known_date_ok(""));

	/* comments and blank lines add nothing; an entry's fields */
	CHECK(vd_known_line(&kn, "# a comment\n", "k:1", "2027-01-01", err, sizeof(err)) == 0);
	CHECK(vd_known_line(&kn, "   \n", "k:2", "2027-01-01", err, sizeof(err)) == 0);
	CHECK(vd_known_line(&kn, "check 2027-01-01 https://x/1  ext4 create *  \n", "k:3", "2027-01-01",
			    err, sizeof(err)) == 0);
	CHECK(vd_known_line(&kn, "kmsg\t2026-12-31\tLAB-7\tI/O * timeout", "k:4", "2027-01-01", err, sizeof(err)) == 0);
	CHECK_EQ_U(kn.n, 2);
	if (kn.n == 2) {
		CHECK(kn.e[0].kind == VD_KNOWN_CHECK && !kn.e[0].expired);	/* its last day */
		CHECK_STR(kn.e[0].pattern, "ext4 create *");
		CHECK_STR(kn.e[0].link, "https://x/1");
		CHECK(kn.e[1].kind == VD_KNOWN_KMSG && kn.e[1].expired);
		CHECK_STR(kn.e[1].pattern, "I/O * timeout");
	}
	vd_known_free(&kn);

	/* bad entries: FILE:LINE, then the reason */
	CHECK(vd_known_line(&kn, "bug 2027-01-01 L p", "k.txt:5", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_CONTAINS(err, "k.txt:5: unknown kind 'bug'; allowed: check, kmsg");
	CHECK(vd_known_line(&kn, "check 2027-02-30 L p", "k.txt:6", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_STR(err, "k.txt:6: bad expiry date '2027-02-30': expected YYYY-MM-DD, a day of the calendar");
	CHECK(vd_known_line(&kn, "check never L p", "k.txt:7", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_CONTAINS(err, "k.txt:7: bad expiry date 'never'");
	CHECK(vd_known_line(&kn, "check", "k.txt:8", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_CONTAINS(err, "k.txt:8: no expiry date");
	CHECK(vd_known_line(&kn, "check 2027-01-01", "k.txt:9", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_CONTAINS(err, "k.txt:9: no link");
	CHECK(vd_known_line(&kn, "check 2027-01-01 L   ", "k.txt:10", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_CONTAINS(err, "k.txt:10: no pattern after the link");
	CHECK_EQ_U(kn.n, 0);

	/* a file: the message names it as given, with the line; an entry
	 * keeps FILE:LINE by the file's name */
	if ((f = fopen("known.txt", "w"))) {
		fputs("# known\ncheck 2099-01-01 https://x/2 xfs*\nkmsg 2099-01-01 https://x/3\n", f);
		fclose(f);
	}
	CHECK(vd_known_file(&kn, "./known.txt", "2027-01-01", err, sizeof(err)) == -EINVAL);
	CHECK_STR(err, "./known.txt:3: no pattern after the link; expected KIND EXPIRES LINK PATTERN "
		  "(check 2027-03-31 https://bugs.example.org/12 xfs create*)");
	vd_known_free(&kn);
	if ((f = fopen("known.txt", "w"))) {
		fputs("# known\n\ncheck 2099-01-01 https://x/2 xfs*\n", f);
		fclose(f);
	}
	CHECK(vd_known_file(&kn, "./known.txt", "2027-01-01", err, sizeof(err)) == 0);
	CHECK(kn.n == 1 && !strcmp(kn.e[0].where, "known.txt:3"));
	vd_known_free(&kn);
	CHECK(vd_known_file(&kn, "./none.txt", "2027-01-01", err, sizeof(err)) == -ENOENT);
	CHECK_STR(err, "./none.txt: No such file or directory");
}

static void test_apply(void)
{
	struct vd_known kn = { 0 };
	struct vd_result res;
	struct vd_criteria c;
	struct rep_set set;
	char err[600], v[256], *s;

	if (unit_load_text(&set, INFRA) || set.nruns != 1) {
		CHECK(0);
		return;
	}
	const struct rep_run *r = set.runs[0];
	CHECK(vd_known_line(&kn, "check 2099-01-01 https://x/f2fs f2fs ran to the end", "k:1", "2027-01-01",
			    err, sizeof(err)) == 0);
	CHECK(vd_known_line(&kn, "check 2000-01-01 https://x/old error records*", "k:2", "2027-01-01",
			    err, sizeof(err)) == 0);
	/* a known entry never turns an ERROR into a known failure */
	CHECK(vd_known_line(&kn, "check 2099-01-01 https://x/xfs xfs ran*", "k:3", "2027-01-01",
			    err, sizeof(err)) == 0);
	s = judge(r, "fs_ok=f2fs,xfs;errors=0", &res, v, sizeof(v));
	free(s);
	vd_known_apply(&kn, NULL, r, &res, 0);
	CHECK_STR(res.check[0].known, "https://x/f2fs");
	CHECK(!res.check[0].known_expired && res.check[0].kind == VD_FAIL);
	CHECK(res.check[1].kind == VD_ERROR && !res.check[1].known[0]);
	CHECK_STR(res.check[2].known, "https://x/old");
	CHECK(res.check[2].known_expired);
	CHECK_STR(res.verdict, "FAIL (1 of 3 checks failed, 1 error, 1 known failure)");
	char t[700];
	vd_result_text(&res.check[0], 1, t, sizeof(t));
	CHECK_STR(t, "FAIL (t.conf:1), known issue https://x/f2fs (k:1, until 2099-01-01)");
	vd_result_text(&res.check[2], 1, t, sizeof(t));
	CHECK_STR(t, "FAIL (t.conf:1), known issue https://x/old expired on 2000-01-01 (k:2): it counts");
	vd_result_text(&res.check[1], 0, t, sizeof(t));
	CHECK_CONTAINS(t, "ERROR: xfs: mount /dev/vdb");
	/* strict: the known failure counts too */
	vd_known_apply(&kn, NULL, r, &res, 1);
	CHECK_STR(res.verdict, "FAIL (2 of 3 checks failed, 1 of them known (--strict), 1 error)");
	vd_result_free(&res);
	vd_known_free(&kn);

	/* kernel messages: known when every one beyond the limit is matched */
	vd_suite_init(&c);
	CHECK(vd_criteria_add(&c, "kmsg", "0", "t.conf:2", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	CHECK(res.n == 1 && res.check[0].kind == VD_FAIL);
	CHECK(vd_known_line(&kn, "kmsg 2099-01-01 https://x/nvme QID * timeout", "k:1", "2027-01-01",
			    err, sizeof(err)) == 0);
	vd_known_apply(&kn, &c, r, &res, 0);
	CHECK(!res.check[0].known[0]);		/* the ACPI warning is not known */
	CHECK_STR(res.verdict, "FAIL (1 of 1 checks failed)");
	CHECK(vd_known_line(&kn, "kmsg 2000-01-01 https://x/acpi ACPI Warning", "k:2", "2027-01-01",
			    err, sizeof(err)) == 0);
	vd_known_apply(&kn, &c, r, &res, 0);
	CHECK_STR(res.check[0].known, "https://x/acpi");	/* all matched, one by an expired entry */
	CHECK(res.check[0].known_expired);
	CHECK_STR(res.verdict, "FAIL (1 of 1 checks failed)");
	vd_known_free(&kn);
	CHECK(vd_known_line(&kn, "kmsg 2099-01-01 https://x/nvme QID * timeout", "k:1", "2027-01-01",
			    err, sizeof(err)) == 0);
	CHECK(vd_known_line(&kn, "kmsg 2099-01-01 https://x/acpi ACPI Warning", "k:2", "2027-01-01",
			    err, sizeof(err)) == 0);
	vd_known_apply(&kn, &c, r, &res, 0);
	CHECK_STR(res.check[0].known, "https://x/nvme");
	CHECK(!res.check[0].known_expired);
	CHECK_STR(res.verdict, "PASS (1 known failure)");
	CHECK(res.kind == VD_PASS);
	vd_result_free(&res);
	vd_known_free(&kn);
	vd_criteria_free(&c);
	rep_free(&set);
}

UNIT_MAIN(test_kinds, test_infra, test_done, test_file, test_apply)
