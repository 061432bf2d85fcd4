/* test_variant.c: variants of a filesystem (run/fs/variant.h): the built-in
 * table, the syntax of a column name and of a definition, the settings
 * through every layer and their errors, the tuning profile, the mount as
 * the kernel reports it, and the readers of a variant column (the report's
 * variants and reference tables, the verdict's criteria, LAVA ids). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/output.h"
#include "report/sections/variants.h"
#include "run/settings.h"
#include "run/fs/fs.h"
#include "run/engine/lava.h"
#include "run/fs/mount.h"
#include "run/fs/variant.h"
#include "records.h"
#include "layers.h"
#include "unit.h"

/* What fn writes to a FILE, as a string (static). */
static char *captured(void (*fn)(FILE *, const struct fsb_config *), const struct fsb_config *c)
{
	static char buf[65536];
	FILE *f = tmpfile();
	size_t n;

	fn(f, c);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void do_show(FILE *f, const struct fsb_config *c)
{
	fflush(f);
	fsb_config_show(c, fileno(f));
}
static void do_help(FILE *f, const struct fsb_config *c) { (void)c; fsb_config_help(f); }
static void do_md(FILE *f, const struct fsb_config *c) { (void)c; fsb_config_doc(f, DOC_MARKDOWN); }
static void do_vmd(FILE *f, const struct fsb_config *c) { (void)c; fsb_variant_doc(f, DOC_MARKDOWN); }
static void do_vtext(FILE *f, const struct fsb_config *c) { (void)c; fsb_variant_doc(f, DOC_TEXT); }

/* The definition of column name in c as text ("" when it is none). */
static const char *def_of(const struct fsb_config *c, const char *name)
{
	static char buf[300];
	struct fsb_column col;

	if (fsb_config_column(c, name, &col) < 0)
		return "";
	fsb_variant_text(buf, sizeof(buf), col.mkfs, col.mount);
	return buf;
}

/* ---- the built-in table ---- */

static void test_table(void)
{
	static const struct { const char *name, *mkfs, *mount; int unsafe; } want[] = {
		{ "f2fs:s4z4", "-s 4 -z 4", "", 0 }, { "f2fs:op10", "-o 10", "", 0 },
		{ "f2fs:gc", "", "background_gc=on", 0 }, { "ext4:noatime", "", "noatime", 0 },
		{ "ext4:nojournal", "-O ^has_journal", "", 1 }, { "xfs:agcount32", "-d agcount=32", "", 0 },
		{ "btrfs:zstd", "", "compress=zstd", 0 },
		{ "f2fs:hotcold", "-e mp4,mkv,mov,jpg,png,zip,gz,xz,zst,tar,iso -E db,sqlite,log,wal", "", 0 },
		{ "f2fs:nodiscard", "", "nodiscard", 0 }, { "ext4:discard", "", "discard", 0 },
		{ "ext4:nobarrier", "", "nobarrier", 1 }, { "f2fs:nobarrier", "", "nobarrier", 1 },
	};
	char why[256], mk[128], mo[128], text[300];

	CHECK_EQ_U(fsb_variant_count, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct fsb_variant *v = fsb_variant_builtin(want[i].name);
		CHECK(v != NULL);
		if (!v)
			continue;
		CHECK_STR(v->mkfs, want[i].mkfs);
		CHECK_STR(v->mount, want[i].mount);
		CHECK(v->about && strlen(v->about) > 10);
		/* marked unsafe with the reason, or not at all */
		CHECK_EQ_U(v->unsafe != NULL, want[i].unsafe);
		CHECK(!v->unsafe || strlen(v->unsafe) > 20);
	}
	const struct fsb_variant *nb = fsb_variant_builtin("ext4:nobarrier");
	CHECK(nb && nb->unsafe && strstr(nb->unsafe, "power cut") != NULL);
	for (size_t i = 0; i < fsb_variant_count; i++) {
		const struct fsb_variant *v = &fsb_variant_table[i];
		/* every row: a good name of a known filesystem, named once, and
		 * its definition read back as it is */
		CHECK(fsb_variant_name_check(v->name, why, sizeof(why)) == 0);
		CHECK(strchr(v->name, ':') != NULL);
		CHECK(fsb_variant_base(v->name) >= 0);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(fsb_variant_table[j].name, v->name) != 0);
		CHECK(fsb_variant_text(text, sizeof(text), v->mkfs, v->mount) > 0);
		CHECK(fsb_variant_parse(text, mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why)) == 0);
		CHECK_STR(mk, v->mkfs);
		CHECK_STR(mo, v->mount);
	}
	CHECK(fsb_variant_builtin("ext4") == NULL);
	CHECK(fsb_variant_builtin("ext4:none") == NULL);
	/* the tuning columns: the default filesystems (not nilfs2) and their variants */
	CHECK_STR(fsb_variant_all_columns(),
		  "ext4,ext4:noatime,ext4:nojournal,ext4:discard,ext4:nobarrier,xfs,xfs:agcount32,"
		  "btrfs,btrfs:zstd,f2fs,f2fs:s4z4,f2fs:op10,f2fs:gc,f2fs:hotcold,f2fs:nodiscard,"
		  "f2fs:nobarrier");
	fsb_variant_names(text, sizeof(text), fsb_fs_index("f2fs"));
	CHECK_STR(text, "f2fs:s4z4,f2fs:op10,f2fs:gc,f2fs:hotcold,f2fs:nodiscard,f2fs:nobarrier");
	fsb_variant_names(text, sizeof(text), fsb_fs_index("nilfs2"));
	CHECK_STR(text, "");
	fsb_variant_names(text, sizeof(text), -1);
	CHECK_STR(text, "ext4:noatime,ext4:nojournal,ext4:discard,ext4:nobarrier,xfs:agcount32,btrfs:zstd,"
		  "f2fs:s4z4,f2fs:op10,f2fs:gc,f2fs:hotcold,f2fs:nodiscard,f2fs:nobarrier");

	/* the docs come from the table: every row, in markdown and as text */
	char *md = strdup(captured(do_vmd, NULL));
	CHECK_CONTAINS(md, "| variant | base | mkfs | mount | what it changes | unsafe |");
	CHECK_CONTAINS(md, "| `ext4:nobarrier` | ext4 | - | `nobarrier` | ");
	CHECK_CONTAINS(md, " | **unsafe**: no cache flush (FLUSH/FUA) to the disk: ");
	CHECK_CONTAINS(md, "| `f2fs:s4z4` | f2fs | `-s 4 -z 4` | - |");
	CHECK_CONTAINS(md, "| `btrfs:zstd` | btrfs | - | `compress=zstd` |");
	char *tx = captured(do_vtext, NULL);
	CHECK_CONTAINS(tx, "ext4:nojournal\text4\t-O ^has_journal\t-\t");
	CHECK_CONTAINS(tx, "\tno journal: a power cut can leave metadata that e2fsck must repair");
	CHECK_CONTAINS(tx, "f2fs:nodiscard\tf2fs\t-\tnodiscard\t");
	free(md);
	size_t lines = 0;
	for (const char *p = tx; *p; p++)
		lines += *p == '\n';
	CHECK_EQ_U(lines, fsb_variant_count);
}

