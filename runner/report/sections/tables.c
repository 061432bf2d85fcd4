/* tables.c: the tables of one run's report (see tables.h). The cells hold
 * values; how a value looks is up to the writer. */
#include "report/sections/tables.h"
#include "report/sections/summary.h"
#include "report/measures.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* Filesystems that have results, in run order. */
static size_t fs_cols(const struct rep_run *r, const struct rep_fs **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfs && n < max; i++)
		if (r->fs[i].nphases)
			out[n++] = &r->fs[i];
	return n;
}

static void kv(struct rep_table *t, unsigned view, const char *k, const char *v)
{
	size_t row = tab_row_only(t, view);
	tab_text(t, row, 0, "%s", k);
	tab_text(t, row, 1, "%s", nz(v));
}

/* As data: one row per field, as the records have it. */
static void run_fields(const struct rep_run *r, struct rep_table *t)
{
	const struct { const char *k, *v; } f[] = {
		{ "run_id", r->run_id }, { "version", r->version }, { "mode", r->mode },
		{ "hostname", r->hostname }, { "kernel", r->kernel },
		{ "machine", r->machine }, { "cpu_model", r->cpu_model },
		{ "cpus", r->cpus }, { "mem_bytes", r->mem_bytes },
		{ "target", r->target_path }, { "target_model", r->target_model },
		{ "target_serial", r->target_serial },
		{ "target_size_bytes", r->target_size },
		{ "target_spec", r->target_spec },
		{ "target_write_cache", r->target_write_cache }, { "target_fua", r->target_fua },
		{ "profile", r->profile }, { "fs", r->cfg_fs }, { "dirs", r->dirs },
		{ "files", r->files }, { "file_size", r->file_size },
		{ "workers", r->workers }, { "rounds", r->rounds },
		{ "status", r->have_end ? r->status : "incomplete" },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		kv(t, REP_VIEW_DATA, f[i].k, f[i].v);
	if (r->kmsg_source) {	/* the kernel log, as runs that read it have it */
		kv(t, REP_VIEW_DATA, "kmsg", r->kmsg_source);
		const struct { const char *k; long long v; } n[] = {
			{ "kmsg_recorded", (long long)r->kmsg_recorded },
			{ "kmsg_dropped", (long long)r->kmsg_dropped },
			{ "kmsg_lost", r->kmsg_lost },
		};
		for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
			size_t row = tab_row_only(t, REP_VIEW_DATA);
			tab_text(t, row, 0, "%s", n[i].k);
			if (n[i].v >= 0)
				tab_count(t, row, 1, (uint64_t)n[i].v);
		}
	}
	size_t row = tab_row_only(t, REP_VIEW_DATA);
	tab_text(t, row, 0, "exit_code");
	if (r->exit_code >= 0)
		tab_count(t, row, 1, (uint64_t)r->exit_code);
	row = tab_row_only(t, REP_VIEW_DATA);
	tab_text(t, row, 0, "seconds");
	if (r->seconds >= 0)
		tab_fixed(t, row, 1, r->seconds, 3);
}

/* For a reader: how many kernel messages the run recorded, or why none. */
static void kmsg_line(const struct rep_run *r, struct rep_table *t)
{
	size_t row = tab_row_only(t, REP_VIEW_READ);
	char more[96] = "", lost[96] = "";

	tab_text(t, row, 0, "kernel log");
	if (strncmp(r->kmsg_source, "not available", 13) == 0) {
		tab_text(t, row, 1, "not read (%s)", r->kmsg_source);
		return;
	}
	if (r->kmsg_dropped)
		snprintf(more, sizeof(more), ", %llu more not recorded (at most %llu per phase)",
			 (unsigned long long)r->kmsg_dropped, (unsigned long long)r->kmsg_max);
	if (r->kmsg_lost > 0)
		snprintf(lost, sizeof(lost), "; %lld overwritten before they were read", r->kmsg_lost);
	tab_text(t, row, 1, "%llu message%s at warning level or above during the run%s%s",
		 (unsigned long long)r->kmsg_recorded, r->kmsg_recorded == 1 ? "" : "s", more, lost);
}

