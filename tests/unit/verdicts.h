/* verdicts.h: criteria judged on a loaded run, for the unit tests of the
 * verdict's keys (test_verdict.c, test_inventory.c and the tests of the
 * power cuts, the sustained write and the file server). */
#ifndef FSB_UNIT_VERDICTS_H
#define FSB_UNIT_VERDICTS_H

#include <stdio.h>
#include <string.h>

#include "report/verdict/criteria.h"
#include "unit.h"

/* Criteria over the suite's filesystems, phases and cold phases. */
static inline void vd_suite_init(struct vd_criteria *c)
{
	vd_criteria_init(c, "ext4,xfs,btrfs,f2fs", "create,stat,read,read_inode,delete",
			 "stat,read,read_inode");
}

/* key = val of the suite's criteria against run r: its checks in *res
 * (caller frees; zeroed when the key is refused, its reason on stderr). */
static inline int vd_judge(const struct rep_run *r, const char *key, const char *val,
			   struct vd_result *res)
{
	struct vd_criteria c;
	char err[512];
	int rc;

	memset(res, 0, sizeof(*res));
	vd_suite_init(&c);
	rc = vd_criteria_add(&c, key, val, "t.conf:1", err, sizeof(err));
	if (rc)
		fprintf(stderr, "verdict: %s\n", err);
	else
		rc = vd_evaluate(&c, r, res);
	vd_criteria_free(&c);
	return rc;
}

/* The single check of key = val on run r: 1 PASS, 0 FAIL, -1 not one
 * check (or no run); "MEASURED | LIMIT" into m when m is given. A check
 * that passes without a measurement is -1: not measured must fail. */
static inline int verdict1(const struct rep_run *r, const char *key, const char *val,
			   char *m, size_t len)
{
	struct vd_result res;
	int pass = -1;

	if (m)
		m[0] = 0;
	if (!r)
		return -1;
	if (vd_judge(r, key, val, &res) == 0 && res.n == 1) {
		pass = res.check[0].pass;
		if (m)
			snprintf(m, len, "%s | %s", res.check[0].measured, res.check[0].limit);
		if (!res.check[0].measured_ok && pass)
			pass = -1;
	} else {
		fprintf(stderr, "verdict: %s = %s: %zu checks\n", key, val, res.n);
	}
	vd_result_free(&res);
	return pass;
}

/* A case of verdict1(): the run, key = val, the verdict it must give (1
 * PASS, 0 FAIL, -1 not one check) and what "MEASURED | LIMIT" must be
 * (is) or hold (has); NULL: not looked at. */
struct vd_case {
	const struct rep_run *r;
	const char *key, *val;
	int pass;
	const char *is, *has;
};

/* Each case a check of its verdict and of its text; a failing case named
 * on stderr. VD_CASES(cases). */
static inline void vd_cases(const struct vd_case *c, size_t n)
{
	char m[512];

	for (size_t i = 0; i < n; i++, c++) {
		int failed = unit_fail;

		CHECK(verdict1(c->r, c->key, c->val, m, sizeof(m)) == c->pass);
		if (c->is)
			CHECK_STR(m, c->is);
		if (c->has)
			CHECK_CONTAINS(m, c->has);
		if (unit_fail != failed)
			fprintf(stderr, "  the case %s = %s\n", c->key, c->val);
	}
}
#define VD_CASES(cases) vd_cases(cases, sizeof(cases) / sizeof(cases[0]))

/* The checks of key = val on run r, with the filesystems fs and the phases
 * create and read, as "PASS|FAIL what: measured|" each into out; "bad:
 * REASON" when the key is refused. */
static inline void vd_lines(const char *fs, const struct rep_run *r, const char *key,
			    const char *val, char *out, size_t len)
{
	struct vd_criteria c;
	struct vd_result res;
	char err[256];
	size_t o = 0;

	out[0] = 0;
	vd_criteria_init(&c, fs, "create", "read");
	if (vd_criteria_add(&c, key, val, "t:1", err, sizeof(err)) != 0) {
		snprintf(out, len, "bad: %s", err);
		vd_criteria_free(&c);
		return;
	}
	if (vd_evaluate(&c, r, &res) == 0) {
		for (size_t i = 0; i < res.n && o < len; i++) {
			int n = snprintf(out + o, len - o, "%s %s: %s|",
					 res.check[i].pass ? "PASS" : "FAIL", res.check[i].what,
					 res.check[i].measured);
			o = n < 0 ? len : o + (size_t)n;
		}
		vd_result_free(&res);
	}
	vd_criteria_free(&c);
}

#endif