/* ---- the syntax ---- */

static void test_names(void)
{
	char why[256];

	CHECK(fsb_variant_name_check("ext4", why, sizeof(why)) == 0);
	CHECK(fsb_variant_name_check("f2fs:s8", why, sizeof(why)) == 0);
	CHECK(fsb_variant_name_check("xfs:a_1", why, sizeof(why)) == 0);
	CHECK(fsb_variant_name_check("ext4:abcdefghijklmno", why, sizeof(why)) == 0);	/* 15 */
	/* refused, each with its reason (a name of 16 is too long) */
	static const char *const bad[][2] = {
		{ "ext4:abcdefghijklmnop", "bad variant name 'ext4:abcdefghijklmnop'; allowed: FS:NAME, "
					   "NAME 1 to 15 of a-z, 0-9, _" },
		{ "zfs", "unknown filesystem 'zfs'" },
		{ "zfs:fast", "unknown base filesystem 'zfs' of variant 'zfs:fast'; "
			      "allowed: ext4,xfs,btrfs,f2fs,nilfs2" },
		{ "ext4:", "bad variant name 'ext4:'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(fsb_variant_name_check(bad[i][0], why, sizeof(why)) < 0);
		CHECK_CONTAINS(why, bad[i][1]);
	}
	CHECK(fsb_variant_name_check("ext4:No", why, sizeof(why)) < 0);
	CHECK(fsb_variant_name_check("ext4:a:b", why, sizeof(why)) < 0);
	CHECK(fsb_variant_name_check("ext4:a-b", why, sizeof(why)) < 0);
	CHECK(fsb_variant_name_check("ext4:a.b", why, sizeof(why)) < 0);
	CHECK(fsb_variant_name_check(":x", why, sizeof(why)) < 0);
	CHECK_EQ_U(fsb_variant_base("btrfs:zstd"), fsb_fs_index("btrfs"));
	CHECK_EQ_U(fsb_variant_base("xfs"), fsb_fs_index("xfs"));
	CHECK(fsb_variant_base("nofs:x") < 0);
}

static void test_parse(void)
{
	static const struct { const char *in, *mkfs, *mount; } good[] = {
		{ "mkfs:-s 8", "-s 8", "" },
		{ "mkfs: -s 8", "-s 8", "" },	/* a space after the colon */
		{ "  mkfs:-s   8\t-z 2  ", "-s 8 -z 2", "" },	/* words joined by one space */
		{ "mount:noatime", "", "noatime" },
		{ "mkfs:-O ^has_journal mount:noatime,lazytime", "-O ^has_journal", "noatime,lazytime" },
		{ "mount:compress=zstd:3 mkfs:-m dup", "-m dup", "compress=zstd:3" },	/* either order */
		{ "mkfs:", "", "" },	/* the base filesystem again, a column of its own */
		{ "mount:", "", "" },
	};
	static const struct { const char *in, *why; } bad[] = {
		{ "", "empty; allowed: mkfs:ARGS, mount:OPTS, sysfs:KEY=VALUE, each at most once" },
		{ "   ", "empty" },
		{ "-s 8", "'-s' begins none of mkfs:, mount:, sysfs:; allowed: mkfs:ARGS" },
		{ "mkfs:-s 8 mkfs:-z 2", "mkfs: given twice; allowed: mkfs:ARGS, mount:OPTS, sysfs:KEY=VALUE, each at most once" },
		{ "mount:a mount:b", "mount: given twice" },
		{ "mount:noatime lazytime", "'lazytime' after mount:noatime: mount options are one word" },
		{ "mkfs:-s 8 mount:a b", "'b' after mount:a" },
		{ "mkfs:-L mkfs:x", "mkfs: given twice" },	/* an argument cannot begin with mkfs: */
	};
	char mk[128], mo[128], why[256], big[400];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = fsb_variant_parse(good[i].in, mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why));
		CHECK(rc == 0);
		if (rc)
			fprintf(stderr, "  '%s': %s\n", good[i].in, why);
		CHECK_STR(mk, good[i].mkfs);
		CHECK_STR(mo, good[i].mount);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		CHECK(fsb_variant_parse(bad[i].in, mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why)) < 0);
		CHECK_CONTAINS(why, bad[i].why);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	memcpy(big, "mkfs:", 5);
	CHECK(fsb_variant_parse(big, mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "mkfs:: too long; allowed: up to 127 characters");
	memcpy(big, "mount:", 6);
	CHECK(fsb_variant_parse(big, mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "mount:: too long");

	CHECK(fsb_variant_text(big, sizeof(big), "-s 4", "noatime") > 0);
	CHECK_STR(big, "mkfs:-s 4 mount:noatime");
	CHECK(fsb_variant_text(big, sizeof(big), "", "noatime") > 0);
	CHECK_STR(big, "mount:noatime");
	CHECK(fsb_variant_text(big, sizeof(big), "", "") > 0);
	CHECK_STR(big, "mkfs:");
	CHECK(fsb_variant_text(big, 4, "-s 4", "") < 0);
}

/* ---- the settings ---- */

static void test_config(void)
{
	struct fsb_config c;
	char err[512];
	struct fsb_column col;
	char val[600];

	/* the tuning profile: every filesystem, each followed by its variants */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "profile", "tuning", "command line --profile", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.fs, fsb_variant_all_columns());
	CHECK(c.rounds >= 2);	/* the variants age too */
	CHECK(c.dirs * c.files <= 8000);	/* small enough for every column under TCG */
	CHECK(fsb_config_column(&c, "f2fs:s4z4", &col) == 0);
	CHECK_STR(col.name, "f2fs:s4z4");
	CHECK_EQ_U(col.fsi, fsb_fs_index("f2fs"));
	CHECK(col.is_variant);
	CHECK_STR(col.mkfs, "-s 4 -z 4");
	CHECK_STR(col.mount, "");
	CHECK_STR(col.source, "built in");
	CHECK(fsb_config_column(&c, "xfs", &col) == 0);
	CHECK(!col.is_variant);
	CHECK_STR(col.mkfs, "");
	CHECK(fsb_config_column(&c, "ext4:nosuch", &col) < 0);
	CHECK(fsb_config_column(&c, "zfs", &col) < 0);

	/* a file names a variant before it defines it; a built-in row is
	 * replaced whole; the kernel command line beats the file, the options
	 * beat both */
	layers_reset();
	unit_write_file("variants.conf", "fs = ext4,ext4:mine,ext4:noatime,f2fs:s8\n"
				    "variant.ext4:mine = mkfs:-b 1024 mount:noatime\n"
				    "variant.ext4:noatime = \"mount:noatime,lazytime\"\n"
				    "variant.f2fs:s8 = mkfs:-s 8\n");
	unit_write_file("variants.cmdline", "quiet fsbench.variant.f2fs:s8=\"mkfs:-s 8 -z 2 mount:noatime\" ro\n");
	CHECK(fsb_layer_file(&lf, "variants.conf", err, sizeof(err)) == 0);
	CHECK(fsb_layer_cmdline(&lc, "variants.cmdline", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "variant.ext4:mine", "mkfs:-b 2048", "command line --variant.ext4:mine", err, sizeof(err)) == 0);
	int rc = fsb_config_merge(&c, layers, 3, err, sizeof(err));
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "  %s\n", err);
	CHECK_STR(def_of(&c, "ext4:mine"), "mkfs:-b 2048");	/* the option's, whole: no mount part left */
	CHECK_STR(def_of(&c, "ext4:noatime"), "mount:noatime,lazytime");
	CHECK_STR(def_of(&c, "f2fs:s8"), "mkfs:-s 8 -z 2 mount:noatime");
	CHECK(fsb_config_column(&c, "ext4:mine", &col) == 0);
	CHECK_STR(col.source, "command line --variant.ext4:mine");
	CHECK(fsb_config_column(&c, "ext4:noatime", &col) == 0);
	CHECK_STR(col.source, "config file variants.conf:3");
	CHECK(fsb_config_column(&c, "f2fs:s8", &col) == 0);
	CHECK_STR(col.source, "kernel command line");
	CHECK_STR(def_of(&c, "ext4:nojournal"), "mkfs:-O ^has_journal");	/* untouched */

	/* shown with their sources, built-in rows too; --get; the run's JSON */
	char *sh = captured(do_show, &c);
	CHECK_CONTAINS(sh, "variant.ext4:nojournal = mkfs:-O ^has_journal     # built in\n");
	CHECK_CONTAINS(sh, "variant.ext4:noatime = mount:noatime,lazytime   # config file variants.conf:3\n");
	CHECK_CONTAINS(sh, "variant.ext4:mine  = mkfs:-b 2048             # command line --variant.ext4:mine\n");
	CHECK_CONTAINS(sh, "variant.f2fs:s8    = mkfs:-s 8 -z 2 mount:noatime # kernel command line\n");
	CHECK(strstr(sh, "variant.ext4:noatime = mount:noatime  ") == NULL);	/* replaced, not listed twice */
	CHECK(fsb_config_get(&c, "variant.f2fs:s4z4", val, sizeof(val)) == 0);
	CHECK_STR(val, "mkfs:-s 4 -z 4");
	CHECK(fsb_config_get(&c, "variant.ext4:mine", val, sizeof(val)) == 0);
	CHECK_STR(val, "mkfs:-b 2048");
	CHECK(fsb_config_get(&c, "variant.ext4:nosuch", val, sizeof(val)) < 0);
	CHECK(fsb_config_get(&c, "variant.ext4", val, sizeof(val)) < 0);
	static char json[16384];
	CHECK(fsb_config_json(&c, json, sizeof(json)) > 0);
	CHECK_CONTAINS(json, "\"fs\":\"ext4,ext4:mine,ext4:noatime,f2fs:s8\"");
	CHECK_CONTAINS(json, "\"variant.ext4:mine\":\"mkfs:-b 2048\"");
	CHECK_CONTAINS(json, "\"variant.f2fs:s8\":\"mkfs:-s 8 -z 2 mount:noatime\"");
	CHECK(strstr(json, "\"variant.f2fs:s4z4\"") == NULL);	/* built-in rows are the version's */
	CHECK(fsb_config_known("variant.ext4:any"));

	/* --help and the settings table name the key and every built-in row */
	char *help = strdup(captured(do_help, &c));
	char *md = captured(do_md, &c);
	CHECK_CONTAINS(help, "  variant.FS:NAME  a variant of filesystem FS");
	CHECK_CONTAINS(md, "| `variant.FS:NAME` | | a variant of filesystem FS");
	for (size_t i = 0; i < fsb_variant_count; i++) {
		CHECK_CONTAINS(help, fsb_variant_table[i].name);
		char want[80];
		snprintf(want, sizeof(want), "`%s` (`", fsb_variant_table[i].name);
		CHECK_CONTAINS(md, want);
	}
	free(help);
}

