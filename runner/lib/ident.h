/* ident.h: a test case id made of free text, one rule for LAVA's result
 * lines (run/engine/lava.h) and KTAP's subtest names (report/writers). */
#ifndef FSB_IDENT_H
#define FSB_IDENT_H

#include <stddef.h>

#define FSB_LAVA_ID_MAX	96	/* a test case id, with its NUL */

/* A test case id from free text: PREFIX then the text in lower case, each
 * run of other characters than letters, digits, '_' and '.' one '-', none
 * at either end, cut to fit ("ext4 create files/s (fresh, round 1)" ->
 * "verdict-ext4-create-files-s-fresh-round-1"). Made unique among
 * prev[0..nprev-1] with "-2", "-3", ... Returns the length. */
int fsb_lava_text_id(char *buf, size_t len, const char *prefix, const char *text,
		     const char (*prev)[FSB_LAVA_ID_MAX], size_t nprev);

#endif