/* For a reader: a few sentences. */
static void run_lines(const struct rep_run *r, struct rep_table *t)
{
	const unsigned R = REP_VIEW_READ;
	char a[128], b[128], cfg[1024];

	kv(t, R, "run", r->run_id);
	if (!r->have_start) {
		kv(t, R, "host", "unknown (no run_start record)");
	} else {
		size_t row = tab_row_only(t, R);
		rep_bytes_text(a, sizeof(a), r->mem_bytes);
		tab_text(t, row, 0, "host");
		tab_text(t, row, 1, "%s%s%s%s%s%s%s%s%s",
			 r->hostname ? r->hostname : "?",
			 r->machine ? " (" : "", nz(r->machine), r->machine ? ")" : "",
			 r->cpus ? ", " : "", nz(r->cpus), r->cpus ? " CPUs" : "",
			 r->mem_bytes ? ", " : "", r->mem_bytes ? a : "");
		if (r->cpu_model)
			kv(t, R, "cpu", r->cpu_model);
		row = tab_row_only(t, R);
		tab_text(t, row, 0, "kernel");
		tab_text(t, row, 1, "%s%s%s%s", r->kernel ? r->kernel : "?",
			 r->kernel_build ? " (" : "", nz(r->kernel_build), r->kernel_build ? ")" : "");
		row = tab_row_only(t, R);
		rep_bytes_text(b, sizeof(b), r->target_size);
		char wc[64] = "";	/* what a power cut may take: its cache, FUA or not */
		if (r->target_write_cache)
			snprintf(wc, sizeof(wc), "; %s cache%s", r->target_write_cache,
				 !r->target_fua ? "" : strcmp(r->target_fua, "true") ? ", no FUA" : ", FUA");
		tab_text(t, row, 0, "target");
		if ((!r->target_path || !*r->target_path) && r->target_spec && *r->target_spec)
			tab_text(t, row, 1, "%s (not resolved to a disk)", r->target_spec);
		else
			tab_text(t, row, 1, "%s%s%s%s%s%s%s%s%s",
				 r->target_path ? r->target_path : "?",
				 r->target_model ? ", " : "", nz(r->target_model),
				 r->target_serial ? " (serial " : "", nz(r->target_serial),
				 r->target_serial ? ")" : "",
				 r->target_size ? ", " : "", r->target_size ? b : "", wc);
		row = tab_row_only(t, R);
		rep_config_text(r, cfg, sizeof(cfg));
		tab_text(t, row, 0, "config");
		tab_text(t, row, 1, "%s", cfg);
	}
	if (r->kmsg_source)
		kmsg_line(r, t);
	size_t row = tab_row_only(t, R);
	tab_text(t, row, 0, "status");
	if (!r->have_end)
		tab_text(t, row, 1, "incomplete (no run_end record)");
	else if (r->exit_code >= 0 && r->seconds >= 0)
		tab_text(t, row, 1, "%s (exit %ld, %.1f s)", r->status ? r->status : "?",
			 r->exit_code, r->seconds);
	else
		tab_text(t, row, 1, "%s", r->status ? r->status : "?");
}

int rep_table_run(const struct rep_run *r, struct rep_table *t)
{
	tab_init_text(t, "run", NULL, SHAPE_KV, "key", "value", (char *)NULL);
	run_fields(r, t);
	run_lines(r, t);
	return tab_done(t);
}