/* Merge after adding key = val to the command-line layer (and f to the file
 * layer); the error message, or "" when it merged. */
static const char *merge_err(const char *file, const char *key, const char *val)
{
	static char err[512];
	static struct fsb_config c;

	layers_reset();
	err[0] = 0;
	if (file) {
		unit_write_file("bad-variant.conf", file);
		if (fsb_layer_file(&lf, "bad-variant.conf", err, sizeof(err)) < 0)
			return err;
	}
	if (key && fsb_layer_add(&lo, key, val, "command line --x", err, sizeof(err)) < 0)
		return err;
	if (fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0)
		return err;
	return "";
}

static void test_errors(void)
{
	CHECK_CONTAINS(merge_err(NULL, "fs", "ext4,ext4:foo"),
		       "command line --x: fs=ext4,ext4:foo: unknown variant 'ext4:foo'; allowed: "
		       "ext4:noatime,ext4:nojournal,ext4:discard,ext4:nobarrier (built in), or one set with variant.ext4:foo = mkfs:ARGS mount:OPTS");
	CHECK_CONTAINS(merge_err("fs = f2fs:mine\n", NULL, NULL),
		       "bad-variant.conf:1: fs=f2fs:mine: unknown variant 'f2fs:mine'");
	CHECK_CONTAINS(merge_err(NULL, "fs", "zfs:fast"),
		       "fs=zfs:fast: unknown base filesystem 'zfs' of variant 'zfs:fast'; allowed: ext4,xfs,btrfs,f2fs");
	CHECK_CONTAINS(merge_err(NULL, "fs", "ext4,zfs"), "fs=ext4,zfs: unknown filesystem 'zfs'");
	CHECK_CONTAINS(merge_err(NULL, "fs", "ext4:Fast"), "fs=ext4:Fast: bad variant name 'ext4:Fast'");
	CHECK_CONTAINS(merge_err(NULL, "fs", "ext4:noatime,ext4,ext4:noatime"),
		       "filesystem 'ext4:noatime' is listed twice");
	CHECK_STR(merge_err(NULL, "fs", "ext4:noatime,ext4"), "");
	CHECK_CONTAINS(merge_err(NULL, "variant.zfs:x", "mkfs:-a"),
		       "command line --x: variant.zfs:x: unknown base filesystem 'zfs'");
	CHECK_CONTAINS(merge_err(NULL, "variant.ext4", "mkfs:-a"),
		       "variant.ext4: not a variant name; allowed: variant.FS:NAME, e.g. variant.ext4:mine");
	CHECK_CONTAINS(merge_err(NULL, "variant.ext4:A", "mkfs:-a"), "variant.ext4:A: bad variant name");
	CHECK_CONTAINS(merge_err(NULL, "variant.ext4:x", "-b 1024"),
		       "variant.ext4:x=-b 1024: '-b' begins none of mkfs:, mount:, sysfs:");
	CHECK_CONTAINS(merge_err("variant.ext4:x =\n", NULL, NULL),
		       "bad-variant.conf:1: variant.ext4:x=: empty; allowed: mkfs:ARGS, mount:OPTS, sysfs:KEY=VALUE");
	CHECK_CONTAINS(merge_err("variant.btrfs:z = mount:compress=zstd mount:ssd\n", NULL, NULL),
		       "bad-variant.conf:1: variant.btrfs:z=mount:compress=zstd mount:ssd: mount: given twice");
	/* more settings than the table holds */
	char many[4096];
	size_t o = 0;
	for (int i = 0; i <= FSB_MAX_VARIANTS; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o, "variant.ext4:v%d = mkfs:\n", i);
	CHECK_CONTAINS(merge_err(many, NULL, NULL), "variant.ext4:v16: too many variant settings; allowed: up to 16");
	/* the same name again is a replacement, not one more */
	o = 0;
	for (int i = 0; i <= FSB_MAX_VARIANTS; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o, "variant.ext4:v = mkfs:-%d\n", i);
	CHECK_STR(merge_err(many, NULL, NULL), "");
}

