/* test_freespace.c: the freespace record's parsers on recorded tool output
 * (e4defrag 1.47.0, a btrfs's sysfs as kernel 6.18 shows it, and f2fs's segment_info in the
 * kernel's format, fs/f2fs/sysfs.c segment_info_seq_show), malformed
 * output refused with its reason; and the report: the freespace table,
 * the finding (fragmentation ruled out or not) and the remedy table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/output.h"
#include "run/evidence/freespace.h"
#include "records.h"
#include "unit.h"

/* e4defrag -c on a fresh ext4 with 50 files of 4 KiB (recorded) */
static const char E4DEFRAG_OK[] =
	"e4defrag 1.47.0 (5-Feb-2023)\n"
	"<Fragmented files>                             now/best       size/ext\n"
	"1. /mnt/f50                                        1/1              4 KB\n"
	"2. /mnt/f38                                        1/1              4 KB\n"
	"\n"
	" Total/best extents\t\t\t\t50/50\n"
	" Average size per extent\t\t\t4 KB\n"
	" Fragmentation score\t\t\t\t0\n"
	" [0-30 no problem: 31-55 a little bit fragmented: 56- needs defrag]\n"
	" This directory (/mnt) does not need defragmentation.\n"
	" Done.\n";

/* the same tool on a fragmented tree: its score and advice */
static const char E4DEFRAG_BAD[] =
	"e4defrag 1.47.0 (5-Feb-2023)\n"
	" Total/best extents\t\t\t\t1200/210\n"
	" Average size per extent\t\t\t34 KB\n"
	" Fragmentation score\t\t\t\t76\n"
	" [0-30 no problem: 31-55 a little bit fragmented: 56- needs defrag]\n"
	" This directory (/mnt) needs defragmentation.\n";

/* A file of text under dir, its folders made on the way. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* sysfs of a 2 GiB btrfs on loop5 (fresh, 50 MiB written), as kernel 6.18
 * showed it; `btrfs filesystem usage -b` (btrfs-progs 6.2) on it printed
 * Device size 2147483648, allocated 457965568, unallocated 1689518080,
 * Used 52854784, Free (estimated) 1863581696, Data,single Size 226492416
 * Used 52428800, Metadata,DUP Size 107347968 Used 196608. */