static int summary_like(const struct rep_run *r, struct rep_table *t, int rate)
{
	const struct rep_fs **cols = calloc(r->nfs ? r->nfs : 1, sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	size_t nc = fs_cols(r, cols, r->nfs);
	static const enum rep_row rate_rows[] = { ROW_CREATE, ROW_DELETE };
	size_t nrows = rate ? 2 : ROW_N;

	tab_init(t, rate ? "rate" : "summary",
		 rate ? "Files per second (median of rounds, higher is better)"
		      : "Summary (seconds, median of rounds, lower is better)",
		 SHAPE_GRID, nc + 1);
	tab_col(t, 0, 0, "phase", NULL);
	for (size_t c = 0; c < nc; c++)
		tab_col(t, c + 1, 1, cols[c]->name, NULL);
	for (size_t i = 0; i < nrows; i++) {
		enum rep_row row = rate ? rate_rows[i] : (enum rep_row)i;
		size_t ri = tab_row(t);
		if (rate)
			tab_text(t, ri, 0, "%s files/s", rep_row_phase(row));
		else
			tab_text(t, ri, 0, "%s", rep_row_name(row));
		for (size_t c = 0; c < nc; c++) {
			double v;
			if (!rep_summary(r, cols[c]->name, row, rate, &v))
				tab_missing(t, ri, c + 1);
			else
				tab_num(t, ri, c + 1, rate ? CELL_RATE : CELL_SECONDS, v);
		}
	}
	free(cols);
	return tab_done(t);
}

int rep_table_summary(const struct rep_run *r, struct rep_table *t)
{
	return summary_like(r, t, 0);
}

int rep_table_rate(const struct rep_run *r, struct rep_table *t)
{
	return summary_like(r, t, 1);
}

int rep_table_fs_status(const struct rep_run *r, struct rep_table *t)
{
	tab_init_text(t, "fs_status", NULL, SHAPE_NOTES, "fs", "status", "reason", (char *)NULL);
	for (size_t i = 0; i < r->nfs; i++) {
		const struct rep_fs *fs = &r->fs[i];
		const char *st = fs->status ? fs->status : "incomplete";
		const char *why = fs->status ? nz(fs->reason) : "no fs_end record";
		/* a reader gets what needs a note; data lists every filesystem */
		int ok = fs->status && strcmp(fs->status, "ok") == 0;
		size_t row = tab_row_only(t, ok ? REP_VIEW_DATA : REP_VIEW_ALL);
		tab_text(t, row, 0, "%s", fs->name);
		tab_text(t, row, 1, "%s", st);
		tab_text(t, row, 2, "%s", why);
	}
	return tab_done(t);
}

int rep_table_warm(const struct rep_run *r, struct rep_table *t)
{
	size_t warm = 0;

	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].cold == 0 && (strcmp(r->ph[i].phase, "stat") == 0 ||
					   strncmp(r->ph[i].phase, "read", 4) == 0))
			warm++;
	tab_init_text(t, "warm", NULL, SHAPE_NOTES, "note", (char *)NULL);
	if (warm)
		tab_text(t, tab_row(t), 0, "warm cache: %zu stat/read phase%s ran without a"
			 " remount (cold: false); those \"cold\" figures are warm",
			 warm, warm == 1 ? "" : "s");
	return tab_done(t);
}

int rep_table_rounds(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "phase", NULL }, { "order", NULL },
		{ "cold", NULL }, { "seconds", NULL }, { "sync s", "sync_seconds" },
		{ "files", NULL }, { "files/s", "files_per_s" }, { "errors", NULL },
		{ "verify errors", "verify_errors" },
	};
	size_t nh = sizeof(h) / sizeof(h[0]);

	tab_init(t, "rounds", "Rounds", SHAPE_GRID, nh);
	for (size_t c = 0; c < nh; c++)
		tab_col(t, c, c == 1 || c >= 5, h[c].head, h[c].key);
	if (r->raw)	/* repetitions (report/load/load_reps.c) */
		t->note = "Each row is the median of the phase's repetitions (errors: their sum);"
			  " the Repetitions table has their spread.";
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", p->fs);
		tab_count(t, row, 1, p->round);
		tab_text(t, row, 2, "%s", p->phase);
		tab_str(t, row, 3, p->order);
		if (p->cold >= 0)
			tab_text(t, row, 4, "%s", p->cold ? "yes" : "no");
		else
			tab_missing(t, row, 4);
		tab_num(t, row, 5, CELL_SECONDS, p->seconds);
		tab_num_if(t, row, 6, p->sync_seconds >= 0, CELL_SECONDS, p->sync_seconds);
		tab_count(t, row, 7, p->files);
		if (p->trim)	/* fstrim: no files */
			tab_missing(t, row, 8);
		else
			tab_num(t, row, 8, CELL_RATE, p->files_per_s);
		tab_count(t, row, 9, p->errors);
		tab_count(t, row, 10, p->verify_errors);
	}
	return tab_done(t);
}

int rep_table_latency(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "phase", NULL }, { "p50", "p50_us" },
		{ "p90", "p90_us" }, { "p99", "p99_us" }, { "p99.9", "p999_us" },
		{ "max", "max_us" },
	};

	tab_init(t, "latency", "Latency per file (microseconds)", SHAPE_GRID, 8);
	for (size_t c = 0; c < 8; c++)
		tab_col(t, c, c == 1 || c >= 3, h[c].head, h[c].key);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->trim)	/* fstrim: one call, not a file (the TRIM table) */
			continue;
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", p->fs);
		tab_count(t, row, 1, p->round);
		tab_text(t, row, 2, "%s", p->phase);
		for (int k = 0; k < 5; k++) {
			double ns = p->have_lat ? p->lat_ns[k] : -1;
			if (ns < 0)
				tab_missing(t, row, 3 + (size_t)k);
			else
				tab_num(t, row, 3 + (size_t)k, CELL_USEC, ns / 1000);
		}
	}
	return tab_done(t);
}

