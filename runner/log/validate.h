/* validate.h: one record checked against the schema table (log/schema.h): no
 * unknown type, no unknown field, every required field present, each
 * field's JSON type right. For `fsbench log check` and the tests. */
#ifndef FSB_VALIDATE_H
#define FSB_VALIDATE_H

#include <stddef.h>

#include "lib/jsonr.h"

enum {
	FSB_CHECK_NAMES = 1,	/* only unknown types and fields (hand-made fixtures) */
};

/* Told each violation, one line of text ("phase: unknown field \"filez\""). */
typedef void (*fsb_check_cb)(void *arg, const char *msg);

/* Check one parsed record; returns how many violations cb was told. */
int fsb_check_value(const struct jsonr *rec, unsigned flags, fsb_check_cb cb, void *arg);
/* Check one record's text (JSON, one object); a text that is not JSON is
 * one violation. Returns the violations, or -ENOMEM. */
int fsb_check_text(const char *text, size_t len, unsigned flags, fsb_check_cb cb, void *arg);

#endif