/* ---- the mount as the kernel reports it ---- */

static void test_mountinfo(void)
{
	struct fsb_mountinfo mi;

	CHECK(fsb_mountinfo("/proc", &mi) == 0);
	CHECK_STR(mi.type, "proc");
	CHECK(strncmp(mi.opts, "rw", 2) == 0 || strncmp(mi.opts, "ro", 2) == 0);
	mkdir("mi-plain", 0755);
	CHECK(fsb_mountinfo("mi-plain", &mi) == -ENOENT);	/* a directory, no mount on it */
	CHECK(fsb_mountinfo("mi-none/x", &mi) == -ENOENT);
	rmdir("mi-plain");
}

/* ---- the readers ---- */

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"bb22\"," rest "}\n"
#define PH(fs, rd, ph, s) REC("phase", "\"fs\":\"" fs "\",\"round\":" #rd ",\"phase\":\"" ph \
	"\",\"cold\":true,\"seconds\":" #s ",\"files\":320000,\"errors\":0,\"verify_errors\":0,\"verified\":true")
#define ROUND(fs, rd, s) PH(fs, rd, "create", s) PH(fs, rd, "stat", s) PH(fs, rd, "read", s) \
	PH(fs, rd, "delete", s)

/* A seed-shaped run: ext4, and ext4:noatime with its fs_start. */
static const char VRUN[] =
	REC("run_start", "\"mode\":\"device\",\"config\":{\"profile\":\"seed\",\"fs\":\"ext4,ext4:noatime\","
	    "\"dirs\":16,\"files\":20000,\"file_size\":4096,\"workers\":16,\"rounds\":2}")
	REC("fs_start", "\"fs\":\"ext4\",\"mount_opts\":\"\",\"mkfs\":{\"argv\":\"mke2fs -t ext4 /dev/x\"},"
	    "\"mountinfo\":{\"type\":\"ext4\",\"opts\":\"rw,relatime\",\"super_opts\":\"rw\"}")
	ROUND("ext4", 1, 10) ROUND("ext4", 2, 12)
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\"")
	REC("fs_start", "\"fs\":\"ext4:noatime\",\"mount_opts\":\"noatime\",\"variant\":{\"name\":\"ext4:noatime\","
	    "\"base\":\"ext4\",\"mkfs\":\"\",\"mount\":\"noatime\",\"source\":\"built in\"},"
	    "\"mkfs\":{\"argv\":\"mke2fs -t ext4 /dev/x\"},"
	    "\"mountinfo\":{\"type\":\"ext4\",\"opts\":\"rw,noatime\",\"super_opts\":\"rw\"}")
	ROUND("ext4:noatime", 1, 5) ROUND("ext4:noatime", 2, 6)
	REC("fs_end", "\"fs\":\"ext4:noatime\",\"status\":\"ok\"")
	REC("run_end", "\"status\":\"ok\",\"exit_code\":0");