int rep_table_layout(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "files", NULL },
		{ "name forward %", "name_forward_pct" }, { "name near %", "name_near_pct" },
		{ "name median jump", "name_median_jump_blocks" },
		{ "inode forward %", "inode_forward_pct" }, { "inode near %", "inode_near_pct" },
		{ "inode median jump", "inode_median_jump_blocks" },
		{ "first blocks (name order)", "first_blocks" }, { "error", NULL },
	};
	enum { FIRST = 9, ERROR = 10, NH = 11 };

	tab_init(t, "layout", "Layout (directory d0000, FIEMAP)", SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= 1 && c <= 8, h[c].head, h[c].key);
	/* as data the reason of an error row has a column of its own; a
	 * reader sees it in the row's last cell */
	tab_col_only(t, ERROR, REP_VIEW_DATA);
	for (size_t i = 0; i < r->nlay; i++) {
		const struct rep_layout *y = &r->lay[i];
		if (y->error) {
			static const unsigned views[2] = { REP_VIEW_READ, REP_VIEW_DATA };
			for (size_t v = 0; v < 2; v++) {
				size_t row = tab_row_only(t, views[v]);
				size_t last = views[v] == REP_VIEW_READ ? FIRST : ERROR;
				tab_text(t, row, 0, "%s", y->fs);
				tab_count(t, row, 1, y->round);
				for (size_t c = 2; c < last; c++)
					tab_missing(t, row, c);
				tab_text(t, row, last, "%s", y->error);
			}
			continue;
		}
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", y->fs);
		tab_count(t, row, 1, y->round);
		tab_count(t, row, 2, y->files);
		const struct rep_layout_order *o[2] = { &y->name, &y->inode };
		for (size_t k = 0; k < 2; k++) {
			tab_num(t, row, 3 + 3 * k, CELL_PERCENT, o[k]->forward);
			tab_num(t, row, 4 + 3 * k, CELL_PERCENT, o[k]->near);
			tab_count(t, row, 5 + 3 * k, o[k]->median_jump);
		}
		if (!y->nfirst) {
			tab_missing(t, row, FIRST);
			continue;
		}
		char fb[REP_LAYOUT_SHOW * 21 + 8];
		size_t n = 0;
		for (size_t k = 0; k < y->nfirst && k < REP_LAYOUT_SHOW; k++)
			n += (size_t)snprintf(fb + n, sizeof(fb) - n, "%s%llu", k ? " " : "",
					      (unsigned long long)y->first[k]);
		tab_text(t, row, FIRST, "%s", fb);
		if (y->nfirst > REP_LAYOUT_SHOW)
			tab_more(t, row, FIRST);
	}
	return tab_done(t);
}

/* Seconds of a phase of one round (the later record, if there are two). */
static int phase_seconds(const struct rep_run *r, const char *fs, unsigned round,
			 const char *phase, double *out)
{
	int found = 0;
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->round == round && strcmp(p->fs, fs) == 0 && strcmp(p->phase, phase) == 0) {
			*out = p->seconds;
			found = 1;
		}
	}
	return found;
}

/* "4.4 s", "37.1 s"; short runs keep their digits: "0.052 s". */
static void fmt_secs(char *buf, size_t len, double s)
{
	snprintf(buf, len, s >= 1 ? "%.1f s" : "%.3f s", s);
}

/* The round's create phase ran in shuffled order (create_order). */
static int created_shuffled(const struct rep_run *r, const char *fs, unsigned round)
{
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->round == round && strcmp(p->fs, fs) == 0 && strcmp(p->phase, "create") == 0 &&
		    p->order && strcmp(p->order, "shuffled") == 0)
			return 1;
	}
	return 0;
}

/* Name order has left the disk while inode order follows it: in an aged
 * round, or in any round whose files were created in shuffled order. */
static int layout_decoupled(const struct rep_layout *y, int shuffled)
{
	return !y->error && (shuffled || y->round >= REP_AGED_ROUND) &&
	       y->name.near < REP_NAME_NEAR_MAX &&
	       y->inode.near - y->name.near >= REP_INODE_NEAR_GAP - 1e-9;
}

