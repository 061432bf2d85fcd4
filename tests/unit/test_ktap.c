/* test_ktap.c: the KTAP writer (report/writers/ktap.c) on records made up
 * here: text that KTAP cannot hold on a result line ('#', a line break, a
 * control character) is made safe; a variant's ':' becomes '.' as in its
 * LAVA id; a check's name is made unique as LAVA's; a failed filesystem
 * and a missing fs_end are not ok; a verdict without checks is skipped;
 * a run without filesystems has the plan 1..0. The whole document is
 * checked by tests/verdict/ktap.awk in make check-verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "unit.h"

/* The KTAP of the last run of recs, its verdict record's checks when it
 * has one (malloc'd, or NULL). */
static char *ktap_of(const char *recs)
{
	struct rep_set set = { 0 };
	struct vd_result res, *v = NULL;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)recs, strlen(recs), "r"), *out;

	CHECK(in != NULL);
	if (!in)
		return NULL;
	int rc = rep_load_stream(&set, in, "recs", err, sizeof(err));
	fclose(in);
	CHECK_EQ_U(rc, 0);
	if (rc)
		return NULL;
	const struct rep_run *r = rep_find(&set, NULL);
	if (vd_result_of_run(r, &res) == 1)
		v = &res;
	out = open_memstream(&text, &len);
	CHECK_EQ_U(rep_print_checks(out, r, rep_writer_find("ktap"), v), 0);
	fclose(out);
	if (v)
		vd_result_free(v);
	rep_free(&set);
	return text;
}

static void test_escapes(void)
{
	char *k = ktap_of(
		"{\"type\":\"run_start\",\"run_id\":\"r1\",\"seq\":0}\n"
		"{\"type\":\"fs_start\",\"run_id\":\"r1\",\"seq\":1,\"fs\":\"ext4:noatime\"}\n"
		"{\"type\":\"phase\",\"run_id\":\"r1\",\"seq\":2,\"fs\":\"ext4:noatime\",\"round\":1,"
		"\"phase\":\"create\",\"seconds\":1.5,\"files\":10}\n"
		"{\"type\":\"fs_end\",\"run_id\":\"r1\",\"seq\":3,\"fs\":\"ext4:noatime\",\"status\":\"failed\","
		"\"reason\":\"mount #2:\\nEIO\"}\n"
		"{\"type\":\"fs_start\",\"run_id\":\"r1\",\"seq\":4,\"fs\":\"xfs\"}\n"
		"{\"type\":\"phase\",\"run_id\":\"r1\",\"seq\":5,\"fs\":\"xfs\",\"round\":1,"
		"\"phase\":\"create\",\"seconds\":2,\"files\":10}\n"
		"{\"type\":\"verdict\",\"run_id\":\"r1\",\"seq\":6,\"status\":\"fail\",\"check\":["
		"{\"what\":\"issue #12\\tseen\",\"measured\":\"1\",\"limit\":\"<= 0\",\"pass\":false,"
		"\"where\":\"c.conf:1\"},"
		"{\"what\":\"issue #12 seen\",\"measured\":\"0\",\"limit\":\"<= 0\",\"pass\":true}]}\n");

	CHECK(k != NULL);
	if (!k)
		return;
	CHECK(strncmp(k, "KTAP version 1\n1..3\n", 20) == 0);
	/* a variant's ':' as '.', its mkfs failure not ok with the reason on
	 * one line in the diagnostic */
	CHECK_CONTAINS(k, "\n  ok 1 ext4.noatime-r1-create\n");
	CHECK_CONTAINS(k, "\n  # ext4:noatime: failed: mount #2: EIO\n  not ok 2 ext4.noatime-ran-to-the-end\n");
	CHECK_CONTAINS(k, "\n# ext4:noatime: 1 of 2 tests not ok\nnot ok 1 ext4:noatime\n");
	/* no fs_end: not ok */
	CHECK_CONTAINS(k, "\n  # xfs: no fs_end record\n  not ok 2 xfs-ran-to-the-end\n");
	CHECK_CONTAINS(k, "\nnot ok 2 xfs\n");
	/* the checks: '#' and the tab stay in the diagnostic (as spaces for the
	 * tab), the names are ids, the second made unique */
	CHECK_CONTAINS(k, "\n  # issue #12 seen: 1; limit <= 0 (c.conf:1)\n"
		       "  not ok 1 verdict-issue-12-seen\n");
	CHECK_CONTAINS(k, "\n  ok 2 verdict-issue-12-seen-2\n");
	CHECK_CONTAINS(k, "\n# verdict: FAIL (1 of 2 checks failed)\nnot ok 3 verdict\n");
	free(k);
}

