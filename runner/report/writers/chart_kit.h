/* chart_kit.h: what the HTML page's charts are drawn with (chart_kit.c):
 * the state of one page's charts (struct chk_ctx), the series' colours,
 * and the helpers that write a chart's data files and its part of the
 * gnuplot script; used by chart.c and by the charts in files of their own
 * (chart_sustain.c, chart_fileserver.c, chart_compare.c). Not for use
 * outside runner/report/writers/. */
#ifndef FSB_REPORT_CHART_KIT_H
#define FSB_REPORT_CHART_KIT_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"

struct vd_result;	/* report/verdict/criteria.h */
struct chart_cmp;	/* report/writers/writer.h */

#define CHK_MAX_PHASES 32
#define CHK_MAX_CHARTS 13

/* Colours of the series, by filesystem (and run). */
#define CHK_NCOLOURS 8
extern const char *const chk_colours[CHK_NCOLOURS];

struct chk_chart {
	const char *id;		/* "seconds": the figure's id is chart-seconds */
	const char *name;	/* "Seconds per phase" */
	char caption[400];
	char svg[512];		/* the file gnuplot writes */
	char absent[200];	/* why it is not drawn, or "" */
};

struct chk_ctx {
	const struct chart_cmp *cmp;	/* a comparison's ratios, or NULL */
	const struct rep_run *const *runs;
	const char *const *labels;
	size_t n;
	const struct vd_result *v;
	char dir[256];		/* the temporary folder */
	unsigned nfiles;
	FILE *gp;		/* the script */
	int err;		/* a file could not be written */
	const char *phase[CHK_MAX_PHASES];	/* every run's phases, in order of appearance */
	size_t nphase;
	struct chk_chart chart[CHK_MAX_CHARTS];
	size_t ncharts;
};

/* Text inside a gnuplot string (in single quotes) or a quoted data field
 * (in double quotes): quotes, backslashes, '#' (a comment in a data file)
 * and control characters become '_'. */
void chk_gp_text(char *dst, size_t len, const char *s);
/* The name of a series: "ext4 fresh", "RUN ext4 fresh" with several runs. */
void chk_series_name(const struct chk_ctx *x, size_t run, const char *fs, const char *what,
		     char *buf, size_t len);
/* A new data file: its path in path (NULL and x->err on failure). */
FILE *chk_data_file(struct chk_ctx *x, char *path, size_t len);
void chk_data_close(struct chk_ctx *x, FILE *f);
/* A new chart (at most CHK_MAX_CHARTS in a page). */
struct chk_chart *chk_new_chart(struct chk_ctx *x, const char *id, const char *name);
/* The start of a chart in the script: a clean state, its size and file. */
void chk_gp_start(struct chk_ctx *x, const struct chk_chart *c, int w, int h);
/* " NUMBER" or " NaN" into a data file. */
void chk_fmt_num(FILE *f, double v);

/* The charts drawn with the kit in files of their own, rows of chart.c's
 * charts[]. chart_sustain.c: the sustained writes' throughput and
 * temperature. */
void chart_sustain(struct chk_ctx *x);
/* chart_fileserver.c: the file server's ops/s and append p99, fresh and aged. */
void chart_fileserver(struct chk_ctx *x);
/* chart_compare.c: a comparison's ratios with their intervals. */
void chart_ratios(struct chk_ctx *x);

#endif