int rep_table_layout_findings(const struct rep_run *r, struct rep_table *t)
{
	tab_init_text(t, "layout_findings", NULL, SHAPE_NOTES, "fs", "finding", (char *)NULL);
	for (size_t i = 0; i < r->nfs; i++) {
		const char *fs = r->fs[i].name;
		const struct rep_layout *hit = NULL;
		int shuffled = 0;
		for (size_t j = 0; j < r->nlay; j++) {	/* the earliest round that shows it */
			const struct rep_layout *y = &r->lay[j];
			if (y->fs != fs || (hit && y->round >= hit->round))
				continue;
			int sh = created_shuffled(r, fs, y->round);
			if (layout_decoupled(y, sh)) {
				hit = y;
				shuffled = sh;
			}
		}
		if (!hit)
			continue;
		char rd[32], ri[32], why[192];
		double sr = 0, si = 0;
		int hr = phase_seconds(r, fs, hit->round, "read", &sr);
		int hi = phase_seconds(r, fs, hit->round, "read_inode", &si);
		fmt_secs(rd, sizeof(rd), sr);
		fmt_secs(ri, sizeof(ri), si);
		if (hr && hi && si < sr)
			snprintf(why, sizeof(why), "reading in inode order is the remedy"
				 " (read_inode: %s vs read: %s)", ri, rd);
		else if (hr && hi)
			snprintf(why, sizeof(why), "reading in inode order was not faster here"
				 " (read_inode: %s vs read: %s)", ri, rd);
		else
			snprintf(why, sizeof(why), "reading in inode order is the remedy"
				 " (no read and read_inode times for this round)");
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", fs);
		if (shuffled)
			tab_text(t, row, 1, "created in shuffled order (round %u): name order is not"
				 " disk order (near %.0f%% vs %.0f%% by inode); %s", hit->round,
				 hit->name.near * 100, hit->inode.near * 100, why);
		else
			tab_text(t, row, 1, "aged (round %u): name order is no longer disk order"
				 " (near %.0f%% vs %.0f%% by inode); %s", hit->round,
				 hit->name.near * 100, hit->inode.near * 100, why);
	}
	return tab_done(t);
}

int rep_table_errors(const struct rep_run *r, struct rep_table *t)
{
	static const char *const h[] = { "kind", "fs", "round", "phase", "op", "file",
		"detail" };
	tab_init(t, "errors", "Errors and verification failures", SHAPE_GRID, 7);
	for (size_t c = 0; c < 7; c++)
		tab_col(t, c, c == 2, h[c], NULL);
	for (size_t i = 0; i < r->nev; i++) {
		const struct rep_event *e = &r->ev[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", e->verify ? "verify_error" : "error");
		tab_text(t, row, 1, "%s", e->fs ? e->fs : "-");
		if (e->round > 0)
			tab_count(t, row, 2, (uint64_t)e->round);
		else
			tab_text(t, row, 2, "-");
		tab_text(t, row, 3, "%s", e->phase ? e->phase : "-");
		tab_text(t, row, 4, "%s", e->op ? e->op : e->verify ? "verify" : "-");
		tab_text(t, row, 5, "%s", e->file ? e->file : "-");
		if (e->verify && e->op && strcmp(e->op, "size") == 0)
			tab_text(t, row, 6, "size %llu, expected %llu",
				 (unsigned long long)e->offset, (unsigned long long)e->count);
		else if (e->verify)
			tab_text(t, row, 6, "%llu bytes wrong, the first at offset %llu",
				 (unsigned long long)e->count, (unsigned long long)e->offset);
		else if (e->err_no)
			tab_text(t, row, 6, "%s%s(errno %ld)%s", nz(e->msg), e->msg ? " " : "",
				 e->err_no, e->fatal ? ", fatal" : "");
		else
			tab_text(t, row, 6, "%s%s", e->msg ? e->msg : "error",
				 e->fatal ? ", fatal" : "");
	}
	if (r->nev_total > r->nev) {
		size_t row = tab_row(t);
		tab_text(t, row, 0, "more");
		tab_text(t, row, 6, "%zu more not listed", r->nev_total - r->nev);
	}
	return tab_done(t);
}

static const char *const kmsg_levels[] = { "emerg", "alert", "crit", "err", "warning",
	"notice", "info", "debug" };
static const char *const kmsg_facilities[] = { "kern", "user", "mail", "daemon", "auth",
	"syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp" };

int rep_table_kmsg(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; unsigned view; } h[] = {
		{ "fs", NULL, REP_VIEW_ALL }, { "round", NULL, REP_VIEW_ALL },
		{ "phase", NULL, REP_VIEW_ALL },
		{ "level", NULL, REP_VIEW_READ }, { "level", NULL, REP_VIEW_DATA },
		{ "facility", NULL, REP_VIEW_READ }, { "facility", NULL, REP_VIEW_DATA },
		{ "kernel time s", NULL, REP_VIEW_READ }, { "ts_usec", NULL, REP_VIEW_DATA },
		{ "text", NULL, REP_VIEW_ALL }, { "dropped", NULL, REP_VIEW_DATA },
	};
	enum { FS, ROUND, PHASE, LEVEL, LEVEL_N, FAC, FAC_N, TIME, TS, TEXT, DROPPED, NH };

	tab_init(t, "kmsg", "Kernel messages (warning level or above), per phase", SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++) {
		tab_col(t, c, c == ROUND || c == TIME, h[c].head, h[c].key);
		tab_col_only(t, c, h[c].view);
	}
	for (size_t i = 0; i < r->nkm; i++) {
		const struct rep_kmsg *k = &r->km[i];
		size_t row = tab_row(t);
		tab_str(t, row, FS, k->fs);
		if (k->round)
			tab_count(t, row, ROUND, k->round);
		else
			tab_missing(t, row, ROUND);
		tab_text(t, row, PHASE, "%s", k->phase);
		if (!k->text) {	/* a kmsg_dropped count */
			for (size_t c = LEVEL; c < TEXT; c++)
				tab_missing(t, row, c);
			tab_text(t, row, TEXT, "%llu more not recorded (at most %llu per phase)",
				 (unsigned long long)k->dropped, (unsigned long long)r->kmsg_max);
			tab_count(t, row, DROPPED, k->dropped);
			continue;
		}
		tab_text(t, row, LEVEL, "%s", kmsg_levels[k->level & 7]);
		tab_count(t, row, LEVEL_N, (uint64_t)k->level);
		if (k->facility < 0) {
			tab_missing(t, row, FAC);
			tab_missing(t, row, FAC_N);
		} else {
			if ((size_t)k->facility < sizeof(kmsg_facilities) / sizeof(kmsg_facilities[0]))
				tab_text(t, row, FAC, "%s", kmsg_facilities[k->facility]);
			else if (k->facility >= 16 && k->facility <= 23)
				tab_text(t, row, FAC, "local%d", k->facility - 16);
			else
				tab_text(t, row, FAC, "%d", k->facility);
			tab_count(t, row, FAC_N, (uint64_t)k->facility);
		}
		tab_fixed(t, row, TIME, (double)k->ts_usec / 1e6, 6);
		tab_count(t, row, TS, k->ts_usec);
		tab_text(t, row, TEXT, "%s", k->text);
		if (k->cut)
			tab_more(t, row, TEXT);
	}
	return tab_done(t);
}

