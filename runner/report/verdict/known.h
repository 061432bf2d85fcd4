/* known.h: known issues, a file that marks matching failures of a verdict
 * as known in every output without hiding them (`fsbench verdict --known
 * FILE`, `fsbench report --known FILE`). One entry a line:
 *
 *	# KIND  EXPIRES     LINK                         PATTERN
 *	check   2027-03-31  https://bugs.example.org/12  xfs create files/s (fresh, round 1)
 *	kmsg    2027-03-31  https://lore.kernel.org/x    nvme nvme0: I/O * QID * timeout
 *
 * KIND `check`: PATTERN is a glob (`*`, `?`, `[...]`) over a check's whole
 * text; `kmsg`: a kernel message holds PATTERN (`*` any text), and a
 * failing `kmsg` check is known when its messages beyond the limit are all
 * matched. EXPIRES (YYYY-MM-DD, UTC) is the last day the entry applies:
 * after it, a failure it matches counts again and says the entry expired.
 * LINK is one word (a URL, a tracker's id). `#` starts a comment line.
 * A known failure counts for the verdict only with strict (--strict).
 */
#ifndef FSB_REPORT_VERDICT_KNOWN_H
#define FSB_REPORT_VERDICT_KNOWN_H

#include <stddef.h>

#include "report/verdict/criteria.h"

enum vd_known_kind { VD_KNOWN_CHECK, VD_KNOWN_KMSG };

struct vd_known_entry {
	enum vd_known_kind kind;
	char until[11];		/* YYYY-MM-DD */
	int expired;		/* until is before the day given */
	char link[160];
	char pattern[512];
	char where[96];		/* FILE:LINE */
	size_t matched;		/* failures it marked (expired: that it would have) */
};

struct vd_known {
	struct vd_known_entry *e;
	size_t n, cap;
};

/* Read the entries of the file at path; today (YYYY-MM-DD) decides which
 * expired. Returns 0; -EINVAL for a bad entry (err: "FILE:LINE: reason");
 * -errno when the file cannot be read; -ENOMEM. */
int vd_known_file(struct vd_known *kn, const char *path, const char *today,
		  char *err, size_t errlen);
/* One line of such a file (where = "FILE:LINE"); blank and comment lines
 * add nothing. 0, or -EINVAL / -ENOMEM with err. */
int vd_known_line(struct vd_known *kn, const char *line, const char *where, const char *today,
		  char *err, size_t errlen);
void vd_known_free(struct vd_known *kn);

/* Mark the FAIL checks of res that an entry matches (c: the criteria, for
 * kmsg_ignore, NULL when the checks were read back; r: the run, for its
 * kernel messages), then vd_result_done with strict. */
void vd_known_apply(struct vd_known *kn, const struct vd_criteria *c,
		    const struct rep_run *r, struct vd_result *res, int strict);

/* Is s a real day written YYYY-MM-DD? */
int vd_known_date_ok(const char *s);

#endif
