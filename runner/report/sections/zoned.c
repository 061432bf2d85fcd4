/* zoned.c: the zoned-target table (zoned.h). */
#include <stdio.h>
#include <string.h>

#include "report/sections/zoned.h"

int rep_has_zones(const struct rep_run *r)
{
	return r->zone_model && strcmp(r->zone_model, "none") != 0;
}

/* A count that is there, or "?". */
static const char *or_q(const char *s)
{
	return s && *s ? s : "?";
}

int rep_table_zoned(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "made", NULL }, { "device", NULL }, { "status", NULL },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };
	char zs[32] = "", cap[32] = "", limits[96];
	size_t row;

	tab_init(t, "zoned", "Zoned target", SHAPE_GRID, NH);
	for (size_t i = 0; i < NH; i++)
		tab_col(t, i, 0, h[i].head, h[i].key);
	t->note = "A host-managed zoned target takes sequential writes only: btrfs is made in its zoned "
		  "mode (mkfs.btrfs -O zoned), f2fs with its metadata on the conventional device of setting "
		  "zoned_conv (mkfs.f2fs -m -c ZONED CONV), ext4 and XFS are refused. The target row: the "
		  "zone model, the zones, their size and smallest capacity, the open and active limits "
		  "(0: none), as the kernel reported them at the start.";
	rep_bytes_text(zs, sizeof(zs), r->zone_bytes);
	rep_bytes_text(cap, sizeof(cap), r->zone_cap_min);
	if (r->zone_max_open || r->zone_max_active)
		snprintf(limits, sizeof(limits), ", max open %s, max active %s", or_q(r->zone_max_open),
			 or_q(r->zone_max_active));
	else
		snprintf(limits, sizeof(limits), ", open and active limits not reported");
	row = tab_row(t);
	tab_text(t, row, 0, "target");
	tab_text(t, row, 1, "%s: %s zones of %s%s%s%s%s%s", r->zone_model, or_q(r->zone_count),
		 zs[0] ? zs : "?", cap[0] ? ", capacity " : "", cap, limits,
		 r->zone_conventional && strcmp(r->zone_conventional, "0") ? ", conventional zones " : "",
		 r->zone_conventional && strcmp(r->zone_conventional, "0") ? r->zone_conventional : "");
	tab_text(t, row, 2, "%s", or_q(r->target_path));
	tab_missing(t, row, 3);
	if (r->zoned_conv_path) {
		row = tab_row(t);
		tab_text(t, row, 0, "zoned_conv");
		tab_text(t, row, 1, "conventional device beside the target");
		tab_text(t, row, 2, "%s", r->zoned_conv_path);
		tab_missing(t, row, 3);
	}
	for (size_t i = 0; i < r->nfs; i++) {
		const struct rep_fs *f = &r->fs[i];
		const char *st = f->status ? f->status : "no fs_end record";
		row = tab_row(t);
		tab_text(t, row, 0, "%s", f->name);
		if (f->zoned_mode)
			tab_text(t, row, 1, "%s", f->zoned_mode);
		else if (f->status && !strcmp(f->status, "refused"))
			tab_text(t, row, 1, "not made");
		else
			tab_text(t, row, 1, "as on any disk");
		if (f->device && f->zoned_device)
			tab_text(t, row, 2, "%s (metadata), %s (data)", f->device, f->zoned_device);
		else if (f->device)
			tab_text(t, row, 2, "%s", f->device);
		else
			tab_missing(t, row, 2);
		if (f->reason && *f->reason)
			tab_text(t, row, 3, "%s: %s", st, f->reason);
		else
			tab_text(t, row, 3, "%s", st);
	}
	return tab_done(t);
}