int rep_table_disks(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "disk", "path" }, { "size", "size_bytes" }, { "model", NULL },
		{ "serial", NULL }, { "transport", NULL }, { "partlabel", NULL },
	};
	tab_init(t, "disks", "Disks the runner saw (name one as the target: path:, "
		 "serial:, model:, wwn: or partlabel:)", SHAPE_GRID, 6);
	for (size_t c = 0; c < 6; c++)
		tab_col(t, c, c == 1, h[c].head, h[c].key);
	for (size_t i = 0; i < r->ndisk; i++) {
		const struct rep_disk *d = &r->disk[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", nz(d->path));
		tab_bytes(t, row, 1, d->size);
		tab_text(t, row, 2, "%s", d->model && *d->model ? d->model : "-");
		tab_text(t, row, 3, "%s", d->serial && *d->serial ? d->serial : "-");
		tab_text(t, row, 4, "%s", d->transport && *d->transport ? d->transport : "-");
		tab_text(t, row, 5, "%s", d->partlabel && *d->partlabel ? d->partlabel : "-");
	}
	return tab_done(t);
}

/* A health number in a cell: a count, a signed difference, or digits. */
static void hnum_cell(struct rep_table *t, size_t row, size_t col, const struct rep_hnum *n,
		      int bytes)
{
	if (!n->have)
		tab_missing(t, row, col);
	else if (n->digits)
		tab_text(t, row, col, "%s", n->digits);
	else if (n->neg)
		tab_text(t, row, col, "-%llu", (unsigned long long)n->n);
	else if (bytes)
		tab_bytes(t, row, col, n->n);
	else
		tab_count(t, row, col, n->n);
}

/* A text (a reason, a value) in a before/after cell, or "-" when it or
 * that record is missing. */
static void na_cell(struct rep_table *t, size_t row, size_t col, const struct rep_health *h,
		    const char *na)
{
	tab_str(t, row, col, h->have ? na : NULL);
}

/* A row of the health table in view (REP_VIEW_ALL: both): its label for
 * a reader, its key as data. */