static const char *text_cell(const struct rep_table *t, size_t row, size_t col)
{
	static char buf[4][REP_CELL_BUF];
	static unsigned next;
	const struct rep_cell *c = rep_table_cell(t, row, col);
	const struct rep_writer *md = rep_writer_find("md");
	if (!c)
		return NULL;
	return rep_cell_text(md, c, buf[next++ % 4], sizeof(buf[0]));
}

static void test_readers(void)
{
	struct rep_set set;
	struct rep_table t;
	const struct rep_run *r = unit_run_text(&set, VRUN, "variants.jsonl");

	if (!r)
		return;
	CHECK_EQ_U(r->nfs, 2);
	CHECK_STR(r->fs[0].base, "ext4");
	CHECK(!r->fs[0].variant);
	CHECK_STR(r->fs[1].name, "ext4:noatime");
	CHECK_STR(r->fs[1].base, "ext4");
	CHECK(r->fs[1].variant);
	CHECK_STR(r->fs[1].v_mount, "noatime");
	CHECK_STR(r->fs[1].mi_opts, "rw,noatime");
	CHECK(rep_has_variants(r));

	/* the variants table: one row per column, the kernel's view */
	CHECK(rep_table_variants(r, &t) == 0);
	rep_table_view(&t, REP_VIEW_READ);
	CHECK_EQ_U(t.nrows, 2);
	{
		static const struct cell_want want[] = {
			{ 1, 0, "ext4:noatime" }, { 1, 1, "ext4" }, { 1, 2, "-" }, { 1, 3, "noatime" },
			{ 1, 4, "rw,noatime" }, { 1, 6, "built in" }, { 0, 4, "rw,relatime" },
		};
		CELLS_CHECK(&t, rep_writer_find("md"), want);
	}
	rep_table_free(&t);

	/* next to the reference: the variant's rows hold ext4's figures, said so */
	CHECK(rep_seed_shaped(r));
	CHECK(rep_table_reference(r, &t) == 0);
	rep_table_view(&t, REP_VIEW_READ);
	int found = 0;
	for (size_t i = 0; i < t.nrows; i++)
		if (!strcmp(text_cell(&t, i, 0), "ext4:noatime (A: ext4)") &&
		    !strcmp(text_cell(&t, i, 1), "create (incl. sync)")) {
			found = 1;
			CHECK_STR(text_cell(&t, i, 2), "8.50");	/* SUITE.md's ext4 */
			CHECK_STR(text_cell(&t, i, 3), "5.50");	/* median of 5 and 6 */
		}
	CHECK(found);
	CHECK_CONTAINS(t.note, "A variant's rows (FS:NAME (A: FS)) hold its base filesystem's figures");
	rep_table_free(&t);

	/* the whole report names the variant */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(rep_print(m, r, rep_writer_find("md")) == 0);
	fclose(m);
	CHECK_CONTAINS(buf, "## Variants");
	CHECK_CONTAINS(buf, "| ext4:noatime | ext4 | -            | noatime");
	CHECK_CONTAINS(buf, "|  ext4 | ext4:noatime |");	/* the summary's columns */
	free(buf);

	/* the verdict: a variant is a filesystem a rule may name */
	char err[512];
	struct vd_criteria c;
	struct vd_result res;
	vd_criteria_init(&c, fsb_fs_names(), "create,stat,read,read_inode,delete", "stat,read,read_inode");
	CHECK(vd_criteria_add(&c, "max_seconds.ext4:noatime.create", "6.5", "t:1", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "max_seconds.ext4.create.aged", "11", "t:2", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "fs_ok", "ext4,ext4:noatime", "t:3", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "max_seconds.zfs:x.create", "1", "t:4", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "t:4: max_seconds.zfs:x.create: unknown filesystem 'zfs:x'; allowed: * or ext4,xfs,btrfs,f2fs,nilfs2, or a variant FS:NAME");
	CHECK(vd_criteria_add(&c, "fs_ok", "ext4:Bad", "t:5", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "unknown filesystem 'ext4:Bad'");
	CHECK(vd_evaluate(&c, r, &res) == 0);
	CHECK_EQ_U(res.n, 4);	/* ext4:noatime create; ext4 create aged; fs_ok twice */
	CHECK_EQ_U(res.nfail, 1);	/* ext4 aged create: 12 s > 11 */
	int noatime_ok = 0;
	for (size_t i = 0; i < res.n; i++)
		if (strstr(res.check[i].what, "ext4:noatime create") && res.check[i].pass)
			noatime_ok = 1;
	CHECK(noatime_ok);
	vd_result_free(&res);
	vd_criteria_free(&c);

	/* criteria written from the run read back */
	m = open_memstream(&buf, &len);
	CHECK(vd_write_criteria(m, r, "variants.jsonl", 0.5) == 0);
	fclose(m);
	CHECK_CONTAINS(buf, "fs_ok = ext4,ext4:noatime\n");
	CHECK_CONTAINS(buf, "min_files_per_s.ext4:noatime.create = ");
	vd_criteria_init(&c, fsb_fs_names(), "create,stat,read,read_inode,delete", "stat,read,read_inode");
	int bad = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *eq = strstr(line, " = ");
		if (line[0] == '#' || !eq)
			continue;
		*eq = 0;
		if (vd_criteria_add(&c, line, eq + 3, "w", err, sizeof(err)) < 0) {
			bad++;
			fprintf(stderr, "  %s\n", err);
		}
	}
	CHECK_EQ_U(bad, 0);
	vd_criteria_free(&c);
	free(buf);
	rep_free(&set);

	/* a LAVA test case id: ':' is not one of its characters */
	char id[FSB_LAVA_ID_MAX];
	CHECK(fsb_lava_phase_id(id, sizeof(id), "f2fs:s4z4", 2, "read_inode") > 0);
	CHECK_STR(id, "f2fs.s4z4-r2-read_inode");
	CHECK(fsb_lava_id_ok(id));
	CHECK(fsb_lava_phase_id(id, sizeof(id), "ext4", 1, "create") > 0);
	CHECK_STR(id, "ext4-r1-create");
}

/* A variant marked unsafe: its fs_start says why, the variants table shows it. */
static const char URUN[] =
	REC("run_start", "\"mode\":\"device\",\"config\":{\"profile\":\"smoke\",\"fs\":\"ext4:nobarrier\","
	    "\"dirs\":4,\"files\":500,\"file_size\":4096,\"workers\":4,\"rounds\":2}")
	REC("fs_start", "\"fs\":\"ext4:nobarrier\",\"mount_opts\":\"nobarrier\",\"variant\":{\"name\":\"ext4:nobarrier\","
	    "\"base\":\"ext4\",\"mkfs\":\"\",\"mount\":\"nobarrier\",\"source\":\"built in\","
	    "\"unsafe\":\"no cache flush\"},\"mkfs\":{\"argv\":\"mke2fs -t ext4 /dev/x\"}")
	ROUND("ext4:nobarrier", 1, 5) ROUND("ext4:nobarrier", 2, 6)
	REC("fs_end", "\"fs\":\"ext4:nobarrier\",\"status\":\"ok\"")
	REC("run_end", "\"status\":\"ok\",\"exit_code\":0");

static void test_unsafe(void)
{
	struct rep_set set;
	struct rep_table t;
	struct fsb_config c;
	struct fsb_column col;
	char err[512];

	/* the column carries the built-in row's reason; a setting's row none */
	layers_reset();
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK(fsb_config_column(&c, "f2fs:nobarrier", &col) == 0);
	CHECK(col.unsafe && strstr(col.unsafe, "power cut"));
	CHECK(fsb_config_column(&c, "f2fs:nodiscard", &col) == 0);
	CHECK(col.unsafe == NULL);
	CHECK(fsb_layer_add(&lo, "variant.ext4:nobarrier", "mount:barrier", "command line", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK(fsb_config_column(&c, "ext4:nobarrier", &col) == 0);
	CHECK(col.unsafe == NULL);
	/* --help's list of the built-in variants says which are unsafe */
	char *help = captured(do_help, &c);
	CHECK_CONTAINS(help, "ext4:nobarrier  mount:nobarrier  UNSAFE: no cache flush (FLUSH/FUA) to the disk\n");
	CHECK_CONTAINS(help, "f2fs:nodiscard  mount:nodiscard\n");

	const struct rep_run *r = unit_run_text(&set, URUN, "unsafe.jsonl");
	if (!r)
		return;
	CHECK_STR(r->fs[0].v_unsafe, "no cache flush");
	CHECK(rep_table_variants(r, &t) == 0);
	rep_table_view(&t, REP_VIEW_READ);
	CHECK_EQ_U(t.nrows, 1);
	CHECK_STR(text_cell(&t, 0, 7), "UNSAFE: no cache flush");
	rep_table_free(&t);
	rep_free(&set);
}

UNIT_MAIN(test_table, test_names, test_parse, test_config, test_errors, test_mountinfo,
	test_readers, test_unsafe, layers_reset)
