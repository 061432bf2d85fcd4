/* results.c: options and input shared by `fsbench report`, `compare` and
 * `history` (see results.h). */
#include "cmd/results.h"
#include "fsbench.h"
#include "run/fs/fs.h"
#include "run/engine/phase.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c->usage to f with %1$s as a, %2$s as b and %% as %: the usage is a
 * template of the command's table, not a format checked by the compiler. */
static void usage_fill(FILE *f, const char *t, const char *a, const char *b)
{
	for (; *t; t++) {
		if (t[0] == '%' && t[1] == '%') {
			fputc('%', f);
			t++;
		} else if (t[0] == '%' && (t[1] == '1' || t[1] == '2') && t[2] == '$' && t[3] == 's') {
			fputs(t[1] == '1' ? a : b, f);
			t += 3;
		} else {
			fputc(*t, f);
		}
	}
}

void results_usage(const struct results_cli *c, FILE *f)
{
	char names[128], described[256];

	int tables = c->allow_criteria ? 0 : REP_NAMES_TABLES;

	rep_writer_names(names, sizeof(names), "|", "|", tables);
	rep_writer_names(described, sizeof(described), ", ", " or ", REP_NAMES_ABOUT | tables);
	usage_fill(f, c->usage, names, described);
}

/* "fsbench: WHAT" and the command's usage (fsb_misuse). */
__attribute__((format(printf, 2, 3)))
static int misuse(const struct results_cli *c, const char *fmt, ...)
{
	char *usage = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&usage, &n);
	va_list ap;

	if (f) {
		results_usage(c, f);
		if (fclose(f) != 0) {
			free(usage);
			usage = NULL;
		}
	}
	va_start(ap, fmt);
	fsb_vmisuse(usage, fmt, ap);
	va_end(ap);
	free(usage);
	return EXIT_USAGE;
}

int results_parse(struct results_cli *c, int argc, char **argv)
{
	int opts = 1;

	c->w = &rep_writers[0];
	c->tolerance = 0.10;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		size_t klen;

		if (opts && strcmp(a, "--") == 0) {
			opts = 0;
			continue;
		}
		if (!opts || a[0] != '-' || strcmp(a, "-") == 0) {
			if (c->npos == c->maxpos) {
				if (c->maxpos > 2)
					return misuse(c, "%s: too many arguments ('%s'; at most %zu)",
						      c->cmd, a, c->maxpos);
				return misuse(c, "%s: too many arguments ('%s')", c->cmd, a);
			}
			c->pos[c->npos++] = a;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			results_usage(c, stdout);
			return EXIT_OK;
		}
		if (c->allow_gate && strcmp(a, "--fail-on-regression") == 0) {
			c->fail_on_regression = 1;
			continue;
		}
		if (c->allow_ref && strcmp(a, "--reference") == 0) {
			c->maxpos = 1;	/* A is given: B only */
			c->minpos = 1;
			c->reference = 1;
			if (c->npos > c->maxpos) {
				return misuse(c, "%s: --reference and two runs: give B only",
					c->cmd);
			}
			continue;
		}
		const char *eq = strchr(a, '=');
		klen = eq ? (size_t)(eq - a) : strlen(a);
		int is_fmt = klen == 8 && strncmp(a, "--format", 8) == 0;
		int is_run = c->allow_run && klen == 5 && strncmp(a, "--run", 5) == 0;
		int is_crit = c->allow_criteria && klen == 10 && strncmp(a, "--criteria", 10) == 0;
		int is_base = c->allow_criteria && klen == 10 && strncmp(a, "--baseline", 10) == 0;
		int is_tol = (c->allow_criteria || c->allow_gate) && klen == 11 &&
			     strncmp(a, "--tolerance", 11) == 0;
		if (!is_fmt && !is_run && !is_crit && !is_base && !is_tol) {
			return misuse(c, "%s: unknown option '%s'", c->cmd, a);
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			return misuse(c, "%s: %.*s needs an argument", c->cmd, (int)klen, a);
		}
		if (is_run) {
			c->run = val;
		} else if (is_crit) {
			c->criteria = val;
		} else if (is_base) {
			c->baseline = val;
		} else if (is_tol) {
			if ((c->tolerance = vd_percent(val)) < 0) {
				return misuse(c, "%s: --tolerance: expected a percentage (10%%), got '%s'",
					c->cmd, val);
			}
		} else if (!(c->w = rep_writer_find(val))) {
			char names[128];
			rep_writer_names(names, sizeof(names), ", ", " or ",
					 c->allow_criteria ? 0 : REP_NAMES_TABLES);
			return misuse(c, "%s: unknown format '%s' (%s)", c->cmd, val, names);
		}
	}
	if (c->w->doc && !c->allow_criteria) {
		return misuse(c, "%s: format '%s' is for fsbench report", c->cmd, c->w->name);
	}
	if (c->npos < (c->minpos ? c->minpos : c->maxpos)) {
		return misuse(c, "%s: missing %s", c->cmd,
			c->posname ? c->posname : c->reference ? "B" : c->maxpos == 1 ? "RUN" :
			c->npos ? "B" : "A and B");
	}
	return -1;
}

int results_load(const char *cmd, struct rep_set *set, const char *in)
{
	char err[1024];
	int rc = rep_load(set, in, err, sizeof(err));

	if (rc) {
		fsb_msg("%s %s", cmd, err);
		rep_free(set);
		return EXIT_SYSTEM;
	}
	if (!set->nruns) {
		fsb_msg("%s %s: no records", cmd, set->path);
		rep_free(set);
		return EXIT_FAIL;
	}
	return -1;
}

int results_flush(const char *cmd)
{
	if (fflush(stdout) || ferror(stdout)) {
		fsb_msg("%s: writing the output: %s", cmd, strerror(errno));
		return EXIT_SYSTEM;
	}
	return 0;
}

/* The phases, and those that verify what they read, comma-separated. */
static char phase_names[256], verify_names[256];

void results_criteria_init(struct vd_criteria *vc)
{
	size_t a = 0, b = 0;

	phase_names[0] = verify_names[0] = 0;
	for (size_t i = 0; i < fsb_phase_count; i++) {
		a += (size_t)snprintf(phase_names + a, sizeof(phase_names) - a, "%s%s",
				      a ? "," : "", fsb_phases[i].name);
		if (fsb_phases[i].flags & FSB_PH_VERIFY)
			b += (size_t)snprintf(verify_names + b, sizeof(verify_names) - b, "%s%s",
					      b ? "," : "", fsb_phases[i].name);
	}
	vd_criteria_init(vc, fsb_fs_names(), phase_names, verify_names);
}

int results_criteria(const char *cmd, struct vd_criteria *vc, const char *file,
		     const char *baseline, const char *base_run, double tolerance)
{
	char err[1024];
	int rc;

	if (file && (rc = vd_criteria_file(vc, file, err, sizeof(err)))) {
		fsb_msg("%s: %s", cmd, err);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
	}
	if (baseline) {
		struct rep_set set;
		int ec = results_load(cmd, &set, baseline);
		if (ec >= 0)
			return ec;
		const struct rep_run *b = rep_find(&set, base_run);
		if (!b) {
			fsb_msg("%s: baseline %s: no run '%s'", cmd, set.path, base_run);
			rep_free(&set);
			return EXIT_USAGE;
		}
		rc = vd_criteria_baseline(vc, b, tolerance);
		rep_free(&set);
		if (rc)
			return fsb_fail(EXIT_SYSTEM, "%s: baseline %s: %s", cmd, baseline, strerror(-rc));
	}
	return -1;
}
