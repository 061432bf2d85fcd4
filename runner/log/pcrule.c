/* pcrule.c: the one judgement of a power-cut cycle (pcrule.h). */
#include <string.h>

#include "log/pcrule.h"

int fsb_pc_checker_ok(const char *fsck, const char *mount)
{
	if (!fsck || !mount || strcmp(mount, "ok"))
		return 0;
	return !strcmp(fsck, "clean") || !strcmp(fsck, "none");
}

int fsb_pc_failed(uint64_t lost, uint64_t torn, const char *fsck, const char *mount)
{
	return lost || torn || !fsb_pc_checker_ok(fsck, mount);
}