static void btrfs_tree(const char *t)
{
	static const char *const files[][2] = {
		{ "fs/features/free_space_tree", "0\n" },
		{ "fs/743b5d33/devices/loop5", "" },
		{ "fs/743b5d33/allocation/global_rsv_size", "5767168\n" },
		{ "fs/743b5d33/allocation/data/disk_total", "226492416\n" },
		{ "fs/743b5d33/allocation/data/disk_used", "52428800\n" },
		{ "fs/743b5d33/allocation/data/total_bytes", "226492416\n" },
		{ "fs/743b5d33/allocation/data/bytes_used", "52428800\n" },
		{ "fs/743b5d33/allocation/data/flags", "1\n" },
		{ "fs/743b5d33/allocation/data/single/total_bytes", "226492416\n" },
		{ "fs/743b5d33/allocation/data/single/used_bytes", "52428800\n" },
		{ "fs/743b5d33/allocation/metadata/disk_total", "214695936\n" },
		{ "fs/743b5d33/allocation/metadata/disk_used", "393216\n" },
		{ "fs/743b5d33/allocation/metadata/total_bytes", "107347968\n" },
		{ "fs/743b5d33/allocation/metadata/bytes_used", "196608\n" },
		{ "fs/743b5d33/allocation/metadata/dup/total_bytes", "107347968\n" },
		{ "fs/743b5d33/allocation/metadata/dup/used_bytes", "196608\n" },
		{ "fs/743b5d33/allocation/system/disk_total", "16777216\n" },
		{ "fs/743b5d33/allocation/system/disk_used", "32768\n" },
		{ "fs/743b5d33/allocation/system/total_bytes", "8388608\n" },
		{ "fs/743b5d33/allocation/system/bytes_used", "16384\n" },
		{ "fs/743b5d33/allocation/system/dup/total_bytes", "8388608\n" },
		{ "fs/743b5d33/allocation/system/dup/used_bytes", "16384\n" },
		{ "block/loop5/size", "4194304\n" },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(t, files[i][0], files[i][1]);
}

/* f2fs: 23 main-area segments of 512 blocks, ten a line */
static const char F2FS_OK[] =
	"format: segment_type|valid_blocks\n"
	"segment_type(0:HD, 1:WD, 2:CD, 3:HN, 4:WN, 5:CN)\n"
	"0         3|1   4|0   5|0   0|512 1|512 1|300 2|0   0|0   0|0   0|0  \n"
	"10        1|17  1|512 0|0   0|0   0|0   0|0   0|0   0|0   0|0   0|0  \n"
	"20        0|0   0|0   1|1  \n";

int main(int argc, char **argv)
{
	char why[256];
	(void)argc;

	/* e4defrag -c */
	struct fsb_e4defrag d;
	CHECK_EQ_U(fsb_parse_e4defrag(E4DEFRAG_OK, &d, why, sizeof(why)), 0);
	CHECK_EQ_U(d.score, 0);
	CHECK_EQ_U(d.extents_now, 50);
	CHECK_EQ_U(d.extents_best, 50);
	CHECK_EQ_U(fsb_parse_e4defrag(E4DEFRAG_BAD, &d, why, sizeof(why)), 0);
	CHECK_EQ_U(d.score, 76);
	CHECK_EQ_U(d.extents_now, 1200);
	CHECK_EQ_U(d.extents_best, 210);
	CHECK(fsb_parse_e4defrag("e4defrag 1.47.0\nFailed to get the mount point\n", &d, why,
				 sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "e4defrag -c: no \"Fragmentation score\" line");
	CHECK(fsb_parse_e4defrag(" Fragmentation score\t\tunknown\n", &d, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "e4defrag -c: \"Fragmentation score\" is not a whole number");
	CHECK(fsb_parse_e4defrag(" Fragmentation score\t\t7x\n", &d, why, sizeof(why)) == -EBADMSG);
	CHECK(fsb_parse_e4defrag("", &d, why, sizeof(why)) == -EBADMSG);
	CHECK(fsb_parse_e4defrag(NULL, &d, why, sizeof(why)) == -EBADMSG);
	/* an output cut short after the label */
	CHECK(fsb_parse_e4defrag(" Fragmentation score", &d, why, sizeof(why)) == -EBADMSG);

	/* btrfs: the allocation from sysfs, as btrfs filesystem usage -b has it */
	struct fsb_btrfs_usage u;
	char t[] = "/tmp/test_freespace.XXXXXX", fsroot[64], blockroot[64];
	CHECK(mkdtemp(t) != NULL);
	btrfs_tree(t);
	snprintf(fsroot, sizeof(fsroot), "%s/fs", t);
	snprintf(blockroot, sizeof(blockroot), "%s/block", t);
	CHECK_EQ_U(fsb_btrfs_sysfs(fsroot, blockroot, "loop5", &u, why, sizeof(why)), 0);
	CHECK_EQ_U(u.device_size, 2147483648u);
	CHECK_EQ_U(u.allocated, 457965568);
	CHECK_EQ_U(u.unallocated, 1689518080);
	CHECK_EQ_U(u.used, 52854784);
	CHECK_EQ_U(u.free_estimated, 1863581696);
	CHECK_EQ_U(u.nprof, 3);
	CHECK_STR(u.prof[0].type, "Data");
	CHECK_STR(u.prof[0].profile, "single");
	CHECK_EQ_U(u.prof[0].size, 226492416);
	CHECK_EQ_U(u.prof[0].used, 52428800);
	CHECK_STR(u.prof[1].type, "Metadata");
	CHECK_STR(u.prof[1].profile, "DUP");
	CHECK_EQ_U(u.prof[1].size, 107347968);
	CHECK_EQ_U(u.prof[1].used, 196608);
	CHECK_STR(u.prof[2].type, "System");
	CHECK_STR(u.prof[2].profile, "DUP");
	/* data kept twice (DUP): the unallocated space counts half */
	put(t, "fs/743b5d33/allocation/data/disk_total", "452984832\n");
	CHECK_EQ_U(fsb_btrfs_sysfs(fsroot, blockroot, "loop5", &u, why, sizeof(why)), 0);
	CHECK_EQ_U(u.free_estimated, (226492416u - 52428800u) + (2147483648u - 684457984u) / 2);
	put(t, "fs/743b5d33/allocation/data/disk_total", "226492416\n");
	/* another device: no btrfs holds it */
	CHECK(fsb_btrfs_sysfs(fsroot, blockroot, "nvme0n1", &u, why, sizeof(why)) == -EBADMSG);
	CHECK_CONTAINS(why, "/fs: no btrfs with the device nvme0n1");
	/* a file that is not a number: named */
	put(t, "fs/743b5d33/allocation/metadata/disk_used", "many\n");
	CHECK(fsb_btrfs_sysfs(fsroot, blockroot, "loop5", &u, why, sizeof(why)) == -EBADMSG);
	CHECK_CONTAINS(why, "/fs/743b5d33/allocation/metadata/disk_used: not a number");
	put(t, "fs/743b5d33/allocation/metadata/disk_used", "393216\n");
	/* the device's size missing */
	snprintf(blockroot, sizeof(blockroot), "%s/noblock", t);
	CHECK(fsb_btrfs_sysfs(fsroot, blockroot, "loop5", &u, why, sizeof(why)) == -EBADMSG);
	CHECK_CONTAINS(why, "/noblock/loop5/size: No such file or directory");
	/* no sysfs at all */
	snprintf(fsroot, sizeof(fsroot), "%s/nofs", t);
	CHECK(fsb_btrfs_sysfs(fsroot, blockroot, "loop5", &u, why, sizeof(why)) == -EBADMSG);
	CHECK_CONTAINS(why, "/nofs: No such file or directory");
	char rm[128];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", t);
	CHECK(system(rm) == 0);

	/* f2fs segment_info */
	struct fsb_f2fs_segments s;
	CHECK_EQ_U(fsb_parse_f2fs_segment_info(F2FS_OK, 512, &s, why, sizeof(why)), 0);
	CHECK_EQ_U(s.segments, 23);
	CHECK_EQ_U(s.full, 3);
	CHECK_EQ_U(s.partial, 4);	/* 1, 300, 17, 1 */
	CHECK_EQ_U(s.partial_valid, 319);
	CHECK_EQ_U(s.empty, 16);
	CHECK_EQ_U(s.max_valid, 512);
	CHECK(fsb_parse_f2fs_segment_info("format: segment_type|valid_blocks|bitmaps\n", 512, &s, why,
					  sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "segment_info: not \"format: segment_type|valid_blocks\" on line 1");
	CHECK(fsb_parse_f2fs_segment_info("format: segment_type|valid_blocks\nlegend\n", 512, &s, why,
					  sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "segment_info: no segments");
	CHECK(fsb_parse_f2fs_segment_info("format: segment_type|valid_blocks\nlegend\n"
					  "0         3|1   4|x  \n", 512, &s, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "segment_info: segment 1: not TYPE|VALID_BLOCKS");
	CHECK(fsb_parse_f2fs_segment_info("format: segment_type|valid_blocks\nlegend\n"
					  "0         3|1   4|513\n", 512, &s, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "segment_info: segment 1: 513 valid blocks, more than 512 in a segment");
	/* a line that does not go on where the one before ended */
	CHECK(fsb_parse_f2fs_segment_info("format: segment_type|valid_blocks\nlegend\n"
					  "0         3|1   4|0  \n20        0|0  \n", 512, &s, why,
					  sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "segment_info: line 2 of the segments does not start with segment 2");
	CHECK(fsb_parse_f2fs_segment_info(NULL, 512, &s, why, sizeof(why)) == -EBADMSG);

	/* ---- the report ---- */
	static const char RUN[] =
		"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"f1\",\"seq\":0,\"t\":0,\"mode\":\"device\"}\n"
		"{\"type\":\"phase\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":1,\"phase\":\"read\",\"seconds\":5.1}\n"
		"{\"type\":\"phase\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":2,\"phase\":\"read\",\"seconds\":37.1}\n"
		"{\"type\":\"phase\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":2,\"phase\":\"read_inode\",\"seconds\":4.4}\n"
		"{\"type\":\"freespace\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":2,"
		"\"statfs\":{\"block_size\":4096,\"size_bytes\":11000000000,\"free_bytes\":10700000000,\"avail_bytes\":10000000000},"
		"\"free_extents\":{\"source\":\"GETFSMAP\",\"count\":14,\"free_bytes\":10701766656,"
		"\"mean_bytes\":764411904,\"largest_bytes\":2147483648},"
		"\"defrag\":{\"source\":\"e4defrag -c\",\"score\":0}}\n"
		"{\"type\":\"phase\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":2,\"phase\":\"rewrite\",\"seconds\":18.6}\n"
		"{\"type\":\"phase\",\"run_id\":\"f1\",\"fs\":\"ext4\",\"round\":2,\"phase\":\"read_after_rewrite\",\"seconds\":5.3}\n"
		"{\"type\":\"freespace\",\"run_id\":\"f1\",\"fs\":\"xfs\",\"round\":2,"
		"\"free_extents\":{\"count\":30000,\"free_bytes\":3000000000,\"largest_bytes\":1048576},"
		"\"defrag\":{\"error\":\"e4defrag not found\"}}\n"
		"{\"type\":\"freespace\",\"run_id\":\"f1\",\"fs\":\"f2fs\",\"round\":1,"
		"\"f2fs\":{\"segments\":23,\"empty_segments\":16,\"full_segments\":3,\"partial_segments\":4,"
		"\"partial_valid_blocks\":319,\"blocks_per_segment\":512,\"dirty_segments\":4}}\n"
		"{\"type\":\"freespace\",\"run_id\":\"f1\",\"fs\":\"btrfs\",\"round\":1,"
		"\"btrfs\":{\"device_size\":1073741824,\"allocated\":132513792,\"used\":294912,"
		"\"free_estimated\":949616640,\"profiles\":[{\"type\":\"Data\",\"profile\":\"single\","
		"\"size\":8388608,\"used\":4194304}]}}\n";
	struct rep_set set;
	char err[512];
	CHECK_EQ_U(unit_load_records(&set, RUN, "f.jsonl", err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_U(r->nfsp, 4);
		char *md = report_text(r, "md", 0);
		CHECK_CONTAINS(md, "## Free space and fragmentation (after each round's reads)");
		CHECK_CONTAINS(md, "- ext4: not fragmentation: 14 free extents of 729 MiB mean, defrag score 0 (round 2)");
		CHECK_CONTAINS(md, "- xfs: fragmentation not ruled out: 30000 free extents of 0.1 MiB mean (round 2);"
			       " free space is in small pieces");
		CHECK_CONTAINS(md, "defrag: e4defrag not found");
		CHECK_CONTAINS(md, "f2fs: 23 segments, 16 empty, 3 full, 4 partly valid (mean 80 of 512 blocks), 4 dirty");
		CHECK_CONTAINS(md, "btrfs: 126.4 of 1024.0 MiB allocated, 0.3 MiB used; data chunks 8.0 MiB, 50% used");
		CHECK_CONTAINS(md, "## Remedies on the aged filesystem (runner/SUITE.md)");
		CHECK_CONTAINS(md, "| ext4 |     2 | none (baseline)                  |      - |                37.1 |       - |"
			       " fresh filesystem (round 1): 5.1 s");
		CHECK_CONTAINS(md, "| ext4 |     2 | read in inode order (read_inode) |      - |                4.40 |    8.43 |");
		CHECK_CONTAINS(md, "| ext4 |     2 | rewrite the tree (rewrite)       |   18.6 |                5.30 |    7.00 |"
			       " once; the read after it is 1.04x the fresh read");
		free(md);
		md = report_text(r, "csv", 0);
		CHECK_CONTAINS(md, "freespace,ext4,2,14,10701766656,764411904,2147483648,0,11000000000,");
		CHECK_CONTAINS(md, "remedy,ext4,2,rewrite the tree (rewrite),18.600000,5.300000,7.0000,");
		free(md);
	}
	rep_free(&set);

	/* a score worth a defrag: the finding says so, with the band */
	static const char FRAG[] =
		"{\"type\":\"phase\",\"run_id\":\"f2\",\"fs\":\"ext4\",\"round\":3,\"phase\":\"read\",\"seconds\":1}\n"
		"{\"type\":\"freespace\",\"run_id\":\"f2\",\"fs\":\"ext4\",\"round\":3,"
		"\"free_extents\":{\"count\":2,\"free_bytes\":2147483648,\"largest_bytes\":2000000000},"
		"\"defrag\":{\"score\":76}}\n";
	CHECK_EQ_U(unit_load_records(&set, FRAG, "f.jsonl", err, sizeof(err)), 0);
	r = rep_find(&set, NULL);
	if (r) {
		char *md = report_text(r, "md", 0);
		CHECK_CONTAINS(md, "- ext4: fragmentation not ruled out: 2 free extents of 1024 MiB mean,"
			       " defrag score 76 (needs defrag: 56 and up) (round 3)");
		CHECK(!strstr(md, "not fragmentation"));
		CHECK(!strstr(md, "Remedies"));	/* no rewrite: no remedy table */
		free(md);
	}
	rep_free(&set);

	/* malformed records: the line and the reason, nothing half-loaded */
	static const struct { const char *rec, *msg; } bad_recs[] = {
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"round\":1}",
		  "b.jsonl:1: freespace record without a \"fs\" string" },
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"fs\":\"ext4\",\"round\":1,"
		  "\"free_extents\":{\"count\":-3,\"free_bytes\":1,\"largest_bytes\":1}}",
		  "b.jsonl:1: freespace record: \"free_extents.count\" must be a whole number >= 0" },
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"fs\":\"ext4\",\"round\":1,\"defrag\":7}",
		  "b.jsonl:1: freespace record: \"defrag\" must be an object" },
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"fs\":\"ext4\",\"round\":1,\"defrag\":{\"error\":\"\"}}",
		  "b.jsonl:1: freespace record: \"defrag.error\" must be a non-empty string" },
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"fs\":\"btrfs\",\"round\":1,\"btrfs\":{"
		  "\"device_size\":1,\"allocated\":1,\"used\":1,\"free_estimated\":1,\"profiles\":[{\"size\":1,\"used\":1}]}}",
		  "b.jsonl:1: freespace record: \"btrfs.profiles[].type\" must be a string" },
		{ "{\"type\":\"freespace\",\"run_id\":\"x\",\"fs\":\"f2fs\",\"round\":1,\"f2fs\":{\"segments\":\"many\"}}",
		  "b.jsonl:1: freespace record: \"f2fs.segments\" must be a whole number >= 0" },
	};
	for (size_t i = 0; i < sizeof(bad_recs) / sizeof(bad_recs[0]); i++) {
		err[0] = 0;
		CHECK(unit_load_records(&set, bad_recs[i].rec, "b.jsonl", err, sizeof(err)) == -EBADMSG);
		CHECK_STR(err, bad_recs[i].msg);
		rep_free(&set);
	}
	return unit_done(argv[0]);
}