static size_t health_row(struct rep_table *t, unsigned view, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t health_row(struct rep_table *t, unsigned view, const char *label, const char *fmt, ...)
{
	size_t row = view == REP_VIEW_ALL ? tab_row(t) : tab_row_only(t, view);
	char key[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	tab_text(t, row, 0, "%s", label);
	tab_text(t, row, 1, "%s", key);
	return row;
}

/* A row of a part both records lack: the reason each gives. */
static void na_row(struct rep_table *t, const char *label, const char *key,
		   const struct rep_health *const *hs, size_t off)
{
	size_t row = health_row(t, REP_VIEW_ALL, label, "%s", key);

	for (int i = 0; i < 2; i++)
		na_cell(t, row, 2 + i, hs[i], *(char *const *)((const char *)hs[i] + off));
}

/* A data-only row of one text field of both records ("-" when absent). */
static void health_text_rows(struct rep_table *t, const struct rep_health *const *hs,
			     const char *key, size_t off)
{
	size_t row = tab_row_only(t, REP_VIEW_DATA);

	tab_text(t, row, 1, "%s", key);
	for (int i = 0; i < 2; i++)
		na_cell(t, row, 2 + i, hs[i], *(char *const *)((const char *)hs[i] + off));
}

int rep_table_health(const struct rep_run *r, struct rep_table *t)
{
	static const char *const label[REP_SM_N] = {
		"critical warning (bits)", "composite temperature (K)", "available spare (%)",
		"percentage used (%)", "data units read (512,000 bytes)", "data read",
		"data units written (512,000 bytes)", "data written", "host read commands",
		"host write commands", "media and data integrity errors", "error log entries",
		"unsafe shutdowns", "power cycles", "power-on hours",
	};
	const struct rep_health *b = &r->health[REP_HEALTH_BEFORE];
	const struct rep_health *a = &r->health[REP_HEALTH_AFTER];
	const struct rep_health *hs[2] = { b, a };
	uint64_t created = 0;
	size_t row;

	for (size_t i = 0; i < r->nph; i++)
		if (!strcmp(r->ph[i].phase, "create"))
			created += r->ph[i].bytes;
	tab_init(t, "health", "Disk health before and after the run", SHAPE_GRID, 5);
	tab_col(t, 0, 0, "", "item");
	tab_col_only(t, 0, REP_VIEW_READ);
	tab_col(t, 1, 0, "item", "key");
	tab_col_only(t, 1, REP_VIEW_DATA);
	tab_col(t, 2, 1, "before", NULL);
	tab_col(t, 3, 1, "after", NULL);
	tab_col(t, 4, 1, "difference", NULL);
	if (!b->have && !a->have)
		return tab_done(t);
	t->note = "A difference of a counter is after minus before; a data unit is "
		  "1000 x 512 bytes (NVMe).";

	row = tab_row_only(t, REP_VIEW_READ);
	tab_text(t, row, 0, "device");
	for (int i = 0; i < 2; i++) {
		if (hs[i]->have)
			tab_text(t, row, 2 + i, "%s (%s)", nz(hs[i]->device), nz(hs[i]->transport));
		else
			tab_missing(t, row, 2 + i);
	}
	health_text_rows(t, hs, "device", offsetof(struct rep_health, device));
	health_text_rows(t, hs, "transport", offsetof(struct rep_health, transport));
	if (b->bus_summary || a->bus_summary) {	/* records with the bus parts */
		row = tab_row_only(t, REP_VIEW_READ);
		tab_text(t, row, 0, "bus");
		for (int i = 0; i < 2; i++)
			na_cell(t, row, 2 + i, hs[i], hs[i]->bus_summary);
		health_text_rows(t, hs, "bus", offsetof(struct rep_health, bus_summary));
	}

	if ((b->have && !b->smart_na) || (a->have && !a->smart_na)) {
		for (int k = 0; k < REP_SM_N; k++) {
			int bytes = k == REP_SM_BYTES_READ || k == REP_SM_BYTES_WRITTEN;
			row = health_row(t, REP_VIEW_ALL, label[k], "nvme_smart.%s", rep_smart_key[k]);
			for (int i = 0; i < 2; i++) {
				if (hs[i]->have && hs[i]->smart_na)
					tab_text(t, row, 2 + i, "%s", hs[i]->smart_na);
				else
					hnum_cell(t, row, 2 + i, &hs[i]->smart[k], bytes);
			}
			if (a->have_delta && rep_smart_delta_key[k] && !a->delta_smart_na)
				hnum_cell(t, row, 4, &a->delta[k], bytes);
			if (k == REP_SM_BYTES_WRITTEN && created) {
				/* what the disk wrote against what the files hold */
				row = health_row(t, REP_VIEW_ALL, "file data the create phases wrote",
						 "suite_bytes_created");
				tab_bytes(t, row, 4, created);
			}
		}
		if (a->went_backwards) {
			row = health_row(t, REP_VIEW_ALL,
					 "counters that went backwards (another disk, or a reset)",
					 "nvme_smart.went_backwards");
			tab_text(t, row, 4, "%s", a->went_backwards);
		}
	} else {
		na_row(t, "NVMe SMART log", "nvme_smart", hs, offsetof(struct rep_health, smart_na));
	}

	if (b->have_ata || a->have_ata) {
		static const char *const alabel[REP_ATA_N] = {
			"reallocated sectors (ATA 5)", "reported uncorrectable (ATA 187)",
			"current pending sectors (ATA 197)", "offline uncorrectable (ATA 198)",
			"UDMA CRC errors (ATA 199)", "ATA error log count", "power-on hours (ATA 9)",
			"power cycles (ATA 12)", "temperature (ATA 194, C)",
		};
		row = health_row(t, REP_VIEW_ALL, "ATA SMART overall status", "ata_smart.overall");
		for (int i = 0; i < 2; i++) {
			if (hs[i]->have && hs[i]->ata_na)
				tab_text(t, row, 2 + i, "%s", hs[i]->ata_na);
			else if (hs[i]->ata_overall)
				tab_text(t, row, 2 + i, "%s", hs[i]->ata_overall);
			else
				tab_missing(t, row, 2 + i);
		}
		for (int k = 0; k < REP_ATA_N; k++) {
			row = health_row(t, REP_VIEW_ALL, alabel[k], "ata_smart.%s", rep_ata_key[k]);
			for (int i = 0; i < 2; i++) {
				const char *na = hs[i]->ata_na;
				if (!na && k == REP_ATA_DN - 1)
					na = hs[i]->ata_error_na;	/* error_count's reason */
				if (hs[i]->have && na)
					tab_text(t, row, 2 + i, "%s", na);
				else
					hnum_cell(t, row, 2 + i, &hs[i]->ata[k], 0);
			}
			if (a->have_ata_delta && k < REP_ATA_DN)
				hnum_cell(t, row, 4, &a->delta_ata[k], 0);
		}
	} else {
		na_row(t, "ATA SMART", "ata_smart", hs, offsetof(struct rep_health, ata_na));
	}

	row = health_row(t, REP_VIEW_READ, "PCIe link (max)", "pcie_link");
	for (int i = 0; i < 2; i++) {
		const struct rep_health *h = hs[i];
		if (h->have && !h->pcie_na && h->pcie_speed)
			tab_text(t, row, 2 + i, "%s x%s (max %s x%s)%s", h->pcie_speed,
				 nz(h->pcie_width), nz(h->pcie_max_speed), nz(h->pcie_max_width),
				 h->pcie_at_max == 0 ? ": below its maximum" : "");
		else
			na_cell(t, row, 2 + i, h, h->pcie_na);
	}
	if (a->pcie_changed >= 0)
		tab_text(t, row, 4, "%s", a->pcie_changed ? "changed" : "unchanged");
	/* as data, one value per row; a reason stands in the speed's row */
	row = tab_row_only(t, REP_VIEW_DATA);
	tab_text(t, row, 1, "pcie_link.speed");
	for (int i = 0; i < 2; i++) {
		if (hs[i]->have && !hs[i]->pcie_na && hs[i]->pcie_speed)
			tab_text(t, row, 2 + i, "%s", hs[i]->pcie_speed);
		else
			na_cell(t, row, 2 + i, hs[i], hs[i]->pcie_na);
	}
	if (a->pcie_changed >= 0)
		tab_text(t, row, 4, "%s", a->pcie_changed ? "changed" : "unchanged");
	health_text_rows(t, hs, "pcie_link.width", offsetof(struct rep_health, pcie_width));
	health_text_rows(t, hs, "pcie_link.max_speed", offsetof(struct rep_health, pcie_max_speed));
	health_text_rows(t, hs, "pcie_link.max_width", offsetof(struct rep_health, pcie_max_width));

	row = health_row(t, REP_VIEW_ALL, "temperature (C)", "temperature_celsius");
	for (int i = 0; i < 2; i++) {
		if (hs[i]->have_temp)
			tab_fixed(t, row, 2 + i, hs[i]->temp_c, 1);
		else
			na_cell(t, row, 2 + i, hs[i], hs[i]->temp_na);
	}
	if (a->have_temp_delta)
		tab_fixed(t, row, 4, a->temp_delta, 1);
	rep_health_wear_rows(t, hs);
	return tab_done(t);
}
