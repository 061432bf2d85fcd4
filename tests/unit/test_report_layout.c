/* test_report_layout.c: the layout records in the report (fixtures.h): the
 * layout table, its rendering, the findings on aging (read order against
 * disk order), a finding from records in any order. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "fixtures.h"
#include "records.h"
#include "unit.h"

static void test_layout_table(void)
{
	struct rep_set set;
	struct rep_table t;
	const struct rep_run *r = fixture_run(&set, path_layout);

	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(r->nph, 30);
	CHECK_EQ_U(r->nlay, 6);
	const struct rep_layout *y = r->nlay == 6 ? &r->lay[1] : NULL;	/* ext4 round 2 */
	CHECK(y && strcmp(y->fs, "ext4") == 0 && y->round == 2 && !y->error);
	CHECK(y && y->files == 20000 && y->name.near == 0.02 && y->inode.near == 0.98);
	CHECK(y && y->name.forward == 0.51 && y->name.median_jump == 48211 && y->inode.median_jump == 1);
	CHECK(y && y->nfirst == 8 && y->first[0] == 1607168 && y->first[2] == 49817 && y->first[7] == 4);
	CHECK(y && y->line == 13);

	/* Markdown: percentages with one decimal, the first 4 blocks, "..." for more */
	CHECK(view(rep_table_layout(r, &t), &t, MD) == 0);
	CHECK_STR(t.name, "layout");
	CHECK_STR(t.title, "Layout (directory d0000, FIEMAP)");
	CHECK_EQ_U(t.ncols, 10);
	CHECK_EQ_U(t.nrows, 6);
	static const char *const hm[] = { "fs", "round", "files", "name forward %", "name near %",
		"name median jump", "inode forward %", "inode near %", "inode median jump",
		"first blocks (name order)" };
	static const char *const m1[] = { "ext4", "2", "20000", "51.0", "2.0", "48211", "99.9",
		"98.0", "1", "1607168 2157687 49817 1607169 ..." };
	static const char *const m3[] = { "xfs", "1", "20000", "97.0", "95.0", "1", "97.0",
		"95.0", "1", "24 25 26" };
	for (size_t c = 0; c < 10 && t.ncols == 10 && t.nrows == 6; c++) {
		CHECK_STR(head(&t, c), hm[c]);
		CHECK_STR(cell(&t, MD, 1, c), m1[c]);
		CHECK_STR(cell(&t, MD, 3, c), m3[c]);
	}
	CHECK_STR(cell(&t, MD, 4, 9), "1048600 1048601 1048602 1048603");	/* exactly 4: no "..." */
	CHECK_STR(cell(&t, MD, 2, 1), "3");
	CHECK_STR(cell(&t, MD, 2, 8), "1");
	rep_table_free(&t);

	/* CSV: three decimals, no "...", an error column */
	CHECK(view(rep_table_layout(r, &t), &t, CSV) == 0);
	CHECK_EQ_U(t.ncols, 11);
	static const char *const hc[] = { "fs", "round", "files", "name_forward_pct",
		"name_near_pct", "name_median_jump_blocks", "inode_forward_pct", "inode_near_pct",
		"inode_median_jump_blocks", "first_blocks", "error" };
	static const char *const c1[] = { "ext4", "2", "20000", "51.000", "2.000", "48211",
		"99.900", "98.000", "1", "1607168 2157687 49817 1607169", "" };
	for (size_t c = 0; c < 11 && t.ncols == 11 && t.nrows == 6; c++) {
		CHECK_STR(head(&t, c), hc[c]);
		CHECK_STR(cell(&t, CSV, 1, c), c1[c]);
	}
	rep_table_free(&t);

	/* the finding: ext4, the earliest aged round; not xfs */
	CHECK(view(rep_table_layout_findings(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 1);
	CHECK_STR(cell(&t, MD, 0, 0), "ext4");
	CHECK_STR(cell(&t, MD, 0, 1), "aged (round 2): name order is no longer disk order"
		  " (near 2% vs 98% by inode); reading in inode order is the remedy"
		  " (read_inode: 4.4 s vs read: 37.1 s)");
	rep_table_free(&t);

	/* a run without layout records has an empty layout table */
	rep_free(&set);
	r = fixture_run(&set, path_run);
	CHECK(r && r->nlay == 0);
	if (r && view(rep_table_layout(r, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.nrows, 0);
		rep_table_free(&t);
	}
	rep_free(&set);
}

static void test_layout_render(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_layout, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	char *s = r ? render(r, MD) : NULL;
	CHECK_CONTAINS(s, "\n\n## Layout (directory d0000, FIEMAP)\n\n"
		       "| fs   | round | files | name forward % | name near % | name median jump |"
		       " inode forward % | inode near % | inode median jump |"
		       " first blocks (name order)           |\n");
	CHECK_CONTAINS(s, "\n| ext4 |     2 | 20000 |           51.0 |         2.0 |            48211 |"
		       "            99.9 |         98.0 |                 1 |"
		       " 1607168 2157687 49817 1607169 ...   |\n");
	CHECK_CONTAINS(s, "| 2097200 2097201 2097202 2097203 ... |\n\n"
		       "- ext4: aged (round 2): name order is no longer disk order (near 2% vs 98%"
		       " by inode); reading in inode order is the remedy (read_inode: 4.4 s vs"
		       " read: 37.1 s)\n");
	CHECK(s && !strstr(s, "- xfs: aged"));
	CHECK(s && !strstr(s, "(round 3)"));
	/* after the latency table, at the end (no errors in this run) */
	const char *lat = s ? strstr(s, "## Latency") : NULL, *lay = s ? strstr(s, "## Layout") : NULL;
	CHECK(lat && lay && lat < lay);
	CHECK(s && s[strlen(s) - 1] == '\n' && strstr(s, "\n\n\n") == NULL);
	free(s);

	s = r ? render(r, CSV) : NULL;
	CHECK_CONTAINS(s, "\n\nlayout,fs,round,files,name_forward_pct,name_near_pct,"
		       "name_median_jump_blocks,inode_forward_pct,inode_near_pct,"
		       "inode_median_jump_blocks,first_blocks,error\n"
		       "layout,ext4,1,20000,99.900,98.000,1,99.900,98.000,1,49152 49153 49154 49155,\n"
		       "layout,ext4,2,20000,51.000,2.000,48211,99.900,98.000,1,"
		       "1607168 2157687 49817 1607169,\n");
	CHECK_CONTAINS(s, "\nlayout,xfs,3,20000,96.000,93.000,2,97.000,95.000,1,"
		       "2097200 2097201 2097202 2097203,\n");
	lat = s ? strstr(s, "\nlatency,fs,") : NULL;
	lay = s ? strstr(s, "\nlayout,fs,") : NULL;
	CHECK(lat && lay && lat < lay);
	CHECK(s && s[strlen(s) - 1] == '\n' && strstr(s, "\n\n\n") == NULL);
	free(s);
	rep_free(&set);

	/* no layout records: no layout table in either format */
	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	r = rep_find(&set, NULL);
	s = r ? render(r, MD) : NULL;
	CHECK(s && !strstr(s, "Layout"));
	free(s);
	s = r ? render(r, CSV) : NULL;
	CHECK(s && !strstr(s, "layout,"));
	free(s);
	rep_free(&set);
}

static void test_layout_findings(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];
#define LAY(fs, round, nn, in) "{\"type\":\"layout\",\"run_id\":\"L\",\"fs\":\"" fs "\"," \
	"\"round\":" #round ",\"files\":100,\"name_order\":{\"forward\":0.5,\"near\":" #nn "," \
	"\"median_jump_blocks\":9},\"inode_order\":{\"forward\":0.9,\"near\":" #in "," \
	"\"median_jump_blocks\":1}}\n"
#define PH(fs, round, ph, secs) "{\"type\":\"phase\",\"run_id\":\"L\",\"fs\":\"" fs "\"," \
	"\"round\":" #round ",\"phase\":\"" ph "\",\"seconds\":" #secs "}\n"
	static const char text[] =
		/* a: at the threshold (70% - 40% = 30%, 0.29999999999999993 in binary); no read times */
		LAY("a", 2, 0.4, 0.7)
		/* b: name order at 50% is not below 50% */
		LAY("b", 2, 0.5, 0.95)
		/* c: inode order only 29% better */
		LAY("c", 2, 0.4, 0.69)
		/* d: the fresh round never counts */
		LAY("d", 1, 0.02, 0.98)
		/* e: rounds 4 and 3 show it (the earlier round is reported), round 2
		 * does not; inode order was slower there */
		PH("e", 3, "read", 0.5) PH("e", 3, "read_inode", 0.75)
		LAY("e", 2, 0.6, 0.9) LAY("e", 4, 0.05, 0.95) LAY("e", 3, 0.1, 0.9)
		/* f: no FIEMAP */
		"{\"type\":\"layout\",\"run_id\":\"L\",\"fs\":\"f\",\"round\":2,\"dir\":\"d0000\","
		"\"error\":\"no FIEMAP on this filesystem\"}\n"
		/* g: the same round twice: the later record wins (and shows nothing) */
		LAY("g", 2, 0.02, 0.98) LAY("g", 2, 0.9, 0.95)
		/* h: both orders scattered (no order follows the disk): nothing to fix by order */
		LAY("h", 3, 0.01, 0.02);
#undef LAY
#undef PH

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	CHECK_STR(err, "");
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nlay == 10);
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK(view(rep_table_layout_findings(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	{
		static const struct cell_want want[] = {
			{ 0, 0, "a" },
			{ 0, 1, "aged (round 2): name order is no longer disk order" " (near 40% vs 70% by inode); reading in inode order is the remedy" " (no read and read_inode times for this round)" },
			{ 1, 0, "e" },
			{ 1, 1, "aged (round 3): name order is no longer disk order" " (near 10% vs 90% by inode); reading in inode order was not faster here" " (read_inode: 0.750 s vs read: 0.500 s)" },
		};
		CELLS_CHECK(&t, MD, want);
	}
	rep_table_free(&t);

	/* the error variant: a row of "-" with the reason (Markdown), an error
	 * column (CSV); the replaced record is listed once */
	CHECK(view(rep_table_layout(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 10);
	size_t fr = 8;
	for (size_t i = 0; i < t.nrows; i++)
		if (strcmp(cell(&t, MD, i, 0), "f") == 0)
			fr = i;
	CHECK_EQ_U(fr, 7);
	CHECK_STR(cell(&t, MD, fr, 1), "2");
	for (size_t c = 2; c < 9; c++)
		CHECK_STR(cell(&t, MD, fr, c), "-");
	CHECK_STR(cell(&t, MD, fr, 9), "no FIEMAP on this filesystem");
	CHECK_STR(cell(&t, MD, 8, 0), "g");
	CHECK_STR(cell(&t, MD, 8, 4), "90.0");	/* the later record */
	CHECK_STR(cell(&t, MD, 0, 9), "-");	/* no first_blocks */
	rep_table_free(&t);
	CHECK(view(rep_table_layout(r, &t), &t, CSV) == 0);
	for (size_t c = 2; c < 10; c++)
		CHECK_STR(cell(&t, CSV, 7, c), "");
	CHECK_STR(cell(&t, CSV, 7, 10), "no FIEMAP on this filesystem");
	CHECK_STR(cell(&t, CSV, 0, 10), "");
	rep_table_free(&t);
	rep_free(&set);
}

/* create_order = shuffled: the finding holds from round 1 and says why. */
static void test_shuffled_finding(void)
{
	static const char *const fmt =
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":1,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"create\",\"order\":\"%s\",\"seconds\":8.2,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":2,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"read\",\"order\":\"name\",\"seconds\":10.1,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":3,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"read_inode\",\"order\":\"inode\",\"seconds\":7.0,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"layout\",\"run_id\":\"e1\",\"seq\":4,\"fs\":\"ext4\","
		"\"round\":1,\"dir\":\"d0000\",\"files\":20000,\"mapped\":20000,"
		"\"name_order\":{\"steps\":19999,\"forward\":0.49,\"near\":0.001,\"median_jump_blocks\":518037},"
		"\"inode_order\":{\"steps\":19999,\"forward\":0.996,\"near\":0.987,\"median_jump_blocks\":2}}\n";
	char text[2048], err[256];
	struct rep_set set;

	snprintf(text, sizeof(text), fmt, "shuffled");
	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	char *md = set.nruns ? render(set.runs[0], MD) : NULL;
	CHECK_CONTAINS(md, "- ext4: created in shuffled order (round 1): name order is not disk order"
		       " (near 0% vs 99% by inode); reading in inode order is the remedy"
		       " (read_inode: 7.0 s vs read: 10.1 s)\n");
	CHECK_CONTAINS(md, "| ext4 |     1 | create     | shuffled |");
	free(md);
	rep_free(&set);

	/* the same layout in round 1 of a name-order run is not a finding:
	 * a fresh filesystem created in name order is the baseline */
	snprintf(text, sizeof(text), fmt, "name");
	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	md = set.nruns ? render(set.runs[0], MD) : NULL;
	CHECK(md && !strstr(md, "name order is not disk order") && !strstr(md, "aged (round"));
	free(md);
	rep_free(&set);
}

FIXTURES_MAIN(test_layout_table, test_layout_render, test_layout_findings, test_shuffled_finding)
