/* chart_ctx.h: inside the HTML charts (chart.c): the state of one page's
 * charts and the helpers a chart is drawn with, for the charts that live in
 * files of their own (chart_sustain.c). Not for use outside
 * runner/report/writers/. */
#ifndef FSB_REPORT_CHART_CTX_H
#define FSB_REPORT_CHART_CTX_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"
#include "report/writers/chart.h"

struct vd_result;

#define MAX_PHASES 32
#define MAX_CHARTS 13
#define MAX_SVG (32u * 1024u * 1024u)

/* Colours of the series, by filesystem (and run). */
extern const char *const colours[];
#define NCOLOURS 8

struct chart {
	const char *id;		/* "seconds": the figure's id is chart-seconds */
	const char *name;	/* "Seconds per phase" */
	char caption[400];
	char svg[512];		/* the file gnuplot writes */
	char absent[200];	/* why it is not drawn, or "" */
};

struct ctx {
	const struct chart_cmp *cmp;	/* a comparison's ratios, or NULL */
	const struct rep_run *const *runs;
	const char *const *labels;
	size_t n;
	const struct vd_result *v;
	char dir[256];		/* the temporary folder */
	unsigned nfiles;
	FILE *gp;		/* the script */
	int err;		/* a file could not be written */
	const char *phase[MAX_PHASES];	/* every run's phases, in order of appearance */
	size_t nphase;
	struct chart chart[MAX_CHARTS];
	size_t ncharts;
};

/* Text inside a gnuplot string or a quoted data field. */
void gp_text(char *dst, size_t len, const char *s);
/* The name of a series: "ext4 fresh", "RUN ext4 fresh" with several runs. */
void series_name(const struct ctx *x, size_t run, const char *fs, const char *what,
		 char *buf, size_t len);
/* A new data file: its path in path (NULL and x->err on failure). */
FILE *data_file(struct ctx *x, char *path, size_t len);
void data_close(struct ctx *x, FILE *f);
/* A new chart (at most MAX_CHARTS in a page). */
struct chart *new_chart(struct ctx *x, const char *id, const char *name);
/* The start of a chart in the script: a clean state, its size and file. */
void gp_start(struct ctx *x, const struct chart *c, int w, int h);
/* " NUMBER" or " NaN" into a data file. */
void fmt_num(FILE *f, double v);

/* chart_sustain.c: the sustained writes' throughput and temperature. */
void chart_sustain(struct ctx *x);
/* chart_fileserver.c: the file server's ops/s and append p99, fresh and aged. */
void chart_fileserver(struct ctx *x);
/* chart_compare.c: a comparison's ratios with their intervals. */
void chart_ratios(struct ctx *x);

#endif
