/* fragmentation.c: the table of the freespace records (the evidence on
 * fragmentation after each round's reads: load/load_freespace.c), and the
 * finding that says whether fragmentation is ruled out (runner/SUITE.md,
 * "The ext4 aging finding"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/sections/fragmentation.h"

int rep_table_freespace(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; unsigned view; } h[] = {
		{ "fs", NULL, REP_VIEW_ALL }, { "round", NULL, REP_VIEW_ALL },
		{ "free extents", "free_extents", REP_VIEW_ALL },
		{ "free", "free_bytes", REP_VIEW_ALL },
		{ "mean extent", "mean_extent_bytes", REP_VIEW_ALL },
		{ "largest extent", "largest_extent_bytes", REP_VIEW_ALL },
		{ "defrag score", "defrag_score", REP_VIEW_ALL },
		{ "detail", NULL, REP_VIEW_READ },
		{ "size_bytes", NULL, REP_VIEW_DATA },
		{ "btrfs_allocated_bytes", NULL, REP_VIEW_DATA },
		{ "btrfs_used_bytes", NULL, REP_VIEW_DATA },
		{ "btrfs_data_bytes", NULL, REP_VIEW_DATA },
		{ "btrfs_data_used_bytes", NULL, REP_VIEW_DATA },
		{ "f2fs_segments", NULL, REP_VIEW_DATA },
		{ "f2fs_partial_segments", NULL, REP_VIEW_DATA },
		{ "f2fs_partial_valid_blocks", NULL, REP_VIEW_DATA },
		{ "error", NULL, REP_VIEW_DATA },
	};
	enum { FS, ROUND, EXT, FREE, MEAN, LARGEST, SCORE, DETAIL, SIZE, BALLOC, BUSED, BDATA,
	       BDUSED, FSEG, FPART, FPVALID, ERROR, NH };

	tab_init(t, "freespace", "Free space and fragmentation (after each round's reads)",
		 SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++) {
		tab_col(t, c, c != FS && c != DETAIL && c != ERROR, h[c].head, h[c].key);
		tab_col_only(t, c, h[c].view);
	}
	for (size_t i = 0; i < r->nfsp; i++) {
		const struct rep_freespace *f = &r->fsp[i];
		size_t row = tab_row(t);
		char d[512] = "";
		size_t n = 0;

		for (size_t c = EXT; c < NH; c++)
			tab_missing(t, row, c);
		tab_text(t, row, FS, "%s", f->fs);
		tab_count(t, row, ROUND, f->round);
		if (f->have_extents) {
			tab_count(t, row, EXT, f->extents);
			tab_bytes(t, row, FREE, f->free_bytes);
			tab_bytes(t, row, MEAN, f->extents ? f->free_bytes / f->extents : 0);
			tab_bytes(t, row, LARGEST, f->largest_bytes);
		} else if (f->have_statfs) {
			tab_bytes(t, row, FREE, f->statfs_free);
		}
		if (f->have_score)
			tab_count(t, row, SCORE, f->score);
		if (f->have_statfs)
			tab_bytes(t, row, SIZE, f->size_bytes);
		if (f->have_btrfs) {
			tab_bytes(t, row, BALLOC, f->b_allocated);
			tab_bytes(t, row, BUSED, f->b_used);
			tab_bytes(t, row, BDATA, f->b_data_size);
			tab_bytes(t, row, BDUSED, f->b_data_used);
			n += (size_t)snprintf(d + n, sizeof(d) - n, "btrfs: %.1f of %.1f MiB allocated,"
					      " %.1f MiB used; data chunks %.1f MiB, %.0f%% used",
					      f->b_allocated / 1048576.0, f->b_size / 1048576.0,
					      f->b_used / 1048576.0, f->b_data_size / 1048576.0,
					      f->b_data_size ? 100.0 * (double)f->b_data_used /
					      (double)f->b_data_size : 0.0);
		}
		if (f->have_f2fs) {
			tab_count(t, row, FSEG, f->f_segments);
			tab_count(t, row, FPART, f->f_partial);
			tab_count(t, row, FPVALID, f->f_partial_valid);
			n += (size_t)snprintf(d + n, sizeof(d) - n, "f2fs: %" PRIu64 " segments, %" PRIu64
					      " empty, %" PRIu64 " full, %" PRIu64 " partly valid"
					      " (mean %.0f of %" PRIu64 " blocks)", f->f_segments, f->f_empty,
					      f->f_full, f->f_partial, f->f_partial ?
					      (double)f->f_partial_valid / (double)f->f_partial : 0.0, f->f_bps);
			if (f->f_dirty != UINT64_MAX && n < sizeof(d))
				n += (size_t)snprintf(d + n, sizeof(d) - n, ", %" PRIu64 " dirty", f->f_dirty);
		}
		if (f->error) {
			tab_text(t, row, ERROR, "%s", f->error);
			if (n < sizeof(d))
				snprintf(d + n, sizeof(d) - n, "%s%s", n ? "; " : "", f->error);
		}
		if (d[0])
			tab_text(t, row, DETAIL, "%s", d);
	}
	return tab_done(t);
}

/* "729 MiB", "0.5 MiB" */
static void mib(char *buf, size_t len, uint64_t bytes)
{
	double m = (double)bytes / 1048576.0;
	snprintf(buf, len, m >= 10 ? "%.0f MiB" : "%.1f MiB", m);
}

int rep_table_freespace_findings(const struct rep_run *r, struct rep_table *t)
{
	tab_init_text(t, "freespace_findings", NULL, SHAPE_NOTES, "fs", "finding", (char *)NULL);
	for (size_t i = 0; i < r->nfsp; i++) {
		const char *fs = r->fsp[i].fs;
		const struct rep_freespace *f = NULL;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)	/* each filesystem once */
			seen = !strcmp(r->fsp[j].fs, fs);
		if (seen)
			continue;
		for (size_t j = 0; j < r->nfsp; j++)	/* the last round: the most aged */
			if (!strcmp(r->fsp[j].fs, fs) && r->fsp[j].have_extents &&
			    (!f || r->fsp[j].round > f->round))
				f = &r->fsp[j];
		if (!f)
			continue;
		uint64_t mean = f->extents ? f->free_bytes / f->extents : 0;
		int few_large = f->extents && mean >= REP_FREE_MEAN_MIN;
		int score_ok = f->have_score && f->score <= REP_DEFRAG_SCORE_OK;
		char m[32], sc[96] = "";
		mib(m, sizeof(m), mean);
		if (f->have_score)
			snprintf(sc, sizeof(sc), ", defrag score %" PRIu64 "%s", f->score,
				 f->score <= REP_DEFRAG_SCORE_OK ? "" : f->score < 56 ?
				 " (a little fragmented: 31-55)" : " (needs defrag: 56 and up)");
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", fs);
		if (few_large && (score_ok || !f->have_score))
			tab_text(t, row, 1, "not fragmentation: %" PRIu64 " free extent%s of %s mean%s"
				 " (round %u)%s", f->extents, f->extents == 1 ? "" : "s", m,
				 f->have_score ? sc : "", f->round,
				 f->have_score ? "" : "; no defrag score for this filesystem");
		else
			tab_text(t, row, 1, "fragmentation not ruled out: %" PRIu64 " free extent%s of %s"
				 " mean%s (round %u)%s", f->extents, f->extents == 1 ? "" : "s", m, sc,
				 f->round, !few_large ? "; free space is in small pieces" : "");
	}
	return tab_done(t);
}