static void test_edges(void)
{
	/* a refused run: no filesystem, no checks */
	char *k = ktap_of("{\"type\":\"run_start\",\"run_id\":\"r2\",\"seq\":0}\n"
			  "{\"type\":\"run_end\",\"run_id\":\"r2\",\"seq\":1,\"status\":\"refused\"}\n");
	CHECK(k != NULL);
	if (k)
		CHECK(strncmp(k, "KTAP version 1\n1..0\n# fsbench run r2: ", 38) == 0);
	free(k);

	/* a skipped filesystem: SKIP with its reason, '#' in it made a space */
	k = ktap_of("{\"type\":\"run_start\",\"run_id\":\"r3\",\"seq\":0}\n"
		    "{\"type\":\"fs_start\",\"run_id\":\"r3\",\"seq\":1,\"fs\":\"f2fs\"}\n"
		    "{\"type\":\"fs_end\",\"run_id\":\"r3\",\"seq\":2,\"fs\":\"f2fs\",\"status\":\"skipped\","
		    "\"reason\":\"no #f2fs\"}\n"
		    "{\"type\":\"verdict\",\"run_id\":\"r3\",\"seq\":3,\"status\":\"pass\",\"check\":[]}\n");
	CHECK(k != NULL);
	if (k) {
		CHECK_CONTAINS(k, "\n  1..1\n  # f2fs: skipped: no #f2fs\n"
			       "  ok 1 f2fs-ran-to-the-end # SKIP no  f2fs\nok 1 f2fs # SKIP no  f2fs\n");
		CHECK_CONTAINS(k, "\n  KTAP version 1\n  # Subtest: verdict\n  1..0\n"
			       "# verdict: PASS\nok 2 verdict # SKIP no checks\n");
	}
	free(k);

	/* a check that could not judge: not ok with the ERROR directive and
	 * its reason; one that does not apply: ok with SKIP; the verdict's
	 * subtest takes the ERROR */
	k = ktap_of("{\"type\":\"run_start\",\"run_id\":\"r4\",\"seq\":0}\n"
		    "{\"type\":\"verdict\",\"run_id\":\"r4\",\"seq\":1,\"status\":\"error\",\"check\":["
		    "{\"what\":\"ext4 fs_ok\",\"measured\":\"not measured\",\"limit\":\"ok\",\"pass\":false,"
		    "\"where\":\"c.conf:2\",\"result\":\"error\",\"why\":\"no run_end: the run broke off\"},"
		    "{\"what\":\"discard zeroes\",\"measured\":\"-\",\"limit\":\"ok\",\"pass\":false,"
		    "\"where\":\"c.conf:3\",\"result\":\"skip\",\"why\":\"the disk does not promise zeroes\"}]}\n");
	CHECK(k != NULL);
	if (k) {
		CHECK_CONTAINS(k, "\n  not ok 1 verdict-ext4-fs_ok # ERROR no run_end: the run broke off\n");
		CHECK_CONTAINS(k, "\n  ok 2 verdict-discard-zeroes # SKIP the disk does not promise zeroes\n");
		CHECK_CONTAINS(k, "\nnot ok 1 verdict # ERROR");
	}
	free(k);
}

UNIT_MAIN(test_escapes, test_edges)
