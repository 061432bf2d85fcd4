/* kinds.c: the results of a check, one row each (kinds.h). */
#include "report/verdict/kinds.h"
#include "lib/msg.h"

#include <string.h>

const struct vd_kind_row vd_kinds[VD_NKINDS] = {
	[VD_PASS] = { "PASS", "pass", NULL, "pass", EXIT_OK,
		      "measured, within the limit" },
	[VD_FAIL] = { "FAIL", "fail", "failure", "fail", EXIT_FAIL,
		      "measured and beyond the limit, or the evidence is absent from a run that ran to its end" },
	[VD_ERROR] = { "ERROR", "error", "error", "unknown", EXIT_ERROR,
		       "the check could not judge: the run never started, broke off, or failed for a reason that is not the disk's" },
	[VD_SKIP] = { "SKIP", "skip", "skipped", "skip", EXIT_OK,
		      "the check does not apply to this target" },
};

int vd_kind_of_word(const char *word)
{
	for (int i = 0; word && i < VD_NKINDS; i++)
		if (!strcmp(vd_kinds[i].word, word))
			return i;
	return -1;
}
