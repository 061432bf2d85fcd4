/* schema.h: the record schema, one table (log/schema.c): every record type
 * with its fields (name, JSON type, required or optional, unit, meaning,
 * the schema version it appeared in), nested objects as shapes of their
 * own. Emitters name types and fields through log/fields.h (a misspelt
 * name does not compile); the report's loader dispatches on the type id;
 * `fsbench log check` validates records against it (log/validate.c) and
 * `fsbench log schema --markdown` writes FORMATS.md's tables from it. */
#ifndef FSB_SCHEMA_H
#define FSB_SCHEMA_H

#include <stddef.h>
#include <stdio.h>

#include "lib/msg.h"
#include "log/fields.h"

/* JSON types a field may hold (a mask: "an object, or a string saying why
 * not"). An array's elements are of one kind. */
enum fsb_jtype {
	FSB_J_INT = 1 << 0,	/* a whole number, written exactly (no fraction, no exponent) */
	FSB_J_NUM = 1 << 1,	/* any number (9 significant digits; null when not finite) */
	FSB_J_STR = 1 << 2,
	FSB_J_BOOL = 1 << 3,
	FSB_J_OBJ = 1 << 4,	/* fields in .sub */
	FSB_J_NULL = 1 << 5,
	FSB_J_ARR_INT = 1 << 6,	/* an array of whole numbers */
	FSB_J_ARR_NUM = 1 << 7,	/* an array of numbers */
	FSB_J_ARR_OBJ = 1 << 8,	/* an array of objects, each with the fields in .sub */
};

struct fsb_shape;

struct fsb_field {
	const char *name;
	unsigned types;			/* enum fsb_jtype mask */
	unsigned char required;		/* every record of its type (or object) has it */
	unsigned char since;		/* schema version it appeared in */
	const char *unit;		/* "" when none */
	const struct fsb_shape *sub;	/* the fields of an object (or of array elements) */
	const char *meaning;		/* Markdown */
};

struct fsb_shape {
	const struct fsb_field *f;
	size_t n;
	int open;	/* any member name is allowed (the settings of run_start's config) */
};

struct fsb_rtype {
	const char *name;
	unsigned since;
	const struct fsb_shape *shape;
	const char *meaning;	/* Markdown: when it is written, what it is */
};

/* The fields every record has (schema, type, run_id, seq, t). */
extern const struct fsb_shape fsb_rec_common;
/* Indexed by enum fsb_rec_type. */
extern const struct fsb_rtype fsb_rec_types[FSB_REC_N];

/* The type id of a type name; -1 when there is none. */
int fsb_rec_lookup(const char *name);
/* The field of a shape by name; NULL when there is none. */
const struct fsb_field *fsb_shape_field(const struct fsb_shape *s, const char *name);
/* "integer", "object or string", ... for a types mask, into buf. */
const char *fsb_jtype_text(unsigned types, char *buf, size_t len);

/* The schema as text or a Markdown table: the types named (names, n) or,
 * with n 0, every type. -EINVAL naming the unknown type in bad (when a
 * name is not a type), -EIO on a write error, else 0. */
int fsb_schema_doc(FILE *f, enum fsb_doc_fmt fmt, const char *const *names, size_t n,
		   const char **bad);

#endif
