/* chart.h: the charts of the HTML page (chart.c), drawn by gnuplot as SVG
 * and written inline. They take an array of runs, so one run's report and
 * a comparison of runs side by side draw the same charts:
 *
 *   seconds  seconds per phase, per filesystem, fresh (round 1) and aged
 *            (the median of rounds 2..N)
 *   latency  latency percentiles (p50 .. max) per phase, fresh and aged
 *   layout   the block number of each file of d0000 (sampled) in name order
 *            and in inode order, fresh and aged, per filesystem
 *   rounds   seconds per round, per phase and filesystem
 *   verdict  each check's measured value over its limit
 *   powercut each power-cut cycle's acknowledged operations, lost and torn files
 *   sustain  each sustained write's throughput and temperature over time,
 *            the cliff's threshold and moment (chart_sustain.c)
 *   fileserver the file server's operations per second and random append's
 *            p99, fresh and aged (chart_fileserver.c)
 *   ratios   a comparison's rows: each later side's ratio of medians to
 *            A's with its 95 % interval, flagged rows coloured, the
 *            tolerance's band about 1 (chart_compare.c; compare only)
 *
 * A chart of what no run measures (report/measures.h: a sustained write
 * has no seconds per phase) is left out; one of what a run measures but
 * holds no data for is replaced by a line saying why. Where gnuplot cannot
 * run, the page says why there are no charts.
 */
#ifndef FSB_REPORT_CHART_H
#define FSB_REPORT_CHART_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"

struct vd_result;	/* report/verdict/criteria.h */
struct chart_cmp;	/* report/writers/writer.h */

/* The environment variable naming the gnuplot program (a name looked up
 * in $PATH, or a path); unset or empty: "gnuplot". */
#define CHART_GNUPLOT_ENV "FSBENCH_GNUPLOT"
/* Seconds gnuplot may take for every chart of a page. */
#define CHART_TIMEOUT 120

/* The charts of runs[0..n) as an HTML fragment: the verdict, then a
 * <section id="charts">. labels[i] names runs[i] in the legends when n > 1;
 * v (may be NULL): the verdict's box, first, and its checks, the first
 * chart; without v, for one run and no cmp, a line that no criteria were
 * given stands first; cmp (may be NULL): a comparison's ratios,
 * shown first. Temporary files go to $TMPDIR (default
 * /tmp) and are removed. Returns 0 (gnuplot missing or failing is said in
 * the fragment), or -ENOMEM. */
int chart_html(FILE *out, const struct rep_run *const *runs, const char *const *labels,
	       size_t n, const struct vd_result *v, const struct chart_cmp *cmp);

#endif
