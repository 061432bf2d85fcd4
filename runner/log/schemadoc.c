/* schemadoc.c: the record schema (log/schema.c) as text or as FORMATS.md's
 * Markdown table: a row per record type, then a row per field, nested
 * fields by their path (`host.dmi.sys_vendor`, `disks[].path`). */
#include <errno.h>
#include <string.h>

#include "log/schema.h"

static void field_rows(FILE *f, enum fsb_doc_fmt fmt, const struct fsb_shape *s,
		       const char *prefix)
{
	char path[256], types[128];

	for (size_t i = 0; i < s->n; i++) {
		const struct fsb_field *d = &s->f[i];
		snprintf(path, sizeof(path), "%s%s", prefix, d->name);
		fsb_jtype_text(d->types, types, sizeof(types));
		if (fmt == DOC_MARKDOWN) {
			fprintf(f, "| | `%s` | %s | %s | %s | ", path, types,
				d->required ? "required" : "optional", d->unit);
			fsb_doc_put(f, fmt, d->meaning);
			fputs(" |\n", f);
		} else {
			fprintf(f, "  %-28s %s, %s%s%s: ", path, types,
				d->required ? "required" : "optional", d->unit[0] ? ", " : "",
				d->unit);
			fsb_doc_put(f, fmt, d->meaning);
			fputc('\n', f);
		}
		if (d->sub && !d->sub->open) {
			char sub[300];
			snprintf(sub, sizeof(sub), "%s%s.", path,
				 d->types & FSB_J_ARR_OBJ ? "[]" : "");
			field_rows(f, fmt, d->sub, sub);
		}
	}
}

static void type_rows(FILE *f, enum fsb_doc_fmt fmt, const char *name, unsigned since,
		      const char *meaning, const struct fsb_shape *s)
{
	if (fmt == DOC_MARKDOWN) {
		fprintf(f, "| `%s` | | | | | ", name);
		fsb_doc_put(f, fmt, meaning);
		fprintf(f, " (schema %u) |\n", since);
	} else {
		fprintf(f, "%s (schema %u): ", name, since);
		fsb_doc_put(f, fmt, meaning);
		fputc('\n', f);
	}
	field_rows(f, fmt, s, "");
}

int fsb_schema_doc(FILE *f, enum fsb_doc_fmt fmt, const char *const *names, size_t n,
		   const char **bad)
{
	static const char common_meaning[] = "every record: these fields first, in this order";

	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], "common") && fsb_rec_lookup(names[i]) < 0) {
			*bad = names[i];
			return -EINVAL;
		}
	}
	if (fmt == DOC_MARKDOWN)
		fputs("| type | field | JSON type | required | unit | meaning |\n|---|---|---|---|---|---|\n", f);
	if (!n) {
		type_rows(f, fmt, "common", 1, common_meaning, &fsb_rec_common);
		for (int t = 0; t < FSB_REC_N; t++)
			type_rows(f, fmt, fsb_rec_types[t].name, fsb_rec_types[t].since,
				  fsb_rec_types[t].meaning, fsb_rec_types[t].shape);
	}
	for (size_t i = 0; i < n; i++) {
		int t = fsb_rec_lookup(names[i]);
		if (t < 0)
			type_rows(f, fmt, "common", 1, common_meaning, &fsb_rec_common);
		else
			type_rows(f, fmt, fsb_rec_types[t].name, fsb_rec_types[t].since,
				  fsb_rec_types[t].meaning, fsb_rec_types[t].shape);
	}
	return ferror(f) ? -EIO : 0;
}
